"""Contract rummy rules: options, the deal, the discard offer (take, pass, steal), drawing,
going down, laying off, discarding, the end of a hand and its scores (with the -20 for going
down and out in one turn), restocking, and seven hands with the deal rotating. Every illegal
action raises the typed :class:`~cardmind.errors.IllegalAction` with a stable rule name.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from cardmind.agents.match import play_game
from cardmind.core import get_game
from cardmind.errors import IllegalAction, OptionError
from cardmind.agents.random import RandomAgent
from cardmind.games.carioca.agents.peer import CariocaPeerAgent
from cardmind.games.carioca.melds import Meld
from cardmind.games.carioca.notation import Discard, GoDown, LayOff, Pass, Steal, Take, action_from_json
from cardmind.games.carioca.rules import CONTRACTS, deck_cards, hand_cards
from cardmind.records import make_record, replay

GAME = get_game("carioca")


def header_for(hands: list[list[str]], up: str, options: dict | None = None, stock_head: list[str] = ()) -> dict:
    """A complete header with these first-hand hands and card turned up; the stock starts with
    ``stock_head`` and holds the rest of the pack after it (canonical order)."""
    opts = GAME.parse_options(options)
    rest = Counter(deck_cards(opts)) - Counter(c for h in hands for c in h) - Counter([up]) - Counter(stock_head)
    stock = list(stock_head) + sorted(rest.elements())
    return {"format": "cardmind-record/1", "game": "carioca", "options": opts, "hands": hands, "up": up,
            "stock": stock, "seed": 7}


def state_of(header: dict):
    return GAME.new_state(GAME.parse_options(header["options"]), header)


def rule_of(fn) -> str:
    with pytest.raises(IllegalAction) as exc:
        fn()
    return exc.value.rule


# ---------------------------------------------------------------------------- options and deal
def test_default_options_follow_rules_md():
    o = GAME.parse_options(None)
    assert o["players"] == 4 and o["jokers"] == 4 and o["decks"] == 2 and o["out_bonus"] == -20
    assert o["steal_penalty"] == 1 and o["joker_points"] == 50 and o["ace_points"] == 20 and o["hands"] == 7
    assert len(deck_cards(o)) == 108
    assert [hand_cards(o, k) for k in range(1, 8)] == [6, 7, 8, 9, 10, 11, 12]
    assert CONTRACTS == ((2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3))


@pytest.mark.parametrize("raw,needle", [
    ({"players": 6}, "players"), ({"players": 1}, "players"), ({"jokers": -1}, "jokers"),
    ({"steal_penalty": 4}, "steal_penalty"), ({"out_bonus": 20}, "out_bonus"), ({"hands": 8}, "hands"),
    ({"no_such": 1}, "unknown carioca option"), ({"players": 5, "decks": 1, "jokers": 0}, "pack has only"),
])
def test_bad_options_are_refused(raw, needle):
    with pytest.raises(OptionError) as exc:
        GAME.parse_options(raw)
    assert needle in str(exc.value)


def test_the_deal_and_its_checks():
    rng = np.random.default_rng(3)
    st, header = GAME.initial_state({"players": 3}, rng)
    assert [len(h) for h in header["hands"]] == [6, 6, 6]
    assert Counter(c for h in header["hands"] for c in h) + Counter(header["stock"]) + Counter([header["up"]]) \
        == Counter(deck_cards(st.options))
    assert st.to_move() == 0 and st.legal_actions(0) == [Take(0), Pass(0)]
    bad = dict(header, hands=[header["hands"][0][:5]] + header["hands"][1:])
    assert rule_of(lambda: GAME.new_state(st.options, bad)) == "deal"
    bad = dict(header, stock=header["stock"][:-1])
    assert rule_of(lambda: GAME.new_state(st.options, bad)) == "deal"
    view = GAME.new_state(st.options, {"observer": 1, "hand": header["hands"][1], "up": header["up"]})
    assert view.hands[1] == Counter(header["hands"][1]) and view.hands[0] is None


# ---------------------------------------------------------------------------- the offer
def test_the_offer_goes_in_seat_order_and_the_discarder_cannot_take_it_back():
    hands = [["5H", "5S", "9C", "9D", "KC", "2D"], ["3C", "4C", "8H", "TD", "QS", "AH"],
             ["6H", "6S", "7D", "JC", "JD", "2S"], ["4H", "8S", "9H", "TC", "KD", "AS"]]
    h = header_for(hands, "5D", stock_head=["7C", "QH", "3D", "4D"])
    st = state_of(h)
    # the card turned up is offered to every seat, seat 0 (on turn) first
    assert st.offer["order"] == [0, 1, 2, 3] and st.offer["from"] is None
    assert rule_of(lambda: st.check_action(Steal(0))) == "steal"
    assert rule_of(lambda: st.check_action(Pass(1))) == "offer"
    assert rule_of(lambda: st.check_action(Discard(0, "5H"))) == "turn"
    ev = st.apply_action(Pass(0))
    assert ev == [{"type": "pass", "player": 0}]
    assert rule_of(lambda: st.check_action(Take(1))) == "take"         # not on turn: steal or pass
    # nobody draws from the stock while the offer is open
    assert rule_of(lambda: st.apply_event({"type": "draw", "player": 0, "card": "7C"})) == "draw"
    ev = st.apply_action(Steal(1))
    # the steal takes the discard and one penalty card; then seat 0 draws (play goes on)
    assert ev[0] == {"type": "steal", "player": 1, "card": "5D", "penalty": ["7C"]}
    assert ev[1] == {"type": "draw", "player": 0, "card": "QH"}
    assert st.sizes == [7, 8, 6, 6] and st.known[1] == Counter({"5D": 1}) and st.phase == "play"
    ev = st.apply_action(Discard(0, "KC"))
    assert ev == [{"type": "discard", "player": 0, "card": "KC"}]
    assert st.turn == 1 and st.offer == {"card": "KC", "from": 0, "order": [1, 2, 3]}
    assert rule_of(lambda: st.check_action(Take(0))) == "offer"        # the discarder cannot take it back
    st.apply_action(Pass(1))
    st.apply_action(Pass(2))
    ev = st.apply_action(Pass(3))
    assert ev[-1] == {"type": "draw", "player": 1, "card": "3D"}
    st.apply_action(Discard(1, "QS"))
    ev = st.apply_action(Take(2))       # the player on turn takes the discard as its draw
    assert ev == [{"type": "take", "player": 2, "card": "QS"}] and st.phase == "play" and st.pile == ["KC"]


def test_going_down_laying_off_and_out_in_one_turn_scores_minus_20():
    hands = [["5H", "5S", "5D", "9C", "9D", "KC"], ["3C", "4C", "8H", "TD", "QS", "AH"],
             ["6H", "6S", "7D", "JC", "JD", "2S"], ["4H", "8S", "9H", "TC", "KD", "AS"]]
    h = header_for(hands, "9S", stock_head=["2C"])
    st = state_of(h)
    st.apply_action(Take(0))
    melds = (Meld("set", ("5H", "5S", "5D")), Meld("set", ("9C", "9D", "9S")))
    wrong = (Meld("set", ("5H", "5S", "5D")), Meld("run", ("9C", "9D", "9S", "KC")))
    assert rule_of(lambda: st.check_action(GoDown(0, wrong))) == "contract"
    assert rule_of(lambda: st.check_action(GoDown(0, (Meld("set", ("5H", "5S", "9C")),
                                                          Meld("set", ("9C", "9D", "9S")))))) == "meld"
    assert rule_of(lambda: st.check_action(LayOff(0, "5D", 0, "end"))) == "not-down"
    assert GoDown(0, melds) in st.legal_actions(0) or any(isinstance(a, GoDown) for a in st.legal_actions(0))
    st.apply_action(GoDown(0, melds))
    assert st.down[0] and st.sizes[0] == 1 and len(st.table) == 2
    assert rule_of(lambda: st.check_action(GoDown(0, melds))) == "go-down-twice"
    ev = st.apply_action(Discard(0, "KC"))
    end = ev[1]
    assert end["type"] == "hand_end" and end["out"] == 0
    pts = {"3C": 3, "4C": 4, "8H": 8, "TD": 10, "QS": 10, "AH": 20, "6H": 6, "6S": 6, "7D": 7, "JC": 10,
           "JD": 10, "2S": 2, "4H": 4, "8S": 8, "9H": 9, "TC": 10, "KD": 10, "AS": 20}
    assert end["scores"] == [-20] + [sum(pts[c] for c in hands[s]) for s in (1, 2, 3)]
    assert end["totals"] == end["scores"]
    deal = ev[2]
    assert deal["type"] == "deal" and deal["hand"] == 2 and [len(x) for x in deal["hands"]] == [7] * 4
    assert st.turn == 1 and st.offer["order"] == [1, 2, 3, 0]          # the first turn rotates
    assert (st.sets, st.runs) == (1, 1)


def test_out_without_the_bonus_and_the_bonus_option():
    hands = [["5H", "5S", "5D", "9C", "9D", "KC"], ["3C", "4C", "8H", "TD", "QS", "AH"]]
    for bonus in (-20, 0, -50):
        h = header_for(hands, "9S", {"players": 2, "out_bonus": bonus, "hands": 1}, stock_head=["2C", "2H"])
        st = state_of(h)
        st.apply_action(Take(0))
        st.apply_action(GoDown(0, (Meld("set", ("5H", "5S", "5D")), Meld("set", ("9C", "9D", "9S")))))
        st.apply_action(Discard(0, "KC"))
        assert st.is_over() and st.hand_scores[0][0] == bonus and st.result().outcome == (1.0, 0.0)
    # down in one turn, out in a later one: 0
    h = header_for([["5H", "5S", "5D", "9C", "9D", "KC", "QC"], ["3C", "4C", "8H", "TD", "QS", "AH", "2D"]],
                   "9S", {"players": 2, "hand_size": 7, "hands": 1}, stock_head=["2C", "5C"])
    st = state_of(h)
    st.apply_action(Take(0))
    st.apply_action(GoDown(0, (Meld("set", ("5H", "5S", "5D")), Meld("set", ("9C", "9D", "9S")))))
    st.apply_action(Discard(0, "KC"))
    st.apply_action(Pass(1))
    st.apply_action(Discard(1, "2D"))
    st.apply_action(Pass(0))                       # draws the 5C
    assert st.hands[0] == Counter({"QC": 1, "5C": 1})
    st.apply_action(LayOff(0, "5C", 0, "end"))
    assert rule_of(lambda: st.check_action(LayOff(0, "QC", 1, "end"))) == "last-card"
    ev = st.apply_action(Discard(0, "QC"))
    assert ev[-1]["type"] == "hand_end" and ev[-1]["scores"][0] == 0


def test_restock_when_the_stock_runs_out():
    # one deck, no jokers, 2 players of 6: the stock holds 52 - 13 = 39 cards; play until it runs out
    opts = {"players": 2, "decks": 1, "jokers": 0, "hands": 1}
    rng = np.random.default_rng(11)
    st, header = GAME.initial_state(opts, rng)
    events = []
    turns = 0
    while not st.is_over() and turns < 400:
        seat = st.to_move()
        acts = st.legal_actions(seat)
        # pass every offer and discard the first card: the stock runs out, then restocks
        a = next((x for x in acts if isinstance(x, Pass)), None) or next(x for x in acts if isinstance(x, Discard))
        events += st.apply_action(a)
        turns += 1
    kinds = Counter(e["type"] for e in events)
    assert kinds["restock"] >= 1
    first = next(e for e in events if e["type"] == "restock")
    assert first["count"] == len(first["cards"]) > 0
    # the whole game replays from its record, and from every seat's view
    rec = make_record(header, events)
    final = replay(rec)
    assert final.stock_count == st.stock_count and final.pile == st.pile
    for s in range(2):
        v = rec.for_seat(s)
        assert all(e["cards"] is None for e in v.events if e["type"] == "restock")
        replay(v)


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_seven_hands_with_the_deal_rotating(players, seed):
    rng = np.random.default_rng(seed)
    # peer players go out (random ones rarely do); one random seat keeps the actions varied
    factories = [lambda g, s, o, h: CariocaPeerAgent(g, s, o, h)] * (players - 1) + \
        [lambda g, s, o, h: RandomAgent(g, s, o, h)]
    mr = play_game(GAME, {"players": players}, factories, rng, [np.random.default_rng(seed * 10 + i)
                                                                   for i in range(players)])
    assert mr.forfeit is None and mr.result is not None, mr.forfeit_reason
    deals = [e for e in mr.record.events if e["type"] == "deal"]
    ends = [e for e in mr.record.events if e["type"] == "hand_end"]
    assert [d["hand"] for d in deals] == [2, 3, 4, 5, 6, 7] and [e["hand"] for e in ends] == list(range(1, 8))
    for d in deals:
        assert [len(h) for h in d["hands"]] == [5 + d["hand"]] * players
    totals = [0] * players
    for e in ends:
        totals = [t + s for t, s in zip(totals, e["scores"])]
        assert e["totals"] == totals
    assert mr.result.detail["totals"] == totals and mr.result.scores == tuple(-float(t) for t in totals)
    low = min(totals)
    assert [o for o in mr.result.outcome] == [(1.0 if sum(t == low for t in totals) == 1 else 0.5)
                                              if t == low else 0.0 for t in totals]
    # every hand's first turn: seat (hand - 1) mod players
    for d in deals:
        i = mr.record.events.index(d)
        nxt = mr.record.events[i + 1]
        assert nxt.get("player") == (d["hand"] - 1) % players


def test_actions_parse_and_bad_ones_say_why():
    a = action_from_json({"type": "go_down", "player": 1, "melds": [{"kind": "set", "cards": ["5h", "5s", "rj"]}]})
    assert a == GoDown(1, (Meld("set", ("5H", "5S", "RJ")),))
    assert action_from_json(a.to_json()) == a
    for bad in ({"type": "lay_off", "player": 0, "card": "5H", "meld": -1}, {"type": "nope"},
                {"type": "discard", "player": 0}, {"type": "go_down", "player": 0, "melds": [{"kind": "pair"}]}):
        with pytest.raises(ValueError):
            action_from_json(bad)
