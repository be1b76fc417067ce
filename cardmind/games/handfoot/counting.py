"""Counting for the Hand and Foot tracker (:class:`~.belief.HandFootBelief`): the structure
of a view (each seat's line of public plays and capacities, :func:`structure_of`), the places
hidden cards can be (:func:`group_places`), and the two engines that answer over them: the
exact engine (:class:`ExactEngine`: block products where they are small) and the Gibbs
sampler (:class:`GibbsEngine`). The method is the module docstring of :mod:`.belief`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate
from math import comb, factorial, lgamma
from typing import Any

import numpy as np

from ...belief.blocks import BlockProduct, multinomial
from ...errors import Contradiction
from .rules import MELD_RANKS, RED_THREES, deck_counter, is_wild, sort_cards

#: the exact engine is used while its dynamic programme has at most this many states ...
EXACT_BOX = 60_000
#: ... and at most this many state-times-usage steps
EXACT_WORK = 4_000_000
#: default number of Gibbs samples (after burn-in) and sweeps between samples
DEFAULT_SAMPLES = 200
DEFAULT_THIN = 1
DEFAULT_BURN = 15
#: default number of worlds for chances and player models
DEFAULT_WORLDS = 60


def kind_of(card: str) -> str:
    """The kind of a card for play: its rank for naturals 4..A, ``"W"`` for a wild card,
    ``"R3"`` for a red three, ``"B3"`` for a black three."""
    if is_wild(card):
        return "W"
    if card[0] == "3":
        return "R3" if card in RED_THREES else "B3"
    return card[0]


KINDS = tuple(MELD_RANKS) + ("W", "R3", "B3")
#: each kind's position in :data:`KINDS` (the columns of the kind tables)
KIND_INDEX = {kd: i for i, kd in enumerate(KINDS)}


def kind_table(values, names: list[str]) -> dict[str, dict[str, float]]:
    """A ``(places, kinds)`` array (expected cards, or their standard errors) as the answer
    gives it: per place name (``names``, the rows in order) per kind of :data:`KINDS`."""
    return {nm: {kd: float(values[a, i]) for kd, i in KIND_INDEX.items()} for a, nm in enumerate(names)}


# ----------------------------------------------------------------------------- the structure
@dataclass
class SeatLine:
    """One other player's hidden positions and plays in the hand under way.

    Attributes:
        seat: the player.
        groups: its hidden position groups in time order: ``(time, size, label)`` (the dealt
            hand at time -1, each draw, the foot when picked up).
        plays: ``(time, Counter)`` of the cards it laid or discarded at each event.
        pickups: ``(time, Counter)`` of the cards it took from the pile (public).
    """

    seat: int
    groups: list[tuple[int, int, str]] = field(default_factory=list)
    plays: list[tuple[int, Counter]] = field(default_factory=list)
    pickups: list[tuple[int, Counter]] = field(default_factory=list)

    def totals(self) -> tuple[Counter, Counter]:
        """``(played, taken)``: every card it played and every card it took."""
        p, k = Counter(), Counter()
        for _, c in self.plays:
            p.update(c)
        for _, c in self.pickups:
            k.update(c)
        return p, k

    def needs(self) -> dict[str, list[tuple[int, int]]]:
        """For each card type some play constrains: ``[(prefix, need)]``: the first ``prefix``
        groups must hold at least ``need`` copies (increasing needs only)."""
        events = sorted([(t, 0, c) for t, c in self.pickups] + [(t, 1, c) for t, c in self.plays],
                        key=lambda x: (x[0], -x[1]))   # a pickup's pair is played before its cards come
        taken, played = Counter(), Counter()
        best: dict[str, int] = {}
        out: dict[str, list[tuple[int, int]]] = {}
        times = [g[0] for g in self.groups]
        for t, kind, cards in events:
            if kind == 0:
                taken.update(cards)
                continue
            played.update(cards)
            prefix = sum(1 for x in times if x < t)
            for c in cards:
                need = played[c] - taken[c]
                if need > best.get(c, 0):
                    best[c] = need
                    lst = out.setdefault(c, [])
                    if lst and lst[-1][0] == prefix:
                        lst[-1] = (prefix, need)
                    else:
                        lst.append((prefix, need))
        return out


@dataclass
class Structure:
    """The hidden part of the hand under way from the observer's view (see the module docstring).

    Attributes:
        observer: O. ``lines``: one :class:`SeatLine` per other player.
        free: the hidden places nobody has drawn from yet: ``("stock", None, size)`` and
            ``("foot", seat, size)`` for every foot not picked up.
        pool: the cards in hidden positions (the decks minus what O's positions hold).
        zone_known: per other player the cards it holds that everyone knows (taken from the
            pile and not played since: a lower bound).
        hand_over: the hand has ended (``hand_end``): nothing is hidden until the next deal.
    """

    observer: int
    lines: list[SeatLine]
    free: list[tuple[str, int | None, int]]
    pool: Counter
    hand_over: bool = False

    def needs(self) -> dict[int, dict[str, list[tuple[int, int]]]]:
        """Per other player, :meth:`SeatLine.needs`."""
        return {ln.seat: ln.needs() for ln in self.lines}


def structure_of(state, observer: int) -> Structure:
    """The :class:`Structure` of ``state`` (the observer's view, :class:`~.state.HandFootState`)."""
    n = state.players
    hist = state.history
    start = 0
    for i in range(len(hist) - 1, -1, -1):
        if hist[i]["type"] == "deal":
            start = i + 1
            break
    hand_size = state.hand_size
    own = Counter(state.dealt[-1][observer])
    lines = {s: SeatLine(s, [(-1, hand_size, "hand")]) for s in range(n) if s != observer}
    foot_picked = set()
    hand_over = False
    for t, ev in enumerate(hist[start:]):
        kind, p = ev["type"], ev.get("player")
        if kind == "draw":
            if p == observer:
                own.update(ev["cards"])
            else:
                lines[p].groups.append((t, ev["count"], "draw"))
        elif kind == "foot":
            foot_picked.add(p)
            if p == observer:
                own.update(ev["cards"])
            else:
                lines[p].groups.append((t, hand_size, "foot"))
        elif kind == "pickup" and p != observer:
            lines[p].plays.append((t, Counter(ev["pair"])))
            lines[p].pickups.append((t, Counter(ev["cards"][1:])))
        elif kind in ("meld", "lay_off") and p != observer:
            lines[p].plays.append((t, Counter(ev["cards"])))
        elif kind == "discard" and p != observer:
            lines[p].plays.append((t, Counter([ev["card"]])))
        elif kind == "hand_end":
            hand_over = True
    free = [("stock", None, state.stock_count)]
    free += [("foot", s, hand_size) for s in range(n) if s not in foot_picked]
    pool = deck_counter(state.options) - own
    return Structure(observer, [lines[s] for s in sorted(lines)], free, pool, hand_over)


def check_feasible(st: Structure) -> None:
    """Raise :class:`Contradiction` unless some deal satisfies the constraints: every player's
    needed copies fit its positions by their deadlines (earliest deadline first), and no card
    type is needed in more copies than the unseen cards hold."""
    total_need: Counter = Counter()
    for ln in st.lines:
        needs = ln.needs()
        caps = [g[1] for g in ln.groups]
        items = []
        for c, lst in needs.items():
            prev = 0
            for prefix, need in lst:
                items += [prefix] * (need - prev)
                prev = need
            total_need[c] += prev
        items.sort()
        for k, deadline in enumerate(items, start=1):
            if k > sum(caps[:deadline]):
                raise Contradiction(f"seat {ln.seat} played more cards than it can have held by then")
    for c, k in total_need.items():
        if k > st.pool[c]:
            raise Contradiction(f"the others played {k} copies of {c} from their hidden cards, but only "
                                f"{st.pool[c]} are unseen")


# ----------------------------------------------------------------------------- places
@dataclass
class Places:
    """The places a count is made over.

    Attributes:
        caps: capacity of every place.
        owner: per place its other player, or ``None`` for a free place.
        group_of: per place the index of its group in its player's ``groups`` (free places:
            -1); ``free_name``: per free place ``("stock", None)`` or ``("foot", seat)``.
        seat_places: per other player its places in time order.
    """

    caps: list[int]
    owner: list[int | None]
    label: list[tuple]
    seat_places: dict[int, list[int]]


def group_places(st: Structure) -> Places:
    """Every group of every other player its own place, then every free place."""
    caps, owner, label, sp = [], [], [], {}
    for ln in st.lines:
        sp[ln.seat] = []
        for i, g in enumerate(ln.groups):
            sp[ln.seat].append(len(caps))
            caps.append(g[1])
            owner.append(ln.seat)
            label.append(("group", ln.seat, i))
    for name, seat, size in st.free:
        caps.append(size)
        owner.append(None)
        label.append((name, seat))
    return Places(caps, owner, label, sp)


# ----------------------------------------------------------------------------- answers
@dataclass
class Answer:
    """A posterior of the hand under way.

    Attributes:
        exact: computed exactly (fractions) or sampled (floats with standard errors).
        count: the number of consistent deals (exact engine), else ``None``.
        tokens: ``{place: {token: {count: probability}}}``: places are other seats (their
            holdings now), ``"foot <seat>"`` for unpicked feet, ``"stock"``.
        kinds: ``{place: {kind: {count: probability}}}``, the same by kind (:func:`kind_of`).
        stderr: sampled answers: the largest standard error of a probability.
        samples: sampled answers: the samples used.
    """

    exact: bool
    count: int | None
    tokens: dict[str, dict[str, dict[int, Any]]]
    kinds: dict[str, dict[str, dict[int, Any]]]
    stderr: float | None = None
    samples: int | None = None
    ess: float | None = None
    #: sampled answers: ``{place: {kind: standard error of its expected count}}`` (``None`` when
    #: exact)
    kind_se: dict[str, dict[str, float]] | None = None
    #: sampled answers (no player model): ``{place: {kind: expected count}}``, the places no play
    #: constrains sharing their total (``None``: summed from ``tokens``)
    kind_mean: dict[str, dict[str, float]] | None = None


#: the key of the free places' total in :attr:`Answer.kind_se`
FREE = "free"


def _kind_count(world: dict[str, Any], place: str, kind: str) -> int:
    """Cards of ``kind`` in ``place`` (``"2"``, ``"foot 0"``, ``"stock"``) of a world."""
    if place == "stock":
        cnt = world["stock"]
    elif place.startswith("foot "):
        cnt = world["feet"].get(int(place[5:]), Counter())
    else:
        cnt = world["zones"].get(int(place), Counter())
    return sum(k for c, k in cnt.items() if kind_of(c) == kind)


def _place_name(label: tuple) -> str:
    if label[0] == "stock":
        return "stock"
    return f"foot {label[1]}"


def _add_pmf(acc: dict[int, Any], pmf: Mapping[int, Any], scale: Any = 1) -> None:
    for k, v in pmf.items():
        acc[k] = acc.get(k, 0) + v * scale


def _hyper_pmf(total: int, good: int, draws: int) -> dict[int, Fraction]:
    """P(k of ``draws`` drawn items are among ``good`` of ``total``), exact."""
    den = comb(total, draws)
    out = {}
    for k in range(max(0, draws - (total - good)), min(good, draws) + 1):
        out[k] = Fraction(comb(good, k) * comb(total - good, draws - k), den)
    return out


def _hyper_float(total: int, good: int, draws: int) -> np.ndarray:
    """The same as floats: an array over ``k = 0..draws``."""
    out = np.zeros(draws + 1)
    if total <= 0:
        out[0] = 1.0
        return out
    lo, hi = max(0, draws - (total - good)), min(good, draws)
    ks = np.arange(lo, hi + 1)
    lg = np.array([lgamma(good + 1) - lgamma(k + 1) - lgamma(good - k + 1)
                   + lgamma(total - good + 1) - lgamma(draws - k + 1) - lgamma(total - good - draws + k + 1)
                   for k in ks]) - (lgamma(total + 1) - lgamma(draws + 1) - lgamma(total - draws + 1))
    out[lo:hi + 1] = np.exp(lg)
    return out


@lru_cache(maxsize=65536)
def _hyper_cached(total: int, good: int, draws: int) -> np.ndarray:
    """:func:`_hyper_float`, cached (the array must not be changed)."""
    return _hyper_float(total, good, draws)


def _compositions(n: int, k: int):
    """Every way to write ``n`` as ``k`` ordered non-negative parts."""
    if k == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _compositions(n - first, k - 1):
            yield (first, *rest)


class ExactEngine:
    """The exact count and marginals (see the module docstring)."""

    def __init__(self, st: Structure):
        self.st = st
        needs = st.needs()
        # seats: per other player its groups merged between the prefixes its needs use
        caps: list[int] = []
        self.seat_of: dict[int, list[int]] = {}
        self.merge_factor = 1
        cuts_of: dict[int, list[int]] = {}
        for ln in st.lines:
            cuts = sorted({p for lst in needs[ln.seat].values() for p, _ in lst} - {0})
            bounds = [0] + [c for c in cuts if c < len(ln.groups)] + [len(ln.groups)]
            self.seat_of[ln.seat] = []
            cuts_of[ln.seat] = bounds
            for a, b in zip(bounds, bounds[1:]):
                sizes = [g[1] for g in ln.groups[a:b]]
                self.seat_of[ln.seat].append(len(caps))
                caps.append(sum(sizes))
                self.merge_factor *= multinomial(sizes)
        self.free_index = len(caps)
        free_sizes = [f[2] for f in st.free]
        caps.append(sum(free_sizes))
        self.merge_factor *= multinomial(free_sizes)
        self.caps = caps
        self.constrained = sorted({c for d in needs.values() for c in d}, key=lambda c: sort_cards([c])[0])
        # prefix constraints in merged-seat terms
        self.cons: dict[str, list[tuple[list[int], int]]] = {}
        for ln in st.lines:
            bounds = cuts_of[ln.seat]
            for c, lst in needs[ln.seat].items():
                for prefix, need in lst:
                    k = bounds.index(prefix) if prefix in bounds else next(i for i, b in enumerate(bounds) if b >= prefix)
                    self.cons.setdefault(c, []).append((self.seat_of[ln.seat][:k], need))
        box = 1
        for c in caps:
            box *= c + 1
        self.box = box

    def feasible_size(self) -> bool:
        """Whether the dynamic programme is small enough: at most :data:`EXACT_BOX` capacity
        states, and at most :data:`EXACT_WORK` state-times-usage steps over the blocks."""
        if not self.constrained:
            return True
        ncon = sum(self.st.pool[x] for x in self.constrained)
        box = 1
        for c in self.caps:
            box *= min(c, ncon) + 1
        if box > EXACT_BOX:
            return False
        S = len(self.caps)
        work = box * sum(comb(self.st.pool[c] + S - 1, S - 1) for c in self.constrained)
        return work <= EXACT_WORK

    def _usages(self, c: str) -> dict[tuple[int, ...], int]:
        n = self.st.pool[c]
        S = len(self.caps)
        out = {}
        cons = self.cons.get(c, [])
        fn = factorial(n)
        for d in _compositions(n, S):
            if any(d[i] > self.caps[i] for i in range(S)):
                continue
            if all(sum(d[i] for i in seats) >= need for seats, need in cons):
                w = fn
                for x in d:
                    w //= factorial(x)
                out[d] = w
        return out

    def solve(self) -> Answer:
        """The exact answer.

        Raises:
            Contradiction: no consistent deal.
        """
        st = self.st
        blocks = [self._usages(c) for c in self.constrained]
        pool_tokens = [c for c in sort_cards(st.pool) if st.pool[c] > 0 and c not in self.constrained]
        prod = BlockProduct(self.caps, blocks, tables=True)
        if prod.total == 0:
            raise Contradiction("no deal of the hidden cards is consistent with the plays")
        N = prod.total
        # per token, the distribution of its usage over seats
        usage_dist: dict[str, dict[tuple[int, ...], Fraction]] = {}
        for c, b, ctx in zip(self.constrained, blocks, prod.block_contexts):
            usage_dist[c] = {d: Fraction(w * ctx[d], N) for d, w in b.items() if ctx[d]}
        ans = self._answer(usage_dist, N * self.merge_factor)
        self._pool_marginals(ans, prod.pool_room(), N, pool_tokens)
        return ans

    def _pool_marginals(self, ans: Answer, rooms: dict[tuple[int, ...], int], N: int, pool_tokens) -> None:
        """The pool's card types: given the room the constrained types leave, their copies are
        spread uniformly over it (hypergeometric), summed over the rooms (exact fractions)."""
        st = self.st
        played = {ln.seat: ln.totals() for ln in st.lines}
        F = self.caps[self.free_index]
        by_n: dict[int, list[str]] = {}
        for u in pool_tokens:
            by_n.setdefault(st.pool[u], []).append(u)
        for n, toks in by_n.items():
            per_seat: dict[int, dict[int, Fraction]] = {ln.seat: {} for ln in st.lines}
            per_free: dict[int, dict[int, Fraction]] = {i: {} for i in range(len(st.free))}
            for room, cnt in rooms.items():
                pr = Fraction(cnt, N)
                total = sum(room)
                for ln in st.lines:
                    ra = sum(room[i] for i in self.seat_of[ln.seat])
                    for k, q in _hyper_pmf(total, ra, n).items():
                        per_seat[ln.seat][k] = per_seat[ln.seat].get(k, 0) + pr * q
                rf = room[self.free_index]
                in_free = _hyper_pmf(total, rf, n)
                for i, (_, _, size) in enumerate(st.free):
                    for m, qm in in_free.items():
                        for j, qj in _hyper_pmf(F, size, m).items():
                            per_free[i][j] = per_free[i].get(j, 0) + pr * qm * qj
            for u in toks:
                for ln in st.lines:
                    p, k = played[ln.seat]
                    shift = k[u] - p[u]
                    ans.tokens.setdefault(str(ln.seat), {})[u] = {x + shift: v for x, v in per_seat[ln.seat].items()}
                for i, (name, seat, _) in enumerate(st.free):
                    ans.tokens.setdefault(_place_name((name, seat)), {})[u] = dict(per_free[i])

    def _answer(self, usage_dist, count: int) -> Answer:
        st = self.st
        tokens: dict[str, dict[str, dict[int, Any]]] = {}
        played = {ln.seat: ln.totals() for ln in st.lines}
        fcap = self.caps[self.free_index]
        for c, dist in usage_dist.items():
            for ln in st.lines:
                seats = self.seat_of[ln.seat]
                p, k = played[ln.seat]
                shift = k[c] - p[c]
                pmf: dict[int, Fraction] = {}
                for d, pr in dist.items():
                    x = sum(d[i] for i in seats) + shift
                    pmf[x] = pmf.get(x, 0) + pr
                tokens.setdefault(str(ln.seat), {})[c] = pmf
            for name, seat, size in st.free:
                pmf = {}
                for d, pr in dist.items():
                    m = d[self.free_index]
                    for j, q in _hyper_pmf(fcap, size, m).items():
                        pmf[j] = pmf.get(j, 0) + pr * q
                tokens.setdefault(_place_name((name, seat)), {})[c] = pmf
        # kinds: exact only through the joint; here we convolve per token (independent given
        # nothing) is wrong, so kinds come from the exact joint of the kind's tokens when small,
        # else from their expectations (kind_means)
        kinds = {place: {} for place in tokens}
        return Answer(True, count, tokens, kinds)


# ----------------------------------------------------------------------------- the sampler
class GibbsEngine:
    """Samples of the constrained card types' places (see the module docstring).

    The state is, per constrained type, how many of its copies each place holds; the room
    the constrained types leave is filled by the pool (the other types) uniformly. A step
    (:meth:`update`) redraws one type's places exactly from its conditional: its copies go to
    free positions chosen uniformly among the choices that meet its constraints (a player's
    first ``prefix`` groups hold at least ``need`` copies), given the other types. Plain
    Python lists: the arrays are short and numpy's per-call cost would dominate.

    Args:
        st: the structure.
        rng: the random generator (seeded by the caller).
    """

    def __init__(self, st: Structure, rng: np.random.Generator):
        self.st = st
        self.rng = rng
        self.places = group_places(st)
        self.caps = list(self.places.caps)
        P = len(self.caps)
        needs = st.needs()
        self.constrained = sorted({c for d in needs.values() for c in d}, key=lambda c: sort_cards([c])[0])
        self.copies = {c: st.pool[c] for c in self.constrained}
        cons: dict[str, list[tuple[list[int], list[tuple[int, int]]]]] = {}
        for ln in st.lines:
            for c, lst in needs[ln.seat].items():
                cons.setdefault(c, []).append((self.places.seat_places[ln.seat], lst))
        self.cons = cons
        # per type: its groups of blocks [(places, need)] and the rest's places
        self.plan: dict[str, tuple[list[list[tuple[list[int], int]]], list[int]]] = {}
        for c in self.constrained:
            in_block = [False] * P
            groups = []
            for seat_places, lst in cons.get(c, []):
                blocks, prev = [], 0
                for prefix, need in lst:
                    idx = list(seat_places[prev:prefix])
                    blocks.append((idx, need))
                    for i in idx:
                        in_block[i] = True
                    prev = prefix
                groups.append(blocks)
            self.plan[c] = (groups, [i for i in range(P) if not in_block[i]])
        self.d = {c: [0] * P for c in self.constrained}
        self.used = [0] * P
        self._init()

    def _free(self, skip: str | None = None) -> list[int]:
        """Room per place left by the constrained types (but ``skip``)."""
        if skip is None:
            return [c - u for c, u in zip(self.caps, self.used)]
        return [c - u + x for c, u, x in zip(self.caps, self.used, self.d[skip])]

    def _init(self) -> None:
        """A feasible start: every needed copy in the earliest place with room (earliest
        deadline first, per player), the rest of each type at random among the free room."""
        free = list(self.caps)
        items = []
        for c, lst in self.cons.items():
            for seat_places, needs in lst:
                prev = 0
                for prefix, need in needs:
                    items += [(prefix, c, seat_places)] * (need - prev)
                    prev = need
        items.sort(key=lambda x: x[0])
        for prefix, c, seat_places in items:
            for pl in seat_places[:prefix]:
                if free[pl] > 0:
                    free[pl] -= 1
                    self.d[c][pl] += 1
                    break
            else:
                raise Contradiction("no deal of the hidden cards is consistent with the plays")
        every = list(range(len(free)))
        for c in self.constrained:
            left = self.copies[c] - sum(self.d[c])
            if left < 0:
                raise Contradiction(f"more copies of {c} were played from hidden cards than are unseen")
            self._spread(self.d[c], free, every, left)
        self.used = [c - f for c, f in zip(self.caps, free)]

    def _spread(self, into: list[int], free: list[int], idx: list[int], k: int) -> None:
        """Put ``k`` copies in free positions of the places ``idx`` chosen uniformly (without
        replacement), updating ``into`` and ``free``."""
        if len(idx) == 1:
            into[idx[0]] += k
            free[idx[0]] -= k
            return
        cum = list(accumulate(free[i] for i in idx))
        total = cum[-1]
        rnd = self.rng.random
        slots: set[int] = set()
        while len(slots) < k:
            slots.add(int(rnd() * total))
        for x in slots:
            i = idx[bisect_right(cum, x)]
            into[i] += 1
            free[i] -= 1

    def _pick(self, weights: list[float]) -> int:
        total = sum(weights)
        if total <= 0:
            raise Contradiction("no place left for a card type's copies")
        x = self.rng.random() * total
        for i, w in enumerate(weights):
            x -= w
            if x < 0:
                return i
        return len(weights) - 1

    def update(self, c: str) -> None:
        """Redraw where type ``c``'s copies are, given the other types (an exact conditional)."""
        n = self.copies[c]
        old = self.d[c]
        r = [cp - u + o for cp, u, o in zip(self.caps, self.used, old)]
        groups, rest = self.plan[c]
        n1 = n + 1
        mats = []
        for blocks in groups:
            g = [1.0] + [0.0] * n
            tables = []
            for idx, need in blocks:
                R = sum([r[i] for i in idx])
                w = [float(comb(R, k)) for k in range(n1)]
                new = [0.0] * n1
                for j in range(n1):
                    gj = g[j]
                    if gj:
                        for k in range(n1 - j):
                            new[j + k] += gj * w[k]
                for k in range(min(need, n1)):
                    new[k] = 0.0
                tables.append((g, w))
                g = new
            mats.append((g, tables))
        R_rest = sum([r[i] for i in rest])
        w_rest = [float(comb(R_rest, k)) for k in range(n1)]
        prefix = [[1.0] + [0.0] * n]
        for g, _ in mats:
            p = prefix[-1]
            q = [0.0] * n1
            for j in range(n1):
                pj = p[j]
                if pj:
                    for k in range(n1 - j):
                        q[j + k] += pj * g[k]
            prefix.append(q)
        last = prefix[-1]
        k_rest = self._pick([last[n - k] * w_rest[k] for k in range(n1)])
        left = n - k_rest
        new = [0] * len(r)
        for gi in range(len(mats) - 1, -1, -1):
            g, tables = mats[gi]
            p = prefix[gi]
            k_g = self._pick([p[left - k] * g[k] for k in range(left + 1)])
            rem = k_g
            for bi in range(len(tables) - 1, -1, -1):
                before, w = tables[bi]
                kb = self._pick([before[rem - k] * w[k] for k in range(rem + 1)])
                if kb:
                    self._spread(new, r, groups[gi][bi][0], kb)
                rem -= kb
            left -= k_g
        if k_rest:
            self._spread(new, r, rest, k_rest)
        self.used = [u - o + x for u, o, x in zip(self.used, old, new)]
        self.d[c] = new

    def sweep(self) -> None:
        """One Gibbs sweep: every constrained type once, in random order."""
        for i in self.rng.permutation(len(self.constrained)):
            self.update(self.constrained[int(i)])

    def pool_sample(self) -> dict[str, list[int]]:
        """Place the unconstrained types at random in the room left (a whole world)."""
        free = np.array(self._free(), dtype=np.int64)
        out: dict[str, Any] = {c: list(v) for c, v in self.d.items()}
        for u in sort_cards(self.st.pool):
            if u in self.d or self.st.pool[u] == 0:
                continue
            x = self.rng.multivariate_hypergeometric(free, self.st.pool[u])
            out[u] = x.tolist()
            free = free - x
        return out
