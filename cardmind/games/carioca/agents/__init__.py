"""The players of this game: ``random``, ``peer`` and ``belief`` (registered through
:meth:`~cardmind.core.Game.agent_classes`)."""

from .base import CariocaRandomAgent
from .peer import CariocaPeerAgent

#: the agent classes, in the order they are listed
AGENTS = (CariocaRandomAgent, CariocaPeerAgent)

__all__ = ["AGENTS", "CariocaPeerAgent", "CariocaRandomAgent"]
