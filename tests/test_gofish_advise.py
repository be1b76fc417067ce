"""Go Fish followed live (``cardmind advise``): the short notation
(:mod:`cardmind.games.gofish.shorthand`) and the advice in a card player's words
(:class:`cardmind.games.gofish.advice.GoFishHint`).

Checked here: the doc's table of forms is the notation's, and each example parses in some
position; every seat's view of the complete example, the player's example record and small
games with every option (2-6 players, ``give: "all"``, ``books_face_up``, ``phase2``, small
decks with dealt books) are rebuilt exactly from the lines ``Shorthand.lines`` writes, with
every kind of event the rules fill in; the count form (``got 2``) is taken exactly where the
cards are fixed; refused lines give one sentence and change nothing; the advice's headline,
live lines and default text use no internal names or scientific notation, and ``--verbose``
keeps the numbers.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from cardmind.advise.live import LiveGame
from cardmind.belief import tracker_for
from cardmind.core import get_game
from cardmind.games.gofish import Ask
from cardmind.hints import hint_for
from cardmind.records import Record, read_record
from cardmind.shorthand import ShorthandError

from .doc_tables import notation_table

ROOT = Path(__file__).resolve().parent.parent
GAME = get_game("gofish")
SH = GAME.shorthand()
COMPLETE = ROOT / "examples" / "gofish-4p-complete.jsonl"
PLAYER = ROOT / "examples" / "gofish-4p.jsonl"

#: small games with every option: (options, seeds)
OPTIONS = [
    {"players": 2, "ranks": 3, "suits": 2, "hand": 2},
    {"players": 3, "ranks": 4, "suits": 2, "hand": 2, "give": "all", "phase2": True},
    {"players": 4, "ranks": 4, "suits": 3, "hand": 3, "books_face_up": True, "phase2": True},
    {"players": 5, "ranks": 5, "suits": 2, "hand": 2},
    {"players": 6, "ranks": 6, "suits": 2, "hand": 2, "give": "all", "books_face_up": True},
]


def _random_game(opts: dict, seed: int):
    """A complete state of a whole game of random legal actions (seeded)."""
    o = GAME.parse_options(opts)
    header = GAME.deal(o, np.random.default_rng(seed))
    st = GAME.new_state(o, header)
    rng = random.Random(seed)
    while not st.is_over():
        st.apply_action(rng.choice(st.legal_actions(st.to_move())))
    return o, header, st


def _typed(options: dict, header: dict, events: list) -> list:
    """Type ``events`` (a player's record) line by line with the notation alone (parse, then
    the implied events); returns the events made, and checks the line counts."""
    lines = SH.lines(events, GAME.new_state(options, header))
    st = GAME.new_state(options, header)
    out = []
    for line, k in lines:
        made = SH.parse(line, st) if line else []
        for ev in made:
            st.apply_event(ev)
        while True:
            imp = SH.implied(st)
            if not imp:
                break
            for ev in imp:
                st.apply_event(ev)
            made += imp
        assert len(made) == k, line
        out += made
    return out


def _crafted(observer: int) -> tuple[dict, dict, list]:
    """A 3-player ``give: "all"`` game: seats 0 and 1 are refused and draw unseen, then seat 2
    (holding 7C 7D) asks seat 0 (holding 7H 7S) for 7s. ``(options, observer header, events
    before seat 2's ask as ``observer`` sees them)``."""
    o = GAME.parse_options({"players": 3, "give": "all", "hand": 4})
    hands = [["7H", "7S", "3C", "4C"], ["5C", "5D", "6C", "6D"], ["7C", "7D", "8C", "9C"]]
    used = {c for h in hands for c in h}
    stock = ["TC", "TD"] + [r + s for r in "23456789TJQKA" for s in "CDHS" if r + s not in used | {"TC", "TD"}]
    st = GAME.new_state(o, {"hands": hands, "stock": stock})
    st.apply_action(Ask(0, 1, "3"))
    st.apply_action(Ask(1, 0, "5"))
    view = st.view(observer)
    return o, {"observer": observer, "hand": hands[observer]}, view.history


# ---------------------------------------------------------------------------------- the forms
def _doc_forms() -> list[tuple[str, str, str]]:
    return notation_table("gofish.md")


def _positions():
    """Views to try the examples in: every prefix of the complete example from every seat,
    the crafted give-all game from seats 1 and 2, and small face-up and phase-2 games."""
    rec = read_record(COMPLETE)
    for seat in range(4):
        v = rec.for_seat(seat)
        st = GAME.new_state(v.options, v.header)
        yield st.copy()
        for ev in v.events:
            st.apply_event(ev)
            yield st.copy()
    for obs in (1, 2):
        o, h, evs = _crafted(obs)
        st = GAME.new_state(o, h)
        yield st.copy()
        for ev in evs:
            st.apply_event(ev)
            yield st.copy()
    o, header, full = _random_game({"players": 4, "ranks": 6, "suits": 2, "hand": 2, "phase2": True,
                                    "books_face_up": True}, 3)
    for seat in range(4):
        st = GAME.new_state(o, {"observer": seat, "hand": header["hands"][seat]})
        yield st.copy()
        for ev in full.view(seat).history:
            st.apply_event(ev)
            yield st.copy()


def test_the_docs_table_is_the_notation_and_every_example_parses_somewhere():
    assert _doc_forms() == [(f.form, f.meaning, f.example) for f in SH.forms]
    assert len(SH.forms) == 9
    positions = list(_positions())
    for f in SH.forms:
        for st in positions:
            try:
                SH.parse(f.example, st)      # (parse checks its events against the rules)
            except ShorthandError:
                continue
            break
        else:
            pytest.fail(f"the example {f.example!r} of {f.form!r} parses in no position tried")


# ---------------------------------------------------------------------------------- round trips
def test_every_seat_of_the_examples_is_typed_back_exactly(tmp_path):
    """Each seat's view of the complete example, and the player's example record, typed
    through LiveGame from the lines the notation writes: the same events in the same order,
    in the record file too; 149, 147, 147 and 146 lines (seat 1: 147)."""
    rec = read_record(COMPLETE)
    counts = []
    views = [rec.for_seat(s) for s in range(4)] + [read_record(PLAYER)]
    for i, v in enumerate(views):
        seat = v.header["observer"]
        lines = SH.lines(v.events, GAME.new_state(v.options, v.header))
        path = tmp_path / f"live{i}.jsonl"
        live = LiveGame.new(GAME, v.options, seat, SH.start_text(v.header), path)
        for line, _ in lines:
            if line:
                live.enter(line)
        assert live.events == v.events
        written = [json.loads(x) for x in path.read_text().splitlines()]
        assert written[0]["hand"] == v.header["hand"] and written[1:] == v.events
        counts.append(sum(1 for line, _ in lines if line))
        assert LiveGame.resume(path).events == v.events
    assert counts[:4] == [149, 147, 147, 146]


def test_games_with_every_option_are_typed_back_with_what_the_rules_fill_in():
    """Small random games of 2 to 6 players with every option, from every seat: the lines
    rebuild the events; the rules fill in own books (dealt ones at the start too), other
    players' books completed by cards everyone saw and forced draws, and fold own dealt books
    and held-back forced draws into the next typed line."""
    kinds = Counter()
    for opts in OPTIONS:
        for seed in range(6):
            o, header, st = _random_game(opts, seed)
            for seat in range(o["players"]):
                vh = {"observer": seat, "hand": list(header["hands"][seat])}
                events = st.view(seat).history
                assert _typed(o, vh, events) == events
                s = GAME.new_state(o, vh)
                i = 0
                for line, k in SH.lines(events, GAME.new_state(o, vh)):
                    made = SH.parse(line, s) if line else []
                    for ev in made[:-1]:
                        kinds["folded " + ev["type"] + (" own" if ev.get("player") == seat else "")] += 1
                    for ev in events[i:i + k]:
                        s.apply_event(ev)
                    for ev in events[i + len(made):i + k]:
                        kinds[("start " if not line else "implied ") + ev["type"]
                              + (" own" if ev.get("player") == seat else "")] += 1
                    kinds["typed " + (made[-1]["type"] if made else "")] += 1
                    i += k
    for kind in ("implied book own", "implied book", "implied draw", "start book own", "folded book own",
                 "folded draw", "typed ask", "typed ask_book", "typed book", "typed draw"):
        assert kinds[kind] > 0, kind


# ---------------------------------------------------------------------------------- the count form
def test_a_count_is_taken_only_where_the_cards_are_fixed():
    # seat 2 holds 7C 7D: two 7s can be with seat 0, so 'got 2' is 7H 7S, and seat 2's book follows
    o, h, evs = _crafted(2)
    st = GAME.new_state(o, h)
    for ev in evs:
        st.apply_event(ev)
    got = SH.parse("2 asks 0 7 got 2", st)
    assert got == [{"type": "ask", "asker": 2, "target": 0, "rank": "7", "given": ["7H", "7S"]}]
    st.apply_event(got[0])
    assert SH.implied(st) == [{"type": "book", "player": 2, "rank": "7"}]
    # seen from seat 1, three 7s could be with seat 0: the count is refused, the cards are asked for
    o, h, evs = _crafted(1)
    st = GAME.new_state(o, h)
    for ev in evs:
        st.apply_event(ev)
    with pytest.raises(ShorthandError) as err:
        SH.parse("2 asks 0 7 got 2", st)
    assert err.value.message.startswith("say which 7s seat 0 handed over (everyone sees them), for example "
                                        "'2 asks 0 7 got 7")
    assert SH.parse("2 asks 0 7 got 7H 7S", st)[0]["given"] == ["7H", "7S"]
    # when you are asked, your hand answers: 'got 2', 'got' or no answer at all (give "all")
    o, h, _ = _crafted(1)
    st = GAME.new_state(o, h)
    for line in ("0 asks 1 5 got 2", "0 asks 1 5 got", "0 asks me 5"):
        assert SH.parse(line, st) == [{"type": "ask", "asker": 0, "target": 1, "rank": "5", "given": ["5C", "5D"]}]
    assert SH.parse("0 asks 1 7", st)[0]["given"] == []          # you hold none: a refusal
    with pytest.raises(ShorthandError, match="^you cannot hand over 3 5s: you hold 2$"):
        SH.parse("0 asks 1 5 got 3", st)


def test_under_give_one_your_only_card_is_fixed_and_two_need_naming():
    rec = read_record(COMPLETE)
    v = rec.for_seat(1)     # seat 1 holds 2H 5C 8S 9D KC KS; seat 3 asks it for 5s at event 18
    st = GAME.new_state(v.options, v.header)
    i = next(j for j, ev in enumerate(v.events) if ev["type"] == "ask" and ev["target"] == 1 and ev["given"])
    for ev in v.events[:i]:
        st.apply_event(ev)
    ev = v.events[i]
    assert SH.parse(f"{ev['asker']} asks 1 {ev['rank']}", st) == [ev]
    assert SH.parse(f"{ev['asker']} asks 1 {ev['rank']} got 1", st) == [ev]


# ---------------------------------------------------------------------------------- refusals
def _live_at(tmp_path, seat: int, typed: int) -> LiveGame:
    rec = read_record(COMPLETE)
    v = rec.for_seat(seat)
    lines = [line for line, _ in SH.lines(v.events, GAME.new_state(v.options, v.header)) if line]
    live = LiveGame.new(GAME, v.options, seat, SH.start_text(v.header), tmp_path / "live.jsonl")
    for line in lines[:typed]:
        live.enter(line)
    return live


@pytest.mark.parametrize("typed,line,message", [
    (40, "2 fishes", "expected 'asks', 'draws' or 'books' after the seat, not 'fishes', for example '2 asks 3 7 no'"),
    (40, "2 asks 9 8 no", "expected the seat asked: a seat number 0-3 (or 'me'), not '9', for example "
                          "'1 asks 0 7 no'"),
    (40, "2 asks 0 X no", "expected a rank (2-9, 10 or T, J, Q, K, A, or its name: kings, sevens...), not 'x', for "
                          "example '2 asks 0 7 no'"),
    (40, "3 asks 2 8 no", "it is seat 2's turn, so seat 3 cannot ask now"),
    (40, "2 asks 2 8 no", "seat 2 cannot ask itself"),
    (40, "2 asks 1 5 no", "the book of 5s has been laid: nobody can ask for them"),
    (40, "1 asks 0 8", "it is seat 2's turn, so you cannot ask now"),
    (40, "2 draws", "no draw is due now (a player draws after a refused ask, or on turn with no cards or nobody to "
                    "ask): it is seat 2's turn"),
    (40, "2 asks 0 8 got 1", "say which 8s seat 0 handed over (everyone sees them), for example '2 asks 0 8 got 8C'"),
    (40, "2 asks 0 8 got 2", "an asked player hands over one card here (give \"one\"), not 2: for example "
                             "'2 asks 0 8 got 8C'"),
    (40, "2 books 8", "'2 books 8' breaks a rule: seat 2 laid a book, but a book is laid at once, right after the "
                      "ask or draw that completes it"),
    (40, "2 asks 0 book 8 yes", "whole books are asked for only in phase 2 (option phase2, once the cards run out); "
                                "now ask for cards, for example '2 asks 3 7 got 7H' or '... no'"),
    (40, "2 asks 3 K no", "'2 asks 3 K no' cannot have happened: no deal of the cards fits it with what came before "
                          "(seat 2 asked for Ks, but it holds none: it refused Ks at event 32 and has drawn no card "
                          "and received no K since)"),
    (2, "1 asks 2 A no", "you hold no aces: ask for a rank you hold (2, 5, 8, 9, K)"),
    (2, "1 asks 1 K no", "you cannot ask yourself"),
    # the turn is checked before the answer's details (your answer to an ask needs your card)
    (2, "2 asks me K", "it is your turn, so seat 2 cannot ask now"),
    (2, "2 asks 1 kings got KC", "it is your turn, so seat 2 cannot ask now"),
    (40, "2 asks 0 8 got 8S", "you hold 8S, so seat 0 cannot have handed it over"),
    (0, "0 asks 1 5 got 5D", "you do not hold 5D: type the 5 you handed over, or '0 asks 1 5'"),
    (3, "1 draws", "type the card you drew, for example '1 draws 7H'"),
    (3, "1 draws 5C", "you already hold 5C: type the card you drew"),
    (3, "2 draws", "it is your draw, not seat 2's: type '1 draws CARD'"),
    (3, "1 asks 0 K got KH", "you must draw from the stock first: type '1 draws CARD'"),
    (3, "0 asks me 5", "you must draw from the stock first: type '1 draws CARD'"),
    (5, "2 draws 9H", "you see another player's draw only when it is the rank it asked for (Q): type '2 draws'"),
])
def test_a_refused_line_says_what_was_expected_and_changes_nothing(tmp_path, typed, line, message):
    live = _live_at(tmp_path, 1, typed)
    before = (list(live.events), (tmp_path / "live.jsonl").read_text(), live.prompt())
    with pytest.raises(ShorthandError) as err:
        live.enter(line)
    assert err.value.message == message
    assert "\n" not in err.value.message
    assert (list(live.events), (tmp_path / "live.jsonl").read_text(), live.prompt()) == before


def test_prompts_say_whose_turn_and_what_comes_next(tmp_path):
    live = _live_at(tmp_path, 1, 0)
    assert live.prompt() == "seat 0 to ask (before play, a player dealt a whole book lays it: 'S books')"
    live.enter("0 asks 2 A no")
    assert live.prompt() == "seat 0 draws: '0 draws', or '0 draws CARD' if it shows an A"
    live.enter("0 draws")       # a card nobody saw may complete a book
    assert live.prompt() == "seat 0 may lay a book ('0 books'); your turn: ask a player for a rank you hold"
    live.enter("1 asks 2 K no")
    assert live.prompt() == "your draw: type '1 draws CARD'"
    live = _live_at(tmp_path, 1, 18)      # seat 3 took 5C from you: it may lay a book
    assert live.prompt() == "seat 3 may lay a book ('3 books'); seat 3 to ask"
    live = _live_at(tmp_path, 1, 40)      # the 5s were booked after seat 3 took 5C
    words = live.words()
    assert {"asks", "draws", "books", "got", "no", "me", "0", "3", "7", "7H"} <= set(words)
    assert "5" not in words and "5C" not in words


# ---------------------------------------------------------------------------------- advice
_TECHNICAL = re.compile(r"\d\.?\d*e[+-]?\d|consistent deals|score|expected_cards|p_book|\bmode\b|mcmc|stderr")


def _text(render) -> str:
    buf = io.StringIO()
    render(Console(file=buf, width=120, force_terminal=False))
    return buf.getvalue()


def test_the_advice_speaks_a_card_players_words():
    rec = read_record(COMPLETE)
    view = rec.for_seat(1)
    tracker = tracker_for(Record(view.game, dict(view.options), dict(view.header), [], view.path, []), 1)
    seen = Counter()
    for i, ev in enumerate(view.events):
        tracker.observe(ev)
        if i % 9 and i != len(view.events) - 1:
            continue
        advice = hint_for(tracker)
        head = advice.headline()
        assert head.endswith(".") and "\n" not in head and advice.to_json()["headline"] == head
        live = _text(advice.render_live)
        assert live.startswith(head[:40]) and len(live.splitlines()) <= 6
        for text in (live, _text(lambda c, a=advice: a.render(c, view)), _text(advice.render_why),
                     _text(advice.render_tables)):
            assert not _TECHNICAL.search(text), text
        seen[head.split(" ")[0]] += 1
    assert seen["Ask"] and seen["Seat"] and seen["Game"]
    # seat 1 after 40 events: seat 2 is on turn; the certain ask is named with its evidence
    # (the uniform model's exact numbers: the default auto reweighs sampled deals, 4 players)
    t = tracker_for(Record(view.game, dict(view.options), dict(view.header), [], view.path, []), 1,
                    model="uniform")
    for ev in view.events[:40]:
        t.observe(ev)
    advice = hint_for(t)
    assert advice.headline() == ("Seat 2 to play; on your turn ask seat 2 for 8s: it asked for them at event 30 "
                                 "and still holds one (certain).")
    default = _text(lambda c: advice.render(c, view))
    assert "│ 2    │  27% │        · │  27% │ 100% (3) │   47% │" in default
    verbose = _text(lambda c: advice.render(c, view, verbose=True))
    assert "Consistent deals: about 17,890,000,000,000,000,000" in verbose and "0.27 (27%)" in verbose
    assert "each chance is off by less than one part in a billion (rounding)" in verbose
    why = _text(advice.render_why)
    assert "- seat 2 for 8s: hit 100%, completes a book 0%: seat 2 asked for 8s at event 30" in why
    assert "off by less than one part in a billion" in why


def test_your_draw_and_phase_two_headlines(tmp_path):
    live = _live_at(tmp_path, 1, 3)
    # the same words at a terminal (its prompt says how to type it) and in the pages (a picker)
    assert live.advice().headline() == "Your ask was refused: draw from the stock and enter the card you drew."
    o, header, full = _random_game(OPTIONS[1], 2)
    seat = 0
    tracker = tracker_for(Record(GAME, dict(o), {"observer": seat, "hand": header["hands"][seat]}, [], "x", []),
                          seat)
    heads = set()
    for ev in full.view(seat).history:
        tracker.observe(ev)
        if tracker.state.phase == 2 and not tracker.state.is_over():
            heads.add(hint_for(tracker).headline())
    assert any("for the book of" in h for h in heads)
    assert all(not _TECHNICAL.search(h) for h in heads)


def test_a_sampled_chance_says_so_and_verbose_gives_its_error():
    from cardmind.games.gofish.advice import GoFishAskHint, GoFishHint

    ask = GoFishAskHint(2, "7", 0.4321, 0.4321, 0.0, "43% chance seat 2 holds at least one 7", 0.45)
    hint = GoFishHint(observer=0, events=50, to_move=0, phase=1, players=4, ranks="23456789TJQKA",
                      consistent_deals=10 ** 18, exact=False, asks=[ask], holdings={}, books=[], sizes=[5, 5, 5, 5],
                      stock=10, mode="mcmc", stderr=0.031, hand=["7C", "2D"])
    assert hint.headline() == "Ask seat 2 for 7s: an estimated 43% chance it holds one."
    assert "│ 1 │ seat 2 for 7s │ 43% (sampled) │" in _text(lambda c: hint.render(c, None))
    assert "43% ± 3 (sampled)" in _text(lambda c: hint.render(c, None, verbose=True))
    assert "could be off by about 3.1 points (one standard error)" in " ".join(_text(hint.render_why).split())


#: a stranger's game from seat 1 (hand 2H 5C 8S 9D KC KS): after '1 draws 6D' the last 6 is
#: with seat 0 or in the stock (seats 2 and 3 refused 6s and drew nothing since); after
#: '1 asks 0 6 no' it is in the stock
_STRANGER = ["0 asks 1 K got KS", "0 asks 2 7 no", "0 draws", "1 asks 0 kings got KS", "1 asks 0 king got KH",
             "1 asks 2 5 no", "1 draws KD", "2 asks 1 2", "2 asks 3 9 got 9S", "2 asks 0 2 no", "2 draws", "3 asks 1 8",
             "3 asks 1 9", "3 asks 2 9 got 9S", "3 asks 2 9 got 9C", "3 books", "3 asks 0 8 no; 3 draws",
             "0 asks 1 5", "0 asks 3 6 no", "0 draws", "1 draws 6H", "1 asks 0 6 got 6C", "1 asks 2 6 no", "1 draws 6D",
             "1 asks 0 6 no", "1 draws 3C", "2 asks 1 3"]


def test_an_impossible_ask_is_left_out_and_no_possible_ask_is_said(tmp_path):
    live = LiveGame.new(GAME, GAME.parse_options({"players": 4}), 1, "2H 5C 8S 9D KC KS", tmp_path / "s.jsonl")
    for line in _STRANGER[:24]:
        live.enter(line)
    # the rank's name, as the advice writes it, is read as the rank
    kings = [ev for ev in live.events if ev["type"] == "ask" and ev["asker"] == 1 and ev["rank"] == "K"]
    assert [ev["given"] for ev in kings] == [["KS"], ["KH"]]
    auto = live.advice()
    assert auto.headline().startswith("Ask seat 0 for 6s: ") and "an estimated " in auto.headline()
    live.tracker.model = "uniform"    # the exact constraint-only numbers below
    advice = hint_for(live.tracker)
    hold = live.tracker.holdings()
    assert hold[2]["6"] == {0: 1.0} and hold[3]["6"] == {0: 1.0}       # exactly: no rounding left over
    assert [(a.target, a.rank) for a in advice.asks if a.rank == "6"] == [(0, "6")]
    assert all(a.probability > 0 for a in advice.asks)
    assert advice.headline() == "Ask seat 0 for 6s: 16% chance it holds one; a hit completes your book."
    text = _text(advice.render_live)
    assert "seat 2 for 6s" not in text and "<1%" not in text
    for line in _STRANGER[24:]:
        live.enter(line)
    advice = live.advice()
    assert advice.asks == [] and advice.to_json()["asks"] == []
    assert advice.headline() == ("Seat 2 to play; as things stand no ask can win you a card (nobody else can hold a "
                                 "rank you hold): an ask would be refused and you would draw.")
    assert "│ 6    │    · │ 100% (3) │    · │    · │ 100% (1) │" in _text(advice.render_tables)


def test_why_says_the_cards_a_hit_wins_in_words():
    rec = read_record(COMPLETE)
    view = rec.for_seat(1)
    t = tracker_for(Record(view.game, dict(view.options), dict(view.header), [], view.path, []), 1)
    for ev in view.events[:24]:
        t.observe(ev)
    why = " ".join(_text(hint_for(t).render_why).split())
    assert "cards won" not in why and "(a hit wins one card)" in why
    o, h, evs = _crafted(2)     # give "all": seat 2 may ask seat 0 for its 7s
    t = tracker_for(Record(GAME, dict(o), dict(h), [], "x", []), 2)
    for ev in evs:
        t.observe(ev)
    advice = hint_for(t)
    why = " ".join(_text(advice.render_why).split())
    a = next(a for a in advice.asks if (a.target, a.rank) == (0, "7"))
    assert f"on average you would win about {a.expected_cards:.1f} cards" in why, why
    assert "cards won" not in why


def test_no_ask_can_win_a_card_on_your_turn():
    from cardmind.games.gofish.advice import GoFishHint

    def hint(stock, draw_rank):
        return GoFishHint(observer=0, events=50, to_move=0, phase=1, players=3, ranks="23456789TJQKA",
                          consistent_deals=10, exact=True, asks=[], holdings={}, books=[], sizes=[2, 5, 5],
                          stock=stock, hand=["6C", "6D"], draw_rank=draw_rank)

    assert hint(12, ("6", 1 / 12)).headline() == (
        "No ask can win you a card now (nobody else can hold a rank you hold): ask for 6s anyway: it is refused "
        "and you draw, an 8% chance of a 6, which is shown and keeps your turn.")
    assert hint(0, None).headline() == ("No ask can win you a card now (nobody else can hold a rank you hold): any "
                                        "ask is refused and the turn passes.")
    full = hint(12, None)
    full.hand = ["6C", "6D", "6H", "6S"]
    assert full.headline() == "Lay down your book of 6s: you hold every suit of it."
