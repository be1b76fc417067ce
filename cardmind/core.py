"""The interface every game implements: :class:`Game`, :class:`State`, actions and events.

A game is a stateless :class:`Game` object (registered by its record name) that knows
its options, how to deal, and how to build a :class:`State`. A state follows the play:

* **Actions** are what a player decides (an ask, a claim, ...). They are small frozen
  dataclasses with a ``seat`` (who acts) and ``to_json()``.
* **Events** are what happens at the table, exactly as the record format writes them
  (``records.md``): plain ``dict`` objects with a ``"type"``. Applying an action to a
  state that knows every hand resolves it into events (an ask becomes an ask with its
  ``success``); every state, including one that knows only a single player's hand,
  is advanced by :meth:`State.apply_event`, which checks the rules against what that
  state knows and raises :class:`~cardmind.errors.IllegalAction` when one is broken.

Rules stay pure: a state never reads files, prints, or draws random numbers; randomness
is passed in as a seeded :class:`numpy.random.Generator`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import IllegalAction, OptionError

Event = dict[str, Any]


@dataclass(frozen=True)
class OptionSpec:
    """One named option of a game.

    Attributes:
        name: the option's name as written in record headers (``"claim_any_time"``).
        default: the value used when the option is absent.
        doc: one line saying what it changes.
        coerce: turns a raw JSON value into the option's value; raises ``ValueError``
            with a readable reason when the value is not accepted.
        choices: the accepted values, when they form a short list (for help texts).
    """

    name: str
    default: Any
    doc: str
    coerce: Callable[[Any], Any]
    choices: tuple | None = None


def bool_option(value: Any) -> bool:
    """Coerce a JSON boolean option (only ``true``/``false`` are accepted)."""
    if isinstance(value, bool):
        return value
    raise ValueError(f"expected true or false, got {value!r}")


def choice_option(*choices: Any) -> Callable[[Any], Any]:
    """Return a coercer accepting exactly one of ``choices``."""

    def coerce(value: Any) -> Any:
        if isinstance(value, bool) or value not in choices:
            raise ValueError(f"expected one of {', '.join(repr(c) for c in choices)}, got {value!r}")
        return value

    return coerce


def int_option(lo: int, hi: int) -> Callable[[Any], int]:
    """Return a coercer accepting an integer in ``[lo, hi]``."""

    def coerce(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(f"expected an integer from {lo} to {hi}, got {value!r}")
        return value

    return coerce


@dataclass(frozen=True)
class CliOption:
    """A command-line option of ``cardmind hint`` and ``cardmind belief`` that a game brings
    (see :attr:`Game.cli_options`); the CLI passes its value to :meth:`Game.tracker_settings`.

    Attributes:
        flag: the option as typed (``"--precision"``).
        dest: the key of its value in ``tracker_settings`` (``"precision"``).
        type: turns the typed text into the value; raises ``argparse.ArgumentTypeError``
            (or ``ValueError``) with a readable reason (unused by a switch).
        metavar: the value's name in the usage line (unused by a switch).
        help: what it does (one paragraph).
        switch: the option takes no value: its value is ``True`` when given, else ``None``
            (Go Fish's ``--exact``).
    """

    flag: str
    dest: str
    type: Callable[[str], Any] | None
    metavar: str
    help: str
    switch: bool = False


@dataclass(frozen=True)
class HintParam:
    """A keyword parameter of a game's hint engine (see :attr:`Game.hint_params`): what
    ``cardmind hint`` passes (``--asks`` gives ``max_asks``) and the protocol's ``hint`` takes
    in ``params``.

    Attributes:
        name: the keyword (``"max_asks"``).
        default: its value when not given (the engine's own default).
        kind: the record value kind it must have (:data:`cardmind.records.SHARED_KINDS`,
            e.g. ``"count"``: a non-negative integer); the protocol checks it.
        doc: what it does in this game, one phrase (``"how many discards to list"``).
        nullable: ``None`` is accepted too (the engine then uses its setting).
    """

    name: str
    default: Any
    kind: str
    doc: str
    nullable: bool = False


#: the parameter most hint engines take: how many options to list
MAX_ASKS = HintParam("max_asks", 10, "count", "how many asks to list")


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game.

    Attributes:
        scores: points per seat in the game's own unit (sets won by the seat's team in
            Literature, books in Go Fish); higher is better.
        outcome: per seat ``1.0`` for a win, ``0.5`` for a draw (a shared first place),
            ``0.0`` for a loss.
        detail: game-specific extra facts (team totals, void sets, ...).
    """

    scores: tuple[float, ...]
    outcome: tuple[float, ...]
    detail: dict = field(default_factory=dict)


@dataclass(frozen=True)
class RefereeStep:
    """What one action did at the referee (:meth:`State.referee_step`).

    Attributes:
        events: the complete record events it made, in order (possibly none, when a decision
            is now under way).
        notice: the decision now under way that has no event yet
            (:meth:`State.pending_notice`), to pass to every seat *before* the events; or ``None``.
        views: per seat (a list indexed by seat), that seat's view of ``events``
            (:meth:`State.redact`); empty when not asked for.
    """

    events: list
    notice: dict | None
    views: list = field(default_factory=list)


class State(ABC):
    """A game in progress, as far as one party knows it.

    A *complete* state knows every hand (a dealer, a tournament referee, a complete
    record); a *view* knows one seat's hand and the public events (an agent, a player's
    record). Both are advanced by :meth:`apply_event`; only a complete state can resolve
    an action with :meth:`apply_action`.
    """

    game: "Game"
    options: dict
    #: the seat whose view this is, or ``None`` for a complete state (a game's states set it)
    observer: int | None = None

    @property
    @abstractmethod
    def num_seats(self) -> int:
        """Number of seats (players)."""

    @abstractmethod
    def to_move(self) -> int | None:
        """The seat whose turn (or pending decision) it is; ``None`` when the game is over."""

    def actors(self) -> list[int]:
        """Seats that may act now: the seat on turn first, then any seat allowed to act
        out of turn (for example a claim under ``claim_any_time``). Empty when over."""
        t = self.to_move()
        return [] if t is None else [t]

    @abstractmethod
    def legal_actions(self, seat: int) -> list:
        """Every legal action for ``seat`` now (empty when it may not act)."""

    @abstractmethod
    def check_action(self, action) -> None:
        """Raise :class:`~cardmind.errors.IllegalAction` naming the broken rule unless
        ``action`` is legal now (checked against what this state knows)."""

    @abstractmethod
    def apply_action(self, action) -> list[Event]:
        """Resolve and apply a legal action; return the complete-record events it made.

        Raises:
            IllegalAction: the action breaks a rule.
            ValueError: the state does not know the hands the outcome depends on.
        """

    @abstractmethod
    def apply_event(self, event: Event) -> None:
        """Advance by one record event, checking it against the rules and what is known.

        Raises:
            IllegalAction: the event breaks a rule or contradicts a known hand.
        """

    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def result(self) -> Result:
        """The outcome; only valid when :meth:`is_over`."""

    @abstractmethod
    def view(self, seat: int) -> "State":
        """A copy that knows only what ``seat`` knows (its hand and public facts)."""

    def _view_of_a_view(self, seat: int) -> "State | None":
        """The start of :meth:`view` for a game whose states have ``observer`` and ``players``:
        a view's copy when this state is ``seat``'s own view, ``None`` for a complete state
        (the game then builds the view).

        Raises:
            ValueError: this is another seat's view, or ``seat`` is not a seat.
        """
        observer = self.observer
        if observer is not None:
            if seat == observer:
                return self.copy()
            raise ValueError(f"this is seat {observer}'s view; it cannot be seen from seat {seat}")
        if not 0 <= seat < self.players:
            raise ValueError(f"seat {seat} is not a seat (0-{self.players - 1})")
        return None

    @abstractmethod
    def redact(self, event: Event, seat: int) -> Event:
        """``event`` as ``seat`` sees it (hidden parts replaced as records.md says)."""

    def pending_notice(self) -> Event | None:
        """Public facts of a decision under way that has no record event yet (in Literature:
        a claim whose cards are shown, waiting for the choice of who plays next), or ``None``.
        Game loops pass it to every agent with :meth:`apply_pending_notice`."""
        return None

    def apply_pending_notice(self, notice: Event) -> None:
        """Take in a :meth:`pending_notice` from the referee's state."""
        raise ValueError(f"unexpected notice {notice!r}")

    def referee_step(self, action: Any, views: bool = True) -> RefereeStep:
        """The referee's step, the one every game loop uses (the match loop, the protocol's
        referee and client, the adapters' worlds): apply ``action`` to this complete state,
        then read the decision under way and (with ``views``) each seat's view of the events.

        Raises:
            IllegalAction: the action breaks a rule (the state is unchanged).
            TypeError, ValueError, AttributeError, KeyError: a malformed action object.
        """
        events = self.apply_action(action)
        notice = self.pending_notice()
        seen = [[self.redact(ev, s) for ev in events] for s in range(self.num_seats)] if views else []
        return RefereeStep(events, notice, seen)

    def advance(self) -> list[Event]:
        """Apply and return the events the rules force now, before anyone acts (a complete
        state only: a book just completed, a forced draw, the next hand's deal), as
        :meth:`apply_action` does after an action; call it after replaying a complete record
        that stops in the middle of a move, or on a fresh deal. The default forces nothing:
        ``[]``."""
        return []

    @abstractmethod
    def copy(self) -> "State":
        """An independent copy."""


class Game(ABC):
    """A game: its options, its deal and its states. Stateless; one instance per game."""

    #: name used in record headers (``"literature"``)
    name: str = ""
    #: human title
    title: str = ""
    #: the options this game accepts
    option_specs: tuple[OptionSpec, ...] = ()
    #: header keys beyond the common ones (records.md), with their kinds
    header_schema: dict[str, str] = {}
    #: the value kinds this game's schemas use beyond the shared ones
    #: (:data:`cardmind.records.SHARED_KINDS`): ``{kind: check(value, what) -> canonical value}``,
    #: ``check`` raising ``ValueError`` with a reason that names ``what``
    record_kinds: Mapping[str, Callable[[Any, str], Any]] = {}

    #: the keyword parameters of :meth:`hint_engine`'s function beyond the tracker (see
    #: :class:`HintParam`); empty for a game without hints
    hint_params: tuple[HintParam, ...] = ()

    #: options of ``cardmind hint`` and ``cardmind belief`` that only this game takes (the CLI
    #: offers the options of every registered game; see :class:`CliOption`)
    cli_options: tuple["CliOption", ...] = ()

    # ------------------------------------------------------------------ doors
    # The shared layers (records, belief, hints, agents, protocol, tournament, adapters, cli)
    # reach a game only through these methods; every one is optional.

    def teams(self, options: dict) -> list[int] | None:
        """The team of every seat (teams numbered ``0 .. T-1``) for a team game, or ``None``
        for a free-for-all game (the default). Tournaments seat teams of one agent each."""
        return None

    def tracker_class(self) -> type | None:
        """The game's belief tracker class (a :class:`cardmind.belief.Tracker`), or ``None``
        when the game has none (then ``hint``, ``belief`` and the consistency check of
        ``validate`` are not offered)."""
        return None

    def tracker_settings(self, values: Mapping[str, Any], progress: Callable[[str], None] | None = None) -> dict:
        """Keyword settings for the tracker's constructor from the values of this game's
        :attr:`cli_options` (``{dest: value}``; ``None`` when not given) and an optional
        ``progress`` callback (called with a short message while a long answer is computed)."""
        return {}

    def player_models(self) -> tuple[str, ...]:
        """Names of the player models the game's tracker can weigh the consistent deals by
        (``cardmind hint/belief --model NAME``, passed to the tracker as the setting ``model``;
        see :mod:`cardmind.belief.models`). The first is the default. Empty (the default) when
        the tracker has only the constraint-only posterior."""
        return ()

    def hint_engine(self) -> Callable[..., Any] | None:
        """The hint function: ``engine(tracker, **params) -> advice`` (a
        :class:`cardmind.hints.words.Advice`), or ``None`` when the game gives no hints. Its
        keyword parameters are those :attr:`hint_params` declares."""
        return None

    def agent_classes(self) -> tuple[type, ...]:
        """The agent classes this game brings (:class:`cardmind.agents.Agent` subclasses,
        registered by name for this game when the agents are looked up)."""
        return ()

    def codec_class(self) -> type | None:
        """The adapters' action codec class (:class:`cardmind.adapters.codec.ActionCodec`
        subclass) of this game, or ``None`` (then no OpenSpiel or PettingZoo adapter)."""
        return None

    def shorthand(self) -> Any:
        """The game's short notation for typing a game as it is played (a
        :class:`cardmind.shorthand.Shorthand`, used by ``cardmind advise``), or ``None`` (the
        default) when the game has none."""
        return None

    def table_view(self, state: "State", seat: int) -> dict[str, Any]:
        """What ``seat`` sees of the table in ``state`` (its own view, or a complete state),
        in a shape that names no game, for drawing the table (the engine's ``view`` command,
        ``docs/protocol.md``):

        - ``seat``: the seat; ``hand``: its cards now (card tokens, in the game's order), or
          ``None`` when ``state`` does not know them;
        - ``counts``: ``{name: int or [int per seat]}`` (``"cards"``: cards held per seat;
          also, where the game has them, ``"stock"`` and others), in the game's words;
        - ``zones``: the public cards on the table, each ``{"title", "owner", "cards"}`` (a
          row of cards, the last one on top for a pile) or ``{"title", "owner", "melds"}``
          (a list of card lists); ``owner``: a seat, a list of seats (a team), or ``None``;
        - ``scores``: ``[{"title", "seats", "points"}]`` (points or sets so far), or ``None``;
        - ``notes``: short lines in the game's words (the contract of the hand, its minimum).

        The default (a game without a table view) has only ``seat`` and ``counts`` empty:
        ``{"seat": seat, "hand": None, "counts": {}, "zones": [], "scores": None, "notes": []}``.
        """
        return {"seat": seat, "hand": None, "counts": {}, "zones": [], "scores": None, "notes": []}

    def deck(self, options: dict) -> tuple[str, ...] | None:
        """Every card of the pack under ``options`` (parsed, see :meth:`parse_options`):
        card tokens (``docs/records.md``), each copy listed (a pack of several decks repeats
        them), in the game's order; ``None`` (the default) for a game that does not say.
        The engine's ``new`` reply gives its cards (``deck``) so that a frontend offers only
        them."""
        return None

    def observer_header(self, header: Mapping[str, Any], seat: int) -> dict:
        """The deal keys of ``seat``'s player record cut from a complete header."""
        return {"observer": seat, "hand": list(header["hands"][seat])}

    def parse_options(self, raw: Mapping[str, Any] | None) -> dict:
        """Validate ``raw`` and fill in defaults.

        Args:
            raw: option names to values, as in a record header (``None`` for defaults).

        Returns:
            A new dict with every option of the game.

        Raises:
            OptionError: an unknown option name or an unaccepted value; the message
                names the option, the value and what is accepted.
        """
        raw = dict(raw or {})
        if not isinstance(raw, dict):
            raise OptionError(f"{self.name} options must be an object")
        known = {s.name: s for s in self.option_specs}
        out = {}
        for key in raw:
            if key not in known:
                raise OptionError(
                    f"unknown {self.name} option {key!r} (known: {', '.join(sorted(known))})")
        for spec in self.option_specs:
            if spec.name in raw:
                try:
                    out[spec.name] = spec.coerce(raw[spec.name])
                except ValueError as exc:
                    raise OptionError(f"{self.name} option {spec.name!r}: {exc}") from None
            else:
                out[spec.name] = spec.default
        self.check_options(out)
        return out

    def check_options(self, options: dict) -> None:
        """Check combinations of options; raise :class:`OptionError` when one is impossible."""

    @abstractmethod
    def num_seats(self, options: dict) -> int:
        """The number of seats for ``options``."""

    @abstractmethod
    def deal(self, options: dict, rng: np.random.Generator) -> dict:
        """Shuffle and deal; return the hidden part of a complete record's header
        (``{"hands": [...]}``, plus ``"stock"`` for games with a stock)."""

    @abstractmethod
    def new_state(self, options: dict, header: Mapping[str, Any]) -> State:
        """A state at the start of play from a record header.

        Args:
            options: parsed options (see :meth:`parse_options`).
            header: a complete header (``hands``) or a player's (``observer``, ``hand``).
        Raises:
            IllegalAction: dealt hands that do not match the deal (sizes, cards).
        """

    @abstractmethod
    def event_schema(self) -> dict[str, dict[str, str]]:
        """For each event type, its keys and their kinds (see :mod:`cardmind.records`)."""

    @abstractmethod
    def action_from_json(self, obj: Mapping[str, Any]) -> Any:
        """Parse an action object (as :meth:`to_json` of an action writes it).

        Raises:
            ValueError: the object is not an action of this game.
        """

    def initial_state(self, options: Mapping[str, Any] | None, rng: np.random.Generator) -> tuple[State, dict]:
        """Deal a new game: return ``(complete state, header dict)`` for ``options``."""
        opts = self.parse_options(options)
        hidden = self.deal(opts, rng)
        header = {"format": "cardmind-record/1", "game": self.name, "options": opts, **hidden}
        return self.new_state(opts, header), header


# ---------------------------------------------------------------------------- deal checks
def check_deal(pack: Mapping[str, int], parts: list[tuple[str, Any, int | None]], pack_name: str,
               exact: bool = True) -> None:
    """Check a deal against the pack, the checks every game's :meth:`Game.new_state` makes.

    Args:
        pack: ``{card: copies}`` of the whole pack (one deck: one copy of each card).
        parts: ``(what, cards, size)`` per part of the deal (``("seat 2's hand", [...], 7)``,
            ``("the stock", [...], None)``): ``size`` is the number of cards the deal gives
            it, or ``None`` for any.
        pack_name: the pack in messages (``"the deck"``, ``"the decks"``).
        exact: the parts together must hold the whole pack (a complete deal); else only no
            card more often than the pack has it (one seat's view).

    Raises:
        IllegalAction: (rule ``deal``) a part of the wrong size, a card not in the pack or
            more copies of it than the pack has (in a part or in all of them), or, with
            ``exact``, cards of the pack that were not dealt; the message names the part.
    """
    total: Counter = Counter()
    for what, cards, size in parts:
        if size is not None and len(cards) != size:
            raise IllegalAction("deal", f"{what} has {len(cards)} cards; the deal gives {size}")
        here = Counter(cards)
        for c, k in here.items():
            if c not in pack:
                raise IllegalAction("deal", f"{what} has {c}, which is not in {pack_name}")
            if k > pack[c]:
                raise IllegalAction("deal", f"{what} has {c} twice" if pack[c] == 1 else
                                            f"{what} has {k} x {c}; {pack_name} hold {pack[c]}")
        total.update(here)
    extra = total - Counter(pack)
    if extra:
        c = min(extra)
        raise IllegalAction("deal", f"{c} is dealt more than once" if pack[c] == 1 else
                                    f"{c} is dealt {total[c]} times; {pack_name} hold {pack[c]}")
    if exact:
        missing = Counter(pack) - total
        if missing:
            raise IllegalAction("deal", f"{sum(missing.values())} cards of {pack_name} were not dealt "
                                        f"(for example {min(missing)})")


def check_seats(header: Mapping[str, Any], players: int,
                needs: str = "'hands', or 'observer' and 'hand'") -> tuple[list | None, int | None, list | None]:
    """The deal keys of a header, checked for seats: ``(hands, observer, hand)``; ``needs``
    says in the message what a record of the game must have.

    Raises:
        IllegalAction: (rule ``deal``) an observer that is not a seat, ``hands`` not one per
            seat, an observer's ``hand`` that differs from ``hands[observer]``, or neither
            ``hands`` nor ``observer`` and ``hand``.
    """
    hands, observer, hand = header.get("hands"), header.get("observer"), header.get("hand")
    if observer is not None and not 0 <= observer < players:
        raise IllegalAction("deal", f"observer {observer} is not a seat (0-{players - 1})")
    if hands is not None:
        if len(hands) != players:
            raise IllegalAction("deal", f"{len(hands)} hands given for {players} players")
        if observer is not None and hand is not None and Counter(hand) != Counter(hands[observer]):
            raise IllegalAction("deal", f"the observer's hand differs from hands[{observer}]")
    elif observer is None or hand is None:
        raise IllegalAction("deal", f"a record needs {needs}")
    return hands, observer, hand


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` to the registry under ``game.name`` and return it."""
    _REGISTRY[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The registered game called ``name`` (a built-in game, or one a package adds through the
    ``cardmind.games`` entry point group: :mod:`cardmind.plugins`).

    Raises:
        OptionError: no game has that name (the message lists the known games, and says why
            a plugin of that name could not be loaded).
    """
    _load_games()
    try:
        return _REGISTRY[name]
    except KeyError:
        from .plugins import GAME_GROUP, plugin_errors  # noqa: PLC0415

        why = plugin_errors(GAME_GROUP).get(name)
        extra = f"; the plugin {name!r} failed to load: {why}" if why else ""
        raise OptionError(f"unknown game {name!r} (known: {', '.join(sorted(_REGISTRY))}){extra}") from None


def game_names() -> list[str]:
    """Names of every registered game."""
    _load_games()
    return sorted(_REGISTRY)


_PLUGINS_LOADED = False


def _load_games() -> None:
    """Register (once) the games of the ``cardmind.games`` entry points: the built-in games
    (declared in cardmind's own ``pyproject.toml``) and those of other installed packages
    (:mod:`cardmind.plugins`). This module imports no game."""
    global _PLUGINS_LOADED  # noqa: PLW0603
    if _PLUGINS_LOADED:
        return
    _PLUGINS_LOADED = True
    from .plugins import GAME_GROUP, load_group  # noqa: PLC0415

    def accept(name: str, obj) -> bool:
        game = obj() if isinstance(obj, type) and issubclass(obj, Game) else obj
        if not isinstance(game, Game):
            return False
        if game.name in _REGISTRY and _REGISTRY[game.name] is not game:
            raise ValueError(f"a game called {game.name!r} is already registered")
        register(game)
        return True

    load_group(GAME_GROUP, accept)
