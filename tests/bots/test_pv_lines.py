"""The principal variations the built-in searches report (issue 35, "what the bot
thought"): at their default fixed effort, every reported line starts with the move the
bot played, holds at most 12 moves, and its first plies are legal when replayed by the
rules from the position before the turn.  The lines are read from real games' records,
so the record builder's JSON form is checked too."""

from __future__ import annotations

from pathlib import Path

import pytest

from atlas.arena.runner import play_game
from atlas.bots.registry import bot_effort
from atlas.bots.search import new_pv, pv_moves, pv_push
from atlas.limits import MAX_PV_MOVES
from atlas.maps import read_map
from atlas.sim import get_game
from atlas.sim.records import clean_pv, replay_states

MAPS = Path(__file__).resolve().parents[2] / "maps"
#: Plies of each line replayed by the rules.
CHECKED_PLIES = 6

GAMES = [
    ("tron", "tron/arena.txt", ["apex", "voronoi"]),
    ("tron", "tron/arena.txt", ["frontline", "chambers"]),
    ("isolation", "isolation/knight7.txt", ["strong", "phased"]),
    ("connect5", "connect5/connect4.txt", ["strong", "strong"]),
]


def _record(game_name: str, path: str, bots: list[str]):
    efforts = [bot_effort(game_name, b) for b in bots]
    game_map = read_map(MAPS / path, game=game_name)
    return play_game(game_name, game_map, bots, seed=2, effort=efforts)


def _tron_line_is_legal(state, seat: int, pv: list[int]) -> bool:
    """``pv``'s first plies step onto free cells, the two heads in turn (tron's
    "reply" is the other head's move of the same turn)."""
    from atlas.games.tron.rules import DELTAS

    blocked = state.blocked.copy()
    heads = [tuple(int(v) for v in h) for h in state.heads]
    for i, move in enumerate(pv[:CHECKED_PLIES]):
        who = seat if i % 2 == 0 else 1 - seat
        r, c = heads[who][0] + int(DELTAS[move][0]), heads[who][1] + int(DELTAS[move][1])
        if not (0 <= r < blocked.shape[0] and 0 <= c < blocked.shape[1]) or blocked[r, c]:
            return False
        heads[who] = (r, c)
        if i % 2 == 1:  # the turn is over: both cells are trails
            blocked[heads[0]] = blocked[heads[1]] = True
    return True


def _alternating_line_is_legal(game, state, seat: int, pv: list) -> bool:
    s = state
    for i, data in enumerate(pv[:CHECKED_PLIES]):
        if game.outcome(s) is not None:
            return True  # the line may go up to the game's end
        (who,) = game.to_move(s)
        if who != (seat if i % 2 == 0 else 1 - seat):
            return False
        move = game.move_from_json(data)
        if not game.is_legal(s, who, move):
            return False
        s = game.apply(s, {who: move})
    return True


@pytest.mark.parametrize(("game_name", "path", "bots"), GAMES)
def test_reported_lines_start_with_the_move_played_and_replay_legally(game_name, path, bots):
    record = _record(game_name, path, bots)
    game = get_game(game_name)
    states = replay_states(record)
    lines = 0
    for i, turn in enumerate(record.turns):
        for seat, said in turn.info.items():
            pv = said.get("pv")
            if pv is None:
                continue
            lines += 1
            assert 1 <= len(pv) <= MAX_PV_MOVES
            assert pv[0] == turn.moves[seat], (i, seat, pv, turn.moves)
            if game_name == "tron":
                assert _tron_line_is_legal(states[i], seat, pv), (i, seat, pv)
            else:
                assert _alternating_line_is_legal(game, states[i], seat, pv), (i, seat, pv)
    # the searches report a line on most turns, and some lines go past the move itself
    assert lines >= len(record.turns) // 3
    assert any(len(s.get("pv", ())) >= 3 for t in record.turns for s in t.info.values())


def test_the_triangular_table_copies_the_child_line_and_caps_it():
    pv = new_pv(20)
    pv[3, 0] = MAX_PV_MOVES  # a full line below ply 2
    pv[3, 1 : 1 + MAX_PV_MOVES] = range(100, 100 + MAX_PV_MOVES)
    pv_push.py_func(pv, 2, 7, 3)
    assert pv_moves(pv, 2) == [7, *range(100, 100 + MAX_PV_MOVES - 1)]
    pv_push.py_func(pv, 1, 5, -1)  # a leaf: the move alone
    assert pv_moves(pv, 1) == [5]
    pv_push.py_func(pv, 50, 5, 3)  # past the table: nothing written, nothing raised
    assert pv_moves(pv, 0) == []


def test_clean_pv_keeps_json_moves_up_to_the_first_bad_one():
    game = get_game("isolation")
    assert clean_pv([(1, 2), (3, 4)], game.move_to_json) == {"pv": [[1, 2], [3, 4]]}
    assert clean_pv([(1, 2), "nonsense", (3, 4)], game.move_to_json) == {
        "pv": [[1, 2]],
        "pv_cut": 2,
    }
    assert clean_pv("1234", int) == {}  # a string is not a line
    assert clean_pv(None, int, 3) == {"pv_cut": 3}
    assert clean_pv(list(range(1, 100)), int)["pv_cut"] == 99 - MAX_PV_MOVES


def test_a_search_that_sees_a_forced_end_reports_its_plies():
    # connect5 strong solves 9x6 connect-four endings: once it reports a score within
    # the mate band, the record says mate, the plies to the end, which agree with its
    # score (WIN - plies) and with when the game really ended for a won side
    from atlas.arena.reports import mate_plies
    from atlas.games.connect5.bots.search import WIN

    record = _record("connect5", "connect5/connect4.txt", ["strong", "strong"])
    mates = [
        (i, seat, said)
        for i, turn in enumerate(record.turns)
        for seat, said in turn.info.items()
        if "mate" in said
    ]
    assert mates, "no forced end reported in a solved connect-four game"
    # the opening move (the centre, no search) reports no figures: not the warm-up's
    assert "score" not in record.turns[0].info.get(0, {})
    for _, _, said in mates:
        assert said["mate"] == mate_plies(said["score"], WIN)
        assert abs(said["mate"]) == WIN - abs(said["score"])
    winner = record.result.winner
    if winner is not None:  # the winner's last reported forced win ends when the game does
        i, _, said = max((m for m in mates if m[1] == winner), key=lambda m: m[0])
        assert said["mate"] > 0
        assert len(record.turns) - i == said["mate"]
    # a score far from the band says no forced end; a bot without win_score never does
    assert mate_plies(12, WIN) is None and mate_plies(999_990, 0.0) is None
