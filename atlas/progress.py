"""Progress bars on standard error (tqdm's), without tqdm's monitor thread.

tqdm starts a thread beside the first bar to watch the bars' refresh rates.  A build
forks a child to work its standings out while it draws its games
(:mod:`atlas.render.site.ahead`), and forks only from a process of one thread: atlas's
bars leave that thread out (they are updated often enough not to need it).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

__all__ = ["progress_bar_of"]


@lru_cache(maxsize=1)
def _bar_class() -> Any:
    from tqdm import tqdm

    class Bar(tqdm):
        monitor_interval = 0  # no monitor thread (tqdm starts one for a positive rate)

    return Bar


def progress_bar_of(*args: Any, **kwargs: Any) -> Any:
    """A tqdm bar (the same arguments) that starts no thread.

    >>> bar = progress_bar_of(total=3, disable=True)
    >>> bar.update(3); bar.close()
    >>> import threading
    >>> [t.name for t in threading.enumerate() if t.name == "tqdm_monitor"]
    []
    """
    return _bar_class()(*args, **kwargs)
