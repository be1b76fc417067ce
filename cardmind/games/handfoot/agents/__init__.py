"""The players of Hand and Foot: ``random``, ``peer`` and ``belief`` (registered through
:meth:`~cardmind.core.Game.agent_classes`)."""

from .base import HandFootRandomAgent

#: the agent classes, in the order they are listed
AGENTS = (HandFootRandomAgent,)

__all__ = ["AGENTS", "HandFootRandomAgent"]
