"""Go Fish players: ``random`` (a uniformly random legal action).

The registry keys agents by name and game, so ``resolve_agent("random", "gofish")`` gives
this player and ``resolve_agent("random", "literature")`` the Literature one. The rule-based
Go Fish player ``peer`` is in :mod:`cardmind.games.gofish.agents.peer`.
"""

from __future__ import annotations

import numpy as np

from ..state import GoFishState
from ....agents.base import Agent


class GoFishRandomAgent(Agent):
    """A uniformly random legal action of its seat's view: in phase 1 an ask (any rank it
    holds, any other player with cards), the card it hands over when asked (``give: "one"``),
    its dealt books, and in phase 2 an ask for any book it does not hold from any player
    holding books."""

    name = "random"
    games = ("gofish",)
    state: GoFishState

    def act(self, rng: np.random.Generator):
        """A uniformly random legal action.

        Raises:
            RuntimeError: the view offers no legal action (the referee asked out of turn).
        """
        actions = self.legal_now()
        return actions[int(rng.integers(len(actions)))]


__all__ = ["GoFishRandomAgent"]
