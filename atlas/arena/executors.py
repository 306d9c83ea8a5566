"""Where atlas's jobs run: in this process, on local worker processes
(:func:`atlas.arena.pool.run_pool`), or on a Dask cluster (``--scheduler ADDRESS``).

Every stage that has many independent jobs (games, fairness games, map analyses, the
drawings of replays) hands them to :func:`run_jobs` with a module-level function, so
each stage runs the same way on each executor, and what comes back is the same
whatever ran it: a job's result travels as plain data (JSON-like values, bytes), and
its caller stores and publishes it.  A build on a Dask cluster writes the same bytes
as one on the local pool (``tests/render/test_build_dask.py``).

Failures stay per job: a job that raises, or whose worker dies, is reported to
``on_failure`` with the reason and the others go on.  On Dask a job whose worker is lost
is tried once more elsewhere first.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["run_jobs", "run_on_dask", "DaskUnavailable"]


class DaskUnavailable(RuntimeError):
    """``--scheduler`` was given and ``dask.distributed`` is not installed."""


def run_jobs(
    items: Sequence[Any],
    work: Callable[[Any], Any],
    on_result: Callable[[int, Any], None],
    on_failure: Callable[[int, str], None],
    *,
    jobs: int | None = None,
    scheduler: str | None = None,
) -> None:
    """Run ``work(item)`` for every item: on the Dask scheduler at ``scheduler`` when
    one is given, else on ``jobs`` local worker processes (default: one per core), or
    in this process when that is one or there is one item.

    ``on_result(index, value)`` and ``on_failure(index, reason)`` are called in this
    process as each job ends, in the order they end.  ``work`` must be a picklable
    module-level function.

    Raises
    ------
    DaskUnavailable
        A scheduler is given and ``dask.distributed`` is not installed.
    OSError, TimeoutError
        The scheduler cannot be reached.
    """
    items = list(items)
    if scheduler:
        run_on_dask(items, work, scheduler, on_result, on_failure)
        return
    workers = min(jobs or os.cpu_count() or 1, len(items))
    if workers <= 1:
        for i, item in enumerate(items):
            try:
                value = work(item)
            except Exception as exc:  # the job's own failure, as a worker reports it
                on_failure(i, f"{type(exc).__name__}: {exc}")
            else:
                on_result(i, value)
        return
    from .pool import run_pool

    run_pool(items, work, workers, on_result, on_failure)


def run_on_dask(
    items: Sequence[Any],
    work: Callable[[Any], Any],
    address: str,
    on_result: Callable[[int, Any], None],
    on_failure: Callable[[int, str], None],
) -> None:
    """Run ``work(item)`` for every item on the ``dask.distributed`` scheduler at
    ``address`` (each job tried once more when its worker is lost); see
    :func:`run_jobs`."""
    try:
        from distributed import Client, as_completed
    except ImportError:  # pragma: no cover - depends on the installation
        raise DaskUnavailable(
            "--scheduler needs dask.distributed: pip install 'atlas-gridgames[dask]'"
        ) from None
    if not items:
        return
    try:
        client = Client(address)
    except (OSError, TimeoutError) as exc:
        raise OSError(f"cannot reach the dask scheduler at {address}: {exc}") from None
    with client:
        futures = client.map(work, list(items), pure=False, retries=1)
        index = {fut.key: i for i, fut in enumerate(futures)}
        for fut in as_completed(futures):
            i = index[fut.key]
            try:
                value = fut.result()
            except Exception as exc:  # the job raised, or its worker was lost twice
                on_failure(i, f"{type(exc).__name__}: {exc}")
            else:
                on_result(i, value)
            fut.release()
