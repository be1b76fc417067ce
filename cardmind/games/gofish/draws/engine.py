"""The draw engine: the exact answers (planned and split sums, enumeration) and the blocks
of every rank (see :mod:`cardmind.games.gofish.draws`)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product as iproduct
from typing import Any

import numpy as np

from ....errors import Contradiction
from . import compact, settings
from .dp import _DP, _split_cut, block_order
from .product import _Answer, _Product, _empty_block
from .sampler import Sampler
from .tables import _Block, _Space
from .timeline import _FACT, _GIVE, _HAS, _KDRAW, _NONE, _UDRAW, _WIN, _Opening, _Timeline

def auto_exact_free(players: int, hand: int) -> int:
    """The default number of unseen draws the exact mode sums over in one block product:
    the most ``m`` with ``2**m * (hand + 1)**(players - 1) <= settings.EXACT_CELLS`` (its tables hold
    a row of capacity states per live subset of those draws), at least
    ``settings.DEFAULT_EXACT_FREE`` and at most 24.

    Args:
        players: seats in the game (2-6).
        hand: cards dealt to each seat (the capacity of a seat's dealt hand).
    """
    states = (hand + 1) ** max(1, players - 1)
    m = int(np.floor(np.log2(max(1.0, settings.EXACT_CELLS / states))))
    return max(settings.DEFAULT_EXACT_FREE, min(24, m))



class DrawEngine(Sampler):
    """Go Fish belief over the dealt hands and the ranks of the unseen draws (see the module
    docstring).

    Args:
        tracker: the :class:`~cardmind.games.gofish.belief.GoFishBelief` (options, observer, hand).
        steps: blocked Gibbs steps per query in approximate mode.
        block: draws redrawn (and summed over in the estimates) per step.
        exact_free: the exact mode sums over the ranks of this many last draws in the block
            product and enumerates the others (``None``: :func:`auto_exact_free`, and past it
            every draw when the tables fit ``settings.EXACT_TABLE_CELLS``, see :meth:`plan`).
        enum_nodes: search nodes the exact enumeration may visit.
        enum_leaves: most rank vectors the exact mode sums over.
        is_samples: importance samples of the estimate of the number of consistent deals.
        exchanges: rank exchange moves per step.
        seed: seed of the sampler (results are reproducible).
    """

    def __init__(self, tracker: Any, steps: int = settings.DEFAULT_STEPS, enum_nodes: int = settings.DEFAULT_ENUM_NODES,
                 enum_leaves: int = settings.DEFAULT_ENUM_LEAVES, block: int = settings.DEFAULT_BLOCK,
                 exact_free: int | None = None, is_samples: int = settings.DEFAULT_IS_SAMPLES,
                 exchanges: int = settings.DEFAULT_EXCHANGES, record_block: int = settings.DEFAULT_RECORD_BLOCK,
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
        #: many cells (0: never, the enumeration or the sampler only). ``settings.EXACT_TABLE_CELLS``
        #: when ``exact_free`` is automatic, 0 when it was given
        self.exact_cells = settings.EXACT_TABLE_CELLS if exact_free is None else 0
        #: ... and when they do not fit, cut the sum into at most this many parts that do
        #: (:meth:`split`; 1 or less: never)
        self.exact_split = settings.EXACT_SPLIT_PARTS
        #: ``None``, or a function of one string called as a long answer goes on ("planning
        #: the exact sum", "exact sum: part 2 of 4"; the CLI's spinner shows it)
        self.progress = None
        #: try the compact exact sum first (:mod:`.compact`: interchangeable draws counted
        #: together, capacity boxes), within ``compact_work`` multiply-adds of one pass (and
        #: ``settings.COMPACT_MAX_ROWS``/``CELLS``/``TRANSITIONS``); on by default when
        #: ``exact_free`` is automatic (the tracker's default), off when it was given
        self.compact = exact_free is None
        self.compact_work = settings.COMPACT_WORK
        self._compact_sum = None
        #: whether the answer may be sampled where no exact path fits (``False``: raise
        #: ``MemoryError`` instead; the tracker's ``exact_sum``, ``cardmind hint --exact``)
        self.sample_ok = True
        #: do not try the exact enumeration again once it failed with as many draws to
        #: enumerate (or fewer): a player's tracker, whose record only grows, saves the
        #: failed attempts (the answer is then sampled where an enumeration might have
        #: succeeded again after new facts pruned it)
        self.enum_memo = False
        #: the Gibbs moves (``settings.DEFAULT_SAMPLER``): ``"seats"`` or ``"draws"``
        self.sampler = settings.DEFAULT_SAMPLER
        #: most draws of one seat a ``"seats"`` step redraws (a seat with more: a random run of
        #: this many of its consecutive draws)
        self.seat_cap = settings.DEFAULT_SEAT_CAP
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
        S, K = t.S, t.K
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
        top = min(self.H, S, lim)
        branches: list = [None] + [k for k, s in enumerate(t.others) if op.hb.get(s) and s != op.pos]
        parts = []
        for br in branches:
            bounds = self._replay_branch(tl, r, evs, cut, op, br, top)
            if bounds is not None:
                parts.append(bounds)
        if not parts:
            return _empty_block(K)
        rows = _branch_rows(sp, lim, parts)
        if rows is None:
            return _empty_block(K)
        ids, cnt = rows
        X = sp.X[ids]
        st = lim - sp.xsum[ids]
        # identity multiplicity: cards first handed over came from the giver's dealt hand or
        # one of its unseen draws of r before
        fa = [(k, tm) for k, tm in tl.first[r] if tm < cut]
        if not fa:
            den = np.prod(_FACT[X], axis=1) * _FACT[st]
            w = _FACT[nf] // den
            return _Block(ids, w, cnt, st, X)
        w = _handed_over_identities(tl, fa, D, K, nf, X, st)
        keep = np.flatnonzero(w > 0)
        return _Block(ids[keep], w[keep], cnt[keep], st[keep], X[keep])

    def _replay_branch(self, tl: _Timeline, r: str, evs: list, cut: int, op: _Opening, br: int | None,
                       top: int) -> tuple | None:
        """One branch of :meth:`_build`: rank ``r``'s facts ``evs`` (time order, the unseen
        draws of ``r`` among them) replayed for the record cut before event ``cut`` when no
        seat was dealt ``r`` complete (``br`` None) or other seat ``br`` (an index) was:
        ``(lo, hi, off, reset)``, per other seat the dealt counts ``lo..hi`` (at most
        ``top``) that meet every fact, the count's offset now from the dealt count, and
        ``reset`` when a book made it a known count (``off`` is then the count); ``None``
        when no dealt counts do."""
        t = self.t
        o, S, K = t.observer, t.S, t.K
        kidx = t.kidx
        ri = t.rank_index[r]
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
        return (lo, hi, off, reset) if ok else None

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
        if self.compact:
            ans = self._compact(tl)
            if ans is not None:
                self.last_mode = "compact"
                return self._keep(key, tl, ans)
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
            if not self.sample_ok:
                raise MemoryError(f"no exact sum over the {D} unseen draws fits the limits here (and sampling "
                                  "was turned off)")
            ans = self._mcmc(tl)
            self.last_mode = "mcmc"
        return self._keep(key, tl, ans)

    def _compact(self, tl: _Timeline) -> _Answer | None:
        """The compact exact sum (:mod:`.compact`), or ``None`` when its plan passes the
        limits (or the record is cut while dealt books may still be laid).

        Raises:
            Contradiction: no deal is consistent with the events.
        """
        self._compact_sum = None
        self._tell(f"planning the compact sum over {len(tl.draws)} unseen draws")
        try:
            plan = compact.plan_compact(self, tl, max_work=self.compact_work)
        except (compact.PlanTooLarge, NotImplementedError):
            return None
        if plan.empty:
            raise Contradiction("no deal is consistent with the events")
        self._tell(f"compact sum over {len(tl.draws)} unseen draws ({plan.cells} cells)")
        cs = compact.CompactSum(plan)
        if not cs.total > 0:
            raise Contradiction("no deal is consistent with the events")
        hold, books = cs.marginals(self.t, tl)
        self._compact_sum = cs
        exact = _as_integers(cs.total, hold, books)
        if exact is not None:
            total, hold, books = exact
            return _Answer(True, total, hold, books, total, leaves=1)
        return _Answer(False, cs.total, hold, books, cs.total, leaves=1, bound=cs.rounding_bound)

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


def _branch_rows(sp: _Space, lim: int, parts: list) -> tuple | None:
    """The capacity space's rows (at most ``lim`` dealt cards of the rank in all) within the
    bounds of some branch of :meth:`DrawEngine._build` (``parts``: ``(lo, hi, off, reset)``
    per branch): ``(ids, fc)``, int64 row ids branch by branch and int64 rows x seats, the
    counts the seats hold now; ``None`` when there is none."""
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
        return None
    ids = np.concatenate(sel_ids) if len(sel_ids) > 1 else sel_ids[0]
    cnt = np.concatenate(sel_fc) if len(sel_fc) > 1 else sel_fc[0]
    return ids, cnt


def _handed_over_identities(tl: _Timeline, fa: list, D: tuple, K: int, nf: int, X: np.ndarray,
                            st: np.ndarray) -> np.ndarray:
    """The identity multiplicity of a rank's block rows when cards of it were first handed
    over (``fa``: ``(giver's seat index, time)`` per card) and its unseen draws ``D`` are of
    it: int64 per row (``X``: dealt counts, rows x ``K``; ``st``: the stock's cards), the
    sum over the patterns (each card from the giver's dealt hand or one of its unseen draws
    of the rank before, each draw at most once) of ``(nf - len(fa))! / (prod (X - kv)! *
    st!)``, ``kv`` the cards per seat from dealt hands (0 where a seat has too few)."""
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
    w = np.zeros(len(X), dtype=np.int64)
    free = _FACT[nf - len(fa)] if nf >= len(fa) else 0
    for kv, npat in pats.items():
        rest = X - np.array(kv, dtype=np.int64)
        okr = (rest >= 0).all(axis=1)
        den = np.prod(_FACT[np.maximum(rest, 0)], axis=1) * _FACT[st]
        w += np.where(okr, npat * free // den, 0)
    return w


def _as_integers(total: float, hold: dict, books: list) -> tuple | None:
    """The compact sum's counts as exact integers when they are small enough for that: every
    count it adds up is an integer (numbers of card identity assignments), and in floating
    point each is off by at most about ``1e-10`` of the total (sums of positive terms; see
    :mod:`.compact`), so below ``settings.COMPACT_INT_TOTAL`` rounding gives the integers
    themselves (checked: each value within 0.01 of one). ``None`` otherwise."""
    if not total < settings.COMPACT_INT_TOTAL:
        return None

    def rnd(x: float) -> int:
        r = round(x)
        if abs(x - r) > 0.01:
            raise ValueError
        return int(r)

    try:
        h = {k: {c: rnd(v) for c, v in d.items() if rnd(v)} for k, d in hold.items()}
        b = [({q: rnd(v) for q, v in rk.items() if rnd(v)}, {o: rnd(v) for o, v in ow.items() if rnd(v)})
             for rk, ow in books]
        return rnd(total), h, b
    except ValueError:
        return None
