"""Hand and Foot: the sampled deals of the advice know that ``peer`` and ``belief`` players lay
every card they can each turn (what a player holds after its discard is what it could not lay),
and that a player that could have gone out and did not is not ``peer`` (issue 24, point 2;
``docs/calibration.md``, "Hand and Foot")."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from cardmind.agents import resolve_agent
from cardmind.agents.match import play_game
from cardmind.games.handfoot.belief import HandFootBelief
from cardmind.games.handfoot.decide import MIXED, next_turn_chances
from cardmind.games.handfoot.notation import Answer, AskOut, Discard, Meld
from cardmind.games.handfoot.plan import BookNeeds, go_out_discard, would_lay
from cardmind.games.handfoot.weighing import _zone_before
from tests.hf_helpers import GAME, play
from tests.test_handfoot_next_turn import SMALL, _position
from tests.test_handfoot_rules import in_foot_again


def _laid_then(tracker, world) -> dict[int, int]:
    """Per seat of ``tracker.last_discards``: the cards its policy would have laid from what it
    held in ``world`` at its last discard, on the table as it was then."""
    lines = {ln.seat: ln for ln in tracker.structure().lines}
    needs = BookNeeds(tracker.options["books_clean"], tracker.options["books_dirty"])
    out = {}
    for s, m in sorted(tracker.last_discards.items()):
        z = _zone_before(lines[s], world["groups"][s], m.time)
        out[s] = sum(would_lay(z, m.melds, m.opened, m.in_foot, m.minimum, needs).values())
    return out


@pytest.mark.parametrize("kind", ["peer", "belief"])
def test_the_players_hold_nothing_they_would_lay_when_they_discard(kind):
    """The premise, on the true cards of seeded games: at every discard of a ``peer`` or
    ``belief`` player, :func:`would_lay` of its cards then is empty; after its draw (before it
    plays) it is not, at some turns (the check is not empty)."""
    classes = [resolve_agent(kind, GAME)] * 4
    before_play = at_discard = 0
    for seed in (1, 2):
        rec = play_game(GAME, SMALL, classes, np.random.default_rng(seed),
                        [np.random.default_rng([seed, s]) for s in range(4)]).record
        st = GAME.new_state(rec.options, rec.header)
        needs = BookNeeds(st.options["books_clean"], st.options["books_dirty"])
        for ev in rec.events:
            if ev["type"] in ("discard", "draw") and not st.forced:
                p = ev["player"]
                team = st.teams[p]
                laid = would_lay(st.zone[p], st.melds[team], st.opened[team], st.in_foot[p], st.minimum, needs)
                if ev["type"] == "discard":
                    assert not laid, (seed, p, ev, laid)
                    at_discard += 1
            st.apply_event(ev)
            if ev["type"] == "draw" and not st.forced:
                p = ev["player"]
                team = st.teams[p]
                before_play += bool(would_lay(st.zone[p], st.melds[team], st.opened[team], st.in_foot[p],
                                              st.minimum, needs))
    assert at_discard > 20 and before_play > 5


def test_no_sampled_deal_gives_a_seat_a_card_it_would_have_laid():
    """Seat 0's view of a ``peer`` game (turn 31): in the constraint-only deals the other seats
    often hold, at their last discard, cards they would have laid; in the deals the chances are
    counted over (``model_worlds``) none does, and every such deal is still a deal of the view:
    the same hidden cards in all, every group and place of the same size, every play covered."""
    _, tracker, _ = _position()
    raw, used = tracker.worlds(), tracker.model_worlds()
    assert tracker.laying_seats() == [1, 2, 3]
    assert sum(1 for w in raw if any(_laid_then(tracker, w).values())) > len(raw) / 2
    assert all(not any(_laid_then(tracker, w).values()) for w in used)
    lines = {ln.seat: ln for ln in tracker.structure().lines}

    def cards(w) -> Counter:
        out = Counter(w["stock"])
        for f in w["feet"].values():
            out.update(f)
        for gs in w["groups"].values():
            for g in gs:
                out.update(g)
        return out

    total = cards(raw[0])
    for w in used:
        assert cards(w) == total
        assert {f: sum(c.values()) for f, c in w["feet"].items()} == {f: sum(c.values()) for f, c in raw[0]["feet"].items()}
        assert sum(w["stock"].values()) == sum(raw[0]["stock"].values())
        for s, ln in lines.items():
            assert [sum(g.values()) for g in w["groups"][s]] == [size for _, size, _ in ln.groups]
            for t, _ in ln.plays:        # every play covered: the cards just after it are never negative
                z = Counter()
                for (tg, _, _), g in zip(ln.groups, w["groups"][s]):
                    if tg <= t:
                        z.update(g)
                for tp, c in ln.pickups:
                    if tp < t:
                        z.update(c)
                for tp, c in ln.plays:
                    if tp <= t:
                        z.subtract(c)
                assert min(z.values(), default=0) >= 0, (s, t)
            played, taken = ln.totals()
            held = sum((Counter(g) for g in w["groups"][s]), Counter()) + taken
            held.subtract(played)
            assert +held == w["zones"][s]


def test_the_seats_hands_are_less_meldable_and_reach_their_foot_less_often():
    """The effect at that position: the chance that each seat reaches its foot within its next
    turn, played by ``peer`` and ``belief`` over the same resampled deals, is lower once the deals
    are read for what the seats did not lay (at no seat higher, at some lower); ``uniform``
    (the constraint-only posterior) reads nothing."""
    _, tracker, _ = _position()
    ws = tracker.model_worlds()
    plain = tracker.worlds()
    lower = 0
    for s in (1, 2, 3):
        read = next_turn_chances(tracker.state, s, ws, np.random.default_rng(5), MIXED)
        unread = next_turn_chances(tracker.state, s, plain, np.random.default_rng(5), MIXED)
        assert read.foot <= unread.foot
        lower += read.foot < unread.foot
    assert lower >= 1
    tracker.model = "uniform"
    assert tracker.laying_seats() == [] and tracker.model_worlds() is tracker.worlds()


def _truth_world(s, seat: int) -> dict:
    """The true cards of ``seat``'s hidden groups in the complete state ``s`` (its dealt hand,
    then each draw and its foot, in order), as a world's ``groups``."""
    groups = [Counter(s.dealt[-1][seat])]
    for ev in s.history:
        if ev["type"] in ("draw", "foot") and ev.get("player") == seat:
            groups.append(Counter(ev["cards"]))
    return {"groups": {seat: groups}}


def test_a_seat_that_could_have_gone_out_and_did_not_is_not_played_as_peer():
    """Seat 0 is in its foot, its team holds the book going out needs and it can go out, but it
    discards without asking (as ``belief`` does when one more round is worth more). Seen from seat
    1 in the true deal, ``peer`` is ruled out (it would have asked): the deal is played by
    ``belief``. Had it asked first (told no), nothing would rule ``peer`` out."""
    s = in_foot_again()
    assert go_out_discard(s.zone[0], s.melds[0], BookNeeds(1, 0), False) is not None
    play(s, [Discard(0, "9S")])
    tracker = HandFootBelief(s.options, 1, s.dealt[-1][1])
    for ev in s.history:
        tracker.observe(s.redact(ev, 1))
    m = tracker.last_discards[0]
    assert m.in_foot and m.books_met and not m.asked and m.card == "9S"
    truth = _truth_world(s, 0)
    assert [sum(g.values()) for g in truth["groups"][0]] == [size for _, size, _ in tracker.structure().lines[0].groups]
    assert tracker.peer_excluded(truth, 0)
    assert tracker.world_policies(0, [truth] * 4, MIXED) == ["belief"] * 4
    assert tracker.world_policies(0, [truth] * 4, "random") is None
    # seat 2 discarded in its hand: nothing to read
    assert not tracker.peer_excluded({"groups": {2: [Counter()]}}, 2)
    tracker.model = "uniform"
    assert tracker.world_policies(0, [truth] * 4, MIXED) is None
    # the same discard after asking (the partner said no): not ruled out
    s2 = in_foot_again()
    play(s2, [Meld(0, ("6C",) * 3 + ("6D",) * 3 + ("6H",) * 2), AskOut(0), Answer(2, False), Discard(0, "9S")])
    tr2 = HandFootBelief(s2.options, 1, s2.dealt[-1][1])
    for ev in s2.history:
        tr2.observe(s2.redact(ev, 1))
    assert tr2.last_discards[0].asked
    assert not tr2.peer_excluded(_truth_world(s2, 0), 0)
