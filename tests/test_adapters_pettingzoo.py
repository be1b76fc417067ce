"""PettingZoo adapter: PettingZoo's own API and seed tests on every cardmind game.

Skipped when PettingZoo is not installed, unless ``CARDMIND_REQUIRE_EXTRAS`` is set (then a
missing PettingZoo fails the tests): ``pip install -e ".[test,pettingzoo]"``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from .extras import require_module

require_module("pettingzoo", "pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from cardmind.adapters.codec import codec_names  # noqa: E402
from cardmind.adapters.pettingzoo import CardmindAECEnv, env, raw_env  # noqa: E402
from cardmind.errors import IllegalAction  # noqa: E402

CONFIGS = [
    ("literature", {}, None),
    ("literature", {"players": 8, "claim_any_time": True}, None),
    ("literature", {"deck": "48", "after_claim": "claimant"}, {"claims": "known"}),
    ("gofish", {}, None),
    ("gofish", {"players": 2, "give": "all", "phase2": True}, None),
    ("gofish", {"players": 5, "books_face_up": True, "ranks": 8, "hand": 4}, None),
    ("handfoot", {"hands": 1}, None),
]


def test_every_game_has_an_env():
    for name in codec_names():
        e = raw_env(name)
        e.reset(seed=0)
        assert e.agent_selection in e.possible_agents


@pytest.mark.parametrize("game,options,params", CONFIGS)
def test_api(game, options, params):
    with warnings.catch_warnings():
        # PettingZoo warns about Dict observations (the action-mask convention of its own
        # classic games); those warnings are not failures
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(game, options=options, params=params), num_cycles=200)
        api_test(raw_env(game, options=options, params=params), num_cycles=200)


@pytest.mark.parametrize("game,options,params", CONFIGS)
def test_seed(game, options, params):
    seed_test(lambda: env(game, options=options, params=params), num_cycles=100)


def _play(e: CardmindAECEnv, rng: np.random.Generator, ask_bias: bool = True):
    total = {a: 0.0 for a in e.possible_agents}
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        if ask_bias and e.codec.game_name == "literature":
            asks = legal[legal < e.codec.base_claim]
            legal = asks if len(asks) and rng.random() < 0.97 else legal
        e.step(int(rng.choice(legal)))
        steps += 1
    return total, steps


@pytest.mark.parametrize("game", ["literature", "gofish"])
def test_full_games_zero_sum(game):
    rng = np.random.default_rng(0)
    e = raw_env(game)
    for seed in range(3):
        e.reset(seed=seed)
        total, steps = _play(e, rng)
        assert steps > 0 and abs(sum(total.values())) < 1e-9
        assert e.agents == []


def test_reset_seed_deals_the_same():
    a, b = raw_env("gofish"), raw_env("gofish")
    a.reset(seed=9)
    b.reset(seed=9)
    assert a.world.header["hands"] == b.world.header["hands"]
    a.reset(seed=10)
    assert a.world.header["hands"] != b.world.header["hands"]


def test_observation_and_mask():
    e = raw_env("literature")
    e.reset(seed=1)
    agent = e.agent_selection
    obs = e.observe(agent)
    assert obs["observation"].shape == (507,) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (6898,) and obs["action_mask"].dtype == np.int8
    legal = set(np.flatnonzero(obs["action_mask"]))
    assert legal == set(e.world.legal_ids())
    other = next(a for a in e.possible_agents if a != agent)
    assert not e.observe(other)["action_mask"].any()
    illegal = next(i for i in range(6898) if i not in legal)
    with pytest.raises(IllegalAction):
        e.step(illegal)


def test_truncation_and_render():
    e = raw_env("literature", params={"claims": "known"}, max_actions=15, render_mode="ansi")
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    _play(e, rng)
    assert e.world.truncated
    e.reset(seed=3)
    assert "moves 0" in e.render()
