"""Contract rummy players and the shared layers: every action any agent returns is legal
(hypothesis over deals), an agent's action does not change when every card it cannot see is
re-dealt consistently with its view, the belief player's settings, a whole game through the
engine protocol (new, event, act, belief, hint), a tournament, and the adapters."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from copy import deepcopy

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardmind.adapters.codec import make_codec
from cardmind.adapters.world import TERMINAL, World
from cardmind.agents.base import resolve_agent
from cardmind.agents.match import play_game
from cardmind.core import get_game
from cardmind.games.carioca.belief import CariocaBelief

GAME = get_game("carioca")


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.permutations(["random", "peer", "belief"]))
def test_every_action_an_agent_returns_is_legal(seed, names):
    """The referee checks every action; an illegal one (a meld the checker refuses, a lay-off
    that does not fit, a card not held...) would forfeit the game."""
    classes = [resolve_agent(n, GAME) for n in names]
    res = play_game(GAME, {"players": 3, "hands": 2}, classes, np.random.default_rng(seed),
                    [np.random.default_rng([seed, s]) for s in range(3)], max_actions=3000)
    assert res.forfeit is None, res.forfeit_reason
    kinds = Counter(e["type"] for e in res.record.events)
    assert kinds["discard"] > 0


def _redeal(ref, seat: int, rng: np.random.Generator):
    """``ref`` with every card ``seat`` cannot see re-dealt from its exact posterior (the other
    hands' hidden cards and the stock order)."""
    view = ref.view(seat)
    tracker = CariocaBelief(ref.options, seat, ref.first_deal["hands"][seat], up=ref.first_deal["up"])
    for ev in view.history:
        tracker.observe(ev)
    hands, stock = tracker.sample_worlds(1, rng)[0]
    alt = ref.copy()
    for s in range(ref.players):
        if s != seat:
            alt.hands[s] = Counter(hands[s])
    alt.stock = list(stock)
    return alt, hands


@pytest.mark.parametrize("name", ["peer", "belief", "random"])
def test_an_agent_sees_only_its_view(name):
    """At decisions of seat 1, re-deal everything seat 1 cannot see (the other hands' hidden
    cards, the stock order): its action is the same."""
    cls = resolve_agent(name, GAME)
    peer = resolve_agent("peer", GAME)
    rng = np.random.default_rng(5)
    state, header = GAME.initial_state({"players": 3, "hands": 2}, rng)
    agents = [(cls if s == 1 else peer)(GAME, s, state.options, GAME.observer_header(header, s)) for s in range(3)]
    checked = changed = 0
    steps = 0
    while not state.is_over() and steps < 400:
        seat = state.to_move()
        gen = np.random.default_rng([steps, 1])
        action = agents[seat].act(deepcopy(gen))
        if seat == 1 and steps % 3 == 0:
            for k in range(2):
                alt, hands = _redeal(state, 1, np.random.default_rng([steps, k]))
                changed += sum(Counter(hands[s]) != state.hands[s] for s in (0, 2))
                saved = state
                state = alt           # the referee's state now holds the re-dealt cards
                again = agents[1].act(deepcopy(gen))
                state = saved
                assert again == action, (steps, action, again)
                checked += 1
        events = state.apply_action(action)
        for ev in events:
            for s in range(3):
                agents[s].observe(state.redact(ev, s))
        steps += 1
    assert checked >= 5 and changed > 0


def test_belief_settings_are_checked():
    cls = resolve_agent("belief", GAME)
    st_, header = GAME.initial_state({"players": 3}, np.random.default_rng(0))
    with pytest.raises(ValueError):
        cls(GAME, 0, st_.options, GAME.observer_header(header, 0), {"worlds": 0})
    with pytest.raises(ValueError):
        cls(GAME, 0, st_.options, GAME.observer_header(header, 0), {"timing": "yes"})
    with pytest.raises(ValueError):
        cls(GAME, 0, st_.options, GAME.observer_header(header, 0), {"no_such": 1})


def test_a_whole_game_through_the_engine_protocol():
    """A referee session and three player sessions (belief, peer, random) play a two-hand game
    request by request through ``cardmind engine``; the belief and hint of a player session
    answer along the way."""
    proc = subprocess.Popen([sys.executable, "-m", "cardmind", "engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)

    def ask(req: dict) -> dict:
        proc.stdin.write(json.dumps(req) + "\n")
        proc.stdin.flush()
        reply = json.loads(proc.stdout.readline())
        assert reply["ok"], reply
        return reply

    opts = {"players": 3, "hands": 2}
    try:
        hello = ask({"cmd": "hello"})
        game = next(g for g in hello["games"] if g["name"] == "carioca")
        assert game["belief"] is True and game["hint"] is True
        assert {"random", "peer", "belief"} <= {a["name"] for a in hello["agents"] if "carioca" in a["games"]}
        ref = ask({"cmd": "new", "session": "ref", "game": "carioca", "role": "referee", "seed": 9, "options": opts})
        hdr = ref["header"]
        for s, agent in enumerate(["belief", "peer", "random"]):
            ask({"cmd": "new", "session": f"p{s}", "game": "carioca", "seat": s, "hand": hdr["hands"][s],
                 "header": {"up": hdr["up"]}, "agent": agent, "seed": s, "options": opts})
        status = ask({"cmd": "status", "session": "ref"})
        n_events = hints = 0
        while not status["over"]:
            seat = status["to_move"]
            act = ask({"cmd": "act", "session": f"p{seat}"})["action"]
            applied = ask({"cmd": "apply", "session": "ref", "action": act})
            for ev in applied["events"]:
                n_events += 1
                for s in range(3):
                    mine = applied["redacted"].get(str(s), applied["events"])[applied["events"].index(ev)]
                    ask({"cmd": "event", "session": f"p{s}", "event": mine})
            status = applied
            if n_events % 40 == 1 and not status["over"]:
                b = ask({"cmd": "belief", "session": "p0"})["belief"]
                assert b["game"] == "carioca" and int(b["consistent_deals_str"]) > 0
                h = ask({"cmd": "hint", "session": "p0"})["hint"]
                assert h["game"] == "carioca" and h["observer"] == 0
                hints += 1
        assert status["result"]["detail"]["totals"] and hints >= 2
        ask({"cmd": "quit"})
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)


def test_a_tournament(tmp_path):
    out = tmp_path / "t"
    r = subprocess.run([sys.executable, "-m", "cardmind", "tournament", "carioca", "--agents", "peer,random",
                        "--options", '{"players": 3, "hands": 1}', "--games", "6", "--out", str(out), "--quiet",
                        "--json"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] >= 6 and summary["errors"] == 0
    rates = summary["agents"]
    assert rates["peer"]["games"] == rates["random"]["games"] == summary["games"]
    assert rates["peer"]["win_rate"] > rates["random"]["win_rate"]      # peer goes out, random rarely does
    assert len(list((out / "records").glob("*.jsonl"))) == summary["games"]


@pytest.mark.parametrize("options", [{"players": 3, "hands": 1}, {"players": 4, "hands": 2, "steal_penalty": 2}])
def test_codec_ids_roundtrip_and_legal(options):
    codec = make_codec("carioca", options)
    rng = np.random.default_rng(2)
    w = World(codec, max_moves=600)
    while w.is_chance():
        outs = w.chance_outcomes()
        w.apply_chance(outs[int(rng.integers(len(outs)))][0])
    assert w.state.hands[0] is not None and "seed" in w.header
    assert codec.order_from_header(w.header) == w.deal_order()
    while not w.is_over():
        seat = w.current_player()
        ids = w.legal_ids()
        assert ids and ids == sorted(set(ids))
        for a in ids:
            action = codec.decode(a, seat)
            assert action.seat == seat and codec.encode(action) == a
            w.state.check_action(action)
        # prefer going down and laying off, so that hands end
        pick = next((a for a in ids if 3 <= a < 4 or a >= codec.base_layoff), None)
        w.apply(pick if pick is not None else int(rng.choice(ids)))
    r = w.returns()
    assert abs(sum(r)) < 1e-9
    if w.current_player() == TERMINAL and not w.truncated:
        assert w.state.is_over()
    obs = w.observation(0)
    assert obs.shape == (codec.observation_size(),) and obs.max() <= len(codec.deck())
    # the resampler: a complete world with the same view of the position
    if not w.state.is_over():
        seat = w.current_player()
        r2 = codec.resample(w, seat, np.random.default_rng(1))
        assert r2.state.hands[seat] == w.state.hands[seat] and r2.state.sizes == w.state.sizes
        assert sorted(r2.legal_ids()) == sorted(w.legal_ids())


def test_openspiel_and_pettingzoo_serve_the_game():
    """OpenSpiel's own consistency checks and PettingZoo's API test on short games."""
    from .extras import require_module

    require_module("pyspiel", "openspiel")
    require_module("pettingzoo", "pettingzoo")
    import warnings

    import pyspiel
    from pettingzoo.test import api_test

    from cardmind.adapters import openspiel as osa
    from cardmind.adapters.pettingzoo import raw_env

    g = osa.load_game("carioca", {"players": 3, "hands": 1, "max_actions": 250, "truncation": "score"})
    assert g.num_distinct_actions() == g.codec.num_actions + 1 and g.max_chance_outcomes() == 108
    pyspiel.random_sim_test(g, num_sims=2, serialize=False, verbose=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(raw_env("carioca", options={"players": 3, "hands": 1}), num_cycles=150)
