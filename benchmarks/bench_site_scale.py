"""How the site holds up with thousands of games (a benchmark, not a test).

Generates ``--games`` games (default 2,000) between seeded random movers straight
through the engine (no bot processes, no clock: tron on small generated maps,
isolation and connect5 on small boards), saves them as records, and builds a site of
them with ``atlas build``'s own function.  Prints:

* the cold build time (empty cache) and its stages;
* the site's size, its file count and its largest page;
* the time headless Chromium takes to load the games list (``games.html``) until its
  table is drawn, and to go to the last page of it;
* a warm rebuild after adding 10 games: the time, the files written and kept, and a
  check that every file the new games do not concern kept its bytes and its time.

Run from the repository root::

    python benchmarks/bench_site_scale.py [--games 2000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Player names of the random movers (each game draws two, or four for Outpost).
PLAYERS = [f"random{k}" for k in range(1, 9)]


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


def generate(folder: Path, n_games: int, seed: int = 0) -> tuple[Path, Path]:
    """Maps and ``n_games`` records of random games under ``folder``."""
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
        save_record(_play(get_game(game), gm, i, RecordBuilder), recs_dir / f"g{i:05d}.json")
    return maps_dir, recs_dir


def _play(g, gm, seed: int, builder_cls):
    rng = np.random.default_rng(seed)
    names = list(rng.choice(PLAYERS, size=g.info.num_players, replace=False))
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


def browser_load(site: Path) -> tuple[float, float, int]:
    """Seconds until the games list's table is drawn (from navigation start, as the page
    measures it), seconds to go to its last page, and the rows it matched."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto((site / "index.html").as_uri())  # warm the browser itself
        page.goto((site / "games.html").as_uri())
        page.wait_for_function("() => document.querySelector('.games-widget').dataset.ready")
        ready = page.evaluate("() => performance.now()") / 1000.0
        rows = int(page.locator(".games-widget").get_attribute("data-rows"))
        t = time.perf_counter()
        page.click("button[data-page=last]")
        page.wait_for_function(
            "() => document.querySelector('.games-widget').dataset.page !== '1'"
        )
        last = time.perf_counter() - t
        browser.close()
    return ready, last, rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument(
        "--keep",
        help="build here and keep the site (default: a temporary folder, removed afterwards)",
    )
    args = ap.parse_args()
    from atlas.render.site.build import build_site

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="atlas-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        t = time.perf_counter()
        maps_dir, recs_dir = generate(work / "input", args.games)
        print(f"generated {args.games} games in {time.perf_counter() - t:.1f} s")
        site, cache = work / "site", work / "cache"
        shutil.rmtree(site, ignore_errors=True)
        shutil.rmtree(cache, ignore_errors=True)
        t = time.perf_counter()
        r = build_site(
            maps_dir,
            site,
            records_dir=recs_dir,
            cache_dir=cache,
            tournament=False,
            progress=False,
            log=lambda m: None,
        )
        cold = time.perf_counter() - t
        print(
            f"cold build: {cold:6.1f} s for {len(r.games)} games, {len(r.problems)} "
            f"problems (" + ", ".join(f"{k} {v:.1f} s" for k, v in r.stages.items()) + ")"
        )
        files = [p for p in site.rglob("*") if p.is_file()]
        size = sum(p.stat().st_size for p in files)
        pages = [p for p in files if p.suffix == ".html"]
        big = max(pages, key=lambda p: p.stat().st_size)
        print(
            f"site: {size / 1e6:.1f} MB in {len(files)} files; largest page "
            f"{big.relative_to(site)} {big.stat().st_size / 1e3:.0f} KB; games.html "
            f"{(site / 'games.html').stat().st_size / 1e3:.0f} KB + site-index.js "
            f"{(site / 'site-index.js').stat().st_size / 1e3:.0f} KB"
        )
        ready, last, rows = browser_load(site)
        print(
            f"Chromium: games list drawn {ready:.2f} s after navigation ({rows} games, "
            f"first page of 50); last page in {last * 1000:.0f} ms"
        )
        before = _snapshot(site)
        from atlas.maps import read_map
        from atlas.sim import get_game
        from atlas.sim.records import RecordBuilder, save_record

        gm = read_map(maps_dir / "tron" / "room0.txt", game="tron")
        for k in range(10):
            save_record(
                _play(get_game("tron"), gm, 10**6 + k, RecordBuilder), recs_dir / f"new{k}.json"
            )
        t = time.perf_counter()
        r2 = build_site(
            maps_dir,
            site,
            records_dir=recs_dir,
            cache_dir=cache,
            tournament=False,
            progress=False,
            log=lambda m: None,
        )
        warm = time.perf_counter() - t
        after = _snapshot(site)
        changed = sorted(k for k in after if before.get(k) != after[k])
        new_games = {g.ident for g in r2.games} - {g.ident for g in r.games}
        own = {
            f for g in r2.games if g.ident in new_games for f in (g.page, g.gif, g.record_file)
        }
        other = [c for c in changed if c not in own]
        print(
            f"warm build + 10 games: {warm:6.1f} s; {r2.files_written} files written, "
            f"{r2.files_kept} kept as they were; changed besides the new games' own "
            f"{len(own)} files: {', '.join(other)}"
        )
        untouched = [k for k in before if k in after and k not in changed]
        assert all(before[k] == after[k] for k in untouched)
        print(f"  {len(untouched)} files kept their bytes, inode and mtime")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
