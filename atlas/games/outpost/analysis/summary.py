"""An Outpost map's key figures (``atlas analyze``, the map pages of the site)."""

from __future__ import annotations

from typing import Any

from ....analysis.articulation import articulation_points
from ....analysis.components import label_components
from ....analysis.summary import cell_lists, head_fields
from ....maps import GameMap

__all__ = ["map_summary"]


def map_summary(game_map: GameMap) -> dict[str, Any]:
    """Land and water, the land's components and articulation points, the homes.

    Keys: those of :func:`atlas.analysis.summary.head_fields`, then ``land``, ``water``,
    ``free_cells`` (= land), ``components`` and ``articulation_points`` of the land,
    ``water_components``, ``homes``.
    """
    g = game_map
    free = g.free
    _, n_components = label_components(free)
    _, n_water = label_components(g.blocked)
    land = int(free.sum())
    return {
        **head_fields(g),
        "land": land,
        "water": int(g.blocked.sum()),
        "free_cells": land,
        "components": n_components,
        "articulation_points": cell_lists(articulation_points(free)),
        "water_components": n_water,
        "homes": cell_lists(g.starts),
    }
