"""The Hand and Foot belief tracker: what one player's view implies about the hidden cards.

**What is hidden.** From the observer O's view, in the hand under way, every card position O did
not see: each other player's dealt hand and each of its draws (and its foot once picked up),
the feet nobody has picked up (O's own included) and the rest of the stock. The discard pile,
the melds on the table and every card taken from the pile are public. Each hand is a new
shuffle: earlier hands say nothing about this one.

**The constraints.** A player X who lays or discards a card must hold it then: the copies of a
card ``c`` among X's hidden positions available at that moment (its dealt hand, its draws and
foot so far), plus the copies of ``c`` it took from the pile before, must cover every copy of
``c`` it has played so far. Nothing else hidden constrains a deal (the sizes are public; the
rules' other checks are public too). The cards are counted by **type** (token) with
multiplicities: five decks hold five copies of every token, and the copies are told apart only
to count deals (each copy a different card, as a shuffle makes them).

**Consistent deals** (``docs/handfoot.md``, "Belief"): the ways to place the unseen cards (every
copy a different card) into the hidden places: each other player's dealt hand, each of its
draws and its picked-up foot, each unpicked foot and the stock (as a set: its order is not
counted), such that every play was possible. All equally likely without a player model.

**Two engines.**

* ``exact``: the count as a :class:`~cardmind.belief.blocks.BlockProduct` whose seats are the
  hidden places (a player's positions cut where its plays constrain them, the unpicked feet
  and stock merged into one place split afterwards by sizes) and whose blocks are the card
  types some play constrains (each type's copies spread over the places, in every way the
  plays allow, weighted by ``copies! / prod(per place!)``); the other types form the pool,
  counted in closed form. Exact integers; used when the dynamic programme is small (early in
  a hand every type is in the pool and the answer is hypergeometric).
* ``sampled``: a Gibbs sampler over the constrained types (each step places one type's copies
  uniformly among the free positions that satisfy its constraints, given the others: exact
  conditional draws), with the pool integrated out analytically (Rao-Blackwellised marginals:
  given the constrained cards the pool fills the rest uniformly). Its standard errors come from
  batch means; ``stderr`` is the largest of them.

A **player model** (``model``, :meth:`~cardmind.games.handfoot.HandFootGame.player_models`)
weighs sampled worlds by how likely each player's observed choices were in them (see
:mod:`.models`), with the effective sample size and standard errors of
:func:`cardmind.belief.models.weighted_mean`.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate
from math import comb, factorial, lgamma
from typing import Any

import numpy as np

from ...belief.blocks import BlockProduct, multinomial
from ...belief.tracker import Tracker
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


# ----------------------------------------------------------------------------- the tracker
class HandFootBelief(Tracker):
    """The Hand and Foot tracker (see the module docstring).

    Args:
        options: parsed or raw options; ``observer``: the seat; ``hand``: its first dealt hand.
        engine: ``"auto"`` (exact when small, else sampled), ``"exact"`` or ``"sampled"``.
        samples: sampled answers: the number of Gibbs samples (each after ``thin`` sweeps,
            following ``burn`` sweeps).
        seed: seeds the sampler (answers are reproducible).
        model: the player model weighing the worlds: ``"auto"`` (the default: each other seat
            by the model that best explains its recent choices, :meth:`seat_models`),
            ``"uniform"`` (none, the constraint-only posterior) or ``"fitted"`` (the softmax
            model of :mod:`.models` for every seat).
        worlds: worlds drawn for the chances of the next turn and the model's weights.
        burn, thin: sampled answers: Gibbs sweeps before the first sample and between samples.
        model_turns, model_temperature: the model weighs each player's choices of its last
            ``model_turns`` turns, its log-likelihood times ``model_temperature``.

    Attributes:
        state: the observer's view (:class:`~.state.HandFootState`).
    """

    def __init__(self, options: Mapping[str, Any], observer: int, hand: Iterable[str], engine: str = "auto",
                 samples: int = DEFAULT_SAMPLES, seed: int = 0, model: str = "auto", worlds: int = DEFAULT_WORLDS,
                 burn: int = DEFAULT_BURN, thin: int = DEFAULT_THIN, model_turns: int = 2,
                 model_temperature: float = 0.5):
        from ...core import get_game  # noqa: PLC0415

        self.game = get_game("handfoot")
        self.options = self.game.parse_options(options)
        n = self.options["players"]
        if not 0 <= observer < n:
            raise ValueError(f"observer {observer} is not a seat (0-{n - 1})")
        if engine not in ("auto", "exact", "sampled"):
            raise ValueError(f"engine must be auto, exact or sampled, not {engine!r}")
        if model not in self.game.player_models():
            raise ValueError(f"no player model {model!r} (models: {', '.join(self.game.player_models())})")
        self.observer = observer
        self.hand = list(hand)
        self.state = self.game.new_state(self.options, {"observer": observer, "hand": self.hand})
        self.engine = engine
        self.samples = int(samples)
        self.seed = int(seed)
        self._cache: dict[str, Any] = {}
        self.model = model
        self.n_worlds = int(worlds)
        self.burn = int(burn)
        self.thin = int(thin)
        self.model_turns = int(model_turns)
        self.model_temperature = float(model_temperature)
        self._digest = hashlib.sha256(json.dumps([self.observer, sort_cards(self.hand)]).encode()).digest()
        #: the other players' observed choices in the hand under way (:class:`.models.Choice`)
        self.choices: list = []
        self._hand_start = 0

    @property
    def model(self) -> str:
        """The player model weighing the worlds (see the class docstring)."""
        return self._model

    @model.setter
    def model(self, name: str) -> None:
        """Set the model (the protocol's ``model`` parameter); answers computed so far are dropped."""
        self._model = name
        self._cache.clear()

    # ------------------------------------------------------------------ events
    def observe(self, event: Mapping[str, Any]) -> None:
        """Add one event as the observer saw it (rules checked by the view state), noting the
        choice it shows of another player (for the player models)."""
        st = self.state
        pending = self._choices_of(event) if event.get("type") in ("draw", "pickup", "discard") else []
        st.apply_event(dict(event))
        self._digest = hashlib.sha256(self._digest + json.dumps(event, sort_keys=True).encode()).digest()
        self.choices.extend(pending)
        if event.get("type") == "deal":
            self.choices = []
            self._hand_start = len(st.history)
        self._cache.clear()

    def _choices_of(self, event: Mapping[str, Any]) -> list:
        """The choices ``event`` (not yet applied) shows of another player."""
        from .models import choices_before  # noqa: PLC0415

        if event.get("player") == self.observer:
            return []
        return choices_before(self.state, event, len(self.state.history) - self._hand_start)

    def structure(self) -> Structure:
        """The hidden part of the hand under way (cached until the next event)."""
        if "st" not in self._cache:
            self._cache["st"] = structure_of(self.state, self.observer)
        return self._cache["st"]

    # ------------------------------------------------------------------ answers
    @property
    def mode(self) -> str:
        """``"exact"`` or ``"sampled"``: how the current answer is computed."""
        st = self.structure()
        if self.engine == "sampled":
            return "sampled"
        if self.engine == "exact":
            return "exact"
        return "exact" if ExactEngine(st).feasible_size() else "sampled"

    @property
    def exact(self) -> bool:
        """Whether the answer is exact."""
        return self.mode == "exact"

    def answer(self) -> Answer:
        """The posterior of the hand under way (cached).

        Raises:
            Contradiction: no deal is consistent with the events.
        """
        if "answer" in self._cache:
            return self._cache["answer"]
        st = self.structure()
        check_feasible(st)
        if self.weighted:
            ans = self._model_answer(st)
        elif self.mode == "exact":
            ans = ExactEngine(st).solve()
            ans.kinds = self._kinds_from_worlds(exact_tokens=ans.tokens)
        else:
            ans = self._sampled_answer(st)
        self._cache["answer"] = ans
        return ans

    def check_consistent(self) -> bool:
        """An exact, fast check that some deal fits the events (every player's needed copies fit
        its positions by their deadlines, no type needed beyond its unseen copies: see
        :func:`check_feasible`); what the engine protocol calls after every event.

        Returns:
            ``True``: consistency is always decided here.

        Raises:
            Contradiction: no deal is consistent with the events.
        """
        check_feasible(self.structure())
        return True

    @property
    def consistent_deals(self) -> int | None:
        """The number of consistent deals of the hand under way (exact engine), else ``None``
        after checking that some deal is consistent.

        Raises:
            Contradiction: no deal is consistent with the events.
        """
        return self.answer().count

    def rng(self, stream: int) -> np.random.Generator:
        """A random generator for one question about the position now: seeded by the tracker's
        ``seed``, a digest of every event so far (:attr:`position`) and ``stream`` (which
        question), so that every sampled answer is a function of the position alone: the same
        whatever was asked before, in ``cardmind hint`` or in the live advisor."""
        return np.random.default_rng([self.seed, self.position, stream])

    @property
    def position(self) -> int:
        """A 64-bit digest of the events observed so far, in order (SHA-256 of their JSON: the
        same under any ``PYTHONHASHSEED``)."""
        return int.from_bytes(self._digest[:8], "little")

    def chain(self, stream: int = 0) -> GibbsEngine:
        """A new Gibbs chain of the current structure after its burn-in, seeded for the position
        and ``stream`` (:meth:`rng`): never a chain shared with another question."""
        ch = GibbsEngine(self.structure(), self.rng(stream))
        for _ in range(self.burn if ch.constrained else 0):
            ch.sweep()
        return ch

    def _sampled_answer(self, st: Structure, with_tokens: bool = True) -> Answer:
        """The sampler's answer; without ``with_tokens`` only the expected cards by kind (cheap: the
        card marginals, which the advice does not need, are skipped)."""
        ch = self.chain(1)
        places = ch.places
        played = {ln.seat: ln.totals() for ln in st.lines}
        tokens_all = [c for c in sort_cards(st.pool) if st.pool[c] > 0]
        pool_tokens = [c for c in tokens_all if c not in ch.copies]
        names = [str(ln.seat) for ln in st.lines] + [_place_name(places.label[i]) for i in range(len(places.caps))
                                                     if places.owner[i] is None]
        sets = {str(ln.seat): places.seat_places[ln.seat] for ln in st.lines}
        for i in range(len(places.caps)):
            if places.owner[i] is None:
                sets[_place_name(places.label[i])] = [i]
        shift = {}
        for ln in st.lines:
            p, k = played[ln.seat]
            shift[str(ln.seat)] = {c: k[c] - p[c] for c in tokens_all}
        acc_tok = {nm: {c: np.zeros(st.pool[c] + 1) for c in tokens_all} for nm in names}
        kind_idx = {kd: i for i, kd in enumerate(KINDS)}
        pool_kind = np.zeros(len(KINDS))
        for c in pool_tokens:
            pool_kind[kind_idx[kind_of(c)]] += st.pool[c]
        kind_samples: list[np.ndarray] = []     # per sample: places x kinds, expected counts
        batches = []
        n = max(1, self.samples)
        for i in range(n):
            for _ in range(self.thin if ch.constrained else 0):
                ch.sweep()
            free = ch._free()
            R_tot = sum(free)
            sample_tok = {}
            kind_samples.append(self._place_kinds(ch, free, R_tot, pool_kind))
            for nm in (names if with_tokens else ()):
                pls = sets[nm]
                R_A = sum(free[i] for i in pls)
                for c in tokens_all:
                    if c in ch.d:
                        pmf = np.zeros(st.pool[c] + 1)
                        dc = ch.d[c]
                        pmf[sum(dc[i] for i in pls)] = 1.0
                    else:
                        pmf = _hyper_cached(R_tot, R_A, st.pool[c])
                    acc_tok[nm][c] += pmf
                    sample_tok[(nm, c)] = pmf
            batches.append(sample_tok)
            if not ch.constrained:
                n = 1
                break
        tokens = {}
        se_max = 0.0
        for nm in names:
            tokens[nm] = {}
            for c in tokens_all:
                pmf = acc_tok[nm][c] / len(batches)
                off = shift.get(nm, {}).get(c, 0)
                tokens[nm][c] = {k + off: float(v) for k, v in enumerate(pmf) if v > 1e-15}
        if len(batches) >= 10 and with_tokens:
            nb = 10
            size = len(batches) // nb
            for nm in names:
                for c in tokens_all:
                    means = np.array([sum(batches[b * size + j][(nm, c)] for j in range(size)) / size for b in range(nb)])
                    se = means.std(axis=0, ddof=1) / np.sqrt(nb)
                    se_max = max(se_max, float(se.max()))
        ans = Answer(False, None, tokens, {}, se_max if ch.constrained else 0.0, len(batches))
        # expected cards by kind per place: the positions no play constrains are exchangeable
        # (every card type alike), so each such place holds its share of their total
        P = len(places.caps)
        unc = [i for i in range(P) if all(i in ch.plan[c][1] for c in ch.constrained)]
        caps = np.array(places.caps, dtype=float)
        agg = np.zeros((len(names), P))
        for a, nm in enumerate(names):
            agg[a, sets[nm]] = 1.0
        shift_k = np.zeros((len(names), len(KINDS)))
        for a, nm in enumerate(names):
            for c, x in shift.get(nm, {}).items():
                shift_k[a, kind_idx[kind_of(c)]] += x

        def by_name(per_place: np.ndarray) -> np.ndarray:
            x = per_place.copy()
            if len(unc) > 1 and caps[unc].sum():
                x[unc] = np.outer(caps[unc] / caps[unc].sum(), x[unc].sum(axis=0))
            return agg @ x + shift_k

        ks = np.array(kind_samples)
        mean = by_name(ks.mean(axis=0))
        ans.kind_mean = {nm: {kd: float(mean[a, i]) for kd, i in kind_idx.items()} for a, nm in enumerate(names)}
        if len(kind_samples) >= 10:
            nb = 10
            size = len(kind_samples) // nb
            bm = np.array([by_name(ks[b * size:(b + 1) * size].mean(axis=0)) for b in range(nb)])
            kse = bm.std(axis=0, ddof=1) / np.sqrt(nb)
            ans.kind_se = {nm: {kd: float(kse[a, i]) for kd, i in kind_idx.items()} for a, nm in enumerate(names)}
        elif not ch.constrained:
            ans.kind_se = {nm: {kd: 0.0 for kd in KINDS} for nm in names}
        ans.kinds = self._kinds_from_worlds() if with_tokens else {}
        return ans

    @staticmethod
    def _place_kinds(ch: GibbsEngine, free: list[int], total: int, pool_kind: np.ndarray) -> np.ndarray:
        """Expected cards of each kind in every place of ``ch``'s state (places x kinds): the
        constrained types where the chain put them, the pool's spread over the room left
        (``free`` per place, ``total`` in all; ``pool_kind`` its cards per kind)."""
        P = len(free)
        out = np.outer(np.array(free, dtype=float) / max(total, 1), pool_kind)
        for c, d in ch.d.items():
            k = KINDS.index(kind_of(c))
            for i in range(P):
                if d[i]:
                    out[i, k] += d[i]
        return out

    # ------------------------------------------------------------------ player models
    def zone_at(self, world: dict[str, Any], seat: int, time: int) -> Counter:
        """``seat``'s cards in ``world`` just before the event at ``time`` (of the hand)."""
        st = self.structure()
        line = next(ln for ln in st.lines if ln.seat == seat)
        z = Counter()
        for (t, _, _), cnt in zip(line.groups, world["groups"][seat]):
            if t < time:
                z.update(cnt)
        for t, cnt in line.pickups:
            if t < time:
                z.update(cnt)
        for t, cnt in line.plays:
            if t < time:
                z.subtract(cnt)
        return +z

    def recent_choices(self) -> list:
        """The choices the player model weighs: each other player's choices of its last
        ``model_turns`` turns (older choices, weighed too, make the importance weights collapse
        onto a few worlds: see docs/handfoot.md, "Player models")."""
        by: dict[int, list] = {}
        for ch in self.choices:
            by.setdefault(ch.seat, []).append(ch)
        keep = []
        for lst in by.values():
            times = sorted({c.time for c in lst})[-2 * self.model_turns:]
            keep += [c for c in lst if c.time in times]
        return keep

    def log_weights(self, worlds: list[dict[str, Any]], model: str | None = None) -> np.ndarray:
        """The log-likelihood of the other players' recent choices (:meth:`recent_choices`) in
        each world under the player model ``model`` (default the tracker's), times
        ``model_temperature``. Under ``auto`` each seat's choices count under the model
        :meth:`seat_models` gives it, a seat weighed as ``uniform`` not at all."""
        from .models import load, log_likelihood  # noqa: PLC0415

        name = model or self.model
        chosen = self.recent_choices()
        if name == "auto":
            per = self.seat_models()
            chosen = [ch for ch in chosen if per.get(ch.seat) == "fitted"]
            name = "fitted"
        if name == "uniform" or not chosen:
            return np.zeros(len(worlds))
        if worlds is self.worlds() and name in ("fitted", "random"):
            # the per-seat log-likelihoods over the tracker's own worlds are computed once
            seats = {ch.seat for ch in chosen}
            ll = self._seat_ll()
            return sum((ll[s][name] for s in seats), np.zeros(len(worlds))) * self.model_temperature
        m = load(name)
        out = np.zeros(len(worlds))
        for i, w in enumerate(worlds):
            out[i] = log_likelihood(m, chosen, lambda ch, w=w: self.zone_at(w, ch.seat, ch.time))
        return out * self.model_temperature

    def seat_models(self) -> dict[int, str]:
        """The model weighing each other seat (``{seat: "uniform" or "fitted"}``): the tracker's
        ``model`` for every seat, or under ``auto`` per seat the choice model of
        :data:`~.models.AUTO_CANDIDATES` under which its recent choices (:meth:`recent_choices`)
        are likeliest, their likelihood averaged over the constraint-only worlds (a marginal
        likelihood): ``fitted``, or ``random`` (every option alike), which weighs the seat as
        ``uniform`` does; a seat with no choice yet, or a tie, is ``uniform``. Cached until the
        next event."""
        if "seat_models" in self._cache:
            return self._cache["seat_models"]
        others = [s for s in range(self.state.players) if s != self.observer]
        fit: dict[int, dict[str, float]] = {}
        if self.model == "auto" and (self.state.phase == "over" or self.structure().hand_over):
            out = {s: "uniform" for s in others}       # between hands nothing is hidden
        elif self.model != "auto":
            out = {s: self.model for s in others}
        else:
            from .models import AUTO_CANDIDATES  # noqa: PLC0415

            lls = self._seat_ll()
            out = {}
            for s in others:
                if s not in lls:
                    out[s] = "uniform"
                    continue
                fit[s] = {}
                for name in AUTO_CANDIDATES:
                    ll = lls[s][name]
                    top = float(ll.max()) if len(ll) else 0.0
                    fit[s][name] = (top + float(np.log(np.mean(np.exp(ll - top))))) if np.isfinite(top) else top
                out[s] = "fitted" if fit[s]["fitted"] > fit[s]["random"] + 1e-9 else "uniform"
        self._cache["seat_models"] = out
        self._cache["seat_fit"] = fit
        return out

    def _seat_ll(self) -> dict[int, dict[str, np.ndarray]]:
        """Per other seat with recent choices, per model of :data:`~.models.AUTO_CANDIDATES`,
        the log-likelihood of its recent choices in each of :meth:`worlds` (untempered; cached
        until the next event)."""
        if "seat_ll" in self._cache:
            return self._cache["seat_ll"]
        from .models import AUTO_CANDIDATES, load, log_likelihood  # noqa: PLC0415

        by: dict[int, list] = {}
        for ch in self.recent_choices():
            by.setdefault(ch.seat, []).append(ch)
        ws = self.worlds() if by else []
        out: dict[int, dict[str, np.ndarray]] = {}
        for s, chs in sorted(by.items()):
            out[s] = {name: np.array([log_likelihood(load(name), chs, lambda ch, w=w: self.zone_at(w, ch.seat, ch.time))
                                      for w in ws]) for name in AUTO_CANDIDATES}
        self._cache["seat_ll"] = out
        return out

    def rollout_policies(self) -> dict[int, str]:
        """The policy each other seat's next turn is played by in the chances of what it *will*
        do (:func:`~.decide.next_turn_chances`): ``"random"`` for a seat whose recent choices
        the ``random`` model explains better than the fitted one (:meth:`seat_fit`, under
        ``auto``); otherwise ``"mixed"``: the worlds played alternately by ``peer`` and by
        ``belief`` (its timing decisions on fewer worlds of its own:
        :data:`~.decide.BELIEF_PROXY`), the two kinds of play the fitted model was fitted on.
        The ``uniform`` and ``fitted`` models read no policy from the play: ``"mixed"`` for
        every seat."""
        from .decide import MIXED  # noqa: PLC0415

        others = [s for s in range(self.state.players) if s != self.observer]
        fit = self.seat_fit() if self.model == "auto" else {}
        return {s: ("random" if s in fit and fit[s]["random"] > fit[s]["fitted"] + 1e-9 else MIXED) for s in others}

    def next_turn(self, worlds: int | None = None) -> dict[int, Any]:
        """Per other seat its :class:`~.decide.Chances` of what it will do within its next
        turn (opens, reaches its foot, goes out) over :meth:`model_worlds`, its turn played in
        each world by :meth:`rollout_policies` (with a generator seeded for the position and
        seat, so the same position gives the same chances; cached until the next event)."""
        from .decide import next_turn_chances  # noqa: PLC0415

        key = ("next_turn", worlds)
        if key in self._cache:
            return self._cache[key]
        ws = self.model_worlds(worlds)
        pol = self.rollout_policies()
        out = {s: next_turn_chances(self.state, s, ws, self.rng(11 + s), p) for s, p in sorted(pol.items())}
        self._cache[key] = out
        return out

    def seat_fit(self) -> dict[int, dict[str, float]]:
        """Under ``auto``: per seat with choices, the log marginal likelihood of its recent
        choices under each candidate model (:meth:`seat_models`); empty otherwise."""
        self.seat_models()
        return self._cache["seat_fit"]

    @property
    def weighted(self) -> bool:
        """Whether a player model weighs the worlds now (``fitted``, or ``auto`` with some seat
        weighed as ``fitted``); otherwise the answer is the constraint-only posterior."""
        if self.model == "uniform":
            return False
        return "fitted" in self.seat_models().values()

    def model_worlds(self, n: int | None = None) -> list[dict[str, Any]]:
        """The worlds the chances are counted over: :meth:`worlds`, resampled by the player
        model's importance weights when one weighs them (:attr:`weighted`; systematic
        resampling with a generator seeded for the position, so the same position gives the
        same worlds)."""
        ws = self.worlds(n)
        if not self.weighted or not ws:
            return ws
        key = ("model_worlds", len(ws))
        if key in self._cache:
            return self._cache[key]
        from ...belief.models import importance_weights  # noqa: PLC0415

        w = (self._weights() if ws is self.worlds() else importance_weights(self.log_weights(ws))).w
        u = (self.rng(4).random() + np.arange(len(ws))) / len(ws)
        idx = np.minimum(np.searchsorted(np.cumsum(w), u), len(ws) - 1)
        out = [ws[int(i)] for i in idx]
        self._cache[key] = out
        return out

    def model_ess(self) -> float | None:
        """The effective sample size of the weighted worlds (``None`` when none weighs them)."""
        if not self.weighted:
            return None
        return float(self._weights().ess)

    def _weights(self):
        """The importance weights of :meth:`worlds` under the model (cached until the next event)."""
        if "weights" not in self._cache:
            from ...belief.models import importance_weights  # noqa: PLC0415

            self._cache["weights"] = importance_weights(self.log_weights(self.worlds()))
        return self._cache["weights"]

    def _model_answer(self, st: Structure) -> Answer:
        """Token marginals weighted by the player model (importance weights over the worlds)."""

        ws = self.worlds()
        wt = self._weights()
        tokens_all = [c for c in sort_cards(st.pool) if st.pool[c] > 0]
        places: dict[str, list[Counter]] = {}
        for w in ws:
            for s, z in w["zones"].items():
                places.setdefault(str(s), []).append(z)
            for s, f in w["feet"].items():
                places.setdefault(f"foot {s}", []).append(f)
            places.setdefault("stock", []).append(w["stock"])
        tokens: dict[str, dict[str, dict[int, float]]] = {}
        se_max = 0.0
        for nm, cnts in places.items():
            tokens[nm] = {}
            for c in tokens_all:
                vals = np.array([cn.get(c, 0) for cn in cnts])
                pmf = {}
                for k in np.unique(vals):
                    ind = (vals == k).astype(float)
                    p = float(ind @ wt.w)
                    se = float(np.sqrt(((wt.w * (ind - p)) ** 2).sum()))
                    se_max = max(se_max, se)
                    pmf[int(k)] = p
                tokens[nm][c] = pmf
        ans = Answer(False, None, tokens, {}, se_max, len(ws))
        ans.ess = wt.ess
        kinds: dict[str, dict[str, dict[int, float]]] = {}
        for w_i, w in zip(wt.w, ws):
            pl = {str(s): z for s, z in w["zones"].items()}
            pl.update({f"foot {s}": f for s, f in w["feet"].items()})
            pl["stock"] = w["stock"]
            for nm, cnt in pl.items():
                per = Counter()
                for c, k in cnt.items():
                    per[kind_of(c)] += k
                d = kinds.setdefault(nm, {})
                for kd in KINDS:
                    dk = d.setdefault(kd, {})
                    dk[per[kd]] = dk.get(per[kd], 0) + float(w_i)
        ans.kinds = kinds
        self._model_kinds(ans, ws, wt.w)
        return ans

    def _model_kinds(self, ans: Answer, ws: list[dict[str, Any]], w: np.ndarray) -> None:
        """Expected cards of each kind per place under the player model's weights ``w`` over the
        worlds ``ws`` (``ans.kind_mean``, ``ans.kind_se``: the weighted mean and its standard
        error, :func:`cardmind.belief.models.weighted_mean`). The positions no play constrains
        and no weighed choice reads (the unpicked feet, the stock, the hidden groups of a seat
        the model does not weigh, after its last play) are exchangeable under the weights too,
        so they share their total by their sizes."""
        st = self.structure()
        per_seat = self.seat_models()
        weighed = {s for s, m in per_seat.items() if m == "fitted"}
        cols: list[tuple[str, int | None, int | None]] = []   # (name, seat, group) per place
        caps: list[int] = []
        unc: list[int] = []
        for ln in st.lines:
            deepest = max((p for lst in ln.needs().values() for p, _ in lst), default=0)
            for gi, g in enumerate(ln.groups):
                if ln.seat not in weighed and gi >= deepest:
                    unc.append(len(cols))
                cols.append((str(ln.seat), ln.seat, gi))
                caps.append(g[1])
        for name, seat, size in st.free:
            unc.append(len(cols))
            cols.append((_place_name((name, seat)), None, None))
            caps.append(size)
        names = list(dict.fromkeys(c[0] for c in cols))
        agg = np.zeros((len(names), len(cols)))
        for j, (nm, _, _) in enumerate(cols):
            agg[names.index(nm), j] = 1.0
        kidx = {kd: i for i, kd in enumerate(KINDS)}
        shift = np.zeros((len(names), len(KINDS)))
        for ln in st.lines:
            p, k = ln.totals()
            for c in set(p) | set(k):
                shift[names.index(str(ln.seat)), kidx[kind_of(c)]] += k[c] - p[c]
        capv = np.array(caps, dtype=float)
        ys = []
        for wd in ws:
            x = np.zeros((len(cols), len(KINDS)))
            for j, (nm, seat, gi) in enumerate(cols):
                if seat is not None:
                    cnt = wd["groups"][seat][gi]
                elif nm == "stock":
                    cnt = wd["stock"]
                else:
                    cnt = wd["feet"].get(int(nm[5:]), Counter())
                for c, k in cnt.items():
                    x[j, kidx[kind_of(c)]] += k
            if len(unc) > 1 and capv[unc].sum():
                x[unc] = np.outer(capv[unc] / capv[unc].sum(), x[unc].sum(axis=0))
            ys.append(agg @ x + shift)
        y = np.array(ys)
        mean = np.tensordot(w, y, axes=1)
        se = np.sqrt(((w[:, None, None] * (y - mean)) ** 2).sum(axis=0))
        ans.kind_mean = {nm: {kd: float(mean[a, i]) for kd, i in kidx.items()} for a, nm in enumerate(names)}
        ans.kind_se = {nm: {kd: float(se[a, i]) for kd, i in kidx.items()} for a, nm in enumerate(names)}

    # ------------------------------------------------------------------ kinds
    def kind_means(self) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]] | None]:
        """Expected cards of each kind (:data:`KINDS`) in every hidden place now, and their
        standard errors.

        The expectations are sums of the token marginals of :meth:`answer` (linearity of
        expectation), so they are exact when the answer is: early in a hand, where the exact
        engine answers, they are the hypergeometric values (symmetric places equal). A sampled
        answer gives Rao-Blackwellised means with batch-means standard errors, the places no play
        constrains (the unpicked feet, the stock, a player that has not played yet) sharing their
        total by their sizes: they are exchangeable, so they are always equal. A player model
        gives its importance-weighted means with their standard errors, the unpicked feet and the
        stock sharing their total.

        Returns:
            ``(means, se)``: ``{place: {kind: expected cards}}`` with places named as in
            :attr:`Answer.tokens` (``"2"`` another seat's holding now, ``"foot 0"``,
            ``"stock"``), and the same shape of standard errors, or ``None`` when exact.

        Raises:
            Contradiction: no deal is consistent with the events.
        """
        if "answer" in self._cache or self.mode == "exact" and not self.weighted:
            ans = self.answer()
        elif "kinds_answer" in self._cache:
            ans = self._cache["kinds_answer"]
        else:
            st = self.structure()
            check_feasible(st)
            if self.weighted:
                ans = Answer(False, None, {}, {})
                self._model_kinds(ans, self.worlds(), self._weights().w)
            else:
                ans = self._sampled_answer(st, with_tokens=False)
            self._cache["kinds_answer"] = ans
        if ans.kind_mean is not None:
            return ({pl: dict(per) for pl, per in ans.kind_mean.items()},
                    {pl: dict(per) for pl, per in (ans.kind_se or {}).items()})
        means = {pl: {kd: 0.0 for kd in KINDS} for pl in ans.tokens}
        free_se = (ans.kind_se or {}).get(FREE)
        for pl, per in ans.tokens.items():
            for c, pmf in per.items():
                means[pl][kind_of(c)] += float(sum(k * p for k, p in pmf.items()))
        if ans.exact:
            return means, None
        se = {pl: dict((ans.kind_se or {}).get(pl) or {kd: 0.0 for kd in KINDS}) for pl in means}
        # the free places (unpicked feet and the stock) are exchangeable, card by card: no play
        # constrains them and no player model weighs them, so each holds its share of their total
        free = {_place_name((name, seat)): size for name, seat, size in self.structure().free}
        free = {pl: size for pl, size in free.items() if pl in means}
        total = sum(free.values())
        if len(free) > 1 and total:
            for kd in KINDS:
                m = sum(means[pl][kd] for pl in free)
                # the total's own standard error (else at most the errors of its parts added)
                e = free_se[kd] if free_se else sum(se[pl][kd] for pl in free)
                for pl, size in free.items():
                    means[pl][kd] = m * size / total
                    se[pl][kd] = e * size / total
        return means, se

    # ------------------------------------------------------------------ worlds
    def worlds(self, n: int | None = None) -> list[dict[str, Any]]:
        """``n`` sampled worlds (default ``worlds``) of the hand under way: each
        ``{"zones": {seat: Counter}, "feet": {seat: Counter}, "stock": Counter, "groups": {seat:
        [Counter per group]}}`` (the other players' holdings now, the unpicked feet, the
        stock's cards, and what each hidden group of a player held). Exact engine: independent
        draws from the exact posterior; sampled: Gibbs samples (one sweep apart)."""
        n = self.n_worlds if n is None else n
        key = ("worlds", n)
        if key in self._cache:
            return self._cache[key]
        st = self.structure()
        check_feasible(st)
        ch = self.chain(2)
        out = []
        for _ in range(n):
            if ch.constrained:
                ch.sweep()
            full = ch.pool_sample()
            out.append(self._world_of(ch, full))
        self._cache[key] = out
        return out

    def _world_of(self, ch: GibbsEngine, full: dict[str, np.ndarray]) -> dict[str, Any]:
        st = self.structure()
        places = ch.places
        zones, feet, groups = {}, {}, {}
        stock = Counter()
        for ln in st.lines:
            p, k = ln.totals()
            g = []
            tot = Counter()
            for pl in places.seat_places[ln.seat]:
                cnt = Counter({c: int(v[pl]) for c, v in full.items() if v[pl]})
                g.append(cnt)
                tot.update(cnt)
            tot.update(k)
            tot.subtract(p)
            zones[ln.seat] = Counter({c: x for c, x in tot.items() if x > 0})
            groups[ln.seat] = g
        for i, lab in enumerate(places.label):
            if places.owner[i] is None:
                cnt = Counter({c: int(v[i]) for c, v in full.items() if v[i]})
                if lab[0] == "stock":
                    stock = cnt
                else:
                    feet[lab[1]] = cnt
        return {"zones": zones, "feet": feet, "stock": stock, "groups": groups}

    def _kinds_from_worlds(self, exact_tokens=None) -> dict[str, dict[str, dict[int, float]]]:
        """``{place: {kind: {count: probability}}}`` estimated from :meth:`worlds` (kinds sum
        several card types, whose joint the token marginals do not give)."""
        self.structure()    # raises Contradiction when no deal fits
        ws = self.worlds()
        out: dict[str, dict[str, dict[int, float]]] = {}
        for w in ws:
            places = {str(s): z for s, z in w["zones"].items()}
            places.update({f"foot {s}": f for s, f in w["feet"].items()})
            places["stock"] = w["stock"]
            for nm, cnt in places.items():
                per = Counter()
                for c, k in cnt.items():
                    per[kind_of(c)] += k
                d = out.setdefault(nm, {})
                for kd in KINDS:
                    dk = d.setdefault(kd, {})
                    dk[per[kd]] = dk.get(per[kd], 0) + 1.0 / len(ws)
        return out

    # ------------------------------------------------------------------ output
    def to_json(self) -> dict[str, Any]:
        """The belief object of ``cardmind belief --json`` (``docs/handfoot.md``, "Belief")."""
        ans = self.answer()
        st = self.state

        def num(v):
            return float(v)

        tokens = {pl: {c: {str(k): num(p) for k, p in sorted(d.items())} for c, d in per.items()}
                  for pl, per in ans.tokens.items()}
        expected = {pl: {c: num(sum(k * p for k, p in d.items())) for c, d in per.items()}
                    for pl, per in ans.tokens.items()}
        kinds = {pl: {kd: {str(k): round(p, 6) for k, p in sorted(d.items())} for kd, d in per.items()}
                 for pl, per in ans.kinds.items()}
        out = {
            "hand": st.hand_no, "observer": self.observer, "mode": self.mode, "exact": ans.exact,
            "model": self.model,
            "seat_models": {str(k): v for k, v in sorted(self.seat_models().items())},
            "consistent_deals": ans.count,
            "pile": list(st.pile),
            "known": {str(s): sort_cards(st.known[s].elements()) for s in range(st.players)
                      if s != self.observer and st.known[s]},
            "sizes": {str(s): st.sizes[s] for s in range(st.players)},
            "holdings": tokens, "expected": expected, "kinds": kinds,
        }
        if not st.forced and st.phase != "over":
            from .decide import red_three_risk  # noqa: PLC0415

            ws = self.model_worlds()
            ess = self.model_ess()
            n = max(1.0, min(len(ws), ess) if ess else len(ws))

            def se(p: float) -> float:
                return float(np.sqrt(max(p * (1 - p), 0.0) / n))

            # what each will do within its next turn: its turn played in every world by its policy
            out["next_turn"] = {str(s): c.to_json() for s, c in self.next_turn().items()}
            out["next_turn_policy"] = {str(s): p for s, p in sorted(self.rollout_policies().items())}
            # the chances are sampled over the worlds: their binomial standard errors
            out["next_turn_se"] = {s: {k: se(p) for k, p in c.items()} for s, c in out["next_turn"].items()}
            out["worlds"] = len(ws)
            partner = st.partner[self.observer]
            if partner is not None:
                out["partner_red_three"] = red_three_risk(st, partner, ws)
                out["partner_red_three_se"] = se(out["partner_red_three"])
        if not st.forced or st.forced[0]["type"] not in ("hand_end", "deal"):
            means, kse = self.kind_means()
            out["expected_kinds"] = {pl: {kd: round(v, 6) for kd, v in per.items()} for pl, per in means.items()}
            out["expected_kinds_se"] = (None if kse is None else
                                        {pl: {kd: round(v, 6) for kd, v in per.items()} for pl, per in kse.items()
                                         if pl != FREE})
        # "kinds" (the distribution of each kind's count) is estimated from the sampled worlds
        out["kinds_sampled"] = True
        if not ans.exact:
            out["stderr"] = ans.stderr
            out["samples"] = ans.samples
        if getattr(ans, "ess", None) is not None:
            out["ess"] = ans.ess
        return out


__all__ = ["HandFootBelief", "Structure", "SeatLine", "structure_of", "check_feasible", "ExactEngine",
           "GibbsEngine", "Answer", "kind_of", "KINDS"]
