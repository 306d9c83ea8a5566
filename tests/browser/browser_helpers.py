"""What the browser tests share: where Chromium is and how it is started."""

from __future__ import annotations

import shutil
from pathlib import Path

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
