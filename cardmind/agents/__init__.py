"""Players: one :class:`Agent` interface for every game, the game loop, and the built-in
players (``random``, ``peer``, ``belief``)."""

from .base import Agent, agent_names, agent_table, register_agent, resolve_agent

__all__ = ["Agent", "agent_names", "agent_table", "register_agent", "resolve_agent"]
