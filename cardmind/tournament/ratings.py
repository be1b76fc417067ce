"""Statistics of a tournament: Wilson intervals, Elo from duplicate pairs, and the GSPRT.

Everything here is pure arithmetic on numbers (no games), so it is tested against
textbook values.

Sources:

* Wilson score interval: E. B. Wilson, "Probable inference, the law of succession, and
  statistical inference", JASA 22 (1927) 209-212; see also Agresti & Coull, "Approximate
  is better than exact for interval estimation of binomial proportions", The American
  Statistician 52 (1998) 119-126.
* Logistic Elo: an expected score ``s`` corresponds to ``elo = -400 log10(1/s - 1)``
  (A. Elo, *The Rating of Chessplayers*, 1978; the logistic form used by fishtest and
  cutechess).
* Pentanomial model and GSPRT: Michel Van den Bergh, "Support of the MLE for a multinomial
  distribution with fixed expectation" (``support_MLE_multinomial.pdf``, Proposition 1.1)
  and "A GSPRT approximation" (``GSPRT_approximation.pdf``), both at
  https://www.cantate.be/Fishtest/ ; as implemented in fishtest's
  ``server/fishtest/stats/LLRcalc.py`` (``LLR_logistic``, ``MLE_expected``, ``regularize``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

#: the 0.975 quantile of the standard normal distribution (two-sided 95%)
Z95 = 1.959963984540054


def wilson_interval(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion.

    ``center = (p + z²/2n) / (1 + z²/n)``, ``half = z / (1 + z²/n) · sqrt(p(1-p)/n + z²/4n²)``
    with ``p = successes / n``. ``successes`` may be fractional (draws counted as half).
    Returns ``(0.0, 1.0)`` when ``n == 0``.
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n)))
    return (max(0.0, center - half), min(1.0, center + half))


def elo_from_score(s: float) -> float:
    """Logistic Elo difference for expected score ``s``: ``-400 log10(1/s - 1)``
    (``±inf`` at 0 and 1)."""
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score for an Elo difference: ``1 / (1 + 10^(-elo/400))``."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def mean_and_se(values: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the mean (sample standard deviation, ``ddof=1``, over
    ``sqrt(N)``); the error is ``nan`` with fewer than two values."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan)
    mean = math.fsum(values) / n
    if n < 2:
        return (mean, math.nan)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return (mean, math.sqrt(var / n))


def elo_interval(units: Sequence[float], z: float = Z95) -> tuple[float, tuple[float, float], float, float]:
    """Elo difference with a 95% interval from independent unit scores in [0, 1].

    Each unit is one duplicate set (for two agents in a team game: the two games of one
    deal, scoring 0, 0.25, 0.5, 0.75 or 1: the pentanomial model). The mean score ``s`` and
    its standard error ``se`` over units give ``elo(s)`` and the interval
    ``[elo(s - z·se), elo(s + z·se)]`` (transforming the ends of the score interval, which
    keeps the asymmetry of the logistic curve; ends beyond 0 or 1 become ``∓inf``).

    When every unit has the same score strictly between 0 and 1, the sample spread is 0 and
    the standard error is taken as ``sqrt(s (1 - s) / N)``, the largest it can be for that mean.

    Returns:
        ``(elo, (lo, hi), mean score, se)``; ``nan`` entries when there are no units
        (or fewer than two for the interval).
    """
    s, se = mean_and_se(units)
    if math.isnan(s):
        return (math.nan, (math.nan, math.nan), s, se)
    elo = elo_from_score(s)
    if math.isnan(se):
        return (elo, (math.nan, math.nan), s, se)
    if se == 0.0 and 0.0 < s < 1.0:
        # every unit scored the same: the sample says nothing of the spread, so use the
        # largest variance a score in [0, 1] with mean s can have, s(1 - s) (no zero-width
        # interval from a handful of deals)
        se = math.sqrt(s * (1.0 - s) / len(units))
    return (elo, (elo_from_score(s - z * se), elo_from_score(s + z * se)), s, se)


# ---------------------------------------------------------------------------- GSPRT
def _mle_with_mean(values: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """The maximum-likelihood distribution on ``values`` with expectation ``s`` given the
    empirical probabilities ``probs`` (Van den Bergh, support_MLE_multinomial.pdf, Prop. 1.1):
    ``p_i = probs_i / (1 + x (values_i - s))`` where ``x`` solves the secular equation
    ``sum probs_i (values_i - s) / (1 + x (values_i - s)) = 0``."""
    from scipy.optimize import brentq  # noqa: PLC0415 - scipy is slow to import

    d = [v - s for v in values]
    lo, hi = min(d), max(d)
    if not (lo < 0 < hi):
        raise ValueError(f"score {s} is not strictly inside the range of the outcomes")

    pd = [(p * di, di) for p, di in zip(probs, d)]

    def f(x: float) -> float:
        return sum(a / (1 + x * di) for a, di in pd)

    eps = 1e-9
    x = brentq(f, -1 / hi + eps, -1 / lo - eps, xtol=1e-15, rtol=1e-15, maxiter=500)
    return [p / (1 + x * di) for p, di in zip(probs, d)]


def llr(units: Iterable[float], elo0: float, elo1: float, grid: Sequence[float] = (0.0, 0.25, 0.5, 0.75, 1.0),
        regularize: float = 1e-3) -> float:
    """The generalized log-likelihood ratio of H1 (``elo = elo1``) against H0 (``elo = elo0``).

    The unit scores are counted on ``grid`` (plus any observed value not on it); a value
    never observed gets the count ``regularize`` (fishtest's ``regularize``) so that the
    maximum-likelihood distributions below exist. With ``N`` units, empirical distribution
    ``p̂`` and ``s_j = 1 / (1 + 10^(-elo_j/400))``, ``p_j`` is the maximum-likelihood
    distribution with expectation ``s_j`` (:func:`_mle_with_mean`), and

        ``LLR = N · Σ_i p̂_i · (ln p1_i - ln p0_i)``.

    This is the exact GSPRT statistic of fishtest's ``LLR_logistic`` (Van den Bergh,
    support_MLE_multinomial.pdf and GSPRT_approximation.pdf; the latter shows it is close to
    ``N (s1 - s0)(2 s̄ - s0 - s1) / (2 σ̂²)``, which :func:`llr_approx` computes).
    """
    counts: dict[float, float] = {}
    for u in units:
        key = round(float(u), 12)
        counts[key] = counts.get(key, 0.0) + 1.0
    return llr_from_counts(counts, elo0, elo1, grid, regularize)


def llr_from_counts(counts: dict[float, float], elo0: float, elo1: float,
                    grid: Sequence[float] = (0.0, 0.25, 0.5, 0.75, 1.0), regularize: float = 1e-3) -> float:
    """:func:`llr` from ``{unit score: number of units}``."""
    if not any(c > 0 for c in counts.values()):
        return 0.0
    merged = {round(float(g), 12): 0.0 for g in grid}
    for v, c in counts.items():
        key = round(float(v), 12)
        merged[key] = merged.get(key, 0.0) + c
    values = sorted(merged)
    raw = [merged[v] if merged[v] > 0 else regularize for v in values]
    total = math.fsum(raw)
    probs = [c / total for c in raw]
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    p0 = _mle_with_mean(values, probs, s0)
    p1 = _mle_with_mean(values, probs, s1)
    return total * math.fsum(p * (math.log(a) - math.log(b)) for p, a, b in zip(probs, p1, p0))


def llr_approx(units: Sequence[float], elo0: float, elo1: float) -> float:
    """The normal approximation of the LLR (Van den Bergh, GSPRT_approximation.pdf):
    ``N (s1 - s0)(2 s̄ - s0 - s1) / (2 σ̂²)`` with ``σ̂²`` the (population) variance of the
    unit scores. Used to cross-check :func:`llr`."""
    n = len(units)
    if n == 0:
        return 0.0
    mean = math.fsum(units) / n
    var = math.fsum((u - mean) ** 2 for u in units) / n
    if var == 0:
        return math.copysign(math.inf, (mean - (score_from_elo(elo0) + score_from_elo(elo1)) / 2))
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds ``(ln(β/(1-α)), ln((1-β)/α))``: at or below the first accept H0, at or
    above the second accept H1."""
    return (math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))


def sprt_verdict(value: float, alpha: float = 0.05, beta: float = 0.05) -> str | None:
    """``"H0"``, ``"H1"`` or ``None`` (keep playing) for an LLR ``value``."""
    lo, hi = sprt_bounds(alpha, beta)
    if value >= hi:
        return "H1"
    if value <= lo:
        return "H0"
    return None


def sequential_sprt(units: Iterable[float], elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05,
                    grid: Sequence[float] = (0.0, 0.25, 0.5, 0.75, 1.0)) -> tuple[str | None, int, float]:
    """Run the SPRT over ``units`` in order, stopping at the first verdict.

    Returns:
        ``(verdict or None, units used, LLR at that point)``.
    """
    seen: list[float] = []
    value = 0.0
    for u in units:
        seen.append(u)
        value = llr(seen, elo0, elo1, grid)
        verdict = sprt_verdict(value, alpha, beta)
        if verdict is not None:
            return verdict, len(seen), value
    return None, len(seen), value
