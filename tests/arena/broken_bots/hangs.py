"""Broken bot: reads everything it is sent and never answers."""

import sys

for _line in sys.stdin:
    pass
