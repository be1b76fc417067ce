"""The capacity boxes of the compact exact sum (:mod:`.compact`): per row, the range of each
seat's capacity that the ranks before can reach and those after can complete (the numpy
reference and the C kernel's call)."""

from __future__ import annotations


import numpy as np


try:  # the C kernels (built from _compact.c at install time)
    from . import _compact
except ImportError:  # pragma: no cover - depends on the build
    _compact = None


def _boxes_numpy(codes: list, edges: list, mv_blk: list, blo: np.ndarray, bhi: np.ndarray, caps: np.ndarray,
                 term_lo: np.ndarray, term_hi: np.ndarray, live: list) -> list | None:
    """The capacity boxes of every stage's rows, ``[(lo, hi)]`` (``live`` updated: rows with
    an empty box, or cut off by such rows, die); ``None`` when no row is left. The numpy
    reference of the C kernel ``boxes``."""
    R = len(edges)
    nd = len(caps)
    boxes: list = []
    # per stage, the edges sorted by their row out (forward) and by their row in (backward)
    fsort, bsort = [], []
    for i in range(R):
        src, mvi, dst = edges[i]
        b_ = mv_blk[i][mvi]
        o, keys, starts = _groups(dst)
        fsort.append((src[o], dst[o], b_[o], keys, starts))
        o, keys, starts = _groups(src)
        bsort.append((src[o], dst[o], b_[o], keys, starts))
    for _round in range(4):
        flo = [np.full((len(x), nd), 1 << 30, dtype=np.int64) for x in codes]
        fhi = [np.full((len(x), nd), -1, dtype=np.int64) for x in codes]
        flo[0][live[0]] = 0
        fhi[0][live[0]] = 0
        for i in range(R):
            src, dst, b_, keys, starts = fsort[i]
            if not len(src):
                continue
            ok = live[i][src] & live[i + 1][dst] & (fhi[i][src, 0] >= 0)
            vlo = flo[i][src] + blo[b_]
            vhi = np.minimum(fhi[i][src] + bhi[b_], caps)
            if not ok.all():
                vlo[~ok] = 1 << 30
                vhi[~ok] = -1
            flo[i + 1][keys] = np.minimum.reduceat(vlo, starts, axis=0)
            fhi[i + 1][keys] = np.maximum.reduceat(vhi, starts, axis=0)
        tlo = [np.full((len(x), nd), 1 << 30, dtype=np.int64) for x in codes]
        thi = [np.full((len(x), nd), -1, dtype=np.int64) for x in codes]
        tlo[R][live[R]] = term_lo
        thi[R][live[R]] = term_hi
        for i in range(R - 1, -1, -1):
            src, dst, b_, keys, starts = bsort[i]
            if not len(src):
                continue
            ok = live[i][src] & live[i + 1][dst] & (thi[i + 1][dst, 0] >= 0)
            vlo = np.maximum(tlo[i + 1][dst] - bhi[b_], 0)
            vhi = thi[i + 1][dst] - blo[b_]
            if not ok.all():
                vlo[~ok] = 1 << 30
                vhi[~ok] = -1
            tlo[i][keys] = np.minimum.reduceat(vlo, starts, axis=0)
            thi[i][keys] = np.maximum.reduceat(vhi, starts, axis=0)
        changed = False
        boxes = []
        for i in range(R + 1):
            lo = np.maximum(flo[i], tlo[i])
            hi = np.minimum(np.minimum(fhi[i], thi[i]), caps)
            ok = live[i] & (hi >= lo).all(axis=1)
            if (ok != live[i]).any():
                changed = True
                live[i] = ok
            boxes.append((lo, hi))
        if not changed:
            break
        for i in range(R - 1, -1, -1):   # a row with no live move out is dead
            src, mvi, dst = edges[i]
            lv = np.zeros(len(codes[i]), dtype=bool)
            lv[src[live[i][src] & live[i + 1][dst]]] = True
            live[i] &= lv
        for i in range(R):               # ... and one with no live move in
            src, mvi, dst = edges[i]
            lv = np.zeros(len(codes[i + 1]), dtype=bool)
            lv[dst[live[i][src] & live[i + 1][dst]]] = True
            live[i + 1] &= lv
        if not live[R].any():
            return None
    return boxes


def _boxes_c(codes: list, edges: list, mv_blk: list, blo: np.ndarray, bhi: np.ndarray, caps: np.ndarray,
             term_lo: np.ndarray, term_hi: np.ndarray, live: list) -> list | None:
    """:func:`_boxes_numpy` by the C kernel ``boxes`` (rows numbered across the stages)."""
    R = len(edges)
    nd = len(caps)
    sizes = [len(c) for c in codes]
    start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    src = np.concatenate([e[0] + start[i] for i, e in enumerate(edges)]).astype(np.int64, copy=False)
    dst = np.concatenate([e[2] + start[i + 1] for i, e in enumerate(edges)]).astype(np.int64, copy=False)
    blk = np.concatenate([mv_blk[i][e[1]] for i, e in enumerate(edges)]).astype(np.int64, copy=False)
    lv = np.concatenate(live).astype(np.int64)
    lo = np.zeros((len(lv), nd), dtype=np.int64)
    hi = np.zeros((len(lv), nd), dtype=np.int64)
    _compact.boxes(start, src, dst, blk, np.ascontiguousarray(blo), np.ascontiguousarray(bhi),
                   np.ascontiguousarray(caps, dtype=np.int64), term_lo, term_hi, lv, lo, hi)
    boxes = []
    for i in range(R + 1):
        live[i] = lv[start[i]:start[i + 1]].astype(bool)
        boxes.append((lo[start[i]:start[i + 1]], hi[start[i]:start[i + 1]]))
    return boxes if live[R].any() else None


def _groups(key: np.ndarray) -> tuple:
    """``(order, keys, starts)``: ``key`` sorted, its distinct values and where each starts."""
    order = np.argsort(key, kind="stable")
    sk = key[order]
    if not len(sk):
        return order, sk, np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.concatenate([[True], sk[1:] != sk[:-1]]))
    return order, sk[starts], starts


def _group_min_max(lo: np.ndarray, hi: np.ndarray, grp: tuple, ok: np.ndarray, vlo: np.ndarray,
                   vhi: np.ndarray) -> None:
    """``lo[key] = min(lo[key], vlo)`` and ``hi[key] = max(hi[key], vhi)`` over the entries
    where ``ok`` holds, grouped by key (``grp`` from :func:`_groups`)."""
    order, keys, starts = grp
    if not len(order):
        return
    okr = ok[order]
    a = np.where(okr[:, None], vlo[order], 1 << 30)
    b = np.where(okr[:, None], vhi[order], -1)
    lo[keys] = np.minimum(lo[keys], np.minimum.reduceat(a, starts, axis=0))
    hi[keys] = np.maximum(hi[keys], np.maximum.reduceat(b, starts, axis=0))
