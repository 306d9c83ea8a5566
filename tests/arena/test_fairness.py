"""Fairness reports (atlas.arena.fairness): groups of seat-swapped games, the evidence and
the verdict, on games built by hand and on real games.

Real games use bots that search nothing (the random bot, the wall hugger, each seeded),
played in this process on the injected clock (``tick_clock``: a deadline is a budget of
clock reads), so every result here is the same on any machine: maps made one-sided on purpose give
the verdict in the right direction, tron's official resolution is shown to favour seat
1 where the documented rules draw, and random tic-tac-toe (whose exact first-player
score the test computes from the game tree) is a simulation with a known seat advantage.
"""

from __future__ import annotations

import dataclasses
import doctest
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from atlas.arena import fairness
from atlas.arena.fairness import (
    MARGIN,
    SeatScore,
    evidence,
    fairness_report,
    fairness_specs,
    group_games,
    map_fairness,
    seat_rotations,
    structure,
    verdict_of,
)
from atlas.arena.tournament import error_record
from atlas.errors import MapFormatError
from atlas.games.outpost.format import HOMES
from atlas.maps import GameMap, parse_map, read_map
from atlas.sim.base import Outcome, Reason
from tests.conftest import OUTSIDE_DATA

#: Seat 1 has a room of 18 cells, seat 2 one of 9: whoever sits in seat 1 outlasts.
LOPSIDED = "12 5\n############\n#1     #  2#\n#      #   #\n#      #   #\n############\n"
#: The same walls, the starts swapped.
LOPSIDED_2 = "12 5\n############\n#2     #  1#\n#      #   #\n#      #   #\n############\n"
#: A one-wide shaft: both cycles step in, then meet head to head; the documented rules
#: draw (both crash), the official engine lets seat 1 step onto seat 2's head first.
SHAFT = "3 6\n###\n#2#\n# #\n# #\n#1#\n###\n"


def tron(text: str, name: str = "m") -> GameMap:
    return parse_map(text, game="tron", name=name)


def test_the_docstring_examples_hold():
    assert doctest.testmod(fairness, raise_on_error=False).failed == 0


# --------------------------------------------------------------------------- groups


def test_seat_rotations():
    assert seat_rotations(["a"], 4) == [("a", "a", "a", "a")]
    assert seat_rotations(["a", "b", "c", "d"], 4) == [
        ("a", "b", "c", "d"),
        ("b", "c", "d", "a"),
        ("c", "d", "a", "b"),
        ("d", "a", "b", "c"),
    ]
    with pytest.raises(ValueError, match="3 players for 2 seats"):
        seat_rotations(["a", "b", "c"], 2)


def _with_scores(spec, scores, turns: int = 0):
    """A made-up record of ``spec`` with these scores (winner: the unique best)."""
    rec = error_record(spec, "made up")
    best = max(scores)
    winner = scores.index(best) if list(scores).count(best) == 1 else None
    return dataclasses.replace(
        rec, result=Outcome(winner, Reason.TURN_LIMIT, tuple(scores), "made up")
    )


def test_pairs_are_found_and_incomplete_groups_left_out():
    m = tron(LOPSIDED)
    specs = fairness_specs(m, ["a=random", "b=random"], 3, opening=0)
    assert [(s.seed, tuple(p.name for p in s.players)) for s in specs] == [
        (0, ("a", "b")),
        (0, ("b", "a")),
        (1, ("a", "b")),
        (1, ("b", "a")),
        (2, ("a", "b")),
        (2, ("b", "a")),
    ]
    played = [(s, _with_scores(s, (1.0, 0.0))) for s in specs]
    # the second game of seed 2 failed to run: its pair does not count
    played[5] = (specs[5], error_record(specs[5], "worker died"))
    groups, left = group_games(played + [played[0]])  # a game met twice counts once
    assert [[s.seed for s, _ in g] for g in groups] == [[0, 0], [1, 1]]
    assert left == 2
    ev = evidence(groups, 2, left_out=left)
    assert (ev.games, ev.groups, ev.group_size, ev.left_out) == (4, 2, 2, 2)
    # seat 1 won all four games: each pair scores 2 of 2 for seat 1
    assert ev.seats[0].score == 1.0 and ev.seats[0].wins == 4
    assert ev.seats[0].low == pytest.approx(2 / (2 + 1.959963984540054**2))
    assert ev.seats[1].score == 0.0 and ev.seats[1].high == pytest.approx(1 - ev.seats[0].low)
    assert ev.draws == 0
    # two pairs won whole cannot tell a seat advantage from luck: Wilson's lower end for
    # 2 of 2 is 0.34; four pairs lift it to 0.51, above an even share
    assert (ev.verdict, ev.favoured) == ("undecided", ())
    more = [
        (s, _with_scores(s, (1.0, 0.0)))
        for s in fairness_specs(m, ["a=random", "b=random"], 4, opening=0)
    ]
    ev = evidence(group_games(more)[0], 2)
    assert ev.seats[0].low == pytest.approx(4 / (4 + 1.959963984540054**2))
    assert (ev.verdict, ev.favoured) == ("favours seat 1", (1,))


def test_a_bot_stronger_in_both_seats_cancels_out_in_its_pairs():
    """Bot a wins every game, in either seat: each pair scores 1 of 2 for each seat,
    so the seats are even, however strong a is."""
    m = tron(LOPSIDED)
    specs = fairness_specs(m, ["a=random", "b=random"], 40, opening=0)
    played = []
    for s in specs:
        a_seat = [p.name for p in s.players].index("a")
        played.append(
            (s, _with_scores(s, tuple(1.0 if k == a_seat else 0.0 for k in range(2))))
        )
    groups, left = group_games(played)
    ev = evidence(groups, 2, left_out=left)
    assert (ev.games, ev.groups, left) == (80, 40, 0)
    assert ev.seats[0].score == 0.5 and ev.seats[0].wins == 40
    # every pair splits 1 : 1, variance 0: the interval is about 1/2 and within 5 points
    assert ev.seats[0].high - 0.5 < MARGIN
    assert ev.verdict == "balanced"
    # the same 80 games taken one by one look like coin flips: far wider
    from atlas.arena.paired import paired_interval

    games = paired_interval([rec.result.scores[0] for g in groups for _, rec in g])
    assert games.high - 0.5 > 2 * MARGIN


def test_four_seat_groups_are_the_four_rotations():
    outpost = read_map(OUTSIDE_DATA / "outpost-maps" / "map1.txt")
    names = ["a=random", "b=random", "c=random", "d=random"]
    specs = fairness_specs(outpost, names, 5, opening=0)
    assert len(specs) == 20
    # seat 1 beats the three others in every game, seat 4 beats nobody
    played = [(s, _with_scores(s, (1.0, 2 / 3, 1 / 3, 0.0))) for s in specs]
    groups, left = group_games(played)
    assert left == 0 and [len(g) for g in groups] == [4] * 5
    ev = evidence(groups, 4)
    assert ev.even == pytest.approx(0.5)  # four scores summing to 2
    assert [s.score for s in ev.seats] == pytest.approx([1.0, 2 / 3, 1 / 3, 0.0])
    # five groups won whole by seat 1: Wilson's 5 of 5 starts at 0.57, above 1/2; seat
    # 2's steady 2/3 is not sure enough yet with five groups
    assert ev.seats[0].low == pytest.approx(5 / (5 + 1.959963984540054**2))
    assert (ev.verdict, ev.favoured) == ("favours seat 1", (1,))
    # two bots over four seats: their two distinct rotations make a group
    two = fairness_specs(outpost, ["a=random", "b=random"], 1, opening=0)
    assert [tuple(p.name for p in s.players) for s in two] == [
        ("a", "b", "a", "b"),
        ("b", "a", "b", "a"),
    ]


def test_the_verdict_rule():
    even = 0.5
    assert verdict_of([SeatScore(1, 0.6, 0.51, 0.7), SeatScore(2, 0.4, 0.3, 0.49)], even) == (
        "favours seat 1",
        (1,),
    )
    assert (
        verdict_of([SeatScore(1, 0.4, 0.3, 0.49), SeatScore(2, 0.6, 0.51, 0.7)], even)[0]
        == "favours seat 2"
    )
    # an interval that touches an even share does not favour
    assert verdict_of([SeatScore(1, 0.6, 0.5, 0.7), SeatScore(2, 0.4, 0.3, 0.5)], even)[0] == (
        "undecided"
    )
    # balanced needs every seat within 5 points, ends included
    assert (
        verdict_of([SeatScore(1, 0.5, 0.45, 0.55), SeatScore(2, 0.5, 0.45, 0.55)], even)[0]
        == "balanced"
    )
    assert (
        verdict_of([SeatScore(1, 0.5, 0.44, 0.55), SeatScore(2, 0.5, 0.45, 0.56)], even)[0]
        == "undecided"
    )
    # four seats, two above an even share: the verdict names the surer one
    four = [
        SeatScore(1, 0.6, 0.52, 0.68),
        SeatScore(2, 0.7, 0.6, 0.8),
        SeatScore(3, 0.4, 0.3, 0.5),
        SeatScore(4, 0.3, 0.2, 0.4),
    ]
    assert verdict_of(four, even) == ("favours seat 2", (1, 2))


# --------------------------------------------------------------------------- real games


def _report(m: GameMap, **kw) -> fairness.FairnessReport:
    kw.setdefault("jobs", 1)
    (report,) = fairness_report([m], **kw)
    return report


@pytest.mark.parametrize(("text", "seat"), [(LOPSIDED, 1), (LOPSIDED_2, 2)], ids=["1", "2"])
def test_a_map_made_one_sided_favours_its_big_seat(text, seat, tick_clock):
    report = _report(tron(text), bots=["wallhugger"], games=8, opening=2, time_limit=1.0)
    ev = report.evidence
    assert ev.games == 8 and ev.groups == 8  # one bot in both seats: each game a group
    assert report.verdict == f"favours seat {seat}"
    assert ev.seats[seat - 1].score == 1.0 and ev.seats[seat - 1].wins == 8
    assert ev.seats[seat - 1].low > 0.5
    assert report.structure.symmetries == ()  # no symmetry carries one start onto the other
    facts = {f["key"]: f["seats"] for f in report.structure.facts}
    big, small = (18, 9) if seat == 1 else (9, 18)
    assert facts["voronoi"] == [big - 1, small - 1]  # the start cells are occupied
    # with two bots, one in each seat by turns, the pairs say the same
    paired = _report(
        tron(text), bots=["a=wallhugger", "b=random"], games=6, opening=0, time_limit=1.0
    )
    assert paired.evidence.group_size == 2 and paired.evidence.groups == 6
    assert paired.verdict == f"favours seat {seat}"


def test_the_official_resolution_favours_seat_1_where_the_documented_rules_draw(tick_clock):
    spec = _report(tron(SHAFT), bots=["wallhugger"], games=120, opening=0, compat="spec")
    official = _report(tron(SHAFT), bots=["wallhugger"], games=20, opening=0, compat="official")
    assert spec.structure.symmetries == ("rot180", "flip-ud")
    assert spec.params["compat"] == "spec" and official.params["compat"] == "official"
    # the documented rules: every game a draw, and 120 of them pin both seats within
    # 5 points of an even share
    assert spec.evidence.draws == 120
    assert spec.verdict == "balanced"
    # the 2010 engine: seat 1 steps onto seat 2's head before seat 2 leaves it
    assert official.evidence.seats[0].wins == 20
    assert official.verdict == "favours seat 1"


@cache
def _random_value(board: tuple[int, ...], to_play: int) -> float:
    """Seat 1's expected score in tic-tac-toe from ``board`` when both play uniformly
    at random (0 free, 1 and 2 the seats' marks), by the whole game tree."""
    lines = [
        (0, 1, 2),
        (3, 4, 5),
        (6, 7, 8),
        (0, 3, 6),
        (1, 4, 7),
        (2, 5, 8),
        (0, 4, 8),
        (2, 4, 6),
    ]
    for a, b, c in lines:
        if board[a] and board[a] == board[b] == board[c]:
            return 1.0 if board[a] == 1 else 0.0
    free = [i for i, v in enumerate(board) if v == 0]
    if not free:
        return 0.5
    total = 0.0
    for i in free:
        nxt = list(board)
        nxt[i] = to_play + 1
        total += _random_value(tuple(nxt), 1 - to_play)
    return total / len(free)


@pytest.fixture
def tictactoe(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "sim"))
    import toygame

    toygame.register()
    yield
    toygame.unregister()


def test_random_tic_tac_toe_is_a_known_seat_advantage(tictactoe, tick_clock):
    exact = _random_value((0,) * 9, 0)
    assert exact == pytest.approx(0.6484, abs=1e-3)  # 737/1260 won, 134/1260 drawn
    board = parse_map("tictactoe 3\n...\n...\n...\n", name="ttt")
    alone = _report(board, bots=["random"], games=400, opening=0)
    s1 = alone.evidence.seats[0]
    assert s1.low <= exact <= s1.high
    assert alone.verdict == "favours seat 1"
    assert alone.structure.notes[0].startswith("the seats take turns")
    assert alone.structure.seat_classes == ()  # no starts: seats are turns, not places
    # two random bots taking turns in the seats: pairs, the same seat advantage
    pairs = _report(board, bots=["x=random", "o=random"], games=200, opening=0)
    assert pairs.evidence.groups == 200 and pairs.evidence.games == 400
    s1 = pairs.evidence.seats[0]
    assert s1.low <= exact <= s1.high
    assert pairs.verdict == "favours seat 1"


def test_an_opening_varies_the_games_and_a_pair_shares_it(tick_clock):
    open_room = tron("8 6\n########\n#1     #\n#      #\n#      #\n#     2#\n########\n")
    played = []
    specs = fairness_specs(open_room, ["a=wallhugger", "b=wallhugger"], 4, opening=3)
    from atlas.arena.tournament import run_game

    for s in specs:
        played.append((s, run_game(s)))
    moves = [[dict(t.moves) for t in rec.turns] for _, rec in played]
    for k in range(0, len(played), 2):  # a pair: same seed, bots swapped, same opening
        assert moves[k][:3] == moves[k + 1][:3]
    openings = {str(m[:3]) for m in moves}
    assert len(openings) >= 3  # four seeds, not one game four times
    # without an opening the deterministic wall hugger plays one game for every seed
    plain = [run_game(s) for s in fairness_specs(open_room, ["wallhugger"], 3, opening=0)]
    assert len({str([dict(t.moves) for t in r.turns]) for r in plain}) == 1
    report = map_fairness(
        open_room, list(zip(fairness_specs(open_room, ["wallhugger"], 3, opening=0), plain))
    )
    assert report.evidence.distinct == 1 and report.evidence.games == 3


# --------------------------------------------------------------------------- structure and input


def test_outpost_quarters_and_a_board_that_breaks_the_promise():
    good = read_map(OUTSIDE_DATA / "outpost-maps" / "mapg3.txt")
    s = structure(good)
    assert {"rot90", "rot180"} <= set(s.symmetries)
    assert s.seats_alike
    assert [f["value"] for f in s.facts if f["key"] == "quarters"] == [True]
    water = np.array(good.blocked, copy=True)
    water[10, 20] = not water[10, 20]  # one cell of one quarter only
    bad = GameMap("outpost", "bent", water, HOMES)
    s = structure(bad)
    assert "rot90" not in s.symmetries
    assert [f["value"] for f in s.facts if f["key"] == "quarters"] == [False]
    assert s.seat_classes == ((1,), (2,), (3,), (4,))


def test_no_games_bad_maps_and_bad_players_are_problems_not_tracebacks(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("5 3\n#####\n#1x2#\n#####\n")  # a stray character on line 3
    good = tmp_path / "good.txt"
    good.write_text(LOPSIDED)
    problems: list[str] = []
    reports = fairness_report([bad, good], games=0, problems=problems)
    assert [r.map for r in reports] == ["good"]
    assert len(problems) == 1 and f"{bad}:3: unexpected character 'x'" in problems[0]
    r = reports[0]
    assert (r.evidence.games, r.verdict) == (0, "undecided")
    assert [(s.score, s.low, s.high) for s in r.evidence.seats] == [(None, 0.0, 1.0)] * 2
    data = r.to_json()
    for key in ("map", "game", "symmetries", "seats", "draws", "games", "verdict", "method"):
        assert key in data
    assert data["symmetries"] == [] and data["games"] == 0
    # an unknown bot, a player too many, rules a game does not have: one line each
    for kw, words in (
        ({"bots": ["nosuchbot"]}, "unknown tron bot 'nosuchbot'"),
        ({"bots": ["random", "random", "random"]}, "3 players for the 2 seats"),
        ({"compat": "official", "bots": ["random"]}, None),
    ):
        problems = []
        out = fairness_report([good], games=0, problems=problems, **kw)
        if words is None:
            assert problems == [] and out[0].params["compat"] == "official"
        else:
            assert len(problems) == 1 and words in problems[0] and out == []
    with pytest.raises(MapFormatError):
        fairness_report([bad], games=0)
