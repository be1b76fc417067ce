"""The fast engine path (cardmind.games.literature.fast) plays the same games as play_game.

* every game is event for event the game ``play_game`` plays between ``random`` agents from
  the same seeds (so its statistics are those of ``play_game``, exactly);
* its records are legal: they replay through ``LiteratureState``;
* every seat's knowledge (``LaneKnowledge``) equals ``CertainKnowledge`` after every event;
* its draws equal ``Generator.integers``.
"""

from __future__ import annotations

import numpy as np
import pytest

from cardmind.agents.base import resolve_agent
from cardmind.agents.match import play_game
from cardmind.games.literature.certain import CertainKnowledge, deck_tables
from cardmind.core import get_game
from cardmind.games.literature.fast import FastGame, _Draws, play_random, play_random_seeded
from cardmind.games.literature.fast_certain import LaneKnowledge

from .lit_helpers import OPTION_COMBOS

GAME = get_game("literature")

COMBOS = OPTION_COMBOS + (
    {"players": 6, "claim_any_time": True, "wrong_claim": "cancel"},
    {"players": 8, "deck": "48", "wrong_claim": "cancel"},
)
IDS = [",".join(f"{k}={v}" for k, v in o.items()) for o in COMBOS]


def _reference(options: dict, seed: int, max_actions: int):
    n = options["players"]
    cls = resolve_agent("random", GAME)
    return play_game(GAME, options, [cls] * n, np.random.default_rng(seed),
                     [np.random.default_rng([seed, s]) for s in range(n)], max_actions=max_actions)


@pytest.mark.parametrize("options", COMBOS, ids=IDS)
def test_same_games_as_play_game(options):
    for seed in (0, 1, 2):
        ref = _reference(options, seed, 1500)
        fast = play_random_seeded(options, seed, max_actions=1500, record=True)
        where = f"seed {seed}"
        assert fast.hands == ref.record.header["hands"], where
        assert fast.num_events == len(fast.events) == len(ref.record.events), where
        for k, (a, b) in enumerate(zip(fast.events, ref.record.events)):
            assert a == b, f"{where} event {k}"
        assert fast.actions == ref.actions, where
        assert fast.unfinished == bool(ref.unfinished), where
        if ref.result is None:
            assert fast.team_sets is None
        else:
            assert list(fast.team_sets) == ref.result.detail["team_sets"], where
            assert fast.void_sets == ref.result.detail["void_sets"], where
            assert fast.outcome == (ref.result.outcome[0], ref.result.outcome[1]), where
        claims = [e for e in ref.record.events if e["type"] == "claim"]
        assert fast.claims == len(claims)
        assert fast.wrong_claims == sum(not e["correct"] for e in claims)


def test_statistics_match_play_game():
    """Game lengths and claim counts of 40 default 6-player games, both ways."""
    fast = [play_random_seeded({"players": 6}, seed) for seed in range(100, 140)]
    ref = [_reference({"players": 6}, seed, 100_000) for seed in range(100, 140)]
    assert [g.num_events for g in fast] == [len(r.record.events) for r in ref]
    assert [g.claims for g in fast] == [sum(e["type"] == "claim" for e in r.record.events) for r in ref]
    assert [list(g.team_sets) for g in fast] == [r.result.detail["team_sets"] for r in ref]
    assert all(isinstance(g, FastGame) and g.events is None for g in fast)


@pytest.mark.parametrize("options", COMBOS, ids=IDS)
def test_records_replay_legally(options):
    opts = GAME.parse_options(options)
    for seed in range(10, 16):
        g = play_random_seeded(options, seed, max_actions=1000, record=True)
        st = GAME.new_state(opts, {"hands": g.hands})
        for ev in g.events:
            st.apply_event(ev)  # raises IllegalAction on any broken rule
        assert st.is_over() != g.unfinished
        if not g.unfinished:
            assert tuple(st.team_sets) == g.team_sets
        # every claim the random players make for certain is right; a wrong one is a guess
        for ev in g.events:
            if ev["type"] == "claim" and not ev["correct"]:
                assert any(ev["assignment"][c] != s for c, s in ev["actual"].items())


def _check_lanes(options: dict, hands, events, real_hands: bool) -> None:
    opts = GAME.parse_options(options)
    n = opts["players"]
    cards, index, _, _ = deck_tables(opts["deck"])
    mine = [CertainKnowledge(opts, s, hands[s]) for s in range(n)]
    lanes = LaneKnowledge(opts, hands, real_hands=real_hands)

    def check(where):
        for o in range(n):
            possible = mine[o].possible
            for i, c in enumerate(cards):
                want = sum(1 << s for s in possible[c]) if c in possible else 0
                assert lanes.possible(o, i) == want, f"{where}: observer {o}, {c}"
            for team in (0, 1):
                assert lanes.certain_set(o, team) == mine[o].certain_set(team), where

    check("start")
    for k, ev in enumerate(events):
        for kn in mine:
            kn.observe(ev)
        if ev["type"] == "ask":
            lanes.ask(ev["asker"], ev["target"], index[ev["card"]], ev["success"])
        elif ev["type"] == "claim":
            lanes.claim({index[c]: s for c, s in ev["actual"].items()})
        check(f"event {k}")


@pytest.mark.parametrize("real_hands", [True, False])
@pytest.mark.parametrize("options", COMBOS[:6], ids=IDS[:6])
def test_lane_knowledge_equals_certain_knowledge(options, real_hands):
    g = play_random_seeded(options, 5, max_actions=400, record=True)
    _check_lanes(options, g.hands, g.events, real_hands)


PEER_GAMES = (  # (options, seed, max actions): the first reaches, at its event 234, a hit
    # whose asker's possible cards then are exactly its hand (a rule a faulty shortcut missed)
    ({"players": 8, "ask_own_card": True, "after_claim": "claimant"}, 0, 260),
    ({"players": 6}, 3, 300),
    ({"players": 8, "deck": "48", "claim_any_time": True}, 3, 300),
    ({"players": 6, "claim_any_time": True, "ask_own_card": True}, 3, 300),
)


@pytest.mark.parametrize("options,seed,cap", PEER_GAMES, ids=[f"{i}" for i in range(len(PEER_GAMES))])
def test_lane_knowledge_on_peer_games(options, seed, cap):
    """Peer players ask where hits are likely, so their games reach the states where the
    hand-size rules fire far more often than random games do."""
    n = options["players"]
    cls = resolve_agent("peer", GAME)
    res = play_game(GAME, options, [cls] * n, np.random.default_rng(seed),
                    [np.random.default_rng([seed, s]) for s in range(n)], max_actions=cap)
    _check_lanes(options, res.record.header["hands"], res.record.events, True)


def test_draws_equal_generator_integers():
    ns = [1, 2, 3, 5, 7, 10, 54, 57, 1, 100, 12345, 2**31 - 1, 2**31 + 11, 3_000_000_000, 2**32 - 1]
    for seed in range(20):
        ref = np.random.default_rng([seed, 7])
        if seed % 3 == 0:
            ref.integers(9)  # leaves half a 64-bit output in the generator's state
        mine = np.random.default_rng([seed, 7])
        if seed % 3 == 0:
            mine.integers(9)
        d = _Draws(mine)
        assert d.exact
        for k in range(300):
            n = ns[(k * 5 + seed) % len(ns)]
            assert d(n) == int(ref.integers(n)), (seed, k, n)


def test_draws_fall_back_for_other_bit_generators():
    ref = np.random.Generator(np.random.MT19937(3))
    d = _Draws(np.random.Generator(np.random.MT19937(3)))
    assert not d.exact
    assert [d(n) for n in (1, 5, 9, 2, 1, 30) * 10] == [int(ref.integers(n)) for n in (1, 5, 9, 2, 1, 30) * 10]


def test_play_random_takes_generators_and_raw_options():
    g = play_random({"players": 8, "deck": 48}, np.random.default_rng(4),
                    [np.random.default_rng([4, s]) for s in range(8)], record=False)
    assert g.options["deck"] == "48" and g.events is None
    assert g.num_events > 0 and sum(g.team_sets) + len(g.void_sets) == 8
