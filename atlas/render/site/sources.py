"""The games a build publishes, besides the ones it plays: saved records
(:func:`load_records`) and organisers' tournament folders (:func:`load_event`), each
made a :class:`~atlas.render.site.entries.GameEntry` on its map (:func:`game_entries`)."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import AtlasError, PlanError, RecordError, located
from ...fsutil import read_json_file, read_regular_file, read_toml_file, temporary_mark
from .cache import Cache, KeptMapping, content_key
from .entries import GameEntry, MapEntry, RecordHead
from .pages import slugify

__all__ = [
    "LoadedRecord",
    "load_records",
    "record_files",
    "packed_record_files",
    "unpacked_record_files",
    "RecordFiles",
    "load_event",
    "event_void_rule",
    "game_entries",
    "shown_paths",
    "public_json",
]


@dataclass
class LoadedRecord:
    """A saved record found by a build: its file as the user named it, its head, the
    content key of its public JSON, and the whole record when it was read whole (a
    file the build had not seen), else a way to read it (:attr:`load`)."""

    source: str
    head: RecordHead
    digest: str
    record: Any = None

    def load(self) -> Any:
        """The whole record, read from its file again, checked to be the one seen."""
        from ...sim.records import load_record

        if self.record is not None:
            return self.record
        record = load_record(self.source)
        if content_key("record", public_json(record)) != self.digest:
            raise RecordError("the file changed while the site was built", path=self.source)
        return record


#: The form of the rows of the records' index in the cache (part of its key: an index
#: of another form is not read).
HEAD_INDEX_FORMAT = 2

#: Records in a folder up to which :func:`load_records` keeps each one it parses whole
#: (beyond, only its head: a 100,000-game season's records held whole took 2.8 GB).
KEEP_WHOLE = 2_000


def load_records(
    records_dir: Path,
    problems: list[str],
    cache: Cache | None = None,
    version: str = "",
    walked: Callable[[], RecordFiles | None] | None = None,
) -> list[LoadedRecord]:
    """Every replay record (``*.json``, ``*.json.gz``) under ``records_dir``, each with
    its file as the user names it (``records_dir`` as given, then the file's path in it).

    The walk enters no symlinked folder (nor a temporary of a running tournament) and
    reads a symlinked file only when it leads to a regular file inside
    ``records_dir``; what it leaves out is listed in ``problems``, each naming its file
    (and line, where there is one) the same way.  Each record is loaded within the
    readers' limits (:func:`atlas.sim.records.load_record`) and checked when it is
    drawn.

    With a ``cache``, a file whose bytes the last build of this folder read (with the
    same code ``version``) is not parsed again: its head and content key come from one
    index in the cache, and the whole record is read only if something needs it.  A
    record parsed here is kept whole only in a folder of at most :data:`KEEP_WHOLE`
    records: a big season's records are read again, one at a time, where they are drawn
    and paged, so the build's memory does not grow with every game's turns.

    ``walked``, when given, is asked for :func:`record_files` of ``records_dir`` once
    the cache's indexes are read: the caller had it made meanwhile (a build forks a
    child for it as it starts: a season's 100,000 files take half a second to list and
    stat).  When it answers None, the folder is walked here.
    """
    from ...limits import MAX_RECORD_BYTES
    from ...sim.records import record_from_bytes

    top = records_dir.resolve()
    # the index of the last build of this folder: heads by the bytes' SHA-256 (rows of
    # RecordHead.to_row, beside the parts they share), files by their path in the
    # folder (each a mapping kept as a base and a small delta)
    index_key = content_key("record-heads", HEAD_INDEX_FORMAT, version, str(top))
    kept_heads = KeptMapping(cache, "record-heads", index_key)
    kept_files = KeptMapping(cache, "record-heads", content_key("record-files", index_key))
    seen, known = kept_heads.load(), kept_files.load()
    found_files = walked() if walked is not None else None
    files, walk_problems = found_files or record_files(records_dir)
    problems += walk_problems
    heads: dict[str, Any] = {}
    stats: dict[str, Any] = {}
    made: dict[str, Any] = {}  # the parts the rows share, each made once
    out = []
    for p, rel, mark in files:
        try:
            mark = mark or _mark(os.stat(p))  # a link's target, stat-ed here
            # a file as it was (same size, times and inode) is not even read again
            was = known.get(rel)
            sha = was[4] if isinstance(was, list) and len(was) == 5 and was[:4] == mark else ""
            sha = sha if isinstance(sha, str) else ""  # a damaged index reads the file
            row = seen.get(sha) if sha else None
            found = RecordHead.from_row(row, seen, made)  # None without a row
            if found is None:
                raw = read_regular_file(p, MAX_RECORD_BYTES, RecordError, what="record")
                sha = hashlib.sha256(raw).hexdigest()
                row = seen.get(sha)
                found = RecordHead.from_row(row, seen, made)  # None without a row
            if found is not None:
                out.append(LoadedRecord(p, *found))
            else:
                record = record_from_bytes(raw, p)
                head = RecordHead.of(record)
                digest = content_key("record", public_json(record))
                row = head.to_row(digest, heads)
                whole = record if len(files) <= KEEP_WHOLE else None
                out.append(LoadedRecord(p, head, digest, whole))
        except (RecordError, OSError) as exc:
            if isinstance(exc, RecordError):
                problems.append("record " + located(p, exc.line, exc.reason))
            else:
                problems.append(f"record {p}: cannot read file: {exc.strerror or exc}")
            continue
        heads[sha] = row
        stats[rel] = [*mark, sha]
    for key in made:  # the parts of the rows read from the index, as it holds them
        if key in seen and key not in heads:
            heads[key] = seen[key]
    kept_heads.save(heads)
    kept_files.save(stats)
    return out


#: The record files of a folder (:func:`record_files`): each file's path as the user
#: names it, its path in the folder and its :func:`_mark` (None for a link); and what
#: was left out, each said as a problem.
RecordFiles = tuple[list[tuple[str, str, "list[int] | None"]], list[str]]


def record_files(records_dir: Path) -> RecordFiles:
    """The record files under ``records_dir`` (:func:`_record_files`) and the problems
    of the walk, in values a forked child sends back in one piece (no ``stat_result``).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "g1.json").write_text("{}")
    ...     files, problems = record_files(Path(d))
    >>> [(rel, len(mark)) for _, rel, mark in files], problems
    ([('g1.json', 4)], [])
    """
    problems: list[str] = []
    files = _record_files(records_dir, records_dir.resolve(), problems)
    return files, problems


def packed_record_files(records_dir: Path) -> tuple[list[str], list[Any], list[str]]:
    """:func:`record_files` packed to cross a pipe from a forked child: each file's
    path in the folder, its mark, and the problems; :func:`unpacked_record_files` makes
    it whole again.  The paths as the user names them are left out (the parent joins
    them again: a third less to pickle)."""
    files, problems = record_files(records_dir)
    return [rel for _, rel, _ in files], [m for _, _, m in files], problems


def unpacked_record_files(records_dir: Path, packed: Any) -> RecordFiles | None:
    """:func:`record_files` of ``records_dir`` from :func:`packed_record_files`'s
    value, or None when it is not one (a child that sent something else).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "g1.json").write_text("{}")
    ...     unpacked_record_files(Path(d), packed_record_files(Path(d))) == record_files(
    ...         Path(d)
    ...     )
    True
    """
    try:
        rels, marks, problems = packed
    except (TypeError, ValueError):
        return None
    if not (
        type(rels) is list
        and type(marks) is list
        and type(problems) is list
        and len(rels) == len(marks)
        and all(type(r) is str for r in rels)
        and all(m is None or type(m) is list for m in marks)
        and all(type(p) is str for p in problems)
    ):
        return None
    here = os.fspath(records_dir)
    prefix = here if here.endswith(os.sep) else here + os.sep  # as os.path.join joins
    return [(prefix + r, r, m) for r, m in zip(rels, marks)], problems


def _mark(st: os.stat_result) -> list[int]:
    """What says a file is as it was: its size, modification and change times, inode."""
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def _record_files(
    records_dir: Path, top: Path, problems: list[str]
) -> list[tuple[str, str, list[int] | None]]:
    """The record files under ``records_dir`` (``*.json``, ``*.json.gz``), each as
    ``(path as the user names it, path in the folder, its mark)`` (:func:`_mark`): a
    folder's files by name, then its folders' by name (as :func:`os.walk` goes), read
    with one listing of each folder and no call per file but the stat (a season holds
    100,000).  The walk enters no link nor a temporary of a running tournament; a link
    is listed without its mark (None) when it leads to a regular file inside ``top``;
    what is left out is said in ``problems``."""
    out: list[tuple[str, str, list[int] | None]] = []
    todo = [(str(records_dir), "")]
    while todo:
        here, rel_here = todo.pop()
        try:
            with os.scandir(here) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        folders = []
        for e in entries:
            try:
                is_dir = e.is_dir()
            except OSError:
                is_dir = False
            rel = os.path.join(rel_here, e.name) if rel_here else e.name
            if is_dir:
                if not e.is_symlink() and temporary_mark(e.path) is None:
                    # a temporary of a tournament still running (or killed) holds no
                    # record yet
                    folders.append((e.path, rel))
                continue
            if not (e.name.endswith(".json") or e.name.endswith(".json.gz")):
                continue
            if e.is_symlink():
                target = Path(e.path).resolve()
                if not (target.is_file() and target.is_relative_to(top)):
                    problems.append(
                        f"record {e.path}: left out, a link that leads out of {records_dir}"
                    )
                    continue
                out.append((e.path, rel, None))
            elif not e.is_file(follow_symlinks=False):
                problems.append(f"record {e.path}: left out, not a regular file")
            else:
                try:
                    out.append((e.path, rel, _mark(e.stat(follow_symlinks=False))))
                except OSError as exc:
                    problems.append(f"record {e.path}: cannot read file: {exc.strerror or exc}")
        todo.extend(reversed(folders))
    return out


def shown_paths(roots: Sequence[Path]) -> Callable[[str], str]:
    """A function that rewrites ``ROOT/...`` (as given, absolute or resolved), and
    ``ROOT`` itself, to ``NAME/...`` and ``NAME`` in a text, for each of ``roots``: a
    published page names a bad file from its folder, never by a path of the machine
    that built the site."""
    forms: dict[str, str] = {}
    for root in roots:
        for form in {str(root), os.path.abspath(root), str(root.resolve())}:
            form = form.rstrip("/")
            if form not in ("", "."):
                forms[form] = root.resolve().name or "maps"
    if not forms:
        return lambda text: text
    pattern = re.compile(  # a whole path: nothing of a longer one before or after
        r"(?<![\w./-])(?:"
        + "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
        + r")(?=/|$|[\s,;:)'\"])"
    )

    def shown(text: str) -> str:
        return pattern.sub(lambda m: forms[m.group(0)], text)

    return shown


def load_event(
    folder: Path,
    problems: list[str],
    taken: Sequence[str] = (),
    cache: Cache | None = None,
    version: str = "",
) -> tuple[str, list[LoadedRecord]] | None:
    """The name and records of an organiser's tournament folder (``atlas tournament
    --out DIR``: ``records/``, ``results.json``, ``tournament.toml``), or None with the
    reason in ``problems``.  The name is the plan's ``name`` when it has one, else the
    folder's; a name already published gets the folder's parent as a prefix."""
    records = folder / "records"
    if not folder.is_dir():
        problems.append(f"tournament {folder}: not a folder")
        return None
    if not records.is_dir():
        problems.append(
            f"tournament {folder}: no records/ folder (publish a folder "
            "written by atlas tournament --out)"
        )
        return None
    name = folder.resolve().name or "tournament"
    plan = folder / "tournament.toml"
    if plan.is_file() and not plan.is_symlink():
        try:  # within the readers' limits: a deep nesting is a problem, not a crash
            data, _ = read_toml_file(plan, PlanError)
            if isinstance(data.get("name"), str) and data["name"].strip():
                name = data["name"].strip()
        except AtlasError as exc:
            problems.append(f"tournament plan {exc}")
    if name in taken:
        name = f"{folder.resolve().parent.name}/{name}"
    recs = load_records(records, problems, cache, version)
    if not recs:
        problems.append(f"tournament {folder}: no records to publish")
        return None
    return name, recs


def event_void_rule(folder: Path, problems: list[str]) -> float | None:
    """The load a core above which a tournament folder's ``results.json`` says games
    lost on time were voided (``void_timeouts_under_load``), or ``None`` (no rule, no
    results yet, or a file that cannot be read: said in ``problems``)."""
    path = folder / "results.json"
    if not path.is_file() or path.is_symlink():
        return None
    try:  # within the readers' limits: a deep nesting is a problem, not a crash
        data = read_json_file(path, 64 << 20, PlanError)
    except AtlasError as exc:
        why = getattr(exc, "reason", str(exc))
        problems.append(f"tournament {path}: cannot read the results: {why}")
        return None
    rule = data.get("void_timeouts_under_load") if isinstance(data, dict) else None
    if isinstance(rule, bool) or not isinstance(rule, (int, float)) or not rule > 0:
        return None
    return float(rule)


def game_entries(
    records: Sequence[Any], origin: str, maps: list[MapEntry], taken: set[str]
) -> list[GameEntry]:
    """Each record as a game of the site, on its map when the build has it: whole
    records (the build's own games) or saved ones (:class:`LoadedRecord`, which keep
    their files: :attr:`GameEntry.source`)."""
    by_hash = {(e.game, e.game_map.content_hash): e for e in maps if e.game_map is not None}
    out = []
    for item in records:
        if isinstance(item, LoadedRecord):
            head, digest, source = item.head, item.digest, item.source
        else:
            head, source = RecordHead.of(item), None
            digest = content_key("record", public_json(item))
        map_entry = by_hash.get((head.game, head.map.hash))
        mslug = map_entry.slug if map_entry else slugify(f"{head.game}-{head.map.name}")
        ident = slugify(f"{mslug}-{digest[:10]}", taken)
        entry = GameEntry(ident, head, origin, map_entry.slug if map_entry else None)
        entry.digest, entry.source = digest, source
        if isinstance(item, LoadedRecord):
            entry.loader, entry._record = item.load, item.record
        else:
            entry._record = item
        if map_entry is not None:
            map_entry.games.append(entry)
        out.append(entry)
    return out


def public_json(rec: Any) -> dict[str, Any]:
    """What the site publishes of a record: no ``stderr``, no timestamp, and none of the
    seconds of its seats played at fixed effort (:func:`atlas.sim.records.machine_free`),
    so that a game's file and name are the same whatever machine played it."""
    from ...sim.records import machine_free

    data = machine_free(rec).public_json()
    data.pop("created", None)
    return data
