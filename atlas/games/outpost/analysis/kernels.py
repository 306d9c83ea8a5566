"""Numba kernels of Outpost ownership: who controls each cell, from scratch or in boxes.

Re-exported by :mod:`atlas.games.outpost.analysis`, whose docstring states the rules and the
kernel conventions (padded flat grids, buffers, owner codes, the packed distance grid).

* :func:`ownership_kernel` -- the owner of every cell and each empire's land, water and
  disputed cells: diamonds stamped per outpost when there are few, else a distance
  transform (row then column sweeps of ``(distance << 8) | empire bits``).
* :func:`ownership_update` -- the same kept up to date when only boxes around moved
  outposts can have changed (the game engine's turn).

References
----------
``outpost-2014-spec.txt``; ``docs/outpost.md``.
"""

from __future__ import annotations

import numpy as np

from ....jit import numba  # numba itself is imported on first compile

__all__ = ["ownership_kernel", "ownership_update"]

#: Owner code of a cell whose nearest empires form the bitmask m (m < 256).
_OWNER_OF_MASK = np.array(
    [-1] + [(m & -m).bit_length() - 1 if m & (m - 1) == 0 else -2 for m in range(1, 256)],
    dtype=np.int32,
)


# --------------------------------------------------------------------------- kernels


@numba.njit(cache=True)
def ownership_kernel(  # type: ignore[no-untyped-def]
    land_flat,
    board_flat,
    stride,
    r,
    cells,
    empires,
    owner,
    dist,
    mask,
    queue,
    counts,
):  # pragma: no cover - compiled
    """Stamp each outpost's diamond (nearest distance and set of nearest empires as a
    bitmask per cell), then read owners and counts off in one pass.

    ``board_flat`` and ``queue`` are not read (kept for a stable signature); ``mask``
    is scratch (see the module docstring)."""
    n = land_flat.shape[0]
    rows = n // stride - 2
    cols = stride - 2
    # dist[i] holds (nearest distance << 8) | (nearest empires' bits, up to 8 empires);
    # with more empires the bits live in mask[] instead.
    packed = counts.shape[0] <= 8
    far = np.int32((r + 1) << 8)
    dist[:] = far
    area = 2 * r * r + 2 * r + 1
    # rows some diamond covers (the others stay neutral)
    covered_rows = np.zeros(rows + 2, np.uint8)
    if packed and 2 * cells.shape[0] * min(area, rows * cols) > 5 * rows * cols:
        # many outposts (diamonds of 2.5 times the board's cells, measured break-even):
        # a separable distance transform, O(cells) whatever their number
        for k in range(cells.shape[0]):
            c = cells[k]
            v = dist[c]
            dist[c] = ((v & 255) if v < 256 else 0) | (np.int32(1) << np.int32(empires[k]))
        _transform(dist, mask, stride, rows, cols)
        covered_rows[1 : rows + 1] = 1
    elif packed:
        _stamp_packed(dist, stride, rows, cols, r, cells, empires, covered_rows)
    else:
        for k in range(cells.shape[0]):
            c = cells[k]
            r0 = c // stride
            c0 = c % stride
            bit = np.int32(1) << np.int32(empires[k])
            for rr in range(max(1, r0 - r), min(rows, r0 + r) + 1):
                dr = abs(rr - r0)
                span = r - dr
                base = rr * stride
                for cc in range(max(1, c0 - span), min(cols, c0 + span) + 1):
                    i = base + cc
                    key = (dr + abs(cc - c0)) << 8
                    od = dist[i]
                    if key < od:
                        dist[i] = key
                        mask[i] = bit
                    elif key == od:
                        mask[i] |= bit
    if counts.shape[0] <= 4:
        # rows only over the span the diamonds cover; the rest is neutral
        # one pass over each run of covered rows; the rest is neutral
        acc = np.zeros(13, np.int64)
        rr = 0
        while rr < rows + 2:
            r1 = rr
            while r1 < rows + 2 and covered_rows[r1] == covered_rows[rr]:
                r1 += 1
            if covered_rows[rr] != 0:
                _read_owners4(land_flat, dist, far, owner, rr * stride, r1 * stride, acc)
            else:
                owner[rr * stride : r1 * stride] = -1
            rr = r1
        for e in range(counts.shape[0]):
            counts[e, 0] = acc[3 * e]
            counts[e, 1] = acc[3 * e + 1] - acc[3 * e]
            counts[e, 2] = acc[3 * e + 2]
        return acc[12]
    for e in range(counts.shape[0]):
        counts[e, 0] = 0
        counts[e, 1] = 0
        counts[e, 2] = 0
    covered = 0
    for i in range(n):
        v = dist[i]
        if v >= far:
            owner[i] = -1
            continue
        covered += 1
        m = (v & 255) if packed else mask[i]
        if m < 256:
            o = _OWNER_OF_MASK[m]
        else:
            o = -2
            if m & (m - 1) == 0:
                o = 0
                while (m >> o) != 1:
                    o += 1
        owner[i] = o
        if o >= 0:
            counts[o, 1 - land_flat[i]] += 1
        else:
            e = 0
            while m != 0:
                if m & 1:
                    counts[e, 2] += 1
                m >>= 1
                e += 1
    return covered


@numba.njit(cache=True, inline="always")
def _diamond_template(r):  # type: ignore[no-untyped-def]
    """The ``(2r+1) x (2r+1)`` square, flat, of ``distance << 8`` from its centre (the
    packed grid's distance bits of a diamond of radius ``r``)."""
    w = 2 * r + 1
    tmpl = np.empty(w * w, np.int32)
    for a in range(w):
        for b in range(w):
            tmpl[a * w + b] = (abs(a - r) + abs(b - r)) << 8
    return tmpl


@numba.njit(cache=True, inline="always")
def _stamp_packed(dist, stride, rows, cols, r, cells, empires, covered_rows):  # type: ignore[no-untyped-def]
    """Each outpost's diamond into the packed grid ``dist``, row by row: each diamond
    row is a slice combined with the same row of a template of ``distance << 8``
    values (min(old, key), or old | key on a tie: same distance bits), int32 slices
    with no index arithmetic in the loop, so it vectorises.  Marks the rows touched."""
    w = 2 * r + 1
    tmpl = _diamond_template(r)
    for k in range(cells.shape[0]):
        c = cells[k]
        r0 = c // stride
        c0 = c - r0 * stride
        bit = np.int32(1) << np.int32(empires[k])
        top = max(1, r0 - r)
        bottom = min(rows, r0 + r)
        covered_rows[top : bottom + 1] = 1
        for rr in range(top, bottom + 1):
            span = r - abs(rr - r0)
            lo = max(1, c0 - span)
            hi = min(cols, c0 + span)
            t0 = (rr - r0 + r) * w + r - c0 + lo
            seg = dist[rr * stride + lo : rr * stride + hi + 1]
            tm = tmpl[t0 : t0 + hi - lo + 1]
            for t in range(seg.shape[0]):
                seg[t] = _merge_masks(seg[t], tm[t] | bit)


@numba.njit(cache=True, inline="always")
def _read_owners4(land_flat, dist, far, owner, lo, hi, acc):  # type: ignore[no-untyped-def]
    """Owners of cells ``lo`` to ``hi - 1`` off the packed grid for at most 4 empires,
    in one branch-free pass whose sums are int32 scalars (so the loop vectorises);
    adds each empire e's land, controlled and disputed cells to ``acc[3e:3e + 3]``
    and the covered cells to ``acc[12]``."""
    i32 = np.int32
    one = i32(1)
    s31 = i32(31)
    cov = l0 = l1 = l2 = l3 = t0 = t1 = t2 = t3 = d0 = d1 = d2 = d3 = i32(0)
    # slices indexed from 0: no negative-index test per access, so the loop vectorises
    dist_s = dist[lo:hi]
    owner_s = owner[lo:hi]
    land_s = land_flat[lo:hi]
    # arithmetic masks only (x >> 31 is all ones for x < 0): no branch to mispredict
    for i in range(dist_s.shape[0]):
        v = dist_s[i]
        m = i32(v & i32(15) & i32(i32(v - far) >> s31))  # the bits, 0 beyond r
        none = i32(i32(m - one) >> s31)  # all ones if m == 0
        mu = i32(i32(-(m & i32(m - one))) >> s31)  # all ones if several bits
        # owner: -1 for no bit, -2 for several, else log2(m) for m in 1, 2, 4, 8
        o = i32(i32(m >> one) - i32(m >> i32(3)))
        o = i32((o & ~mu) | (i32(-2) & mu))
        owner_s[i] = i32(o | none)
        ld = i32(land_s[i])
        cov = i32(cov + (~none & one))
        a = i32(i32(i32(m ^ one) - one) >> s31) & one
        l0 = i32(l0 + (a & ld))
        t0 = i32(t0 + a)
        a = i32(i32(i32(m ^ i32(2)) - one) >> s31) & one
        l1 = i32(l1 + (a & ld))
        t1 = i32(t1 + a)
        a = i32(i32(i32(m ^ i32(4)) - one) >> s31) & one
        l2 = i32(l2 + (a & ld))
        t2 = i32(t2 + a)
        a = i32(i32(i32(m ^ i32(8)) - one) >> s31) & one
        l3 = i32(l3 + (a & ld))
        t3 = i32(t3 + a)
        mu = mu & one
        d0 = i32(d0 + (mu & m))
        d1 = i32(d1 + (mu & (m >> one)))
        d2 = i32(d2 + (mu & (m >> i32(2))))
        d3 = i32(d3 + (mu & (m >> i32(3))))
    sums = (l0, t0, d0, l1, t1, d1, l2, t2, d2, l3, t3, d3, cov)
    for k in range(13):
        acc[k] += sums[k]


@numba.njit(cache=True, inline="always")
def _box_counts(land_flat, dist, far, owner, stride, r0, r1, c0, c1, counts, sign):  # type: ignore[no-untyped-def]
    """Add ``sign`` times the counts of the cells of a box (rows ``r0..r1``, columns
    ``c0..c1``, padded coordinates) read off the packed grid; with ``sign > 0`` also
    write their owners."""
    for rr in range(r0, r1 + 1):
        base = rr * stride
        for i in range(base + c0, base + c1 + 1):
            v = dist[i]
            if v >= far:
                if sign > 0:
                    owner[i] = -1
                continue
            m = v & 255
            o = _OWNER_OF_MASK[m]
            if sign > 0:
                owner[i] = o
            if o >= 0:
                counts[o, 1 - land_flat[i]] += sign
            else:
                e = 0
                while m != 0:
                    if m & 1:
                        counts[e, 2] += sign
                    m >>= 1
                    e += 1


@numba.njit(cache=True)
def ownership_update(land_flat, stride, r, cells, empires, boxes, owner, dist, counts):  # type: ignore[no-untyped-def]
    """Bring ``owner``, ``counts`` and the packed grid ``dist`` of
    :func:`ownership_kernel` up to date for the outposts ``cells``/``empires``, when
    only cells inside ``boxes`` can have changed (up to 8 empires).

    ``boxes`` is ``int64`` ``(k, 4)``: first row, last row, first column, last column,
    padded coordinates, inside the board (for an outpost that moved from a to b, the
    bounding box of both diamonds).  Per box: its cells' old counts are taken off,
    the box is cleared and every diamond meeting it stamped again, clipped to it, and
    the new owners and counts are read off.  Boxes may overlap (a cell recomputed
    twice gets the same answer).  Cost: the boxes' area plus, per box, a test per
    outpost and the stamped overlaps.
    """
    far = np.int32((r + 1) << 8)
    n = cells.shape[0]
    prow = np.empty(n, np.int64)
    pcol = np.empty(n, np.int64)
    for k in range(n):
        prow[k] = cells[k] // stride
        pcol[k] = cells[k] - prow[k] * stride
    w = 2 * r + 1
    tmpl = _diamond_template(r)
    for q in range(boxes.shape[0]):
        r0 = boxes[q, 0]
        r1 = boxes[q, 1]
        c0 = boxes[q, 2]
        c1 = boxes[q, 3]
        _box_counts(land_flat, dist, far, owner, stride, r0, r1, c0, c1, counts, -1)
        for rr in range(r0, r1 + 1):
            dist[rr * stride + c0 : rr * stride + c1 + 1] = far
        for k in range(n):
            pr = prow[k]
            pc = pcol[k]
            if pr + r < r0 or pr - r > r1 or pc + r < c0 or pc - r > c1:
                continue
            bit = np.int32(1) << np.int32(empires[k])
            for rr in range(max(r0, pr - r), min(r1, pr + r) + 1):
                span = r - abs(rr - pr)
                lo = max(c0, pc - span)
                hi = min(c1, pc + span)
                if lo > hi:
                    continue
                t0 = (rr - pr + r) * w + r - pc + lo
                seg = dist[rr * stride + lo : rr * stride + hi + 1]
                tm = tmpl[t0 : t0 + hi - lo + 1]
                for t in range(seg.shape[0]):
                    seg[t] = _merge_masks(seg[t], tm[t] | bit)
        _box_counts(land_flat, dist, far, owner, stride, r0, r1, c0, c1, counts, 1)


@numba.njit(cache=True, inline="always")
def _merge(old, key):  # type: ignore[no-untyped-def]
    """Combine packed (distance << 8 | bits) int32 values: the nearer, or both bits on a
    tie (same distance bits); for long loops, which vectorise."""
    return (old | key) if (old ^ key) < np.int32(256) else min(old, key)


@numba.njit(cache=True, inline="always")
def _merge_masks(old, key):  # type: ignore[no-untyped-def]
    """:func:`_merge` with arithmetic masks rather than comparisons, so that short rows
    (the scalar remainder of a vector loop) do not branch unpredictably."""
    i32 = np.int32
    diff = i32(old - key)
    nearer = i32(key + (diff & (diff >> i32(31))))  # min(old, key)
    tie = i32(i32((old ^ key) - i32(256)) >> i32(31))  # all ones on a tie
    return i32(((old | key) & tie) | (nearer & ~tie))


@numba.njit(cache=True, inline="always")
def _sweep_columns(dist, stride, rows, cols):  # type: ignore[no-untyped-def]
    """1-D min-plus sweeps down and up every column at once, a row at a time (each row
    is one vectorised loop over the row above or below it)."""
    step = np.int32(256)
    for rr in range(2, rows + 1):
        row = dist[rr * stride + 1 : rr * stride + cols + 1]
        up = dist[(rr - 1) * stride + 1 : (rr - 1) * stride + cols + 1]
        for i in range(cols):
            row[i] = _merge(row[i], up[i] + step)
    for rr in range(rows - 1, 0, -1):
        row = dist[rr * stride + 1 : rr * stride + cols + 1]
        down = dist[(rr + 1) * stride + 1 : (rr + 1) * stride + cols + 1]
        for i in range(cols):
            row[i] = _merge(row[i], down[i] + step)


@numba.njit(cache=True, inline="always")
def _transpose(src, dst, rows, cols):  # type: ignore[no-untyped-def]
    """Interior of the padded ``rows x cols`` grid ``src`` into the padded ``cols x rows``
    grid ``dst``."""
    s = cols + 2
    d = rows + 2
    for r0 in range(1, rows + 1, 8):  # blocks of 8 rows: dst rows written in runs
        r1 = min(r0 + 8, rows + 1)
        for cc in range(1, cols + 1):
            for rr in range(r0, r1):
                dst[cc * d + rr] = src[rr * s + cc]


@numba.njit(cache=True, inline="always")
def _transform(dist, tmp, stride, rows, cols):  # type: ignore[no-untyped-def]
    """Exact L1 nearest distance and nearest set: 1-D min-plus sweeps down and up the
    columns, then along the rows as columns of the transposed grid in ``tmp``
    (distances are separable; ties keep every source).  Its cost grows with the cells,
    whatever the number of outposts (``docs/outpost.md`` gives the measured figure)."""
    _sweep_columns(dist, stride, rows, cols)
    _transpose(dist, tmp, rows, cols)
    _sweep_columns(tmp, rows + 2, cols, rows)
    _transpose(tmp, dist, cols, rows)
