"""File-system helpers shared by the writers of records, caches and the site."""

from __future__ import annotations

import gzip
import io
import os
import zlib
from pathlib import Path
from typing import Callable

__all__ = ["default_mode", "read_maybe_gzip"]


def default_mode(*, directory: bool = False) -> int:
    """The permission bits a plain ``open()``/``mkdir()`` would give under the umask.

    ``tempfile.mkstemp`` and ``mkdtemp`` create private (0600/0700) entries; files that
    are moved into place for others to read (records, the published site) get these
    bits instead, so a web server running as another user can serve them.
    """
    mask = os.umask(0)
    os.umask(mask)
    return (0o777 if directory else 0o666) & ~mask


def read_maybe_gzip(path: Path, limit: int, error: Callable[..., Exception]
                    ) -> tuple[bytes, bool]:
    """The bytes of ``path``, gunzipped when they start with gzip's magic number.

    Returns the bytes and whether they were gzip data.

    At most ``limit + 1`` bytes are decompressed, so a caller can refuse an oversized
    file without unpacking a gzip bomb.  Failures raise ``error(message, path=path)``.
    """
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise error(f"cannot read file: {exc.strerror or exc}", path=path) from None
    gzipped = raw[:2] == b"\x1f\x8b"
    if gzipped:
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as fh:
                raw = fh.read(limit + 1)
        except (OSError, EOFError, zlib.error) as exc:
            raise error(f"damaged gzip data: {exc}", path=path) from None
    return raw, gzipped
