"""Hand and Foot: the chances of the table "Within their next turn" are of what a player *will*
do (its next turn played out in every sampled deal by its policy), not only of what its cards
allow (issue 24, point 2)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from cardmind.agents import resolve_agent
from cardmind.agents.match import play_game
from cardmind.games.handfoot.belief import HandFootBelief
from cardmind.games.handfoot.decide import MIXED, next_turn_chances
from cardmind.games.handfoot.plan import BookNeeds, go_out_discard
from tests.hf_helpers import GAME
from tests.test_handfoot_rules import in_foot_again

SMALL = {"hands": 1, "hand_size": 6, "minimums": "30,60,90,120", "decks": 2, "pile_min": 5}


def truth_world(state, observer: int) -> dict:
    """The true deal of a complete ``state`` as a world of ``observer``'s view."""
    return {"zones": {s: Counter(state.zone[s]) for s in range(state.players) if s != observer},
            "feet": {s: Counter(state.feet[s]) for s in range(state.players) if state.feet[s] is not None},
            "stock": Counter(state.stock)}


def test_a_player_that_can_go_out_goes_out_only_if_its_policy_does():
    """Seat 0 is in its foot, has drawn, and can go out (its team holds the book it needs and it
    can lay all its cards but one). Seen from seat 1 in the true deal: ``peer`` asks, is told yes
    and goes out in every world; ``belief`` plays on (its partner still holds cards it could lay
    and no opponent is near going out, so one more round is worth more); a random player seldom
    finds the way out."""
    s = in_foot_again()
    assert go_out_discard(s.zone[0], s.melds[0], BookNeeds(1, 0), False) is not None    # it can
    view = s.view(1)
    ws = [truth_world(s, 1)] * 12
    rng = np.random.default_rng(3)
    assert next_turn_chances(view, 0, ws, rng, "peer").out == 1.0
    assert next_turn_chances(view, 0, ws, rng, "belief").out == 0.0
    assert next_turn_chances(view, 0, ws, rng, "random").out < 0.5
    mixed = next_turn_chances(view, 0, ws, rng, MIXED)
    assert mixed.out == pytest.approx(0.5) and mixed.n == 12 and mixed.policy == MIXED


def _position(seed: int = 4):
    """A seeded small game of ``peer`` players, cut at the start of its 31st turn (seat 2's, which
    reaches its foot in most of seat 0's sampled worlds and goes out in some); the record, seat
    0's tracker there and the seat on turn."""
    classes = [resolve_agent("peer", GAME)] * 4
    mr = play_game(GAME, SMALL, classes, np.random.default_rng(seed), [np.random.default_rng([seed, s]) for s in range(4)])
    rec = mr.record
    truth = GAME.new_state(rec.options, rec.header)
    tracker = HandFootBelief(rec.options, 0, rec.header["hands"][0], worlds=12)
    starts = 0
    for ev in rec.events:
        if ev["type"] in ("draw", "pickup") and not truth.forced:
            starts += 1
            if starts == 31:
                return rec, tracker, ev["player"]
        truth.apply_event(ev)
        tracker.observe(truth.redact(ev, 0))
    raise AssertionError("the game ended early")


def _brute_force(rec, view, seat: int, world: dict, perm_rng: np.random.Generator) -> tuple[bool, bool, bool]:
    """``seat``'s next turn played by ``peer`` in ``world``, the referee's way: a complete state
    with the world's cards (the stock in the order ``perm_rng`` gives, as the rollout draws it),
    a ``peer`` agent reading that state, the outcome read from the events."""
    from cardmind.games.handfoot.agents import HandFootPeerAgent

    full = view.copy()
    full.observer = None
    full.num_hands = full.hand_no
    for s in range(view.players):
        if view.zone[s] is None:
            full.zone[s] = Counter(world["zones"][s])
        full.feet[s] = Counter(world["feet"][s]) if s in world["feet"] and not view.in_foot[s] else None
    cards = sorted(world["stock"].elements())
    full.stock = [cards[i] for i in perm_rng.permutation(len(cards))]
    full.turn, full.phase, full.turn_points, full.opening, full.asked, full.permission = seat, "draw", 0, False, False, None
    agent = HandFootPeerAgent(GAME, seat, view.options, GAME.observer_header(rec.header, seat))
    partner = HandFootPeerAgent(GAME, view.partner[seat], view.options, GAME.observer_header(rec.header, view.partner[seat]))
    agent.state = partner.state = full
    opened = foot = out = False
    was_open = full.opened[full.teams[seat]]
    while full.turn == seat and not full.hand_over:
        mover = full.to_move()
        for ev in full.apply_action((agent if mover == seat else partner).act(np.random.default_rng(0))):
            foot |= ev["type"] == "foot" and ev["player"] == seat
            out |= ev["type"] == "hand_end" and ev["reason"] == "out" and ev.get("player") == seat
    opened = not was_open and full.opened[full.teams[seat]]
    return opened, foot, out


def test_the_chances_are_the_share_of_worlds_a_brute_force_rollout_counts():
    rec, tracker, seat = _position()
    view = tracker.state
    ws = tracker.worlds()
    got = next_turn_chances(view, seat, ws, np.random.default_rng(9), "peer")
    perm = np.random.default_rng(9)
    counts = np.zeros(3)
    for w in ws:
        counts += np.array(_brute_force(rec, view, seat, w, perm), dtype=float)
    assert (got.open, got.foot, got.out) == tuple(counts / len(ws))
    assert got.n == len(ws) == 12 and seat == 2
    assert 0.5 < got.foot < 1 and 0 < got.out < got.foot      # not a trivial position


def test_the_advice_uses_the_tracker_chances_and_they_are_repeatable():
    """The tracker's ``next_turn`` (what ``cardmind hint`` shows, the risk that an opponent goes
    out first) is a function of the position: asked twice, or by a fresh tracker, the same."""
    _, tracker, seat = _position()
    a = {s: c.to_json() for s, c in tracker.next_turn().items()}
    tracker._cache.clear()
    b = {s: c.to_json() for s, c in tracker.next_turn().items()}
    assert a == b and set(a) == {1, 2, 3}
    pol = tracker.rollout_policies()
    assert set(pol) == {1, 2, 3} and set(pol.values()) <= {"random", MIXED}
    obj = tracker.to_json()
    assert obj["next_turn"] == {str(s): c for s, c in a.items()} and set(obj["next_turn_policy"]) == {"1", "2", "3"}
