"""Action codecs: the per-game part of the ecosystem adapters.

Every adapter (:mod:`cardmind.adapters.openspiel`, :mod:`cardmind.adapters.pettingzoo`) is
generic: it drives a cardmind :class:`~cardmind.core.Game` through
:class:`~cardmind.adapters.world.World` and asks the game's :class:`ActionCodec` for the
few things the cardmind interface does not say:

* a **fixed enumeration of every action** (:attr:`ActionCodec.num_actions`,
  :meth:`~ActionCodec.encode`, :meth:`~ActionCodec.decode`): integer ids that do not
  depend on the state, so a policy network or a search tree can use them;
* the **deal as chance**: the cards of the deck (:meth:`~ActionCodec.deck`) and which
  seat (or the stock) each dealt position goes to (:meth:`~ActionCodec.deal_positions`);
* **rewards** (:meth:`~ActionCodec.returns`): cardmind's ``Result.outcome`` made zero-sum;
* a fixed-size **observation vector** of a seat's view (:meth:`~ActionCodec.observation`);
* optionally a **resampler** (:meth:`~ActionCodec.resample`): a complete world consistent
  with one seat's information, for IS-MCTS and other determinizing searches.

A game plugs into both adapters by returning its codec class from
:meth:`~cardmind.core.Game.codec_class` (or registering one with :func:`register_codec`)::

    from cardmind.adapters.codec import ActionCodec

    class MyCodec(ActionCodec):
        game_name = "mygame"
        ...

Nothing in this module needs OpenSpiel or PettingZoo.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..core import Game, Result, State, get_game

if TYPE_CHECKING:  # pragma: no cover
    from .world import World


class ActionCodec:
    """The per-game part of the adapters (see the module docstring).

    A codec is built for one game and one set of parsed options; the action ids it defines
    are ``0 .. num_actions - 1``. The adapters add one id of their own after these:
    ``decline_id == num_actions``, "let play go on" for a seat offered an out-of-turn action
    (a claim under Literature's ``claim_any_time``).

    Args:
        game: the cardmind game.
        options: raw or parsed options (parsed here).
        params: adapter parameters the codec accepts (see :attr:`params`).
    """

    #: the cardmind game this codec serves (its registry name)
    game_name: ClassVar[str] = ""
    #: extra adapter parameters (name -> default) this codec understands beyond the game's options
    params: ClassVar[dict[str, Any]] = {}

    def __init__(self, game: Game | None = None, options: Mapping[str, Any] | None = None,
                 params: Mapping[str, Any] | None = None):
        self.game = game if game is not None else get_game(self.game_name)
        self.options = self.game.parse_options(options)
        params = dict(params or {})
        unknown = set(params) - set(self.params)
        if unknown:
            raise ValueError(f"{self.game.name} adapters have no parameter {sorted(unknown)[0]!r} "
                             f"(parameters: {', '.join(self.params) or 'none'})")
        self.param_values = {**self.params, **params}
        self.num_seats = self.game.num_seats(self.options)

    # ------------------------------------------------------------------ the deal
    def deck(self) -> tuple[str, ...]:
        """Every card the deal shuffles, in canonical order (chance outcome ``i`` deals card ``deck()[i]``)."""
        raise NotImplementedError

    def deck_index(self) -> dict[str, int]:
        """``{card: index in deck()}`` (cached)."""
        idx = self.__dict__.get("_deck_index")
        if idx is None:
            idx = self.__dict__["_deck_index"] = {c: i for i, c in enumerate(self.deck())}
        return idx

    def deal_positions(self) -> tuple[int | None, ...]:
        """For each position of the shuffled deck, the seat it is dealt to (``None``: the stock,
        in draw order). Must have ``len(deck())`` entries."""
        raise NotImplementedError

    def deal_pool(self, position: int) -> tuple[int, int] | None:
        """The range ``(lo, hi)`` of :meth:`deck` indices that deal position ``position`` is dealt
        from, for a game dealt several times (each deal its own copy of the cards: positions of
        deal ``k`` draw from deal ``k``'s part of ``deck()``); ``None`` (the default): any
        remaining card."""
        return None

    def header_from_order(self, cards: Sequence[str]) -> dict:
        """The hidden part of a complete header (``hands``, and ``stock`` when some positions
        go to the stock) for the deck dealt in the order ``cards``."""
        hands: list[list[str]] = [[] for _ in range(self.num_seats)]
        stock: list[str] = []
        for pos, card in zip(self.deal_positions(), cards):
            (stock if pos is None else hands[pos]).append(card)
        out: dict[str, Any] = {"hands": hands}
        if any(p is None for p in self.deal_positions()):
            out["stock"] = stock
        return out

    def order_from_header(self, header: Mapping[str, Any]) -> list[str]:
        """The inverse of :meth:`header_from_order`: one dealing order giving ``header``."""
        queues = [list(h) for h in header["hands"]]
        stock = list(header.get("stock") or [])
        out = []
        for pos in self.deal_positions():
            out.append(stock.pop(0) if pos is None else queues[pos].pop(0))
        return out

    # ------------------------------------------------------------------ actions
    @property
    def num_actions(self) -> int:
        """Number of action ids of the game (the adapters' ``decline_id`` is this number)."""
        raise NotImplementedError

    @property
    def decline_id(self) -> int:
        """The adapters' id for "no out-of-turn action" (one past the game's own ids)."""
        return self.num_actions

    def encode(self, action: Any) -> int:
        """The id of a cardmind action (its acting seat is ``action.seat``)."""
        raise NotImplementedError

    def decode(self, action_id: int, seat: int) -> Any:
        """The cardmind action of id ``action_id`` taken by ``seat``.

        Raises:
            ValueError: not an id of this game (or not one ``seat`` can take).
        """
        raise NotImplementedError

    def legal_ids(self, state: State, seat: int) -> list[int]:
        """Sorted ids of every legal action of ``seat`` in the complete ``state``."""
        return sorted({self.encode(a) for a in state.legal_actions(seat)})

    def action_name(self, action_id: int, seat: int) -> str:
        """A short readable name of an action id (JSON of the cardmind action)."""
        if action_id == self.decline_id:
            return "decline"
        return json.dumps(self.decode(action_id, seat).to_json(), separators=(",", ":"))

    # ------------------------------------------------------------------ outcome
    zero_sum: ClassVar[bool] = True

    def returns(self, result: Result) -> list[float]:
        """Rewards at the end of a game (default: ``outcome - mean(outcome)``, zero-sum)."""
        out = np.asarray(result.outcome, dtype=float)
        return list(out - out.mean())

    def partial_returns(self, state: State) -> list[float]:
        """Rewards of a game stopped before its end (see the ``truncation`` parameter):
        a zero-sum estimate from the scores so far (default: all zero)."""
        return [0.0] * self.num_seats

    def utility_range(self) -> tuple[float, float]:
        """``(min, max)`` of any seat's reward."""
        return (-1.0, 1.0)

    # ------------------------------------------------------------------ observations
    def observation_size(self) -> int:
        """Length of :meth:`observation`."""
        raise NotImplementedError

    def observation(self, view: State, seat: int) -> np.ndarray:
        """A fixed-size float32 vector of what ``seat`` knows now (``view`` is its view state)."""
        raise NotImplementedError

    def observation_string(self, view: State, seat: int) -> str:
        """A readable summary of what ``seat`` knows now (not the whole history)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ information
    def info_piece(self, entry: tuple, seat: int) -> str:
        """One entry of the world's log as ``seat`` sees it, as text (the information state
        string is the seat's dealt hand followed by these pieces)."""
        kind = entry[0]
        if kind == "event":
            return json.dumps(entry[1], separators=(",", ":"), sort_keys=True)
        if kind == "notice":
            return "notice " + json.dumps(entry[1], separators=(",", ":"), sort_keys=True)
        return f"decline {entry[1]}"

    # ------------------------------------------------------------------ resampling
    #: whether :meth:`resample` draws exactly uniformly among the worlds consistent with
    #: the seat's information (documented per codec)
    exact_resampler: ClassVar[bool] = False

    def resample(self, world: "World", seat: int, rng: np.random.Generator) -> "World":
        """A complete world that ``seat`` cannot tell from ``world`` (same dealt hand, same
        log as it sees it), drawn at random; the default is rejection sampling (shuffle
        every card ``seat`` was not dealt, replay, keep the first deal that gives the same
        observations), fine for short histories only.

        Raises:
            RuntimeError: no consistent deal was found within the attempts.
        """
        from .world import replay_deal  # noqa: PLC0415

        own = set(world.dealt_hand(seat))
        order = world.deal_order()
        free = [i for i, p in enumerate(self.deal_positions()) if p != seat]
        cards = [order[i] for i in free]
        target = world.info_pieces(seat)
        for _ in range(2000):
            perm = rng.permutation(len(cards))
            new_order = list(order)
            for i, k in zip(free, perm):
                new_order[i] = cards[k]
            assert own == {new_order[i] for i, p in enumerate(self.deal_positions()) if p == seat}
            w = replay_deal(world, new_order)
            if w is not None and w.info_pieces(seat) == target:
                return w
        raise RuntimeError(f"{self.game.name}: no consistent deal found by rejection sampling; "
                           f"this game's codec needs its own resampler")


_CODECS: dict[str, type[ActionCodec]] = {}


def register_codec(cls: type[ActionCodec]) -> type[ActionCodec]:
    """Register a codec class for ``cls.game_name`` (usable as a class decorator)."""
    _CODECS[cls.game_name] = cls
    return cls


def _load_builtin() -> None:
    """Register the codec of every registered game that has one (``Game.codec_class``)."""
    from ..core import game_names  # noqa: PLC0415

    for name in game_names():
        if name not in _CODECS:
            cls = get_game(name).codec_class()
            if cls is not None:
                _CODECS[name] = cls


def codec_names() -> list[str]:
    """Names of the games that have a codec (so adapters)."""
    _load_builtin()
    return sorted(_CODECS)


def codec_class(game_name: str) -> type[ActionCodec]:
    """The codec class of ``game_name``.

    Raises:
        ValueError: the game has no codec.
    """
    _load_builtin()
    try:
        return _CODECS[game_name]
    except KeyError:
        raise ValueError(f"no adapter codec for game {game_name!r} (codecs: {', '.join(sorted(_CODECS))})") from None


def make_codec(game_name: str, options: Mapping[str, Any] | None = None,
               params: Mapping[str, Any] | None = None) -> ActionCodec:
    """A codec for ``game_name`` with ``options`` (raw) and adapter ``params``."""
    return codec_class(game_name)(get_game(game_name), options, params)


__all__ = ["ActionCodec", "register_codec", "codec_names", "codec_class", "make_codec"]
