"""Ranked, explained advice for a Literature player, built on the exact belief tracker.

:func:`literature_hint` turns a :class:`~cardmind.games.literature.belief.LiteratureBelief` into
a :class:`LiteratureHint`: the claims worth making (each set the player's team may hold,
its most probable assignment and the exact probability that claiming it now succeeds),
the best asks (card, target, probability of success, a one-line reason) and the belief
table (probability of every card at every seat). The CLI and the engine protocol both
render this object; :meth:`LiteratureHint.to_json` is the documented JSON form
(``docs/hints.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .belief import LiteratureBelief
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ...cards import card_sort_key
from ...hints import asks_only, turn_note
from .rules import set_cards, set_names, set_of, team_of


@dataclass
class ClaimHint:
    """A claim the player's team could make now.

    Attributes:
        set: the set.
        assignment: ``{card: seat}``, the most probable assignment to the team.
        probability: exact-count probability that this claim succeeds now (0..1).
        p_team_holds: probability that the team holds all six cards.
        ties: how many assignments share that probability.
        certain: the claim cannot fail (every consistent deal agrees).
    """

    set: str
    assignment: dict[str, int]
    probability: float
    p_team_holds: float
    ties: int
    certain: bool

    def to_json(self) -> dict[str, Any]:
        """JSON form (keys as the attributes)."""
        return {"set": self.set, "assignment": self.assignment, "probability": self.probability,
                "p_team_holds": self.p_team_holds, "ties": self.ties, "certain": self.certain}


@dataclass
class AskHint:
    """An ask the player could make.

    Attributes:
        card: the card to ask for.
        target: the opponent to ask.
        probability: probability that the target holds the card now (the ask succeeds).
        reason: one line saying why.
        score: the ranking score (higher first); probability plus small tie-breakers.
    """

    card: str
    target: int
    probability: float
    reason: str
    score: float

    def to_json(self) -> dict[str, Any]:
        """JSON form (keys as the attributes)."""
        return {"card": self.card, "target": self.target, "probability": self.probability,
                "reason": self.reason, "score": self.score}


@dataclass
class LiteratureHint:
    """Advice for one Literature player at one moment (see the module docstring)."""

    observer: int
    events: int
    to_move: int | None
    players: int
    consistent_deals: int
    claims: list[ClaimHint]
    asks: list[AskHint]
    marginals: dict[str, dict[int, float]]
    sets: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: the observer's cards now (for the human output; not in the JSON)
    hand: list[str] = field(default_factory=list)
    #: sets won per team ``[team 0, team 1]`` and the void sets, once the game is over
    #: (``None`` before; for the human output; not in the JSON)
    final: dict[str, Any] | None = None
    model: dict[str, Any] = field(default_factory=lambda: {"model": "uniform", "seat_models": {}, "method": "exact"})

    @property
    def your_turn(self) -> bool:
        """Whether the observer is to move."""
        return self.to_move == self.observer

    def to_json(self) -> dict[str, Any]:
        """The documented JSON object (``docs/hints.md``)."""
        return {
            "game": "literature",
            "observer": self.observer,
            "team": team_of(self.observer),
            "events": self.events,
            "to_move": self.to_move,
            "your_turn": self.your_turn,
            "consistent_deals": self.consistent_deals,
            "consistent_deals_str": str(self.consistent_deals),
            "claims": [c.to_json() for c in self.claims],
            "asks": [a.to_json() for a in self.asks],
            "belief": {
                "seats": list(range(self.players)),
                "sets": self.sets,
                "marginals": {c: {str(s): p for s, p in d.items()} for c, d in self.marginals.items()},
            },
            "notes": self.notes,
            **self.model,
        }

    def render(self, console: Console, record: Any = None, show_table: bool = True, tables_only: bool = False,
               verbose: bool = False) -> None:
        """Print for humans (used by ``cardmind hint`` and ``cardmind belief``): the player's
        hand, the final score once the game is over, the claims worth making (success at
        least :data:`CLAIM_WORTH`, or every claim with ``verbose``), the best asks and the
        belief table. ``tables_only`` (``cardmind belief``): the count of consistent deals
        and the table. ``verbose``: also the count of consistent deals."""
        me = self.observer
        mates = [s for s in range(self.players) if s % 2 == me % 2]
        turn = "game over" if self.to_move is None else ("your turn" if self.your_turn else f"seat {self.to_move} to play")
        console.print(Text(f"Literature: seat {me}'s view after {self.events} events ({turn}); "
                           f"your team: seats {', '.join(map(str, mates))}", style="bold"))
        console.print(Text(f"Your hand: {_hand_text(self.hand, self.sets)}"))
        if verbose or tables_only:
            console.print(f"Consistent deals: {self.consistent_deals:,} (every deal of the cards you have not "
                          f"seen that fits your hand and the events, counted exactly)")
        if self.final is not None:
            console.print(Text(_final_text(self.final, me), style="bold"))
        console.print(f"Player model: {_model_line(self.model)}")
        for note in self.notes:
            if not (tables_only and asks_only(note)):
                console.print(Text(f"Note: {note}", style="yellow"))
        if not tables_only:
            console.print()
            shown = self.claims if verbose else [c for c in self.claims if c.certain or c.probability >= CLAIM_WORTH]
            if shown:
                title = ("Claims your team could make (chance that claiming now succeeds)" if verbose else
                         "Claims worth making (chance that claiming now succeeds)")
                t = Table(title=title, title_justify="left")
                t.add_column("set")
                t.add_column("success", justify="right")
                t.add_column("team holds", justify="right")
                t.add_column("say who holds each card")
                for c in shown[:6]:
                    assign = "  ".join(f"{card}→{seat}" for card, seat in sorted(c.assignment.items(),
                                                                                  key=lambda kv: card_sort_key(kv[0])))
                    prob = "certain" if c.certain else _pct(c.probability)
                    style = "bold green" if c.certain else None
                    t.add_row(c.set, prob, _pct(c.p_team_holds), assign, style=style)
                console.print(t)
                if len(shown) > 6:
                    console.print(f"({len(shown) - 6} more sets your team might hold; see --json)")
            if not verbose and self.claims and len(shown) < len(self.claims):
                rest = self.claims[len(shown):]
                best = rest[0]
                console.print(("Claims: none worth making now" if not shown else
                               f"{len(rest)} more set{'s' if len(rest) > 1 else ''} your team might hold") +
                              f": the likeliest{' of them' if shown else ''}, {best.set}, would succeed "
                              f"{_pct(best.probability)} of the time (under {100 * CLAIM_WORTH:.0f}%; "
                              f"--verbose lists {'them' if len(rest) > 1 else 'it'}).")
            elif not self.claims:
                console.print("Claims: none: the game is over." if self.to_move is None else
                              "Claims: your team cannot hold all six cards of any set yet.")
            console.print()
            if self.asks:
                t = Table(title="Best asks", title_justify="left")
                t.add_column("#", justify="right")
                t.add_column("ask")
                t.add_column("success", justify="right")
                t.add_column("why")
                for i, a in enumerate(self.asks, 1):
                    style = "bold green" if a.probability >= 1 else None
                    t.add_row(str(i), f"{a.card} from seat {a.target}", f"{100 * a.probability:.1f}%", a.reason,
                              style=style)
                console.print(t)
            else:
                console.print("Asks: none possible now.")
        if show_table:
            console.print()
            t = Table(title="Belief: % chance each seat holds each card now (· = impossible)", title_justify="left")
            t.add_column("set")
            t.add_column("card")
            for s in range(self.players):
                t.add_column(_seat_label(s, me), justify="right")
            for set_name, cards in self.sets.items():
                first = True
                for c in cards:
                    d = self.marginals.get(c, {})
                    cells = []
                    for s in range(self.players):
                        p = d.get(s, 0.0)
                        txt = _cell(p)
                        cells.append(Text(txt, style="bold" if p >= 1 else ("dim" if p <= 0 else "")))
                    t.add_row(set_name if first else "", c, *cells)
                    first = False
                t.add_section()
            console.print(t)


#: the least chance of success of a claim that ``cardmind hint`` lists as worth making
#: (certain claims always are; ``--verbose`` lists every claim)
CLAIM_WORTH = 0.5


def _hand_text(hand: list[str], sets: dict[str, list[str]]) -> str:
    """The observer's cards grouped by set, in the order of ``sets`` (``{set: its cards}``):
    ``"(7 cards) low-clubs 2C 3C; high-hearts 9H JH"``."""
    if not hand:
        return "no cards"
    held = set(hand)
    groups = [(name, [c for c in cards if c in held]) for name, cards in sets.items()]
    placed = {c for _, cards in groups for c in cards}
    other = [c for c in hand if c not in placed]   # (none: a card in hand is in an unclaimed set)
    groups = [(n, cs) for n, cs in groups if cs] + ([("", other)] if other else [])
    return f"({len(hand)} card{'s' if len(hand) != 1 else ''}) " + "; ".join(
        f"{name} {' '.join(cards)}".strip() for name, cards in groups)


def _final_text(final: dict[str, Any], me: int) -> str:
    """``"Game over: your team won 5 sets to 4."`` (and the void sets)."""
    mine, theirs = final["team_sets"][me % 2], final["team_sets"][1 - me % 2]
    verb = "won" if mine > theirs else "lost" if mine < theirs else "drew"
    text = f"Game over: your team {verb} {mine} set{'s' if mine != 1 else ''} to {theirs}"
    void = final.get("void_sets") or []
    if void:
        text += f" ({len(void)} void: {', '.join(void)})"
    return text + "."


def _model_line(model: dict[str, Any]) -> str:
    """``uniform (every consistent deal alike)`` or the models of the other seats."""
    if model.get("method") == "exact":
        return "uniform (every consistent deal equally likely)"
    per: dict[str, list[str]] = {}
    for seat, name in sorted(model.get("seat_models", {}).items(), key=lambda kv: int(kv[0])):
        per.setdefault(name, []).append(seat)
    parts = [f"{name} (seats {', '.join(seats)})" for name, seats in per.items()]
    return "; ".join(parts) + " — deals weighted by the likelihood of the other players' asks"


def _pct(p: float) -> str:
    if p >= 0.9995 and p < 1:
        return ">99.9%"
    if 0 < p < 0.0005:
        return "<0.1%"
    return f"{100 * p:.1f}%".replace(".0%", "%")


def literature_hint(belief: LiteratureBelief, max_asks: int = 10) -> LiteratureHint:
    """Build the advice for ``belief``'s observer.

    Args:
        belief: the observer's tracker (after the events to advise on).
        max_asks: how many asks to keep (best first).

    Raises:
        Contradiction: the events leave no consistent deal.
    """
    st = belief.state
    me = belief.observer
    team = team_of(me)
    marg = belief.marginals()
    total = belief.consistent_deals
    notes: list[str] = []

    claims = []
    for name in st.unclaimed_sets():
        p_team = belief.team_holds_probability(name)
        if p_team <= 0:
            continue
        best = belief.best_assignment(name, exact=True)
        if best is None:
            continue
        a, p_exact, ties = best
        claims.append(ClaimHint(name, a, float(p_exact), p_team, ties, p_exact == 1))
    claims.sort(key=lambda c: (-c.probability, set_names(belief.deck).index(c.set)))

    # evidence for reasons: who asked within which set, who refused which card
    asked_in: dict[tuple[int, str], int] = {}
    refused: dict[str, list[tuple[int, int]]] = {}
    received: dict[str, tuple[int, int]] = {}
    for t, ev in enumerate(belief.events):
        if ev["type"] == "ask":
            asked_in[(ev["asker"], set_of(ev["card"], belief.deck))] = t
            if ev["success"]:
                received[ev["card"]] = (ev["asker"], t)
            else:
                refused.setdefault(ev["card"], []).append((ev["target"], t))

    exact = None
    weighted = getattr(belief, "weighted", False)
    asks = []
    legal = st.legal_asks(me) if st.to_move() == me else _asks_if_on_turn(belief)
    hand = st.hands[me] or set()
    for ask in legal:
        c, t = ask.card, ask.target
        p = marg.get(c, {}).get(t, 0.0)
        if p == 0:
            continue
        name = set_of(c, belief.deck)
        holders = [s for s, q in marg.get(c, {}).items() if q > 0]
        if p >= 1.0:
            if exact is None:
                exact = belief.marginals_exact()
            certain = exact[c].get(t) == 1
        else:
            certain = False
        if certain and c in received and received[c][0] == t:
            reason = f"seat {t} received {c} at event {received[c][1] + 1}"
        elif certain:
            reason = f"only seat {t} can still hold {c}"
        elif weighted:
            reason = f"{_pct(p)} chance that seat {t} holds {c} (player model)"
        else:
            reason = f"{_pct(p)} of consistent deals put {c} at seat {t}"
            if len(holders) <= 3:
                reason += f"; only seats {', '.join(map(str, sorted(holders)))} can still hold it"
            if (t, name) in asked_in:
                reason += f"; seat {t} asked within {name} at event {asked_in[(t, name)] + 1}"
        own = sum(1 for x in set_cards(name) if x in hand)
        score = p + 0.001 * own
        asks.append(AskHint(c, t, p, reason, score))
    asks.sort(key=lambda a: (-a.score, a.card, a.target))
    if st.to_move() != me and not st.is_over():
        notes.append(turn_note(st.to_move()))
    if st.sizes[me] == 0:
        notes.append("you have no cards: you cannot ask or claim")
    sets = {name: list(set_cards(name)) for name in st.unclaimed_sets()}
    final = None
    if st.is_over():
        detail = st.result().detail
        final = {"team_sets": list(detail["team_sets"]), "void_sets": list(detail.get("void_sets", []))}
    return LiteratureHint(me, len(belief.events), st.to_move(), belief.players, total, claims,
                          asks[:max_asks], marg, sets, notes, hand=sorted(hand, key=card_sort_key), final=final,
                          model=belief.model_json())


def _asks_if_on_turn(belief: LiteratureBelief):
    """The asks the observer could make if it were on turn now."""
    st = belief.state.copy()
    if st.is_over() or st.pending is not None or st.sizes[belief.observer] == 0:
        return []
    st.turn = belief.observer
    return st.legal_asks(belief.observer)


def _seat_label(seat: int, me: int) -> str:
    if seat == me:
        return f"{seat} you"
    return f"{seat} mate" if seat % 2 == me % 2 else f"{seat} opp"


def _cell(p: float) -> str:
    if p <= 0:
        return "·"
    if p >= 1:
        return "100"
    if p < 0.005:
        return "<1"
    if p > 0.995:
        return ">99"
    return f"{100 * p:.0f}"
