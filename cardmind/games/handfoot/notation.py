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

from ...actions import Action
from ...actions import action_from_json as read_action

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


@dataclass(frozen=True)
class Draw(Action):
    """``player`` draws two cards from the stock (one when only one is left)."""

    type = "draw"
    kinds = {"player": "seat"}

    player: int


@dataclass(frozen=True)
class TakePile(Action):
    """``player`` takes the top seven cards of the discard pile, laying its top card with
    ``pair`` (two natural cards of that rank from its hand)."""

    type = "take_pile"
    kinds = {"player": "seat", "pair": "card_list"}

    player: int
    pair: tuple[str, str]

    def check(self) -> None:
        """The pair is two cards.

        Raises:
            ValueError: another number of cards."""
        if len(self.pair) != 2:
            raise ValueError(f"the pair must be two cards, not {len(self.pair)}")


@dataclass(frozen=True)
class Meld(Action):
    """``player`` lays ``cards`` as a new meld of its team."""

    type = "meld"
    kinds = {"player": "seat", "cards": "card_list"}

    player: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class LayOff(Action):
    """``player`` adds ``cards`` to its team's meld number ``meld`` (numbered from 0 in the
    order the team's melds were laid this hand)."""

    type = "lay_off"
    kinds = {"player": "seat", "meld": "count", "cards": "card_list"}

    player: int
    meld: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Discard(Action):
    """``player`` discards ``card``, ending its turn (or going out with its last card)."""

    type = "discard"
    kinds = {"player": "seat", "card": "card"}

    player: int
    card: str


@dataclass(frozen=True)
class AskOut(Action):
    """``player`` asks its partner whether it may go out."""

    type = "ask_out"
    kinds = {"player": "seat"}

    player: int


@dataclass(frozen=True)
class Answer(Action):
    """The partner ``player`` answers the ask to go out: ``yes`` binds the asker to go out
    this turn, no forbids it."""

    type = "answer"
    kinds = {"player": "seat", "yes": "bool"}

    player: int
    yes: bool


#: the Hand and Foot actions, in the order the unknown-type message lists them
ACTIONS = (Draw, TakePile, Meld, LayOff, Discard, AskOut, Answer)


def action_from_json(obj: Mapping[str, Any]) -> Action:
    """Parse a Hand and Foot action object (as ``to_json`` writes it;
    :func:`cardmind.actions.action_from_json`).

    Raises:
        ValueError: not an object of a known action type, or a key missing or of the wrong kind.
    """
    return read_action(obj, ACTIONS, "Hand and Foot")


__all__ = ["EVENT_SCHEMA", "HEADER_SCHEMA", "Draw", "TakePile", "Meld", "LayOff", "Discard", "AskOut", "Answer",
           "action_from_json"]
