"""Broken tron bot: hugs a wall for two moves, then hangs on its third (the game ends
at its deadline and atlas ends the process)."""

import sys
import time

n = 0
while header := sys.stdin.readline():
    w, h = map(int, header.split())
    rows = [sys.stdin.readline() for _ in range(h)]
    n += 1
    if n == 3:
        time.sleep(30)
    r, c = next((r, row.index("1")) for r, row in enumerate(rows) if "1" in row)
    steps = {1: (-1, 0), 2: (0, 1), 3: (1, 0), 4: (0, -1)}
    free = [d for d, (dr, dc) in steps.items() if rows[r + dr][c + dc] == " "]
    print(free[0] if free else 1, flush=True)
