"""The Go Fish ``belief`` player's inference from the others' asks (setting ``infer``).

A player that remembers who asked for what asks first for a rank another player is publicly
known to hold; so when it guesses it holds none of those ranks. The ``belief`` player adds
that to its tracker as an assumption (``GoFishBelief.assume_lacks``). Against ``peer`` every
assumption must be true of the real deal (the memory it is judged from is what every seat
knows); against ``random`` it breaks, and the player must drop it and go on with the plain
tracker.
"""

from __future__ import annotations

import numpy as np
import pytest

from cardmind.games.gofish.agents.belief import GoFishBeliefAgent
from cardmind.games.gofish.agents.peer import GoFishPeerAgent
from cardmind.agents.match import play_game
from cardmind.agents.random import RandomAgent
from cardmind.games.gofish.belief import GoFishBelief
from cardmind.core import get_game
from cardmind.games.gofish import Ask

G = get_game("gofish")

OPTIONS = [
    {"players": 2},
    {"players": 2, "give": "all"},
    {"players": 2, "books_face_up": True, "phase2": True},
    {"players": 3, "ranks": 7, "suits": 4, "hand": 4},
    {"players": 4, "ranks": 6, "suits": 4, "hand": 3, "give": "all"},
]


def play(options: dict, opponent, seed: int, settings=None):
    """One game, ``belief`` at seat ``seed % players``; returns (match result, the belief agent)."""
    n = G.parse_options(options)["players"]
    me = seed % n
    made = []

    def belief(game, seat, opts, hdr):
        made.append(GoFishBeliefAgent(game, seat, opts, hdr, settings))
        return made[-1]

    facs = [belief if s == me else opponent for s in range(n)]
    m = play_game(G, options, facs, np.random.default_rng(seed),
                  [np.random.default_rng([seed, s]) for s in range(n)], max_actions=20_000)
    assert m.forfeit is None, m.forfeit_reason
    return m, made[0]


def assumptions_hold(m, agent) -> int:
    """Check every assumption of the agent's tracker against the real deal at that point;
    the number checked."""
    full = G.new_state(m.record.options, m.record.header)
    real = iter(m.record.events)
    checked = 0
    for ev in agent.tracker.events:
        if ev["type"] == "assume_lacks":
            held = {c[0] for c in full.hands[ev["player"]]}
            assert not held & set(ev["ranks"]), (ev, sorted(held))
            checked += 1
        else:
            full.apply_event(next(real))
    return checked


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_inferences_against_peer_are_true(options):
    checked = 0
    for seed in range(6):
        m, agent = play(options, GoFishPeerAgent, seed)
        assert agent.inferring, (seed, "an assumption was dropped against peer")
        checked += assumptions_hold(m, agent)
    assert checked >= 10


def test_inferences_are_dropped_against_random_and_the_tracker_rebuilt():
    dropped = 0
    for seed in range(8):
        m, agent = play({"players": 2}, RandomAgent, seed)
        assert m.result is not None
        # (a wrong assumption the events do not contradict stays: nothing shows it)
        if not agent.inferring:
            dropped += 1
            # the rebuilt tracker is the plain one: same events, same answer
            assert not any(ev["type"] == "assume_lacks" for ev in agent.tracker.events)
            plain = GoFishBelief.from_record(m.record, agent.seat)
            assert agent.tracker.events == plain.events
            if agent.tracker.exact:   # (the player's cheap draw-engine settings may sample)
                assert agent.tracker.consistent_deals == plain.consistent_deals
    assert dropped >= 6   # random guesses while holding ranks it could ask for


def test_an_inference_sharpens_the_belief():
    """Seat 0 asks for 5s (refused: seat 1 holds none); seat 1 then draws unseen, so it may
    hold a 5 now. When seat 1 next guesses (asks for a rank seat 0 is not known to hold)
    instead of asking for the 5s seat 0 is known to hold, the ``belief`` player at seat 0
    infers that seat 1 holds no 5; without ``infer`` it may; the ``peer`` player model alone
    makes it ten times less likely."""
    opts = G.parse_options({"players": 2})
    hands = [["5C", "9C", "JC", "QC", "KC", "AC"], ["2C", "3C", "4C", "6C", "7C", "8C"]]
    draws = ["TD", "3D", "TH", "6D"]          # in the order drawn
    rest = [c for c in (f"{r}{s}" for r in "23456789TJQKA" for s in "CDHS")
            if c not in hands[0] + hands[1] + draws]
    state = None
    for stock in (rest + draws[::-1], draws + rest):   # whichever end the stock is drawn from
        state = G.new_state(opts, {"hands": hands, "stock": stock})
        if state.apply_action(Ask(0, 1, "5"))[-1].get("card") == draws[0]:
            state = G.new_state(opts, {"hands": hands, "stock": stock})
            break
    # (the constraint-only tracker: the peer model, by default, infers it softly, below)
    agents = {k: GoFishBeliefAgent(G, 0, opts, {"observer": 0, "hand": hands[0]}, {"infer": k, "model": "uniform"})
              for k in (True, False)}
    agents["model"] = GoFishBeliefAgent(G, 0, opts, {"observer": 0, "hand": hands[0]}, {"infer": False})
    for action in (Ask(0, 1, "5"), Ask(1, 0, "2"), Ask(0, 1, "9"), Ask(1, 0, "4")):
        events = state.apply_action(action)
        if action.asker == 1 and action.rank == "4":
            events = events[:1]   # seat 1's refused ask (its draw follows): judge the belief here
        for ev in events:
            for a in agents.values():
                a.observe(state.redact(ev, 0))
    assert [c for c in state.hands[1] if c[0] == "5"] == []
    assert agents[True].assumed == 2   # at both of seat 1's guesses
    assert agents[True].tracker.p_holds(1, "5") == 0.0
    assert agents[False].tracker.p_holds(1, "5") > 0.02
    # the peer player model (infer off) reads the same from seat 1's guesses, as a likelihood
    assert agents["model"].tracker.model_used == "peer"
    assert agents["model"].tracker.p_holds(1, "5") < agents[False].tracker.p_holds(1, "5") / 10
    # the ranks seat 0 is not known to hold stay open
    assert agents[True].tracker.p_holds(1, "T") == pytest.approx(agents[False].tracker.p_holds(1, "T"), rel=0.2)


def test_bad_settings_are_refused_before_a_game():
    for bad, word in (({"order": "best"}, "order"), ({"sampled": "x"}, "sampled"),
                      ({"sampled_worlds": "exact"}, "sampled_worlds"), ({"search": -1}, "search"),
                      ({"infer": "yes"}, "infer")):
        with pytest.raises(ValueError, match=word):
            GoFishBeliefAgent.check_settings(bad)
    assert GoFishBeliefAgent.check_settings({"order": "ev", "infer": False})["order"] == "ev"
