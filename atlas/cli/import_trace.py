"""``atlas import-trace TRACE``: a game recorded by the official simulator of a game,
replayed turn by turn and kept as an atlas replay record."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import common

__all__ = ["HELP", "DESCRIPTION", "add", "run"]

#: The sub-command's line in ``atlas --help``.
HELP = "replay a game recorded by the official {traced_game} simulator"
#: What ``atlas import-trace --help`` says first.
DESCRIPTION = """\
Replay a trace of the official 2014 {traced_game} simulator turn by turn and, when every
turn matches, write it as an atlas replay record. Exit 1 at the first turn that differs,
2 when the trace or map cannot be read.
"""


def add(p: argparse.ArgumentParser) -> None:
    """The arguments of ``atlas import-trace``."""
    p.add_argument("trace", metavar="TRACE", help="the trace file (.jsonl or .jsonl.gz)")
    common.add_map(p, default="found by the name in the trace's header", metavar="FILE")
    common.add_output(p, "--record", "OUT", "write the atlas replay record here")
    common.add_json(p, "the outcome")


def _traced_game() -> str:
    """The title of the game whose official simulator's traces atlas reads."""
    from ..games.outpost.rules.game import GAME

    return GAME.info.title


#: Facts its help texts name (:data:`atlas.cli.common.FACTS`).
FACTS = {"traced_game": _traced_game}


def run(args: argparse.Namespace, fail: common.Fail) -> int:
    """Exit 0 when the trace replays exactly (and the record is written), 1 when it does
    not (the first differing turn, seat and field are printed), 2 when the trace or its
    map cannot be read."""
    from ..errors import MapFormatError
    from ..fsutil import check_output_path
    from ..games.outpost.rules.traces import (
        TraceError,
        TraceMismatchError,
        find_trace_map,
        read_trace,
        read_trace_map,
        trace_to_record,
    )
    from ..sim.records import is_record_file, save_record

    if args.record:  # before the trace is replayed
        check_output_path(args.record, ours=is_record_file, force=args.force)

    def failed(code: int, exc: Exception) -> int:
        if args.json:
            common.print_json(
                {"trace": args.trace, "replayed": False, "error": str(exc), "record": None}
            )
        print(f"atlas import-trace: {exc}", file=sys.stderr)
        return code

    try:
        trace = read_trace(args.trace)
        map_path = Path(args.map) if args.map else find_trace_map(trace)
        game_map = read_trace_map(map_path)
    except (TraceError, MapFormatError) as exc:
        return failed(2, exc)
    try:
        record = trace_to_record(trace, game_map)
    except TraceMismatchError as exc:
        return failed(1, exc)
    except TraceError as exc:
        return failed(2, exc)
    if args.record:
        save_record(record, args.record)
    fin = record.final
    if args.json:
        common.print_json(
            {
                "trace": args.trace,
                "replayed": True,
                "turns": len(trace.turns),
                "map": game_map.name,
                "map_file": str(map_path),
                "params": {"r": trace.r, "L": trace.L, "W": trace.W},
                "land": fin["land"],
                "water": fin["water"],
                "statuses": [
                    {"status": str(st.status), "turn": st.turn, "detail": st.detail}
                    for st in record.statuses
                ],
                "record": args.record,
            }
        )
        return 0
    print(
        f"{args.trace}: {len(trace.turns)} turns replayed exactly on {game_map.name} "
        f"(r={trace.r} L={trace.L} W={trace.W}); land {fin['land']}, "
        f"water {fin['water']}"
    )
    for seat, st in enumerate(record.statuses):
        if st.detail:  # a player that failed: how, on which turns, what the simulator did
            print(f"player {seat + 1} ({trace.players[seat]}): {st.detail}")
    if args.record:
        print(f"record written to {args.record}")
    return 0
