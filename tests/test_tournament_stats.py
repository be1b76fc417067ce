"""Tournament statistics against textbook values: Wilson, Elo, pentanomial units, GSPRT."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cardmind.tournament.ratings import (Z95, elo_from_score, elo_interval, llr, llr_approx, score_from_elo,
                                         sequential_sprt, sprt_bounds, sprt_verdict, wilson_interval)
from cardmind.tournament.schedule import make_schedule
from cardmind.tournament.summary import summarize


def test_wilson_7_of_10_textbook():
    # Wilson (1927) score interval for 7/10 at 95%: (0.3968, 0.8922) (e.g. statsmodels
    # proportion_confint(7, 10, method="wilson") = (0.396778, 0.892209))
    lo, hi = wilson_interval(7, 10)
    assert lo == pytest.approx(0.396778147, abs=1e-8)
    assert hi == pytest.approx(0.892208733, abs=1e-8)


def test_wilson_edges():
    # 0/10: lower 0, upper z²/(n+z²)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0
    assert hi == pytest.approx(Z95 ** 2 / (10 + Z95 ** 2), abs=1e-12)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    # symmetric: 5/10 is centred on 0.5
    lo, hi = wilson_interval(5, 10)
    assert (lo + hi) / 2 == pytest.approx(0.5)
    assert Z95 == pytest.approx(1.959963985, abs=1e-9)


def test_elo_logistic_values():
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo_from_score(0.75) == pytest.approx(190.8485, abs=1e-4)
    assert elo_from_score(1 / 11) == pytest.approx(-400.0)
    assert score_from_elo(400) == pytest.approx(10 / 11)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf


def test_elo_interval_by_hand():
    # units 1, 0.5, 0.75, 0.75: mean 0.75, sample sd 0.2041, se 0.10206
    elo, (lo, hi), mean, se = elo_interval([1, 0.5, 0.75, 0.75])
    assert mean == 0.75
    assert se == pytest.approx(math.sqrt((0.0625 + 0.0625) / 3 / 4))
    assert elo == pytest.approx(190.8485, abs=1e-3)
    s_lo, s_hi = 0.75 - Z95 * se, 0.75 + Z95 * se
    assert lo == pytest.approx(400 * math.log10(s_lo / (1 - s_lo)))
    assert lo == pytest.approx(34.833, abs=1e-3)
    assert hi == pytest.approx(400 * math.log10(s_hi / (1 - s_hi)))
    assert hi == pytest.approx(511.640, abs=1e-3)
    # an interval end beyond 1 is +inf
    _, (lo2, hi2), _, _ = elo_interval([1, 1, 1, 0.5])
    assert hi2 == math.inf and lo2 < elo_from_score(0.875)


def _constrained_max_loglik(counts, values, s):
    """max Σ n_i ln p_i subject to Σ p_i = 1, Σ p_i v_i = s (independent check by SLSQP)."""
    from scipy.optimize import minimize

    counts, values = np.asarray(counts, float), np.asarray(values, float)
    cons = [{"type": "eq", "fun": lambda p: p.sum() - 1}, {"type": "eq", "fun": lambda p: p @ values - s}]
    r = minimize(lambda p: -np.sum(counts * np.log(np.maximum(p, 1e-300))), np.full(len(values), 1 / len(values)),
                 constraints=cons, bounds=[(1e-12, 1)] * len(values), method="SLSQP",
                 options={"ftol": 1e-15, "maxiter": 2000})
    return -r.fun


def test_llr_is_the_exact_gsprt_statistic():
    units = [0.5, 0.75, 0.5, 0.25, 0.75, 0.5, 0.5, 1, 0.5, 0.75] * 30
    values = [0, 0.25, 0.5, 0.75, 1]
    counts = [sum(abs(u - v) < 1e-9 for u in units) or 1e-3 for v in values]
    s0, s1 = score_from_elo(0), score_from_elo(10)
    expected = _constrained_max_loglik(counts, values, s1) - _constrained_max_loglik(counts, values, s0)
    assert llr(units, 0, 10) == pytest.approx(expected, rel=1e-6)
    assert llr(units, 0, 10) > 0


def test_llr_close_to_normal_approximation_near_the_hypotheses():
    units = [0.5, 0.75, 0.5, 0.25, 0.75, 0.5, 0.5, 0.25, 0.5, 0.75] * 30  # mean 0.525
    assert llr(units, 0, 10) == pytest.approx(llr_approx(units, 0, 10), rel=0.03)
    # swapping the hypotheses flips the sign
    assert llr(units, 10, 0) == pytest.approx(-llr(units, 0, 10))


def test_sprt_bounds_and_verdicts():
    lo, hi = sprt_bounds(0.05, 0.05)
    assert lo == pytest.approx(-math.log(19)) and hi == pytest.approx(math.log(19))  # ±2.944
    assert sprt_verdict(3.0) == "H1" and sprt_verdict(-3.0) == "H0" and sprt_verdict(0.0) is None


def test_sprt_on_lopsided_sequences():
    # an agent that wins most pairs: H1 (it is at least 100 Elo stronger) quickly
    strong = [1, 0.75, 1, 1, 0.5, 1, 0.75, 1] * 20
    verdict, n, value = sequential_sprt(strong, 0, 100)
    assert verdict == "H1" and n < 40 and value >= math.log(19)
    # an even match tested against 50..100 Elo: H0
    even = [0.5, 0.25, 0.75, 0.5, 0.5, 1, 0, 0.5] * 50
    verdict, n, value = sequential_sprt(even, 50, 100)
    assert verdict == "H0" and n < 400 and value <= -math.log(19)
    # a hopeless agent tested for being better: H0
    weak = [0, 0.25, 0, 0, 0.5, 0] * 20
    assert sequential_sprt(weak, 0, 50)[0] == "H0"
    # no verdict on too little data
    assert sequential_sprt([0.75, 0.25], 0, 10)[0] is None


def _line(gid, deal, seats, outcome, scores=None, forfeit=None):
    n = len(seats)
    return {"id": gid, "deal": deal, "seats": seats, "outcome": outcome,
            "scores": scores if scores is not None else (None if forfeit is not None else [1.0] * n),
            "forfeit": forfeit, "forfeit_agent": None if forfeit is None else seats[forfeit], "reason": "x",
            "error": None, "actions": [1] * n, "think": [0.0] * n, "events": 10, "wall": 0.0}


def test_summary_pentanomial_units_from_duplicate_pairs():
    sch = make_schedule(2, 6, [0, 1] * 3, 8)  # 4 deals x 2 games
    labels = ["A", "B"]
    done = {}
    # per deal, A's result with A on team 0 and then with B on team 0
    plan = [(1.0, 1.0), (1.0, 0.5), (1.0, 0.0), (0.5, 0.0)]  # units 1, 0.75, 0.5, 0.25
    for d, (first, second) in enumerate(plan):
        for r, a_out in enumerate((first, second)):
            g = sch.game(2 * d + r)
            seats = [labels[a] for a in g.seats]
            outcome = [a_out if name == "A" else 1 - a_out for name in seats]
            done[g.id] = _line(g.id, d, seats, outcome)
    s = summarize(sch, labels, done)
    a, b = s["agents"]["A"], s["agents"]["B"]
    assert (a["wins"], a["draws"], a["losses"]) == (4, 2, 2)
    assert (b["wins"], b["draws"], b["losses"]) == (2, 2, 4)
    assert a["win_rate"] == pytest.approx(5 / 8)  # draws count half
    assert a["win_rate_ci95"] == pytest.approx(list(wilson_interval(5, 8)), abs=1e-6)
    assert a["decided_win_rate"] == pytest.approx(4 / 6)
    assert a["decided_win_rate_ci95"] == pytest.approx(list(wilson_interval(4, 6)), abs=1e-6)
    assert s["pairs"][0]["unit_scores"] == {"0.25": 1, "0.5": 1, "0.75": 1, "1": 1}
    elo, (lo, hi), _, _ = elo_interval([1, 0.75, 0.5, 0.25])
    assert a["elo"] == pytest.approx(elo, abs=0.01) and a["elo_ci95"] == pytest.approx([lo, hi], abs=0.01)
    assert b["elo"] == pytest.approx(-elo, abs=0.01)
    assert s["pairs"][0]["elo"] == a["elo"]


def test_summary_forfeit_scoring_and_incomplete_deals():
    sch = make_schedule(2, 6, [0, 1] * 3, 4)
    labels = ["A", "B"]
    g0, g1 = sch.game(0), sch.game(1)
    seats0 = [labels[a] for a in g0.seats]
    # game 0: B (seat 1) forfeits; A's team wins
    done = {0: _line(0, 0, seats0, [1.0 if n == "A" else 0.0 for n in seats0], forfeit=1)}
    s = summarize(sch, labels, done)
    assert s["agents"]["B"]["forfeits"] == 1 and s["agents"]["A"]["forfeits"] == 0
    assert s["agents"]["B"]["losses"] == 1 and s["forfeits"] == 1
    assert s["agents"]["A"]["points_games"] == 0  # a forfeited game has no points
    assert s["agents"]["A"]["units"] == 0  # deal 0 is not complete: no unit yet
    assert s["complete"] is False
    seats1 = [labels[a] for a in g1.seats]
    done[1] = _line(1, 0, seats1, [0.5] * 6)
    s = summarize(sch, labels, done)
    assert s["agents"]["A"]["units"] == 1 and s["agents"]["A"]["mean_unit_score"] == 0.75


def test_three_player_table_pairs_come_from_the_finishing_order():
    """Issue 25: at a three-player point game where C wins, A and B both lose the game but not
    to each other: the one with more points finished ahead. "Both lost" is no draw."""
    sch = make_schedule(3, 3, None, 3)   # one deal, three rotations of A B C
    labels = ["A", "B", "C"]
    # per game: C wins; A always finishes second (-100) ahead of B (-300), except in the
    # last game, where B (-50) finishes ahead of A (-200)
    plan = [{"A": -100.0, "B": -300.0, "C": 0.0}, {"A": -100.0, "B": -300.0, "C": 0.0},
            {"A": -200.0, "B": -50.0, "C": 0.0}]
    done = {}
    for gid, pts in enumerate(plan):
        g = sch.game(gid)
        seats = [labels[a] for a in g.seats]
        done[gid] = _line(gid, 0, seats, [1.0 if n == "C" else 0.0 for n in seats],
                          scores=[pts[n] for n in seats])
    s = summarize(sch, labels, done)
    pairs = {tuple(p["agents"]): p for p in s["pairs"]}
    ab = pairs[("A", "B")]
    assert (ab["wins"], ab["draws"], ab["losses"]) == (2, 0, 1)
    assert ab["unit_scores"] == {f"{2 / 3:g}": 1}
    assert ab["points_per_game"] == pytest.approx([-400 / 3, -650 / 3], abs=1e-4)   # both, in the games they met
    ac = pairs[("A", "C")]
    assert (ac["wins"], ac["draws"], ac["losses"]) == (0, 0, 3)
    a, b = s["agents"]["A"], s["agents"]["B"]
    assert (a["wins"], a["draws"], a["losses"]) == (0, 0, 3)          # nobody but C won a game
    assert a["points_per_game"] == pytest.approx(-400 / 3) and b["points_per_game"] == pytest.approx(-650 / 3)
    assert a["fair_share"] == pytest.approx(1 / 3) and s["agents"]["C"]["win_rate"] == 1.0
    # A's own unit: per game the mean of its pair scores (B, C): (1+0)/2, (1+0)/2, (0+0)/2
    assert a["mean_unit_score"] == pytest.approx((0.5 + 0.5 + 0.0) / 3, abs=1e-6)
    assert b["mean_unit_score"] == pytest.approx((0.0 + 0.0 + 0.5) / 3, abs=1e-6)


def test_fair_share_counts_seats_and_teams():
    from cardmind.tournament.summary import fair_share

    index = {"A": 0, "B": 1}
    line = {"seats": ["A", "B", "A", "B"]}
    assert fair_share(line, index, 0, None) == 0.5                   # two seats of four
    assert fair_share({"seats": ["A", "B", "B"]}, index, 0, None) == pytest.approx(1 / 3)
    assert fair_share({"seats": ["A", "B"] * 3}, index, 1, [0, 1] * 3) == 0.5   # one team of two
    assert fair_share({"seats": ["A", "B", "A", "B", "A", "B"]}, index, 0, [0, 1, 0, 1, 2, 2]) == pytest.approx(2 / 3)
