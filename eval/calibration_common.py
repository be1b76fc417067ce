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


#: the target of issue 24: within this many points (as a fraction) of what happened in every
#: bin of at least MIN_N predictions
TARGET, MIN_N = 0.05, 100

#: the bins' labels, "0.0-0.1" ... "0.9-1.0"
BIN_LABELS = [f"{BINS[b]:.1f}-{BINS[b + 1]:.1f}" for b in range(len(BINS) - 1)]


def reliability_cells(p: np.ndarray, y: np.ndarray) -> tuple[list[str], list[tuple[str, int, float, float]]]:
    """The reliability of predictions ``p`` of outcomes ``y`` (as :func:`reliability`) as the
    cells of a Markdown table row (``"n: predicted / observed"``, empty for an empty bin, in
    bold where the bin misses the target) and the bins that miss it: ``(label, n, mean
    predicted, observed)``."""
    cells, misses = [], []
    for label, (n, mp, ob) in zip(BIN_LABELS, reliability(p, y)):
        if not n:
            cells.append("")
            continue
        txt = f"{n}: {mp:.2f} / {ob:.2f}"
        if n >= MIN_N and abs(mp - ob) > TARGET:
            txt = f"**{txt}**"
            misses.append((label, n, mp, ob))
        cells.append(txt)
    return cells, misses
