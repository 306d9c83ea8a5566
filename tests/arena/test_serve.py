"""Tests of atlas.arena.protocols' served side: built-in bots spoken to through each external protocol."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from atlas.arena.protocols import serve_builtin_bot
from atlas.maps import parse_map
from atlas.sim import get_game

ROOT = Path(__file__).resolve().parents[2]


def _board(rows, me, opp):
    """The official board text for a 5-wide map, written by hand."""
    grid = [list(r) for r in rows]
    grid[me[0]][me[1]] = "1"
    grid[opp[0]][opp[1]] = "2"
    return f"{len(rows[0])} {len(rows)}\n" + "".join("".join(r) + "\n" for r in grid)


def test_atlas_bot_tron_random_speaks_the_official_protocol():
    proc = subprocess.Popen([sys.executable, "-m", "atlas.cli", "bot", "tron", "random",
                             "--time", "0.5"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, cwd=ROOT)
    rows = ["#####", "#   #", "#   #", "#####"]
    answers = []
    try:
        # the bot at (1,1) can only go east or south; later it is boxed in on three sides
        for me, walls in (((1, 1), []), ((2, 1), [(1, 1), (1, 2), (2, 2)])):
            grid = [list(r) for r in rows]
            for r, c in walls:
                grid[r][c] = "#"
            proc.stdin.write(_board(["".join(g) for g in grid], me, (2, 3)).encode())
            proc.stdin.flush()
            answers.append(proc.stdout.readline())
        proc.stdin.close()
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert answers[0] in (b"2\n", b"3\n")
    assert answers[1] in (b"1\n", b"2\n", b"3\n", b"4\n")  # every direction crashes here


def test_serve_connect5_gtp_in_memory():
    commands = b"1 protocol_version\nboardsize 7 6\nclear_board\nplay black 4\n" \
               b"genmove white\nplay b 9\nquit\n"
    out = io.BytesIO()
    assert serve_builtin_bot("connect5", "random", seed=2, time_limit=0.2,
                             stdin=io.BytesIO(commands), stdout=out) == 0
    replies = out.getvalue().decode().split("\n\n")
    assert replies[:3] == ["=1 2", "=", "="]
    assert replies[3] == "="
    assert replies[4].startswith("= ") and 1 <= int(replies[4][2:]) <= 7
    assert replies[5].startswith("? ")  # column 9 is off a 7-column board
    assert replies[6] == "="


def test_serve_isolation_jsonl_in_memory():
    text = "isolation 4 3 queen\n1..#\n....\n#..2\n"
    game = get_game("isolation")
    state = game.initial_state(parse_map(text, game="isolation", name="m"))
    lines = [{"type": "start", "game": "isolation", "seat": 0, "players": 2, "map": text,
              "map_name": "m", "params": {}},
             {"type": "turn", "turn": 0, "seat": 0, "time": 1.0,
              "state": get_game("isolation").state_to_json(state)}]
    out = io.BytesIO()
    serve_builtin_bot("isolation", "random", time_limit=0.2,
                      stdin=io.BytesIO("".join(json.dumps(m) + "\n" for m in lines).encode()),
                      stdout=out)
    answer = json.loads(out.getvalue())
    assert tuple(answer["move"]) in game.legal_moves(state, 0)
