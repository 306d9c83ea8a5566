"""``atlas validate PATH...``: submitted maps checked against their game's rules."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import common

__all__ = ["HELP", "DESCRIPTION", "add", "run"]

#: The sub-command's line in ``atlas --help``.
HELP = "check submitted {validating_games} maps against the rules"
#: What ``atlas validate --help`` says first.
DESCRIPTION = """\
Check {validating_games} map files (or every map in folders) against the rules of
docs/validate.md; every problem is named with its rule and line. Exit 1 when a map is
invalid, 2 when one cannot be read.
"""


def add(p: argparse.ArgumentParser) -> None:
    """The arguments of ``atlas validate``."""
    p.add_argument("paths", nargs="+", metavar="PATH", help="map files or folders of maps")
    out = p.add_mutually_exclusive_group()
    common.add_flag(out, "--json", help="print a list of reports as JSON")
    common.add_flag(
        out, "--csv", help="print one CSV row per map: file, valid, rules, first message"
    )


def run(args: argparse.Namespace, fail: common.Fail) -> int:
    """Exit 0 when every map is valid, 1 when one is not, 2 when one cannot be read."""
    from ..analyze.outpost.validate import (
        MAP_CELLS,
        format_reports,
        reports_csv,
        validate_paths,
    )
    from ..jit import interpreted
    from ..maps import find_maps

    files = sum(len(find_maps(p)) if Path(p).is_dir() else 1 for p in args.paths)
    with interpreted(files * MAP_CELLS <= common.INTERPRET_MAX_CELLS):
        reports = validate_paths(args.paths)
    if args.json:
        print(json.dumps([r.to_json() for r in reports], indent=2))
    elif args.csv:
        print(reports_csv(reports), end="")
    else:
        print(format_reports(reports))
    if any(r.unreadable for r in reports):
        return 2
    return 0 if all(r.valid for r in reports) else 1
