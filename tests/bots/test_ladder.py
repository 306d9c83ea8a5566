"""The strength ladder's fixed-depth mode (``benchmarks/ladder.py --depth``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("ladder", ROOT / "benchmarks" / "ladder.py")
ladder = importlib.util.module_from_spec(_spec)
sys.modules["ladder"] = ladder        # its dataclasses look their module up there
_spec.loader.exec_module(ladder)


def _fail(message):
    raise ValueError(message)


def test_depths_for_every_bot_and_one_bot():
    bots = ["wallhugger", "voronoi", "frontline"]
    assert ladder.parse_depths(["5", "voronoi=6"], bots, _fail) == {
        "wallhugger": 5, "voronoi": 6, "frontline": 5}
    assert ladder.parse_depths(["frontline=4"], bots, _fail) == {"frontline": 4}
    assert ladder.parse_depths(["3", "voronoi=0"], bots, _fail) == {
        "wallhugger": 3, "frontline": 3}
    with pytest.raises(ValueError, match="'chambers' is not one of the bots"):
        ladder.parse_depths(["chambers=3"], bots, _fail)
    with pytest.raises(ValueError, match="whole number"):
        ladder.parse_depths(["deep"], bots, _fail)


def test_a_fixed_depth_game_is_the_same_on_a_loaded_machine():
    # Searches that ignore the clock play the same game at any time per move (these two
    # bots also fill a separated room without the clock).
    duel = ROOT / "maps" / "tron" / "duel.txt"
    jobs = ladder.schedule("tron", ["voronoi", "chambers"], [duel], [0], 5.0, 2, None,
                           {"voronoi": 2, "chambers": 2})
    assert len(jobs) == 2 and all(dict(j.depths) == {"voronoi": 2, "chambers": 2}
                                  for j in jobs)
    first = ladder.run_job(jobs[0])
    again = ladder.run_job(jobs[0])
    assert first["statuses"] == ["ok", "ok"]
    assert (first["scores"], first["turns"], first["detail"]) == (
        again["scores"], again["turns"], again["detail"])
