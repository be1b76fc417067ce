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
Where the likelihood factors over the blocks of an exact counter, a game may fold the weights
into its exact count instead of sampling.
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


__all__ = ["ChoiceModel", "UniformChoice", "SoftmaxChoice", "Weights", "importance_weights", "weighted_mean",
           "model_from_json", "load_model"]
