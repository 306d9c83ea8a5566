"""A tron bot for the official 2010 protocol: go to the first free neighbour (N, E, S, W).

Run it in atlas with ``atlas play tron MAP "cmd:python examples/bots/tron_bot.py" random``.
"""

import sys

STEPS = {1: (-1, 0), 2: (0, 1), 3: (1, 0), 4: (0, -1)}  # digit -> (drow, dcol)
while header := sys.stdin.readline():
    width, height = map(int, header.split())
    rows = [sys.stdin.readline().rstrip("\n").ljust(width) for _ in range(height)]
    r, c = next((r, row.index("1")) for r, row in enumerate(rows) if "1" in row)
    free = [
        d
        for d, (dr, dc) in STEPS.items()
        if 0 <= r + dr < height and 0 <= c + dc < width and rows[r + dr][c + dc] == " "
    ]
    print(free[0] if free else 1, flush=True)
