"""Broken bot: answers every input line with a line of nonsense."""

import sys

for _line in sys.stdin:
    sys.stdout.write("what?\n\n")
    sys.stdout.flush()
