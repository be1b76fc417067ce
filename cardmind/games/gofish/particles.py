r"""The Go Fish tracker's own exact and particle filter over the deal's states
(:class:`_Filter` over :class:`_Population`\ s: exact state counts while they fit a budget,
weighted particles beyond it), for views the joint filter (:mod:`.filter`) and the draw engine
(:mod:`.draws`) do not answer (``GoFishBelief(engine="reference")`` and the checks)."""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from math import factorial
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import Contradiction, IllegalAction
from .rules import move_known_book

if TYPE_CHECKING:
    from .belief import GoFishBelief

State = tuple  # (h: tuple, pub: tuple[frozenset], bk: tuple[(rank, owner)], pend: tuple | None)


# ----------------------------------------------------------------------------- populations
class _Population:
    """States with weights: exact (``dict`` state -> int) or approximate (particles)."""

    def __init__(self, tracker: GoFishBelief, filt: "_Filter", states: dict, exact: bool, scale: float = 1.0):
        self.t = tracker
        self.f = filt
        self.states = states
        self.exact = exact
        self.scale = scale  # approximate: estimated number of deals per unit of weight

    def _norm(self):
        total = sum(self.states.values())
        if total == 0:
            raise Contradiction("no deal is consistent with the events")
        return total

    def total(self) -> int:
        total = self._norm()
        if self.exact:
            return total
        return int(round(total * self.scale))

    def _prob(self, num, den, exact):
        if exact and self.exact:
            return Fraction(num, den)
        return float(num) / float(den) if not isinstance(num, int) else num / den

    def holdings(self, exact: bool):
        t, f = self.t, self.f
        den = self._norm()
        acc: dict[Any, dict[str, dict[int, Any]]] = defaultdict(lambda: defaultdict(lambda: 0))
        live = set()
        for st, w in self.states.items():
            h, pub, bk, _ = st
            booked = f.booked_ranks(bk)
            for ri, r in enumerate(t.ranks):
                if r in f.known_books:
                    continue
                live.add(r)
                if r in booked:  # in a face-down book: held by nobody
                    for s in t.others:
                        acc[(s, r)][0] += w
                    acc[("stock", r)][0] += w
                    continue
                tot_hidden = 0
                for k, s in enumerate(t.others):
                    pc = sum(1 for c in pub[k] if c[0] == r)
                    x = h[k * t.R + ri]
                    tot_hidden += x
                    acc[(s, r)][x + pc] += w
                stock_r = f.unknown(r, pub, bk) - tot_hidden
                acc[("stock", r)][stock_r] += w
        own = Counter(c[0] for c in (t.state.hands[t.observer] or ()))
        out: dict[Any, dict[str, dict[int, Any]]] = {}
        for r in t.ranks:
            if r not in live:
                continue
            out.setdefault(t.observer, {})[r] = {own[r]: Fraction(1) if exact and self.exact else 1.0}
        for (s, r), d in acc.items():
            out.setdefault(s, {})[r] = {c: self._prob(v, den, exact) for c, v in sorted(d.items()) if v}
        order = {s: i for i, s in enumerate(list(range(t.players)) + ["stock"])}
        return {s: out[s] for s in sorted(out, key=order.__getitem__)}

    def books(self, exact: bool):
        t, f = self.t, self.f
        den = self._norm()
        out = []
        hidden_pos = 0
        for b in f.book_log:
            entry = {"maker": b["maker"], "owner": b["owner"], "known": b["rank"] is not None}
            if b["rank"] is not None:
                entry["ranks"] = {b["rank"]: Fraction(1) if exact and self.exact else 1.0}
            else:
                dist: dict[str, Any] = defaultdict(lambda: 0)
                owners: dict[int, Any] = defaultdict(lambda: 0)
                for st, w in self.states.items():
                    rank, owner = st[2][hidden_pos]
                    dist[rank] += w
                    owners[owner] += w
                entry["ranks"] = {r: self._prob(v, den, exact) for r, v in sorted(dist.items(),
                                                                                  key=lambda kv: t.ranks.index(kv[0]))}
                if len(owners) == 1:
                    entry["owner"] = next(iter(owners))
                else:
                    entry["owner"] = {o: self._prob(v, den, exact) for o, v in sorted(owners.items())}
                hidden_pos += 1
            out.append(entry)
        return out


# ----------------------------------------------------------------------------- the filter
class _Filter:
    """Applies the events to a population of hidden states (see the module docstring).

    A population is a ``dict`` ``{state: exact int weight}`` while exact, and a ``list`` of
    ``(state, float weight)`` particles once approximate. A state is
    ``(h, pub, bk, pend)``: ``h`` the hidden count per (other seat, rank), flattened;
    ``pub`` per other seat the cards everyone knows it holds; ``bk`` per face-down book whose
    rank the observer does not know (in the order laid) ``(rank, owner)``; ``pend`` the
    ``(seat index, rank)`` of an unseen draw a book may still follow, else ``None``.
    """

    def __init__(self, tracker: GoFishBelief):
        self.t = tracker
        self.own = Counter(c[0] for c in tracker.hand)  # observer's current count per rank
        self.own_cards = set(tracker.hand)
        self.known_books: dict[str, int] = {}  # rank -> owner, for books whose rank the observer knows
        self.book_log: list[dict] = []  # maker, rank (None = hidden from the observer), owner
        self.window: tuple | None = None  # (seat, public rank or None): a book by seat may follow
        self.refused: tuple | None = None  # (asker, rank) whose draw is due after a refusal
        self.opening = True
        self.opening_hidden: Counter = Counter()  # seat -> hidden dealt books
        self.opening_known: list[tuple[int, str]] = []
        self.exact = True
        self.scale = 1.0
        self.rng = np.random.default_rng(tracker.seed)

    # ------------------------------------------------------------------ helpers
    def booked_ranks(self, bk) -> set[str]:
        return set(self.known_books) | {r for r, _ in bk}

    def unknown(self, r: str, pub, bk) -> int:
        """Cards of rank ``r`` whose location the observer does not know, in this state."""
        if r in self.known_books or any(br == r for br, _ in bk):
            return 0
        return self.t.S - self.own[r] - sum(1 for q in pub for c in q if c[0] == r)

    def _count(self, h, pub, k: int, r: str) -> int:
        return h[k * self.t.R + self.t.rank_index[r]] + sum(1 for c in pub[k] if c[0] == r)

    # ------------------------------------------------------------------ population ops
    def _apply(self, pop, fn):
        """Map each state to successors ``[(state, factor)]``. Exact: aggregate every
        successor (a Fraction factor must divide the weight exactly). Approximate: keep one
        successor per particle, drawn in proportion to its factor, and multiply the particle's
        weight by the sum of the factors."""
        if self.exact:
            out: dict = defaultdict(int)
            for st, w in pop.items():
                for ns, fac in fn(st):
                    if not fac:
                        continue
                    v = w * fac
                    if isinstance(v, Fraction):
                        if v.denominator != 1:
                            raise AssertionError("a division by symmetry was not exact")
                        v = v.numerator
                    out[ns] += v
            if len(out) > self.t.budget:
                if self.t.exact_only:
                    raise MemoryError(f"the exact Go Fish filter exceeded {self.t.budget} states")
                return self._to_particles(out)
            return out
        out_p = []
        for st, w in pop:
            succ = [(ns, float(fac)) for ns, fac in fn(st) if fac]
            if not succ:
                continue
            tot = sum(f for _, f in succ)
            ns = succ[0][0]
            if len(succ) > 1:
                x = self.rng.random() * tot
                for ns, f in succ:
                    x -= f
                    if x < 0:
                        break
            out_p.append((ns, w * tot))
        return self._resample(out_p)

    def _to_particles(self, pop: dict) -> list:
        """Switch to the approximate engine: draw particles from the exact distribution."""
        self.exact = False
        states = list(pop.items())
        total = sum(w for _, w in states)
        n = self.t.n_particles
        probs = np.array([w / total for _, w in states], dtype=float)
        probs /= probs.sum()
        idx = self.rng.choice(len(states), size=n, p=probs)
        self.scale = float(total) / n
        return [(states[i][0], 1.0) for i in idx]

    def _resample(self, pop: list) -> list:
        if not pop:
            return pop
        w = np.array([x for _, x in pop], dtype=float)
        tot = w.sum()
        n = self.t.n_particles
        if tot <= 0:
            return []
        ess = tot * tot / float((w * w).sum())
        if ess >= n / 2 and len(pop) >= n / 2:
            return pop
        positions = (self.rng.random() + np.arange(n)) / n
        idx = np.minimum(np.searchsorted(np.cumsum(w / tot), positions), len(pop) - 1)
        self.scale *= tot / n
        return [(pop[i][0], 1.0) for i in idx]

    # ------------------------------------------------------------------ the deal
    def deal(self):
        t = self.t
        u0 = tuple(t.S - self.own[r] for r in t.ranks)
        H = t.options["hand"]
        n1 = len(_compositions_capped(H, u0))
        if n1 ** t.K > t.budget:
            if t.exact_only:
                raise MemoryError(f"the exact Go Fish filter would need about {n1 ** t.K} states at the deal")
            return self._sample_deals(u0, H)
        out: dict = {}
        empty_pub = tuple(frozenset() for _ in range(t.K))

        def rec(k: int, left: tuple[int, ...], acc: list[tuple[int, ...]]):
            if k == t.K:
                w = 1
                for ri in range(t.R):
                    col = [row[ri] for row in acc]
                    m = factorial(u0[ri]) // factorial(u0[ri] - sum(col))
                    for x in col:
                        m //= factorial(x)
                    w *= m
                out[(tuple(x for row in acc for x in row), empty_pub, (), None)] = w
                return
            for row in _compositions_capped(H, left):
                acc.append(row)
                rec(k + 1, tuple(a - b for a, b in zip(left, row)), acc)
                acc.pop()

        rec(0, u0, [])
        return out

    def _sample_deals(self, u0: tuple[int, ...], H: int) -> list:
        """The approximate engine from the deal: uniformly random deals as particles."""
        t = self.t
        self.exact = False
        pool = np.array([ri for ri in range(t.R) for _ in range(u0[ri])])
        n = t.n_particles
        total_deals = factorial(len(pool)) // factorial(len(pool) - t.K * H)
        total_deals //= factorial(H) ** t.K
        self.scale = float(total_deals) / n
        empty_pub = tuple(frozenset() for _ in range(t.K))
        out = []
        for _ in range(n):
            perm = self.rng.permutation(pool)
            h = np.zeros(t.K * t.R, dtype=int)
            for k in range(t.K):
                np.add.at(h, k * t.R + perm[k * H:(k + 1) * H], 1)
            out.append((tuple(int(x) for x in h), empty_pub, (), None))
        return [(st, 1.0) for st in out]

    # ------------------------------------------------------------------ events
    def run(self, events: list[dict]) -> _Population:
        pop = self.deal()
        for i, ev in enumerate(events):
            try:
                pop = self.step(pop, ev)
            except Contradiction as exc:
                raise Contradiction(exc.message, i) from None
            if not pop:
                raise Contradiction(f"no deal is consistent with the events after this {ev['type']}", i)
        if self.opening:
            pop = self._end_opening(pop, final=False)
        plain = pop if self.exact else _merge_particles(pop)
        return _Population(self.t, self, plain, self.exact, self.scale)

    def step(self, pop, ev: dict):
        t = self.t
        o = t.observer
        kind = ev["type"]
        if kind == "book" and self.opening:
            s, r = ev["player"], ev["rank"]
            if s == o:
                self._own_book(r)
            elif r is not None:
                self.opening_known.append((s, r))
                self.known_books[r] = s
            else:
                self.opening_hidden[s] += 1
            self.book_log.append({"maker": s, "rank": r, "owner": s})
            return pop
        if self.opening:
            pop = self._end_opening(pop)
        w, self.window = self.window, None
        if w is not None and kind == "book" and ev["player"] == w[0]:
            return self._book(pop, ev, w)
        if w is not None:
            pop = self._no_book(pop, w)
        if kind == "ask":
            return self._ask(pop, ev)
        if kind == "draw":
            return self._draw(pop, ev)
        if kind == "ask_book":
            return self._ask_book(pop, ev)
        if kind == "assume_lacks":
            return self._assume_lacks(pop, ev)
        raise IllegalAction("book-window", "a book outside a window")  # the view state catches it first

    def _assume_lacks(self, pop, ev: dict):
        """An assumption (:meth:`GoFishBelief.assume_lacks`): the seat holds none of the ranks."""
        k = self.t.kidx[ev["player"]]
        ranks = ev["ranks"]

        def fn(st):
            h, pub, bk, pend = st
            if any(self._count(h, pub, k, r) for r in ranks):
                return []
            return [(st, 1)]

        return self._apply(pop, fn)

    def _no_book(self, pop, w):
        """No book followed a gain: no rank of the gainer may be complete."""
        seat, rank = w
        if seat == self.t.observer:
            return pop
        k = self.t.kidx[seat]
        S = self.t.S

        def fn(st):
            h, pub, bk, pend = st
            r = rank if rank is not None else (pend[1] if pend else None)
            if r is not None and self._count(h, pub, k, r) >= S:
                return []
            return [((h, pub, bk, None), 1)]

        return self._apply(pop, fn)

    def _end_opening(self, pop, final: bool = True):
        """Seats were dealt exactly as many complete ranks as they laid books before play;
        those leave their hands and the face-down ones get their ranks (in rank order).

        With ``final`` false (a query while the dealt books may still be coming, since the
        record so far is a legal prefix): seats after the last one that laid a book, and
        that seat itself, may still hold complete ranks they will lay next (their laid books
        are their lowest complete ranks); the population is kept as it is for later events.
        """
        t = self.t
        if final:
            self.opening = False
        hidden, known = self.opening_hidden, self.opening_known
        order = [b["maker"] for b in self.book_log if b["rank"] is None]
        last = max((b["maker"] for b in self.book_log), default=-1)

        def fn(st):
            h, pub, bk, pend = st
            h = list(h)
            ranks_of: dict[int, list[str]] = {}
            for k, s in enumerate(t.others):
                full = [r for ri, r in enumerate(t.ranks) if h[k * t.R + ri] >= t.S]
                kn = [r for (s2, r) in known if s2 == s]
                if any(r not in full for r in kn):
                    return []
                rest = [r for r in full if r not in kn]
                may_add = not final and s >= last
                if len(rest) < hidden[s] or (len(rest) > hidden[s] and not may_add):
                    return []
                laid = kn + rest[:hidden[s]]
                if may_add and kn:
                    # books are laid in rank order: the laid ones are the lowest complete ranks
                    if sorted(full, key=t.ranks.index)[:len(laid)] != sorted(laid, key=t.ranks.index):
                        return []
                for r in laid:
                    h[k * t.R + t.rank_index[r]] = 0
                ranks_of[s] = rest[:hidden[s]]
            used: Counter = Counter()
            seq = []
            for s in order:
                seq.append((ranks_of[s][used[s]], s))
                used[s] += 1
            return [((tuple(h), pub, tuple(seq), pend), 1)]

        return self._apply(pop, fn)

    def _own_book(self, r: str) -> None:
        for c in [c for c in self.own_cards if c[0] == r]:
            self.own_cards.discard(c)
        self.own[r] = 0
        self.known_books[r] = self.t.observer

    def _ask(self, pop, ev: dict):
        t = self.t
        o = t.observer
        a, tg, r, given = ev["asker"], ev["target"], ev["rank"], list(ev["given"])
        give_all = t.options["give"] == "all"
        ri = t.rank_index[r]

        def fn(st):
            h, pub, bk, pend = st
            h = list(h)
            pub = list(pub)
            if a != o and self._count(h, pub, t.kidx[a], r) < 1:
                return []
            fac = 1
            if tg != o:
                kt = t.kidx[tg]
                if not given and self._count(h, pub, kt, r) != 0:
                    return []
                u = self.unknown(r, pub, bk)
                for c in given:
                    if c in pub[kt]:
                        pub[kt] = pub[kt] - {c}
                        continue
                    if c in self.own_cards or any(c in q for q in pub):
                        return []
                    x = h[kt * t.R + ri]
                    if x < 1 or u < 1:
                        return []
                    fac = fac * Fraction(x, u)  # the share of identities putting c among tg's hidden cards
                    h[kt * t.R + ri] = x - 1
                    u -= 1  # c is located now
                if give_all and given and self._count(h, pub, kt, r) != 0:
                    return []
            if given and a != o:
                ka = t.kidx[a]
                pub[ka] = pub[ka] | frozenset(given)
            return [((tuple(h), tuple(pub), bk, pend), fac)]

        out = self._apply(pop, fn)
        for c in given:
            if a == o:
                self.own_cards.add(c)
                self.own[r] += 1
            if tg == o:
                self.own_cards.discard(c)
                self.own[r] -= 1
        if given:
            self.window = (a, r)
            self.refused = None
        else:
            self.refused = (a, r)
        return out

    def _draw(self, pop, ev: dict):
        t = self.t
        o = t.observer
        p, card = ev["player"], ev["card"]
        refused = self.refused[1] if self.refused is not None and self.refused[0] == p else None
        self.refused = None
        if card is not None:
            r = card[0]
            ri = t.rank_index[r]

            def fn(st):
                h, pub, bk, pend = st
                if card in self.own_cards or any(card in q for q in pub):
                    return []
                u = self.unknown(r, pub, bk)
                stock_r = u - sum(h[j * t.R + ri] for j in range(t.K))
                if stock_r < 1:
                    return []
                npub = pub
                if p != o:
                    k = t.kidx[p]
                    npub = tuple(q | {card} if j == k else q for j, q in enumerate(pub))
                return [((h, npub, bk, pend), Fraction(stock_r, u))]

            out = self._apply(pop, fn)
            if p == o:
                self.own_cards.add(card)
                self.own[r] += 1
            self.window = (p, r)
            return out
        k = t.kidx[p]

        def fn_unseen(st):
            h, pub, bk, pend = st
            succ = []
            for ri, r in enumerate(t.ranks):
                if r == refused:
                    continue  # a card of the rank just asked for would have been shown
                u = self.unknown(r, pub, bk)
                if not u:
                    continue
                stock_r = u - sum(h[j * t.R + ri] for j in range(t.K))
                if stock_r <= 0:
                    continue
                nh = list(h)
                nh[k * t.R + ri] += 1
                succ.append(((tuple(nh), pub, bk, (k, r)), stock_r))
            return succ

        out = self._apply(pop, fn_unseen)
        self.window = (p, None)
        return out

    def _book(self, pop, ev: dict, w: tuple):
        t = self.t
        s, r = ev["player"], ev["rank"]
        if s == t.observer:
            self._own_book(r)
            self.book_log.append({"maker": s, "rank": r, "owner": s})
            return pop
        k = t.kidx[s]
        known_rank = r if r is not None else w[1]
        hidden = known_rank is None

        def fn(st):
            h, pub, bk, pend = st
            rr = known_rank if known_rank is not None else (pend[1] if pend else None)
            if rr is None or self._count(h, pub, k, rr) != t.S:
                return []
            nh = list(h)
            nh[k * t.R + t.rank_index[rr]] = 0
            npub = tuple(frozenset(c for c in q if c[0] != rr) if j == k else q for j, q in enumerate(pub))
            nbk = bk + ((rr, s),) if hidden else bk
            return [((tuple(nh), npub, nbk, None), 1)]

        out = self._apply(pop, fn)
        if not hidden:
            self.known_books[known_rank] = s
        self.book_log.append({"maker": s, "rank": known_rank, "owner": s})
        return out

    def _ask_book(self, pop, ev: dict):
        a, tg, r, success = ev["asker"], ev["target"], ev["rank"], ev["success"]
        if r in self.known_books:
            if success:
                move_known_book(self.known_books, self.book_log, r, a)
            return pop

        def fn(st):
            h, pub, bk, pend = st
            idx = [i for i, (br, _) in enumerate(bk) if br == r]
            owner = bk[idx[0]][1] if idx else None
            if owner == a:
                return []  # a player asks only for a book it does not hold
            if success:
                if owner != tg:
                    return []
                nbk = tuple((br, a) if i == idx[0] else (br, ow) for i, (br, ow) in enumerate(bk))
                return [((h, pub, nbk, pend), 1)]
            if owner == tg:
                return []
            return [(st, 1)]

        return self._apply(pop, fn)


def _merge_particles(pop: list) -> dict:
    """Approximate population as ``{state: total weight}``."""
    out: dict = defaultdict(float)
    for st, w in pop:
        out[st] += w
    return dict(out)


_COMP_CACHE: dict = {}


def _compositions_capped(total: int, caps: tuple[int, ...]) -> list[tuple[int, ...]]:
    """All vectors ``x`` with ``sum(x) == total`` and ``0 <= x[i] <= caps[i]``."""
    key = (total, caps)
    got = _COMP_CACHE.get(key)
    if got is not None:
        return got
    out: list[tuple[int, ...]] = []
    n = len(caps)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + caps[i]

    def rec(i: int, left: int, acc: list[int]):
        if i == n:
            if left == 0:
                out.append(tuple(acc))
            return
        if left > suffix[i]:
            return
        for x in range(min(caps[i], left), -1, -1):
            acc.append(x)
            rec(i + 1, left - x, acc)
            acc.pop()

    rec(0, total, [])
    if len(_COMP_CACHE) < 512:
        _COMP_CACHE[key] = out
    return out
