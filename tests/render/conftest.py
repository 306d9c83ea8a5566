"""Fixtures for the render tests (helpers live in ``render_helpers``)."""

from __future__ import annotations

import pytest
from render_helpers import TRON25

from atlas.maps import GameMap, parse_map


@pytest.fixture
def tron25() -> GameMap:
    return parse_map(TRON25, game="tron", name="pillars25")


@pytest.fixture
def corridor_map() -> GameMap:
    text = "7 5\n#######\n#1 # 2#\n#  #  #\n#     #\n#######\n"
    return parse_map(text, game="tron", name="corridor")
