"""Bulgarian Go Fish: options, deal, every rule, records, views and simulated games."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from cardmind.agents.base import resolve_agent
from cardmind.agents.random import RandomAgent
from cardmind.agents.match import play_game
from cardmind.core import get_game, game_names
from cardmind.errors import IllegalAction, OptionError, RecordError
from cardmind.games.gofish import Ask, AskBook, Give, GoFishState, LayBooks, deck_cards
from cardmind.records import loads_record, make_record, read_record, replay, write_record

G = get_game("gofish")


# ---------------------------------------------------------------------------- helpers
def opts(**kw) -> dict:
    return G.parse_options(kw)


def header(hands, stock, **kw) -> dict:
    return {"format": "cardmind-record/1", "game": "gofish", "options": opts(**kw),
            "hands": hands, "stock": stock}


def complete(hands, stock, **kw) -> GoFishState:
    return G.new_state(opts(**kw), header(hands, stock, **kw))


def player_view(seat, cards, **kw) -> GoFishState:
    return G.new_state(opts(**kw), {"observer": seat, "hand": cards})


def rule_of(fn, *args) -> str:
    """The rule name of the IllegalAction that ``fn(*args)`` raises (fails when none is raised)."""
    with pytest.raises(IllegalAction) as info:
        fn(*args)
    return info.value.rule


def act_all(state, actions) -> list[dict]:
    out = []
    for a in actions:
        out += state.apply_action(a)
    return out


def ask(a, t, r, given):
    return {"type": "ask", "asker": a, "target": t, "rank": r, "given": given}


def draw(p, card, shown=False):
    return {"type": "draw", "player": p, "card": card, "shown": shown}


def book(p, r):
    return {"type": "book", "player": p, "rank": r}


def ask_book(a, t, r, ok):
    return {"type": "ask_book", "asker": a, "target": t, "rank": r, "success": ok}


def feed(state, events):
    for ev in events:
        state.apply_event(ev)
    return state


# A two-player game on 2-5 with two suits: lucky draw, unlucky draw, a hand-over chosen by the
# target, a book by hand-over, an empty hand that draws and plays on, and the end of phase 1.
SMALL = dict(players=2, ranks=4, suits=2, hand=2)
SMALL_HANDS = [["2C", "3C"], ["4C", "5C"]]
SMALL_STOCK = ["2D", "4D", "3D", "5D"]
SMALL_EVENTS = [
    ask(0, 1, "2", []), draw(0, "2D", True), book(0, "2"),      # lucky draw: shown, seat 0 goes on
    ask(0, 1, "3", []), draw(0, "4D"),                           # unlucky: the turn passes
    ask(1, 0, "4", ["4D"]), book(1, "4"),                        # given: seat 1 goes on
    ask(1, 0, "5", []), draw(1, "3D"),
    ask(0, 1, "3", ["3D"]), book(0, "3"), draw(0, "5D"),         # seat 0 empties, draws, plays on
    ask(0, 1, "5", ["5C"]), book(0, "5"),
]


def small_game() -> GoFishState:
    return complete(SMALL_HANDS, SMALL_STOCK, **SMALL)


# ---------------------------------------------------------------------------- options and deal
def test_registered_with_defaults():
    assert "gofish" in game_names()
    o = opts()
    assert o == {"players": 4, "give": "one", "books_face_up": False, "phase2": False,
                 "ranks": 13, "suits": 4, "hand": 6}
    assert G.num_seats(o) == 4
    assert len(deck_cards(o)) == 52


@pytest.mark.parametrize("raw", [
    {"players": 1}, {"players": 7}, {"players": True}, {"give": "some"}, {"books_face_up": 1},
    {"phase2": "yes"}, {"ranks": 0}, {"ranks": 14}, {"suits": 1}, {"suits": 5}, {"hand": 0},
    {"colour": "red"},
])
def test_bad_option_values_are_rejected(raw):
    with pytest.raises(OptionError) as info:
        G.parse_options(raw)
    assert next(iter(raw)) in str(info.value)


def test_option_combinations_must_deal():
    with pytest.raises(OptionError, match="need 54 cards"):
        G.parse_options({"players": 6, "hand": 9})
    with pytest.raises(OptionError, match="3 ranks x 2 suits"):
        G.parse_options({"players": 4, "ranks": 3, "suits": 2, "hand": 2})
    assert G.parse_options({"players": 4, "hand": 13})["hand"] == 13     # all dealt, no stock


def test_small_deck_keeps_lowest_ranks_and_first_suits():
    assert deck_cards(opts(ranks=3, suits=2, players=2, hand=1)) == ("2C", "2D", "3C", "3D", "4C", "4D")


def test_deal_is_round_robin_from_seat_0_and_the_rest_is_the_stock():
    o = opts(players=3)
    hidden = G.deal(o, np.random.default_rng(7))
    shuffled = [deck_cards(o)[k] for k in np.random.default_rng(7).permutation(52)]
    for s in range(3):
        assert sorted(hidden["hands"][s]) == sorted(shuffled[s:18:3])
    assert hidden["stock"] == shuffled[18:]
    assert len(hidden["stock"]) == 34
    assert hidden["hands"][0] == sorted(hidden["hands"][0], key=lambda c: ("23456789TJQKA".index(c[0]), c[1]))


@pytest.mark.parametrize("hands,stock,needle", [
    ([["2C", "3C"], ["4C"]], ["5C", "2D", "3D", "4D", "5D"], "has 1 cards"),
    ([["2C", "3C"], ["4C", "AS"]], ["5C", "2D", "3D", "4D"], "not in the deck"),
    ([["2C", "3C"], ["4C", "3C"]], ["5C", "2D", "4D", "5D"], "more than once"),
    ([["2C", "3C"], ["4C", "5C"]], ["2D", "4D", "3D"], "the stock has 3 cards"),
    ([["2C", "3C"], ["4C", "5C"]], None, "needs 'stock'"),
    ([["2C", "3C"]], ["2D", "4D", "3D", "5D"], "1 hands given"),
])
def test_bad_deals_are_rejected(hands, stock, needle):
    h = header(hands, stock, **SMALL)
    if stock is None:
        del h["stock"]
    with pytest.raises(IllegalAction) as info:
        G.new_state(opts(**SMALL), h)
    assert info.value.rule == "deal" and needle in info.value.message


def test_observer_hand_must_match_hands():
    h = header(SMALL_HANDS, SMALL_STOCK, **SMALL)
    h.update(observer=1, hand=["4C", "5D"])
    assert rule_of(G.new_state, opts(**SMALL), h) == "deal"
    h["hand"] = ["5C", "4C"]
    assert G.new_state(opts(**SMALL), h).is_complete()


# ---------------------------------------------------------------------------- phase 1 flow
def test_small_game_actions_produce_the_expected_events():
    st = small_game()
    assert st.to_move() == 0
    assert st.legal_actions(0) == [Ask(0, 1, "2"), Ask(0, 1, "3")]
    assert st.legal_actions(1) == []
    evs = act_all(st, [Ask(0, 1, "2"), Ask(0, 1, "3")])
    assert evs == SMALL_EVENTS[:5]
    assert st.to_move() == 1 and st.sizes == [2, 2] and st.stock_count == 2
    # a hand-over under give "one": the asked player chooses the card
    assert st.apply_action(Ask(1, 0, "4")) == []
    assert st.pending_notice() == {"type": "ask", "asker": 1, "target": 0, "rank": "4"}
    assert st.to_move() == 0 and st.legal_actions(0) == [Give(0, "4D")]
    assert rule_of(st.check_action, Ask(1, 0, "4")) == "pending-give"
    assert rule_of(st.check_action, Give(0, "3C")) == "give-card"
    assert rule_of(st.check_action, Give(1, "4D")) == "turn"
    evs = act_all(st, [Give(0, "4D"), Ask(1, 0, "5"), Ask(0, 1, "3"), Give(1, "3D")])
    assert evs == SMALL_EVENTS[5:12]
    assert st.expected_draw() is None and st.to_move() == 0 and st.hands[0] == {"5D"}
    evs = act_all(st, [Ask(0, 1, "5"), Give(1, "5C")])
    assert evs == SMALL_EVENTS[12:]
    assert st.is_over() and st.to_move() is None and st.legal_actions(0) == []
    r = st.result()
    assert r.scores == (3.0, 1.0) and r.outcome == (1.0, 0.0)
    assert r.detail["winners"] == [0] and r.detail["phase1_books"] == [3, 1]


def test_small_game_events_replay_and_track_public_facts():
    st = feed(small_game(), SMALL_EVENTS[:7])
    assert st.books_per_seat() == [1, 1]
    assert st.book_at == {"2": 0, "4": 1}
    assert [b["public_rank"] for b in st.book_log] == ["2", "4"]   # after a shown draw / an ask: public
    assert st.turn == 1 and st.sizes == [1, 1]
    feed(st, SMALL_EVENTS[7:])
    assert st.is_over() and st.result().outcome == (1.0, 0.0)
    assert rule_of(st.apply_event, ask(1, 0, "5", [])) == "game-over"


def test_give_all_hands_over_every_card_of_the_rank():
    o = dict(players=2, ranks=3, suits=3, hand=3, give="all")
    st = complete([["2C", "3C", "4C"], ["2D", "2H", "3D"]], ["4D", "4H", "3H"], **o)
    evs = st.apply_action(Ask(0, 1, "2"))
    assert evs == [ask(0, 1, "2", ["2D", "2H"]), book(0, "2")]
    assert st.sizes == [2, 1] and st.to_move() == 0
    st2 = complete([["2C", "3C", "4C"], ["2D", "2H", "3D"]], ["4D", "4H", "3H"], **o)
    assert rule_of(st2.apply_event, ask(0, 1, "2", ["2D"])) == "given-all"
    st3 = complete([["2C", "3C", "4C"], ["2D", "2H", "3D"]], ["4D", "4H", "3H"], **dict(o, give="one"))
    assert rule_of(st3.apply_event, ask(0, 1, "2", ["2D", "2H"])) == "given-count"


def test_refusal_with_empty_stock_passes_the_turn_and_empty_players_are_skipped():
    # three players, no stock: seat 0 empties itself, is skipped; a refusal just passes the turn
    o = dict(players=3, ranks=3, suits=2, hand=2)
    st = complete([["2C", "3C"], ["2D", "4C"], ["3D", "4D"]], [], **o)
    feed(st, [ask(0, 1, "2", ["2D"]), book(0, "2"), ask(0, 2, "3", ["3D"]), book(0, "3")])
    assert st.sizes == [0, 1, 1] and st.to_move() == 1          # seat 0 empty, no stock: skipped
    feed(st, [ask(1, 2, "4", ["4D"]), book(1, "4")])
    assert st.is_over() and st.result().outcome == (1.0, 0.0, 0.0)
    st = complete([["2C", "3C"], ["2D", "4C"], ["3D", "4D"]], [], **o)
    feed(st, [ask(0, 2, "2", [])])
    assert st.to_move() == 1 and st.expected_draw() is None


def test_tie_for_most_books_is_shared():
    o = dict(players=3, ranks=2, suits=2, hand=1)
    st = complete([["2C"], ["3C"], ["2D"]], ["3D"], **o)
    # seat 0 asks seat 2 for 2 and completes it; empty with stock: draws 3D and plays on
    evs = st.apply_action(Ask(0, 2, "2")) + st.apply_action(Give(2, "2D"))
    assert evs == [ask(0, 2, "2", ["2D"]), book(0, "2"), draw(0, "3D")]
    assert st.to_move() == 0 and st.sizes == [1, 1, 0]
    act_all(st, [Ask(0, 1, "3"), Give(1, "3C")])
    assert st.result().outcome == (1.0, 0.0, 0.0)
    st = complete([["2C"], ["3C"], ["2D"]], ["3D"], **o)
    feed(st, [ask(0, 1, "2", []), draw(0, "3D"), ask(1, 0, "3", ["3D"]), book(1, "3")])
    # seat 1 is empty with an empty stock: skipped; seat 2 asks seat 0
    assert st.to_move() == 2
    feed(st, [ask(2, 0, "2", ["2C"]), book(2, "2")])
    r = st.result()
    assert r.scores == (0.0, 1.0, 1.0) and r.outcome == (0.0, 0.5, 0.5) and r.detail["winners"] == [1, 2]


def test_player_nobody_can_ask_draws_and_the_turn_passes():
    o = dict(players=2, ranks=3, suits=3, hand=2)
    st = complete([["2C", "3C"], ["2D", "3D"]], ["4C", "2H", "4D", "4H", "3H"], **o)
    evs = act_all(st, [Ask(0, 1, "2"), Give(1, "2D"), Ask(0, 1, "3"), Give(1, "3D")])
    # seat 1 is empty: seat 0 has nobody to ask, draws 4C (not shown), the turn passes;
    # seat 1 on turn without cards draws 2H and plays on
    assert evs[-2:] == [draw(0, "4C"), draw(1, "2H")]
    assert st.to_move() == 1 and st.legal_actions(1) == [Ask(1, 0, "2")]
    st.apply_action(Ask(1, 0, "2"))
    assert st.legal_actions(0) == [Give(0, "2C"), Give(0, "2D")]    # the asked player's choice


def test_unlucky_draw_that_completes_a_book_passes_the_turn():
    o = dict(players=2, ranks=4, suits=2, hand=2)
    st = complete([["2C", "3C"], ["4C", "5C"]], ["2D", "3D", "4D", "5D"], **o)
    evs = st.apply_action(Ask(0, 1, "3"))
    assert evs == [ask(0, 1, "3", []), draw(0, "2D"), book(0, "2")]
    assert st.to_move() == 1
    assert st.book_log[-1] == {"maker": 0, "rank": "2", "public_rank": None, "opening": False}
    v = st.view(1)                                  # seat 1 saw a book of an unknown rank
    assert v.hidden_books == [1, 0] and v.book_at == {}
    st = complete([["2C", "3C"], ["4C", "5C"]], ["3D", "2D", "4D", "5D"], **o)
    assert st.apply_action(Ask(0, 1, "3")) == [ask(0, 1, "3", []), draw(0, "3D", True), book(0, "3")]
    assert st.to_move() == 0                        # the lucky draw keeps the turn


def test_a_dealt_book_can_leave_a_player_with_nobody_to_ask():
    o = dict(players=2, ranks=3, suits=2, hand=2)
    st = complete([["2C", "3C"], ["4C", "4D"]], ["3D", "2D"], **o)
    assert st.to_move() == 1 and st.legal_actions(1) == [LayBooks(1)] and st.legal_actions(0) == []
    assert rule_of(st.check_action, Ask(0, 1, "2")) == "dealt-book"
    # seat 1 is empty after laying its book: seat 0 has nobody to ask, draws 3D (a book: the turn
    # still passes), seat 1 on turn with no cards draws 2D and plays
    assert st.apply_action(LayBooks(1)) == [book(1, "4"), draw(0, "3D"), book(0, "3"), draw(1, "2D")]
    assert st.to_move() == 1 and st.legal_actions(1) == [Ask(1, 0, "2")]


def test_dealt_books_are_laid_in_seat_then_rank_order():
    o = dict(players=2, ranks=5, suits=2, hand=4)
    hands = [["2C", "2D", "3C", "3D"], ["4C", "5C", "6C", "6D"]]
    st = complete(hands, ["4D", "5D"], **o)
    assert st.opening and st.to_move() == 0 and st.unlaid == [["2", "3"], ["6"]]
    assert rule_of(st.apply_event, book(0, "3")) == "dealt-book"
    assert rule_of(st.apply_event, book(1, "6")) == "dealt-book"
    assert rule_of(st.check_action, LayBooks(1)) == "turn"
    evs = act_all(st, [LayBooks(0), LayBooks(1)])
    # seat 0 is then empty and draws before playing
    assert evs == [book(0, "2"), book(0, "3"), book(1, "6"), draw(0, "4D")]
    assert not st.opening and st.to_move() == 0
    assert st.legal_actions(0) == [Ask(0, 1, "4")]
    assert rule_of(st.check_action, LayBooks(0)) == "dealt-book"
    act_all(st, [Ask(0, 1, "4"), Give(1, "4C"), Ask(0, 1, "5"), Give(1, "5C")])
    assert st.result().scores == (4.0, 1.0)
    # a view of seat 1: seat 0's dealt books arrive face down; seat 1 must lay its own before play
    v = player_view(1, hands[1], **o)
    assert v.to_move() == 1 and v.legal_actions(1) == [LayBooks(1)]
    feed(v, [book(0, None), book(0, None)])
    assert v.hidden_books == [2, 0] and v.sizes == [0, 4]
    assert rule_of(v.copy().apply_event, draw(0, None)) == "dealt-book"
    feed(v, [book(1, "6"), draw(0, None), ask(0, 1, "4", ["4C"]), book(0, None)])
    assert v.book_at == {"6": 1, "4": 0} and v.hidden_books == [2, 0]   # the 4 book's rank is inferred
    # seat 0's view: seat 1's book cannot come before seat 0's own
    v0 = player_view(0, hands[0], **o)
    assert rule_of(v0.apply_event, book(1, None)) == "dealt-book"


# ---------------------------------------------------------------------------- phase 2
PHASE2 = dict(players=3, ranks=3, suits=2, hand=1, phase2=True)
PHASE2_HANDS = [["2C"], ["3C"], ["4C"]]
PHASE2_STOCK = ["2D", "3D", "4D"]
PHASE1_EVENTS = [
    ask(0, 1, "2", []), draw(0, "2D", True), book(0, "2"), draw(0, "3D"),
    ask(0, 2, "3", []), draw(0, "4D"),
    ask(1, 0, "3", ["3D"]), book(1, "3"),
    ask(2, 0, "4", ["4D"]), book(2, "4"),
]


def phase2_state() -> GoFishState:
    return feed(complete(PHASE2_HANDS, PHASE2_STOCK, **PHASE2), PHASE1_EVENTS)


def test_phase2_starts_with_the_last_book_maker():
    st = phase2_state()
    assert st.phase == 2 and st.phase1_books == [1, 1, 1] and st.to_move() == 2
    assert st.legal_actions(2) == [AskBook(2, 0, "2"), AskBook(2, 1, "2"), AskBook(2, 0, "3"), AskBook(2, 1, "3")]
    assert rule_of(st.check_action, AskBook(2, 0, "4")) == "ask-own-book"
    assert rule_of(st.check_action, AskBook(2, 2, "2")) == "ask-self"
    assert rule_of(st.check_action, AskBook(0, 1, "2")) == "turn"
    assert rule_of(st.check_action, Ask(2, 0, "2")) == "phase"
    assert rule_of(st.copy().apply_event, ask_book(2, 0, "3", True)) == "ask-book-result"


def test_phase2_miss_passes_hit_goes_on_and_all_books_win():
    st = phase2_state()
    assert st.apply_action(AskBook(2, 0, "3")) == [ask_book(2, 0, "3", False)]
    assert st.to_move() == 0
    assert st.apply_action(AskBook(0, 1, "3")) == [ask_book(0, 1, "3", True)]
    assert st.to_move() == 0 and st.books_per_seat() == [2, 0, 1]
    assert rule_of(st.check_action, AskBook(0, 1, "4")) == "ask-no-books"
    st.apply_action(AskBook(0, 2, "4"))
    assert st.is_over()
    r = st.result()
    assert r.scores == (3.0, 0.0, 0.0) and r.outcome == (1.0, 0.0, 0.0) and r.detail["phase1_books"] == [1, 1, 1]


def test_phase2_player_who_loses_every_book_is_out():
    st = phase2_state()
    feed(st, [ask_book(2, 1, "3", True)])          # seat 1 loses its only book
    assert st.books_per_seat() == [1, 0, 2] and st.to_move() == 2
    assert rule_of(st.check_action, AskBook(2, 1, "2")) == "ask-no-books"
    assert st.legal_actions(2) == [AskBook(2, 0, "2")] and st.legal_actions(1) == []
    st.apply_action(AskBook(2, 0, "2"))
    assert st.result().outcome == (0.0, 0.0, 1.0)


def test_phase2_view_checks_what_it_can():
    rec = make_record(header(PHASE2_HANDS, PHASE2_STOCK, **PHASE2), PHASE1_EVENTS)
    v = replay(_player_record(rec, 1))
    assert v.book_at == {"3": 1, "2": 0, "4": 2}       # every book followed an ask or a shown draw
    rec2 = make_record(header([["2C"], ["3C"], ["4C"]], ["3D", "2D", "4D"], **PHASE2), [
        ask(0, 1, "2", []), draw(0, "3D"), ask(1, 0, "3", ["3D"]), book(1, "3"), draw(1, "2D"),
        ask(1, 0, "2", ["2C"]), book(1, "2"), draw(1, "4D"), ask(1, 2, "4", ["4C"]), book(1, "4"),
    ])
    assert replay(rec2).is_over()                  # seat 1 holds every book at the end of phase 1
    assert replay(rec2).result().outcome == (0.0, 1.0, 0.0)
    assert rule_of(v.apply_event, ask_book(2, 0, "3", True)) == "ask-book-result"


# ---------------------------------------------------------------------------- illegal events
@pytest.mark.parametrize("prefix,event,rule", [
    (0, ask(1, 0, "4", []), "turn"),
    (0, ask(0, 0, "2", []), "ask-self"),
    (0, ask(0, 5, "2", []), "seat"),
    (0, ask(0, 1, "K", []), "unknown-rank"),
    (0, ask(0, 1, "4", []), "ask-unheld-rank"),
    (0, ask(0, 1, "2", ["3C"]), "given-rank"),
    (0, ask(0, 1, "2", ["AS"]), "unknown-card"),
    (0, ask(0, 1, "2", ["2D"]), "given-card"),
    (0, ask(0, 1, "2", ["2C"]), "given-card"),
    (5, ask(1, 0, "4", []), "ask-result"),
    (1, ask(0, 1, "3", []), "must-draw"),
    (0, draw(0, "2D", True), "no-draw"),
    (1, draw(1, "2D", True), "turn"),
    (1, draw(0, None), "draw-card"),
    (1, draw(0, "2D", False), "draw-shown"),
    (4, draw(0, "4D", True), "draw-shown"),
    (1, draw(0, "4D"), "stock-order"),
    (1, draw(0, "4C"), "draw-card"),
    (0, book(0, "2"), "book-window"),
    (2, book(0, None), "book-rank"),
    (2, book(0, "3"), "book-rank"),
    (2, ask(0, 1, "3", []), "book-missing"),
    (3, ask(0, 1, "2", []), "rank-booked"),
    (0, ask_book(0, 1, "2", True), "phase"),
    (0, {"type": "claim"}, "event-type"),
])
def test_illegal_events_in_a_complete_state(prefix, event, rule):
    st = feed(small_game(), SMALL_EVENTS[:prefix])
    assert rule_of(st.apply_event, event) == rule


def test_empty_hand_draw_is_never_shown():
    st = feed(small_game(), SMALL_EVENTS[:11])
    assert st.expected_draw() == 0
    assert rule_of(st.copy().apply_event, draw(0, "5D", True)) == "draw-shown"
    assert rule_of(st.copy().apply_event, ask(0, 1, "5", [])) == "must-draw"
    feed(st, [draw(0, "5D")])


@pytest.mark.parametrize("seat,prefix,event,rule", [
    (1, 1, draw(0, "2D", True), None),                   # shown draws name the card
    (1, 1, draw(0, None, True), "draw-card"),
    (1, 4, draw(0, "4D"), "draw-card"),                   # another's unshown draw is hidden
    (0, 4, draw(0, None), "draw-card"),                   # one's own draw is not
    (1, 2, book(0, "2"), "book-rank"),                    # another's face-down book has no rank
    (0, 2, book(0, None), "book-rank"),                   # one's own book has it
    (1, 0, ask(0, 1, "4", []), "ask-result"),             # seat 1 holds 4C
    (1, 7, ask(1, 0, "4", []), "rank-booked"),
    (0, 0, ask(0, 1, "2", ["2C"]), "given-card"),          # seat 0 holds 2C
    (1, 0, ask(0, 1, "2", ["2C", "2D"]), "given-count"),
    (1, 8, draw(1, None), "draw-card"),
    (1, 5, draw(1, None), "no-draw"),
])
def test_view_checks(seat, prefix, event, rule):
    rec = make_record(header(SMALL_HANDS, SMALL_STOCK, **SMALL), SMALL_EVENTS[:prefix])
    v = replay(_player_record(rec, seat))
    if rule is None:
        v.apply_event(event)
    else:
        assert rule_of(v.apply_event, event) == rule


def test_pending_notice_in_a_view():
    v = player_view(0, SMALL_HANDS[0], **SMALL)
    feed(v, [ask(0, 1, "2", []), draw(0, "2D", True), book(0, "2"), ask(0, 1, "3", []), draw(0, "4D")])
    v.apply_pending_notice({"type": "ask", "asker": 1, "target": 0, "rank": "4"})
    assert v.to_move() == 0 and v.legal_actions(0) == [Give(0, "4D")]
    assert rule_of(v.copy().apply_event, ask(1, 0, "5", [])) == "pending-give"
    feed(v, [ask(1, 0, "4", ["4D"]), book(1, None)])
    assert v.pending is None and v.to_move() == 1
    for bad in ({"type": "ask", "asker": 1, "target": 0, "rank": "5", "given": []}, {"type": "draw"}):
        assert rule_of(v.copy().apply_pending_notice, bad) == "notice"
    assert rule_of(v.copy().apply_pending_notice, {"type": "ask", "asker": 1, "target": 0, "rank": "5"}) == "notice"


# ---------------------------------------------------------------------------- records
def _player_record(rec, seat):
    """``rec.for_seat(seat)`` without the stock (see test_for_seat_drops_the_stock)."""
    pr = rec.for_seat(seat)
    pr.header.pop("stock", None)
    return pr


def _roundtrip(rec):
    buf = io.StringIO()
    write_record(buf, rec)
    return loads_record(buf.getvalue())


def test_complete_record_roundtrip_and_player_records():
    rec = make_record(header(SMALL_HANDS, SMALL_STOCK, **SMALL), SMALL_EVENTS)
    back = _roundtrip(rec)
    assert back.header == rec.header and back.events == rec.events
    assert back.header["stock"] == SMALL_STOCK
    p1 = _player_record(rec, 1)
    assert p1.header["observer"] == 1 and p1.header["hand"] == ["4C", "5C"] and "hands" not in p1.header
    assert p1.events[1] == draw(0, "2D", True)         # shown: everyone sees it
    assert p1.events[2] == book(0, None)
    assert p1.events[4] == draw(0, None)                # unseen
    assert p1.events[8] == draw(1, "3D") and p1.events[6] == book(1, "4")
    back1 = _roundtrip(p1)
    assert back1.events == p1.events
    v = replay(back1)
    assert v.is_over() and v.result() == replay(rec).result()
    assert v.book_at == {"2": 0, "4": 1, "3": 0, "5": 0}


def test_for_seat_drops_the_stock():
    rec = make_record(header(SMALL_HANDS, SMALL_STOCK, **SMALL), SMALL_EVENTS)
    assert "stock" not in rec.for_seat(0).header


def test_books_face_up_records_show_every_rank():
    o = dict(SMALL, books_face_up=True)
    rec = make_record(header(SMALL_HANDS, SMALL_STOCK, **o), SMALL_EVENTS)
    p1 = _player_record(rec, 1)
    assert p1.events[2] == book(0, "2")
    assert replay(p1).is_over()
    bad = make_record(p1.header, p1.events[:2])
    v = replay(bad)
    assert rule_of(v.apply_event, book(0, None)) == "book-rank"


def _write(tmp_path, lines) -> str:
    p = tmp_path / "g.jsonl"
    p.write_text("\n".join(json.dumps(x) if not isinstance(x, str) else x for x in lines) + "\n")
    return str(p)


@pytest.mark.parametrize("line,needle,rule", [
    ({"type": "ask", "asker": 0, "target": 1, "rank": "2"}, "missing 'given'", None),
    ({"type": "ask", "asker": 0, "target": 1, "rank": "2", "given": [], "card": "2C"}, "unknown key", None),
    ({"type": "draw", "player": 0, "card": "ZZ", "shown": False}, "unknown card", None),
    ({"type": "draw", "player": "0", "card": None, "shown": False}, "non-negative integer", None),
    ({"type": "book", "player": 0, "rank": "1"}, "must be a rank", None),
    ({"type": "ask_book", "asker": 0, "target": 1, "rank": "2", "success": 1}, "true or false", None),
    ({"type": "fish", "player": 0}, "unknown event type", None),
    ("{not json", "not valid JSON", None),
    ('{"type": "ask', "not valid JSON (Unterminated string starting at column 10)", None),
    ({"type": "draw", "player": 0, "card": "4D", "shown": False}, "laid no book", "book-missing"),
])
def test_malformed_or_illegal_lines_are_rejected_with_file_and_line(tmp_path, line, needle, rule):
    h = header(SMALL_HANDS, SMALL_STOCK, **SMALL)
    path = _write(tmp_path, [h, SMALL_EVENTS[0], SMALL_EVENTS[1], line])
    with pytest.raises(RecordError) as info:
        read_record(path)
    assert str(info.value).startswith(f"{path}:4: ")
    assert needle in str(info.value)
    assert info.value.rule == rule


def test_bad_header_stock_is_rejected_on_line_1(tmp_path):
    h = header(SMALL_HANDS, SMALL_STOCK, **SMALL)
    h["stock"] = "2D 4D"
    with pytest.raises(RecordError, match=r":1: 'stock' must be a list of cards"):
        read_record(_write(tmp_path, [h]))
    h = header(SMALL_HANDS, SMALL_STOCK, **SMALL)
    del h["stock"]
    with pytest.raises(RecordError, match=r":1: a complete Go Fish record needs 'stock'"):
        read_record(_write(tmp_path, [h]))


def test_view_equals_the_players_record_replay():
    rec = make_record(header(SMALL_HANDS, SMALL_STOCK, **SMALL), SMALL_EVENTS[:9])
    st = replay(rec)
    for seat in (0, 1):
        v = st.view(seat)
        w = replay(_player_record(rec, seat))
        assert (v.sizes, v.stock_count, v.book_at, v.hidden_books, v.hands, v.to_move()) == \
               (w.sizes, w.stock_count, w.book_at, w.hidden_books, w.hands, w.to_move())
        assert v.hands[1 - seat] is None and v.stock is None
    assert st.view(0).legal_actions(0) == st.legal_actions(0)


# ---------------------------------------------------------------------------- actions
def test_actions_json_roundtrip():
    for a in (Ask(0, 2, "Q"), Give(2, "QH"), LayBooks(1), AskBook(3, 1, "7")):
        assert G.action_from_json(json.loads(json.dumps(a.to_json()))) == a
    for bad in ({"type": "ask", "asker": 0, "target": 1}, {"type": "ask", "asker": 0, "target": 1, "rank": "Z"},
                {"type": "claim"}, [1, 2]):
        with pytest.raises(ValueError):
            G.action_from_json(bad)
    assert rule_of(small_game().check_action, "ask") == "unknown-action"


def test_views_cannot_resolve_actions():
    v = player_view(0, SMALL_HANDS[0], **SMALL)
    with pytest.raises(ValueError):
        v.apply_action(Ask(0, 1, "2"))
    assert v.legal_actions(0) == [Ask(0, 1, "2"), Ask(0, 1, "3")]
    assert v.legal_actions(1) == []
    feed(v, [ask(0, 1, "2", []), draw(0, "2D", True), book(0, "2"), ask(0, 1, "3", []), draw(0, "4D")])
    with pytest.raises(ValueError):
        v.legal_actions(1)                      # seat 1 is on turn, but this view cannot see its hand


# ---------------------------------------------------------------------------- simulated games
def reference_check(rec) -> tuple[list[int], list[int], int]:
    """Replay a complete record with a small independent referee (every hand and the stock
    known) that checks whose move each event is, that every forced draw and book comes exactly
    when due, and that every ask and answer is legal. Returns (phase-1 books, final books,
    number of phase-2 skips of players without books)."""
    o = rec.options
    n, ranks, suits = o["players"], "23456789TJQKA"[:o["ranks"]], "CDHS"[:o["suits"]]
    hands = [set(h) for h in rec.header["hands"]]
    stock = list(rec.header["stock"])
    books: list[list[str]] = [[] for _ in range(n)]
    evs, pos, last = rec.events, [0], [0]

    def nxt():
        assert pos[0] < len(evs), "the record ends before the game does"
        pos[0] += 1
        return evs[pos[0] - 1]

    def lay(s):
        for r in ranks:
            if all(r + x in hands[s] for x in suits):
                assert nxt() == book(s, r)
                hands[s] -= {r + x for x in suits}
                books[s].append(r)
                last[0] = s

    def fish(s, asked):
        card = stock.pop(0)
        assert nxt() == draw(s, card, card[0] == asked)
        hands[s].add(card)
        lay(s)
        return card[0] == asked

    for s in range(n):
        lay(s)
    turn = 0
    while stock or any(hands):
        if not hands[turn]:
            if stock:
                fish(turn, None)                     # empty hand: draw and play on
            else:
                turn = (turn + 1) % n                # skipped
            continue
        if not any(hands[t] for t in range(n) if t != turn):
            fish(turn, None)                         # nobody to ask: draw, the turn passes
            turn = (turn + 1) % n
            continue
        ev = nxt()
        assert ev["type"] == "ask" and ev["asker"] == turn
        t, r, given = ev["target"], ev["rank"], set(ev["given"])
        assert t != turn and hands[t] and any(c[0] == r for c in hands[turn])
        held = {c for c in hands[t] if c[0] == r}
        if o["give"] == "all":
            assert given == held
        else:
            assert given <= held and len(given) == min(1, len(held)) == len(ev["given"])
        hands[t] -= given
        hands[turn] |= given
        if given:
            lay(turn)
        elif not (stock and fish(turn, r)):
            turn = (turn + 1) % n
    phase1 = [len(b) for b in books]
    skips = 0
    if o["phase2"]:
        owner = {r: s for s in range(n) for r in books[s]}
        turn = last[0]
        while max(list(owner.values()).count(s) for s in range(n)) < len(ranks):
            if turn not in owner.values():
                turn, skips = (turn + 1) % n, skips + 1
                continue
            ev = nxt()
            assert ev["type"] == "ask_book" and ev["asker"] == turn
            t, r = ev["target"], ev["rank"]
            assert t != turn and owner[r] != turn and t in owner.values()
            assert ev["success"] == (owner[r] == t)
            if ev["success"]:
                owner[r] = turn
            else:
                turn = (turn + 1) % n
        final = [list(owner.values()).count(s) for s in range(n)]
    else:
        final = phase1
    assert pos[0] == len(evs), f"events after the end: {evs[pos[0]:][:2]}"
    return phase1, final, skips


SIM_OPTIONS = [
    {},
    {"players": 2, "give": "all"},
    {"players": 6, "books_face_up": True},
    {"players": 3, "ranks": 5, "suits": 2, "hand": 3},
    {"players": 4, "ranks": 4, "suits": 2, "hand": 2, "phase2": True},
    {"players": 5, "ranks": 6, "suits": 3, "hand": 3, "phase2": True, "give": "all"},
    {"players": 6, "ranks": 6, "suits": 2, "hand": 2, "phase2": True, "books_face_up": True},
    {"players": 2, "ranks": 3, "suits": 2, "hand": 3},            # every card dealt, dealt books likely
    {"players": 2, "ranks": 5, "suits": 2, "hand": 4, "phase2": True},
    {"players": 3, "ranks": 2, "suits": 2, "hand": 1},
    {"players": 4, "ranks": 4, "suits": 4, "hand": 4, "give": "all", "phase2": True},
    {"players": 6, "ranks": 7, "suits": 2, "hand": 1, "phase2": True},
    {"players": 3, "ranks": 1, "suits": 4, "hand": 1},
    {"players": 4, "ranks": 13, "suits": 4, "hand": 13},             # no stock at all
]


def _random_factory(game, seat, options, hdr):
    return RandomAgent(game, seat, options, hdr)


def simulate(options, seed):
    n = G.parse_options(options)["players"]
    return play_game(G, options, [_random_factory] * n, np.random.default_rng(seed),
                     [np.random.default_rng([seed, s]) for s in range(n)], max_actions=20_000)


@pytest.mark.parametrize("options", SIM_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_simulated_games_end_with_a_valid_result_and_replay_for_every_seat(options):
    stats = {"skips": 0, "opening": 0, "hidden": 0}
    for seed in range(3):
        m = simulate(options, seed)
        assert m.forfeit is None, m.forfeit_reason
        rec = _roundtrip(m.record)
        assert rec.events == m.record.events and rec.header == m.record.header
        phase1, final, skips = reference_check(rec)
        stats["skips"] += skips
        stats["opening"] += bool(rec.events) and rec.events[0]["type"] == "book"
        r = m.result
        o = rec.options
        assert list(r.scores) == final and r.detail["phase1_books"] == phase1
        assert sum(phase1) == o["ranks"]
        top = max(final)
        winners = [s for s in range(o["players"]) if final[s] == top]
        assert r.outcome == tuple((1.0 if len(winners) == 1 else 0.5) if s in winners else 0.0
                                  for s in range(o["players"]))
        if o["phase2"]:
            assert top == o["ranks"] and len(winners) == 1
        assert replay(rec).result() == r
        for seat in range(o["players"]):
            pr = _roundtrip(_player_record(rec, seat))
            v = replay(pr)
            assert v.is_over() and v.result() == r
            stats["hidden"] += sum(1 for e in pr.events if e["type"] == "book" and e["rank"] is None)
            assert all(e["card"] is not None for e in pr.events
                       if e["type"] == "draw" and (e["player"] == seat or e["shown"]))
    if options.get("books_face_up"):
        assert stats["hidden"] == 0
    else:
        assert stats["hidden"] > 0


def test_simulations_reach_the_rare_paths():
    """Across a few seeded games the simulations hit phase-2 skips, dealt books and forced draws
    of both kinds (so the reference check above really covers them)."""
    seen = {"skip": False, "opening": False, "empty": False, "no-target": False}
    for seed in range(12):
        m = simulate({"players": 4, "ranks": 4, "suits": 2, "hand": 2, "phase2": True}, seed)
        seen["skip"] |= reference_check(m.record)[2] > 0
        m = simulate({"players": 2, "ranks": 4, "suits": 2, "hand": 3}, seed)
        seen["opening"] |= m.record.events[0]["type"] == "book"
        st = G.new_state(m.record.options, m.record.header)
        for ev in m.record.events:
            if ev["type"] == "draw":
                seen[st.must_draw["reason"] if st.must_draw else "?"] = True
            st.apply_event(ev)
    assert all(seen.values()), seen


def test_random_agent_registration_and_choice():
    assert resolve_agent("random", G) is RandomAgent
    assert resolve_agent("random", "gofish") is RandomAgent
    lit_random = resolve_agent("random", get_game("literature"))   # Literature keeps its own
    assert lit_random is not RandomAgent and "literature" in lit_random.games
    with pytest.raises(ValueError, match="unknown agent"):
        resolve_agent("gofish-random", G)
    o = opts(**SMALL)
    agent = RandomAgent(G, 0, o, G.observer_header(header(SMALL_HANDS, SMALL_STOCK, **SMALL), 0))
    picks = {agent.act(np.random.default_rng(k)) for k in range(20)}
    assert picks == {Ask(0, 1, "2"), Ask(0, 1, "3")}
    other = RandomAgent(G, 1, o, {"observer": 1, "hand": SMALL_HANDS[1]})
    with pytest.raises(RuntimeError):
        other.act(np.random.default_rng(0))


# ---------------------------------------------------------------------------- examples and docs
def test_example_records():
    from .conftest import ROOT

    full = read_record(ROOT / "examples" / "gofish-4p-complete.jsonl")
    mine = read_record(ROOT / "examples" / "gofish-4p.jsonl")
    assert full.is_complete and full.options == opts()
    assert mine.observer == 1 and "stock" not in mine.header and len(mine.events) == 40
    assert mine.events == _player_record(full, 1).events[:40]
    assert mine.header == _player_record(full, 1).header
    assert replay(full).result().outcome == (0.0, 0.5, 0.5, 0.5)
    v = replay(mine)
    assert not v.is_over() and v.to_move() is not None


def test_docs_example_is_a_legal_game_and_its_player_record():
    from .conftest import ROOT

    text = (ROOT / "docs" / "gofish.md").read_text()
    blocks = [b.split("```", 1)[0] for b in text.split("```json\n")[1:]]
    records = [loads_record(b) for b in blocks if b.startswith('{"format"')]
    assert len(records) == 2
    full, mine = records
    assert replay(full).result().outcome == (1.0, 0.0, 0.0)
    assert replay(full).result().detail["phase1_books"] == [1, 2, 1]
    assert mine.events == _player_record(full, 1).events and mine.header == _player_record(full, 1).header
    assert replay(mine).book_at == {"5": 0, "4": 0, "2": 0}    # seat 0 took them; its own 3s stay hidden
    assert replay(mine).hidden_books == [1, 0, 0]


def test_complete_state_cut_mid_move_advances_forced_events():
    st = feed(small_game(), SMALL_EVENTS[:1])           # refused: seat 0's draw is due
    assert st.expected_draw() == 0 and st.legal_actions(0) == []
    assert rule_of(st.apply_action, Ask(0, 1, "2")) == "rank-booked"   # judged after 2D and the 2 book
    assert st.history == SMALL_EVENTS[:1]                                  # nothing applied
    assert st.apply_action(Ask(0, 1, "3")) == SMALL_EVENTS[1:5]
    st = feed(small_game(), SMALL_EVENTS[:2])           # the 2 book is due
    assert st.to_move() == 0 and st.advance() == [book(0, "2")] and st.advance() == []
