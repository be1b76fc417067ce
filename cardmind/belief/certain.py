"""Certain facts about Literature card holders by propagation to a fixpoint.

This is the bookkeeping of the strongest published Literature bots, rebuilt as the
``peer`` baseline (issue 3) and used by the ``random`` player to know when a claim is
certain. Unlike :mod:`cardmind.belief.literature` it does not count deals: it keeps, for
every card in play, the seats that may hold it *now*, and applies these rules until
nothing changes:

* a hit locates a card at the asker; a miss clears the card from asker (unless
  ``ask_own_card``) and target;
* every ask means the asker holds another card of that set: an "at least one of" clause,
  dropped when the asker is seen holding one, narrowed when a card is located elsewhere,
  forgotten when the asker gives a card of it away (it may have been that one);
* a seat whose located cards fill its hand holds nothing else;
* a seat whose free slots equal the cards it may still hold holds all of them;
* a card with one possible holder is located; a clause with one possible card locates it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..games.literature.rules import deal_sizes, deck_cards, set_cards, set_of


class CertainKnowledge:
    """One seat's certain knowledge of who holds each card now.

    Args:
        options: parsed Literature options.
        observer: the seat whose view this is.
        hand: its dealt cards.

    Attributes:
        possible: ``{card: set of seats}`` that may hold each card in play now.
        sizes: public hand sizes.
        clauses: ``[(seat, set of cards)]``: ``seat`` holds at least one of the cards.
    """

    def __init__(self, options: Mapping[str, Any], observer: int, hand: Iterable[str]):
        self.options = options
        self.players = options["players"]
        self.deck = options["deck"]
        self.observer = observer
        self.sizes = list(deal_sizes(self.players, self.deck))
        hand = set(hand)
        others = {s for s in range(self.players) if s != observer}
        self.possible: dict[str, set[int]] = {
            c: ({observer} if c in hand else set(others)) for c in deck_cards(self.deck)}
        self.clauses: list[tuple[int, set[str]]] = []
        self._propagate()

    def holder(self, card: str) -> int | None:
        """The seat certainly holding ``card`` now, or ``None``."""
        p = self.possible.get(card)
        if p is not None and len(p) == 1:
            return next(iter(p))
        return None

    def located(self) -> dict[str, int]:
        """``{card: seat}`` for every card in play whose holder is certain."""
        return {c: next(iter(p)) for c, p in self.possible.items() if len(p) == 1}

    def observe(self, event: Mapping[str, Any]) -> None:
        """Apply one Literature event (assumed legal)."""
        kind = event["type"]
        if kind == "ask":
            a, t, c = event["asker"], event["target"], event["card"]
            name = set_of(c, self.deck)
            own = self.options["ask_own_card"]
            others = {x for x in set_cards(name) if own or x != c}
            if not any(self.holder(x) == a for x in others):
                self.clauses.append((a, set(others)))
            if not own:
                self.possible[c].discard(a)
            if event["success"]:
                self._give(t, c)
                self.possible[c] = {a}
                self.sizes[t] -= 1
                self.sizes[a] += 1
            else:
                self.possible[c].discard(t)
        elif kind == "claim":
            for c, s in event["actual"].items():
                self.sizes[s] -= 1
                self.possible.pop(c, None)
            cards = set(event["actual"])
            self.clauses = [(s, u - cards) for s, u in self.clauses if not u <= cards]
        self._propagate()

    def _give(self, seat: int, card: str) -> None:
        """``seat`` gave ``card`` away: forget clauses of ``seat`` that named it."""
        self.clauses = [(s, u) for s, u in self.clauses if not (s == seat and card in u)]

    def _propagate(self) -> None:
        changed = True
        possible = self.possible
        while changed:
            changed = False
            # clauses
            kept = []
            for s, u in self.clauses:
                u = {c for c in u if c in possible and s in possible[c]}
                if any(len(possible[c]) == 1 for c in u):
                    continue  # satisfied: the seat is seen holding one
                if len(u) == 1:
                    c = next(iter(u))
                    possible[c] = {s}
                    changed = True
                    continue
                if u:
                    kept.append((s, u))
            self.clauses = kept
            # hand sizes
            located = [0] * self.players
            could = [0] * self.players
            for c, p in possible.items():
                if len(p) == 1:
                    located[next(iter(p))] += 1
                else:
                    for s in p:
                        could[s] += 1
            for s in range(self.players):
                free = self.sizes[s] - located[s]
                if free == 0 and could[s]:
                    for p in possible.values():
                        if len(p) > 1 and s in p:
                            p.discard(s)
                    changed = True
                elif free > 0 and free == could[s]:
                    for c, p in possible.items():
                        if len(p) > 1 and s in p:
                            possible[c] = {s}
                    changed = True
