"""Built-in bots served as external programs: ``atlas bot GAME NAME``.

The other side of each protocol of :mod:`atlas.arena.process`: the served bot reads what
an engine sends on stdin and answers on stdout, so any built-in bot can enter the
official 2010 tron engine (one digit per turn), a GTP match controller (connect5), or
atlas's own JSON-lines hosts (isolation, outpost).  It exits cleanly on end of file.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from typing import Any, BinaryIO

import numpy as np

from ..errors import BotError
from ..maps import GameMap, parse_map
from ..sim import get_game
from .process import (COLOURS, PROTOCOLS, TRON_OPPONENT, TRON_ME, TRON_WALL,
                            state_from_json)
from ..bots import make_bot

__all__ = ["serve_builtin_bot", "SERVE_MOVE_TIME", "SERVE_FIRST_MOVE_TIME"]


#: Seconds per move a served bot allows itself by default (the official engine gives 1 s).
SERVE_MOVE_TIME = 0.9
#: ... and for its first move (the official engine's default limit is 3 s).
SERVE_FIRST_MOVE_TIME = 2.9


def serve_builtin_bot(game: str, name: str, seed: int = 0, time_limit: float | None = None,
                      *, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """Run the built-in bot ``name`` as an external program of ``game``'s protocol.

    Reads the protocol from ``stdin`` and answers on ``stdout`` (the process's own by
    default), flushing after every answer, until end of file (or GTP ``quit``); returns
    the exit status 0.  This is ``atlas bot GAME NAME``: ``atlas bot tron NAME`` can
    enter the official 2010 engine as a bot command.

    Parameters
    ----------
    time_limit : float, optional
        Seconds the bot allows itself per move, counted from the moment the request was
        read.  By default :data:`SERVE_MOVE_TIME` and :data:`SERVE_FIRST_MOVE_TIME` for
        the first move; a given value applies to every move.
    """

    if game not in PROTOCOLS:
        raise BotError(f"no external protocol for game {game!r}")
    bot = make_bot(game, name, seed)
    limits = ((SERVE_FIRST_MOVE_TIME, SERVE_MOVE_TIME) if time_limit is None
              else (float(time_limit), float(time_limit)))
    inp = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    serve = {"tron": _serve_tron, "connect5": _serve_gtp}.get(game, _serve_jsonl)
    try:
        serve(game, bot, limits, inp, out)
    except BrokenPipeError:
        pass
    finally:
        close = getattr(bot, "close", None)
        if close is not None:
            close()
    return 0


def _limit(limits: tuple[float, float], first: bool) -> float:
    return limits[0] if first else limits[1]


def _answer(out: BinaryIO, text: str) -> None:
    out.write(text.encode("utf-8"))
    out.flush()


def _serve_tron(game_name: str, bot: Any, limits: tuple[float, float], inp: BinaryIO,
                out: BinaryIO) -> None:

    game = get_game("tron")
    turn = 0
    while True:
        header = inp.readline()
        if not header:
            return
        if not header.strip():
            continue
        t0 = time.perf_counter()
        w, h = (int(v) for v in header.split()[:2])
        rows = [inp.readline().decode("ascii", "replace").rstrip("\r\n").ljust(w)[:w]
                for _ in range(h)]
        chars = np.array([list(r) for r in rows], dtype="<U1").reshape(h, w)
        heads = [np.argwhere(chars == label) for label in (TRON_ME, TRON_OPPONENT)]
        if any(len(hd) == 0 for hd in heads):
            _answer(out, "1\n")  # no head to move: any digit will do
            turn += 1
            continue
        starts = tuple((int(hd[0][0]), int(hd[0][1])) for hd in heads)
        board_map = GameMap("tron", "stdin", chars == TRON_WALL, starts)
        state = game.initial_state(board_map)
        if dataclasses.is_dataclass(state) and hasattr(state, "turn"):
            state = dataclasses.replace(state, turn=turn)
        if turn == 0 and hasattr(bot, "start"):
            bot.start(board_map, {}, 0)
        move = bot.move(state, 0, t0 + _limit(limits, turn == 0))
        _answer(out, f"{int(move) if move in (1, 2, 3, 4) else 1}\n")
        turn += 1


def _serve_gtp(game_name: str, bot: Any, limits: tuple[float, float], inp: BinaryIO,
               out: BinaryIO) -> None:

    game = get_game("connect5")
    size, inarow = [9, 6], 5
    state: Any = None
    first = True

    def fresh() -> Any:
        board_map = GameMap("connect5", "gtp", np.zeros((size[1], size[0]), dtype=np.bool_),
                            (), {"inarow": inarow})
        if hasattr(bot, "start"):
            bot.start(board_map, {"inarow": inarow}, 0)
        return game.initial_state(board_map, {"inarow": inarow})

    commands = ("protocol_version", "name", "version", "known_command", "list_commands",
                "boardsize", "inarow", "clear_board", "play", "genmove", "quit")
    for raw in iter(inp.readline, b""):
        t0 = time.perf_counter()
        parts = raw.decode("utf-8", "replace").split("#")[0].split()
        if not parts:
            continue
        ident = parts.pop(0) if parts[0].isdigit() else ""
        cmd, args = (parts[0].lower(), parts[1:]) if parts else ("", [])
        ok, text = True, ""
        try:
            if cmd == "protocol_version":
                text = "2"
            elif cmd == "name":
                text = f"atlas-{getattr(bot, 'name', 'bot')}"
            elif cmd == "version":
                text = "1"
            elif cmd == "known_command":
                text = "true" if args and args[0] in commands else "false"
            elif cmd == "list_commands":
                text = "\n".join(commands)
            elif cmd == "boardsize":
                cols = int(args[0])
                size[:] = [cols, int(args[1]) if len(args) > 1 else size[1]]
                state = None
            elif cmd == "inarow":
                inarow, state = int(args[0]), None
            elif cmd == "clear_board":
                state = fresh()
            elif cmd in ("play", "genmove"):
                seat = _colour_seat(args[0])
                if state is None:
                    state = fresh()
                if cmd == "play":
                    state = game.apply(state, {seat: int(args[1]) - 1})
                else:
                    column = bot.move(state.copy(), seat, t0 + _limit(limits, first))
                    first = False
                    state = game.apply(state, {seat: int(column)})
                    text = str(int(column) + 1)
            elif cmd == "quit":
                _answer(out, f"={ident}\n\n")
                return
            else:
                ok, text = False, "unknown command"
        except (ValueError, IndexError, KeyError) as exc:
            ok, text = False, str(exc) or "syntax error"
        _answer(out, f"{'=' if ok else '?'}{ident} {text}".rstrip() + "\n\n")


def _colour_seat(word: str) -> int:
    word = word.lower()
    for seat, colour in enumerate(COLOURS):
        if word in (colour, colour[0]):
            return seat
    raise ValueError(f"unknown colour {word!r}")


def _serve_jsonl(game_name: str, bot: Any, limits: tuple[float, float], inp: BinaryIO,
                 out: BinaryIO) -> None:

    game = get_game(game_name)
    template: Any = None
    seat, first = 0, True
    for raw in iter(inp.readline, b""):
        t0 = time.perf_counter()
        if not raw.strip():
            continue
        msg = json.loads(raw)
        kind = msg.get("type")
        if kind == "start":
            board_map = parse_map(msg["map"], game=game_name, name=msg.get("map_name", "map"))
            params = dict(msg.get("params") or {})
            seat = int(msg.get("seat", 0))
            template = game.initial_state(board_map, params)
            if hasattr(bot, "start"):
                bot.start(board_map, params, seat)
        elif kind == "turn":
            state = state_from_json(template, msg["state"])
            limit = _limit(limits, first)
            if "time" in msg:
                limit = min(limit, 0.8 * float(msg["time"]))
            move = bot.move(state, int(msg.get("seat", seat)), t0 + limit)
            first = False
            _answer(out, json.dumps({"move": game.move_to_json(move)}) + "\n")
        elif kind == "end":
            return
