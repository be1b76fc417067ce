"""cardmind games as OpenSpiel games (optional extra: ``pip install "cardmind[openspiel]"``).

Importing this module registers every cardmind game that has an action codec
(:mod:`cardmind.adapters.codec`) with OpenSpiel under ``cardmind_<name>``::

    import pyspiel
    import cardmind.adapters.openspiel  # registers cardmind_literature, cardmind_gofish

    game = pyspiel.load_game("cardmind_literature", {"players": 8})
    state = game.new_initial_state()      # 54 (or 48) chance nodes deal the cards
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)

One generic pair of classes serves every game (:class:`CardmindGame`, :class:`CardmindState`),
driven by the game's cardmind interface through :class:`~cardmind.adapters.world.World`:

* sequential, imperfect information, **explicit stochastic chance** (one chance node per
  card dealt, uniform over the cards left), zero-sum **terminal** rewards from the codec;
* **parameters**: every option of the cardmind game (same names, same defaults), the
  codec's parameters (Literature: ``claims``) and ``max_actions`` (decisions after which
  the game stops, default 3000, as in tournaments) and ``truncation`` (``"draw"`` or
  ``"score"``: what a stopped game is worth);
* **actions**: the codec's ids, plus ``decline`` (id ``codec.num_actions``) for a seat
  offered an out-of-turn action (Literature claims under ``claim_any_time``);
* **information state string**: the seat, its dealt hand and every event, notice and
  decline as it saw them (perfect recall); **observation string**: a one-line summary of
  its view; **tensors** (information state and observation): the codec's fixed-size vector
  of the view (not perfect recall; see ``docs/adapters.md`` for the layouts);
* :meth:`CardmindState.resample_from_infostate` draws a complete state the player cannot
  tell from this one with the codec's resampler (Literature: cardmind's exact uniform
  sampler), as OpenSpiel's IS-MCTS needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from ..core import get_game
from .codec import ActionCodec, codec_class, codec_names
from .world import CHANCE, World

PREFIX = "cardmind_"
#: adapter parameters every game has, with their defaults
ADAPTER_PARAMS: dict[str, Any] = {"max_actions": 3000, "truncation": "draw"}


def short_name(game_name: str) -> str:
    """The OpenSpiel name of a cardmind game (``cardmind_literature``)."""
    return PREFIX + game_name


def parameter_spec(game_name: str) -> dict[str, Any]:
    """OpenSpiel parameters of a cardmind game with their defaults: the game's options, the
    codec's parameters and :data:`ADAPTER_PARAMS`."""
    game = get_game(game_name)
    spec: dict[str, Any] = {}
    for o in game.option_specs:
        spec[o.name] = _os_value(o.default)
    spec.update(codec_class(game_name).params)
    spec.update(ADAPTER_PARAMS)
    return spec


def _os_value(value: Any) -> Any:
    """An option default as an OpenSpiel parameter: a string of digits becomes an integer
    (Literature's ``deck``), since OpenSpiel's game strings read ``deck=48`` as a number."""
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return value


def _player_range(game_name: str) -> tuple[int, int]:
    game = get_game(game_name)
    for o in game.option_specs:
        if o.name == "players" and o.choices:
            return min(o.choices), max(o.choices)
    n = game.num_seats(game.parse_options(None))
    return n, n


def game_type(game_name: str) -> pyspiel.GameType:
    """The :class:`pyspiel.GameType` of a cardmind game."""
    game = get_game(game_name)
    lo, hi = _player_range(game_name)
    return pyspiel.GameType(
        short_name=short_name(game_name),
        long_name=f"cardmind {game.title or game_name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_spec(game_name),
    )


def split_params(game_name: str, params: Mapping[str, Any] | None) -> tuple[dict, dict, dict]:
    """``(cardmind options, codec parameters, adapter parameters)`` from OpenSpiel parameters
    (missing ones take their defaults).

    Raises:
        ValueError: an unknown parameter name.
    """
    game = get_game(game_name)
    spec = parameter_spec(game_name)
    params = dict(params or {})
    unknown = set(params) - set(spec)
    if unknown:
        raise ValueError(f"{short_name(game_name)} has no parameter {sorted(unknown)[0]!r} "
                         f"(parameters: {', '.join(spec)})")
    full = {**spec, **{k: _os_value(v) for k, v in params.items()}}
    names = {o.name for o in game.option_specs}
    codec_params = codec_class(game_name).params
    return ({k: v for k, v in full.items() if k in names},
            {k: v for k, v in full.items() if k in codec_params},
            {k: v for k, v in full.items() if k in ADAPTER_PARAMS})


class CardmindGame(pyspiel.Game):
    """A cardmind game as an OpenSpiel game (subclassed once per cardmind game by
    :func:`register_games`; load it with ``pyspiel.load_game("cardmind_<name>", params)``).

    Attributes:
        codec: the game's :class:`~cardmind.adapters.codec.ActionCodec` for these options.
        max_actions: decisions after which a game is stopped.
        truncation: ``"draw"`` or ``"score"``.
    """

    cardmind_name: str = ""

    def __init__(self, params: Mapping[str, Any] | None = None):
        options, codec_params, adapter = split_params(self.cardmind_name, params)
        self.codec: ActionCodec = codec_class(self.cardmind_name)(get_game(self.cardmind_name), options,
                                                                  codec_params)
        self.max_actions = int(adapter["max_actions"])
        self.truncation = str(adapter["truncation"])
        if self.max_actions < 1:
            raise ValueError("max_actions must be at least 1")
        if self.truncation not in ("draw", "score"):
            raise ValueError(f"truncation must be 'draw' or 'score', not {self.truncation!r}")
        lo, hi = self.codec.utility_range()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.num_actions + 1,
            max_chance_outcomes=len(self.codec.deck()),
            num_players=self.codec.num_seats,
            min_utility=float(lo),
            max_utility=float(hi),
            utility_sum=0.0,
            max_game_length=self.max_actions,
        )
        full = {**parameter_spec(self.cardmind_name), **{k: _os_value(v) for k, v in dict(params or {}).items()}}
        super().__init__(game_type(self.cardmind_name), info, full)

    def new_initial_state(self) -> "CardmindState":
        """A state before the deal (the first chance node)."""
        return CardmindState(self)

    def max_chance_nodes_in_history(self) -> int:
        """One chance node per card."""
        return len(self.codec.deck())

    def make_py_observer(self, iig_obs_type=None, params=None) -> "CardmindObserver":
        """The observer OpenSpiel uses for observation and information state strings/tensors."""
        return CardmindObserver(self, iig_obs_type, params)

    def state_from_world(self, world: World) -> "CardmindState":
        """An OpenSpiel state for ``world``. When the world knows its deal order and
        decisions, the state's ``history()`` is the real one (chance outcomes, then action
        ids); a world built from a seat's view has an empty history."""
        st = CardmindState(self)
        if world.decisions is not None and len(world.order) == len(world.deck):
            players = [CHANCE] * len(world.order) + [s for s, _ in world.decisions]
            actions = list(world.order) + [a for _, a in world.decisions]
            st._replay = players[::-1]
            for a in actions:
                st.apply_action(a)
            st._replay = None
        st._world = world
        return st


class CardmindState(pyspiel.State):
    """A state of a cardmind game in OpenSpiel (wraps a :class:`~cardmind.adapters.world.World`)."""

    def __init__(self, game: CardmindGame):
        super().__init__(game)
        self._world = World(game.codec, game.max_actions, game.truncation)
        self._replay: list[int] | None = None

    @property
    def world(self) -> World:
        """The underlying world (the complete cardmind state is ``world.state``)."""
        return self._world

    # ------------------------------------------------------------------ OpenSpiel API
    def current_player(self) -> int:
        """The seat deciding now, ``CHANCE`` while dealing, ``TERMINAL`` at the end."""
        if self._replay is not None:
            return self._replay[-1]
        return self._world.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        """Sorted legal action ids of ``player`` (the seat deciding now)."""
        return self._world.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards that may be dealt next, equally likely."""
        return self._world.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self._replay is not None:
            self._replay.pop()
            return
        if self._world.is_chance():
            self._world.apply_chance(int(action))
        else:
            self._world.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            card = self._world.deck[action]
            # with several decks a token has copies: the deck index tells them apart
            return f"deal {card}" if self._world.codec.distinct_cards() else f"deal {card}#{action}"
        return self._world.codec.action_name(int(action), player)

    def is_terminal(self) -> bool:
        """Whether the game is over (or was stopped at ``max_actions``)."""
        return self._world.is_over()

    def returns(self) -> list[float]:
        """The codec's zero-sum rewards at the end; zeros before."""
        return self._world.returns()

    def __str__(self) -> str:
        return str(self._world)

    # ------------------------------------------------------------------ resampling
    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> "CardmindState":
        """A state that ``player_id`` cannot tell from this one (same information state
        string), with the hidden cards drawn by the codec's resampler.

        Args:
            player_id: the seat whose information is kept.
            probability_sampler: the source of randomness: OpenSpiel's convention (a callable
                returning floats in [0, 1), such as ``pyspiel.UniformProbabilitySampler``),
                a :class:`numpy.random.Generator`, an ``int`` seed, or ``None``.
        """
        rng = _as_rng(probability_sampler)
        world = self._world.codec.resample(self._world, player_id, rng)
        return self.get_game().state_from_world(world)


def _as_rng(sampler) -> np.random.Generator:
    if isinstance(sampler, np.random.Generator):
        return sampler
    if sampler is None or isinstance(sampler, (int, np.integer)):
        return np.random.default_rng(sampler)
    if callable(sampler):
        words = [int(float(sampler()) * 2 ** 32) & 0xFFFFFFFF for _ in range(4)]
        return np.random.default_rng(words)
    raise TypeError(f"cannot draw random numbers from {sampler!r}")


class CardmindObserver:
    """OpenSpiel's Python observer (see ``open_spiel/python/observation.py``).

    Strings: perfect-recall types give :meth:`World.info_string` (the seat's whole history),
    others :meth:`World.observation_string`. Tensor: the codec's observation vector of the
    seat's view (``dict["observation"]``), for every type. Only the single player's private
    information is supported (the default observation and information state types).
    """

    def __init__(self, game: CardmindGame, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("cardmind observers only support private_info=SINGLE_PLAYER")
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        self.tensor = np.zeros(game.codec.observation_size(), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardmindState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation of ``state``."""
        self.tensor[:] = state.world.observation(player)

    def string_from(self, state: CardmindState, player: int) -> str:
        """``player``'s information state string (perfect recall) or observation string."""
        w = state.world
        return w.info_string(player) if self.perfect_recall else w.observation_string(player)


_REGISTERED: dict[str, type[CardmindGame]] = {}


def register_games() -> list[str]:
    """Register every cardmind game with a codec with OpenSpiel (idempotent); return their
    OpenSpiel names."""
    known = set(pyspiel.registered_names())
    out = []
    for name in codec_names():
        sname = short_name(name)
        if name not in _REGISTERED:
            cls = type(f"Cardmind{name.title().replace('_', '')}Game", (CardmindGame,), {"cardmind_name": name})
            _REGISTERED[name] = cls
            if sname not in known:
                pyspiel.register_game(game_type(name), cls)
        out.append(sname)
    return out


def load_game(game_name: str, params: Mapping[str, Any] | None = None) -> CardmindGame:
    """``pyspiel.load_game`` for a cardmind game by its cardmind name (registering first)."""
    register_games()
    return pyspiel.load_game(short_name(game_name), {k: _os_value(v) for k, v in dict(params or {}).items()})


register_games()

__all__ = ["CardmindGame", "CardmindState", "CardmindObserver", "register_games", "load_game", "short_name",
           "parameter_spec", "split_params", "game_type", "PREFIX", "ADAPTER_PARAMS"]
