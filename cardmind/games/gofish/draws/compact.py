"""The compact exact sum: the draw engine's sum over every unseen draw, with interchangeable
draws counted together and the capacity kept in a small box per row.

The draw engine's planned sum (:meth:`~.engine.DrawEngine.plan`) places the ranks one after
another, and its state after ``i`` ranks is the **set** of unseen draws they took (one row
per live subset) times a dense table of every capacity state (each other seat's dealt cards
used so far): ``(hand + 1) ** (players - 1)`` cells per row. Two facts make most of that
state redundant:

* **Interchangeable draws.** Rank ``r``'s block depends on which draws it takes only through
  how many it takes in each *segment* of its timeline: a seat's unseen draws between two
  facts of the record that check that seat's count of ``r`` (an ask for ``r``, a refusal of
  ``r``, cards of ``r`` handed over, a gain after which no book followed) are
  interchangeable for ``r``; a draw a book followed, and the last event's draw, are a
  segment of their own; a draw that cannot be ``r`` is in none. After the ranks ``P`` are
  placed, the ranks ``Q`` still to come see a draw only through its segments in ``Q``, so
  draws with the same segments in every rank of ``Q`` (a *class*) are interchangeable for
  the rest of the sum, and the state needs only *how many* draws of each class are taken
  (the forward sum over the subsets of one class count is added up; the number of ways to
  pick the draws a block takes from a class is a binomial coefficient). This is the
  Literature counter's merging of identical seats, applied to draws (``belief-notes.md``):
  on full-deck 4-player positions it cuts the rows 2-3 times.
* **Capacity boxes.** At a given stage and row, the capacity used by each seat is pinned to
  a narrow range by the facts (most cells of the dense tables are zero one way or the
  other): each row keeps only the box of capacity states (per seat an interval, and per
  seat with face-down dealt books an interval of its counter) that the ranks before it can
  reach *and* the ranks after it can complete. On the same positions the boxes hold
  10-40 times fewer cells than the dense tables.

The sum itself is the same: the forward pass, the backward pass and the contexts (the total
weight through every block row, from which the holdings and the face-down books' ranks
follow) run over the rows' boxes in the C kernel ``_compact.c`` (the numpy code in
:class:`CompactSum` is its reference). Counts are floating point (relative rounding about
``1e-15`` per operation). :func:`plan_compact` builds the plan (classes, rows, boxes,
transitions) and says how much work the sum is, so the caller can choose another method
when it is too much.

Not covered (the caller falls back to the other exact paths): a record cut during the
opening while a seat may still lay dealt books (no unseen draw can have happened then).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from math import comb, factorial
from typing import Any

import numpy as np

from . import settings
from .timeline import _ASKBOOK, _GIVE, _HAS, _KDRAW, _NONE, _UDRAW, _WIN, _Timeline

try:  # the C kernels (built from _compact.c at install time)
    from . import _compact
except ImportError:  # pragma: no cover - depends on the build
    _compact = None


@dataclass
class _Dims:
    """The dimensions of the capacity boxes (``dims``: sizes; ``hk``: the seat index of each
    counter dimension after the ``K`` capacity ones)."""
    dims: tuple
    hk: list

    @property
    def nd(self) -> int:
        return len(self.dims)


class PlanTooLarge(Exception):
    """The compact plan passed its budget (rows or cells)."""


# --------------------------------------------------------------------------- segments
def draw_segments(t: Any, tl: _Timeline) -> list[np.ndarray]:
    """Per rank (in ``t.ranks`` order), per unseen draw: its segment in that rank's timeline
    (an index ``>= 0``), or ``-1`` when the draw cannot be of that rank (the rank just refused
    before it, or a rank whose book was known by then). Two draws in the same segment of a
    rank are interchangeable for that rank's block (see the module docstring).

    The boundaries of seat ``k``'s segments in rank ``r``: every fact that checks ``k``'s
    count of ``r`` (an ask by ``k`` for ``r``, a refusal of ``r`` by ``k``, cards of ``r``
    handed over by ``k``, a gain of ``r`` by ``k`` after which a book may or may not follow).
    Cards ``k`` receives or draws shown only shift its count and always come with such a
    gain. A draw whose window closed with a book, or is still open (the last event), is a
    segment alone; a draw a book followed is also a boundary of its seat's segments in every
    rank it may be: if it is of the rank, the book took the seat's cards of it, so the seat's
    draws before and after it are not interchangeable (one of the rank before it may have
    completed the book, one after it cannot be of the rank). No fact of the rank's timeline
    marks it when the book is face down. (Leaving out the facts that hold whatever the
    hidden cards are, such as an ask by a seat everyone knows holds the rank, merged no
    segment on the positions tried: those are rare.)
    """
    m = len(tl.draws)
    out = []
    for r in t.ranks:
        bounds: dict[int, list[int]] = {}
        for e in tl.ops[r]:
            code = e[1]
            if code in (_HAS, _NONE, _WIN, _GIVE):
                seat = e[2]
            else:
                continue
            if seat == t.observer:
                continue
            bounds.setdefault(t.kidx[seat], []).append(e[0])
        # a draw of the rank a book followed resets the seat's count: a boundary too
        for d in tl.draws:
            if r in d.domain and tl.outcome(d.win, tl.n) == "book":
                bounds.setdefault(d.k, []).append(d.time)
        sorted_bounds = {k: np.array(sorted(v), dtype=np.int64) for k, v in bounds.items()}
        none = np.zeros(0, dtype=np.int64)
        seg = np.full(m, -1, dtype=np.int64)
        ids: dict = {}
        for j, d in enumerate(tl.draws):
            if r not in d.domain:
                continue
            if tl.outcome(d.win, tl.n) != "nobook":
                key: tuple = ("own", j)
            else:
                key = (d.k, int(np.searchsorted(sorted_bounds.get(d.k, none), d.time)))
            seg[j] = ids.setdefault(key, len(ids))
        out.append(seg)
    return out


# --------------------------------------------------------------------------- one seat's block
@dataclass
class SeatBlock:
    """Rank ``r``'s block for one other seat, given which of its unseen draws are of ``r``:
    per candidate dealt count ``x`` (rows) the weight ``w`` (the seat's share of the identity
    count: ``sum over pats npat / (x - kv)!``), the count ``fc`` the seat holds now and
    ``made``, 1 when the seat made the book of ``r`` (only for ranks whose book was asked for
    in phase 2, else 0). The rank's whole block is ``G(n) * prod over seats w`` with ``n``
    the cards of ``r`` the seats were dealt or drew unseen (:func:`rank_factor`)."""
    x: np.ndarray
    w: np.ndarray
    fc: np.ndarray
    made: np.ndarray

    @property
    def empty(self) -> bool:
        return len(self.w) == 0


def _seat_ops(t: Any, tl: _Timeline, r: str, s: int) -> list:
    """The ops of rank ``r``'s timeline that concern seat ``s`` (and every phase-2 book ask)."""
    out = []
    for e in tl.ops[r]:
        code = e[1]
        if code in (_HAS, _NONE, _KDRAW, _WIN):
            if e[2] == s:
                out.append(e)
        elif code == _GIVE:
            if e[2] == s or e[3] == s:
                out.append(e)
        elif code == _ASKBOOK:
            out.append(e)
    return out


def seat_block(eng: Any, tl: _Timeline, pos: int, k: int, D: tuple, askbook: bool, cache: dict) -> SeatBlock:
    """Rank position ``pos``'s block for other seat ``k`` when exactly its unseen draws ``D``
    (indices, sorted) are of that rank, for the record cut at its end: the per-seat half of
    :meth:`~.engine.DrawEngine._build` (same facts, same identity count; the tests check that
    ``G(n)`` times the seats' blocks is the joint block). ``askbook``: the rank's book was
    asked for in phase 2 (then ``made`` tells whether this seat made it, and the asks are
    checked as if it did)."""
    key = (pos, k, D)
    got = cache.get(key)
    if got is not None:
        return got
    t = eng.t
    S, H = t.S, eng.H
    r = t.ranks[pos]
    s = t.others[k]
    op = tl.opening(tl.n)
    ops = cache.get(("ops", pos, s))
    if ops is None:
        ops = cache[("ops", pos, s)] = _seat_ops(t, tl, r, s)
    evs = ops
    if D:
        evs = sorted(ops + [(tl.draws[j].time, _UDRAW, j) for j in D], key=lambda e: e[0])
    kn = op.known.get(s, ())
    if r in kn:
        modes = [True]
    elif op.hb.get(s) and s != op.pos:
        modes = [False, True]
    else:
        modes = [None]
    capped = op.final or s < op.last or (s == op.last and kn and pos < max(t.rank_index[q] for q in kn))
    give_all = eng.give_all
    xs, fcs, mades = [], [], []
    for complete in modes:
        lo, hi = 0, min(H, S)
        off, reset, mine = 0, False, False
        owner = None   # phase 2: the seat now holding the book, when known (-2: this seat)
        if complete:
            lo, reset, mine, owner = S, True, True, -2
        elif complete is False or capped:
            hi = min(hi, S - 1)
        ok = True
        for e in evs:
            code = e[1]
            if code == _HAS:
                a, b = 1, 99
            elif code == _NONE:
                a, b = 0, 0
            elif code == _GIVE:
                tg, asker, n = e[2], e[3], e[4]
                if tg == s:
                    if reset:
                        ok = off >= n
                    else:
                        lo = max(lo, n - off)
                    off -= n
                    if give_all:
                        if reset:
                            ok = ok and off == 0
                        else:
                            lo, hi = max(lo, -off), min(hi, -off)
                if asker == s:
                    off += n
                if not ok or lo > hi:
                    ok = False
                    break
                continue
            elif code == _KDRAW:
                off += 1
                continue
            elif code == _ASKBOOK:
                if not askbook:
                    continue
                a_, tg_, success = e[2], e[3], e[4]
                if owner is None:
                    continue   # not this seat's book (yet): another seat's replay checks it
                holder = s if owner == -2 else owner
                if holder == a_ or success != (holder == tg_):
                    ok = False
                    break
                if success:
                    owner = a_
                continue
            else:  # _WIN or _UDRAW: a gain; the window after it
                if code == _UDRAW:
                    off += 1
                    outcome = tl.outcome(tl.draws[e[2]].win, tl.n)
                else:
                    outcome = tl.outcome(e[3], tl.n)
                if outcome == "book":
                    a, b = S, S
                elif outcome == "nobook":
                    a, b = -99, S - 1
                else:
                    continue
                if reset:
                    ok = a <= off <= b
                else:
                    lo, hi = max(lo, a - off), min(hi, b - off)
                    ok = lo <= hi
                if not ok:
                    break
                if outcome == "book":
                    reset, off, mine, owner = True, 0, True, -2
                continue
            # _HAS / _NONE
            if reset:
                ok = a <= off <= b
            else:
                lo, hi = max(lo, a - off), min(hi, b - off)
                ok = lo <= hi
            if not ok:
                break
        if not ok or lo > hi:
            continue
        for x in range(lo, hi + 1):
            xs.append(x)
            fcs.append(off if reset else x + off)
            mades.append(1 if (mine and askbook) else 0)
    x = np.array(xs, dtype=np.int64)
    # identity count: this seat's cards first handed over came from its dealt hand or one of
    # its unseen draws of the rank before
    fa = [tm for kk, tm in tl.first[r] if kk == k]
    if not fa:
        w = 1.0 / _FACT_F[x] if len(x) else np.zeros(0)
    else:
        pats: dict = {}
        opts = [[None] + [j for j in D if tl.draws[j].time < tm] for tm in fa]
        for choice in itertools.product(*opts):
            used = [c for c in choice if c is not None]
            if len(set(used)) != len(used):
                continue
            kv = len(choice) - len(used)
            pats[kv] = pats.get(kv, 0) + 1
        w = np.zeros(len(x))
        for kv, npat in pats.items():
            rest = x - kv
            w += np.where(rest >= 0, npat / _FACT_F[np.maximum(rest, 0)], 0.0)
    keep = w > 0
    got = SeatBlock(x[keep], w[keep], np.array(fcs, dtype=np.int64)[keep], np.array(mades, dtype=np.int64)[keep])
    cache[key] = got
    return got


_FACT_F = np.array([float(factorial(i)) for i in range(64)])


def rank_factor(t: Any, tl: _Timeline, pos: int) -> tuple[int, np.ndarray]:
    """``(nf, G)``: the cards of rank position ``pos`` the observer cannot locate (less those
    drawn shown), and ``G[n] = (nf - F)! / (nf - n)!`` for ``n = 0..nf`` (``F``: the cards of
    the rank first handed over; 0 where ``n < F``): the factor of the rank's block that the
    seats share, ``n`` being the cards of the rank they were dealt or drew unseen."""
    r = t.ranks[pos]
    nf = tl.u0[r] - len(tl.kdraws[r])
    F = len(tl.first[r])
    G = np.zeros(max(nf, 0) + 1)
    for n in range(F, nf + 1):
        G[n] = _FACT_F[nf - F] / _FACT_F[nf - n]
    return nf, G



@dataclass
class _JointBlock:
    """Rank ``r``'s whole block (every other seat's dealt count ``X``, the counts ``fc`` held
    now, the stock's ``st`` and the weight ``w``, floating point), from the seats' blocks and
    the shared factor: the same rows and weights as :meth:`~.engine.DrawEngine._build`."""
    X: np.ndarray
    fc: np.ndarray
    st: np.ndarray
    w: np.ndarray

    @property
    def empty(self) -> bool:
        return len(self.w) == 0

    def weights(self, dtype) -> np.ndarray:
        return self.w


def joint_block(eng: Any, tl: _Timeline, pos: int, D: tuple, seg: np.ndarray, G: np.ndarray, nf: int,
                cache: dict) -> _JointBlock:
    """Rank position ``pos``'s block when exactly the unseen draws ``D`` are of that rank:
    ``G(n)`` times the product of the seats' blocks (:func:`seat_block`, one per vector of
    draws taken per segment, cached), ``n`` the cards of the rank dealt to or drawn unseen
    by the other seats (at most ``nf``)."""
    t = eng.t
    K = t.K
    parts = []
    for k in range(K):
        Dk = tuple(j for j in D if tl.draws[j].k == k)
        key = ("nu", pos, k, tuple(sorted(int(seg[j]) for j in Dk)))
        sb = cache.get(key)
        if sb is None:
            sb = cache[key] = seat_block(eng, tl, pos, k, Dk, False, cache)
        if sb.empty:
            z = np.zeros(0, dtype=np.int64)
            return _JointBlock(np.zeros((0, K), dtype=np.int64), np.zeros((0, K), dtype=np.int64), z, np.zeros(0))
        parts.append(sb)
    X = np.zeros((1, 0), dtype=np.int64)
    FC = np.zeros((1, 0), dtype=np.int64)
    W = np.ones(1)
    for sb in parts:
        X = np.hstack([np.repeat(X, len(sb.x), axis=0), np.tile(sb.x, len(X))[:, None]])
        FC = np.hstack([np.repeat(FC, len(sb.x), axis=0), np.tile(sb.fc, len(FC))[:, None]])
        W = np.repeat(W, len(sb.x)) * np.tile(sb.w, len(W))
        keep = X.sum(axis=1) + len(D) <= nf
        X, FC, W = X[keep], FC[keep], W[keep]
    n = X.sum(axis=1) + len(D)
    W = W * G[n]
    keep = W > 0
    return _JointBlock(X[keep], FC[keep], (nf - n)[keep], W[keep])


# --------------------------------------------------------------------------- plan
@dataclass
class CompactPlan:
    """What :func:`plan_compact` found: the rows (with their boxes) of every stage, the
    transitions between them and the blocks they use, and the size of the sum (``cells``:
    the boxes' cells; ``work``: an upper bound on the multiply-adds of one pass).

    The ranks are placed in ``order``. Before stage ``i`` (the ranks ``order[:i]`` placed)
    the draws fall into the classes ``classes[i]`` (draws with the same segments in every
    rank still to come) and a row is how many draws of each class are taken; its box is
    the range of each other seat's dealt cards used so far (``0..hand``) and of each counter
    of a seat with face-down dealt books.

    Arrays over all rows of all stages (a row's index is global): ``row_stage``, ``row_lo``,
    ``row_dim`` (box), ``row_off`` (offset into a table of ``cells`` values); over
    transitions, in stage order: ``tr_src``, ``tr_dst``, ``tr_coef`` (the ways to choose the
    draws taken within their classes), ``tr_blk``, ``tr_slot``; over blocks: ``blk_off``,
    ``blk_n`` into the block-row arrays ``x_inc`` (box increment), ``x_w`` (weight) and
    ``x_split`` (the counter dimension whose value before the block numbers the face-down
    dealt book, else -1); ``blocks``: ``(rank position, block)``; ``slots``: per context slot
    ``(stage, block id, the classes it takes draws from)``.
    """
    order: list
    D: int
    caps: np.ndarray
    row_stage: np.ndarray
    row_lo: np.ndarray
    row_dim: np.ndarray
    row_off: np.ndarray
    cells: int
    tr_src: np.ndarray
    tr_dst: np.ndarray
    tr_coef: np.ndarray
    tr_blk: np.ndarray
    tr_slot: np.ndarray
    blk_off: np.ndarray
    blk_n: np.ndarray
    x_inc: np.ndarray
    x_w: np.ndarray
    x_split: np.ndarray
    blocks: list
    slots: list
    classes: list
    start_row: int
    final_row: int
    terminal_lo: np.ndarray
    terminal_hi: np.ndarray
    work: int = 0
    info: dict = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return self.final_row < 0


def _compositions(n: int, caps: list[int]):
    """Every vector ``v`` with ``sum(v) == n`` and ``0 <= v[i] <= caps[i]``."""
    if not caps:
        if n == 0:
            yield ()
        return
    first, rest = caps[0], caps[1:]
    room = sum(rest)
    for a in range(min(first, n), -1, -1):
        if n - a <= room:
            for tail in _compositions(n - a, rest):
                yield (a,) + tail


def _rank_blocks(eng: Any, tl: _Timeline, pos: int, seg: np.ndarray, limit: int,
                 cache: dict) -> tuple[list, list, list]:
    """``(nus, blocks, members)``: every nonempty block of rank position ``pos``, one per
    vector ``nu`` of draws taken per segment (at most ``min(suits, unknown cards)`` in all);
    ``members``: the draws of each segment (any draws of a segment give the same block).

    The blocks are built from the seats' blocks (:func:`seat_block`: each seat's segments
    are its own, so a vector ``nu`` is one vector per seat) times the shared factor ``G(n)``
    (:func:`rank_factor`), combining only the seats' vectors that have rows; where a book of
    the rank was asked for in phase 2 (who made it couples the seats) by the joint replay
    :meth:`~.engine.DrawEngine._build`.
    """
    t = eng.t
    r = t.ranks[pos]
    K = t.K
    nseg = int(seg.max()) + 1 if len(seg) and seg.max() >= 0 else 0
    members = [np.flatnonzero(seg == g).tolist() for g in range(nseg)]
    nf, G = rank_factor(t, tl, pos)
    top = max(0, min(t.S, nf))
    sizes = [len(mm) for mm in members]
    nus, blocks = [], []
    if any(e[1] == _ASKBOOK for e in tl.ops[r]):
        count = 0
        for n in range(top + 1):
            for nu in _compositions(n, sizes):
                count += 1
                if count > limit:
                    raise PlanTooLarge(f"rank {r}: more than {limit} ways to take the unseen draws")
                D = tuple(sorted(j for g, c in enumerate(nu) for j in members[g][:c]))
                b = eng.block(tl, r, D, tl.n)
                if not b.empty:
                    nus.append(nu)
                    blocks.append(b)
        return nus, blocks, members
    # per seat: its segments, and the vectors of draws taken in them that leave it rows
    seat_segs = [[g for g in range(nseg) if tl.draws[members[g][0]].k == k] for k in range(K)]
    pieces = []
    count = 0
    for k in range(K):
        sg = seat_segs[k]
        got = []
        for n in range(top + 1):
            for nu_k in _compositions(n, [sizes[g] for g in sg]):
                count += 1
                if count > limit:
                    raise PlanTooLarge(f"rank {r}: more than {limit} ways to take the unseen draws")
                Dk = tuple(sorted(j for g, c in zip(sg, nu_k) for j in members[g][:c]))
                sb = seat_block(eng, tl, pos, k, Dk, False, cache)
                if not sb.empty:
                    got.append((nu_k, n, sb.x.tolist(), sb.fc.tolist(), sb.w.tolist()))
        if not got:
            return [], [], members
        pieces.append(got)
    # every combination of the seats' pieces with at most ``top`` draws, and its rows
    Gl = G.tolist()

    def rec(k: int, nd: int, acc: list) -> None:
        if k == K:
            rows = [((), (), 1.0, nd)]
            for (_, _, xs, fcs, ws) in acc:
                rows = [(x0 + (x,), f0 + (f,), w0 * w, n0 + x) for (x0, f0, w0, n0) in rows
                        for x, f, w in zip(xs, fcs, ws) if n0 + x <= nf]
                if not rows:
                    return
            rows = [(x0, f0, w0 * Gl[n0], nf - n0) for (x0, f0, w0, n0) in rows if Gl[n0] > 0]
            if not rows:
                return
            nu = [0] * nseg
            for kk, (nu_k, _, _, _, _) in enumerate(acc):
                for g, c in zip(seat_segs[kk], nu_k):
                    nu[g] = c
            nus.append(tuple(nu))
            blocks.append(_JointBlock(np.array([x for x, _, _, _ in rows], dtype=np.int64).reshape(len(rows), K),
                                      np.array([f for _, f, _, _ in rows], dtype=np.int64).reshape(len(rows), K),
                                      np.array([st for _, _, _, st in rows], dtype=np.int64),
                                      np.array([w for _, _, w, _ in rows], dtype=np.float64)))
            return
        for piece in pieces[k]:
            if nd + piece[1] <= top:
                acc.append(piece)
                rec(k + 1, nd + piece[1], acc)
                acc.pop()

    rec(0, 0, [])
    return nus, blocks, members


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
    from math import lgamma  # noqa: PLC0415

    m = dom.shape[0]
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
    # per (rank, draw) a random 64-bit tag of its segment (0 when excluded); a class of Q is a
    # value of the sum of the tags over Q
    hv = np.zeros((F, m), dtype=np.uint64)
    for q in range(F):
        tags = rng.integers(1, 2 ** 62, size=int(max(eff[q].max(), 0)) + 1, dtype=np.int64).astype(np.uint64)
        ok = eff[q] >= 0
        hv[q, ok] = tags[eff[q][ok]] * np.uint64(2 * q + 3)
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
    ecost = np.exp(np.minimum(cost, 700.0))
    if order is not None:
        return float(sum(ecost[i, r] for i, r in enumerate(idx)))
    # dynamic programme over the sets placed: f[P] = min over r in P of f[P - r] + cost(Q + r, r)
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


def _expand(rows: np.ndarray, P: np.ndarray, size: np.ndarray, mv_off: np.ndarray, mv_cls: np.ndarray,
            mv_val: np.ndarray, mv_code: np.ndarray, checks: tuple) -> tuple:
    """The forward step of the planner (the C kernel ``expand``, or numpy): every valid
    ``(row, move)`` pair and the new row's code (see ``_compact.c``)."""
    cm, cr, cq = checks
    if _compact is not None and settings.DP_FAST:
        z = np.zeros(0, dtype=np.int64)
        n = _compact.expand(rows, P, size, mv_off, mv_cls, mv_val, mv_code, cm, cr, cq, z, z, z)
        src = np.empty(n, dtype=np.int64)
        mv = np.empty(n, dtype=np.int64)
        code = np.empty(n, dtype=np.int64)
        _compact.expand(rows, P, size, mv_off, mv_cls, mv_val, mv_code, cm, cr, cq, src, mv, code)
        return src, mv, code
    srcs, mvs, codes = [], [], []
    for m in range(len(mv_code)):
        cl = mv_cls[mv_off[m]:mv_off[m + 1]]
        ok = (rows[:, cl] + mv_val[mv_off[m]:mv_off[m + 1]] <= size[cl]).all(axis=1)
        idx = np.flatnonzero(ok)
        code = P[idx] + mv_code[m]
        for q in range(len(cm)):
            keep = (code // cm[q]) % cr[q] == cq[q]
            idx, code = idx[keep], code[keep]
        srcs.append(idx)
        mvs.append(np.full(len(idx), m, dtype=np.int64))
        codes.append(code)
    def cat(xs):
        return np.concatenate(xs) if xs else np.zeros(0, dtype=np.int64)

    return cat(srcs), cat(mvs), cat(codes)


def _coefs(mats: np.ndarray, src: np.ndarray, mvi: np.ndarray, mv_off: np.ndarray, mv_cls: np.ndarray,
           mv_val: np.ndarray, size: np.ndarray, binom: np.ndarray) -> np.ndarray:
    """The coefficient of every transition (the C kernel ``coefs``, or numpy): the ways to
    pick the draws its move takes from the classes of its source row, the product over the
    move's (class, count) pairs in order of ``binom[size[c] - taken, count]``."""
    if _compact is not None and settings.DP_FAST and hasattr(_compact, "coefs"):
        out = np.empty(len(src))
        _compact.coefs(np.ascontiguousarray(mats, dtype=np.int64), np.ascontiguousarray(src, dtype=np.int64),
                       np.ascontiguousarray(mvi, dtype=np.int64), mv_off, mv_cls, mv_val,
                       np.ascontiguousarray(size, dtype=np.int64), binom, out)
        return out
    coef = np.ones(len(src))
    lens = np.diff(mv_off)
    flat = mats.reshape(-1)
    C = mats.shape[1]
    tl_len = lens[mvi]
    at = mv_off[mvi]
    for q in range(int(lens.max(initial=0))):   # the pairs a move lacks would be factors 1
        idx = np.flatnonzero(tl_len > q)
        pq = at[idx] + q
        c_q = mv_cls[pq]
        coef[idx] *= binom[size[c_q] - flat[src[idx] * C + c_q], mv_val[pq]]
    return coef


def plan_compact(eng: Any, tl: _Timeline, max_rows: int | None = None, max_cells: int | None = None,
                 max_work: int | None = None, max_transitions: int | None = None) -> CompactPlan:
    """Plan the compact exact sum of the record ``tl`` (cut at its end) for the draw engine
    ``eng``.

    Args:
        max_rows, max_cells, max_work, max_transitions: give up past this many rows (all
            stages), box cells, multiply-adds of one pass, or transitions (defaults in
            :mod:`.settings`: ``COMPACT_MAX_ROWS``, ``COMPACT_MAX_CELLS``,
            ``COMPACT_MAX_WORK``, ``COMPACT_MAX_TRANSITIONS``).

    Returns:
        The plan (:attr:`CompactPlan.empty` when no deal is consistent).

    Raises:
        PlanTooLarge: past a limit.
        NotImplementedError: a record cut while a seat may still lay dealt books (no unseen
            draw has happened then: the other exact paths answer at once).
    """
    t = eng.t
    max_rows = settings.COMPACT_MAX_ROWS if max_rows is None else max_rows
    max_cells = settings.COMPACT_MAX_CELLS if max_cells is None else max_cells
    max_work = settings.COMPACT_MAX_WORK if max_work is None else max_work
    max_transitions = settings.COMPACT_MAX_TRANSITIONS if max_transitions is None else max_transitions
    op = tl.opening(tl.n)
    if op.pos is not None:
        raise NotImplementedError("a seat may still lay dealt books")
    # the box dimensions, as the draw engine's capacity space (:class:`~.tables._Space`) has
    # them: each other seat's dealt cards used (0..hand), then each counter of a seat with
    # face-down dealt books (without building that space's tables)
    sp = _Dims((eng.H + 1,) * t.K + tuple(c + 1 for c in op.caps), [t.kidx[s] for s in op.hseats])
    K, H, S = t.K, eng.H, t.S
    if tl.contradiction:
        return _empty_plan(sp)
    R = len(t.ranks)
    m = len(tl.draws)
    segs = draw_segments(t, tl)
    cache: dict = {}
    rb = [_rank_blocks(eng, tl, pos, segs[pos], settings.COMPACT_MAX_NUS, cache) for pos in range(R)]
    if any(not nus for nus, _, _ in rb):
        return _empty_plan(sp)
    # the ranks a draw may have: some nonempty block takes a draw of its segment
    dom = np.zeros((m, R), dtype=bool)
    for pos, (nus, _, members) in enumerate(rb):
        if not members:
            continue
        usable = np.array(nus, dtype=np.int64).reshape(len(nus), len(members)).any(axis=0)
        for g in np.flatnonzero(usable).tolist():
            dom[members[g], pos] = True
    if m and not dom.any(axis=1).all():
        return _empty_plan(sp)
    eff = [np.where(dom[:, pos], segs[pos], -1) for pos in range(R)]
    order = _order(dom, R, eff, [rb[p][0] for p in range(R)])
    nd = sp.nd
    caps = np.array(sp.dims, dtype=np.int64) - 1
    hk = {k: K + i for i, k in enumerate(sp.hk)}   # seat index -> its counter dimension

    # ---- classes per stage: draws with the same segments in every rank still to come
    sig = np.stack([eff[p] for p in order], axis=1) if m else np.zeros((0, R), dtype=np.int64)
    classes: list = []
    cls_of: list = []
    for i in range(R + 1):
        _, first, lab = np.unique(sig[:, i:], axis=0, return_index=True, return_inverse=True) if m and i < R \
            else (None, np.zeros(min(m, 1), dtype=np.int64), np.zeros(m, dtype=np.int64))
        lab = np.asarray(lab).reshape(-1)
        # number the classes by their first draw (stable across runs)
        ordc = np.argsort(np.asarray(first))
        relab = np.empty(len(ordc), dtype=np.int64)
        relab[ordc] = np.arange(len(ordc))
        lab = relab[lab] if m else lab
        cls = [[] for _ in range(len(ordc))] if m else []
        for j in range(m):
            cls[lab[j]].append(j)
        classes.append(cls)
        cls_of.append(lab)
    size = [np.array([len(c) for c in cls], dtype=np.int64) for cls in classes]
    # a class no rank still to come may take is full; one no rank placed may take is empty
    must = [np.array([not dom[c[0], order[i:]].any() for c in classes[i]], dtype=bool) for i in range(R + 1)]
    cannot = [np.array([not dom[c, :][:, order[:i]].any() for c in classes[i]], dtype=bool)
              for i in range(R + 1)]
    mults = []
    for i in range(R + 1):
        rad = size[i] + 1
        mult = np.ones(len(rad), dtype=np.int64)
        acc = 1
        for ci in range(len(rad)):
            mult[ci] = acc
            acc *= int(rad[ci])
            if acc > (1 << 62):
                raise PlanTooLarge("too many classes to number the rows")
        mults.append(mult)

    # ---- the moves of every stage: (block id, counts taken per class of the stage)
    blocks: list = []
    moves: list = []
    for i, pos in enumerate(order):
        segpos = eff[pos]
        by_seg: dict = {}
        for ci, c in enumerate(classes[i]):
            g = int(segpos[c[0]])
            if g >= 0:
                by_seg.setdefault(g, []).append(ci)
        mv = []
        nus, bls, _ = rb[pos]
        for nu, b in zip(nus, bls):
            bid = len(blocks)
            blocks.append((pos, b))
            parts = []
            for g, c in enumerate(nu):
                if c:
                    cl = by_seg.get(g, [])
                    parts.append((cl, list(_compositions(c, [int(size[i][ci]) for ci in cl]))))
            if any(not opts for _, opts in parts):
                continue
            for combo in itertools.product(*[o for _, o in parts]):
                cl_l, val_l = [], []
                for (cl, _), v in zip(parts, combo):
                    for ci, x in zip(cl, v):
                        if x:
                            cl_l.append(ci)
                            val_l.append(x)
                mv.append((bid, tuple(cl_l), tuple(val_l)))
        moves.append(mv)

    # ---- rows: forward (reachable, in codes), then backward (completable)
    codes = [np.zeros(1, dtype=np.int64)]
    mats = [np.zeros((1, len(classes[0])), dtype=np.int64)]
    edges: list = []
    csr: list = []   # per stage its moves as (offsets, classes, counts taken)
    total = 1
    ntr = 0
    for i in range(R):
        merge = cls_of[i + 1][[c[0] for c in classes[i]]] if classes[i] else np.zeros(0, dtype=np.int64)
        pm = mults[i + 1][merge] if len(merge) else np.zeros(0, dtype=np.int64)   # projection of counts
        P = mats[i] @ pm if len(pm) else np.zeros(len(codes[i]), dtype=np.int64)
        mv = moves[i]
        mv_off = np.zeros(len(mv) + 1, dtype=np.int64)
        mv_off[1:] = np.cumsum([len(x[1]) for x in mv])
        mv_cls = np.array([c for x in mv for c in x[1]], dtype=np.int64)
        mv_val = np.array([v for x in mv for v in x[2]], dtype=np.int64)
        mv_code = np.array([sum(int(pm[c]) * v for c, v in zip(x[1], x[2])) for x in mv], dtype=np.int64)
        csr.append((mv_off, mv_cls, mv_val))
        # the next stage's must-be-full and cannot-be-taken classes, checked on the code
        qs = np.flatnonzero(must[i + 1] | cannot[i + 1])
        checks = (mults[i + 1][qs], size[i + 1][qs] + 1, np.where(must[i + 1][qs], size[i + 1][qs], 0))
        chk = tuple(np.ascontiguousarray(x, dtype=np.int64) for x in checks)
        if _compact is not None and settings.DP_FAST:
            # the new rows numbered as they first appear (a hash table in C)
            raw = _compact.expand_dedup(np.ascontiguousarray(mats[i]), P, size[i], mv_off, mv_cls, mv_val,
                                        mv_code, *chk)
            src, mvi, inv, ucode = (np.frombuffer(x, dtype=np.int64) for x in raw)
        else:
            src, mvi, code = _expand(np.ascontiguousarray(mats[i]), P, size[i], mv_off, mv_cls, mv_val, mv_code, chk)
            ucode, inv = np.unique(code, return_inverse=True)
        ntr += len(src)
        if ntr > 4 * max_transitions:
            raise PlanTooLarge(f"more than {4 * max_transitions} transitions reached")
        codes.append(ucode)
        rad = size[i + 1] + 1
        mats.append(((ucode[:, None] // mults[i + 1][None, :]) % rad[None, :]).astype(np.int64, copy=False)
                    if len(classes[i + 1]) else np.zeros((len(ucode), 0), dtype=np.int64))
        edges.append((src, mvi, inv))
        total += len(ucode)
        if total > 4 * max_rows:
            raise PlanTooLarge(f"more than {4 * max_rows} rows reached")
    if not len(codes[R]):
        return _empty_plan(sp)
    live = [None] * (R + 1)
    live[R] = np.ones(len(codes[R]), dtype=bool)
    for i in range(R - 1, -1, -1):
        src, mvi, dst = edges[i]
        lv = np.zeros(len(codes[i]), dtype=bool)
        lv[src[live[i + 1][dst]]] = True
        live[i] = lv
    if not live[0].any():
        return _empty_plan(sp)
    for i in range(R):   # keep the moves between live rows only
        src, mvi, dst = edges[i]
        ok = live[i][src] & live[i + 1][dst]
        edges[i] = (src[ok], mvi[ok], dst[ok])

    # ---- capacity boxes (forward reach meets backward completion), dead rows pruned
    blo = np.zeros((len(blocks), nd), dtype=np.int64)
    bhi = np.zeros((len(blocks), nd), dtype=np.int64)
    binc: list = []
    for bid, (pos, b) in enumerate(blocks):
        inc = np.zeros((len(b.w), nd), dtype=np.int64)
        inc[:, :K] = b.X
        for k, d in hk.items():
            inc[:, d] = (b.X[:, k] == S).astype(np.int64)
        binc.append(inc)
        blo[bid] = inc.min(axis=0)
        bhi[bid] = inc.max(axis=0)
    mv_blk = [np.array([x[0] for x in mv], dtype=np.int64) for mv in moves]
    term_lo = np.zeros(nd, dtype=np.int64)
    term_hi = np.zeros(nd, dtype=np.int64)
    term_lo[:K] = term_hi[:K] = H
    for i, (lo_, cap_) in enumerate(zip(op.lows, op.caps)):
        term_lo[K + i] = lo_
        term_hi[K + i] = cap_
    if _compact is not None and settings.DP_FAST:
        boxes = _boxes_c(codes, edges, mv_blk, blo, bhi, caps, term_lo, term_hi, live)
    else:
        boxes = _boxes_numpy(codes, edges, mv_blk, blo, bhi, caps, term_lo, term_hi, live)
    if boxes is None or not live[R].any():
        return _empty_plan(sp)

    # ---- number the live rows, lay out their boxes, list the transitions
    gid, row_stage, row_lo, row_dim = [], [], [], []
    n = 0
    for i in range(R + 1):
        lv = np.flatnonzero(live[i])
        g = np.full(len(codes[i]), -1, dtype=np.int64)
        g[lv] = np.arange(n, n + len(lv))
        gid.append(g)
        n += len(lv)
        lo, hi = boxes[i]
        row_stage.append(np.full(len(lv), i, dtype=np.int64))
        row_lo.append(lo[lv])
        row_dim.append(hi[lv] - lo[lv] + 1)
    if n > max_rows:
        raise PlanTooLarge(f"{n} rows (at most {max_rows})")
    row_lo = np.concatenate(row_lo).astype(np.int64)
    row_dim = np.concatenate(row_dim).astype(np.int64)
    vol = np.prod(row_dim, axis=1)
    cells = int(vol.sum())
    if cells > max_cells:
        raise PlanTooLarge(f"{cells} box cells (at most {max_cells})")
    row_off = np.concatenate([[0], np.cumsum(vol)[:-1]]).astype(np.int64)
    binom = np.array([[comb(a, b) for b in range(S + 1)] for a in range(max(m, S) + 1)], dtype=np.float64)
    xn = np.array([len(b.w) for _, b in blocks], dtype=np.int64)
    tr_src, tr_dst, tr_coef, tr_blk, tr_slot = [], [], [], [], []
    slots: list = []
    work = 0
    for i in range(R):
        src, mvi, dst = edges[i]
        ok = live[i][src] & live[i + 1][dst]
        if not ok.all():
            if not ok.any():
                continue
            src, mvi, dst = src[ok], mvi[ok], dst[ok]
        mv = moves[i]
        mv_off, mv_cls, mv_val = csr[i]
        coef = _coefs(mats[i], src, mvi, mv_off, mv_cls, mv_val, size[i], binom)
        # the moves used, in order, and each transition's index among them (np.unique's answer)
        present = np.zeros(len(mv), dtype=bool)
        present[mvi] = True
        umv = np.flatnonzero(present)
        inv = (np.cumsum(present) - 1)[mvi]
        base = len(slots)
        slots += [(i, mv[k][0], mv[k][1]) for k in umv.tolist()]
        sg, dg = gid[i][src], gid[i + 1][dst]
        b_ = mv_blk[i][mvi]
        tr_src.append(sg)
        tr_dst.append(dg)
        tr_coef.append(coef)
        tr_blk.append(b_)
        tr_slot.append(base + inv)
        # the cells of the source boxes times the block rows (an upper bound on the
        # multiply-adds of one pass), plus a pair's fixed cost (about 30 cells' worth)
        work += int((vol[sg] * xn[b_]).sum()) + settings.COMPACT_PAIR_COST * int(xn[b_].sum())
    ntr = int(sum(len(x) for x in tr_src))
    if ntr > max_transitions:
        raise PlanTooLarge(f"{ntr} transitions (at most {max_transitions})")
    if work > max_work:
        raise PlanTooLarge(f"{work} multiply-adds (at most {max_work})")
    def cat(xs, dt):
        return np.concatenate(xs).astype(dt, copy=False) if xs else np.zeros(0, dtype=dt)

    blk_off = np.concatenate([[0], np.cumsum(xn)[:-1]]).astype(np.int64)
    x_inc = np.concatenate(binc) if binc else np.zeros((0, nd), dtype=np.int64)
    x_w = np.concatenate([b.weights(float) for _, b in blocks]) if blocks else np.zeros(0)
    x_split = np.full(len(x_w), -1, dtype=np.int64)
    at = 0
    for _, b in blocks:
        for k, d in hk.items():
            x_split[at:at + len(b.w)][b.X[:, k] == S] = d
        at += len(b.w)
    info = {"draws": m, "classes": [len(c) for c in classes], "rows": int(n), "blocks": len(blocks),
            "transitions": ntr, "cells": cells, "work": int(work)}
    return CompactPlan(order, nd, caps, np.concatenate(row_stage), row_lo, row_dim, row_off, cells,
                       cat(tr_src, np.int64), cat(tr_dst, np.int64), cat(tr_coef, np.float64),
                       cat(tr_blk, np.int64), cat(tr_slot, np.int64), blk_off, xn,
                       np.ascontiguousarray(x_inc, dtype=np.int64), np.ascontiguousarray(x_w, dtype=np.float64),
                       x_split, blocks, slots, classes, int(gid[0][np.flatnonzero(live[0])[0]]),
                       int(gid[R][np.flatnonzero(live[R])[0]]), term_lo, term_hi, int(work), info)


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


def _empty_plan(sp: Any) -> CompactPlan:
    z = np.zeros(0, dtype=np.int64)
    nd = sp.nd
    e2 = np.zeros((0, nd), dtype=np.int64)
    return CompactPlan([], nd, np.array(sp.dims, dtype=np.int64) - 1, z, e2, e2, z, 0, z, z, np.zeros(0), z, z,
                       z, z, e2, np.zeros(0), z, [], [], [], -1, -1, np.zeros(nd, dtype=np.int64),
                       np.zeros(nd, dtype=np.int64))

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
