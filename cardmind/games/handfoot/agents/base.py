"""Hand and Foot players: ``random`` (a uniformly random legal action).

The rule-based ``peer`` is in :mod:`cardmind.games.handfoot.agents.peer` and the
belief-driven ``belief`` in :mod:`cardmind.games.handfoot.agents.belief`.
"""

from __future__ import annotations

import numpy as np

from ....agents.base import Agent
from ..state import HandFootState


class HandFootRandomAgent(Agent):
    """A uniformly random legal action of its seat's view, among the actions
    :meth:`~cardmind.games.handfoot.HandFootState.legal_actions` lists (draw or take the pile;
    a new meld of three cards or one card laid off; ask to go out; a discard; yes or no to its
    partner)."""

    name = "random"
    games = ("handfoot",)
    state: HandFootState

    def act(self, rng: np.random.Generator):
        """A uniformly random legal action.

        Raises:
            RuntimeError: the view offers no legal action (the referee asked out of turn).
        """
        actions = self.legal_now()
        return actions[int(rng.integers(len(actions)))]


__all__ = ["HandFootRandomAgent"]
