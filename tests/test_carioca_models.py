"""Contract rummy player models: fitting the softmax choice models, the likelihood of sampled
worlds (the true world is more likely than the worlds sampled from the constraint-only
posterior), and the model-weighted tracker and CLI (``--model``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cardmind.agents.base import resolve_agent
from cardmind.agents.match import play_game
from cardmind.belief import tracker_for
from cardmind.cli import main
from cardmind.core import get_game
from cardmind.games.carioca.models import MODELS, OFFER_FEATURES, fit_models, load, world_log_likelihoods
from cardmind.records import write_record

GAME = get_game("carioca")


@pytest.fixture(scope="module")
def peer_games():
    peer = resolve_agent("peer", GAME)
    out = []
    for seed in range(3):
        res = play_game(GAME, {"players": 4, "hands": 2}, [peer] * 4, np.random.default_rng(70 + seed),
                        [np.random.default_rng([seed, s]) for s in range(4)])
        assert res.result is not None
        out.append(res.record)
    return out


def test_fitting_beats_uniform_choice(peer_games):
    m = fit_models(peer_games, "peer")
    for kind in ("offer", "discard"):
        info = m[kind]["info"]
        assert info["decisions"] > 50 and info["converged"]
        assert info["log_likelihood"] > info["uniform_log_likelihood"] + 0.2 * info["decisions"]
        assert len(info["stderr"]) == len(m[kind]["weights"])
    w = dict(zip(OFFER_FEATURES, m["offer"]["weights"]))
    assert w["same_rank"] > 0 and w["suit_1"] > 0          # peer takes cards that join its hand


def test_the_shipped_models_load():
    assert MODELS[0] == "auto" and set(MODELS) == {"auto", "uniform", "peer", "belief"}
    offer, discard = load("peer")
    assert len(offer.weights) == len(OFFER_FEATURES) and discard.info["decisions"] > 1000


def test_the_true_world_is_likelier_than_sampled_ones(peer_games):
    """Under the peer model, the real hands of peer players explain their choices better than
    most worlds drawn from the constraint-only posterior."""
    ranks = []
    for rec in peer_games:
        for seat in (0, 2):
            view = rec.for_seat(seat)
            st = GAME.new_state(rec.options, rec.header)
            k = None
            for i, ev in enumerate(rec.events):
                st.apply_event(ev)
                if st.hand_no == 1 and st.phase == "offer" and len(st.history) > 30:
                    k = i + 1
                    break
            if k is None:
                continue
            tr = tracker_for(view, seat, upto_event=k)
            truth = GAME.new_state(rec.options, rec.header)
            for ev in rec.events[:k]:
                truth.apply_event(ev)
            true_world = ([sorted(h.elements()) for h in truth.hands], list(truth.stock))
            worlds = tr.sample_worlds(60, np.random.default_rng(seat))
            ll = world_log_likelihoods(tr, [true_world] + worlds, "peer")
            ranks.append(float(np.mean(ll[1:] >= ll[0])))
    assert len(ranks) >= 4
    assert np.mean(ranks) < 0.25, ranks


def test_model_weighted_tracker_and_cli(peer_games, tmp_path, capsys):
    rec = peer_games[0]
    tr = tracker_for(rec, 1, upto_event=60, model="peer", samples=40)
    out = tr.to_json()
    assert out["model"] == "peer" and out["exact"] is False and 1 <= out["ess"] <= 40
    some = next(iter(out["holdings"].values()))
    assert all(0 <= v["p_any"] <= 1 and v["stderr"] >= 0 for v in some.values())
    p = tmp_path / "g.jsonl"
    write_record(p, rec.for_seat(1).truncated(61))
    assert main(["belief", str(p), "--json", "--model", "peer"]) == 0
    assert json.loads(capsys.readouterr().out)["model"] == "peer"
    assert main(["hint", str(p), "--no-table", "--model", "peer"]) == 0
    assert "Chances weigh seats 0, 2 and 3 as peer players (the model asked for)" in capsys.readouterr().out
    assert main(["belief", str(p), "--model", "nope"]) == 2
    assert "player models auto, uniform, peer, belief" in capsys.readouterr().err


def test_auto_is_the_default_and_reads_the_play(peer_games, tmp_path, capsys):
    """``auto`` (issue 24): the default of the game, the tracker, ``hint`` and ``belief``; exact
    until another seat chooses something; then each seat is weighed by the model whose
    likelihood of its choices is highest, which moves the card chances away from ``uniform``,
    and the output says which model it uses for whom."""
    assert GAME.player_models()[0] == "auto" and "uniform" in GAME.player_models()
    rec = peer_games[0]
    start = tracker_for(rec, 1, upto_event=0)
    assert start.model == "auto" and start.exact and set(start.seat_models().values()) == {"uniform"}
    tr = tracker_for(rec, 1, upto_event=60, samples=40)
    models, fit = tr.seat_models(), tr.model_fit()
    assert tr.model == "auto" and not tr.exact and set(models) == {0, 2, 3}
    for s, m in models.items():
        assert fit[s][m] == max(fit[s].values())
    assert "peer" in models.values()       # peer players: the peer model explains some seat best
    uni = tracker_for(rec, 1, upto_event=60, samples=40, model="uniform")
    a, b = tr.holdings(), uni.holdings()
    assert max(abs(a[c][pl]["p_any"] - b[c][pl]["p_any"]) for c in a for pl in a[c]) > 0.02
    p = tmp_path / "g.jsonl"
    write_record(p, rec.for_seat(1).truncated(61))
    assert main(["hint", str(p), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["model"] == "auto" and set(obj["models"]) == {"0", "2", "3"}
    assert set(obj["models"].values()) <= {"peer", "belief", "uniform"} and obj["samples"] > 0
    assert obj["models_text"].startswith("Chances weigh seat") and "sampled" in obj["models_text"]
    assert main(["hint", str(p), "--no-table"]) == 0
    assert obj["models_text"] in capsys.readouterr().out
