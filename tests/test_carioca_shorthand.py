"""Contract rummy's short notation (``cardmind advise carioca``): every example record typed
back line by line from every seat rebuilds its events; refusals say one sentence and change
nothing; the forms table of ``docs/carioca.md`` is the notation's; the end of a hand with only
what a player knows (the record format's ``null`` hands), next to the old complete form."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from cardmind.advise.live import LiveGame
from cardmind.belief import tracker_for
from cardmind.cli import main
from cardmind.core import get_game
from cardmind.errors import IllegalAction, RecordError
from cardmind.hints import hint_for
from cardmind.records import Record, read_record, replay, write_record
from cardmind.shorthand import ShorthandError

from .doc_tables import notation_table

GAME = get_game("carioca")
SH = GAME.shorthand()
ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
COMPLETE = ["carioca-3p-complete.jsonl", "carioca-4p-complete.jsonl", "carioca-short-complete.jsonl"]


@pytest.fixture
def no_fsync(monkeypatch):
    """The record file is still written line by line; only the sync to disk is skipped (it is
    what makes typing a thousand-event game take seconds, and it is not what is tested here)."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


def _type_back(view: Record, path: Path) -> LiveGame:
    """Type ``view`` (a player's record) back through :class:`LiveGame`, checking each line
    gives the events :meth:`Shorthand.lines` says; return the live game."""
    lines = SH.lines(view.events, GAME.new_state(view.options, view.header))
    live = LiveGame.new(GAME, view.options, view.observer, SH.start_text(view.header), path)
    assert live.header == view.header
    for line, k in lines:
        assert line, "no implied events come before the first line of a contract rummy record"
        assert len(live.enter(line)) == k, line
    return live


@pytest.mark.parametrize("name", COMPLETE)
def test_every_seat_types_the_whole_game_back(name, tmp_path, no_fsync):
    """Measured: about 1.5 s for the 1003-event game from its four seats (fsync skipped)."""
    rec = read_record(EX / name)
    for seat in range(GAME.num_seats(rec.options)):
        view = rec.for_seat(seat)
        live = _type_back(view, tmp_path / f"{seat}.jsonl")
        assert live.events == view.events
        assert live.state.is_over()
        assert read_record(tmp_path / f"{seat}.jsonl").events == view.events


def test_the_players_record_types_back(tmp_path, no_fsync):
    view = read_record(EX / "carioca-4p.jsonl")
    live = _type_back(view, tmp_path / "p.jsonl")
    assert live.events == view.events and not live.state.is_over()


def test_the_short_live_game_has_the_main_forms():
    """The game for typing live (``examples/carioca-3p-complete.jsonl``, seat 2): whole,
    under 150 lines, and every main form of the notation is in it (a restock filled in)."""
    rec = read_record(EX / "carioca-3p-complete.jsonl")
    assert replay(rec).is_over() and rec.options["hands"] == 2
    view = rec.for_seat(2)
    lines = SH.lines(view.events, GAME.new_state(view.options, view.header))
    typed = [line for line, _ in lines]
    assert len(typed) == 114
    for pattern in [r"^\d takes$", r"^nobody takes$", r"^[01] steals$", r"^2 steals penalty \w\w$",
                    r"^2 draws \w\w$", r"^\d down .* / ", r"^\d lays off \w\w$", r"^\d discards \w\w$",
                    r"^end 0 ", r"^deal (\w\w ){7}up \w\w$"]:
        assert any(re.match(pattern, t) for t in typed), pattern
    assert any(e["type"] == "restock" for e in view.events)


def test_the_rules_fill_in_draws_and_restocks():
    rec = read_record(EX / "carioca-3p-complete.jsonl")
    view = rec.for_seat(2)
    st = GAME.new_state(view.options, view.header)
    for ev in view.events:
        imp = SH.implied(st)
        if ev["type"] == "restock":
            assert imp == [ev] and ev["cards"] is None and ev["count"] == len(st.pile) - 1
        elif ev["type"] == "draw" and ev["player"] != 2:
            assert imp == [ev]
        else:
            assert imp == [], ev
        st.apply_event(ev)


def test_start_reads_the_card_turned_up():
    opts = GAME.parse_options({"players": 3})
    deal = SH.start(opts, 1, "td qd th qs ks rj UP qh")
    assert deal == {"observer": 1, "hand": ["TD", "QD", "TH", "QS", "KS", "RJ"], "up": "QH"}
    assert SH.start_text({"hand": deal["hand"], "up": "QH"}) == "TD QD TH QS KS RJ up QH"
    for bad in ["TD QD TH QS KS RJ", "TD QD up", "TD QD TH QS KS RJ up QH 5C", "TD QX TH QS KS RJ up QH"]:
        with pytest.raises(ShorthandError) as exc:
            SH.start(opts, 1, bad)
        assert "\n" not in exc.value.message


# ---------------------------------------------------------------------------- refusals
def _live_at(tmp_path, name: str, seat: int, upto: int) -> LiveGame:
    """A live game of ``name`` from ``seat`` after its first ``upto`` typed lines."""
    view = read_record(EX / name).for_seat(seat)
    lines = SH.lines(view.events, GAME.new_state(view.options, view.header))
    live = LiveGame.new(GAME, view.options, seat, SH.start_text(view.header), tmp_path / "r.jsonl")
    for line, _ in lines[:upto]:
        live.enter(line)
    return live


# (line index of the 3p game from seat 2, typed line, words the refusal says)
REFUSALS = [
    (0, "2 takes", "seat 2 is not on turn"),
    (0, "0 steals", "seat 0 is on turn"),
    (0, "2 steals", "penalty card"),
    (0, "1 draws", "filled in by the rules"),
    (0, "2 draws 5C", "no draw of yours is due"),
    (0, "2 discards 5H", "on offer"),
    (0, "0 takes 8H", "the card on offer is 7H"),
    (0, "nobody", "nobody takes"),
    (0, "hello", "does not start a line"),
    (0, "7 takes", "seat number 0-2"),
    (0, "end 0 3C", "hand 1 is not over"),
    (2, "0 steals", "seat 0 discarded the JC"),
    (2, "2 steals penalty 9S 8S", "1 penalty card(s)"),
    (2, "1 steals penalty 9S", "seat 1 is on turn"),
    (11, "2 draws", "the card you drew"),
    (11, "2 draws XX", "'XX' in the card drawn is not a card"),
    (11, "2 discards 5H", "a draw is due"),
    (14, "0 down 7D 7H 7S 8C 8D BJ", "contract is 2 sets"),
    (14, "0 down 7D 7H 7S /", "melds separated by /"),
    (14, "0 down 7D 7D 7D / 8C 8D BJ", "cannot hold 7D 3 times"),
    (14, "2 discards 5H", "seat 0 is on turn"),
    (22, "0 lays off 8H start", "8H fits no meld"),
    (22, "0 lays off 9H", "9H fits no meld on the table"),
    (22, "0 lays off 8H on 7D", "fits no meld there"),
    (22, "0 lays off 8H on 3", "there is no meld 3"),
    (27, "end", "say seat 0's cards"),
    (27, "end 0 300", "its score is 2 to 50 points"),
    (27, "end 0 3C 4C", "seat 0 holds 1 card, but 2"),
    (27, "end 0 3C / 0 3", "named twice"),
    (27, "end 0 3C / 1 5", "went out and scores -20"),
    (27, "end 0 3C / 2 9", "score 111 points, not 9"),
    (27, "deal 3C 6C 6D 9D JD 5S KS up QS", "no new hand is to be dealt"),
    (28, "end 0 3C", "entered already"),
    (28, "deal 3C 6C up QS", "deals 7 cards, but 2"),
    (28, "deal 3C 6C 6D 9D JD 5S KS", "'up' and the card turned up"),
]


def test_refusals_say_one_sentence_and_change_nothing(tmp_path):
    by_pos: dict[int, list] = {}
    for pos, line, words in REFUSALS:
        by_pos.setdefault(pos, []).append((line, words))
    view = read_record(EX / "carioca-3p-complete.jsonl").for_seat(2)
    lines = SH.lines(view.events, GAME.new_state(view.options, view.header))
    path = tmp_path / "r.jsonl"
    live = LiveGame.new(GAME, view.options, 2, SH.start_text(view.header), path)
    for i, (good, _) in enumerate(lines[:max(by_pos) + 1]):
        for line, words in by_pos.get(i, []):
            before, text = list(live.events), path.read_text()
            with pytest.raises(ShorthandError) as exc:
                live.enter(line)
            msg = exc.value.message
            assert words in msg, (line, msg)
            assert "\n" not in msg and "Traceback" not in msg
            assert live.events == before and path.read_text() == text
        live.enter(good)


def test_the_issues_forms_work_as_written(tmp_path):
    """``2 discards 7H``, ``nobody takes``, ``3 steals`` (the seats before it passed) and
    ``1 down 7H 7S 7C / KD KS KC`` (two sets, told apart by the cards), each where the rules
    allow it."""
    rec = read_record(EX / "carioca-4p-complete.jsonl").for_seat(0)
    st = GAME.new_state(rec.options, rec.header)
    st.apply_event(rec.events[0])       # seat 0 passes on the card turned up: seat 1 decides
    steal = SH.parse("3 steals", st)
    assert steal == [{"type": "pass", "player": 1}, {"type": "pass", "player": 2},
                     {"type": "steal", "player": 3, "card": st.offer["card"], "penalty": None}]
    assert SH.parse("nobody takes", st) == [{"type": "pass", "player": s} for s in (1, 2, 3)]
    for ev in SH.parse("nobody takes", st):
        st.apply_event(ev)
    assert SH.implied(st) == [] and st.must() == "draw" and st.turn == 0   # the player's own draw: typed
    free = +(st.deck - st.located())
    card = sorted(free)[0]
    st.apply_event(SH.parse(f"0 draws {card}", st)[0])
    assert st.phase == "play" and st.hands[0][card] >= 1
    st.apply_event({"type": "discard", "player": 0, "card": st.hands[0].most_common(1)[0][0]})
    st2 = _after(st, SH.parse("nobody takes", st))
    for ev in SH.implied(st2):
        st2.apply_event(ev)
    assert st2.turn == 1 and st2.phase == "play"
    down = SH.parse("1 down 7H 7S 7C / KD KS KC", st2)
    assert down == [{"type": "go_down", "player": 1, "melds": [{"kind": "set", "cards": ["7H", "7S", "7C"]},
                                                               {"kind": "set", "cards": ["KD", "KS", "KC"]}]}]
    st2.apply_event(down[0])
    assert st2.down[1] and st2.sizes[1] == 1
    # seat 2 discards 7H on its turn (seat 0's view of the 4-player game, hand 1)
    st3 = GAME.new_state(rec.options, rec.header)
    for ev in rec.events:
        if st3.phase == "play" and st3.turn == 2:
            break
        st3.apply_event(ev)
    assert SH.parse("2 discards 7H", st3) == [{"type": "discard", "player": 2, "card": "7H"}]
    st3.apply_event(SH.parse("2 discards 7H", st3)[0])
    assert st3.pile[-1] == "7H" and st3.offer["order"] == [3, 0, 1]


def _after(st, events):
    c = st.copy()
    for ev in events:
        c.apply_event(ev)
    return c


def test_lay_off_names_the_meld_only_when_needed():
    rec = read_record(EX / "carioca-4p-complete.jsonl").for_seat(0)
    st = GAME.new_state(rec.options, rec.header)
    for ev in rec.events:
        if ev["type"] == "lay_off" and ev["card"] == "BJ":
            break
        st.apply_event(ev)
    with pytest.raises(ShorthandError) as exc:
        SH.parse(f"{ev['player']} lays off BJ", st)
    assert "say which" in exc.value.message
    line, k = SH.line_for([ev], st)
    assert k == 1 and " on " in line and SH.parse(line, st) == [ev]


def test_cases_and_spellings():
    rec = read_record(EX / "carioca-4p-complete.jsonl").for_seat(0)
    st = GAME.new_state(rec.options, rec.header)
    assert SH.parse("NOBODY TAKES", st) == SH.parse("nobody takes", st)
    st.apply_event(rec.events[0])
    assert SH.parse("3 Steals 6h", st) == SH.parse("3 steals", st)
    with pytest.raises(ShorthandError, match="the card on offer is 6H, not TS"):
        SH.parse("3 steals 10s", st)
    assert SH.parse("2 passes", st) == [{"type": "pass", "player": 1}, {"type": "pass", "player": 2}]


# ---------------------------------------------------------------------------- the docs table
def _doc_forms() -> list[tuple[str, str, str]]:
    return notation_table("carioca.md")


def test_the_doc_table_is_the_notation():
    assert _doc_forms() == [(f.form, f.meaning, f.example) for f in SH.forms]


def test_every_example_parses_somewhere():
    """Each example of the table is accepted (notation and rules) at some position of the
    example games, from some seat."""
    todo = {f.example for f in SH.forms}
    for name in ["carioca-3p-complete.jsonl", "carioca-4p-complete.jsonl"]:
        rec = read_record(EX / name)
        for seat in range(GAME.num_seats(rec.options)):
            view = rec.for_seat(seat)
            st = GAME.new_state(view.options, view.header)
            i = 0
            for _, k in SH.lines(view.events, st.copy()):
                for ex in list(todo):
                    try:
                        _after(st, SH.parse(ex, st))
                    except (ShorthandError, IllegalAction):
                        continue
                    todo.discard(ex)
                if not todo:
                    return
                for ev in view.events[i:i + k]:
                    st.apply_event(ev)
                i += k
    assert not todo


# ---------------------------------------------------------------------------- the end of a hand
def _partial(view: Record, hidden: int) -> Record:
    """``view`` with seat ``hidden``'s cards left out of every hand's end (only its score)."""
    events = [dict(e, hands=[None if s == hidden else h for s, h in enumerate(e["hands"])])
              if e["type"] == "hand_end" else e for e in view.events]
    return Record(view.game, view.options, view.header, events, view.path, list(view.lines))


def test_a_player_ends_a_hand_with_what_it_knows(tmp_path):
    view = read_record(EX / "carioca-3p-complete.jsonl").for_seat(2)
    full = replay(view)
    p = tmp_path / "partial.jsonl"
    write_record(p, _partial(view, 0))
    rec = read_record(p)
    ends = [e for e in rec.events if e["type"] == "hand_end"]
    assert [e["hands"][0] for e in ends] == [None, None]
    st = replay(rec)
    assert st.is_over() and st.totals == full.totals == [7, -20, 140]
    assert main(["validate", str(p)]) == 0
    # the belief and the advice read it: the next hand is tracked as before
    i = next(i for i, e in enumerate(rec.events) if e["type"] == "deal")
    t = tracker_for(rec.truncated(rec.line_of(i + 3)), 2)
    t0 = tracker_for(view.truncated(view.line_of(i + 3)), 2)
    assert t.consistent_deals == t0.consistent_deals > 0
    assert hint_for(t).to_json()["hand"] == 2
    # typed: the score instead of the cards
    lines = [line for line, _ in SH.lines(rec.events, GAME.new_state(rec.options, rec.header))]
    assert "end 0 3" in lines and "end 0 4" in lines


@pytest.mark.parametrize("what", ["score-too-high", "wrong-total", "own-hand-null", "complete-null",
                                  "out-seat-null"])
def test_hand_end_checks(what, tmp_path):
    rec = read_record(EX / "carioca-3p-complete.jsonl")
    view = rec.for_seat(2)
    i = next(i for i, e in enumerate(view.events) if e["type"] == "hand_end")
    ev = dict(view.events[i])
    if what == "complete-null":
        source, ev = rec, dict(rec.events[i], hands=[None] + rec.events[i]["hands"][1:])
    else:
        source = view
        if what == "score-too-high":
            ev.update(hands=[None] + ev["hands"][1:], scores=[51] + ev["scores"][1:], totals=[51] + ev["totals"][1:])
        elif what == "wrong-total":
            ev.update(hands=[None] + ev["hands"][1:], totals=[4] + ev["totals"][1:])
        elif what == "own-hand-null":
            ev.update(hands=ev["hands"][:2] + [None])
        else:
            ev.update(hands=[ev["hands"][0], None, ev["hands"][2]])
    lines = [json.dumps(source.header)] + [json.dumps(e) for e in source.events[:i]] + [json.dumps(ev)]
    p = tmp_path / "bad.jsonl"
    p.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError) as exc:
        read_record(p)
    assert f":{i + 2}:" in str(exc.value)
    rule = {"score-too-high": "scores", "wrong-total": "scores"}.get(what, "hand-end")
    assert f"rule: {rule}" in str(exc.value)


def test_old_complete_hand_ends_still_read(tmp_path):
    """A player's record whose hand ends show every hand (the old form) reads and types back
    unchanged, with every shown hand and score checked."""
    view = read_record(EX / "carioca-4p-complete.jsonl").for_seat(3)
    ends = [e for e in view.events if e["type"] == "hand_end"]
    assert all(h is not None for e in ends for h in e["hands"])
    i = next(i for i, e in enumerate(view.events) if e["type"] == "hand_end")
    st = replay(Record(view.game, view.options, view.header, view.events[:i], view.path, []))
    bad = dict(view.events[i], scores=[x + 1 for x in view.events[i]["scores"]])
    with pytest.raises(IllegalAction) as exc:
        st.apply_event(bad)
    assert exc.value.rule == "scores"
    line, _ = SH.line_for([view.events[i]], st)
    assert SH.parse(line, st) == [view.events[i]]


def test_a_hand_that_ends_with_nobody_out(tmp_path, no_fsync):
    """The stock runs out with no restock left (``restocks: 0``): the hand ends with nobody
    out; typed from every seat as ``end`` with the others' cards, the advice says so."""
    import numpy as np

    from cardmind.agents.base import resolve_agent
    from cardmind.agents.match import play_game

    rand = resolve_agent("random", GAME)
    res = play_game(GAME, {"players": 3, "hands": 1, "restocks": 0}, [rand] * 3, np.random.default_rng(0),
                    [np.random.default_rng([0, s]) for s in range(3)], max_actions=3000)
    assert res.result.detail["outs"] == [None]
    for seat in (0, 2):     # (seat 1's exact belief of this odd game takes seconds: not typed here)
        view = res.record.for_seat(seat)
        live = _type_back(view, tmp_path / f"{seat}.jsonl")
        assert live.events == view.events and live.state.is_over()
    view = res.record.for_seat(0)
    st = replay(Record(view.game, view.options, view.header, view.events[:-1], view.path, []))
    assert st.must() == "hand_end" and SH.prompt(st).startswith("hand 1 is over")
    line, _ = SH.line_for(view.events[-1:], st)
    assert re.fullmatch(r"end 1 [\w ]+ / 2 [\w ]+", line) and SH.parse(line, st) == view.events[-1:]
    t = tracker_for(Record(view.game, view.options, view.header, view.events[:-1], view.path, []), 0)
    assert hint_for(t).headline().startswith("Hand 1 is over (nobody went out)")


def test_a_last_card_lay_off_is_refused_before_asking_which_meld():
    """The tester typed ``0 lays off RJ`` with the joker as the last card: the rule (the last
    card is discarded, never laid off) comes before the question of which meld."""
    from collections import Counter

    rec = read_record(EX / "carioca-4p-complete.jsonl")
    st = GAME.new_state(rec.options, rec.header)
    for ev in rec.events[:868]:
        st.apply_event(ev)
    assert st.turn == 3 and st.sizes[3] == 1
    st.hands[3] = Counter(["RJ"])
    assert len({i for i, _ in st.layoff_options(3, "RJ")}) > 1     # it fits several melds
    with pytest.raises(ShorthandError) as exc:
        SH.parse("3 lays off RJ", st)
    assert "last card" in exc.value.message and "which" not in exc.value.message
    assert "'3 discards RJ' goes out" in exc.value.message
