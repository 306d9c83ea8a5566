"""An outpost bot for atlas's JSON-lines protocol: every outpost takes its first legal step.

Run it in atlas with
``atlas play outpost MAP "cmd:python examples/bots/outpost_bot.py" random random random``.
"""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] != "turn":
        continue
    if message["expect"] == "disband":
        move = message["legal"][-1]  # give up the newest outpost
    else:
        first = {}
        for index, target in message["legal"]:
            first.setdefault(index, target)
        move = [[index, target] for index, target in first.items()]
    print(json.dumps({"move": move}), flush=True)
