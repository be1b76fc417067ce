"""Ranked, explained advice for a Literature player, built on the exact belief tracker.

:func:`literature_hint` turns a :class:`~cardmind.belief.literature.LiteratureBelief` into
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

from ..belief.literature import LiteratureBelief
from . import turn_note
from ..games.literature.rules import set_cards, set_names, set_of, team_of


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
        }


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
    return LiteratureHint(me, len(belief.events), st.to_move(), belief.players, total, claims,
                          asks[:max_asks], marg, sets, notes)


def _asks_if_on_turn(belief: LiteratureBelief):
    """The asks the observer could make if it were on turn now."""
    st = belief.state.copy()
    if st.is_over() or st.pending is not None or st.sizes[belief.observer] == 0:
        return []
    st.turn = belief.observer
    return st.legal_asks(belief.observer)
