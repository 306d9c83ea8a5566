"""atlas's GTP dialect for connect5: the host side and the served side.

Commands ``boardsize COLS ROWS``, ``inarow N``, ``clear_board``, ``play COLOUR COL``,
``genmove COLOUR`` and ``quit``, answered ``= ...`` or ``? ...`` and a blank line; black
is seat 0, columns are 1-based (``docs/protocols.md``).  :class:`GtpBot` plays an engine
inside atlas; :func:`serve` runs a built-in bot as one (``atlas bot connect5 NAME``).
"""

from __future__ import annotations

import time
from typing import Any, BinaryIO

import numpy as np

from ...arena.process import BotFailure, ExternalBot
from ...arena.protocols.common import ServedBot, send_line, take_report
from ...limits import LimitError, whole_number
from ...maps import GameMap
from ...sim.base import Status
from ...sim.registry import get_game

__all__ = ["HOST_BOT", "GtpBot", "COLOURS", "parse_gtp_response", "gtp_column", "serve"]

COLOURS = ("black", "white")


def parse_gtp_response(buf: bytes | bytearray) -> tuple[tuple[bool, str] | None, int]:
    """The host's reading of a GTP response: ``((success, text), bytes consumed)``.

    ``(None, 0)`` while the closing blank line has not come; raises
    :class:`~atlas.arena.process.BotFailure` (``invalid``) for a response that does
    not start with ``=`` or ``?``.  Total on any bytes (invalid UTF-8 is replaced).
    """
    text = bytes(buf).replace(b"\r", b"")
    # skip blank lines before a response, then wait for the blank line closing it
    start = len(text) - len(text.lstrip(b"\n"))
    end = text.find(b"\n\n", start)
    if end < 0:
        return None, 0
    raw_used = _raw_length(buf, end + 2)
    body = text[start:end].decode("utf-8", "replace")
    if body[:1] not in ("=", "?"):
        raise BotFailure(Status.INVALID, f"not a GTP response: {body[:40]!r}")
    content = body[1:].lstrip("0123456789").strip()  # drop an optional id
    return (body[0] == "=", content), raw_used


def _raw_length(buf: bytes | bytearray, clean_len: int) -> int:
    """Bytes of ``buf`` that make ``clean_len`` bytes once ``\\r`` is removed."""
    n = 0
    for i, b in enumerate(buf):
        if b != 13:
            n += 1
            if n == clean_len:
                return i + 1
    return len(buf)


def gtp_column(answer: str) -> int:
    """The 0-based column of a ``genmove`` answer (``"4"`` is column 3).

    Raises :class:`~atlas.arena.process.BotFailure` (``invalid``) unless the answer's
    first word is a whole number of ASCII digits (``resign``, ``²``, a number of
    5,000 digits are all invalid); whether the column is on the board is for the rules.
    """
    words = answer.split()
    try:
        return whole_number(words[0] if words else "", "the column") - 1
    except LimitError:
        raise BotFailure(
            Status.INVALID, f"genmove answered {answer[:40]!r}, not a column number"
        ) from None


class GtpBot(ExternalBot):
    """A connect5 engine speaking atlas's GTP dialect (see ``docs/protocols.md``)."""

    protocol = "gtp"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._known: np.ndarray | None = None

    def _command(self, line: str, deadline: float, *, required: bool = True) -> str:
        proc = self._proc()
        proc.write((line + "\n").encode("ascii"), deadline)
        ok, content = proc.read_answer(
            parse_gtp_response, deadline, f"GTP response to {line!r}"
        )
        if not ok and required:
            raise BotFailure(Status.INVALID, f"refused {line!r}: {content[:80]}")
        return content if ok else ""

    def close(self) -> None:
        """Say ``quit`` (without waiting for the answer), then end the process."""
        if self.process is not None and self._known is not None:
            try:
                self.process.write(b"quit\n", time.perf_counter() + 0.05)
            except BotFailure:
                pass
        super().close()

    def move(self, state: Any, player: int, deadline: float) -> int:
        board = np.asarray(state.board)
        rows, cols = board.shape
        if self._known is None:
            inarow = int(getattr(state, "inarow", self.params.get("inarow", 5)))
            self._command(f"boardsize {cols} {rows}", deadline)
            self._command(f"inarow {inarow}", deadline, required=inarow != 5)
            self._command("clear_board", deadline)
            self._known = np.zeros_like(board)
        changed = np.argwhere(board != self._known)
        for r, c in sorted(changed.tolist(), key=lambda rc: (-rc[0], rc[1])):
            colour = COLOURS[int(board[r, c]) - 1]
            self._command(f"play {colour} {c + 1}", deadline)
        column = gtp_column(self._command(f"genmove {COLOURS[player]}", deadline))
        self.last_info = take_report(self, _pv_column)
        try:
            self._known = np.asarray(get_game(self.game).apply(state, {player: column}).board)
        except (ValueError, IndexError):
            self._known = board.copy()  # the runner will judge the move illegal
        return column


def _pv_column(token: str) -> int:
    """A move of an ``info`` line's ``pv``: a GTP column (1-based), as a column."""
    if not token.isascii() or not token.isdigit() or len(token) > 6 or int(token) < 1:
        raise ValueError(f"not a column: {token[:20]!r}")
    return int(token) - 1


#: The host side of this protocol (:func:`atlas.arena.protocols.external_bot`).
HOST_BOT = GtpBot


def serve(
    game_name: str, served: ServedBot, inp: BinaryIO, out: BinaryIO, params: dict[str, Any]
) -> None:
    """Answer a GTP controller on ``inp``/``out`` with ``served`` until ``quit`` or EOF.

    ``genmove`` is answered by the bot when it is ready by the served clock's deadline,
    else by the watchdog with a random legal column (the game's ``random_move``).
    """
    game = get_game(game_name)
    rng = np.random.default_rng(0)
    size, inarow = [9, 6], 5
    state: Any = None

    def fresh() -> Any:
        board_map = GameMap(
            game_name,
            "gtp",
            np.zeros((size[1], size[0]), dtype=np.bool_),
            (),
            {"inarow": inarow},
        )
        game_params = {**params, "inarow": inarow}
        served.tell(
            lambda bot: (
                bot.start(board_map, dict(game_params), 0) if hasattr(bot, "start") else None
            )
        )
        return game.initial_state(board_map, game_params)

    commands = (
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "boardsize",
        "inarow",
        "clear_board",
        "play",
        "genmove",
        "quit",
    )
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
                text = f"atlas-{served.name}"
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
                    column = served.ask(
                        lambda bot, dl, st=state.copy(), p=seat: bot.move(st, p, dl),  # type: ignore[misc]  # noqa: B008
                        served.deadline(t0),
                        lambda st=state, p=seat: game.random_move(st, p, rng),  # type: ignore[misc]
                    )
                    if column is None:  # not its turn, or the board is full
                        raise ValueError(f"no legal move for {COLOURS[seat]}")
                    state = game.apply(state, {seat: int(column)})
                    text = str(int(column) + 1)
                    served.report(lambda m: str(int(m) + 1))
            elif cmd == "quit":
                send_line(out, f"={ident}\n\n")
                return
            else:
                ok, text = False, "unknown command"
        except (ValueError, IndexError, KeyError) as exc:
            ok, text = False, str(exc) or "syntax error"
        send_line(out, f"{'=' if ok else '?'}{ident} {text}".rstrip() + "\n\n")


def _colour_seat(word: str) -> int:
    word = word.lower()
    for seat, colour in enumerate(COLOURS):
        if word in (colour, colour[0]):
            return seat
    raise ValueError(f"unknown colour {word!r}")
