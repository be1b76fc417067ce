"""Literature actions and record events (``records.md``, "Literature events").

Actions are what a player decides; events are what the record writes. An :class:`Ask`
action becomes an ``ask`` event with its ``success``; a :class:`Claim` becomes a
``claim`` event once the cards are shown and, where the rules ask for it, the team
awarded the set has chosen who plays next (:class:`ChooseNext`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...cards import parse_card
from ...records import check_kind

#: keys and kinds of each event type, for strict record reading (see cardmind.records)
EVENT_SCHEMA: dict[str, dict[str, str]] = {
    "ask": {"asker": "seat", "target": "seat", "card": "card", "success": "bool"},
    "claim": {"claimer": "seat", "set": "str", "assignment": "card_seat_map", "actual": "card_seat_map",
              "correct": "bool", "next": "?seat_or_null"},
    "pass": {"from": "seat", "to": "seat"},
}


def check_card_seat_map(value: Any, what: str) -> dict[str, int]:
    """The record kind ``card_seat_map`` (a claim's ``assignment`` and ``actual``): an object
    ``{card: seat}``, cards canonicalised, none named twice.

    Raises:
        ValueError: not such an object (the message names ``what``)."""
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be an object {{card: seat}}, not {json.dumps(value)}")
    out = {}
    for k, v in value.items():
        c = check_kind("card", k, f"{what} key")
        if c in out:
            raise ValueError(f"{what} names {c} twice")
        out[c] = check_kind("seat", v, f"{what}[{k}]")
    return out


@dataclass(frozen=True)
class Ask:
    """``asker`` asks ``target`` for ``card`` (seats are 0-based; card canonical)."""

    asker: int
    target: int
    card: str

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.asker

    def to_json(self) -> dict:
        """The action as a JSON object ``{"type": "ask", "asker", "target", "card"}``."""
        return {"type": "ask", "asker": self.asker, "target": self.target, "card": self.card}


@dataclass(frozen=True)
class Claim:
    """``claimer`` claims ``set``, naming for each card the teammate who holds it.

    Attributes:
        assignment: ``((card, seat), ...)`` for the six cards of the set, in set order.
    """

    claimer: int
    set: str
    assignment: tuple[tuple[str, int], ...]

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.claimer

    def assignment_dict(self) -> dict[str, int]:
        """The assignment as ``{card: seat}``."""
        return dict(self.assignment)

    def to_json(self) -> dict:
        """The action as ``{"type": "claim", "claimer", "set", "assignment": {card: seat}}``."""
        return {"type": "claim", "claimer": self.claimer, "set": self.set, "assignment": self.assignment_dict()}


@dataclass(frozen=True)
class Pass:
    """A player on turn without cards hands the turn to seat ``to``."""

    from_: int
    to: int

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.from_

    def to_json(self) -> dict:
        """The action as ``{"type": "pass", "from", "to"}``."""
        return {"type": "pass", "from": self.from_, "to": self.to}


@dataclass(frozen=True)
class ChooseNext:
    """After a claim, ``chooser`` (of the team that picks) names the seat ``next`` to play."""

    chooser: int
    next: int

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.chooser

    def to_json(self) -> dict:
        """The action as ``{"type": "next", "chooser", "next"}``."""
        return {"type": "next", "chooser": self.chooser, "next": self.next}


def make_claim(claimer: int, set_name: str, assignment: Mapping[str, int], cards: tuple[str, ...]) -> Claim:
    """Build a :class:`Claim` with its assignment ordered like ``cards`` (the set's cards)."""
    return Claim(claimer, set_name, tuple((c, int(assignment[c])) for c in cards))


def action_from_json(obj: Mapping[str, Any]):
    """Parse a Literature action object.

    Raises:
        ValueError: not an object of a known action type, or a key is missing or of the wrong kind.
    """
    if not isinstance(obj, Mapping):
        raise ValueError("an action must be a JSON object")
    kind = obj.get("type")
    try:
        if kind == "ask":
            return Ask(_seat(obj["asker"]), _seat(obj["target"]), parse_card(obj["card"]))
        if kind == "claim":
            assignment = obj["assignment"]
            if not isinstance(assignment, Mapping):
                raise ValueError("assignment must be an object {card: seat}")
            from .rules import set_cards  # noqa: PLC0415

            try:
                if not isinstance(obj["set"], str):
                    raise TypeError
                cards = set_cards(obj["set"])
            except (KeyError, TypeError):
                raise ValueError(f"unknown set {obj['set']!r}") from None
            parsed = {parse_card(c): _seat(s) for c, s in assignment.items()}
            if set(parsed) != set(cards):
                raise ValueError(f"the assignment must name exactly the six cards of {obj['set']}")
            return make_claim(_seat(obj["claimer"]), obj["set"], parsed, cards)
        if kind == "pass":
            return Pass(_seat(obj["from"]), _seat(obj["to"]))
        if kind == "next":
            return ChooseNext(_seat(obj["chooser"]), _seat(obj["next"]))
    except KeyError as exc:
        raise ValueError(f"{kind} action is missing {exc.args[0]!r}") from None
    raise ValueError(f"unknown Literature action type {kind!r} (ask, claim, pass, next)")


def _seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"a seat must be a non-negative integer, not {value!r}")
    return value
