"""Contract rummy players: ``random`` (a uniformly random legal action).

The rule-based player ``peer`` is in :mod:`.peer`, the belief player ``belief`` in :mod:`.belief`.
"""

from __future__ import annotations

import numpy as np

from ..state import CariocaState
from ....agents.base import Agent


class CariocaRandomAgent(Agent):
    """A uniformly random legal action of its seat's view: take or pass (on turn), steal or
    pass (an offer to another seat), and on its turn any listed way to go down, any lay-off
    and any discard (``CariocaState.legal_actions``)."""

    name = "random"
    games = ("carioca",)
    state: CariocaState

    def act(self, rng: np.random.Generator):
        """A uniformly random legal action.

        Raises:
            RuntimeError: the view offers no legal action (the referee asked out of turn).
        """
        actions = self.legal_now()
        return actions[int(rng.integers(len(actions)))]


__all__ = ["CariocaRandomAgent"]
