"""The map editor of ``atlas serve``: where a save may go (:func:`map_target`), the
editor's page (:func:`editor_page`), and the analysis of a board being drawn
(:func:`analyze_board`).

A save writes one map file inside the maps folder ``atlas serve MAPS`` names, and
nowhere else: its path is a relative path of plain names (no ``..``, no hidden names,
no backslash or NUL) ending in ``.txt``, in a folder that exists, reached without
following any link; the file, when it exists, is a regular file (not a link, not a
FIFO).  The bytes are written aside and moved into place
(:func:`atlas.fsutil.write_atomically`), so the watcher never sees half a map.

The page (``templates/editor.html``, ``templates/static/editor.js``) holds the board as
JSON (:func:`board_json`): its game, size, the rows of blocked cells and the starts.
What each game's boards may hold comes from its format's :class:`~atlas.maps.BoardFacts`
and its rules' :class:`~atlas.sim.base.GameInfo`, through the registry
(:func:`game_facts`); nothing here names a game.  After each stroke the page posts the
board to :data:`ANALYZE_PATH`; :func:`analyze_board` writes it in its game's format,
reads it back the same way (so a board the format cannot hold says why), and answers
with the analyses of atlas's kernels, the game's validation problems with their cells,
the structural fairness facts, and the file's text, which a save writes.
"""

from __future__ import annotations

import html
import json
import os
import re
import stat
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import AtlasError
from ...games import game_modules, game_names
from ...maps import GAME_NAME, GameMap, board_facts, format_map, parse_map

__all__ = [
    "SAVE_PREFIX",
    "EDIT_PREFIX",
    "ANALYZE_PATH",
    "MAX_ANALYZE_BYTES",
    "MAX_EDIT_CELLS",
    "BoardError",
    "map_target",
    "make_game_folder",
    "warm",
    "game_facts",
    "board_json",
    "board_from_json",
    "analyze_board",
    "editor_page",
]

#: Where a map is saved: ``PUT /__atlas/maps/GAME/NAME.txt`` with the text as the body.
SAVE_PREFIX = "/__atlas/maps/"
#: Where a map's editor is: ``GET /__atlas/edit/GAME/NAME.txt`` (``/__atlas/edit/``: a
#: new map).
EDIT_PREFIX = "/__atlas/edit/"
#: Where the editor posts a board for its analysis (JSON in, JSON out).
ANALYZE_PATH = "/__atlas/analyze"
#: Bytes of a board posted for analysis at most (a 500x500 board is about 250 KB).
MAX_ANALYZE_BYTES = 1024 * 1024
#: Cells of a board the editor draws and analyses at most.
MAX_EDIT_CELLS = 500 * 500


#: A word of a map's settings (``meta``): what a header line can hold.
_WORD = re.compile(r"[^\s\x00-\x1f\x7f]{1,40}")


class BoardError(ValueError):
    """A board posted to the editor's analysis is not one: the message says why."""


def map_target(root: str | os.PathLike[str], rel: str) -> Path | None:
    """The file of the maps folder ``root`` that the relative path ``rel`` (already
    unquoted) names, or None when a save there could leave the folder or write
    through a link: ``..``, a hidden or empty name, a backslash or NUL, not ``.txt``,
    a folder that does not exist or is reached through a link, an existing entry that
    is not a regular file."""
    parts = rel.split("/")
    if (
        not parts
        or any(not p or p.startswith(".") or "\\" in p or "\x00" in p for p in parts)
        or not parts[-1].endswith(".txt")
        or len(parts[-1]) <= len(".txt")
    ):
        return None
    top = os.path.realpath(root)
    folder = os.path.join(top, *parts[:-1])
    # no link on the way: the folder resolves to itself, inside the maps folder
    if not os.path.isdir(folder) or os.path.realpath(folder) != os.path.normpath(folder):
        return None
    target = os.path.join(folder, parts[-1])
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return Path(target)  # a new map
    except OSError:
        return None
    return Path(target) if stat.S_ISREG(st.st_mode) else None


def make_game_folder(root: str | os.PathLike[str], rel: str) -> bool:
    """Make the folder of a registered game in the maps folder ``root`` when ``rel``
    (already unquoted) is ``GAME/NAME.txt`` and nothing of that name is there yet, so
    the first map of a game can be saved; True when it made it.  Nothing else is ever
    created: any other folder must exist (:func:`map_target`)."""
    parts = rel.split("/")
    if len(parts) != 2 or parts[0] not in game_names() or not GAME_NAME.match(parts[0]):
        return False
    folder = os.path.join(os.path.realpath(root), parts[0])
    if os.path.lexists(folder):
        return False
    try:
        os.mkdir(folder)
    except OSError:
        return False
    return True


_WARMED: set[str] = set()


def warm(game: str) -> None:
    """Analyse a small blank board of ``game`` once a process, so the kernels are
    loaded (or compiled) before the editor's first stroke asks for them."""
    if game in _WARMED or game not in game_names():
        return
    _WARMED.add(game)
    facts = game_facts().get(game)
    if facts is None:
        return
    rows, cols = facts["size"] or (8, 8)
    starts = [[0, 0], [rows - 1, cols - 1], [0, cols - 1], [rows - 1, 0]]
    board: dict[str, Any] = {
        "game": game,
        "name": "warm",
        "width": cols,
        "height": rows,
        "rows": ["." * cols] * rows,
        "starts": facts["fixed_starts"] or starts[: max(facts["starts"])],
        "meta": {},
    }
    try:
        analyze_board(board)
    except (AtlasError, ValueError):
        pass  # a game whose blank board does not read: its first stroke compiles


# --------------------------------------------------------------------------- the boards


def game_facts() -> dict[str, dict[str, Any]]:
    """What the editor needs of each registered game, by name: its title and seats
    (its rules' ``GameInfo``), what its boards may hold (its format's
    :class:`~atlas.maps.BoardFacts`) and whether it validates its maps.  A game whose
    modules cannot be loaded is left out."""
    from ...sim.registry import get_game

    out: dict[str, dict[str, Any]] = {}
    for name in game_names():
        try:
            info = get_game(name).info
            facts = board_facts(name)
            validates = game_modules(name).validates
        except (AtlasError, ImportError):
            continue
        starts = facts.starts if facts.starts is not None else (info.num_players,)
        out[name] = {
            "title": info.title,
            "players": info.num_players,
            "blocked": facts.blocked,
            "free": facts.free,
            "walls": facts.walls,
            "starts": list(starts),
            "fixed_starts": [list(c) for c in facts.fixed_starts],
            "size": None if facts.size is None else list(facts.size),
            "symmetry": facts.symmetry,
            "validates": validates,
        }
    return out


def _json_meta(meta: Mapping[str, object]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in meta.items():
        if isinstance(v, tuple):
            v = list(v)
        if isinstance(v, (str, int, float, bool, list)) or v is None:
            out[str(k)] = v
    return out


def board_json(game_map: GameMap) -> dict[str, Any]:
    """The board of ``game_map`` as the editor holds it: ``game``, ``name``,
    ``width``, ``height``, ``rows`` (strings, ``#`` blocked, ``.`` free), ``starts``
    (``[row, col]`` a seat) and ``meta`` (the format's settings)."""
    return {
        "game": game_map.game,
        "name": game_map.name,
        "width": game_map.width,
        "height": game_map.height,
        "rows": ["".join("#" if b else "." for b in row) for row in game_map.blocked],
        "starts": [list(c) for c in game_map.starts],
        "meta": _json_meta(game_map.meta),
    }


def _whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BoardError(f"{what} should be a whole number in {low}..{high}, got {value!r:.40}")
    return value


def board_from_json(data: object) -> GameMap:
    """The map of a board in the form of :func:`board_json`.

    Raises
    ------
    BoardError
        The data is not such a board: the message names the field and what is wrong.
    """
    if not isinstance(data, dict):
        raise BoardError("a board is a JSON object {game, width, height, rows, starts}")
    game = data.get("game")
    if not isinstance(game, str) or not GAME_NAME.match(game) or game not in game_names():
        raise BoardError(f"game should be one of {', '.join(game_names())}, got {game!r:.40}")
    name = data.get("name", "map")
    if not isinstance(name, str) or not name or len(name) > 100:
        raise BoardError("name should be a text of 1 to 100 characters")
    width = _whole(data.get("width"), "width", 1, MAX_EDIT_CELLS)
    height = _whole(data.get("height"), "height", 1, MAX_EDIT_CELLS)
    if width * height > MAX_EDIT_CELLS:
        raise BoardError(
            f"a board of {width}x{height} is larger than the editor's {MAX_EDIT_CELLS:,} cells"
        )
    rows = data.get("rows")
    if not isinstance(rows, list) or len(rows) != height:
        raise BoardError(f"rows should be a list of {height} strings (the height)")
    for r, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != width or row.strip(".#"):
            raise BoardError(
                f"row {r} should be {width} characters '.' (free) or '#' (blocked)"
            )
    blocked = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8) == ord("#")
    starts = data.get("starts", [])
    if not isinstance(starts, list) or len(starts) > 9:
        raise BoardError("starts should be a list of at most 9 cells [row, col]")
    cells = []
    for k, cell in enumerate(starts):
        if not isinstance(cell, list) or len(cell) != 2:
            raise BoardError(f"start {k + 1} should be a cell [row, col]")
        r = _whole(cell[0], f"start {k + 1}'s row", 0, height - 1)
        c = _whole(cell[1], f"start {k + 1}'s column", 0, width - 1)
        cells.append((r, c))
    meta = data.get("meta", {})
    if not isinstance(meta, dict) or not all(
        isinstance(v, (str, int, list)) and not isinstance(v, bool) for v in meta.values()
    ):
        raise BoardError("meta should be an object of texts, numbers and lists")
    if any(
        isinstance(v, list) and not all(isinstance(w, str) for w in v) for v in meta.values()
    ):
        raise BoardError("a list in meta should hold texts")
    words = [w for v in meta.values() for w in (v if isinstance(v, list) else [v])]
    if any(isinstance(w, str) and not _WORD.fullmatch(w) for w in words):
        raise BoardError("a text in meta should be one word of at most 40 characters")
    meta = {k: tuple(v) if isinstance(v, list) else v for k, v in meta.items()}
    return GameMap(game, name, blocked.reshape(height, width), tuple(cells), meta)


def _owner_rows(owner: np.ndarray) -> list[str]:
    """A Voronoi owner grid as strings: ``1``-``9`` the seat, ``=`` a tie, ``.`` no one."""
    chars = np.frombuffer(b"=." + b"123456789", dtype=np.uint8)
    codes = chars[np.clip(owner, -2, 8) + 2]
    return [bytes(row).decode("ascii") for row in codes]


def analyze_board(data: object) -> dict[str, Any]:
    """The analysis of a board the editor holds (:func:`board_from_json`'s form).

    Returns a JSON object: ``text`` (the map file in its game's format), ``error`` (why
    the format cannot hold the board, or null; then nothing else is computed), and for
    a board that reads: ``free`` (free cells), ``articulation`` (cut cells ``[row,
    col]``, :func:`~atlas.analysis.articulation.articulation_points`), ``voronoi``
    (``owner``: rows of :func:`~atlas.analysis.voronoi.voronoi_partition` over the
    starts, ``1``-``9`` a seat, ``=`` a tie, ``.`` no one; ``cells``: each seat's count;
    ``tie``), ``chambers`` (per start, its :func:`~atlas.analysis.chambers.chamber_tree`
    against the other start when there are two: ``fillable``, ``sizes``,
    ``entrances``, and ``edges``, where two chambers meet: ``[row, col, 0]`` the right
    side of a cell, ``[row, col, 1]`` its lower side), ``problems`` (the game's
    validation: ``rule``, ``severity``, ``message``, ``line``, ``cells`` as ``[row,
    col]``), ``fairness``
    (:func:`atlas.arena.fairness.structure`), ``seconds`` (the time it took here).

    Raises
    ------
    BoardError
        ``data`` is not a board.
    """
    from ...analysis.articulation import articulation_points
    from ...analysis.chambers import chamber_tree
    from ...analysis.voronoi import TIE, voronoi_partition
    from ...arena.fairness import structure

    began = time.perf_counter()
    edited = board_from_json(data)
    out: dict[str, Any] = {"text": None, "error": None}
    try:
        text = format_map(edited)
        game_map = parse_map(text, game=edited.game, name=edited.name)
    except (AtlasError, ValueError, IndexError) as exc:
        out["error"] = str(exc)
        out["seconds"] = time.perf_counter() - began
        return out
    out["text"] = text
    free = game_map.free
    starts = list(game_map.starts)
    out["free"] = int(free.sum())
    out["articulation"] = [list(c) for c in articulation_points(free)]
    if starts:
        owner = voronoi_partition(free, starts)
        out["voronoi"] = {
            "owner": _owner_rows(owner),
            "cells": [int((owner == k).sum()) for k in range(len(starts))],
            "tie": int((owner == TIE).sum()),
        }
    chambers = []
    for k, me in enumerate(starts if len(starts) <= 4 else ()):
        other = starts[1 - k] if len(starts) == 2 else None
        tree = chamber_tree(free, me, other)
        chambers.append(
            {
                "seat": k + 1,
                "fillable": int(tree.fillable),
                "sizes": [int(ch.size) for ch in tree.chambers],
                "entrances": [list(ch.entrance) for ch in tree.chambers if ch.entrance],
                "edges": _chamber_edges(tree.labels),
            }
        )
    out["chambers"] = chambers
    out["problems"] = _problems(game_map.game, text, game_map.name)
    out["fairness"] = structure(game_map).to_json()
    out["seconds"] = time.perf_counter() - began
    return out


def _chamber_edges(labels: np.ndarray) -> list[list[int]]:
    """The sides between cells of two different chambers (``labels``: a chamber tree's
    ids, 0 outside the region): ``[row, col, 0]`` the right side of ``(row, col)``,
    ``[row, col, 1]`` its lower side, in row-major order of each kind."""
    left, right = labels[:, :-1], labels[:, 1:]
    up, down = labels[:-1, :], labels[1:, :]
    across = np.argwhere((left != right) & (left > 0) & (right > 0))
    along = np.argwhere((up != down) & (up > 0) & (down > 0))
    return [[int(r), int(c), 0] for r, c in across] + [[int(r), int(c), 1] for r, c in along]


def _problems(game: str, text: str, name: str) -> list[dict[str, Any]]:
    """The validation problems of a map's text, for a game that validates its maps."""
    from ...maps.validation import validator_of

    if not game_modules(game).validates:
        return []
    report = validator_of(game).validate_text(text, name)
    out = []
    for severity, problems in (("error", report.errors), ("warning", report.warnings)):
        for p in problems:
            cells = [list(c) for c in ((p.cell,) if p.cell else ()) + p.region]
            out.append(
                {
                    "rule": p.rule,
                    "severity": severity,
                    "message": p.message,
                    "line": p.line,
                    "cells": cells,
                }
            )
    return out


# --------------------------------------------------------------------------- the page


def editor_page(
    rel: str | None,
    text: str | None,
    page: str | None,
    *,
    folders: Sequence[str] = (),
) -> bytes:
    """The editor of the map file ``rel`` (its current ``text``; ``None`` for a new
    map), linking back to its page in the site (``page``, or the index when it has
    none yet).  With several maps folders (``folders``, their names), ``rel`` starts
    with its folder's name, and a new map is saved in the folder the user chooses."""
    from .pages import environment

    board: dict[str, Any] | None = None
    problem = None
    inner = rel.split("/", 1)[1] if rel is not None and folders and "/" in rel else rel
    if rel is not None and text:  # a file not there yet: a blank board of its game
        game = inner.split("/")[0] if inner is not None and "/" in inner else None
        try:
            board = board_json(
                parse_map(
                    text, game=game if game in game_names() else None, name=Path(rel).stem
                )
            )
        except (AtlasError, ValueError) as exc:
            problem = str(exc)
        if board is not None and board["width"] * board["height"] > MAX_EDIT_CELLS:
            board, problem = None, f"a board larger than the editor's {MAX_EDIT_CELLS:,} cells"
    data = {
        "file": rel,
        "folders": list(folders),
        "board": board,
        "problem": problem,
        "games": game_facts(),
        "save": SAVE_PREFIX,
        "analyze": ANALYZE_PATH,
        "edit": EDIT_PREFIX,
        "page": "/" + page if page else None,
    }
    blob = json.dumps(data).replace("<", "\\u003c").replace("&", "\\u0026")
    template = environment().get_template("editor.html")
    return template.render(
        title=html.unescape(Path(rel).stem) if rel else "a new map",
        rel=rel,
        page=page,
        data=blob,
    ).encode()
