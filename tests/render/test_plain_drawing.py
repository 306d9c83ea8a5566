"""A build that draws a few new games of light kernels draws them as plain Python,
without loading numba (issue 33: ten more games of a season, warm): the drawing is the
same, byte for byte, as the compiled one, and heavy games are always compiled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from render_helpers import play_record

from atlas.jit.lazy import interpreted
from atlas.maps import parse_map, read_map
from atlas.render.site import replays
from atlas.render.site.entries import GameEntry, RecordHead
from atlas.render.site.replays import render_replay

MAPS = {
    "tron": "9 7\n#########\n#1      #\n#  # #  #\n#       #\n#  # #  #\n#      2#\n#########\n",
    "isolation": "isolation 5 5 queen\n1....\n.....\n..#..\n.....\n....2\n",
    "connect5": "connect5 7 6 4\n",
}


def _record(game: str, seed: int = 0):
    gm = parse_map(MAPS[game], game=game, name=game)
    return play_record(game, gm, seed=seed)


def _drawing(record) -> bytes:
    gif, viewer, meta = render_replay(record, gif=True)
    return (gif or b"") + json.dumps([viewer, meta], sort_keys=True).encode()


@pytest.mark.parametrize("game", sorted(MAPS))
def test_a_plain_drawing_is_the_compiled_drawing(game):
    for seed in (0, 1):
        record = _record(game, seed)
        with interpreted():
            plain = _drawing(record)
        assert plain == _drawing(record)


def _entry(record) -> GameEntry:
    return GameEntry(ident="g", head=RecordHead.of(record), _record=record)


def test_which_games_are_drawn_plain(monkeypatch):
    monkeypatch.setattr("atlas.jit.load.numba_loaded", lambda: False)
    few = [_entry(_record(game, seed)) for game in MAPS for seed in (0, 1)]
    assert replays._plain_drawing(few)
    assert replays._plain_drawing([])
    # more than loading numba would take, by the games' rates
    record = few[0].record
    rate = replays.render_of("tron").plain_draw_rate
    enough = int(
        replays.PLAIN_DRAWING_SECONDS / (rate * len(record.turns) * len(record.map.text))
    )
    assert replays._plain_drawing([few[0]] * enough)
    assert not replays._plain_drawing([few[0]] * (enough + 2))
    # an Outpost game never: its rules' kernels take a minute a game as plain Python
    assert replays.render_of("outpost").plain_draw_rate is None
    gm = read_map(
        Path(__file__).parents[1] / "data" / "outpost-maps" / "map0.txt", game="outpost"
    )
    outpost = _entry(play_record("outpost", gm, seed=0, params={"T": 3}))
    assert not replays._plain_drawing([few[0], outpost])
    # numba loaded already: compiled drawings cost nothing more
    monkeypatch.setattr("atlas.jit.load.numba_loaded", lambda: True)
    assert not replays._plain_drawing(few)


def test_a_rebuild_with_a_few_new_games_does_not_load_numba(tmp_path):
    """The warm rebuild of a season with one more game: every old game's drawing comes
    from the cache, the new one is drawn as plain Python, and numba is never loaded."""
    import subprocess
    import sys
    import textwrap

    from atlas.render.site.build import build_site
    from atlas.sim.records import save_record

    (tmp_path / "maps" / "tron").mkdir(parents=True)
    (tmp_path / "maps" / "tron" / "room.txt").write_text(MAPS["tron"])
    recs = tmp_path / "records"
    recs.mkdir()
    for seed in range(3):
        save_record(_record("tron", seed), recs / f"g{seed}.json")
    options = dict(
        records_dir=recs, cache_dir=tmp_path / "cache", tournament=False, progress=False
    )
    build_site(tmp_path / "maps", tmp_path / "site", log=lambda m: None, **options)
    save_record(_record("tron", 7), recs / "g7.json")
    script = textwrap.dedent(
        f"""
        from atlas.render.site.build import build_site
        from atlas.jit.load import numba_loaded
        r = build_site({str(tmp_path / "maps")!r}, {str(tmp_path / "site")!r},
                       log=lambda m: None, **{options!r})
        print(len(r.games), numba_loaded())
        """
    ).replace("PosixPath", "")
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["4", "False"]
    assert (tmp_path / "site" / "games").is_dir()
