"""``atlas build``: the static site."""

from __future__ import annotations

import argparse
import sys

from . import common

__all__ = ["HELP", "DESCRIPTION", "add", "compiling", "run"]

#: The sub-command's line in ``atlas --help``.
HELP = "build the static site"
#: What ``atlas build --help`` says first.
DESCRIPTION = """\
Analyse every map, play the built-in tournament, draw every replay and write the site.
Each map's featured game gets an animated GIF (--gifs); any game's page makes one in
the browser.
The site is built aside and moved into place: a failed build leaves the old one.
"""


def add(p: argparse.ArgumentParser) -> None:
    """The arguments of ``atlas build``."""
    p.add_argument(
        "--maps",
        action="append",
        default=None,
        metavar="DIR",
        help="the maps, one folder per game (default: atlas's own maps; repeatable: "
        "the maps of every folder given)",
    )
    common.add_site_inputs(
        p,
        "also publish an organiser's tournament: a folder written by "
        "atlas tournament --out, with its own standings page (repeatable; "
        "with --games 0, without the built-in round robin)",
    )
    common.add_count(
        p, "--jobs", 1, "worker processes for the tournament (default: one per core)"
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the map analyses, games and replays on this dask.distributed scheduler "
        "(tcp://host:8786) instead of local processes: the same site, byte for byte",
    )
    common.add_count(p, "--games", 0, "games per pairing, seating and map (0: no tournament)")
    common.add_count(
        p,
        "--fairness",
        0,
        "fairness games per seating on each map, the game's fairness bot in every seat "
        "(its strongest, or a strong one much cheaper: docs/fairness.md) (default 0: "
        "each map's fairness section counts the tournament's games played in both "
        "seats alone)",
    )
    common.add_time(
        p,
        None,
        "play the tournament by the clock, this many seconds a move (default: built-in "
        "bots play at fixed effort, the same games on any machine)",
    )
    common.add_count(
        p,
        "--effort",
        1,
        "built-in bots play at N times their default effort per move (default 1; "
        "docs/bots.md): a stronger atlas, slower to build",
    )
    p.add_argument(
        "--gifs",
        choices=("featured", "all", "none"),
        default="featured",
        help="which games get an animated GIF at build time: each map's featured game "
        "(default), every game, or none; every game page makes its own GIF in the "
        "browser anyway (its GIF button)",
    )
    common.add_compat(p)
    common.add_flag(p, "--strict", help="exit 1 when any map or record is broken")
    common.add_json(p, "a summary of the build")
    common.add_quiet(p)


def compiling(args: argparse.Namespace) -> tuple[str, float]:
    """What the first build compiles: the analyses' kernels and every built-in bot's,
    on the machine's cores at once (``atlas.cli``)."""
    import os

    from ..bots.registry import bot_names, compile_seconds
    from ..sim.registry import game_names

    bots = sum(compile_seconds(game, bot_names(game)) for game in game_names())
    cores = max(1, min(args.jobs or os.cpu_count() or 1, os.cpu_count() or 1))
    return (
        "the analyses' and the bots' kernels",
        (common.ANALYSIS_COMPILE_SECONDS + bots) / cores,
    )


def run(args: argparse.Namespace, fail: common.Fail) -> int:
    """Exit 0 when a site was built (1 when nothing could be, or when ``--strict`` and
    any map or record is broken)."""
    from ..arena.executors import DaskUnavailable
    from ..render.site.build import build_site
    from ..resources import maps_dir

    params = None
    if args.compat is not None:
        from ..sim.registry import game_names, get_info

        params = {
            game: {"compat": common.compat_value(game, args.compat, fail)}
            for game in game_names()
            if get_info(game).param("compat") is not None
        }
    try:
        result = build_site(
            args.maps[0] if args.maps else maps_dir(),
            args.out,
            more_maps=(args.maps or [])[1:],
            scheduler=args.scheduler,
            records_dir=args.records,
            tournaments=args.tournaments,
            jobs=args.jobs,
            games=args.games,
            progress=common.progress(args),
            params=params,
            fairness=args.fairness or 0,
            time_limit=args.time,
            effort=args.effort or 1,
            gifs=args.gifs,
            log=(lambda msg: None) if args.quiet else None,
        )
    except (OSError, TimeoutError, DaskUnavailable) as exc:  # and a scheduler out of reach
        print(f"atlas: error: {exc}", file=sys.stderr)
        return 2
    code = 0
    if not result.built_anything:
        print("atlas build: nothing could be built", file=sys.stderr)
        code = 1
    elif args.strict and result.problems:
        code = 1
    if args.json:
        common.print_json(
            {
                "out": str(result.out),
                "index": str(result.out / "index.html"),
                "maps": len(result.maps),
                "maps_ok": sum(1 for m in result.maps if m.ok),
                "games": len(result.games),
                "problems": list(result.problems),
                "seconds": round(result.seconds, 3),
                "cache": {"hits": result.cache_hits, "misses": result.cache_misses},
                "exit": code,
            }
        )
    return code
