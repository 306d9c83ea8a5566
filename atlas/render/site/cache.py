"""A content-addressed cache for the build: same inputs, same key, no recomputation.

Keys are SHA-256 digests of the parts that determine a result: the map's text, the
parameters, the bots, the seed, and the *code version* (a digest of the atlas source
files that decide that kind of result, :data:`CODE_PARTS`), so editing a map or the
code invalidates what it should and little else.  Values are
bytes or JSON, stored under ``.atlas-cache/<kind>/<key[:2]>/<key>`` and written
atomically (into the cache's marked temporary folder, :class:`atlas.fsutil.Temporary`,
then renamed into place), so an interrupted build leaves no torn entry, and a killed
one leaves only that folder, which the next build removes.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import itertools
import json
import math
import os
import secrets
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...sources import digest, python_files

if TYPE_CHECKING:
    from ...fsutil import Temporary

__all__ = [
    "Cache",
    "check_cache_root",
    "content_key",
    "content_key_of",
    "code_version",
    "code_files",
    "CODE_PARTS",
    "CODE_EXCLUDED",
    "KeptMapping",
    "collector_paused",
]


#: The parts of atlas whose code decides each kind of cached result.  A part is a file or
#: a folder of the package; ``games/*/ROLE`` is that role's module (or package) in
#: every game's folder (:data:`atlas.games.ROLES`).
_PICTURES = ("games/*/format", "games/*/analysis", "games/*/validation", "games/*/rules")
CODE_PARTS = {
    "analysis": (
        *("maps", "games/__init__.py", "types.py", "errors.py", "analysis", "sim", "render"),
        *(_PICTURES + ("games/*/painter",)),
    ),
    "game": (
        *("maps", "games/__init__.py", "types.py", "errors.py", "analysis", "sim", "bots"),
        *("arena", *_PICTURES, "games/*/bots", "games/*/protocol"),
    ),
    "replay": (
        *("maps", "games/__init__.py", "types.py", "errors.py", "analysis", "sim", "render"),
        *(_PICTURES + ("games/*/painter",)),
    ),
}
#: Modules under those parts that decide no cached result: how the pages are written,
#: where files go, which games are scheduled (a game's key holds its whole spec), the
#: order of a build's stages and how its site is put in place, the live server.
#: Editing them re-renders pages only (pages have their own version,
#: :func:`atlas.render.site.pages.pages_version`).
CODE_EXCLUDED = (
    "arena/fairness.py",
    "arena/paired.py",
    "render/site/ahead.py",
    "render/site/build.py",
    "render/site/fairness.py",
    "render/site/pages.py",
    "render/site/output.py",
    "render/site/schedule.py",
    "render/site/serve.py",
    "render/site/swap.py",
    "render/site/tournament.py",
    "render/svg.py",
)


def code_files(kind: str | None = None) -> list[Path]:
    """The atlas source files whose code decides results of ``kind`` (a key of
    :data:`CODE_PARTS`, less :data:`CODE_EXCLUDED`; ``None``: every ``*.py``), sorted."""
    pkg = Path(__file__).resolve().parents[2]
    if kind is None:
        return python_files(pkg)
    return python_files(pkg, CODE_PARTS[kind], CODE_EXCLUDED)


@lru_cache(maxsize=16)
def code_version(kind: str | None = None) -> str:
    """SHA-256 over the kind and the relative paths and bytes of :func:`code_files`
    (:func:`atlas.sources.digest`, which keys numba's cache folder too), so a change to
    a bot does not redraw the maps, a change to a picture replays no game, and a change
    to a page template redraws nothing.
    """
    pkg = Path(__file__).resolve().parents[2]
    return digest(code_files(kind), pkg.parent, salt=str(kind))


def _json_text(part: Any) -> str:
    """``part`` as :func:`content_key` encodes it: JSON with sorted keys, no spaces,
    anything else as its ``str``.  Strings, integers, ``None``, and lists and
    string-keyed dicts of them are written here (the same text, without the encoder's
    set-up: a site of many games keys each page with a dozen parts); the rest by
    :func:`json.dumps`."""
    kind = type(part)
    if kind is str:
        return _encode_string(part)
    if kind is int:
        return int.__repr__(part)
    if part is None:
        return "null"
    if kind is bool:
        return "true" if part else "false"
    if kind is float and math.isfinite(part):
        return float.__repr__(part)
    if kind is list or kind is tuple:
        return "[" + ",".join(map(_json_text, part)) + "]"
    if kind is dict and all(type(k) is str for k in part):
        return (
            "{"
            + ",".join(f"{_encode_string(k)}:{_json_text(part[k])}" for k in sorted(part))
            + "}"
        )
    return json.dumps(part, sort_keys=True, separators=(",", ":"), default=str)


_encode_string = json.encoder.encode_basestring_ascii  # what json.dumps writes for a str


#: Whether the last :func:`collector_paused` block left what it made frozen, so that
#: the next one gives it back to the collector.
_FROZE = [False]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while the block makes many objects and
    few cycles: a build's stages (:func:`atlas.render.site.build.build`), which parse a
    season's indexes and make its heads and standings.  Each of the
    collector's full passes walks every object the process holds, and it runs again
    and again while millions are made: at 100,000 games a warm rebuild spent a quarter
    of its time there (17.7 s with the collector, 13.1 s without it).  It is switched
    back on after the block, as it was.

    What the block made is then frozen (:func:`gc.freeze`), unless something else of
    the process froze objects first: the collector's next pass would walk all of it
    (half a second after a season's build), while most of it goes at once by reference
    counting when the build's result is dropped.  The next block gives it back to the
    collector and collects once, at its start, so a process that builds again and again
    (``atlas serve``) keeps no cycle of an earlier build.  (A process that freezes
    objects of its own between two builds has them given back by the second.)"""
    enabled = gc.isenabled()
    if enabled and _FROZE[0] and gc.get_freeze_count() > 0:
        gc.unfreeze()
        gc.collect()
    _FROZE[0] = False
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                _FROZE[0] = True
            gc.enable()


def content_key(*parts: Any) -> str:
    """A hex digest of ``parts`` (JSON-encoded with sorted keys; bytes hashed as is).

    The digest is SHA-256 over each part's ``b"j"`` and JSON text (ASCII) or ``b"b"``
    and bytes, each followed by a NUL; the texts are joined and hashed in one call (a
    season's build keys 200,000 pages and records)."""
    h = hashlib.sha256()
    text: list[str] = []
    for part in parts:
        if isinstance(part, bytes):
            if text:
                h.update("".join(text).encode("ascii"))
                text = []
            h.update(b"b")
            h.update(part)
            h.update(b"\0")
        else:
            text.append("j" + _json_text(part) + "\0")
    if text:
        h.update("".join(text).encode("ascii"))
    return h.hexdigest()


def content_key_of(*fixed: Any) -> Callable[..., str]:
    """:func:`content_key` with its first parts ``fixed`` (not bytes): ``content_key_of(a,
    b)(c, d) == content_key(a, b, c, d)``, the fixed parts' text made once and each
    text part written without a call where it is a string (a season's build keys its
    100,000 game pages with the same two first parts).

    >>> key = content_key_of("replay")
    >>> key("ab" * 32, "v1") == content_key("replay", "ab" * 32, "v1")
    True
    """
    if any(isinstance(part, bytes) for part in fixed):
        raise TypeError("content_key_of: fixed parts are not bytes")
    head = "".join(["j" + _json_text(part) + "\0" for part in fixed])
    encode, text_of, sha256 = _encode_string, _json_text, hashlib.sha256

    def key(*parts: Any) -> str:
        text = [head]
        for part in parts:
            if type(part) is str:
                text.append(f"j{encode(part)}\0")
            elif isinstance(part, bytes):
                return content_key(*fixed, *parts)
            else:
                text.append(f"j{text_of(part)}\0")
        return sha256("".join(text).encode("ascii")).hexdigest()

    return key


def check_cache_root(root: str | os.PathLike[str] | None) -> None:
    """Refuse, before any work, a cache named by a path that is there and is not a
    folder (``--cache notes.txt``): said, not silently never used.  A folder that is
    missing is made on first use.

    Raises
    ------
    OutputFolderError
        Naming the path and what it is.
    """
    if root is None:
        return
    p = Path(root)
    if (p.exists() or p.is_symlink()) and not p.is_dir():
        from ...errors import OutputFolderError

        raise OutputFolderError(
            f"the cache {os.fspath(p)!r} is not a folder; name a folder (it is made "
            "when missing)"
        )


class Cache:
    """Bytes and JSON values under ``root``, by kind and key.

    A ``root`` of ``None`` disables caching (every lookup misses, nothing is stored).
    """

    def __init__(self, root: str | os.PathLike[str] | None) -> None:
        self.root = None if root is None else Path(root)
        self.hits = 0
        self.misses = 0
        self._tmp: Temporary | None = None
        self._names = itertools.count()

    def __getstate__(self) -> dict[str, Any]:  # a copy in another process makes its own
        return {**self.__dict__, "_tmp": None, "_names": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, _names=itertools.count())

    def remove_stale(self) -> None:
        """Remove the temporaries killed builds left in the cache (never a live one)."""
        from ...fsutil import remove_stale_temporaries  # here: this module is loaded alone too

        if self.root is not None:
            remove_stale_temporaries(self.root)

    def close(self) -> None:
        """Remove this cache's temporary folder (entries stay)."""
        if self._tmp is not None:
            self._tmp.remove()
            self._tmp = None

    def _scratch(self) -> Path:
        """A new name in this cache's marked temporary folder (made on first use)."""
        from ...fsutil import Temporary

        assert self.root is not None
        if self._tmp is None or not self._tmp.path.is_dir():
            self.root.mkdir(parents=True, exist_ok=True)
            self._tmp = Temporary(self.root, "cache")
        return self._tmp.path / f"{next(self._names)}.part"

    def _path(self, kind: str, key: str) -> Path:
        assert self.root is not None
        return self.root / kind / key[:2] / key

    def has(self, kind: str, key: str) -> bool:
        """Whether an entry is stored (not counted as a hit or a miss)."""
        return self.root is not None and self._path(kind, key).is_file()

    def get_bytes(self, kind: str, key: str) -> bytes | None:
        """The stored bytes, or ``None``."""
        if self.root is None:
            self.misses += 1
            return None
        try:
            data = self._path(kind, key).read_bytes()
        except OSError:
            self.misses += 1
            return None
        self.hits += 1
        return data

    def put_bytes(self, kind: str, key: str, data: bytes) -> None:
        """Store ``data`` atomically (errors writing the cache are ignored; a failed write
        leaves no temporary file)."""
        if self.root is None:
            return
        p = self._path(kind, key)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            tmp = self._scratch()
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, p)
        except BaseException as exc:  # a full disk, an interrupt: no temporary left
            try:
                os.unlink(tmp)
            except OSError:
                pass
            if not isinstance(exc, OSError):
                raise

    def get_json(self, kind: str, key: str) -> Any | None:
        """The stored JSON value, or ``None`` (a damaged entry is a miss)."""
        data = self.get_bytes(kind, key)
        if data is None:
            return None
        try:  # a damaged entry, even one nested too deep to parse, is a miss
            return json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            self.hits -= 1
            self.misses += 1
            return None

    def put_json(self, kind: str, key: str, value: Any) -> None:
        """Store a JSON value."""
        self.put_bytes(kind, key, json.dumps(value, separators=(",", ":")).encode("utf-8"))


class KeptMapping:
    """A JSON object (text keys) kept in a :class:`Cache` between builds, that grows and
    changes a little at a time: a season's index of its records or of its replays,
    tens of megabytes read by every build.

    It is stored as a base and a delta: what changed since the base (``set``) and the
    keys gone.  While the delta stays small (:attr:`DELTA_SHARE` of the keys, or
    :attr:`DELTA_MIN`) only the delta is written; then the whole mapping is written
    again as a new base.  The base carries a random stamp and the delta names the stamp
    of its base, so a delta is never read over another base (after a build that wrote a
    base, the last delta is left unread until a delta replaces it).  Damage reads as an
    empty mapping, a missing delta is no miss (:meth:`Cache.has`).

    Examples
    --------
    >>> import tempfile
    >>> cache = Cache(tempfile.mkdtemp())
    >>> kept = KeptMapping(cache, "index", "k" * 64)
    >>> kept.load()
    {}
    >>> kept.save({"a": 1, "b": [2]})
    >>> again = KeptMapping(cache, "index", "k" * 64)
    >>> again.load()
    {'a': 1, 'b': [2]}
    >>> again.save({"a": 1, "c": 3})  # one key changed, one gone: the delta alone
    >>> KeptMapping(cache, "index", "k" * 64).load()
    {'a': 1, 'c': 3}
    """

    #: A delta of at most this share of the keys (or :attr:`DELTA_MIN` keys) is written
    #: alone; a larger one is folded into a new base.
    DELTA_SHARE = 0.05
    DELTA_MIN = 500

    def __init__(self, cache: Cache | None, kind: str, key: str) -> None:
        self.cache = cache
        self.kind = kind
        self.key = key
        self.delta_key = content_key("delta", key)
        self.stamp: str | None = None
        self.base: dict[str, Any] = {}
        self.loaded: dict[str, Any] = {}

    def load(self) -> dict[str, Any]:
        """The mapping as the last :meth:`save` left it (a new dict), or ``{}``."""
        if self.cache is None:
            return {}
        found = self.cache.get_json(self.kind, self.key)
        if not (isinstance(found, dict) and isinstance(found.get("items"), dict)):
            return {}
        stamp = found.get("stamp")
        self.stamp = stamp if isinstance(stamp, str) else None
        self.base = found["items"]
        self.loaded = dict(self.base)
        has_delta = self.stamp is not None and self.cache.has(self.kind, self.delta_key)
        delta = self.cache.get_json(self.kind, self.delta_key) if has_delta else None
        if (
            isinstance(delta, dict)
            and delta.get("base") == self.stamp
            and isinstance(delta.get("set"), dict)
            and isinstance(delta.get("gone"), list)
        ):
            self.loaded.update(delta["set"])
            for k in delta["gone"]:
                if isinstance(k, str):
                    self.loaded.pop(k, None)
        return dict(self.loaded)

    def save(self, items: dict[str, Any]) -> None:
        """Keep ``items`` for the next build: nothing when they are what :meth:`load`
        returned, the delta from the base when it is small, else a new base."""
        if self.cache is None or items == self.loaded:
            return
        base = self.base
        changed = {k: v for k, v in items.items() if base.get(k, _NONE) != v}
        # the base's keys that items lack, looked for only when some are: a season that
        # grows by ten games keeps every key of its base
        fresh = sum(1 for k in changed if k not in base)
        gone = [k for k in base if k not in items] if len(items) - fresh < len(base) else []
        limit = max(self.DELTA_MIN, self.DELTA_SHARE * len(items))
        if self.stamp is not None and len(changed) + len(gone) <= limit:
            delta = {"base": self.stamp, "set": changed, "gone": gone}
            self.cache.put_json(self.kind, self.delta_key, delta)
        else:
            self.stamp, self.base = secrets.token_hex(8), items
            self.cache.put_json(self.kind, self.key, {"stamp": self.stamp, "items": items})
        self.loaded = dict(items)


#: A value no JSON holds (a key missing from the base is changed, whatever its value).
_NONE = object()
