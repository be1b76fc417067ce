"""The one agent interface every cardmind player implements, for every game.

An agent is built for a game, a seat, the options and its dealt hand (and optional
settings). It sees only its own view: its hand, then every event as *its seat* sees it
(:meth:`observe`). When its seat must act, :meth:`act` returns a legal action; where the
rules let a seat act out of turn (claims under ``claim_any_time`` in Literature), the game
loop offers it the chance after every event through :meth:`react`, which returns an
action or ``None``. Randomness comes only from the :class:`numpy.random.Generator`
passed in.

Writing your own agent::

    from cardmind.agents import Agent, register_agent

    class FirstAsk(Agent):
        '''Always makes the first legal action (every game's state lists them).'''
        name = "first"

        def act(self, rng):
            return self.state.legal_actions(self.seat)[0]

    register_agent(FirstAsk)        # now `--agents first,random` works in tournaments

Agents are named in tournaments by registry name or as ``package.module:Class``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from ..core import Event, Game, State


class Agent:
    """Base class: keeps the seat's view state up to date.

    Args:
        game: the game being played.
        seat: this agent's seat (0-based).
        options: the game's parsed options.
        header: the seat's view of the deal: ``{"observer": seat, "hand": [...]}`` (plus any
            game-specific keys a player's record header carries).
        settings: agent-specific settings (documented per agent); unknown keys raise
            ``ValueError``.

    Attributes:
        state: the seat's view (:class:`~cardmind.core.State` built from ``header``),
            advanced by :meth:`observe`.
    """

    #: registry name
    name: ClassVar[str] = "agent"
    #: games this agent can play (empty = every game)
    games: ClassVar[tuple[str, ...]] = ()
    #: settings accepted, with defaults
    default_settings: ClassVar[dict[str, Any]] = {}

    def __init__(self, game: Game, seat: int, options: Mapping[str, Any], header: Mapping[str, Any],
                 settings: Mapping[str, Any] | None = None):
        self.game = game
        self.seat = seat
        self.options = dict(options)
        self.header = dict(header)
        self.settings = self.check_settings(settings)
        self.state: State = game.new_state(self.options, self.header)

    @classmethod
    def check_settings(cls, settings: Mapping[str, Any] | None) -> dict[str, Any]:
        """The full settings (defaults filled in) after checking ``settings``: every key must be
        one of :attr:`default_settings` and every value of its default's kind (a number where
        the default is a number, an integer where it is an integer, a string where it is a
        string, ``true``/``false`` where it is a boolean). An agent checks finer limits itself.

        Raises:
            ValueError: an unknown setting or a value of the wrong kind (naming both).
        """
        settings = dict(settings or {})
        unknown = set(settings) - set(cls.default_settings)
        if unknown:
            raise ValueError(f"agent {cls.name!r} has no setting {sorted(unknown)[0]!r} "
                             f"(settings: {', '.join(cls.default_settings) or 'none'})")
        for key, value in settings.items():
            default = cls.default_settings[key]
            if isinstance(default, bool):
                ok, kind = isinstance(value, bool), "true or false"
            elif isinstance(default, int):
                ok, kind = isinstance(value, int) and not isinstance(value, bool), "an integer"
            elif isinstance(default, float):
                ok, kind = isinstance(value, (int, float)) and not isinstance(value, bool), "a number"
            elif isinstance(default, str):
                ok, kind = isinstance(value, str), "a string"
            else:
                ok, kind = True, ""
            if not ok:
                raise ValueError(f"agent {cls.name!r}: setting {key!r} must be {kind} "
                                 f"(default {default!r}), not {value!r}")
        return {**cls.default_settings, **settings}

    def legal_now(self) -> list:
        """The legal actions of this seat in its view now (``state.legal_actions(seat)``).

        Raises:
            RuntimeError: there is none (the agent was asked to act out of turn).
        """
        actions = self.state.legal_actions(self.seat)
        if not actions:
            raise RuntimeError(f"seat {self.seat} has no legal action now")
        return actions

    def observe(self, event: Event) -> None:
        """Take in one event as this seat sees it (the base class advances :attr:`state`)."""
        self.state.apply_event(event)

    def notice(self, info: Event) -> None:
        """Take in public facts of a decision under way (see ``State.pending_notice``)."""
        self.state.apply_pending_notice(info)

    def act(self, rng: np.random.Generator):
        """Return a legal action for this seat, which is to move now."""
        raise NotImplementedError

    def react(self, rng: np.random.Generator):
        """Return an out-of-turn action (for example a claim), or ``None`` to let play go on.
        Called after every event when the rules let this seat act now though not on turn."""
        return None


_AGENTS: dict[tuple[str, str], type[Agent]] = {}


def register_agent(cls: type[Agent]) -> type[Agent]:
    """Register an agent class under ``cls.name`` for each game in ``cls.games`` (usable as a
    class decorator). The same name may serve several games with one class per game
    (``random`` for Literature and for Go Fish); a class with no ``games`` plays every game."""
    for g in cls.games or ("*",):
        _AGENTS[(cls.name, g)] = cls
    return cls


def agent_names(game: str | None = None) -> list[str]:
    """Names of the registered agents (for ``game`` only, when given)."""
    _load_builtin()
    return sorted({n for (n, g) in _AGENTS if game is None or g in (game, "*")})


def agent_table() -> dict[str, list[str]]:
    """``{agent name: [games it plays]}`` (``"*"`` = every game)."""
    _load_builtin()
    out: dict[str, list[str]] = {}
    for (n, g) in sorted(_AGENTS):
        out.setdefault(n, []).append(g)
    return out


def resolve_agent(spec: str, game: Game | str | None = None) -> type[Agent]:
    """The agent class named ``spec`` for ``game``: a registry name, or ``package.module:Class``.

    Raises:
        ValueError: unknown name, unimportable module, not an :class:`Agent`, or an agent
            that does not play ``game`` (or a name that several games use, without ``game``).
    """
    _load_builtin()
    gname = game.name if isinstance(game, Game) else game
    if ":" in spec:
        import importlib  # noqa: PLC0415

        mod_name, _, cls_name = spec.partition(":")
        try:
            mod = importlib.import_module(mod_name)
        except ModuleNotFoundError as exc:
            # like `python -m`, look in the current folder too (the console script does not)
            import os  # noqa: PLC0415
            import sys  # noqa: PLC0415

            cwd = os.getcwd()
            if cwd in sys.path:
                raise ValueError(f"cannot import agent module {mod_name!r}: {exc}") from None
            sys.path.append(cwd)
            try:
                mod = importlib.import_module(mod_name)
            except ImportError as exc2:
                raise ValueError(f"cannot import agent module {mod_name!r}: {exc2} (searched the "
                                 f"current folder and sys.path; set PYTHONPATH to its folder)") from None
        except ImportError as exc:
            raise ValueError(f"cannot import agent module {mod_name!r}: {exc}") from None
        cls = getattr(mod, cls_name, None)
        if cls is None:
            raise ValueError(f"module {mod_name!r} has no {cls_name!r}")
        if not (isinstance(cls, type) and issubclass(cls, Agent)):
            raise ValueError(f"{spec!r} is not a cardmind Agent subclass")
        if gname is not None and cls.games and gname not in cls.games:
            raise ValueError(f"agent {spec!r} does not play {gname} (it plays {', '.join(cls.games)})")
        return cls
    if gname is not None:
        cls = _AGENTS.get((spec, gname)) or _AGENTS.get((spec, "*"))
        if cls is not None:
            return cls
        games = [g for (n, g) in _AGENTS if n == spec]
        if games:
            raise ValueError(f"agent {spec!r} does not play {gname} (it plays {', '.join(sorted(games))})")
    else:
        found = {c for (n, _), c in _AGENTS.items() if n == spec}
        if len(found) == 1:
            return found.pop()
        if found:
            raise ValueError(f"agent {spec!r} exists for several games: say which game")
    raise ValueError(f"unknown agent {spec!r} (known: {', '.join(agent_names(gname))}, or package.module:Class)")


_LOADED: set[str] = set()
_PLUGINS_LOADED = False


def _load_builtin() -> None:
    """Register the agents every registered game brings (``Game.agent_classes``), then (once)
    the agents of the ``cardmind.agents`` entry points (:mod:`cardmind.plugins`)."""
    global _PLUGINS_LOADED  # noqa: PLW0603
    from ..core import game_names, get_game  # noqa: PLC0415

    for name in game_names():
        if name in _LOADED:
            continue
        _LOADED.add(name)
        for cls in get_game(name).agent_classes():
            for g in cls.games or (name,):
                _AGENTS[(cls.name, g)] = cls
    if _PLUGINS_LOADED:
        return
    _PLUGINS_LOADED = True
    from ..plugins import AGENT_GROUP, load_group  # noqa: PLC0415

    def accept(name: str, obj: Any) -> bool:
        classes = obj if isinstance(obj, (list, tuple)) else [obj]
        if not classes or not all(isinstance(c, type) and issubclass(c, Agent) for c in classes):
            return False
        for c in classes:
            register_agent(c)
        return True

    load_group(AGENT_GROUP, accept)
