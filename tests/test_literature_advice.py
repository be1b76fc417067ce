"""Literature advice in a card player's words (issue 23): the headline says what the belief
player's rule does, the default text has only whole percentages and plain words, the live
lines are few and never empty, and every number is still there with ``verbose``."""

from __future__ import annotations

import io
import re
from pathlib import Path

from rich.console import Console

from cardmind.belief import tracker_for
from cardmind.hints import hint_for
from cardmind.hints.words import chance
from cardmind.records import Record, read_record

from .lit_helpers import simulate

ROOT = Path(__file__).resolve().parent.parent
SHORT = ROOT / "examples" / "literature-short-complete.jsonl"
COMPLETE = ROOT / "examples" / "literature-6p-complete.jsonl"

#: words of the numbers behind the advice that the default text must not show
INTERNAL = ("deficiency", "live_outs", "hazard", "swing", "keep 1000", "value", "p_", "rounds_saved",
            "penalty_cost", "gain", " ess", "consistent deals", "Consistent deals", "score")


def advice_along(rec, seat, every=1):
    """``(event index, advice)`` after every ``every``-th event of ``rec`` from ``seat`` (the
    constraint-only posterior, ``uniform``, whose numbers the tests below pin)."""
    view = rec.for_seat(seat) if rec.is_complete else rec
    tracker = tracker_for(Record(view.game, view.options, view.header, [], view.path, []), seat, model="uniform")
    for i, ev in enumerate(view.events):
        tracker.observe(ev)
        if i % every == 0 or i == len(view.events) - 1:
            yield i, hint_for(tracker)


def text_of(fn, *args, **kwargs) -> str:
    buf = io.StringIO()
    fn(Console(file=buf, width=200, force_terminal=False), *args, **kwargs)
    return buf.getvalue()


def expected_kind(h) -> str:
    """What the belief player's rule does on turn, from the advice's JSON numbers."""
    j = h.to_json()
    claims, asks = j["claims"], j["asks"]
    if any(c["certain"] for c in claims):
        return "Claim"
    if asks and asks[0]["probability"] >= 1:
        return "Ask"
    if not h.can_ask:
        return "Claim"
    if not asks:
        return "Claim" if claims and claims[0]["probability"] >= 0.9 else "No ask"
    if claims and claims[0]["probability"] >= 0.5 and 2 * claims[0]["probability"] - 1 >= asks[0]["probability"]:
        return "Claim"
    return "Ask"


def test_the_headline_follows_the_belief_players_rule_at_every_position():
    kinds = set()
    for path in (SHORT, COMPLETE):
        rec = read_record(path)
        for seat in (1, 4):
            for _, h in advice_along(rec, seat, every=3):
                head = h.headline()
                assert "\n" not in head and head.endswith(".") and h.to_json()["headline"] == head
                if h.to_move is None:
                    assert head.startswith("Game over: your team ")
                elif not h.your_turn:
                    mate = h.to_move % 2 == seat % 2
                    assert head.startswith(f"Seat {h.to_move} ({'your teammate' if mate else 'the other team'}) "
                                           f"is on turn"), head
                elif h.hand:
                    kind = expected_kind(h)
                    assert head.startswith(kind), (head, kind)
                    kinds.add(kind)
                    if kind == "Ask":
                        a = h.asks[0]
                        assert head.startswith(f"Ask seat {a.target} for the {a.card}: ")
                        assert a.probability >= 1 or f"it succeeds {chance(a.probability)} of the time" in head
                    if kind == "Claim":
                        c = next((c for c in h.claims if c.certain), h.claims[0])
                        assert head.startswith(f"Claim {c.set}") and chance(c.probability) in head
                        assert c.who_holds() in head
    assert kinds == {"Ask", "Claim"}


def test_headline_examples():
    rec = read_record(SHORT)
    advice = dict(advice_along(rec, 1))
    assert advice[81].headline() == "Game over: your team won 6 sets to 3."
    # after event 29 seat 1's team holds all of low-diamonds for sure, seat 0 on turn
    assert advice[28].headline() == ("Seat 0 (the other team) is on turn; your team holds all of low-diamonds for "
                                     "sure (seat 1: 4D; seat 3: 2D 3D 5D 6D 7D): claim it on your team's turn.")
    # on turn with a certain claim: claim it now
    claimed = 0
    for seat in range(6):
        for _, h in advice_along(rec, seat):
            c = next((c for c in h.claims if c.certain), None)
            if h.your_turn and c is not None:
                assert h.headline() == f"Claim {c.set} now: it succeeds 100% of the time (your team holds all six: " \
                                       f"{c.who_holds()})."
                claimed += 1
    assert claimed >= 5
    # seat 5, event 38: the claim is right 62% of the time, the best ask 27%: 2p - 1 = 0.24 < 0.27, so ask
    h = dict(advice_along(rec, 5))[37]
    assert h.headline() == ("Ask seat 2 for the 2C: it succeeds 27% of the time (5 seats can still hold it); a claim "
                            "of low-diamonds now would be right only 62% of the time.")
    player = read_record(ROOT / "examples" / "literature-6p.jsonl")
    assert hint_for(tracker_for(player)).headline() == "Ask seat 2 for the 8H: it received that card at event 26."


def test_headlines_under_options_pass_and_claim_any_time():
    """On turn without cards: whom to pass to; under claim_any_time a certain claim is advised
    at once, also off turn (checked just before each claim and each pass of the game)."""
    rec = simulate({"players": 8, "deck": "48", "claim_any_time": True}, 1, "peer")
    passes = anytime = 0
    for seat in range(8):
        view = rec.for_seat(seat)
        tracker = tracker_for(Record(view.game, view.options, view.header, [], view.path, []), seat)
        for ev in view.events:
            if ev["type"] in ("claim", "pass"):
                h = hint_for(tracker)
                if h.your_turn and not h.hand and len(h.pass_to) > 1:
                    best = max(h.pass_to, key=lambda s: (h.sizes[s], -s))
                    assert h.headline().startswith(f"Pass the turn to seat {best}: "), h.headline()
                    passes += 1
                c = next((c for c in h.claims if c.certain), None)
                if not h.your_turn and h.hand and c is not None:
                    assert h.headline().startswith(f"Claim {c.set} now (your rules let anyone claim at any time): "
                                                   f"it succeeds 100% of the time"), h.headline()
                    anytime += 1
            tracker.observe(ev)
    assert passes and anytime


def test_default_text_is_plain_and_verbose_keeps_the_numbers():
    rec = read_record(COMPLETE)
    for seat in (0, 3):
        for i, h in advice_along(rec, seat, every=20):
            text = text_of(h.render, None, show_table=True)
            for word in INTERNAL:
                assert word not in text, (i, word)
            assert not re.search(r"\d[eE][+-]?\d", text), i            # no scientific notation
            assert not re.search(r"\d\.\d+%", text), i                 # every chance a whole percent
            pcts = re.findall(r"(?:<|>)?\d+%", text)
            allowed = {chance(c.probability) for c in h.claims} | {chance(a.probability) for a in h.asks} | {"50%"}
            assert set(pcts) <= allowed, (i, set(pcts) - allowed)
            verbose = text_of(h.render, None, show_table=False, verbose=True)
            assert f"Consistent deals: {h.consistent_deals:,} (" in verbose
            for a in h.asks:
                assert a.reason in verbose and f"{100 * a.probability:.1f}%" in verbose


def test_text_points_to_advice_more_never_to_a_flag():
    """The default text names ``Advice.more`` for every number (the live advisor's 'why'), never
    ``--json`` nor another flag; the verbose text lists every claim (nothing left to ``--json``);
    counts of sets follow the plural rules."""
    rec = read_record(SHORT)
    pointed = 0
    for seat in (0, 1):
        for i, h in advice_along(rec, seat, every=3):
            h.more = "'why'"
            text = text_of(h.render, None, show_table=False)
            assert "--" not in text, (seat, i, text)
            assert not re.search(r"\b1 more sets\b", text), (seat, i)
            if "lists them" in text or "lists it" in text:
                assert re.search(r"'why' lists (them|it)\)", text), (seat, i)
                pointed += 1
            verbose = text_of(h.render, None, show_table=False, verbose=True)
            assert "--json" not in verbose and "more set" not in verbose, (seat, i)
            for c in h.claims:
                assert f"\n│ {c.set} " in verbose, (seat, i, c.set)
    assert pointed >= 5


def test_live_lines_are_few_and_never_empty_and_why_has_the_numbers():
    rec = read_record(SHORT)
    for seat in range(6):
        for i, h in advice_along(rec, seat):
            lines = text_of(h.render_live).splitlines()
            assert 1 <= len(lines) <= 4 and lines[0] == h.headline(), (seat, i, lines)
            if h.your_turn and h.asks:
                assert any(f"{chance(a.probability):>5}  ask seat {a.target} for the {a.card}: {a.plain}" in line
                           for a in h.asks[:3] for line in lines[1:])
    h = dict(advice_along(rec, 5))[37]
    why = text_of(h.render_why)
    assert why.splitlines()[0] == h.headline()
    assert "counted over more than a trillion deals" in why and f"Consistent deals: {h.consistent_deals:,}" in why
    flat = " ".join(why.split())
    assert "low-diamonds, right 62.1% of the time: on average it gains 0.24 sets" in flat
    assert ("claiming low-diamonds now gains 0.24 sets, and asking seat 2 for the 2C hits 26.9% of the time, "
            "so ask") in flat
    _why_in_words(why)


def _why_in_words(why: str) -> None:
    """The reasons of 'why' (before the verbose advice) say chances in percent and sets in
    words: no formula, no bare decimal compared with a chance, no count written as a float."""
    reasons = why.split("\n\n")[0]
    assert "2p" not in reasons and not re.search(r"against -?\d\.\d", reasons), reasons
    assert not re.search(r"(?<![\d.])\d+\.0 (assignments|ways)", reasons), reasons
    assert not re.search(r"[-+]\d\.\d\d sets", reasons), reasons


def test_why_in_words_under_a_player_model_with_eight_players():
    """The stranger's case (8 players, claim_any_time, the people model): the likeliest claim
    loses a set on average, said in words; the equally likely ways are a whole number."""
    from cardmind.games.literature.belief import LiteratureBelief

    low_clubs = "2C 3C 4C 5C 6C 7C".split()
    for model in ("uniform", "people"):
        tracker = LiteratureBelief({"players": 8, "claim_any_time": True}, 3, low_clubs + ["9S"], model=model)
        tracker.observe({"type": "ask", "asker": 0, "target": 1, "card": "9S", "success": False})
        tracker.observe({"type": "claim", "claimer": 3, "set": "low-clubs", "assignment": dict.fromkeys(low_clubs, 3),
                         "actual": dict.fromkeys(low_clubs, 3), "correct": True})
        h = hint_for(tracker)
        assert all(isinstance(c.ties, int) for c in h.claims), model
        assert h.claims[0].ties == 210   # the same under both: the one ask does not tell seats 1, 5 and 7 apart
        why = " ".join(text_of(h.render_why).split())
        _why_in_words(text_of(h.render_why))
        assert "right <0.1% of the time: on average it loses 1 set (your team holds all six" in why, model
        assert "210 ways of saying who holds which card are equally likely" in why, model
        assert "now loses 1 set, and asking seat 0 for the AS hits" in why and ", so ask" in why, model

