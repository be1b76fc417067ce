"""``random``: a uniformly random legal action, the one random player of every game whose
random player is uniform (contract rummy, Go Fish, Hand and Foot; a game lists it in
``Game.agent_classes()``).

Literature's ``random`` keeps its own policy (``cardmind/games/literature/agents/base.py``:
uniform asks, and a claim only of a set it knows for certain), because its legal actions hold
every assignment of every set to the team (729 claims per set with 6 players), which would
swamp a uniform pick with wrong claims.
"""

from __future__ import annotations

import numpy as np

from .base import Agent


class RandomAgent(Agent):
    """A uniformly random legal action of its seat's view (``state.legal_actions(seat)``, in
    the game's order; ``rng.integers`` picks the index)."""

    name = "random"
    games = ()          # every game that lists it in Game.agent_classes()

    def act(self, rng: np.random.Generator):
        """A uniformly random legal action.

        Raises:
            RuntimeError: the view offers no legal action (the referee asked out of turn).
        """
        actions = self.legal_now()
        return actions[int(rng.integers(len(actions)))]


__all__ = ["RandomAgent"]
