"""Literature rules (shared/seeds/literature.txt, shared/spec/rules.md) for 6 and 8 players
and every option: the deal, legal actions, applying actions and events, the end of the game
and its result; every illegal action raises ``IllegalAction`` naming the broken rule."""

from __future__ import annotations


import numpy as np
import pytest

from cardmind.errors import IllegalAction, OptionError
from cardmind.games.literature import Ask, ChooseNext, Pass
from cardmind.games.literature.notation import make_claim
from cardmind.games.literature.rules import (deal_sizes, deck_cards, set_cards, set_names, set_of, team_of,
                                             team_seats)

from .lit_helpers import GAME, OPTION_COMBOS, complete_state, simulate


def rule_of(state, thing) -> str:
    """The rule an action (checked) or an event (applied to a copy) breaks."""
    st = state.copy()
    with pytest.raises(IllegalAction) as info:
        if isinstance(thing, dict):
            st.apply_event(dict(thing))
        else:
            st.check_action(thing)
    assert info.value.message  # a readable reason comes with the rule
    return info.value.rule


def claim(claimer, name, assignment, state=None):
    return make_claim(claimer, name, assignment, set_cards(name))


def all_at(name, seat):
    return {c: seat for c in set_cards(name)}


# ----------------------------------------------------------------------------- deal and options
@pytest.mark.parametrize("players,deck,sizes,nsets", [
    (6, "54", (9,) * 6, 9),
    (8, "54", (7, 7, 7, 7, 7, 7, 6, 6), 9),
    (6, "48", (8,) * 6, 8),
    (8, "48", (6,) * 8, 8),
])
def test_deal_sizes_and_sets(players, deck, sizes, nsets):
    assert deal_sizes(players, deck) == sizes
    assert len(set_names(deck)) == nsets
    cards = deck_cards(deck)
    assert len(cards) == 6 * nsets == sum(sizes)
    assert len(set(cards)) == len(cards)
    assert ("eights" in set_names(deck)) == (deck == "54")
    if deck == "48":
        assert not any(c[0] == "8" or c in ("RJ", "BJ") for c in cards)
    opts = GAME.parse_options({"players": players, "deck": deck})
    for seed in range(3):
        hands = GAME.deal(opts, np.random.default_rng(seed))["hands"]
        assert tuple(len(h) for h in hands) == sizes
        assert sorted(c for h in hands for c in h) == sorted(cards)
    # the deal is a shuffle: two seeds give different hands
    assert GAME.deal(opts, np.random.default_rng(1)) != GAME.deal(opts, np.random.default_rng(2))


def test_sets_and_teams():
    assert set_cards("low-clubs") == ("2C", "3C", "4C", "5C", "6C", "7C")
    assert set_cards("high-spades") == ("9S", "TS", "JS", "QS", "KS", "AS")
    assert set_cards("eights") == ("8C", "8D", "8H", "8S", "RJ", "BJ")
    assert set_of("TD") == "high-diamonds" and set_of("BJ") == "eights"
    with pytest.raises(KeyError):
        set_of("8C", "48")
    assert [team_of(s) for s in range(8)] == [0, 1] * 4
    assert team_seats(0, 6) == (0, 2, 4) and team_seats(1, 8) == (1, 3, 5, 7)


def test_options_defaults_and_validation():
    assert GAME.parse_options(None) == {"players": 6, "deck": "54", "claim_any_time": False,
                                        "ask_own_card": False, "wrong_claim": "opponents",
                                        "after_claim": "awarded_team"}
    assert GAME.parse_options({"deck": 48})["deck"] == "48"
    for bad, name in [({"players": 7}, "players"), ({"players": True}, "players"), ({"deck": "52"}, "deck"),
                      ({"wrong_claim": "void"}, "wrong_claim"), ({"after_claim": "anyone"}, "after_claim"),
                      ({"claim_any_time": "yes"}, "claim_any_time"), ({"ask_own_card": 1}, "ask_own_card"),
                      ({"jokers": 2}, "jokers")]:
        with pytest.raises(OptionError, match=name):
            GAME.parse_options(bad)


def test_new_state_checks_the_deal():
    opts = GAME.parse_options({"players": 6})
    hands = GAME.deal(opts, np.random.default_rng(0))["hands"]

    def rule(h, **extra):
        with pytest.raises(IllegalAction) as info:
            GAME.new_state(opts, {"hands": h, **extra})
        return info.value.rule, info.value.message

    short = [list(x) for x in hands]
    short[2] = short[2][:-1]
    assert rule(short)[0] == "deal" and "seat 2" in rule(short)[1]
    swapped = [list(x) for x in hands]
    swapped[0][0] = swapped[1][0]  # a card dealt twice, another missing
    assert rule(swapped)[0] == "deal"
    eight = [list(x) for x in hands]
    assert rule(eight[:5])[0] == "deal"
    opts48 = GAME.parse_options({"players": 6, "deck": "48"})
    h48 = GAME.deal(opts48, np.random.default_rng(0))["hands"]
    h48[0][0] = "8C"
    with pytest.raises(IllegalAction, match="8C"):
        GAME.new_state(opts48, {"hands": h48})
    # a player's header: only the size and cards of the observer's hand can be checked
    GAME.new_state(opts, {"observer": 3, "hand": hands[3]})
    with pytest.raises(IllegalAction):
        GAME.new_state(opts, {"observer": 3, "hand": hands[3][:8]})
    with pytest.raises(IllegalAction):
        GAME.new_state(opts, {"hands": hands, "observer": 3, "hand": hands[2]})


# ----------------------------------------------------------------------------- asking
def independent_asks(state, seat):
    """Legal asks by reading the rule text directly."""
    if state.sizes[seat] == 0 or state.turn != seat:
        return set()
    hand = state.hands[seat]
    own = state.options["ask_own_card"]
    targets = [t for t in range(state.players) if team_of(t) != team_of(seat) and state.sizes[t] > 0]
    out = set()
    for name in state.unclaimed_sets():
        if any(c in hand for c in set_cards(name)):
            for c in set_cards(name):
                if own or c not in hand:
                    out.update(Ask(seat, t, c) for t in targets)
    return out


@pytest.mark.parametrize("players", [6, 8])
def test_illegal_asks_name_their_rule(players):
    st, _ = complete_state({"players": players}, {"2C": 0, "3C": 1, "4C": 2, "9C": 3, "TC": 1, "JC": 3,
                                                   "QC": 5, "KC": 1, "AC": 3})
    assert not any(c in st.hands[0] for c in set_cards("high-clubs"))
    assert st.turn == 0
    assert set(st.legal_asks(0)) == independent_asks(st, 0)
    assert Ask(0, 1, "3C") in st.legal_asks(0)
    assert rule_of(st, Ask(1, 0, "2C")) == "turn"
    assert rule_of(st, Ask(0, 2, "4C")) == "ask-teammate"
    assert rule_of(st, Ask(0, 0, "3C")) == "ask-self"
    assert rule_of(st, Ask(0, 1, "9C")) == "ask-without-set"
    assert rule_of(st, Ask(0, 1, "2C")) == "ask-own-card"
    assert rule_of(st, Ask(0, players, "3C")) == "seat"
    st.check_action(Ask(0, 1, "3C"))  # legal: no raise
    # the same as record events
    assert rule_of(st, {"type": "ask", "asker": 0, "target": 3, "card": "9C", "success": True}) == "ask-without-set"
    assert rule_of(st, {"type": "ask", "asker": 0, "target": 3, "card": "3C", "success": True}) == "ask-result"
    assert rule_of(st, {"type": "ask", "asker": 0, "target": 1, "card": "3C", "success": False}) == "ask-result"


def test_ask_for_a_card_not_in_the_48_card_deck():
    st, _ = complete_state({"players": 6, "deck": "48"})
    assert rule_of(st, Ask(0, 1, "8C")) == "unknown-card"
    assert rule_of(st, Ask(0, 1, "RJ")) == "unknown-card"


@pytest.mark.parametrize("players", [6, 8])
def test_ask_hit_keeps_the_turn_and_a_miss_passes_it(players):
    st, _ = complete_state({"players": players}, {"2C": 0, "3C": 1, "4C": 3})
    [ev] = st.apply_action(Ask(0, 1, "3C"))
    assert ev == {"type": "ask", "asker": 0, "target": 1, "card": "3C", "success": True}
    assert st.turn == 0 and "3C" in st.hands[0] and "3C" not in st.hands[1]
    assert st.holder["3C"] == 0 and st.sizes[0] == deal_sizes(players)[0] + 1
    # the card just received may not be asked for again, and seat 1 may not ask for it either
    assert rule_of(st, Ask(0, 3, "3C")) == "ask-own-card"
    [ev] = st.apply_action(Ask(0, 1, "4C"))
    assert ev["success"] is False and st.turn == 1


def test_ask_own_card_option():
    opts = {"players": 6, "ask_own_card": True}
    fixed = {"2C": 0, "3C": 1, "4C": 2, "5C": 3, "6C": 4, "7C": 5,
             "9D": 1, "TD": 2, "JD": 3, "QD": 4, "KD": 5, "AD": 1}
    st, _ = complete_state(opts, fixed)
    assert [c for c in st.hands[0] if set_of(c) == "low-clubs"] == ["2C"]
    # asking for the one card of the set you hold is a legal bluff; it is refused
    st.check_action(Ask(0, 1, "2C"))
    assert Ask(0, 1, "2C") in st.legal_asks(0)
    assert set(st.legal_asks(0)) == independent_asks(st, 0)
    [ev] = st.copy().apply_action(Ask(0, 1, "2C"))
    assert ev["success"] is False
    # still: a card of the set must be held
    assert rule_of(st, Ask(0, 1, "9D")) == "ask-without-set"
    # without the option the same ask is illegal
    st2, _ = complete_state({"players": 6}, fixed)
    assert rule_of(st2, Ask(0, 1, "2C")) == "ask-own-card"
    assert Ask(0, 1, "2C") not in st2.legal_asks(0)


# ----------------------------------------------------------------------------- claims
TEAM0_LOW_CLUBS = {"2C": 0, "3C": 0, "4C": 2, "5C": 2, "6C": 4, "7C": 4}


def test_correct_claim_awarded_team_picks_next():
    st, _ = complete_state({"players": 6}, TEAM0_LOW_CLUBS)
    events = st.apply_action(claim(0, "low-clubs", TEAM0_LOW_CLUBS))
    assert events == [] and st.pending is not None  # team 0 must choose who plays next
    assert st.to_move() == 0  # the claimer's team picks, the claimer first
    assert rule_of(st, Ask(0, 1, "9C")) == "pending-next"
    assert rule_of(st, ChooseNext(1, 2)) == "turn"
    assert rule_of(st, ChooseNext(0, 1)) == "choose-next"
    assert {a.next for a in st.legal_actions(0)} == {0, 2, 4}
    [ev] = st.apply_action(ChooseNext(0, 4))
    assert ev["correct"] is True and ev["next"] == 4 and ev["actual"] == TEAM0_LOW_CLUBS
    assert st.turn == 4 and st.set_owner["low-clubs"] == 0 and st.team_sets == [1, 0]
    assert st.sizes[0] == 7 and not any(c in st.holder for c in set_cards("low-clubs"))
    assert rule_of(st, Ask(4, 1, "2C")) == "set-claimed"
    assert rule_of(st, claim(4, "low-clubs", TEAM0_LOW_CLUBS)) == "set-claimed"


def test_claim_event_checks():
    st, _ = complete_state({"players": 6}, TEAM0_LOW_CLUBS)
    good = {"type": "claim", "claimer": 0, "set": "low-clubs", "assignment": TEAM0_LOW_CLUBS,
            "actual": TEAM0_LOW_CLUBS, "correct": True, "next": 2}
    st.copy().apply_event(dict(good))
    assert rule_of(st, {**good, "claimer": 2}) == "turn"
    assert rule_of(st, {k: v for k, v in good.items() if k != "next"}) == "claim-next"
    assert rule_of(st, {**good, "next": 1}) == "claim-next"  # the awarded team picks among its own
    assert rule_of(st, {**good, "correct": False}) == "claim-correct"
    wrong_actual = dict(TEAM0_LOW_CLUBS, **{"2C": 2})
    assert rule_of(st, {**good, "actual": wrong_actual, "correct": False}) == "claim-actual"
    assert rule_of(st, {**good, "assignment": dict(TEAM0_LOW_CLUBS, **{"2C": 1})}) == "claim-teammates"
    assert rule_of(st, {**good, "set": "middle-clubs"}) == "claim-set"
    assert rule_of(st, claim(0, "low-clubs", dict(TEAM0_LOW_CLUBS, **{"3C": 3}))) == "claim-teammates"
    assert rule_of(st, claim(1, "low-clubs", all_at("low-clubs", 1))) == "turn"


@pytest.mark.parametrize("wrong_claim", ["opponents", "cancel"])
def test_wrong_claim_within_the_team(wrong_claim):
    """Six cards all on the claimer's team, one named at the wrong teammate: the opponents
    get the set, or under wrong_claim=cancel it is void and counts for nobody."""
    st, _ = complete_state({"players": 6, "wrong_claim": wrong_claim}, TEAM0_LOW_CLUBS)
    bad = dict(TEAM0_LOW_CLUBS, **{"2C": 2})
    st.apply_action(claim(0, "low-clubs", bad))
    if wrong_claim == "opponents":
        assert st.to_move() == 1  # team 1 picks: its first seat clockwise from the claimer
        [ev] = st.apply_action(ChooseNext(1, 5))
        assert st.set_owner["low-clubs"] == 1 and st.team_sets == [0, 1] and st.turn == 5
    else:
        assert st.to_move() == 0  # after a void claim the claimer's team picks
        assert {a.next for a in st.legal_actions(0)} == {0, 2, 4}
        [ev] = st.apply_action(ChooseNext(0, 2))
        assert "low-clubs" in st.set_owner and st.set_owner["low-clubs"] is None
        assert st.team_sets == [0, 0] and st.turn == 2
    assert ev["correct"] is False and ev["actual"] == TEAM0_LOW_CLUBS


def test_wrong_claim_with_an_opponent_card_goes_to_the_opponents_even_under_cancel():
    fixed = dict(TEAM0_LOW_CLUBS, **{"7C": 1})
    st, _ = complete_state({"players": 6, "wrong_claim": "cancel"}, fixed)
    st.apply_action(claim(0, "low-clubs", TEAM0_LOW_CLUBS))
    st.apply_action(ChooseNext(1, 1))
    assert st.set_owner["low-clubs"] == 1 and st.team_sets == [0, 1] and st.turn == 1


def test_claim_any_time():
    """Claims by a player with cards who is not on turn; no ``next``; the turn stays."""
    opts = {"players": 6, "claim_any_time": True}
    st, _ = complete_state(opts, {"2C": 1, "3C": 1, "4C": 3, "5C": 3, "6C": 5, "7C": 5})
    assert st.turn == 0 and set(st.actors()) == set(range(6))
    assert st.may_claim(3)
    c = claim(3, "low-clubs", {"2C": 1, "3C": 1, "4C": 3, "5C": 3, "6C": 5, "7C": 5})
    assert c in st.legal_actions(3)
    [ev] = st.apply_action(c)
    assert "next" not in ev and ev["correct"] is True
    assert st.turn == 0 and st.set_owner["low-clubs"] == 1
    # a claim event carrying "next" is illegal under this option
    ev2 = {"type": "claim", "claimer": 0, "set": "high-clubs", "assignment": all_at("high-clubs", 0),
           "actual": {c: st.holder[c] for c in set_cards("high-clubs")}, "correct": False, "next": 0}
    ev2["correct"] = ev2["actual"] == ev2["assignment"]
    assert rule_of(st, ev2) == "claim-next"
    # without the option, the same out-of-turn claim breaks the turn rule
    st2, _ = complete_state({"players": 6}, {"2C": 1, "3C": 1, "4C": 3, "5C": 3, "6C": 5, "7C": 5})
    assert rule_of(st2, c) == "turn" and not st2.may_claim(3) and st2.actors() == [0]


def test_claim_any_time_player_out_of_cards_cannot_claim_and_passes():
    """Seat 1 holds low-clubs and three high clubs. Seat 0 misses against seat 1; seat 3 claims
    low-clubs out of turn, seat 1 claims high-clubs on turn: seat 1 keeps the turn without
    cards, so it must pass to a teammate; it may not claim or be asked."""
    opts = {"players": 6, "claim_any_time": True}
    fixed = {c: 1 for c in set_cards("low-clubs")}
    fixed.update({"9C": 1, "TC": 1, "JC": 1, "QC": 3, "KC": 3, "AC": 5})
    st, _ = complete_state(opts, fixed)
    miss = next(a for a in st.legal_asks(0) if a.target == 1 and a.card not in st.hands[1])
    st.apply_action(miss)
    assert st.turn == 1
    [ev] = st.apply_action(claim(3, "low-clubs", all_at("low-clubs", 1)))
    assert "next" not in ev and st.turn == 1
    [ev] = st.apply_action(claim(1, "high-clubs", {c: s for c, s in fixed.items() if set_of(c) == "high-clubs"}))
    assert st.sizes[1] == 0 and st.turn == 1 and st.team_sets == [0, 2]
    assert 1 not in st.actors()[1:] and not st.may_claim(1)
    assert rule_of(st, claim(1, "low-hearts", all_at("low-hearts", 3))) == "no-cards"
    assert rule_of(st, Ask(1, 0, "2H")) == "no-cards"
    assert {p.to for p in st.legal_actions(1, claims=False)} == {3, 5}
    assert rule_of(st, Pass(1, 0)) == "pass-target"
    st.apply_action(Pass(1, 5))
    assert st.turn == 5
    # nobody may ask seat 1 now
    card = next(c for c in deck_cards() if set_of(c) not in st.set_owner and c not in st.hands[5]
                and any(set_of(x) == set_of(c) for x in st.hands[5]))
    assert rule_of(st, Ask(5, 1, card)) in ("ask-teammate",)
    st.apply_action(next(a for a in st.legal_asks(5) if a.card not in st.hands[a.target]))
    t = st.turn
    assert team_of(t) == 0
    card = next(c for c in deck_cards() if set_of(c) not in st.set_owner and c not in st.hands[t]
                and any(set_of(x) == set_of(c) for x in st.hands[t]))
    assert rule_of(st, Ask(t, 1, card)) == "ask-empty"
    assert all(a.target != 1 for a in st.legal_asks(t))


def test_out_of_cards_on_turn_must_pass():
    """after_claim=claimant: the claimant keeps the turn; out of cards it passes to a
    teammate with cards, or to an opponent when no teammate has any."""
    opts = {"players": 6, "deck": "48", "after_claim": "claimant"}
    # team 1 (seats 1, 3, 5) holds exactly the four club and diamond sets, two of each per seat
    fixed = {}
    for n in ("low-clubs", "high-clubs", "low-diamonds", "high-diamonds"):
        for i, c in enumerate(set_cards(n)):
            fixed[c] = (1, 3, 5)[i // 2]
    st, _ = complete_state(opts, fixed)
    # seat 0 misses against seat 1, which is then on turn and claims all four sets
    miss = next(a for a in st.legal_asks(0) if a.target == 1 and a.card not in st.hands[1])
    st.apply_action(miss)
    assert st.turn == 1
    for name in ("low-clubs", "high-clubs", "low-diamonds", "high-diamonds"):
        a = {c: fixed[c] for c in set_cards(name)}
        ev = {"type": "claim", "claimer": 1, "set": name, "assignment": a, "actual": a, "correct": True}
        assert rule_of(st, {**ev, "next": 3}) == "claim-next"  # the claimant keeps the turn: no next
        assert st.apply_action(claim(1, name, a)) == [ev]
        assert st.turn == 1
    assert st.team_sets == [0, 4] and all(st.sizes[s] == 0 for s in (1, 3, 5))
    assert st.turn == 1 and st.to_move() == 1
    assert rule_of(st, Ask(1, 0, "2H")) == "no-cards"
    assert rule_of(st, Pass(1, 3)) == "pass-target"  # no teammate has cards
    assert {p.to for p in st.legal_actions(1)} == {0, 2, 4}
    [ev] = st.apply_action(Pass(1, 2))
    assert ev == {"type": "pass", "from": 1, "to": 2} and st.turn == 2
    assert rule_of(st, Pass(2, 0)) == "pass-has-cards"
    # team 0 has no one to ask: only claims are left
    assert st.legal_asks(2) == [] and st.legal_actions(2, claims=False) == []
    assert st.legal_actions(2)  # claims


def test_pass_to_a_teammate_first():
    opts = {"players": 6, "after_claim": "claimant"}
    fixed = {c: 1 for c in set_cards("low-clubs")}
    fixed.update({"9C": 1, "TC": 1, "JC": 1, "QC": 3, "KC": 3, "AC": 5})
    st, _ = complete_state(opts, fixed)
    miss = next(a for a in st.legal_asks(0) if a.target == 1 and a.card not in st.hands[1])
    st.apply_action(miss)
    st.apply_action(claim(1, "low-clubs", all_at("low-clubs", 1)))
    assert st.turn == 1  # the claimant's turn continues
    st.apply_action(claim(1, "high-clubs", {c: s for c, s in fixed.items() if set_of(c) == "high-clubs"}))
    assert st.sizes[1] == 0 and st.turn == 1
    assert {p.to for p in st.legal_passes(1)} == {3, 5}
    assert rule_of(st, Pass(1, 0)) == "pass-target"
    assert rule_of(st, Pass(2, 3)) == "turn"


def test_awarded_team_without_cards_lets_the_other_team_pick():
    """A correct claim that empties the claimer's whole team: the other team picks next."""
    opts = {"players": 6, "deck": "48"}
    fixed = {}
    names = ("low-clubs", "high-clubs", "low-diamonds", "high-diamonds")
    for i, c in enumerate(c for n in names for c in set_cards(n)):
        fixed[c] = (0, 2, 4)[i // 8]
    st, _ = complete_state(opts, fixed)
    for name in names[:3]:
        events = st.apply_action(claim(st.turn, name, {c: fixed[c] for c in set_cards(name)}))
        if not events:
            cands = st.next_candidates(st.pending)
            assert all(team_of(s) == 0 and st.sizes[s] - sum(1 for x in st.pending["actual"].values() if x == s) > 0
                       for s in cands)
            st.apply_action(ChooseNext(st.to_move(), cands[-1]))
    assert st.team_sets == [3, 0] and st.turn == 4 and st.sizes[0] == st.sizes[2] == 0
    ev = {"type": "claim", "claimer": 4, "set": names[3], "assignment": {c: fixed[c] for c in set_cards(names[3])},
          "actual": {c: fixed[c] for c in set_cards(names[3])}, "correct": True}
    assert st.next_candidates(ev) == [1, 3, 5]
    assert rule_of(st, {**ev, "next": 4}) == "claim-next"
    st.apply_event({**ev, "next": 3})
    assert st.turn == 3 and st.team_sets == [4, 0]


# ----------------------------------------------------------------------------- end of the game
def test_draw_with_the_48_card_deck_and_game_over():
    """Eight wrong claims under claim_any_time, four by each team: 4 sets each, a draw."""
    opts = {"players": 6, "deck": "48", "claim_any_time": True}
    st, header = complete_state(opts)
    names = list(set_names("48"))
    assert all(len([c for c in st.hands[s] if set_of(c, "48") == n]) == 1 for s in range(6) for n in names)
    with pytest.raises(ValueError):
        st.result()
    for i, name in enumerate(names):
        claimer = 0 if i < 4 else 1
        [ev] = st.apply_action(claim(claimer, name, all_at(name, claimer)))
        assert ev["correct"] is False and "next" not in ev
    assert st.is_over() and st.to_move() is None and st.actors() == []
    assert all(st.legal_actions(s) == [] for s in range(6))
    res = st.result()
    assert res.detail["team_sets"] == [4, 4] and res.outcome == (0.5,) * 6 and res.scores == (4.0,) * 6
    assert rule_of(st, {"type": "pass", "from": 0, "to": 2}) == "game-over"


def test_last_claim_has_null_next_and_ends_the_game():
    opts = {"players": 6, "deck": "48"}
    st, _ = complete_state(opts)
    names = list(set_names("48"))
    for i, name in enumerate(names):
        seat = st.turn
        a = all_at(name, seat)
        events = st.apply_action(claim(seat, name, a))
        if not events:  # the team that picks chooses its first candidate
            chooser = st.to_move()
            nxt = st.next_candidates(st.pending)[0]
            events = st.apply_action(ChooseNext(chooser, nxt))
        assert events[0]["correct"] is False
        if i < len(names) - 1:
            assert events[0]["next"] is not None
    assert events[0]["next"] is None and st.is_over()
    # every claim was wrong, so each went to the team of the player not claiming
    res = st.result()
    assert sum(res.detail["team_sets"]) == 8 and res.detail["void_sets"] == []


def test_void_sets_in_the_result():
    """wrong_claim=cancel: low-clubs (all on team 0) and high-clubs (all on team 1) are claimed
    wrongly by their own teams and are void; the six other sets, spread over both teams, go to
    the opponents of the wrong claimer."""
    opts = {"players": 6, "deck": "48", "wrong_claim": "cancel", "claim_any_time": True}
    fixed = {}
    for i, c in enumerate(set_cards("low-clubs")):
        fixed[c] = (0, 2, 4)[i % 3]
    for i, c in enumerate(set_cards("high-clubs")):
        fixed[c] = (1, 3, 5)[i % 3]
    for name in set_names("48")[2:]:
        for i, c in enumerate(set_cards(name)):
            fixed[c] = i
    st, _ = complete_state(opts, fixed)
    [ev] = st.apply_action(claim(0, "low-clubs", all_at("low-clubs", 0)))
    assert ev["correct"] is False and st.set_owner["low-clubs"] is None and st.team_sets == [0, 0]
    for name in set_names("48")[1:]:
        [ev] = st.apply_action(claim(1, name, all_at(name, 1)))
        assert ev["correct"] is False
    res = st.result()
    assert res.detail["void_sets"] == ["low-clubs", "high-clubs"]
    assert res.detail["team_sets"] == [6, 0]
    assert res.outcome == (1.0, 0.0) * 3 and res.scores == (6.0, 0.0) * 3


# ----------------------------------------------------------------------------- simulated games
def award(options, ev) -> int | None:
    """Who gets a claimed set, read from the rule text and rules.md."""
    team = team_of(ev["claimer"])
    if ev["correct"]:
        return team
    if options["wrong_claim"] == "cancel" and all(team_of(s) == team for s in ev["actual"].values()):
        return None
    return 1 - team


GAMES = [(i, seed, agent) for i in range(len(OPTION_COMBOS)) for seed, agent in ((0, "peer"), (1, "peer"))] + \
        [(0, 0, "random"), (1, 1, "random"), (4, 0, "random"), (6, 1, "random")]


@pytest.mark.parametrize("combo,seed,agent", GAMES)
def test_simulated_game_is_legal_and_scored_by_the_rules(combo, seed, agent):
    """Replay a simulated game event by event: every event is one of the legal actions of its
    actor at that moment, claims carry ``next`` exactly when the options say so, the turn
    follows the rules, and the result is the count of sets each team was awarded."""
    rec = simulate(OPTION_COMBOS[combo], seed, agent)
    st = GAME.new_state(rec.options, rec.header)
    opts = rec.options
    has_next = not opts["claim_any_time"] and opts["after_claim"] == "awarded_team"
    won = [0, 0]
    void = []
    for ev in rec.events:
        kind = ev["type"]
        before = st.copy()
        if kind == "ask":
            assert Ask(ev["asker"], ev["target"], ev["card"]) in set(before.legal_asks(ev["asker"]))
            assert set(before.legal_asks(before.turn)) == independent_asks(before, before.turn)
            assert ev["success"] == (ev["card"] in before.hands[ev["target"]])
        elif kind == "pass":
            assert Pass(ev["from"], ev["to"]) in before.legal_passes(ev["from"])
        else:
            assert ("next" in ev) == has_next
            before.check_action(make_claim(ev["claimer"], ev["set"], ev["assignment"], set_cards(ev["set"])))
            assert ev["actual"] == {c: before.holder[c] for c in set_cards(ev["set"])}
            assert ev["correct"] == (ev["assignment"] == ev["actual"])
            if not opts["claim_any_time"]:
                assert ev["claimer"] == before.turn
            a = award(opts, ev)
            if a is None:
                void.append(ev["set"])
            else:
                won[a] += 1
        st.apply_event(ev)
        if kind == "ask":
            assert st.turn == (ev["asker"] if ev["success"] else ev["target"])
        elif kind == "claim" and not st.is_over():
            assert st.turn == (ev["next"] if has_next else before.turn)
    if rec.events and st.is_over():
        res = st.result()
        assert res.detail["team_sets"] == won and sorted(res.detail["void_sets"]) == sorted(void)
        assert won[0] + won[1] + len(void) == len(set_names(opts["deck"]))
        w = 1.0 if won[0] > won[1] else 0.5 if won[0] == won[1] else 0.0
        assert res.outcome == tuple(w if s % 2 == 0 else 1 - w for s in range(opts["players"]))
        with pytest.raises(IllegalAction) as info:
            st.apply_event({"type": "pass", "from": 0, "to": 2})
        assert info.value.rule == "game-over"


def test_simulations_cover_wrong_claims_and_out_of_turn_claims():
    """The simulated games above exercise what the option tests need: wrong claims, a void
    claim under wrong_claim=cancel, claims out of turn under claim_any_time, and passes."""
    wrong = void = out_of_turn = passes = 0
    for combo, seed, agent in GAMES:
        rec = simulate(OPTION_COMBOS[combo], seed, agent)
        st = GAME.new_state(rec.options, rec.header)
        for ev in rec.events:
            if ev["type"] == "claim":
                wrong += not ev["correct"]
                void += award(rec.options, ev) is None
                out_of_turn += ev["claimer"] != st.turn
            passes += ev["type"] == "pass"
            st.apply_event(ev)
    assert wrong >= 3 and void >= 1 and out_of_turn >= 1 and passes >= 1
