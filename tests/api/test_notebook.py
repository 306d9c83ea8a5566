"""The example notebook (examples/atlas-tour.ipynb) runs in a real kernel, top to
bottom, and shows what it promises: the map's picture and the replay viewer."""

from __future__ import annotations

import html
import re
from pathlib import Path

import nbclient  # the test extra installs nbclient, nbformat and ipykernel
import nbformat
import pytest

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "atlas-tour.ipynb"


@pytest.mark.slow
def test_the_tour_notebook_runs_and_shows_a_picture_and_the_viewer(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), (
        "the notebook is kept without outputs"
    )
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    pngs = [o["data"]["image/png"] for o in outputs if "image/png" in o.get("data", {})]
    assert pngs and all(p.startswith("iVBORw0KGgo") for p in pngs)  # PNG, base64
    pages = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    viewers = [p for p in pages if 'class="atlas-replay"' in p]
    assert len(viewers) == 1
    page = html.unescape(re.search(r'srcdoc="([^"]*)"', viewers[0]).group(1))
    assert 'id="replay-data"' in page and 'id="board"' in page and "getElementById" in page
    assert any("95% interval" in p for p in pages)  # the tournament's standings
