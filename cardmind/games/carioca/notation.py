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
class Take:
    """The player on turn takes the discard on offer as its draw."""

    player: int

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.player

    def to_json(self) -> dict:
        """``{"type": "take", "player"}``."""
        return {"type": "take", "player": self.player}


@dataclass(frozen=True)
class Pass:
    """A player declines the discard on offer (the offer moves to the next seat)."""

    player: int

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.player

    def to_json(self) -> dict:
        """``{"type": "pass", "player"}``."""
        return {"type": "pass", "player": self.player}


@dataclass(frozen=True)
class Steal:
    """A player not on turn takes the discard on offer with the penalty card(s)."""

    player: int

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.player

    def to_json(self) -> dict:
        """``{"type": "steal", "player"}``."""
        return {"type": "steal", "player": self.player}


@dataclass(frozen=True)
class GoDown:
    """The player on turn lays the contract: ``melds`` (each a :class:`~.melds.Meld`), or
    ``None``: the first arrangement ``CariocaState.legal_actions`` lists (the one laying the
    most points; the adapters' single "go down" action)."""

    player: int
    melds: tuple[Meld, ...] | None = None

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.player

    def to_json(self) -> dict:
        """``{"type": "go_down", "player", "melds": [{"kind", "cards"}, ...] or null}``."""
        return {"type": "go_down", "player": self.player,
                "melds": None if self.melds is None else _melds_json(self.melds)}


@dataclass(frozen=True)
class LayOff:
    """The player on turn, down, lays ``card`` off on table meld ``meld`` (its index in the
    order the melds of the hand were laid) at its ``at`` end (``"start"`` or ``"end"``)."""

    player: int
    card: str
    meld: int
    at: str = "end"

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.player

    def to_json(self) -> dict:
        """``{"type": "lay_off", "player", "card", "meld", "at"}``."""
        return {"type": "lay_off", "player": self.player, "card": self.card, "meld": self.meld, "at": self.at}


@dataclass(frozen=True)
class Discard:
    """The player on turn discards ``card``, ending its turn."""

    player: int
    card: str

    @property
    def seat(self) -> int:
        """The seat acting."""
        return self.player

    def to_json(self) -> dict:
        """``{"type": "discard", "player", "card"}``."""
        return {"type": "discard", "player": self.player, "card": self.card}


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


def action_from_json(obj: Mapping[str, Any]):
    """Parse a contract rummy action object (as ``to_json`` writes it).

    Raises:
        ValueError: not an object of a known action type, or a key is missing or of the wrong kind.
    """
    if not isinstance(obj, Mapping):
        raise ValueError("an action must be a JSON object")
    kind = obj.get("type")
    try:
        if kind == "take":
            return Take(_seat(obj["player"]))
        if kind == "pass":
            return Pass(_seat(obj["player"]))
        if kind == "steal":
            return Steal(_seat(obj["player"]))
        if kind == "go_down":
            melds = obj.get("melds")
            return GoDown(_seat(obj["player"]), None if melds is None else melds_from_json(melds))
        if kind == "lay_off":
            at = obj.get("at", "end")
            if at not in ("start", "end"):
                raise ValueError(f"'at' must be 'start' or 'end', not {at!r}")
            meld = obj["meld"]
            if isinstance(meld, bool) or not isinstance(meld, int) or meld < 0:
                raise ValueError(f"'meld' must be a meld's index (0 or more), not {meld!r}")
            return LayOff(_seat(obj["player"]), parse_card(obj["card"]), meld, at)
        if kind == "discard":
            return Discard(_seat(obj["player"]), parse_card(obj["card"]))
    except KeyError as exc:
        raise ValueError(f"{kind} action is missing {exc.args[0]!r}") from None
    raise ValueError(f"unknown contract rummy action type {kind!r} (take, pass, steal, go_down, lay_off, discard)")


def _seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"a seat must be a non-negative integer, not {value!r}")
    return value


__all__ = ["EVENT_SCHEMA", "HEADER_SCHEMA", "Discard", "GoDown", "LayOff", "Pass", "Steal", "Take",
           "action_from_json", "melds_from_json"]
