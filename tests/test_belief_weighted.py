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
