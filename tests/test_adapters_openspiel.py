"""OpenSpiel adapter: OpenSpiel's own checks on every cardmind game, resampling, IS-MCTS.

Skipped when OpenSpiel is not installed, unless ``CARDMIND_REQUIRE_EXTRAS`` is set (then a
missing OpenSpiel fails the tests): ``pip install -e ".[test,openspiel]"``.
"""

from __future__ import annotations


import numpy as np
import pytest

from .extras import require_module

pyspiel = require_module("pyspiel", "openspiel")

from cardmind.adapters import openspiel as osa  # noqa: E402
from cardmind.adapters.codec import codec_names  # noqa: E402

#: (game, parameters, random simulations)
SIM_CONFIGS = [
    ("literature", {}, 2),
    ("literature", {"players": 8, "claim_any_time": True}, 1),
    ("literature", {"deck": 48, "ask_own_card": True, "wrong_claim": "cancel", "after_claim": "claimant"}, 2),
    ("literature", {"claims": "known", "max_actions": 150, "truncation": "score"}, 1),
    ("gofish", {}, 3),
    ("gofish", {"players": 2, "give": "all", "phase2": True}, 3),
    ("gofish", {"players": 3, "books_face_up": True, "phase2": True}, 2),
    ("gofish", {"players": 6, "ranks": 6, "hand": 3}, 2),
    ("handfoot", {"hands": 1}, 1),
    ("handfoot", {"players": 2, "cutthroat": True, "hands": 2, "hand_size": 4, "decks": 1}, 1),
]


def test_every_game_is_registered():
    names = set(pyspiel.registered_names())
    for name in codec_names():
        assert osa.short_name(name) in names
        game = pyspiel.load_game(osa.short_name(name))
        t = game.get_type()
        assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
        assert game.num_distinct_actions() == game.codec.num_actions + 1
        assert game.max_chance_outcomes() == len(game.codec.deck())


@pytest.mark.parametrize("game,params,sims", SIM_CONFIGS)
def test_random_sim_test(game, params, sims):
    """OpenSpiel's own consistency checks (legal action masks, clones, returns, lengths...)."""
    g = osa.load_game(game, params)
    pyspiel.random_sim_test(g, num_sims=sims, serialize=False, verbose=False)


def test_random_sim_test_with_serialization():
    g = osa.load_game("gofish", {"players": 2})
    pyspiel.random_sim_test(g, num_sims=1, serialize=True, verbose=False)


def test_game_string_and_parameters():
    g = pyspiel.load_game("cardmind_literature(players=8,deck=48)")
    assert g.num_players() == 8 and g.codec.options["deck"] == "48"
    assert g.num_distinct_actions() == 48 * 8 + 8 * 4 ** 6 + 16 + 1
    with pytest.raises(Exception):
        osa.load_game("literature", {"no_such_option": 1})


def _random_state(game, rng, moves):
    s = game.new_initial_state()
    while s.is_chance_node():
        outs = s.chance_outcomes()
        s.apply_action(outs[int(rng.integers(len(outs)))][0])
    codec = game.codec
    for _ in range(moves):
        if s.is_terminal():
            break
        la = s.legal_actions()
        if codec.game_name == "literature":
            asks = [a for a in la if a < codec.base_claim]
            la = asks if asks and rng.random() < 0.97 else la
        s.apply_action(int(rng.choice(la)))
    return s


@pytest.mark.parametrize("game,params", [("literature", {}), ("literature", {"claim_any_time": True}),
                                         ("gofish", {}), ("gofish", {"players": 2, "phase2": True})])
def test_resample_from_infostate(game, params):
    g = osa.load_game(game, params)
    rng = np.random.default_rng(3)
    for k in range(3):
        s = _random_state(g, rng, int(rng.integers(10, 60)))
        if s.is_terminal():
            continue
        p = s.current_player()
        for sampler in (pyspiel.UniformProbabilitySampler(0.0, 1.0), np.random.default_rng(k), 5):
            r = s.resample_from_infostate(p, sampler)
            assert r.information_state_string(p) == s.information_state_string(p)
            assert r.legal_actions() == s.legal_actions()
            assert r.current_player() == p and len(r.history()) == len(s.history())
            assert r.history()[len(g.codec.deck()):] == s.history()[len(g.codec.deck()):]
            np.testing.assert_array_equal(r.information_state_tensor(p), s.information_state_tensor(p))
            c = r.clone()
            while not c.is_terminal():
                c.apply_action(int(rng.choice(c.legal_actions())))
            assert abs(sum(c.returns())) < 1e-9


def test_strings_and_tensors():
    g = osa.load_game("literature", {})
    s = _random_state(g, np.random.default_rng(0), 10)
    p = s.current_player()
    info = s.information_state_string(p)
    assert info.startswith(f"seat {p} hand ") and info.count("|") >= 10
    assert s.observation_string(p).startswith(f"seat {p} | hand ")
    assert len(s.observation_tensor(p)) == g.codec.observation_size() == 507
    assert len(s.information_state_tensor(p)) == 507
    other = (p + 1) % 6
    assert s.information_state_string(other) != info


def test_openspiel_ismcts_bot_runs():
    """OpenSpiel's own IS-MCTS bot, resampling through resample_from_infostate."""
    from open_spiel.python.algorithms import ismcts, mcts

    for game, params in (("literature", {"claims": "known", "max_actions": 60, "truncation": "score"}),
                         ("gofish", {"players": 2})):
        g = osa.load_game(game, params)
        s = _random_state(g, np.random.default_rng(1), 12)
        rs = np.random.RandomState(0)
        bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, rs), 2.0, 8, random_state=rs)
        a = bot.step(s)
        assert a in s.legal_actions()


def test_agent_plays_a_game():
    from cardmind.agents.base import resolve_agent
    from cardmind.agents.match import play_game
    from cardmind.core import get_game
    from functools import partial

    for name, options in (("literature", {}), ("gofish", {"players": 2})):
        game = get_game(name)
        n = game.num_seats(game.parse_options(options))
        ism = partial(resolve_agent("openspiel-ismcts", game), settings={"simulations": 4, "horizon": 15, "seed": 1})
        other = resolve_agent("random", game)
        facs = [ism if s % 2 == 0 else other for s in range(n)]
        res = play_game(game, options, facs, np.random.default_rng(2),
                        [np.random.default_rng(10 + s) for s in range(n)], max_actions=3000)
        assert res.forfeit is None, res.forfeit_reason
        assert res.result is not None or res.unfinished


def test_agent_settings_are_checked():
    from cardmind.games.literature.agents.ismcts import LiteratureISMCTSAgent
    from cardmind.core import get_game

    game = get_game("literature")
    opts = game.parse_options({})
    _, header = game.initial_state(opts, np.random.default_rng(0))
    with pytest.raises(ValueError):
        LiteratureISMCTSAgent(game, 0, opts, game.observer_header(header, 0), {"simulations": 0})
    with pytest.raises(ValueError):
        LiteratureISMCTSAgent(game, 0, opts, game.observer_header(header, 0), {"bogus": 1})
