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
    from .analyze.summary import format_summary, summarize_map
    from .maps import read_map

    game_map = read_map(args.map, game=args.game)
    summary = summarize_map(game_map)
    if args.png:
        from .render.images import write_map_png

        write_map_png(game_map, args.png)
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
    from .arena.runner import play_from_cli

    return play_from_cli(args, _params(args.param))


def _cmd_tournament(args: argparse.Namespace) -> int:
    from .arena.tournament import tournament_from_cli

    return tournament_from_cli(args, _params(args.param))


def _cmd_import_trace(args: argparse.Namespace) -> int:
    from .sim.outpost.traces import import_trace_from_cli

    return import_trace_from_cli(args)


def _cmd_bot(args: argparse.Namespace) -> int:
    from .arena.serve import serve_builtin_bot

    return serve_builtin_bot(args.game, args.name, seed=args.seed, time_limit=args.time)


def _cmd_replay(args: argparse.Namespace) -> int:
    from .render.gif import write_gif
    from .sim.records import load_record

    write_gif(load_record(args.record), args.gif)
    return 0


def _cmd_build(args: argparse.Namespace) -> int:
    from .render.site.build import build_from_cli

    return build_from_cli(args)


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
