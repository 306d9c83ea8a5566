"""A game page says why its number of turns is not the T a reader expects: Outpost's
records hold a turn for each disband phase, and its official mode plays T + 1."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from types import SimpleNamespace

from atlas.cli import main
from atlas.render.registry import render_of

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "sim" / "golden"


def _game(turns: int, disband_at: set[int], **params):
    """A record of ``turns`` turns whose states before ``disband_at`` wait for a
    disband (what ``turns_text`` reads of a record and its states)."""
    record = SimpleNamespace(turns=[None] * turns, params={"T": 500, **params})
    states = [
        SimpleNamespace(pending=(False, i in disband_at, False, False))
        for i in range(turns + 1)
    ]
    return record, states


def test_disband_turns_are_named_and_counted():
    outpost = render_of("outpost")
    record, states = _game(507, {10, 20, 31, 42, 100, 230, 499})
    assert outpost.turns_text(record, states) == (
        "507 turns: 500 turns of play and 7 turns where an empire chose an outpost to disband"
    )
    record, states = _game(501, {10})
    assert outpost.turns_text(record, states) == (
        "501 turns: 500 turns of play and 1 turn where an empire chose an outpost to disband"
    )


def test_the_official_mode_plays_one_turn_more():
    outpost = render_of("outpost")
    record, states = _game(501, set(), compat="official")
    assert outpost.turns_text(record, states) == (
        "501 turns: the official simulator plays T + 1 = 501 (T = 500)"
    )
    record, states = _game(503, {10, 20}, compat="official")
    assert outpost.turns_text(record, states) == (
        "503 turns: 501 turns of play (the official simulator plays T + 1) and 2 turns "
        "where an empire chose an outpost to disband"
    )


def test_a_game_of_exactly_t_turns_or_another_game_says_nothing_more():
    record, states = _game(500, set())
    assert render_of("outpost").turns_text(record, states) is None
    record, states = _game(312, set())  # ended early: its result says so
    assert render_of("outpost").turns_text(record, states) is None
    record, states = _game(315, {40, 41, 90})  # ended early, with disband turns
    assert render_of("outpost").turns_text(record, states) == (
        "315 turns: 312 turns of play and 3 turns where an empire chose an outpost to disband"
    )
    record = SimpleNamespace(turns=[None] * 40, params={})
    assert render_of("tron").turns_text(record, [object()] * 41) is None


def test_the_game_page_shows_it(tmp_path, monkeypatch):
    """An official-mode record published by a build: its page gives the reason."""
    monkeypatch.chdir(tmp_path)
    data = json.loads(
        gzip.decompress((GOLDEN / "outpost-delta-random-official.json.gz").read_bytes())
    )
    (tmp_path / "recs").mkdir()
    (tmp_path / "recs" / "game.json").write_text(json.dumps(data))
    (tmp_path / "maps").mkdir()
    argv = ["build", "--maps", "maps", "--records", "recs", "--games", "0", "--quiet"]
    assert main(argv) == 0
    (page,) = (tmp_path / "site" / "games").glob("*.html")
    n, limit = len(data["turns"]), data["params"]["T"]
    assert n == limit + 1
    assert (
        f"<tr><th>turns</th><td>{n} turns: the official simulator plays T + 1 = {n} "
        f"(T = {limit})</td></tr>"
    ) in page.read_text()
