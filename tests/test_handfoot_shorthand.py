"""Hand and Foot typed live (``cardmind advise``): the short notation (forms, what the rules
fill in, refusals), whole example games typed from every seat, and the end of a hand with only
what a player knows (``held`` with unknown seats, typed ``scores``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from cardmind.advise.live import LiveGame
from cardmind.agents import resolve_agent
from cardmind.agents.match import play_game
from cardmind.errors import IllegalAction, RecordError
from cardmind.games.handfoot import Answer, AskOut, Discard, Draw, Meld, TakePile
from cardmind.records import Record, read_record, replay
from cardmind.shorthand import ShorthandError
from tests.hf_helpers import GAME, header_with

from .doc_tables import notation_table

ROOT = Path(__file__).resolve().parent.parent
SHORT = ROOT / "examples" / "handfoot-4p-short-complete.jsonl"
LONG = ROOT / "examples" / "handfoot-4p-complete.jsonl"
PLAYER = ROOT / "examples" / "handfoot-4p.jsonl"
SH = GAME.shorthand()


def typed_lines(view: Record) -> list[str]:
    """The lines a player types for ``view`` (the implied events need no line)."""
    return [ln for ln, _ in SH.lines(view.events, GAME.new_state(view.options, view.header)) if ln]


def live_game(view: Record, path: Path) -> LiveGame:
    return LiveGame.new(GAME, view.options, view.observer, SH.start_text(view.header), path)


def type_all(view: Record, path: Path, lines: list[str] | None = None) -> LiveGame:
    live = live_game(view, path)
    for line in lines if lines is not None else typed_lines(view):
        live.enter(line)
    return live


# ---------------------------------------------------------------------------- whole games
@pytest.mark.parametrize("path", [SHORT, LONG], ids=lambda p: p.stem)
def test_complete_examples_typed_from_every_seat_rebuild_the_record(path, tmp_path):
    rec = read_record(path)
    for seat in range(4):
        view = rec.for_seat(seat)
        out = tmp_path / f"seat{seat}.jsonl"
        live = type_all(view, out)
        assert live.events == view.events
        assert read_record(out).events == view.events
        assert live.state.is_over()


def test_the_players_example_record_typed_rebuilds_it(tmp_path):
    view = read_record(PLAYER)
    live = type_all(view, tmp_path / "p.jsonl")
    assert live.events == view.events


def test_the_short_example_is_a_short_whole_game_with_the_main_forms():
    rec = read_record(SHORT)
    assert replay(rec).is_over()
    lines = typed_lines(rec.for_seat(1))        # the seat the live tests type it from
    assert len(lines) <= 150
    text = "\n".join(lines)
    for form in ("draws", "picks up", "melds", "lays off", "discards", "asks to go out", "foot ", "held "):
        assert form in text, form
    assert re.search(r"^1 picks up$", text, re.M)          # the issue's form: only one pair possible
    assert re.search(r"^yes$", text, re.M)                 # seat 1 answers its partner
    assert re.search(r"^\d lays off .* on [2-9TJQKA]$", text, re.M)
    kinds = {e["type"] for e in rec.events}
    assert {"pickup", "meld", "lay_off", "book", "foot", "ask_out", "answer", "hand_end"} <= kinds


# ---------------------------------------------------------------------------- the issue's forms
def _scene():
    """A one-hand game of five cards where seat 1 picks up the pile with its only pair of
    queens, melds 8H 8S 8C (and so reaches its foot), and seat 2 asks to go out, is told yes
    and goes out: ``(complete record, its events)``."""
    opts = {"hands": 1, "hand_size": 5, "minimums": "0,0,0,0", "books_clean": 0, "books_dirty": 0, "pile_min": 1}
    h = header_with(opts, hands={0: ["4C", "4D", "5C", "6C", "QD"], 1: ["8H", "8S", "8C", "QC", "QH"],
                                 2: ["9C", "9D", "9H", "TC", "TD"], 3: ["JC", "JD", "KC", "KD", "AC"]},
                    feet={1: ["7D", "7H", "7S", "KS", "AS"], 2: ["5D", "5D", "5H", "5S", "6H"]},
                    stock_front=["3C", "3S", "TH", "TS", "AD", "AH"])
    st = GAME.new_state(h["options"], h)
    events = []
    for a in (Draw(0), Discard(0, "QD"), TakePile(1, ("QC", "QH")), Meld(1, ("8H", "8S", "8C")), Discard(1, "KS"),
              Draw(2), Meld(2, ("9C", "9D", "9H")), Meld(2, ("TC", "TD", "TH", "TS")), AskOut(2), Answer(0, True),
              Meld(2, ("5D", "5D", "5H", "5S")), Discard(2, "6H")):
        events.extend(st.apply_action(a))
    assert st.is_over()
    return Record(GAME, h["options"], h, events, "<scene>", list(range(2, len(events) + 2)))


def test_the_issues_forms_work_as_written(tmp_path):
    view = _scene().for_seat(1)
    lines = ["0 discards QD", "1 picks up", "1 melds 8H 8S 8C", "foot 7D 7H 7S KS AS", "1 discards KS",
             "2 draws", "2 melds 9C 9D 9H", "2 melds TC TD TH TS", "2 asks to go out", "yes",
             "2 melds 5D 5D 5H 5S", "2 discards 6H", "scores 230 -75"]
    live = live_game(view, tmp_path / "s.jsonl")
    assert [e["type"] for e in live.events] == ["draw"]          # seat 0 draws: the pile is empty
    made = [live.enter(line) for line in lines]
    assert made[1] == [{"type": "pickup", "player": 1, "pair": ["QC", "QH"], "cards": ["QD"]}]
    assert made[2] == [{"type": "meld", "player": 1, "cards": ["8H", "8S", "8C"]}]
    assert made[7] == [{"type": "meld", "player": 2, "cards": ["TC", "TD", "TH", "TS"]},
                       {"type": "foot", "player": 2, "cards": None}]          # another player's foot: filled in
    assert made[8] == [{"type": "ask_out", "player": 2}] and made[9] == [{"type": "answer", "player": 0, "yes": True}]
    assert made[-1] == [{"type": "hand_end", "hand": 1, "reason": "out", "player": 2,
                         "held": [None, ["7D", "7H", "7S", "AS"], [], None],      # your own cards: filled in
                         "scores": [230, -75], "totals": [230, -75]}]
    assert live.state.is_over() and live.state.result().detail["totals"] == [230, -75]
    assert live.events[:-1] == view.events[:-1]
    assert read_record(tmp_path / "s.jsonl").events == live.events      # the file reads back


def test_a_pickup_names_its_pair_unless_only_one_is_possible(tmp_path):
    view = _scene().for_seat(2)     # seat 2 sees seat 1 pick up: queens of four suits are possible
    live = live_game(view, tmp_path / "s.jsonl")
    live.enter("0 discards QD")
    with pytest.raises(ShorthandError, match="type the pair of queens"):
        live.enter("1 picks up")
    assert live.enter("1 picks up C H")[0]["pair"] == ["QC", "QH"]        # the suits alone
    assert live.undo()[0]["type"] == "pickup"
    assert live.enter("1 picks up qc qh")[0]["pair"] == ["QC", "QH"]


# ---------------------------------------------------------------------------- refusals
REFUSED_AT_START = ["", "blah", "7 draws", "0 discards", "0 discards 9Z", "1 draws 4H 5S", "0 draws", "yes",
                    "foot 7D 7H 7S KS AS", "held 1 -", "scores 10 20", "deal 4C 4D 5C 6C QD", "0 melds",
                    "0 asks to go out now", "0 jumps"]
REFUSED_ON_MY_TURN = ["1 draws", "1 draws 4H", "1 discards QC", "1 picks up QC QS", "0 draws", "1 lays off 2C",
                      "1 lays off 8H on 9", "2 draws 4H 5S", "1 picks up QC"]


def _one_sentence(msg: str) -> bool:
    return "\n" not in msg and not re.search(r"[.!?] [A-Z]", msg) and len(msg) < 300


def test_refused_lines_say_what_was_expected_in_one_sentence_and_change_nothing(tmp_path):
    view = _scene().for_seat(1)
    path = tmp_path / "s.jsonl"
    live = live_game(view, path)
    for group in (REFUSED_AT_START, REFUSED_ON_MY_TURN):
        if group is REFUSED_ON_MY_TURN:
            live.enter("0 discards QD")
        before, text = list(live.events), path.read_text()
        for line in group:
            with pytest.raises(ShorthandError) as exc:
                live.enter(line)
            assert _one_sentence(exc.value.message), (line, exc.value.message)
            assert live.events == before and path.read_text() == text, line
    assert "seat 1 drew" in live.prompt() or "your turn" in live.prompt()


def test_the_prompt_says_whose_turn_and_what_comes_next(tmp_path):
    view = _scene().for_seat(1)
    live = live_game(view, tmp_path / "s.jsonl")
    assert live.prompt().startswith("seat 0 drew (the pile cannot be taken)")
    live.enter("0 discards QD")
    assert live.prompt() == "your turn: draw (1 draws CARDS) or pick up the pile (1 picks up ...)"
    live.enter("1 picks up")
    live.enter("1 melds 8H 8S 8C")
    assert live.prompt() == "your hand is used up: type your foot: foot CARDS (5 cards)"
    for line in ("foot 7D 7H 7S KS AS", "1 discards KS"):
        live.enter(line)
    assert live.prompt() == "seat 2 to draw or pick up the pile"
    for line in ("2 draws", "2 melds 9C 9D 9H", "2 melds TC TD TH TS"):
        live.enter(line)
    assert "ask to go out" in live.prompt()
    live.enter("2 asks to go out")
    assert live.prompt() == "seat 0 to answer seat 2: yes or no"
    for line in ("yes", "2 melds 5D 5D 5H 5S", "2 discards 6H"):
        live.enter(line)
    assert live.prompt().startswith("hand 1 is over (seat 2 went out)")
    words = live.words()
    assert {"picks", "melds", "held", "scores", "0", "3", "7D", "RJ"} <= set(words)


# ---------------------------------------------------------------------------- the end of a hand
def _at_hand_end(tmp_path, seat: int = 1) -> tuple[LiveGame, Record]:
    view = read_record(SHORT).for_seat(seat)
    lines = typed_lines(view)
    assert lines[-1].startswith("held ")
    return type_all(view, tmp_path / "e.jsonl", lines[:-1]), view


def test_the_end_of_a_hand_from_what_the_player_knows(tmp_path):
    live, view = _at_hand_end(tmp_path)
    full = view.events[-1]
    held = full["held"]
    assert full["scores"] == [370, 1705] and full["player"] == 3 and held[3] == []
    assert live.state.in_foot[1] and held[1]                # seat 1 (you) plays from its foot: known
    ev = live.preview("scores 370 1705")[0]
    assert ev["held"] == [None, held[1], None, []] and ev["totals"] == [370, 1705]  # yours filled in; seat 3 []
    seat0 = " ".join(held[0])
    ev = live.preview(f"held 0 {seat0} scores 370 1705")[0]
    assert ev["held"] == [held[0], held[1], None, []]
    every = "held " + " ".join(f"{s} {' '.join(held[s])}" for s in (0, 1, 2))
    assert live.preview(every) == [full]                  # every seat given: the scores are computed
    others = "held " + " ".join(f"{s} {' '.join(held[s])}" for s in (0, 2))
    assert live.preview(others) == [full]                 # your own seat left out: filled in
    assert "held 0 4C 2 -" in live.prompt() and "held 1" not in live.prompt()   # the example names others
    bound = live.state.score_bound(0, [None] * 4)
    assert 370 <= bound < 2500
    refused = {f"scores {bound + 5} 1705": f"team 0's score of hand 1 can be at most {bound}",
               "scores 370 1710": "team 1's score of hand 1 is 1705",     # computed from your cards
               "scores 372 1705": "multiple of 5",
               f"held 0 {seat0} 2 {' '.join(held[2])} scores 360 1705": "the scores of hand 1 are 370 and 1705, not 360 and 1705",
               f"held 0 {seat0}": f"are not given: type them, or the scores too, for example 'held 0 {seat0} "
                                  f"scores",
               "scores 370": "one score per team",
               "held 0 4C scores 370 1705": "seat 0 holds 9 cards in hand and foot, not 1",
               "held 1 5S 6D 7S scores 370 1705": "seat 1 holds 5S 6D 6S, not 5S 6D 7S"}
    for line, why in refused.items():
        with pytest.raises(ShorthandError, match=re.escape(why)):
            live.enter(line)
    live.enter("scores 370 1705")
    assert live.state.is_over() and live.state.result().detail["totals"] == [370, 1705]
    rec = read_record(tmp_path / "e.jsonl")                 # the file reads and replays under the rules
    assert rec.events[-1]["held"] == [None, held[1], None, []]
    again = LiveGame.resume(tmp_path / "e.jsonl")
    assert again.events == live.events and again.entries[-1] == 1


def test_a_four_hand_game_typed_with_scores_only_at_each_hand_end(tmp_path):
    rec = read_record(LONG)
    view = rec.for_seat(1)
    lines = typed_lines(view)
    ends = [e for e in view.events if e["type"] == "hand_end"]
    k = 0
    for i, line in enumerate(lines):
        if line.startswith("held "):
            lines[i] = "scores " + " ".join(map(str, ends[k]["scores"]))
            k += 1
    assert k == 4
    live = type_all(view, tmp_path / "g.jsonl", lines)
    assert live.state.is_over() and live.state.result().detail["totals"] == ends[-1]["totals"]
    got = [e for e in live.events if e["type"] == "hand_end"]
    assert all(h is None or h == [] or s == 1 for e in got for s, h in enumerate(e["held"]))  # what seat 1 knows
    assert [e["held"].index([]) for e in got] == [e["player"] for e in ends]    # who went out holds no card
    assert [e for e in live.events if e["type"] != "hand_end"] == [e for e in view.events if e["type"] != "hand_end"]
    deals = [e for e in live.events if e["type"] == "deal"]
    assert len(deals) == 3 and all(sum(h is not None for h in d["hands"]) == 1 for d in deals)
    assert read_record(tmp_path / "g.jsonl").events == live.events


def test_old_and_new_hand_end_records(tmp_path):
    """Old records (every held, scores, totals) read as before; a player's record may leave
    out held (all unknown) and totals; a complete record may not leave out a seat's cards."""
    rec = read_record(SHORT)
    view = rec.for_seat(0)
    end = dict(view.events[-1])

    def write(header, events, name):
        p = tmp_path / name
        p.write_text("\n".join(json.dumps(x) for x in [header, *events]) + "\n")
        return p

    assert replay(read_record(write(view.header, view.events, "old.jsonl"))).is_over()
    lean = {k: v for k, v in end.items() if k not in ("held", "totals")}
    assert replay(read_record(write(view.header, view.events[:-1] + [lean], "lean.jsonl"))).is_over()
    with pytest.raises(RecordError, match="needed"):
        read_record(write(view.header, view.events[:-1] + [{k: v for k, v in lean.items() if k != "scores"}],
                          "noscore.jsonl"))
    bad = dict(rec.events[-1])
    bad["held"] = [None] + bad["held"][1:]
    with pytest.raises(RecordError, match="a complete record shows seat 0's 'held' cards"):
        read_record(write(rec.header, rec.events[:-1] + [bad], "complete.jsonl"))
    wrong = dict(end, totals=[0, 0])
    with pytest.raises(RecordError, match="the totals after hand 1 are"):
        read_record(write(view.header, view.events[:-1] + [wrong], "totals.jsonl"))


# ---------------------------------------------------------------------------- the doc's table
def _doc_table() -> list[tuple[str, str, str]]:
    return notation_table("handfoot.md")


def test_the_docs_table_lists_exactly_the_forms():
    assert _doc_table() == [(f.form, f.meaning, f.example) for f in SH.forms]


def test_every_example_of_the_forms_parses_and_applies_in_some_position():
    todo = {f.example for f in SH.forms}
    views = [read_record(SHORT).for_seat(s) for s in range(4)] + [read_record(LONG).for_seat(1)]
    for view in views:
        state = GAME.new_state(view.options, view.header)
        for ev in view.events:
            for ex in list(todo):
                try:
                    events = SH.parse(ex, state)
                except ShorthandError:
                    continue
                st = state.copy()
                try:
                    for e in events:
                        st.apply_event(e)
                except IllegalAction:
                    continue
                todo.discard(ex)
            if not todo:
                return
            state.apply_event(ev)
    assert not todo, f"examples that parse nowhere: {sorted(todo)}"


@pytest.mark.parametrize("options", [{"players": 3, "cutthroat": True}, {"players": 6}],
                         ids=["cutthroat-3", "partners-6"])
def test_other_tables_typed_from_every_seat(options, tmp_path):
    """Cut-throat (no partner, no asking) and three partnerships: one short hand each."""
    opts = {"hands": 1, "hand_size": 5, "books_clean": 1, "books_dirty": 0, **options}
    n = options["players"]
    peer = resolve_agent("peer", GAME)
    rec = play_game(GAME, opts, [peer] * n, np.random.default_rng(5), [np.random.default_rng(s) for s in range(n)]).record
    assert rec.events[-1]["type"] == "hand_end"
    for seat in range(n):
        view = rec.for_seat(seat)
        live = type_all(view, tmp_path / f"s{seat}.jsonl")
        assert live.events == view.events and live.state.is_over()
        if seat == 0:       # the end of the hand from the scores alone, one per team
            live.undo()
            live.enter("scores " + " ".join(map(str, rec.events[-1]["scores"])))
            assert live.state.result().detail["totals"] == rec.events[-1]["totals"]
