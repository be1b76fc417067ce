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
from math import comb
from typing import Any

import numpy as np

from . import settings
from .boxes import _boxes_c, _boxes_numpy
from .compact_order import _order
from .compact_sum import CompactSum  # noqa: F401 - the sum of a plan, used as compact.CompactSum
from .seats import _JointBlock, draw_segments, joint_block, rank_factor, seat_block  # noqa: F401 - re-exported
from .timeline import _ASKBOOK, _Timeline

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

    Raises:
        PlanTooLarge: more than ``limit`` ways to take the unseen draws.
    """
    t = eng.t
    r = t.ranks[pos]
    nseg = int(seg.max()) + 1 if len(seg) and seg.max() >= 0 else 0
    members = [np.flatnonzero(seg == g).tolist() for g in range(nseg)]
    nf, G = rank_factor(t, tl, pos)
    top = max(0, min(t.S, nf))
    if any(e[1] == _ASKBOOK for e in tl.ops[r]):
        nus, blocks = _joint_replay_blocks(eng, tl, r, members, top, limit)
        return nus, blocks, members
    # per seat: its segments, and the vectors of draws taken in them that leave it rows
    seat_segs = [[g for g in range(nseg) if tl.draws[members[g][0]].k == k] for k in range(t.K)]
    pieces = _seat_pieces(eng, tl, pos, members, seat_segs, top, limit, cache)
    if pieces is None:
        return [], [], members
    nus, blocks = _combined_blocks(pieces, seat_segs, nseg, nf, top, G, t.K)
    return nus, blocks, members


def _joint_replay_blocks(eng: Any, tl: _Timeline, r: str, members: list, top: int, limit: int) -> tuple[list, list]:
    """``(nus, blocks)`` of rank ``r`` by the engine's joint replay (:meth:`~.engine.DrawEngine.block`,
    the record cut at its end): one block per vector of draws taken per segment of
    ``members`` (lists of draw indices), at most ``top`` draws in all; empty blocks left out.

    Raises:
        PlanTooLarge: more than ``limit`` vectors.
    """
    sizes = [len(mm) for mm in members]
    nus, blocks = [], []
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
    return nus, blocks


def _seat_pieces(eng: Any, tl: _Timeline, pos: int, members: list, seat_segs: list, top: int, limit: int,
                 cache: dict) -> list | None:
    """Per other seat ``k``, its pieces: for every vector ``nu_k`` of draws taken in its
    segments ``seat_segs[k]`` (at most ``top`` in all) whose seat block (:func:`seat_block`)
    has rows, ``(nu_k, draws taken, x, fc, w)`` (the block's rows as lists); ``None`` when a
    seat has no piece (the rank has no block).

    Raises:
        PlanTooLarge: more than ``limit`` vectors over all seats.
    """
    r = eng.t.ranks[pos]
    sizes = [len(mm) for mm in members]
    pieces = []
    count = 0
    for k in range(eng.t.K):
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
            return None
        pieces.append(got)
    return pieces


def _combined_blocks(pieces: list, seat_segs: list, nseg: int, nf: int, top: int, G: np.ndarray,
                     K: int) -> tuple[list, list]:
    """``(nus, blocks)``: every combination of the seats' pieces (:func:`_seat_pieces`) with
    at most ``top`` draws, as the vector ``nu`` of draws taken per segment (``nseg``) and its
    joint block (:class:`_JointBlock`: the seats' rows whose dealt and drawn cards of the rank
    are at most ``nf``, weight the product of the seats' times ``G[n]``); combinations
    without rows left out."""
    nus, blocks = [], []
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
    return nus, blocks


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


@dataclass
class _Stages:
    """The draws' classes before each stage ``i = 0..R`` (the ranks ``order[:i]`` placed):
    ``classes[i]``, lists of draw indices (draws with the same segments in every rank still
    to come), numbered by their first draw; ``cls_of[i]``, int64 (draws,): each draw's class;
    ``size[i]``, int64 (classes,): the draws in each class; ``must[i]`` / ``cannot[i]``, bool
    (classes,): a class no rank still to come may take (so it is full) / no rank placed may
    take (so it is empty); ``mults[i]``, int64 (classes,): the place value of each class's
    count in a row's code (mixed radix, digit ``c`` in ``0..size[c]``)."""
    classes: list
    cls_of: list
    size: list
    must: list
    cannot: list
    mults: list


def _draw_ranks(rb: list, m: int, R: int) -> np.ndarray:
    """The ranks each unseen draw may have: bool ``(m, R)`` (draws x rank positions), true
    where some nonempty block of the rank (``rb``: :func:`_rank_blocks` per position) takes a
    draw of its segment."""
    dom = np.zeros((m, R), dtype=bool)
    for pos, (nus, _, members) in enumerate(rb):
        if not members:
            continue
        usable = np.array(nus, dtype=np.int64).reshape(len(nus), len(members)).any(axis=0)
        for g in np.flatnonzero(usable).tolist():
            dom[members[g], pos] = True
    return dom


def _stage_classes(dom: np.ndarray, eff: list, order: list, m: int, R: int) -> _Stages:
    """The classes of the draws before every stage of ``order`` (see :class:`_Stages`), from
    ``dom`` (bool draws x rank positions, :func:`_draw_ranks`) and ``eff`` (per rank position,
    int64 (draws,): each draw's segment, -1 where the draw cannot be of the rank).

    Raises:
        PlanTooLarge: the rows' codes would not fit 62 bits.
    """
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
    return _Stages(classes, cls_of, size, must, cannot, mults)


def _stage_moves(rb: list, eff: list, order: list, st: _Stages) -> tuple[list, list]:
    """``(blocks, moves)``: every block of every stage, ``(rank position, block)`` numbered
    in stage order, and per stage its moves ``(block id, classes, counts taken)`` (tuples of
    class indices of the stage and of positive draw counts): each way to take a block's
    draws per segment (``nu``) from the classes of that segment."""
    blocks: list = []
    moves: list = []
    for i, pos in enumerate(order):
        segpos = eff[pos]
        by_seg: dict = {}
        for ci, c in enumerate(st.classes[i]):
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
                    parts.append((cl, list(_compositions(c, [int(st.size[i][ci]) for ci in cl]))))
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
    return blocks, moves


def _reachable_rows(st: _Stages, moves: list, R: int, max_rows: int, max_transitions: int) -> tuple:
    """The forward pass over the rows: ``(codes, mats, edges, csr)``, per stage ``codes``
    (int64, the rows reached, each a code of counts per class: :attr:`_Stages.mults`) and
    ``mats`` (int64 rows x classes, the counts decoded); per step ``edges`` ``(src, mvi,
    dst)`` (int64 arrays: source row, move, row reached) and ``csr`` (its moves as offsets,
    classes, counts taken).

    Raises:
        PlanTooLarge: past four times ``max_transitions`` pairs or ``max_rows`` rows.
    """
    classes, cls_of, size, must, cannot, mults = st.classes, st.cls_of, st.size, st.must, st.cannot, st.mults
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
    return codes, mats, edges, csr


def _completable_rows(codes: list, edges: list, R: int) -> list | None:
    """The backward pass over the rows: per stage a bool array over ``codes[i]``, the rows
    reached from which the last stage's row is reached; ``None`` when the first row is not
    one of them. Keeps in ``edges`` (changed in place) the pairs between such rows only."""
    live = [None] * (R + 1)
    live[R] = np.ones(len(codes[R]), dtype=bool)
    for i in range(R - 1, -1, -1):
        src, mvi, dst = edges[i]
        lv = np.zeros(len(codes[i]), dtype=bool)
        lv[src[live[i + 1][dst]]] = True
        live[i] = lv
    if not live[0].any():
        return None
    for i in range(R):   # keep the moves between live rows only
        src, mvi, dst = edges[i]
        ok = live[i][src] & live[i + 1][dst]
        edges[i] = (src[ok], mvi[ok], dst[ok])
    return live


def _block_increments(blocks: list, nd: int, K: int, hk: dict, S: int) -> tuple[list, np.ndarray, np.ndarray]:
    """``(binc, blo, bhi)``: per block the box increment of each of its rows (int64 rows x
    ``nd``: the dealt cards of the rank per other seat, then 1 in a counter dimension where
    that seat was dealt the rank complete), and per block the least and most of each
    dimension (int64 blocks x ``nd``). ``hk``: seat index -> its counter dimension."""
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
    return binc, blo, bhi


def _terminal_box(op: Any, nd: int, K: int, H: int) -> tuple[np.ndarray, np.ndarray]:
    """``(lo, hi)``, int64 (``nd``,): the box of the last stage: every other seat's ``H``
    dealt cards used, each counter between its lowest allowed value and its capacity (from
    the opening ``op``)."""
    term_lo = np.zeros(nd, dtype=np.int64)
    term_hi = np.zeros(nd, dtype=np.int64)
    term_lo[:K] = term_hi[:K] = H
    for i, (lo_, cap_) in enumerate(zip(op.lows, op.caps)):
        term_lo[K + i] = lo_
        term_hi[K + i] = cap_
    return term_lo, term_hi


def _row_boxes(blocks: list, moves: list, codes: list, edges: list, live: list, op: Any, caps: np.ndarray,
               hk: dict, K: int, H: int, S: int) -> tuple:
    """The capacity boxes of the rows (forward reach meets backward completion; rows that
    reach no box marked dead in ``live``, changed in place): ``(binc, mv_blk, term_lo,
    term_hi, boxes)``, the blocks' row increments (:func:`_block_increments`), per stage the
    block of each move (int64), the last stage's box (:func:`_terminal_box`) and per stage
    ``(lo, hi)`` (int64 rows x dimensions), ``boxes`` ``None`` when no row has one.
    ``caps``: int64, the most of each dimension; ``K`` other seats, ``H`` cards dealt each."""
    nd = len(caps)
    binc, blo, bhi = _block_increments(blocks, nd, K, hk, S)
    mv_blk = [np.array([x[0] for x in mv], dtype=np.int64) for mv in moves]
    term_lo, term_hi = _terminal_box(op, nd, K, H)
    boxes = (_boxes_c if _compact is not None and settings.DP_FAST else _boxes_numpy)(
        codes, edges, mv_blk, blo, bhi, caps, term_lo, term_hi, live)
    return binc, mv_blk, term_lo, term_hi, boxes


@dataclass
class _RowLayout:
    """The live rows numbered across the stages: ``gid`` per stage (int64 over its reached
    rows: the global row, -1 when dead); over the ``n`` live rows (int64): ``stage``, ``lo``
    and ``dim`` (rows x box dimensions: the box's low corner and sizes), ``vol`` (cells per
    box), ``off`` (offset of each box into a table of ``cells`` values)."""
    gid: list
    stage: np.ndarray
    lo: np.ndarray
    dim: np.ndarray
    vol: np.ndarray
    off: np.ndarray
    cells: int
    n: int


def _lay_out_rows(live: list, boxes: list, codes: list, R: int, max_rows: int, max_cells: int) -> _RowLayout:
    """Number the live rows of every stage and lay out their boxes (``boxes[i]``: ``(lo,
    hi)``, int64 reached rows x dimensions).

    Raises:
        PlanTooLarge: more than ``max_rows`` rows or ``max_cells`` box cells.
    """
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
    return _RowLayout(gid, np.concatenate(row_stage), row_lo, row_dim, vol, row_off, cells, n)


def _transitions(edges: list, live: list, moves: list, csr: list, mats: list, size: list, lay: _RowLayout,
                 mv_blk: list, xn: np.ndarray, binom: np.ndarray, R: int) -> tuple:
    """The transitions between live rows, in stage order: ``(tr_src, tr_dst, tr_coef,
    tr_blk, tr_slot, slots, work)``, per stage arrays of the global source and target rows
    (int64), the ways to choose the draws taken within their classes (float64,
    :func:`_coefs`), the block and the context slot (int64); ``slots``, per context slot
    ``(stage, block id, classes)``; ``work``, an upper bound on the multiply-adds of one
    pass (``xn``: rows per block)."""
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
        sg, dg = lay.gid[i][src], lay.gid[i + 1][dst]
        b_ = mv_blk[i][mvi]
        tr_src.append(sg)
        tr_dst.append(dg)
        tr_coef.append(coef)
        tr_blk.append(b_)
        tr_slot.append(base + inv)
        # the cells of the source boxes times the block rows (an upper bound on the
        # multiply-adds of one pass), plus a pair's fixed cost (about 30 cells' worth)
        work += int((lay.vol[sg] * xn[b_]).sum()) + settings.COMPACT_PAIR_COST * int(xn[b_].sum())
    return tr_src, tr_dst, tr_coef, tr_blk, tr_slot, slots, work


def _block_rows(blocks: list, binc: list, xn: np.ndarray, hk: dict, S: int, nd: int) -> tuple:
    """The rows of every block laid end to end: ``(blk_off, x_inc, x_w, x_split)``, each
    block's first row (int64), each row's box increment (int64 rows x ``nd``), weight
    (float64) and the counter dimension whose value before the block numbers the face-down
    dealt book it makes (int64, -1: none)."""
    blk_off = np.concatenate([[0], np.cumsum(xn)[:-1]]).astype(np.int64)
    x_inc = np.concatenate(binc) if binc else np.zeros((0, nd), dtype=np.int64)
    x_w = np.concatenate([b.weights(float) for _, b in blocks]) if blocks else np.zeros(0)
    x_split = np.full(len(x_w), -1, dtype=np.int64)
    at = 0
    for _, b in blocks:
        for k, d in hk.items():
            x_split[at:at + len(b.w)][b.X[:, k] == S] = d
        at += len(b.w)
    return blk_off, x_inc, x_w, x_split


def _cat(xs: list, dt) -> np.ndarray:
    """The arrays ``xs`` end to end, as ``dt`` (an empty array when there are none)."""
    return np.concatenate(xs).astype(dt, copy=False) if xs else np.zeros(0, dtype=dt)


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
    dom = _draw_ranks(rb, m, R)
    if m and not dom.any(axis=1).all():
        return _empty_plan(sp)
    eff = [np.where(dom[:, pos], segs[pos], -1) for pos in range(R)]
    order = _order(dom, R, eff, [rb[p][0] for p in range(R)])
    nd = sp.nd
    caps = np.array(sp.dims, dtype=np.int64) - 1
    hk = {k: K + i for i, k in enumerate(sp.hk)}   # seat index -> its counter dimension
    st = _stage_classes(dom, eff, order, m, R)
    blocks, moves = _stage_moves(rb, eff, order, st)
    # rows: forward (reachable, in codes), then backward (completable)
    codes, mats, edges, csr = _reachable_rows(st, moves, R, max_rows, max_transitions)
    live = _completable_rows(codes, edges, R) if len(codes[R]) else None
    if live is None:
        return _empty_plan(sp)
    binc, mv_blk, term_lo, term_hi, boxes = _row_boxes(blocks, moves, codes, edges, live, op, caps, hk, K, H, S)
    if boxes is None or not live[R].any():
        return _empty_plan(sp)
    lay = _lay_out_rows(live, boxes, codes, R, max_rows, max_cells)
    binom = np.array([[comb(a, b) for b in range(S + 1)] for a in range(max(m, S) + 1)], dtype=np.float64)
    xn = np.array([len(b.w) for _, b in blocks], dtype=np.int64)
    tr_src, tr_dst, tr_coef, tr_blk, tr_slot, slots, work = _transitions(
        edges, live, moves, csr, mats, st.size, lay, mv_blk, xn, binom, R)
    ntr = int(sum(len(x) for x in tr_src))
    if ntr > max_transitions:
        raise PlanTooLarge(f"{ntr} transitions (at most {max_transitions})")
    if work > max_work:
        raise PlanTooLarge(f"{work} multiply-adds (at most {max_work})")
    blk_off, x_inc, x_w, x_split = _block_rows(blocks, binc, xn, hk, S, nd)
    info = {"draws": m, "classes": [len(c) for c in st.classes], "rows": int(lay.n), "blocks": len(blocks),
            "transitions": ntr, "cells": lay.cells, "work": int(work)}
    return CompactPlan(order, nd, caps, lay.stage, lay.lo, lay.dim, lay.off, lay.cells,
                       _cat(tr_src, np.int64), _cat(tr_dst, np.int64), _cat(tr_coef, np.float64),
                       _cat(tr_blk, np.int64), _cat(tr_slot, np.int64), blk_off, xn,
                       np.ascontiguousarray(x_inc, dtype=np.int64), np.ascontiguousarray(x_w, dtype=np.float64),
                       x_split, blocks, slots, st.classes, int(lay.gid[0][np.flatnonzero(live[0])[0]]),
                       int(lay.gid[R][np.flatnonzero(live[R])[0]]), term_lo, term_hi, int(work), info)


def _empty_plan(sp: Any) -> CompactPlan:
    z = np.zeros(0, dtype=np.int64)
    nd = sp.nd
    e2 = np.zeros((0, nd), dtype=np.int64)
    return CompactPlan([], nd, np.array(sp.dims, dtype=np.int64) - 1, z, e2, e2, z, 0, z, z, np.zeros(0), z, z,
                       z, z, e2, np.zeros(0), z, [], [], [], -1, -1, np.zeros(nd, dtype=np.int64),
                       np.zeros(nd, dtype=np.int64))
