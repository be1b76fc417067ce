"""cardmind-record/1 for Literature (shared/spec/records.md): reading, strictness, writing,
the round trip, and validation by replaying the record under the rules, including the
consistency check of a player's record (``cardmind.belief.check_record``)."""

from __future__ import annotations

import json

import pytest

from cardmind.belief import check_record, tracker_for
from cardmind.errors import RecordError
from cardmind.games.literature.rules import set_of, team_of
from cardmind.records import loads_record, make_record, read_record, record_lines, write_record

from .conftest import shared_path
from .lit_helpers import GAME, OPTION_COMBOS, simulate

HUMAN = ("records", "literature-human")

#: a 6-player deal (numpy seed 5) used by hand-written records
HANDS6 = [["QC", "KC", "6D", "AD", "2H", "4H", "9H", "QH", "KH"],
          ["5C", "3D", "9D", "JH", "AH", "TS", "QS", "8S", "RJ"],
          ["2C", "JC", "4D", "7D", "TD", "KD", "AS", "8D", "BJ"],
          ["6C", "9C", "2D", "7H", "3S", "4S", "9S", "JS", "8C"],
          ["7C", "JD", "QD", "5H", "6H", "TH", "5S", "7S", "KS"],
          ["3C", "4C", "TC", "AC", "5D", "3H", "2S", "6S", "8H"]]


def header6(**extra):
    h = {"format": "cardmind-record/1", "game": "literature", "options": {"players": 6}}
    h.update(extra)
    return h


def write_lines(tmp_path, objs, name="rec.jsonl"):
    p = tmp_path / name
    p.write_text("".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objs))
    return p


def rejected(path, **kw) -> RecordError:
    with pytest.raises(RecordError) as info:
        read_record(path, **kw)
    return info.value


def assert_at(err: RecordError, path, line: int):
    assert err.line == line, str(err)
    assert str(err).startswith(f"{path}:{line}: "), str(err)
    assert err.reason and err.reason in str(err)


# ----------------------------------------------------------------------------- round trip
ROUND_TRIP = [(0, 0, "random"), (1, 1, "random"), (2, 0, "peer"), (3, 1, "peer"), (4, 0, "peer"),
              (5, 0, "peer"), (6, 0, "peer"), (7, 1, "peer")]


@pytest.mark.parametrize("combo,seed,agent", ROUND_TRIP)
def test_round_trip_complete_and_player_records(tmp_path, combo, seed, agent):
    rec = simulate(OPTION_COMBOS[combo], seed, agent)
    p = tmp_path / "game.jsonl"
    write_record(p, rec)
    back = read_record(p)
    assert back.header == rec.header and back.events == rec.events and back.options == rec.options
    assert back.lines == list(range(2, len(rec.events) + 2))
    assert back.is_complete and back.observer is None
    # writing what was read gives the same lines (the canonical form)
    assert record_lines(back) == p.read_text().splitlines()
    for seat in (0, rec.options["players"] - 1):
        mine = rec.for_seat(seat)
        assert not mine.is_complete and mine.observer == seat
        assert mine.header["hand"] == rec.header["hands"][seat]
        assert set(mine.header) == {"format", "game", "options", "observer", "hand"}
        q = tmp_path / f"seat{seat}.jsonl"
        write_record(q, mine)
        again = read_record(q)
        assert again.header == mine.header and again.events == rec.events  # Literature events are public
        check_record(again)  # the true deal fits: no error


def test_writer_emits_canonical_tokens_and_every_option(tmp_path):
    hands = [list(h) for h in HANDS6]
    raw = [dict(header6(hands=[[("10" + c[1]).lower() if c[0] == "T" else c.lower() for c in h]
                                for h in hands]), options={"deck": 54}),
           {"type": "ask", "asker": 0, "target": 5, "card": "10c", "success": True}]
    p = write_lines(tmp_path, raw)
    rec = read_record(p)
    assert rec.header["hands"] == hands and rec.events[0]["card"] == "TC"
    assert rec.header["options"] == GAME.parse_options({})
    out = tmp_path / "out.jsonl"
    write_record(out, rec)
    text = out.read_text()
    assert "10" not in text.replace('"players": 6', "") and '"TC"' in text
    header = json.loads(text.splitlines()[0])
    assert header["options"] == {"players": 6, "deck": "54", "claim_any_time": False, "ask_own_card": False,
                                 "wrong_claim": "opponents", "after_claim": "awarded_team"}
    assert read_record(out).events == rec.events


def test_make_record_and_loads_record_agree(tmp_path):
    rec = simulate(OPTION_COMBOS[0], 0)
    mem = make_record(rec.header, rec.events[:30])
    text = "\n".join(record_lines(mem)) + "\n"
    assert loads_record(text).events == rec.events[:30]
    assert loads_record(text, upto=11).events == rec.events[:10]
    assert loads_record(text + "\n\n").events == rec.events[:30]  # trailing blank lines are fine


# ----------------------------------------------------------------------------- strictness
GOOD_ASK = {"type": "ask", "asker": 0, "target": 1, "card": "JH", "success": False}


@pytest.mark.parametrize("event,words", [
    ({"type": "bid", "asker": 0}, "unknown event type"),
    ({"type": 3, "asker": 0}, "unknown event type"),
    ({"asker": 0, "target": 1, "card": "JH", "success": False}, "unknown event type"),
    ({"type": "ask", "asker": 0, "target": 1, "card": "JH"}, "missing 'success'"),
    ({**GOOD_ASK, "extra": 1}, "unknown key 'extra'"),
    ({**GOOD_ASK, "success": "no"}, "'success'"),
    ({**GOOD_ASK, "success": 0}, "'success'"),
    ({**GOOD_ASK, "asker": "0"}, "'asker'"),
    ({**GOOD_ASK, "asker": True}, "'asker'"),
    ({**GOOD_ASK, "asker": -1}, "'asker'"),
    ({**GOOD_ASK, "asker": 0.0}, "'asker'"),
    ({**GOOD_ASK, "card": 5}, "card"),
    ({**GOOD_ASK, "card": "ZZ"}, "card"),
    ({**GOOD_ASK, "card": "1H"}, "card"),
    ({"type": "pass", "from": 0}, "missing 'to'"),
    ({"type": "claim", "claimer": 0, "set": "low-hearts", "assignment": [], "actual": {}, "correct": True},
     "assignment"),
    ({"type": "claim", "claimer": 0, "set": 7, "assignment": {}, "actual": {}, "correct": True}, "'set'"),
    ({"type": "claim", "claimer": 0, "set": "low-hearts", "assignment": {"2H": 0, "2h": 0},
      "actual": {}, "correct": True}, "twice"),
    ({"type": "claim", "claimer": 0, "set": "low-hearts", "assignment": {"2H": "zero"},
      "actual": {}, "correct": True}, "assignment"),
])
def test_strict_events(tmp_path, event, words):
    p = write_lines(tmp_path, [header6(observer=0, hand=HANDS6[0]), GOOD_ASK, event])
    err = rejected(p, replay_rules=False)
    assert_at(err, p, 3)
    assert words in err.reason


@pytest.mark.parametrize("mutate,words", [
    (lambda h: h.update(extra=1), "unknown key 'extra'"),
    (lambda h: h.pop("options"), "missing 'options'"),
    (lambda h: h.update(format="cardmind-record/2"), "format"),
    (lambda h: h.pop("format"), "format"),
    (lambda h: h.update(game="bridge"), "unknown game"),
    (lambda h: h.update(options={"players": 7}), "players"),
    (lambda h: h.update(options={"speed": 1}), "unknown literature option"),
    (lambda h: h.update(options=[]), "'options'"),
    (lambda h: h.update(observer="0"), "'observer'"),
    (lambda h: h.update(observer=6), "not a seat"),
    (lambda h: h.pop("hand"), "'observer' and 'hand'"),
    (lambda h: h.update(hand="QC KC"), "'hand'"),
    (lambda h: h.update(hand=["QC", "XX"]), "card"),
    (lambda h: h.update(names=["a", "b"]), "names"),
    (lambda h: (h.pop("hand"), h.pop("observer")), "'hands'"),
])
def test_strict_header(tmp_path, mutate, words):
    h = header6(observer=0, hand=list(HANDS6[0]))
    mutate(h)
    p = write_lines(tmp_path, [h, GOOD_ASK])
    err = rejected(p)
    assert_at(err, p, 1)
    assert words in err.reason


def test_malformed_files(tmp_path):
    h = header6(observer=0, hand=HANDS6[0])
    p = write_lines(tmp_path, [h, GOOD_ASK, '{"type": "ask", "asker": 1,'])
    err = rejected(p)
    assert_at(err, p, 3)
    assert "JSON" in err.reason
    p = write_lines(tmp_path, [h, "", GOOD_ASK])
    assert_at(rejected(p), p, 2)
    p = write_lines(tmp_path, ["[1, 2]"])
    assert_at(rejected(p), p, 1)
    p = write_lines(tmp_path, [h, "[]"])
    assert_at(rejected(p), p, 2)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert rejected(empty).line == 1
    missing = tmp_path / "nope.jsonl"
    err = rejected(missing)
    assert str(err).startswith(f"{missing}:") and err.line is None
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert str(rejected(binary)).startswith(f"{binary}")


# ----------------------------------------------------------------------------- validation by the rules
def complete_game(combo=0, seed=0, agent="random"):
    return simulate(OPTION_COMBOS[combo], seed, agent)


def states(rec):
    """``(index, state before the event)`` along a complete record."""
    st = GAME.new_state(rec.options, rec.header)
    for i, ev in enumerate(rec.events):
        yield i, st.copy()
        st.apply_event(ev)


def write_with(tmp_path, rec, i, event, name="bad.jsonl"):
    """The record with event ``i`` replaced by ``event`` (later events kept)."""
    evs = list(rec.events)
    evs[i] = event
    return write_lines(tmp_path, [rec.header] + evs, name)


def first_card_not_held_in_a_held_set(st, seat):
    hand = st.hands[seat]
    for c in sorted(st.holder):
        if c not in hand and any(set_of(x, st.deck) == set_of(c, st.deck) for x in hand):
            return c
    return None


def test_illegal_asks_are_rejected_at_their_line(tmp_path):
    rec = complete_game(0, 0)
    i, st = next((i, st) for i, st in states(rec) if i >= 5 and st.sizes[st.turn] > 0)
    line = i + 2
    t = st.turn
    opp = next(s for s in range(6) if team_of(s) != team_of(t) and st.sizes[s] > 0)
    mate = next(s for s in range(6) if s != t and team_of(s) == team_of(t) and st.sizes[s] > 0)
    card = first_card_not_held_in_a_held_set(st, t)
    held = sorted(st.hands[t])[0]
    no_set = next(c for c in sorted(st.holder) if not any(set_of(x) == set_of(c) for x in st.hands[t]))
    cases = {
        "turn": {"type": "ask", "asker": opp, "target": t, "card": held, "success": True},
        "ask-teammate": {"type": "ask", "asker": t, "target": mate, "card": card, "success": False},
        "ask-self": {"type": "ask", "asker": t, "target": t, "card": card, "success": False},
        "ask-own-card": {"type": "ask", "asker": t, "target": opp, "card": held, "success": False},
        "ask-without-set": {"type": "ask", "asker": t, "target": opp, "card": no_set, "success": False},
        "ask-result": {"type": "ask", "asker": t, "target": opp, "card": card,
                       "success": card not in st.hands[opp]},
        "seat": {"type": "ask", "asker": t, "target": 6, "card": card, "success": False},
        "unknown-card": None,
    }
    for rule, ev in cases.items():
        if ev is None:
            continue
        p = write_with(tmp_path, rec, i, ev, f"{rule}.jsonl")
        err = rejected(p)
        assert_at(err, p, line)
        assert err.rule == rule and f"(rule: {rule})" in err.reason
        # what comes before the mistake is still a good record
        assert len(read_record(p, upto=line - 1).events) == i


def test_unknown_card_in_the_48_card_deck(tmp_path):
    rec = complete_game(6, 0)  # 8 players, 48 cards
    i, st = next((i, st) for i, st in states(rec) if rec.events[i]["type"] == "ask")
    ev = dict(rec.events[i], card="8H")
    p = write_with(tmp_path, rec, i, ev)
    err = rejected(p)
    assert_at(err, p, i + 2)
    assert err.rule == "unknown-card"


def test_ask_of_a_player_without_cards(tmp_path):
    for combo, seed, agent in ((0, 0, "random"), (1, 1, "random"), (2, 0, "peer"), (5, 1, "peer"), (6, 1, "peer")):
        rec = complete_game(combo, seed, agent)
        n = rec.options["players"]
        found = [(i, st) for i, st in states(rec)
                 if st.turn is not None and st.pending is None and st.sizes[st.turn] > 0
                 and any(st.sizes[s] == 0 for s in range(n) if team_of(s) != team_of(st.turn))
                 and first_card_not_held_in_a_held_set(st, st.turn)]
        if found:
            break
    assert found, "no simulated game reaches a seat without cards"
    i, st = found[0]
    empty = next(s for s in range(n) if st.sizes[s] == 0 and team_of(s) != team_of(st.turn))
    ev = {"type": "ask", "asker": st.turn, "target": empty,
          "card": first_card_not_held_in_a_held_set(st, st.turn), "success": False}
    p = write_with(tmp_path, rec, i, ev)
    err = rejected(p)
    assert_at(err, p, i + 2)
    assert err.rule == "ask-empty"


def test_claim_contradicting_earlier_events(tmp_path):
    """A claim whose ``actual`` puts a card where the earlier events show it is not: rejected
    in the complete record and in every player's record (card movements are public)."""
    rec = complete_game(0, 0)
    moved = set()
    for i, ev in enumerate(rec.events):
        if ev["type"] == "ask" and ev["success"]:
            moved.add(ev["card"])
        if ev["type"] == "claim" and moved & set(ev["actual"]):
            break
    c = sorted(moved & set(ev["actual"]))[0]
    wrong_seat = next(s for s in range(6) if s != ev["actual"][c] and team_of(s) == team_of(ev["actual"][c]))
    actual = dict(ev["actual"], **{c: wrong_seat})
    bad = dict(ev, actual=actual, correct=actual == ev["assignment"])
    p = write_with(tmp_path, rec, i, bad)
    err = rejected(p)
    assert_at(err, p, i + 2)
    assert err.rule == "claim-actual"
    for seat in range(6):
        mine = rec.for_seat(seat)
        q = write_lines(tmp_path, [mine.header] + mine.events[:i] + [bad], f"p{seat}.jsonl")
        err = rejected(q)
        assert_at(err, q, i + 2)
        assert err.rule == "claim-actual"


def test_claim_marked_correct_wrongly(tmp_path):
    rec = complete_game(0, 0)
    i = next(i for i, ev in enumerate(rec.events) if ev["type"] == "claim")
    p = write_with(tmp_path, rec, i, dict(rec.events[i], correct=not rec.events[i]["correct"]))
    err = rejected(p)
    assert_at(err, p, i + 2)
    assert err.rule == "claim-correct"


@pytest.mark.parametrize("what", ["size", "twice", "missing", "not-in-deck", "observer-hand"])
def test_dealt_hands_that_do_not_match_the_deal(tmp_path, what):
    hands = [list(h) for h in HANDS6]
    extra = {}
    if what == "size":
        hands[1].append(hands[0].pop())
    elif what == "twice":
        hands[1][0] = hands[0][0]
    elif what == "missing":
        hands = hands[:5]
    elif what == "not-in-deck":
        hands = simulate(OPTION_COMBOS[4], 0, "peer").header["hands"]  # a 48-card deal ...
        hands = [list(h) for h in hands]
        hands[0][0] = "8C"
        extra = {"options": {"players": 6, "deck": "48"}}
    else:
        extra = {"observer": 2, "hand": hands[3]}
    p = write_lines(tmp_path, [{**header6(hands=hands), **extra}, GOOD_ASK])
    err = rejected(p)
    assert_at(err, p, 1)
    assert err.rule == "deal"


def test_player_record_hand_of_the_wrong_size(tmp_path):
    p = write_lines(tmp_path, [header6(observer=1, hand=HANDS6[1][:8])])
    err = rejected(p)
    assert_at(err, p, 1)
    assert "9" in err.reason


def test_player_record_contradicting_the_observers_hand(tmp_path):
    """Seat 1 hands over QC, which the observer (seat 0) holds: caught by the replay."""
    p = write_lines(tmp_path, [header6(observer=0, hand=HANDS6[0]),
                               {"type": "ask", "asker": 0, "target": 1, "card": "JH", "success": False},
                               {"type": "ask", "asker": 1, "target": 0, "card": "QC", "success": False}])
    err = rejected(p)
    assert_at(err, p, 3)
    assert err.rule == "ask-result"
    p = write_lines(tmp_path, [header6(observer=0, hand=HANDS6[0]),
                               {"type": "ask", "asker": 0, "target": 1, "card": "JH", "success": False},
                               {"type": "ask", "asker": 1, "target": 0, "card": "3D", "success": True}])
    err = rejected(p)
    assert_at(err, p, 3)
    assert err.rule == "ask-result"


# ----------------------------------------------------------------------------- player's records: consistency
def forced_position(rec, seat, mode):
    """A position where some card's holder is forced without any event locating it, and a
    refusal of that card by its holder would look legal to the seat's view: ``mode``
    ``"eliminated"``: every other seat is ruled out for the card; ``"counted"``: several seats
    are allowed and no clause names it, so only the count shows it (hand sizes)."""
    view_states = dict(states(rec))
    mine = rec.for_seat(seat)
    for k in range(len(rec.events) // 3, len(rec.events)):
        st = view_states[k]
        if st.turn is None or st.pending is not None or st.sizes[st.turn] == 0:
            continue
        b = tracker_for(mine, upto_event=k)
        cons = b.constraints()
        in_clause = {c for _, u, _, _ in cons.clauses for c in u}
        for c, s in sorted(b.forced_cards().items()):
            if mode == "eliminated" and cons.allowed[c] != {s}:
                continue
            if mode == "counted" and (len(cons.allowed[c]) < 2 or c in in_clause):
                continue
            if team_of(s) != team_of(st.turn) and c not in st.hands[st.turn] and \
                    any(set_of(x, st.deck) == set_of(c, st.deck) for x in st.hands[st.turn]):
                return k, c, s, st
    return None


@pytest.mark.parametrize("mode,seed,first_seat", [("eliminated", 1, 0), ("counted", 1, 0), ("counted", 0, 1)])
def test_player_record_with_no_consistent_deal_names_the_event(tmp_path, mode, seed, first_seat):
    """The view cannot see that the holder refused a card that only it can hold; the belief
    check finds that no deal fits after that event, names its line and explains why."""
    rec = complete_game(0, seed)
    for seat in range(first_seat, 6):
        found = forced_position(rec, seat, mode)
        if found:
            break
    assert found, "no forced card in the test game"
    k, c, s, st = found
    mine = rec.for_seat(seat)
    bad = {"type": "ask", "asker": st.turn, "target": s, "card": c, "success": False}
    p = write_lines(tmp_path, [mine.header] + mine.events[:k] + [bad])
    rec2 = read_record(p)  # the rules replay alone cannot see it
    with pytest.raises(RecordError) as info:
        check_record(rec2)
    err = info.value
    assert_at(err, p, k + 2)
    assert err.rule == "contradiction"
    assert c in err.reason and "no deal is consistent" in err.reason
    # the part before it is fine
    check_record(read_record(p, upto=k + 1))
    # a complete record with the same event is rejected by the rules replay directly
    q = write_lines(tmp_path, [rec.header] + rec.events[:k] + [bad], "complete.jsonl")
    err = rejected(q)
    assert_at(err, q, k + 2)
    assert err.rule == "ask-result"


def test_check_record_names_the_event_that_made_it_impossible(tmp_path):
    """Seat 1 refuses JH (line 2); later seat 1 hands JH over (line 4) though JH never moved in
    between. Lines 1-3 are consistent; line 4 is the event after which no deal fits."""
    p = write_lines(tmp_path, [header6(observer=0, hand=HANDS6[0]),
                               {"type": "ask", "asker": 0, "target": 1, "card": "JH", "success": False},
                               {"type": "ask", "asker": 1, "target": 0, "card": "3D", "success": False},
                               {"type": "ask", "asker": 0, "target": 1, "card": "JH", "success": True}])
    rec = read_record(p)
    check_record(read_record(p, upto=3))  # consistent up to line 3
    with pytest.raises(RecordError) as info:
        check_record(rec)
    assert info.value.line == 4, str(info.value)


def test_check_record_names_the_claim_that_refutes_an_earlier_ask(tmp_path):
    """Seat 1 asks for 3H (line 3), so it holds another low heart; the claim on line 4 shows
    every low heart at seats 0, 2 and 4, none of them ever moved. Lines 1-3 are consistent:
    the claim (line 4) is the event after which no deal fits."""
    shown = {"2H": 0, "3H": 2, "4H": 0, "5H": 4, "6H": 2, "7H": 4}
    p = write_lines(tmp_path, [header6(observer=0, hand=HANDS6[0]),
                               {"type": "ask", "asker": 0, "target": 1, "card": "JH", "success": False},
                               {"type": "ask", "asker": 1, "target": 0, "card": "3H", "success": False},
                               {"type": "claim", "claimer": 0, "set": "low-hearts", "assignment": shown,
                                "actual": shown, "correct": True, "next": 0}])
    rec = read_record(p)  # legal as far as the observer's view can tell
    check_record(read_record(p, upto=3))
    with pytest.raises(RecordError) as info:
        check_record(rec)
    assert info.value.rule == "contradiction"
    assert info.value.line == 4, str(info.value)


# ----------------------------------------------------------------------------- the human games
def test_human_games_are_accepted_under_their_house_rules():
    for name, players, deck in (("human-12-10_1107.jsonl", 6, "54"), ("human-12-6_1108.jsonl", 8, "48")):
        rec = read_record(shared_path(*HUMAN, name))
        assert rec.options["claim_any_time"] and rec.options["ask_own_card"]
        assert rec.options["players"] == players and rec.options["deck"] == deck
        assert rec.is_complete and len(rec.events) > 100
        for seat in range(players):
            mine = rec.for_seat(seat)
            check_record(mine)
            b = tracker_for(rec, seat)
            assert b.consistent_deals >= 1


def test_human_game_with_a_mistake_is_rejected_at_line_13():
    path = shared_path(*HUMAN, "human-12-3_1427.jsonl")
    err = rejected(path)
    assert_at(err, path, 13)
    assert err.rule == "turn" and "seat 7" in err.reason
    rec = read_record(path, upto=12)
    assert len(rec.events) == 11
    for seat in range(8):
        assert tracker_for(rec, seat).consistent_deals >= 1
