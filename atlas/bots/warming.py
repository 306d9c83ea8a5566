"""In which order a bot goes through the parts of its warm-up, and which of them now.

A bot whose kernels compile in separate parts (tron's: the endgame's, the far-apart
play's, the search's; isolation's: whole moves, which walk separated boards first, and
the search alone) names them in its warm-up and asks :func:`warm_phases` which of them
to go through now, in which order: all, in its own order, unless a :func:`warming`
block says otherwise.  :func:`atlas.arena.warm.warm_up_cold` compiles a newcomer's
first game on two cores: a worker process warms the other seats' bots in their order
while this process warms the first seat's bot from its last part back, so that the
kernels the bots share with their first parts are compiled once, by the worker, and
this process loads them from numba's cache instead of compiling them at the same time.

A bot whose first part compiles kernels of its own, apart from the rest (``apart``:
tron's endgame), has that part warmed on its own: this process goes through the
``later`` parts, then whichever of the two processes is free first (the worker after
its own bots) goes through the ``first`` one, and this process loads it from numba's
cache once the worker is done.  A bot told to leave a part out does not count itself
warmed, so its next warm-up goes through them all (those compiled cost next to
nothing).

>>> parts = ("endgame", "far", "search")
>>> warm_phases(parts)
['endgame', 'far', 'search']
>>> with warming("reversed"):
...     warm_phases(parts)
['search', 'far', 'endgame']
>>> with warming("later"):
...     warm_phases(parts, apart=True), warm_phases(parts)
(['search', 'far'], ['search', 'far', 'endgame'])
>>> with warming("first"):
...     warm_phases(parts, apart=True), warm_phases(parts)
(['endgame'], [])
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Sequence
from typing import Literal

__all__ = ["WarmOrder", "warm_phases", "warming"]

#: ``forward``: the bot's own order; ``reversed``: the last part first; ``later``: the
#: last part first, without the first when the bot warms it apart; ``first``: only the
#: first part a bot warms apart (nothing of one that does not).
WarmOrder = Literal["forward", "reversed", "later", "first"]

#: The order of the innermost :func:`warming` block (of this thread or task).
_ORDER: contextvars.ContextVar[WarmOrder] = contextvars.ContextVar(
    "atlas_warm_order", default="forward"
)


@contextlib.contextmanager
def warming(order: WarmOrder) -> Iterator[None]:
    """Bots made within the block (in this thread) go through their warm-up's parts
    in ``order``."""
    if order not in ("forward", "reversed", "later", "first"):
        raise ValueError(
            f"warm order: expected forward, reversed, later or first, got {order!r}"
        )
    token = _ORDER.set(order)
    try:
        yield
    finally:
        _ORDER.reset(token)


def warm_phases(phases: Sequence[str], apart: bool = False) -> list[str]:
    """The parts ``phases`` of a bot's warm-up (in its own order) to go through now, in
    the order to go through them.  ``apart``: the bot's first part compiles kernels of
    its own, which another process may warm (the block's order ``first``) while this
    one warms the rest (``later``)."""
    order = _ORDER.get()
    if order == "forward":
        return list(phases)
    if order == "first":
        return list(phases[:1]) if apart else []
    later = phases[1:] if order == "later" and apart else phases
    return list(reversed(later))
