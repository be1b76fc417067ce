"""The deal checks every game's ``new_state`` makes, written once (``cardmind.core.check_deal``
and ``check_seats``; issue 26): each game's real deal passes, and each way of spoiling it is
refused with rule ``deal`` and a message that names the part."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from cardmind.core import check_deal, check_seats, get_game
from cardmind.errors import IllegalAction

GAMES = {"literature": {"players": 6}, "gofish": {"players": 3}, "carioca": {"players": 3}, "handfoot": {}}


def _deal(name: str, seed: int = 3):
    game = get_game(name)
    opts = game.parse_options(GAMES[name])
    _, header = game.initial_state(opts, np.random.default_rng(seed))
    return game, opts, header


def _refused(game, opts, header) -> str:
    with pytest.raises(IllegalAction) as info:
        game.new_state(opts, header)
    assert info.value.rule == "deal"
    return info.value.message


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_games_deal_passes_and_each_spoilt_deal_is_refused(name):
    game, opts, header = _deal(name)
    assert game.new_state(opts, header).observer is None
    view = {**game.observer_header(header, 1), "format": header["format"], "game": name, "options": opts}
    if "up" in header:
        view["up"] = header["up"]
    assert game.new_state(opts, view).observer == 1

    short = copy.deepcopy(header)
    short["hands"][0] = short["hands"][0][1:]
    assert "seat 0's hand has" in _refused(game, opts, short) and "the deal gives" in _refused(game, opts, short)

    twice = copy.deepcopy(header)
    twice["hands"][1][0] = twice["hands"][0][0]
    msg = _refused(game, opts, twice)
    assert "more than once" in msg or "times" in msg or "twice" in msg or "were not dealt" in msg

    foreign = copy.deepcopy(header)
    foreign["hands"][2][0] = "1X"
    with pytest.raises(IllegalAction):
        game.new_state(opts, foreign)

    wrong_view = dict(header, observer=2, hand=header["hands"][0])
    assert "differs from hands[2]" in _refused(game, opts, wrong_view)

    bad_seat = dict(view, observer=99)
    assert "observer 99 is not a seat" in _refused(game, opts, bad_seat)


def test_check_deal_on_a_toy_pack():
    """Two decks of two cards: sizes, foreign cards, too many copies and missing cards."""
    pack = {"AS": 2, "KS": 2}
    check_deal(pack, [("seat 0's hand", ["AS", "KS"], 2), ("the stock", ["AS", "KS"], None)], "the decks")
    check_deal(pack, [("seat 0's hand", ["AS", "AS"], 2)], "the decks", exact=False)
    cases = [
        ([("seat 0's hand", ["AS"], 2)], "seat 0's hand has 1 cards; the deal gives 2"),
        ([("seat 0's hand", ["AS", "QS"], 2)], "seat 0's hand has QS, which is not in the decks"),
        ([("seat 0's hand", ["AS", "AS", "AS"], None)], "seat 0's hand has 3 x AS; the decks hold 2"),
        ([("a", ["AS", "AS"], None), ("b", ["AS"], None)], "AS is dealt 3 times; the decks hold 2"),
        ([("a", ["AS", "KS"], None)], "2 cards of the decks were not dealt (for example AS)"),
    ]
    for parts, message in cases:
        with pytest.raises(IllegalAction) as info:
            check_deal(pack, parts, "the decks")
        assert info.value.message == message and info.value.rule == "deal"
    with pytest.raises(IllegalAction, match="QS twice"):
        check_deal({"QS": 1}, [("the stock", ["QS", "QS"], None)], "the deck", exact=False)


def test_check_seats():
    assert check_seats({"observer": 1, "hand": ["AS"]}, 2) == (None, 1, ["AS"])
    for header, message in [({"observer": 2, "hand": []}, "observer 2 is not a seat (0-1)"),
                            ({"hands": [[]]}, "1 hands given for 2 players"),
                            ({"hands": [["AS"], ["KS"]], "observer": 0, "hand": ["KS"]}, "differs from hands[0]"),
                            ({}, "a record needs 'hands', or 'observer' and 'hand'")]:
        with pytest.raises(IllegalAction) as info:
            check_seats(header, 2)
        assert message in info.value.message
