"""The arena: runs matches between bots, built-in or external.

* :mod:`~atlas.arena.process` -- bot subprocesses with deadline-bounded pipes;
* :mod:`~atlas.arena.protocols` -- the external protocols (tron, GTP, JSON lines),
  the host side and the serving side together;
* :mod:`~atlas.arena.runner` -- one game between bots, recorded;
* :mod:`~atlas.arena.tournament` -- schedules, runs anywhere, standings;
* :mod:`~atlas.arena.rating` -- ratings from results.
"""
