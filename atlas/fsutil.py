"""File-system helpers shared by the readers and writers of maps, records and the site.

Readers go through :func:`read_regular_file`: it refuses what is not a regular file
(a FIFO, a device, a folder: nothing to hang on) and never reads more than a limit.
Writers check their output paths with :func:`check_output_path` before doing the work
whose result they will write.
"""

from __future__ import annotations

import gzip
import io
import os
import stat
import zlib
from collections.abc import Callable
from pathlib import Path

from .errors import OutputFolderError, located

__all__ = [
    "default_mode",
    "read_regular_file",
    "read_maybe_gzip",
    "check_output_path",
    "starts_with",
    "write_atomically",
    "file_kind",
    "GZIP_MAGIC",
]

#: The first two bytes of gzip data.
GZIP_MAGIC = b"\x1f\x8b"


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
    the caller decides.

    Raises
    ------
    OutputFolderError
        Naming the path and why it cannot be written (``atlas play --record
        /nonexistent/x.json`` fails before the game is played).
    """
    p = Path(path)

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
    """Write ``data`` to a temporary file beside ``path``, then move it into place: a
    reader never sees half a file, and a failed write leaves no temporary file."""
    import tempfile

    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".part", dir=p.parent or ".")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, default_mode())
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
