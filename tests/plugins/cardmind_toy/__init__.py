"""Secret, a toy game that plugs into cardmind from outside (tests and docs/architecture.md).

It lives in its own package and reaches cardmind only through the public doors: a
:class:`~cardmind.core.Game` subclass registered through the ``cardmind.games`` entry point,
its agents (``Game.agent_classes``) and one more agent through ``cardmind.agents``.

Rules. ``players`` (2 or 3) are dealt ``hand`` cards each (1-3) from the lowest spades
(``2S``, ``3S``, ...); one more card, the **secret**, is put aside face down. On their turn a
player either **asks** another player whether they hold a card the asker does not hold (the
answer, ``has``, is public; nothing changes hands) or **guesses** the secret (a card the
guesser does not hold). A right guess wins at once; a wrong one puts the guesser out. The
last player left wins. After ``3 * players`` asks a player must guess.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cardmind.core import MAX_ASKS, Game, OptionSpec, int_option
from cardmind.errors import IllegalAction

from .state import Ask, Guess, SecretState, deck


class SecretGame(Game):
    """The toy game Secret (see the module docstring)."""

    name = "secret"
    hint_params = (MAX_ASKS,)
    title = "Secret (a toy plugin)"
    option_specs = (
        OptionSpec("players", 2, "number of players", int_option(2, 3), (2, 3)),
        OptionSpec("hand", 2, "cards dealt to each player", int_option(1, 3), (1, 2, 3)),
    )
    header_schema = {"secret": "?card"}

    def num_seats(self, options: dict) -> int:
        return options["players"]

    def deal(self, options: dict, rng: np.random.Generator) -> dict:
        cards = deck(options)
        order = [cards[i] for i in rng.permutation(len(cards))]
        k = options["hand"]
        return {"hands": [sorted(order[s * k:(s + 1) * k]) for s in range(options["players"])],
                "secret": order[-1]}

    def new_state(self, options: dict, header: Mapping[str, Any]) -> SecretState:
        n, k, cards = options["players"], options["hand"], set(deck(options))
        hands = header.get("hands")
        if hands is None:
            obs, hand = header.get("observer"), list(header.get("hand", []))
            if obs is None or not 0 <= obs < n:
                raise IllegalAction("deal", f"observer {obs} is not a seat (0-{n - 1})")
            hands = [hand if s == obs else None for s in range(n)]
        if len(hands) != n:
            raise IllegalAction("deal", f"{len(hands)} hands for {n} players")
        seen: set[str] = set()
        for s, h in enumerate(hands):
            if h is None:
                continue
            if len(h) != k or not set(h) <= cards or seen & set(h):
                raise IllegalAction("deal", f"seat {s} must be dealt {k} different cards of {sorted(cards)}")
            seen |= set(h)
        secret = header.get("secret")
        return SecretState(self, options, [None if h is None else list(h) for h in hands], secret)

    def event_schema(self) -> dict[str, dict[str, str]]:
        return {"ask": {"asker": "seat", "target": "seat", "card": "card", "has": "bool"},
                "guess": {"player": "seat", "card": "card", "correct": "bool"}}

    def action_from_json(self, obj: Mapping[str, Any]):
        kind = obj.get("type") if isinstance(obj, Mapping) else None
        if kind == "ask":
            return Ask(int(obj["asker"]), int(obj["target"]), str(obj["card"]))
        if kind == "guess":
            return Guess(int(obj["player"]), str(obj["card"]))
        raise ValueError("a Secret action is {'type': 'ask', 'asker', 'target', 'card'} or "
                         "{'type': 'guess', 'player', 'card'}")

    # the doors
    def tracker_class(self) -> type:
        from .belief import SecretBelief

        return SecretBelief

    def hint_engine(self):
        from .belief import secret_hint

        return secret_hint

    def shorthand(self):
        from .shorthand import SecretShorthand

        return SecretShorthand(self)

    def agent_classes(self) -> tuple[type, ...]:
        from .agents import RandomSecretAgent

        return (RandomSecretAgent,)


GAME = SecretGame()
