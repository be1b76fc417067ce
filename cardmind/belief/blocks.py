"""Exact counting of assignments of hidden items to seats, block by block.

This is the counting machinery shared by the games' belief trackers. The hidden items
(cards whose dealt holder is unknown) fall into **blocks** (a Literature set, a Go Fish
rank) such that no constraint links two blocks; the only coupling between blocks is the
**capacity** of each seat (how many hidden items it holds in all). Each block is
summarised by its polynomial: for every *usage vector* ``d`` (how many of the block's items
each seat gets) the number ``w(d)`` of assignments of the block's items with that usage
that satisfy the block's own constraints. The number of consistent assignments is then

    N = sum over (d_1, ..., d_M) with d_1 + ... + d_M = capacities of  prod_m w_m(d_m)

computed by a dynamic programme over blocks whose state is the capacity used so far
(``shared/spec/belief-notes.md``). Forward and backward passes give, for every block
``m`` and usage ``d`` of it, the **context count** ``G_m(d)``: the number of ways the other
blocks fill the rest of the capacity. Every exact query about one block (a card's holder,
a whole assignment of a block) is then a sum of ``w'(d) * G_m(d)`` over the block's
usages, divided by ``N``.

Everything is exact Python integer arithmetic. Usage vectors are packed into one integer
(a bit field per seat with a guard bit) so that adding usages is one integer addition
and an overflow of any seat's capacity is one ``&`` with the guard mask.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import factorial


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
        pos = 0
        guard = 0
        origin = 0
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

    def unpack(self, code: int) -> tuple[int, ...]:
        """The usage vector of a packed value that includes the origin bias."""
        code -= self.origin
        return tuple((code >> s) & ((1 << (w + 1)) - 1) for s, w in zip(self.shifts, self.widths))

    @property
    def full(self) -> int:
        """The packed value (with bias) of a usage equal to every capacity."""
        return self.origin + self.pack(self.caps)


class BlockProduct:
    """The exact product of block polynomials and a pool of free items under seat capacities.

    Args:
        caps: capacity of each seat (the number of hidden items it must receive).
        blocks: for each block, ``{usage vector (tuple, one count per seat): w(usage)}``
            with positive integer weights. Every usage of a block sums to the block's
            number of items.
        pool: the number of *free* items: items any seat may receive, under no other
            constraint. They are counted in closed form (a multinomial) instead of being
            enumerated: with ``r`` the capacity left for them, ``pool! / prod_i r_i!`` ways.

    Attributes:
        total: ``N``, the number of consistent assignments (an exact integer, maybe 0).
    """

    def __init__(self, caps: Sequence[int], blocks: Sequence[dict[tuple[int, ...], int]], pool: int = 0):
        self.caps = tuple(caps)
        self.pool = pool
        self.pk = Packing.for_caps(self.caps)
        pk = self.pk
        self.blocks = [{pk.pack(d): w for d, w in b.items() if w and self.fits(d)} for b in blocks]
        self._fact = [factorial(i) for i in range(max(self.caps, default=0) + pool + 8)]
        self._K = 1
        for c in self.caps:
            self._K *= self._fact[c]
        guard = pk.guard
        # forward: fwd[m] = product of blocks[:m], keyed by packed usage (with origin bias)
        fwd = [{pk.origin: 1}]
        for b in self.blocks:
            cur = fwd[-1]
            nxt: dict[int, int] = defaultdict(int)
            items = list(b.items())
            for u, wu in cur.items():
                for d, wd in items:
                    v = u + d
                    if v & guard:
                        continue
                    nxt[v] += wu * wd
            fwd.append(dict(nxt))
        self._fwd = fwd
        self._bexp: list[dict[int, int]] = [dict() for _ in range(len(self.blocks) + 1)]
        total = 0
        for u, w in fwd[-1].items():
            total += w * self._tail(len(self.blocks), u)
        self.total = total * self._fact[pool] // self._K

    def _tail(self, m: int, v: int) -> int:
        """``K * sum over usages u of blocks[m:] of prod(w) / prod_i (cap_i - v_i - u_i)!``
        (an integer, ``K = prod_i cap_i!``): the completions of packed usage ``v`` by the
        later blocks, with the pool's ``1 / r!`` weights."""
        memo = self._bexp[m]
        x = memo.get(v)
        if x is not None:
            return x
        if m == len(self.blocks):
            x = self._K
            fact = self._fact
            for r in self._free(v):
                x //= fact[r]
        else:
            x = 0
            guard = self.pk.guard
            for d, wd in self.blocks[m].items():
                nv = v + d
                if not nv & guard:
                    x += wd * self._tail(m + 1, nv)
        memo[v] = x
        return x

    def fits(self, usage: Sequence[int]) -> bool:
        """Whether a usage vector is within every seat's capacity (only such usages may be
        packed and added: the guard bit catches a carry of one field, not more)."""
        return all(0 <= u <= c for u, c in zip(usage, self.caps))

    def _free(self, v: int) -> tuple[int, ...]:
        """Capacity left per seat at packed usage ``v``."""
        return tuple(c - u for c, u in zip(self.caps, self.pk.unpack(v)))

    def context(self, m: int, usages: Iterable[tuple[int, ...]], removed: int = 0) -> dict[tuple[int, ...], int]:
        """Context counts of block ``m`` for its *full* usages.

        Args:
            m: the block whose own constraints are replaced by the caller's.
            usages: usage vectors of everything the caller's query covers: block ``m``'s
                items plus ``removed`` items taken out of the pool.
            removed: how many pool items the usages include.

        Returns:
            For each usage ``e``: the number of ways the other blocks and the rest of the
            pool fill the remaining capacity, ``sum_u fwd_m(u) * tail_{m+1}(u + e)``
            scaled by ``(pool - removed)! / K``. Usages with no completion map to 0.
        """
        pk = self.pk
        guard = pk.guard
        front = list(self._fwd[m].items())
        scale = self._fact[self.pool - removed]
        out = {}
        for e in usages:
            if not self.fits(e):
                out[e] = 0
                continue
            code = pk.pack(e)
            acc = 0
            for u, wu in front:
                v = u + code
                if not v & guard:
                    acc += wu * self._tail(m + 1, v)
            out[e] = acc * scale // self._K
        return out
