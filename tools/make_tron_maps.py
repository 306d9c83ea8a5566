"""Author atlas's own tron, isolation and connect5 maps (maps/<game>/).

Run from the repository root: ``python tools/make_tron_maps.py``.  Every tron map is
point-symmetric (a 180-degree turn maps it onto itself and start 1 onto start 2), so
neither seat is favoured by the board.  Random features come from a seeded generator:
the same script writes the same maps.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from atlas.maps import GameMap, write_map

ROOT = Path(__file__).resolve().parents[1] / "maps"


def room(h: int, w: int) -> np.ndarray:
    """An empty room: walls on the border only."""
    g = np.zeros((h, w), dtype=bool)
    g[0, :] = g[-1, :] = g[:, 0] = g[:, -1] = True
    return g


def symmetric(g: np.ndarray) -> np.ndarray:
    return g | g[::-1, ::-1]


def tron(
    name: str, g: np.ndarray, start: tuple[int, int], doors: tuple[tuple[int, int], ...] = ()
) -> None:
    """Write a point-symmetric tron map; ``doors`` are opened with their mirror images."""
    g = symmetric(g)
    h, w = g.shape
    for r, c in doors:
        g[r, c] = g[h - 1 - r, w - 1 - c] = False
    other = (h - 1 - start[0], w - 1 - start[1])
    g[start] = g[other] = False
    write_map(GameMap("tron", name, g, (start, other)), ROOT / "tron" / f"{name}.txt")


def arena() -> None:
    tron("arena", room(15, 15), (3, 3))


def pillars() -> None:
    g = room(21, 21)
    g[3:-3:3, 3:-3:3] = True
    tron("pillars", g, (1, 10))


def doors() -> None:
    """Four chambers, each behind a single door, around a central hall."""
    g = room(25, 25)
    g[8, 1:9] = True  # top-left chamber (and, mirrored, bottom-right)
    g[1:9, 8] = True
    g[1:6, 16] = True  # top-right chamber (and, mirrored, bottom-left)
    g[5, 16:24] = True
    tron("doors", g, (12, 3), doors=((8, 4), (5, 20)))


def corridors() -> None:
    """Long parallel corridors joined at alternating ends."""
    g = room(25, 25)
    gaps = []
    for k, r in enumerate(range(3, 12, 3)):
        g[r, 1:24] = True
        gaps.append((r, 2 if k % 2 else 22))
    g[12, 1:24] = True
    tron("corridors", g, (1, 1), doors=tuple(gaps) + ((12, 12),))


def cross() -> None:
    g = room(31, 31)
    g[15, 4:27] = True
    g[4:27, 15] = True
    g[15, 9] = g[9, 15] = False
    g[7, 7:12] = g[7:12, 7] = True
    tron("cross", g, (3, 12))


def islands() -> None:
    rng = np.random.default_rng(2010)
    g = room(35, 35)
    yy, xx = np.mgrid[0:35, 0:35]
    for _ in range(7):
        cy, cx = rng.integers(4, 31, size=2)
        ry, rx = rng.uniform(1.5, 4.0, size=2)
        g |= ((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2 <= 1.0
    g[2:5, 2:5] = False
    tron("islands", g, (3, 3))


def rooms() -> None:
    """A 4x4 grid of rooms, each joined to its neighbours by a one-cell door."""
    n, size = 4, 10
    side = n * size + 1
    g = np.zeros((side, side), dtype=bool)
    g[::size, :] = True
    g[:, ::size] = True
    rng = np.random.default_rng(7)
    doors = []
    for i in range(n):
        for j in range(n):
            r0, c0 = i * size, j * size
            if j + 1 < n:
                doors.append((r0 + int(rng.integers(2, size - 1)), c0 + size))
            if i + 1 < n:
                doors.append((r0 + size, c0 + int(rng.integers(2, size - 1))))
    tron("rooms", g, (5, 5), doors=tuple(doors[: len(doors) // 2 + 1]))


def duel() -> None:
    g = room(19, 19)
    g[4:15, 9] = True
    g[9, 3:7] = True
    tron("duel", g, (9, 2))


def hourglass() -> None:
    g = room(23, 23)
    for r in range(1, 11):
        g[r, 1:r] = True
    for r in range(1, 11):
        g[r, 22 - r : 22] = True
    g[11, 1:10] = True
    tron("hourglass", g, (2, 11))


def spiral() -> None:
    """Concentric rings, each with two opposite gates that turn a quarter per ring."""
    g = room(27, 27)
    gates = []
    for k, d in enumerate(range(3, 12, 3)):
        g[d, d : 27 - d] = g[26 - d, d : 27 - d] = True
        g[d : 27 - d, d] = g[d : 27 - d, 26 - d] = True
        gates.append((d, 13) if k % 2 == 0 else (13, d))
    tron("rings", g, (1, 1), doors=tuple(gates))


def plains() -> None:
    """A large, mostly open field with a few scattered walls."""
    rng = np.random.default_rng(50)
    g = room(50, 50)
    for _ in range(14):
        r, c = rng.integers(3, 46, size=2)
        if rng.random() < 0.5:
            g[r, c : c + rng.integers(3, 9)] = True
        else:
            g[r : r + rng.integers(3, 9), c] = True
    g[:, :] |= room(50, 50)
    tron("plains", g, (10, 10))


def labyrinth() -> None:
    """A 51x51 maze carved by a seeded depth-first walk, then opened in places."""
    n = 25
    side = 2 * n + 1
    g = np.ones((side, side), dtype=bool)
    rng = np.random.default_rng(51)
    seen = np.zeros((n, n), dtype=bool)
    stack = [(0, 0)]
    seen[0, 0] = True
    g[1, 1] = False
    while stack:
        r, c = stack[-1]
        options = [
            (r + dr, c + dc)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < n and 0 <= c + dc < n and not seen[r + dr, c + dc]
        ]
        if not options:
            stack.pop()
            continue
        nr, nc = options[rng.integers(len(options))]
        seen[nr, nc] = True
        g[2 * nr + 1, 2 * nc + 1] = False
        g[r + nr + 1, c + nc + 1] = False
        stack.append((nr, nc))
    # knock out some walls so that the maze has loops, and make it symmetric by
    # carving both halves the same way
    for _ in range(120):
        r, c = rng.integers(1, side - 1, size=2)
        if (r + c) % 2 == 1:
            g[r, c] = False
    half = g.copy()
    g = half & half[::-1, ::-1]
    g |= room(side, side)
    write_map(
        GameMap("tron", "labyrinth", g, ((1, 1), (side - 2, side - 2))),
        ROOT / "tron" / "labyrinth.txt",
    )


def diagonal() -> None:
    g = room(29, 29)
    for k in range(4, 25, 5):
        for i in range(0, 12):
            r, c = k + i // 2, 2 + i
            if r < 28:
                g[r, c] = True
    tron("stairs", g, (1, 14))


def isolation_maps() -> None:
    write_map(
        GameMap(
            "isolation",
            "queen8",
            np.zeros((8, 8), bool),
            ((0, 0), (7, 7)),
            {"variant": "queen"},
        ),
        ROOT / "isolation" / "queen8.txt",
    )
    write_map(
        GameMap("isolation", "knight7", np.zeros((7, 7), bool), (), {"variant": "knight"}),
        ROOT / "isolation" / "knight7.txt",
    )
    g = np.zeros((9, 9), bool)
    g[4, 2:7] = True
    g[2:7, 4] = True
    g[4, 4] = True
    g[0, 8] = g[8, 0] = True
    write_map(
        GameMap("isolation", "cross9", g, ((0, 0), (8, 8)), {"variant": "queen"}),
        ROOT / "isolation" / "cross9.txt",
    )


def connect5_maps() -> None:
    write_map(
        GameMap("connect5", "standard", np.zeros((6, 9), bool), (), {"inarow": 5}),
        ROOT / "connect5" / "standard.txt",
    )
    write_map(
        GameMap("connect5", "connect4", np.zeros((6, 7), bool), (), {"inarow": 4}),
        ROOT / "connect5" / "connect4.txt",
    )


def main() -> None:
    for game in ("tron", "isolation", "connect5"):
        (ROOT / game).mkdir(parents=True, exist_ok=True)
    for make in (
        arena,
        pillars,
        doors,
        corridors,
        cross,
        islands,
        rooms,
        duel,
        hourglass,
        spiral,
        plains,
        labyrinth,
        diagonal,
    ):
        make()
    isolation_maps()
    connect5_maps()


if __name__ == "__main__":
    main()
