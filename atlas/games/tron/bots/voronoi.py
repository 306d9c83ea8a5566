"""``voronoi``: alpha-beta on the Voronoi territory; the search the stronger bots share.

The search treats a simultaneous turn the usual contest way: a max node chooses my move,
a min node then chooses the opponent's reply knowing it, and the position is evaluated
only after both moves (so neither player profits from seeing the other).  Collisions
follow atlas's fair rules: both heads are blocked cells, so entering the square the
opponent is leaving crashes, swapping crashes both (a draw), and choosing the same
square is a draw.

Evaluations (``mode``):

``MODE_VORONOI``
    Cells each player reaches first plus their open neighbours (the post-mortem's
    territory bonus for edges, which makes the bot hug walls when all else is equal);
    once the players are separated, ``1000 * (own room - opponent's room)``.
``MODE_CHAMBERS``
    The tree-of-chambers estimate of each player's fillable territory (``chambers``),
    its cells plus half their open neighbours along the best chamber path.
``MODE_FRONTLINE``
    ``K1*(N1-N2) + K2*(E1-E2)`` along each player's best chamber path, with the
    checkerboard bound and the battlefront rule; endgame value from the parity-bounded
    chamber estimate (``frontline``).

Iterative deepening runs one complete search per depth; an unfinished depth (node budget
exhausted, the budget being derived from the deadline and the measured speed) is thrown
away and the last complete one is played.

References
----------
.. [1] A. Sloane (a1k0n), "Google AI Challenge post-mortem", 2010.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ....bots.search import clock, clock_now, new_pv, no_deadline, pv_moves, pv_push
from ....jit import LazyKernel, built, numba
from .common import (
    INF,
    R_MARK,
    SEAT_FAIR,
    SEAT_FIRST,
    SEAT_SECOND,
    TronBot,
    Workspace,
    head_distance,
    voronoi_counts,
    voronoi_touching,
)
from .fill import filler_move
from .tree import chamber_value

__all__ = [
    "MODE_VORONOI",
    "MODE_CHAMBERS",
    "MODE_FRONTLINE",
    "WIN",
    "SEAT_FAIR",
    "SEAT_FIRST",
    "SEAT_SECOND",
    "K1",
    "K2",
    "DRAW_CELLS",
    "draw_value",
    "evaluate",
    "search_root",
    "iterative_deepening",
    "tron_pv",
    "fill_move",
    "VoronoiBot",
]

MODE_VORONOI = 0
MODE_CHAMBERS = 1
MODE_FRONTLINE = 2
#: Value of a won position (minus the plies it takes, so quicker wins are preferred).
WIN = 1.0e7
#: Weights of nodes and edges in the frontline evaluation (the post-mortem's tuned values).
K1 = 0.055
K2 = 0.194
#: Weight of the open neighbours of the chamber cells in the ``chambers`` evaluation: a
#: tie-break that makes it fill along walls, like the Voronoi bot's edge bonus.
CHAMBERS_K2 = 0.5
#: Weight of a certain endgame advantage of one cell.
ENDGAME = 1000.0


#: A draw is scored as being this many cells behind (in each evaluation's units): a bot
#: that is behind takes a collision the opponent cannot avoid, one that is ahead (or
#: even) avoids it.
DRAW_CELLS = 0.5


@numba.njit(cache=True)
def draw_value(mode):
    """Value of a draw (collision or both crashing) under evaluation ``mode``."""
    if mode == MODE_VORONOI:
        return -DRAW_CELLS * 4.0  # a cell and its edges
    if mode == MODE_CHAMBERS:
        return -DRAW_CELLS * (1.0 + 3.0 * CHAMBERS_K2)
    return -DRAW_CELLS * (K1 + 3.0 * K2)


@numba.njit(cache=True)
def evaluate(grid, me, opp, off, w2, ibuf, fbuf, mode):
    """Value of the position for the player at ``me`` (both moves of the turn applied)."""
    if mode == MODE_VORONOI:
        na, nb, ea, eb, touching = voronoi_counts(grid, me, opp, off, ibuf)
        if touching == 0:
            return ENDGAME * (na - nb)
        return float((na + ea) - (nb + eb))
    na, nb, touching = voronoi_touching(grid, me, opp, off, ibuf)
    if touching == 0:
        parity = mode == MODE_FRONTLINE
        va = chamber_value(grid, me, opp, off, w2, ibuf, fbuf, 1.0, 0.0, parity, False, 0)
        vb = chamber_value(grid, opp, me, off, w2, ibuf, fbuf, 1.0, 0.0, parity, False, 1)
        return ENDGAME * (va - vb)
    if mode == MODE_CHAMBERS:
        va = chamber_value(
            grid, me, opp, off, w2, ibuf, fbuf, 1.0, CHAMBERS_K2, False, False, 0
        )
        vb = chamber_value(
            grid, opp, me, off, w2, ibuf, fbuf, 1.0, CHAMBERS_K2, False, False, 1
        )
        return va - vb
    va = chamber_value(grid, me, opp, off, w2, ibuf, fbuf, K1, K2, True, True, 0)
    vb = chamber_value(grid, opp, me, off, w2, ibuf, fbuf, K1, K2, True, True, 1)
    return va - vb


#: Deepest search (turns); each turn is a max and a min frame on the explicit stack.
MAX_DEPTH = 96
#: Rows of a :class:`TurnSearch`'s integer frame array.
_ME, _OPP, _T, _S, _DEPTH, _NEXT, _ANY, _COLL, _BEST = range(9)
#: Rows of its float frame array.
_ALPHA, _BETA, _VAL = range(3)


class TurnSearch(NamedTuple):
    """The context of a turn search (:func:`turn_search`).

    The padded board (moves are made on it and taken back), the move offsets, the
    padded width, the workspace rows and the evaluation's scratch rows (``acc``: floats
    for :func:`evaluate`, integers for ``apex``) and parameters (``ev``: a mode, or
    ``apex``'s weights), the value of a draw; my root moves in ``order`` (the first
    ``n_root`` searched), ``avoid`` (an opponent that does not seek collisions), the
    turn's resolution (``seat``: :data:`SEAT_FAIR`, :data:`SEAT_FIRST` or
    :data:`SEAT_SECOND`; ``first``: the root is the game's first turn), each
    root move's value (``scores``); ``counter``: max frames so far, and 1 once aborted
    (past ``limit`` frames or the clock's ``stop``); the killer direction of each stack
    depth; Zobrist keys and the move table (``apex``; unread by an unkeyed search);
    the frames: ``fi`` (rows ``_ME`` .. ``_BEST``), ``fk`` (keys), ``ford`` (each
    frame's four directions in search order) and ``ff`` (alpha, beta, value), room for
    ``2 * depth + 2`` frames; ``pv``, the principal variation below each frame and, in
    its last row, the root's (a :func:`~atlas.bots.search.new_pv` table, directions).
    """

    grid: np.ndarray
    off: np.ndarray
    w2: int
    ibuf: np.ndarray
    acc: np.ndarray
    ev: Any
    draw: float
    order: np.ndarray
    n_root: int
    avoid: bool
    seat: int
    first: bool
    scores: np.ndarray
    counter: np.ndarray
    limit: int
    stop: float
    killer: np.ndarray
    zob: np.ndarray
    tt_key: np.ndarray
    tt_move: np.ndarray
    fi: np.ndarray
    fk: np.ndarray
    ford: np.ndarray
    ff: np.ndarray
    pv: np.ndarray


def turn_context(
    grid: np.ndarray,
    ws: Workspace,
    acc: np.ndarray,
    ev: Any,
    draw: float,
    max_depth: int,
    seat: int = SEAT_FAIR,
    first: bool = False,
) -> TurnSearch:
    """A :class:`TurnSearch` for searches up to ``max_depth`` turns, unkeyed (the
    table's arrays empty: ``apex`` puts its own in), root moves in direction order,
    turns resolved by ``seat`` (:data:`SEAT_FAIR` unless told)."""
    nf = 2 * max_depth + 2
    none = np.zeros((3, 1), dtype=np.uint64)
    return TurnSearch(
        grid,
        ws.off,
        ws.w2,
        ws.ibuf,
        acc,
        ev,
        float(draw),
        np.arange(4, dtype=np.int64),
        4,
        False,
        int(seat),
        bool(first),
        np.zeros(4, dtype=np.float64),
        np.zeros(2, dtype=np.int64),
        1 << 60,
        np.inf,
        np.zeros(nf, dtype=np.int64),
        none,
        none[0],
        np.zeros(1, dtype=np.int64),
        np.zeros((9, nf), dtype=np.int64),
        np.zeros(nf, dtype=np.uint64),
        np.zeros(4 * nf, dtype=np.int64),
        np.zeros((3, nf), dtype=np.float64),
        new_pv(nf - 1),
    )


def turn_search(
    name: str, evaluate: LazyKernel, order: LazyKernel, keyed: bool, win: float
) -> LazyKernel:
    """The alpha-beta search of the tron bots over a turn at a time, named ``name``:
    ``search(s, me, opp, depth) -> direction`` (0..3, -1 when no move is legal), ``s`` a
    :class:`TurnSearch`.

    Max frames choose my target; min frames, knowing it (not yet on the board), choose
    the opponent's reply, then both cells are blocked and the next max frame searched; a
    shared target is a draw (with ``s.avoid`` the opponent takes it only when it has no
    other move).  With ``s.seat`` :data:`SEAT_FIRST`, after the game's first turn, my
    target may be the opponent's square (it is leaving it: a swap is its crash); with
    :data:`SEAT_SECOND` the opponent's may be mine.
    ``evaluate(grid, me, opp, off, w2, ibuf, acc, ev)`` values the leaves
    (both moves of the turn applied) for the player at ``me``; ``order(s, base, key,
    kill)`` writes a frame's four directions in search order to ``s.ford[base:base +
    4]`` (``kill``: the stack depth's killer; ``key``: the frame's Zobrist key, 0 when
    not ``keyed``).  With ``keyed`` each frame keeps the key of the moves since the root
    (:class:`atlas.games.tron.bots.apex.SearchTables`) and stores its best direction in the
    move table.  A won position is worth ``win`` less the turns it takes.
    ``s.scores`` gets each root move's value (a bound for refuted moves, ``-inf`` if
    illegal); ``s.counter[0]`` counts max frames, ``s.counter[1]`` is set
    when ``s.limit`` frames or the clock's ``s.stop`` is passed (the result must then
    be thrown away, except root moves searched completely).

    Notes
    -----
    The recursion is an explicit stack of frames, preallocated in ``s``: the kernel
    allocates nothing and runs without numba's reference counting.  Cost O(b^(2 depth))
    evaluations in the worst case, about the square root of that with good ordering.
    """

    def search(s, me, opp, depth):  # pragma: no cover - numba
        grid, off, killer, counter, scores = s.grid, s.off, s.killer, s.counter, s.scores
        zob, draw, avoid = s.zob, s.draw, s.avoid
        f_me, f_opp, f_t, f_s = s.fi[_ME], s.fi[_OPP], s.fi[_T], s.fi[_S]
        f_depth, f_next, f_any = s.fi[_DEPTH], s.fi[_NEXT], s.fi[_ANY]
        f_coll, f_best, f_key, f_ord = s.fi[_COLL], s.fi[_BEST], s.fk, s.ford
        f_alpha, f_beta, f_val = s.ff[_ALPHA], s.ff[_BETA], s.ff[_VAL]
        best = -1
        best_v = -3.0 * win
        for i in range(4):
            scores[i] = -np.inf
        root_key = zob[0, me] ^ zob[1, opp] if keyed else np.uint64(0)
        pv = s.pv
        root_row = pv.shape[0] - 1
        pv[root_row, 0] = 0
        seat = s.seat
        for i in range(s.n_root):
            k = s.order[i]
            t = me + off[k]
            if grid[t] == 0 and not (t == opp and seat == SEAT_FIRST and not s.first):
                continue
            # Frame 0: the min frame of my root move k (frames alternate min, max, ...).
            sp = 0
            f_me[0] = me
            f_opp[0] = opp
            f_t[0] = t
            f_s[0] = -1
            f_depth[0] = depth
            f_alpha[0] = best_v
            f_beta[0] = 3.0 * win
            f_val[0] = 2.0 * win
            f_next[0] = 0
            f_any[0] = 0
            f_coll[0] = 0
            f_best[0] = -1
            pv[0, 0] = 0
            f_key[0] = root_key ^ zob[2, t] if keyed else np.uint64(0)
            order(s, 0, f_key[0], killer[0])
            have_ret = False
            ret = 0.0
            result = 0.0
            while True:
                if counter[1]:
                    # Aborted: take every move back off the board.
                    while sp >= 0:
                        if (sp & 1) == 0 and f_next[sp] > 0 and f_s[sp] >= 0:
                            _take_back(grid, f_t[sp], f_s[sp], f_me[sp], f_opp[sp])
                            f_s[sp] = -1
                        sp -= 1
                    return best
                done = False
                value = 0.0
                base = 4 * sp
                if (sp & 1) == 0:
                    # Min frame: the opponent answers my move to f_t[sp].
                    tt = f_t[sp]
                    oo = f_opp[sp]
                    if have_ret:
                        have_ret = False
                        _take_back(grid, tt, f_s[sp], f_me[sp], oo)
                        f_s[sp] = -1
                        if _improve(s, sp, base, ret, -1.0, f_alpha[sp]):
                            done = True
                            value = ret
                    pushed = False
                    while not done and f_next[sp] < 4:
                        d = f_ord[base + f_next[sp]]
                        ss = oo + off[d]
                        f_next[sp] += 1
                        if grid[ss] == 0 and not (
                            ss == f_me[sp] and seat == SEAT_SECOND and (sp > 0 or not s.first)
                        ):
                            continue
                        if ss == tt and avoid:
                            f_coll[sp] = 1  # taken only if nothing else is left
                            continue
                        f_any[sp] = 1
                        if ss == tt:
                            if draw < f_val[sp]:  # same square: draw
                                f_val[sp] = draw
                                f_best[sp] = d
                                pv_push(pv, sp, d, -1)
                                if draw <= f_alpha[sp]:
                                    done = True
                                    value = draw
                                    killer[sp] = d
                            continue
                        grid[tt] = 0
                        grid[ss] = 0
                        f_s[sp] = ss
                        c = sp + 1
                        f_me[c] = tt
                        f_opp[c] = ss
                        f_depth[c] = f_depth[sp] - 1
                        f_alpha[c] = f_alpha[sp]
                        f_beta[c] = min(f_beta[sp], f_val[sp])
                        f_val[c] = -2.0 * win
                        f_next[c] = -1  # not entered yet
                        f_any[c] = 0
                        f_best[c] = -1
                        pv[c, 0] = 0
                        if keyed:
                            f_key[c] = f_key[sp] ^ zob[2, tt] ^ zob[0, tt] ^ zob[1, ss]
                        sp = c
                        pushed = True
                        break
                    if pushed:
                        continue
                    if not done:
                        ply = sp // 2
                        if f_any[sp]:
                            value = f_val[sp]
                        elif f_coll[sp]:
                            value = draw
                        else:
                            value = win - ply
                        done = True
                    if keyed:
                        _store(f_key[sp], f_best[sp], s.tt_key, s.tt_move)
                else:
                    # Max frame: I choose my next target.
                    if f_next[sp] < 0:
                        f_next[sp] = 0
                        counter[0] += 1
                        if counter[0] > s.limit or (
                            (counter[0] & 15) == 0 and clock() > s.stop
                        ):
                            counter[1] = 1
                            continue
                        if f_depth[sp] == 0:
                            value = evaluate(
                                grid, f_me[sp], f_opp[sp], off, s.w2, s.ibuf, s.acc, s.ev
                            )
                            done = True
                        else:
                            order(s, base, f_key[sp], killer[sp])
                    if not done and have_ret:
                        have_ret = False
                        if _improve(s, sp, base, ret, 1.0, f_beta[sp]):
                            done = True
                            value = ret
                    pushed = False
                    while not done and f_next[sp] < 4:
                        d = f_ord[base + f_next[sp]]
                        tk = f_me[sp] + off[d]
                        f_next[sp] += 1
                        if grid[tk] == 0 and not (tk == f_opp[sp] and seat == SEAT_FIRST):
                            continue
                        f_any[sp] = 1
                        c = sp + 1
                        f_me[c] = f_me[sp]
                        f_opp[c] = f_opp[sp]
                        f_t[c] = tk
                        f_s[c] = -1
                        f_depth[c] = f_depth[sp]
                        f_alpha[c] = max(f_alpha[sp], f_val[sp])
                        f_beta[c] = f_beta[sp]
                        f_val[c] = 2.0 * win
                        f_next[c] = 0
                        f_any[c] = 0
                        f_coll[c] = 0
                        f_best[c] = -1
                        pv[c, 0] = 0
                        if keyed:
                            f_key[c] = f_key[sp] ^ zob[2, tk]
                        order(s, base + 4, f_key[c], killer[c])
                        sp = c
                        pushed = True
                        break
                    if pushed:
                        continue
                    if not done:
                        done = True
                        if f_any[sp]:
                            value = f_val[sp]
                        else:
                            value = draw  # both stuck: draw
                            o = f_opp[sp]
                            for j in range(4):
                                oj = o + off[j]
                                if grid[oj] != 0 or (oj == f_me[sp] and seat == SEAT_SECOND):
                                    value = -win + sp // 2  # I crash, the other lives
                                    break
                    if keyed and f_depth[sp] > 0:
                        _store(f_key[sp], f_best[sp], s.tt_key, s.tt_move)
                # Return ``value`` to the parent frame.
                sp -= 1
                if sp < 0:
                    result = value
                    break
                ret = value
                have_ret = True
            scores[k] = result
            if result > best_v:
                best_v = result
                best = k
                pv_push(pv, root_row, k, 0)
        return best

    return built(search, name, cache=True, _nrt=False)


@numba.njit(cache=True)
def _take_back(grid, t, s, me, opp):  # pragma: no cover - numba
    """Take a turn's two moves (``t`` mine, ``s`` the opponent's, from ``me`` and
    ``opp``) back off the board; a square entered behind its owner (the official
    order's follow) was blocked before and stays so."""
    if t != opp:
        grid[t] = 1
    if s != me:
        grid[s] = 1


@numba.njit(cache=True)
def _improve(s, sp, base, ret, sign, bound):
    """A child's value ``ret`` back in frame ``sp`` of :func:`turn_search`'s stack
    (``sign`` 1.0 a max frame, -1.0 a min frame; ``base`` its directions in ``s.ford``):
    the frame's value and best direction when ``ret`` is better, and ``True`` when it
    reaches ``bound`` (a cut-off; the direction becomes the stack depth's killer)."""
    if sign * ret > sign * s.ff[_VAL, sp]:
        s.ff[_VAL, sp] = ret
        s.fi[_BEST, sp] = s.ford[base + s.fi[_NEXT, sp] - 1]
        pv_push(s.pv, sp, s.fi[_BEST, sp], sp + 1)
        if sign * ret >= sign * bound:
            s.killer[sp] = s.fi[_BEST, sp]
            return True
    return False


@numba.njit(cache=True)
def _store(key, move, tt_key, tt_move):
    """The best direction ``move`` of the position ``key`` into the move table."""
    if move >= 0:
        idx = key & np.uint64(tt_key.shape[0] - 1)
        tt_key[idx] = key
        tt_move[idx] = move


@numba.njit(cache=True)
def _rotation(s, base, key, kill):
    """The killer direction first, then the others clockwise from it."""
    for j in range(4):
        s.ford[base + j] = (kill + j) & 3


#: One alpha-beta search of ``depth`` turns on :func:`evaluate` (:func:`turn_search`:
#: ``search_root(s, me, opp, depth)``, ``s.ev`` the mode), directions tried killer
#: first.
search_root = turn_search(f"{__name__}.search_root", evaluate, _rotation, False, WIN)


def tron_pv(line: list[int], best: int) -> list[int]:
    """The principal variation of the move ``best`` (a direction 0..3) as game moves
    (1..4): mine, the opponent's reply, mine, ...; ``line`` is the search's root row of
    directions, used when it starts with ``best``, else ``[best + 1]``; ``[]`` when no
    move was chosen."""
    if best < 0:
        return []
    return [d + 1 for d in line] if line[:1] == [best] else [best + 1]


def iterative_deepening(
    grid: np.ndarray,
    me: int,
    opp: int,
    ws: Workspace,
    mode: int,
    stop: float,
    max_depth: int = 64,
    node_limit: int = 0,
    partial: bool = False,
    fixed_depth: int = 0,
) -> tuple[int, dict]:
    """Deepen :func:`search_root` until ``stop`` (a :func:`~atlas.bots.search.clock_now` time).

    With ``fixed_depth > 0`` the search goes to exactly that depth (or the end of the
    game) and ignores ``stop``, ``node_limit`` and ``partial``.

    A depth that is still running at ``stop`` (or passes ``node_limit`` nodes, if given)
    is discarded, unless ``partial``: then its best root move is kept when at least one
    root move was searched to the full depth (the previous best is searched first, so
    a move that beats it at the new depth is a real improvement).  Returns the
    direction (0..3) of the last complete depth and a dict of statistics (depth,
    nodes, seconds, value, partial, the root moves' scores of the last complete
    depth: exact for the best, upper bounds for the others, and ``pv``: :func:`tron_pv`).
    """
    if fixed_depth > 0:
        # No deadline: nothing below stops early, but a stop request still ends it.
        stop, max_depth, node_limit, partial = no_deadline(), fixed_depth, 0, False
    # No game lasts longer than there are free cells: deeper searches add nothing.
    max_depth = min(max_depth, int(np.count_nonzero(grid)) + 1)
    search = turn_context(grid, ws, ws.fbuf, mode, draw_value(mode), max_depth)
    search = search._replace(limit=node_limit if node_limit > 0 else 1 << 60, stop=stop)
    scores, counter = search.scores, search.counter
    best = -1
    depth_done = 0
    total_nodes = 0
    t_start = clock_now()
    value = 0.0
    used_partial = 0
    last_scores = [-np.inf] * 4
    line: list[int] = []
    root_row = search.pv.shape[0] - 1
    for depth in range(1, max_depth + 1):
        now = clock_now()
        left = stop - now
        if left <= 0:
            break
        counter[0] = 0
        counter[1] = 0
        k = search_root(search, me, opp, depth)
        spent = clock_now() - now
        total_nodes += int(counter[0])
        if counter[1]:
            if partial and k >= 0 and scores[k] > -WIN * 2.0:
                best = int(k)
                value = float(scores[best])
                used_partial = depth
                line = pv_moves(search.pv, root_row)
            break
        if k < 0:
            break
        best = int(k)
        depth_done = depth
        value = float(scores[best])
        last_scores = [float(x) for x in scores]
        line = pv_moves(search.pv, root_row)
        search.order[:] = np.argsort(-scores, kind="stable")
        if abs(value) >= WIN - 1000:
            break  # the outcome is decided
        # A depth costs about three times the previous one: stop if it cannot finish
        # (with ``partial``, if it cannot even search its first root move, the previous
        # best, which takes about as long as the whole previous depth).
        if spent * (1.0 if partial else 3.0) > stop - clock_now():
            break
    elapsed = clock_now() - t_start
    return best, {
        "depth": depth_done,
        "nodes": total_nodes,
        "seconds": elapsed,
        "value": value,
        "partial": used_partial,
        "scores": last_scores,
        "pv": tron_pv(line, best),
    }


def fill_move(grid: np.ndarray, me: int, ws: Workspace) -> int:
    """The greedy filler's direction (0..3) from ``me``; 0 when stuck."""
    stamp = int(ws.ibuf[R_MARK].max()) + 1
    if stamp > (1 << 30):
        ws.ibuf[R_MARK][:] = 0
        stamp = 1
    k, _ = filler_move(grid, me, ws.off, ws.ibuf, stamp)
    return max(int(k), 0)


class VoronoiBot(TronBot):
    """Alpha-beta on the Voronoi territory with edge bonus and a separated endgame."""

    name = "voronoi"
    #: Seconds of one core to compile its kernels from an empty cache (measured alone, the
    #: game's rules included: ``warm_bots`` of this bot only).
    compile_seconds = 6.1
    mode = MODE_VORONOI

    def choose(self, grid: np.ndarray, me: int, opp: int, ws: Workspace, stop: float) -> int:
        if head_distance(grid, me, opp, ws.off, ws.ibuf) >= INF:
            # Separated: no opponent to outguess, fill the room greedily (post-mortem).
            self.last_info = {"depth": 0, "nodes": 0, "endgame": True}
            return fill_move(grid, me, ws) + 1
        k, info = iterative_deepening(
            grid, me, opp, ws, self.mode, stop, fixed_depth=self.fixed_depth
        )
        self.last_info = info
        return k + 1 if k >= 0 else 1
