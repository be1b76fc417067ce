"""Hand and Foot advice in a card player's words: the default text of ``cardmind hint`` and the
live advisor's lines name no internal number and say what to do in one sentence; the numbers
stay under ``--verbose`` and in the JSON."""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from cardmind.belief import tracker_for
from cardmind.hints import hint_for
from cardmind.hints.words import Advice
from cardmind.records import Record, read_record
from tests.hf_helpers import GAME, header_with
from tests.test_handfoot_shorthand import _scene, live_game

ROOT = Path(__file__).resolve().parent.parent
SHORT = ROOT / "examples" / "handfoot-4p-short-complete.jsonl"

FORBIDDEN = re.compile(r"\b[a-z]+_[a-z_]+\b|\b(swing|keep \d+|value|deficiency|hazard|live.outs|ess|danger|"
                       r"exact belief|worlds?)\b|\b\d+(\.\d+)?e[+-]?\d+\b", re.I)
#: a chance written as a fraction (the expected counts of the belief table are decimals, rightly)
DECIMAL = re.compile(r"\b\d\.\d+\b")


def text_of(render, **kw) -> str:
    buf = io.StringIO()
    render(Console(file=buf, width=200, force_terminal=False), **kw)
    return buf.getvalue()


def advices(every: int = 17):
    """``(seat, event index, view state, advice)`` along the short example from every seat."""
    rec = read_record(SHORT)
    for seat in range(4):
        view = rec.for_seat(seat)
        tracker = tracker_for(Record(view.game, dict(view.options), dict(view.header), [], view.path, []), seat)
        last = len(view.events) - 1
        for i, ev in enumerate(view.events):
            tracker.observe(ev)
            if i % every == seat or i >= last - 1:
                yield seat, i, tracker.state.copy(), hint_for(tracker)


@pytest.fixture(scope="module")
def samples():
    return list(advices())


def test_default_text_speaks_a_players_words(samples):
    assert len(samples) > 30
    for seat, i, state, advice in samples:
        assert isinstance(advice, Advice)
        text = text_of(advice.render, record=None, show_table=True)
        m = FORBIDDEN.search(text) or DECIMAL.search(text_of(advice.render, record=None, show_table=False))
        assert m is None, f"seat {seat} event {i}: {m.group(0)!r} in\n{text}"
        lines = text.splitlines()
        head = advice.headline()
        assert lines[1] == head and head.endswith(".") and "\n" not in head
        assert not re.search(r"[.!?] [A-Z]", head), head                 # one sentence
        if advice.chances:
            assert "sampled over 60 deals" in text
        live = text_of(advice.render_live, options=3).splitlines()
        assert live[0] == head and len(live) <= 4
        assert FORBIDDEN.search("\n".join(live)) is None and DECIMAL.search("\n".join(live)) is None


def test_verbose_and_json_keep_the_numbers(samples):
    seen_exact = False
    for seat, i, state, advice in samples[::3]:
        plain = text_of(advice.render, record=None)
        verbose = text_of(advice.render, record=None, verbose=True)
        assert len(verbose) > len(plain) or advice.between       # between hands: the scores, nothing sampled
        if advice.chances:
            # over the 60 deals, or over their effective number when the players' choices weigh them
            assert "±" in verbose and re.search(r"binomial over (the 60|about \d+) deals", " ".join(verbose.split()))
        obj = advice.to_json()
        assert obj["headline"] == advice.headline()
        assert {"draw", "opening", "melds", "go_out", "answer", "discards", "chances", "kinds", "worlds", "mode",
                "consistent_deals"} <= set(obj)
        if obj["mode"] == "exact":
            assert isinstance(obj["consistent_deals"], int) and obj["consistent_deals"] > 0
            seen_exact = True
        else:
            assert obj["consistent_deals"] is None
        if obj["discards"]:
            assert all(isinstance(d["keep"], (int, float)) for d in obj["discards"])   # the keep scores: JSON only
            assert not re.search(r"keep \d", verbose)
    assert seen_exact


def test_the_headline_fits_the_moment(samples):
    heads = {(seat, i): a.headline() for seat, i, _, a in samples}
    for seat, i, state, advice in samples:
        h = heads[(seat, i)]
        me = state.observer
        if state.is_over():
            assert h.startswith("The game is over: your team")
        elif state.forced and state.forced[0]["type"] == "hand_end":
            assert h.startswith("Hand 1 is over")
        elif state.to_move() == me and state.phase == "draw":
            assert h.startswith(("Draw", "Pick up the pile"))
        elif state.forced:
            assert h == "The rules fill in the next event."          # a book or a foot: never typed
        elif state.to_move() != me:
            assert re.match(r"(Seat \d|Your partner, seat \d)", h), h


def test_the_advised_discard_is_a_card_the_advised_melds_leave(samples):
    checked = 0
    for _, _, _, advice in samples:
        rec = next((d for d in advice.discards if d["recommended"]), None)
        if rec is None:
            continue
        left = Counter(advice.your_cards) - Counter(c for m in advice.melds for c in m["cards"] + m["wilds"])
        assert left[rec["card"]] > 0
        checked += 1
    assert checked >= 3


def test_told_yes_one_more_round_costs_the_penalty_and_told_no_offers_no_going_out(tmp_path):
    rec = _scene()
    view = rec.for_seat(2)
    cut = next(i for i, e in enumerate(view.events) if e["type"] == "answer") + 1

    def advice_with(penalty: int):
        opts = dict(view.options, failed_out_penalty=penalty)
        r = Record(view.game, opts, dict(view.header, options=opts), view.events[:cut], view.path, [])
        t = tracker_for(Record(r.game, opts, dict(r.header), [], r.path, []), 2)
        for ev in r.events:
            t.observe(ev)
        return hint_for(t)

    a100, a0 = advice_with(100), advice_with(0)
    assert a100.go_out["now"] == a0.go_out["now"]
    assert a100.go_out["later"] == pytest.approx(a0.go_out["later"] - 100, abs=0.11)
    # the advice follows the numbers: with the opponents' chances of what they will do (seat 1,
    # in its foot, lacks its books: it goes out in none of the deals), one more round is worth
    # more here even after the 100 points a broken yes costs
    assert (a100.go_out["swing"] < 0) == (a100.go_out["later"] > a100.go_out["now"])
    if a100.go_out["swing"] < 0:
        assert a100.headline().startswith("Play on one more round although your partner said yes")
        assert "the 100 points a broken yes costs" in a100.headline()
    else:
        assert a100.headline().startswith("Go out now (")
        # going out ends with a discard (the seed): the melds advised leave exactly the card discarded
        assert ", then discard the " in a100.headline() or a100.headline().startswith("Go out now (discard the ")
        laid = Counter(c for m in a100.melds for c in m["cards"])
        rec_d = [d["card"] for d in a100.discards if d["recommended"]]
        assert Counter(a100.your_cards) - laid == Counter(rec_d) and len(rec_d) == 1
    live = live_game(view, tmp_path / "no.jsonl")
    for line in ("0 discards QD", "1 picks up C H", "1 melds 8H 8S 8C", "1 discards KS", "2 draws TH TS",
                 "2 melds 9C 9D 9H", "2 melds TC TD TH TS", "foot 5D 5D 5H 5S 6H", "2 asks to go out"):
        live.enter(line)
    assert live.advice().go_out is not None or live.advice().to_move != 2
    live.enter("no")
    advice = live.advice()
    assert advice.go_out is None and "go out" not in advice.headline().lower()


# ---------------------------------------------------------------------------- a stranger's findings (issue 23)
def _foot_scene():
    """Seat 1 opens with four sevens and keeps only 2C; a round later, after ``0 discards 8C``, it
    draws 8H 8S: ``(complete record, index of that draw)``. ``1 melds 8H 8S 2C`` then uses up its
    hand and takes it into its foot."""
    opts = {"hands": 1, "hand_size": 4, "minimums": "15,15,15,15"}
    h = header_with(opts, hands={0: ["4C", "5D", "6H", "8C"], 1: ["2C", "7C", "7D", "7H"],
                                 2: ["4D", "5C", "6C", "9H"], 3: ["4H", "5H", "6D", "9S"]},
                    stock_front=["KC", "KD", "7S", "TC", "JC", "JD", "JH", "JS", "QC", "QD", "8H", "8S"])
    from cardmind.games.handfoot import Discard, Draw, Meld

    st = GAME.new_state(h["options"], h)
    events = []
    for a in (Draw(0), Discard(0, "4C"), Draw(1), Meld(1, ("7C", "7D", "7H", "7S")), Discard(1, "TC"),
              Draw(2), Discard(2, "4D"), Draw(3), Discard(3, "4H"), Draw(0), Discard(0, "8C"), Draw(1)):
        events.extend(st.apply_action(a))
    assert st.zone[1] == Counter({"2C": 1, "8H": 1, "8S": 1})
    return Record(GAME, h["options"], h, events, "<foot scene>", list(range(2, len(events) + 2))), len(events) - 1


def _advice_at(rec: Record, seat: int, upto: int, **settings):
    view = rec.for_seat(seat)
    t = tracker_for(Record(view.game, dict(view.options), dict(view.header), [], view.path, []), seat, **settings)
    for ev in view.events[:upto + 1]:
        t.observe(ev)
    return t


def test_a_meld_that_uses_up_the_hand_is_advised_before_a_discard():
    rec, i = _foot_scene()
    advice = hint_for(_advice_at(rec, 1, i))
    assert advice.melds == [{"meld": "new", "cards": ["8H", "8S"], "wilds": ["2C"], "points": 40,
                             "action": {"type": "meld", "player": 1, "cards": ["8H", "8S", "2C"]}}]
    assert advice.recommend == {"type": "meld", "player": 1, "cards": ["8H", "8S", "2C"]}
    assert advice.to_foot == {"now": True, "discard": None, "points": 40}
    assert advice.discards == []                          # nothing left in the hand: the discard comes from the foot
    head = advice.headline()
    assert head.startswith("Meld 8H 8S 2C: that uses up your hand (40 points laid), so you pick up your foot"), head


def test_the_last_card_of_the_hand_discarded_brings_the_foot():
    rec, _ = _foot_scene()
    assert rec.events[3]["type"] == "meld"            # seat 1 has opened with four sevens; it holds 2C TC
    advice = hint_for(_advice_at(rec, 1, 3))
    assert advice.melds == [{"meld": 0, "cards": [], "wilds": ["2C"], "points": 20,
                             "action": {"type": "lay_off", "player": 1, "meld": 0, "cards": ["2C"]}}]
    assert advice.recommend == advice.melds[0]["action"]
    assert advice.to_foot == {"now": False, "discard": "TC", "points": 20}
    assert [d["card"] for d in advice.discards] == ["TC"] and advice.discards[0]["recommended"]
    assert advice.headline() == ("Lay 2C on your sevens, then discard the TC: that uses up your hand (20 points "
                                 "laid) and your foot is yours for your next turn."), advice.headline()


def test_a_sampled_answer_is_a_function_of_the_position_only():
    rec = read_record(SHORT)
    seat = 1
    view = rec.for_seat(seat)
    k = next(i for i in range(len(view.events) - 1, 0, -1)
             if _advice_at(rec, seat, i).mode == "sampled" and view.events[i]["type"] == "draw"
             and view.events[i]["player"] == seat)
    first, second = _advice_at(rec, seat, k), _advice_at(rec, seat, k)
    first.answer()                     # another question asked first (cardmind hint checks the record so)
    first.worlds(17)
    a, b = hint_for(first).to_json(), hint_for(second).to_json()
    for key in ("headline", "draw", "discards", "chances", "kinds", "partner_red_three"):
        assert a[key] == b[key], key


def test_between_hands_the_advice_gives_the_scores_not_the_play(tmp_path):
    rec = read_record(SHORT)
    view = rec.for_seat(1)
    end = len(view.events) - 1
    assert view.events[end]["type"] == "hand_end"
    before = hint_for(_advice_at(rec, 1, end - 1))
    assert before.headline().startswith("Hand 1 is over (seat 3 went out): type the cards the others still hold")
    text = text_of(before.render, record=None, show_table=False)
    assert before.chances == {} and "to play" not in text and "Within their next turn" not in text
    assert "the hand is over" not in text                 # no trailing note
    after = hint_for(_advice_at(rec, 1, end))
    text = text_of(after.render, record=None, show_table=False)
    assert "Hand 1: your team scored 1705 points, the other team 370." in text
    assert "Totals: your team 1705 points, the other team 370." in text
    live = text_of(after.render_live, options=3)
    assert "Hand 1: your team scored 1705 points" in live


def test_why_says_in_words_what_the_numbers_are():
    seen = 0
    for seat, i, state, advice in advices(every=23):
        advice.more = "why"
        text = " ".join(text_of(advice.render_why).split())
        assert not re.search(r"keep -?\d|\(keep|engine is|model (uniform|fitted|auto)\b", text), text
        if advice.discards and not advice.draw and not advice.between:
            assert "equally likely" in text or "weighed" in text
            seen += 1
    assert seen >= 2


def test_the_rules_name_ranks_and_cards_plainly():
    from cardmind.errors import IllegalAction
    h = header_with({"pile_min": 1}, hands={0: ["4S", "5C", "5D", "6C"], 1: ["5H", "5S", "4C", "4D"]})
    st = GAME.new_state(h["options"], h)
    from cardmind.games.handfoot import Discard, Draw, TakePile

    for a in (Draw(0), Discard(0, "4S")):
        st.apply_action(a)
    with pytest.raises(IllegalAction) as exc:
        st.check_action(TakePile(1, ("5H", "5S")))
    assert exc.value.message == "the pile is taken with a natural pair of 4s (its top card is 4S), not 5H 5S"
    from cardmind.games.handfoot.rules import check_addition, check_group

    assert check_group(["4C", "5C", "2D"]).reason == "a meld holds one natural rank, not 4s and 5s"
    assert check_addition("J", 3, 0, ["QC"]).reason == "QC is not a jack or a wild card"


def test_y_and_n_answer_yes_and_no(tmp_path):
    view = _scene().for_seat(1)
    live = live_game(view, tmp_path / "y.jsonl")
    for line in ("0 discards QD", "1 picks up", "1 melds 8H 8S 8C", "foot 7D 7H 7S KS AS", "1 discards KS",
                 "2 draws", "2 melds 9C 9D 9H", "2 melds TC TD TH TS", "2 asks to go out"):
        live.enter(line)
    assert live.preview("Y") == [{"type": "answer", "player": 0, "yes": True}]
    assert live.preview("n") == [{"type": "answer", "player": 0, "yes": False}]
    assert live.preview("0 says N") == [{"type": "answer", "player": 0, "yes": False}]


def _advice(**kw):
    from cardmind.games.handfoot.advice import HandFootHint

    base = dict(observer=1, hand=1, to_move=2, phase="draw", minimum=50, opened=True, draw=None, opening=None,
                melds=[], go_out=None, answer=None, discards=[], chances={}, partner_red_three=None, kinds={},
                worlds=60, mode="sampled", model="uniform",
                table={"partner": 3, "team": 1, "opponents": [0, 2], "turn": 2, "team_seats": [[0, 2], [1, 3]]})
    base.update(kw)
    return HandFootHint(**base)


def test_nobody_is_to_watch_under_five_percent_and_an_8_takes_an():
    low = {0: {"open": 0.0, "foot": 0.0, "out": 0.02, "opened": True},
           2: {"open": 0.0, "foot": 0.01, "out": 0.0, "opened": True}}
    head = _advice(chances=low).headline()
    assert "watch" not in head and "under 5%" in head, head
    assert "2%" not in text_of(_advice(chances=low).render_live, options=3)
    high = {0: {"open": 0.0, "foot": 0.0, "out": 0.08, "opened": True}, 2: dict(low[2])}
    assert "watch seat 0: an 8% chance it goes out within its next turn" in _advice(chances=high).headline()


def test_the_tables_say_opened_and_title_every_column():
    chances = {0: {"open": 0.0, "foot": 0.1, "out": 0.0, "opened": True},
               2: {"open": 0.0, "foot": 0.0, "out": 0.0, "opened": False},
               3: {"open": 0.0, "foot": 0.0, "out": 0.0, "opened": True}}
    discards = [{"card": "JS", "danger": 0.0, "points": 10, "keep": 0, "recommended": True}]
    a = _advice(chances=chances, discards=discards, to_move=1, phase="play", your_cards=["5C", "5D", "5H", "5S", "JS"],
                melds=[{"meld": "new", "cards": ["5C", "5D", "5H", "5S"], "wilds": []}])
    text = text_of(a.render, record=None, show_table=False)
    row = {ln.split("│")[1].strip(): ln for ln in text.splitlines() if ln.startswith("│")}
    assert "opened" in row["0"] and "opened" not in row["2"] and "0%" in row["2"]
    header = next(ln for ln in text.splitlines() if "┃ card" in ln)
    assert all(cell.strip() for cell in header.strip("┃").split("┃")), header     # every column has a title
    assert "Discards (after the melds advised)" in text


def test_the_pile_headline_says_what_its_gain_is_and_what_red_threes_cost():
    draw = {"options": [{"action": "draw", "points": 74.0, "swing": 0.0},
                        {"action": "take the pile with 8H 8S", "points": 85.0, "swing": 12.0, "red_threes": 2,
                         "more_laid": 11.0, "red_three_cost": 10.0, "hand_ends": 0.01}],
            "advice": "take the pile with 8H 8S"}
    head = _advice(draw=draw, to_move=1).headline()
    assert head.startswith("Pick up the pile with your 8H 8S: you could lay about 85 points this turn against about "
                           "74 points after a draw, worth about +12 points to your team (the points laid count for it "
                           "instead of against it, so twice the difference)"), head
    assert "2 red threes, 500 points against you each until discarded" in head and "about 10 points counted" in head


def test_the_policy_sentence_says_how_the_deals_are_read_under_a_model():
    """Under a player model the next-turn chances read the deals for what the players did not
    lay and did not go out with, and the sentence says so; under `uniform` it does not."""
    rec = read_record(ROOT / "examples" / "handfoot-4p.jsonl")
    auto = hint_for(tracker_for(rec)).policy_sentence()
    uniform = hint_for(tracker_for(rec, model="uniform")).policy_sentence()
    assert "could have gone out at its last discard and did not" in auto
    assert "nothing it would have laid at its last discard" in auto
    assert "could have gone out" not in uniform and "would have laid" not in uniform
    assert uniform.startswith("In every deal each player's next turn is played out")
