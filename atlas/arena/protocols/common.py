"""What the served side of every protocol shares: the move clock and writing answers."""

from __future__ import annotations

from typing import BinaryIO

__all__ = ["move_limit", "send_line"]


def move_limit(limits: tuple[float, float], first: bool) -> float:
    """Seconds the served bot allows itself: ``limits`` is (first move, later moves)."""
    return limits[0] if first else limits[1]


def send_line(out: BinaryIO, text: str) -> None:
    """Write ``text`` (UTF-8) and flush, so the host reads the answer at once."""
    out.write(text.encode("utf-8"))
    out.flush()
