"""``apex``: the strongest built-in tron bot, measured against the 2010 winner's program.

``frontline``'s evaluation (the post-mortem's ``K1*(N1-N2) + K2*(E1-E2)`` along each
player's best path through the tree of chambers of its Voronoi territory, with the
checkerboard bound and the battlefront rule) and its separated endgame, in a faster and
better-managed search:

* the chamber evaluation in integer arithmetic (:func:`chamber_score`, exactly 1000
  times ``frontline``'s values, its depth-first search about twice as fast; the
  evaluation is most of the search's time);
* iterative-deepening alpha-beta whose move ordering keeps, for every position it has
  searched, the move that was best there (a table indexed by a Zobrist key of the
  moves since the root), then the last move that cut off at the same height of the
  tree (killer); the tree grows about 2.4 times a turn, close to the minimal tree;
* when the clock stops a depth, the moves it finished compete with the others' values
  one depth less, so a previous best found failing is not kept (:func:`_partial_choice`);
* draws the opponent can force (it may step onto my square whatever I do) leave
  several moves equal; the rest of the move then goes to a search of those moves
  against an opponent that does not seek the collision, and the best there is played
  (:func:`apex_deepening`);
* 80 % of a 0.1 s move (93 % of 1 s), against ``frontline``'s 65 % (88 %).

Against the 2010 contest winner's own program, in the official engine's rules, at
equal time: ``benchmarks/tron_outside.py`` and the figures in ``docs/bots.md``.

References
----------
.. [1] A. Sloane (a1k0n), "Google AI Challenge post-mortem", 2010 (the contest
   winner's write-up).
.. [2] A. L. Zobrist, "A new hashing method with application for game playing",
   Technical report 88, University of Wisconsin, 1970.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....bots.search import clock_now, no_deadline, pv_moves
from ....jit import numba
from .common import (
    SEAT_FAIR,
    Workspace,
    safety_deadline,
    voronoi_touching,
)
from .frontline import FrontlineBot
from .tree import chamber_walk
from .voronoi import TurnSearch, tron_pv, turn_context, turn_search

__all__ = [
    "TT_BITS",
    "K1",
    "K2",
    "CELL",
    "WIN",
    "DRAW",
    "EVAL",
    "SearchTables",
    "chamber_score",
    "apex_evaluate",
    "apex_search_root",
    "apex_deepening",
    "ApexBot",
]

#: log2 of the entries of the move-ordering table.
TT_BITS = 18
#: Weights of nodes and edges, in thousandths (the post-mortem's 0.055 and 0.194): the
#: evaluation counts in integers.
K1 = 55
K2 = 194
#: Value of one cell of certain advantage once the players are separated.
CELL = 1_000_000
#: Value of a won position (less the plies it takes).
WIN = 1.0e10
#: A draw is scored as half a cell and its edges behind (as ``frontline``).
DRAW = -0.5 * (K1 + 3 * K2)
#: Evaluation parameters: node weight, edge weight, battlefront rule (0/1), checkerboard
#: bound (0/1), value of a cell once separated.
EVAL = np.array([K1, K2, 1, 1, CELL], dtype=np.int64)
#: Below any chamber's value (integer).
_NEG = -(1 << 50)
#: Share of a move's budget kept back, its minimum and maximum (seconds): at 0.1 s a
#: move ``apex`` thinks 80 ms, at 1 s 0.93 s, served to the contest engine (0.9 s of
#: its second) 0.83 s.  With 15 ms kept at 0.1 s, a rare move came late on a loaded
#: machine; at 1 s the latest searching move came a little after the stop
#: (``docs/bots.md`` gives the measured figures).
SAFETY_SHARE = 0.12
SAFETY_MIN = 0.02
SAFETY_MAX = 0.07


class SearchTables:
    """Zobrist keys of a board size and the move-ordering table (kept between moves).

    Attributes
    ----------
    zob : ndarray of uint64, shape (3, n)
        Random keys of a cell entered by me, entered by the opponent, and chosen by me
        while the opponent's reply is pending.
    tt_key : ndarray of uint64
        Key of the position each table entry describes.
    tt_move : ndarray of int64
        Best direction (0..3) found there.
    bbuf : ndarray of int64, shape (3, n)
        Scratch rows of :func:`chamber_score` (edges, best quiet and front child values).
    """

    def __init__(self, n: int, bits: int = TT_BITS) -> None:
        rng = np.random.default_rng(20100227 + n)
        self.zob = rng.integers(1, np.iinfo(np.int64).max, size=(3, n), dtype=np.int64).astype(
            np.uint64
        )
        self.tt_key = np.zeros(1 << bits, dtype=np.uint64)
        self.tt_move = np.zeros(1 << bits, dtype=np.int64)
        self.bbuf = np.zeros((3, n), dtype=np.int64)

    def clear(self) -> None:
        """Forget every entry (the keys count moves from the root of one search)."""
        self.tt_key[:] = 0


@numba.njit(cache=True)
def chamber_score(
    grid, root, opp, off, w2, ibuf, bbuf, k1, k2, use_parity, use_front, swap
):  # pragma: no cover - numba
    """:func:`atlas.games.tron.bots.tree.chamber_walk` in integer arithmetic (``bbuf``, weights
    ``k1``, ``k2`` as integers): with ``k1 = 55, k2 = 194`` exactly 1000 times
    ``chamber_value`` with 0.055 and 0.194, and about twice as fast (integer rows), and
    this evaluation is most of the search's time."""
    return chamber_walk(
        grid, root, opp, off, w2, ibuf, bbuf, k1, k2, use_parity, use_front, swap, _NEG
    )


@numba.njit(cache=True)
def apex_evaluate(grid, me, opp, off, w2, ibuf, bbuf, ev):
    """Value of a position for the player at ``me`` (both moves of the turn applied).

    While the players touch, ``chamber_score`` of mine minus the opponent's with the
    weights of ``ev`` (:data:`EVAL`); once separated, ``ev[4]`` times the difference of
    the checkerboard-bounded chamber estimates of the two rooms.  O(board).
    """
    touching = voronoi_touching(grid, me, opp, off, ibuf)[2]
    if touching == 0:
        va = chamber_score(grid, me, opp, off, w2, ibuf, bbuf, 1, 0, True, False, 0)
        vb = chamber_score(grid, opp, me, off, w2, ibuf, bbuf, 1, 0, True, False, 1)
        return float(ev[4] * (va - vb))
    front = ev[2] != 0
    parity = ev[3] != 0
    va = chamber_score(grid, me, opp, off, w2, ibuf, bbuf, ev[0], ev[1], parity, front, 0)
    vb = chamber_score(grid, opp, me, off, w2, ibuf, bbuf, ev[0], ev[1], parity, front, 1)
    return float(va - vb)


@numba.njit(cache=True)
def _order(s, base, key, kill):
    """Directions of a frame in search order: the table's move, the killer, the rest."""
    idx = key & np.uint64(s.tt_key.shape[0] - 1)
    first = kill
    if s.tt_key[idx] == key:
        first = s.tt_move[idx]
    f_ord = s.ford
    f_ord[base] = first
    n = 1
    if kill != first:
        f_ord[base + 1] = kill
        n = 2
    for d in range(4):
        if d != first and d != kill:
            f_ord[base + n] = d
            n += 1


#: One alpha-beta search of ``depth`` turns (:func:`atlas.games.tron.bots.voronoi.turn_search`:
#: ``apex_search_root(s, me, opp, depth)``): the game tree and values of
#: :func:`atlas.games.tron.bots.voronoi.search_root`, on :func:`apex_evaluate` (``s.ev`` its
#: weights, ``s.acc`` the integer rows of :class:`SearchTables`), with the table's
#: best move of each position tried first (its keys and table in ``s``).  With
#: ``s.avoid`` the opponent never steps onto my target square unless it has no other
#: move (then it is a draw): the game as it goes against an opponent that does not seek
#: collisions, used to choose among moves the usual search finds equal.
apex_search_root = turn_search(f"{__name__}.apex_search_root", apex_evaluate, _order, True, WIN)


def _context(
    grid: np.ndarray,
    ws: Workspace,
    tables: SearchTables,
    ev: np.ndarray,
    draw: float,
    depth: int,
    seat: int = SEAT_FAIR,
    first: bool = False,
) -> TurnSearch:
    """The context of :data:`apex_search_root` up to ``depth`` turns, with the table,
    turns resolved by ``seat`` (:func:`~atlas.games.tron.bots.common.turn_seat`)."""
    s = turn_context(grid, ws, tables.bbuf, ev, draw, depth, seat, first)
    return s._replace(zob=tables.zob, tt_key=tables.tt_key, tt_move=tables.tt_move)


def apex_deepening(
    grid: np.ndarray,
    me: int,
    opp: int,
    ws: Workspace,
    tables: SearchTables,
    stop: float,
    ev: np.ndarray = EVAL,
    max_depth: int = 64,
    fixed_depth: int = 0,
    draw: float = DRAW,
    node_limit: int = 0,
    tie_break: bool = True,
    seat: int = SEAT_FAIR,
    first: bool = False,
) -> tuple[int, dict]:
    """Deepen :func:`apex_search_root` until ``stop`` (a :func:`~atlas.bots.search.clock_now` time).

    With ``fixed_depth > 0`` the search goes to exactly that depth (or the end of the
    game) whatever the clock.  With ``node_limit > 0`` it stops after that many nodes
    (max frames, all depths together), as if the clock had run out.  When a depth is
    still running at ``stop``, the root moves it finished compete with the others'
    values at the last finished depth (:func:`_partial_choice`): the previous best is
    searched first, so a move that beats it is a real improvement, and a previous best
    that falls far below another move is not kept.

    Draws the opponent can force: when two depths in a row end on a draw (the opponent
    may step onto my square whatever I do) and two or more moves share that value, the
    usual search cannot tell them apart.  With ``tie_break`` the rest of the time goes
    to a search of those moves against an opponent that does not seek the collision
    (:func:`apex_search_root` with ``avoid``), and the move best there is played: it
    is no worse if the opponent does collide, and better if it does not.  (Under
    ``fixed_depth`` the tie-break search goes as deep as the main one.)

    Returns the direction (0..3) and statistics (depth, nodes, seconds, value, partial,
    scores, ``tie_break``: the depth of that search, 0 if none, and ``pv``:
    :func:`~atlas.games.tron.bots.voronoi.tron_pv`, the main search's line).
    """
    if fixed_depth > 0:
        stop, max_depth = no_deadline(), fixed_depth
    tables.clear()
    search = _context(grid, ws, tables, ev, draw, max_depth, seat, first)._replace(stop=stop)
    tie_top = max_depth  # the tie-break search's deepest, without a fixed depth
    max_depth = min(max_depth, int(np.count_nonzero(grid)) + 1)
    scores, counter = search.scores, search.counter
    best, depth_done, total_nodes, value, used_partial = -1, 0, 0, 0.0, 0
    last_scores = [-np.inf] * 4
    line: list[int] = []
    root_row = search.pv.shape[0] - 1
    t_start = clock_now()
    draw_streak = 0
    ties: list[int] = []
    for depth in range(1, max_depth + 1):
        now = clock_now()
        if stop - now <= 0:
            break
        counter[:] = 0
        limit = node_limit - total_nodes if node_limit > 0 else 1 << 60
        k = apex_search_root(search._replace(limit=limit), me, opp, depth)
        spent = clock_now() - now
        total_nodes += int(counter[0])
        if counter[1]:
            if k >= 0 and scores[k] > -WIN * 2.0:
                line = pv_moves(search.pv, root_row)
                k = _partial_choice(scores, last_scores, int(k), depth_done)
                value = float(scores[k]) if scores[k] > -np.inf else last_scores[k]
                best, used_partial = k, depth
            break
        if k < 0:
            break
        best, depth_done, value = int(k), depth, float(scores[k])
        last_scores = [float(x) for x in scores]
        line = pv_moves(search.pv, root_row)
        search.order[:] = np.argsort(-scores, kind="stable")
        if abs(value) >= WIN / 2:
            break  # the outcome is decided
        draw_streak = draw_streak + 1 if value == draw else 0
        ties = [int(d) for d in search.order if scores[d] == draw]
        if tie_break and draw_streak >= 2 and len(ties) >= 2 and fixed_depth == 0:
            break  # the rest of the time goes to the tie-break
        if spent > stop - clock_now():
            break  # not even the previous best would finish
    tie_depth = 0
    if tie_break and draw_streak >= 2 and len(ties) >= 2 and best >= 0:
        top = depth_done if fixed_depth > 0 else tie_top
        best, tie_depth, total_nodes = _break_tie(
            search, me, opp, top, ties, best, total_nodes, node_limit
        )
    return best, {
        "depth": depth_done,
        "nodes": total_nodes,
        "seconds": clock_now() - t_start,
        "value": value,
        "partial": used_partial,
        "scores": last_scores,
        "tie_break": tie_depth,
        "pv": tron_pv(line, best),
    }


#: How far (evaluation units, about a cell) the previous best move must fall, in an
#: unfinished depth, below another move's value at the last finished depth for that
#: move to be played instead.
FAIL_LOW_MARGIN = 1000.0


def _partial_choice(
    scores: np.ndarray, last_scores: list[float], k: int, depth_done: int
) -> int:
    """The move to play when the clock stops a depth after some root moves finished.

    Those moves' new values compete with the others' values at the last finished depth:
    the previous best is searched first, and when its value falls (it "fails low") far
    below what another move was worth one depth less, that move is played rather than
    the one just found lacking.  Without a finished depth, ``k``.
    """
    if depth_done == 0:
        return k
    best, best_v = k, float(scores[k])
    for d in range(4):
        if scores[d] > -np.inf or last_scores[d] == -np.inf:
            continue  # searched at the new depth, or illegal
        if last_scores[d] > best_v + FAIL_LOW_MARGIN:
            best, best_v = d, float(last_scores[d])
    return best


def _break_tie(
    search: TurnSearch,
    me: int,
    opp: int,
    top: int,
    ties: list[int],
    best: int,
    total_nodes: int,
    node_limit: int,
) -> tuple[int, int, int]:
    """The tie-break search of :func:`apex_deepening`: ``(move, depth, total nodes)``.

    Deepens the ``avoid`` search over the tied moves (the main search's best first)
    until the clock's stop (or to depth ``top``).  A move keeps the draw against every
    opponent only if its value there is at least the draw; the best of those is
    played, else the main search's choice.
    """
    ties = [best] + [d for d in ties if d != best]
    order = np.array(ties + [d for d in range(4) if d not in ties], dtype=np.int64)
    scores = np.zeros(4, dtype=np.float64)
    counter = np.zeros(2, dtype=np.int64)
    search = search._replace(order=order, n_root=len(ties), avoid=True)
    search = search._replace(scores=scores, counter=counter)
    chosen, tie_depth = best, 0
    for depth in range(1, top + 1):
        if clock_now() >= search.stop:
            break
        counter[:] = 0
        limit = node_limit - total_nodes if node_limit > 0 else 1 << 60
        apex_search_root(search._replace(limit=limit), me, opp, depth)
        total_nodes += int(counter[0])
        if counter[1]:
            break
        tie_depth = depth
        k = max(ties, key=lambda d: scores[d])  # the first of equals: the main best
        chosen = k if scores[k] >= search.draw else best
        if abs(scores[k]) >= WIN / 2:
            break
        order[: len(ties)] = sorted(ties, key=lambda d: -scores[d])
    return chosen, tie_depth, total_nodes


class ApexBot(FrontlineBot):
    """``frontline``'s evaluation and endgame in a search ordered by a move table."""

    name = "apex"
    #: Seconds of one core to compile its kernels from an empty cache (measured alone, the
    #: game's rules included: ``warm_bots`` of this bot only).
    compile_seconds = 8.4
    #: Value of a draw (collision, or both crashing) in the evaluation's units.
    draw = DRAW
    #: Evaluation parameters (:data:`EVAL`).
    ev = EVAL
    #: When positive, the search stops after this many nodes a move (the clock still
    #: applies): a budget that does not depend on the machine's speed.
    node_limit = 0
    #: Choose among moves the opponent can hold to a draw by how they fare when it does
    #: not collide (:func:`apex_deepening`).
    tie_break = True
    #: Search the turn as the game resolves it: under ``compat="official"`` the 2010
    #: engine's order, the first seat moving first
    #: (:func:`~atlas.games.tron.bots.common.turn_seat`).
    models_order = True

    def __init__(self, game: str = "tron", seed: int = 0) -> None:
        self._tables: SearchTables | None = None
        super().__init__(game, seed)

    def stop_time(self, deadline: float, now: float) -> float:
        """Think until :data:`SAFETY_SHARE` of the budget is left (20 ms to 70 ms)."""
        return safety_deadline(deadline, now, SAFETY_SHARE, SAFETY_MIN, SAFETY_MAX)

    def start(self, game_map: Any, params: Any, player: int) -> None:
        """Allocate the move table for the map's size before the first move's clock."""
        h, w = np.asarray(game_map.blocked).shape
        self.tables((h + 2) * (w + 2))

    def tables(self, n: int) -> SearchTables:
        """The move table and scratch rows of a padded board of ``n`` cells."""
        t = self._tables
        if t is None or t.zob.shape[1] != n:
            t = self._tables = SearchTables(n)
        return t

    def search(
        self, grid: np.ndarray, me: int, opp: int, ws: Workspace, stop: float
    ) -> tuple[int, dict[str, Any]]:
        """:func:`apex_deepening` with this bot's table and settings."""
        return apex_deepening(
            grid,
            me,
            opp,
            ws,
            self.tables(ws.n),
            stop,
            ev=self.ev,
            fixed_depth=self.fixed_depth,
            draw=self.draw,
            node_limit=self.node_limit,
            tie_break=self.tie_break,
            seat=self.seat,
            first=self.first,
        )
