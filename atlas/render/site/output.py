"""Writing the site so that a rebuild rewrites only what changed.

The build writes the new site into a temporary folder and puts it in place at the end
(:mod:`atlas.render.site.swap`: a failed build leaves the previous site whole).
:class:`SiteWriter` keeps every file whose content did not change *as it was*, so its
bytes, its inode and its modification time stay the same, and a static host or a sync
tool sees only the files that changed.  It does so in one of two ways:

* a site of fewer than :data:`IN_PLACE_FILES` files is written whole into the
  temporary: an unchanged file is hard-linked (or, where links are not possible,
  copied with its times) from the previous site, and the new site takes the old one's
  place in one step;
* a bigger site (a season of thousands of games, where linking every file took seconds)
  is updated in place: the temporary receives only the files that changed or are new,
  and the swap moves them over the old ones, under a journal that lets a killed build's
  successor put the old files back (:func:`atlas.render.site.swap.update_in_place`).

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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ...fsutil import writing_in
from ...limits import load_json
from .ahead import Ahead, can_fork

__all__ = ["SiteWriter", "MANIFEST", "IN_PLACE_FILES", "manifest_text", "manifest_keys"]

#: The manifest of a built site: the keyed files' paths in it, and their content keys
#: (:func:`manifest_text`).
MANIFEST = ".atlas-manifest.json"

#: Files of a previous site (as its marker lists them) from which a build updates it in
#: place instead of linking every unchanged file into a new one: linking and then
#: removing 200,000 files took 2.7 s of a 100,000-game season's 14.6 s rebuild.
IN_PLACE_FILES = 20_000


class SiteWriter:
    """Writes files into ``tmp``, keeping the unchanged ones of the site at ``previous``.

    With ``in_place`` (a set of the files the previous site's sound marker lists, see
    :data:`IN_PLACE_FILES`), nothing is linked: a file kept stays where it is, and
    ``tmp`` receives only the files written (:attr:`changed`).

    Attributes
    ----------
    written, kept : int
        Files written anew, files kept from the previous site.
    files : list of str
        Every file put, as its path in the site (the site's marker lists them).
    changed : dict of str to None
        The files written into ``tmp``, in the order they were put (each once).
    """

    def __init__(
        self,
        tmp: Path,
        previous: Path | None,
        site: Path | None = None,
        in_place: frozenset[str] | None = None,
        trusted: frozenset[str] = frozenset(),
    ) -> None:
        self.tmp = tmp
        #: The folder the site goes to, which a failed write names (``tmp`` is beside it,
        #: on its disk): :class:`~atlas.errors.StorageError`.
        self.site = site if site is not None else tmp
        self.previous = previous if previous is not None and previous.is_dir() else None
        #: The previous site's keyed files and their keys, in its manifest's order (by
        #: path): empty when the manifest is missing or damaged (nothing kept by key).
        self.old_keys: dict[str, str] = {}
        if self.previous is not None:
            try:  # within the readers' limits
                data = load_json((self.previous / MANIFEST).read_bytes())
            except (OSError, ValueError):  # LimitError and UnicodeError are ValueErrors
                data = None
            self.old_keys = manifest_keys(data) or {}
        self.keys: dict[str, str] = {}
        self.files: list[str] = []
        self.changed: dict[str, None] = {}
        self.written = 0
        #: The previous site's files that atlas wrote, when it is updated in place.
        self.in_place = in_place if self.previous is not None else None
        # the folders of the previous site listed (in place), and the regular files
        # found there that the marker lists
        self._listed: set[str] = set()
        self._there: set[str] = set()
        # the previous site's folders as the build that wrote it left them
        # (:func:`~atlas.render.site.swap.trusted_folders`): not listed
        self._trusted = trusted if self.in_place is not None else frozenset()
        self.kept = 0
        # plain strings and a set of folders made: a site of many thousand files is
        # mostly files kept, and each costs a link, not the path objects around it
        self._tmp = os.fspath(tmp)
        self._prev = None if self.previous is None else os.fspath(self.previous)
        self._dirs: set[str] = set()
        # the keyed files sorted, once the manifest is written; the files put without a
        # key (:meth:`listed`)
        self._keyed: list[str] | None = None
        self._plain: dict[str, None] = {}

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

    def _present(self, rel: str) -> bool:
        """Whether the previous site holds ``rel``, written by atlas, as a regular file
        in folders that are folders (not links): a file kept in place.  One listing of
        each folder, not a call per file: the listing's paths that the marker names go
        into one set, so a season's 200,000 files kept cost a lookup each."""
        assert self._prev is not None and self.in_place is not None
        folder = rel.rpartition("/")[0]  # a site's paths are written with "/"
        if folder in self._trusted:  # as the last build left it: the marker's word
            return rel in self.in_place
        if rel in self._there:
            return True
        if folder in self._listed:
            return False
        self._listed.add(folder)
        here = self._prev
        prefix = folder + "/" if folder else ""
        try:
            for part in folder.split("/") if folder else ():
                here = os.path.join(here, part)
                if not stat.S_ISDIR(os.lstat(here).st_mode):
                    raise NotADirectoryError(here)
            with os.scandir(here) as entries:
                names = [e.name for e in entries if e.is_file(follow_symlinks=False)]
        except OSError:
            return False
        mine = self.in_place
        self._there.update(p for p in map(prefix.__add__, names) if p in mine)
        return rel in self._there

    def folders_seen(self) -> set[str]:
        """The previous site's folders this writer found its kept files in (listed, or
        trusted): the folders a build updating in place records for the next one
        (:func:`~atlas.render.site.swap.remember_folders`)."""
        return self._listed | self._trusted

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
        self.files.append(rel)
        in_place = self.in_place is not None
        if key is None:
            self._plain[rel] = None
        else:  # first what a season does 200,000 times: a file kept by its key
            self.keys[rel] = key
            if self.old_keys.get(rel) == key and self._prev is not None:
                if in_place:
                    if self._present(rel):
                        self.kept += 1
                        return
                else:  # the whole site goes into the temporary: its folder first
                    self._folder_of(rel)
                    if self._keep(rel):  # counted there
                        return
        if not in_place:
            self._folder_of(rel)
        if callable(data):
            data = data()
        raw = data.encode("utf-8") if isinstance(data, str) else data
        if (not in_place or self._present(rel)) and self._old_size(rel) == len(raw):
            if in_place and self._same(rel, raw):
                self.kept += 1
                return
            if not in_place and self._same(rel, raw) and self._keep(rel):
                return
        self._folder_of(rel)
        with writing_in(self.site, "the site"), open(os.path.join(self._tmp, rel), "wb") as fh:
            fh.write(raw)
        if rel not in self.changed:
            self.written += 1
        self.changed[rel] = None

    def _folder_of(self, rel: str) -> None:
        """Make the folder of ``rel`` in the temporary (once)."""
        folder = os.path.dirname(os.path.join(self._tmp, rel))
        if folder not in self._dirs:
            with writing_in(self.site, "the site"):
                os.makedirs(folder, exist_ok=True)
            self._dirs.add(folder)

    def _same(self, rel: str, raw: bytes) -> bool:
        """Whether the previous site's file ``rel`` holds ``raw``."""
        try:
            with open(os.path.join(self._prev or "", rel), "rb") as fh:
                return fh.read() == raw
        except OSError:
            return False

    def copy(self, rel: str, src: Path) -> None:
        """Copy the file ``src`` as ``rel`` (kept when the bytes are the same)."""
        self.put(rel, src.read_bytes())

    def finish(self) -> Callable[[], None]:
        """Write the manifest of the keyed files (:func:`manifest_text`), and return a
        function to call before the site is put in place.

        A site updated in place with :data:`AHEAD_FILES` keyed files or more has its
        manifest made and written by a forked child (a season's 200,000 keys take 0.4 s),
        while this process lists the site's files for its marker; the function returned
        waits for the child, and writes the manifest here when the child failed.  Any
        other site's manifest is written before this returns."""
        keys = self.keys
        job = None
        if self.in_place is not None and len(keys) >= AHEAD_FILES and can_fork():
            job = Ahead.start(_manifest_by, self)
        self._keyed = sorted(keys)  # the paths alone, not (path, key) pairs: 4 times faster
        if job is None:
            self._put_manifest()
            return lambda: None
        self.files.append(MANIFEST)  # listed now, whatever the child does with it
        self._plain[MANIFEST] = None

        def wait() -> None:
            how = job.result()
            if how == "kept":
                self.kept += 1
            elif how == "written":
                if MANIFEST not in self.changed:
                    self.written += 1
                self.changed[MANIFEST] = None
            else:  # the child failed (or was ended): its file, if any, is written over
                self._put_manifest()

        return wait

    def _put_manifest(self) -> str:
        """Put the manifest (:meth:`put`); returns ``"kept"`` or ``"written"``."""
        keys, keyed = self.keys, self._keyed if self._keyed is not None else sorted(self.keys)
        kept = self.kept
        self.put(MANIFEST, manifest_text(keyed, [keys[p] for p in keyed]))
        return "kept" if self.kept > kept else "written"

    def listed(self) -> list[str]:
        """Every file put (:attr:`files`), each once, sorted: what the site's marker
        lists.  After :meth:`finish`, the keyed files come sorted already, and only the
        others (a season's few thousand) are sorted here."""
        keys = self.keys
        keyed = self._keyed if self._keyed is not None else sorted(keys)
        rest = sorted(f for f in self._plain if f not in keys)
        return sorted(keyed + rest)  # two sorted runs: one merge


#: The form of a manifest (:data:`MANIFEST`) atlas writes: its paths sorted, and their
#: keys in the same order, in two lists (a JSON object of 200,000 keys took twice as
#: long to write and three times as long to read).
MANIFEST_FORMAT = "atlas-manifest"


#: Keyed files from which the manifest of a site updated in place is made and written
#: by a forked child (:meth:`SiteWriter.finish`).
AHEAD_FILES = 20_000


def _manifest_by(writer: SiteWriter) -> str:
    """What a forked child does for :meth:`SiteWriter.finish`: sort the keyed files,
    make the manifest and put it into the writer's temporary (its copy of the writer's
    counts goes with it); ``"kept"`` when the previous site's holds the same bytes."""
    import gc

    gc.disable()  # its lists hold no cycles
    return writer._put_manifest()


def manifest_text(paths: Sequence[str], keys: Sequence[str]) -> str:
    """The manifest of a site whose file ``paths[i]`` (sorted) has content key
    ``keys[i]``.

    >>> manifest_text(["a.html", "b.html"], ["k1", "k2"])
    '{"format":"atlas-manifest","version":2,"paths":["a.html","b.html"],"keys":["k1","k2"]}'
    >>> manifest_keys(json.loads(manifest_text(["a.html"], ["k1"])))
    {'a.html': 'k1'}
    """
    data = {"format": MANIFEST_FORMAT, "version": 2, "paths": list(paths), "keys": list(keys)}
    return json.dumps(data, separators=(",", ":"))


def manifest_keys(data: Any) -> dict[str, str] | None:
    """The keyed files of a manifest's JSON value ``data`` (what :func:`manifest_text`
    writes, or an object of paths to keys, as atlas wrote before), in its order; None
    when it is neither.

    >>> manifest_keys({"a.html": "k1", "b.html": 3})  # the earlier form; 3 is no key
    {'a.html': 'k1'}
    >>> manifest_keys({"format": "atlas-manifest", "version": 2, "paths": ["a"], "keys": []})
    """
    if not isinstance(data, dict):
        return None
    if data.get("format") != MANIFEST_FORMAT:  # the earlier form
        return {str(k): v for k, v in data.items() if type(v) is str}
    paths, keys = data.get("paths"), data.get("keys")
    if not (type(paths) is list and type(keys) is list and len(paths) == len(keys)):
        return None
    if not all(type(p) is str for p in paths) or not all(type(k) is str for k in keys):
        return None
    return dict(zip(paths, keys))
