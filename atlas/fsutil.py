"""File-system helpers shared by the readers and writers of maps, records and the site.

Readers go through :func:`read_regular_file`: it refuses what is not a regular file
(a FIFO, a device, a folder: nothing to hang on) and never reads more than a limit.
Writers check their output paths with :func:`check_output_path` before doing the work
whose result they will write.

Every temporary atlas makes on the way to an output is a folder marked as atlas's
(:class:`Temporary`): its name starts with :data:`TEMPORARY_PREFIX` and it holds the
marker file :data:`TEMPORARY_MARKER`, which its process keeps locked while it lives.  A
run killed at any moment (``SIGKILL`` included) leaves at most such folders, and the
next run on the same output removes them (:func:`remove_stale_temporaries`): a folder
is removed only when both marks are there and no living process holds its lock, so
atlas never takes a user's file, or another run's live temporary, for its own leftover.
"""

from __future__ import annotations

import errno as errno_mod
import gzip
import io
import json
import os
import re
import shutil
import stat
import tempfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .errors import OutputFolderError, PathError, StorageError, located

__all__ = [
    "checked_path",
    "read_json_file",
    "read_toml_file",
    "writing_in",
    "storage_error",
    "gunzip_limited",
    "default_mode",
    "read_regular_file",
    "read_maybe_gzip",
    "check_output_path",
    "starts_with",
    "write_atomically",
    "file_kind",
    "GZIP_MAGIC",
    "Temporary",
    "TEMPORARY_PREFIX",
    "TEMPORARY_MARKER",
    "temporary_mark",
    "remove_stale_temporaries",
]

#: The first two bytes of gzip data.
GZIP_MAGIC = b"\x1f\x8b"


def checked_path(value: Any, what: str = "path") -> Path:
    """``value`` (a ``str`` or path-like) as a :class:`Path`, when it can name a file.

    Every path atlas is given goes through here first, so a malformed one is one
    :class:`~atlas.errors.PathError` naming the argument and (a short prefix of) the
    value, never a bare ``ValueError`` from deep inside the system's calls.

    >>> checked_path("maps/a\\0b.txt", "path")
    Traceback (most recent call last):
    ...
    atlas.errors.PathError: path: not a usable path, it holds a NUL byte: 'maps/a\\x00b.txt'
    """
    from .limits import shown

    if isinstance(value, bytes) or not isinstance(value, (str, os.PathLike)):
        raise PathError(
            f"{what}: expected a path (str or path-like), got {type(value).__name__}"
        )
    try:
        text = os.fspath(value)
    except TypeError:
        raise PathError(f"{what}: expected a path (str or path-like)") from None
    if not isinstance(text, str):
        raise PathError(f"{what}: expected a path as text, got {type(text).__name__}")
    if "\0" in text:
        raise PathError(f"{what}: not a usable path, it holds a NUL byte: {shown(text)}")
    try:
        os.fsencode(text)
    except UnicodeError:
        raise PathError(
            f"{what}: not a usable path, the file system cannot write its characters: "
            f"{shown(text)}"
        ) from None
    return Path(text)


#: The errors numbers that say the storage under a folder failed, not the path.
_STORAGE_ERRNOS = frozenset(
    getattr(errno_mod, name)
    for name in ("ENOSPC", "EDQUOT", "EROFS", "EIO", "EFBIG", "EACCES", "EPERM")
    if hasattr(errno_mod, name)
)


def storage_error(exc: OSError, folder: str | os.PathLike[str], what: str = "") -> StorageError:
    """The :class:`~atlas.errors.StorageError` naming ``folder`` (``what`` says whose it
    is: ``"the site"``, ``"the cache"``) for the system's error ``exc``."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    name = os.fspath(folder)
    head = f"cannot write in {what + ' ' if what else ''}{name!r}"
    return StorageError(f"{head}: {reason}", folder=name, errno=exc.errno)


@contextmanager
def writing_in(folder: str | os.PathLike[str], what: str = "") -> Iterator[None]:
    """Turn a failed write under ``folder`` (a full disk, a read-only file system, a
    quota, no permission) into a :class:`~atlas.errors.StorageError` naming the folder,
    so the command says which of its folders failed, not ``[Errno 28] No space left on
    device`` alone.  Other errors pass unchanged."""
    try:
        yield
    except StorageError:
        raise
    except OSError as exc:
        if exc.errno in _STORAGE_ERRNOS:
            raise storage_error(exc, folder, what) from exc
        raise


def read_json_file(
    path: str | os.PathLike[str],
    limit: int,
    error: Callable[..., Exception],
    *,
    what: str = "file",
) -> Any:
    """The JSON value in the regular file ``path`` (gzip data unpacked), within the
    readers' limits (:func:`atlas.limits.load_json`: nesting, digits, no NaN): any
    failure is ``error(message, path=path)``, never a ``RecursionError``."""
    from .limits import LimitError, load_json

    raw, _ = read_maybe_gzip(path, limit, error, what=what)
    try:
        return load_json(raw)
    except LimitError as exc:
        raise error(str(exc), path=path) from None
    except UnicodeDecodeError:
        raise error("not UTF-8 text", path=path) from None
    except json.JSONDecodeError as exc:
        raise error(f"not JSON: {exc.msg}", path=path, line=exc.lineno) from None


def read_toml_file(
    path: str | os.PathLike[str],
    error: Callable[..., Exception],
    *,
    limit: int | None = None,
) -> tuple[dict[str, Any], str]:
    """The TOML table in the regular file ``path`` and its text, within the limits
    (:func:`atlas.limits.load_toml`, at most :data:`~atlas.limits.MAX_TOML_BYTES`);
    any failure is ``error(message, path=path[, line=N])``."""
    import tomllib

    from .limits import MAX_TOML_BYTES, LimitError, load_toml

    raw = read_regular_file(path, MAX_TOML_BYTES if limit is None else limit, error)
    try:
        text = raw.decode("utf-8")
        return load_toml(text), text
    except UnicodeDecodeError:
        raise error("not UTF-8 text", path=path) from None
    except LimitError as exc:
        raise error(str(exc), path=path) from None
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise error(
            f"not TOML: {exc}", path=path, line=int(m.group(1)) if m else None
        ) from None


def default_mode(*, directory: bool = False) -> int:
    """The permission bits a plain ``open()``/``mkdir()`` would give under the umask.

    ``tempfile.mkstemp`` and ``mkdtemp`` create private (0600/0700) entries; files that
    are moved into place for others to read (records, the published site) get these
    bits instead, so a web server running as another user can serve them.
    """
    mask = os.umask(0)
    os.umask(mask)
    return (0o777 if directory else 0o666) & ~mask


def file_kind(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, in words (``"a FIFO (named pipe)"``)."""
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def read_regular_file(
    path: str | os.PathLike[str],
    limit: int,
    error: Callable[..., Exception],
    *,
    what: str = "file",
) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    The file is opened without blocking (a FIFO cannot hang the reader) and checked
    with ``fstat`` on the open descriptor, so what is read is what was checked.

    Raises
    ------
    Exception
        ``error(message, path=path)`` when ``path`` cannot be opened, is not a regular
        file (a folder, FIFO, device or socket: "not a regular file: a FIFO"), or holds
        more than ``limit`` bytes ("file is N bytes, more than LIMIT").
    """
    flags = (
        os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    )
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise error(f"cannot read file: {exc.strerror or exc}", path=path) from None
    except (ValueError, TypeError):  # a NUL byte, a character the system cannot write
        checked_path(path)
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise error(f"not a regular file: {file_kind(st.st_mode)}", path=path)
        if st.st_size > limit:
            raise error(
                f"{what} is {st.st_size:,} bytes, more than atlas reads ({limit:,} at most)",
                path=path,
            )
        os.set_blocking(fd, True)
        chunks = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise error(f"cannot read file: {exc.strerror or exc}", path=path) from None
    finally:
        os.close(fd)
    if total > limit:  # it grew while we read
        raise error(f"{what} is more than {limit:,} bytes", path=path)
    return b"".join(chunks)


def read_maybe_gzip(
    path: str | os.PathLike[str],
    limit: int,
    error: Callable[..., Exception],
    *,
    what: str = "file",
) -> tuple[bytes, bool]:
    """The bytes of ``path``, gunzipped when they start with gzip's magic number.

    Returns the bytes and whether they were gzip data.  The file is read with
    :func:`read_regular_file` (at most ``limit`` bytes: gzip never makes real data
    larger), and at most ``limit`` bytes are decompressed, so a gzip bomb is refused
    without being unpacked.  Failures raise ``error(message, path=path)``.
    """
    raw = read_regular_file(path, limit, error, what=what)
    return gunzip_limited(raw, path, limit, error, what)


def gunzip_limited(
    raw: bytes,
    path: str | os.PathLike[str],
    limit: int,
    error: Callable[..., Exception],
    what: str = "file",
) -> tuple[bytes, bool]:
    """``raw`` (the bytes of ``path``) gunzipped when they start with gzip's magic
    number, at most ``limit`` bytes decompressed; and whether they were gzip data.
    Failures raise ``error(message, path=path)``."""
    gzipped = raw[:2] == GZIP_MAGIC
    if gzipped:
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as fh:
                raw = fh.read(limit + 1)
        except (OSError, EOFError, zlib.error) as exc:
            raise error(f"damaged gzip data: {exc}", path=path) from None
        if len(raw) > limit:
            raise error(f"{what} is more than {limit:,} bytes once decompressed", path=path)
    return raw, gzipped


def check_output_path(
    path: str | os.PathLike[str],
    *,
    ours: Callable[[Path], bool] | None = None,
    force: bool = False,
) -> Path:
    """Check, before any work, that a file can be written at ``path``; return it.

    The folder it goes in must exist and be writable, and ``path`` must not be a
    folder or anything but a regular file (writing into a FIFO or a device is never
    meant).  An existing file is replaced only when ``ours(path)`` says atlas wrote it
    (a record, a GIF or a PNG carries atlas's mark) or with ``force``; without ``ours``
    the caller decides.  The temporaries a killed write of ``path`` left beside it are
    removed (:func:`remove_stale_temporaries`).

    Raises
    ------
    OutputFolderError
        Naming the path and why it cannot be written (``atlas play --record
        /nonexistent/x.json`` fails before the game is played).
    """
    p = checked_path(path)

    def refused(why: str) -> OutputFolderError:
        return OutputFolderError(located(p, None, why))

    if not p.name or p.name in (".", ".."):
        raise refused("not a file name")
    folder = p.parent
    try:
        st = os.stat(folder)
    except FileNotFoundError:
        raise refused(f"the folder {os.fspath(folder)!r} does not exist") from None
    except OSError as exc:
        raise refused(
            f"cannot use the folder {os.fspath(folder)!r}: {exc.strerror or exc}"
        ) from None
    if not stat.S_ISDIR(st.st_mode):
        raise refused(f"{os.fspath(folder)!r} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise refused(f"no permission to write in {os.fspath(folder)!r}")
    remove_stale_temporaries(folder, p.name)  # what a killed write of this file left
    try:
        st = os.stat(p)
    except FileNotFoundError:
        return p
    except OSError as exc:
        raise refused(f"cannot use it: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise refused(f"cannot write over {file_kind(st.st_mode)}")
    if ours is not None and not force and not ours(p):
        raise refused("the file exists and atlas did not write it; --force replaces it")
    return p


def write_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to a marked temporary folder beside ``path`` (:class:`Temporary`),
    then move it into place: a reader never sees half a file, a failed write leaves no
    temporary, and a killed one leaves only a temporary the next run on the folder
    removes (:func:`remove_stale_temporaries`)."""
    p = Path(path)
    with writing_in(p.parent or "."), Temporary(p.parent, "write", p.name) as tmp:
        part = tmp.path / (p.name + ".part")
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(part, default_mode())
        os.replace(part, p)


def starts_with(path: Path, marks: tuple[bytes, ...], limit: int = 4096) -> bool:
    """Whether one of ``marks`` is in the first ``limit`` bytes of ``path`` (after gzip
    decompression when the file is gzip data): how atlas recognises its own files."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(limit)
        if head[:2] == b"\x1f\x8b":
            with gzip.open(path, "rb") as fh:
                head = fh.read(limit)
    except (OSError, EOFError, zlib.error):
        return False
    return any(m in head for m in marks)


# --------------------------------------------------------------------------- temporaries

#: How the name of every temporary folder atlas makes begins
#: (``.atlas-tmp-PURPOSE-XXXXXXXX``).
TEMPORARY_PREFIX = ".atlas-tmp-"
#: The marker file inside each: JSON ``{"format": "atlas-temporary", "purpose": ...,
#: "target": ..., "pid": ...}``, locked (``flock``) by the process that made it.
TEMPORARY_MARKER = ".atlas-temporary.json"
_TEMPORARY_NAME = re.compile(r"^\.atlas-tmp-[a-z]+-[A-Za-z0-9_]{8}$")
_MARKER_MAX = 4096


def _lock(fd: int, *, wait: bool) -> bool:
    """Take the exclusive ``flock`` of ``fd``; without ``wait``, False when another
    open file holds it (a living process's temporary)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock, no liveness test
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except OSError:
        return False
    return True


class Temporary:
    """A temporary folder in ``parent`` marked as atlas's, for one output (``target``,
    a name in ``parent``), removed with everything in it by :meth:`remove` (or at the
    end of a ``with`` block).

    The folder is named ``.atlas-tmp-PURPOSE-XXXXXXXX`` and holds
    :data:`TEMPORARY_MARKER`, written and locked before anything else goes in.  The lock
    lasts while this object is open; the kernel drops it when the process ends however
    it ends, which is how :func:`remove_stale_temporaries` tells a dead run's leftover
    from a live run's work.

    Attributes
    ----------
    path : Path
        The folder.
    """

    def __init__(self, parent: str | os.PathLike[str], purpose: str, target: str = "") -> None:
        if not re.fullmatch(r"[a-z]+", purpose):
            raise ValueError(f"a temporary's purpose is a lower-case word, got {purpose!r}")
        mark = {
            "format": "atlas-temporary",
            "version": 1,
            "purpose": purpose,
            "target": target,
            "pid": os.getpid(),
        }
        self._fd: int | None = None
        for _ in range(8):  # a cleaner of another run may take a folder not yet marked
            self.path = Path(
                tempfile.mkdtemp(prefix=f"{TEMPORARY_PREFIX}{purpose}-", dir=parent)
            )
            if self._mark(mark):
                return
        raise OSError(f"cannot make a temporary folder in {os.fspath(parent)!r}")

    def _mark(self, mark: dict[str, Any]) -> bool:
        """Write and lock the marker; False when the folder or the marker was removed
        meanwhile (by another run's clean-up, which saw it unmarked or unlocked)."""
        marker = self.path / TEMPORARY_MARKER
        try:
            fd = os.open(marker, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        except FileNotFoundError:
            return False
        self._fd = fd
        try:
            _lock(fd, wait=True)
            os.write(fd, json.dumps(mark, separators=(",", ":")).encode("utf-8"))
            if os.stat(marker).st_ino == os.fstat(fd).st_ino:
                return True
        except FileNotFoundError:
            pass
        except BaseException:
            self.remove()
            raise
        self.remove()
        return False

    def __enter__(self) -> Temporary:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()

    def remove(self) -> None:
        """Remove the folder and what it holds (the marker last), then drop the lock.
        Only the object that made the folder does so (a pickled copy does nothing)."""
        if self._fd is None:
            return
        if self.path.is_dir() and not self.path.is_symlink():
            for entry in os.scandir(self.path):
                if entry.name == TEMPORARY_MARKER:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    _unlink(entry.path)
            _unlink(self.path / TEMPORARY_MARKER)
            try:
                os.rmdir(self.path)
            except OSError:
                pass
        os.close(self._fd)
        self._fd = None

    def __del__(self) -> None:
        try:
            self.remove()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass

    def __getstate__(self) -> dict[str, Any]:  # a copy in another process owns nothing
        return {"path": self.path, "_fd": None}


def _unlink(path: str | os.PathLike[str]) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def temporary_mark(folder: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The marker of ``folder`` when it is a temporary atlas made, else None.

    Both marks must be there: the name (``.atlas-tmp-PURPOSE-XXXXXXXX``, a real folder,
    not a link) and the marker file inside (a small regular file holding atlas's JSON;
    an empty one counts only while it is all the folder holds: a run killed between
    making the folder and writing its marker).  A folder named so that holds nothing
    at all is one killed before its marker was made, and is reported as such
    (``{"purpose": "", "target": ""}``).
    """
    p = Path(folder)
    if not _TEMPORARY_NAME.match(p.name) or p.is_symlink() or not p.is_dir():
        return None
    try:
        names = os.listdir(p)
    except OSError:
        return None
    if not names:
        return {"format": "atlas-temporary", "purpose": "", "target": ""}
    if TEMPORARY_MARKER not in names:
        return None
    marker = p / TEMPORARY_MARKER
    try:
        st = os.lstat(marker)
        if not stat.S_ISREG(st.st_mode) or st.st_size > _MARKER_MAX:
            return None
        raw = marker.read_bytes()
    except OSError:
        return None
    if not raw:
        return (
            {"format": "atlas-temporary", "purpose": "", "target": ""}
            if names == [TEMPORARY_MARKER]
            else None
        )
    from .limits import LimitError, load_json

    try:
        data = load_json(raw)
    except (UnicodeDecodeError, ValueError, LimitError):
        return None
    if not isinstance(data, dict) or data.get("format") != "atlas-temporary":
        return None
    return data


def _held(folder: Path) -> bool:
    """Whether a living process holds the lock of ``folder``'s marker."""
    try:
        fd = os.open(folder / TEMPORARY_MARKER, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        return not _lock(fd, wait=False)
    finally:
        os.close(fd)


def remove_stale_temporaries(
    parent: str | os.PathLike[str],
    target: str | None = None,
    *,
    recover: Callable[[Path, dict[str, Any]], None] | None = None,
) -> list[Path]:
    """Remove the temporaries that dead runs of atlas left in ``parent``.

    Only folders :func:`temporary_mark` recognises, whose marker no living process
    holds, and (with ``target``) made for that output, are removed; nothing else in
    ``parent`` is touched.  ``recover(folder, mark)`` is called first on each, to move
    back what a killed run had taken aside (an old site, say).  Returns the folders
    removed.
    """
    p = Path(parent)
    removed: list[Path] = []
    try:
        entries = [e for e in os.scandir(p) if e.name.startswith(TEMPORARY_PREFIX)]
    except OSError:
        return removed
    for entry in entries:
        folder = Path(entry.path)
        mark = temporary_mark(folder)
        if mark is None or _held(folder):
            continue
        if target is not None and mark.get("target") not in ("", target):
            continue
        if recover is not None and mark.get("target"):
            recover(folder, mark)
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            removed.append(folder)
    return removed
