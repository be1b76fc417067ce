"""The blocks of a block product and the capacity space they are summed over."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product as iproduct
from math import prod

import numpy as np

from . import settings
from .timeline import _Opening

@dataclass
class _Block:
    """Rank ``r``'s polynomial: for every surviving candidate ``x`` (row), its weight, its
    final counts per other seat and in the stock."""
    ids: np.ndarray       # row index into the space's usage universe
    w: np.ndarray         # int64 weights (> 0)
    fc: np.ndarray        # final count per other seat (rows x K)
    st: np.ndarray        # final stock count
    X: np.ndarray         # dealt counts (rows x K)
    cache: dict = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return len(self.w) == 0

    def weights(self, dtype):
        """The weights as ``dtype`` (cached)."""
        if dtype is np.int64:
            return self.w
        got = self.cache.get(dtype)
        if got is None:
            got = self.cache[dtype] = self.w.astype(dtype)
        return got

    def table(self, sp: "_Space", sign: int) -> np.ndarray:
        """The gather table of its usages in ``sp``."""
        return (sp.tgt if sign > 0 else sp.src)[self.ids]


class _Space:
    """The dense state space of the block product: capacity used per other seat (0..hand)
    and, per seat with face-down dealt books, complete ranks so far."""

    def __init__(self, K: int, H: int, S: int, opening: _Opening, others: list[int]):
        self.K, self.H, self.S = K, H, S
        kidx = {s: k for k, s in enumerate(others)}
        self.hk = [kidx[s] for s in opening.hseats]
        self.dims = (H + 1,) * K + tuple(c + 1 for c in opening.caps)
        self.nd = len(self.dims)
        self.N = int(prod(self.dims))
        self.strides = np.array([int(prod(self.dims[i + 1:])) for i in range(self.nd)], dtype=np.int64)
        grids = np.indices(self.dims).reshape(self.nd, -1).T
        self.U = grids.astype(np.int64)
        # the usage universe: every x with at most S cards of one rank in all (entries <= H)
        top = min(H, S)
        xs = [x for x in iproduct(range(top + 1), repeat=K) if sum(x) <= S]
        xs.sort(key=lambda x: (sum(x), x))
        self.X = np.array(xs, dtype=np.int64).reshape(len(xs), K)
        self.xsum = self.X.sum(axis=1)
        cnt = (self.X[:, self.hk] == S).astype(np.int64) if self.hk else np.zeros((len(xs), 0), dtype=np.int64)
        self.keys = np.hstack([self.X, cnt])
        self.code = {x: i for i, x in enumerate(xs)}
        self.tgt = self._table(1)
        self.src = self._table(-1)
        self.origin = 0
        term = np.ones(self.N, dtype=bool)
        for d in range(K):
            term &= self.U[:, d] == H
        for i, lo in enumerate(opening.lows):
            term &= self.U[:, K + i] >= lo
        self.terminal = term
        self._masks: dict = {}

    def rows_upto(self, lim: int) -> np.ndarray:
        return np.flatnonzero(self.xsum <= lim)

    def _table(self, sign: int) -> np.ndarray:
        """For every usage of the universe and every state: the state after adding
        (``sign`` 1) or before (``sign`` -1) that usage, or ``N`` (a zero) outside the box."""
        V = self.U[None, :, :] + sign * self.keys[:, None, :]
        ok = ((V >= 0) & (V < np.array(self.dims))).all(axis=2)
        return np.where(ok, V @ self.strides, self.N).astype(np.intp)

    def mask(self, dim: int, val: int) -> np.ndarray:
        key = (dim, val)
        m = self._masks.get(key)
        if m is None:
            m = self.U[:, dim] == val
            self._masks[key] = m
        return m


class _Rows:
    """The live subsets of free draws at one stage of a :class:`_DP`: ``masks[row]`` (int64
    bit masks, sorted, distinct); :meth:`find` gives rows of masks. Reads like ``{mask: row}``."""

    def __init__(self, masks):
        self.masks = np.asarray(masks, dtype=np.int64)
        self._tab: np.ndarray | None = None

    def finder(self, m: int, keep: bool = False):
        """A function like :meth:`find` for masks of ``m`` bits: a dense table over all
        ``2**m`` masks when ``m <= settings.DENSE_FIND_BITS`` (one read per query instead of a binary
        search; kept on the object when ``keep`` and ``m <= settings.KEEP_FIND_BITS``), else
        :meth:`find`."""
        tab = self._tab
        if tab is None:
            if m > settings.DENSE_FIND_BITS:
                return self.find
            tab = np.full(1 << m, -1, dtype=np.intp)
            tab[self.masks] = np.arange(len(self.masks), dtype=np.intp)
            if keep and m <= settings.KEEP_FIND_BITS:
                self._tab = tab
        return tab.__getitem__

    def find(self, q: np.ndarray) -> np.ndarray:
        """The row of every mask in ``q`` (int64 array), -1 where it is not live."""
        m = self.masks
        if not len(m):
            return np.full(len(q), -1, dtype=np.intp)
        pos = np.minimum(np.searchsorted(m, q), len(m) - 1)
        return np.where(m[pos] == q, pos, -1)

    def __len__(self) -> int:
        return len(self.masks)

    def __contains__(self, A: int) -> bool:
        return self.get(A) >= 0

    def get(self, A: int) -> int:
        i = int(np.searchsorted(self.masks, A))
        return i if i < len(self.masks) and self.masks[i] == A else -1

    def __getitem__(self, A: int) -> int:
        r = self.get(A)
        if r < 0:
            raise KeyError(A)
        return r
