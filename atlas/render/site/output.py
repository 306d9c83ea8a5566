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
from collections.abc import Callable
from pathlib import Path

__all__ = ["SiteWriter", "MANIFEST"]

#: The manifest of a built site: relative path -> content key of the keyed files.
MANIFEST = ".atlas-manifest.json"


class SiteWriter:
    """Writes files into ``tmp``, keeping the unchanged ones of the site at ``previous``.

    Attributes
    ----------
    written, kept : int
        Files written anew, files kept from the previous site.
    """

    def __init__(self, tmp: Path, previous: Path | None) -> None:
        self.tmp = tmp
        self.previous = previous if previous is not None and previous.is_dir() else None
        self.old_keys: dict[str, str] = {}
        if self.previous is not None:
            try:
                data = json.loads((self.previous / MANIFEST).read_text(encoding="utf-8"))
                if isinstance(data, dict):
                    self.old_keys = {str(k): str(v) for k, v in data.items()}
            except (OSError, ValueError):
                self.old_keys = {}
        self.keys: dict[str, str] = {}
        self.written = 0
        self.kept = 0

    def _keep(self, rel: str) -> bool:
        """Link (or copy) the previous site's ``rel`` into the new site."""
        assert self.previous is not None
        src, dst = self.previous / rel, self.tmp / rel
        try:
            os.link(src, dst)
        except OSError:
            try:
                shutil.copy2(src, dst)
            except OSError:
                return False
        self.kept += 1
        return True

    def _old_file(self, rel: str) -> Path | None:
        if self.previous is None:
            return None
        p = self.previous / rel
        return p if p.is_file() and not p.is_symlink() else None

    def put(
        self, rel: str, data: bytes | str | Callable[[], bytes | str], key: str | None = None
    ) -> None:
        """Write ``data`` (bytes, text, or a function making them) as ``rel``.

        With a ``key``, a previous file recorded under the same key is kept without
        calling ``data``; otherwise a previous file with the same bytes is kept.
        """
        dst = self.tmp / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        old = self._old_file(rel)
        if key is not None:
            self.keys[rel] = key
            if old is not None and self.old_keys.get(rel) == key and self._keep(rel):
                return
        if callable(data):
            data = data()
        raw = data.encode("utf-8") if isinstance(data, str) else data
        if old is not None:
            try:
                same = old.stat().st_size == len(raw) and old.read_bytes() == raw
            except OSError:
                same = False
            if same and self._keep(rel):
                return
        dst.write_bytes(raw)
        self.written += 1

    def copy(self, rel: str, src: Path) -> None:
        """Copy the file ``src`` as ``rel`` (kept when the bytes are the same)."""
        self.put(rel, src.read_bytes())

    def finish(self) -> None:
        """Write the manifest of the keyed files."""
        text = json.dumps(dict(sorted(self.keys.items())), separators=(",", ":"))
        self.put(MANIFEST, text)
