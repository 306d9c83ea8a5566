"""Tron bot that reports what it expects on a stderr ``info`` line before each digit.

``python tron_reports.py MODE``: ``good`` (its move, then the opponent standing still
as far as it can tell: the move again), ``huge`` (an ``info`` line of 200 kB),
``garbage`` (numbers that are not finite, moves that are not 1-4), ``noisy`` (a lot
of stderr that is not ``info``, then a good line).  It moves to the first free
neighbour (N, E, S, W).
"""

import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
STEPS = {1: (-1, 0), 2: (0, 1), 3: (1, 0), 4: (0, -1)}
while header := sys.stdin.readline():
    width, height = map(int, header.split())
    rows = [sys.stdin.readline().rstrip("\n").ljust(width) for _ in range(height)]
    r, c = next((r, row.index("1")) for r, row in enumerate(rows) if "1" in row)
    free = [
        d
        for d, (dr, dc) in STEPS.items()
        if 0 <= r + dr < height and 0 <= c + dc < width and rows[r + dr][c + dc] == " "
    ]
    move = free[0] if free else 1
    if MODE == "good":
        line = f"info depth 3 score -2.5 nodes 1234 pv {move} {move} {move}"
    elif MODE == "huge":
        line = "info depth 9 pv " + "1 " * 100_000
    elif MODE == "garbage":
        line = f"info depth nan score 1e999 nodes x{move} pv {move} 7 {move} 2"
    else:
        sys.stderr.write("thinking...\n" * 500)
        line = f"info depth 2 score 1 nodes 7 pv {move}"
    sys.stderr.write(line + "\n")
    sys.stderr.flush()
    print(move, flush=True)
