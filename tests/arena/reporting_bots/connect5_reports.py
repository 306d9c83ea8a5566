"""connect5 GTP engine that reports its line on stderr before each ``genmove`` answer.

``python connect5_reports.py MODE``: ``good`` (its column, then the same column twice),
``garbage`` (columns 0, ``x`` and 10**30: the line ends at the first).  It drops into
the leftmost column with room.
"""

import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
cols, rows, heights = 9, 6, [0] * 9
for line in sys.stdin:
    cmd, *args = line.split() or [""]
    reply = ""
    if cmd == "boardsize":
        cols, rows = int(args[0]), int(args[1])
    if cmd in ("boardsize", "clear_board"):
        heights = [0] * cols
    elif cmd == "play":
        heights[int(args[1]) - 1] += 1
    elif cmd == "genmove":
        column = next(c for c in range(cols) if heights[c] < rows)
        heights[column] += 1
        reply = str(column + 1)  # columns are 1-based in GTP
        if MODE == "good":
            info = f"info depth 4 score 12 nodes 99 pv {reply} {reply} {reply}"
        else:
            info = f"info depth 4 score 12 nodes 99 pv 0 x {10**30}"
        sys.stderr.write(info + "\n")
        sys.stderr.flush()
    elif cmd == "quit":
        print("=\n", flush=True)
        break
    print(f"= {reply}".rstrip() + "\n", flush=True)
