"""Tic-tac-toe's rules for submitted boards: the game validates its maps with no edit
outside its folder (``tests/sim/test_fifth_game.py``).

Errors: ``unreadable`` (a path that cannot be read), ``format`` (not a tic-tac-toe map:
the reader's message and line), ``square`` (the board is not square) and ``blocked``
(more than a third of the cells blocked: too few left to play on).  Warning:
``long-line`` (N in a row equal to the board's side, which only a full row makes).
"""

from __future__ import annotations

import os

from atlas.errors import MapFormatError
from atlas.fsutil import read_regular_file
from atlas.maps.text import decode_map_bytes
from atlas.maps.validation import Problem, ValidationReport, Validator, unreadable_report

from .format import GAME, parse

RULES = {
    "unreadable": "the path cannot be read",
    "format": "not a tic-tac-toe map ('tictactoe N' then the rows)",
    "square": "the board is not square",
    "blocked": "more than a third of the cells are blocked",
    "long-line": "N in a row is the board's side: only a full row wins",
}


def validate_text(text: str, name: str = "map") -> ValidationReport:
    try:
        board = parse(text, name, None)
    except MapFormatError as exc:
        problem = Problem("format", exc.reason, line=exc.line)
        return ValidationReport(name, (problem,), game=GAME, text=text)
    errors, warnings = [], []
    h, w = board.shape
    if h != w:
        errors.append(Problem("square", f"the board is {w}x{h}: a board must be square"))
    blocked = [(int(r), int(c)) for r in range(h) for c in range(w) if board.blocked[r, c]]
    if 3 * len(blocked) > h * w:
        errors.append(
            Problem(
                "blocked",
                f"{len(blocked)} of the {h * w} cells are blocked; at most a third may be",
                cell=blocked[0],
                region=tuple(blocked),
            )
        )
    inarow = int(board.meta.get("inarow", 3))
    if inarow == max(h, w) and h * w > 9:
        warnings.append(Problem("long-line", f"{inarow} in a row on a {w}x{h} board"))
    return ValidationReport(
        name, tuple(errors), tuple(warnings), game=GAME, text=text, blocked=board.blocked
    )


class TicTacToeValidator(Validator):
    rules = RULES
    title = "Tic-tac-toe"
    map_cells = 9

    def validate_text(self, text: str, name: str = "map") -> ValidationReport:
        return validate_text(text, name)

    def validate_file(self, path: str | os.PathLike[str]) -> ValidationReport:
        name = os.fspath(path)
        try:
            data = read_regular_file(path, 64 * 1024, MapFormatError)
            text = decode_map_bytes(data, None)
        except MapFormatError as exc:
            return unreadable_report(name, exc.reason, GAME)
        return validate_text(text, name)


VALIDATOR = TicTacToeValidator()
