"""Isolation bot that reports its line in its JSON answer (``"info"``).

``python isolation_reports.py MODE``: ``good`` (its move, then the first legal move
again: a line the viewer follows one move, then drops), ``huge`` (a ``pv`` of 5,000
moves), ``garbage`` (an ``info`` that is a string, then numbers that are not finite and
moves off the board), ``line`` (no ``info`` key: a stderr ``info`` line instead).
It plays the first legal move it is offered.
"""

import json
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
turn = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] != "turn":
        continue
    move = message["legal"][0]
    answer = {"move": move}
    if MODE == "good":
        answer["info"] = {"depth": 2, "score": 0.5, "nodes": 10, "pv": [move, move]}
    elif MODE == "huge":
        answer["info"] = {"depth": 2, "pv": [move] * 5000}
    elif MODE == "garbage":
        answer["info"] = (
            "no"
            if turn % 2
            else {"depth": "deep", "score": "1e999", "pv": [[99, 99], "x", move]}
        )
    else:
        word = json.dumps(move, separators=(",", ":"))
        sys.stderr.write(f"info depth 1 score 0 nodes 3 pv {word}\n")
        sys.stderr.flush()
    turn += 1
    print(json.dumps(answer), flush=True)
