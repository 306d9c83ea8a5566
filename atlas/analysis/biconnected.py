"""Hopcroft and Tarjan's depth-first search, written once: cut cells, blocks, chambers.

The articulation points (:mod:`atlas.analysis.articulation`), the blocks of the tree of
chambers (:mod:`atlas.analysis.chambers`) and the tron bots' chamber evaluations
(:mod:`atlas.games.tron.bots.tree`) walk the grid the same way and differ only in what they
do when the walk enters a cell and when it leaves one.  :func:`hopcroft_tarjan` builds
the walk for such kernels (conventions of :mod:`atlas.analysis.grid`).

Kernels built here
------------------
``walk(a, b, c, params, stride, root, timer, disc, low, stack) -> (timer, children)``
    Depth-first search from flat cell ``root`` over the cells with ``disc == 0``
    (``disc`` is ``-1`` on cells the walk may not enter, ``0`` on those it may; ``root``
    itself is entered whatever its ``disc``, and is a vertex of the graph unless the
    walk was built with ``root_vertex=False``).  Cells get discovery times from
    ``timer`` up (``disc``); returns the next free time and the number of children of
    ``root`` in the search tree.  ``low`` and ``stack``: ``int32`` buffers as long as
    the grid (both indexed by depth).  ``a``, ``b``, ``c`` (arrays) and ``params`` (a
    tuple of scalars) are the caller's, handed unchanged to the three kernels the walk
    was built with:

    ``enter(a, b, c, params, w, v)``
        ``w`` was just discovered from ``v`` (not called for ``root``).
    ``block(a, b, c, params, v, u, root_child)``
        ``v`` is finished and ``low[v] >= disc[u]`` for its parent ``u``: the cells
        discovered since ``v``, ``v`` included, and not yet handed to an earlier block,
        form a block (biconnected component) with ``u``, and ``u`` separates them from
        the rest of the graph unless it is the root (``root_child``).
    ``inner(a, b, c, params, v, u)``
        ``v`` is finished and belongs to the block of its parent ``u``.

The kernels are inlined into the walk (``inline="always"``), and the walk is compiled
without numba's reference counting (``_nrt=False``: it allocates nothing): an array an
inlined kernel takes as an argument would otherwise be counted up and down at every
cell, atomic operations that cost the tron bots' chamber walk a third of its speed.
The caller's arrays are arguments rather than fields of a tuple for the same reason.

Notes
-----
Iterative (an explicit stack, no recursion: a 1000x1000 open map is fine).  A stack
entry is ``cell * 8 + d`` where ``d`` (0..4) is the next direction to try (north, east,
south, west; 4 = done); the parent of ``stack[k]`` is ``stack[k - 1]`` and ``low[k]`` is
its low-point, kept by depth rather than by cell: a low-point only matters while its cell
is on the stack, and the stack is hot in cache.  The tree edge back to the parent is
not excluded from the low-point: for blocks and articulation points (unlike bridges)
this leaves the test ``low[v] >= disc[u]`` unchanged and saves a comparison.  O(cells of
the component), with the cost of the kernels per cell.

References
----------
.. [1] J. Hopcroft and R. Tarjan, "Algorithm 447: Efficient algorithms for graph
   manipulation", Communications of the ACM 16(6), 372-378, 1973.
"""

from __future__ import annotations

import numpy as np

from ..jit import (
    LazyKernel,
    built,
    numba,  # numba itself is imported on first compile
)

__all__ = ["hopcroft_tarjan", "enter_nothing", "inner_nothing"]

#: Unsigned constants for wraparound-free indexing (see atlas.analysis.grid).
_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U3 = np.uint64(3)
_U7 = np.uint64(7)


@numba.njit(cache=True, inline="always")
def enter_nothing(a, b, c, params, w, v):  # type: ignore[no-untyped-def]
    """An ``enter`` kernel for walks with nothing to do on discovery."""
    return None


@numba.njit(cache=True, inline="always")
def inner_nothing(a, b, c, params, v, u):  # type: ignore[no-untyped-def]
    """An ``inner`` kernel for walks with nothing to do when a cell closes no block."""
    return None


def hopcroft_tarjan(
    enter: LazyKernel, block: LazyKernel, inner: LazyKernel, *, root_vertex: bool = True
) -> LazyKernel:
    """The walk of the module notes, calling ``enter``, ``block`` and ``inner`` (kernels).

    With ``root_vertex=False`` the root is where the walk starts but not a vertex of
    the graph: an edge back to it is no edge (a tron player's head, which its trail
    cannot enter again), so every child of the root heads a block.

    Build it once, at a module's top level: its name is made of the kernels' names, and
    one set of kernels gives one walk.
    """

    def walk(a, b, c, params, stride, root, timer, disc, low, stack):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
        us = np.uint64(stride)
        offs = (_U0 - us, _U1, us, _U0 - _U1)  # modular: v + offs[d] is the neighbour
        r = np.uint64(root)
        disc[r] = timer if root_vertex else -1
        low[0] = timer
        timer += 1
        stack[0] = r << _U3
        depth = _U1
        root_children = 0
        while depth > _U0:
            top = depth - _U1
            e = np.uint64(stack[top])
            v = e >> _U3
            d = np.int64(e & _U7)
            lv = low[top]
            descended = False
            while d < 4:
                w = v + offs[d]
                d += 1
                dw = disc[w]
                if dw == 0:
                    stack[top] = (v << _U3) | np.uint64(d)
                    low[top] = lv
                    disc[w] = timer
                    low[depth] = timer
                    timer += 1
                    stack[depth] = w << _U3
                    depth += _U1
                    enter(a, b, c, params, w, v)
                    descended = True
                    break
                if 0 < dw < lv:
                    lv = dw
            if descended:
                continue
            depth = top
            if depth > _U0:
                pt = depth - _U1
                if lv < low[pt]:
                    low[pt] = lv
                u = np.uint64(stack[pt]) >> _U3
                if depth == _U1:
                    root_children += 1
                if lv >= disc[u]:
                    block(a, b, c, params, v, u, depth == _U1)
                else:
                    inner(a, b, c, params, v, u)
        return timer, root_children

    name = f"hopcroft_tarjan({enter.name}, {block.name}, {inner.name}, {root_vertex})"
    return built(walk, name, cache=True, _nrt=False)
