"""The games of ``atlas build``'s built-in tournament: a main round and a gauntlet.

A full round robin at the times the ladder measures the bots at (tron 0.1 s a move)
would take far longer than a build may, so the build plays fewer, better games.  Each
game's painter module says how (:class:`atlas.render.painter.SitePlan`):

* **main round**: the ``top`` strongest bots (the last ones of the game's ``BOTS``
  table, which lists them from the simplest) play each other on every map.  With
  ``top_per_map = None`` every seating plays on every map; with ``top_per_map = m``
  the seatings are dealt out over the maps in turn, ``m`` a map (pairings before
  their mirrored seatings, so each pairing meets on a spread of maps and in both
  seats as far as the maps go round);
* **gauntlet**: every pairing that involves one of the simpler bots plays once, the
  pairings dealt out over the maps from the smallest (their games are the shortest),
  seats alternating from one pairing to the next; two simpler bots meet in both seats
  (their games take no time, and their order would otherwise hang on one game); more
  than two seats: each seating of the full round robin that holds a simpler bot, once;
* ``seeds`` (``atlas build --games N``) plays each of these ``N`` times.

Every game is a :class:`atlas.arena.tournament.GameSpec`, so the records and the
standings (:func:`atlas.arena.tournament.standings`) are those of ``atlas tournament``
and ``benchmarks/ladder.py``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from ...arena.tournament import GameSpec, seatings
from ...maps import GameMap
from ...sim.registry import get_info

__all__ = ["site_schedule", "run_order"]


def site_schedule(
    game: str,
    maps: Sequence[GameMap],
    bots: Sequence[str],
    *,
    top: int,
    top_per_map: int | None,
    time_limit: float,
    params: Mapping[str, Any] | None = None,
    seeds: int = 1,
    gauntlet: bool = True,
    efforts: Mapping[str, int] | None = None,
) -> list[GameSpec]:
    """The games of one game's tournament in a build (see the module docstring).

    Parameters
    ----------
    game : str
    maps : sequence of GameMap
        The maps, in the order the site lists them.
    bots : sequence of str
        The bots from the simplest to the strongest (distinct).
    top : int
        How many of the strongest bots play the main round (all of them when there are
        no more).
    top_per_map : int or None
        Main-round seatings per map (``None``: all of them).
    time_limit : float
        Seconds per move.
    params : mapping, optional
        Game parameters.
    seeds : int
        Games per scheduled seating.
    gauntlet : bool
        Whether the simpler bots play (when False, only the main round is played).
    efforts : mapping, optional
        Bot name -> fixed effort per move (:class:`~atlas.arena.tournament.GameSpec`);
        a bot it names plays by its effort, not the clock.

    Returns
    -------
    list of GameSpec
        Main round first (map by map), then the gauntlet.

    Examples
    --------
    >>> from atlas.maps import parse_map
    >>> maps = [parse_map("5 3\\n#####\\n#1 2#\\n#####\\n", game="tron", name=n)
    ...         for n in ("a", "b", "c")]
    >>> specs = site_schedule("tron", maps, ["random", "x", "y", "z"], top=3,
    ...                       top_per_map=1, time_limit=0.1)
    >>> [(s.map_name, tuple(p.name for p in s.players)) for s in specs][:4]
    [('a', ('x', 'y')), ('b', ('x', 'z')), ('c', ('y', 'z')), ('a', ('random', 'x'))]
    >>> len(specs)
    6
    """
    bots = list(bots)
    if not maps or len(bots) < 2:
        return []
    n = get_info(game).num_players
    k = max(2, min(int(top), len(bots)))
    strong, simple = bots[-k:], bots[:-k]
    main = _main_seatings(strong, n)
    specs: list[GameSpec] = []
    per = len(main) if top_per_map is None else max(1, min(int(top_per_map), len(main)))
    cursor = 0
    for game_map in maps:
        if top_per_map is None:
            chosen = main
        else:
            chosen = [main[(cursor + j) % len(main)] for j in range(per)]
            cursor += per
        specs += [
            GameSpec.on_map(
                game_map, seating, seed, params=params, time_limit=time_limit, efforts=efforts
            )
            for seating in chosen
            for seed in range(int(seeds))
        ]
    if simple and gauntlet:
        by_size = sorted(maps, key=lambda m: (int(m.free.sum()), m.name))
        for j, seating in enumerate(_gauntlet_seatings(strong, simple, n)):
            game_map = by_size[j % len(by_size)]
            specs += [
                GameSpec.on_map(
                    game_map,
                    seating,
                    seed,
                    params=params,
                    time_limit=time_limit,
                    efforts=efforts,
                )
                for seed in range(int(seeds))
            ]
    return specs


def _main_seatings(strong: Sequence[str], n: int) -> list[tuple[str, ...]]:
    """The main round's seatings: pairings first, then their mirror images (two
    seats); every seating of the round robin (more seats)."""
    if n != 2:
        return seatings(strong, n)
    pairs = list(itertools.combinations(strong, 2))
    return [tuple(p) for p in pairs] + [(b, a) for a, b in pairs]


def _gauntlet_seatings(
    strong: Sequence[str], simple: Sequence[str], n: int
) -> list[tuple[str, ...]]:
    """Every pairing with a simpler bot once, seats alternating, two simpler bots in
    both seats (two seats); each seating of the full round robin holding a simpler bot
    (more seats)."""
    everyone = list(simple) + list(strong)
    if n != 2:
        return [s for s in seatings(everyone, n) if set(s) & set(simple)]
    pairs = [p for p in itertools.combinations(everyone, 2) if set(p) & set(simple)]
    out: list[tuple[str, ...]] = []
    for j, (a, b) in enumerate(pairs):
        out.append((a, b) if j % 2 == 0 else (b, a))
        if a in simple and b in simple:
            out.append(out[-1][::-1])
    return out


def run_order(specs: Sequence[GameSpec], cost: Mapping[str, float]) -> list[int]:
    """The order to hand ``specs`` to the worker pool: the dearest game of each game
    first (so the workers compile different bots' kernels at the start), then the
    rest dearest first (so no long game starts last).  ``cost`` maps a spec's
    :attr:`~atlas.arena.tournament.GameSpec.key` to its estimated cost."""
    order = sorted(range(len(specs)), key=lambda i: (-cost.get(specs[i].key, 0.0), i))
    first: dict[str, int] = {}
    for i in order:
        first.setdefault(specs[i].game, i)
    heads = sorted(first.values(), key=lambda i: (-cost.get(specs[i].key, 0.0), i))
    taken = set(heads)
    return heads + [i for i in order if i not in taken]
