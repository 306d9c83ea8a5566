"""Where tron games were decided: in contact, at the separation, or in the fill after it.

A strength figure says how often a bot wins; this says where it loses, so that the next
change goes where the points are.  For each tron record (``tron_outside.py --records``,
``atlas play``, a site's records folder) it finds the turn after which the cycles can no
longer meet (:func:`atlas.games.tron.painter.separation_point`) and, there, each seat's
room: its cells, the checkerboard bound (:func:`atlas.analysis.parity.parity_bound`)
and the tree of chambers' fillable path (:func:`atlas.analysis.chambers.chamber_tree`).
Both are upper bounds on the moves a lone cycle can still make, so their minimum is too:
the room's *bound*.  Its *fill* is a lower one: the moves ``frontline``'s greedy filler
makes there alone (:func:`atlas.games.tron.bots.fill.space_fill_length`, the better of
its two orders).

A decided game is put, from its loser's side, in one of four kinds:

``contact``
    the loser crashed while the cycles could still meet (no separation before the end);
``sealed``
    the loser's bound is at most the winner's fill: no play of the loser outlasts a
    winner that only fills greedily (lost in the fight that sealed the rooms);
``out-filled``
    the loser's fill is more than the winner's bound: a greedy fill would have outlasted
    any play of the winner, yet the loser crashed first (lost in the fill);
``close``
    neither: the rooms are within the bounds' slack of each other, and the fills
    decided.

A drawn game is ``head-on`` (the cycles collided), ``both crashed`` before they were
separated, or ``filled alike`` (separated, both crashed on the same turn).

For a bot (``--bot``), it counts its wins, draws and losses by kind, and, over the games
it lost after a separation, the moves it made against its rooms' bounds.

Usage::

    python benchmarks/tron_decided.py RECORDS... [--bot apex] [--json OUT.jsonl]

``RECORDS`` are record files or folders of them (``*.json``, ``*.json.gz``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["KINDS", "decided", "record_paths", "tally", "format_tally", "main"]

#: The kinds of a decided game (from its loser's side) and of a draw.
KINDS = ("contact", "sealed", "out-filled", "close", "head-on", "both crashed", "filled alike")


def _room(state: Any, seat: int) -> dict[str, int]:
    from atlas.analysis.chambers import chamber_tree
    from atlas.analysis.components import component_size
    from atlas.analysis.parity import parity_bound
    from atlas.games.tron.bots.common import Workspace, board_from_state
    from atlas.games.tron.bots.fill import space_fill_length

    free = ~np.asarray(state.blocked, dtype=bool)
    head = tuple(int(v) for v in np.asarray(state.heads)[seat])
    parity = int(parity_bound(free, head))
    fillable = int(chamber_tree(free, head).fillable)
    grid, me, _ = board_from_state(state, seat)
    ws = Workspace(*free.shape)
    fill = max(
        int(space_fill_length(grid, me, ws.off, ws.ibuf, grid.shape[0], art_w, np.inf))
        for art_w in (8, 0)
    )
    return {
        "cells": int(component_size(free, head)),
        "parity": parity,
        "chambers": fillable,
        "bound": min(parity, fillable),
        "fill": fill,
    }


def decided(record: Any) -> dict[str, Any]:
    """Where one tron record's game was decided, as plain data.

    Keys: ``players`` (names by seat), ``scores``, ``turns`` (turns played),
    ``separated`` (the turn after which the cycles could no longer meet, or ``None``),
    ``rooms`` (each seat's room there: ``cells``, ``parity``, ``chambers``, ``bound``,
    ``fill``; empty without a separation), ``moves_after`` (each seat's moves after the
    separation: the loser's before its crash, the winner's until the game ended),
    ``loser`` (seat, or ``None`` for a draw) and ``kind`` (one of :data:`KINDS`).

    Raises
    ------
    ValueError
        The record is not a two-player tron game.
    """
    from atlas.games.tron.painter import separation_point

    if record.game != "tron" or len(record.players) != 2:
        raise ValueError(f"not a two-player tron record ({record.game})")
    names = [p.name for p in record.players]
    states = record.states()
    scores = [float(s) for s in record.result.scores]
    turns = len(record.turns)
    sep = separation_point(states, names)
    loser = None if scores[0] == scores[1] else int(np.argmin(scores))
    out: dict[str, Any] = {
        "players": names,
        "scores": scores,
        "turns": turns,
        "separated": None if sep is None else int(sep["turn"]),
        "rooms": [],
        "moves_after": [],
        "loser": loser,
    }
    final = states[-1]
    if sep is None:
        if loser is not None:
            out["kind"] = "contact"
        elif bool(getattr(final, "collided", False)):
            out["kind"] = "head-on"
        else:
            out["kind"] = "both crashed"
        return out
    t = int(sep["turn"])
    out["rooms"] = [_room(states[t], s) for s in range(2)]
    crashed = np.asarray(final.crashed, dtype=bool)
    # The last turn is the crash: a seat that crashed made one move fewer than it rode.
    out["moves_after"] = [turns - t - int(crashed[s]) for s in range(2)]
    if loser is None:
        out["kind"] = "filled alike"
    else:
        mine, theirs = out["rooms"][loser], out["rooms"][1 - loser]
        if mine["bound"] <= theirs["fill"]:
            out["kind"] = "sealed"
        elif mine["fill"] > theirs["bound"]:
            out["kind"] = "out-filled"
        else:
            out["kind"] = "close"
    return out


def record_paths(items: Sequence[str | Path]) -> list[Path]:
    """Record files named, and those in the folders named (sorted)."""
    paths: list[Path] = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            paths += sorted(q for q in p.iterdir() if q.name.endswith((".json", ".json.gz")))
        else:
            paths.append(p)
    return paths


def tally(rows: Sequence[dict[str, Any]], bot: str) -> dict[str, Any]:
    """``bot``'s games of ``rows`` (:func:`decided`'s) counted by outcome and kind, with
    its moves and bounds over the games it lost after a separation."""
    counts: Counter[tuple[str, str]] = Counter()
    moves = bound = lost_after = 0
    games = 0
    for row in rows:
        if bot not in row["players"]:
            continue
        seat = row["players"].index(bot)
        games += 1
        score = row["scores"][seat]
        outcome = "W" if score > 0.5 else "L" if score < 0.5 else "D"
        counts[(outcome, row["kind"])] += 1
        if outcome == "L" and row["separated"] is not None:
            lost_after += 1
            moves += row["moves_after"][seat]
            bound += row["rooms"][seat]["bound"]
    return {
        "bot": bot,
        "games": games,
        "counts": {f"{o} {k}": n for (o, k), n in sorted(counts.items())},
        "lost_after_separation": lost_after,
        "moves_in_those": moves,
        "bound_in_those": bound,
    }


def format_tally(t: dict[str, Any]) -> str:
    """A few lines of text for :func:`tally`'s figures."""
    lines = [f"{t['bot']}: {t['games']} games"]
    for outcome, word in (("W", "won"), ("D", "drawn"), ("L", "lost")):
        parts = [
            f"{n} {key.split(' ', 1)[1]}"
            for key, n in t["counts"].items()
            if key.startswith(outcome + " ")
        ]
        total = sum(n for key, n in t["counts"].items() if key.startswith(outcome + " "))
        lines.append(f"  {word} {total}" + (f": {', '.join(parts)}" if parts else ""))
    if t["lost_after_separation"]:
        lines.append(
            f"  in the {t['lost_after_separation']} games it lost after a separation it made "
            f"{t['moves_in_those']} moves against rooms bounded by {t['bound_in_those']}"
        )
    lines.append(
        "  (kinds from the loser's side: contact = crashed before the cycles were "
        "separated; sealed = its room's bound is at most the winner's greedy fill; "
        "out-filled = its greedy fill beats the winner's bound; close = neither)"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("records", nargs="+", help="record files or folders of them")
    ap.add_argument("--bot", action="append", help="the bots to count (default: every one)")
    ap.add_argument("--json", help="write each game's figures as JSON lines here")
    args = ap.parse_args(argv)
    from atlas.errors import AtlasError
    from atlas.sim.records import load_record

    rows: list[dict[str, Any]] = []
    for path in record_paths(args.records):
        try:
            row = decided(load_record(path))
        except (AtlasError, OSError, ValueError) as exc:
            print(f"{path}: skipped: {exc}", file=sys.stderr)
            continue
        rows.append({"record": path.name, **row})
    if not rows:
        print("no tron records read", file=sys.stderr)
        return 1
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row) + "\n")
    bots = args.bot or sorted({name for row in rows for name in row["players"]})
    for bot in bots:
        print(format_tally(tally(rows, bot)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
