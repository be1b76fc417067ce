"""Literature's short notation (``cardmind advise``): the lines a player types rebuild the
record's events exactly, from every seat and under every option; the rules fill in what they
imply (a forced pass, the actual holders of a right claim, ``next`` when one seat only can
play); refused lines give one sentence and change nothing; the doc's table is the notation's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardmind.advise.live import LiveGame
from cardmind.core import get_game
from cardmind.errors import IllegalAction
from cardmind.games.literature.rules import set_cards
from cardmind.games.literature.shorthand import FORMS
from cardmind.records import read_record
from cardmind.shorthand import ShorthandError

from .doc_tables import notation_table
from .lit_helpers import OPTION_COMBOS, simulate

ROOT = Path(__file__).resolve().parent.parent
GAME = get_game("literature")
SH = GAME.shorthand()
SHORT = ROOT / "examples" / "literature-short-complete.jsonl"
COMPLETE = ROOT / "examples" / "literature-6p-complete.jsonl"
PLAYER = ROOT / "examples" / "literature-6p.jsonl"


def view_of(rec, seat):
    return rec.for_seat(seat) if rec.is_complete else rec


def typed(view):
    """The lines a player at ``view.observer`` types for the view's events."""
    return SH.lines(view.events, GAME.new_state(view.options, view.header))


def type_game(view, path, upto_lines=None) -> LiveGame:
    """Type ``view``'s game into a new LiveGame (the first ``upto_lines`` lines)."""
    live = LiveGame.new(GAME, view.options, view.observer, SH.start_text(view.header), path)
    for line, n in typed(view)[:upto_lines]:
        assert line, "no Literature event is implied before the first typed line"
        assert len(live.enter(line)) == n, line
    return live


def replay_lines(view):
    """Parse every typed line on a plain state (no tracker), with the implied events after
    each; returns the events and the lines."""
    st = GAME.new_state(view.options, view.header)
    out = []
    lines = typed(view)
    for line, n in lines:
        got = SH.parse(line, st)
        for ev in got:
            st.apply_event(ev)
        while imp := SH.implied(st):
            for ev in imp:
                st.apply_event(ev)
            got += imp
        assert len(got) == n, line
        out += got
    return out, lines


# ----------------------------------------------------------------------------- round trips
def test_short_example_is_typed_whole_from_every_seat(tmp_path):
    rec = read_record(SHORT)
    for seat in range(6):
        view = view_of(rec, seat)
        live = type_game(view, tmp_path / f"s{seat}.jsonl")
        assert live.events == view.events and live.state.is_over()
        assert read_record(tmp_path / f"s{seat}.jsonl").events == view.events
        assert len(typed(view)) == 82   # one line per event: no event of this game is implied


def test_complete_example_whole_from_seat_1_and_a_prefix_from_every_other_seat(tmp_path):
    rec = read_record(COMPLETE)
    view = view_of(rec, 1)
    live = type_game(view, tmp_path / "s1.jsonl")
    assert live.events == view.events and len(typed(view)) == 284
    for seat in (0, 2, 3, 4, 5):
        view = view_of(rec, seat)
        live = type_game(view, tmp_path / f"s{seat}.jsonl", upto_lines=60)
        assert live.events == view.events[:60]


def test_player_record_is_typed_whole(tmp_path):
    rec = read_record(PLAYER)
    live = type_game(rec, tmp_path / "p.jsonl")
    assert live.events == rec.events and live.header == rec.header


@pytest.mark.parametrize("options", OPTION_COMBOS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_lines_rebuild_the_events_under_every_option_set(options):
    seen = set()
    for seed in (0, 1):
        rec = simulate(options, seed, "peer")
        view = view_of(rec, (seed + 1) % options["players"])
        events, lines = replay_lines(view)
        assert events == view.events
        for line, n in lines:
            seen |= {w for w in ("passes", "wrong", "next") if f" {w}" in line} | ({"implied"} if n > 1 else set())
    has_next = not options.get("claim_any_time") and options.get("after_claim", "awarded_team") == "awarded_team"
    assert ("next" in seen) == has_next   # `next` is typed exactly where the options have a choice of it


def test_passes_wrong_claims_and_next_are_all_met():
    """Over the option sets the lines hold every form: typed and forced passes, wrong claims, ``next``."""
    seen = set()
    for options in OPTION_COMBOS:
        for seed in (0, 1):
            rec = simulate(options, seed, "peer")
            for line, n in typed(view_of(rec, 1)):
                seen |= {w for w in ("passes", "wrong", "next") if f" {w}" in line} | ({"implied"} if n > 1 else set())
    assert seen == {"passes", "wrong", "next", "implied"}


@pytest.mark.parametrize("options,seed", [
    ({"players": 8, "deck": "48", "claim_any_time": True}, 1),                       # typed and forced passes
    ({"players": 6, "deck": "48", "wrong_claim": "cancel", "after_claim": "claimant"}, 1),
    ({"players": 8}, 0),                                                             # a wrong claim with next
])
def test_option_games_are_typed_whole_through_the_live_game(tmp_path, options, seed):
    rec = simulate(options, seed, "peer")
    view = view_of(rec, 3)
    live = type_game(view, tmp_path / "g.jsonl")
    assert live.events == view.events
    assert read_record(tmp_path / "g.jsonl").events == view.events


def test_other_spellings_give_the_same_events():
    """Six seats in the set's order, ``next`` before ``wrong``, yes/no as y/n, upper case,
    commas; a wrong claim may leave out the cards whose holder the view already knows."""
    checked = {"claim": 0, "wrong": 0, "known": 0, "ask": 0}
    for rec, seat in ((read_record(SHORT), 1), (simulate({"players": 8}, 0, "peer"), 3),
                      (simulate({"players": 8, "deck": "48", "claim_any_time": True, "ask_own_card": True}, 1, "peer"),
                       1)):
        view = view_of(rec, seat)
        st = GAME.new_state(view.options, view.header)
        lines = typed(view)
        for (line, n), i in zip(lines, _starts(lines)):
            ev = view.events[i]
            if ev["type"] == "claim":
                cards = set_cards(ev["set"])
                seats = " ".join(str(ev["assignment"][c]) for c in cards)
                wrong = [c for c in cards if ev["actual"][c] != ev["assignment"][c]]
                nxt = f" next {ev['next']}" if " next " in line else ""
                alt = f"{ev['claimer']} CLAIMS {ev['set'].upper()} {seats}{nxt}" + (
                    " wrong " + " ".join(f"{c}:{ev['actual'][c]}" for c in wrong) if wrong else "")
                assert SH.parse(alt, st) == [ev], alt
                checked["claim"] += 1
                if wrong:
                    checked["wrong"] += 1
                    unknown = [c for c in wrong if c not in st.holder]
                    if len(unknown) < len(wrong):
                        short = f"{ev['claimer']} claims {ev['set']} {seats}{nxt} wrong " + " ".join(
                            f"{c}:{ev['actual'][c]}" for c in unknown)
                        assert SH.parse(short, st) == [ev], short
                        checked["known"] += 1
            elif ev["type"] == "ask":
                alt = line.replace(" yes", " Y").replace(" no", " n").replace(" asks ", ", ASKS, ")
                assert SH.parse(alt, st) == [ev]
                checked["ask"] += 1
            for e in view.events[i:i + n]:
                st.apply_event(e)
    assert min(checked.values()) >= 1, checked


def _starts(lines):
    i = 0
    for _, n in lines:
        yield i
        i += n


# ----------------------------------------------------------------------------- what the rules fill in
def test_a_forced_pass_is_filled_in_and_a_pass_with_a_choice_is_asked_for():
    rec = simulate({"players": 8, "deck": "48", "claim_any_time": True}, 1, "peer")
    view = view_of(rec, 1)
    st = GAME.new_state(view.options, view.header)
    forced = choice = 0
    for i, ev in enumerate(view.events):
        if ev["type"] == "pass":
            targets = [p.to for p in st.legal_passes(ev["from"])]
            if len(targets) == 1:
                assert SH.implied(st) == [ev]
                forced += 1
            else:
                assert SH.implied(st) == []
                prompt = SH.prompt(st)
                assert prompt.startswith(f"seat {ev['from']} has no cards: it passes the turn to seat "), prompt
                assert prompt.endswith(f"('{ev['from']} passes to {targets[0]}')") and " or " in prompt
                choice += 1
        elif not st.is_over():
            assert SH.implied(st) == []
        st.apply_event(ev)
    assert forced and choice


def test_next_is_typed_only_when_the_team_had_a_choice():
    rec = read_record(COMPLETE)
    view = view_of(rec, 1)
    st = GAME.new_state(view.options, view.header)
    typed_next = filled = 0
    for ev in view.events:
        if ev["type"] == "claim":
            line, _ = SH.line_for([ev], st)
            cands = st.next_candidates(ev)
            assert (" next " in line) == (len(cands) > 1)
            bare = line.split(" next ")[0]
            if len(cands) > 1:
                with pytest.raises(ShorthandError, match=r"picks who plays next: end the line with 'next S'"):
                    SH.parse(bare, st)
                typed_next += 1
            else:
                assert SH.parse(bare, st) == [ev]   # next filled in (or null: the game ends)
                filled += 1
        st.apply_event(ev)
    assert typed_next == 7 and filled == 2


# ----------------------------------------------------------------------------- refusals
def _one_sentence(msg: str) -> None:
    assert msg and "\n" not in msg and not re.search(r"[.!?] [A-Z]", msg), msg


def _live_at(tmp_path, rec_path, seat, cond):
    """A LiveGame of ``rec_path`` from ``seat``, typed up to the first position where
    ``cond(state)`` holds."""
    view = view_of(read_record(rec_path), seat)
    live = LiveGame.new(GAME, view.options, seat, SH.start_text(view.header), tmp_path / "r.jsonl")
    for line, _ in typed(view):
        if cond(live.state):
            return live
        live.enter(line)
    raise AssertionError("no such position")


def test_refused_lines_say_one_sentence_and_change_nothing(tmp_path):
    # seat 1 on turn, holding cards of some sets and none of others
    live = _live_at(tmp_path, SHORT, 1, lambda st: st.turn == 1 and st.num_events > 0)
    st = live.state
    hand = st.hands[1]
    mine = sorted(hand)
    other = next(s for s in st.unclaimed_sets() if not set(set_cards(s)) & hand)
    # a set seat 1 holds cards of, none of whose cards is known to be at an opponent
    own_set = next(s for s in st.unclaimed_sets() if set(set_cards(s)) & hand
                   and all(st.holder.get(c) in (None, 1, 3, 5) for c in set_cards(s)))
    cards = set_cards(own_set)
    missing = next(c for c in cards if c not in hand)
    held = next(c for c in cards if c in hand)
    place = {c: 1 if c in hand else st.holder.get(c) or 3 for c in cards}
    ok = " ".join(str(place[c]) for c in cards)
    opp = next(s for s in (0, 2, 4) if st.sizes[s] > 0)
    cases = {
        "hello there": "expected 'S asks T CARD yes|no'",
        "1 asks": "an ask is 'S asks T CARD yes'",
        f"1 asks {opp} {missing} maybe": "an ask is 'S asks T CARD yes'",
        f"9 asks {opp} {missing} yes": "expected the seat who acts first on the line (a seat number 0-5), not '9'",
        f"1 asks 7 {missing} yes": "expected the seat asked (a seat number 0-5)",
        f"1 asks {opp} 1X yes": "'1X' in the ask is not a card",
        f"1 asks {opp} {set_cards(other)[0]} yes": "without holding another card of",      # a set it does not hold
        f"1 asks {opp} {mine[0]} no": "which it holds",                                   # its own card
        f"1 asks 3 {missing} no": "asked its teammate seat 3",
        f"{opp} asks 1 {mine[0]} no": f"seat {opp} asked, but it is seat 1's turn",       # out of turn
        "1 passes to 3": "passed the turn while holding cards",
        "1 claims low-spadez 1 1 1 1 1 1": "'low-spadez' is not a set",
        f"1 claims {own_set} 1 1 1": f"a claim of {own_set} names who holds each of its six cards",
        f"1 claims {own_set} {cards[0]}:1": f"a claim of {own_set} names all six cards",
        f"1 claims {own_set} {ok} wrong": "say where the misplaced cards were",
        f"1 claims {own_set} {ok} wrong {held}:1": f"{held} was claimed at seat 1: after 'wrong' list only",
        f"1 claims {own_set} 0 0 0 0 0 0": "who is not on its team",
        f"1 claims {own_set} " + " ".join("3" if c == held else str(place[c]) for c in cards):
            f"you hold {held}, not seat 3 as claimed",
        f"1 claims {own_set} " + " ".join("1" for c in cards):
            f"you do not hold {missing}, which the claim names at your seat, so the claim was wrong",
    }
    before = (list(live.events), (tmp_path / "r.jsonl").read_bytes(), live.prompt())
    for line, expected in cases.items():
        with pytest.raises(ShorthandError) as err:
            live.enter(line)
        assert expected in err.value.message, (line, err.value.message)
        _one_sentence(err.value.message)
        assert (list(live.events), (tmp_path / "r.jsonl").read_bytes(), live.prompt()) == before, line
    # a line of two entries whose second is refused adds neither
    with pytest.raises(ShorthandError):
        live.enter(f"1 asks {opp} {missing} no; 1 asks {opp} {missing} no")
    assert live.events == before[0]


def test_the_example_of_a_wrong_claim_is_of_the_set_claimed(tmp_path):
    """Every refused claim that shows how to write 'wrong CARD:S' shows a card of the set the
    line claims (a high-hearts claim is not told 'wrong 5S:3'), at a seat the claim did not name."""
    live = _live_at(tmp_path, SHORT, 1, lambda st: st.turn == 1 and st.num_events > 0)
    st = live.state
    hand = st.hands[1]
    seen = 0
    for own_set in st.unclaimed_sets():
        cards = set_cards(own_set)
        if not set(cards) & hand or not all(st.holder.get(c) in (None, 1, 3, 5) for c in cards):
            continue
        held = next(c for c in cards if c in hand)
        place = {c: 1 if c in hand else st.holder.get(c) or 3 for c in cards}
        ok = " ".join(str(place[c]) for c in cards)
        lines = [f"1 claims {own_set} {ok} wrong",                                   # wrong, but none said
                 f"1 claims {own_set} {ok} wrong {held}:1",                          # a card at its claimed seat
                 f"1 claims {own_set} {ok} wrong {held}:0 wrong {held}:2",           # 'wrong' twice
                 f"1 claims {own_set} " + " ".join("3" if c == held else str(place[c]) for c in cards)]
        for line in lines:
            with pytest.raises(ShorthandError) as err:
                live.enter(line)
            examples = re.findall(r"wrong ([0-9TJQKA][CDHS]|RJ|BJ):(\d)", err.value.message)
            assert examples, (line, err.value.message)
            for card, seat in examples:
                assert card in cards, (line, err.value.message)
                claimed = dict(zip(cards, ok.split()))
                assert seat != claimed[card] or card == held, (line, err.value.message)
            if line.endswith(" ".join("3" if c == held else str(place[c]) for c in cards)):
                assert all(card != held for card, _ in examples), err.value.message   # another card than the one known
            seen += 1
    assert seen >= 8


def test_a_claim_is_refused_where_its_options_say_otherwise(tmp_path):
    # default options: the last claim ends the game (no next); a choice of next needs 'next'
    live = _live_at(tmp_path, SHORT, 1, lambda st: len(st.set_owner) == 8)
    line = typed(view_of(read_record(SHORT), 1))[-1][0]
    with pytest.raises(ShorthandError, match="this claim ends the game: nobody plays next"):
        live.enter(line + " next 3")
    # after_claim claimant: no 'next' at all
    rec = simulate({"players": 6, "deck": "48", "wrong_claim": "cancel", "after_claim": "claimant"}, 0, "peer")
    view = view_of(rec, 1)
    st = GAME.new_state(view.options, view.header)
    for ev in view.events:
        if ev["type"] == "claim":
            line, _ = SH.line_for([ev], st)
            with pytest.raises(ShorthandError, match="the turn stays with the player who had it"):
                SH.parse(line + " next 1", st)
            break
        st.apply_event(ev)


def test_prompt_says_whose_turn_and_words_complete_the_notation():
    rec = read_record(SHORT)
    view = view_of(rec, 1)
    st = GAME.new_state(view.options, view.header)
    assert SH.prompt(st) == "seat 0 to ask or claim"
    st.apply_event(view.events[0])          # 0 asks 1 TS no: seat 1's turn
    assert SH.prompt(st) == "your turn: ask or claim"
    st.apply_event(view.events[1])          # 1 asks 0 QS no
    st.apply_event(view.events[2])          # 0 asks 1 JS no
    words = SH.words(st)
    assert {"asks", "claims", "passes", "yes", "no", "wrong", "next"} <= set(words)
    assert {"0", "5", "9H", "BJ", "low-spades", "eights"} <= set(words) and "6" not in words
    rec8 = simulate({"players": 8, "deck": "48", "claim_any_time": True}, 1, "peer")
    st8 = GAME.new_state(rec8.options, rec8.for_seat(2).header)
    assert SH.prompt(st8) == "seat 0 (your team) to ask or claim; anyone with cards may claim"
    assert "7" in SH.words(st8) and "8H" not in SH.words(st8) and "eights" not in SH.words(st8)
    end = GAME.new_state(view.options, view.header)
    for ev in view.events:
        end.apply_event(ev)
    assert SH.prompt(end) == "the game is over"


# ----------------------------------------------------------------------------- the doc's table
def _doc_table() -> list[tuple[str, str, str]]:
    return notation_table("literature.md")


def test_the_doc_table_is_the_notation_and_every_example_parses():
    assert _doc_table() == [(f.form, f.meaning, f.example) for f in FORMS]
    positions = []
    for rec, seat in ((read_record(SHORT), 1), (read_record(COMPLETE), 1),
                      (simulate({"players": 6, "claim_any_time": True, "ask_own_card": True}, 0, "peer"), 1)):
        view = view_of(rec, seat)
        st = GAME.new_state(view.options, view.header)
        for ev in view.events:
            positions.append(st.copy())
            st.apply_event(ev)
    def fits(line, st) -> bool:
        try:
            after = st.copy()
            for ev in SH.parse(line, st):
                after.apply_event(ev)
        except (ShorthandError, IllegalAction):
            return False
        return True

    for form in FORMS:
        assert any(fits(form.example, st) for st in positions), f"the example {form.example!r} parses in no position"


def test_resume_and_undo_take_a_line_with_the_pass_it_implied(tmp_path):
    """A claim followed by a forced pass is one entry: ``undo`` takes both back, and a resumed
    record counts its entries as the lines that typed it."""
    rec = simulate({"players": 6, "deck": "48", "wrong_claim": "cancel", "after_claim": "claimant"}, 1, "peer")
    view = view_of(rec, 2)
    lines = typed(view)
    k = next(j for j, (_, n) in enumerate(lines) if n > 1) + 1      # up to the line with an implied pass
    live = type_game(view, tmp_path / "g.jsonl", upto_lines=k)
    upto = sum(n for _, n in lines[:k])
    assert live.events == view.events[:upto] and live.events[-1]["type"] == "pass"
    resumed = LiveGame.resume(tmp_path / "g.jsonl")
    assert resumed.entries == [n for _, n in lines[:k]] and resumed.events == live.events
    removed = resumed.undo()
    assert removed == view.events[upto - lines[k - 1][1]:upto] and len(removed) == lines[k - 1][1] >= 2
    assert read_record(tmp_path / "g.jsonl").events == view.events[:upto - len(removed)]
    assert resumed.enter(lines[k - 1][0]) == removed                 # typed again: the same events


def test_set_names_may_be_shortened():
    view = view_of(read_record(COMPLETE), 1)             # seat 1 holds no low club
    st = GAME.new_state(view.options, view.header)
    for alias in ("low-clubs", "lowclubs", "low-c", "LowC"):
        [ev] = SH.parse(f"0 claims {alias} 2 2 2 2 2 2 next 2", st)
        assert ev["set"] == "low-clubs" and ev["assignment"] == {c: 2 for c in set_cards("low-clubs")}
    with pytest.raises(ShorthandError, match="'low-dmnds' is not a set: the sets are low-clubs, high-clubs"):
        SH.parse("2 claims low-dmnds 2 2 2 2 2 2", st)


def test_an_ask_of_you_needs_no_answer(tmp_path):
    """You were asked: whether you handed the card over follows from your hand."""
    from cardmind.advise.live import LiveGame

    live = LiveGame.new("literature", {"players": 6}, 1, "JC 2D 2H TH 4S 6S 9S JS 8C", tmp_path / "g.jsonl")
    assert live.enter("0 asks 1 JC") == [{"type": "ask", "asker": 0, "target": 1, "card": "JC", "success": True}]
    assert live.enter("0 asks 1 QC") == [{"type": "ask", "asker": 0, "target": 1, "card": "QC", "success": False}]
    assert live.prompt().startswith("your turn")
