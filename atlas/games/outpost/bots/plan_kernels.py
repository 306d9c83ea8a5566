"""Numba kernels of the ``planner`` Outpost bot (:mod:`atlas.games.outpost.bots.planner`).

Conventions of :mod:`atlas.games.outpost.analysis`: padded flat grids of stride ``cols + 2``
(``land_flat`` 1 on land, ``board_flat`` 1 on every board cell), cells as ``int64`` flat
indices, ``int32`` buffers as long as the grids.

* :func:`l1_field` -- Manhattan distance from every board cell to the nearest source
  (a breadth-first search over the whole board, which water does not block);
  :func:`near_field` the same up to a radius.
* :func:`greedy_targets` -- the facility-location step: ``k`` target cells that win the
  most value against fixed enemy distances, chosen greedily (gains kept up to date).
* :func:`assign` -- minimum-cost assignment of rows to distinct columns (Hungarian).
* :func:`simulate_plan` -- our outposts walk to their targets for a few turns, the
  enemies held still; seasons build at home when affordable: how many outposts and
  what territory a plan leads to.
* :func:`robust_supply` -- which of our outposts keep their supply line whatever
  single step every enemy outpost takes (each enemy distance one shorter).
* :func:`evaluate` -- the score of our candidate positions for the coming turn;
  :func:`evaluate_moved` the same for a position one step from the last scored.

References
----------
``outpost-2014-spec.txt`` (the rules); Nemhauser, Wolsey & Fisher (1978), An analysis
of approximations for maximizing submodular set functions (greedy coverage);
Kuhn (1955), The
Hungarian method for the assignment problem.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ....analysis.distances import bfs_blocked_kernel, bfs_kernel
from ....jit import numba
from ..rules.kernels import Position, _box, own, supplied, supply_lines
from .heuristic import _update

__all__ = [
    "l1_field",
    "near_field",
    "greedy_targets",
    "greedy_from",
    "diamond_gain",
    "gain_field",
    "assign",
    "simulate_plan",
    "robust_supply",
    "evaluate",
    "evaluate_toward",
    "evaluate_moved",
    "Lookahead",
    "Weighing",
    "step_toward",
    "FAR",
]

#: Distance standing for "no source" in :func:`l1_field`.
FAR = 1 << 20


@numba.njit(cache=True, inline="always")
def _far(dist):
    """Unreached cells (-1) at :data:`FAR`."""
    for i in range(dist.shape[0]):
        if dist[i] < 0:
            dist[i] = FAR


@numba.njit(cache=True)
def l1_field(board_flat, stride, sources, dist, queue):
    """``dist[i]``: Manhattan distance from board cell ``i`` to the nearest of
    ``sources`` (:data:`FAR` with none; border cells get :data:`FAR`): a breadth-first
    search over the board (:func:`atlas.analysis.distances.bfs_kernel`)."""
    bfs_kernel(board_flat, stride, sources, dist, queue)
    _far(dist)


@numba.njit(cache=True)
def near_field(stride, r, sources, dist):
    """``dist[i]``: Manhattan distance from cell ``i`` to the nearest of ``sources``
    where it is at most ``r``, else ``r + 1`` (the border too): what
    :func:`robust_supply` reads of our distances, one diamond stamped a source, where
    :func:`l1_field` searches the whole board."""
    n = dist.shape[0]
    rows = n // stride - 2
    cols = stride - 2
    dist[:] = r + 1
    for k in range(sources.shape[0]):
        c = sources[k]
        r0 = c // stride
        c0 = c - r0 * stride
        for rr in range(max(1, r0 - r), min(rows, r0 + r) + 1):
            dr = abs(rr - r0)
            span = r - dr
            base = rr * stride
            for cc in range(max(1, c0 - span), min(cols, c0 + span) + 1):
                d = dr + abs(cc - c0)
                if d < dist[base + cc]:
                    dist[base + cc] = d


@numba.njit(cache=True)
def land_field(land_flat, stride, source, dist, queue):
    """``dist[i]``: steps over land from ``source`` to land cell ``i`` (:data:`FAR`
    where unreachable, and on water and the border)."""
    bfs_blocked_kernel(land_flat, stride, source, -1, dist, queue)
    _far(dist)


@numba.njit(cache=True, inline="always")
def _diamond(board_flat, stride, r, value, elim, won, c, claim):
    """The cells within ``r`` of ``c`` nearer than the enemy (distance ``< elim``): marked
    won when ``claim``, else the value of those not yet won (``won`` 0)."""
    rows = board_flat.shape[0] // stride - 2
    cols = stride - 2
    r0 = c // stride
    c0 = c - r0 * stride
    g = 0.0
    for rr in range(max(1, r0 - r), min(rows, r0 + r) + 1):
        dr = abs(rr - r0)
        span = r - dr
        base = rr * stride
        for cc in range(max(1, c0 - span), min(cols, c0 + span) + 1):
            x = base + cc
            if dr + abs(cc - c0) < elim[x]:
                if claim:
                    won[x] = 1
                elif won[x] == 0:
                    g += value[x]
    return g


@numba.njit(cache=True, inline="always")
def diamond_gain(board_flat, stride, r, value, elim, won, c):
    """Value of the cells an outpost on ``c`` would win: within ``r``, not yet won
    (``won`` 0), and nearer than the enemy (distance ``< elim``)."""
    return _diamond(board_flat, stride, r, value, elim, won, c, False)


@numba.njit(cache=True, inline="always")
def _spread(diff, stride, rows, cols, x, reach, v):
    """Add ``v`` to every interior cell within ``reach`` of cell ``x`` through the row
    difference array ``diff`` (one segment a row; :func:`_settle` sums them up)."""
    r0 = x // stride
    c0 = x - r0 * stride
    for rr in range(max(1, r0 - reach), min(rows, r0 + reach) + 1):
        span = reach - abs(rr - r0)
        base = rr * stride
        diff[base + max(1, c0 - span)] += v
        diff[base + min(cols, c0 + span) + 1] -= v


@numba.njit(cache=True, inline="always")
def _settle(diff, field, stride, cols, lo, hi):
    """Add the running sums of ``diff``'s rows ``lo..hi`` to ``field`` and clear them."""
    for rr in range(lo, hi + 1):
        base = rr * stride
        acc = 0.0
        for cc in range(1, cols + 2):
            acc += diff[base + cc]
            diff[base + cc] = 0.0
            if cc <= cols:
                field[base + cc] += acc


@numba.njit(cache=True)
def gain_field(board_flat, stride, r, value, elim, won, field):  # pragma: no cover - compiled
    """``field[c]``: :func:`diamond_gain` of every interior cell ``c`` at once: ``O(1)``
    a cell that counts for all, ``O(r)`` a cell near an enemy, rather than ``O(r^2)``
    a candidate.

    A cell not won at ``elim > r`` counts for every candidate within ``r``.  The first
    candidate of a row adds up one row segment (row prefix sums) per row of its diamond;
    each next one, a step to the east, gains the cells of its diamond's eastern edge and
    loses those of the western edge of the one before, two diagonal segments each, read
    off prefix sums down the diagonals and the anti-diagonals of a grid padded by
    ``r + 1``.  A cell at ``elim <= r`` (near an enemy) counts for the candidates nearer
    than ``elim``: it spreads its value over that smaller diamond through row difference
    arrays.  The sums hold the same terms as :func:`diamond_gain`'s, in another order
    (exact for the planner's values, multiples of one half)."""
    n = board_flat.shape[0]
    rows = n // stride - 2
    cols = stride - 2
    pad = r + 1
    h = rows + 2 * pad + 2
    w = cols + 2 * pad + 2
    # the values that count for all, padded: summed down the diagonals (row - col fixed)
    # and the anti-diagonals (row + col fixed) below
    diag = np.zeros((h, w), np.float64)
    anti = np.zeros((h, w), np.float64)
    # prefix[y + 1] - prefix[x]: the values of the cells x..y of a row that count for all
    prefix = np.zeros(n + 1, np.float64)
    diff = np.zeros(n + 1, np.float64)
    field[:] = 0.0
    for rr in range(1, rows + 1):
        base = rr * stride
        acc = 0.0
        for cc in range(1, cols + 1):
            x = base + cc
            v = value[x]
            if won[x] == 0 and v != 0.0:
                e = elim[x]
                if e > r:
                    acc += v
                    diag[rr + pad, cc + pad] = v
                    anti[rr + pad, cc + pad] = v
                elif e > 0:
                    _spread(diff, stride, rows, cols, x, e - 1, v)
            prefix[x + 1] = acc
    _settle(diff, field, stride, cols, 1, rows)
    for i in range(1, h):
        for j in range(1, w):
            diag[i, j] += diag[i - 1, j - 1]
        for j in range(w - 1):
            anti[i, j] += anti[i - 1, j + 1]
    for r0 in range(1, rows + 1):
        g = 0.0  # the diamond of the row's first cell, a row segment a row
        for rr in range(max(1, r0 - r), min(rows, r0 + r) + 1):
            span = r - abs(rr - r0)
            base = rr * stride
            g += prefix[base + min(cols, 1 + span) + 1] - prefix[base + 1]
        field[r0 * stride + 1] += g
        y = r0 + pad
        for c0 in range(1, cols):
            x = c0 + pad  # from the diamond of (y, x) to that of (y, x + 1):
            # its eastern edge, north half down a diagonal, south half an anti-diagonal
            g += diag[y, x + 1 + r] - diag[y - r - 1, x]
            g += anti[y + r, x + 1] - anti[y, x + r + 1]
            # less the western edge of (y, x), north half up an anti-diagonal, south half
            # down a diagonal
            g -= anti[y, x - r] - anti[y - r - 1, x + 1]
            g -= diag[y + r, x] - diag[y, x - r]
            field[r0 * stride + c0 + 1] += g


@numba.njit(cache=True)
def greedy_targets(
    board_flat, stride, r, value, elim, won, cand, bonus, k, min_gain, out
):  # pragma: no cover - compiled
    """Choose up to ``k`` of the candidate cells ``cand`` greedily by gain
    (:func:`diamond_gain`) plus ``bonus`` per candidate; ``won`` (``uint8``, cells
    already won, updated) is the coverage so far.  Writes the chosen candidates'
    indices into ``out`` and returns how many (it stops when no gain reaches
    ``min_gain``).  Ties go to the earlier candidate.

    Every cell's gain is kept up to date (:func:`gain_field`, once): a pick wins a few
    cells, and each takes its value off the gains of the cells within its reach (a row
    segment each, through a difference array), so a pick costs a scan of the rows' best
    candidates and ``O(r^3)`` updates, where a lazy greedy (Minoux 1978) recounts whole
    plateaus of equal gains, common on open land, at ``O(r^2)`` each."""
    field = np.empty(board_flat.shape[0], np.float64)
    gain_field(board_flat, stride, r, value, elim, won, field)
    return greedy_from(
        field, board_flat, stride, r, value, elim, won, cand, bonus, k, min_gain, out
    )


@numba.njit(cache=True, inline="always")
def _before(key, j, best_key, best):
    """Candidate ``j`` of ``key`` goes before ``best`` of ``best_key`` (-1 for none):
    the greater key, then the earlier candidate."""
    return best < 0 or key > best_key or (key == best_key and j < best)


@numba.njit(cache=True)
def greedy_from(
    field, board_flat, stride, r, value, elim, won, cand, bonus, k, min_gain, out
):  # pragma: no cover - compiled
    """:func:`greedy_targets` from ``field``, the :func:`gain_field` of ``value`` and
    ``won`` (updated in place as cells are won): for a caller that has it already, or
    adds it up from the fields of several values (the field is linear in the value).
    ``cand`` holds distinct cells.

    Each row keeps its best free candidate (the greatest key, then the earliest), so a
    pick scans the rows, not the candidates.  A pick changes the gains within ``2 r`` of
    it alone: that window is settled, and its rows' bests found again, in the window
    unless the best lay inside it."""
    n = board_flat.shape[0]
    rows = n // stride - 2
    cols = stride - 2
    m = cand.shape[0]
    diff = np.zeros(n + 1, np.float64)
    at = np.full(n, -1, np.int64)  # the free candidate on each cell, -1 for none
    for i in range(m):
        at[cand[i]] = i
    row_best = np.full(rows + 2, -1, np.int64)  # each row's best free candidate
    row_key = np.zeros(rows + 2, np.float64)
    for i in range(m):
        rr = cand[i] // stride
        key = field[cand[i]] + bonus[i]
        if _before(key, i, row_key[rr], row_best[rr]):
            row_best[rr] = i
            row_key[rr] = key
    taken = 0
    while taken < k:
        best = -1
        best_key = 0.0
        for rr in range(rows + 2):
            j = row_best[rr]
            if j >= 0 and _before(row_key[rr], j, best_key, best):
                best = j
                best_key = row_key[rr]
        if best < 0 or best_key < min_gain:
            break
        out[taken] = best
        taken += 1
        c = cand[best]
        at[c] = -1
        r0 = c // stride
        c0 = c - r0 * stride
        for rr in range(max(1, r0 - r), min(rows, r0 + r) + 1):
            dr = abs(rr - r0)
            span = r - dr
            base = rr * stride
            for cc in range(max(1, c0 - span), min(cols, c0 + span) + 1):
                x = base + cc
                e = elim[x]
                if dr + abs(cc - c0) < e and won[x] == 0:
                    won[x] = 1
                    if value[x] != 0.0:
                        _spread(diff, stride, rows, cols, x, min(r, e - 1), -value[x])
        # the pick changed the gains within 2r of it alone: settle that window, and find
        # the best of each of its rows again (in the whole row when its best lay inside)
        lo_c = max(1, c0 - 2 * r)
        hi_c = min(cols + 1, c0 + 2 * r + 1)
        for rr in range(max(0, r0 - 2 * r), min(rows + 1, r0 + 2 * r) + 1):
            base = rr * stride
            if 1 <= rr <= rows:
                acc = 0.0
                for x in range(base + lo_c, base + hi_c + 1):
                    acc += diff[x]
                    diff[x] = 0.0
                    field[x] += acc  # at column cols + 1, the border: never read
            bj = row_best[rr]
            bk = row_key[rr]
            lo_x = base + lo_c
            hi_x = base + hi_c
            if bj >= 0 and lo_x <= cand[bj] <= hi_x:
                lo_x = base
                hi_x = base + stride - 1
                bj = -1
            for x in range(lo_x, hi_x + 1):
                j = at[x]
                if j >= 0:
                    key = field[x] + bonus[j]
                    if _before(key, j, bk, bj):
                        bj = j
                        bk = key
            row_best[rr] = bj
            row_key[rr] = bk
    return taken


@numba.njit(cache=True)
def assign(cost):
    """Rows to distinct columns at least total ``cost`` (``n <= m`` rows by columns).

    The Hungarian method with potentials, a shortest augmenting path per row,
    ``O(n^2 m)``.  Returns the column of each row."""
    n, m = cost.shape
    inf = 1e300
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    p = np.zeros(m + 1, np.int64)  # p[j]: row (1-based) matched to column j
    way = np.zeros(m + 1, np.int64)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = np.full(m + 1, inf)
        used = np.zeros(m + 1, np.uint8)
        while True:
            used[j0] = 1
            i0 = p[j0]
            delta = inf
            j1 = 0
            for j in range(1, m + 1):
                if used[j] == 0:
                    cur = cost[i0 - 1, j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(m + 1):
                if used[j] != 0:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    out = np.full(n, -1, np.int64)
    for j in range(1, m + 1):
        if p[j] > 0:
            out[p[j] - 1] = j - 1
    return out


@numba.njit(cache=True, inline="always")
def step_toward(land_flat, stride, field, c):
    """The first neighbour of ``c`` (north, east, south, west) one step nearer in
    ``field``, or ``c`` itself."""
    d = field[c]
    for nb in (c - stride, c + 1, c + stride, c - 1):
        if land_flat[nb] != 0 and field[nb] < d:
            return nb
    return c


@numba.njit(cache=True)
def _afford(land, water, L, W):
    big = 1 << 30
    a = land // L if L > 0 else big
    b = water // W if W > 0 else big
    return min(a, b) + 1


class Lookahead(NamedTuple):
    """What :func:`simulate_plan` reads besides the board and the plan: ``L``, ``W``,
    our empire, the turn, how many turns to play and the last, the turns between
    seasons, each cell's value, and ownership rows."""

    L: int
    W: int
    me: int
    turn: int
    horizon: int
    last_turn: int
    season: int
    value: np.ndarray
    owner: np.ndarray
    counts: np.ndarray


@numba.njit(cache=True)
def simulate_plan(pos, la, cells, emps, slot, fields, future):
    """Play our plan forward ``la.horizon`` turns, the enemies held still.

    ``cells``/``emps`` are every outpost (ours: empire ``la.me``); ``slot[i]`` the
    target (row of ``fields``, a land-distance field to it, -1 for none) of the
    ``i``-th of our outposts in ``cells`` order; ``future`` the targets of the outposts
    still to be built, in order.  Each turn every outpost steps toward its target; at
    a season the counts of the turn before decide a build at home (taking the next
    ``future`` target) or a disband (the newest outpost).  Returns ``(outposts built,
    outposts disbanded, value of the territory at the end)``; ``la.value`` weighs each
    cell."""
    me, owner, counts, season = la.me, la.owner, la.counts, la.season
    land_flat, stride = pos.land_flat, pos.stride
    home = pos.homes[me]
    n = cells.shape[0]
    cap = n + la.horizon // season + 2
    sim_cells = np.empty(cap, np.int64)
    sim_emps = np.empty(cap, np.int64)
    sim_slot = np.full(cap, -1, np.int64)
    m = 0
    for i in range(n):
        sim_cells[m] = cells[i]
        sim_emps[m] = emps[i]
        m += 1
    j = 0
    for i in range(n):
        if emps[i] == me:
            sim_slot[i] = slot[j]
            j += 1
    mine = j
    nf = 0
    built = 0
    lost = 0
    t = la.turn
    end = min(la.turn + la.horizon, la.last_turn)
    while t < end:
        t += 1
        if t % season == 0:
            own(pos, sim_cells[:m], sim_emps[:m], owner, pos.bufs[0], counts)
            a = _afford(counts[me, 0], counts[me, 1], la.L, la.W)
            if a > mine:
                sim_cells[m] = home
                sim_emps[m] = me
                sim_slot[m] = future[nf] if nf < future.shape[0] else -1
                nf += 1
                m += 1
                mine += 1
                built += 1
            elif a < mine:
                for q in range(m - 1, -1, -1):  # drop the newest of ours
                    if sim_emps[q] == me:
                        for z in range(q, m - 1):
                            sim_cells[z] = sim_cells[z + 1]
                            sim_emps[z] = sim_emps[z + 1]
                            sim_slot[z] = sim_slot[z + 1]
                        m -= 1
                        break
                mine -= 1
                lost += 1
        for q in range(m):
            s = sim_slot[q]
            if s >= 0:
                sim_cells[q] = step_toward(land_flat, stride, fields[s], sim_cells[q])
    own(pos, sim_cells[:m], sim_emps[:m], owner, pos.bufs[0], counts)
    total = 0.0
    for x in range(owner.shape[0]):
        if owner[x] == me:
            total += la.value[x]
    return built, lost, total


@numba.njit(cache=True)
def robust_supply(
    pos, my_dist, en_dist, me, cells, alive, owner
):  # pragma: no cover - compiled
    """How many of our outposts ``cells`` keep a supply line whatever one step each
    enemy outpost takes: a cell counts as good only if it stays ours or neutral with
    every enemy distance one shorter.  ``owner`` is scratch; ``pos.bufs`` rows 3 and 6
    must be clean (all 0, all -1) and are left so."""
    r = pos.r
    for x in range(owner.shape[0]):
        e = en_dist[x] - 1
        d = my_dist[x]
        if d <= r:
            owner[x] = me if d < e else -2
        else:
            owner[x] = -1 if e > r else -2
    return supply_lines(pos, owner, me, cells, alive)


class Weighing(NamedTuple):
    """What :func:`evaluate` reads besides the board and the outposts: our empire, each
    cell's value, the distance fields of the enemy outposts and (scratch) of ours,
    ownership rows and supply flags, and the weights of an outpost that one enemy
    step could cut off, of an enemy outpost cut off and of one of ours cut off."""

    me: int
    value: np.ndarray
    en_dist: np.ndarray
    my_dist: np.ndarray
    owner: np.ndarray
    counts: np.ndarray
    alive: np.ndarray
    robust_w: float
    cut_w: float
    lost_w: float


def evaluate(board: tuple, weighing: tuple, cells: Any, emps: Any, starts: Any) -> float:
    """Score of a position for empire ``w.me`` after our moves, the enemies held still:
    the value of the cells we control, minus ``w.lost_w`` per outpost of ours cut off,
    minus ``w.robust_w`` per outpost that one enemy step could cut off
    (:func:`robust_supply`), plus ``w.cut_w`` per enemy outpost cut off.  Returns the
    score and leaves the position's ownership in ``w.owner``, ``w.counts`` (land, water
    per empire) and the packed grid ``pos.bufs[0]``, as :func:`evaluate_moved` takes it.

    ``board`` and ``weighing`` are the fields of a
    :class:`~atlas.games.outpost.rules.kernels.Position`
    (``pos``) and of a :class:`Weighing` (``w``) as plain tuples: numba's dispatcher
    types a plain tuple faster than a named one (``docs/outpost.md``), and a move scores
    hundreds of positions.  (:func:`evaluate_toward` with no walk to a target.)
    """
    no_fields, no_slot = np.zeros((0, 0), np.int32), np.zeros(0, np.int64)
    return evaluate_toward(board, weighing, cells, emps, starts, no_fields, no_slot, 0, 0.0)


def evaluate_toward(
    board: tuple,
    weighing: tuple,
    cells: Any,
    emps: Any,
    starts: Any,
    fields: Any,
    slot: Any,
    a: int,
    progress: float,
) -> float:
    """:func:`evaluate` less ``progress`` per step each of our outposts (``cells[a:]``,
    as many as ``slot``) still has to walk to its target (``fields[slot[i]]``, land
    distances): the planner's score of a candidate move (:func:`evaluate_moved`
    counting the ownership anew)."""
    return float(
        evaluate_moved(
            board,
            weighing,
            cells,
            emps,
            starts,
            fields,
            slot,
            a,
            progress,
            -1,
            -1,
            np.zeros((1, 4), np.int64),
            np.zeros(2, np.int64),
            False,
        )
    )


@numba.njit(cache=True, inline="always")
def _owned_score(pos, w, cells, starts):
    """:func:`evaluate` of a position whose ownership ``w.owner`` holds already."""
    me, owner = w.me, w.owner
    total = 0.0
    for x in range(owner.shape[0]):
        if owner[x] == me:
            total += w.value[x]
    a = starts[me]
    b = starts[me + 1]
    total -= w.lost_w * ((b - a) - supplied(pos, owner, me, cells, starts, w.alive))
    if w.cut_w != 0.0:
        for e in range(pos.homes.shape[0]):
            if e != me and starts[e + 1] > starts[e]:
                kept = supplied(pos, owner, e, cells, starts, w.alive)
                total += w.cut_w * ((starts[e + 1] - starts[e]) - kept)
    if w.robust_w != 0.0 and b > a:
        near_field(pos.stride, pos.r, cells[a:b], w.my_dist)
        kept = robust_supply(
            pos, w.my_dist, w.en_dist, me, cells[a:b], w.alive[a:b], pos.bufs[2]
        )
        total -= w.robust_w * ((b - a) - kept)
    return total


@numba.njit(cache=True, inline="always")
def _step_owned(pos, w, cells, emps, j, src, boxes):
    """The ownership held (``w.owner``, ``w.counts``, ``pos.bufs[0]``), that of ``cells``
    with outpost ``j`` on ``src``, brought up to date for ``cells``: recounted in the
    box of the two diamonds alone, as the heuristic bots' steps are
    (:func:`~atlas.games.outpost.bots.heuristic._update`); ``boxes`` is ``(1, 4)``
    ``int64`` scratch."""
    stride = pos.stride
    rows = pos.land_flat.shape[0] // stride - 2
    _box(stride, rows, stride - 2, pos.r, src, cells[j], boxes, 0)
    _update(pos, w, cells, emps, boxes)


@numba.njit(cache=True)
def evaluate_moved(
    board, weighing, cells, emps, starts, fields, slot, a, progress, j, src, boxes, got, keep
):
    """:func:`evaluate_toward` of ``cells``, the planner's one scoring kernel.

    With ``j < 0`` the ownership is counted anew and held after.  Else the ownership
    held must be that of ``cells`` with outpost ``j`` on ``src`` (a position scored
    before): it is brought up to date in the box of the step alone, the position
    scored, and the ownership put back, unless ``keep`` (a step the planner keeps).
    The same score either way, at a box's cost for the ownership.  ``got`` gets our
    land and water counts of ``cells``; ``boxes`` is ``(1, 4)`` ``int64`` scratch."""
    pos = Position(*board)
    w = Weighing(*weighing)
    if j < 0:
        own(pos, cells, emps, w.owner, pos.bufs[0], w.counts)
    else:
        _step_owned(pos, w, cells, emps, j, src, boxes)
    s = _owned_score(pos, w, cells, starts)
    for i in range(slot.shape[0]):
        s -= progress * fields[slot[i], cells[a + i]]
    got[0] = w.counts[w.me, 0]
    got[1] = w.counts[w.me, 1]
    if j >= 0 and not keep:
        dst = cells[j]
        cells[j] = src
        _step_owned(pos, w, cells, emps, j, dst, boxes)  # back
        cells[j] = dst
    return s
