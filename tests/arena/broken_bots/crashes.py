"""Broken bot: reads its first input line, then dies with a traceback (exit status 1)."""

import sys

sys.stdin.readline()
raise RuntimeError("deliberate crash of a broken test bot")
