"""The tree of chambers: how much of its Voronoi region a tron player can really fill.

From the 2010 Google AI Challenge winner's write-up (seed document
``tron-tree-of-chambers.txt``, section 3).  Counting the cells a player reaches first
overrates a region made of dead ends: a cycle that enters one branch cannot come back.
The region is split into *chambers* at its bottlenecks; the chambers form a tree rooted
at the player, and the fillable area is the best sum of chamber sizes along one path
from the root to a leaf.

Definitions used here (the seed leaves the bottleneck rule "to the reader")
--------------------------------------------------------------------------
* The **region** of player ``me`` is the set of free cells it reaches strictly before
  ``opponent``, with the Voronoi semantics of :func:`atlas.analysis.voronoi.voronoi_counts`
  (both heads occupied; ties belong to no one).  Without an opponent it is every free
  cell reachable from ``me``.
* The **region graph** has the region's cells plus ``me`` as vertices and the
  4-neighbour steps between them as edges.  Its **bottlenecks** are its articulation
  points: cells whose removal cuts the graph.
* Its biconnected components (blocks, Hopcroft and Tarjan) hang together in the
  block-cut tree; rooted at ``me``, every block has a top cell through which it is
  entered (``me`` or a bottleneck).  A block's cells other than its top form one
  *elementary* chamber; its **entrance** is the top cell (which lies in the parent
  chamber), its parent the chamber that holds the entrance.  ``me`` alone forms the root.
* A chamber with exactly one child is merged with that child, repeatedly: a corridor
  that leads to a single room is one chamber, and the tree branches only where the
  player must choose.  Merging keeps every root-to-leaf sum, hence ``fillable``.
  On the seed's corridor example this gives exactly the seed's chambers 1, 2 and 3.
* A chamber's **size** is its number of cells, ``me`` not counted (``me`` is occupied),
  so ``fillable`` counts moves: it is never below the longest path the player can walk
  inside its region, and equals it on trees of corridors.

Kernels (conventions in :mod:`atlas.analysis.grid`)
--------------------------------------------------
``chamber_kernel(free_flat, stride, me, opp, work) -> (fillable, n_blocks)``
    ``me``, ``opp``: flat cells (``int64``; ``opp = -1`` for no opponent; both may be
    blocked cells, as tron heads are).  ``work``: ``int32`` array of shape
    ``(CHAMBER_ROWS, len(free_flat))``, C-contiguous (:func:`chamber_work`).  Returns
    the fillable area and the number of elementary chambers (blocks) other than the
    root.  Afterwards row ``ROW_BLOCK`` gives each cell's elementary chamber
    (``0..n_blocks-1``; ``n_blocks`` for the root, i.e. ``me``; ``-1`` outside the
    region), and rows ``ROW_SIZE``, ``ROW_TOP``, ``ROW_PARENT``, ``ROW_BEST`` indexed by
    elementary chamber give its size, entrance cell, parent and best root-to-leaf sum
    below it.  Elementary chambers are numbered in post-order (children first).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from ..jit import numba  # numba itself is imported on first compile
from ..types import Cell, IntGrid
from .biconnected import hopcroft_tarjan, inner_nothing
from .grid import as_free_grid, cell_of, check_cell, pad_kernel, scratch
from .voronoi import voronoi_kernel

__all__ = [
    "Chamber",
    "ChamberTree",
    "chamber_tree",
    "chamber_kernel",
    "chamber_work",
    "CHAMBER_ROWS",
    "ROW_BLOCK",
    "ROW_SIZE",
    "ROW_TOP",
    "ROW_PARENT",
    "ROW_BEST",
]

ROW_DIST: Final = 0
ROW_OWNER: Final = 1
ROW_QUEUE: Final = 2
ROW_DISC: Final = 3
ROW_LOW: Final = 4
ROW_STACK: Final = 5
ROW_VSTACK: Final = 6
ROW_BLOCK: Final = 7
ROW_SIZE: Final = 8
ROW_TOP: Final = 9
ROW_PARENT: Final = 10
ROW_BEST: Final = 11
#: Rows of the ``work`` array of :func:`chamber_kernel`.
CHAMBER_ROWS: Final = 12


@numba.njit(cache=True, inline="always")
def _push_cell(work, counts, c, params, w, v):  # type: ignore[no-untyped-def]
    """Keep each cell the walk enters on ``vstack`` (``counts[0]``: its height)."""
    work[ROW_VSTACK, counts[0]] = w
    counts[0] += 1


@numba.njit(cache=True, inline="always")
def _pop_block(work, counts, c, params, v, u, root_child):  # type: ignore[no-untyped-def]
    """``v``'s subtree closes a block entered through ``u``: the cells above ``v`` on
    ``vstack``, ``v`` included, are that block (number ``counts[1]``)."""
    nb = counts[1]
    cnt = 0
    while True:
        counts[0] -= 1
        x = np.uint64(work[ROW_VSTACK, counts[0]])
        work[ROW_BLOCK, x] = nb
        cnt += 1
        if x == v:
            break
    work[ROW_SIZE, nb] = cnt
    work[ROW_TOP, nb] = u
    counts[1] = nb + 1


#: The Hopcroft-Tarjan walk (:mod:`atlas.analysis.biconnected`) that cuts the blocks.
_block_walk = hopcroft_tarjan(_push_cell, _pop_block, inner_nothing)


@numba.njit(cache=True, inline="always")
def chamber_kernel(free_flat, stride, me, opp, work):  # type: ignore[no-untyped-def]
    n = free_flat.shape[0]
    disc = work[ROW_DISC]
    block = work[ROW_BLOCK]
    size = work[ROW_SIZE]
    top = work[ROW_TOP]
    parent = work[ROW_PARENT]
    best = work[ROW_BEST]
    # The region: disc = 0 inside (not yet visited), -1 outside.
    if opp >= 0:
        owner = work[ROW_OWNER]
        voronoi_kernel(free_flat, stride, me, opp, work[ROW_DIST], owner, work[ROW_QUEUE])
        for i in range(n):
            disc[i] = 0 if owner[i] == 1 else -1
    else:
        for i in range(n):
            disc[i] = 0 if free_flat[i] != 0 else -1
    for i in range(n):
        block[i] = -1
    # Hopcroft-Tarjan from me, cutting the region into blocks as they close.
    counts = np.zeros(2, dtype=np.int64)
    _block_walk(work, counts, counts, (), stride, me, 1, disc, work[ROW_LOW], work[ROW_STACK])
    nb = counts[1]
    block[me] = nb
    size[nb] = 0
    top[nb] = -1
    parent[nb] = -1
    for k in range(nb + 1):
        best[k] = 0
    # Children close before their parents, so ids grow towards the root.
    for k in range(nb):
        p = block[np.uint64(top[k])]
        parent[k] = p
        total = size[k] + best[k]
        best[k] = total
        if total > best[p]:
            best[p] = total
    return best[nb], nb


def chamber_work(size: int) -> npt.NDArray[np.int32]:
    """A ``work`` array for :func:`chamber_kernel` on a padded grid of ``size`` cells."""
    return np.zeros((CHAMBER_ROWS, size), dtype=np.int32)


@numba.njit(cache=True)
def _merge_chains(parent, nb, rep):  # type: ignore[no-untyped-def]
    """``rep[k]``: the elementary chamber heading the merged chamber of ``k``."""
    nchild = np.zeros(nb + 1, dtype=np.int64)
    for k in range(nb):
        nchild[parent[k]] += 1
    rep[nb] = nb
    for k in range(nb - 1, -1, -1):
        p = parent[k]
        rep[k] = rep[p] if nchild[p] == 1 else k


@numba.njit(cache=True)
def _chamber_entry(free2d, me, opp, flat, work):  # type: ignore[no-untyped-def]
    pad_kernel(free2d, flat)
    return chamber_kernel(flat, free2d.shape[1] + 2, me, opp, work)


@dataclass(frozen=True)
class Chamber:
    """One chamber of a :class:`ChamberTree`.

    Attributes
    ----------
    id : int
        ``1..n``; the root (the chamber holding ``me``) is 1.
    size : int
        Its cells, ``me`` not counted.
    entrance : (row, col) or None
        The bottleneck cell, in the parent chamber, through which it is entered;
        ``None`` for the root.
    parent : int or None
        The parent chamber's id; ``None`` for the root.
    children : tuple of int
        The ids of the chambers entered from this one.
    best : int
        The largest sum of sizes on a path from this chamber down to a leaf.
    """

    id: int
    size: int
    entrance: Cell | None
    parent: int | None
    children: tuple[int, ...]
    best: int


@dataclass(frozen=True, eq=False)
class ChamberTree:
    """The tree of chambers of one player's region (see the module notes).

    Attributes
    ----------
    labels : ndarray of int32, shape (rows, cols)
        The chamber id of every cell of the region, ``me`` in chamber 1; 0 elsewhere.
    chambers : tuple of Chamber
        ``chambers[k]`` has id ``k + 1``.
    fillable : int
        The best root-to-leaf sum of chamber sizes (``chambers[0].best``).
    me, opponent : (row, col) and (row, col) or None
        The cells the tree was built for.
    """

    labels: IntGrid
    chambers: tuple[Chamber, ...]
    fillable: int
    me: Cell
    opponent: Cell | None

    @property
    def region_size(self) -> int:
        """Cells of the region, ``me`` not counted."""
        return sum(ch.size for ch in self.chambers)


def chamber_tree(free: npt.ArrayLike, me: Cell, opponent: Cell | None = None) -> ChamberTree:
    """Build the tree of chambers of the cells ``me`` reaches before ``opponent``.

    Parameters
    ----------
    free : array_like of bool, shape (rows, cols)
        ``True`` for a free cell.
    me : (row, col)
        The player's cell (free or blocked; it is occupied either way).
    opponent : (row, col), optional
        The other player's cell; without it the region is ``me``'s whole component.

    Returns
    -------
    ChamberTree

    Notes
    -----
    Definitions in the module docstring.  One two-source breadth-first search for the
    region (:func:`atlas.analysis.voronoi.voronoi_kernel`), one iterative Hopcroft-Tarjan
    depth-first search [1]_ from ``me`` that cuts the region into blocks as they close,
    one pass up the tree for the root-to-leaf sums, and one down it to merge chains:
    O(rows x cols).  Implements the algorithm of the seed document
    ``tron-tree-of-chambers.txt`` (section 3) with articulation points as the
    bottleneck rule.

    References
    ----------
    .. [1] The blocks come from :mod:`atlas.analysis.biconnected`'s walk (Hopcroft and
       Tarjan's algorithm 447, 1973).

    Examples
    --------
    A corridor that forks (``me`` at the left end): 2 cells, then arms of 2 and 1.

    >>> tree = chamber_tree([[1, 1, 1, 1, 1],
    ...                      [0, 0, 1, 0, 0]], (0, 0))
    >>> [(c.id, c.size, c.entrance, c.parent) for c in tree.chambers]
    [(1, 2, None, None), (2, 2, (0, 2), 1), (3, 1, (0, 2), 1)]
    >>> tree.fillable
    4
    """
    grid = as_free_grid(free)
    h, w = grid.shape
    me_cell = check_cell(me, grid.shape, "me")
    opp_cell = None if opponent is None else check_cell(opponent, grid.shape, "opponent")
    stride = w + 2
    size = (h + 2) * stride
    flat, _ = scratch(size, 1)
    work = chamber_work(size)
    me_i = (me_cell[0] + 1) * stride + me_cell[1] + 1
    opp_i = -1 if opp_cell is None else (opp_cell[0] + 1) * stride + opp_cell[1] + 1
    fillable, nb = _chamber_entry(grid, me_i, opp_i, flat, work)
    nb = int(nb)
    block = work[ROW_BLOCK]
    parent = work[ROW_PARENT, : nb + 1].astype(np.int64)
    rep = np.empty(nb + 1, dtype=np.int64)
    _merge_chains(parent, nb, rep)

    # Number the merged chambers: the root 1, the others by their first cell in raster
    # order (flat order is raster order).
    cells = np.flatnonzero(block >= 0)
    cell_rep = rep[block[cells]]
    first = np.full(nb + 1, size, dtype=np.int64)
    np.minimum.at(first, cell_rep, cells)
    heads = np.flatnonzero(rep == np.arange(nb + 1))
    order = sorted((int(k) for k in heads if k != nb), key=lambda k: int(first[k]))
    new_id = np.zeros(nb + 1, dtype=np.int64)
    new_id[nb] = 1
    for i, k in enumerate(order, start=2):
        new_id[k] = i
    ids = new_id[rep]

    labels_flat = np.zeros(size, dtype=np.int32)
    labels_flat[cells] = ids[block[cells]]
    labels = labels_flat.reshape(h + 2, stride)[1:-1, 1:-1].copy()

    n_ch = len(heads)
    sizes = np.bincount(ids, weights=work[ROW_SIZE, : nb + 1], minlength=n_ch + 1)
    bests = work[ROW_BEST, : nb + 1]
    tops = work[ROW_TOP, : nb + 1]
    parents: list[int | None] = [None] * (n_ch + 1)
    entrances: list[Cell | None] = [None] * (n_ch + 1)
    best_of = [0] * (n_ch + 1)
    children: list[list[int]] = [[] for _ in range(n_ch + 1)]
    for head in heads:
        cid = int(new_id[head])
        best_of[cid] = int(bests[head])
        if head != nb:
            pid = int(ids[parent[head]])
            parents[cid] = pid
            entrances[cid] = cell_of(int(tops[head]), stride)
            children[pid].append(cid)
    chambers = tuple(
        Chamber(
            cid,
            int(sizes[cid]),
            entrances[cid],
            parents[cid],
            tuple(sorted(children[cid])),
            best_of[cid],
        )
        for cid in range(1, n_ch + 1)
    )
    return ChamberTree(labels, chambers, int(fillable), me_cell, opp_cell)
