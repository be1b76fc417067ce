"""The players of this game: ``random``, ``peer`` and ``belief`` (registered through
:meth:`~cardmind.core.Game.agent_classes`)."""

from ....agents.random import RandomAgent
from .belief import GoFishBeliefAgent
from .peer import GoFishPeerAgent

#: the agent classes, in the order they are listed
AGENTS = (RandomAgent, GoFishPeerAgent, GoFishBeliefAgent)

__all__ = ["AGENTS", "GoFishBeliefAgent", "GoFishPeerAgent"]
