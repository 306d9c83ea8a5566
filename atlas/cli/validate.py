"""``atlas validate PATH...``: submitted maps checked against their game's rules, and with
``--fairness N`` each valid map's fairness report (:mod:`atlas.arena.fairness`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from . import common

__all__ = ["HELP", "DESCRIPTION", "add", "run"]

#: The sub-command's line in ``atlas --help``.
HELP = "check submitted {validating_games} maps against the rules"
#: What ``atlas validate --help`` says first.
DESCRIPTION = """\
Check {validating_games} map files (or every map in folders) against the rules of
docs/validate.md; every problem is named with its rule and line. With --fairness N, each
valid map's fairness report too (docs/fairness.md): its symmetries, and N games per
seating between the strongest built-in bot in every seat with each seat's score and
95 % interval and a verdict. Exit 1 when a map is invalid, 2 when one cannot be read.
"""


def add(p: argparse.ArgumentParser) -> None:
    """The arguments of ``atlas validate``."""
    p.add_argument("paths", nargs="+", metavar="PATH", help="map files or folders of maps")
    common.add_game(
        p,
        positional=False,
        help="the game whose rules apply (default: the game whose folder holds a map "
        "(maps/GAME/...), else the only one that validates its maps, else the one whose "
        "format the file is in)",
    )
    out = p.add_mutually_exclusive_group()
    common.add_flag(out, "--json", help="print a list of reports as JSON")
    common.add_flag(
        out,
        "--csv",
        help="print one CSV row per map: file, valid, rules, first message (and the "
        "fairness columns with --fairness)",
    )
    common.add_count(
        p,
        "--fairness",
        0,
        "add each valid map's fairness report, with N games per seating (0: its "
        "symmetries and exact facts alone); the games go through the build's cache",
    )
    from ..arena.fairness import DEFAULT_TIME

    common.add_effort_or_time(p, DEFAULT_TIME)
    common.add_count(
        p, "--jobs", 1, "worker processes for the fairness games (default: one per core)"
    )
    common.add_cache(p, "the fairness games'")


def run(args: argparse.Namespace, fail: common.Fail) -> int:
    """Exit 0 when every map is valid, 1 when one is not, 2 when one cannot be read (or
    a map's game has no validation rules: a usage error)."""
    from ..errors import AtlasError
    from ..jit import interpreted
    from ..maps.validation import (
        format_reports,
        reports_csv,
        run_jobs,
        validation_jobs,
        validator_of,
    )

    try:
        jobs = validation_jobs(args.paths, args.game)
    except AtlasError as exc:
        return int(fail(str(exc)) or 2)
    cells = sum(validator_of(j.game).map_cells for j in jobs if j.game and j.report is None)
    with interpreted(cells <= common.INTERPRET_MAX_CELLS):
        reports = run_jobs(jobs)
    fair: list[Any] = [None] * len(reports)
    problems: list[str] = []
    if args.fairness is not None:
        fair = _fairness(reports, args, problems)
    for problem in problems:
        print(f"atlas validate: {problem}", file=sys.stderr)
    if args.json:
        data = [r.to_json() for r in reports]
        if args.fairness is not None:
            for d, f in zip(data, fair):
                d["fairness"] = None if f is None else f.to_json()
        print(json.dumps(data, indent=2))
    elif args.csv:
        extra = _fairness_columns(fair) if args.fairness is not None else ()
        print(reports_csv(reports, extra), end="")
    else:
        text = format_reports(reports)
        if args.fairness is not None:
            text = _with_fairness(text, reports, fair)
        print(text)
    if any(r.unreadable for r in reports) or problems:
        return 2
    return 0 if all(r.valid for r in reports) else 1


def _fairness(
    reports: Sequence[Any], args: argparse.Namespace, problems: list[str]
) -> list[Any]:
    """The fairness report of each valid map of ``reports`` (``None`` for the others)."""
    from ..arena.fairness import DEFAULT_TIME, fairness_report
    from ..maps import read_map
    from ..render.site.cache import Cache
    from ..render.site.tournament import play_cached

    cache = Cache(None if args.no_cache else args.cache)
    valid = [k for k, r in enumerate(reports) if r.valid]
    maps = []
    for k in valid:
        maps.append(read_map(reports[k].file, game=reports[k].game))
    say = None if args.json or args.csv else _say
    found = fairness_report(
        maps,
        games=args.fairness,
        time_limit=DEFAULT_TIME if args.time is None else args.time,
        effort=0 if args.time is not None else (args.effort or 1),
        play=lambda specs: play_cached(
            specs, cache, jobs=args.jobs, progress=common.progress(args), log=say
        ),
        problems=problems,
    )
    by_path = {f.path: f for f in found}
    out: list[Any] = [None] * len(reports)
    for k, m in zip(valid, maps):
        out[k] = by_path.get(None if m.source is None else str(m.source))
    return out


def _fairness_columns(fair: Sequence[Any]) -> list[tuple[str, list[str]]]:
    """The CSV's fairness columns: verdict, games, symmetries, each seat's score."""

    def seats(f: Any) -> str:
        return "; ".join(
            f"{s.seat}: {s.score:.3f} [{s.low:.3f}, {s.high:.3f}]"
            for s in f.evidence.seats
            if s.score is not None
        )

    return [
        ("fairness", ["" if f is None else f.verdict for f in fair]),
        ("fairness games", ["" if f is None else str(f.evidence.games) for f in fair]),
        ("symmetries", ["" if f is None else ";".join(f.structure.symmetries) for f in fair]),
        ("seat scores", ["" if f is None else seats(f) for f in fair]),
    ]


def _with_fairness(text: str, reports: Sequence[Any], fair: Sequence[Any]) -> str:
    """The text report with each valid map's fairness report after its line."""
    out: list[str] = []
    for line in text.split("\n"):
        out.append(line)
        if line.startswith(" "):
            continue
        for r, f in zip(reports, fair):
            if f is not None and line.startswith(f"{r.file}: "):
                out += ["  " + x for x in f.format_text().split("\n")[1:]]
                break
    return "\n".join(out)


def _say(message: str) -> None:
    print(f"atlas validate: fairness: {message}", file=sys.stderr, flush=True)
