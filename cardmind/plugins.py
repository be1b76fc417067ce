"""Games and agents from other installed packages, found through Python entry points.

A package adds a game to cardmind by declaring an entry point in the group ``cardmind.games``
and an agent in the group ``cardmind.agents`` (in its ``pyproject.toml``)::

    [project.entry-points."cardmind.games"]
    mygame = "mypkg.game:GAME"            # a Game instance, a Game subclass, or a module

    [project.entry-points."cardmind.agents"]
    clever = "mypkg.bots:Clever"          # an Agent subclass, a list of them, or a module

cardmind loads them the first time it lists its games or agents, the way pytest finds its
plugins. A plugin that fails to load does not stop cardmind: the failure is kept
(:func:`plugin_errors`), shown as a warning, and named when that game or agent is asked for.
``docs/architecture.md`` walks through writing one.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any

GAME_GROUP = "cardmind.games"
AGENT_GROUP = "cardmind.agents"

_ERRORS: dict[tuple[str, str], str] = {}


def iter_entry_points(group: str) -> Iterator[tuple[str, str, Any]]:
    """Load every entry point of ``group``; yield ``(name, value, loaded object)`` for each
    one that loads. One that fails is recorded (see :func:`plugin_errors`) and warned about."""
    for ep in sorted(entry_points(group=group), key=lambda e: (e.name, e.value)):
        try:
            obj = ep.load()
        except Exception as exc:  # noqa: BLE001 - a broken plugin must not break cardmind
            record_error(group, ep.name, f"{ep.value}: {type(exc).__name__}: {exc}")
            continue
        yield ep.name, ep.value, obj


def record_error(group: str, name: str, reason: str) -> None:
    """Keep (and warn once about) the failure of plugin ``name`` of ``group``."""
    if (group, name) not in _ERRORS:
        _ERRORS[(group, name)] = reason
        warnings.warn(f"cardmind: the {group} plugin {name!r} was not loaded: {reason}", RuntimeWarning,
                      stacklevel=3)


def plugin_errors(group: str | None = None) -> dict[str, str]:
    """``{plugin name: why it was not loaded}`` (for ``group`` only, when given)."""
    return {n: r for (g, n), r in _ERRORS.items() if group is None or g == group}


def load_group(group: str, accept: Callable[[str, Any], bool]) -> None:
    """Load the entry points of ``group``: ``accept(name, obj)`` registers ``obj`` and returns
    ``True``, or returns ``False`` when it is not something it can register. A module is
    taken as registering what it holds on import (accepted as it is)."""
    for name, value, obj in iter_entry_points(group):
        if isinstance(obj, ModuleType):
            continue
        try:
            ok = accept(name, obj)
        except Exception as exc:  # noqa: BLE001
            record_error(group, name, f"{value}: {type(exc).__name__}: {exc}")
            continue
        if not ok:
            record_error(group, name, f"{value} is {type(obj).__name__}, not what the group "
                                      f"{group!r} registers")
