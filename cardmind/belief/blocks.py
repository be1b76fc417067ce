"""Exact counting of assignments of hidden items to seats, block by block.

This is the counting machinery shared by the games' belief trackers. The hidden items
(cards whose dealt holder is unknown) fall into **blocks** (a Literature set, a Go Fish
rank) such that no constraint links two blocks; the only coupling between blocks is the
**capacity** of each seat (how many hidden items it holds in all). Each block is
summarised by its polynomial: for every *usage vector* ``d`` (how many of the block's items
each seat gets) the number ``w(d)`` of assignments of the block's items with that usage
that satisfy the block's own constraints. Items under no constraint at all form a
**pool**, counted in closed form (``multinomial(r)`` ways to deal them into the capacity
``r`` left). The number of consistent assignments is

    N = sum over (d_1, ..., d_M) with d_1 + ... + d_M <= caps of
        prod_m w_m(d_m) * multinomial(caps - d_1 - ... - d_M)

computed by a dynamic programme over blocks whose state is the capacity used so far
(``shared/spec/belief-notes.md``). A forward pass gives ``F_m`` (the blocks before ``m``)
and one backward sweep gives ``T_m`` (the blocks from ``m`` on, and the pool) and, for every
block ``m`` and each usage ``e`` in its polynomial, the **context count**

    G_m(e) = sum_u F_m(u) * T_{m+1}(u + e),

the number of ways everything else fills the capacity left by ``e``. For a group of pool
items the caller wants to query (the cards of one untouched set), the context of a usage
``e`` is ``sum_u F_M(u) * multinomial(caps - u - e)``. Every exact query about one block is
then a sum of ``w'(e) * G(e)`` over its usages, divided by ``N``.

Everything is exact integer arithmetic. Usage vectors are packed into one integer (a bit
field per seat with a guard bit) so that adding usages is one integer addition and an
overflow of any seat's capacity is one ``&`` with the guard mask. The compiled fast path
(``_blockdp.c``, same algorithm with dense arrays and unsigned 128-bit integers) is used
when installed and every count fits; this module's Python code is the reference.

**Real weights.** A block's weights may also be real numbers (``float``): a count of
assignments times the likelihood that the players chose what they chose, when that
likelihood depends on a block's usage only (:class:`cardmind.belief.models.CountFactors`).
The same programme then gives the *weighted* sums in floating point (a double-precision
variant of the compiled path, ``solve_real``; Python floats in the reference), and every
query (``w'(e) * G(e) / N``) is the weighted posterior's. Integer weights keep the exact
integer path.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb, prod

import numpy as np

try:  # the optional C fast path (built from _blockdp.c at install time)
    from . import _blockdp
except ImportError:  # pragma: no cover - exercised on machines without a compiler
    _blockdp = None

#: counts of the fast path are exact unsigned 128-bit integers: use it only below this
FAST_LIMIT = 1 << 126
#: largest dense state array (entries) the fast path allocates
FAST_MAX_BOX = 1 << 24

Usage = tuple[int, ...]


@dataclass(frozen=True)
class Packing:
    """Packs usage vectors (one count per seat) into integers.

    Seat ``i`` owns a bit field of ``width[i] + 1`` bits at ``shift[i]``; a stored count is
    offset by ``bias[i] = 2**width[i] - 1 - cap[i]`` so that exceeding ``cap[i]`` carries
    into the guard bit. ``pack(u)`` stores the raw counts (no bias); the bias lives in
    :attr:`origin`, the packed value of the all-zero usage.
    """

    caps: tuple[int, ...]
    shifts: tuple[int, ...]
    widths: tuple[int, ...]
    guard: int
    origin: int

    @classmethod
    def for_caps(cls, caps: Sequence[int]) -> "Packing":
        """A packing for seats with capacities ``caps`` (non-negative integers)."""
        shifts, widths = [], []
        pos = guard = origin = 0
        for c in caps:
            w = max(1, int(c).bit_length())
            shifts.append(pos)
            widths.append(w)
            guard |= 1 << (pos + w)
            origin |= ((1 << w) - 1 - c) << pos
            pos += w + 1
        return cls(tuple(caps), tuple(shifts), tuple(widths), guard, origin)

    def pack(self, usage: Sequence[int]) -> int:
        """The packed value of a usage vector (without the origin bias)."""
        v = 0
        for u, s in zip(usage, self.shifts):
            v |= u << s
        return v

    def unpack(self, code: int) -> Usage:
        """The usage vector of a packed value that includes the origin bias."""
        code -= self.origin
        return tuple((code >> s) & ((1 << (w + 1)) - 1) for s, w in zip(self.shifts, self.widths))

    def fits(self, usage: Sequence[int]) -> bool:
        """Whether a usage vector is within every seat's capacity (only such usages may be
        packed and added: the guard bit catches a carry of one field, not more)."""
        return all(0 <= u <= c for u, c in zip(usage, self.caps))


def multinomial(parts: Sequence[int]) -> int:
    """``(sum parts)! / prod(part!)``: ways to deal distinct items into groups of these sizes."""
    out, n = 1, 0
    for r in parts:
        n += r
        out *= comb(n, r)
    return out


def randbelow(rng: np.random.Generator, n: int) -> int:
    """A uniform integer in ``[0, n)`` for any positive Python int ``n`` (exact: random bits
    from ``rng``, rejecting values ``>= n``)."""
    if n <= 0:
        raise ValueError("randbelow needs a positive bound")
    if n <= 1 << 62:
        return int(rng.integers(n))
    bits = n.bit_length()
    nbytes = (bits + 7) // 8
    while True:
        x = int.from_bytes(rng.bytes(nbytes), "little") >> (8 * nbytes - bits)
        if x < n:
            return x


def pick_weighted(rng: np.random.Generator, weights: Sequence[int | float]) -> int:
    """Index ``i`` drawn with probability ``weights[i] / sum(weights)`` (exact for integers;
    real weights draw one uniform float).

    Raises:
        ValueError: the weights do not add up to a positive number.
    """
    if any(isinstance(w, float) for w in weights):
        total = float(sum(weights))
        if not total > 0:
            raise ValueError("pick_weighted needs a positive total weight")
        x = rng.random() * total
        last = 0
        for i, w in enumerate(weights):
            if w > 0:
                last = i
                if x < w:
                    return i
                x -= w
        return last   # rounding left x just above the last positive weight
    x = randbelow(rng, sum(weights))
    for i, w in enumerate(weights):
        if x < w:
            return i
        x -= w
    raise AssertionError("unreachable")


def fast_path_available() -> bool:
    """Whether the compiled fast path of :class:`BlockProduct` is installed."""
    return _blockdp is not None


class BlockProduct:
    """The exact count of assignments of blocks and a pool under seat capacities, with
    the context count of every usage of every block.

    Args:
        caps: capacity of each seat (how many hidden items it must receive).
        blocks: for each block, ``{usage vector (one count per seat): w(usage)}`` with
            positive integer weights (or real weights: see the module docstring; then every
            result is a float); every usage of a block sums to the block's size.
        pool_queries: groups of pool items to query, each given by the usage vectors to
            evaluate (a usage covers the group's items only).
        contexts: compute context counts (a backward sweep, about as costly as the count);
            when false only :attr:`total` is set.
        tables: keep the forward tables, needed by :meth:`sample_usages`.
        engine: ``"auto"`` (the compiled fast path when installed and every count fits in
            126 bits, else Python), ``"python"`` (the reference) or ``"c"``.

    Attributes:
        total: ``N``, the number of consistent assignments (an exact integer, maybe 0).
        block_contexts: per block, ``{usage: G(usage)}`` for every usage of the block.
        pool_contexts: per pool query, ``{usage: G(usage)}``.
        engine: the engine used.

    Raises:
        ValueError: ``engine="c"`` when the fast path cannot take this problem.
    """

    def __init__(self, caps: Sequence[int], blocks: Sequence[dict[Usage, int]],
                 pool_queries: Sequence[Sequence[Usage]] = (), contexts: bool = True, engine: str = "auto",
                 tables: bool = False):
        self.caps = tuple(caps)
        self._tables = tables
        self._fwd: list[dict[int, int]] | None = None
        if engine not in ("auto", "c", "python"):
            raise ValueError(f"unknown engine {engine!r}")
        blocks = [{d: w for d, w in b.items() if w} for b in blocks]
        k = len(self.caps)
        #: the weights are real numbers (a likelihood-weighted count): floating point throughout
        self.real = any(isinstance(w, float) for b in blocks for w in b.values())
        if self.real:
            blocks = [{d: float(w) for d, w in b.items()} for b in blocks]
            fast_ok = _blockdp is not None and k > 0 and sum(self.caps) <= 128
        else:
            fast_ok = (_blockdp is not None and k > 0 and sum(self.caps) <= 128
                       and multinomial(self.caps) < FAST_LIMIT
                       and all(w < (1 << 64) for b in blocks for w in b.values()))
        if fast_ok:
            # the seat with the largest capacity goes last: the dense state index leaves it
            # out (its count is implied by the stage's total)
            last = max(range(k), key=lambda i: self.caps[i])
            order = [i for i in range(k) if i != last] + [last]
            box = prod(self.caps[i] + 1 for i in order[:-1])
            fast_ok = box <= FAST_MAX_BOX
        if engine == "c" and not fast_ok:
            raise ValueError("the compiled fast path cannot take this problem")
        self.engine = "c" if engine in ("auto", "c") and fast_ok else "python"
        if self.engine == "c":
            total, bctx, pctx = self._solve_c(order, box, blocks, pool_queries, contexts)
        else:
            total, bctx, pctx = self._solve_py(blocks, pool_queries, contexts)
        self.total = total
        self.block_contexts = bctx
        self.pool_contexts = pctx

    def sample_usages(self, rng: np.random.Generator) -> tuple[list[Usage], Usage]:
        """Draw the usages of every block and of the pool, exactly in proportion to the
        number of consistent assignments that have them (needs ``tables=True``).

        Returns:
            ``(usages, pool_usage)``: one usage vector per block and the capacity left for
            the pool, all in the caller's seat order.
        Raises:
            ValueError: the product was built without tables, or has no assignment.
        """
        if self._fwd is None:
            raise ValueError("build the BlockProduct with tables=True to sample")
        if self.total == 0:
            raise ValueError("no consistent assignment to sample")
        pk = self._pk
        last = self._fwd[-1]
        codes = list(last)
        weights = [last[u] * multinomial(tuple(c - x for c, x in zip(pk.caps, pk.unpack(u)))) for u in codes]
        if self.real:
            weights = [float(w) for w in weights]
        v = codes[pick_weighted(rng, weights)]
        pool = tuple(c - x for c, x in zip(pk.caps, pk.unpack(v)))
        out: list[Usage] = [()] * len(self._packed_blocks)
        for m in range(len(self._packed_blocks) - 1, -1, -1):
            front = self._fwd[m]
            terms = self._packed_blocks[m]
            ws = [w * front.get(v - code, 0) for code, _, w in terms]
            t = pick_weighted(rng, ws)
            code, d, _ = terms[t]
            out[m] = d
            v -= code
        order = getattr(self, "_order", None)
        if order is not None:  # the pool usage was computed in the fast path's seat order
            restored = [0] * len(order)
            for j, i in enumerate(order):
                restored[i] = pool[j]
            pool = tuple(restored)
        return out, pool

    def pool_room(self) -> dict[Usage, int]:
        """``{room: count}``: for every way the blocks can leave room for the pool (the
        capacity left per seat, in the caller's seat order), the number of consistent
        assignments that leave it (pool included); the counts sum to :attr:`total`. Given the
        room, the pool's items are spread uniformly over it, so any question about pool items
        is a hypergeometric sum over these rooms (needs ``tables=True``).

        Raises:
            ValueError: the product was built without tables.
        """
        if self._fwd is None:
            raise ValueError("build the BlockProduct with tables=True to read the pool's room")
        pk = self._pk
        order = getattr(self, "_order", None)
        out: dict[Usage, int] = {}
        for code, f in self._fwd[-1].items():
            room = tuple(c - x for c, x in zip(pk.caps, pk.unpack(code)))
            if order is not None:   # the fast path's seat order back to the caller's
                restored = [0] * len(order)
                for j, i in enumerate(order):
                    restored[i] = room[j]
                room = tuple(restored)
            out[room] = out.get(room, 0) + f * multinomial(room)
        return out

    # ------------------------------------------------------------------ reference
    def _solve_py(self, blocks, queries, contexts):
        caps = self.caps
        pk = Packing.for_caps(caps)
        guard = pk.guard
        packed = [[(pk.pack(d), d, w) for d, w in b.items() if pk.fits(d)] for b in blocks]
        if self._tables:
            self._pk, self._packed_blocks = pk, packed
        fwd = [{pk.origin: 1.0 if self.real else 1}]
        for terms in packed:
            nxt: dict[int, int] = defaultdict(int)
            for u, fu in fwd[-1].items():
                for code, _, w in terms:
                    v = u + code
                    if not v & guard:
                        nxt[v] += fu * w
            fwd.append(dict(nxt))

        def free(v: int) -> Usage:
            return tuple(c - x for c, x in zip(caps, pk.unpack(v)))

        if self._tables:
            self._fwd = fwd
        conv = float if self.real else int
        tail = {u: conv(multinomial(free(u))) for u in fwd[-1]}
        total = sum(f * tail[u] for u, f in fwd[-1].items())
        if not contexts:
            return total, [], []
        bctx: list[dict[Usage, int]] = [dict() for _ in blocks]
        for m in range(len(blocks) - 1, -1, -1):
            g = [0] * len(packed[m])
            new_tail = {}
            for u, fu in fwd[m].items():
                s = 0
                for t, (code, _, w) in enumerate(packed[m]):
                    v = u + code
                    if v & guard:
                        continue
                    x = tail.get(v, 0)
                    s += w * x
                    g[t] += fu * x
                new_tail[u] = s
            tail = new_tail
            bctx[m] = {d: 0 for d in blocks[m]}
            bctx[m].update({d: g[t] for t, (_, d, _) in enumerate(packed[m])})
        pctx = []
        for q in queries:
            ctx = {}
            for e in q:
                acc = 0
                if pk.fits(e):
                    code = pk.pack(e)
                    for u, fu in fwd[-1].items():
                        v = u + code
                        if not v & guard:
                            acc += fu * conv(multinomial(free(v)))
                ctx[e] = acc
            pctx.append(ctx)
        return total, bctx, pctx

    # ------------------------------------------------------------------ fast path
    def _solve_c(self, order, box, blocks, queries, contexts):
        caps_o = np.array([self.caps[i] for i in order], dtype=np.int64)
        pk = Packing.for_caps(tuple(int(c) for c in caps_o))
        shifts = np.array(pk.shifts, dtype=np.int64)
        strides = np.ones(len(order) - 1, dtype=np.int64)
        for j in range(1, len(order) - 1):
            strides[j] = strides[j - 1] * (caps_o[j - 1] + 1)
        guard = np.uint64(pk.guard)

        def encode(usages: list[Usage]) -> tuple[np.ndarray, np.ndarray]:
            if not usages:
                return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=bool)
            u = np.array(usages, dtype=np.int64)[:, order]
            ok = (u <= caps_o).all(axis=1) & (u >= 0).all(axis=1)
            codes = (np.where(ok[:, None], u, 0) << shifts).sum(axis=1).astype(np.uint64)
            return np.where(ok, codes, guard), ok

        cblocks = []
        usages = []
        for b in blocks:
            ds = list(b)
            codes, ok = encode(ds)
            u = np.array(ds, dtype=np.int64)[:, order] if ds else np.zeros((0, len(order)), dtype=np.int64)
            keep = np.flatnonzero(ok)
            offs = (u[keep, :-1] * strides).sum(axis=1).astype(np.uint64) if len(order) > 1 \
                else np.zeros(len(keep), dtype=np.uint64)
            w = np.array([b[ds[i]] for i in keep], dtype=np.float64 if self.real else np.uint64)
            usages.append((ds, keep))
            cblocks.append((codes[keep].tobytes(), offs.tobytes(), w.tobytes()))
        cq = [encode(list(q))[0].tobytes() for q in queries]
        solve = _blockdp.solve_real if self.real else _blockdp.solve
        out = solve(tuple(int(c) for c in caps_o), pk.shifts, pk.widths, pk.guard,
                    pk.origin, box, cblocks, cq, 1 if contexts else 0, 1 if self._tables else 0)
        total, bans, qans = out[:3]
        if self._tables:
            self._fwd = [dict(zip(codes, vals)) for codes, vals in out[3]]
            self._pk = pk
            self._order = order
            self._packed_blocks = []
            for b, (ds, keep) in zip(blocks, usages):
                terms = []
                for i in keep.tolist():
                    d = ds[i]
                    terms.append((pk.pack([d[j] for j in order]), d, b[d]))
                self._packed_blocks.append(terms)
        if not contexts:
            return total, [], []
        bctx = []
        for (ds, keep), ans in zip(usages, bans):
            ctx = dict.fromkeys(ds, 0)
            for i, g in zip(keep.tolist(), ans):
                ctx[ds[i]] = g
            bctx.append(ctx)
        pctx = [dict(zip(q, ans)) for q, ans in zip(queries, qans)]
        return total, bctx, pctx
