"""Weighted posteriors: the counting engine with real (likelihood) weights, the count factors
of cardmind.belief.models, and a game's weighted posterior against brute force and against
importance weighting of the exact uniform sampler."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from cardmind.belief import blocks
from cardmind.belief.blocks import BlockProduct


def _random_blocks(seed: int, caps: list[int], nblocks: int = 3, size: int = 3):
    rnd = random.Random(seed)
    out = []
    for _ in range(nblocks):
        b = {}
        for _ in range(8):
            d = [0] * len(caps)
            for _ in range(size):
                d[rnd.randrange(len(caps))] += 1
            if all(x <= c for x, c in zip(d, caps)):
                b[tuple(d)] = rnd.randint(1, 9)
        out.append(b)
    return out


def _brute(caps, weights):
    """Sum over every choice of one usage per block (and the pool), by enumeration."""
    total = 0.0
    for combo in itertools.product(*[list(b) for b in weights]):
        used = [sum(x) for x in zip(*combo)]
        if any(u > c for u, c in zip(used, caps)):
            continue
        w = 1.0
        for m, d in enumerate(combo):
            w *= weights[m][d]
        total += w * blocks.multinomial([c - u for c, u in zip(caps, used)])
    return total


@pytest.mark.parametrize("engine", ["python", "c"])
def test_real_weights_give_the_weighted_sums(engine):
    """Real block weights (a count times a likelihood) give the weighted total and context
    counts: the same as brute-force enumeration, on both engines."""
    if engine == "c" and not blocks.fast_path_available():
        pytest.skip("the compiled fast path is not installed")
    caps = [3, 4, 2, 5]
    ints = _random_blocks(1, caps)
    rnd = random.Random(2)
    real = [{d: w * rnd.uniform(0.05, 3.0) for d, w in b.items()} for b in ints]
    bp = BlockProduct(caps, real, [[(1, 0, 0, 0), (0, 0, 0, 1)]], engine=engine)
    assert bp.engine == engine and bp.real
    assert bp.total == pytest.approx(_brute(caps, real), rel=1e-12)
    # the context of a usage is the weighted total of the deals that have it, divided by its weight
    for m, b in enumerate(real):
        for d, w in b.items():
            only = [dict(x) for x in real]
            only[m] = {d: w}
            assert w * bp.block_contexts[m][d] == pytest.approx(_brute(caps, only), rel=1e-12)
    # integer weights stay on the exact integer path
    assert not BlockProduct(caps, ints, engine=engine).real


def test_weighted_sampling_follows_the_weights():
    """Usages drawn from a real-weighted product come in proportion to their weighted counts."""
    caps = [2, 2, 2]
    b = [{(1, 1, 0): 1.0, (0, 1, 1): 3.0, (2, 0, 0): 0.5}, {(1, 0, 1): 2.0, (0, 0, 2): 1.0}]
    bp = BlockProduct(caps, b, tables=True, engine="python")
    rng = np.random.default_rng(5)
    counts: dict = {}
    n = 4000
    for _ in range(n):
        usages, _pool = bp.sample_usages(rng)
        counts[usages[0]] = counts.get(usages[0], 0) + 1
    for d, w in b[0].items():
        p = w * bp.block_contexts[0][d] / bp.total
        assert abs(counts.get(d, 0) / n - p) < 4 * np.sqrt(p * (1 - p) / n) + 1e-9, (d, counts, p)


# ----------------------------------------------------------------------------- Literature
from fractions import Fraction  # noqa: E402

from cardmind.games.literature.rules import set_cards, team_of  # noqa: E402

from .lit_helpers import belief_after, brute_force, simulate  # noqa: E402

#: (options, seed, agent, seat, events) of late positions with few enough deals to enumerate
LATE = [({"players": 6}, 2, "peer"), ({"players": 8}, 4, "peer"), ({"players": 6, "ask_own_card": True}, 1, "peer")]


def _late_positions(options, seed, agent, want=2, limit=400):
    rec = simulate(options, seed, agent)
    n = rec.options["players"]
    out = []
    for k in range(len(rec.events) - 1, len(rec.events) // 3, -2):
        seat = k % n
        b = belief_after(rec, seat, k)
        if b.state.is_over() or b.consistent_deals < 3:
            continue
        res = brute_force(b, limit=limit)
        if res is None:
            continue
        out.append((rec, seat, k, res))
        if len(out) >= want:
            break
    return out


def _weighted_answers(b, deals, states, logw):
    """Marginals, team-holds and assignment probabilities of enumerated deals weighted by ``exp(logw)``."""
    w = np.exp(np.asarray(logw) - max(logw))
    w = w / w.sum()
    marg: dict = {}
    for wi, st in zip(w, states):
        for c, s in st.holder.items():
            marg.setdefault(c, {}).setdefault(s, 0.0)
            marg[c][s] += wi
    team = team_of(b.observer)
    holds = {name: sum(wi for wi, st in zip(w, states) if all(team_of(st.holder[c]) == team for c in set_cards(name)))
             for name in b.state.unclaimed_sets()}

    def p_assign(name, a):
        return sum(wi for wi, st in zip(w, states) if all(st.holder[c] == a[c] for c in set_cards(name)))

    return marg, holds, p_assign


@pytest.mark.parametrize("options,seed,agent", LATE)
def test_factored_posterior_matches_enumeration(options, seed, agent):
    """The tracker's weighted posterior (the count weighted by the player models' factored
    likelihood) is the posterior of the enumerated consistent deals weighted by that
    likelihood: marginals, P(team holds), and the best claim's probability and choice."""
    positions = _late_positions(options, seed, agent, want=3)
    assert positions, "no small late position"
    spread = []
    for rec, seat, k, (legal, states) in positions:
        b = belief_after(rec, seat, k)
        b.set_models("peer", {s: "belief" for s in range(team_of(seat), b.players, 2) if s != seat})
        assert b.weighted and b.model_json()["method"] == "factored"
        logw = b.factored_log_likelihood(legal)
        spread.append(np.ptp(logw))
        marg, holds, p_assign = _weighted_answers(b, legal, states, logw)
        got = b.marginals()
        for c, d in marg.items():
            for s, p in d.items():
                assert got[c].get(s, 0.0) == pytest.approx(p, rel=1e-9, abs=1e-12), (c, s)
        for name, p in holds.items():
            assert b.team_holds_probability(name) == pytest.approx(p, rel=1e-9, abs=1e-12)
            if p > 0:
                a, pb, _ = b.best_assignment(name)
                assert pb == pytest.approx(p_assign(name, a), rel=1e-9, abs=1e-12)
                # no other assignment seen among the deals is more probable
                seen = {tuple(st.holder[c] for c in set_cards(name)) for st in states}
                best_seen = max(p_assign(name, dict(zip(set_cards(name), t))) for t in seen
                                if all(team_of(x) == team_of(seat) for x in t))
                assert pb == pytest.approx(best_seen, rel=1e-9)
        # the count of consistent deals does not change with the model
        assert b.consistent_deals == len(legal)
    assert max(spread) > 0.01, "the models should weigh some of these deals differently"


def test_importance_posterior_matches_the_exact_likelihood():
    """Importance weighting (deals drawn from the factored posterior, weighted by the exact
    likelihood over the factored one) estimates the exact-likelihood posterior of the
    enumerated deals within its standard errors, with a useful effective sample size."""
    def spread(pos):   # the effective number of deals under the exact likelihood
        b = belief_after(pos[0], pos[1], pos[2])
        b.set_models("peer")
        w = np.exp(b.world_log_likelihood(pos[3][0]) - b.world_log_likelihood(pos[3][0]).max())
        return (w.sum() ** 2) / (w ** 2).sum()

    rec, seat, k, (legal, states) = max(_late_positions({"players": 6, "ask_own_card": True}, 2, "peer", want=1),
                                        key=spread)
    b = belief_after(rec, seat, k)
    b.set_models("peer")
    exact = b.world_log_likelihood(legal)
    marg, _, _ = _weighted_answers(b, legal, states, exact)
    est = b.importance_posterior(600, np.random.default_rng(11), proposal="factored")
    assert est["ess"] > 150
    z = []
    for c, d in marg.items():
        if c in b.state.holder:
            continue
        for s, p in d.items():
            se = est["marginals_stderr"][c][s]
            assert abs(est["marginals"][c].get(s, 0.0) - p) < 4 * se + 0.02, (c, s, p, est["marginals"][c], se)
            if se > 0.005:
                z.append((est["marginals"][c].get(s, 0.0) - p) / se)
    assert len(z) > 3 and float(np.sqrt(np.mean(np.square(z)))) < 2.5
    # drawn uniformly, the same estimate (a much smaller effective sample size)
    uni = b.importance_posterior(600, np.random.default_rng(12), proposal="uniform")
    assert uni["ess"] < est["ess"]


def test_models_are_settable_and_named():
    """``model``/``seat_models`` are checked, the observer is never weighed, and ``to_json``
    names the model; the uniform model is the constraint-only posterior with exact fractions."""
    from cardmind.games.literature.belief import LiteratureBelief

    rec = simulate({"players": 6}, 3, "peer")
    b = belief_after(rec, 0, 40)
    exact = b.marginals_exact()
    assert all(isinstance(p, Fraction) for d in exact.values() for p in d.values())
    assert b.to_json()["model"] == "uniform" and b.to_json()["method"] == "exact"
    b.model = "peer"
    assert set(b.seat_models) == {1, 2, 3, 4, 5} and b.to_json()["seat_models"]["3"] == "peer"
    assert b.to_json()["method"] == "factored"
    weighted = b.marginals()
    assert any(abs(weighted[c].get(s, 0.0) - float(p)) > 1e-3 for c, d in exact.items() for s, p in d.items())
    b.model = "uniform"
    assert b.marginals_exact() == exact
    with pytest.raises(ValueError, match="unknown Literature player model 'nope'"):
        LiteratureBelief(rec.options, 0, rec.header["hands"][0], model="nope")
    with pytest.raises(ValueError, match="not a seat"):
        LiteratureBelief(rec.options, 0, rec.header["hands"][0], seat_models={9: "peer"})
