"""How the site holds up with thousands of games (a benchmark, not a test).

Generates ``--games`` games (default 2,000; the issue's figure is 20,000) between
seeded random movers straight through the engine (no bot processes, no clock: tron on
small generated maps, isolation and connect5 on small boards), saves them as records,
and builds a site of them with ``atlas build``'s own function.  Prints every figure
beside its target:

* the cold build (empty cache): wall time and its stages (target: 15 minutes on two
  cores), and the load average of the machine while it ran (the machine is shared:
  a load above the number of cores stretches every wall time);
* the site: its size, its files, its largest page, and its bytes per game;
* headless Chromium: the games list (``games.html``) interactive, from navigation to
  the moment its script has read every part of the index and drawn the table
  (target 1 s); the last page of it; each keystroke of the index's search box and of
  the games list's filter, from the key to the results painted (target 100 ms);
* a warm rebuild after adding 10 games (target 30 s): the files written and kept, and
  a check that every file the new games do not concern kept its bytes and its time.

Run from the repository root::

    python benchmarks/bench_site_scale.py [--games 2000] [--players 8] [--jobs N]
                                          [--keep DIR] [--gifs WHICH]
    python benchmarks/bench_site_scale.py --browser SITE   # the Chromium figures alone,
                                                         # of a site built before
    python benchmarks/bench_site_scale.py --again DIR [--times 3] [--players N]
        # ten more games, warm, again and again, on a season kept by --keep DIR (the
        # first after a change to atlas's code redraws what the change concerns)
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

# Chromium as the browser tests start it (needs the test extra: pip install -e '.[test]')
from browser_helpers import ARGS, CHROMIUM  # noqa: E402

#: Players of the season by default: random movers (each game draws two of them).
PLAYERS = 8


def player_names(n: int) -> list[str]:
    """The names of ``n`` random movers (``--players``: a 300-student course's season
    has 300)."""
    return [f"random{k}" for k in range(1, n + 1)]


def _tron_map(k: int, rng: np.random.Generator) -> str:
    """A small walled tron room with a few random pillars, point-symmetric."""
    n = 11 + 2 * (k % 4)
    grid = [[" "] * n for _ in range(n)]
    for i in range(n):
        grid[0][i] = grid[n - 1][i] = grid[i][0] = grid[i][n - 1] = "#"
    for _ in range(n // 2):
        r, c = int(rng.integers(2, n - 2)), int(rng.integers(2, n - 2))
        grid[r][c] = grid[n - 1 - r][n - 1 - c] = "#"
    grid[2][2], grid[n - 3][n - 3] = "1", "2"
    return f"{n} {n}\n" + "\n".join("".join(row) for row in grid) + "\n"


def generate(
    folder: Path, n_games: int, seed: int = 0, players: int = PLAYERS
) -> tuple[Path, Path]:
    """Maps and ``n_games`` records of random games between ``players`` players under
    ``folder``."""
    from atlas.maps import parse_map
    from atlas.sim import get_game
    from atlas.sim.records import RecordBuilder, save_record

    rng = np.random.default_rng(seed)
    maps_dir, recs_dir = folder / "maps", folder / "records"
    texts: dict[str, list[tuple[str, str]]] = {"tron": [], "isolation": [], "connect5": []}
    for k in range(8):
        texts["tron"].append((f"room{k}", _tron_map(k, rng)))
    texts["isolation"] = [
        ("q6", "isolation 6 6 queen\n1.....\n......\n..#...\n...#..\n......\n.....2\n"),
        ("k6", "isolation 6 6 knight\n1.....\n......\n......\n......\n......\n.....2\n"),
    ]
    texts["connect5"] = [("c4", "connect5 7 6 4\n"), ("c5", "connect5 9 6 5\n")]
    games = []
    for game, items in texts.items():
        (maps_dir / game).mkdir(parents=True, exist_ok=True)
        for name, text in items:
            (maps_dir / game / f"{name}.txt").write_text(text)
            games.append((game, parse_map(text, game=game, name=name)))
    recs_dir.mkdir(parents=True, exist_ok=True)
    weights = np.array([6.0 if g == "tron" else 2.0 for g, _ in games])
    picks = rng.choice(len(games), size=n_games, p=weights / weights.sum())
    for i, pick in enumerate(picks):
        game, gm = games[int(pick)]
        save_record(
            _play(get_game(game), gm, i, RecordBuilder, players), recs_dir / f"g{i:05d}.json"
        )
    return maps_dir, recs_dir


def _play(g, gm, seed: int, builder_cls, players: int = PLAYERS):
    rng = np.random.default_rng(seed)
    names = list(rng.choice(player_names(players), size=g.info.num_players, replace=False))
    state = g.initial_state(gm, None)
    b = builder_cls(g, gm, None, names, seed)
    while g.outcome(state) is None:
        moves = {p: g.random_move(state, p, rng) for p in g.to_move(state)}
        b.add_turn(moves, {p: 0.0 for p in moves})
        state = g.apply(state, moves)
    return b.finish(state, g.outcome(state))


def _snapshot(site: Path) -> dict[str, tuple[int, int, int]]:
    return {
        str(p.relative_to(site)): (p.stat().st_mtime_ns, p.stat().st_ino, p.stat().st_size)
        for p in site.rglob("*")
        if p.is_file()
    }


#: The targets of issue 33 for a 100,000-game season (seconds): cold build, ten more
#: games, the games list interactive, a keystroke.
COLD_TARGET, WARM_TARGET, LIST_TARGET, KEY_TARGET = 10 * 60.0, 5.0, 1.0, 0.1
#: Bytes of site a game, bytes of the largest page, bytes of peak memory (issue 33).
BYTES_TARGET, PAGE_TARGET, MEMORY_TARGET = 8_000, 1_000_000, 2 * 1024**3


def _amount(what: str, value: float, target: float, unit: str) -> str:
    """One line: a size, its target and whether it is met."""
    shown, goal = (
        (f"{value / 1e6:.2f} MB", f"{target / 1e6:.0f} MB")
        if unit == "MB"
        else (f"{value / 1024**3:.2f} GiB", f"{target / 1024**3:.0f} GiB")
        if unit == "GiB"
        else (f"{value:,.0f}", f"{target:,.0f}")
    )
    return f"  {what:<52} {shown:>10}   target {goal:>7}   {'met' if value <= target else 'MISSED'}"


def _reset_peak() -> None:
    """Start this process's peak resident memory afresh (Linux: ``clear_refs`` 5), so
    the peak read after the build is the build's (the games are generated in a process
    of their own, too)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def _peak_memory() -> tuple[float, float]:
    """Peak resident memory of this process since :func:`_reset_peak` (``VmHWM``;
    elsewhere its whole life's) and of its largest finished child (the build's
    workers), in bytes."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                own = int(line.split()[1]) * 1024
    except OSError:
        pass
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    return float(own), float(child)


def _figure(what: str, value: float, target: float | None, unit: str = "s") -> str:
    """One line: the figure, its target and whether it is met."""
    shown = f"{value * 1000:.0f} ms" if unit == "ms" else f"{value:.1f} s"
    if target is None:
        return f"  {what:<52} {shown:>10}"
    goal = f"{target * 1000:.0f} ms" if unit == "ms" else f"{target:.0f} s"
    return f"  {what:<52} {shown:>10}   target {goal:>7}   {'met' if value <= target else 'MISSED'}"


def _keystrokes(page, selector: str, text: str) -> list[float]:
    """Seconds from each key of ``text`` typed into ``selector`` to the next frame
    painted after the page answered it (measured in the page, by its own clock)."""
    return page.evaluate(
        """async ([selector, text]) => {
            const input = document.querySelector(selector), out = [];
            input.value = ""; input.dispatchEvent(new Event("input"));
            await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
            for (const ch of text) {
                const t0 = performance.now();
                input.value += ch;
                input.dispatchEvent(new Event("input", {bubbles: true}));
                await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
                out.push((performance.now() - t0) / 1000);
            }
            return out;
        }""",
        [selector, text],
    )


def browser(site: Path, query: str) -> dict[str, object]:
    """The games list interactive (seconds from navigation, as the page measures it,
    best and worst of three loads), its last page, and the keystrokes of the index's
    search box and of the games list's filter."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto((site / "index.html").as_uri())  # warm the browser itself
        ready = []
        for _ in range(3):
            page.goto((site / "games.html").as_uri())
            page.wait_for_function(
                "() => document.querySelector('.games-widget').dataset.ready"
            )
            widget = page.locator(".games-widget")
            ready.append(int(widget.get_attribute("data-ready-ms")) / 1000.0)
        rows = int(widget.get_attribute("data-rows"))
        t = time.perf_counter()
        page.click("button[data-page=last]")
        page.wait_for_function(
            "() => document.querySelector('.games-widget').dataset.page !== '1'"
        )
        last = time.perf_counter() - t
        table_keys = _keystrokes(page, ".games-widget input[name=q]", query)
        page.goto((site / "index.html").as_uri())
        page.wait_for_function("() => document.querySelector('#site-search') !== null")
        page.wait_for_load_state("load")
        search_keys = _keystrokes(page, "#site-search", query)
        browser.close()
    return {
        "ready": ready,
        "rows": rows,
        "last": last,
        "search_keys": search_keys,
        "table_keys": table_keys,
    }


def print_browser(site: Path, figures: list[str]) -> None:
    """Print the Chromium figures of ``site`` (and add them to ``figures``, or print
    them beside their targets when ``figures`` is empty)."""
    alone = not figures
    b = browser(site, "random3 room4")
    ready = b["ready"]
    print(
        f"Chromium: games list interactive {min(ready):.2f}-{max(ready):.2f} s after "
        f"navigation ({b['rows']} games, first page of 50); last page in "
        f"{b['last'] * 1000:.0f} ms; keystrokes (ms): search box "
        + " ".join(f"{k * 1000:.0f}" for k in b["search_keys"])
        + "; games list filter "
        + " ".join(f"{k * 1000:.0f}" for k in b["table_keys"]),
        flush=True,
    )
    figures.append(
        _figure("games list interactive in Chromium (worst of 3)", max(ready), LIST_TARGET)
    )
    figures.append(
        _figure("search box, slowest keystroke", max(b["search_keys"]), KEY_TARGET, "ms")
    )
    figures.append(
        _figure("games list filter, slowest keystroke", max(b["table_keys"]), KEY_TARGET, "ms")
    )
    if alone:
        print(
            f"figures ({len(list((site / 'games').glob('*.html')))} games; load average {_load()}):"
        )
        print("\n".join(figures))


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def add_games(maps_dir: Path, recs_dir: Path, players: int, n: int = 10) -> None:
    """Save ``n`` more random tron games on ``room0`` in ``recs_dir``, named and seeded
    after those added before (``new0.json``, ``new1.json``, ...)."""
    from atlas.maps import read_map
    from atlas.sim import get_game
    from atlas.sim.records import RecordBuilder, save_record

    gm = read_map(maps_dir / "tron" / "room0.txt", game="tron")
    k = 0
    for _ in range(n):
        while (recs_dir / f"new{k}.json").exists():
            k += 1
        save_record(
            _play(get_game("tron"), gm, 10**6 + k, RecordBuilder, players),
            recs_dir / f"new{k}.json",
        )


def _options(recs_dir: Path, cache: Path, jobs: int | None, gifs: str) -> dict:
    """``build_site``'s options for the season's records, quiet, without a tournament."""
    return dict(
        records_dir=recs_dir,
        cache_dir=cache,
        tournament=False,
        progress=False,
        jobs=jobs,
        gifs=gifs,
        log=lambda m: None,
    )


def again(work: Path, times: int, players: int, jobs: int | None, gifs: str) -> None:
    """Ten more games, warm, ``times`` times over, on the season ``--keep`` left in
    ``work``: each rebuild's wall time, its stages and the files it wrote."""
    from atlas.render.site.build import build_site

    maps_dir, recs_dir = work / "input" / "maps", work / "input" / "records"
    if not (work / "site").is_dir() or not recs_dir.is_dir():
        sys.exit(f"{work}: no season kept there (bench_site_scale.py --keep {work} first)")
    options = _options(recs_dir, work / "cache", jobs, gifs)
    for _ in range(times):
        add_games(maps_dir, recs_dir, players)
        load = _load()
        gc.collect()
        t = time.perf_counter()
        r = build_site(maps_dir, work / "site", **options)
        warm = time.perf_counter() - t
        print(
            f"warm build + 10 games ({len(r.games)} games): {warm:.1f} s ("
            + ", ".join(f"{k} {v:.1f} s" for k, v in r.stages.items())
            + f"); {r.files_written} files written, {r.files_kept} kept; load average "
            f"{load} before",
            flush=True,
        )
        del r  # each rebuild as in a process of its own, without the last one's games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: cores)")
    ap.add_argument(
        "--players",
        type=int,
        default=PLAYERS,
        help=f"players of the season (default {PLAYERS}; a 300-student course: 300)",
    )
    ap.add_argument(
        "--keep",
        help="build here and keep the site (default: a temporary folder, removed afterwards)",
    )
    ap.add_argument(
        "--gifs",
        choices=("featured", "all", "none"),
        default="featured",
        help="which games get a GIF at build time, as atlas build --gifs (default: featured)",
    )
    ap.add_argument(
        "--browser",
        metavar="SITE",
        help="only measure the Chromium figures of SITE, a site built before (by --keep)",
    )
    ap.add_argument(
        "--again",
        metavar="DIR",
        help="only add ten games to the season kept in DIR (by --keep) and rebuild it "
        "warm, --times times, each figure with the load average",
    )
    ap.add_argument("--times", type=int, default=3, help="warm rebuilds with --again")
    args = ap.parse_args()
    if args.browser:
        print_browser(Path(args.browser), [])
        return
    if args.again:
        again(Path(args.again), args.times, args.players, args.jobs, args.gifs)
        return
    from atlas.render.site.build import build_site

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="atlas-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    figures: list[str] = []
    try:
        t = time.perf_counter()
        # in a process of its own: the build's peak memory is then the build's alone
        import concurrent.futures as cf
        import multiprocessing as mp

        with cf.ProcessPoolExecutor(1, mp_context=mp.get_context("spawn")) as pool:
            maps_dir, recs_dir = pool.submit(
                generate, work / "input", args.games, 0, args.players
            ).result()
        print(
            f"generated {args.games} games of {args.players} players in "
            f"{time.perf_counter() - t:.1f} s",
            flush=True,
        )
        site, cache = work / "site", work / "cache"
        shutil.rmtree(site, ignore_errors=True)
        shutil.rmtree(cache, ignore_errors=True)
        options = _options(recs_dir, cache, args.jobs, args.gifs)
        load_before = _load()
        gc.collect()
        _reset_peak()
        t = time.perf_counter()
        r = build_site(maps_dir, site, **options)
        cold = time.perf_counter() - t
        peak = _peak_memory()
        print(
            f"cold build (--gifs {args.gifs}): {cold:.1f} s for {len(r.games)} games, "
            f"{len(r.problems)} problems "
            f"(" + ", ".join(f"{k} {v:.1f} s" for k, v in r.stages.items()) + f"); load "
            f"average {load_before} before, {_load()} after, on {os.cpu_count()} cores",
            flush=True,
        )
        figures.append(_figure(f"cold build, {len(r.games)} games", cold, COLD_TARGET))
        files = [p for p in site.rglob("*") if p.is_file()]
        size = sum(p.stat().st_size for p in files)
        pages = [p for p in files if p.suffix == ".html"]
        big = max(pages, key=lambda p: p.stat().st_size)
        index = sum(
            p.stat().st_size for p in [site / "site-index.js", *site.glob("index/*.js")]
        )
        print(
            f"site: {size / 1e6:.1f} MB in {len(files)} files, {size / len(r.games):,.0f} "
            f"bytes per game; largest page {big.relative_to(site)} "
            f"{big.stat().st_size / 1e3:.0f} KB; the index {index / 1e3:.0f} KB in "
            f"{len(list(site.glob('index/*.js')))} parts",
            flush=True,
        )
        figures.append(
            _amount("bytes of the site per game", size / len(r.games), BYTES_TARGET, "B")
        )
        figures.append(
            _amount(f"largest page ({big.name})", big.stat().st_size, PAGE_TARGET, "MB")
        )
        own, child = peak
        figures.append(_amount("peak memory, the build's process", own, MEMORY_TARGET, "GiB"))
        figures.append(
            _amount("peak memory, its largest child process", child, MEMORY_TARGET, "GiB")
        )
        print_browser(site, figures)
        before = _snapshot(site)
        add_games(maps_dir, recs_dir, args.players)
        # a rebuild is a process of its own: the cold build's 100,000 games are not
        # alive beside it (atlas's collector would walk them all as the build begins)
        cold_games = {g.ident for g in r.games}
        del r
        gc.collect()
        t = time.perf_counter()
        r2 = build_site(maps_dir, site, **options)
        warm = time.perf_counter() - t
        after = _snapshot(site)
        changed = sorted(k for k in after if before.get(k) != after[k])
        new_games = {g.ident for g in r2.games} - cold_games
        own = {
            f for g in r2.games if g.ident in new_games for f in (g.page, g.gif, g.record_file)
        }
        other = [c for c in changed if c not in own]
        print(
            f"warm build + 10 games: {warm:.1f} s ("
            + ", ".join(f"{k} {v:.1f} s" for k, v in r2.stages.items())
            + f"); {r2.files_written} files written, {r2.files_kept} kept as they were; "
            f"changed besides the new games' own {len(own)} files: {len(other)}: "
            + ", ".join(other[:20])
            + (f" and {len(other) - 20} more" if len(other) > 20 else ""),
            flush=True,
        )
        untouched = [k for k in before if k in after and k not in changed]
        assert all(before[k] == after[k] for k in untouched)
        print(f"  {len(untouched)} files kept their bytes, inode and mtime")
        figures.append(_figure("ten more games added, warm", warm, WARM_TARGET))
        print(f"figures ({args.games} games; load average now {_load()}):")
        print("\n".join(figures))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
