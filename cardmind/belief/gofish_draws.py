"""The draw engine: Go Fish belief for any number of players (used for 3 or more).

Semantics are those of :mod:`cardmind.belief.gofish` (``shared/spec/records.md``): a
consistent deal assigns every card the observer cannot locate to a seat's dealt hand, to one
of the draws the observer did not see, or to the (final) stock, so that the record is legal;
all consistent deals are equally likely. The record's end is a legal prefix (a book may still
follow the last event unless ``settled``; dealt books may still come during the opening).

**Hidden variables** (from the observer's view): the dealt hands of the ``K`` other seats as
per-rank counts ``x[s][r]``, and ``delta``, the rank of every draw the observer did not see
(another seat's unshown draw), in the order drawn.

**Given delta** every fact of the record is a fact about one rank's timeline. Replaying rank
``r``'s events in order (vectorised over every candidate vector ``x[.][r]``) tracks each other
seat's count of ``r`` (dealt, plus draws of ``r`` per delta and shown, plus cards received,
minus cards given and books) and checks: an ask (count >= 1), a refusal (== 0), a hand-over
(>= the cards given; under ``give: "all"`` nothing left), a book (== suits, then 0), no book
after a gain (< suits), phase 2's book asks (who holds the book of ``r``: its maker per the
timeline, moved by hits), dealt books (a seat dealt a complete rank lays it before play; seats
with face-down dealt books get a **counter** usage: 1 when the rank was dealt complete), and
the stock (its cards of ``r`` at the end are never negative). The **identity multiplicity**
counts how the rank's unknown card identities fill the slots (each other seat's dealt hand,
each unseen draw of ``r``, the final stock; the observer's own and shown draws are fixed
identities) such that every card first handed over by seat ``t`` came from ``t``'s dealt hand
or one of ``t``'s unseen draws of ``r`` before: a tiny enumeration (at most four cards).

The number of consistent deals with draw ranks ``delta`` is then a product over ranks coupled
only by the seats' hand sizes (and their numbers of face-down dealt books): a block product
as in :mod:`cardmind.belief.blocks`, computed here by a dense dynamic programme over the
capacity used (``_Space``: forward tables, backward tables, and context counts at any usage,
also split by a counter's value before a block, which gives the rank of the ``i``-th
face-down dealt book and, during the opening, which complete ranks a seat has laid).

**Over delta**: the ranks of the last ``exact_free`` draws are summed over inside the block
product (its state also holds which of them are used: at most ``2**m`` subsets of ``m``
draws, but only the subsets that the ranks placed so far can make and the ranks to come can
complete are stored, :meth:`_DP.live_rows`, with the ranks in the order that keeps fewest
alive, :func:`block_order`; late in a game the draws' possible ranks are narrow and few
subsets stay alive, so the default sums over *every* unseen draw when those tables fit
``EXACT_TABLE_CELLS``: :meth:`DrawEngine.plan`, or when the sum can be cut into at most
``EXACT_SPLIT_PARTS`` parts that each fit, each part limiting the ranks some draws may have:
:meth:`DrawEngine.split`). Otherwise the
ranks of the earlier ones, when they are few, are **enumerated** (a depth-first search over
the draws in order, pruned exactly: a partial delta must be consistent with the record cut
before the next unseen draw); the answer is then exact: integers (mode ``exact``) when small,
else floating point (mode ``enumerated``: exact up to rounding; the counts of a full deck pass
64 bits and Python integers are slow). Otherwise a
**Gibbs sampler** moves one draw's rank at a time, drawing it from its exact conditional
(the count for every candidate rank, all at once from one block product's contexts); the
answers average the exact conditional marginals of the visited deltas (Rao-Blackwellised),
and the number of consistent deals is estimated by sequential Monte Carlo over the draws.
The chain is kept between queries and continued when events are added.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations, product as iproduct
from math import factorial, prod
from typing import Any

import numpy as np

from ..errors import Contradiction

try:  # the optional C fast path of _DP's kernels (built from _drawdp.c at install time)
    from . import _drawdp
except ImportError:  # pragma: no cover - depends on the build
    _drawdp = None

#: Gibbs steps per query in approximate mode (``"seats"``: one seat's draws redrawn per step)
DEFAULT_STEPS = 400
#: draws redrawn together per Gibbs step (and summed over exactly in the estimates)
DEFAULT_BLOCK = 2
#: draws summed over in every step's estimate (Rao-Blackwellisation)
DEFAULT_RECORD_BLOCK = 4
#: rank exchanges per Gibbs step
DEFAULT_EXCHANGES = 2
#: the exact mode sums over the ranks of at least this many last draws inside the block
#: product (more when the capacity space is small: ``EXACT_CELLS``)
DEFAULT_EXACT_FREE = 10
#: ... and over ``m`` draws when ``2**m`` times the capacity states (``(hand + 1)**(players -
#: 1)``) is at most this. With 6 cards dealt: 14 draws with 4 players (343 states; about
#: 5-10 s and 500 MB on the full deck), 17 with 3 (49 states; about 7 s and 350 MB), 11 with
#: 5 (about 13 s and 750 MB), 10 (the floor) with 6 (about 40 s and 2.3 GB)
EXACT_CELLS = 6_500_000
#: past ``exact_free`` unseen draws the engine still sums over *all* of them exactly when the
#: tables of that block product (forward and backward, ``2 x`` the live subsets of
#: :meth:`_DP.live_rows` times the capacity states; 8 bytes a cell) hold at most this many
#: cells: about 1.6 GB (or the forward tables and two backward stages, streamed). Late in
#: a game most draws' ranks are pinned down enough that few subsets stay alive (most 4-player
#: positions with 15-22 unseen draws: 1-25 s, under 1 GB; some mid-game ones need 2-4 GB and
#: then sample)
EXACT_TABLE_CELLS = 200_000_000
#: past the budget the planned sum is cut into at most this many parts that each fit it,
#: each part restricting the ranks a few draws may have (:meth:`DrawEngine.split`): the
#: same exact sum in less memory, at more time
EXACT_SPLIT_PARTS = 32
#: bytes of one table cell (float64): ``cardmind belief --exact-memory GB`` sets
#: ``exact_cells`` to ``GB * 1e9 / CELL_BYTES``
CELL_BYTES = 8
#: :func:`block_order` searches the best order of the blocks from this many free draws
#: (below it the order hardly matters and the search would cost more than it saves)
ORDER_MIN_FREE = 6
#: search nodes the exact enumeration of the other draws' ranks may visit before giving up
DEFAULT_ENUM_NODES = 40
#: most rank vectors of those draws the exact mode sums over
DEFAULT_ENUM_LEAVES = 2
#: importance samples of the estimate of the number of consistent deals
DEFAULT_IS_SAMPLES = 200
#: the Gibbs moves: ``"seats"`` (every step redraws all unseen draws of one seat jointly) or
#: ``"draws"`` (``block`` random draws per step; the older sampler)
DEFAULT_SAMPLER = "seats"
#: most draws of one seat redrawn (and summed over) in one ``"seats"`` step
DEFAULT_SEAT_CAP = 8
#: batches of the batch-means estimate of the sampler's standard error
STDERR_BATCHES = 10
#: chain states kept for the estimate of the number of consistent deals
VISITED_KEEP = 400
#: a :class:`_DP` whose tables hold at least this many cells runs its backward pass in a
#: second thread beside the forward one (the C kernels release the GIL)
PARALLEL_CELLS = 4_000_000
#: row lookups of a :class:`_DP` over ``m`` free draws use a dense table of ``2**m`` entries
#: up to this many draws (8 bytes each, built per stage), and keep it per stage for the
#: context sums up to ``KEEP_FIND_BITS``
DENSE_FIND_BITS = 23
KEEP_FIND_BITS = 20
#: :meth:`_DP.live_rows` collects distinct subsets in a bitmap of ``2**m`` bytes up to this
#: many draws (else sorts them)
BITMAP_BITS = 26
#: use the C kernels of ``_drawdp.c`` when they are built (False: the numpy reference)
DP_FAST = True

_FACT = np.array([factorial(i) for i in range(21)], dtype=np.int64)

# op codes of a rank's timeline
_HAS, _NONE, _GIVE, _KDRAW, _WIN, _UDRAW, _ASKBOOK = range(7)


@dataclass
class _Window:
    """A gain of cards by ``seat``: the next event may be its book."""
    seat: int
    close: int | None = None  # index of the event after the gain (None: the record ends first)
    book: bool = False        # that event is the gainer's book


@dataclass
class _Draw:
    """A draw the observer did not see."""
    time: int
    seat: int
    k: int
    domain: tuple
    win: _Window
    hidden: int | None = None  # index among face-down books when one followed


@dataclass
class _Opening:
    """The dealt books laid before the cut, as the blocks need them."""
    final: bool
    last: int
    hb: dict                   # seat -> number of face-down dealt books (other seats)
    known: dict                # seat -> ranks of its face-up dealt books (other seats)
    hseats: tuple              # seats with face-down dealt books, in order (counter dims)
    caps: tuple                # counter capacity per hseat
    lows: tuple                # lowest allowed final counter value per hseat
    pos: int | None            # the seat whose laid books are its lowest complete ranks (prefix)

    @property
    def key(self):
        return (self.final, self.hseats, self.caps, self.lows)


class _Timeline:
    """One pass over the events: each rank's facts in order, the unseen draws, the books."""

    def __init__(self, t: Any, events: list[dict], settled: bool):
        self.t = t
        self.n = len(events)
        self.settled = settled
        o = t.observer
        ranks = t.ranks
        own = Counter(c[0] for c in t.hand)
        self.u0 = {r: t.S - own[r] for r in ranks}
        holder: dict[str, int] = {c: o for c in t.hand}
        known_books: dict[str, int] = {}
        self.book_log: list[dict] = []
        self.hidden: list[tuple] = []   # per face-down book: ("open", seat, i) or ("draw", j)
        self.ops: dict[str, list] = {r: [] for r in ranks}
        self.first: dict[str, list] = {r: [] for r in ranks}    # (k of the giver, time)
        self.kdraws: dict[str, list] = {r: [] for r in ranks}   # times of draws of r the observer saw
        self.draws: list[_Draw] = []
        self.opening_books: list[tuple] = []                    # (time, seat, rank or None)
        self.first_play: int | None = None
        self.final_owner: dict[str, int] = {}
        self.contradiction: str | None = None
        window: _Window | None = None
        wj: int | None = None
        wrank: str | None = None
        refused = None
        opening = True
        for i, ev in enumerate(events):
            kind = ev["type"]
            if kind == "book" and opening:
                s, r = ev["player"], ev["rank"]
                self.opening_books.append((i, s, r))
                if r is not None:
                    known_books[r] = s
                else:
                    nth = sum(1 for _, s2, r2 in self.opening_books[:-1] if s2 == s and r2 is None)
                    self.hidden.append(("open", s, nth))
                self.book_log.append({"maker": s, "rank": r, "owner": s})
                continue
            if opening:
                opening = False
                self.first_play = i
            w, window = window, None
            if w is not None:
                w.close = i
                if kind == "book" and ev["player"] == w.seat:
                    w.book = True
                    s, r = w.seat, ev["rank"]
                    rank = r if r is not None else wrank
                    if rank is not None:
                        known_books[rank] = s
                        if wj is not None:  # a face-up book after an unseen draw: the draw's rank
                            d = self.draws[wj]
                            d.domain = (rank,) if rank in d.domain else ()
                    else:
                        self.hidden.append(("draw", wj))
                        self.draws[wj].hidden = len(self.hidden) - 1
                    self.book_log.append({"maker": s, "rank": rank, "owner": s})
                    continue
            if kind == "ask":
                a, tg, r, given = ev["asker"], ev["target"], ev["rank"], list(ev["given"])
                if a != o:
                    self.ops[r].append((i, _HAS, a))
                if not given:
                    if tg != o:
                        self.ops[r].append((i, _NONE, tg))
                    refused = (a, r)
                    continue
                refused = None
                self.ops[r].append((i, _GIVE, tg, a, len(given)))
                for c in given:
                    h = holder.get(c)
                    if h is None:
                        self.first[r].append((t.kidx[tg], i))
                    elif h != tg:
                        self.contradiction = f"seat {tg} handed over {c}, which seat {h} received earlier"
                    holder[c] = a
                window, wj, wrank = _Window(a), None, r
                if a != o:
                    self.ops[r].append((i, _WIN, a, window))
            elif kind == "draw":
                p, card = ev["player"], ev["card"]
                ref = refused[1] if refused is not None and refused[0] == p else None
                refused = None
                if card is not None:
                    r = card[0]
                    if card in holder:
                        self.contradiction = f"seat {p} drew {card}, which was seen before"
                    holder[card] = p
                    self.kdraws[r].append(i)
                    window, wj, wrank = _Window(p), None, r
                    if p != o:
                        self.ops[r].append((i, _KDRAW, p))
                        self.ops[r].append((i, _WIN, p, window))
                else:
                    window, wj, wrank = _Window(p), len(self.draws), None
                    dom = tuple(q for q in ranks if q != ref and q not in known_books)
                    self.draws.append(_Draw(i, p, t.kidx[p], dom, window))
            elif kind == "assume_lacks":   # an assumption: the seat holds none of the ranks
                if ev["player"] != o:
                    for r in ev["ranks"]:
                        self.ops[r].append((i, _NONE, ev["player"]))
            elif kind == "ask_book":
                a, tg, r, success = ev["asker"], ev["target"], ev["rank"], ev["success"]
                if r in known_books:
                    if success:
                        known_books[r] = a
                        for b in self.book_log:
                            if b["rank"] == r:
                                b["owner"] = a
                else:
                    self.ops[r].append((i, _ASKBOOK, a, tg, success))
                    if success:
                        self.final_owner[r] = a
        self.known_books = known_books
        self._openings: dict = {}

    # ------------------------------------------------------------------ per cut
    def outcome(self, w: _Window, cut: int) -> str:
        """``"book"``, ``"nobook"`` or ``"open"`` (a book may still follow) for the record cut
        before event ``cut``."""
        if w.close is not None and w.close < cut:
            return "book" if w.book else "nobook"
        if cut >= self.n and self.settled:
            return "nobook"
        return "open"

    def opening(self, cut: int) -> _Opening:
        got = self._openings.get(cut)
        if got is None:
            got = self._openings[cut] = self._opening(cut)
        return got

    def _opening(self, cut: int) -> _Opening:
        t = self.t
        final = self.first_play is not None and self.first_play < cut
        books = [(s, r) for i, s, r in self.opening_books if i < cut]
        last = max((s for s, _ in books), default=-1)
        hb: Counter = Counter()
        known: dict[int, list] = {}
        for s, r in books:
            if s == t.observer:
                continue
            if r is None:
                hb[s] += 1
            else:
                known.setdefault(s, []).append(r)
        hseats = tuple(s for s in t.others if hb[s])
        pos = None
        caps, lows = [], []
        cmax = t.options["hand"] // t.S
        for s in hseats:
            if not final and s == last:
                pos = s
                caps.append(max(cmax, hb[s]))
            else:
                caps.append(hb[s])
            lows.append(hb[s])
        return _Opening(final, last, dict(hb), known, hseats, tuple(caps), tuple(lows), pos)

    @cached_property
    def by_seat(self) -> dict[int, list[int]]:
        """The indices of the unseen draws (``draws``) per seat that drew them, in order."""
        out: dict[int, list[int]] = {}
        for j, d in enumerate(self.draws):
            out.setdefault(d.seat, []).append(j)
        return out

    def cut_after(self, j: int) -> int:
        """The cut for a partial delta of draws ``0..j``: before the next unseen draw."""
        return self.draws[j + 1].time if j + 1 < len(self.draws) else self.n


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
        ``2**m`` masks when ``m <= DENSE_FIND_BITS`` (one read per query instead of a binary
        search; kept on the object when ``keep`` and ``m <= KEEP_FIND_BITS``), else
        :meth:`find`."""
        tab = self._tab
        if tab is None:
            if m > DENSE_FIND_BITS:
                return self.find
            tab = np.full(1 << m, -1, dtype=np.intp)
            tab[self.masks] = np.arange(len(self.masks), dtype=np.intp)
            if keep and m <= KEEP_FIND_BITS:
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


def _side_by_side(main, other, name: str) -> None:
    """Run ``other()`` in a second thread while ``main()`` runs here (both call the C kernels,
    which release the GIL); an exception of either is raised here once both are done."""
    failed: list = []

    def run() -> None:
        try:
            other()
        except BaseException as e:  # noqa: BLE001 - re-raised below
            failed.append(e)

    th = threading.Thread(target=run, name=name)
    th.start()
    try:
        main()
    finally:
        th.join()
    if failed:
        raise failed[0]


def _free_domains(vblocks: list, m: int) -> list[int]:
    """Per free draw, the bit set of the blocks (indices into ``vblocks``) with a variant
    that holds it."""
    dom = [0] * m
    for pos, vs in enumerate(vblocks):
        u = 0
        for t, _ in vs:
            u |= t
        for j in range(m):
            if u >> j & 1:
                dom[j] |= 1 << pos
    return dom


def block_order(vblocks: list, m: int) -> list[int]:
    """The order of the blocks in a :class:`_DP`: blocks without free draws first, then the
    others in the order that minimises ``sum_i 2**c_i``, ``c_i`` the number of free draws
    that blocks both before and after stage ``i`` may hold (an upper bound on the live
    subsets at that stage is ``2**c_i``; a dynamic programme over the sets of blocks placed,
    ``2**b`` of them for ``b`` blocks with free draws, at most 13 ranks). On one full-deck
    4-player position with 17 unseen draws this cut the forward tables' rows from 324 000
    to 116 000 against the earlier order (free blocks last by rank).

    Args:
        vblocks: per rank, ``[(t, block)]`` (``t``: bit mask of its free draws).
        m: number of free draws.

    Returns:
        A permutation of ``range(len(vblocks))``.
    """
    R = len(vblocks)
    freeish = [any(t for t, _ in vs) for vs in vblocks]
    head = sorted((i for i in range(R) if not freeish[i]), key=lambda i: (len(vblocks[i]) > 1, i))
    tail = [i for i in range(R) if freeish[i]]
    b = len(tail)
    if b <= 2 or m < ORDER_MIN_FREE:
        return head + sorted(tail, key=lambda i: (len(vblocks[i]) > 1, i))
    dom = _free_domains([vblocks[i] for i in tail], m)
    P = np.arange(1 << b, dtype=np.int64)
    full = (1 << b) - 1
    span = np.zeros(1 << b, dtype=np.int64)
    for d in dom:
        span += ((P & d) != 0) & ((P & d) != d)
    cost = np.exp2(span.astype(float))
    pc = np.zeros(1 << b, dtype=np.int64)
    for r in range(b):
        pc += (P >> r) & 1
    best = np.full(1 << b, np.inf)
    best[0] = 0.0
    last = np.zeros(1 << b, dtype=np.int64)
    for k in range(1, b + 1):
        idx = P[pc == k]
        top = np.full(len(idx), np.inf)
        arg = np.zeros(len(idx), dtype=np.int64)
        for r in range(b):
            has = (idx >> r) & 1 == 1
            cand = np.where(has, best[idx ^ (1 << r)], np.inf)
            better = cand < top
            top = np.where(better, cand, top)
            arg = np.where(better, r, arg)
        best[idx] = top + cost[idx]
        last[idx] = arg
    order, S = [], full
    while S:
        r = int(last[S])
        order.append(tail[r])
        S ^= 1 << r
    return head + order[::-1]


def _split_cut(vblocks: list, m: int, order: list, sizes: list | None) -> tuple | None:
    """How :meth:`DrawEngine.split` cuts a part in two: ``(draw, before, after)``, the
    blocks (indices into ``vblocks``) that may hold free draw ``draw``, split at the stage
    where most subsets are alive (``sizes``, the live subsets per stage, else the bound
    ``2**c_i`` of :func:`block_order`), for the draw open there that leaves the smallest
    sum of the two parts' bounds ``sum_i 2**c_i``; ``None`` when no draw is open anywhere.

    Args:
        vblocks: per rank, ``[(t, block)]``; m: number of free draws; order: the blocks'
            order in the programme; sizes: ``len(order) + 1`` counts, or ``None``.
    """
    dom = _free_domains(vblocks, m)
    R = len(order)
    placed = [0]
    for pos in order:
        placed.append(placed[-1] | 1 << pos)

    def opened(d: int) -> np.ndarray:
        return np.array([bool(d & p) and bool(d & ~p) for p in placed])

    op = np.array([opened(d) for d in dom]).reshape(m, R + 1)
    c = op.sum(axis=0)
    peak = int(np.argmax(sizes)) if sizes is not None else int(np.argmax(c))
    if not op[:, peak].any():
        peak = int(np.argmax(c))
        if not op[:, peak].any():
            return None
    best = None
    for j in np.flatnonzero(op[:, peak]).tolist():
        before, after = dom[j] & placed[peak], dom[j] & ~placed[peak]
        base = c - op[j]
        cost = float(np.exp2(base + opened(before)).sum() + np.exp2(base + opened(after)).sum())
        if best is None or cost < best[0]:
            best = (cost, j, before, after)
    _, j, before, after = best
    return j, [p for p in range(len(vblocks)) if before >> p & 1], [p for p in range(len(vblocks)) if after >> p & 1]


class _DP:
    """Forward and backward tables of a block product over a :class:`_Space`, summed over
    the ranks of ``m`` *free* draws: the state also holds which free draws are used (a
    subset; only subsets that can occur after the blocks before and can still be completed
    by the blocks after are stored, one row each: :class:`_Rows`), and each rank's block
    comes in *variants*, one per set ``t`` (a bit mask) of free draws of that rank.
    ``dtype``: ``float`` for sampling, ``np.int64`` or ``object`` for exact counts (float64
    and int64 tables go through the C kernels of ``_drawdp.c`` when built).

    Args:
        space: the capacity space.
        vblocks: per rank, ``[(t, block)]``.
        m: number of free draws.
        order: the order of the blocks in the programme (default :func:`block_order`);
            positions below are ranks' indices.
        rows: the live subsets per stage, :meth:`live_rows` of the same blocks and order
            (computed when not given).
        stream: ``None``, or a function of this object and a stage ``i``: then the forward
            pass runs first, and the backward pass calls ``stream(self, i)`` once ``T[i + 1]`` and ``F[i]`` are there
            (what :meth:`context` needs for the blocks at stage ``i``) and drops ``T[i + 1]``
            after: half the tables' memory, no parallel passes, and :meth:`context` only
            inside ``stream``.
    """

    def __init__(self, space: _Space, vblocks: list, m: int, dtype, backward: bool | int = True,
                 order: list | None = None, rows: list | None = None, stream=None):
        self.sp = sp = space
        self.dtype = dtype
        self.m = m
        #: the C kernels (``_drawdp``) serve float64 and int64 tables; the numpy code is the
        #: reference (``DP_FAST`` False forces it)
        self.fast = DP_FAST and _drawdp is not None and (dtype is float or dtype is np.int64)
        N = sp.N
        full = (1 << m) - 1
        self.vb = vblocks
        self.order = block_order(vblocks, m) if order is None else list(order)
        self.stage = {pos: i for i, pos in enumerate(self.order)}
        R = len(self.order)
        live = _DP.live_rows(vblocks, m, self.order) if rows is None else rows
        term = sp.terminal
        #: large tables (at least ``PARALLEL_CELLS`` cells forward) through the C kernels:
        #: the passes and the context sums run in two threads
        self.parallel = self.fast and sum(len(r) for r in live) * (N + 1) >= PARALLEL_CELLS
        self.F: list = []
        self.T: list = [None] * (R + 1)

        def forward() -> None:
            """F[i] = (row of each live subset, array live x (N+1)) before block ``i``."""
            F = np.zeros((1, N + 1), dtype=dtype)
            F[0, sp.origin] = 1
            rows = live[0]
            self.F.append((rows, F))
            for i, pos in enumerate(self.order):
                masks = rows.masks
                nrows = live[i + 1]
                look = nrows.finder(m)
                nxt = np.zeros((max(1, len(nrows)), N + 1), dtype=dtype)
                for t, b in vblocks[pos]:
                    ri = ((masks & t) == 0).nonzero()[0]
                    ro = look(masks[ri] | t)
                    ok = ro >= 0
                    if ok.any():
                        self._add(nxt, ro[ok], F, ri[ok], b, -1)
                rows, F = nrows, nxt
                self.F.append((rows, F))
            self.total = (F[rows[full], :N][term]).sum() if full in rows else 0

        def backward_pass(stop: int) -> None:
            """T[i]: the count of completions from each state after block ``i - 1``."""
            Tm = np.zeros((1, N + 1), dtype=dtype)
            Tm[0, :N][term] = 1
            trows = _Rows(np.array([full], dtype=np.int64))
            self.T[R] = (trows, Tm)
            for i in range(R - 1, stop - 1, -1):
                # the rows before block i are the live subsets there (each completes)
                masks = trows.masks
                prows = _Rows(live[i].masks)
                look = prows.finder(m, keep=True)
                prev = np.zeros((max(1, len(prows)), N + 1), dtype=dtype)
                for t, b in vblocks[self.order[i]]:
                    ri = ((masks & t) == t).nonzero()[0]
                    ro = look(masks[ri] ^ t)
                    ok = ro >= 0
                    if ok.any():
                        self._add(prev, ro[ok], Tm, ri[ok], b, 1)
                trows, Tm = prows, prev
                self.T[i] = (trows, Tm)
                if stream is not None:
                    stream(self, i)
                    self.T[i + 1] = None

        if stream is not None:
            forward()
            backward_pass(0)
            return
        if backward is False:
            forward()
            Tm = np.zeros((1, N + 1), dtype=dtype)
            Tm[0, :N][term] = 1
            self.T[R] = (_Rows(np.array([full], dtype=np.int64)), Tm)
            return
        stop = 0 if backward is True else int(backward)
        if self.parallel:
            # the C kernels release the GIL: the backward pass (it needs only the live
            # subsets, not the forward tables) runs in a second thread
            _side_by_side(forward, lambda: backward_pass(stop), "cardmind-dp-backward")
        else:
            forward()
            backward_pass(stop)

    @staticmethod
    def live_rows(vblocks: list, m: int, order: list, limit: int | None = None) -> list[_Rows] | None:
        """The subsets of free draws a :class:`_DP` stores at each stage (bit masks only, no
        tables: what the tables will cost): ``rows[i]``, after the first ``i`` blocks of
        ``order``, holds the subsets that those blocks can make of disjoint variants *and*
        from which the blocks to come can still use every free draw: a forward pass over
        the masks (a free draw that only blocks already placed may hold is in every subset,
        one that only blocks to come may hold in none), then a backward pass that keeps the
        subsets that complete.

        Args:
            limit: give up (return ``None``) once the stages' live subsets pass this many
                in all, or the forward pass's subsets eight times as many (``None``: no
                limit).

        Returns:
            ``len(order) + 1`` :class:`_Rows`; ``rows[0]`` is ``{0}`` and ``rows[-1]`` the
            full set, or empty when no assignment of the free draws is possible.
        """
        R = len(order)
        full = (1 << m) - 1
        dom = _free_domains(vblocks, m)
        must, cannot = [], []
        placed = 0
        for i in range(R + 1):
            if i:
                placed |= 1 << order[i - 1]
            must.append(sum(1 << j for j, d in enumerate(dom) if not d & ~placed))
            cannot.append(sum(1 << j for j, d in enumerate(dom) if not d & placed))

        def keep(x: np.ndarray, i: int) -> np.ndarray:
            return x[((x & must[i]) == must[i]) & ((x & cannot[i]) == 0)]

        # forward: the subsets the blocks placed can make (pruned by the possible ranks);
        # distinct subsets collected in a bitmap over all 2**m when that is small
        bitmap = np.zeros(1 << m, dtype=bool) if m <= BITMAP_BITS else None
        reach = [keep(np.zeros(1, dtype=np.int64), 0)]
        seen = 1
        for i, pos in enumerate(order):
            masks = reach[-1]
            if bitmap is not None:   # marked variant by variant: no list of every subset made
                for t, _ in vblocks[pos]:
                    bitmap[masks[(masks & t) == 0] | t] = True
                got = np.flatnonzero(bitmap).astype(np.int64)
                bitmap[got] = False
            else:
                outs = [masks[(masks & t) == 0] | t for t, _ in vblocks[pos]]
                got = np.unique(np.concatenate(outs)) if outs else np.zeros(0, dtype=np.int64)
            reach.append(keep(got, i + 1))
            seen += len(reach[-1])
            if limit is not None and seen > 8 * limit:
                return None
        # backward: of those, the ones the blocks to come can complete to every free draw
        rows: list = [None] * R + [_Rows(reach[R][reach[R] == full])]
        total = len(rows[R])
        for i in range(R - 1, -1, -1):
            masks = reach[i]
            nxt = rows[i + 1]
            if bitmap is not None:
                bitmap[nxt.masks] = True
            ok = np.zeros(len(masks), dtype=bool)
            for t, _ in vblocks[order[i]]:
                idx = ((masks & t) == 0).nonzero()[0]
                hit = bitmap[masks[idx] | t] if bitmap is not None else nxt.find(masks[idx] | t) >= 0
                ok[idx[hit]] = True
            if bitmap is not None:
                bitmap[nxt.masks] = False
            rows[i] = _Rows(masks[ok])
            total += len(rows[i])
            if limit is not None and total > limit:
                return None
        return rows

    def _add(self, out: np.ndarray, ro: np.ndarray, F: np.ndarray, ri: np.ndarray, b: _Block,
             sign: int) -> None:
        """``out[ro[a], u] += sum_n w[n] * F[ri[a], table[n, u]]`` for every state ``u``: block
        ``b``'s usages added (``sign`` -1: the forward step, ``F`` before the block) or taken
        back (``sign`` 1: the backward step, ``F`` after it). ``ro`` holds distinct rows."""
        sp = self.sp
        N = sp.N
        w = b.weights(self.dtype)
        if self.fast:
            gat, sca = (sp.tgt, sp.src) if sign > 0 else (sp.src, sp.tgt)
            _drawdp.mix_add(out, ro, F, ri, w, gat, sca, b.ids)
        elif len(b.ids) == 1 and b.ids[0] == 0:   # the empty usage: the identity table
            out[ro, :N] += F[ri, :N] * w[0]
        elif self.dtype is object:
            out[ro, :N] += (w[None, :, None] * F[ri][:, b.table(sp, sign)]).sum(axis=1)
        else:
            out[ro, :N] += np.einsum("n,anu->au", w, F[ri][:, b.table(sp, sign)])

    def context(self, pos: int, vi: int, rows: np.ndarray | None = None,
                mask: np.ndarray | None = None) -> np.ndarray:
        """Context count of every usage (``rows`` only, when given) of variant ``vi`` of the
        block of rank index ``pos`` (restricted to states before the block where ``mask``
        holds)."""
        sp = self.sp
        i = self.stage[pos]
        t, b = self.vb[pos][vi]
        n = len(b.ids) if rows is None else len(rows)
        if self.T[i + 1] is None:
            raise RuntimeError("the backward tables of this stage were dropped (streamed)")
        frows, F = self.F[i]
        trows, T = self.T[i + 1]
        p = ((frows.masks & t) == 0).nonzero()[0]
        # (a dense lookup only when it is kept: this runs once per variant)
        q = (trows.finder(self.m, keep=True) if self.m <= KEEP_FIND_BITS else trows.find)(frows.masks[p] | t)
        ok = q >= 0
        p, q = p[ok], q[ok]
        if not len(p):
            return np.zeros(n, dtype=self.dtype)
        if self.fast:
            out = np.zeros(n, dtype=self.dtype)
            _drawdp.context(out, F, p, T, q, sp.tgt, b.ids if rows is None else b.ids[rows], mask)
            return out
        Fa = F[p, :sp.N]
        if mask is not None:
            Fa = Fa * (mask if self.dtype is not object else mask.astype(object))
        tgt = b.table(sp, 1)
        if rows is not None:
            tgt = tgt[rows]
        Tn = T[q][:, tgt]
        if self.dtype is object:
            return (Fa[:, None, :] * Tn).sum(axis=(0, 2))
        return np.einsum("au,anu->n", Fa, Tn)


def auto_exact_free(players: int, hand: int) -> int:
    """The default number of unseen draws the exact mode sums over in one block product:
    the most ``m`` with ``2**m * (hand + 1)**(players - 1) <= EXACT_CELLS`` (its tables hold
    a row of capacity states per live subset of those draws), at least
    ``DEFAULT_EXACT_FREE`` and at most 24.

    Args:
        players: seats in the game (2-6).
        hand: cards dealt to each seat (the capacity of a seat's dealt hand).
    """
    states = (hand + 1) ** max(1, players - 1)
    m = int(np.floor(np.log2(max(1.0, EXACT_CELLS / states))))
    return max(DEFAULT_EXACT_FREE, min(24, m))


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


class DrawEngine:
    """Go Fish belief over the dealt hands and the ranks of the unseen draws (see the module
    docstring).

    Args:
        tracker: the :class:`~cardmind.belief.gofish.GoFishBelief` (options, observer, hand).
        steps: blocked Gibbs steps per query in approximate mode.
        block: draws redrawn (and summed over in the estimates) per step.
        exact_free: the exact mode sums over the ranks of this many last draws in the block
            product and enumerates the others (``None``: :func:`auto_exact_free`, and past it
            every draw when the tables fit ``EXACT_TABLE_CELLS``, see :meth:`plan`).
        enum_nodes: search nodes the exact enumeration may visit.
        enum_leaves: most rank vectors the exact mode sums over.
        is_samples: importance samples of the estimate of the number of consistent deals.
        exchanges: rank exchange moves per step.
        seed: seed of the sampler (results are reproducible).
    """

    def __init__(self, tracker: Any, steps: int = DEFAULT_STEPS, enum_nodes: int = DEFAULT_ENUM_NODES,
                 enum_leaves: int = DEFAULT_ENUM_LEAVES, block: int = DEFAULT_BLOCK,
                 exact_free: int | None = None, is_samples: int = DEFAULT_IS_SAMPLES,
                 exchanges: int = DEFAULT_EXCHANGES, record_block: int = DEFAULT_RECORD_BLOCK,
                 seed: int = 0):
        t = self.t = tracker
        self.steps = steps
        self.enum_nodes = enum_nodes
        self.enum_leaves = enum_leaves
        self.block_size = block
        self.exact_free = auto_exact_free(t.options["players"], t.options["hand"]) if exact_free is None \
            else exact_free
        self.is_samples = is_samples
        self.exchanges = exchanges
        self.recent = 0
        #: draws summed over in each step's estimate (when more than the move's ``block``:
        #: a separate block product per step)
        self.record_block = record_block
        #: exchange moves add their conditional marginals to the estimate (noisier than the
        #: redraws'; off by default)
        self.rb_exchange = False
        #: try the CP-SAT supports when the enumerated draws have at most 10**this rank vectors
        self.support_log10 = 6.0
        #: exact Python-integer answers for small enumerations whose counts exceed 64 bits
        self.exact_objects = True
        #: ... when the enumerated rank vectors times the subsets of the summed draws are at
        #: most this many (Python integers are slow; past it the sum is in floating point,
        #: exact up to rounding: ``"exact": false`` but mode ``"enumerated"``)
        self.object_limit = 8
        #: past ``exact_free`` draws, sum over all of them when the tables take at most this
        #: many cells (0: never, the enumeration or the sampler only). ``EXACT_TABLE_CELLS``
        #: when ``exact_free`` is automatic, 0 when it was given
        self.exact_cells = EXACT_TABLE_CELLS if exact_free is None else 0
        #: ... and when they do not fit, cut the sum into at most this many parts that do
        #: (:meth:`split`; 1 or less: never)
        self.exact_split = EXACT_SPLIT_PARTS
        #: ``None``, or a function of one string called as a long answer goes on ("planning
        #: the exact sum", "exact sum: part 2 of 4"; the CLI's spinner shows it)
        self.progress = None
        #: do not try the exact enumeration again once it failed with as many draws to
        #: enumerate (or fewer): a player's tracker, whose record only grows, saves the
        #: failed attempts (the answer is then sampled where an enumeration might have
        #: succeeded again after new facts pruned it)
        self.enum_memo = False
        #: the Gibbs moves (``DEFAULT_SAMPLER``): ``"seats"`` or ``"draws"``
        self.sampler = DEFAULT_SAMPLER
        #: most draws of one seat a ``"seats"`` step redraws (a seat with more: a random run of
        #: this many of its consecutive draws)
        self.seat_cap = DEFAULT_SEAT_CAP
        #: when above 0: after ``steps``, go on (``steps`` more at a time) until the largest
        #: estimated standard error of a holdings probability is at most this, or
        #: ``max_steps`` steps were made
        self.precision = 0.0
        #: the cap of the steps with ``precision``
        self.max_steps = 20_000
        self._enum_failed: int | None = None
        self.rng = np.random.default_rng(seed)
        self.H = t.options["hand"]
        self.give_all = t.options["give"] == "all"
        self._spaces: dict = {}
        self._blocks: dict = {}
        self._tl: _Timeline | None = None
        self._answer: tuple | None = None
        self.delta: list | None = None          # the chain's state (ranks of the unseen draws)
        self._chain_key: tuple | None = None
        self._total_est: tuple | None = None
        self._cond: dict = {}
        self._visited: list = []   # the chain's states (draw ranks) of the last sampled answer
        self._exact_prods: list = []   # the exact answer's block products, (count, product)
        self.last_mode: str = ""

    # ------------------------------------------------------------------ plumbing
    def _timeline(self, events: list[dict], settled: bool) -> _Timeline:
        key = (len(events), settled)
        if self._tl is None or (self._tl.n, self._tl.settled) != key:
            self._tl = _Timeline(self.t, events, settled)
        return self._tl

    def _space(self, op: _Opening) -> _Space:
        sp = self._spaces.get(op.key)
        if sp is None:
            sp = _Space(self.t.K, self.H, self.t.S, op, self.t.others)
            self._spaces[op.key] = sp
        return sp

    def block(self, tl: _Timeline, r: str, D: tuple, cut: int) -> _Block:
        """Rank ``r``'s block with the unseen draws ``D`` (indices) of rank ``r``, for the
        record cut before event ``cut`` (cached)."""
        end = cut >= tl.n
        key = (r, D, cut, end and tl.settled, end)
        b = self._blocks.get(key)
        if b is None:
            if len(self._blocks) > 200_000:
                self._blocks.clear()
            b = self._build(tl, r, D, cut)
            self._blocks[key] = b
        return b

    def _build(self, tl: _Timeline, r: str, D: tuple, cut: int) -> _Block:
        """Replay rank ``r``'s timeline. Between books a seat's count is its dealt count plus
        a known offset, so every fact bounds the dealt count (or, after a book, checks a known
        count): one pass per *branch* (no seat dealt the rank complete, or one seat with
        face-down dealt books dealt it complete), then the candidate rows are filtered."""
        t = self.t
        o, S, K = t.observer, t.S, t.K
        op = tl.opening(cut)
        sp = self._space(op)
        k_r = sum(1 for x in tl.kdraws[r] if x < cut)
        nf = tl.u0[r] - k_r
        lim = nf - len(D)
        if lim < 0:
            return _empty_block(K)
        evs = [x for x in tl.ops[r] if x[0] < cut]
        if D:
            evs += [(tl.draws[j].time, _UDRAW, j) for j in D]
            evs.sort(key=lambda e: e[0])
        ri = t.rank_index[r]
        kidx = t.kidx
        top = min(self.H, S, lim)
        branches: list = [None] + [k for k, s in enumerate(t.others) if op.hb.get(s) and s != op.pos]
        parts = []
        for br in branches:
            lo, hi = [0] * K, [top] * K
            off, reset = [0] * K, [False] * K
            booked = -1
            for k, s in enumerate(t.others):
                kn = op.known.get(s, ())
                if r in kn or br == k:
                    lo[k] = max(lo[k], S)
                    reset[k], booked = True, s
                elif op.hb.get(s):
                    if s != op.pos:
                        hi[k] = min(hi[k], S - 1)
                elif op.final or s < op.last or (s == op.last and kn and ri < max(t.rank_index[q] for q in kn)):
                    hi[k] = min(hi[k], S - 1)
            ok = True

            def need(k, a, b):  # the count of seat k is in [a, b] now
                nonlocal ok
                if reset[k]:
                    if not a <= off[k] <= b:
                        ok = False
                else:
                    lo[k] = max(lo[k], a - off[k])
                    hi[k] = min(hi[k], b - off[k])
                    if lo[k] > hi[k]:
                        ok = False

            def window(k, seat, outcome):
                nonlocal booked
                if outcome == "book":
                    need(k, S, S)
                    reset[k], off[k], booked = True, 0, seat
                elif outcome == "nobook":
                    need(k, -99, S - 1)

            for e in evs:
                code = e[1]
                if code == _HAS:
                    need(kidx[e[2]], 1, 99)
                elif code == _NONE:
                    need(kidx[e[2]], 0, 0)
                elif code == _GIVE:
                    tg, a, n = e[2], e[3], e[4]
                    if tg != o:
                        k = kidx[tg]
                        need(k, n, 99)
                        off[k] -= n
                        if self.give_all:
                            need(k, 0, 0)
                    if a != o:
                        off[kidx[a]] += n
                elif code == _KDRAW:
                    off[kidx[e[2]]] += 1
                elif code == _WIN:
                    window(kidx[e[2]], e[2], tl.outcome(e[3], cut))
                elif code == _UDRAW:
                    d = tl.draws[e[2]]
                    off[d.k] += 1
                    window(d.k, d.seat, tl.outcome(d.win, cut))
                else:  # _ASKBOOK
                    a, tg, success = e[2], e[3], e[4]
                    if booked == a or success != (booked == tg):
                        ok = False
                    if success:
                        booked = a
                if not ok:
                    break
            if ok:
                parts.append((lo, hi, off, reset))
        if not parts:
            return _empty_block(K)
        ids_all = sp.rows_upto(lim)
        Xall = sp.X[ids_all]
        sel_ids, sel_fc = [], []
        for lo, hi, off, reset in parts:
            m = ((Xall >= np.array(lo)) & (Xall <= np.array(hi))).all(axis=1)
            if not m.any():
                continue
            X = Xall[m]
            fc = np.where(np.array(reset), 0, X) + np.array(off)
            sel_ids.append(ids_all[m])
            sel_fc.append(fc)
        if not sel_ids:
            return _empty_block(K)
        ids = np.concatenate(sel_ids) if len(sel_ids) > 1 else sel_ids[0]
        cnt = np.concatenate(sel_fc) if len(sel_fc) > 1 else sel_fc[0]
        X = sp.X[ids]
        st = lim - sp.xsum[ids]
        # identity multiplicity: cards first handed over came from the giver's dealt hand or
        # one of its unseen draws of r before
        fa = [(k, tm) for k, tm in tl.first[r] if tm < cut]
        if not fa:
            den = np.prod(_FACT[X], axis=1) * _FACT[st]
            w = _FACT[nf] // den
            return _Block(ids, w, cnt, st, X)
        pats: Counter = Counter()
        opts = []
        for k, tm in fa:
            opts.append([("deal", k)] + [("draw", j) for j in D if tl.draws[j].k == k and tl.draws[j].time < tm])
        for choice in iproduct(*opts):
            slots = [c[1] for c in choice if c[0] == "draw"]
            if len(set(slots)) != len(slots):
                continue
            kv = [0] * K
            for c in choice:
                if c[0] == "deal":
                    kv[c[1]] += 1
            pats[tuple(kv)] += 1
        w = np.zeros(len(ids), dtype=np.int64)
        free = _FACT[nf - len(fa)] if nf >= len(fa) else 0
        for kv, npat in pats.items():
            rest = X - np.array(kv, dtype=np.int64)
            okr = (rest >= 0).all(axis=1)
            den = np.prod(_FACT[np.maximum(rest, 0)], axis=1) * _FACT[st]
            w += np.where(okr, npat * free // den, 0)
        keep = np.flatnonzero(w > 0)
        return _Block(ids[keep], w[keep], cnt[keep], st[keep], X[keep])

    def variants(self, tl: _Timeline, fixed: dict, free: list, cut: int, allowed: set | None = None,
                 domains: dict | None = None) -> list:
        """Per rank ``[(t, block)]``: the block of the rank with its fixed draws (``fixed``:
        {draw: rank}) and the free draws of bit mask ``t`` (every set of free draws that may
        all be of that rank; ``allowed``: the only ranks free draws may take; ``domains``:
        {draw: set of ranks}, the only ranks those draws may take)."""
        by: dict[str, list] = {r: [] for r in self.t.ranks}
        for j, q in fixed.items():
            by[q].append(j)
        out = []
        for r in self.t.ranks:
            ok = allowed is None or r in allowed
            bits = [i for i, j in enumerate(free) if ok and r in tl.draws[j].domain
                    and (domains is None or j not in domains or r in domains[j])]
            vs = []
            for n in range(min(len(bits), self.t.S) + 1):
                for T in combinations(bits, n):
                    D = tuple(sorted(by[r] + [free[i] for i in T]))
                    b = self.block(tl, r, D, cut)
                    if not b.empty:
                        vs.append((sum(1 << i for i in T), b))
            out.append(vs)
        return out

    def product(self, tl: _Timeline, fixed: dict, free: list, cut: int, dtype=float,
                backward: bool = True, allowed: set | None = None) -> "_Product":
        """The block product with draws ``fixed`` and ``free`` summed over (their ranks
        restricted to ``allowed`` when given)."""
        return _Product(self, tl, fixed, list(free), cut, dtype, backward, allowed=allowed)

    def candidates(self, tl: _Timeline, assign: dict, j: int, cut: int) -> dict:
        """``{rank: count}`` for every rank draw ``j`` may have, the other draws as in
        ``assign`` (draws at or after the cut left out)."""
        fixed = {i: q for i, q in assign.items() if i != j and tl.draws[i].time < cut}
        pr = self.product(tl, fixed, [j], cut)
        if not pr.total > 0:
            return {}
        return {q: v for q, v in pr.draw_weights()[0].items() if v > 0}

    def _exact_dtype(self, vb: list):
        bound = 1
        for vs in vb:
            bound *= sum(int(b.w.sum()) for _, b in vs) or 1
        return np.int64 if bound < (1 << 62) else object

    # ------------------------------------------------------------------ main entry
    def answer(self, events: list[dict], settled: bool) -> _Answer:
        """The belief after ``events`` (cached per event count and ``settled``).

        Raises:
            Contradiction: no deal is consistent with the events.
        """
        key = (len(events), settled)
        if self._answer is not None and self._answer[0] == key:
            return self._answer[1]
        tl = self._timeline(events, settled)
        if tl.contradiction:
            raise Contradiction(f"no deal is consistent with the events: {tl.contradiction}")
        D = len(tl.draws)
        E = max(0, D - self.exact_free)
        if E > 0 and self.exact_cells > 0:
            self._tell(f"planning the exact sum over {D} unseen draws")
            parts = self.split(tl, self.exact_cells, max(1, self.exact_split))
            if parts is not None:
                ans = self._exact(tl, parts, lazy=len(parts) > 1)
                self.last_mode = "exact" if ans.exact else "enumerated"
                return self._keep(key, tl, ans)
        skip = self.enum_memo and self._enum_failed is not None and E >= self._enum_failed
        if not skip and 0 < E and self.enum_nodes > 0 and \
                sum(np.log10(len(d.domain) or 1) for d in tl.draws[:E]) <= self.support_log10:
            sup = self.supports(tl)
            if sup is None:
                raise Contradiction("no deal is consistent with the events")
            for d, dom in zip(tl.draws, sup):
                d.domain = dom
        leaves = None if skip else self._enumerate(tl)
        if leaves is None and (self._enum_failed is None or E < self._enum_failed):
            self._enum_failed = E
        if leaves is not None:
            ans = self._exact(tl, [(dict(enumerate(part)), None, None) for part in leaves])
            self.last_mode = "exact" if ans.exact else "enumerated"
        else:
            ans = self._mcmc(tl)
            self.last_mode = "mcmc"
        return self._keep(key, tl, ans)

    def _tell(self, msg: str) -> None:
        if self.progress is not None:
            self.progress(msg)

    def _keep(self, key: tuple, tl: _Timeline, ans: _Answer) -> _Answer:
        ans.book_log = tl.book_log
        ans.known_books = tl.known_books
        ans.draws = len(tl.draws)
        self._answer = (key, ans)
        return ans

    def plan(self, tl: _Timeline, cells: int, domains: dict | None = None, count: int = 1) -> tuple:
        """The block product that sums over every unseen draw (their ranks restricted by
        ``domains``, {draw: set of ranks}, when given), planned without its tables:
        ``(variants, (order, rows, stream), order, rows)`` (see :func:`block_order`,
        :meth:`_DP.live_rows`) when its tables hold at most ``cells`` cells: the forward and
        backward tables, or when only that fits (and no masked context is needed), the
        forward tables and two backward stages (``stream``: the backward pass computes the
        contexts stage by stage and drops its tables; slower, no parallel passes).
        ``(variants, None, None, None)`` when no rank vector is consistent;
        ``(variants, None, order, rows)`` past the budget (then :meth:`split` cuts it;
        ``rows``: the live subsets when there were at most ``count`` times ``cells`` over the
        capacity states of them, else ``None``). Costs the blocks of every rank with every
        set of draws it may hold and one pass over bit masks: about 0.1-5 s on a full deck."""
        m = len(tl.draws)
        vb = self.variants(tl, {}, list(range(m)), tl.n, domains=domains)
        if any(not vs for vs in vb):
            return vb, None, None, None
        order = block_order(vb, m)
        N = self._space(tl.opening(tl.n)).N + 1
        # masked contexts (a seat laying dealt books now, face-down dealt books) need every
        # backward table after the passes; otherwise the backward pass may stream
        masked = tl.opening(tl.n).pos is not None or any(h[0] != "draw" for h in tl.hidden)
        rows = _DP.live_rows(vb, m, order, limit=max(1, count) * cells // N)
        if rows is not None:
            sizes = [len(r) for r in rows]
            if 2 * sum(sizes) * N <= cells:
                return vb, (order, rows, False), order, rows
            pair = max(a + b for a, b in zip(sizes, sizes[1:]))
            if not masked and (sum(sizes) + pair) * N <= cells:
                return vb, (order, rows, True), order, rows
        return vb, None, order, rows

    def split(self, tl: _Timeline, cells: int, parts: int) -> list | None:
        """The sum over every unseen draw in parts whose tables each fit ``cells`` (see
        :meth:`plan`; one part when the whole sum fits): a part too large is cut in two by the ranks one draw may have, those
        of the blocks placed before the stage where most subsets are alive and those of the
        blocks after it (the draw is then in every subset of that stage in one part and in
        none in the other: each part holds about half of it). An exact sum: the parts cover
        every rank vector once. The draw cut is the one that most lowers the two parts'
        bounds ``sum_i 2**c_i`` (:func:`block_order`).

        Returns:
            ``[({}, variants, (order, rows, stream))]``, one per part with a consistent rank
            vector (none: no deal is consistent); ``None`` when more than ``parts`` parts would
            be needed.
        """
        out: list = []
        todo: list = [({}, 1)]   # (rank limits, parts it is expected to need)
        N = self._space(tl.opening(tl.n)).N + 1
        while todo:
            doms, _ = todo.pop()
            # the live subsets are counted up to what the parts left could hold (the whole
            # sum first) or four budgets (where they peak tells where to cut)
            count = parts - len(out) - len(todo) if not doms else 4
            vb, pl, order, rows = self.plan(tl, cells, doms, count)
            if pl is not None:
                out.append(({}, vb, pl))
                continue
            if order is None:   # no consistent rank vector in this part
                continue
            # every live subset of a part is live in one of its two halves or both, and a
            # part that fits holds at most cells / N of them: this part needs at least
            # ``least`` parts, and its halves about half as many each (give up early when
            # the parts expected pass ``parts``)
            least = max(2, -(-sum(len(r) for r in rows) * N // cells) if rows is not None else count + 1)
            if len(out) + sum(n for _, n in todo) + least > parts:
                return None
            cut = _split_cut(vb, len(tl.draws), order, None if rows is None else [len(r) for r in rows])
            if cut is None:
                return None
            j, before, after = cut
            for side, n in ((before, least // 2), (after, least - least // 2)):
                todo.append(({**doms, j: frozenset(self.t.ranks[pos] for pos in side)}, n))
            self._tell(f"planning the exact sum over {len(tl.draws)} unseen draws in parts ({len(out) + len(todo)} so far)")
        return out

    def _enumerate(self, tl: _Timeline):
        """Every consistent rank vector of the draws but the last ``exact_free`` ones (which
        the exact answer sums over in the block product), or ``None`` past the budgets."""
        D = len(tl.draws)
        E = max(0, D - self.exact_free)
        if E == 0:
            return [()]
        if self.enum_nodes <= 0:
            return None
        leaves: list = []
        nodes = 0
        stack: list = [()]
        while stack:
            part = stack.pop()
            j = len(part)
            nodes += 1
            if nodes > self.enum_nodes or len(stack) + len(leaves) > 4 * self.enum_leaves:
                return None
            cands = self.candidates(tl, dict(enumerate(part)), j, tl.cut_after(j))
            for q in cands:
                if j + 1 == E:
                    leaves.append(part + (q,))
                    if len(leaves) > self.enum_leaves:
                        return None
                else:
                    stack.append(part + (q,))
        if not leaves:
            raise Contradiction("no deal is consistent with the events")
        return leaves

    def _exact(self, tl: _Timeline, parts: list, lazy: bool = False) -> _Answer:
        """Sum over ``parts``, ``[(fixed, variants, plan)]``: per part the draws of
        ``fixed`` ({draw: rank}) at their ranks and every other draw summed in the block
        product (``variants`` and ``plan`` of :meth:`plan`, or ``None`` to compute them;
        the enumerated rank vectors of the first draws, or the parts of :meth:`split`):
        exact integers when every count fits in 64 bits (else Python integers, when
        ``exact_objects`` allows, or floats: then the answer is the enumeration's up to
        rounding and says ``exact: false``). ``lazy``: keep no part's tables once its
        marginals are summed (:meth:`sample_worlds` rebuilds the part it samples)."""
        acc_h: dict = {}
        acc_b: list = []
        total = 0
        D = len(tl.draws)
        exact = True
        prods = []
        for fixed, vb, pl in parts:
            free = [j for j in range(D) if j not in fixed]
            if vb is None:
                vb = self.variants(tl, fixed, free, tl.n)
            dt = self._exact_dtype(vb)
            if dt is object and not (self.exact_objects and len(parts) * (1 << len(free)) <= self.object_limit):
                exact = False
            prods.append((fixed, free, vb, pl, dt))
        self._exact_prods = []
        for k, (fixed, free, vb, pl, dt) in enumerate(prods):
            if lazy:
                self._tell(f"exact sum over {D} unseen draws, part {k + 1} of {len(prods)}")
            pr = _Product(self, tl, fixed, free, tl.n, dt if exact else float, vb=vb, plan=pl)
            W = int(pr.total) if exact else float(pr.total)
            if not W:
                continue
            total += W
            pr.marginals(acc_h, acc_b, 1)
            if lazy:
                pr = (fixed, free, vb, pl)
            self._exact_prods.append((W, pr))
        if not total:
            raise Contradiction("no deal is consistent with the events")
        cast = int if exact else float
        if not exact:
            acc_h = {k: dict(enumerate(arr.tolist())) for k, arr in acc_h.items()}
        acc_h = {k: {c: cast(v) for c, v in d.items() if v} for k, d in acc_h.items()}
        acc_b = [({r: cast(v) for r, v in rk.items() if v}, {o: cast(v) for o, v in ow.items() if v})
                 for rk, ow in acc_b]
        for _ in range(len(acc_b), len(tl.hidden)):
            acc_b.append(({}, {}))
        return _Answer(exact, total, acc_h, acc_b, total, leaves=len(parts))

    # ------------------------------------------------------------------ sampling
    def _full_weight(self, tl: _Timeline, delta: list) -> float:
        return float(self.product(tl, dict(enumerate(delta)), [], tl.n, backward=False).total)

    def _extend(self, tl: _Timeline, start: list, tries: int = 200) -> list | None:
        """Complete ``start`` (ranks of the first draws) to a consistent delta: draw by draw,
        each rank drawn in proportion to the count of the record cut before the next draw,
        backtracking from dead ends (randomised depth-first search)."""
        D = len(tl.draws)
        j0 = len(start)
        if j0 == D:
            return list(start) if self._full_weight(tl, start) > 0 else None
        stack = [(list(start), None)]
        nodes = 0
        while stack:
            part, order = stack.pop()
            j = len(part)
            if order is None:
                nodes += 1
                if nodes > tries * max(1, D - j0):
                    return None
                cands = self.candidates(tl, dict(enumerate(part)), j, tl.cut_after(j))
                if not cands:
                    continue
                qs = list(cands)
                ws = np.array([float(cands[q]) for q in qs])
                # an order of the children: sampled without replacement in proportion to counts
                keys = self.rng.random(len(qs)) ** (1.0 / (ws / ws.max()))
                order = [qs[i] for i in np.argsort(-keys)]
            if not order:
                continue
            q = order.pop(0)
            stack.append((part, order))
            child = part + [q]
            if j + 1 == D:
                return child
            stack.append((child, None))
        return None

    def _cpsat_start(self, tl: _Timeline, tries: int = 12, time_limit: float = 20.0) -> list | None:
        """A consistent delta from an OR-Tools CP-SAT model of the same count constraints
        (see :meth:`_cpsat_model`), checked with the exact count (a wrong one is excluded
        and the model solved again). ``None`` when the model finds nothing."""
        from ortools.sat.python import cp_model  # noqa: PLC0415

        got = self._cpsat_model(tl)
        if got is None:
            return None
        m, d = got
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = time_limit
        solver.parameters.random_seed = int(self.rng.integers(1 << 30))
        for _ in range(tries):
            status = solver.solve(m)
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return None
            delta = [next(q for q in dr.domain if solver.value(d[j, q])) for j, dr in enumerate(tl.draws)]
            if self._full_weight(tl, delta) > 0:
                return delta
            m.add(sum(d[j, q] for j, q in enumerate(delta)) <= len(delta) - 1)
        return None

    def supports(self, tl: _Timeline, time_limit: float = 2.0) -> list | None:
        """Per unseen draw, the ranks it has in some consistent deal (by the CP-SAT model:
        one solve per rank not yet seen in a solution; a solve that times out keeps the
        rank). ``None`` when the model has no solution."""
        from ortools.sat.python import cp_model  # noqa: PLC0415

        got = self._cpsat_model(tl)
        if got is None:
            return None
        m, d = got
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = time_limit
        sup: list[set] = [set() for _ in tl.draws]

        def mark() -> None:
            for j, dr in enumerate(tl.draws):
                for q in dr.domain:
                    if solver.value(d[j, q]):
                        sup[j].add(q)

        if solver.solve(m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        mark()
        for j, dr in enumerate(tl.draws):
            for q in dr.domain:
                if q in sup[j]:
                    continue
                m.clear_assumptions()
                m.add_assumptions([d[j, q]])
                status = solver.solve(m)
                if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                    mark()
                elif status == cp_model.UNKNOWN:
                    sup[j].add(q)
        m.clear_assumptions()
        return [tuple(q for q in dr.domain if q in sup[j]) for j, dr in enumerate(tl.draws)]

    def _cpsat_model(self, tl: _Timeline):
        """The CP-SAT model ``(model, d)`` of the record (``d[j, rank]``: draw ``j`` has that
        rank): dealt counts ``x`` and one-hot draw ranks; every fact of a rank's timeline as
        a linear constraint, facts that hold only while the rank is not yet booked with
        enforcement literals; phase 2's book asks through who made each book. ``None`` when
        a draw has no possible rank."""
        from ortools.sat.python import cp_model  # noqa: PLC0415

        t = self.t
        o, S, H = t.observer, t.S, self.H
        op = tl.opening(tl.n)
        m = cp_model.CpModel()
        x = {(k, r): m.new_int_var(0, min(H, S, tl.u0[r]), f"x{k}{r}") for k in range(t.K) for r in t.ranks}
        for k in range(t.K):
            m.add(sum(x[k, r] for r in t.ranks) == H)
        d = {}
        for j, dr in enumerate(tl.draws):
            if not dr.domain:
                return None
            for q in dr.domain:
                d[j, q] = m.new_bool_var(f"d{j}{q}")
            m.add_exactly_one(d[j, q] for q in dr.domain)
        c = {}
        for k, s in enumerate(t.others):
            kn = op.known.get(s, ())
            for r in t.ranks:
                if op.hb.get(s):
                    c[k, r] = b = m.new_bool_var(f"c{k}{r}")
                    m.add(x[k, r] == S).only_enforce_if(b)
                    m.add(x[k, r] <= S - 1).only_enforce_if(b.Not())
                elif r in kn:
                    m.add(x[k, r] == S)
                else:
                    m.add(x[k, r] <= S - 1)
            if op.hb.get(s):
                m.add(sum(c[k, r] for r in t.ranks) == op.hb[s])
        false = m.new_constant(0)
        book_draws = [j for j, dr in enumerate(tl.draws) if tl.outcome(dr.win, tl.n) == "book"]
        for r in t.ranks:
            const = [0] * t.K
            terms: list[list] = [[] for _ in range(t.K)]
            booked = [c[k, r] for k in range(t.K) if (k, r) in c]
            fa_done = Counter()
            fa = Counter()
            for k, tm in tl.first[r]:
                fa[(k, tm)] += 1
            evs = list(tl.ops[r]) + [(dr.time, _UDRAW, j) for j, dr in enumerate(tl.draws) if r in dr.domain]
            evs.sort(key=lambda e: e[0])

            def cnt(k):
                return x[k, r] + sum(terms[k]) + const[k]

            def bsum():
                return sum(booked) if booked else 0

            dead = False
            for e in evs:
                code = e[1]
                if dead and code in (_HAS, _GIVE, _KDRAW):
                    m.add_bool_or([false])
                    continue
                if code == _HAS:
                    m.add(bsum() == 0)
                    m.add(cnt(t.kidx[e[2]]) >= 1)
                elif code == _NONE:
                    if booked:
                        nb = m.new_bool_var("")
                        m.add(sum(booked) == 0).only_enforce_if(nb)
                        m.add(sum(booked) >= 1).only_enforce_if(nb.Not())
                        m.add(cnt(t.kidx[e[2]]) == 0).only_enforce_if(nb)
                    elif not dead:
                        m.add(cnt(t.kidx[e[2]]) == 0)
                elif code == _GIVE:
                    tg, a, n = e[2], e[3], e[4]
                    m.add(bsum() == 0)
                    if tg != o:
                        k = t.kidx[tg]
                        m.add(cnt(k) >= n)
                        const[k] -= n
                        if self.give_all:
                            m.add(cnt(k) == 0)
                        got = fa.get((k, e[0]), 0)
                        if got:
                            fa_done[k] += got
                            mine = [d[j, r] for j, dr in enumerate(tl.draws)
                                    if dr.k == k and dr.time < e[0] and (j, r) in d]
                            m.add(x[k, r] + sum(mine) >= fa_done[k])
                    if a != o:
                        const[t.kidx[a]] += n
                elif code == _KDRAW:
                    m.add(bsum() == 0)
                    const[t.kidx[e[2]]] += 1
                elif code == _WIN:
                    k = t.kidx[e[2]]
                    out = tl.outcome(e[3], tl.n)
                    if out == "book":
                        m.add(cnt(k) == S)
                        dead = True
                    elif out == "nobook":
                        m.add(cnt(k) <= S - 1)
                elif code == _UDRAW:
                    j = e[2]
                    lit = d[j, r]
                    if dead:
                        m.add(lit == 0)
                        continue
                    dr = tl.draws[j]
                    if booked:
                        m.add(lit + sum(booked) <= 1)
                    terms[dr.k].append(lit)
                    out = tl.outcome(dr.win, tl.n)
                    if out == "book":
                        m.add(cnt(dr.k) == S).only_enforce_if(lit)
                        booked.append(lit)
                    elif out == "nobook":
                        m.add(cnt(dr.k) <= S - 1).only_enforce_if(lit)
            if booked:
                m.add(sum(booked) <= 1)
            drawn = [d[j, r] for j, dr in enumerate(tl.draws) if (j, r) in d]
            k_r = len(tl.kdraws[r])
            m.add(sum(x[k, r] for k in range(t.K)) + sum(drawn) <= tl.u0[r] - k_r)
            # phase 2: who made the book of r, moved by hits
            made = {k: [d[j, r] for j in book_draws if tl.draws[j].k == k and (j, r) in d]
                    + ([c[k, r]] if (k, r) in c else []) for k in range(t.K)}
            owner = None
            for e in tl.ops[r]:
                if e[1] != _ASKBOOK:
                    continue
                a, tg, success = e[2], e[3], e[4]
                if owner is None:
                    if a != o:
                        m.add(sum(made[t.kidx[a]]) == 0)
                    if tg == o:
                        if success:
                            m.add_bool_or([false])
                    elif success:
                        m.add(sum(made[t.kidx[tg]]) == 1)
                    else:
                        m.add(sum(made[t.kidx[tg]]) == 0)
                    if success:
                        owner = a
                else:
                    if owner == a or success != (owner == tg):
                        m.add_bool_or([false])
                    if success:
                        owner = a
        return m, d
        return None

    def _init_chain(self, tl: _Timeline) -> list:
        D = len(tl.draws)
        old = self.delta
        if old is not None and self._chain_key is not None:
            n_old, d_old = self._chain_key
            if d_old <= D and n_old <= tl.n:
                # keep the old ranks, re-drawing more and more of the last ones when the new
                # events rule the old ones out
                for back in (0, 1, 2, 4, 8, 16):
                    if back > d_old:
                        break
                    got = self._extend(tl, old[:d_old - back], tries=20)
                    if got is not None:
                        return got
        # a start drawn draw by draw in proportion to the counts of the record cut before the
        # next draw (near the posterior: a short chain needs that) before CP-SAT's (any
        # solution, far from typical)
        got = self._extend(tl, [], tries=20)
        if got is None:
            got = self._cpsat_start(tl)
        for tries in (200, 2000):
            if got is None:
                got = self._extend(tl, [], tries=tries)
        if got is None:
            raise Contradiction("no deal is consistent with the events (no draw ranks found)")
        return got

    def _record(self, pr, dw: list[dict], draws: list[int], rec: "_Samples", own: int | None = None) -> None:
        """Add one Rao-Blackwellised sample of the chain: the block product ``pr`` (summed over
        the unseen ``draws``, whose per-rank weights are ``dw``) adds its normalised holdings
        and book marginals to ``rec`` and each draw's conditional rank distribution to
        ``self._cond``. With ``own`` (a ``"seats"`` step summed over that seat's draws) only
        that seat's, the stock's and the draw-less seats' holdings (and the books they made)
        are added: another seat's cards are better estimated in its own steps."""
        tmp_h: dict = {}
        tmp_b: list = []
        pr.marginals(tmp_h, tmp_b, 1.0 / pr.total)
        keep = None
        if own is not None:
            keep = {s for s in self.t.others if s == own or s not in pr.tl.by_seat}
        rec.add(tmp_h, tmp_b, keep, self._book_makers(pr.tl))
        for k, j in enumerate(draws):
            c = self._cond.setdefault(j, {})
            for q, v in dw[k].items():
                c[q] = c.get(q, 0.0) + v / pr.total

    @staticmethod
    def _book_makers(tl: _Timeline) -> list[int]:
        """The seat that made each face-down book (``tl.hidden``)."""
        return [h[1] if h[0] == "open" else tl.draws[h[1]].seat for h in tl.hidden]

    def _joint_sample(self, pr: "_Product", rng: np.random.Generator | None = None) -> tuple[dict, dict]:
        """New ranks for all the free draws of ``pr`` at once, drawn from their exact joint
        conditional: backward sampling through the block product's forward tables (the end
        state in proportion to its count, then each rank's variant and usage in proportion to
        the count before it times the block's weight).

        Returns:
            ``({draw: rank}, world)``: the world is the sampled deal's hidden counts now,
            ``{seat or "stock": [cards per rank]}`` (ranks in :attr:`ranks` order, every
            other seat and the stock), as :meth:`GoFishBelief.sample_hidden` gives them.
        """
        rng = self.rng if rng is None else rng
        dp, sp = pr.dp, pr.sp
        R = len(dp.order)
        rows, F = dp.F[R]
        A = (1 << dp.m) - 1
        term = np.flatnonzero(sp.terminal)
        w = np.asarray(F[rows[A], term], dtype=float)
        u = int(term[rng.choice(len(term), p=w / w.sum())])
        t_ = self.t
        ranks = t_.ranks
        counts = np.zeros((t_.K + 1, len(ranks)), dtype=np.int64)
        out: dict = {}
        for i in range(R - 1, -1, -1):
            pos = dp.order[i]
            prows, PF = dp.F[i]
            opts, ws = [], []
            for t, b in dp.vb[pos]:
                if A & t != t or (A ^ t) not in prows:
                    continue
                src = b.table(sp, -1)[:, u]
                fw = np.asarray(PF[prows[A ^ t], src], dtype=float) * b.weights(float)
                opts.append((t, b, src))
                ws.append(fw)
            sizes = [len(x) for x in ws]
            flat = np.concatenate(ws)
            k = int(rng.choice(len(flat), p=flat / flat.sum()))
            v = 0
            while k >= sizes[v]:
                k -= sizes[v]
                v += 1
            t, b, src = opts[v]
            u = int(src[k])
            A ^= t
            counts[:t_.K, pos] = b.fc[k]
            counts[t_.K, pos] = b.st[k]
            for bit, j in enumerate(pr.free):
                if t >> bit & 1:
                    out[j] = ranks[pos]
        seats = t_.others + ["stock"]
        return out, {s: counts[k].tolist() for k, s in enumerate(seats)}

    def sample_worlds(self, events: list[dict], settled: bool, n: int,
                      rng: np.random.Generator) -> list[dict] | None:
        """``n`` draws of the hidden counts now (see :meth:`_joint_sample` for the format).

        Exact draws from the posterior when the answer was exact (modes ``exact`` and
        ``enumerated``: a rank vector of the enumerated draws in proportion to its count,
        then a backward sample of its block product); in mode ``mcmc`` the chain goes on
        (``"seats"`` steps), each step giving up to 4 worlds from its block product, so the
        draws are approximate and correlated. ``None`` while dealt books are still being
        laid (the opening).

        Raises:
            Contradiction: no deal is consistent with the events.
        """
        self.answer(events, settled)
        tl = self._timeline(events, settled)
        if tl.opening(tl.n).pos is not None or n <= 0:
            return None if n > 0 else []
        if self.last_mode in ("exact", "enumerated"):
            prods = self._exact_prods
            ws = np.array([float(w) for w, _ in prods])
            pick = rng.choice(len(prods), size=n, p=ws / ws.sum())
            out = []
            for i in sorted(set(pick.tolist())):   # a split answer's part is rebuilt once (no backward pass)
                pr = prods[i][1]
                if isinstance(pr, tuple):
                    fixed, free, vb, (order, rows, _) = pr
                    pr = _Product(self, tl, fixed, free, tl.n, float, backward=False, vb=vb, plan=(order, rows, False))
                out += [self._joint_sample(pr, rng)[1] for _ in range(int((pick == i).sum()))]
            return [out[k] for k in rng.permutation(len(out))]
        delta = self.delta
        turn = sorted(tl.by_seat)
        out: list = []
        for _ in range(20 * n + 100):  # a step always succeeds from a consistent state
            if len(out) >= n:
                break
            pr = self._seat_product(tl, delta, tl.by_seat[turn[int(rng.integers(len(turn)))]], rng, False)
            if not pr.total > 0:
                continue
            for k in range(min(4, n - len(out))):
                got, world = self._joint_sample(pr, rng)
                if k == 0:
                    for j, q in got.items():
                        delta[j] = q
                out.append(world)
        return out

    def _mcmc(self, tl: _Timeline) -> _Answer:
        """Markov chain over the draw ranks (the dealt hands are summed over exactly in every
        block product). Moves, all exact (Gibbs):

        * ``sampler = "seats"`` (default): step ``i`` takes the next seat in turn with unseen
          draws and redraws all of them (at most ``seat_cap``: else a random run of that many
          consecutive ones) jointly from their exact conditional given the other seats' draws
          (:meth:`_joint_sample`); the block product of that step gives the exact marginals of
          *that* seat's holdings (and the stock's) given the others' draws, which is what the
          answer averages for that seat (Rao-Blackwellised);
        * ``sampler = "draws"``: ``block`` random draws get new ranks one after the other,
          each from the block product summed over the ones not yet drawn, and every step's
          estimate sums over ``record_block`` random draws (the older sampler);
        * **exchange** (``exchanges`` per step, both samplers): two ranks ``a`` and ``b``; the
          draws now of rank ``a`` or ``b`` (at most six, chosen at random) are split between
          ``a`` and ``b`` anew from their exact joint conditional. This moves between states
          that differ in which seat's draws were which.

        The standard error of every averaged probability is estimated by batch means
        (``STDERR_BATCHES`` batches); with ``precision`` the chain goes on until the largest
        is at most ``precision`` (or ``max_steps``).

        Raises:
            ValueError: an unknown ``sampler``.
        """
        if self.sampler not in ("seats", "draws"):
            raise ValueError(f"unknown sampler {self.sampler!r} (\"seats\" or \"draws\")")
        D = len(tl.draws)
        delta = self._init_chain(tl)
        self.delta = delta
        self._chain_key = (tl.n, D)
        turn = sorted(tl.by_seat)
        seats = self.sampler == "seats"
        burn = len(turn) if seats else min(self.steps // 5, 2 * D)
        rec = _Samples(len(tl.hidden))
        self._cond = {}
        self._visited = []
        step, end = 0, burn + self.steps
        while True:
            while step < end:
                record = step >= burn
                if seats:
                    self._seat_step(tl, delta, turn[step % len(turn)], record, rec)
                else:
                    self._draw_step(tl, delta, record, rec)
                for _ in range(self.exchanges):
                    self._exchange(tl, delta, record, rec)
                if record and len(self._visited) < VISITED_KEEP:
                    self._visited.append(tuple(delta))
                step += 1
            if not self.precision > 0 or step - burn >= self.max_steps or rec.stderr() <= self.precision:
                break
            end = min(step + max(1, self.steps), burn + self.max_steps)
        hold, books = rec.means()
        self.delta = delta
        se = rec.stderr()
        return _Answer(False, None, hold, books, 1.0, steps=step - burn, stderr=se if np.isfinite(se) else None)

    def _seat_product(self, tl: _Timeline, delta: list, js: list[int], rng: np.random.Generator,
                      backward: bool) -> "_Product":
        """The block product summed over the unseen draws ``js`` of one seat (at most
        ``seat_cap``: else a random run of that many consecutive ones), the other draws at
        their ranks in ``delta``."""
        if len(js) > self.seat_cap:
            a = int(rng.integers(len(js) - self.seat_cap + 1))
            js = js[a:a + self.seat_cap]
        free = sorted(js, key=lambda j: -tl.draws[j].time)
        out = set(free)
        fixed = {k: q for k, q in enumerate(delta) if k not in out}
        return self.product(tl, fixed, free, tl.n, backward=backward)

    def _seat_step(self, tl: _Timeline, delta: list, seat: int, record: bool, rec: "_Samples") -> None:
        """One ``"seats"`` move: redraw the unseen draws of ``seat`` jointly (see
        :meth:`_seat_product`)."""
        pr = self._seat_product(tl, delta, tl.by_seat[seat], self.rng, record)
        if not pr.total > 0:  # cannot happen from a consistent state; stay
            return
        if record:
            self._record(pr, pr.draw_weights(), pr.free, rec, own=seat)
        for j, q in self._joint_sample(pr)[0].items():
            delta[j] = q

    def _draw_step(self, tl: _Timeline, delta: list, record: bool, rec: "_Samples") -> None:
        """One ``"draws"`` move: ``block`` random draws redrawn one after the other."""
        D = len(tl.draws)
        bsize = max(1, min(self.block_size, D))
        # redraw (the most recent draws, whose cards are the likeliest still held, are
        # summed over in every estimate when ``recent`` is set)
        pick = list(range(max(0, D - self.recent), D))
        pool = [j for j in range(D) if j not in pick]
        k = min(bsize, len(pool))
        free = pick + ([int(j) for j in self.rng.choice(pool, size=k, replace=False)] if k else [])
        free.sort(key=lambda j: -tl.draws[j].time)
        rbig = min(self.record_block, D)
        if record and rbig > len(free):
            # the estimate sums over a larger random set of draws than the move redraws
            # (chosen independently of the state: every such average is unbiased)
            rfree = pick + [int(j) for j in self.rng.choice(pool, size=min(len(pool), rbig - len(pick)),
                                                              replace=False)]
            rfree.sort(key=lambda j: -tl.draws[j].time)
            fixed = {k: q for k, q in enumerate(delta) if k not in rfree}
            pr = self.product(tl, fixed, rfree, tl.n)
            if pr.total > 0:
                self._record(pr, pr.draw_weights(), rfree, rec)
        for i in range(len(free)):
            rest = free[i:]
            fixed = {k: q for k, q in enumerate(delta) if k not in rest}
            pr = self.product(tl, fixed, rest, tl.n)
            if not pr.total > 0:  # cannot happen from a consistent state; stay
                break
            dw = pr.draw_weights()
            if i == 0 and record and not rbig > len(free):
                self._record(pr, dw, rest, rec)
            qs = list(dw[0])
            ws = np.array([float(dw[0][q]) for q in qs])
            delta[rest[0]] = qs[int(self.rng.choice(len(qs), p=ws / ws.sum()))]

    def _exchange(self, tl: _Timeline, delta: list, record: bool, rec: "_Samples") -> None:
        """One exchange move (see :meth:`_mcmc`)."""
        D = len(tl.draws)
        j = int(self.rng.integers(D))
        a = delta[j]
        others = [q for q in tl.draws[j].domain if q != a]
        if not others:
            return
        b = others[int(self.rng.integers(len(others)))]
        pair = {a, b}
        cand = [i for i, q in enumerate(delta) if q in pair and pair <= set(tl.draws[i].domain)]
        if len(cand) > 6:
            cand = [int(i) for i in self.rng.choice(cand, size=6, replace=False)]
        fixed = {k: q for k, q in enumerate(delta) if k not in cand}
        pr = self.product(tl, fixed, cand, tl.n, allowed=pair,
                          backward=True if record and self.rb_exchange else "free")
        if not pr.total > 0:
            return
        if record and self.rb_exchange:
            self._record(pr, [], [], rec)
        ia = self.t.rank_index[a]
        vs = pr.vb[ia]
        if len(vs) == 1:  # one split only (its block may hold no free draw at all)
            for k, i in enumerate(cand):
                delta[i] = a if vs[0][0] >> k & 1 else b
            return
        ws = np.array([float(_sum(bk.weights(float) * pr.ctx(ia, vi))) for vi, (_, bk) in enumerate(vs)])
        if not ws.sum() > 0:
            return
        tmask = vs[int(self.rng.choice(len(vs), p=ws / ws.sum()))][0]
        for k, i in enumerate(cand):
            delta[i] = a if tmask >> k & 1 else b

    def estimate_total(self, events: list[dict], settled: bool) -> float:
        """An estimate of the number of consistent deals: importance sampling of the draw
        ranks, each sample weighted by its exact count over its probability. The proposal is
        a mixture: half the product of the draws' estimated marginals (mixed with a uniform
        choice), half a state the chain visited (each consistent, so the estimate is never 0
        when the chain found any; late in a game independent draws are rarely consistent)."""
        key = (len(events), settled)
        if self._total_est is not None and self._total_est[0] == key:
            return self._total_est[1]
        ans = self.answer(events, settled)
        if ans.total is not None:
            return float(ans.total)
        tl = self._timeline(events, settled)
        D = len(tl.draws)
        props = []
        for j in range(D):
            dom = tl.draws[j].domain
            c = self._cond.get(j, {})
            tot = sum(c.values())
            p = np.array([0.1 / len(dom) + (0.9 * c.get(q, 0.0) / tot if tot else 0.9 / len(dom)) for q in dom])
            props.append((dom, p / p.sum()))
        vis = [v for v in self._visited if len(v) == D]
        visited = Counter(vis)
        nv = len(vis)
        a = 0.5 if nv else 1.0   # the weight of the independent part of the mixture
        pos = [{q: i for i, q in enumerate(dom)} for dom, _ in props]
        vals = []
        for _ in range(max(1, self.is_samples)):
            if a < 1 and self.rng.random() >= a:
                delta = list(vis[int(self.rng.integers(nv))])
            else:
                delta = [dom[int(self.rng.choice(len(dom), p=p))] for dom, p in props]
            # the mixture's probability of this delta
            qi = 1.0
            for j, (dom, p) in enumerate(props):
                k = pos[j].get(delta[j])
                qi = qi * float(p[k]) if k is not None else 0.0
            q = a * qi + (1 - a) * visited.get(tuple(delta), 0) / max(1, nv)
            W = self._full_weight(tl, delta)
            vals.append(W / q if W > 0 and q > 0 else 0.0)
        est = float(np.mean(vals))
        self._total_est = (key, est)
        return est


class _Samples:
    """The Rao-Blackwellised samples of a chain: per holdings key ``(seat or "stock", rank)``
    the list of its probability vectors (one per step that recorded it), per face-down book
    the summed rank and owner weights and their count."""

    def __init__(self, n_books: int):
        self.h: dict = {}
        self.b = [[{}, {}, 0] for _ in range(n_books)]

    def add(self, tmp_h: dict, tmp_b: list, keep: set | None, makers: list[int]) -> None:
        """Add one step's marginals (``keep``: the seats whose holdings and books count; the
        stock always; ``None``: all)."""
        for key, arr in tmp_h.items():
            if keep is None or key[0] == "stock" or key[0] in keep:
                self.h.setdefault(key, []).append(np.asarray(arr, dtype=float))
        for i, (rk, ow) in enumerate(tmp_b):
            if i >= len(self.b) or not (keep is None or makers[i] in keep):
                continue
            acc = self.b[i]
            for q, v in rk.items():
                acc[0][q] = acc[0].get(q, 0.0) + v
            for q, v in ow.items():
                acc[1][q] = acc[1].get(q, 0.0) + v
            acc[2] += 1

    def means(self) -> tuple[dict, list]:
        """``(holdings, books)`` as :class:`_Answer` holds them (probabilities)."""
        hold = {}
        for key, rows in self.h.items():
            m = np.mean(rows, axis=0)
            hold[key] = {c: float(x) for c, x in enumerate(m) if x > 1e-15}
        books = []
        for rk, ow, n in self.b:
            n = max(n, 1)
            books.append(({q: v / n for q, v in rk.items() if v / n > 1e-15},
                          {o: v / n for o, v in ow.items() if v / n > 1e-15}))
        return hold, books

    def stderr(self) -> float:
        """The largest batch-means standard error of any holdings probability
        (``STDERR_BATCHES`` batches, fewer while some key has fewer than twice as many
        samples; ``inf`` while some key has fewer than 4)."""
        worst = 0.0
        for rows in self.h.values():
            n = len(rows)
            B = min(STDERR_BATCHES, n // 2)
            if B < 2:
                return float("inf")
            X = np.asarray(rows)
            cuts = np.linspace(0, n, B + 1).astype(int)
            bm = np.array([X[cuts[i]:cuts[i + 1]].mean(axis=0) for i in range(B)])
            worst = max(worst, float((bm.std(axis=0, ddof=1) / np.sqrt(B)).max()))
        return worst


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


__all__ = ["DrawEngine", "DEFAULT_STEPS"]
