"""Contract rummy melds: the shared meld cases, and property tests (hypothesis) for the faults
implementations of this family are known to have (issue 17): runs mixing suits, runs wrapping
K-A-2, all-joker sets, adjacent jokers, a joker laid off onto a meld, jokers at the ends of
runs, a joker counted wrongly in a score, an Ace valued by its place, a card counted in two
melds, the last card laid off instead of discarded. Every property is checked against a
reference written here from the rule text (``seeds/carioca.txt``), independently of
``cardmind.games.carioca.melds``.
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardmind.core import get_game
from cardmind.errors import IllegalAction
from cardmind.games.carioca.melds import (can_make, deficiency, find_contract, layoff_candidates, layoff_error,
                                          layoff_places, meld_error, meld_kind, run_values)
from cardmind.games.carioca.rules import card_points, hand_points

from .conftest import shared_path

GAME = get_game("carioca")
OPTS = GAME.parse_options(None)
SUITS = "CDHS"
RANKS = "A23456789TJQK"
JOKERS = ("RJ", "BJ")

# ---------------------------------------------------------------------------- the reference
def ref_run_ok(cards: list[str]) -> bool:
    """A run from the rule text alone: 4+ cards, one suit, no two jokers side by side, and some
    row of consecutive ranks (Ace first or last, never both, so never K-A-2) that every
    natural card matches at its place."""
    if len(cards) < 4:
        return False
    nat = [c for c in cards if c not in JOKERS]
    if len(nat) == 0 or len({c[1] for c in nat}) > 1:
        return False
    if any(a in JOKERS and b in JOKERS for a, b in zip(cards, cards[1:])):
        return False
    rows = ["A23456789TJQK", "23456789TJQKA"]   # Ace low, Ace high
    for row in rows:
        for start in range(len(row) - len(cards) + 1):
            want = row[start:start + len(cards)]
            if all(c in JOKERS or c[0] == want[i] for i, c in enumerate(cards)):
                return True
    return False


def ref_set_ok(cards: list[str]) -> bool:
    nat = [c for c in cards if c not in JOKERS]
    return len(cards) >= 3 and len(nat) >= 1 and len({c[0] for c in nat}) == 1


def ref_points(cards: list[str], joker: int = 50, ace: int = 20) -> int:
    table = {"A": ace, "T": 10, "J": 10, "Q": 10, "K": 10}
    return sum(joker if c in JOKERS else table[c[0]] if c[0] in table else int(c[0]) for c in cards)


# ---------------------------------------------------------------------------- the shared cases
def test_shared_meld_cases():
    data = json.loads(shared_path("cases", "melds", "carioca.json").read_text())
    cases = data["cases"]
    assert len(cases) >= 10
    for case in cases:
        err = meld_error(case["kind"], case["cards"])
        assert (err is None) == case["valid"], (case, err)
        if not case["valid"]:
            assert isinstance(err, str) and err      # a reason is given
        # the reference agrees with every shared case too
        ref = ref_set_ok if case["kind"] == "set" else ref_run_ok
        assert ref(case["cards"]) == case["valid"], case


# ---------------------------------------------------------------------------- strategies
naturals = st.sampled_from([r + s for r in RANKS for s in SUITS])
cards = st.one_of(naturals, naturals, naturals, st.sampled_from(JOKERS))


@st.composite
def valid_runs(draw, max_len: int = 13):
    """A valid run: a row of ranks of one suit with some places jokers (never two adjacent)."""
    suit = draw(st.sampled_from(SUITS))
    length = draw(st.integers(4, max_len))
    high = draw(st.booleans())
    row = "23456789TJQKA" if high else "A23456789TJQK"
    start = draw(st.integers(0, 13 - length))
    ranks = row[start:start + length]
    run = [r + suit for r in ranks]
    for i in range(length):
        if draw(st.integers(0, 3)) == 0 and (i == 0 or run[i - 1] not in JOKERS):
            run[i] = draw(st.sampled_from(JOKERS))
    if all(c in JOKERS for c in run):  # cannot happen (no two adjacent) but keep the strategy honest
        run[0] = ranks[0] + suit
    return run


@st.composite
def valid_sets(draw):
    rank = draw(st.sampled_from(RANKS))
    n = draw(st.integers(3, 8))
    out = [rank + draw(st.sampled_from(SUITS)) for _ in range(n)]
    for i in range(1, n):
        if draw(st.integers(0, 3)) == 0:
            out[i] = draw(st.sampled_from(JOKERS))
    return out


FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------- meld properties
@FAST
@given(st.lists(cards, min_size=0, max_size=14))
def test_any_run_matches_the_reference(cs):
    assert (meld_error("run", cs) is None) == ref_run_ok(cs)


@FAST
@given(st.lists(cards, min_size=0, max_size=10))
def test_any_set_matches_the_reference(cs):
    assert (meld_error("set", cs) is None) == ref_set_ok(cs)


@FAST
@given(valid_runs())
def test_valid_runs_are_accepted_and_a_joker_stands_for_its_place(run):
    assert meld_error("run", run) is None
    vals = run_values(run)
    assert vals == list(range(vals[0], vals[0] + len(run)))
    assert 1 <= vals[0] and vals[-1] <= 14 and not (vals[0] == 1 and vals[-1] == 14)
    assert meld_kind(run) == "run"


@FAST
@given(valid_runs(), st.data())
def test_runs_mixing_suits_are_refused(run, data):
    nat = [i for i, c in enumerate(run) if c not in JOKERS]
    i = data.draw(st.sampled_from(nat))
    other = data.draw(st.sampled_from([s for s in SUITS if s != run[i][1]]))
    bad = list(run)
    bad[i] = bad[i][0] + other
    if len([c for c in bad if c not in JOKERS]) > 1:
        assert meld_error("run", bad) is not None


@FAST
@given(st.sampled_from(SUITS), st.integers(0, 3), st.integers(4, 7), st.data())
def test_runs_wrapping_through_the_ace_are_refused(suit, i, length, data):
    """Q-K-A-2, K-A-2-3, J-Q-K-A-2-3 ...: the Ace is low or high, never both, so a row through
    K-A-2 is refused, with jokers anywhere but the Ace."""
    circle = "9TJQKA23456"
    row = circle[i:i + length]
    if "KA2" not in row:
        row = circle[3:3 + max(4, length)]          # Q K A 2 ...
    run = [r + suit for r in row]
    for k in range(len(run)):
        if data.draw(st.booleans()) and run[k][0] != "A" and (k == 0 or run[k - 1] not in JOKERS) \
                and (k + 1 == len(run) or run[k + 1] not in JOKERS):
            run[k] = "RJ"
    assert meld_error("run", run) is not None
    assert not ref_run_ok(run)


@FAST
@given(st.lists(st.sampled_from(JOKERS), min_size=1, max_size=8))
def test_all_joker_melds_are_refused(js):
    assert meld_error("set", js) is not None
    assert meld_error("run", js) is not None


@FAST
@given(valid_runs(max_len=12), st.data())
def test_adjacent_jokers_are_refused(run, data):
    i = data.draw(st.integers(0, len(run) - 2))
    bad = list(run)
    bad[i], bad[i + 1] = "RJ", "BJ"
    if any(c not in JOKERS for c in bad):
        assert meld_error("run", bad) is not None


@FAST
@given(st.sampled_from(SUITS), st.integers(4, 12), st.booleans())
def test_jokers_at_the_ends_of_runs(suit, length, at_start):
    """A joker at an end stands for the next card out; there is none past a high Ace or before
    a low Ace."""
    body = ["A23456789TJQK"[i] + suit for i in range(1, length)]     # 2.. upward, no Ace
    run = (["RJ"] + body) if at_start else (body + ["RJ"])
    vals = run_values(run)
    assert meld_error("run", run) is None
    assert (vals[0] == 1) if at_start else (vals[-1] == length + 1)
    # a high Ace then a joker, and a joker then a low Ace, are refused
    assert meld_error("run", ["JH", "QH", "KH", "AH", "RJ"]) is not None
    assert meld_error("run", ["RJ", "AH", "2H", "3H"]) is not None
    assert meld_error("run", ["RJ", "QH", "KH", "AH"]) is None


@FAST
@given(valid_runs(max_len=12), st.sampled_from(JOKERS), st.sampled_from(["start", "end"]))
def test_a_joker_laid_off_on_a_run(run, joker, at):
    """Laying a joker off keeps the run valid only where the reference says so (not beside a
    joker, not past an Ace end, not past 13 cards)."""
    new = [joker] + run if at == "start" else run + [joker]
    assert (layoff_error("run", run, joker, at) is None) == ref_run_ok(new)
    assert (at in layoff_places("run", run, joker)) == ref_run_ok(new)


@FAST
@given(valid_sets(), st.sampled_from(JOKERS), naturals)
def test_a_joker_or_card_laid_off_on_a_set(s, joker, card):
    assert layoff_error("set", s, joker, "end") is None
    assert (layoff_error("set", s, card, "end") is None) == ref_set_ok(s + [card])


ALL_TOKENS = sorted({r + s for r in RANKS for s in SUITS} | set(JOKERS))


@FAST
@given(st.one_of(valid_runs(max_len=12).map(lambda r: ("run", r)), valid_sets().map(lambda s: ("set", s))))
def test_the_lay_off_candidates_are_every_card_that_fits(meld):
    """The fast list of cards a meld takes (used to count lay-offs) is exactly what checking
    every card of the pack at both ends finds."""
    kind, cards_ = meld
    want = sorted((c, at) for c in ALL_TOKENS for at in layoff_places(kind, cards_, c))
    assert sorted(layoff_candidates(kind, cards_)) == want


# ---------------------------------------------------------------------------- points
@FAST
@given(st.lists(cards, max_size=20), st.integers(0, 200), st.integers(0, 200))
def test_points_of_a_hand(hand, joker, ace):
    opts = {**OPTS, "joker_points": joker, "ace_points": ace}
    assert hand_points(hand, opts) == ref_points(hand, joker, ace)
    for c in hand:
        if c in JOKERS:
            assert card_points(c, opts) == joker
        elif c[0] == "A":
            assert card_points(c, opts) == ace           # whatever place an Ace took in a run


def test_an_ace_scores_its_value_whatever_its_place():
    assert card_points("AH", OPTS) == 20
    assert hand_points(["AH", "AS", "AC"], OPTS) == 60
    assert hand_points(["RJ", "BJ", "KD", "TC", "2S"], OPTS) == 50 + 50 + 10 + 10 + 2


# ---------------------------------------------------------------------------- the finder
@settings(max_examples=100, deadline=None)
@given(st.lists(cards, min_size=6, max_size=14), st.sampled_from([(2, 0), (1, 1), (0, 2), (3, 0), (2, 1),
                                                                  (1, 2), (0, 3)]))
def test_every_arrangement_found_is_valid_and_uses_each_card_once(hand, contract):
    sets, runs = contract
    for melds in find_contract(hand, sets, runs, limit=5):
        kinds = Counter(m.kind for m in melds)
        assert kinds["set"] == sets and kinds["run"] == runs
        for m in melds:
            assert meld_error(m.kind, list(m.cards)) is None
            ref = ref_set_ok if m.kind == "set" else ref_run_ok
            assert ref(list(m.cards))
        used = Counter(c for m in melds for c in m.cards)
        assert not used - Counter(hand)         # no card counted in two melds
        assert sum(Counter(hand).values()) - sum(used.values()) >= 1
        assert deficiency(hand, sets, runs)[0] == 0


def brute_can_make(hand: list[str], sets: int, runs: int) -> bool:
    """Exhaustive: every choice of disjoint 3-card sets and 4-card runs from the hand (small hands)."""
    from itertools import combinations

    idx = list(range(len(hand)))
    cands = []
    for k, ok in ((3, ref_set_ok), (4, None)):
        for combo in combinations(idx, k):
            cs = [hand[i] for i in combo]
            if k == 3 and ok(cs):
                cands.append(("set", frozenset(combo)))
            if k == 4:
                from itertools import permutations
                if any(ref_run_ok(list(p)) for p in permutations(cs)):
                    cands.append(("run", frozenset(combo)))

    def rec(s: int, r: int, used: frozenset, start: int) -> bool:
        if s == 0 and r == 0:
            return len(hand) - len(used) >= 1
        for j in range(start, len(cands)):
            kind, combo = cands[j]
            if combo & used:
                continue
            if kind == "set" and s > 0 and rec(s - 1, r, used | combo, j + 1):
                return True
            if kind == "run" and r > 0 and rec(s, r - 1, used | combo, j + 1):
                return True
        return False

    return rec(sets, runs, frozenset(), 0)


small_cards = st.one_of(st.sampled_from([r + s for r in "A2345KQ" for s in "HS"]), st.sampled_from(JOKERS))


@settings(max_examples=60, deadline=None)
@given(st.lists(small_cards, min_size=7, max_size=10), st.sampled_from([(2, 0), (1, 1), (0, 2)]))
def test_the_finder_finds_a_contract_exactly_when_one_exists(hand, contract):
    assert can_make(hand, *contract) == brute_can_make(hand, *contract)


# ---------------------------------------------------------------------------- the rules checker
def _state_with(hand0: list[str], down: bool = False, table=None):
    """A complete state in the play phase of hand 1 with seat 0 holding ``hand0``."""
    rng = np.random.default_rng(0)
    st_, header = GAME.initial_state({"players": 2}, rng)
    st_.hands[0] = Counter(hand0)
    st_.sizes[0] = len(hand0)
    st_.phase, st_.offer, st_.turn = "play", None, 0
    st_.down[0] = down
    st_.table = [dict(m) for m in (table or [])]
    return st_


@FAST
@given(st.lists(naturals, min_size=2, max_size=12), st.data())
def test_a_card_counted_in_two_melds_is_refused(hand, data):
    """Going down with melds that use one card more often than the hand holds it is illegal."""
    c = data.draw(st.sampled_from(hand))
    r = c[0]
    twice = [{"kind": "set", "cards": [c, r + "C", "RJ"]}, {"kind": "set", "cards": [c, r + "D", "BJ"]}]
    hand2 = hand + [r + "C", r + "D", "RJ", "BJ", "5S"]
    st_ = _state_with(hand2)
    have = Counter(hand2)
    from cardmind.games.carioca.notation import GoDown, Meld
    action = GoDown(0, tuple(Meld(m["kind"], tuple(m["cards"])) for m in twice))
    need = Counter(x for m in twice for x in m["cards"])
    if all(have[k] >= v for k, v in need.items()):
        st_.check_action(action)
    else:
        with pytest.raises(IllegalAction) as exc:
            st_.check_action(action)
        assert exc.value.rule == "not-in-hand"


@FAST
@given(st.sampled_from(SUITS), st.integers(0, 8))
def test_the_last_card_is_discarded_not_laid_off(suit, lo):
    """A lay-off that would empty the hand is refused (rule ``last-card``); so is going down with
    every card (``keep-a-card``); discarding the last card is legal and ends the hand."""
    run = ["A23456789TJQK"[i] + suit for i in range(lo, lo + 4)]
    nxt = "A23456789TJQK"[lo + 4] + suit
    st_ = _state_with([nxt], down=True, table=[{"owner": 1, "kind": "run", "cards": run}])
    from cardmind.games.carioca.notation import Discard, GoDown, LayOff, Meld
    with pytest.raises(IllegalAction) as exc:
        st_.check_action(LayOff(0, nxt, 0, "end"))
    assert exc.value.rule == "last-card"
    assert all(not isinstance(a, LayOff) for a in st_.legal_actions(0))
    st_.check_action(Discard(0, nxt))
    events = st_.apply_action(Discard(0, nxt))
    assert events[0] == {"type": "discard", "player": 0, "card": nxt}
    assert events[1]["type"] == "hand_end" and events[1]["out"] == 0 and events[1]["scores"][0] == 0
    # going down with every card held: refused
    st2 = _state_with(["5H", "5S", "5D", "9C", "9D", "9S"])
    melds = (Meld("set", ("5H", "5S", "5D")), Meld("set", ("9C", "9D", "9S")))
    with pytest.raises(IllegalAction) as exc:
        st2.check_action(GoDown(0, melds))
    assert exc.value.rule == "keep-a-card"


def test_two_runs_in_the_same_window():
    """Two decks: two runs may use the same four places of a suit (found by Hypothesis: the
    finder laid RJ 9H TH RJ twice while the estimate said one card was missing)."""
    hand = ["AC", "9H", "9H", "TH", "TH", "RJ", "RJ", "RJ", "RJ"]
    assert find_contract(hand, 0, 2, limit=1)
    assert deficiency(hand, 0, 2)[0] == 0
    assert deficiency(["AC", "9H", "TH", "TH", "RJ", "RJ", "RJ", "RJ"], 0, 2)[0] == 1
