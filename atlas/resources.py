"""Where atlas's own files are: the site's templates and the bundled maps.

Both folders live at the top of the source tree (``templates/`` and ``maps/``, beside
the ``atlas`` package) and are shipped inside the wheel as ``atlas/_data/templates`` and
``atlas/_data/maps`` (``pyproject.toml``).  Every reader of them goes through the two
functions here, so atlas finds them the same way whether it runs from a clone (with
``PYTHONPATH`` or an editable install) or from an installed wheel.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["templates_dir", "maps_dir", "data_dir"]

#: A file each folder must hold, so that an unrelated ``templates`` or ``maps`` folder
#: that happens to sit beside an installed package is never taken for ours.
_MARKERS = {"templates": "base.html", "maps": "README.md"}


def data_dir(name: str) -> Path:
    """The folder ``name`` (``"templates"`` or ``"maps"``) of this atlas.

    Looked for inside the package first (an installed wheel), then at the top of the
    source tree the package was imported from.

    Raises
    ------
    FileNotFoundError
        Neither place holds it (a broken install): the message names both.
    """
    marker = _MARKERS[name]
    package = Path(str(resources.files("atlas")))
    for folder in (package / "_data" / name, package.parent / name):
        if (folder / marker).exists():
            return folder
    raise FileNotFoundError(
        f"atlas's {name}/ folder is missing: looked in "
        f"{package / '_data' / name} and {package.parent / name}"
    )


def templates_dir() -> Path:
    """The folder of the site's jinja2 templates and static files."""
    return data_dir("templates")


def maps_dir() -> Path:
    """The folder of atlas's own maps, one sub-folder per game."""
    return data_dir("maps")
