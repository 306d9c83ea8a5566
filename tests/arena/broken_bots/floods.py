"""Broken bot: writes garbage without end (no digit, no newline, no JSON)."""

import sys

chunk = b"x" * 65536
while True:
    sys.stdout.buffer.write(chunk)
    sys.stdout.buffer.flush()
