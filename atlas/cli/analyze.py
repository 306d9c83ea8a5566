"""``atlas analyze MAP``: the analysis of one map."""

from __future__ import annotations

import argparse

from . import common

__all__ = ["HELP", "DESCRIPTION", "add", "compiling", "run"]

#: The sub-command's line in ``atlas --help``.
HELP = "analyse one map and print its key figures"
#: What ``atlas analyze --help`` says first.
DESCRIPTION = """\
Analyse one map: free cells, components, articulation points, and what its game adds:
Voronoi counts, chambers and parity bounds, or land and homes.
"""


def add(p: argparse.ArgumentParser) -> None:
    """The arguments of ``atlas analyze``."""
    common.add_map(p)
    common.add_game(
        p, positional=False, help="the map's game, when its folder and content do not tell"
    )
    common.add_json(p, "the figures")
    common.add_output(p, "--png", "FILE", "also write the annotated picture here")


def compiling(args: argparse.Namespace) -> tuple[str, float]:
    """What the analysis of a large map compiles on first use (``atlas.cli``); a small
    map's runs without numba and says nothing."""
    return "the analyses' kernels", common.ANALYSIS_COMPILE_SECONDS


def run(args: argparse.Namespace, fail: common.Fail) -> int:
    """Print the figures of one map (and write its picture with ``--png``)."""
    from ..analysis.summary import format_summary
    from ..jit import interpreted
    from ..maps import read_map
    from ..sim.registry import summarize_map

    if args.png:
        from ..fsutil import check_output_path
        from ..render.images import is_atlas_png

        check_output_path(args.png, ours=is_atlas_png, force=args.force)
    game_map = read_map(args.map, game=args.game)
    with interpreted(game_map.width * game_map.height <= common.INTERPRET_MAX_CELLS):
        summary = summarize_map(game_map)
    if args.png:
        from ..fsutil import write_atomically
        from ..render.images import png_bytes
        from ..render.registry import render_of

        render = render_of(game_map.game)
        write_atomically(args.png, png_bytes(render.picture(game_map, render.png_kind)))
    if args.json:
        common.print_json(summary)
    else:
        print(format_summary(summary))
    return 0
