"""The one action base (``cardmind/actions.py``): every game's actions declare their JSON type,
actor and kinds, and ``seat``, ``to_json`` and ``from_json`` follow from them (issue 26)."""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pytest

from cardmind.actions import Action, action_from_json
from cardmind.core import get_game

#: small options per game, so a seeded game's legal actions are quick to list
OPTIONS = {
    "literature": {"players": 6},
    "gofish": {"players": 3},
    "carioca": {"players": 3},
    "handfoot": {},
}


def _legal_actions_along_a_game(name: str, seed: int, steps: int = 60) -> list:
    """Every legal action at each position of a game played by picking uniformly among them."""
    game = get_game(name)
    state, _ = game.initial_state(OPTIONS[name], np.random.default_rng(seed))
    state.advance()
    rng = np.random.default_rng(seed + 1)
    seen = []
    for _ in range(steps):
        if state.is_over():
            break
        seat = state.to_move()
        legal = state.legal_actions(seat)
        if not legal:
            break
        seen.extend(legal[:200])
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return seen


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_every_action_reads_back_from_its_json(name):
    """For every legal action met in a seeded game: it is an :class:`Action`, its JSON names
    its type and its acting seat under the actor's key, and reading the JSON (through a JSON
    text, as the protocol does) gives the same action."""
    game = get_game(name)
    actions = _legal_actions_along_a_game(name, seed=5)
    assert len(actions) > 20
    types = set()
    for a in actions:
        assert isinstance(a, Action)
        obj = a.to_json()
        types.add(obj["type"])
        assert obj["type"] == a.type
        assert obj[a.actor.rstrip("_")] == a.seat
        again = game.action_from_json(json.loads(json.dumps(obj)))
        assert again == a and type(again) is type(a)
    assert len(types) >= 2


@pytest.mark.parametrize("name, obj, message", [
    ("literature", {"type": "ask", "asker": 0, "target": 3}, "ask action is missing 'card'"),
    ("literature", {"type": "ask", "asker": -1, "target": 3, "card": "QC"}, "'asker' must be a non-negative integer"),
    ("literature", {"type": "fly", "asker": 0}, "unknown Literature action type 'fly' (ask, claim, pass, next)"),
    ("literature", {"type": "claim", "claimer": 0, "set": "low-spades", "assignment": {"2S": 0}},
     "the assignment must name exactly the six cards of low-spades"),
    ("gofish", {"type": "ask", "asker": 0, "target": 1, "rank": "Z"}, "'rank' must be a rank"),
    ("carioca", {"type": "lay_off", "player": 0, "card": "7H", "meld": 0, "at": "middle"},
     "'at' must be 'start' or 'end'"),
    ("handfoot", {"type": "take_pile", "player": 0, "pair": ["5C"]}, "the pair must be two cards, not 1"),
    ("handfoot", {"type": "answer", "player": 1, "yes": "no"}, "'yes' must be true or false"),
    ("handfoot", [1, 2], "an action must be a JSON object"),
])
def test_bad_action_json_says_what_is_wrong(name, obj, message):
    with pytest.raises(ValueError) as info:
        get_game(name).action_from_json(obj)
    assert message in str(info.value)


def test_optional_keys_take_the_field_default():
    """A ``?`` kind may be left out: contract rummy's lay-off ``at`` defaults to the end."""
    a = get_game("carioca").action_from_json({"type": "lay_off", "player": 2, "card": "7H", "meld": 1})
    assert (a.seat, a.at, a.meld) == (2, "end", 1)
    assert a.to_json() == {"type": "lay_off", "player": 2, "card": "7H", "meld": 1, "at": "end"}


def test_the_base_on_its_own():
    """A toy action: a field named ``from_`` is the key ``"from"``; lists read as tuples."""

    @dataclass(frozen=True)
    class Hand(Action):
        type = "hand"
        actor = "from_"
        kinds = {"from_": "seat", "cards": "card_list"}

        from_: int
        cards: tuple[str, ...]

    a = action_from_json({"type": "hand", "from": 3, "cards": ["10H", "AS"]}, (Hand,), "Toy")
    assert a == Hand(3, ("TH", "AS")) and a.seat == 3
    assert a.to_json() == {"type": "hand", "from": 3, "cards": ["TH", "AS"]}
    with pytest.raises(ValueError, match="unknown Toy action type 'x' \\(hand\\)"):
        action_from_json({"type": "x"}, (Hand,), "Toy")
