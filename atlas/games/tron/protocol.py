"""The 2010 tron contest's protocol, byte for byte: the host side and the served side.

Each turn the host sends ``"W H\\n"`` and H rows: ``#`` for walls and trails, space for
free, ``1`` the receiving bot's head, ``2`` the opponent's (so the second seat sees the
labels swapped).  The answer is one digit 1-4 (north, east, south, west); other bytes
are skipped and unread bytes stay for the next turn.  These are the official engine's
facts, as documented in ``tests/data/tron-official.md``.

:class:`TronProtocolBot` plays a 2010 contest program inside atlas; :func:`serve` runs a
built-in bot as such a program (``atlas bot tron NAME``), for the official engine.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any, BinaryIO

import numpy as np

from ...arena.process import ExternalBot
from ...arena.protocols.common import ServedBot, send_line, take_report
from ...maps import GameMap
from ...sim.registry import get_game

__all__ = [
    "HOST_BOT",
    "TronProtocolBot",
    "tron_board_text",
    "parse_tron_answer",
    "serve",
    "safe_digit",
    "TRON_DIGITS",
]

#: Tron answers: the digit byte -> direction (1 N, 2 E, 3 S, 4 W).
TRON_DIGITS = {ord("1"): 1, ord("2"): 2, ord("3"): 3, ord("4"): 4}
#: Characters of the official tron board.
TRON_WALL, TRON_FREE, TRON_ME, TRON_OPPONENT = "#", " ", "1", "2"


def tron_board_text(state: Any, player: int) -> str:
    """The board the official engine sends to ``player``: ``"W H\\n"`` and H rows.

    ``#`` for every blocked cell (walls and trails), space for free, ``1`` the head of
    ``player`` and ``2`` the opponent's (so seat 1 sees the labels swapped).
    """
    blocked = np.asarray(state.blocked, dtype=np.bool_)
    h, w = blocked.shape
    chars = np.where(blocked, TRON_WALL, TRON_FREE).astype("<U1")
    heads = np.asarray(state.heads)
    for seat, label in ((1 - player, TRON_OPPONENT), (player, TRON_ME)):
        r, c = int(heads[seat, 0]), int(heads[seat, 1])
        if 0 <= r < h and 0 <= c < w:
            chars[r, c] = label
    return f"{w} {h}\n" + "".join("".join(row) + "\n" for row in chars)


def parse_tron_answer(buf: bytes | bytearray) -> tuple[int | None, int]:
    """The host's reading of a tron answer: ``(direction, bytes consumed)``.

    The first digit ``1``-``4`` is the answer and everything before it is skipped, as
    the official engine does; without one, every byte is consumed and the direction is
    None (the bot may still answer before its deadline).  Total on any bytes.
    """
    for i, b in enumerate(buf):
        if b in TRON_DIGITS:
            return TRON_DIGITS[b], i + 1
    return None, len(buf)


class TronProtocolBot(ExternalBot):
    """A 2010 contest bot: the official protocol, one digit per turn."""

    protocol = "tron-official"

    def move(self, state: Any, player: int, deadline: float) -> int:
        proc = self._proc()
        proc.write(tron_board_text(state, player).encode("ascii"), deadline)
        answer: int = proc.read_answer(parse_tron_answer, deadline, "direction digit 1-4")
        self.last_info = take_report(self, _pv_direction)
        return answer


def _pv_direction(token: str) -> int:
    """A move of an ``info`` line's ``pv``: a direction digit 1-4."""
    if token not in ("1", "2", "3", "4"):
        raise ValueError(f"not a direction: {token[:20]!r}")
    return int(token)


def safe_digit(chars: np.ndarray) -> int:
    """The watchdog's answer: the free neighbour of ``1``'s head with the most room.

    Room is the number of free cells reachable from the neighbour (a plain-Python flood,
    O(cells)), ties broken by the neighbour's own free neighbours, then by direction
    order; 1 (north) when every neighbour is blocked.  Used when the bot has not answered
    in time (:class:`~atlas.arena.protocols.common.ServedBot`).
    """
    h, w = chars.shape
    free = chars == TRON_FREE
    heads = np.argwhere(chars == TRON_ME)
    if len(heads) == 0:
        return 1
    r0, c0 = (int(v) for v in heads[0])
    steps = ((-1, 0), (0, 1), (1, 0), (0, -1))

    def open_at(r: int, c: int) -> bool:
        return 0 <= r < h and 0 <= c < w and bool(free[r, c])

    best, best_key = 1, (-1, -1)
    for digit, (dr, dc) in enumerate(steps, start=1):
        r, c = r0 + dr, c0 + dc
        if not open_at(r, c):
            continue
        seen = {(r, c)}
        stack = [(r, c)]
        while stack:
            y, x = stack.pop()
            for sy, sx in steps:
                cell = (y + sy, x + sx)
                if cell not in seen and open_at(*cell):
                    seen.add(cell)
                    stack.append(cell)
        key = (len(seen), sum(open_at(r + sy, c + sx) for sy, sx in steps))
        if key > best_key:
            best, best_key = digit, key
    return best


def _read_board(inp: BinaryIO, header: bytes) -> np.ndarray | None:
    """The rows after a ``"W H"`` header as a character grid, or None if unreadable."""
    try:
        w, h = (int(v) for v in header.split()[:2])
    except ValueError:
        return None
    if not (0 < w <= 10_000 and 0 < h <= 10_000):
        return None
    rows = [
        inp.readline().decode("ascii", "replace").rstrip("\r\n").ljust(w)[:w] for _ in range(h)
    ]
    return np.array([list(r) for r in rows], dtype="<U1").reshape(h, w)


#: The host side of this protocol (:func:`atlas.arena.protocols.external_bot`).
HOST_BOT = TronProtocolBot


def serve(
    game_name: str, served: ServedBot, inp: BinaryIO, out: BinaryIO, params: dict[str, Any]
) -> None:
    """Answer the official engine's boards on ``inp`` with ``served``'s digits until EOF.

    Each board is answered by the bot when it is ready by its deadline, else by the
    watchdog's :func:`safe_digit`; a header that is not ``W H`` is skipped.
    """
    game = get_game(game_name)
    turn = 0
    while True:
        header = inp.readline()
        if not header:
            return
        if not header.strip():
            continue
        t0 = time.perf_counter()
        chars = _read_board(inp, header)
        if chars is None:
            continue
        heads = [np.argwhere(chars == label) for label in (TRON_ME, TRON_OPPONENT)]
        if any(len(hd) == 0 for hd in heads):
            send_line(out, "1\n")  # no head to move: any digit will do
            turn += 1
            continue
        starts = tuple((int(hd[0][0]), int(hd[0][1])) for hd in heads)
        board_map = GameMap(game_name, "stdin", chars == TRON_WALL, starts)
        state = game.initial_state(board_map, params)
        if (
            dataclasses.is_dataclass(state)
            and not isinstance(state, type)
            and hasattr(state, "turn")
        ):
            state = dataclasses.replace(state, turn=turn)
        if turn == 0:
            served.tell(
                lambda bot, m=board_map: (
                    bot.start(m, dict(params), 0)  # type: ignore[misc]
                    if hasattr(bot, "start")
                    else None
                )
            )
        move = served.ask(
            lambda bot, deadline, st=state: bot.move(st, 0, deadline),  # type: ignore[misc]
            served.deadline(t0),
            lambda b=chars: safe_digit(b),  # type: ignore[misc]
        )
        served.report(lambda m: str(int(m)) if m in (1, 2, 3, 4) else "")
        send_line(out, f"{int(move) if move in (1, 2, 3, 4) else safe_digit(chars)}\n")
        turn += 1
