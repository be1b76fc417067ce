"""What the calibration studies (``eval/calibration_GAME.py``, run by ``eval/calibration.py``)
share: the bins of predicted probability and the reliability of predictions per bin."""

from __future__ import annotations

import numpy as np

#: the bins of predicted probability: 0-0.1, ..., 0.9-1.0 (the last includes 1)
BINS = np.linspace(0.0, 1.0, 11)


def reliability(p: np.ndarray, y: np.ndarray) -> list[tuple[int, float, float]]:
    """Per bin of :data:`BINS` (the last includes 1) for predictions ``p`` (probabilities,
    shape ``(n,)``) of outcomes ``y`` (0 or 1, same shape): ``(count, mean predicted,
    observed frequency)``, NaN for an empty bin."""
    out = []
    idx = np.clip(np.digitize(p, BINS[1:-1]), 0, len(BINS) - 2)
    for b in range(len(BINS) - 1):
        m = idx == b
        n = int(m.sum())
        out.append((n, float(p[m].mean()) if n else float("nan"), float(y[m].mean()) if n else float("nan")))
    return out
