"""The games a build publishes, besides the ones it plays: saved records
(:func:`load_records`) and organisers' tournament folders (:func:`load_event`), each
made a :class:`~atlas.render.site.entries.GameEntry` on its map (:func:`game_entries`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ...errors import AtlasError, PlanError, RecordError
from ...fsutil import read_regular_file
from .cache import content_key
from .entries import GameEntry, MapEntry
from .pages import slugify

__all__ = [
    "load_records",
    "load_event",
    "event_void_rule",
    "game_entries",
    "shown_paths",
    "public_json",
]


def load_records(records_dir: Path, problems: list[str]) -> list[Any]:
    """Every replay record (``*.json``, ``*.json.gz``) under ``records_dir``.

    The walk enters no symlinked folder and reads a symlinked file only when it leads
    to a regular file inside ``records_dir``; what it leaves out is listed in
    ``problems``.  Each record is loaded within the readers' limits
    (:func:`atlas.sim.records.load_record`) and checked when it is drawn.
    """
    from ...sim.records import load_record

    out = []
    top = records_dir.resolve()
    files: list[Path] = []
    for here, dirs, names in os.walk(records_dir, followlinks=False):
        dirs.sort()
        for name in sorted(names):
            if not (name.endswith(".json") or name.endswith(".json.gz")):
                continue
            p = Path(here) / name
            if p.is_symlink():
                target = p.resolve()
                if not (target.is_file() and target.is_relative_to(top)):
                    problems.append(
                        f"record {p}: left out, a link that leads out of {records_dir}"
                    )
                    continue
            elif not p.is_file():
                problems.append(f"record {p}: left out, not a regular file")
                continue
            files.append(p)
    for p in files:
        try:
            out.append(load_record(p))
        except RecordError as exc:
            problems.append(f"record {p.name}: {exc.reason}")
    return out


def shown_paths(roots: Sequence[Path]) -> Callable[[str], str]:
    """A function that rewrites ``ROOT/...`` (as given, absolute or resolved) to
    ``NAME/...`` in a text, for each of ``roots``: a published page names a bad file
    from its folder, never by a path of the machine that built the site."""
    forms: dict[str, str] = {}
    for root in roots:
        for form in {str(root), os.path.abspath(root), str(root.resolve())}:
            if form not in ("", ".", "/"):
                forms[form.rstrip("/") + "/"] = (root.resolve().name or "maps") + "/"

    def shown(text: str) -> str:
        for form in sorted(forms, key=len, reverse=True):
            text = text.replace(form, forms[form])
        return text

    return shown


def load_event(
    folder: Path, problems: list[str], taken: Sequence[str] = ()
) -> tuple[str, list[Any]] | None:
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
        import tomllib

        try:
            data = tomllib.loads(read_regular_file(plan, 1 << 20, PlanError).decode("utf-8"))
            if isinstance(data.get("name"), str) and data["name"].strip():
                name = data["name"].strip()
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, AtlasError) as exc:
            problems.append(f"tournament {plan}: cannot read the plan: {exc}")
    if name in taken:
        name = f"{folder.resolve().parent.name}/{name}"
    recs = load_records(records, problems)
    if not recs:
        problems.append(f"tournament {folder}: no records to publish")
        return None
    return name, recs


def event_void_rule(folder: Path, problems: list[str]) -> float | None:
    """The load a core above which a tournament folder's ``results.json`` says games
    lost on time were voided (``void_timeouts_under_load``), or ``None`` (no rule, no
    results yet, or a file that cannot be read: said in ``problems``)."""
    import json

    path = folder / "results.json"
    if not path.is_file() or path.is_symlink():
        return None
    try:
        data = json.loads(read_regular_file(path, 64 << 20, PlanError).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, AtlasError) as exc:
        problems.append(f"tournament {path}: cannot read the results: {exc}")
        return None
    rule = data.get("void_timeouts_under_load") if isinstance(data, dict) else None
    if isinstance(rule, bool) or not isinstance(rule, (int, float)) or not rule > 0:
        return None
    return float(rule)


def game_entries(
    records: list[Any], origin: str, maps: list[MapEntry], taken: set[str]
) -> list[GameEntry]:
    by_hash = {(e.game, e.game_map.content_hash): e for e in maps if e.game_map is not None}
    out = []
    for rec in records:
        digest = content_key("record", public_json(rec))
        map_entry = by_hash.get((rec.game, rec.map.hash))
        mslug = map_entry.slug if map_entry else slugify(f"{rec.game}-{rec.map.name}")
        ident = slugify(f"{mslug}-{digest[:10]}", taken)
        entry = GameEntry(
            ident, rec, origin, map_entry.slug if map_entry else None, digest=digest
        )
        if map_entry is not None:
            map_entry.games.append(entry)
        out.append(entry)
    return out


def public_json(rec: Any) -> dict[str, Any]:
    data = rec.public_json()
    data.pop("created", None)
    return data
