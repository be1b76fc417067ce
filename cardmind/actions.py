"""The one base of every game's actions, and reading them from JSON.

An action is what a player decides (an ask, a claim, a discard); the referee turns it into
record events. Every game writes its actions as frozen dataclasses derived from
:class:`Action`, declaring three things::

    @dataclass(frozen=True)
    class Ask(Action):
        type = "ask"                      # the JSON "type"
        actor = "asker"                   # the field that holds the seat acting
        kinds = {"asker": "seat", "target": "seat", "card": "card"}   # field: record kind

    asker: int
    target: int
    card: str

and :attr:`Action.seat`, :meth:`Action.to_json` and :meth:`Action.from_json` follow from
them: the JSON keys are the fields in the order of ``kinds`` (a trailing ``_`` dropped, so
the field ``from_`` is the key ``"from"``), each checked as its record kind
(:func:`cardmind.records.check_kind`, a game's own kinds included); lists become tuples. An
action whose JSON needs more (a claim's ``{card: seat}`` map, a meld list) overrides
``to_json``/``from_json``; one with a rule on its values overrides :meth:`Action.check`.
:func:`action_from_json` reads any action of a game from the list of its classes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .records import check_kind


def _key(field: str) -> str:
    return field[:-1] if field.endswith("_") else field


def _plain(value: Any) -> Any:
    """A field's value as JSON: tuples become lists (recursively)."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _frozen(value: Any) -> Any:
    """A checked JSON value as a field's: lists become tuples (recursively)."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


class Action:
    """Base of every game's actions (see the module docstring).

    Class attributes (each action class sets them):
        type: the action's JSON ``"type"`` (``"ask"``).
        actor: the name of the field holding the seat acting (``"asker"``; default
            ``"player"``).
        kinds: ``{field: record kind}`` in JSON key order; a kind starting with ``?`` marks a
            key that may be left out (the field's default is used).
        game_kinds: the game's own record kinds the fields use (``Game.record_kinds``).
    """

    type: ClassVar[str] = ""
    actor: ClassVar[str] = "player"
    kinds: ClassVar[dict[str, str]] = {}
    game_kinds: ClassVar[Mapping[str, Any]] = {}

    @property
    def seat(self) -> int:
        """The seat acting (the field :attr:`actor` names)."""
        return getattr(self, self.actor)

    def to_json(self) -> dict:
        """The action as a JSON object: ``{"type": type, key: value, ...}`` in the order of
        :attr:`kinds`."""
        out: dict[str, Any] = {"type": self.type}
        for field in self.kinds:
            out[_key(field)] = _plain(getattr(self, field))
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Action":
        """Read the action from its JSON object (its ``"type"`` already matched).

        Raises:
            ValueError: a key missing, or a value not of its kind or breaking :meth:`check`
                (the message names the key).
        """
        values = {}
        for field, kind in cls.kinds.items():
            key = _key(field)
            if key not in obj:
                if kind.startswith("?"):
                    continue
                raise ValueError(f"{cls.type} action is missing {key!r}")
            values[field] = _frozen(check_kind(kind, obj[key], repr(key), cls.game_kinds))
        action = cls(**values)
        action.check()
        return action

    def check(self) -> None:
        """Check the rules on the values that their kinds do not (a pair is two cards);
        raise ``ValueError`` with the reason. The default checks nothing."""


def action_from_json(obj: Any, classes: Sequence[type[Action]], game_title: str) -> Action:
    """Read one action of a game from JSON: the class of ``classes`` whose ``type`` is
    ``obj["type"]`` reads it.

    Args:
        obj: the action's JSON object.
        classes: the game's action classes.
        game_title: the game's name in messages (``"Go Fish"``).

    Raises:
        ValueError: not an object, an unknown type (the message lists the game's types), a
            key missing or a value of the wrong kind.
    """
    if not isinstance(obj, Mapping):
        raise ValueError("an action must be a JSON object")
    kind = obj.get("type")
    for cls in classes:
        if cls.type == kind:
            return cls.from_json(obj)
    raise ValueError(f"unknown {game_title} action type {kind!r} ({', '.join(c.type for c in classes)})")


__all__ = ["Action", "action_from_json"]
