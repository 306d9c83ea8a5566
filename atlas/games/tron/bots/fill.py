"""The greedy space fillers of the tron bots.

:func:`filler_move` / :func:`fill_length` are the rule of the 2010 winner's post-mortem
[1]_ as written: the move removing the fewest edges (hug walls), avoiding possible cut
vertices (the 3x3 test), and when one must be entered, the largest space left over.  The
``wallhugger`` and ``voronoi`` bots fill with it.

:func:`space_filler_move` is the post-mortem's greedy rule (fewest open neighbours,
avoid cut vertices) made exact where it matters: a move into a possible cut vertex is
scored by the checkerboard bound of the largest room it keeps.  :func:`space_fill_length`
walks it to the end: a lower bound on the cells a lone player can still fill, used by
``frontline``'s endgame search.

References
----------
.. [1] A. Sloane (a1k0n), "Google AI Challenge post-mortem", 2010.
"""

from __future__ import annotations

import numpy as np

from ....bots.search import clock
from ....jit import numba  # kernels compiled on first use, one version per type
from .common import R_MARK, R_QUEUE, R_STACK, _open_neighbours, potential_articulation

__all__ = ["filler_move", "fill_length", "space_filler_move", "space_fill_length"]


@numba.njit(cache=True)
def _flood(grid, src, off, mark, stamp, queue):
    """Flood the room of free cell ``src`` (marking it ``stamp``).

    Returns ``(cells, same)``: the cells reached, ``src`` included, and how many of
    them have the colour of ``src`` on the checkerboard.  Each move changes colour, so
    a cell's colour is that of ``src`` when its BFS layer is even: the layers are told
    apart by where the queue ended when the previous one began.  O(room).
    """
    mark[src] = stamp
    head = 0
    tail = 1
    queue[0] = src
    same = 0
    layer_end = 1
    even = True
    while head < tail:
        if head == layer_end:
            even = not even
            layer_end = tail
        c = queue[head]
        head += 1
        if even:
            same += 1
        for k in range(4):
            nb = c + off[k]
            if grid[nb] != 0 and mark[nb] != stamp:
                mark[nb] = stamp
                queue[tail] = nb
                tail += 1
    return tail, same


@numba.njit(cache=True)
def _flood_count(grid, src, off, mark, stamp, queue):
    """Cells reachable from free cell ``src`` (itself included), marking with ``stamp``."""
    if grid[src] == 0:
        return 0
    cells, _ = _flood(grid, src, off, mark, stamp, queue)
    return cells


@numba.njit(cache=True)
def _largest_side(grid, t, off, ibuf, stamp):
    """With ``t`` blocked, the largest component next to it; returns (size, next stamp)."""
    mark = ibuf[R_MARK]
    queue = ibuf[R_QUEUE]
    grid[t] = 0
    best = 0
    for k in range(4):
        o = t + off[k]
        if grid[o] != 0 and mark[o] != stamp:
            s = _flood_count(grid, o, off, mark, stamp, queue)
            if s > best:
                best = s
            stamp += 1
    grid[t] = 1
    return best, stamp


@numba.njit(cache=True)
def filler_move(grid, head, off, ibuf, stamp):
    """The greedy space filler's move from ``head``: direction index 0..3, or -1.

    Rule of the post-mortem [1]_: among moves that keep the largest room reachable, avoid
    cells that may be cut vertices and take the one with the fewest open neighbours (the
    move removing the fewest edges, which hugs walls); if every move enters a possible
    cut vertex, take the one leaving the largest space behind it.  Returns
    ``(direction, stamp)``; ``stamp`` is the next free flood-mark value.

    Notes
    -----
    O(1) per move except where the head or the target is a possible cut vertex, where a
    flood fill (O(room)) decides.
    """
    mark = ibuf[R_MARK]
    queue = ibuf[R_QUEUE]
    cand = np.empty(4, np.int64)
    room = np.zeros(4, np.int64)
    nc = 0
    for k in range(4):
        if grid[head + off[k]] != 0:
            cand[nc] = k
            nc += 1
    if nc == 0:
        return -1, stamp
    if nc == 1:
        return cand[0], stamp
    # Does the head separate its free neighbours?  Then keep only the largest room.
    grid[head] = 1
    split = potential_articulation(grid, head, off)
    grid[head] = 0
    if split:
        stamps = np.full(4, -1, np.int64)
        for i in range(nc):
            t = head + off[cand[i]]
            room[i] = -1
            for j in range(i):
                if mark[t] == stamps[j]:
                    room[i] = room[j]
            if room[i] < 0:
                stamps[i] = stamp
                room[i] = _flood_count(grid, t, off, mark, stamp, queue)
                stamp += 1
        biggest = 0
        for i in range(nc):
            if room[i] > biggest:
                biggest = room[i]
        m = 0
        for i in range(nc):
            if room[i] == biggest:
                cand[m] = cand[i]
                m += 1
        nc = m
        if nc == 1:
            return cand[0], stamp
    best = -1
    best_key = 1 << 30
    for i in range(nc):
        t = head + off[cand[i]]
        free_nb = _open_neighbours(grid, t, off)
        if free_nb == 0:
            key = 1 << 29  # a dead end: only when nothing else is left
        elif potential_articulation(grid, t, off):
            key = 1 << 20  # decided below by the space left
        else:
            key = free_nb
        if key < best_key:
            best_key = key
            best = cand[i]
    if best_key == 1 << 20:
        # Every move enters a possible cut vertex: take the largest space left over.
        best_space = -1
        for i in range(nc):
            t = head + off[cand[i]]
            if _open_neighbours(grid, t, off) == 0:
                continue
            space, stamp = _largest_side(grid, t, off, ibuf, stamp)
            if space > best_space:
                best_space = space
                best = cand[i]
    return best, stamp


@numba.njit(cache=True)
def _side_bound(grid, src, off, mark, stamp, queue):
    """Checkerboard bound of a walk that starts at free cell ``src`` in its room.

    Floods the room (marking it ``stamp``) counting the cells of each colour: a walk
    from a cell of colour A alternates A, B, A, ... so it visits at most
    ``2*min(a, b) + (a > b)`` cells.  O(room).
    """
    cells, same = _flood(grid, src, off, mark, stamp, queue)
    other = cells - same
    return 2 * min(same, other) + (1 if same > other else 0)


@numba.njit(cache=True)
def space_filler_move(grid, head, off, ibuf, stamp, art_w):
    """The endgame filler's move from ``head``: ``(direction 0..3 or -1, next stamp)``.

    The greedy rule of the post-mortem [1]_ with true cut vertices and the checkerboard
    bound: each move is scored by the space it keeps, the largest parity bound of the
    rooms next to the target once the target is blocked (the whole room when the target
    is not a cut vertex; the 3x3 test of
    :func:`atlas.games.tron.bots.common.potential_articulation` skips the flood for most
    cells); among the moves keeping the most, the one with the fewest open neighbours
    (wall hugging), a dead end last.  ``art_w`` (0 or 8) weighs a target that may be a
    cut vertex like that many extra open neighbours: 8 also prefers safe-looking cells
    among the moves keeping the same space, 0 only counts neighbours; each variant
    fills some rooms better than the other.

    Notes
    -----
    O(1) per candidate that is not a possible cut vertex, O(room) otherwise.
    """
    mark = ibuf[R_MARK]
    queue = ibuf[R_QUEUE]
    big = 1 << 40
    best = -1
    best_keep = -1
    best_nb = 99  # rank of the best move
    grid[head] = 1
    split = potential_articulation(grid, head, off)
    grid[head] = 0
    for k in range(4):
        t = head + off[k]
        if grid[t] == 0:
            continue
        free_nb = _open_neighbours(grid, t, off)
        art = 0
        if free_nb == 0:
            keep = 0
        elif free_nb == 1 or not potential_articulation(grid, t, off):
            keep = big
        else:
            art = 1
            # Block t: do its free neighbours fall into separate rooms?
            grid[t] = 0
            keep = -1
            first = stamp
            parts = 0
            for j in range(4):
                o = t + off[j]
                if grid[o] != 0 and (mark[o] < first or mark[o] >= stamp):
                    b = _side_bound(grid, o, off, mark, stamp, queue)
                    stamp += 1
                    parts += 1
                    if b > keep:
                        keep = b
            grid[t] = 1
            if parts <= 1:
                keep = big
        if split and free_nb > 0:
            # The head separates its neighbours: a move keeps at most its own room.
            room = _side_bound(grid, t, off, mark, stamp, queue)
            stamp += 1
            if room < keep:
                keep = room
        # Most space kept, then (art_w > 4) not a possible cut vertex, then fewest open
        # neighbours.
        rank = art_w * art + free_nb
        if keep > best_keep or (keep == best_keep and rank < best_nb):
            best = k
            best_keep = keep
            best_nb = rank
    return best, stamp


@numba.njit(cache=True)
def _walk(grid, head, off, ibuf, max_steps, exact, art_w, stop):
    """Steps a filler survives from ``head`` alone (board restored afterwards).

    Walks :func:`space_filler_move` (``exact``, with ``art_w``) or :func:`filler_move`
    until stuck, ``max_steps``, or the clock passing ``stop`` (read every 32 steps).
    The trail is kept in the ``R_STACK`` row.  O(steps) plus the floods at possible
    cut vertices (O(steps x room) at worst).
    """
    trail = ibuf[R_STACK]
    n = grid.shape[0]
    marks = ibuf[R_MARK]
    stamp = marks[0]
    for i in range(1, marks.shape[0]):  # marks.max(): numba's compiles four kernels more
        if marks[i] > stamp:
            stamp = marks[i]
    stamp += 1
    steps = 0
    c = head
    while steps < max_steps and steps < n:
        if stamp > (1 << 30):
            ibuf[R_MARK][:] = 0
            stamp = 1
        if exact:
            k, stamp = space_filler_move(grid, c, off, ibuf, stamp, art_w)
        else:
            k, stamp = filler_move(grid, c, off, ibuf, stamp)
        if k < 0 or ((steps & 31) == 31 and clock() > stop):
            break
        c = c + off[k]
        grid[c] = 0
        trail[steps] = c
        steps += 1
    for i in range(steps):
        grid[trail[i]] = 1
    return steps


@numba.njit(cache=True)
def fill_length(grid, head, off, ibuf, max_steps):
    """Steps the post-mortem's greedy filler (:func:`filler_move`) survives from ``head``.

    The board is restored.  O(steps) plus the flood fills at cut vertices.
    """
    return _walk(grid, head, off, ibuf, max_steps, False, 0, np.inf)


@numba.njit(cache=True)
def space_fill_length(
    grid, head, off, ibuf, max_steps, art_w, stop
):  # pragma: no cover - numba
    """Steps :func:`space_filler_move` survives from ``head`` (board restored).

    Gives up (returning the steps so far) when the clock passes ``stop``, read every 32
    steps.  O(steps) plus the floods at possible cut vertices (O(steps x room) at worst).
    """
    return _walk(grid, head, off, ibuf, max_steps, True, art_w, stop)
