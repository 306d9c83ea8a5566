"""atlas's own source files, and one digest of them: what keys numba's cache folder
(:mod:`atlas.jit.cache`) and the site cache's code versions
(:mod:`atlas.render.site.cache`)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

__all__ = ["PACKAGE_DIR", "python_files", "digest"]

#: The folder of the atlas package.
PACKAGE_DIR = Path(__file__).resolve().parent


def python_files(
    root: Path = PACKAGE_DIR, parts: Iterable[str] = ("",), excluded: Iterable[str] = ()
) -> list[Path]:
    """The ``*.py`` files under ``root``, sorted.

    They are those of each of ``parts``, less ``excluded`` (paths relative to ``root``).
    A part is a file or a folder relative to ``root``, and ``""`` is the whole of it.  A
    part with a ``*`` is a pattern: ``games/*/rules`` is the module ``rules.py`` or the
    package ``rules/`` of every folder under ``games``.
    """
    root = Path(root)
    files: set[Path] = set()
    for part in parts:
        if "*" in part:
            targets = [*root.glob(part + ".py"), *(d for d in root.glob(part) if d.is_dir())]
        else:
            targets = [root / part if part else root]
        for target in targets:
            if target.is_file():
                files.add(target)
            elif target.is_dir():
                files.update(target.rglob("*.py"))
    files -= {root / rel for rel in excluded}
    return sorted(files)


def digest(files: Iterable[Path], relative_to: Path, salt: str = "") -> str:
    """SHA-256 (hex) of ``salt``, then of each file's path relative to ``relative_to``
    and its bytes, in the order given."""
    h = hashlib.sha256(salt.encode())
    for path in files:
        h.update(str(path.relative_to(relative_to)).encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()
