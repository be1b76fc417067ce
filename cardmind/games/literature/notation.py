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

from ...actions import Action
from ...actions import action_from_json as read_action
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
class Ask(Action):
    """``asker`` asks ``target`` for ``card`` (seats are 0-based; card canonical)."""

    type = "ask"
    actor = "asker"
    kinds = {"asker": "seat", "target": "seat", "card": "card"}

    asker: int
    target: int
    card: str


@dataclass(frozen=True)
class Claim(Action):
    """``claimer`` claims ``set``, naming for each card the teammate who holds it.

    Attributes:
        assignment: ``((card, seat), ...)`` for the six cards of the set, in set order.
    """

    type = "claim"
    actor = "claimer"
    kinds = {"claimer": "seat", "set": "str", "assignment": "card_seat_map"}

    claimer: int
    set: str
    assignment: tuple[tuple[str, int], ...]

    def assignment_dict(self) -> dict[str, int]:
        """The assignment as ``{card: seat}``."""
        return dict(self.assignment)

    def to_json(self) -> dict:
        """The action as ``{"type": "claim", "claimer", "set", "assignment": {card: seat}}``."""
        return {"type": "claim", "claimer": self.claimer, "set": self.set, "assignment": self.assignment_dict()}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Claim":
        """Read a claim: the set must be one of the deck's, the assignment must name exactly
        its six cards (ordered as the set's cards).

        Raises:
            ValueError: a key missing, an unknown set, or an assignment of other cards.
        """
        for key in ("claimer", "set", "assignment"):
            if key not in obj:
                raise ValueError(f"claim action is missing {key!r}")
        claimer = check_kind("seat", obj["claimer"], "'claimer'")
        if not isinstance(obj["assignment"], Mapping):
            raise ValueError("assignment must be an object {card: seat}")
        from .rules import set_cards  # noqa: PLC0415 - rules imports this module

        try:
            if not isinstance(obj["set"], str):
                raise TypeError
            cards = set_cards(obj["set"])
        except (KeyError, TypeError):
            raise ValueError(f"unknown set {obj['set']!r}") from None
        parsed = check_card_seat_map(dict(obj["assignment"]), "'assignment'")
        if set(parsed) != set(cards):
            raise ValueError(f"the assignment must name exactly the six cards of {obj['set']}")
        return make_claim(claimer, obj["set"], parsed, cards)


@dataclass(frozen=True)
class Pass(Action):
    """A player on turn without cards hands the turn to seat ``to``."""

    type = "pass"
    actor = "from_"
    kinds = {"from_": "seat", "to": "seat"}

    from_: int
    to: int


@dataclass(frozen=True)
class ChooseNext(Action):
    """After a claim, ``chooser`` (of the team that picks) names the seat ``next`` to play."""

    type = "next"
    actor = "chooser"
    kinds = {"chooser": "seat", "next": "seat"}

    chooser: int
    next: int


def make_claim(claimer: int, set_name: str, assignment: Mapping[str, int], cards: tuple[str, ...]) -> Claim:
    """Build a :class:`Claim` with its assignment ordered like ``cards`` (the set's cards)."""
    return Claim(claimer, set_name, tuple((c, int(assignment[c])) for c in cards))


#: the Literature actions, in the order the unknown-type message lists them
ACTIONS = (Ask, Claim, Pass, ChooseNext)


def action_from_json(obj: Mapping[str, Any]) -> Action:
    """Parse a Literature action object (:func:`cardmind.actions.action_from_json`).

    Raises:
        ValueError: not an object of a known action type, or a key is missing or of the wrong kind.
    """
    return read_action(obj, ACTIONS, "Literature")
