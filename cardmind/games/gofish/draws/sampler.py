"""The draw engine's sampler: a blocked Gibbs chain over the ranks of the unseen draws
(Rao-Blackwellised), its start (CP-SAT and randomised search), joint samples of complete
worlds, and the estimate of the number of consistent deals."""

from __future__ import annotations

from collections import Counter

import numpy as np

from ....errors import Contradiction
from . import settings
from .product import _Answer, _Product, _sum
from .timeline import _ASKBOOK, _GIVE, _HAS, _KDRAW, _NONE, _UDRAW, _WIN, _Timeline


class Sampler:
    """The sampling half of :class:`~cardmind.games.gofish.draws.engine.DrawEngine` (a mixin)."""

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
        m = cp_model.CpModel()
        got = self._cpsat_deal(m, tl)
        if got is None:
            return None
        x, d = got
        c = self._cpsat_dealt_books(m, tl, x)
        false = m.new_constant(0)
        book_draws = [j for j, dr in enumerate(tl.draws) if tl.outcome(dr.win, tl.n) == "book"]
        for r in t.ranks:
            facts = _RankFacts(self, m, tl, r, x, d, c, false)
            facts.add_timeline()
            if facts.booked:
                m.add(sum(facts.booked) <= 1)
            drawn = [d[j, r] for j, dr in enumerate(tl.draws) if (j, r) in d]
            k_r = len(tl.kdraws[r])
            m.add(sum(x[k, r] for k in range(t.K)) + sum(drawn) <= tl.u0[r] - k_r)
            self._cpsat_book_asks(m, tl, r, d, c, book_draws, false)
        return m, d

    def _cpsat_deal(self, m, tl: _Timeline) -> tuple[dict, dict] | None:
        """The deal's variables in the CP-SAT model ``m``: ``x[k, rank]`` the cards of a rank
        dealt to other seat index ``k`` (``H`` cards each), ``d[j, rank]`` the one-hot rank of
        unseen draw ``j``. ``None`` when a draw has no possible rank."""
        t = self.t
        H, S = self.H, t.S
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
        return x, d

    def _cpsat_dealt_books(self, m, tl: _Timeline, x: dict) -> dict:
        """The dealt books in the CP-SAT model ``m``: other seat index ``k`` was dealt all
        ``S`` cards of a rank exactly when it laid that book at the opening (``x`` from
        :meth:`_cpsat_deal`): the ranks of its books laid face up; ``h`` whole ranks among all
        when it laid ``h`` face down. Returns ``c[k, rank]``, the literal that ``k`` was dealt
        the whole rank (only for the seats that laid books face down)."""
        t = self.t
        S = t.S
        op = tl.opening(tl.n)
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
        return c

    def _cpsat_book_asks(self, m, tl: _Timeline, r: str, d: dict, c: dict, book_draws: list[int], false) -> None:
        """Phase 2 in the CP-SAT model ``m``: the book asks for rank ``r`` (who made its book:
        a dealt book ``c``, or an unseen draw of ``book_draws`` that completed it; then moved
        by each hit). ``false``: the model's constant 0 (a contradiction)."""
        t = self.t
        o = t.observer
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
        if self.last_mode == "compact":
            return self._compact_sum.sample(self.t, n, rng)
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
        (``settings.STDERR_BATCHES`` batches); with ``precision`` the chain goes on until the largest
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
                if record and len(self._visited) < settings.VISITED_KEEP:
                    self._visited.append(tuple(delta))
                step += 1
            if not self.precision > 0 or step - burn >= self.max_steps or rec.stderr() <= self.precision:
                break
            end = min(step + max(1, self.steps), burn + self.max_steps)
        hold, books = rec.means()
        self.delta = delta
        se = rec.stderr()
        return _Answer(False, None, hold, books, 1.0, steps=step - burn, stderr=se if np.isfinite(se) else None,
                       stderrs=rec.stderrs() if np.isfinite(se) else None)

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


class _RankFacts:
    """The facts of one rank's timeline as CP-SAT constraints (:meth:`Sampler._cpsat_model`):
    the count other seat index ``k`` holds at each moment is ``x[k, r]`` plus the unseen draws
    of ``r`` it made so far plus the public moves (``const``); facts that hold only while the
    rank is not booked are enforced while no literal of ``booked`` is true; after a book of
    ``r`` is certainly made (``dead``) no card of it moves."""

    def __init__(self, engine, m, tl: _Timeline, r: str, x: dict, d: dict, c: dict, false):
        """``engine``: the draw engine (its tracker ``t``, ``give_all``); ``m`` the model;
        ``x``, ``d``, ``c`` the variables of :meth:`Sampler._cpsat_deal` and
        :meth:`Sampler._cpsat_dealt_books`; ``false`` the model's constant 0."""
        t = engine.t
        self.t, self.give_all, self.m, self.tl, self.r, self.x, self.d, self.false = \
            t, engine.give_all, m, tl, r, x, d, false
        self.const = [0] * t.K                                 # cards moved publicly, per seat
        self.terms: list[list] = [[] for _ in range(t.K)]      # its unseen draws of r, per seat
        #: the literals that r is booked (a dealt book, then books completed by unseen draws)
        self.booked = [c[k, r] for k in range(t.K) if (k, r) in c]
        self.fa_done = Counter()
        #: per ``(seat index, time)``: the cards of r first handed over from its hand then
        self.fa = Counter()
        for k, tm in tl.first[r]:
            self.fa[(k, tm)] += 1
        self.dead = False

    def cnt(self, k: int):
        """The count of r other seat index ``k`` holds now (a linear expression)."""
        return self.x[k, self.r] + sum(self.terms[k]) + self.const[k]

    def bsum(self):
        """The number of books of r made so far (a linear expression, or 0)."""
        return sum(self.booked) if self.booked else 0

    def add_timeline(self) -> None:
        """Add every fact of r's timeline and every unseen draw that may be r, in time
        order."""
        tl, r, m = self.tl, self.r, self.m
        evs = list(tl.ops[r]) + [(dr.time, _UDRAW, j) for j, dr in enumerate(tl.draws) if r in dr.domain]
        evs.sort(key=lambda e: e[0])
        kidx = self.t.kidx
        for e in evs:
            code = e[1]
            if self.dead and code in (_HAS, _GIVE, _KDRAW):
                m.add_bool_or([self.false])
                continue
            if code == _HAS:
                m.add(self.bsum() == 0)
                m.add(self.cnt(kidx[e[2]]) >= 1)
            elif code == _NONE:
                self.holds_none(kidx[e[2]])
            elif code == _GIVE:
                self.give(e)
            elif code == _KDRAW:
                m.add(self.bsum() == 0)
                self.const[kidx[e[2]]] += 1
            elif code == _WIN:
                self.window(e)
            elif code == _UDRAW:
                self.unseen_draw(e[2])

    def holds_none(self, k: int) -> None:
        """Other seat index ``k`` holds no card of r (a refused ask; while r is not booked)."""
        m, booked = self.m, self.booked
        if booked:
            nb = m.new_bool_var("")
            m.add(sum(booked) == 0).only_enforce_if(nb)
            m.add(sum(booked) >= 1).only_enforce_if(nb.Not())
            m.add(self.cnt(k) == 0).only_enforce_if(nb)
        elif not self.dead:
            m.add(self.cnt(k) == 0)

    def give(self, e: tuple) -> None:
        """A hit ``(time, _GIVE, target, asker, cards)``: the target held the cards of r it
        hands over (all it held with ``give_all``), which the asker now holds; the first
        cards handed over from a seat's hand were dealt or drawn before."""
        m, t, x, r = self.m, self.t, self.x, self.r
        tg, a, n = e[2], e[3], e[4]
        m.add(self.bsum() == 0)
        if tg != t.observer:
            k = t.kidx[tg]
            m.add(self.cnt(k) >= n)
            self.const[k] -= n
            if self.give_all:
                m.add(self.cnt(k) == 0)
            got = self.fa.get((k, e[0]), 0)
            if got:
                self.fa_done[k] += got
                mine = [self.d[j, r] for j, dr in enumerate(self.tl.draws)
                        if dr.k == k and dr.time < e[0] and (j, r) in self.d]
                m.add(x[k, r] + sum(mine) >= self.fa_done[k])
        if a != t.observer:
            self.const[t.kidx[a]] += n

    def window(self, e: tuple) -> None:
        """The end of a window ``(time, _WIN, seat, window)`` in which the seat made a book
        of r (it then holds every card of r; no card of r moves after) or certainly none."""
        k = self.t.kidx[e[2]]
        out = self.tl.outcome(e[3], self.tl.n)
        if out == "book":
            self.m.add(self.cnt(k) == self.t.S)
            self.dead = True
        elif out == "nobook":
            self.m.add(self.cnt(k) <= self.t.S - 1)

    def unseen_draw(self, j: int) -> None:
        """Unseen draw ``j`` may be r: then its drawer holds one more, and a book it completes
        (or certainly does not) follows."""
        m, S = self.m, self.t.S
        lit = self.d[j, self.r]
        if self.dead:
            m.add(lit == 0)
            return
        dr = self.tl.draws[j]
        if self.booked:
            m.add(lit + sum(self.booked) <= 1)
        self.terms[dr.k].append(lit)
        out = self.tl.outcome(dr.win, self.tl.n)
        if out == "book":
            m.add(self.cnt(dr.k) == S).only_enforce_if(lit)
            self.booked.append(lit)
        elif out == "nobook":
            m.add(self.cnt(dr.k) <= S - 1).only_enforce_if(lit)


class _Samples:
    """The Rao-Blackwellised samples of a chain: per holdings key ``(seat or "stock", rank)``
    the list of its probability vectors (one per step that recorded it), per face-down book
    the summed rank and owner weights and their count."""

    def __init__(self, n_books: int):
        self.h: dict = {}
        self.b = [[{}, {}, 0] for _ in range(n_books)]
        #: per face-down book, every recorded step's (rank weights, owner weights)
        self.b_rows: list[list[tuple[dict, dict]]] = [[] for _ in range(n_books)]

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
            self.b_rows[i].append((dict(rk), dict(ow)))
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

    @staticmethod
    def _batch_se(X: np.ndarray) -> np.ndarray | None:
        """The batch-means standard error of the mean of every column of ``X`` (one row per
        recorded step; ``settings.STDERR_BATCHES`` batches), ``None`` below 4 rows."""
        n = len(X)
        B = min(settings.STDERR_BATCHES, n // 2)
        if B < 2:
            return None
        cuts = np.linspace(0, n, B + 1).astype(int)
        bm = np.array([X[cuts[i]:cuts[i + 1]].mean(axis=0) for i in range(B)])
        return bm.std(axis=0, ddof=1) / np.sqrt(B)

    def stderrs(self) -> dict:
        """The batch-means standard error of every probability of :meth:`means`:
        ``{"holdings": {key: {count: se}}, "books": [({rank: se}, {owner: se})]}`` (the
        counts, ranks and owners :meth:`means` gives; a key with too few steps is left out)."""
        hold = {}
        for key, rows in self.h.items():
            X = np.asarray(rows)
            se = self._batch_se(X)
            if se is None:
                continue
            m = X.mean(axis=0)
            hold[key] = {c: float(se[c]) for c, x in enumerate(m) if x > 1e-15}
        books = []
        for rows in self.b_rows:
            out = []
            for part in (0, 1):
                names = sorted({q for r in rows for q in r[part]}, key=str)
                X = np.array([[r[part].get(q, 0.0) for q in names] for r in rows]) if names else np.zeros((0, 0))
                se = self._batch_se(X) if names else None
                out.append({} if se is None else {q: float(v) for q, v in zip(names, se)})
            books.append(tuple(out))
        return {"holdings": hold, "books": books}

    def stderr(self) -> float:
        """The largest batch-means standard error of any holdings probability
        (``settings.STDERR_BATCHES`` batches, fewer while some key has fewer than twice as many
        samples; ``inf`` while some key has fewer than 4)."""
        worst = 0.0
        for rows in self.h.values():
            n = len(rows)
            B = min(settings.STDERR_BATCHES, n // 2)
            if B < 2:
                return float("inf")
            X = np.asarray(rows)
            cuts = np.linspace(0, n, B + 1).astype(int)
            bm = np.array([X[cuts[i]:cuts[i + 1]].mean(axis=0) for i in range(B)])
            worst = max(worst, float((bm.std(axis=0, ddof=1) / np.sqrt(B)).max()))
        return worst
