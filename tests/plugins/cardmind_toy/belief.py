"""Secret's belief tracker (every consistent deal counted by brute force) and its hint."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from cardmind.belief import Tracker
from cardmind.errors import Contradiction
from cardmind.hints.words import Advice, chance

from .state import deck


class SecretBelief(Tracker):
    """The observer's view of a game of Secret: which deals of the unseen cards (to the other
    hands and the secret) fit the public answers, all equally likely."""

    def __init__(self, options: Mapping[str, Any], observer: int, hand, **settings: Any):
        from . import GAME

        self.options = GAME.parse_options(options)
        self.observer, self.hand = observer, list(hand)
        self.state = GAME.new_state(self.options, {"observer": observer, "hand": self.hand})
        self.events: list[dict] = []

    def observe(self, event: Mapping[str, Any]) -> None:
        self.state.apply_event(dict(event))
        self.events.append(dict(event))

    def deals(self) -> list[tuple[list[list[str]], str]]:
        """Every consistent deal: ``(hands, secret)``."""
        n, k = self.options["players"], self.options["hand"]
        unseen = [c for c in deck(self.options) if c not in self.hand]
        others = [s for s in range(n) if s != self.observer]
        out = []
        for perm in set(permutations(unseen)):
            hands = [None] * n
            hands[self.observer] = self.hand
            for i, s in enumerate(others):
                hands[s] = sorted(perm[i * k:(i + 1) * k])
            secret = perm[-1]
            if self._fits(hands, secret):
                out.append((hands, secret))
        return sorted(set((tuple(map(tuple, h)), s) for h, s in out))

    def _fits(self, hands, secret) -> bool:
        for ev in self.events:
            if ev["type"] == "ask":
                if ev["card"] in hands[ev["asker"]] or (ev["card"] in hands[ev["target"]]) != ev["has"]:
                    return False
            elif ev["card"] in hands[ev["player"]] or (ev["card"] == secret) != ev["correct"]:
                return False
        return True

    @property
    def consistent_deals(self) -> int:
        n = len(self.deals())
        if n == 0:
            raise Contradiction("no deal is consistent with the events")
        return n

    def marginals(self) -> dict[str, dict[str, float]]:
        """``{card: {"secret" or seat: P}}`` for every card the observer does not hold."""
        deals = self.deals()
        if not deals:
            raise Contradiction("no deal is consistent with the events")
        out: dict[str, dict[str, float]] = {}
        for hands, secret in deals:
            for s, h in enumerate(hands):
                if s != self.observer:
                    for c in h:
                        out.setdefault(c, {}).setdefault(str(s), 0.0)
                        out[c][str(s)] += 1 / len(deals)
            out.setdefault(secret, {}).setdefault("secret", 0.0)
            out[secret]["secret"] += 1 / len(deals)
        return {c: out[c] for c in sorted(out)}

    def to_json(self) -> dict[str, Any]:
        return {"consistent_deals": self.consistent_deals, "marginals": self.marginals()}


@dataclass
class SecretHint(Advice):
    """The best guess of the secret and its chance."""

    observer: int
    card: str
    probability: float
    consistent_deals: int

    def to_json(self) -> dict[str, Any]:
        return {"game": "secret", "observer": self.observer, "guess": self.card,
                "probability": self.probability, "consistent_deals": self.consistent_deals}

    def headline(self) -> str:
        return f"Guess {self.card} when you must: it is the secret {chance(self.probability)} of the time."

    def render(self, console, record=None, show_table: bool = True, tables_only: bool = False,
               verbose: bool = False) -> None:
        if not tables_only:
            console.print(self.headline())
        if verbose or tables_only:
            console.print(f"Secret: seat {self.observer}; {self.consistent_deals} consistent deals")
        if not tables_only:
            console.print(f"Best guess: {self.card} ({chance(self.probability)})")


def secret_hint(belief: SecretBelief, max_asks: int = 10) -> SecretHint:
    """The card most likely to be the secret."""
    m = belief.marginals()
    card = max(m, key=lambda c: (m[c].get("secret", 0.0), c))
    return SecretHint(belief.observer, card, m[card].get("secret", 0.0), belief.consistent_deals)
