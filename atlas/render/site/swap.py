"""Where a build may write, and how its site takes the old one's place: the marker
of a site atlas built (:data:`SITE_MARKER`, :func:`check_site_folder`) and the swap
(:func:`move_into_place`), which carries over the files a user added and leaves the
old site whole when it fails."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from ...errors import OutputFolderError
from .output import MANIFEST

__all__ = ["SITE_MARKER", "check_site_folder", "mark_site", "move_into_place"]


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
    return sorted(
        str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() or p.is_symlink()
    )


def mark_site(tmp: Path) -> None:
    files = _written_files(tmp)
    data = {"format": "atlas-site", "version": 1, "files": files}
    (tmp / SITE_MARKER).write_text(
        json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8"
    )


def _foreign_files(old: Path) -> list[str]:
    """Files in a site atlas built that atlas did not write there (the user's)."""
    try:
        listed = json.loads((old / SITE_MARKER).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return []  # a site of an older atlas: every file is atlas's
    mine = set(listed) | {SITE_MARKER}
    return [f for f in _written_files(old) if f not in mine]


def move_into_place(tmp: Path, out: Path) -> None:
    """Swap the new site in; the files a user added to the old site are carried over
    (never deleted), and a failure leaves the old site whole."""
    foreign = _foreign_files(out) if out.is_dir() else []
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
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-", dir=out.parent))
        old.rmdir()
        os.replace(out, old)
    try:
        os.replace(tmp, out)
    except OSError:
        if old is not None:
            os.replace(old, out)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
