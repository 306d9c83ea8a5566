"""A connect5 engine for atlas's GTP dialect: drop into the leftmost column with room.

Run it in atlas with ``atlas play connect5 MAP "cmd:python examples/bots/connect5_bot.py" random``.
"""

import sys

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
    elif cmd == "quit":
        print("=\n", flush=True)
        break
    print(f"= {reply}".rstrip() + "\n", flush=True)
