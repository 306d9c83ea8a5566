"""``atlas replay RECORD [OUT.gif]``: a replay record drawn as an animated GIF."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import common

__all__ = ["HELP", "DESCRIPTION", "add", "run"]

#: The sub-command's line in ``atlas --help``.
HELP = "draw a saved replay record as an animated GIF"
#: What ``atlas replay --help`` says first.
DESCRIPTION = """Draw a replay record as an animated GIF, one frame a turn."""


def add(p: argparse.ArgumentParser) -> None:
    """The arguments of ``atlas replay``."""
    p.add_argument("record", metavar="RECORD", help="the replay record (.json or .json.gz)")
    p.add_argument(
        "out",
        nargs="?",
        metavar="OUT.gif",
        help="the GIF to write (default: RECORD's name with .gif, beside it; "
        "an existing file is overwritten only when named here)",
    )
    p.add_argument(
        "--overlay",
        metavar="NAME",
        help="draw one overlay of the viewer's on every frame, one the record's game "
        "draws in GIFs (voronoi, articulation, reachable, ...; an unknown name lists "
        "the game's)",
    )
    common.add_output(p, "--gif", "FILE", "the GIF to write (older spelling of OUT.gif)")
    common.add_json(p, "what was written")


def run(args: argparse.Namespace, fail: common.Fail) -> int:
    from ..render.gif import check_overlay, write_gif
    from ..sim.records import load_record

    out = _replay_out(args, fail)
    record = load_record(args.record)
    if args.overlay is not None:
        try:
            check_overlay(record.game, args.overlay)
        except ValueError as exc:
            fail(str(exc))
    write_gif(record, out, overlay=args.overlay)
    if args.json:
        common.print_json(
            {
                "record": args.record,
                "gif": str(out),
                "turns": len(record.turns),
                "overlay": args.overlay,
                "bytes": out.stat().st_size,
            }
        )
    else:
        print(f"{args.record}: {len(record.turns)} turns -> {out}")
    return 0


def _replay_out(args: argparse.Namespace, fail: common.Fail) -> Path:
    if args.out and args.gif and args.out != args.gif:
        fail(f"two outputs given: {args.out!r} and --gif {args.gif!r}")
    from ..fsutil import check_output_path
    from ..render.gif import is_atlas_gif

    named = args.out or args.gif
    if named:
        return check_output_path(named, ours=is_atlas_gif, force=args.force)
    src = Path(args.record)
    stem = src.name
    for suffix in (".gz", ".json"):
        stem = stem[: -len(suffix)] if stem.endswith(suffix) else stem
    out = src.with_name(stem + ".gif")
    if out.exists() and not is_atlas_gif(out) and not args.force:
        fail(
            f"{out} already exists and atlas did not write it; name another OUT.gif, or --force"
        )
    return check_output_path(out, ours=is_atlas_gif, force=True)
