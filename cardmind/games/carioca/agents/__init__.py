"""The players of this game: ``random``, ``peer`` and ``belief`` (registered through
:meth:`~cardmind.core.Game.agent_classes`)."""

from ....agents.random import RandomAgent
from .belief import CariocaBeliefAgent
from .peer import CariocaPeerAgent

#: the agent classes, in the order they are listed
AGENTS = (RandomAgent, CariocaPeerAgent, CariocaBeliefAgent)

__all__ = ["AGENTS", "CariocaBeliefAgent", "CariocaPeerAgent"]
