"""The Literature players of issue 16: ``peer`` plays as the Canadian-Fish ``hard`` bot it
rebuilds (EV claims, the claim plan, claims only on its turn), ``belief`` reads player models
of the other seats, and neither reads a card its seat cannot see (re-dealing the unseen cards
consistently with everything it saw leaves its move unchanged)."""

from __future__ import annotations

import numpy as np
import pytest

from cardmind.games.literature.agents.belief import BeliefAgent
from cardmind.games.literature.agents.peer import PeerAgent, book_order
from cardmind.games.literature.belief import LiteratureBelief
from cardmind.games.literature.notation import Ask, Claim

from .lit_helpers import GAME, simulate

OPTIONS = GAME.parse_options({"players": 6, "deck": "48"})
HANDS = [
    ["2C", "3C", "4C", "5C", "6C", "2D", "3D", "4D"],
    ["9S", "TS", "JS", "QS", "KS", "AS", "2S", "3S"],
    ["7C", "5D", "6D", "7D", "9D", "TD", "JD", "QD"],
    ["4S", "5S", "6S", "7S", "2H", "3H", "4H", "5H"],
    ["TH", "JH", "QH", "KH", "AH", "6H", "7H", "9C"],
    ["KD", "AD", "9H", "TC", "JC", "QC", "KC", "AC"],
]


def ask(a, t, c, ok):
    return {"type": "ask", "asker": a, "target": t, "card": c, "success": ok}


def _events(exclude_seat_5: bool):
    """Seat 0 holds five low clubs and asks the opponents for 7C (refused); seats 3 and 5 take
    six hearts from seat 4, which is left with two cards. Seat 0 is then on turn."""
    evs = [ask(0, 1, "7C", False), ask(1, 0, "4S", False), ask(0, 3, "7C", False),
           ask(3, 4, "6H", True), ask(3, 4, "7H", True), ask(3, 0, "2S", False)]
    if exclude_seat_5:
        evs += [ask(0, 5, "7C", False)]
    else:
        evs += [ask(0, 5, "5D", False)]
    evs += [ask(5, 4, "TH", True), ask(5, 4, "JH", True), ask(5, 4, "QH", True), ask(5, 4, "KH", True),
            ask(5, 0, "AH", False)]
    return evs


def _peer_after(events, seat=0):
    agent = PeerAgent(GAME, seat, OPTIONS, {"observer": seat, "hand": HANDS[seat]})
    st = GAME.new_state(OPTIONS, {"hands": HANDS})
    for ev in events:
        st.apply_event(ev)
        agent.observe(ev)
    return agent, st


def test_peer_ev_claim_with_one_guess_among_teammates():
    """The bot's EV claim: five cards located on the team, the sixth possible only at teammates,
    and the plan right with probability 0.8 (seat 2: 8 free slots of the 10 of seats 2 and 4)."""
    agent, st = _peer_after(_events(exclude_seat_5=True))
    assert st.to_move() == 0
    assert agent.certain.possible["7C"] == {2, 4}
    p, a, guessed = agent.plan_claim("low-clubs", agent._free())
    assert guessed == ["7C"] and a["7C"] == 2 and p == pytest.approx(0.8)
    act = agent.act(np.random.default_rng(0))
    assert isinstance(act, Claim) and act.set == "low-clubs" and dict(act.assignment)["7C"] == 2
    st.check_action(act)
    # with a threshold above 0.8 it asks instead
    agent.settings["claim_threshold"] = 0.81
    assert isinstance(agent.act(np.random.default_rng(0)), Ask)


def test_peer_does_not_claim_when_an_opponent_may_hold_the_guess():
    """The earlier rebuild claimed whenever its estimate reached 0.8; the bot claims before
    certainty only when every possible holder of the guessed card is a teammate."""
    agent, st = _peer_after(_events(exclude_seat_5=False))
    assert 5 in agent.certain.possible["7C"]
    assert agent.ev_claim(0.0, agent._free()) is None
    act = agent.act(np.random.default_rng(0))
    assert isinstance(act, Ask)
    st.check_action(act)
    # its ranking puts a certain hit first, and ranks by the bot's score
    ranked = agent.rank_asks(st.legal_asks(0), agent._free())
    scores = [s for s, _ in ranked]
    assert scores == sorted(scores, reverse=True)
    assert all(s == round(s, 2) for s in scores)


def test_peer_claims_only_on_its_turn_and_uses_the_bots_set_order():
    agent, _ = _peer_after(_events(exclude_seat_5=True))
    assert agent.react(np.random.default_rng(0)) is None
    assert book_order("54")[:4] == ["low-clubs", "low-diamonds", "low-hearts", "low-spades"]
    assert book_order("54")[-1] == "eights"


def _redealt(rec, seat, k, rng):
    """The complete record's first ``k`` events over another deal that ``seat`` cannot tell
    apart from the true one (an exactly drawn consistent deal from its view)."""
    b = LiteratureBelief.from_record(rec, seat=seat, upto_event=k)
    deal = b.sample_deal(rng)
    cons = b.constraints()
    hands = [[] for _ in range(rec.options["players"])]
    for c, s in {**cons.known, **deal}.items():
        hands[s].append(c)
    for ev in rec.events[:k]:          # the claimed cards were where the claims showed them
        if ev["type"] == "claim":
            for c, s in ev["actual"].items():
                if c not in cons.known and c not in deal:
                    hands[s].append(c)
    return hands


@pytest.mark.parametrize("agent_cls,players", [(PeerAgent, 6), (BeliefAgent, 6), (BeliefAgent, 8)])
def test_players_do_not_read_unseen_cards(agent_cls, players):
    """Re-deal every card the seat cannot see, consistently with all it saw: its move is the same."""
    rec = simulate({"players": players}, 5, "peer")
    rng = np.random.default_rng(3)
    checked = 0
    for k in range(10, len(rec.events) - 5, 17):
        st = GAME.new_state(rec.options, rec.header)
        for ev in rec.events[:k]:
            st.apply_event(ev)
        seat = st.to_move()
        if seat is None or st.pending is not None or st.sizes[seat] == 0:
            continue
        moves = []
        for hands in (rec.header["hands"], _redealt(rec, seat, k, rng)):
            assert sorted(hands[seat]) == sorted(rec.header["hands"][seat])
            world = GAME.new_state(rec.options, {"hands": hands})
            agent = agent_cls(GAME, seat, rec.options, {"observer": seat, "hand": hands[seat]})
            for ev in rec.events[:k]:
                world.apply_event(ev)      # the same events are legal in the re-dealt world
                agent.observe(ev)
            moves.append(agent.act(np.random.default_rng(7)))
        assert moves[0] == moves[1], (k, seat)
        checked += 1
    assert checked >= 3


def test_belief_reads_which_model_fits_each_team():
    """``auto``: after a game against ``random`` players the opponents' model is ``random``;
    against ``peer``, ``peer``; its own (belief) teammates read as ``belief``."""
    for opponent in ("random", "peer"):
        rec = simulate({"players": 6}, 4, opponent)     # every seat plays `opponent`
        agent = BeliefAgent(GAME, 0, rec.options, {"observer": 0, "hand": rec.header["hands"][0]})
        for ev in rec.events[:60]:
            agent.observe(ev)
        assert agent.team_model(1) == opponent
        assert agent.tracker.seat_models[1] == opponent
    agent = BeliefAgent(GAME, 0, rec.options, {"observer": 0, "hand": rec.header["hands"][0]},
                        {"opponent_model": "uniform", "teammate_model": "people"})
    assert agent.tracker.seat_models == {1: "uniform", 2: "people", 3: "uniform", 4: "people", 5: "uniform"}
    with pytest.raises(ValueError, match="unknown Literature player model"):
        BeliefAgent(GAME, 0, rec.options, {"observer": 0, "hand": rec.header["hands"][0]}, {"opponent_model": "x"})


def test_auto_choice_scores_the_other_seats_asks_by_team():
    """:class:`AutoChoice` (the tracker's default ``auto``): before any ask, ``belief`` for the
    observer's teammates and ``peer`` for the other team; the observer's own asks are never
    scored; each team's sum is the log-softmax of its asks' card choices under each model,
    and the team's model is the largest sum."""
    from cardmind.games.literature.models import AUTO_MODELS, AutoChoice, ask_situations, load_player_model

    rec = simulate({"players": 6}, 4, "random")
    events = rec.events[:40]
    sits = ask_situations(rec.options, events)
    auto = AutoChoice(6, 0)
    assert (auto.choice(0), auto.choice(1)) == ("belief", "peer")
    auto.update(sits)
    for team in (0, 1):
        mine = [s for s in sits if s.asker % 2 == team and s.asker != 0]
        assert auto.asks[team] == len(mine) > 0
        for name in AUTO_MODELS:
            want = 0.0
            for s in mine:
                idx, _, pos = s.card_options(None)
                u = s.public[idx] @ load_player_model(name).card
                want += u[pos] - np.log(np.exp(u).sum())
            assert auto.fit[team][name] == pytest.approx(want)
        assert auto.choice(team) == max(AUTO_MODELS, key=auto.fit[team].get)
    json = auto.to_json([1, 2, 3, 4, 5])
    assert [(t["team"], t["seats"], t["teammates"]) for t in json] == [(1, [1, 3, 5], False), (0, [2, 4], True)]
    # the tracker resolves "auto" the same way, seat by seat
    tracker = LiteratureBelief(rec.options, 0, rec.header["hands"][0])
    for ev in rec.for_seat(0).events[:40]:
        tracker.observe(ev)
    assert tracker.model == "auto"
    assert tracker.seat_models == {s: auto.choice(s % 2) for s in range(1, 6)}
