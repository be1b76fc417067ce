"""Player models: how likely each observed choice was, and posteriors weighted by it.

A constraint-only tracker counts every deal consistent with the events as equally likely, as
if the players chose their moves at random. A **player model** says how likely a player was to
make the choice it made (an ask, a take, a pass, a discard, a claim) given what that player
could see; in a hypothetical deal the choices of every player then have a likelihood, and the
posterior weighs each consistent deal by it::

    P(deal | events) ∝ [deal consistent with the events] * prod_choices P(choice | deal, model)

This module holds the game-independent parts:

* :class:`ChoiceModel` and its two kinds: :class:`UniformChoice` (every legal option equally
  likely: the likelihood does not depend on the deal and cancels, which is the constraint-only
  posterior) and :class:`SoftmaxChoice` (``P(option i) ∝ exp(w · x_i)`` over feature vectors
  ``x_i`` of the legal options, with weights ``w`` fitted by maximum likelihood:
  :meth:`SoftmaxChoice.fit`);
* :func:`importance_weights` and :func:`weighted_mean`: weighing worlds drawn from the uniform
  posterior (the exact samplers of the trackers) by their log-likelihoods, with the effective
  sample size (Kish) and the standard error of a weighted mean (self-normalised importance
  sampling, delta method).

Each game supplies the game-specific part: which choices its records show, and the feature
vector of every legal option of a choice in a given world (what the chooser held there).
Two ways to get the weighted posterior, both generic:

* **Exactly, where the weights factor into the counting engine's blocks.** When the
  log-likelihood of the choices is a sum of terms each of which depends on one block (a
  Literature set, a Go Fish rank) only through *how many* of the block's hidden items one seat
  holds, collect those terms in a :class:`CountFactors` and multiply each block's polynomial
  by :meth:`CountFactors.factor` (``exp`` of the terms of that block's usage). The block
  product (:class:`cardmind.belief.blocks.BlockProduct`, real weights) then gives the exact
  weighted total, context counts and every query, at the cost of one more count.
* **Otherwise, by importance weighting** the exact uniform sampler's worlds with
  :func:`weighted_posterior` (any likelihood; reports the effective sample size and the
  standard error of every estimate).

How to use them in another game (a tracker with a block counter and an exact uniform sampler)::

    factors = CountFactors()
    for choice in observed_choices:              # the game's own: asks, takes, discards ...
        for block, seat, log_w in choice_terms(choice):   # log_w[k]: count k at that seat
            factors.add(block, seat, log_w)
    weighted = {d: w * factors.factor(block, d, seats) for d, w in poly.items()}   # per block

    est = weighted_posterior(tracker.sample_deal, lambda worlds: loglik(worlds),
                             lambda world: indicator_vector(world), n=400, rng=rng)
    est.mean, est.stderr, est.ess                 # the same posterior, sampled
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np


class ChoiceModel:
    """The likelihood of one choice among legal options described by feature rows."""

    #: the model's name as the CLI and records show it (``"uniform"``, ``"peer"``, ...)
    name: str = "model"

    def log_probs(self, features: np.ndarray) -> np.ndarray:
        """``log P(option i)`` for every row of ``features`` (shape ``(options, features)``);
        a vector that sums (as probabilities) to 1."""
        raise NotImplementedError

    def log_prob(self, features: np.ndarray, chosen: int) -> float:
        """``log P(chosen)`` among the rows of ``features``.

        Raises:
            IndexError: ``chosen`` is not a row.
        """
        lp = self.log_probs(np.asarray(features, dtype=float))
        if not 0 <= chosen < len(lp):
            raise IndexError(f"choice {chosen} is not one of the {len(lp)} options")
        return float(lp[chosen])


class UniformChoice(ChoiceModel):
    """Every legal option equally likely: ``log P = -log(options)`` whatever the features (the
    constraint-only posterior)."""

    name = "uniform"

    def log_probs(self, features: np.ndarray) -> np.ndarray:
        n = len(features)
        if n == 0:
            raise ValueError("a choice needs at least one option")
        return np.full(n, -np.log(n))

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "uniform", "name": ...}``."""
        return {"kind": "uniform", "name": self.name}


def _log_softmax(z: np.ndarray) -> np.ndarray:
    m = z.max()
    return z - m - np.log(np.exp(z - m).sum())


@dataclass
class SoftmaxChoice(ChoiceModel):
    """``P(option i) ∝ exp(w · x_i)`` (a conditional logit).

    Attributes:
        weights: ``w``, one per feature (shape ``(features,)``).
        features: the features' names, in the order of the columns.
        name: the model's name.
        info: how it was fitted (decisions, log-likelihood per decision, standard errors of
            the weights from the observed information, the source of the games).
    """

    weights: np.ndarray
    features: tuple[str, ...]
    name: str = "softmax"
    info: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.weights = np.asarray(self.weights, dtype=float)
        if self.weights.shape != (len(self.features),):
            raise ValueError(f"{len(self.weights)} weights for {len(self.features)} features")

    def log_probs(self, features: np.ndarray) -> np.ndarray:
        x = np.asarray(features, dtype=float)
        if x.ndim != 2 or x.shape[1] != len(self.weights) or len(x) == 0:
            raise ValueError(f"features must have shape (options >= 1, {len(self.weights)}), not {x.shape}")
        return _log_softmax(x @ self.weights)

    @classmethod
    def fit(cls, decisions: Iterable[tuple[np.ndarray, int]], features: Sequence[str], name: str = "softmax",
            l2: float = 1e-3, source: str = "") -> "SoftmaxChoice":
        """Fit ``w`` by maximum likelihood (with a small ridge ``l2 * |w|^2 / 2`` so that a
        feature that separates the data perfectly stays finite).

        Args:
            decisions: ``(features of every legal option, index of the one chosen)`` per
                observed choice; options of one decision share the feature columns.
            features: the column names.
            name: the fitted model's name.
            l2: the ridge strength (per decision).
            source: where the decisions came from (kept in :attr:`info`).

        Raises:
            ValueError: no decisions, or a decision whose shape does not fit ``features``.
        """
        from scipy.optimize import minimize  # noqa: PLC0415

        data = []
        for x, c in decisions:
            x = np.asarray(x, dtype=float)
            if x.ndim != 2 or x.shape[1] != len(features) or not 0 <= c < len(x):
                raise ValueError(f"a decision of shape {x.shape} (choice {c}) does not fit {len(features)} features")
            if len(x) > 1:   # a forced choice says nothing about w
                data.append((x, int(c)))
        if not data:
            raise ValueError("no decision with more than one option to fit on")
        n = len(data)

        def nll(w: np.ndarray) -> tuple[float, np.ndarray]:
            total, grad = 0.0, np.zeros_like(w)
            for x, c in data:
                lp = _log_softmax(x @ w)
                p = np.exp(lp)
                total -= lp[c]
                grad -= x[c] - p @ x
            total += 0.5 * l2 * n * float(w @ w)
            grad += l2 * n * w
            return total, grad

        w0 = np.zeros(len(features))
        res = minimize(nll, w0, jac=True, method="L-BFGS-B")
        w = res.x
        hess = np.zeros((len(w), len(w)))
        for x, _ in data:
            p = np.exp(_log_softmax(x @ w))
            mu = p @ x
            hess += (x * p[:, None]).T @ x - np.outer(mu, mu)
        hess += l2 * n * np.eye(len(w))
        try:
            se = np.sqrt(np.clip(np.diag(np.linalg.inv(hess)), 0, None))
        except np.linalg.LinAlgError:
            se = np.full(len(w), np.nan)
        info = {"decisions": n, "log_likelihood": -float(res.fun), "mean_log_likelihood": -float(res.fun) / n,
                "uniform_log_likelihood": -float(sum(np.log(len(x)) for x, _ in data)),
                "stderr": [float(v) for v in se], "l2": l2, "converged": bool(res.success), "source": source}
        return cls(w, tuple(features), name, info)

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "softmax", "name", "features", "weights", "info"}``."""
        return {"kind": "softmax", "name": self.name, "features": list(self.features),
                "weights": [float(v) for v in self.weights], "info": self.info}


def model_from_json(obj: dict[str, Any]) -> ChoiceModel:
    """A model from :meth:`SoftmaxChoice.to_json` or :meth:`UniformChoice.to_json`.

    Raises:
        ValueError: an unknown ``kind`` or a malformed object.
    """
    kind = obj.get("kind") if isinstance(obj, dict) else None
    if kind == "uniform":
        m = UniformChoice()
        m.name = obj.get("name", "uniform")
        return m
    if kind == "softmax":
        try:
            return SoftmaxChoice(np.asarray(obj["weights"], dtype=float), tuple(obj["features"]),
                                 obj.get("name", "softmax"), dict(obj.get("info", {})))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed softmax model: {exc}") from None
    raise ValueError(f"unknown player model kind {kind!r} (uniform or softmax)")


def load_model(path) -> ChoiceModel:
    """A model saved as JSON (:func:`model_from_json`)."""
    with open(path, encoding="utf-8") as fh:
        return model_from_json(json.load(fh))


# ---------------------------------------------------------------------------- weighting
@dataclass(frozen=True)
class Weights:
    """Normalised importance weights of sampled worlds.

    Attributes:
        w: the weights, summing to 1 (shape ``(samples,)``).
        ess: Kish's effective sample size, ``1 / sum(w**2)`` (``samples`` when all weights are
            equal, 1 when one world has them all).
        log_mean: ``log`` of the mean unnormalised weight (the log-likelihood of the choices
            averaged over the uniform posterior: comparable between models).
    """

    w: np.ndarray
    ess: float
    log_mean: float


def importance_weights(log_w: Sequence[float] | np.ndarray) -> Weights:
    """Normalise the log-likelihoods ``log_w`` of worlds drawn from the uniform posterior.

    Raises:
        ValueError: no worlds, or every weight is zero (``-inf``).
    """
    lw = np.asarray(log_w, dtype=float)
    if lw.ndim != 1 or len(lw) == 0:
        raise ValueError("importance weights need a non-empty vector of log-likelihoods")
    m = lw.max()
    if not np.isfinite(m):
        raise ValueError("every world has likelihood zero under the model")
    u = np.exp(lw - m)
    w = u / u.sum()
    return Weights(w, float(1.0 / np.sum(w * w)), float(m + np.log(u.mean())))


def weighted_mean(values: np.ndarray, log_w: Sequence[float] | np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The self-normalised importance-sampling mean of ``values`` (shape ``(samples, ...)``)
    under the weights ``exp(log_w)``, its standard error and the effective sample size.

    The standard error is the delta-method one, ``sqrt(sum w_i^2 (v_i - mean)^2)`` with the
    normalised weights ``w`` (Owen, *Monte Carlo theory, methods and examples*, 9.2); it is 0
    for a single world and grows as the effective sample size falls.

    Returns:
        ``(mean, stderr, ess)``: ``mean`` and ``stderr`` of the shape of one value.
    """
    v = np.asarray(values, dtype=float)
    wt = importance_weights(log_w)
    if len(v) != len(wt.w):
        raise ValueError(f"{len(v)} values for {len(wt.w)} weights")
    shape = (-1,) + (1,) * (v.ndim - 1)
    w = wt.w.reshape(shape)
    mean = (w * v).sum(axis=0)
    se = np.sqrt((w * w * (v - mean) ** 2).sum(axis=0))
    return mean, se, wt.ess


# ---------------------------------------------------------------------------- exact: count factors
class CountFactors:
    """Log-likelihood terms that depend on one block through one seat's count of its hidden items.

    A term ``(block, seat, log_w)`` says: the likelihood of the choices is multiplied by
    ``exp(log_w[k])`` when ``seat`` holds ``k`` of ``block``'s hidden items (``log_w`` has one
    entry per possible count, ``0 .. block size``). Terms of the same ``(block, seat)`` add
    up. Because every term depends on a single block's usage, the product over all terms
    factors into the blocks of an exact counter: multiply the weight ``w(d)`` of each usage
    ``d`` of a block by :meth:`factor`, and the block product gives the exact weighted
    posterior (see the module docstring).

    Attributes:
        terms: ``{block: {seat: np.ndarray of log-weights by count}}``.
    """

    def __init__(self) -> None:
        self.terms: dict[Any, dict[int, np.ndarray]] = {}

    def add(self, block: Any, seat: int, log_w: Sequence[float] | np.ndarray) -> None:
        """Add the term ``log_w[k]`` (``k`` = how many of ``block``'s hidden items ``seat``
        holds) to the log-likelihood.

        Raises:
            ValueError: ``log_w`` is empty or not finite where it is defined (``-inf`` is
                allowed: that count is impossible under the model).
        """
        lw = np.asarray(log_w, dtype=float)
        if lw.ndim != 1 or len(lw) == 0 or np.isnan(lw).any() or (lw == np.inf).any():
            raise ValueError(f"a count factor needs a vector of log-weights (no NaN, no +inf), not {log_w!r}")
        seats = self.terms.setdefault(block, {})
        old = seats.get(seat)
        if old is None:
            seats[seat] = lw.copy()
        else:
            n = max(len(old), len(lw))
            seats[seat] = np.pad(old, (0, n - len(old))) + np.pad(lw, (0, n - len(lw)))

    def __bool__(self) -> bool:
        return any(self.terms.values())

    def blocks(self) -> list[Any]:
        """The blocks that have terms."""
        return [b for b, seats in self.terms.items() if seats]

    def seats(self) -> set[int]:
        """Every seat some term depends on (a counter must keep them apart, not merged)."""
        return {s for seats in self.terms.values() for s in seats}

    def log_factor(self, block: Any, usage: Sequence[int], seat_order: Sequence[int]) -> float:
        """The sum of ``block``'s terms at ``usage`` (``usage[i]`` = items at ``seat_order[i]``;
        a seat not in ``seat_order``, for example one with no room for hidden items, holds none).

        Raises:
            ValueError: a count beyond its term's table.
        """
        total = 0.0
        order = list(seat_order)
        for seat, lw in self.terms.get(block, {}).items():
            k = usage[order.index(seat)] if seat in order else 0
            if k >= len(lw):
                raise ValueError(f"seat {seat} holds {k} items of block {block!r}; its term covers 0..{len(lw) - 1}")
            total += float(lw[k])
        return total

    def factor(self, block: Any, usage: Sequence[int], seat_order: Sequence[int]) -> float:
        """``exp(log_factor(...))``: what to multiply the block's weight ``w(usage)`` by."""
        return float(np.exp(self.log_factor(block, usage, seat_order)))

    def weigh(self, block: Any, weights: dict[tuple[int, ...], int], seat_order: Sequence[int],
              shift: float = 0.0) -> dict[tuple[int, ...], float]:
        """``{usage: w(usage) * exp(log_factor - shift)}``: a block's polynomial weighted.
        ``shift`` (for example the largest log-factor) keeps the numbers in range; it scales
        the whole block and cancels in every probability."""
        return {d: w * float(np.exp(self.log_factor(block, d, seat_order) - shift)) for d, w in weights.items()}


def poisson_binomial(p: Sequence[float] | np.ndarray) -> np.ndarray:
    """``P(K = k)`` for ``k = 0 .. len(p)`` where ``K`` is the number of successes of
    independent trials with success probabilities ``p`` (exact convolution)."""
    out = np.zeros(len(p) + 1)
    out[0] = 1.0
    for i, q in enumerate(p):
        out[1:i + 2] = out[1:i + 2] * (1 - q) + out[0:i + 1] * q
        out[0] *= 1 - q
    return out


# ---------------------------------------------------------------------------- sampled: importance weighting
@dataclass(frozen=True)
class WeightedEstimate:
    """A posterior mean estimated from weighted worlds.

    Attributes:
        mean: the weighted mean of the values (shape of one value).
        stderr: its standard error (self-normalised importance sampling, delta method).
        ess: Kish's effective sample size of the weights.
        samples: how many worlds were drawn.
        log_mean: ``log`` of the mean likelihood of the worlds (comparable between models
            on the same worlds: a larger value means the model explains the choices better).
    """

    mean: np.ndarray
    stderr: np.ndarray
    ess: float
    samples: int
    log_mean: float


def weighted_posterior(draw, loglik, values, n: int, rng: np.random.Generator) -> WeightedEstimate:
    """The posterior mean of ``values(world)`` when the worlds consistent with the events are
    weighted by the likelihood of the players' choices, by importance weighting ``n`` worlds
    drawn exactly uniformly from the consistent ones.

    Args:
        draw: ``draw(rng) -> world``: one consistent world, uniformly (a tracker's exact
            sampler, e.g. ``LiteratureBelief.sample_deal``).
        loglik: ``loglik(worlds) -> np.ndarray`` of shape ``(len(worlds),)``: the
            log-likelihood of every observed choice in each world (up to a constant).
        values: ``values(world) -> array``: what to average (indicators give probabilities).
        n: the number of worlds (at least 1).
        rng: the source of randomness.

    Returns:
        A :class:`WeightedEstimate`; with the uniform model (``loglik`` constant) its mean is
        the plain average and ``ess == n``.

    Raises:
        ValueError: ``n < 1``, or every world has likelihood zero.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"weighted_posterior needs at least one world, not {n!r}")
    worlds = [draw(rng) for _ in range(int(n))]
    lw = np.asarray(loglik(worlds), dtype=float)
    if lw.shape != (len(worlds),):
        raise ValueError(f"loglik returned shape {lw.shape} for {len(worlds)} worlds")
    vals = np.asarray([values(w) for w in worlds], dtype=float)
    mean, se, ess = weighted_mean(vals, lw)
    return WeightedEstimate(mean, se, ess, len(worlds), importance_weights(lw).log_mean)


__all__ = ["ChoiceModel", "UniformChoice", "SoftmaxChoice", "Weights", "importance_weights", "weighted_mean",
           "model_from_json", "load_model", "CountFactors", "poisson_binomial", "WeightedEstimate",
           "weighted_posterior"]
