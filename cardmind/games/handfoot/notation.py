"""Hand and Foot actions and record events (``docs/handfoot.md``, "Records").

Actions are what a player decides; events are what the record writes. A turn is a draw
(:class:`Draw`, two cards from the stock) or a take of the discard pile (:class:`TakePile`:
its top card with a natural pair from hand goes to the table), then any number of melds
(:class:`Meld`: a new meld; :class:`LayOff`: cards added to one of the team's melds), perhaps
an ask to go out (:class:`AskOut`, answered by the partner with :class:`Answer`), and a
discard (:class:`Discard`). The referee writes the events the rules then force: ``book`` when
a meld reaches seven cards, ``foot`` when a player's hand is used up, ``hand_end`` with the
scores, and ``deal`` when the next hand is dealt. A player's record may end a hand with only
what the player knows: ``held`` with ``null`` for a seat whose cards it did not note, the
``scores`` typed where they cannot be computed, ``totals`` left out (``docs/handfoot.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...cards import parse_card

#: keys and kinds of each event type, for strict record reading (see cardmind.records)
EVENT_SCHEMA: dict[str, dict[str, str]] = {
    "draw": {"player": "seat", "count": "count", "cards": "card_list_or_null"},
    "pickup": {"player": "seat", "pair": "card_list", "cards": "card_list"},
    "meld": {"player": "seat", "cards": "card_list"},
    "lay_off": {"player": "seat", "meld": "count", "cards": "card_list"},
    "book": {"player": "seat", "meld": "count", "clean": "bool"},
    "discard": {"player": "seat", "card": "card"},
    "foot": {"player": "seat", "cards": "card_list_or_null"},
    "ask_out": {"player": "seat"},
    "answer": {"player": "seat", "yes": "bool"},
    "hand_end": {"hand": "count", "reason": "str", "player": "seat_or_null", "held": "?hands_or_null",
                 "scores": "?int_list", "totals": "?int_list"},
    "deal": {"hand": "count", "hands": "hands_or_null", "feet": "?hands", "stock": "?card_list"},
}

#: header keys a Hand and Foot record adds: the feet and the stock of the first hand, and the
#: deals of the later hands (complete records only)
HEADER_SCHEMA: dict[str, str] = {"feet": "?hands", "stock": "?card_list", "deals": "?object_list"}


def _seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"a seat must be a non-negative integer, not {value!r}")
    return value


def _cards(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{what} must be a list of cards, not {value!r}")
    return tuple(parse_card(c) for c in value)


@dataclass(frozen=True)
class Draw:
    """``player`` draws two cards from the stock (one when only one is left)."""

    player: int

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.player

    def to_json(self) -> dict:
        """``{"type": "draw", "player"}``."""
        return {"type": "draw", "player": self.player}


@dataclass(frozen=True)
class TakePile:
    """``player`` takes the top seven cards of the discard pile, laying its top card with
    ``pair`` (two natural cards of that rank from its hand)."""

    player: int
    pair: tuple[str, str]

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.player

    def to_json(self) -> dict:
        """``{"type": "take_pile", "player", "pair"}``."""
        return {"type": "take_pile", "player": self.player, "pair": list(self.pair)}


@dataclass(frozen=True)
class Meld:
    """``player`` lays ``cards`` as a new meld of its team."""

    player: int
    cards: tuple[str, ...]

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.player

    def to_json(self) -> dict:
        """``{"type": "meld", "player", "cards"}``."""
        return {"type": "meld", "player": self.player, "cards": list(self.cards)}


@dataclass(frozen=True)
class LayOff:
    """``player`` adds ``cards`` to its team's meld number ``meld`` (numbered from 0 in the
    order the team's melds were laid this hand)."""

    player: int
    meld: int
    cards: tuple[str, ...]

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.player

    def to_json(self) -> dict:
        """``{"type": "lay_off", "player", "meld", "cards"}``."""
        return {"type": "lay_off", "player": self.player, "meld": self.meld, "cards": list(self.cards)}


@dataclass(frozen=True)
class Discard:
    """``player`` discards ``card``, ending its turn (or going out with its last card)."""

    player: int
    card: str

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.player

    def to_json(self) -> dict:
        """``{"type": "discard", "player", "card"}``."""
        return {"type": "discard", "player": self.player, "card": self.card}


@dataclass(frozen=True)
class AskOut:
    """``player`` asks its partner whether it may go out."""

    player: int

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.player

    def to_json(self) -> dict:
        """``{"type": "ask_out", "player"}``."""
        return {"type": "ask_out", "player": self.player}


@dataclass(frozen=True)
class Answer:
    """The partner ``player`` answers the ask to go out: ``yes`` binds the asker to go out
    this turn, no forbids it."""

    player: int
    yes: bool

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.player

    def to_json(self) -> dict:
        """``{"type": "answer", "player", "yes"}``."""
        return {"type": "answer", "player": self.player, "yes": self.yes}


def action_from_json(obj: Mapping[str, Any]):
    """Parse a Hand and Foot action object (as ``to_json`` writes it).

    Raises:
        ValueError: not an object of a known action type, or a key missing or of the wrong kind.
    """
    if not isinstance(obj, Mapping):
        raise ValueError("an action must be a JSON object")
    kind = obj.get("type")
    try:
        if kind == "draw":
            return Draw(_seat(obj["player"]))
        if kind == "take_pile":
            pair = _cards(obj["pair"], "pair")
            if len(pair) != 2:
                raise ValueError(f"the pair must be two cards, not {len(pair)}")
            return TakePile(_seat(obj["player"]), (pair[0], pair[1]))
        if kind == "meld":
            return Meld(_seat(obj["player"]), _cards(obj["cards"], "cards"))
        if kind == "lay_off":
            return LayOff(_seat(obj["player"]), _seat(obj["meld"]), _cards(obj["cards"], "cards"))
        if kind == "discard":
            return Discard(_seat(obj["player"]), parse_card(obj["card"]))
        if kind == "ask_out":
            return AskOut(_seat(obj["player"]))
        if kind == "answer":
            yes = obj["yes"]
            if not isinstance(yes, bool):
                raise ValueError(f"yes must be true or false, not {yes!r}")
            return Answer(_seat(obj["player"]), yes)
    except KeyError as exc:
        raise ValueError(f"{kind} action is missing {exc.args[0]!r}") from None
    raise ValueError(f"unknown Hand and Foot action type {kind!r} "
                     f"(draw, take_pile, meld, lay_off, discard, ask_out, answer)")


__all__ = ["EVENT_SCHEMA", "HEADER_SCHEMA", "Draw", "TakePile", "Meld", "LayOff", "Discard", "AskOut", "Answer",
           "action_from_json"]
