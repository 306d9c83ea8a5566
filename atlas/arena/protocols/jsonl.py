"""atlas's JSON-lines protocol (isolation, outpost, and any game that names it).

The host sends a ``start`` message, then one ``turn`` message per move, each answered by
one line ``{"move": ...}`` (``docs/protocols.md``).  What a state looks like and which
answer is expected are the game's own (``GAME.state_to_json`` and ``GAME.turn_json``),
so the protocol knows no game by name.  :class:`JsonLinesBot` plays a program inside
atlas; :func:`serve` runs a built-in bot as one (``atlas bot GAME NAME``).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping
from typing import Any, BinaryIO

from ...errors import MOVE_DATA_ERRORS, AtlasError
from ...limits import LimitError, load_json
from ...maps import format_map, parse_map
from ...sim.base import Status
from ...sim.registry import get_game
from ..process import BotFailure, ExternalBot
from .common import RequestError, ServedBot, info_from_json, send_line, take_report

__all__ = [
    "HOST_BOT",
    "JsonLinesBot",
    "parse_jsonl_line",
    "jsonl_move",
    "jsonl_answer",
    "serve",
]


class JsonLinesBot(ExternalBot):
    """A program speaking atlas's JSON-lines protocol (isolation, outpost)."""

    protocol = "jsonl"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._started = False

    def _send(self, message: Mapping[str, Any], deadline: float) -> None:
        line = json.dumps(message, separators=(",", ":")) + "\n"
        self._proc().write(line.encode("utf-8"), deadline)

    def move(self, state: Any, player: int, deadline: float) -> Any:
        game = get_game(self.game)
        if not self._started:
            assert self.game_map is not None
            self._send(
                {
                    "type": "start",
                    "game": self.game,
                    "seat": player,
                    "players": game.info.num_players,
                    "map_name": self.game_map.name,
                    "map": format_map(self.game_map),
                    "params": self.params,
                },
                deadline,
            )
            self._started = True
        message: dict[str, Any] = {
            "type": "turn",
            "turn": int(state.turn),
            "seat": player,
            "time": round(max(0.0, deadline - time.perf_counter()), 4),
            "state": game.state_to_json(state),
        }
        message.update(game.turn_json(state, player))
        self._send(message, deadline)
        line = self._proc().read_answer(parse_jsonl_line, deadline, "answer line")
        move, said = jsonl_answer(game, line)
        self.last_info = take_report(self, lambda tok: _pv_move(game, tok), said)
        return move


def parse_jsonl_line(buf: bytes | bytearray) -> tuple[str | None, int]:
    """The host's reading of one answer line: ``(line, bytes consumed)``.

    ``(None, 0)`` until a newline comes; blank lines are consumed and skipped.  The
    line's length is bounded by what the bot may write in a turn
    (:data:`~atlas.arena.process.MAX_TURN_BYTES`).  Total on any bytes (invalid UTF-8
    is replaced).
    """
    end = buf.find(b"\n")
    if end < 0:
        return None, 0
    line = bytes(buf[:end]).decode("utf-8", "replace").strip()
    return (line or None), end + 1


def jsonl_move(game: Any, line: str) -> Any:
    """The move of the answer ``line`` (``{"move": ...}``) in ``game``'s terms.

    Raises :class:`~atlas.arena.process.BotFailure` (``invalid``) for anything else:
    not JSON, JSON beyond the limits of :mod:`atlas.limits` (nesting, digits), no
    ``move``, a move the game cannot read.
    """
    return jsonl_answer(game, line)[0]


def _pv_move(game: Any, data: str) -> Any:
    """A move of an ``info`` line's ``pv``: a word of JSON the game reads as a move."""
    return game.move_from_json(load_json(data))


def jsonl_answer(game: Any, line: str) -> tuple[Any, dict[str, Any]]:
    """The move of the answer ``line`` and what its optional ``info`` object reports
    (:func:`~atlas.arena.protocols.common.info_from_json`: ``{}`` without one).

    Raises as :func:`jsonl_move`: a bad ``info`` is left out, never a failure.
    """
    try:
        data = load_json(line)
    except LimitError as exc:
        raise BotFailure(Status.INVALID, f"answer refused: {exc}") from None
    except ValueError:  # not JSON, or not UTF-8
        raise BotFailure(Status.INVALID, f"answer is not JSON: {line[:40]!r}") from None
    if not isinstance(data, dict) or "move" not in data:
        raise BotFailure(Status.INVALID, f"answer has no 'move': {line[:40]!r}")
    try:
        move = game.move_from_json(data["move"])
    except MOVE_DATA_ERRORS as exc:
        raise BotFailure(Status.INVALID, f"cannot read the move: {str(exc)[:120]}") from None
    return move, info_from_json(data.get("info"), game.move_from_json)


#: The host side of this protocol (:func:`atlas.arena.protocols.external_bot`).
HOST_BOT = JsonLinesBot


def serve(
    game_name: str, served: ServedBot, inp: BinaryIO, out: BinaryIO, params: dict[str, Any]
) -> None:
    """Answer a JSON-lines host on ``inp``/``out`` with ``served`` until ``end`` or EOF.

    The deadline of a turn is the served clock's (:meth:`ServedBot.deadline`), and at
    most four fifths of the ``time`` the host says is left.  Everything that may need
    compiled code (the map, the state, the bot) runs on the worker thread, so the main
    thread can always answer: when the bot misses the deadline, the watchdog answers a
    random one of the ``legal`` moves the turn message lists.
    """
    import numpy as np

    game = get_game(game_name)
    rng = np.random.default_rng(0)
    held: dict[str, Any] = {}  # the worker's: the state template of the game
    seat = 0

    def start(bot: Any, msg: dict[str, Any]) -> None:
        held.pop("template", None)
        try:
            board_map = parse_map(msg["map"], game=game_name, name=msg.get("map_name", "map"))
            game_params = {**params, **dict(msg.get("params") or {})}
            held["template"] = game.initial_state(board_map, game_params)
        except (AtlasError, ValueError, TypeError, KeyError, IndexError) as exc:
            print(f"atlas bot: cannot start the game: {exc}", file=sys.stderr, flush=True)
            return
        if hasattr(bot, "start"):
            bot.start(board_map, game_params, int(msg.get("seat", 0)))

    def move(bot: Any, deadline: float, msg: dict[str, Any], player: int) -> Any:
        if "template" not in held:
            raise RequestError("no game to move in: the start message could not be used")
        try:
            state = game.state_from_json(held["template"], msg["state"])
        except (AtlasError, ValueError, TypeError, KeyError, IndexError) as exc:
            raise RequestError(f"cannot read the turn's state: {exc!r}"[:200]) from None
        return bot.move(state, player, deadline)

    def fallback(msg: dict[str, Any], player: int) -> Any:
        legal = msg.get("legal")
        if legal:
            return game.move_from_json(legal[int(rng.integers(len(legal)))])
        state = game.state_from_json(held["template"], msg["state"])
        return game.random_move(state, player, rng)

    started = False
    for number, raw in enumerate(iter(inp.readline, b""), start=1):
        t0 = time.perf_counter()
        if not raw.strip():
            continue
        try:
            msg = _message(raw)
            kind = msg.get("type")
            if kind == "start":
                if not isinstance(msg.get("map"), str):
                    raise ValueError("a start message without its map")
                seat = int(msg.get("seat", 0))
                started = True
                served.tell(lambda bot, m=msg: start(bot, m))  # type: ignore[misc]
            elif kind == "turn":
                if not started:
                    raise ValueError("a turn message before the start message")
                deadline = served.deadline(t0)
                if "time" in msg:
                    deadline = min(deadline, t0 + 0.8 * float(msg["time"]))
                player = int(msg.get("seat", seat))
                answer = served.ask(
                    lambda bot, dl, m=msg, p=player: move(bot, dl, m, p),  # type: ignore[misc]
                    deadline,
                    lambda m=msg, p=player: fallback(m, p),  # type: ignore[misc]
                )
                served.report(lambda m: json.dumps(game.move_to_json(m), separators=(",", ":")))
                send_line(out, json.dumps({"move": game.move_to_json(answer)}) + "\n")
            elif kind == "end":
                return
        except (ValueError, TypeError, KeyError, IndexError, AtlasError) as exc:
            # the host's mistake: said in one line, the line skipped, no traceback
            print(f"atlas bot: input line {number}: {exc}", file=sys.stderr, flush=True)


def _message(raw: bytes) -> dict[str, Any]:
    """One message of the host: a JSON object within the limits, or ValueError."""
    try:
        msg = load_json(raw)
    except (LimitError, ValueError) as exc:  # not JSON, not UTF-8, beyond the limits
        raise ValueError(f"not a JSON message ({exc})") from None
    if not isinstance(msg, dict):
        raise ValueError(f"not a JSON object: {raw[:40]!r}")
    return msg
