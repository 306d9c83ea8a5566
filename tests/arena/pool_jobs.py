"""Jobs for the pool's tests (a module of their own: worker processes import it)."""

import os
import signal
import time


def square_or_die(n: int) -> int:
    """``n * n``; job 3 kills its own worker, job 5 raises."""
    if n == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    if n == 5:
        raise ValueError("job five refuses")
    time.sleep(0.01)
    return n * n


def game_or_die(spec):
    """The record of the game ``spec`` as JSON data, except that the game of seed 1 kills
    the process playing it (a worker lost mid-game)."""
    from atlas.arena.tournament import run_game

    if spec.seed == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return run_game(spec).to_json()


def spin(args):
    """Write this worker's process id to ``args[1]`` once started, then keep the processor
    busy ``args[0]`` seconds."""
    from pathlib import Path

    seconds, started = args
    Path(started).write_text(str(os.getpid()))
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return seconds
