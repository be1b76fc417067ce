"""Properties of the belief tracker over many simulated 6- and 8-player games (hypothesis),
and the exact uniform sampler against the exact marginals (chi-square, fixed seeds).

For every seat and early, middle and late prefixes of each game: the true deal is one of
the consistent deals (its cards have positive probability where they really are, each
set's true assignment has positive probability), each card's probabilities sum to 1,
claim probabilities are probabilities, and sampled hands have the public sizes.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

from cardmind.games.literature.belief import LiteratureBelief
from cardmind.games.literature.rules import set_cards, team_of
from cardmind.records import read_record

from .conftest import shared_path
from .lit_helpers import OPTION_COMBOS, belief_after, simulate, state_after, true_dealt

SIX = [i for i, o in enumerate(OPTION_COMBOS) if o["players"] == 6]
EIGHT = [i for i, o in enumerate(OPTION_COMBOS) if o["players"] == 8]
TOL = 1e-9


def check_position(b: LiteratureBelief, truth, dealt, rng) -> None:
    """Every property at one position: ``truth`` is the complete state at that moment."""
    N = b.consistent_deals
    assert isinstance(N, int) and N >= 1
    marg = b.marginals()
    in_play = truth.cards_in_play()
    assert set(marg) == set(in_play)
    for c in in_play:
        dist = marg[c]
        assert abs(sum(dist.values()) - 1.0) <= TOL, (c, dist)
        assert all(0.0 < p <= 1.0 + TOL for p in dist.values()), (c, dist)
        # the true holder now is possible
        assert dist.get(truth.holder[c], 0.0) > 0.0, (c, truth.holder[c], dist)
    for c in b.hand:
        if c in marg and c not in b.state.moved:
            assert marg[c] == {b.observer: 1.0}
    cons = b.constraints()
    for c in cons.unknown:
        # an unknown card never moved: its true dealt holder holds it now, and may have been dealt it
        assert dealt[c] == truth.holder[c] and marg[c].get(dealt[c], 0.0) > 0.0
    me = team_of(b.observer)
    for name in truth.unclaimed_sets():
        true_a = {c: truth.holder[c] for c in set_cards(name)}
        p_true = b.assignment_probability(name, true_a)
        assert 0.0 < p_true <= 1.0 + TOL, name
        p = [b.team_holds_probability(name, team) for team in (0, 1)]
        assert all(0.0 <= x <= 1.0 + TOL for x in p) and p[0] + p[1] <= 1.0 + TOL
        teams = {team_of(s) for s in true_a.values()}
        if len(teams) == 1:
            (t,) = teams
            assert p[t] > 0.0 and p_true <= p[t] + TOL
        best = b.best_assignment(name)
        if p[me] == 0.0:
            assert best is None
        else:
            a, pb, ties = best
            assert ties >= 1 and 0.0 < pb <= p[me] + TOL
            assert abs(b.assignment_probability(name, a) - pb) <= TOL * max(1.0, pb)
            if teams == {me}:
                assert p_true <= pb + TOL
    hands = b.sample_hands(rng)
    assert [len(h) for h in hands] == truth.sizes  # the public sizes
    assert sorted(c for h in hands for c in h) == sorted(in_play)
    for c, s in b.current_holders().items():
        assert c in hands[s]


def run_game(combo, seed, agent, ks, seats=None):
    rec = simulate(OPTION_COMBOS[combo], seed, agent, max_actions=300)
    E = len(rec.events)
    ks = sorted({min(max(k, 0), E) for k in ks})
    dealt = true_dealt(rec)
    truths = {k: state_after(rec, k) for k in ks}
    rng = np.random.default_rng([combo, seed])
    n = rec.options["players"]
    checked = 0
    for seat in (range(n) if seats is None else seats):
        b = LiteratureBelief(rec.options, seat, rec.header["hands"][seat], model="uniform")
        done = 0
        for k in ks:
            while done < k:
                b.observe(rec.events[done])
                done += 1
            if truths[k].is_over():
                continue
            check_position(b, truths[k], dealt, rng)
            checked += 1
    return checked


def game_strategy(combos):
    return st.tuples(st.sampled_from(combos), st.integers(0, 10_000), st.sampled_from(["random", "peer"]))


def props(n):
    return settings(max_examples=n, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@props(6)
@given(game=game_strategy(SIX), early=st.integers(0, 4), mid=st.floats(0.3, 0.6), late=st.floats(0.75, 1.0))
def test_six_player_games_every_seat_early_middle_late(game, early, mid, late):
    combo, seed, agent = game
    E = len(simulate(OPTION_COMBOS[combo], seed, agent, max_actions=300).events)
    assert run_game(combo, seed, agent, [early, int(mid * E), int(late * E) - 1]) >= 6


@props(4)
@given(game=game_strategy(EIGHT), early=st.integers(0, 4), mid=st.floats(0.3, 0.6), late=st.floats(0.75, 1.0))
def test_eight_player_games_every_seat_early_middle_late(game, early, mid, late):
    combo, seed, agent = game
    E = len(simulate(OPTION_COMBOS[combo], seed, agent, max_actions=300).events)
    assert run_game(combo, seed, agent, [early, int(mid * E), int(late * E) - 1]) >= 8


@pytest.mark.parametrize("combo,seed,agent,step", [(0, 1, "random", 1), (4, 0, "peer", 1), (1, 0, "peer", 5)])
def test_every_prefix_of_a_game(combo, seed, agent, step):
    """A dense sweep of one game, two seats: every prefix of two 6-player games, every
    fifth prefix of an 8-player one (the 8-player tracker is slower mid-game)."""
    rec = simulate(OPTION_COMBOS[combo], seed, agent, max_actions=300)
    ks = range(0, len(rec.events), step)
    assert run_game(combo, seed, agent, ks, seats=(0, 3)) >= len(ks)


@pytest.mark.parametrize("name", ["human-12-10_1107.jsonl", "human-12-6_1108.jsonl", "human-12-3_1427.jsonl"])
def test_human_games_every_seat(name):
    """Real games under their house rules (claims at any time, asking for your own card):
    every seat at every tenth event; the faulty game up to its mistake."""
    path = shared_path("records", "literature-human", name)
    rec = read_record(path, upto=12 if "1427" in name else None)
    dealt = true_dealt(rec)
    rng = np.random.default_rng(7)
    ks = list(range(0, len(rec.events) + 1, 12)) if len(rec.events) > 20 else [0, 6, 11]
    truths = {k: state_after(rec, k) for k in ks}
    for seat in range(rec.options["players"]):
        for k in ks:
            if not truths[k].is_over():
                check_position(belief_after(rec, seat, k), truths[k], dealt, rng)


# ----------------------------------------------------------------------------- the sampler
#: (combo, seed, agent, seat, event count or fraction of the game, samples)
SAMPLER_POSITIONS = [
    (0, 1, "random", 1, 1, 800),         # 6 players, right after the deal
    (0, 1, "random", 4, 0.5, 800),       # 6 players, late, a few hundred deals
    (1, 1, "random", 3, 1, 150),         # 8 players, first event (slow sampler)
    (1, 1, "random", 5, 0.4, 600),       # 8 players, middle
    (2, 1, "peer", 0, 0.3, 600),         # claim_any_time + ask_own_card
    (3, 0, "peer", 4, 0.5, 600),         # 8 players, 48 cards, claim_any_time + ask_own_card
    (4, 1, "peer", 3, 0.4, 600),         # 48 cards, wrong_claim=cancel, after_claim=claimant
]
ALPHA = 1e-3  # family-wise, over every card test of every position (Bonferroni)


def card_chisquare(freq: Counter, dist: dict[int, float], n: int) -> float | None:
    """Chi-square goodness-of-fit p-value of ``freq`` against ``dist`` for ``n`` draws, cells
    with an expected count below 5 pooled; ``None`` when fewer than two cells remain."""
    cells = sorted(dist.items(), key=lambda x: -x[1])
    obs, exp = [], []
    pool_o = pool_e = 0.0
    for s, p in cells:
        e = p * n
        if e >= 5:
            obs.append(freq.get(s, 0))
            exp.append(e)
        else:
            pool_o += freq.get(s, 0)
            pool_e += e
    if pool_e > 0:
        if pool_e >= 5 or not exp:
            obs.append(pool_o)
            exp.append(pool_e)
        else:
            obs[-1] += pool_o
            exp[-1] += pool_e
    if len(obs) < 2:
        return None
    scale = sum(obs) / sum(exp)
    return float(stats.chisquare(obs, [e * scale for e in exp]).pvalue)


def reversed_dist(dist: dict[int, float]) -> dict[int, float]:
    """A wrong distribution for the power check: the probabilities in reverse order of size."""
    seats = sorted(dist, key=lambda s: (dist[s], s))
    probs = sorted(dist.values(), reverse=True)
    return dict(zip(seats, probs))


def test_sampler_matches_the_exact_marginals():
    tests, power = [], []
    for combo, seed, agent, seat, at, n in SAMPLER_POSITIONS:
        rec = simulate(OPTION_COMBOS[combo], seed, agent, max_actions=300)
        k = at if isinstance(at, int) else int(at * len(rec.events))
        b = belief_after(rec, seat, k)
        marg = b.marginals()
        rng = np.random.default_rng([17, combo, seed, seat, k])
        freq: dict[str, Counter] = {c: Counter() for c in marg}
        for _ in range(n):
            hands = b.sample_hands(rng)
            for s, h in enumerate(hands):
                for c in h:
                    freq[c][s] += 1
        for c, dist in marg.items():
            # a card is never sampled where the exact count says it cannot be
            assert set(freq[c]) <= set(dist), (combo, seed, seat, k, c)
            p = card_chisquare(freq[c], dist, n)
            if p is not None:
                tests.append((p, (combo, seed, agent, seat, k, c)))
                q = card_chisquare(freq[c], reversed_dist(dist), n)
                if q is not None:
                    power.append(q)
    assert len(tests) >= 100
    worst = min(tests)
    assert worst[0] >= ALPHA / len(tests), worst
    # the same statistic and threshold reject a wrong distribution (it has power)
    assert sum(1 for q in power if q < ALPHA / len(tests)) >= len(tests) // 4


@pytest.mark.parametrize("combo,seed,agent,min_n,max_n", [(0, 1, "peer", 20, 80), (6, 1, "random", 20, 80)])
def test_sampled_deals_are_uniform_over_the_consistent_deals(combo, seed, agent, min_n, max_n):
    """At a position with a few dozen consistent deals (listed by CP-SAT), every sampled deal
    is one of them and each comes up equally often (chi-square against uniform)."""
    from .test_belief_exact import cpsat_positions

    rec = simulate(OPTION_COMBOS[combo], seed, agent)
    seat, k, N = next(p for p in cpsat_positions(combo, seed, agent) if min_n <= p[2] <= max_n)
    b = belief_after(rec, seat, k)
    sols = b.cpsat_model().enumerate(limit=N + 1, time_limit=60)
    index = {tuple(sorted(s.items())): i for i, s in enumerate(sols)}
    rng = np.random.default_rng(2024)
    draws = 60 * N
    counts = Counter()
    for _ in range(draws):
        deal = b.sample_deal(rng)
        counts[index[tuple(sorted(deal.items()))]] += 1  # KeyError = an inconsistent deal
    obs = [counts[i] for i in range(N)]
    assert min(obs) > 0
    assert stats.chisquare(obs).pvalue >= 1e-4


def test_sample_hands_sizes_across_a_game():
    rec = simulate(OPTION_COMBOS[5], 1, "peer")
    rng = np.random.default_rng(5)
    for k in range(0, len(rec.events), 30):
        truth = state_after(rec, k)
        if truth.is_over():
            break
        b = belief_after(rec, k % 8, k)
        for _ in range(3):
            hands = b.sample_hands(rng)
            assert [len(h) for h in hands] == truth.sizes
            assert hands[b.observer] == truth.hands[b.observer]
            # a sampled deal replays legally as a complete game would: the same public sizes
            assert sum(map(len, hands)) == len(truth.cards_in_play())
