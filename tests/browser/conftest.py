"""Fixtures of the browser tests: ``page``, a Chromium page over the module's ``site``
fixture, with the page's script errors kept in ``page.errors``; ``served``, a site
``atlas serve`` serves live from a temporary maps folder (``tests/render/serve_helpers.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from browser_helpers import chromium_page, require_chromium

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "render"))


@pytest.fixture(scope="module")
def page(site):
    with chromium_page(1200, 900) as pg:
        yield pg


@pytest.fixture
def served(tmp_path):
    from serve_helpers import Served

    require_chromium()
    s = Served(tmp_path)
    try:
        yield s
    finally:
        s.close()
