"""The players of this game: ``random``, ``peer`` and ``belief`` (registered through
:meth:`~cardmind.core.Game.agent_classes`)."""

from .base import LiteratureAgent, RandomAgent
from .belief import BeliefAgent
from .peer import PeerAgent

#: the agent classes, in the order they are listed
AGENTS = (RandomAgent, PeerAgent, BeliefAgent)

__all__ = ["AGENTS", "BeliefAgent", "LiteratureAgent", "PeerAgent", "RandomAgent"]
