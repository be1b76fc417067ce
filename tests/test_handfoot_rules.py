"""Hand and Foot rules: the shared meld cases, property tests of melds, books, pile takes,
the opening minimum and scoring, and the faults other implementations of this game are known
to have (each test names the fault it guards against)."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardmind.errors import IllegalAction, OptionError
from cardmind.games.handfoot import Answer, AskOut, Discard, Draw, LayOff, Meld, TakePile
from cardmind.games.handfoot.rules import (TableMeld, card_points, check_addition, check_group, is_wild,
                                           max_meld_points, meld_score, meldable_all, team_score)
from tests.conftest import shared_path
from tests.hf_helpers import GAME, header_with, play, state_with

FILLER = ["4C", "5D", "6H", "7S", "8C", "9D", "TH", "JS", "QC", "KD", "AH"]


# ---------------------------------------------------------------------------- the shared cases
def test_shared_meld_cases():
    data = json.loads(shared_path("cases", "melds", "handfoot.json").read_text())
    assert len(data["cases"]) >= 8
    for case in data["cases"]:
        chk = check_group(case["cards"])
        assert chk.valid == case["valid"], case
        assert chk.kind == case["as"], case
        if not chk.valid:
            assert chk.reason


# ---------------------------------------------------------------------------- melds (oracle)
TOKENS = ["4H", "4S", "4C", "KD", "3D", "3H", "3S", "2C", "2H", "RJ", "BJ"]


def oracle(cards: list[str]) -> str | None:
    """The kind of a meld written straight from rules.md (an independent reading)."""
    if len(cards) < 3 or any(c[0] == "3" for c in cards):
        return None
    wild = [c for c in cards if c in ("RJ", "BJ") or c[0] == "2"]
    nat = [c for c in cards if c not in wild]
    if not nat or len({c[0] for c in nat}) != 1 or len(nat) <= len(wild):
        return None
    return ("clean" if not wild else "dirty") + (" book" if len(cards) >= 7 else "")


@given(st.lists(st.sampled_from(TOKENS), min_size=0, max_size=9))
@settings(max_examples=400, deadline=None)
def test_meld_validity_matches_the_rules(cards):
    assert check_group(cards).kind == oracle(cards)


@given(st.lists(st.sampled_from(["RJ", "BJ", "2C", "2D"]), min_size=1, max_size=8))
def test_fault_wild_only_meld_is_refused(cards):
    assert not check_group(cards).valid


@given(st.lists(st.sampled_from(["5H", "5S", "2C", "RJ"]), min_size=2, max_size=6), st.sampled_from(["3D", "3H"]))
def test_fault_red_threes_are_never_melded(cards, three):
    assert not check_group(cards + [three]).valid
    assert not check_addition("5", 5, 0, [three]).valid


@given(st.integers(3, 12), st.integers(0, 11), st.lists(st.sampled_from(["9C", "9H", "2S", "BJ", "8D"]),
                                                         min_size=1, max_size=6))
def test_lay_off_matches_the_rules(nat, wild, cards):
    if wild >= nat:
        wild = nat - 1
    base = ["9S"] * nat + ["2C"] * wild
    expect = oracle(base + cards) is not None
    assert check_addition("9", nat, wild, cards).valid == expect


def test_book_scores_clean_or_dirty():
    clean = ["7H", "7S", "7D", "7C", "7H", "7S", "7D"]
    assert meld_score(clean) == 7 * 5 + 300
    assert meld_score(clean + ["2C"]) == 7 * 5 + 20 + 100      # a wild makes the book dirty
    assert meld_score(["7H", "7S", "2C"]) == 30                  # not a book: its cards only


# ---------------------------------------------------------------------------- max meld points
def brute_max(zone: Counter, table: list[TableMeld], keep: int) -> int:
    """The best points by trying every subset of ``zone`` and every spread of its wilds."""
    cards = list(zone.elements())
    best = 0
    for mask in range(1 << len(cards)):
        laid = [c for i, c in enumerate(cards) if mask >> i & 1]
        if len(cards) - len(laid) < keep:
            continue
        if any(c[0] == "3" for c in laid):
            continue
        nat = Counter(c[0] for c in laid if not is_wild(c))
        wilds = [c for c in laid if is_wild(c)]
        groups = [(m.rank, m.naturals + nat.get(m.rank, 0), m.wilds, True) for m in table]
        on_table = {m.rank for m in table}
        groups += [(r, k, 0, False) for r, k in nat.items() if r not in on_table]
        ok = False
        for spread in itertools.product(range(len(groups)), repeat=len(wilds)):
            extra = Counter(spread)
            if all((g[1] >= g[2] + extra[i] + 1) and (g[3] or g[1] + extra[i] >= 3) for i, g in enumerate(groups)):
                ok = True
                break
        if ok and (wilds == [] or groups):
            best = max(best, sum(card_points(c) for c in laid))
    return best


@given(st.lists(st.sampled_from(["4C", "4D", "KS", "KH", "AC", "2C", "RJ", "3H", "9S"]), min_size=0, max_size=8),
       st.sampled_from([[], [TableMeld("9", 3, 0)], [TableMeld("K", 4, 2)]]), st.integers(0, 2))
@settings(max_examples=150, deadline=None)
def test_max_meld_points_is_exact(cards, table, keep):
    zone = Counter(cards)
    assert max_meld_points(zone, table, keep) == brute_max(zone, table, keep)


@given(st.lists(st.sampled_from(["4C", "4D", "KS", "KH", "2C", "RJ", "3H", "9S"]), min_size=0, max_size=7),
       st.sampled_from([[], [TableMeld("9", 3, 0)], [TableMeld("K", 4, 2)]]))
@settings(max_examples=150, deadline=None)
def test_meldable_all_matches_brute_force(cards, table):
    zone = Counter(cards)
    total = sum(card_points(c) for c in cards)
    assert meldable_all(zone, table) == (brute_max(zone, table, 0) == total)


# ---------------------------------------------------------------------------- the opening minimum
def opening_state(kings: int, wilds: list[str]):
    """Seat 0 has drawn; it holds ``kings`` kings, ``wilds`` and three nines (so the minimum
    stays reachable after any meld of kings, and the discard decides)."""
    hand = ["KC", "KD", "KH", "KS", "KC"][:kings] + wilds + ["9C", "9D", "9H"]
    hand += FILLER[:11 - len(hand)]
    s = state_with(hands={0: hand}, stock_front=["4D", "5C"])
    s.apply_action(Draw(0))
    return s


@given(st.integers(3, 5), st.lists(st.sampled_from(["2C", "RJ", "BJ"]), max_size=2))
@settings(max_examples=60, deadline=None)
def test_fault_opening_minimum_counts_wilds_and_is_not_inverted(kings, wilds):
    """The minimum (50 in hand 1) is reached by the points laid, wild cards included: a meld at or
    above it opens, one below it does not (two faults: an inverted check, a wild's points left out)."""
    wilds = wilds[:kings - 1]
    s = opening_state(kings, wilds)
    cards = ["KC", "KD", "KH", "KS", "KC"][:kings] + wilds
    points = sum(card_points(c) for c in cards)
    s.apply_action(Meld(0, tuple(cards)))
    assert s.turn_points == points
    legal = any(isinstance(a, Discard) for a in s.legal_actions(0))
    assert legal == (points >= 50)
    if points < 50:
        with pytest.raises(IllegalAction) as e:
            s.check_action(Discard(0, "4C"))
        assert e.value.rule == "opening-minimum"
    else:
        s.check_action(Discard(0, "4C"))


def test_an_opening_short_of_the_minimum_is_refused_in_a_record():
    """Seen from another seat (who cannot check the hand), the discard after a short opening is illegal."""
    h = header_with(hands={0: ["KC", "KD", "KH"] + FILLER[:8]}, stock_front=["4D", "5C"])
    s = GAME.new_state(h["options"], h)
    s.apply_action(Draw(0))
    v = GAME.new_state(h["options"], {"observer": 1, "hand": h["hands"][1]})
    v.apply_event({"type": "draw", "player": 0, "count": 2, "cards": None})
    v.apply_event({"type": "meld", "player": 0, "cards": ["KC", "KD", "KH"]})
    with pytest.raises(IllegalAction) as e:
        v.apply_event({"type": "discard", "player": 0, "card": "4C"})
    assert e.value.rule == "opening-minimum"
    # in the referee's state the short meld itself is refused: the minimum is out of reach
    with pytest.raises(IllegalAction) as e:
        s.check_action(Meld(0, ("KC", "KD", "KH")))
    assert e.value.rule == "opening-reachable"


def test_lay_off_needs_the_team_to_have_opened():
    s = state_with(hands={0: ["KC", "KD", "KH", "RJ"] + FILLER[:7], 2: ["KS", "KS"] + FILLER[:9]})
    play(s, [Draw(0), Meld(0, ("KC", "KD", "KH", "RJ")), Discard(0, "4C")])
    play(s, [Draw(1), Discard(1, sorted(s.zone[1])[0]), Draw(2)])
    s.check_action(LayOff(2, 0, ("KS",)))          # the partner lays off on the team's meld
    assert LayOff(2, 0, ("KS",)) in s.legal_actions(2)


# ---------------------------------------------------------------------------- the discard pile
def pile_state(top: str, pair: tuple[str, str], opened: bool):
    """Seat 3 faces a pile of 7 cards topped by ``top``; it holds ``pair``; its team has opened
    (seat 1 laid aces) or not."""
    hands = {0: ["4C", "4C", "5C", "5C", "6C", "6C", "7C", "7C", "8C", "8C", "9C"],
             1: ["AC", "AD", "AH", "AS"] + ["5H", "5H", "6H", "6H", "7H", "7H", "JH"],
             2: ["4D", "4D", "5D", "5D", "6D", "6D", "7D", "7D", "8D", "8D", "9D"],
             3: list(pair) + ["4S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"]}
    front = ["QH", "QD", "QC", "QS", "JD", "JH"] * 2 + [top, "JC"]
    s = state_with(hands=hands, stock_front=front)
    acts = [Draw(0), Discard(0, "4C")]
    acts += [Draw(1), Meld(1, ("AC", "AD", "AH", "AS")), Discard(1, "JH")] if opened else [Draw(1), Discard(1, "JH")]
    acts += [Draw(2), Discard(2, "4D"), Draw(3), Discard(3, "JS"),
             Draw(0), Discard(0, "4C"), Draw(1), Discard(1, "JD"), Draw(2), Discard(2, top)]
    play(s, acts)
    assert len(s.pile) == 7 and s.pile[-1] == top and s.to_move() == 3
    return s


@given(st.sampled_from(["9H", "9D", "TH", "TS"]), st.booleans())
@settings(max_examples=20, deadline=None)
def test_fault_pile_take_allowed_with_top_card_and_pair(top, opened):
    """With 7 cards, a natural top card and a natural pair of its rank, the pile may be taken (for a
    team that has not opened, when the minimum is reachable: here 3 nines or tens and the rest)."""
    pair = (top[0] + "C", top[0] + "S")
    s = pile_state(top, pair, opened)
    takes = [a for a in s.legal_actions(3) if isinstance(a, TakePile)]
    if opened:
        assert TakePile(3, pair) in takes
    else:
        # 3 nines (30) or tens (30) + 4S 4S and the other taken cards: not 50 unless reachable
        reach = max_meld_points(s.zone[3] - Counter(pair) + Counter(s.pile_take_cards()[1:]),
                                [TableMeld(top[0], 3, 0)], 0) + 3 * card_points(top) >= 50
        assert (TakePile(3, pair) in takes) == reach
    if takes:
        before = s.sizes[3]
        evs = s.apply_action(takes[0])
        assert evs[0]["type"] == "pickup" and evs[0]["cards"][0] == top and len(evs[0]["cards"]) == 7
        team = s.teams[3]
        assert any(m.rank == top[0] and m.size >= 3 for m in s.melds[team])
        assert s.sizes[3] == before + 7 - 3 and s.known[3] == Counter(evs[0]["cards"][1:])


def test_pile_take_refused_on_a_three_a_wild_or_a_small_pile():
    s = pile_state("9H", ("9C", "9S"), True)
    s.pile[-1] = "3S"
    assert not any(isinstance(a, TakePile) for a in s.legal_actions(3))
    with pytest.raises(IllegalAction) as e:
        s.check_action(TakePile(3, ("9C", "9S")))
    assert e.value.rule == "pile-top"
    s.pile[-1] = "2C"
    assert not any(isinstance(a, TakePile) for a in s.legal_actions(3))
    s.pile[-1] = "9H"
    del s.pile[0]
    with pytest.raises(IllegalAction) as e:
        s.check_action(TakePile(3, ("9C", "9S")))
    assert e.value.rule == "pile-size"


def test_pile_min_option():
    h = header_with({"pile_min": 3})
    s = GAME.new_state(h["options"], h)
    assert s.options["pile_min"] == 3


# ---------------------------------------------------------------------------- hand, foot, going out
HAND0 = ["KC", "KC", "KC", "KC", "KD", "KD", "KD", "4C", "4C", "4C", "5H"]
FOOT0 = ["6C", "6C", "6C", "6D", "6D", "6D", "6H", "6H", "6H", "9S", "9S"]
BOOK = ("KC",) * 4 + ("KD",) * 3


def foot_state(front: list[str], **options):
    """Seat 0 holds a clean book of kings, three fours and a five; its foot can go out with the
    sixes and nines. Options: one clean book and no dirty book are enough to go out (and
    ``options``)."""
    return state_with({"books_clean": 1, "books_dirty": 0, "hands": 1, **options}, hands={0: HAND0},
                      feet={0: FOOT0}, stock_front=front)


def test_fault_shedding_the_last_hand_card_is_not_going_out():
    """Discarding the last card of the hand picks up the foot and ends the turn; the hand goes on."""
    s = foot_state(["4D", "4H"])
    evs = play(s, [Draw(0), Meld(0, BOOK), Meld(0, ("4C", "4C", "4C", "4D", "4H")), Discard(0, "5H")])
    assert [e["type"] for e in evs] == ["draw", "meld", "book", "meld", "discard", "foot"]
    assert evs[-1]["cards"] == sorted(FOOT0, key=lambda c: ("23456789TJQKA".index(c[0]), "CDHS".index(c[1])))
    assert s.in_foot[0] and s.sizes[0] == 11 and s.went_out is None and not s.is_over()
    assert s.turn == 1 and s.phase == "draw"


def test_laying_the_last_hand_card_picks_up_the_foot_and_play_goes_on():
    s = foot_state(["5D", "5S"])
    evs = play(s, [Draw(0), Meld(0, BOOK), Meld(0, ("4C", "4C", "4C")), Meld(0, ("5H", "5D", "5S"))])
    assert evs[-1]["type"] == "foot"
    assert s.in_foot[0] and s.turn == 0 and s.phase == "play" and not s.is_over()
    with pytest.raises(IllegalAction) as e:
        s.check_action(Meld(0, ("6C", "6C", "6C", "6D", "6D", "6D", "6H", "6H", "6H", "9S")))
    assert e.value.rule == "meld-invalid"
    play(s, [Discard(0, "9S")])
    assert s.turn == 1 and s.went_out is None and not s.is_over()


FRONT = ["5D", "5S", "QC", "QD", "QH", "QS", "JC", "JD", "9H", "9D"]


def in_foot_again(**options):
    """Seat 0 reached its foot (11 cards) in its first turn; everyone then played a turn; seat 0
    has drawn 9H 9D: it holds nine sixes and three nines."""
    s = foot_state(FRONT, **options)
    play(s, [Draw(0), Meld(0, BOOK), Meld(0, ("4C",) * 3), Meld(0, ("5H", "5D", "5S")), Discard(0, "9S")])
    for seat in (1, 2, 3):
        play(s, [Draw(seat), Discard(seat, sorted(s.zone[seat])[0])])
    play(s, [Draw(0)])
    assert s.in_foot[0] and s.zone[0] == Counter({"6C": 3, "6D": 3, "6H": 3, "9S": 1, "9H": 1, "9D": 1})
    return s


def test_going_out_ends_with_a_discard_after_the_partners_yes():
    """The seed: "play all of your cards and discard one": told yes, seat 0 lays all but one
    card; laying its last card is refused (keep-card), discarding it goes out (+300)."""
    s = in_foot_again()
    s.apply_action(Meld(0, ("6C",) * 3 + ("6D",) * 3 + ("6H",) * 2))    # a clean book of sixes
    with pytest.raises(IllegalAction) as e:          # without asking, keeping one card only is refused
        s.check_action(Meld(0, ("9S", "9H", "9D")))
    assert e.value.rule == "keep-card"
    play(s, [AskOut(0), Answer(2, True), Meld(0, ("9S", "9H", "9D"))])
    assert s.zone[0] == Counter({"6H": 1}) and not s.is_over()
    with pytest.raises(IllegalAction) as e:          # laying the last card is not going out
        s.check_action(LayOff(0, 3, ("6H",)))    # on the sixes
    assert e.value.rule == "keep-card" and "discard" in str(e.value) and "out_by_laying" in str(e.value)
    assert s.legal_actions(0) == [Discard(0, "6H")]
    evs = play(s, [Discard(0, "6H")])
    end = [e for e in evs if e["type"] == "hand_end"][0]
    assert end["reason"] == "out" and end["player"] == 0 and end["held"][0] == []
    assert s.pile[-1] == "6H"
    expect = sum(meld_score(m.cards) for m in s.melds[0]) + 300 - sum(
        card_points(c) for p in (0, 2) for c in end["held"][p])
    assert end["scores"][0] == expect and s.is_over()


def test_out_by_laying_house_rule_lets_the_last_card_be_laid():
    """With ``out_by_laying`` the player told yes may lay its last cards instead of discarding."""
    s = in_foot_again(out_by_laying=True)
    s.apply_action(Meld(0, ("6C",) * 3 + ("6D",) * 3 + ("6H",) * 3))
    with pytest.raises(IllegalAction) as e:          # without asking, laying the last cards is refused
        s.check_action(Meld(0, ("9S", "9H", "9D")))
    assert e.value.rule == "keep-card"
    play(s, [AskOut(0)])
    assert s.to_move() == 2 and s.legal_actions(2) == [Answer(2, True), Answer(2, False)]
    play(s, [Answer(2, True)])
    evs = play(s, [Meld(0, ("9S", "9H", "9D"))])
    end = [e for e in evs if e["type"] == "hand_end"][0]
    assert end["reason"] == "out" and end["player"] == 0 and end["held"][0] == []
    expect = sum(meld_score(m.cards) for m in s.melds[0]) + 300 - sum(
        card_points(c) for p in (0, 2) for c in end["held"][p])
    assert end["scores"][0] == expect and s.is_over()
    assert s.result().outcome[0] == s.result().outcome[2]


def test_a_no_forbids_going_out_and_a_yes_not_kept_costs_the_penalty():
    s = in_foot_again()
    play(s, [AskOut(0), Answer(2, False)])
    with pytest.raises(IllegalAction):
        s.check_action(AskOut(0))                      # one ask per turn
    play(s, [Meld(0, ("6C",) * 3 + ("6D",) * 3 + ("6H",) * 3)])
    with pytest.raises(IllegalAction) as e:
        s.check_action(Meld(0, ("9S", "9H", "9D")))
    assert e.value.rule == "keep-card"
    play(s, [Discard(0, "9S")])
    assert s.failed == [0, 0]
    for seat in (1, 2, 3):
        play(s, [Draw(seat), Discard(seat, sorted(s.zone[seat])[0])])
    play(s, [Draw(0), AskOut(0), Answer(2, True), Discard(0, sorted(s.zone[0])[0])])
    assert s.failed == [1, 0]                          # told yes, it did not go out


# ---------------------------------------------------------------------------- books
def test_fault_a_book_dirtied_by_a_wild_scores_dirty():
    hand0 = ["KC", "KC", "KC", "KC", "KD", "KD", "KD", "2C", "4C", "5D", "6H"]
    s = state_with({"hands": 1}, hands={0: hand0})
    evs = play(s, [Draw(0), Meld(0, ("KC",) * 4 + ("KD",) * 3)])
    assert evs[-1] == {"type": "book", "player": 0, "meld": 0, "clean": True}
    assert s.books(0) == (1, 0)
    play(s, [LayOff(0, 0, ("2C",))])
    assert s.books(0) == (0, 1)
    held = [[c for c in s.zone[p].elements()] + ([c for c in s.feet[p].elements()] if s.feet[p] else []) for p in range(4)]
    scores = s._hand_scores(held)
    assert scores[0] == 7 * 10 + 20 + 100 - sum(card_points(c) for p in (0, 2) for c in held[p])


def test_team_score_sums_melds_bonus_and_held_cards():
    melds = [["7H"] * 7, ["KS", "KS", "2C"]]
    assert team_score(melds, [["3H"], ["4C", "RJ"]], went_out=True) == 35 + 300 + 40 + 300 - 500 - 55
    assert team_score([], [["3S"]], False, failed_outs=2, failed_out_penalty=100) == -5 - 200


def test_new_meld_of_a_rank_waits_for_the_open_one_to_be_a_book():
    hand0 = ["KC", "KC", "KC", "KD", "KD", "KD", "4C", "4C", "5D", "6H", "7S"]
    s = state_with({"hands": 1}, hands={0: hand0})
    play(s, [Draw(0), Meld(0, ("KC", "KC", "KC", "KD"))])
    with pytest.raises(IllegalAction) as e:
        s.check_action(Meld(0, ("KD", "KD", "4C")))
    assert e.value.rule in ("meld-invalid", "meld-open")
    with pytest.raises(IllegalAction) as e:
        s.check_action(Meld(0, ("KD", "KD", "KD")))
    assert e.value.rule == "not-held" or e.value.rule == "meld-open"


# ---------------------------------------------------------------------------- whole games
SMALL = {"players": 2, "cutthroat": True, "decks": 2, "ranks": "2456", "suits": 2, "jokers": 1, "hand_size": 3,
         "minimums": [0, 0, 0, 0], "books_clean": 0, "books_dirty": 1, "pile_min": 3}


def random_game(options: dict, seed: int, max_actions: int = 20000):
    rng = np.random.default_rng(seed)
    state, header = GAME.initial_state(options, rng)
    views = [state.view(s) for s in range(state.num_seats)]
    n = 0
    draws = 0
    while not state.is_over():
        seat = state.to_move()
        acts = state.legal_actions(seat)
        assert acts, f"seat {seat} has no legal action ({state.phase})"
        assert acts == views[seat].legal_actions(seat)
        a = acts[int(rng.integers(len(acts)))]
        draws += isinstance(a, Draw)
        for ev in state.apply_action(a):
            for v in range(state.num_seats):
                views[v].apply_event(state.redact(ev, v))
        n += 1
        assert n < max_actions
    return state, header, n, draws


@given(st.integers(0, 10_000))
@settings(max_examples=25, deadline=None)
def test_fault_every_hand_ends_when_the_stock_runs_out(seed):
    """No reshuffle: a hand ends in the turn the stock's last card is drawn (or by going out), so
    a game always ends; the draws never exceed the stock of each hand."""
    state, header, n, draws = random_game(SMALL, seed)
    opts = state.options
    stock = len(header["stock"])
    for i, ends in enumerate(e for e in state.history if e["type"] == "hand_end"):
        assert ends["reason"] in ("stock", "out")
    assert draws <= opts["hands"] * stock
    assert state.is_over() and len(state.scores) == opts["hands"]


@pytest.mark.parametrize("options", [{"hands": 1}, {"players": 6, "hands": 1},
                                     {"players": 3, "cutthroat": True, "hands": 1}])
def test_random_play_is_legal_in_every_view(options):
    state, header, n, _ = random_game(options, 7)
    assert state.is_over()
    res = state.result()
    assert sum(res.outcome) > 0 and len(res.detail["totals"]) == len(set(state.teams))


def test_options_are_checked():
    with pytest.raises(OptionError):
        GAME.parse_options({"players": 5})
    with pytest.raises(OptionError):
        GAME.parse_options({"minimums": [50, 90]})
    with pytest.raises(OptionError):
        GAME.parse_options({"players": 4, "decks": 1, "hand_size": 20})
    assert GAME.parse_options({"players": 5, "cutthroat": True})["players"] == 5
    assert GAME.teams(GAME.parse_options({})) == [0, 1, 0, 1]
    assert GAME.teams(GAME.parse_options({"players": 6})) == [0, 1, 2, 0, 1, 2]
