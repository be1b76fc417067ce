"""Exact belief tracking for Literature from one player's view.

Semantics (``shared/spec/records.md``, "Belief semantics"): the consistent deals are the
assignments of every card the observer cannot locate to a seat such that replaying the
record is legal and every seat holds its public number of cards; all are equally likely.

Method (``shared/spec/belief-notes.md``): every card movement is public, so the only hidden
quantity is the dealt holder of each card nobody has located. Each public event becomes
facts about holders *at the time of the event*; a fact is turned into a fact about the
deal through the card's public movements (a card's holder at time ``t`` is its last
receiver before ``t``, else the giver of its first move after ``t``, else its dealt
holder). What remains are, per unknown card, the seats allowed to have been dealt it, and
per set "seat A was dealt at least one of these cards" clauses, with each seat's number of
unknown dealt cards (its capacity) as the only link between sets. The exact count is the
block product of :mod:`cardmind.belief.blocks` with one block per set; inside a set,
cards with the same allowed seats and the same clauses are interchangeable and counted by
multinomials.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import factorial
from typing import Any

from ..errors import Contradiction, IllegalAction
from ..games.literature import GAME as LITERATURE
from ..games.literature.rules import deal_sizes, deck_cards, set_cards, set_names, set_of, team_of
from .blocks import BlockProduct


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

    def signature(self, seats: tuple[int, ...]) -> tuple:
        """A hashable key of everything the set's polynomial depends on."""
        return (seats, tuple((c, tuple(sorted(self.allowed[c]))) for c in self.unknown),
                tuple(sorted((s, tuple(sorted(u))) for s, u in self.clauses)))


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
    ``acc[(class, seat)]``: the sum over those ways of the number of cards of the class at
    the seat (for card marginals).

    Attributes:
        classes: groups of interchangeable cards (same allowed seats and clauses).
        weights: ``{usage: w}``.
        acc: ``{usage: {(class index, seat index): count}}``.
    """

    classes: list[tuple[str, ...]]
    class_seats: list[tuple[int, ...]]
    weights: dict[tuple[int, ...], int]
    acc: dict[tuple[int, ...], dict[tuple[int, int], int]]


def set_polynomial(model: SetModel, seats: tuple[int, ...]) -> SetPolynomial:
    """Compute the :class:`SetPolynomial` of ``model`` over the active ``seats``."""
    index = {s: i for i, s in enumerate(seats)}
    k = len(seats)
    clauses = list(model.clauses)
    groups: dict[tuple, list[str]] = defaultdict(list)
    for c in model.unknown:
        member = tuple(c in u for _, u in clauses)
        groups[(tuple(sorted(index[s] for s in model.allowed[c])), member)].append(c)
    classes = []
    class_seats = []
    members = []
    for (allowed_idx, member), cards in groups.items():
        classes.append(tuple(cards))
        class_seats.append(allowed_idx)
        members.append(member)
    clause_seat = [index.get(s, -1) for s, _ in clauses]
    full_mask = (1 << len(clauses)) - 1
    # state: (usage, mask) -> [weight, acc dict]
    states: dict[tuple[tuple[int, ...], int], list] = {((0,) * k, 0): [1, {}]}
    for j, cards in enumerate(classes):
        m = len(cards)
        allowed_idx = class_seats[j]
        comps = _compositions(m, len(allowed_idx))
        nxt: dict[tuple[tuple[int, ...], int], list] = {}
        for (usage, mask), (w, acc) in states.items():
            for parts, mult in comps:
                u = list(usage)
                new_mask = mask
                for p, si in zip(parts, allowed_idx):
                    if p:
                        u[si] += p
                        for q, cs in enumerate(clause_seat):
                            if cs == si and members[j][q]:
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
    return SetPolynomial(classes, class_seats, weights, accs)


# ----------------------------------------------------------------------------- the tracker
class LiteratureBelief:
    """The exact constraint-only posterior of one observer in a Literature game.

    Build it from a player's record with :meth:`from_record`, or from the options and the
    observer's dealt hand and feed it events one by one with :meth:`observe`.

    Args:
        options: parsed Literature options (see ``LiteratureGame.parse_options``).
        observer: the observer's seat.
        hand: the observer's dealt cards.

    Raises:
        IllegalAction: (from :meth:`observe`) an event that breaks the rules given what
            the observer knows.
        Contradiction: (from the queries) no deal is consistent with the events.
    """

    def __init__(self, options: Mapping[str, Any], observer: int, hand: Iterable[str]):
        self.options = LITERATURE.parse_options(options)
        self.players = self.options["players"]
        self.deck = self.options["deck"]
        self.observer = observer
        self.hand = tuple(hand)
        header = {"observer": observer, "hand": list(self.hand)}
        self.state = LITERATURE.new_state(self.options, header)
        self.events: list[dict] = []
        self.facts: list[Fact] = []
        # card -> list of (t, giver, receiver)
        self.moves: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
        # claimed card -> (t, holder at t)
        self.shown: dict[str, tuple[int, int]] = {}
        self._solved: _Solution | None = None
        self._poly_cache: dict[tuple, SetPolynomial] = {}

    @classmethod
    def from_record(cls, record, seat: int | None = None, upto_event: int | None = None) -> "LiteratureBelief":
        """The tracker after the events of ``record`` (a :class:`~cardmind.records.Record`).

        Args:
            record: a player's record, or a complete record with ``seat`` given.
            seat: the observer for a complete record (defaults to the record's observer).
            upto_event: use only the first ``upto_event`` events.

        Raises:
            RecordError: an illegal event (``file:line``).
        """
        from ..records import RecordError  # noqa: PLC0415

        if seat is None:
            seat = record.observer
        if seat is None:
            raise ValueError("a complete record needs a seat to take the view of")
        hand = record.header["hand"] if record.observer == seat and "hand" in record.header \
            else record.header["hands"][seat]
        b = cls(record.options, seat, hand)
        for i, ev in enumerate(record.events[:upto_event]):
            try:
                b.observe(ev)
            except IllegalAction as exc:
                raise RecordError(record.path, record.line_of(i), f"illegal {ev['type']}: {exc.message} "
                                                                  f"(rule: {exc.rule})", exc.rule) from None
        return b

    # ------------------------------------------------------------------ events
    def observe(self, event: Mapping[str, Any]) -> None:
        """Add one public event (checked against the rules and the observer's hand)."""
        ev = dict(event)
        t = len(self.events)
        self.state.apply_event(ev)
        self.events.append(ev)
        self._solved = None
        kind = ev["type"]
        own = self.options["ask_own_card"]
        if kind == "ask":
            a, tg, c = ev["asker"], ev["target"], ev["card"]
            name = set_of(c, self.deck)
            if own:
                self.facts.append(Fact("some", a, set_cards(name), t, f"seat {a} asked for {c}"))
            else:
                self.facts.append(Fact("not", a, (c,), t, f"seat {a} asked for {c}"))
                self.facts.append(Fact("some", a, tuple(x for x in set_cards(name) if x != c), t,
                                       f"seat {a} asked for {c}"))
            if ev["success"]:
                self.facts.append(Fact("held", tg, (c,), t, f"seat {tg} handed over {c}"))
                self.moves[c].append((t, tg, a))
            else:
                self.facts.append(Fact("not", tg, (c,), t, f"seat {tg} did not have {c}"))
        elif kind == "claim":
            for c, s in ev["actual"].items():
                self.shown[c] = (t, s)
                self.facts.append(Fact("held", s, (c,), t, f"the claim of {ev['set']} showed {c} at seat {s}"))

    # ------------------------------------------------------------------ resolution
    def _dealt_known(self) -> dict[str, int]:
        """Cards whose dealt holder the observer knows, with that holder."""
        known: dict[str, int] = {c: self.observer for c in self.hand}
        for c, mv in self.moves.items():
            g = mv[0][1]
            if known.get(c, g) != g:
                raise Contradiction(f"{c} was handed over by seat {g} but was dealt to seat {known[c]}", mv[0][0])
            known[c] = g
        for c, (t, s) in self.shown.items():
            if c in self.moves:
                continue
            if known.get(c, s) != s:
                raise Contradiction(f"the claim showed {c} at seat {s}, but seat {known[c]} was dealt it", t)
            known[c] = s
        return known

    def _holder_at(self, card: str, t: int, known: Mapping[str, int]) -> int | None:
        """The holder of ``card`` just before event ``t``: known seat, or ``None`` if that is
        its (unknown) dealt holder."""
        last = None
        for (tm, g, r) in self.moves.get(card, ()):
            if tm < t:
                last = r
            else:
                break
        if last is not None:
            return last
        return known.get(card)

    def constraints(self) -> "_Constraints":
        """Resolve all facts into per-set constraints on the unknown dealt holders.

        Raises:
            Contradiction: a fact that no deal can satisfy (names the event).
        """
        known = self._dealt_known()
        in_play = [c for c in deck_cards(self.deck) if c not in self.shown]
        unknown = [c for c in in_play if c not in known]
        sizes = deal_sizes(self.players, self.deck)
        caps = list(sizes)
        for c, s in known.items():
            caps[s] -= 1
        for s in range(self.players):
            if caps[s] < 0:
                raise Contradiction(f"seat {s} would have been dealt more than {sizes[s]} cards")
        others = [s for s in range(self.players) if s != self.observer]
        allowed = {c: set(others) for c in unknown}
        clauses: list[tuple[int, frozenset[str], int, str]] = []
        for f in self.facts:
            if f.kind == "not":
                c = f.cards[0]
                h = self._holder_at(c, f.t, known)
                if h is None:
                    allowed[c].discard(f.seat)
                elif h == f.seat:
                    raise Contradiction(f"{f.why}, but seat {f.seat} held {c} then", f.t)
            elif f.kind == "held":
                c = f.cards[0]
                h = self._holder_at(c, f.t, known)
                if h is not None and h != f.seat:
                    raise Contradiction(f"{f.why}, but seat {h} held {c} then", f.t)
            else:
                u = []
                done = False
                for c in f.cards:
                    h = self._holder_at(c, f.t, known)
                    if h is None:
                        u.append(c)
                    elif h == f.seat:
                        done = True
                        break
                if done:
                    continue
                if not u:
                    raise Contradiction(f"{f.why}, but it held no card of {set_of(f.cards[0], self.deck)} then", f.t)
                clauses.append((f.seat, frozenset(u), f.t, f.why))
        # seats with no capacity can hold nothing unknown
        for c in unknown:
            allowed[c] = {s for s in allowed[c] if caps[s] > 0}
        return _Constraints(self, known, unknown, caps, allowed, clauses)

    # ------------------------------------------------------------------ queries
    def _solve(self) -> "_Solution":
        if self._solved is None:
            cons = self.constraints()
            self._solved = _Solution(self, cons)
        return self._solved

    @property
    def consistent_deals(self) -> int:
        """The exact number of consistent deals (a Python int, possibly above 2**64).

        Raises:
            Contradiction: when it is 0 (no deal fits the events).
        """
        return self._solve().total

    def marginals(self) -> dict[str, dict[int, float]]:
        """``{card: {seat: P(card is held by seat now)}}`` for every card in play (seats with
        probability 0 left out)."""
        return self._solve().marginals()

    def marginals_exact(self) -> dict[str, dict[int, Fraction]]:
        """As :meth:`marginals` but as exact fractions."""
        return self._solve().marginals(exact=True)

    def assignment_probability(self, set_name: str, assignment: Mapping[str, int], exact: bool = False):
        """P(every card of ``set_name`` is held now by the seat ``assignment`` names).

        Args:
            set_name: an unclaimed set.
            assignment: ``{card: seat}`` for its six cards.
            exact: return a :class:`~fractions.Fraction` instead of a float.
        Raises:
            KeyError: ``set_name`` is claimed or unknown, or ``assignment`` misses a card.
        """
        sol = self._solve()
        p = sol.assignment_count(set_name, assignment)
        return Fraction(p, sol.total) if exact else p / sol.total

    def team_holds_probability(self, set_name: str, team: int | None = None, exact: bool = False):
        """P(``team`` (default: the observer's) holds all six cards of ``set_name`` now)."""
        sol = self._solve()
        team = team_of(self.observer) if team is None else team
        n = sol.team_count(set_name, team)
        return Fraction(n, sol.total) if exact else n / sol.total

    def best_assignment(self, set_name: str, team: int | None = None):
        """The most probable assignment of ``set_name`` to seats of ``team`` (default: the
        observer's team).

        Returns:
            ``(assignment {card: seat}, probability, ties)`` where ``ties`` counts the
            assignments sharing that probability, or ``None`` when ``team`` cannot hold the set.
        """
        sol = self._solve()
        team = team_of(self.observer) if team is None else team
        return sol.best_assignment(set_name, team)

    def claims(self) -> dict[str, dict[str, Any]]:
        """For every unclaimed set: ``p_team_holds`` for the observer's team and, when above 0,
        ``best_assignment``, ``p_best`` and ``ties`` (as in ``shared/cases/README.md``)."""
        out = {}
        for name in self.state.unclaimed_sets():
            p = self.team_holds_probability(name)
            entry: dict[str, Any] = {"p_team_holds": p}
            if p > 0:
                a, pb, ties = self.best_assignment(name)
                entry.update(best_assignment=a, p_best=pb, ties=ties)
            out[name] = entry
        return out

    def to_json(self) -> dict[str, Any]:
        """The belief object of ``cardmind belief --json`` (``shared/cases/README.md``):
        ``consistent_deals``, ``marginals`` (seats as string keys), ``claims``."""
        marg = {c: {str(s): p for s, p in sorted(d.items())} for c, d in self.marginals().items()}
        return {"consistent_deals": self.consistent_deals, "marginals": marg, "claims": self.claims()}

    def unknown_cards(self) -> list[str]:
        """Cards in play whose holder the observer does not know for certain from the events
        alone (it may still be forced by counting; see :meth:`forced_cards`)."""
        return list(self._solve().cons.unknown)

    def forced_cards(self) -> dict[str, int]:
        """Cards whose holder is certain although no single event located them: ``{card: seat}``
        (found from the exact marginals; :mod:`cardmind.belief.cpsat` finds the same by search)."""
        sol = self._solve()
        out = {}
        for c, d in sol.marginals(exact=True).items():
            if c in sol.cons.unknown:
                for s, p in d.items():
                    if p == 1:
                        out[c] = s
        return out

    def current_holders(self) -> dict[str, int]:
        """Cards in play whose current holder the observer knows from the events: ``{card: seat}``."""
        return dict(self.state.holder)


# ----------------------------------------------------------------------------- internals
@dataclass
class _Constraints:
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


class _Solution:
    """The counted posterior for one set of constraints.

    Cards allowed at every active seat and named by no clause are *free*: they form one
    pool counted in closed form. The block product runs over the other (*special*) cards
    of each set; a query about a set uses the set's full polynomial (special and free
    cards) against the context of everything else.
    """

    def __init__(self, belief: LiteratureBelief, cons: _Constraints):
        self.belief = belief
        self.cons = cons
        self.seats = cons.seats
        self.models = cons.set_models()
        all_seats = frozenset(self.seats)
        self.special = []
        self.free_counts = []
        for m in self.models:
            in_clause = set().union(*(u for _, u in m.clauses)) if m.clauses else set()
            spec = tuple(c for c in m.unknown if c in in_clause or m.allowed[c] != all_seats)
            self.special.append(SetModel(m.name, spec, {c: m.allowed[c] for c in spec}, m.clauses))
            self.free_counts.append(len(m.unknown) - len(spec))
        caps = [cons.caps[s] for s in self.seats]
        if sum(caps) != len(cons.unknown):
            raise Contradiction("the hand sizes do not add up to the unknown cards")
        self.product = BlockProduct(caps, [self._poly(m).weights for m in self.special],
                                    pool=sum(self.free_counts))
        self.total = self.product.total
        if self.total == 0:
            raise Contradiction("no deal is consistent with the events")
        self.index = {m.name: i for i, m in enumerate(self.models)}
        self._contexts: dict[int, dict[tuple[int, ...], int]] = {}
        self._full: dict[int, SetPolynomial] = {}

    def _poly(self, model: SetModel) -> SetPolynomial:
        key = model.signature(self.seats)
        cache = self.belief._poly_cache
        poly = cache.get(key)
        if poly is None:
            poly = cache[key] = set_polynomial(model, self.seats)
        return poly

    def full_poly(self, i: int) -> SetPolynomial:
        poly = self._full.get(i)
        if poly is None:
            poly = self._full[i] = self._poly(self.models[i])
        return poly

    def context(self, i: int) -> dict[tuple[int, ...], int]:
        ctx = self._contexts.get(i)
        if ctx is None:
            ctx = self._contexts[i] = self.product.context(i, self.full_poly(i).weights.keys(),
                                                           removed=self.free_counts[i])
        return ctx

    def marginals(self, exact: bool = False) -> dict[str, dict[int, Any]]:
        b = self.belief
        out: dict[str, dict[int, Any]] = {}
        holders = b.state.holder
        num: dict[str, dict[int, int]] = {}
        for i in range(len(self.models)):
            poly = self.full_poly(i)
            ctx = self.context(i)
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
                for c in cards:
                    num[c] = {self.seats[si]: v for si, v in sums.items()}
                    # each card of the class carries 1/len(cards) of the class's count
                    num[c] = {s: (v, len(cards)) for s, v in num[c].items()}
        for c in b.state.cards_in_play():
            if c in holders:
                out[c] = {holders[c]: Fraction(1) if exact else 1.0}
            else:
                d = num.get(c, {})
                if exact:
                    out[c] = {s: Fraction(v, k * self.total) for s, (v, k) in sorted(d.items())}
                else:
                    out[c] = {s: v / (k * self.total) for s, (v, k) in sorted(d.items())}
        return out

    def _usage(self, set_name: str, assignment: Mapping[str, int]) -> tuple[int, ...] | None:
        """Usage vector of the unknown cards of ``set_name`` under ``assignment``, or ``None``
        if the assignment breaks a known holder, an allowed seat or a clause."""
        b = self.belief
        i = self.index[set_name]
        m = self.models[i]
        for c in set_cards(set_name):
            if c not in assignment:
                raise KeyError(f"the assignment misses {c}")
        holders = b.state.holder
        for c in set_cards(set_name):
            if c in holders and holders[c] != assignment[c]:
                return None
        usage = [0] * len(self.seats)
        pos = {s: k for k, s in enumerate(self.seats)}
        for c in m.unknown:
            s = assignment[c]
            if s not in m.allowed[c]:
                return None
            usage[pos[s]] += 1
        for s, cards in m.clauses:
            if not any(assignment[c] == s for c in cards):
                return None
        return tuple(usage)

    def assignment_count(self, set_name: str, assignment: Mapping[str, int]) -> int:
        usage = self._usage(set_name, assignment)
        if usage is None:
            return 0
        return self.context(self.index[set_name]).get(usage, 0)

    def team_count(self, set_name: str, team: int) -> int:
        b = self.belief
        i = self.index[set_name]
        holders = b.state.holder
        for c in set_cards(set_name):
            if c in holders and team_of(holders[c]) != team:
                return 0
        ok = [k for k, s in enumerate(self.seats) if team_of(s) == team]
        okset = set(ok)
        ctx = self.context(i)
        total = 0
        for usage, w in self.full_poly(i).weights.items():
            if all(u == 0 or k in okset for k, u in enumerate(usage)):
                total += w * ctx.get(usage, 0)
        return total

    def best_assignment(self, set_name: str, team: int):
        b = self.belief
        i = self.index[set_name]
        m = self.models[i]
        holders = b.state.holder
        fixed = {}
        for c in set_cards(set_name):
            if c in holders:
                if team_of(holders[c]) != team:
                    return None
                fixed[c] = holders[c]
        choices = [sorted(s for s in m.allowed[c] if team_of(s) == team) for c in m.unknown]
        best = 0
        best_a = None
        ties = 0
        ctx = self.context(i)
        pos = {s: k for k, s in enumerate(self.seats)}
        for combo in product(*choices):
            a = dict(zip(m.unknown, combo))
            if any(not any(a.get(c) == s for c in cards) for s, cards in m.clauses):
                continue
            usage = [0] * len(self.seats)
            for s in combo:
                usage[pos[s]] += 1
            g = ctx.get(tuple(usage), 0)
            if g > best:
                best, best_a, ties = g, a, 1
            elif g == best and g > 0:
                ties += 1
        if best == 0:
            return None
        full = {c: (fixed[c] if c in fixed else best_a[c]) for c in set_cards(set_name)}
        return full, best / self.total, ties
