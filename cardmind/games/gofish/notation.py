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

from ...cards import parse_card, parse_rank
from ...errors import CardError

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
class Ask:
    """``asker`` asks ``target`` for cards of ``rank`` (phase 1)."""

    asker: int
    target: int
    rank: str

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.asker

    def to_json(self) -> dict:
        """``{"type": "ask", "asker", "target", "rank"}``."""
        return {"type": "ask", "asker": self.asker, "target": self.target, "rank": self.rank}


@dataclass(frozen=True)
class Give:
    """The asked player ``target`` hands over ``card`` (its choice under ``give: "one"``)."""

    target: int
    card: str

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.target

    def to_json(self) -> dict:
        """``{"type": "give", "target", "card"}``."""
        return {"type": "give", "target": self.target, "card": self.card}


@dataclass(frozen=True)
class LayBooks:
    """``player`` lays down the complete books it was dealt (before play starts)."""

    player: int

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.player

    def to_json(self) -> dict:
        """``{"type": "lay_books", "player"}``."""
        return {"type": "lay_books", "player": self.player}


@dataclass(frozen=True)
class AskBook:
    """``asker`` asks ``target`` for the whole book of ``rank`` (phase 2)."""

    asker: int
    target: int
    rank: str

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.asker

    def to_json(self) -> dict:
        """``{"type": "ask_book", "asker", "target", "rank"}``."""
        return {"type": "ask_book", "asker": self.asker, "target": self.target, "rank": self.rank}


def action_from_json(obj: Mapping[str, Any]):
    """Parse a Go Fish action object (as ``to_json`` writes it).

    Raises:
        ValueError: not an object of a known action type, or a key is missing or of the wrong kind.
    """
    if not isinstance(obj, Mapping):
        raise ValueError("an action must be a JSON object")
    kind = obj.get("type")
    try:
        if kind == "ask":
            return Ask(_seat(obj["asker"]), _seat(obj["target"]), _rank(obj["rank"]))
        if kind == "give":
            return Give(_seat(obj["target"]), parse_card(obj["card"]))
        if kind == "lay_books":
            return LayBooks(_seat(obj["player"]))
        if kind == "ask_book":
            return AskBook(_seat(obj["asker"]), _seat(obj["target"]), _rank(obj["rank"]))
    except KeyError as exc:
        raise ValueError(f"{kind} action is missing {exc.args[0]!r}") from None
    raise ValueError(f"unknown Go Fish action type {kind!r} (ask, give, lay_books, ask_book)")


def _seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"a seat must be a non-negative integer, not {value!r}")
    return value


def _rank(value: Any) -> str:
    try:
        return parse_rank(value)
    except CardError as exc:
        raise ValueError(str(exc)) from None
