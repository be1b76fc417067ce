"""The players of Hand and Foot: ``random``, ``peer`` and ``belief`` (registered through
:meth:`~cardmind.core.Game.agent_classes`)."""

from ....agents.random import RandomAgent
from .belief import HandFootBeliefAgent
from .peer import HandFootPeerAgent

#: the agent classes, in the order they are listed
AGENTS = (RandomAgent, HandFootPeerAgent, HandFootBeliefAgent)

__all__ = ["AGENTS", "HandFootBeliefAgent", "HandFootPeerAgent"]
