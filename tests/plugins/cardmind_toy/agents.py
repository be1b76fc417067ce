"""Secret's players: ``random`` (the game's own) and ``sure`` (brought by the ``cardmind.agents``
entry point, to show that door)."""

from __future__ import annotations

import numpy as np

from cardmind.agents import Agent


class RandomSecretAgent(Agent):
    """Any legal action, uniformly."""

    name = "random"
    games = ("secret",)

    def act(self, rng: np.random.Generator):
        acts = self.legal_now()
        return acts[int(rng.integers(len(acts)))]


class SureAgent(Agent):
    """Guesses the secret once its tracker is sure of it; until then asks about the card most
    likely to be the secret (a "no" from every other player pins it down)."""

    name = "sure"
    games = ("secret",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from .belief import SecretBelief

        self.belief = SecretBelief(self.options, self.seat, self.header["hand"])

    def observe(self, event) -> None:
        super().observe(event)
        self.belief.observe(event)

    def act(self, rng: np.random.Generator):
        acts = self.legal_now()
        m = self.belief.marginals()
        best = max(m, key=lambda c: (m[c].get("secret", 0.0), c))
        guesses = [a for a in acts if a.to_json()["type"] == "guess"]
        asks = [a for a in acts if a.to_json()["type"] == "ask" and a.card == best
                and m[best].get(str(a.target), 0.0) > 0]
        if m[best].get("secret", 0.0) >= 1 or not asks:
            return next(a for a in guesses if a.card == best)
        return asks[int(rng.integers(len(asks)))]
