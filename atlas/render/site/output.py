"""Writing the site so that a rebuild rewrites only what changed.

The build writes a fresh site into a temporary folder and moves it into place (a failed
build leaves the previous site whole).  :class:`SiteWriter` keeps every file whose
content did not change *as it was*: the previous site's file is hard-linked (or, where
links are not possible, copied with its times) into the new one instead of being
written again, so its bytes and its modification time stay the same, and a static host
or a sync tool sees only the files that changed.

Files whose content is decided by a content key (a game's page, GIF and record) are
listed with that key in the site's manifest (:data:`MANIFEST`, a small JSON file at the
site's top): when the previous site holds the file under the same key, it is kept
without even being produced again.  Other files are produced and kept when their bytes
equal the previous ones.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

from ...fsutil import writing_in
from ...limits import load_json

__all__ = ["SiteWriter", "MANIFEST"]

#: The manifest of a built site: relative path -> content key of the keyed files.
MANIFEST = ".atlas-manifest.json"


class SiteWriter:
    """Writes files into ``tmp``, keeping the unchanged ones of the site at ``previous``.

    Attributes
    ----------
    written, kept : int
        Files written anew, files kept from the previous site.
    files : list of str
        Every file put, as its path in the site (the site's marker lists them).
    """

    def __init__(self, tmp: Path, previous: Path | None, site: Path | None = None) -> None:
        self.tmp = tmp
        #: The folder the site goes to, which a failed write names (``tmp`` is beside it,
        #: on its disk): :class:`~atlas.errors.StorageError`.
        self.site = site if site is not None else tmp
        self.previous = previous if previous is not None and previous.is_dir() else None
        self.old_keys: dict[str, str] = {}
        if self.previous is not None:
            try:  # within the readers' limits: a damaged manifest keeps nothing by key
                data = load_json((self.previous / MANIFEST).read_bytes())
                if isinstance(data, dict):
                    self.old_keys = {str(k): v for k, v in data.items() if isinstance(v, str)}
            except (OSError, ValueError):  # LimitError and UnicodeError are ValueErrors
                self.old_keys = {}
        self.keys: dict[str, str] = {}
        self.files: list[str] = []
        self.written = 0
        self.kept = 0
        # plain strings and a set of folders made: a site of many thousand files is
        # mostly files kept, and each costs a link, not the path objects around it
        self._tmp = os.fspath(tmp)
        self._prev = None if self.previous is None else os.fspath(self.previous)
        self._dirs: set[str] = set()

    def _keep(self, rel: str) -> bool:
        """Link (or copy) the previous site's regular file ``rel`` into the new site."""
        assert self._prev is not None
        src, dst = os.path.join(self._prev, rel), os.path.join(self._tmp, rel)
        try:
            if not stat.S_ISREG(os.lstat(src).st_mode):
                return False
            os.link(src, dst)
        except FileNotFoundError:
            return False
        except OSError:
            try:
                shutil.copy2(src, dst)
            except OSError:
                return False
        self.kept += 1
        return True

    def _old_size(self, rel: str) -> int | None:
        """The size of the previous site's regular file ``rel``, or None."""
        if self._prev is None:
            return None
        try:
            st = os.lstat(os.path.join(self._prev, rel))
        except OSError:
            return None
        return st.st_size if stat.S_ISREG(st.st_mode) else None

    def put(
        self, rel: str, data: bytes | str | Callable[[], bytes | str], key: str | None = None
    ) -> None:
        """Write ``data`` (bytes, text, or a function making them) as ``rel``.

        With a ``key``, a previous file recorded under the same key is kept without
        calling ``data``; otherwise a previous file with the same bytes is kept.
        """
        dst = os.path.join(self._tmp, rel)
        folder = os.path.dirname(dst)
        if folder not in self._dirs:
            with writing_in(self.site, "the site"):
                os.makedirs(folder, exist_ok=True)
            self._dirs.add(folder)
        self.files.append(rel)
        if key is not None:
            self.keys[rel] = key
            if self._prev is not None and self.old_keys.get(rel) == key and self._keep(rel):
                return
        if callable(data):
            data = data()
        raw = data.encode("utf-8") if isinstance(data, str) else data
        if self._old_size(rel) == len(raw):
            try:
                with open(os.path.join(self._prev or "", rel), "rb") as fh:
                    same = fh.read() == raw
            except OSError:
                same = False
            if same and self._keep(rel):
                return
        with writing_in(self.site, "the site"), open(dst, "wb") as fh:
            fh.write(raw)
        self.written += 1

    def copy(self, rel: str, src: Path) -> None:
        """Copy the file ``src`` as ``rel`` (kept when the bytes are the same)."""
        self.put(rel, src.read_bytes())

    def finish(self) -> None:
        """Write the manifest of the keyed files."""
        text = json.dumps(dict(sorted(self.keys.items())), separators=(",", ":"))
        self.put(MANIFEST, text)
