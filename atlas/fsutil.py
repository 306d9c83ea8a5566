"""File-system helpers shared by the writers of records, caches and the site."""

from __future__ import annotations

import os

__all__ = ["default_mode"]


def default_mode(*, directory: bool = False) -> int:
    """The permission bits a plain ``open()``/``mkdir()`` would give under the umask.

    ``tempfile.mkstemp`` and ``mkdtemp`` create private (0600/0700) entries; files that
    are moved into place for others to read (records, the published site) get these
    bits instead, so a web server running as another user can serve them.
    """
    mask = os.umask(0)
    os.umask(mask)
    return (0o777 if directory else 0o666) & ~mask
