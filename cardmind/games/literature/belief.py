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
from fractions import Fraction
from typing import Any

from ...belief.tracker import Tracker
from ...errors import Contradiction
from ...core import get_game
from .counting import Constraints, Fact, Solution, card_set_index
from .models import AUTO, AskLedger, AutoChoice, Holdings, load_player_model, model_factors
from .rules import deal_sizes, deck_cards, set_cards, set_names, set_of, team_of
import numpy as np



# ----------------------------------------------------------------------------- the tracker
class LiteratureBelief(Tracker):
    """The exact posterior of one observer in a Literature game.

    Build it from a player's record with :meth:`from_record`, or from the options and the
    observer's dealt hand and feed it events one by one with :meth:`observe`.

    By default (``model="auto"``) each other team is weighed by the fitted player model that
    best explains its asks so far (:class:`.models.AutoChoice`); ``model="uniform"`` gives the
    constraint-only posterior (every consistent deal alike). With a player model every query answers for the deals
    weighted by the likelihood of the other players' asks, computed exactly by the counter
    with the model's factored likelihood (:func:`.models.model_factors`); certainty (a
    probability of exactly 0 or 1) is the same as under the constraint-only posterior,
    since every consistent deal keeps a positive weight. :meth:`importance_posterior`
    gives the same posterior under the model's exact (unfactored) likelihood by importance
    weighting of the exact uniform sampler's deals.

    Args:
        options: parsed Literature options (see ``LiteratureGame.parse_options``).
        observer: the observer's seat.
        hand: the observer's dealt cards.
        engine: the counting engine (``"auto"``, ``"c"`` or ``"python"``: see
            :class:`~cardmind.belief.blocks.BlockProduct`).
        model: the player model of the other seats: ``"auto"`` (the default: each team is
            weighed by the fitted model that best explains its asks so far,
            :class:`.models.AutoChoice`), ``"uniform"`` (the constraint-only posterior) or a
            fitted model of :data:`.models.MODEL_NAMES`.
        seat_models: ``{seat: model name}`` for seats whose model differs from ``model``
            (``"auto"`` allowed; the observer's own seat is never weighed: its hand is known).

    Raises:
        ValueError: an unknown model name or seat.
        IllegalAction: (from :meth:`observe`) an event that breaks the rules given what
            the observer knows.
        Contradiction: (from the queries) no deal is consistent with the events.
    """

    #: every answer is exact: the consistent deals are counted (weighted by a factored player
    #: model when one is chosen), never sampled (so a sampling precision, ``--precision``, has
    #: nothing to act on)
    exact = True

    def __init__(self, options: Mapping[str, Any], observer: int, hand: Iterable[str], engine: str = "auto",
                 model: str = AUTO, seat_models: Mapping[int, str] | None = None):
        self.engine = engine
        self.options = get_game("literature").parse_options(options)
        self.players = self.options["players"]
        self.deck = self.options["deck"]
        self.observer = observer
        self.hand = tuple(hand)
        header = {"observer": observer, "hand": list(self.hand)}
        self.state = get_game("literature").new_state(self.options, header)
        self.events: list[dict] = []
        self.facts: list[Fact] = []
        # card -> list of (t, giver, receiver)
        self.moves: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
        # claimed card -> (t, holder at t)
        self.shown: dict[str, tuple[int, int]] = {}
        self._solved: Solution | None = None
        self._uniform: Solution | None = None
        self.ledger = AskLedger(self.options)
        self._auto = AutoChoice(self.players, observer)
        self._model = "uniform"
        self._seat_models: dict[int, str] = {}
        self.set_models(model, seat_models)

    # ------------------------------------------------------------------ player models
    @property
    def model(self) -> str:
        """The player model of the other seats as chosen (``"auto"``, ``"uniform"``: the
        constraint-only posterior, or a fitted model); settable (a name of
        :data:`.models.MODEL_CHOICES`). :attr:`seat_models` says which model each seat gets."""
        return self._model

    @model.setter
    def model(self, name: str) -> None:
        self.set_models(name, self._seat_models)

    @property
    def chosen_models(self) -> dict[int, str]:
        """``{seat: model name as chosen}`` for every seat other than the observer (``"auto"``
        where the model is read from the play)."""
        return {s: self._seat_models.get(s, self._model) for s in range(self.players) if s != self.observer}

    @property
    def seat_models(self) -> dict[int, str]:
        """``{seat: model name}`` for every seat other than the observer, ``"auto"`` resolved to
        the fitted model that best explains its team's asks so far (:class:`.models.AutoChoice`)."""
        chosen = self.chosen_models
        if AUTO in chosen.values():
            self._auto.update(self.ledger.situations)
        return {s: (self._auto.choice(team_of(s)) if m == AUTO else m) for s, m in chosen.items()}

    def set_models(self, model: str, seat_models: Mapping[int, str] | None = None) -> None:
        """Choose the player models (see the class docstring).

        Raises:
            ValueError: an unknown model name or seat.
        """
        names = [model, *(seat_models or {}).values()]
        for name in names:
            if name != AUTO:
                load_player_model(name)   # raises ValueError naming the models there are
        for seat in (seat_models or {}):
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
                raise ValueError(f"seat_models: {seat!r} is not a seat (0-{self.players - 1})")
        self._model = model
        self._seat_models = {int(s): m for s, m in (seat_models or {}).items()}
        self._solved = None

    @property
    def weighted(self) -> bool:
        """Whether some seat has a model other than ``uniform``."""
        return any(m != "uniform" for m in self.seat_models.values())

    def model_json(self) -> dict[str, Any]:
        """``{"model", "seat_models", "method", "auto"}``: the model chosen, the model used per
        seat, how the posterior was computed (``"exact"``: constraint-only; ``"factored"``: the
        exact count weighted by the factored likelihood) and, per team weighed automatically,
        why its model was chosen (:meth:`.models.AutoChoice.to_json`; empty without ``auto``)."""
        used = self.seat_models
        auto = [s for s, m in self.chosen_models.items() if m == AUTO]
        return {"model": self._model, "seat_models": {str(s): m for s, m in used.items()},
                "method": "factored" if any(m != "uniform" for m in used.values()) else "exact",
                "auto": self._auto.to_json(auto) if auto else []}

    # ------------------------------------------------------------------ events
    def observe(self, event: Mapping[str, Any]) -> None:
        """Add one public event (checked against the rules and the observer's hand)."""
        ev = dict(event)
        t = len(self.events)
        self.state.apply_event(ev)
        self.events.append(ev)
        self.ledger.observe(ev)
        self._solved = None
        self._uniform = None
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

    def notice(self, notice: Mapping[str, Any]) -> None:
        """Take in the referee's pending notice (a claim waiting for the choice of who plays
        next): the view then knows who chooses, and that no ask or claim comes first. Its
        cards count once the claim event arrives.

        Raises:
            IllegalAction: not a pending claim this view could accept.
        """
        self.state.apply_pending_notice(dict(notice))

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

    def constraints(self) -> "Constraints":
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
        return Constraints(self, known, unknown, caps, allowed, clauses)

    # ------------------------------------------------------------------ queries
    def _solve_uniform(self) -> "Solution":
        """The constraint-only solution (counts and contexts)."""
        if self._uniform is None:
            if self._solved is not None and self._solved.factors is None:
                self._uniform = self._solved
            else:
                self._uniform = Solution(self, self.constraints())
        return self._uniform

    def _solve(self) -> "Solution":
        """The solution the queries use: weighted by the player models, or the constraint-only one."""
        if self._solved is None:
            uni = self._solve_uniform()
            if self.weighted:
                self._solved = Solution(self, uni.cons, self._factors(uni))
            else:
                self._solved = uni
        return self._solved

    def _holdings(self, seats: Iterable[int], cons: "Constraints") -> dict[int, Holdings]:
        """What the observer knows of each ask's asker's hand then (asks by ``seats``; kept
        while the cards the observer cannot locate stay the same: an ask's holdings change
        only when one of them is located)."""
        want = set(seats)
        cards = deck_cards(self.deck)
        unknown_set = set(cons.unknown)
        unknown = np.array([c in unknown_set for c in cards])
        sindex = card_set_index(self.deck)
        nsets = len(set_names(self.deck))
        sig = np.packbits(unknown).tobytes()
        cache = self.__dict__.setdefault("_holdings_cache", {})
        if cache.get("sig") != sig:
            cache.clear()
            cache["sig"] = sig
        todo = [sit for sit in self.ledger.situations if sit.asker in want and sit.t not in cache]
        if todo:
            # the holder of every located card at the time of each ask (-1: an unknown card)
            times = np.array([sit.t for sit in todo])
            held = np.full((len(todo), len(cards)), -1)
            for i, c in enumerate(cards):
                if unknown[i]:
                    continue
                dealt = cons.known.get(c, -1)
                mv = self.moves.get(c, ())
                if not mv:
                    held[:, i] = dealt
                    continue
                tm = np.array([m[0] for m in mv])
                recv = np.array([m[2] for m in mv])
                k = np.searchsorted(tm, times, side="left")             # moves strictly before each ask
                held[:, i] = np.where(k > 0, recv[np.maximum(k - 1, 0)], dealt)
            card_set = np.array(sindex)
            for row, sit in zip(held, todo):
                live = np.zeros(nsets, dtype=bool)
                live[list(sit.sets)] = True
                mine = (row == sit.asker) & live[card_set]
                known = np.bincount(card_set[mine], minlength=nsets).astype(float)
                cache[sit.t] = Holdings(known, mine, unknown)
        out = {sit.t: cache[sit.t] for sit in self.ledger.situations if sit.asker in want}
        return out

    def _factors(self, uni: "Solution"):
        """The count factors of the other seats' asks under their models (see :mod:`.models`)."""
        models = {s: load_player_model(m) for s, m in self.seat_models.items() if m != "uniform"}
        return model_factors(self.ledger.situations, models, self._holdings(models, uni.cons),
                             self.__dict__.setdefault("_terms_cache", {}))

    # a player model weighs every consistent deal by a positive number: the support, and so
    # which probabilities are exactly 0 or 1, is the constraint-only posterior's (read off its
    # marginals: a claim is certain when every card is certainly at the seat it names)
    def _snap_assignment(self, set_name: str, assignment: Mapping[str, int], p: float) -> float:
        uni = self._solve_uniform()
        support, certain = uni.marginals(), uni.certain_holders()
        if any(assignment[c] not in support[c] for c in set_cards(set_name)):
            return 0.0
        if all(certain.get(c) == assignment[c] for c in set_cards(set_name)):
            return 1.0
        return min(1.0, max(0.0, float(p)))

    def _snap_team(self, set_name: str, team: int, p: float) -> float:
        support = self._solve_uniform().marginals()
        if all(all(team_of(s) == team for s in support[c]) for c in set_cards(set_name)):
            return 1.0 if p > 0 else 0.0
        return min(1.0, max(0.0, float(p)))

    @property
    def consistent_deals(self) -> int:
        """The exact number of consistent deals (a Python int, possibly above 2**64); the
        same under every player model (a model weighs the deals, it does not remove any).

        Raises:
            Contradiction: when it is 0 (no deal fits the events).
        """
        return self._solve_uniform().total

    def marginals(self) -> dict[str, dict[int, float]]:
        """``{card: {seat: P(card is held by seat now)}}`` for every card in play (seats with
        probability 0 left out), under the player models."""
        sol = self._solve()
        if sol.factors is None:
            return {c: dict(d) for c, d in sol.marginals().items()}
        uni = self._solve_uniform()
        support = uni.marginals()
        certain = uni.certain_holders()
        out = {}
        for c, d in sol.marginals().items():
            if c in certain:
                out[c] = {certain[c]: 1.0}
            else:
                out[c] = {s: min(1.0, d.get(s, 0.0)) for s in support[c]}
        return out

    def marginals_exact(self) -> dict[str, dict[int, Any]]:
        """As :meth:`marginals` but as exact fractions (floats under a player model, exactly
        0 or 1 where certain)."""
        if self._solve().factors is not None:
            return self.marginals()
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
        if sol.factors is not None:
            return self._snap_assignment(set_name, assignment, p / sol.total)
        return Fraction(p, sol.total) if exact else p / sol.total

    def team_holds_probability(self, set_name: str, team: int | None = None, exact: bool = False):
        """P(``team`` (default: the observer's) holds all six cards of ``set_name`` now)
        (a float under a player model, as for every query: see :meth:`marginals_exact`)."""
        sol = self._solve()
        team = team_of(self.observer) if team is None else team
        n = sol.team_count(set_name, team)
        if sol.factors is not None:
            return self._snap_team(set_name, team, n / sol.total)
        return Fraction(n, sol.total) if exact else n / sol.total

    def best_assignment(self, set_name: str, team: int | None = None, exact: bool = False):
        """The most probable assignment of ``set_name`` to seats of ``team`` (default: the
        observer's team).

        Returns:
            ``(assignment {card: seat}, probability, ties)`` where ``ties`` counts the
            assignments sharing that probability (a float, or a Fraction when ``exact``),
            or ``None`` when ``team`` cannot hold the set.
        """
        sol = self._solve()
        team = team_of(self.observer) if team is None else team
        found = sol.best_assignment(set_name, team)
        if found is None:
            return None
        a, count, ties = found
        if sol.factors is not None:
            return a, self._snap_assignment(set_name, a, count / sol.total), ties
        return a, (Fraction(count, sol.total) if exact else count / sol.total), ties

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
        return {"consistent_deals": self.consistent_deals, "marginals": marg, "claims": self.claims(),
                **self.model_json()}

    def unknown_cards(self) -> list[str]:
        """Cards in play whose holder the observer does not know for certain from the events
        alone (it may still be forced by counting; see :meth:`forced_cards`)."""
        return list(self._solve_uniform().cons.unknown)

    def forced_cards(self) -> dict[str, int]:
        """Cards whose holder is certain although no single event located them: ``{card: seat}``
        (found from the exact marginals; :mod:`cardmind.belief.cpsat` finds the same by search)."""
        sol = self._solve_uniform()
        out = {}
        for c, d in sol.marginals(exact=True).items():
            if c in sol.cons.unknown:
                for s, p in d.items():
                    if p == 1:
                        out[c] = s
        return out

    def explain_impossible(self, event: Mapping[str, Any]) -> str | None:
        """Why ``event`` cannot follow the events seen so far, in one sentence, or ``None``
        when it can (this tracker must be consistent before the event)."""
        kind = event.get("type")
        if kind == "ask":
            a, t, c = event["asker"], event["target"], event["card"]
            name = set_of(c, self.deck)
            marg = self.marginals()
            p_t = marg.get(c, {}).get(t, 0.0)
            if event["success"] and p_t == 0:
                return f"seat {t} handed over {c}, but the earlier events rule out that seat {t} holds it"
            if not event["success"] and p_t == 1:
                return f"seat {t} refused {c}, but the earlier events leave no other place for {c}"
            others = [x for x in set_cards(name) if self.options["ask_own_card"] or x != c]
            probe = LiteratureBelief(self.options, self.observer, self.hand, engine=self.engine, model="uniform")
            for ev in self.events:
                probe.observe(ev)
            probe.facts.append(Fact("some", a, tuple(others), len(self.events), ""))
            try:
                probe.consistent_deals  # noqa: B018
            except Contradiction:
                return (f"seat {a} asked for {c}, so it held {'a' if self.options['ask_own_card'] else 'another'} "
                        f"card of {name}, but the earlier events rule out every such card at seat {a}")
            if not self.options["ask_own_card"] and marg.get(c, {}).get(a, 0.0) == 1:
                return f"seat {a} asked for {c}, which the earlier events show it holds"
            return None
        if kind == "claim":
            marg = self.marginals()
            for c, s in event["actual"].items():
                if marg.get(c, {}).get(s, 0.0) == 0:
                    return f"the claim of {event['set']} shows {c} at seat {s}, which the earlier events rule out"
            return (f"the claim of {event['set']} shows its cards at seats that the earlier events "
                    f"cannot all fit together")
        return None

    def cpsat_model(self):
        """The same constraints as an OR-Tools CP-SAT model
        (:class:`~cardmind.belief.cpsat.AssignmentModel` over the unknown cards)."""
        from ...belief.cpsat import AssignmentModel  # noqa: PLC0415 - OR-Tools loads slowly; only when asked

        cons = self.constraints()
        return AssignmentModel(cons.unknown, cons.allowed, {s: cons.caps[s] for s in cons.seats},
                               [(s, u) for s, u, _, _ in cons.clauses])

    def sample_deal(self, rng: np.random.Generator, weighted: bool = False) -> dict[str, int]:
        """Draw one consistent deal exactly uniformly: ``{card: seat}`` for every card whose
        dealt holder the observer does not know (the count tables drive every choice, so
        each consistent deal has probability ``1 / consistent_deals``), whatever the player
        model (:meth:`importance_posterior` weighs such deals by a model). With ``weighted``,
        draw it instead from the posterior weighted by the player models' factored likelihood
        (exactly: the same tables with the weights)."""
        return (self._solve() if weighted else self._solve_uniform()).sample(rng)

    def factored_log_likelihood(self, deals: Sequence[Mapping[str, int]]) -> np.ndarray:
        """The factored log-likelihood (the count factors the weighted count uses) of each
        deal, up to a constant; zeros under the uniform model."""
        sol = self._solve()
        out = np.zeros(len(deals))
        if sol.factors is None:
            return out
        names = set_names(self.deck)
        for j in sol.factors.blocks():
            unk = [c for c in set_cards(names[j]) if c in set(sol.cons.unknown)]
            seats = sorted(sol.factors.terms[j])
            for k, d in enumerate(deals):
                usage = [sum(1 for c in unk if d[c] == s) for s in seats]
                out[k] += sol.factors.log_factor(j, usage, seats)
        return out

    def sample_hands(self, rng: np.random.Generator) -> list[set[str]]:
        """The current hands of every seat in one uniformly drawn consistent deal (cards
        whose holder is known are where they are known to be)."""
        deal = self.sample_deal(rng)
        hands: list[set[str]] = [set() for _ in range(self.players)]
        for c, s in self.state.holder.items():
            hands[s].add(c)
        for c, s in deal.items():
            hands[s].add(c)
        return hands

    def world_log_likelihood(self, deals: Sequence[Mapping[str, int]], seat_models: Mapping[int, str] | None = None
                             ) -> np.ndarray:
        """The log-likelihood of the other seats' asks in each of several deals under their
        player models, with each ask's exact softmax (normaliser included; see :mod:`.models`).

        Args:
            deals: consistent deals as :meth:`sample_deal` gives them (``{card: dealt seat}``
                for every card the observer cannot locate).
            seat_models: ``{seat: model name}`` (default: :attr:`seat_models`).

        Returns:
            Shape ``(len(deals),)`` (zeros under the uniform model).
        """
        sm = self.seat_models if seat_models is None else seat_models
        models = {s: load_player_model(m) for s, m in sm.items() if m != "uniform" and s != self.observer}
        out = np.zeros(len(deals))
        if not models or not deals:
            return out
        uni = self._solve_uniform()
        unknown = list(uni.cons.unknown)
        cards = deck_cards(self.deck)
        cindex = {c: i for i, c in enumerate(cards)}
        sindex = np.array(card_set_index(self.deck))
        uidx = np.array([cindex[c] for c in unknown], dtype=int)
        seats = np.array([[d[c] for c in unknown] for d in deals], dtype=int).reshape(len(deals), len(unknown))
        nsets = len(set_names(self.deck))
        holdings = self._holdings(models, uni.cons)
        for sit in self.ledger.situations:
            model = models.get(sit.asker)
            if model is None:
                continue
            hold = holdings[sit.t]
            at = seats == sit.asker                                  # (deals, unknown cards)
            held = np.tile(hold.known, (len(deals), 1))
            np.add.at(held.T, sindex[uidx], at.T)
            mine = np.tile(hold.mine, (len(deals), 1))
            mine[:, uidx] |= at
            out += model.log_likelihood(sit, held.reshape(len(deals), nsets), mine)
        return out

    def importance_posterior(self, n: int, rng: np.random.Generator, assignments: Mapping[str, Mapping[str, int]] = None,
                             seat_models: Mapping[int, str] | None = None, proposal: str = "uniform") -> dict[str, Any]:
        """The posterior under the player models' exact (unfactored) likelihood, by importance
        weighting ``n`` deals drawn exactly (:meth:`sample_deal`,
        :func:`cardmind.belief.models.weighted_posterior`).

        Args:
            n: how many deals to draw.
            rng: the source of randomness.
            proposal: where the deals come from: ``"uniform"`` (the consistent deals alike)
                or ``"factored"`` (the posterior of the factored likelihood, with the models of
                :attr:`seat_models`; each deal is then weighted by the exact likelihood over the
                factored one: a far larger effective sample size when the two are close).
            assignments: ``{set: {card: seat}}``: claims whose probability to estimate
                (default: the best assignment of every set the observer's team may hold, as
                :meth:`best_assignment` finds it under the current models).
            seat_models: ``{seat: model name}`` (default: :attr:`seat_models`).

        Returns:
            ``{"marginals": {card: {seat: p}}, "marginals_stderr": {...}, "claims": {set:
            {"p_team_holds", "p_team_holds_stderr", "assignment", "p_assignment",
            "p_assignment_stderr"}}, "ess", "samples", "log_mean"}``.
        """
        from ...belief.models import weighted_posterior  # noqa: PLC0415

        uni = self._solve_uniform()
        unknown = list(uni.cons.unknown)
        seats = [s for s in range(self.players) if s != self.observer]
        team = team_of(self.observer)
        holders = self.state.holder
        if assignments is None:
            assignments = {}
            for name in self.state.unclaimed_sets():
                if self.team_holds_probability(name) > 0:
                    best = self.best_assignment(name)
                    if best is not None:
                        assignments[name] = best[0]
        names = [n_ for n_ in self.state.unclaimed_sets()]
        cols = [(c, s) for c in unknown for s in seats]

        def values(deal):
            v = [float(deal[c] == s) for c, s in cols]
            for name in names:
                where = [holders.get(c, deal.get(c)) for c in set_cards(name)]
                v.append(float(all(team_of(h) == team for h in where)))
            for name, a in assignments.items():
                v.append(float(all(holders.get(c, deal.get(c)) == a[c] for c in set_cards(name))))
            return v

        if proposal not in ("uniform", "factored"):
            raise ValueError(f"proposal must be 'uniform' or 'factored', not {proposal!r}")
        weighted = proposal == "factored"

        def loglik(deals):
            ll = self.world_log_likelihood(deals, seat_models)
            return ll - self.factored_log_likelihood(deals) if weighted else ll

        est = weighted_posterior(lambda r: self.sample_deal(r, weighted), loglik, values, n, rng)
        marg, marg_se = {}, {}
        k = 0
        for c in self.state.cards_in_play():
            if c in holders:
                marg[c], marg_se[c] = {holders[c]: 1.0}, {holders[c]: 0.0}
        for c in unknown:
            marg[c] = {s: float(est.mean[k + i]) for i, s in enumerate(seats) if est.mean[k + i] > 0}
            marg_se[c] = {s: float(est.stderr[k + i]) for i, s in enumerate(seats)}
            k += len(seats)
        claims = {}
        for name in names:
            claims[name] = {"p_team_holds": float(est.mean[k]), "p_team_holds_stderr": float(est.stderr[k])}
            k += 1
        for name, a in assignments.items():
            claims[name].update(assignment=dict(a), p_assignment=float(est.mean[k]),
                                p_assignment_stderr=float(est.stderr[k]))
            k += 1
        return {"marginals": marg, "marginals_stderr": marg_se, "claims": claims, "ess": est.ess,
                "samples": est.samples, "log_mean": est.log_mean}

    def current_holders(self) -> dict[str, int]:
        """Cards in play whose current holder the observer knows from the events: ``{card: seat}``."""
        return dict(self.state.holder)
