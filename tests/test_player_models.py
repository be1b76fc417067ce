"""The shared player-model machinery (cardmind.belief.models): the softmax fit recovers known
weights, the uniform model is the constraint-only posterior, and importance weighting of
worlds gives the exact weighted posterior (against an enumeration) with an honest error."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cardmind.belief.models import (SoftmaxChoice, UniformChoice, importance_weights, load_model,
                                    model_from_json, weighted_mean)


def _simulate(w, n, rng, k=(2, 7)):
    out = []
    for _ in range(n):
        x = rng.normal(size=(int(rng.integers(*k)), len(w)))
        p = np.exp(x @ w - (x @ w).max())
        out.append((x, int(rng.choice(len(x), p=p / p.sum()))))
    return out


def test_softmax_fit_recovers_the_weights_within_their_standard_errors():
    rng = np.random.default_rng(1)
    w = np.array([1.5, -0.7, 0.0])
    model = SoftmaxChoice.fit(_simulate(w, 4000, rng), ["a", "b", "c"], name="sim")
    se = np.array(model.info["stderr"])
    assert np.all(se > 0) and np.all(se < 0.1)
    assert np.all(np.abs(model.weights - w) < 4 * se), (model.weights, se)
    # the fitted model explains the choices better than the uniform one
    assert model.info["log_likelihood"] > model.info["uniform_log_likelihood"] + 500


def test_softmax_probabilities_and_round_trip(tmp_path):
    m = SoftmaxChoice(np.array([1.0, 2.0]), ("x", "y"), "t")
    x = np.array([[0, 0], [1, 0], [0, 1]], dtype=float)
    p = np.exp(m.log_probs(x))
    assert p == pytest.approx(np.array([1, np.e, np.e ** 2]) / (1 + np.e + np.e ** 2))
    assert m.log_prob(x, 2) == pytest.approx(np.log(p[2]))
    with pytest.raises(IndexError):
        m.log_prob(x, 3)
    with pytest.raises(ValueError):
        m.log_probs(np.zeros((2, 3)))
    path = tmp_path / "m.json"
    path.write_text(json.dumps(m.to_json()))
    again = load_model(path)
    assert again.name == "t" and np.allclose(again.log_probs(x), m.log_probs(x))
    assert isinstance(model_from_json({"kind": "uniform"}), UniformChoice)
    with pytest.raises(ValueError):
        model_from_json({"kind": "nonsense"})


def test_forced_choices_are_left_out_of_a_fit():
    rng = np.random.default_rng(2)
    data = _simulate(np.array([1.0]), 200, rng) + [(np.ones((1, 1)), 0)] * 50
    assert SoftmaxChoice.fit(data, ["a"]).info["decisions"] == 200
    with pytest.raises(ValueError):
        SoftmaxChoice.fit([(np.ones((1, 1)), 0)], ["a"])


def test_uniform_model_weighs_every_world_alike():
    u = UniformChoice()
    assert np.exp(u.log_probs(np.zeros((4, 2)))) == pytest.approx([0.25] * 4)
    # the same choice in any world has the same likelihood: the weights are all equal
    wt = importance_weights([u.log_prob(np.zeros((k, 1)), 0) for k in (3, 3, 3, 3)])
    assert wt.w == pytest.approx([0.25] * 4) and wt.ess == pytest.approx(4)


def test_weighted_posterior_matches_the_enumeration():
    """Worlds drawn uniformly and weighted by a likelihood give the exact weighted posterior:
    a small world space is enumerated, the posterior computed exactly, and the importance
    estimate from uniform draws lies within 4 standard errors of it."""
    rng = np.random.default_rng(3)
    worlds = np.arange(6)                       # six equally likely consistent deals
    value = (worlds % 3 == 0).astype(float)     # the event of interest: deals 0 and 3
    loglik = np.log(np.array([0.9, 0.1, 0.2, 0.6, 0.3, 0.05]))
    exact = float((np.exp(loglik) * value).sum() / np.exp(loglik).sum())
    draws = rng.integers(0, 6, size=4000)
    mean, se, ess = weighted_mean(value[draws], loglik[draws])
    assert 1000 < ess < 4000
    assert abs(float(mean) - exact) < 4 * float(se) and float(se) < 0.02
    # with every world drawn once, the weighted mean is exactly the posterior
    m_all, _, _ = weighted_mean(value, loglik)
    assert float(m_all) == pytest.approx(exact)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-30, 5), min_size=1, max_size=30))
def test_weights_are_normalised_and_ess_bounded(lw):
    wt = importance_weights(lw)
    assert wt.w.sum() == pytest.approx(1.0)
    assert 1 - 1e-9 <= wt.ess <= len(lw) + 1e-9
    assert wt.log_mean == pytest.approx(np.log(np.mean(np.exp(lw))), rel=1e-9, abs=1e-9)


def test_all_zero_weights_are_refused():
    with pytest.raises(ValueError):
        importance_weights([-np.inf, -np.inf])
