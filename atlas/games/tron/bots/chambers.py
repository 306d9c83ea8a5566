"""``chambers``: the tree-of-chambers bot of the 2010 contest notes.

Two regimes, as in ``tron-tree-of-chambers.txt`` section 2:

* near the opponent (at most :data:`FAR_STEPS` steps) or separated from it: iterative
  deepening alpha-beta (:func:`atlas.games.tron.bots.voronoi.iterative_deepening`) scored by
  the tree of chambers: each player's fillable share of its Voronoi territory, the
  territory split into chambers that can be entered but not left, a chamber worth its
  size plus its best child (:func:`atlas.games.tron.bots.tree.chamber_value`);
* far from the opponent: for each of my moves, the game is played forward with both
  players choosing their move one step deep on the same evaluation, until the players
  are separated (scored by the chamber estimates of both rooms) or one crashes.  This
  finds moves whose worth only shows 20 or more turns later.  A short alpha-beta
  search (half the time) runs first, and only the moves it scores close to the best
  are rolled out, so a rollout never picks a move the search sees losing territory.

References
----------
.. [1] "Tree of chambers", 2010 Google AI Challenge submission notes.
"""

from __future__ import annotations

import numpy as np

from ....bots.search import PV_PLIES, clock, clock_now
from ....bots.warming import warm_phases
from ....jit import numba
from .common import (
    INF,
    R_TRAIL,
    SEAT_FAIR,
    WARM_PARTS,
    TronBot,
    Workspace,
    _Board,
    board_from_state,
    head_distance,
    voronoi_touching,
)
from .tree import chamber_value
from .voronoi import (
    CHAMBERS_K2,
    ENDGAME,
    MODE_CHAMBERS,
    WIN,
    TurnSearch,
    draw_value,
    iterative_deepening,
    search_root,
)

__all__ = [
    "FAR_STEPS",
    "SEARCH_SHARE",
    "ROLLOUT_MARGIN",
    "chambers_score",
    "rollout_value",
    "ChambersBot",
]

#: Heads further apart than this many steps play the rollout instead of the search.
FAR_STEPS = 6
#: Share of a far-apart move's time spent on a short alpha-beta search before the
#: rollouts; moves it scores more than :data:`ROLLOUT_MARGIN` below the best (about
#: two cells and their edges) are not rolled out.
SEARCH_SHARE = 0.5
ROLLOUT_MARGIN = 2.0 * (1.0 + 3.0 * CHAMBERS_K2)


@numba.njit(cache=True)
def chambers_score(grid, me, opp, off, w2, ibuf, fbuf):
    """Tree-of-chambers value for ``me``: ``(score, touching)``.

    While the players touch, own fillable territory minus the opponent's; once they
    are separated, ``1000 *`` (own room's chamber estimate minus the opponent's).
    """
    na, nb, touching = voronoi_touching(grid, me, opp, off, ibuf)
    k2 = CHAMBERS_K2 if touching else 0.0
    va = chamber_value(grid, me, opp, off, w2, ibuf, fbuf, 1.0, k2, False, False, 0)
    vb = chamber_value(grid, opp, me, off, w2, ibuf, fbuf, 1.0, k2, False, False, 1)
    if touching:
        return va - vb, 1
    return ENDGAME * (va - vb), 0


@numba.njit(cache=True)
def _one_turn(grid, off, w2, ibuf, fbuf):
    """The context of :func:`_one_step` (:class:`~atlas.games.tron.bots.voronoi.TurnSearch`)."""
    none = np.zeros((3, 1), dtype=np.uint64)
    return TurnSearch(
        grid,
        off,
        w2,
        ibuf,
        fbuf,
        MODE_CHAMBERS,
        draw_value(MODE_CHAMBERS),
        np.arange(4).astype(np.int64),
        4,
        False,
        SEAT_FAIR,
        False,
        np.zeros(4, np.float64),
        np.zeros(2, np.int64),
        1 << 40,
        np.inf,
        np.zeros(4, np.int64),
        none,
        none[0],
        np.zeros(1, np.int64),
        np.zeros((9, 4), np.int64),
        np.zeros(4, np.uint64),
        np.zeros(16, np.int64),
        np.zeros((3, 4), np.float64),
        np.zeros((5, PV_PLIES + 1), np.int64),
    )


@numba.njit(cache=True)
def _one_step(s, me, opp):
    """The move (0..3) of the player at ``me`` that is best one turn deep; -1 if none.

    One turn of :func:`atlas.games.tron.bots.voronoi.search_root` on the chamber score: my
    move, the opponent's best reply, then the chamber evaluation, so a square the
    opponent can also enter counts as the draw it may be.
    """
    s.counter[0] = 0
    s.counter[1] = 0
    return search_root(s, me, opp, 1)


@numba.njit(cache=True)
def rollout_value(
    grid, me, opp, first, off, w2, ibuf, fbuf, max_turns, stop
):  # pragma: no cover - numba
    """Play my move ``first`` (0..3), then both players one step deep, to separation.

    Returns the value for me: the separated chamber score, ``+-WIN`` for a crash (less
    the turns it took), 0 for a draw, or the last score after ``max_turns`` turns or at
    ``stop`` (a ``perf_counter`` time).  The board is restored.  O(turns x 18 evaluations).
    """
    trail = ibuf[R_TRAIL]
    turn_search = _one_turn(grid, off, w2, ibuf, fbuf)
    n_trail = 0
    value = 0.0
    turn = 0
    mk = first
    while True:
        ok = _one_step(turn_search, opp, me)
        if mk < 0 or grid[me + off[mk]] == 0:
            value = draw_value(MODE_CHAMBERS) if ok < 0 else -WIN + turn
            break
        if ok < 0:
            value = WIN - turn
            break
        t = me + off[mk]
        s = opp + off[ok]
        if t == s:
            value = draw_value(MODE_CHAMBERS)
            break
        grid[t] = 0
        grid[s] = 0
        trail[n_trail] = t
        trail[n_trail + 1] = s
        n_trail += 2
        me = t
        opp = s
        turn += 1
        v, touching = chambers_score(grid, me, opp, off, w2, ibuf, fbuf)
        value = v
        if touching == 0 or turn >= max_turns or clock() > stop:
            break
        mk = _one_step(turn_search, me, opp)
    for i in range(n_trail):
        grid[trail[i]] = 1
    return value


_ROLLOUT_WARM: list[bool] = []


class ChambersBot(TronBot):
    """Alpha-beta on the tree of chambers nearby; forward rollouts when far apart."""

    name = "chambers"
    #: Seconds of one core to compile its kernels from an empty cache (measured alone, the
    #: game's rules included: ``warm_bots`` of this bot only).
    compile_seconds = 7.2

    def warm_up(self) -> None:
        """Load the kernels, the rollout's too (the search may leave it unused).

        The far-apart warm-up board may leave one move to roll out, or none, so the
        rollout kernel is called here once; loading it during a game would cost a
        move's time several times over.
        """
        super().warm_up()
        if _ROLLOUT_WARM or "far" not in warm_phases(WARM_PARTS, apart=True):
            return  # loaded, or the far-apart play is another process's to warm
        blocked = np.zeros((3, 12), dtype=bool)
        grid, me, opp = board_from_state(
            _Board(blocked, np.array([[1, 0], [1, 11]], np.int32)), 0
        )
        ws = Workspace(3, 12)
        rollout_value(
            grid, me, opp, 1, ws.off, ws.w2, ws.ibuf, ws.fbuf, ws.n, clock_now() + 60.0
        )
        _ROLLOUT_WARM.append(True)

    def choose(self, grid: np.ndarray, me: int, opp: int, ws: Workspace, stop: float) -> int:
        dist = int(head_distance(grid, me, opp, ws.off, ws.ibuf))
        if FAR_STEPS < dist < INF and self.fixed_depth <= 0:
            # A short search first: moves it finds clearly worse get no rollout.
            now = clock_now()
            k0, info = iterative_deepening(
                grid,
                me,
                opp,
                ws,
                MODE_CHAMBERS,
                now + SEARCH_SHARE * (stop - now),
                partial=True,
            )
            moves = [k for k in range(4) if grid[me + ws.off[k]] != 0]
            if k0 >= 0:
                top = max(info["scores"])
                moves = [k for k in moves if info["scores"][k] >= top - ROLLOUT_MARGIN]
                if len(moves) == 1:
                    self.last_info = info
                    return moves[0] + 1
            best, best_v = -1, -np.inf
            for i, k in enumerate(moves):
                # Share what is left of the time between the remaining rollouts.
                now = clock_now()
                until = now + (stop - now) / (len(moves) - i)
                v = float(
                    rollout_value(
                        grid, me, opp, k, ws.off, ws.w2, ws.ibuf, ws.fbuf, ws.n, until
                    )
                )
                if v > best_v:
                    best, best_v = k, v
            self.last_info = {
                "depth": info["depth"],
                "nodes": info["nodes"],
                "rollout": best_v,
                "rollouts": len(moves),
            }
            return best + 1 if best >= 0 else 1
        k, info = iterative_deepening(
            grid, me, opp, ws, MODE_CHAMBERS, stop, partial=True, fixed_depth=self.fixed_depth
        )
        self.last_info = info
        return k + 1 if k >= 0 else 1
