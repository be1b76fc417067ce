"""The blocks of the compact exact sum (:mod:`.compact`): a rank's unseen draws split into
segments (interchangeable draws), one seat's block of a rank and the joint block of a rank's
seats."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from math import factorial
from typing import Any

import numpy as np

from .timeline import _ASKBOOK, _GIVE, _HAS, _KDRAW, _NONE, _UDRAW, _WIN, _Timeline

try:  # the C kernels (built from _compact.c at install time)
    from . import _compact
except ImportError:  # pragma: no cover - depends on the build
    _compact = None


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
    xs, fcs, mades = [], [], []
    for complete in modes:
        bounds = _replay_seat(tl, evs, s, _seat_start(complete, capped, S, H), askbook, S, eng.give_all)
        if bounds is None:
            continue
        lo, hi, off, reset, mine = bounds
        for x in range(lo, hi + 1):
            xs.append(x)
            fcs.append(off if reset else x + off)
            mades.append(1 if (mine and askbook) else 0)
    x = np.array(xs, dtype=np.int64)
    w = _seat_identities(tl, r, k, D, x)
    keep = w > 0
    got = SeatBlock(x[keep], w[keep], np.array(fcs, dtype=np.int64)[keep], np.array(mades, dtype=np.int64)[keep])
    cache[key] = got
    return got


def _seat_start(complete: bool | None, capped: bool, S: int, H: int) -> tuple:
    """A seat's state before any fact of a rank, in one branch (``complete``: ``True`` the
    seat was dealt the rank complete and laid it, ``False`` it has face-down dealt books and
    was not, ``None``: no such question; ``capped``: it cannot have been dealt the rank
    complete): ``(lo, hi, off, reset, mine, owner)`` as :func:`_replay_seat` keeps them."""
    lo, hi = 0, min(H, S)
    off, reset, mine = 0, False, False
    owner = None   # phase 2: the seat now holding the book, when known (-2: this seat)
    if complete:
        lo, reset, mine, owner = S, True, True, -2
    elif complete is False or capped:
        hi = min(hi, S - 1)
    return lo, hi, off, reset, mine, owner


def _replay_seat(tl: _Timeline, evs: list, s: int, start: tuple, askbook: bool, S: int,
                 give_all: bool) -> tuple | None:
    """Replay seat ``s``'s facts of one rank (``evs``: its ops and its unseen draws of the
    rank, in time order) from ``start`` (:func:`_seat_start`): ``(lo, hi, off, reset,
    mine)``, the dealt counts ``lo..hi`` that meet every fact, the count's offset now (from
    the dealt count, or after a book the count itself: ``reset``) and whether the seat made
    the book (``owner``: in phase 2 the seat now holding it, -2 this seat); ``None`` when no
    dealt count does."""
    lo, hi, off, reset, mine, owner = start
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
            if outcome == "open":
                continue
            a, b = (S, S) if outcome == "book" else (-99, S - 1)
        # _HAS, _NONE, or a gain's outcome: the count is in [a, b] now
        if reset:
            ok = a <= off <= b
        else:
            lo, hi = max(lo, a - off), min(hi, b - off)
            ok = lo <= hi
        if not ok:
            break
        if (code == _WIN or code == _UDRAW) and outcome == "book":
            reset, off, mine, owner = True, 0, True, -2
    if not ok or lo > hi:
        return None
    return lo, hi, off, reset, mine


def _seat_identities(tl: _Timeline, r: str, k: int, D: tuple, x: np.ndarray) -> np.ndarray:
    """Seat ``k``'s share of rank ``r``'s identity count for each dealt count ``x`` (int64
    array): float64 ``sum over patterns npat / (x - kv)!``, where a pattern says which of the
    seat's cards first handed over came from its dealt hand (``kv`` of them) and which from
    one of its unseen draws ``D`` of the rank before (each draw at most once)."""
    fa = [tm for kk, tm in tl.first[r] if kk == k]
    if not fa:
        return 1.0 / _FACT_F[x] if len(x) else np.zeros(0)
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
    return w


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
