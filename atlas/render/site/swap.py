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
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...errors import AtlasError, OutputFolderError, located
from .output import MANIFEST

__all__ = [
    "SITE_MARKER",
    "written_list",
    "check_site_folder",
    "mark_site",
    "move_into_place",
    "exchange",
    "recover_site",
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
    file under ``tmp``)."""
    listed = sorted(set(files)) if files is not None else _written_files(tmp)
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
    from ...fsutil import read_json_file

    marker = site / SITE_MARKER
    if not marker.exists() and not marker.is_symlink():
        return None, f"{marker}: missing"
    try:
        data = read_json_file(marker, MAX_MARKER_BYTES, _damaged)
    except AtlasError as exc:
        return None, str(exc)
    files = data.get("files") if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or data.get("format") != "atlas-site"
        or not isinstance(files, list)
        or not all(isinstance(f, str) for f in files)
    ):
        return None, f"{marker}: not the list of files of a site atlas built"
    return frozenset(os.path.normpath(f) for f in files), None


def _manifest_keys(site: Path) -> frozenset[str] | None:
    """The files the site's manifest (:data:`MANIFEST`) lists by content key, or None
    when it is missing or damaged."""
    from ...fsutil import read_json_file

    try:
        data = read_json_file(site / MANIFEST, MAX_MARKER_BYTES, _damaged)
    except AtlasError:
        return None
    if not isinstance(data, dict):
        return None
    return frozenset(os.path.normpath(str(k)) for k in data)


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
    """Move back the old site a killed build had moved into its temporary ``folder``
    (``old``), when the site it was for is missing (the build died between the two
    steps of a swap that could not exchange).  Called by
    :func:`atlas.fsutil.remove_stale_temporaries` before it removes ``folder``."""
    target = folder.parent / str(mark.get("target", ""))
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
