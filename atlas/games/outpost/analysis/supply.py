"""Numba kernels of Outpost supply lines: which outposts are linked to their home.

Re-exported by :mod:`atlas.games.outpost.analysis`, whose docstring states the rule (a path of
*good* cells, land that is neutral or the empire's alone, from home to a neighbour of
the outpost) and the kernel conventions.

* :func:`supply_kernel` -- one empire's outposts, buffers reinitialised.
* :func:`supply_core` -- the same for buffers already clean (``mark`` all 0, ``heads``
  all -1), left clean on exit, for callers checking several empires.

References
----------
``outpost-2014-spec.txt``; ``docs/outpost.md``.
"""

from __future__ import annotations

import numpy as np

from ....jit import numba  # numba itself is imported on first compile

__all__ = ["supply_kernel", "supply_core"]


@numba.njit(cache=True, inline="always")
def _good(land_flat, owner, empire, c):  # type: ignore[no-untyped-def]
    if land_flat[c] == 0:
        return False
    o = owner[c]
    return o == -1 or o == empire


@numba.njit(cache=True, inline="always")
def _order_by(keys):  # type: ignore[no-untyped-def]
    """The indices of ``keys`` in increasing order, ties in index order (an insertion
    sort: an empire has tens of outposts, and numba's ``argsort`` costs a second and a
    half of compiling its quicksort in every process that compiles the rules)."""
    n = keys.shape[0]
    order = np.empty(n, np.int64)
    for i in range(n):
        k = keys[i]
        j = i
        while j > 0 and keys[order[j - 1]] > k:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    return order


@numba.njit(cache=True)
def supply_kernel(  # type: ignore[no-untyped-def]
    land_flat, stride, owner, empire, home, cells, alive, mark, link, seen, heads
):  # pragma: no cover - compiled
    """Supply lines of one empire's outposts; see the module docstring."""
    n = land_flat.shape[0]
    for i in range(n):
        mark[i] = 0
    for i in range(min(n, n // stride + stride)):  # keys < rows + cols + 4
        heads[i] = -1
    return supply_core(
        land_flat, stride, owner, empire, home, cells, alive, mark, link, seen, heads
    )


@numba.njit(cache=True)
def supply_core(land_flat, stride, owner, empire, home, cells, alive, mark, link, seen, heads):  # type: ignore[no-untyped-def]
    """:func:`supply_kernel` for buffers already clean: ``mark`` all 0 and ``heads``
    all -1 on entry; both are left so on exit (so a caller checking several empires
    clears them once)."""
    home_r = home // stride
    home_c = home % stride
    home_good = _good(land_flat, owner, empire, home)
    n = cells.shape[0]
    if home_good:
        mark[home] = 1
    # outposts nearest home first; each search heads for the nearest cell already known
    # to reach home (home, or the start of an earlier successful search)
    keys = np.empty(n, np.int64)
    for k in range(n):
        keys[k] = abs(cells[k] // stride - home_r) + abs(cells[k] % stride - home_c)
    order = _order_by(keys)
    tr = np.empty(n + 1, np.int64)
    tc = np.empty(n + 1, np.int64)
    tr[0] = home_r
    tc[0] = home_c
    nt = 1
    nseen = 0
    survivors = 0
    for kk in range(n):
        k = order[kk]
        p = cells[k]
        ok = p == home
        if not ok and home_good:
            pr = p // stride
            pc = p % stride
            best = 0
            bd = abs(pr - tr[0]) + abs(pc - tc[0])
            for t in range(1, nt):
                d = abs(pr - tr[t]) + abs(pc - tc[t])
                if d < bd:
                    bd = d
                    best = t
            for nb in (p - stride, p + 1, p + stride, p - 1):
                if land_flat[nb] == 0:
                    continue
                o = owner[nb]
                if o != -1 and o != empire:
                    continue
                # greedy best-first search from nb towards (gr, gc), inlined (a call
                # passing arrays costs reference counting); stops at the first cell
                # known to reach home (mark 1) or known not to (2), or when nb's
                # component is exhausted; every cell entered gets the answer, so no
                # later search enters it again
                gr = tr[best]
                gc = tc[best]
                mk = mark[nb]
                if mk == 0:
                    # first a straight walk: step towards (gr, gc) along rows or columns
                    # while the cells are good; it settles most outposts in open country
                    # for a few nanoseconds a cell
                    first = nseen
                    q = nb
                    qr = nb // stride
                    qc = nb - qr * stride
                    mark[q] = 3
                    seen[nseen] = q
                    nseen += 1
                    mk = 0
                    while mk == 0:
                        nxt = -1
                        if qr != gr:
                            cand = q + stride if gr > qr else q - stride
                            if land_flat[cand] != 0 and (
                                owner[cand] == -1 or owner[cand] == empire
                            ):
                                nxt = cand
                                qr += 1 if gr > qr else -1
                        if nxt < 0 and qc != gc:
                            cand = q + 1 if gc > qc else q - 1
                            if land_flat[cand] != 0 and (
                                owner[cand] == -1 or owner[cand] == empire
                            ):
                                nxt = cand
                                qc += 1 if gc > qc else -1
                        if nxt < 0:
                            break
                        q = nxt
                        mk = mark[q]
                        if mk == 0:
                            mark[q] = 3
                            seen[nseen] = q
                            nseen += 1
                    if mk == 1 or mk == 2:
                        for i in range(first, nseen):
                            mark[seen[i]] = mk
                    else:  # stuck: forget the walk, search properly
                        for i in range(first, nseen):
                            mark[seen[i]] = 0
                        nseen = first
                        mk = 0
                if mk == 1:
                    result = 1
                elif mk == 2:
                    result = 2
                else:
                    first = nseen
                    mark[nb] = 3
                    seen[nseen] = nb
                    nseen += 1
                    key = abs(nb // stride - gr) + abs(nb % stride - gc)
                    link[nb] = heads[key]
                    heads[key] = nb
                    kmin = key
                    kmax = key
                    pending = 1
                    result = 2
                    while pending > 0 and result == 2:
                        while heads[kmin] < 0:
                            kmin += 1
                        c = heads[kmin]
                        heads[kmin] = link[c]
                        pending -= 1
                        cr = c // stride  # one division per cell: neighbours' keys follow
                        cc = c - cr * stride
                        dr0 = abs(cr - gr)
                        dc0 = abs(cc - gc)
                        for q, kq in (
                            (c - stride, abs(cr - 1 - gr) + dc0),
                            (c + 1, dr0 + abs(cc + 1 - gc)),
                            (c + stride, abs(cr + 1 - gr) + dc0),
                            (c - 1, dr0 + abs(cc - 1 - gc)),
                        ):
                            if land_flat[q] == 0:
                                continue
                            oq = owner[q]
                            if oq != -1 and oq != empire:
                                continue
                            mq = mark[q]
                            if mq == 0:
                                mark[q] = 3
                                seen[nseen] = q
                                nseen += 1
                                link[q] = heads[kq]
                                heads[kq] = q
                                if kq < kmin:
                                    kmin = kq
                                if kq > kmax:
                                    kmax = kq
                                pending += 1
                            elif mq == 1:
                                result = 1
                                break
                            elif mq == 2:
                                break
                    for kq in range(kmin, kmax + 1):
                        heads[kq] = -1
                    for i in range(first, nseen):
                        mark[seen[i]] = result
                if result == 1:
                    ok = True
                    tr[nt] = nb // stride
                    tc[nt] = nb % stride
                    nt += 1
                    break
        alive[k] = 1 if ok else 0
        survivors += 1 if ok else 0
    for i in range(nseen):
        mark[seen[i]] = 0
    mark[home] = 0
    return survivors
