"""Contract rummy actions and record events (``docs/carioca.md``, "Records").

Actions are what a player decides; events are what the record writes:

* the **offer** of the discard on top of the pile, in seat order from the player on turn:
  :class:`Take` (the player on turn takes it as its draw: a ``take`` event),
  :class:`Steal` (another player takes it with ``steal_penalty`` penalty cards from the
  stock: a ``steal`` event) or :class:`Pass` (a ``pass`` event);
* the **play** of the player on turn after its draw: :class:`GoDown` (``go_down``),
  :class:`LayOff` (``lay_off``) and :class:`Discard` (``discard``, which ends the turn).

Forced events are never actions: the ``draw`` from the stock once the offer closes without a
take, the ``restock`` when the stock runs out, the ``hand_end`` after the last card of a hand
is discarded and the ``deal`` of the next hand.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...cards import parse_card
from ...actions import Action
from ...actions import action_from_json as read_action
from ...records import check_kind
from .melds import MELD_KINDS, Meld

#: keys and kinds of each event type, for strict record reading (see cardmind.records)
EVENT_SCHEMA: dict[str, dict[str, str]] = {
    "take": {"player": "seat", "card": "card"},
    "pass": {"player": "seat"},
    "steal": {"player": "seat", "card": "card", "penalty": "card_list_or_null"},
    "draw": {"player": "seat", "card": "card_or_null"},
    "restock": {"count": "count", "cards": "card_list_or_null"},
    "go_down": {"player": "seat", "melds": "meld_list"},
    "lay_off": {"player": "seat", "card": "card", "meld": "count", "at": "str"},
    "discard": {"player": "seat", "card": "card"},
    "hand_end": {"hand": "count", "out": "seat_or_null", "hands": "hands_or_null", "scores": "int_list",
                 "totals": "int_list"},
    "deal": {"hand": "count", "hands": "hands_or_null", "stock": "card_list_or_null", "up": "card"},
}


def check_meld_list(value: Any, what: str) -> list[dict]:
    """The record kind ``meld_list`` (``go_down`` events): a list of melds
    ``{"kind": "set" or "run", "cards": [card, ...]}``, cards canonicalised.

    Raises:
        ValueError: not such a list (the message names ``what`` and the meld)."""
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list of melds ({{\"kind\": \"set\" or \"run\", \"cards\": [...]}})")
    out = []
    for i, m in enumerate(value):
        if not isinstance(m, dict) or set(m) != {"kind", "cards"}:
            raise ValueError(f"{what}[{i}] must be an object with exactly 'kind' and 'cards', "
                             f"not {json.dumps(m)}")
        if m["kind"] not in ("set", "run"):
            raise ValueError(f"{what}[{i}]: a meld's kind is \"set\" or \"run\", not {json.dumps(m['kind'])}")
        out.append({"kind": m["kind"], "cards": check_kind("card_list", m["cards"], f"{what}[{i}] cards")})
    return out

#: header keys a contract rummy record adds: the card turned up to start the first hand (every
#: record), the first hand's stock in draw order (complete records) and the seed of the later
#: deals and restocks (complete records written by cardmind)
HEADER_SCHEMA: dict[str, str] = {"up": "card", "stock": "?card_list", "seed": "?count"}


def _melds_json(melds: Sequence[Meld]) -> list[dict]:
    return [m.to_json() for m in melds]


@dataclass(frozen=True)
class Take(Action):
    """The player on turn takes the discard on offer as its draw."""

    type = "take"
    kinds = {"player": "seat"}

    player: int


@dataclass(frozen=True)
class Pass(Action):
    """A player declines the discard on offer (the offer moves to the next seat)."""

    type = "pass"
    kinds = {"player": "seat"}

    player: int


@dataclass(frozen=True)
class Steal(Action):
    """A player not on turn takes the discard on offer with the penalty card(s)."""

    type = "steal"
    kinds = {"player": "seat"}

    player: int


@dataclass(frozen=True)
class GoDown(Action):
    """The player on turn lays the contract: ``melds`` (each a :class:`~.melds.Meld`), or
    ``None``: the first arrangement ``CariocaState.legal_actions`` lists (the one laying the
    most points; the adapters' single "go down" action)."""

    type = "go_down"
    kinds = {"player": "seat", "melds": "?meld_list"}

    player: int
    melds: tuple[Meld, ...] | None = None

    def to_json(self) -> dict:
        """``{"type": "go_down", "player", "melds": [{"kind", "cards"}, ...] or null}``."""
        return {"type": "go_down", "player": self.player,
                "melds": None if self.melds is None else _melds_json(self.melds)}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "GoDown":
        """Read a go-down: ``melds`` a list of ``{"kind", "cards"}`` objects, or null or left
        out (the first arrangement).

        Raises:
            ValueError: ``player`` missing or not a seat, or melds that are not such a list.
        """
        if "player" not in obj:
            raise ValueError("go_down action is missing 'player'")
        melds = obj.get("melds")
        return cls(check_kind("seat", obj["player"], "'player'"), None if melds is None else melds_from_json(melds))


@dataclass(frozen=True)
class LayOff(Action):
    """The player on turn, down, lays ``card`` off on table meld ``meld`` (its index in the
    order the melds of the hand were laid) at its ``at`` end (``"start"`` or ``"end"``)."""

    type = "lay_off"
    kinds = {"player": "seat", "card": "card", "meld": "count", "at": "?str"}

    player: int
    card: str
    meld: int
    at: str = "end"

    def check(self) -> None:
        """``at`` is ``"start"`` or ``"end"``.

        Raises:
            ValueError: another ``at``."""
        if self.at not in ("start", "end"):
            raise ValueError(f"'at' must be 'start' or 'end', not {self.at!r}")


@dataclass(frozen=True)
class Discard(Action):
    """The player on turn discards ``card``, ending its turn."""

    type = "discard"
    kinds = {"player": "seat", "card": "card"}

    player: int
    card: str


def melds_from_json(value: Any) -> tuple[Meld, ...]:
    """Parse ``[{"kind", "cards"}, ...]`` into melds (cards canonical).

    Raises:
        ValueError: not a list of such objects.
    """
    if not isinstance(value, list):
        raise ValueError(f"melds must be a list of {{kind, cards}} objects, not {value!r}")
    out = []
    for m in value:
        if not isinstance(m, Mapping) or set(m) != {"kind", "cards"}:
            raise ValueError(f"a meld is an object with exactly 'kind' and 'cards', not {m!r}")
        if m["kind"] not in MELD_KINDS:
            raise ValueError(f"a meld's kind is 'set' or 'run', not {m['kind']!r}")
        if not isinstance(m["cards"], list):
            raise ValueError(f"a meld's cards must be a list, not {m['cards']!r}")
        out.append(Meld(m["kind"], tuple(parse_card(c) for c in m["cards"])))
    return tuple(out)


#: the contract rummy actions, in the order the unknown-type message lists them
ACTIONS = (Take, Pass, Steal, GoDown, LayOff, Discard)


def action_from_json(obj: Mapping[str, Any]) -> Action:
    """Parse a contract rummy action object (as ``to_json`` writes it;
    :func:`cardmind.actions.action_from_json`).

    Raises:
        ValueError: not an object of a known action type, or a key is missing or of the wrong kind.
    """
    return read_action(obj, ACTIONS, "contract rummy")


__all__ = ["EVENT_SCHEMA", "HEADER_SCHEMA", "Discard", "GoDown", "LayOff", "Pass", "Steal", "Take",
           "action_from_json", "melds_from_json"]
