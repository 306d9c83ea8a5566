"""numba's cache folder: keyed by atlas's version and its source files, chosen before
numba is imported (:func:`atlas.jit.load.load_numba`), old ones pruned."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from ..sources import PACKAGE_DIR, digest, python_files

__all__ = [
    "source_files",
    "source_key",
    "cache_base",
    "use_numba_cache",
    "set_cache_dir",
    "numba_cache_folder",
    "prune_caches",
    "KEEP_CACHES",
    "PRUNE_AFTER",
    "CACHE_DIR_VARIABLE",
]

#: The newest cache folders :func:`prune_caches` keeps, however old.
KEEP_CACHES = 3
#: A cache folder used more recently than this (seconds) is never pruned: a process of
#: another checkout, or a long tournament, may still be writing to it.
PRUNE_AFTER = 24 * 3600.0
#: The variable that moves atlas's caches: numba's go to ``$ATLAS_CACHE_DIR/numba``.
CACHE_DIR_VARIABLE = "ATLAS_CACHE_DIR"
#: What the folders :func:`use_numba_cache` makes are called: ``<version>-<16 hex>``.
_KEY_NAME = r"[0-9A-Za-z.+!_]+-[0-9a-f]{16}"

_FOLDER: Path | None = None
#: atlas's own key, computed once a process (:func:`source_key` with no arguments).
_OWN_KEY: list[str] = []


def source_files(root: Path = PACKAGE_DIR) -> list[Path]:
    """The files the key covers: every ``*.py`` file of the package at ``root``, sorted.

    Every module, not only those with kernels: compiled code freezes the globals it
    reads, of any module, and this list needs no reading of imports to be complete.
    """
    return python_files(root)


def source_key(root: Path = PACKAGE_DIR, version: str | None = None) -> str:
    """The name of the cache folder for these sources: ``<version>-<16 hex digits>``,
    a SHA-256 (:func:`atlas.sources.digest`) of the version and of each
    :func:`source_files` file's path and bytes.  atlas's own key is computed once a
    process."""
    own = Path(root) == PACKAGE_DIR and version is None
    if own and _OWN_KEY:
        return _OWN_KEY[0]
    if version is None:
        from .._version import __version__

        version = __version__
    key = f"{version}-{digest(source_files(root), Path(root), salt=version)[:16]}"
    if own:
        _OWN_KEY[:] = [key]
    return key


def _is_key(name: str) -> bool:
    """Whether a folder's name is a key of atlas's (:func:`source_key`)."""
    import re

    return re.fullmatch(_KEY_NAME, name) is not None


def cache_base() -> Path:
    """Where atlas's numba caches live: ``$ATLAS_CACHE_DIR/numba`` when that is set,
    else ``$XDG_CACHE_HOME/atlas/numba``, by default ``~/.cache/atlas/numba``."""
    own = os.environ.get(CACHE_DIR_VARIABLE, "")
    if own:
        return Path(own).expanduser().absolute() / "numba"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "atlas" / "numba"


def _last_use(folder: Path) -> float:
    """The newest modification time of ``folder`` and the folders in it (numba writes
    one folder per source folder; :func:`use_numba_cache` touches the key's folder)."""
    times = [folder.stat().st_mtime]
    with contextlib.suppress(OSError):
        times += [p.stat().st_mtime for p in folder.iterdir() if p.is_dir()]
    return max(times)


def prune_caches(
    base: Path,
    keep: int = KEEP_CACHES,
    older_than: float = PRUNE_AFTER,
    now: float | None = None,
    spare: str = "",
) -> list[Path]:
    """Remove the cache folders of ``base`` beyond the ``keep`` most recently used,
    unless used within ``older_than`` seconds; ``spare`` (a key) is always kept.

    Only folders named like a key (``<version>-<16 hex digits>``) are touched.
    Returns the folders removed.
    """
    import shutil
    import time

    now = time.time() if now is None else now
    try:
        folders = [
            p
            for p in Path(base).iterdir()
            if p.is_dir() and not p.is_symlink() and _is_key(p.name)
        ]
    except OSError:
        return []
    used = []
    for folder in folders:
        with contextlib.suppress(OSError):
            used.append((_last_use(folder), folder))
    used.sort(reverse=True)
    removed = []
    for last, folder in used[keep:]:
        if folder.name != spare and now - last > older_than:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _ready(folder: Path) -> bool:
    """Make ``folder`` (pruning its older siblings when it is new) and mark it used;
    whether numba can write there."""
    try:
        fresh = not folder.is_dir()
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)
        if fresh:
            prune_caches(folder.parent, spare=folder.name)
        return os.access(folder, os.W_OK | os.X_OK)
    except OSError:
        return False


def use_numba_cache(
    root: Path = PACKAGE_DIR, version: str | None = None, base: Path | None = None
) -> Path:
    """Point numba's cache at the folder keyed by the sources of the package at ``root``.

    Call it before numba compiles anything (atlas does, in
    :func:`atlas.jit.load.load_numba`).  A ``NUMBA_CACHE_DIR`` that the caller set
    (a folder whose name is not a key of atlas's) is the caller's choice: it is kept
    as it is, nothing is pruned there, and numba's own stamps (each kernel's file) judge
    what in it is stale.  One inherited from a parent atlas process is kept when it is
    the folder of the same key (the parent ran the same sources); otherwise the folder
    is ``base / key`` (``base`` by default :func:`cache_base`, which
    ``ATLAS_CACHE_DIR`` moves), or one under the temporary folder when that cannot be
    written (a read-only home, a sandbox).  Sets ``NUMBA_CACHE_DIR`` (children inherit
    it) and, when numba is already loaded, its configuration; returns the folder.
    """
    global _FOLDER
    inherited = os.environ.get("NUMBA_CACHE_DIR", "")
    if inherited and not _is_key(Path(inherited).name):
        _FOLDER = Path(inherited)
        _configure(inherited)
        return _FOLDER
    key = source_key(root, version)
    folder = Path(inherited) if inherited else None
    if folder is None or folder.name != key or not _ready(folder):
        folder = (cache_base() if base is None else Path(base)) / key
        if not _ready(folder):
            import tempfile

            uid = os.getuid() if hasattr(os, "getuid") else 0
            folder = Path(tempfile.gettempdir()) / f"atlas-{uid}" / "numba" / key
            _ready(folder)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    _configure(str(folder))
    _FOLDER = folder
    return folder


def _configure(folder: str) -> None:
    """numba's cache folder, when numba is loaded (kernels made from now on use it).

    Reads ``sys.modules``: numba may have been imported by another module than atlas's
    :func:`atlas.jit.load.load_numba`, which calls this before it imports numba.
    """
    loaded = sys.modules.get("numba")
    if loaded is not None:
        loaded.config.CACHE_DIR = folder


def set_cache_dir(path: str | os.PathLike[str] | None) -> Path:
    """Keep atlas's compiled kernels under a folder of your choice.

    They go to ``path/numba/<key>``; with ``None``, to the default place again
    (:func:`cache_base`).  Returns the folder.

    The same as starting Python with ``ATLAS_CACHE_DIR=path``: it sets that variable
    (processes atlas starts inherit it) and points numba's cache (``NUMBA_CACHE_DIR``)
    at the new folder, replacing any folder chosen before, the caller's own
    ``NUMBA_CACHE_DIR`` included.  numba fixes a kernel's cache folder when the kernel
    is made, so call it before atlas analyses or plays anything: kernels made earlier
    keep their folder.

    Examples
    --------
    >>> import atlas, os, tempfile
    >>> before = os.environ.get("ATLAS_CACHE_DIR")
    >>> mine = tempfile.mkdtemp()
    >>> folder = atlas.set_cache_dir(mine)
    >>> folder.parent == Path(mine) / "numba", os.environ["NUMBA_CACHE_DIR"] == str(folder)
    (True, True)
    >>> folder = atlas.set_cache_dir(before)  # back where it was
    """
    global _FOLDER
    if path is None:
        os.environ.pop(CACHE_DIR_VARIABLE, None)
    else:
        os.environ[CACHE_DIR_VARIABLE] = str(Path(path).expanduser().absolute())
    os.environ.pop("NUMBA_CACHE_DIR", None)
    _FOLDER = None
    return use_numba_cache()


def numba_cache_folder() -> Path:
    """The folder of numba's cache in this process, chosen now if not yet."""
    return _FOLDER if _FOLDER is not None else use_numba_cache()
