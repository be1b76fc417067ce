"""Counting Literature deals: the facts the events give about the dealt holders, each set's
counting polynomial, and the solved constraints the tracker
(:class:`~.belief.LiteratureBelief`) reads its answers from (the method: the module
docstring of :mod:`.belief`; ``shared/spec/belief-notes.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial
from typing import Any

from ...errors import Contradiction
from .rules import deck_cards, set_cards, set_names, set_of, team_of
import numpy as np

from ...belief.blocks import BlockProduct, pick_weighted



if TYPE_CHECKING:
    from .belief import LiteratureBelief

# ----------------------------------------------------------------------------- facts
@dataclass(frozen=True)
class Fact:
    """One fact about who held a card at event ``t`` (0-based event index).

    ``kind`` is ``"not"`` (``seat`` did not hold ``cards[0]``), ``"held"`` (``seat`` held
    ``cards[0]``) or ``"some"`` (``seat`` held at least one of ``cards``).
    """

    kind: str
    seat: int
    cards: tuple[str, ...]
    t: int
    why: str


@dataclass
class SetModel:
    """The constraints of one set on the deal.

    Attributes:
        name: the set.
        unknown: its cards whose dealt holder is unknown.
        allowed: per unknown card, the seats (active seats only) that may have been dealt it.
        clauses: ``(seat, cards)``: ``seat`` was dealt at least one of ``cards``.
    """

    name: str
    unknown: tuple[str, ...]
    allowed: dict[str, frozenset[int]]
    clauses: tuple[tuple[int, frozenset[str]], ...]


@lru_cache(maxsize=None)
def _compositions(m: int, k: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """All ways to split ``m`` interchangeable cards among ``k`` seats, with the number of
    ways to choose which cards go where (the multinomial coefficient)."""
    out = []

    def rec(prefix: list[int], left: int, slots: int) -> None:
        if slots == 1:
            parts = prefix + [left]
            mult = factorial(m)
            for p in parts:
                mult //= factorial(p)
            out.append((tuple(parts), mult))
            return
        for x in range(left, -1, -1):
            rec(prefix + [x], left - x, slots - 1)

    if k == 0:
        return (((), 1),) if m == 0 else ()
    rec([], m, k)
    return tuple(out)


@dataclass
class SetPolynomial:
    """The polynomial of one set: for each usage vector (cards per active seat), the number
    of ways ``w`` to deal the set's unknown cards with that usage and its clauses met, and
    ``acc[usage][(class, seat index)]``: the sum over those ways of the number of cards of
    the class at the seat (for card marginals).

    Attributes:
        classes: groups of interchangeable cards (same allowed seats and clauses).
        class_seats: per class, the indices (into the active seats) it may go to.
        weights: ``{usage: w}``.
        acc: ``{usage: {(class index, seat index): count}}``.
    """

    classes: list[tuple[str, ...]]
    class_seats: list[tuple[int, ...]]
    weights: dict[tuple[int, ...], int]
    acc: dict[tuple[int, ...], dict[tuple[int, int], int]]
    key: tuple = ()

    def usages_within(self, seat_indices: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The usages that put cards only at the given seat indices (cached by shape)."""
        return _usages_within(self.key, seat_indices)


@lru_cache(maxsize=8192)
def _usages_within(key: tuple, seat_indices: tuple[int, ...]) -> list[tuple[int, ...]]:
    ok = set(seat_indices)
    weights, _ = _class_polynomial(*key)
    return [u for u in weights if all(x == 0 or k in ok for k, x in enumerate(u))]


def _multinomial(parts) -> int:
    """``(sum parts)! / prod(part!)``."""
    out, n = 1, 0
    for r in parts:
        n += r
        out *= comb(n, r)
    return out


def _splits(total: int, caps: tuple[int, ...]):
    """Every way to split ``total`` items among bins of capacities ``caps``."""
    if len(caps) == 1:
        if total <= caps[0]:
            yield (total,)
        return
    for x in range(min(total, caps[0]), -1, -1):
        for rest in _splits(total - x, caps[1:]):
            yield (x,) + rest


def set_polynomial(model: SetModel, seats: tuple[int, ...]) -> SetPolynomial:
    """Compute the :class:`SetPolynomial` of ``model`` over the active ``seats``.

    Cards with the same allowed seats and the same clause memberships are one class; the
    computation depends only on the classes' sizes and shapes, so it is cached by them.
    """
    index = {s: i for i, s in enumerate(seats)}
    clauses = list(model.clauses)
    groups: dict[tuple, list[str]] = defaultdict(list)
    for c in model.unknown:
        member = tuple(c in u for _, u in clauses)
        groups[(tuple(sorted(index[s] for s in model.allowed[c])), member)].append(c)
    keys = sorted(groups, key=lambda g: (g, len(groups[g])))
    shape = tuple((len(groups[g]), g[0], g[1]) for g in keys)
    clause_seats = tuple(index.get(s, -1) for s, _ in clauses)
    key = (len(seats), shape, clause_seats)
    weights, acc = _class_polynomial(*key)
    return SetPolynomial([tuple(groups[g]) for g in keys], [g[0] for g in keys], weights, acc, key)


@lru_cache(maxsize=4096)
def _class_polynomial(k: int, shape: tuple, clause_seats: tuple[int, ...]):
    """Weights and accumulators of a set given abstractly: ``shape`` lists the classes as
    ``(size, allowed seat indices, clause membership flags)``; ``clause_seats`` the seat
    index of each clause (``-1`` for a seat without capacity: never satisfied)."""
    full_mask = (1 << len(clause_seats)) - 1
    states: dict[tuple[tuple[int, ...], int], list] = {((0,) * k, 0): [1, {}]}
    for j, (m, allowed_idx, member) in enumerate(shape):
        comps = _compositions(m, len(allowed_idx))
        nxt: dict[tuple[tuple[int, ...], int], list] = {}
        for (usage, mask), (w, acc) in states.items():
            for parts, mult in comps:
                u = list(usage)
                new_mask = mask
                for p, si in zip(parts, allowed_idx):
                    if p:
                        u[si] += p
                        for q, cs in enumerate(clause_seats):
                            if cs == si and member[q]:
                                new_mask |= 1 << q
                key = (tuple(u), new_mask)
                wm = w * mult
                slot = nxt.get(key)
                if slot is None:
                    slot = nxt[key] = [0, {}]
                slot[0] += wm
                sacc = slot[1]
                for kk, v in acc.items():
                    sacc[kk] = sacc.get(kk, 0) + v * mult
                for p, si in zip(parts, allowed_idx):
                    if p:
                        sacc[(j, si)] = sacc.get((j, si), 0) + wm * p
        states = nxt
    weights: dict[tuple[int, ...], int] = {}
    accs: dict[tuple[int, ...], dict[tuple[int, int], int]] = {}
    for (usage, mask), (w, acc) in states.items():
        if mask != full_mask:
            continue
        weights[usage] = weights.get(usage, 0) + w
        tgt = accs.setdefault(usage, {})
        for kk, v in acc.items():
            tgt[kk] = tgt.get(kk, 0) + v
    return weights, accs


@lru_cache(maxsize=None)
def card_set_index(deck: str) -> tuple[int, ...]:
    """The set index (:func:`set_names` order) of every card, in deck order."""
    names = set_names(deck)
    return tuple(names.index(set_of(c, deck)) for c in deck_cards(deck))


# ----------------------------------------------------------------------------- solving
@dataclass
class Constraints:
    """What a tracker's facts say about the deal, ready to count
    (:meth:`~.belief.LiteratureBelief.constraints`).

    Attributes:
        known: ``{card: dealt seat}`` of the cards whose dealt holder is certain.
        unknown: the other cards (not the observer's).
        caps: per seat, how many of the unknown cards it was dealt.
        allowed: per unknown card, the seats that may have been dealt it.
        clauses: ``(seat, cards, event index, why)``: the seat was dealt at least one of
            ``cards`` (an ask for a card of their set).
        seats: the seats with unknown cards (set from the others).

    Raises:
        Contradiction: (on construction) an unknown card no seat may hold.
    """

    belief: LiteratureBelief
    known: dict[str, int]
    unknown: list[str]
    caps: list[int]
    allowed: dict[str, set[int]]
    clauses: list[tuple[int, frozenset[str], int, str]]
    seats: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        b = self.belief
        self.seats = tuple(s for s in range(b.players) if s != b.observer and self.caps[s] > 0)
        for c in self.unknown:
            if not self.allowed[c]:
                raise Contradiction(f"no seat can hold {c}", self._last_event_about(c))

    def _last_event_about(self, card: str) -> int | None:
        ts = [f.t for f in self.belief.facts if card in f.cards]
        return max(ts) if ts else None

    def set_models(self) -> list[SetModel]:
        b = self.belief
        out = []
        unknown = set(self.unknown)
        for name in b.state.unclaimed_sets():
            u = tuple(c for c in set_cards(name) if c in unknown)
            allowed = {c: frozenset(self.allowed[c]) for c in u}
            cl = set()
            for s, cards, t, why in self.clauses:
                if set_of(next(iter(cards)), b.deck) != name:
                    continue
                cards = frozenset(c for c in cards if s in allowed[c])
                if not cards:
                    raise Contradiction(f"{why}, but it cannot have held any card of {name} then", t)
                cl.add((s, cards))
            # drop clauses implied by a smaller clause of the same seat
            cl_list = sorted(cl, key=lambda x: len(x[1]))
            kept: list[tuple[int, frozenset[str]]] = []
            for s, cards in cl_list:
                if any(s2 == s and c2 <= cards for s2, c2 in kept):
                    continue
                kept.append((s, cards))
            out.append(SetModel(name, u, allowed, tuple(kept)))
        return out


class Solution:
    """The counted posterior for one set of constraints.

    A set whose unknown cards are all *free* (allowed at every active seat, named by no
    clause) is left in the pool, counted in closed form; every other set is a block of the
    block product. A query about a set sums its polynomial's weights against context
    counts. Pool cards are exchangeable, so one-card usages give all their marginals; pool
    sets get contexts for the usages a query needs (team-supported ones for claims).
    """

    def __init__(self, belief: LiteratureBelief, cons: Constraints, factors=None):
        self.belief = belief
        self.cons = cons
        #: the player models' count factors (blocks: set indices), or None (constraint-only)
        self.factors = factors if factors else None
        self.models = cons.set_models()
        self.index = {m.name: i for i, m in enumerate(self.models)}
        # seats named by no clause and allowed for every unknown card are interchangeable:
        # those of one team are merged into one seat (their representative, the lowest)
        # with their capacities added; every merged assignment then splits among them in
        # multinomial(capacities) ways (a seat a count factor depends on is never merged)
        involved = {s for m in self.models for s, _ in m.clauses}
        if self.factors is not None:
            involved |= self.factors.seats()
        for m in self.models:
            for c in m.unknown:
                involved |= set(cons.seats) - m.allowed[c]
        groups: dict[tuple, list[int]] = {}
        for s in cons.seats:
            key = ("seat", s) if s in involved else ("plain", team_of(s))
            groups.setdefault(key, []).append(s)
        self.members: dict[int, tuple[int, ...]] = {}
        self.rep_of: dict[int, int] = {}
        for mem in groups.values():
            rep = min(mem)
            self.members[rep] = tuple(sorted(mem))
            for x in mem:
                self.rep_of[x] = rep
        self.seats = tuple(sorted(self.members))
        self.pos = {s: k for k, s in enumerate(self.seats)}
        self.member_caps = {r: tuple(cons.caps[x] for x in self.members[r]) for r in self.seats}
        self.split_total = 1
        for r in self.seats:
            self.split_total *= _multinomial(self.member_caps[r])
        self.rmodels = [SetModel(m.name, m.unknown, {c: frozenset(self.rep_of[x] for x in m.allowed[c])
                                                     for c in m.unknown}, m.clauses) for m in self.models]
        self.polys = [set_polynomial(m, self.seats) for m in self.rmodels]
        all_seats = frozenset(self.seats)
        self.touched = [bool(m.clauses) or any(m.allowed[c] != all_seats for c in m.unknown)
                        for m in self.rmodels]
        #: per weighted set: its usages' (scaled) factors
        self.mult: dict[int, dict[tuple[int, ...], float]] = {}
        if self.factors is not None:
            names = set_names(belief.deck)
            for j in self.factors.blocks():
                i = self.index.get(names[j])
                if i is None or not self.models[i].unknown:
                    continue
                self.touched[i] = True
                self.polys[i] = self._weighted(self.polys[i], i, j)
        self._caps = [sum(self.member_caps[r]) for r in self.seats]
        if sum(self._caps) != len(cons.unknown):
            raise Contradiction("the hand sizes do not add up to the unknown cards")
        self._total: int | None = None
        self._block_ctx: dict[int, dict[tuple[int, ...], int]] | None = None
        self._pool_ctx: dict[tuple[int, ...], int] = {}
        self._marg: dict | None = None
        self._certain: dict | None = None

    def _weighted(self, poly: SetPolynomial, i: int, j: int) -> SetPolynomial:
        """``poly`` (of model ``i``, deck set ``j``) with every usage's weight and accumulators
        multiplied by the count factors of set ``j`` (scaled so that the largest factor is 1;
        kept in :attr:`mult` for the queries about one assignment)."""
        f = self.factors
        usages = list(poly.weights)
        u = np.array(usages, dtype=int).reshape(len(usages), len(self.seats))
        logs = np.zeros(len(usages))
        for seat, lw in f.terms.get(j, {}).items():
            logs += lw[u[:, self.pos[seat]]] if seat in self.pos else lw[0]
        vals = np.exp(logs - logs.max())
        mult = self.mult[i] = dict(zip(usages, vals.tolist()))
        weights = {d: w * mult[d] for d, w in poly.weights.items()}
        acc = {d: {k: v * mult[d] for k, v in a.items()} for d, a in poly.acc.items()}
        return SetPolynomial(poly.classes, poly.class_seats, weights, acc, poly.key)

    # ------------------------------------------------------------------ counting
    def _team_usages(self, i: int, team: int) -> list[tuple[int, ...]]:
        return self.polys[i].usages_within(tuple(k for k, s in enumerate(self.seats) if team_of(s) == team))

    def _compute(self, contexts: bool, extra: Iterable[tuple[int, ...]] = ()) -> None:
        blocks = sorted((i for i in range(len(self.models)) if self.touched[i]),
                        key=lambda i: len(self.polys[i].weights))
        queries: list[tuple[int, ...]] = []
        if contexts:
            k = len(self.seats)
            want = {tuple(1 if j == s else 0 for j in range(k)) for s in range(k)}
            team = team_of(self.belief.observer)
            for i in range(len(self.models)):
                if not self.touched[i]:
                    want.update(self._team_usages(i, team))
            want.update(extra)
            queries = sorted(want - set(self._pool_ctx))
        bp = BlockProduct(self._caps, [self.polys[i].weights for i in blocks],
                          [queries] if queries else [], contexts=contexts, engine=self.belief.engine)
        self._total = bp.total * self.split_total
        if self._total == 0:
            raise Contradiction("no deal is consistent with the events")
        if contexts:
            self._block_ctx = dict(zip(blocks, bp.block_contexts))
            if queries:
                self._pool_ctx.update(bp.pool_contexts[0])

    @property
    def total(self) -> int:
        if self._total is None:
            self._compute(contexts=False)
        return self._total

    def _ensure(self) -> None:
        if self._block_ctx is None:
            self._compute(contexts=True)

    def context_of(self, i: int, usages: Iterable[tuple[int, ...]]) -> dict[tuple[int, ...], int]:
        """Context counts of set ``i`` for ``usages`` (pool sets: computed on demand)."""
        self._ensure()
        if self.touched[i]:
            ctx = self._block_ctx[i]
            return {u: ctx.get(u, 0) for u in usages}
        usages = list(usages)
        missing = [u for u in usages if u not in self._pool_ctx]
        if missing:
            self._compute(contexts=True, extra=missing)
        return {u: self._pool_ctx[u] for u in usages}

    # ------------------------------------------------------------------ queries
    def marginals(self, exact: bool = False) -> dict[str, dict[int, Any]]:
        """``{card: {seat: P}}`` (floats, cached; or exact fractions)."""
        if not exact:
            if self._marg is None:
                self._marg = self._marginals(False)
            return self._marg
        return self._marginals(True)

    def certain_holders(self) -> dict[str, int]:
        """``{card: seat}`` for every card in play whose holder is certain (exact integers:
        its count at that seat is the whole count)."""
        if self._certain is None:
            self._marginals(False)
        return self._certain

    def _marginals(self, exact: bool) -> dict[str, dict[int, Any]]:
        self._ensure()
        b = self.belief
        total = self.total
        k = len(self.seats)
        num: dict[str, dict[int, tuple[int, int]]] = {}
        pool_marg = {self.seats[s]: self._pool_ctx[tuple(1 if j == s else 0 for j in range(k))]
                     for s in range(k)}
        for i, m in enumerate(self.models):
            if not self.touched[i]:
                for c in m.unknown:
                    num[c] = {s: (v, 1) for s, v in pool_marg.items() if v}
                continue
            poly = self.polys[i]
            ctx = self._block_ctx[i]
            for j, cards in enumerate(poly.classes):
                sums: dict[int, int] = defaultdict(int)
                for usage, acc in poly.acc.items():
                    g = ctx.get(usage, 0)
                    if not g:
                        continue
                    for si in poly.class_seats[j]:
                        v = acc.get((j, si), 0)
                        if v:
                            sums[si] += v * g
                # each card of the class carries 1/len(cards) of the class's count
                entry = {self.seats[si]: (v, len(cards)) for si, v in sums.items()}
                for c in cards:
                    num[c] = entry
        out: dict[str, dict[int, Any]] = {}
        certain: dict[str, int] = {}
        holders = b.state.holder
        real = isinstance(total, float)
        merged_total = total / self.split_total if real else total // self.split_total
        for c in b.state.cards_in_play():
            if c in holders:
                out[c] = {holders[c]: Fraction(1) if exact else 1.0}
                certain[c] = holders[c]
                continue
            d: dict[int, Any] = {}
            for rep, (v, k) in num[c].items():
                mem, caps = self.members[rep], self.member_caps[rep]
                cap_sum = sum(caps)
                for x, cx in zip(mem, caps):
                    if not cx:
                        continue
                    # a merged seat's card is at each member in proportion to its capacity
                    if exact:
                        d[x] = Fraction(v * cx, k * merged_total * cap_sum)
                    else:
                        d[x] = v * cx / (k * merged_total * cap_sum)
                        if not real and v * cx == k * merged_total * cap_sum:
                            certain[c] = x
            out[c] = dict(sorted(d.items()))
        if not exact:
            self._certain = certain
        return out

    def _usage(self, set_name: str, assignment: Mapping[str, int]) -> tuple[tuple[int, ...], int] | None:
        """``(usage, split)`` of the unknown cards of ``set_name`` under ``assignment``: the
        usage vector over the (merged) seats, and the number of ways the merged seats' other
        cards split among their members given where this assignment puts the set's cards;
        ``None`` if the assignment breaks a known holder, an allowed seat or a clause."""
        m = self.models[self.index[set_name]]
        for c in set_cards(set_name):
            if c not in assignment:
                raise KeyError(f"the assignment misses {c}")
        holders = self.belief.state.holder
        for c in set_cards(set_name):
            if c in holders and holders[c] != assignment[c]:
                return None
        usage = [0] * len(self.seats)
        per_seat: dict[int, int] = defaultdict(int)
        for c in m.unknown:
            s = assignment[c]
            if s not in m.allowed[c]:
                return None
            usage[self.pos[self.rep_of[s]]] += 1
            per_seat[s] += 1
        for s, cards in m.clauses:
            if not any(assignment[c] == s for c in cards):
                return None
        split = 1
        for rep in self.seats:
            rest = [cx - per_seat.get(x, 0) for x, cx in zip(self.members[rep], self.member_caps[rep])]
            if min(rest) < 0:
                return None
            split *= _multinomial(rest)
        return tuple(usage), split

    def assignment_count(self, set_name: str, assignment: Mapping[str, int]) -> int:
        found = self._usage(set_name, assignment)
        if found is None:
            return 0
        usage, split = found
        i = self.index[set_name]
        return self.context_of(i, [usage])[usage] * split * self.own_factor(i, usage)

    def own_factor(self, i: int, usage: tuple[int, ...]) -> float | int:
        """The (scaled) player-model factor of set ``i``'s own usage: every assignment with
        this usage carries it on top of its context count (1 without player models)."""
        mult = self.mult.get(i)
        return 1 if mult is None else mult.get(usage, 0.0)

    def _team_feasible(self, set_name: str, team: int) -> bool:
        holders = self.belief.state.holder
        return all(team_of(holders[c]) == team for c in set_cards(set_name) if c in holders)

    def team_count(self, set_name: str, team: int) -> int:
        if not self._team_feasible(set_name, team):
            return 0
        i = self.index[set_name]
        usages = self._team_usages(i, team)
        ctx = self.context_of(i, usages)
        w = self.polys[i].weights
        return sum(w[u] * ctx[u] for u in usages) * self.split_total

    def best_assignment(self, set_name: str, team: int):
        """The most probable assignment to ``team``. An assignment with (merged) usage ``e``
        that puts ``a_x`` of the set's cards at each member ``x`` of a merged seat has
        ``G(e) * prod multinomial(caps - a)`` consistent deals (every valid assignment with the
        same usage and split has the same count), so the best (usage, split) is found first and
        ``ties`` adds up how many assignments share the best count: the usage's weight (valid
        assignments to the merged seats) times the ways to choose which cards go to which
        member (``multinomial(a)``). Under a player model the counts are weights (floats), the
        same for every assignment of one usage and split; ``ties`` is then the number of
        assignments whose weight equals the best within float rounding (a whole number)."""
        if not self._team_feasible(set_name, team):
            return None
        i = self.index[set_name]
        usages = self._team_usages(i, team)
        ctx = self.context_of(i, usages)
        # the number of valid assignments per usage (unweighted, also under a player model)
        w = _class_polynomial(*self.polys[i].key)[0]
        best, ties, target = 0, 0, None
        seen: list[tuple[Any, int]] = []
        for u in sorted(usages):
            g = ctx[u] * self.own_factor(i, u)
            if not g:
                continue
            options = [[((), 1, 1)]]  # per merged seat: (split a, ways to split the rest, multinomial(a))
            for k, rep in enumerate(self.seats):
                caps = self.member_caps[rep]
                if u[k] == 0 or len(caps) == 1:
                    continue
                opts = []
                for a in _splits(u[k], caps):
                    opts.append((a, _multinomial([cx - ax for cx, ax in zip(caps, a)]), _multinomial(a)))
                options.append([(o[0], o[1], o[2], rep) for o in opts])
            # combine: each merged seat independently; the count is a product
            combos = [((), g, w[u])]
            for opts in options[1:]:
                combos = [(acc + ((o[3], o[0]),), cnt * o[1], ways * o[2]) for acc, cnt, ways in combos for o in opts]
            for splits, cnt, ways in combos:
                # the other merged seats get none of the set: their full split factor
                other = 1
                split_reps = {r for r, _ in splits}
                for rep in self.seats:
                    if rep not in split_reps:
                        other *= _multinomial(self.member_caps[rep])
                cnt *= other
                if cnt > best:
                    best, ties, target = cnt, ways, (u, dict(splits))
                elif cnt == best:
                    ties += ways
                if self.factors is not None:
                    seen.append((cnt, ways))
        if best == 0:
            return None
        if self.factors is not None:   # weights equal up to rounding are ties too
            ties = sum(ways for cnt, ways in seen if abs(cnt - best) <= 1e-9 * best)
        usage, splits = target
        a = self._assignment_with_usage(self.rmodels[i], usage)
        # put each merged seat's cards at its members as the best split says
        for rep, split in splits.items():
            cards = sorted((c for c, r in a.items() if r == rep), key=set_cards(set_name).index)
            it = iter(cards)
            for x, ax in zip(self.members[rep], split):
                for _ in range(ax):
                    a[next(it)] = x
        for c, r in list(a.items()):
            if r in self.members and len(self.members[r]) == 1:
                a[c] = self.members[r][0]
        holders = self.belief.state.holder
        full = {c: (holders[c] if c in holders else a[c]) for c in set_cards(set_name)}
        return full, best, ties

    def _assignment_with_usage(self, m: SetModel, usage: tuple[int, ...]) -> dict[str, int]:
        """A valid assignment of ``m``'s unknown cards with the given usage (backtracking)."""
        left = list(usage)
        a: dict[str, int] = {}
        cards = list(m.unknown)

        def ok() -> bool:
            return all(any(a.get(c) == s for c in u) for s, u in m.clauses)

        def rec(j: int) -> bool:
            if j == len(cards):
                return ok()
            c = cards[j]
            for s in sorted(m.allowed[c]):
                p = self.pos[s]
                if left[p]:
                    left[p] -= 1
                    a[c] = s
                    if rec(j + 1):
                        return True
                    left[p] += 1
                    del a[c]
            return False

        if not rec(0):
            raise AssertionError("no assignment has a usage the polynomial lists")
        return a

    # ------------------------------------------------------------------ sampling
    def sampler(self) -> BlockProduct:
        if getattr(self, "_sampler", None) is None:
            blocks = [i for i in range(len(self.models)) if self.touched[i]]
            self._sampler_blocks = blocks
            self._sampler = BlockProduct(self._caps, [self.polys[i].weights for i in blocks], [],
                                         contexts=False, engine=self.belief.engine, tables=True)
        return self._sampler

    def sample(self, rng: np.random.Generator) -> dict[str, int]:
        """One consistent deal of the unknown cards, uniformly: ``{card: dealt seat}``."""
        bp = self.sampler()
        usages, pool = bp.sample_usages(rng)
        out: dict[str, int] = {}
        for i, usage in zip(self._sampler_blocks, usages):
            out.update(self._sample_set(self.rmodels[i], usage, rng))
        pool_cards = [c for i, m in enumerate(self.models) if not self.touched[i] for c in m.unknown]
        order = rng.permutation(len(pool_cards))
        out = self._sample_pool(out, pool, pool_cards, order)
        # a merged seat's cards split uniformly among its members
        for rep in self.seats:
            mem, caps = self.members[rep], self.member_caps[rep]
            if len(mem) == 1:
                continue
            cards = sorted(c for c, r in out.items() if r == rep)
            perm = rng.permutation(len(cards))
            at = 0
            for x, cx in zip(mem, caps):
                for j in perm[at:at + cx]:
                    out[cards[j]] = x
                at += cx
        return out

    def _sample_pool(self, out, pool, pool_cards, order):
        pos = 0
        for k, r in enumerate(pool):
            for j in order[pos:pos + r]:
                out[pool_cards[j]] = self.seats[k]
            pos += r
        return out

    def _sample_set(self, m: SetModel, usage: tuple[int, ...], rng: np.random.Generator) -> dict[str, int]:
        """A uniformly random valid assignment of ``m``'s unknown cards with ``usage``."""
        cards = list(m.unknown)
        clauses = list(m.clauses)
        memo: dict[tuple, int] = {}

        def count(j: int, left: tuple[int, ...], sat: int) -> int:
            if j == len(cards):
                return 1 if sat == (1 << len(clauses)) - 1 else 0
            key = (j, left, sat)
            if key in memo:
                return memo[key]
            total = 0
            for s in m.allowed[cards[j]]:
                p = self.pos[s]
                if left[p]:
                    total += count(j + 1, left[:p] + (left[p] - 1,) + left[p + 1:], _sat(sat, s, cards[j]))
            memo[key] = total
            return total

        def _sat(sat: int, s: int, c: str) -> int:
            for q, (qs, u) in enumerate(clauses):
                if qs == s and c in u:
                    sat |= 1 << q
            return sat

        out = {}
        left, sat = tuple(usage), 0
        for j, c in enumerate(cards):
            options = []
            for s in sorted(m.allowed[c]):
                p = self.pos[s]
                if left[p]:
                    nl = left[:p] + (left[p] - 1,) + left[p + 1:]
                    ns = _sat(sat, s, c)
                    options.append((s, nl, ns, count(j + 1, nl, ns)))
            t = pick_weighted(rng, [o[3] for o in options])
            s, left, sat, _ = options[t]
            out[c] = s
        return out
