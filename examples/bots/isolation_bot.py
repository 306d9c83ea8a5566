"""An isolation bot for atlas's JSON-lines protocol: play the first legal move it is offered.

Run it in atlas with
``atlas play isolation MAP "cmd:python examples/bots/isolation_bot.py" random``.
"""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "turn":
        print(json.dumps({"move": message["legal"][0]}), flush=True)
