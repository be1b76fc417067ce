"""The compact exact sum itself (:class:`CompactSum`): the forward and backward passes and the
contexts over the rows' capacity boxes of a :class:`~.compact.CompactPlan` (the C kernel
``_compact.c``; the numpy code here is its reference)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import settings
from .timeline import _Timeline

try:  # the C kernels (built from _compact.c at install time)
    from . import _compact
except ImportError:  # pragma: no cover - depends on the build
    _compact = None

if TYPE_CHECKING:
    from .compact import CompactPlan


# --------------------------------------------------------------------------- the sum
def _box_cells(lo: np.ndarray, dim: np.ndarray) -> np.ndarray:
    """The coordinates of every cell of a box (row-major), shape ``(cells, D)``."""
    grids = np.indices(tuple(int(x) for x in dim)).reshape(len(dim), -1).T
    return grids + lo[None, :]


class CompactSum:
    """The forward and backward tables and the context sums of a :class:`CompactPlan`, and
    what follows from them: the total, the holdings and the face-down books, and posterior
    draws of the hidden counts.

    Args:
        plan: the plan (:func:`plan_compact`), not empty.
        fast: use the C kernels when built (``False``: the numpy reference, slow).
        contexts: compute the context sums (needed for the marginals; not for the total and
            the worlds).
    """

    def __init__(self, plan: CompactPlan, fast: bool = True, contexts: bool = True):
        self.plan = p = plan
        self.fast = fast and _compact is not None
        self._incoming = None
        F = np.zeros(p.cells)
        F[p.row_off[p.start_row] + self._index(p.start_row, np.zeros(p.D, dtype=np.int64))] = 1.0
        T = np.zeros(p.cells)
        fin = p.final_row
        cells = _box_cells(p.row_lo[fin], p.row_dim[fin])
        term = ((cells >= p.terminal_lo) & (cells <= p.terminal_hi)).all(axis=1)
        T[p.row_off[fin]:p.row_off[fin] + len(cells)] = term.astype(float)
        self._term = term
        args = (p.row_off, p.row_lo, p.row_dim, p.tr_src, p.tr_dst, p.tr_coef, p.tr_blk, p.blk_off, p.blk_n,
                p.x_inc, p.x_w)
        if self.fast:
            if 0 < settings.COMPACT_THREAD_CELLS <= p.cells:
                # the passes touch different tables: the backward pass in a second thread
                import threading  # noqa: PLC0415

                failed: list = []

                def backward() -> None:
                    try:
                        _compact.backward(T, *args)
                    except BaseException as exc:  # noqa: BLE001 - pragma: no cover; raised again below
                        failed.append(exc)

                side = threading.Thread(target=backward)
                side.start()
                try:
                    _compact.forward(F, *args)
                finally:
                    side.join()
                if failed:   # pragma: no cover - the kernels check their arguments alike
                    raise failed[0]
            else:
                _compact.forward(F, *args)
                _compact.backward(T, *args)
        else:
            self._pass(F, 0)
            self._pass(T, 1)
        self.F, self.T = F, T
        fin_vals = F[p.row_off[fin]:p.row_off[fin] + len(cells)]
        self.total = float(fin_vals[term].sum())
        # every count is a sum of products of positive numbers: a value after stage i is off
        # relatively by at most (the additions and multiplications it went through) times the
        # unit roundoff u, at most R times (the most terms added into one cell, + 2); a
        # context sum adds its terms (at most every transition's block rows) and a probability
        # is a ratio of two such sums
        u = 2.0 ** -53
        fan = np.bincount(p.tr_dst, weights=p.blk_n[p.tr_blk].astype(float), minlength=len(p.row_off))
        depth = len(p.order) * (float(fan.max(initial=0.0)) + 2.0)
        terms = float(p.blk_n[p.tr_blk].sum()) + len(cells)
        #: a bound on the rounding error of any probability the sum gives (relative to 1)
        self.rounding_bound = 2.0 * (2.0 * depth + terms + 2.0) * u
        self.ctx = None
        if contexts:
            X = int(p.blk_n.max()) if len(p.blk_n) else 1
            V = int(p.caps.max()) + 1
            out = np.zeros((len(p.slots), max(1, X), V))
            if self.fast:
                _compact.context(F, T, *args, p.tr_slot, p.x_split, out)
            else:
                self._pass(out, 2)
            self.ctx = out

    def _index(self, row: int, c: np.ndarray) -> int:
        p = self.plan
        lo, dim = p.row_lo[row], p.row_dim[row]
        u = c - lo
        if (u < 0).any() or (u >= dim).any():
            raise IndexError("cell outside the row's box")
        idx = 0
        for d in range(p.D):
            idx = idx * int(dim[d]) + int(u[d])
        return idx

    def _pass(self, tab: np.ndarray, mode: int) -> None:
        """The numpy reference of the kernels (mode 0 forward into ``tab``, 1 backward into
        ``tab``, 2 contexts into ``tab``, the output array)."""
        p = self.plan
        order = range(len(p.tr_src)) if mode != 1 else range(len(p.tr_src) - 1, -1, -1)
        for t in order:
            s, d, b = int(p.tr_src[t]), int(p.tr_dst[t]), int(p.tr_blk[t])
            scells = _box_cells(p.row_lo[s], p.row_dim[s])
            for j in range(int(p.blk_off[b]), int(p.blk_off[b] + p.blk_n[b])):
                tgt = scells + p.x_inc[j]
                ok = ((tgt >= p.row_lo[d]) & (tgt < p.row_lo[d] + p.row_dim[d])).all(axis=1)
                if not ok.any():
                    continue
                si = np.flatnonzero(ok)
                u = tgt[ok] - p.row_lo[d]
                di = np.ravel_multi_index(tuple(u.T), tuple(int(x) for x in p.row_dim[d]))
                wt = p.tr_coef[t] * p.x_w[j]
                if mode == 0:
                    np.add.at(tab, p.row_off[d] + di, wt * tab[p.row_off[s] + si])
                elif mode == 1:
                    np.add.at(tab, p.row_off[s] + si, wt * tab[p.row_off[d] + di])
                else:
                    terms = wt * self.F[p.row_off[s] + si] * self.T[p.row_off[d] + di]
                    jl = j - int(p.blk_off[b])
                    sp_ = int(p.x_split[j])
                    if sp_ < 0:
                        tab[p.tr_slot[t], jl, 0] += terms.sum()
                    else:
                        np.add.at(tab[p.tr_slot[t], jl], scells[si, sp_], terms)

    # ------------------------------------------------------------------ answers
    def marginals(self, t: Any, tl: _Timeline) -> tuple[dict, list]:
        """``(holdings, books)`` as the draw engine's exact answers give them (weights out of
        :attr:`total`): ``{(seat or "stock", rank): {count: weight}}`` and, per face-down
        book, ``({rank: weight}, {owner: weight})``."""
        p = self.plan
        S, K, R = t.S, t.K, t.R
        # every (slot, block row) with its context, the rank and the counts it stands for
        slot_blk = np.array([bid for _, bid, _ in p.slots], dtype=np.int64)
        n_of = p.blk_n[slot_blk]
        rows_s = np.repeat(np.arange(len(p.slots)), n_of)
        first = np.repeat(np.cumsum(n_of) - n_of, n_of)
        jl = np.arange(len(rows_s)) - first
        xr = p.blk_off[slot_blk][rows_s] + jl                 # global block row
        v3 = self.ctx[rows_s, jl, :]
        v = v3.sum(axis=1)
        if not hasattr(self, "_rowinfo"):
            fcs, sts, poss = [], [], []
            for pos, b in p.blocks:
                fcs.append(b.fc)
                sts.append(b.st)
                poss.append(np.full(len(b.w), pos, dtype=np.int64))
            self._rowinfo = (np.concatenate(fcs).reshape(-1, K), np.concatenate(sts), np.concatenate(poss))
        FC, ST, POS = self._rowinfo
        pos_r = POS[xr]
        keep = np.array([r not in tl.known_books for r in t.ranks], dtype=bool)[pos_r]
        acc: dict = {}
        hold = np.zeros((K + 1, R, S + 1))
        for k in range(K):
            np.add.at(hold[k], (pos_r[keep], FC[xr[keep], k]), v[keep])
        np.add.at(hold[K], (pos_r[keep], ST[xr[keep]]), v[keep])
        seats = t.others + ["stock"]
        for pos, r in enumerate(t.ranks):
            if r in tl.known_books:
                continue
            for k, s in enumerate(seats):
                acc[(s, r)] = {c: float(x) for c, x in enumerate(hold[k, pos].tolist()) if x}
        hidden = tl.hidden
        nb = len(hidden)
        ranks_b: list = [dict() for _ in range(nb)]
        owners_b: list = [dict() for _ in range(nb)]
        draw_book = {h[1]: i for i, h in enumerate(hidden) if h[0] == "draw"}
        if draw_book:
            # a face-down book right after an unseen draw (a class of its own): this rank
            # when the block takes it
            per_slot = np.bincount(rows_s, weights=v, minlength=len(p.slots))
            for si, (stage, bid, cls) in enumerate(p.slots):
                if not per_slot[si]:
                    continue
                for ci in cls:
                    c = p.classes[stage][ci]
                    if len(c) == 1 and c[0] in draw_book:
                        i = draw_book[c[0]]
                        r = t.ranks[p.blocks[bid][0]]
                        tot = float(per_slot[si])
                        ranks_b[i][r] = ranks_b[i].get(r, 0.0) + tot
                        ow = tl.final_owner.get(r, tl.draws[c[0]].seat)
                        owners_b[i][ow] = owners_b[i].get(ow, 0.0) + tot
        open_book = {(h[1], h[2]): i for i, h in enumerate(hidden) if h[0] == "open"}
        if open_book:
            # a face-down dealt book: the rank dealt complete to its seat, the counter
            # before the block telling which of its books it is
            hk = {t.K + i: s for i, s in enumerate(tl.opening(tl.n).hseats)}
            spl = p.x_split[xr]
            for a in np.flatnonzero((spl >= 0) & (v > 0)).tolist():
                s = hk[int(spl[a])]
                r = t.ranks[int(pos_r[a])]
                for nth, val in enumerate(v3[a].tolist()):
                    i = open_book.get((s, nth))
                    if i is None or not val:
                        continue
                    ranks_b[i][r] = ranks_b[i].get(r, 0.0) + val
                    ow = tl.final_owner.get(r, s)
                    owners_b[i][ow] = owners_b[i].get(ow, 0.0) + val
        return acc, [(ranks_b[i], owners_b[i]) for i in range(nb)]

    def sample(self, t: Any, n: int, rng: np.random.Generator) -> list[dict]:
        """``n`` independent draws of the hidden counts from the posterior, each
        ``{seat or "stock": [cards per rank]}`` (ranks in ``t.ranks`` order): backward
        sampling through the forward tables (the end cell in proportion to its count, then
        at every stage the transition and block row into the current cell in proportion to
        the count before it times its weight; the C kernel ``sample``, or numpy)."""
        p = self.plan
        fin = p.final_row
        fcells = _box_cells(p.row_lo[fin], p.row_dim[fin])
        fvals = self.F[p.row_off[fin]:p.row_off[fin] + len(fcells)] * self._term
        if self._incoming is None:
            order = np.argsort(p.tr_dst, kind="stable")
            starts = np.searchsorted(p.tr_dst[order], np.arange(len(p.row_off) + 1))
            self._incoming = (order.astype(np.int64), starts.astype(np.int64))
        order, starts = self._incoming
        R = len(p.order)
        cell0 = rng.choice(len(fcells), size=n, p=fvals / fvals.sum()).astype(np.int64)
        u = rng.random((n, R))
        out_tr = np.full((n, R), -1, dtype=np.int64)
        out_x = np.full((n, R), -1, dtype=np.int64)
        if self.fast:
            _compact.sample(self.F, p.row_off, p.row_lo, p.row_dim, p.tr_src, p.tr_dst, p.tr_coef, p.tr_blk,
                            p.blk_off, p.blk_n, p.x_inc, p.x_w, starts, order, p.start_row, cell0, u, out_tr, out_x)
        else:
            for k in range(n):
                self._walk(fcells[cell0[k]], u[k], out_tr[k], out_x[k], order, starts)
        counts = np.zeros((n, t.K + 1, t.R), dtype=np.int64)
        for k in range(n):
            for st in range(R):
                tr, j = int(out_tr[k, st]), int(out_x[k, st])
                if tr < 0:
                    break
                pos, b = p.blocks[int(p.tr_blk[tr])]
                jl = j - int(p.blk_off[int(p.tr_blk[tr])])
                counts[k, :t.K, pos] = b.fc[jl]
                counts[k, t.K, pos] = b.st[jl]
        seats = t.others + ["stock"]
        return [{s: counts[k, i].tolist() for i, s in enumerate(seats)} for k in range(n)]

    def _walk(self, cell: np.ndarray, u: np.ndarray, out_tr: np.ndarray, out_x: np.ndarray, order: np.ndarray,
              starts: np.ndarray) -> None:
        """One world's backward walk (the numpy reference of the kernel ``sample``)."""
        p = self.plan
        row = p.final_row
        st = 0
        while row != p.start_row:
            opts, ws = [], []
            for tr in order[starts[row]:starts[row + 1]].tolist():
                s, b = int(p.tr_src[tr]), int(p.tr_blk[tr])
                for j in range(int(p.blk_off[b]), int(p.blk_off[b] + p.blk_n[b])):
                    c0 = cell - p.x_inc[j]
                    v = c0 - p.row_lo[s]
                    if (v < 0).any() or (v >= p.row_dim[s]).any():
                        continue
                    f = self.F[p.row_off[s] + int(np.ravel_multi_index(tuple(v), tuple(p.row_dim[s])))]
                    x = f * p.tr_coef[tr] * p.x_w[j]
                    if x > 0:
                        opts.append((tr, j, s, c0))
                        ws.append(x)
            w = np.cumsum(ws)
            k = min(int(np.searchsorted(w, u[st] * w[-1])), len(opts) - 1)
            tr, j, row, cell = opts[k]
            out_tr[st], out_x[st] = tr, j
            st += 1
