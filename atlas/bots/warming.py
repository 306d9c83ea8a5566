"""In which order a bot goes through the parts of its warm-up.

A bot whose kernels compile in separate parts (tron's: the endgame's, the far-apart
play's, the search's; isolation's: whole moves, which walk separated boards first, and
the search alone) names them in its warm-up and asks :func:`warm_phases` in which
order to go through them: its own order, unless a :func:`warming` block says
``reversed``.  :func:`atlas.arena.warm.warm_up_cold` compiles a newcomer's first game
on two cores: a worker process warms the other seats' bots in their order while this
process warms the first seat's bot from its last part back, so that the kernels the
bots share with their first parts are compiled once, by the worker, and this process
loads them from numba's cache instead of compiling them at the same time.

>>> warm_phases(("endgame", "far", "search"))
['endgame', 'far', 'search']
>>> with warming("reversed"):
...     warm_phases(("endgame", "far", "search"))
['search', 'far', 'endgame']
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Sequence
from typing import Literal

__all__ = ["WarmOrder", "warm_phases", "warming"]

#: ``forward``: the bot's own order; ``reversed``: the last part first.
WarmOrder = Literal["forward", "reversed"]

#: The order of the innermost :func:`warming` block (of this thread or task).
_ORDER: contextvars.ContextVar[WarmOrder] = contextvars.ContextVar(
    "atlas_warm_order", default="forward"
)


@contextlib.contextmanager
def warming(order: WarmOrder) -> Iterator[None]:
    """Bots made within the block (in this thread) go through their warm-up's parts
    in ``order``."""
    if order not in ("forward", "reversed"):
        raise ValueError(f"warm order: expected forward or reversed, got {order!r}")
    token = _ORDER.set(order)
    try:
        yield
    finally:
        _ORDER.reset(token)


def warm_phases(phases: Sequence[str]) -> list[str]:
    """The parts ``phases`` of a bot's warm-up (in its own order), in the order to go
    through them now."""
    return list(reversed(phases)) if _ORDER.get() == "reversed" else list(phases)
