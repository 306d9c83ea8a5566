"""The ``atlas`` command: argument parsing only; the work is done by the library.

Each sub-command is one small ``_cmd_*`` function that imports what it needs when it
runs, so ``atlas --help`` and ``atlas validate`` do not pay for numba or imageio.
Exit status: 0 success, 1 a failed check (invalid map, trace that does not replay,
a build with broken maps under ``--strict``), 2 usage errors and unreadable input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from .errors import AtlasError

__all__ = ["main", "build_parser"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="atlas", description="Analyse, play and publish grid-game maps "
        "(tron, isolation, connect5, outpost) as a static website.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("analyze", help="analyse one map and print a summary")
    p.add_argument("map", help="map file")
    p.add_argument("--game", help="the map's game, when the folder and content do not tell")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--png", metavar="FILE", help="also write the annotated picture")
    p.set_defaults(func=_cmd_analyze)

    p = sub.add_parser("validate", help="validate Outpost map files or folders")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--json", action="store_true", help="print a JSON list of reports")
    p.set_defaults(func=_cmd_validate)

    p = sub.add_parser("play", help="play one game")
    p.add_argument("game")
    p.add_argument("map")
    p.add_argument("bots", nargs="+", metavar="BOT",
                   help="a built-in bot name or 'cmd:<command line>'")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--time", type=float, default=1.0, help="seconds per move")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="a game parameter (outpost: r, L, W, T; connect5: inarow; ...)")
    p.add_argument("--compat", choices=["fair", "official"], default=None,
                   help="rules variant (tron, outpost); default: the spec's fair rules")
    p.add_argument("--record", metavar="FILE", help="write the replay record (.json or .json.gz)")
    p.add_argument("--json", action="store_true", help="print one JSON line with the result")
    _add_bot_options(p)
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("tournament", help="run a round robin of bots on maps")
    p.add_argument("game")
    p.add_argument("--maps", nargs="+", metavar="MAP", help="map files or folders "
                   "(default: maps/GAME)")
    p.add_argument("--bots", nargs="+", metavar="BOT", help="bots (default: every built-in)")
    p.add_argument("--seeds", type=int, default=1, help="seeds per pairing and seating")
    p.add_argument("--time", type=float, default=0.1, help="seconds per move")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--jobs", type=int, default=None, help="local worker processes")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run on a dask.distributed cluster")
    p.add_argument("--out", metavar="DIR", help="write results.json and every record here")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.set_defaults(func=_cmd_tournament)

    p = sub.add_parser("import-trace", help="turn a recorded official Outpost game into a record")
    p.add_argument("trace", help="trace file (.jsonl or .jsonl.gz)")
    p.add_argument("--map", help="the map file (default: found by the header's name)")
    p.add_argument("--record", metavar="OUT", help="write the atlas replay record here")
    p.set_defaults(func=_cmd_import_trace)

    p = sub.add_parser("bot", help="run a built-in bot as an external program (stdin/stdout)")
    p.add_argument("game")
    p.add_argument("name")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--time", type=float, default=None, help="seconds per move it allows itself")
    p.set_defaults(func=_cmd_bot)

    p = sub.add_parser("replay", help="render a saved replay record")
    p.add_argument("record")
    p.add_argument("--gif", metavar="FILE", required=True)
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("build", help="build the static site")
    p.add_argument("--maps", default="maps", metavar="DIR")
    p.add_argument("--out", default="site", metavar="DIR")
    p.add_argument("--records", metavar="DIR", help="also publish these saved replay records")
    p.add_argument("--jobs", type=int, default=None)
    p.add_argument("--games", type=int, default=None, help="games per pairing and map")
    p.add_argument("--strict", action="store_true", help="fail when any map is broken")
    p.set_defaults(func=_cmd_build)
    return parser


def _add_bot_options(p: argparse.ArgumentParser) -> None:
    """How external bots run (docs/security.md): sandbox, limits, environment."""
    p.add_argument("--sandbox", action="store_true",
                   help="run each external bot under bubblewrap (bwrap): own PID, mount and "
                   "network namespaces, read-only system, no view of the other bots")
    p.add_argument("--limit", action="append", default=[], metavar="[SEAT:]NAME=VALUE",
                   help="a bot resource limit: memory, cpu, files, processes, file-size "
                   "(e.g. memory=2G, 2:cpu=60, file-size=none)")
    p.add_argument("--bot-env", action="append", default=[], metavar="[SEAT:]KEY[=VALUE]",
                   help="add a variable to the bots' minimal environment (KEY alone: "
                   "atlas's own value)")


def _params(pairs: Sequence[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"atlas: --param expects KEY=VALUE, got {pair!r}")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def _cmd_analyze(args: argparse.Namespace) -> int:
    from .analyze.summary import format_summary
    from .maps import read_map
    from .sim.registry import summarize_map

    game_map = read_map(args.map, game=args.game)
    summary = summarize_map(game_map)
    if args.png:
        from .render.games import render_of
        from .render.images import png_bytes

        render = render_of(game_map.game)
        data = png_bytes(render.picture(game_map, render.png_kind))
        with open(args.png, "wb") as fh:
            fh.write(data)
    if args.json:
        print(json.dumps(summary))
    else:
        print(format_summary(summary))
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    from .analyze.validate import format_reports, validate_paths

    reports = validate_paths(args.paths)
    if args.json:
        print(json.dumps([r.to_json() for r in reports], indent=2))
    else:
        print(format_reports(reports))
    if any(r.unreadable for r in reports):
        return 2
    return 0 if all(r.valid for r in reports) else 1


def _cmd_play(args: argparse.Namespace) -> int:
    from .arena.runner import format_result, play_game
    from .arena.sandbox import containments, sandbox_note
    from .fsutil import check_output_path
    from .maps import read_map
    from .sim.base import Status
    from .sim.records import save_record
    from .sim.registry import get_info

    if args.record:
        check_output_path(args.record)  # before the game is played
    bot_runs = containments(get_info(args.game).num_players, sandbox=args.sandbox,
                            limits=args.limit, env=args.bot_env)
    if args.sandbox and sandbox_note() is not None:
        print(f"atlas: {sandbox_note()}", file=sys.stderr)
    params = _params(args.param)
    game_map = read_map(args.map, game=args.game)
    if args.compat:
        # "fair" names each game's default rules (outpost calls them "spec")
        compat = get_info(args.game).param("compat")
        default = compat.default if compat is not None else "fair"
        params["compat"] = default if args.compat == "fair" else args.compat
    record = play_game(args.game, game_map, list(args.bots), params=params,
                       seed=args.seed, time_limit=args.time, containment=bot_runs)
    if args.record:
        save_record(record, args.record)
    if args.json:
        r = record.result
        print(json.dumps({"winner": r.winner, "reason": r.reason, "turns": len(record.turns),
                          "scores": list(r.scores), "detail": r.detail,
                          "statuses": [s.status for s in record.statuses]}))
    else:
        print(format_result(record))
        for seat, s in enumerate(record.statuses):
            if s.status != Status.OK:
                print(f"  player {seat + 1}: {s.status} at turn {s.turn}: {s.detail}",
                      file=sys.stderr)
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    import os

    from .arena.tournament import (load_maps, results_json, run_games, schedule_games,
                                   standings, write_results)
    from .bots.registry import bot_names

    params = _params(args.param)
    maps = load_maps(args.game, args.maps or [os.path.join("maps", args.game)])
    bots = list(args.bots or bot_names(args.game))
    specs = schedule_games(args.game, maps, bots, args.seeds, params, args.time)
    records = run_games(specs, jobs=args.jobs, scheduler=args.scheduler,
                        progress=sys.stderr.isatty() or not args.json)
    table = standings(records, bots)
    files = write_results(args.out, specs, records, table) if args.out else None
    if args.json:
        print(json.dumps(results_json(specs, records, table, files)))
    else:
        print(f"{args.game}: {len(specs)} games on {len(maps)} map(s), "
              f"{len(bots)} bots, {args.seeds} seed(s), {args.time:g} s per move")
        print(table.format_table())
    return 0


def _cmd_import_trace(args: argparse.Namespace) -> int:
    """Exit 0 when the trace replays exactly (and the record is written), 1 when it does
    not (the first differing turn, seat and field are printed), 2 when the trace or its
    map cannot be read."""
    from pathlib import Path

    from .errors import MapFormatError
    from .maps import read_map
    from .sim.outpost.traces import (TraceError, TraceMismatchError, find_trace_map,
                                     read_trace, trace_to_record)
    from .sim.records import save_record

    try:
        trace = read_trace(args.trace)
        map_path = Path(args.map) if args.map else find_trace_map(trace)
        game_map = read_map(map_path, game="outpost")
    except (TraceError, MapFormatError) as exc:
        print(f"atlas import-trace: {exc}", file=sys.stderr)
        return 2
    try:
        record = trace_to_record(trace, game_map)
    except TraceMismatchError as exc:
        print(f"atlas import-trace: {exc}", file=sys.stderr)
        return 1
    except TraceError as exc:
        print(f"atlas import-trace: {exc}", file=sys.stderr)
        return 2
    fin = record.final
    print(f"{args.trace}: {len(trace.turns)} turns replayed exactly on {game_map.name} "
          f"(r={trace.r} L={trace.L} W={trace.W}); land {fin['land']}, "
          f"water {fin['water']}")
    if args.record:
        save_record(record, args.record)
        print(f"record written to {args.record}")
    return 0


def _cmd_bot(args: argparse.Namespace) -> int:
    from .arena.protocols import serve_builtin_bot

    return serve_builtin_bot(args.game, args.name, seed=args.seed, time_limit=args.time)


def _cmd_replay(args: argparse.Namespace) -> int:
    from .render.gif import write_gif
    from .sim.records import load_record

    write_gif(load_record(args.record), args.gif)
    return 0


def _cmd_build(args: argparse.Namespace) -> int:
    """Exit 0 when a site was built (1 when nothing could be, or when ``--strict`` and
    any map or record is broken)."""
    from .render.site.build import build_site

    try:
        result = build_site(args.maps, args.out, records_dir=args.records, jobs=args.jobs,
                            games=args.games, progress=sys.stderr.isatty())
    except OSError as exc:
        print(f"atlas: error: {exc}", file=sys.stderr)
        return 2
    if not result.built_anything:
        print("atlas build: nothing could be built", file=sys.stderr)
        return 1
    if args.strict and result.problems:
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except AtlasError as exc:
        print(f"atlas: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
