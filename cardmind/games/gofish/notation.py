"""Go Fish actions and record events (``records.md``, "Go Fish events"; ``docs/gofish.md``).

Actions are what a player decides; events are what the record writes:

* :class:`Ask` (phase 1): the asker names a target and a rank it holds. It becomes an ``ask``
  event with the cards ``given``; a refusal is followed by the asker's ``draw`` when the
  stock has cards. Under ``give: "one"``, when the target holds the rank the target chooses
  which card to hand over (:class:`Give`) before the ``ask`` event is written.
* :class:`Give`: the asked player picks the card it hands over (``give: "one"`` only).
* :class:`LayBooks`: before the first ask, a player dealt a complete book lays it (and any
  other dealt book) down; one ``book`` event per book, in rank order.
* :class:`AskBook` (phase 2): ask another player for a whole book; an ``ask_book`` event.

Draws forced by the rules (after a refusal, by a player on turn with no cards, by a player
with nobody to ask) and ``book`` events are never actions: the referee's state writes them
itself after the action that causes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...actions import Action
from ...actions import action_from_json as read_action

#: keys and kinds of each event type, for strict record reading (see cardmind.records)
EVENT_SCHEMA: dict[str, dict[str, str]] = {
    "ask": {"asker": "seat", "target": "seat", "rank": "rank", "given": "card_list"},
    "draw": {"player": "seat", "card": "card_or_null", "shown": "bool"},
    "book": {"player": "seat", "rank": "rank_or_null"},
    "ask_book": {"asker": "seat", "target": "seat", "rank": "rank", "success": "bool"},
}

#: header keys a Go Fish record adds (records.md): the undealt cards in draw order
HEADER_SCHEMA: dict[str, str] = {"stock": "?card_list"}


@dataclass(frozen=True)
class Ask(Action):
    """``asker`` asks ``target`` for cards of ``rank`` (phase 1)."""

    type = "ask"
    actor = "asker"
    kinds = {"asker": "seat", "target": "seat", "rank": "rank"}

    asker: int
    target: int
    rank: str


@dataclass(frozen=True)
class Give(Action):
    """The asked player ``target`` hands over ``card`` (its choice under ``give: "one"``)."""

    type = "give"
    actor = "target"
    kinds = {"target": "seat", "card": "card"}

    target: int
    card: str


@dataclass(frozen=True)
class LayBooks(Action):
    """``player`` lays down the complete books it was dealt (before play starts)."""

    type = "lay_books"
    kinds = {"player": "seat"}

    player: int


@dataclass(frozen=True)
class AskBook(Action):
    """``asker`` asks ``target`` for the whole book of ``rank`` (phase 2)."""

    type = "ask_book"
    actor = "asker"
    kinds = {"asker": "seat", "target": "seat", "rank": "rank"}

    asker: int
    target: int
    rank: str


#: the Go Fish actions, in the order the unknown-type message lists them
ACTIONS = (Ask, Give, LayBooks, AskBook)


def action_from_json(obj: Mapping[str, Any]) -> Action:
    """Parse a Go Fish action object (as ``to_json`` writes it;
    :func:`cardmind.actions.action_from_json`).

    Raises:
        ValueError: not an object of a known action type, or a key is missing or of the wrong kind.
    """
    return read_action(obj, ACTIONS, "Go Fish")
