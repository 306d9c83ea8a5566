"""``atlas import-trace TRACE``: a game recorded by the official simulator of a game,
replayed turn by turn and kept as an atlas replay record."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

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
    """The titles of the games whose official simulator's traces atlas reads."""
    from ..sim.registry import get_info
    from ..sim.traces import trace_importers

    return " and ".join(get_info(g).title for g in trace_importers()) or "(no game's)"


#: Facts its help texts name (:data:`atlas.cli.common.FACTS`).
FACTS = {"traced_game": _traced_game}


def _read(path: str, fail: common.Fail) -> tuple[Any, Any]:
    """The importer of the game whose trace ``path`` is, and the trace: with several
    games that read traces, the first that reads it (the first one's error when none
    does)."""
    from ..sim.traces import trace_importers

    importers = list(trace_importers().values())
    if not importers:
        fail("no game atlas knows reads official traces")
    first: Exception | None = None
    for importer in importers:
        try:
            return importer, importer.read(path)
        except importer.error as exc:
            first = first or exc
    assert first is not None
    raise first


def run(args: argparse.Namespace, fail: common.Fail) -> int:
    """Exit 0 when the trace replays exactly (and the record is written), 1 when it does
    not (the first differing turn, seat and field are printed), 2 when the trace or its
    map cannot be read."""
    from ..errors import MapFormatError
    from ..fsutil import check_output_path
    from ..sim.records import is_record_file, save_record
    from ..sim.traces import trace_importers

    if args.record:  # before the trace is replayed
        check_output_path(args.record, ours=is_record_file, force=args.force)

    def failed(code: int, exc: Exception) -> int:
        if args.json:
            common.print_json(
                {"trace": args.trace, "replayed": False, "error": str(exc), "record": None}
            )
        print(f"atlas import-trace: {exc}", file=sys.stderr)
        return code

    unreadable: tuple[type[Exception], ...] = (
        *{i.error for i in trace_importers().values()},
        MapFormatError,
    )
    try:
        importer, trace = _read(args.trace, fail)
        map_path = Path(args.map) if args.map else importer.find_map(trace)
        game_map = importer.read_map(map_path)
    except unreadable as exc:
        return failed(2, exc)
    try:
        record = importer.to_record(trace, game_map)
    except importer.mismatch as exc:
        return failed(1, exc)
    except importer.error as exc:
        return failed(2, exc)
    if args.record:
        save_record(record, args.record)
    fin = importer.final(record)
    params = importer.params(trace)
    turns = importer.turns(trace)
    if args.json:
        common.print_json(
            {
                "trace": args.trace,
                "replayed": True,
                "turns": turns,
                "map": game_map.name,
                "map_file": str(map_path),
                "params": dict(params),
                **fin,
                "statuses": [
                    {"status": str(st.status), "turn": st.turn, "detail": st.detail}
                    for st in record.statuses
                ],
                "record": args.record,
            }
        )
        return 0
    shown = " ".join(f"{k}={v}" for k, v in params.items())
    figures = ", ".join(f"{k} {v}" for k, v in fin.items())
    print(
        f"{args.trace}: {turns} turns replayed exactly on {game_map.name} ({shown}); {figures}"
    )
    players = importer.players(trace)
    for seat, st in enumerate(record.statuses):
        if st.detail:  # a player that failed: how, on which turns, what the simulator did
            print(f"player {seat + 1} ({players[seat]}): {st.detail}")
    if args.record:
        print(f"record written to {args.record}")
    return 0
