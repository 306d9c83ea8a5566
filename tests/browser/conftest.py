"""Fixtures of the browser tests: ``page``, a Chromium page over the module's ``site``
fixture, with the page's script errors kept in ``page.errors``."""

from __future__ import annotations

import pytest
from browser_helpers import ARGS, CHROMIUM


@pytest.fixture(scope="module")
def page(site):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pg = browser.new_page(viewport={"width": 1200, "height": 900})
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.errors = errors  # type: ignore[attr-defined]
        yield pg
        browser.close()
