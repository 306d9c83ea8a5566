"""Where a build may write, and how its site takes the old one's place: the marker
of a site atlas built (:data:`SITE_MARKER`, :func:`check_site_folder`) and the swap
(:func:`move_into_place`), which carries over the files a user added and leaves the
old site whole when it fails.

A build writes its site inside a marked temporary folder beside the target
(:class:`atlas.fsutil.Temporary`, ``.atlas-tmp-site-XXXXXXXX/site``).  Where the
system can (Linux's ``renameat2`` with ``RENAME_EXCHANGE``), the swap exchanges the
two folders in one step, so at every moment the target is either the old site or the
new one, whole; the old one, now inside the temporary, is removed with it.  Elsewhere
the old site is first moved into the temporary (``old``), then the new one into place:
a run killed between the two leaves the target missing, and the next build moves the
old site back (:func:`recover_site`) before it removes the temporary.

A big site (:data:`~atlas.render.site.output.IN_PLACE_FILES` files or more, as its
marker lists them) is updated in place instead (:func:`update_in_place`): the temporary
holds only the files that changed, and they are moved over the old ones at the end,
each file old or new at every moment.  A journal in the temporary lists what the
update replaces, adds and removes, and each old file is kept there until the update
is done: a build that fails half-way puts the old files back at once, and one killed
half-way leaves the journal, from which the next build puts them back
(:func:`recover_site`) before anything else.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import stat
import sys
import time
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path
from typing import Any

from ...errors import AtlasError, OutputFolderError, located
from .output import MANIFEST, manifest_keys

__all__ = [
    "remember_folders",
    "trusted_folders",
    "SITE_MARKER",
    "written_list",
    "check_site_folder",
    "mark_site",
    "move_into_place",
    "exchange",
    "recover_site",
    "in_place_files",
    "update_in_place",
]


#: The file atlas leaves in every site it builds: the list of the files it wrote.
SITE_MARKER = ".atlas-site.json"


def check_site_folder(out: Path) -> None:
    """Whether atlas may build a site into ``out``: a folder that does not exist, is
    empty, or carries the marker of a site atlas built.

    Raises
    ------
    OutputFolderError
        ``out`` is a file, or a folder holding what atlas did not write (nothing is
        touched then).
    """
    if not out.exists() and not out.is_symlink():
        return
    if not out.is_dir() or out.is_symlink():
        raise OutputFolderError(f"{out} is not a folder atlas may build a site in")
    if not any(out.iterdir()):
        return
    if (out / SITE_MARKER).is_file() or (out / MANIFEST).is_file():
        return
    raise OutputFolderError(
        f"{out} holds files atlas did not write; give an empty or new "
        "folder (atlas builds only into a folder it made)"
    )


def _written_files(folder: Path) -> list[str]:
    """Every file (and link) under ``folder``, as paths in it, sorted."""
    top = os.fspath(folder)
    out = []
    for here, dirs, names in os.walk(top):
        rel = os.path.relpath(here, top)
        for name in names + [d for d in dirs if os.path.islink(os.path.join(here, d))]:
            out.append(name if rel == "." else os.path.join(rel, name))
    return sorted(out)


def mark_site(tmp: Path, files: Sequence[str] | None = None) -> None:
    """Write the site's marker: the list of the files atlas wrote (``files``, or every
    file under ``tmp``), sorted, each once.  ``files`` sorted already
    (:meth:`~atlas.render.site.output.SiteWriter.listed`) cost one pass."""
    if files is None:
        listed = _written_files(tmp)
    else:
        listed = sorted(files)
        if len(set(listed)) < len(listed):
            listed = sorted(set(listed))
    data = {"format": "atlas-site", "version": 1, "files": listed}
    (tmp / SITE_MARKER).write_text(
        json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8"
    )


#: Bytes of a site's marker at most (a site of 100,000 files lists about 5 MB).
MAX_MARKER_BYTES = 64 * 1024 * 1024


def _damaged(message: str, *, path: Any = None, line: int | None = None) -> AtlasError:
    return OutputFolderError(located(path, line, message))


def written_list(site: Path) -> tuple[frozenset[str] | None, str | None]:
    """The files the marker of the site ``site`` says atlas wrote, and a sentence saying
    why it cannot be trusted when it cannot: ``(files, None)``, or ``(None, problem)``
    when the marker is missing or damaged (not a regular file, not JSON, nested too
    deep, not atlas's form).  Read within the readers' limits; never raises for what
    the marker holds."""
    files, problem, _ = _written(site)
    return files, problem


def _written(site: Path) -> tuple[frozenset[str] | None, str | None, bool]:
    """:func:`written_list`, and whether its paths were plain as listed
    (:func:`_plain_paths`: none left the folder)."""
    from ...fsutil import read_json_file

    marker = site / SITE_MARKER
    if not marker.exists() and not marker.is_symlink():
        return None, f"{marker}: missing", False
    try:
        data = read_json_file(marker, MAX_MARKER_BYTES, _damaged)
    except AtlasError as exc:
        return None, str(exc), False
    files = data.get("files") if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or data.get("format") != "atlas-site"
        or not isinstance(files, list)
        or not all(isinstance(f, str) for f in files)
    ):
        return None, f"{marker}: not the list of files of a site atlas built", False
    if _plain_paths(files):  # atlas's own list: every path is normal already
        return frozenset(files), None, True
    return frozenset(os.path.normpath(f) for f in files), None, False


def _plain_paths(files: Collection[str]) -> bool:
    """Whether every path of ``files`` is relative, inside its folder and normal (what
    :func:`os.path.normpath` leaves as it is): no part empty (a path that starts or ends
    with ``/``, or holds ``//``), ``.`` or ``..``.  The paths are looked at joined,
    each part between two ``/``, where a site lists 200,000 files.  False on a system
    whose separator is not ``/`` alone."""
    if os.sep != "/" or os.altsep is not None or not files:
        return False
    joined = "/" + "/".join(files) + "/"
    return "//" not in joined and "/./" not in joined and "/../" not in joined


def _manifest_keys(site: Path) -> frozenset[str] | None:
    """The files the site's manifest (:data:`MANIFEST`) lists by content key, or None
    when it is missing or damaged."""
    from ...fsutil import read_json_file

    try:
        data = read_json_file(site / MANIFEST, MAX_MARKER_BYTES, _damaged)
    except AtlasError:
        return None
    keys = manifest_keys(data)
    return None if keys is None else frozenset(os.path.normpath(k) for k in keys)


def _foreign_files(old: Path, new: Path | None = None) -> list[str]:
    """Files in a site atlas built that atlas cannot prove it wrote there (the user's).

    With a sound marker, the files it does not list.  With a missing or damaged one
    (:func:`written_list`), atlas trusts it with nothing: a file is atlas's only when
    the site's manifest lists it by key, or when the manifest is sound and the new site
    ``new`` puts a file of atlas's own layout at its path; every other file stays.
    """
    listed, _ = written_list(old)
    files = _written_files(old)
    if listed is not None:
        mine = set(listed) | {SITE_MARKER}
        return [f for f in files if f not in mine]
    keys = _manifest_keys(old)
    proven = set(keys or ()) | {MANIFEST, SITE_MARKER}
    if keys is not None and new is not None:
        proven |= set(_written_files(new))
    return [f for f in files if f not in proven]


def exchange(a: Path, b: Path) -> bool:
    """Swap the folders ``a`` and ``b`` in one step (``renameat2(RENAME_EXCHANGE)``).

    Returns False when the system or the file system cannot (nothing moved then).

    Raises
    ------
    OSError
        The exchange was possible but failed (nothing moved then either).
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):  # pragma: no cover - not Linux, or an old libc
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), os.fspath(a), None, os.fspath(b))


def move_into_place(tmp: Path, out: Path, aside: Path | None = None) -> None:
    """Swap the new site ``tmp`` in at ``out``; the files a user added to the old site
    are carried over (never deleted), and a failure leaves the old site whole.

    The old site ends up at ``tmp`` (exchanged) or at ``aside`` (moved there first,
    where the system cannot exchange folders; default: beside ``tmp``, ``tmp.old``):
    either way inside the build's temporary, which the caller removes.
    """
    foreign = _foreign_files(out, tmp) if out.is_dir() else []
    clash = [f for f in foreign if (tmp / f).exists()]
    if clash:
        raise OutputFolderError(
            f"{out} holds files atlas did not write where the new site puts its own: "
            f"{', '.join(clash[:5])}; move them away first"
        )
    for f in foreign:
        (tmp / f).parent.mkdir(parents=True, exist_ok=True)
        if (out / f).is_symlink():
            os.symlink(os.readlink(out / f), tmp / f)
        else:
            os.link(out / f, tmp / f)  # the same file, kept when the old site goes
    if out.exists() or out.is_symlink():
        if exchange(tmp, out):
            return
        old = aside if aside is not None else tmp.with_name(tmp.name + ".old")
        os.replace(out, old)
        try:
            os.replace(tmp, out)
        except OSError:
            os.replace(old, out)
            raise
        return
    os.replace(tmp, out)


def recover_site(folder: Path, mark: dict[str, Any]) -> None:
    """Put back what a killed build had taken from its site into its temporary
    ``folder``: the old files of an update in place cut short (its journal,
    :func:`rollback`), or the old site moved aside (``old``) when the site it was for is
    missing (the build died between the two steps of a swap that could not exchange).
    Called by :func:`atlas.fsutil.remove_stale_temporaries` before it removes
    ``folder``."""
    target = folder.parent / str(mark.get("target", ""))
    if mark.get("purpose") == "site" and mark.get("target") and (folder / JOURNAL).is_file():
        if target.is_dir() and not target.is_symlink():
            rollback(folder, target)
        return
    old = folder / "old"
    if (
        mark.get("purpose") == "site"
        and mark.get("target")
        and not target.exists()
        and not target.is_symlink()
        and old.is_dir()
        and not old.is_symlink()
        and (old / SITE_MARKER).is_file()
    ):
        os.replace(old, target)


#: The journal of an update in place, in the build's temporary; its old files beside it.
JOURNAL = "journal.json"
#: Where an update in place keeps the old files it replaces or removes until it is done.
OLD_FILES = "replaced"


def _signature(path: Path) -> tuple[int, int, int] | None:
    """The inode, modification time and size of ``path``, or None: a site's marker is
    replaced by each build, so a different signature means another build was here."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size


def in_place_files(out: Path) -> tuple[frozenset[str], tuple[int, int, int] | None] | None:
    """The files atlas wrote in the site ``out`` and its marker's signature, when the
    site is updated in place (:func:`update_in_place`): a sound marker listing at least
    :data:`~atlas.render.site.output.IN_PLACE_FILES` files.  None otherwise (a new, small
    or distrusted site is written whole and swapped in)."""
    from .output import IN_PLACE_FILES

    if not out.is_dir() or out.is_symlink():
        return None
    signature = _signature(out / SITE_MARKER)
    listed, _, plain = _written(out)
    if listed is None or len(listed) < IN_PLACE_FILES:
        return None
    if not plain and not all(_inside(f) for f in listed):
        return None  # a marker naming what is not in the site
    return listed, signature


def _inside(rel: str) -> bool:
    """Whether ``rel`` (normalised) names a file inside a folder: relative, no ``..``."""
    return bool(rel) and rel != "." and not os.path.isabs(rel) and ".." not in rel.split(os.sep)


def _walk(out: Path, rel: str) -> tuple[str | None, os.stat_result | None]:
    """What the site ``out`` holds on the way to ``rel``: the first part of the path
    that is there but not a folder (a file or a link where a folder goes), or None; and
    the ``lstat`` of ``rel`` itself, or None when it (or a folder on the way) is not
    there."""
    parts = rel.split(os.sep)
    here = out
    for depth, part in enumerate(parts):
        here = here / part
        try:
            st = os.lstat(here)
        except OSError:
            return None, None
        if depth < len(parts) - 1 and not stat.S_ISDIR(st.st_mode):
            return os.sep.join(parts[: depth + 1]), None
    return None, st


def _removable(out: Path, rel: str) -> bool:
    """Whether the update may take ``rel`` out of the site ``out``: a file (or a link)
    there, in folders that are folders, not links leading elsewhere."""
    blocked, st = _walk(out, rel)
    return blocked is None and st is not None and not stat.S_ISDIR(st.st_mode)


def _check_path(out: Path, rel: str, mine: frozenset[str], clash: list[str]) -> None:
    """Add ``rel`` to ``clash`` when the site ``out`` holds at its path, or on the way to
    it, what atlas did not write there: a file not on the marker's list, a folder or a
    link where the file goes, a file or a link where a folder goes."""
    blocked, st = _walk(out, rel)
    if blocked is not None:
        clash.append(blocked)
    elif st is not None and (not stat.S_ISREG(st.st_mode) or rel not in mine):
        clash.append(rel)


def update_in_place(
    tmp: Path,
    out: Path,
    work: Path,
    files: Sequence[str],
    changed: Sequence[str],
    seen: tuple[frozenset[str], tuple[int, int, int] | None],
) -> None:
    """Move the files ``changed`` from ``tmp`` over the site ``out`` and take out the
    files atlas wrote there before that the new site no longer has (``files`` are all
    of the new site's, its marker written into ``tmp`` last); the user's files stay.

    ``seen`` is :func:`in_place_files` of ``out`` when the build began.  The update
    holds the lock of ``out``; its journal and the old files go into ``work`` (the
    build's temporary), and a failure puts the old files back before it raises.

    Raises
    ------
    OutputFolderError
        Another build changed the site meanwhile, or the site holds what atlas did not
        write where the new site puts a file (nothing is changed then).
    """
    mine, signature = seen
    with _locked(out):
        if _signature(out / SITE_MARKER) != signature:
            raise OutputFolderError(
                f"{out}: another build changed the site while this one ran; nothing of "
                "this build was put in place (build again)"
            )
        new = set(files) | {SITE_MARKER}
        order = [f for f in changed if f != SITE_MARKER] + [SITE_MARKER]
        clash: list[str] = []
        ours = mine | {SITE_MARKER}  # once: a season's site lists 200,000 files
        for rel in order:
            _check_path(out, rel, ours, clash)
        if clash:
            raise OutputFolderError(
                f"{out} holds files atlas did not write where the new site puts its "
                f"own: {', '.join(sorted(set(clash))[:5])}; move them away first"
            )
        removed = sorted(f for f in mine - new if f != SITE_MARKER and _removable(out, f))
        created = [f for f in order if not os.path.lexists(out / f)]
        fresh = set(created)
        folders = sorted(
            {
                os.path.dirname(f)
                for f in created
                if os.path.dirname(f) and not os.path.isdir(out / os.path.dirname(f))
            }
        )
        journal = {
            "format": "atlas-site-journal",
            "version": 1,
            "folders": _with_parents(folders, out),
            "created": created,
            "replaced": [f for f in order if f not in fresh],
            "removed": removed,
        }
        part = work / (JOURNAL + ".part")
        part.write_text(json.dumps(journal, separators=(",", ":")), encoding="utf-8")
        os.replace(part, work / JOURNAL)
        try:
            _apply(tmp, out, work, journal)
        except BaseException:
            rollback(work, out)
            raise
        os.unlink(work / JOURNAL)  # done: the old files go with the temporary
        for folder in sorted({os.path.dirname(f) for f in removed}, reverse=True):
            while folder and not any(n.startswith(folder + os.sep) for n in new):
                try:
                    os.rmdir(out / folder)  # a folder the update emptied, and only then
                except OSError:
                    break
                folder = os.path.dirname(folder)


def _with_parents(folders: Sequence[str], out: Path) -> list[str]:
    """``folders`` and each of their parents that ``out`` lacks, parents first."""
    todo: set[str] = set()
    for folder in folders:
        while folder and not os.path.isdir(out / folder):
            todo.add(folder)
            folder = os.path.dirname(folder)
    return sorted(todo, key=lambda f: (f.count(os.sep), f))


def _apply(tmp: Path, out: Path, work: Path, journal: dict[str, Any]) -> None:
    """Carry out a journal: make its folders, keep each old file it changes or removes
    under ``work``'s :data:`OLD_FILES`, move the new files in and the removed ones out."""
    from ...fsutil import default_mode

    old = work / OLD_FILES
    mode = default_mode(directory=True)
    for folder in journal["folders"]:
        os.mkdir(out / folder, mode)
    for rel in journal["removed"]:
        (old / rel).parent.mkdir(parents=True, exist_ok=True)
        os.replace(out / rel, old / rel)
    created = set(journal["created"])
    for rel in _ordered(journal):
        if rel not in created:
            (old / rel).parent.mkdir(parents=True, exist_ok=True)
            os.link(out / rel, old / rel, follow_symlinks=False)
        os.replace(tmp / rel, out / rel)


def _ordered(journal: dict[str, Any]) -> list[str]:
    """The files a journal puts in place, in the order the update moves them (the
    site's marker last)."""
    files = [f for f in journal["created"] + journal["replaced"] if f != SITE_MARKER]
    return files + [SITE_MARKER]


def rollback(work: Path, out: Path) -> None:
    """Undo what the journal in ``work`` says an update in place did to the site
    ``out``, as far as it got: old files back, new ones out, new folders removed when
    empty.  A missing or damaged journal undoes nothing."""
    from ...fsutil import read_json_file

    try:
        journal = read_json_file(work / JOURNAL, MAX_MARKER_BYTES, _damaged)
        created = [str(f) for f in journal["created"]]
        restored = [str(f) for f in journal["replaced"] + journal["removed"]]
        folders = [str(f) for f in journal["folders"]]
    except (AtlasError, KeyError, TypeError):
        return
    old = work / OLD_FILES
    for rel in restored:
        if os.path.lexists(old / rel):
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            os.replace(old / rel, out / rel)
    for rel in created:
        if os.path.lexists(out / rel) and not os.path.isdir(out / rel):
            os.unlink(out / rel)
    for folder in reversed(folders):
        try:
            os.rmdir(out / folder)
        except OSError:
            pass
    os.unlink(work / JOURNAL)


class _locked:
    """The exclusive lock of the folder ``out`` (``flock`` on the folder itself: no
    file of atlas's in the user's folder), while a ``with`` block runs."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.fd: int | None = None

    def __enter__(self) -> None:
        from ...fsutil import _lock

        self.fd = os.open(self.out, os.O_RDONLY | os.O_DIRECTORY)
        _lock(self.fd, wait=True)

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)  # the lock goes with it


#: Linux's coarse real-time clock (``CLOCK_REALTIME_COARSE``), the clock that stamps a
#: folder's changes on most file systems: a change made after it passed a folder's
#: modification time gets a later one.
_COARSE_CLOCK = 5

#: How long a build waits, at most, for that clock to pass the times of the folders
#: it just changed, before it records them (:func:`remember_folders`).
RECORD_WAIT = 0.05


def _folder_mark(top: str, folder: str) -> list[int] | None:
    """The inode, modification and change times of the folder ``folder`` of the site at
    ``top`` (``""``: the top itself; not a link), or None."""
    try:
        st = os.lstat(os.path.join(top, folder) if folder else top)
    except OSError:
        return None
    return [st.st_ino, st.st_mtime_ns, st.st_ctime_ns] if stat.S_ISDIR(st.st_mode) else None


def _with_ancestors(folders: Iterable[str]) -> set[str]:
    """``folders`` (paths in a site, ``""`` its top) and every folder above them."""
    out = {""}
    for f in folders:
        while f not in out:
            out.add(f)
            f = f.rpartition("/")[0]
    return out


def _folders_key(site: Path) -> str:
    from .cache import content_key

    return content_key("site-folders", 1, os.fspath(site.resolve()))


def remember_folders(cache: Any, site: Path, folders: Iterable[str]) -> None:
    """Record in ``cache`` the site's marker and its ``folders`` (and the folders above
    them) as they are, just after a build put its files in place: a folder found as
    recorded has had no file added, removed, renamed or replaced since
    (:func:`trusted_folders`).

    Only on Linux, and only once the coarse clock that stamps a folder's changes has
    passed their times (a change in the same tick would keep a folder's time): the build
    waits for it at most :data:`RECORD_WAIT` seconds, and records nothing otherwise."""
    if not sys.platform.startswith("linux") or getattr(cache, "root", None) is None:
        return
    top = os.fspath(site)
    names = sorted(_with_ancestors(folders))
    marks = {f: _folder_mark(top, f) for f in names}
    latest = max((m[1] for m in marks.values() if m is not None), default=0)
    deadline = time.monotonic() + RECORD_WAIT
    try:
        while time.clock_gettime_ns(_COARSE_CLOCK) <= latest:
            if time.monotonic() > deadline:
                return
            time.sleep(0.002)
    except OSError:  # no coarse clock here
        return
    again = {f: _folder_mark(top, f) for f in names}
    marker = _signature(site / SITE_MARKER)
    if again != marks or marker is None:
        return  # something changed them meanwhile: nothing is trusted next time
    found = {f: m for f, m in again.items() if m is not None}  # (a folder gone: not)
    cache.put_json(
        "site-folders", _folders_key(site), {"marker": list(marker), "folders": found}
    )


def trusted_folders(
    cache: Any, site: Path, signature: tuple[int, int, int] | None
) -> frozenset[str]:
    """The folders of the site ``site`` that are as the build that wrote its marker
    (whose signature is ``signature``) recorded them, and so are every folder above
    them (:func:`remember_folders`): the files the marker lists in such a folder are
    there as that build left them, and a build updating the site in place need not list
    it (a season's ``games/`` holds 200,000 files).  Empty when the cache has no record
    for this marker."""
    if signature is None or getattr(cache, "root", None) is None:
        return frozenset()
    found = cache.get_json("site-folders", _folders_key(site))
    if not isinstance(found, dict) or found.get("marker") != list(signature):
        return frozenset()
    recorded = found.get("folders")
    if not isinstance(recorded, dict):
        return frozenset()
    top = os.fspath(site)
    same = {
        f for f, mark in recorded.items() if isinstance(f, str) and mark == _folder_mark(top, f)
    }
    return frozenset(f for f in same if _with_ancestors([f]) <= same)
