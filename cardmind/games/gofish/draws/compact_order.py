"""The ranks' order of the compact exact sum (:mod:`.compact`): the draw engine's
:func:`~.dp.block_order`, or, where the planner's work for it is estimated large, the order
that minimises that estimate (a dynamic programme over the sets of ranks placed)."""

from __future__ import annotations

import numpy as np

from . import settings


def _order(dom: np.ndarray, R: int, eff: list | None = None, nus: list | None = None) -> list[int]:
    """The ranks' order. First the draw engine's :func:`~.dp.block_order` (on ``dom``, the
    bool matrix draws x rank positions of the ranks each draw may be: the ranks no draw can
    be first, then the order that keeps fewest draws open); when ``eff`` and ``nus`` are
    given and the estimate of the planner's work for that order (:func:`_order_costs`:
    ``sum over stages of rows x moves``) passes ``settings.COMPACT_ORDER_SEARCH``, the order
    that minimises the estimate, by a dynamic programme over the sets of ranks placed (the
    ranks no draw can be stay first). On hard full-deck positions the estimate's order cut
    the transitions 3 to 25 times against block_order's (which counts the draws open at a
    stage, not the classes they form)."""
    from .dp import block_order  # noqa: PLC0415

    m = len(dom)
    fake = []
    for pos in range(R):
        mask = 0
        for j in range(m):
            if dom[j, pos]:
                mask |= 1 << j
        fake.append([(mask, None)] if mask else [(0, None)])
    base = block_order(fake, m)
    if eff is None or nus is None or not m:
        return base
    free = [p for p in range(R) if dom[:, p].any()]
    head = [p for p in base if p not in free]
    if len(free) < 3 or len(free) > 16:
        return base
    tail = [p for p in base if p in free]
    first = _order_costs(dom, eff, nus, free, tail)
    if first <= settings.COMPACT_ORDER_SEARCH:
        return base
    return head + _order_costs(dom, eff, nus, free, None)


def _order_costs(dom: np.ndarray, eff: list, nus: list, free: list, order: list | None):
    """The estimate of :func:`_order` for the ranks ``free`` (positions; the others are placed
    first and left out): with ``order`` (of ``free``) its estimate, else the order of
    ``free`` that minimises it.

    With the ranks ``P`` placed and ``Q`` to come, the draws fall into classes (their
    segments in ``Q``; computed for every ``Q`` at once by hashing); the rows are estimated
    by the product of ``(size + 1)`` over the classes both ``P`` and ``Q`` may take (an
    upper bound on the count vectors), and the moves of placing rank ``r`` by the sum over
    its blocks ``nu`` of the product over its segments ``g`` of the ways to spread ``nu[g]``
    draws over the ``n_g`` classes of ``g`` (``C(n_g + nu[g] - 1, nu[g])``). The cost of
    placing ``r`` after ``P`` is their product; the order minimises the sum, exactly, by a
    dynamic programme over ``P`` (``2**len(free)`` sets)."""
    F = len(free)
    full = 1 << F
    rng = np.random.default_rng(12345)
    dom = dom[:, free]
    eff = [eff[p] for p in free]
    nus = [nus[p] for p in free]
    if order is not None:
        idx = [free.index(p) for p in order]
        Qarr = np.array([sum(1 << x for x in idx[i:]) for i in range(F)], dtype=np.int64)
    else:
        Qarr = np.arange(full, dtype=np.int64)
    hv = _segment_tags(eff, dom.shape[0], rng)
    sig, bits, logrows, cbit = _row_estimates(Qarr, hv, dom)
    cost = _placing_costs(eff, nus, sig, bits, logrows, cbit, rng)
    ecost = np.exp(np.minimum(cost, 700.0))
    if order is not None:
        return float(sum(ecost[i, r] for i, r in enumerate(idx)))
    return _cheapest_order(ecost, bits, free)


def _segment_tags(eff: list, m: int, rng: np.random.Generator) -> np.ndarray:
    """Per (rank, draw) a random 64-bit tag of the draw's segment in that rank (0 when the
    draw cannot be of it): uint64 ``(len(eff), m)``; a class of the ranks ``Q`` is a value
    of the sum of the tags over ``Q``. Draws from ``rng`` rank by rank."""
    F = len(eff)
    hv = np.zeros((F, m), dtype=np.uint64)
    for q in range(F):
        tags = rng.integers(1, 2 ** 62, size=int(max(eff[q].max(), 0)) + 1, dtype=np.int64).astype(np.uint64)
        ok = eff[q] >= 0
        hv[q, ok] = tags[eff[q][ok]] * np.uint64(2 * q + 3)
    return hv


def _row_estimates(Qarr: np.ndarray, hv: np.ndarray, dom: np.ndarray) -> tuple:
    """For every set ``Q`` of ranks to come (``Qarr``: int64 bit masks over the ranks of
    ``hv``): ``(sig, bits, logrows, cbit)``, each draw's class (uint64 ``nq x m``: the sum
    of its tags over ``Q``), ``Q`` as int64 ``nq x F`` bits, the log of the estimated rows
    (float ``nq``: the sum of ``log(size + 1)`` over the classes open, those whose draws may
    be of ranks both placed and to come), and each draw's class as one bit of a uint64 (the
    classes of a row numbered in sorted order; ``None`` past 64 draws)."""
    F, m = hv.shape
    nq = len(Qarr)
    bits = ((Qarr[:, None] >> np.arange(F)[None, :]) & 1).astype(np.uint64)      # nq x F
    sig = bits @ hv                                                               # nq x m (mod 2**64)
    bits = bits.astype(np.int64)
    # classes per Q (runs of equal tags); a class is open when its draws may be of ranks both
    # placed and to come
    order_idx = np.argsort(sig, axis=1, kind="stable")
    srt = np.take_along_axis(sig, order_idx, axis=1)
    domQ = (bits @ dom.T.astype(np.int64)) > 0                                   # nq x m
    domP = ((1 - bits) @ dom.T.astype(np.int64)) > 0
    opened = np.take_along_axis(domQ & domP, order_idx, axis=1).reshape(-1)
    start = np.ones((nq, m), dtype=bool)
    start[:, 1:] = srt[:, 1:] != srt[:, :-1]
    # each draw's class as one bit (the classes of a row numbered in sorted order): the classes
    # a set of draws meets in a row are the bits of the OR of theirs (when they fit 64 bits)
    cbit = None
    if m <= 64 and hasattr(np, "bitwise_count"):
        cid = np.cumsum(start, axis=1) - 1
        cbit = np.empty((nq, m), dtype=np.uint64)
        np.put_along_axis(cbit, order_idx, np.left_shift(np.uint64(1), cid.astype(np.uint64)), axis=1)
    starts = np.flatnonzero(start.reshape(-1))
    runlen = np.diff(np.concatenate([starts, [nq * m]]))
    run_open = np.maximum.reduceat(opened.astype(np.int64), starts)
    logrows = np.bincount(starts // m, weights=run_open * np.log(runlen + 1.0), minlength=nq)
    return sig, bits, logrows, cbit


def _placing_costs(eff: list, nus: list, sig: np.ndarray, bits: np.ndarray, logrows: np.ndarray,
                   cbit: np.ndarray | None, rng: np.random.Generator) -> np.ndarray:
    """The log of the estimated cost of placing each rank ``r`` with the ranks ``Q`` to come
    (float ``nq x F``; ``inf`` for a rank without blocks): the log rows plus the log of the
    moves, the sum over its blocks ``nu`` of the product over its segments of
    ``C(n_g + nu[g] - 1, nu[g])`` (see :func:`_order_costs`). Draws from ``rng`` rank by rank
    (a hash of each rank's distinct class counts)."""
    from math import lgamma  # noqa: PLC0415

    nq, F = bits.shape
    m = sig.shape[1]
    # log C(n + v - 1, v) for n classes and v draws
    lct = np.array([[lgamma(n + v) - lgamma(v + 1) - lgamma(max(n, 1)) if v else 0.0 for v in range(5)]
                    for n in range(m + 2)])
    cost = np.full((nq, F), np.inf)
    for r in range(F):
        if not nus[r]:
            continue
        nu = np.array(nus[r], dtype=np.int64).reshape(len(nus[r]), -1)
        nseg = nu.shape[1]
        if nseg == 0:
            cost[:, r] = logrows + np.log(len(nu))
            continue
        ncls = np.ones((nq, nseg), dtype=np.int64)
        for g in range(nseg):
            members = np.flatnonzero(eff[r] == g)
            if len(members) > 1 and cbit is not None:
                ncls[:, g] = np.bitwise_count(np.bitwise_or.reduce(cbit[:, members], axis=1))
            elif len(members) > 1:
                t = np.sort(sig[:, members], axis=1)
                ncls[:, g] = 1 + (t[:, 1:] != t[:, :-1]).sum(axis=1)
        # (on the distinct rows of ncls only: they are few; told apart by a hash)
        key = ncls.astype(np.uint64) @ rng.integers(1, 2 ** 62, size=nseg, dtype=np.int64).astype(np.uint64)
        _, first, inv = np.unique(key, return_index=True, return_inverse=True)
        uq = ncls[first]
        lc = lct[uq[:, None, :], np.minimum(nu, 4)[None, :, :]].sum(axis=2)       # distinct x blocks
        mx = lc.max(axis=1)
        cost[:, r] = logrows + (mx + np.log(np.exp(lc - mx[:, None]).sum(axis=1)))[np.asarray(inv).reshape(-1)]
    return cost


def _cheapest_order(ecost: np.ndarray, bits: np.ndarray, free: list) -> list:
    """The order of ``free`` (rank positions) that minimises the sum of the costs of placing
    each rank (``ecost``: float ``2**F x F``, by the set of ranks to come and the rank), by a
    dynamic programme over the sets placed: ``f[P] = min over r in P of f[P - r] + cost(Q +
    r, r)``."""
    F = len(free)
    full = 1 << F
    f = np.full(full, np.inf)
    f[0] = 0.0
    arg = np.zeros(full, dtype=np.int64)
    pc = bits.sum(axis=1)
    allm = full - 1
    for k in range(1, F + 1):
        Ps = np.flatnonzero(pc == k)
        best = np.full(len(Ps), np.inf)
        barg = np.zeros(len(Ps), dtype=np.int64)
        for r in range(F):
            has = (Ps >> r) & 1 == 1
            prev = Ps ^ (1 << r)
            c = np.where(has, f[prev] + ecost[allm ^ prev, r], np.inf)
            better = c < best
            best = np.where(better, c, best)
            barg = np.where(better, r, barg)
        f[Ps] = best
        arg[Ps] = barg
    out, P = [], allm
    while P:
        r = int(arg[P])
        out.append(free[r])
        P ^= 1 << r
    return out[::-1]
