"""Secret's rules: actions and the state (see the package docstring)."""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass
from typing import Any

from cardmind.core import Result, State
from cardmind.errors import IllegalAction


def deck(options: dict) -> list[str]:
    """The cards in play: the ``players * hand + 1`` lowest spades."""
    ranks = "23456789TJQKA"
    return [f"{r}S" for r in ranks[:options["players"] * options["hand"] + 1]]


@dataclass(frozen=True)
class Ask:
    """``asker`` asks ``target`` whether it holds ``card``."""
    seat: int
    target: int
    card: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "ask", "asker": self.seat, "target": self.target, "card": self.card}


@dataclass(frozen=True)
class Guess:
    """``seat`` guesses that the secret is ``card``."""
    seat: int
    card: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "guess", "player": self.seat, "card": self.card}


class SecretState(State):
    """A game of Secret as one party knows it (``hands[s]`` is ``None`` when unknown)."""

    def __init__(self, game, options: dict, hands: list, secret: str | None):
        self.game, self.options, self.hands, self.secret = game, options, hands, secret
        self.turn = 0
        self.out: list[int] = []
        self.winner: int | None = None
        self.asks = 0
        self.events: list[dict] = []

    @property
    def num_seats(self) -> int:
        return self.options["players"]

    def to_move(self) -> int | None:
        return None if self.is_over() else self.turn

    def _next(self, seat: int) -> int:
        n = self.num_seats
        for k in range(1, n + 1):
            if (seat + k) % n not in self.out:
                return (seat + k) % n
        return seat

    def legal_actions(self, seat: int) -> list:
        if seat != self.to_move() or self.hands[seat] is None:
            return []
        mine = set(self.hands[seat])
        others = [c for c in deck(self.options) if c not in mine]
        acts: list = [Guess(seat, c) for c in others]
        if self.asks < 3 * self.num_seats:
            acts += [Ask(seat, t, c) for t in range(self.num_seats) if t != seat and t not in self.out
                     for c in others]
        return acts

    def check_action(self, action) -> None:
        if self.is_over():
            raise IllegalAction("over", "the game is over")
        if action.seat != self.turn:
            raise IllegalAction("turn", f"it is seat {self.turn}'s turn, not seat {action.seat}'s")
        if action.card not in deck(self.options):
            raise IllegalAction("card", f"{action.card} is not in the game")
        if self.hands[action.seat] is not None and action.card in self.hands[action.seat]:
            raise IllegalAction("own-card", f"seat {action.seat} holds {action.card}")
        if isinstance(action, Ask):
            if action.target == action.seat or not 0 <= action.target < self.num_seats or action.target in self.out:
                raise IllegalAction("target", f"seat {action.seat} cannot ask seat {action.target}")
            if self.asks >= 3 * self.num_seats:
                raise IllegalAction("asks", "no asks are left: guess the secret")

    def apply_action(self, action) -> list[dict]:
        self.check_action(action)
        if isinstance(action, Ask):
            if self.hands[action.target] is None:
                raise ValueError("the target's hand is not known here")
            ev = {"type": "ask", "asker": action.seat, "target": action.target, "card": action.card,
                  "has": action.card in self.hands[action.target]}
        else:
            if self.secret is None:
                raise ValueError("the secret is not known here")
            ev = {"type": "guess", "player": action.seat, "card": action.card, "correct": action.card == self.secret}
        self.apply_event(ev)
        return [ev]

    def apply_event(self, event: dict) -> None:
        if event["type"] == "ask":
            act = Ask(event["asker"], event["target"], event["card"])
            self.check_action(act)
            held = self.hands[act.target]
            if held is not None and (act.card in held) != event["has"]:
                raise IllegalAction("answer", f"seat {act.target} {'holds' if act.card in held else 'does not hold'} "
                                              f"{act.card}")
            self.asks += 1
            self.turn = self._next(act.seat)
        elif event["type"] == "guess":
            act = Guess(event["player"], event["card"])
            self.check_action(act)
            if self.secret is not None and (act.card == self.secret) != event["correct"]:
                raise IllegalAction("answer", f"the secret is {'' if act.card == self.secret else 'not '}{act.card}")
            if event["correct"]:
                self.winner = act.seat
            else:
                self.out.append(act.seat)
                left = [s for s in range(self.num_seats) if s not in self.out]
                if len(left) == 1:
                    self.winner = left[0]
                else:
                    self.turn = self._next(act.seat)
        else:
            raise IllegalAction("event", f"unknown event {event['type']!r}")
        self.events.append(dict(event))

    def is_over(self) -> bool:
        return self.winner is not None

    def result(self) -> Result:
        outcome = tuple(1.0 if s == self.winner else 0.0 for s in range(self.num_seats))
        return Result(outcome, outcome, {"winner": self.winner})

    def view(self, seat: int) -> "SecretState":
        v = self.copy()
        v.hands = [h if s == seat else None for s, h in enumerate(v.hands)]
        v.secret = None
        return v

    def redact(self, event: dict, seat: int) -> dict:
        return event

    def copy(self) -> "SecretState":
        return deepcopy(self)
