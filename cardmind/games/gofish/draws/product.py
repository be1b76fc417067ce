"""One block product of the draw engine: its total and exact marginals."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .dp import _DP, _side_by_side, block_order
from .tables import _Block
from .timeline import _Timeline

if TYPE_CHECKING:  # pragma: no cover
    from .engine import DrawEngine

@dataclass
class _Answer:
    """What the tracker asks: exact integers (``exact``) or probabilities with an estimate."""
    exact: bool
    total: Any                      # int (exact) or float (estimate)
    holdings: dict                  # {(seat or "stock", rank): {count: weight}}
    books: list                     # per face-down book: ({rank: weight}, {owner: weight})
    den: Any                        # what the weights are out of (total, or 1.0)
    book_log: list = field(default_factory=list)
    known_books: dict = field(default_factory=dict)
    draws: int = 0
    leaves: int | None = None
    steps: int = 0
    stderr: float | None = None     # sampled answers: largest estimated standard error (None: too few steps)
    #: sampled answers: the standard error of every probability, as ``holdings`` and ``books``
    #: hold them (``{"holdings": {key: {count: se}}, "books": [({rank: se}, {owner: se})]}``)
    stderrs: dict | None = None
    bound: float = 0.0              # exact sums in floating point: a bound on a probability's rounding error


class _Product:
    """One block product: the draws of ``fixed`` at their ranks, the ``free`` ones summed
    over (see :class:`_DP`); its total and exact marginals."""

    def __init__(self, eng: DrawEngine, tl: _Timeline, fixed: dict, free: list, cut: int, dtype,
                 backward: bool = True, vb: list | None = None, allowed: set | None = None,
                 plan: tuple | None = None):
        self.eng, self.tl, self.fixed, self.free, self.cut = eng, tl, fixed, free, cut
        self.vb = eng.variants(tl, fixed, free, cut, allowed) if vb is None else vb
        self.sp = eng._space(tl.opening(cut))
        self.dtype = dtype
        if any(not vs for vs in self.vb):
            self.dp = None
            self.total = 0
            return
        # blocks without free draws come first (block_order), so the "free" backward pass
        # below reaches every block that holds a free draw
        # (``plan``: ``(order, rows)`` of :meth:`DrawEngine.plan`, already computed)
        order, rows, stream = plan if plan is not None else (block_order(self.vb, len(free)), None, False)
        if backward == "free":  # contexts are needed for the blocks with free draws only
            backward = sum(1 for vs in self.vb if not any(t for t, _ in vs))
        self._ctx: dict = {}
        #: the backward tables were dropped stage by stage (``plan``'s ``stream``): every
        #: context was computed then, masked ones cannot be asked for
        self.streamed = bool(stream)
        self.dp = _DP(self.sp, self.vb, len(free), dtype, backward, order, rows,
                      stream=self._stage_contexts if stream else None)
        self.total = self.dp.total

    def _stage_contexts(self, dp: "_DP", i: int) -> None:
        """The streamed backward pass of ``dp`` at stage ``i``: the contexts of every variant
        of the block placed there (two threads for large tables, as :meth:`prefetch`)."""
        pos = dp.order[i]
        self._contexts([(pos, vi) for vi in range(len(self.vb[pos]))], dp)

    def _contexts(self, todo: list, dp: "_DP | None" = None) -> None:
        dp = self.dp if dp is None else dp

        def run(part: list) -> None:
            for key in part:
                self._ctx[key] = dp.context(*key)

        if not dp.parallel or len(todo) < 2:
            run(todo)
        else:
            _side_by_side(lambda: run(todo[::2]), lambda: run(todo[1::2]), "cardmind-dp-context")

    def prefetch(self) -> None:
        """Compute the context of every variant now, in two threads when the tables are
        large (the C kernel releases the GIL); :meth:`ctx` then reads them."""
        if self.dp is None or not self.dp.parallel:
            return   # small: computed when asked
        self._contexts([(pos, vi) for pos in range(len(self.vb)) for vi in range(len(self.vb[pos]))
                        if (pos, vi) not in self._ctx])

    def ctx(self, pos: int, vi: int):
        got = self._ctx.get((pos, vi))
        if got is None:
            got = self._ctx[(pos, vi)] = self.dp.context(pos, vi)
        return got

    def _dense(self, acc_h: dict, pos: int, r: str, vi: int, b: _Block, v: np.ndarray, scale) -> None:
        """The float path of :meth:`marginals`: counts accumulated in arrays."""
        t = self.eng.t
        S = t.S
        op = self.tl.opening(self.cut)
        v = v * scale
        for k, s in enumerate(t.others):
            arr = acc_h.get((s, r))
            if arr is None:
                arr = acc_h[(s, r)] = np.zeros(S + 1)
            arr += np.bincount(b.fc[:, k], weights=v, minlength=S + 1)[:S + 1]
        arr = acc_h.get(("stock", r))
        if arr is None:
            arr = acc_h[("stock", r)] = np.zeros(S + 1)
        arr += np.bincount(b.st, weights=v, minlength=S + 1)[:S + 1]
        if op.pos is not None:
            kp = t.kidx[op.pos]
            comp = np.flatnonzero(b.X[:, kp] == S)
            if len(comp):
                hk = t.K + op.hseats.index(op.pos)
                mask = np.zeros(self.sp.N, dtype=bool)
                for i in range(op.hb[op.pos]):
                    mask |= self.sp.mask(hk, i)
                laid = float(self.dp.context(pos, vi, comp, mask) @ b.weights(float)[comp]) * scale
                acc_h[(op.pos, r)][S] -= laid
                acc_h[(op.pos, r)][0] += laid

    def draw_weights(self) -> list[dict]:
        """Per free draw ``{rank: count}`` (the counts summed over the other free draws)."""
        out: list[dict] = [{} for _ in self.free]
        for pos, r in enumerate(self.eng.t.ranks):
            for vi, (t, b) in enumerate(self.vb[pos]):
                if not t:
                    continue
                v = _sum(b.weights(self.dtype) * self.ctx(pos, vi))
                if not v:
                    continue
                for i in range(len(self.free)):
                    if t >> i & 1:
                        out[i][r] = out[i].get(r, 0) + v
        return out

    def marginals(self, acc_h: dict, acc_b: list, scale) -> None:
        """Add the exact marginals (times ``scale``: 1 for counts, 1/total for
        probabilities) to the accumulators."""
        eng, tl, dp = self.eng, self.tl, self.dp
        t = eng.t
        op = tl.opening(self.cut)
        sp = self.sp
        S = t.S
        W = self.total
        dt = self.dtype
        hk = {s: t.K + i for i, s in enumerate(op.hseats)}
        fast = dt is float
        self.prefetch()
        for pos, r in enumerate(t.ranks):
            if r in tl.known_books:
                continue
            for vi, (tm, b) in enumerate(self.vb[pos]):
                w = b.weights(dt)
                v = w * self.ctx(pos, vi)
                if fast:
                    self._dense(acc_h, pos, r, vi, b, v, scale)
                    continue
                laid = None
                if op.pos is not None:
                    kp = t.kidx[op.pos]
                    comp = np.flatnonzero(b.X[:, kp] == S)
                    if len(comp):
                        mask = np.zeros(sp.N, dtype=bool)
                        for i in range(op.hb[op.pos]):
                            mask |= sp.mask(hk[op.pos], i)
                        laid = _sum(dp.context(pos, vi, comp, mask) * w[comp]) * scale
                for k, s in enumerate(t.others):
                    d = acc_h.setdefault((s, r), {})
                    fck = b.fc[:, k]
                    for c in np.unique(fck).tolist():
                        d[c] = d.get(c, 0) + _sum(v[fck == c]) * scale
                    if laid and s == op.pos:
                        d[S] = d.get(S, 0) - laid
                        d[0] = d.get(0, 0) + laid
                d = acc_h.setdefault(("stock", r), {})
                for c in np.unique(b.st).tolist():
                    d[c] = d.get(c, 0) + _sum(v[b.st == c]) * scale
        dws = None
        for i, h in enumerate(tl.hidden):
            while len(acc_b) <= i:
                acc_b.append(({}, {}))
            ranks, owners = acc_b[i]
            if h[0] == "draw":
                j = h[1]
                maker = tl.draws[j].seat
                if j in self.free:
                    if dws is None:
                        dws = self.draw_weights()
                    dist = dws[self.free.index(j)]
                else:
                    dist = {self.fixed[j]: W}
                for q, wq in dist.items():
                    ranks[q] = ranks.get(q, 0) + wq * scale
                    ow = tl.final_owner.get(q, maker)
                    owners[ow] = owners.get(ow, 0) + wq * scale
            else:
                _, s, nth = h
                mask = sp.mask(hk[s], nth)
                kp = t.kidx[s]
                for pos, r in enumerate(t.ranks):
                    for vi, (tm, b) in enumerate(self.vb[pos]):
                        comp = np.flatnonzero(b.X[:, kp] == S)
                        if not len(comp):
                            continue
                        x = _sum(b.weights(dt)[comp] * dp.context(pos, vi, comp, mask)) * scale
                        if x:
                            ranks[r] = ranks.get(r, 0) + x
                            ow = tl.final_owner.get(r, s)
                            owners[ow] = owners.get(ow, 0) + x


def _sum(a):
    s = a.sum()
    return int(s) if isinstance(s, (np.integer, int)) else (s if not isinstance(s, np.floating) else float(s))


def _empty_block(K: int) -> _Block:
    z = np.zeros(0, dtype=np.int64)
    return _Block(z, z, np.zeros((0, K), dtype=np.int64), z, np.zeros((0, K), dtype=np.int64))
