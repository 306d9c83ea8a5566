"""``atlas serve``: the site, served on this machine and rebuilt as the maps change."""

from __future__ import annotations

import argparse
import sys

from . import common

__all__ = ["HELP", "DESCRIPTION", "add", "run"]

#: The sub-command's line in ``atlas --help``.
HELP = "serve the site locally, rebuilt and reloaded as the maps change"
#: What ``atlas serve --help`` says first.
DESCRIPTION = """\
Build the site from the MAPS folders (each one folder per game), serve it at
http://127.0.0.1:PORT/ and watch them (and --records and --tournament folders): a save
rebuilds only what changed and reloads the open pages, a broken map shows its problem
page, a deleted map disappears.  Ctrl-C stops (exit 130) with nothing half-written.
Only this machine can connect unless --host says otherwise; requests from other web
pages are refused.  Each map page links to an editor whose Save writes the map file in
its MAPS folder (only when MAPS are given: atlas's own maps are never written; with
several folders, a new map goes into the one chosen in the editor).  The watching uses
the watchdog package (pip install 'atlas-gridgames[serve]') when it is installed, else
a poll of the files every 0.4 s.  Designing maps: docs/serve.md.
"""


def add(p: argparse.ArgumentParser) -> None:
    """The arguments of ``atlas serve``."""
    p.add_argument(
        "maps",
        nargs="*",
        default=None,
        metavar="MAPS",
        help="the maps folders, each one folder per game (default: atlas's own maps)",
    )
    p.add_argument(
        "--port",
        type=common.count(0, 65535),
        default=8000,
        metavar="N",
        help="the port (default 8000; 0: any free port, which the first line names)",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="ADDRESS",
        help="the address to listen on (default 127.0.0.1, this machine only; any other "
        "lets every machine that reaches it read the site, and says so)",
    )
    common.add_flag(p, "--open", help="open the site in the web browser once it is built")
    common.add_site_inputs(
        p,
        "also publish (and watch) an organiser's tournament folder, written by "
        "atlas tournament --out (repeatable)",
    )
    common.add_count(
        p,
        "--games",
        0,
        "games per pairing, seating and map of the built-in tournament (default 0: none, "
        "so a save is on the page in about a second)",
    )
    common.add_count(
        p, "--jobs", 1, "worker processes for the tournament (default: one per core)"
    )
    common.add_quiet(p)


def run(args: argparse.Namespace, fail: common.Fail) -> int:
    """Serve until interrupted: exit 130 on Ctrl-C, 143 on SIGTERM (``atlas.cli``); 2
    when the port cannot be had or the site folder may not be written."""
    import threading

    from ..render.site.build import BuildOptions, check_input_folders
    from ..render.site.serve import LiveSite, is_loopback, watcher_kind
    from ..resources import maps_dir

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    options = BuildOptions(
        maps_dir=args.maps[0] if args.maps else maps_dir(),
        more_maps=(args.maps or [])[1:],
        out_dir=args.out,
        records_dir=args.records,
        tournaments=args.tournaments,
        jobs=args.jobs,
        games=args.games or 0,
        progress=common.progress(args),
        log=(lambda msg: None) if args.quiet else say,
    )
    check_input_folders(options)  # a folder that does not exist: exit 2, before binding
    # the editor saves into a maps folder the user named, never into atlas's own
    live = LiveSite(options, args.host, args.port, log=say, editable=bool(args.maps))
    try:
        live.open()
    except OSError as exc:
        print(
            f"atlas: error: cannot listen on {args.host} port {args.port}: "
            f"{exc.strerror or exc}",
            file=sys.stderr,
        )
        return 2
    try:
        if not is_loopback(args.host):
            say(
                f"atlas serve: warning: listening on {args.host}, not this machine's "
                "loopback: every machine that reaches it can read the site"
            )
        if watcher_kind() == "polling":
            say(
                "atlas serve: the watchdog package is not installed: looking at the files "
                "every 0.4 s instead (pip install 'atlas-gridgames[serve]')"
            )
        first = live.build()
        if first is None:
            return 2  # the line saying why is written
        live.start()
        say(f"atlas serve: {live.url} (rebuilt as the maps change; Ctrl-C stops)")
        if args.open:
            import webbrowser

            webbrowser.open(live.url)
        live.run(threading.Event())
    finally:
        live.close()
    return 0  # pragma: no cover - run() returns only when stopped by a signal
