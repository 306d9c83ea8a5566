"""What the browser tests share: where Chromium is and how it is started."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def require_chromium() -> None:
    """Fail (not skip) when Debian's chromium is missing: the suite must run them."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.fail(
            "Debian's chromium is not installed: run 'apt-get install chromium' "
            "(.ci/run does) to run the browser tests"
        )


@contextlib.contextmanager
def chromium_page(width: int, height: int) -> Iterator[Any]:
    """A page of a fresh headless Chromium, ``width`` x ``height``, with the page's
    script errors kept in ``page.errors``; the browser is closed at the end."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            pg = browser.new_page(viewport={"width": width, "height": height})
            errors: list[str] = []
            pg.on("pageerror", lambda e: errors.append(str(e)))
            pg.errors = errors
            yield pg
        finally:
            browser.close()
