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
        assert len(verbose) > len(plain)
        if advice.chances:
            assert "±" in verbose and "binomial over the 60 deals" in verbose
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
            assert re.search(r"┃ keep\s*┃", verbose) and "┃ keep" not in plain
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
        left = Counter(advice.your_cards) - Counter(c for m in advice.melds for c in m["cards"])
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
    assert a100.headline().startswith("Go out now (")
    live = live_game(view, tmp_path / "no.jsonl")
    for line in ("0 discards QD", "1 picks up C H", "1 melds 8H 8S 8C", "1 discards KS", "2 draws TH TS",
                 "2 melds 9C 9D 9H", "2 melds TC TD TH TS", "foot 5D 5D 5H 5S 6H", "2 asks to go out"):
        live.enter(line)
    assert live.advice().go_out is not None or live.advice().to_move != 2
    live.enter("no")
    advice = live.advice()
    assert advice.go_out is None and "go out" not in advice.headline().lower()
