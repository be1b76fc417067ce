"""The C kernels of the Go Fish draw engine (``cardmind/games/gofish/draws/_drawdp.c``) against the numpy
reference in :mod:`cardmind.games.gofish.draws`: the kernels on random tables (float64 and
int64, with and without a mask), their refusal of bad input, and whole answers with the fast
path on and off (``draws.settings.DP_FAST``). Skipped when the extension is not built, unless
``CARDMIND_REQUIRE_EXTRAS`` is set (the README's test command): then a failure."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from extras import missing_extra

from cardmind.games.gofish.draws import dp as draws_dp
from cardmind.games.gofish.draws import settings as draw_settings
from cardmind.games.gofish.belief import GoFishBelief
from cardmind.records import read_record

if draws_dp._drawdp is None:
    missing_extra("the C extension cardmind.games.gofish.draws._drawdp", "install with a C compiler: pip install -e .")
from cardmind.games.gofish.draws import _drawdp

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "gofish-4p-complete.jsonl"


def _shift_tables(rng, dims=(3, 4, 3), U=12):
    """Gather and scatter tables of ``U`` random usages (shift vectors, the first one zero)
    in a box of states: ``gather[x, u]`` = the state ``u - x`` (``N`` outside the box),
    ``scatter[x, v]`` = ``v + x``, as ``_Space`` builds them."""
    grid = np.indices(dims).reshape(len(dims), -1).T
    N = len(grid)
    strides = np.array([int(np.prod(dims[i + 1:])) for i in range(len(dims))])
    keys = np.vstack([np.zeros(len(dims), dtype=np.int64)]
                     + [rng.integers(0, 3, size=len(dims)) for _ in range(U - 1)])

    def table(sign):
        V = grid[None, :, :] + sign * keys[:, None, :]
        ok = ((V >= 0) & (V < np.array(dims))).all(axis=2)
        return np.where(ok, V @ strides, N).astype(np.intp)
    return table(-1), table(1), N


def _tables(rng, dtype, rows_in=5, rows_out=4, n=7, sparse=False):
    """Random DP tables: F (rows_in x N+1, last column 0; with ``sparse`` most states 0, so
    that the kernel scatters), gather and scatter tables, usages ``ids``."""
    gat, sca, N = _shift_tables(rng)
    if dtype is np.int64:
        F = rng.integers(0, 1000, size=(rows_in, N + 1)).astype(np.int64)
        w = rng.integers(1, 50, size=n).astype(np.int64)
    else:
        F = rng.random((rows_in, N + 1))
        w = rng.random(n)
    if sparse:
        F[rng.random(F.shape) < 0.85] = 0
    F[:, N] = 0
    ids = rng.choice(len(gat), size=n, replace=False).astype(np.intp)
    out = (rng.random((rows_out, N + 1)) * 10).astype(dtype)
    out[:, N] = 0
    k = min(rows_in, rows_out)
    ri = rng.choice(rows_in, size=k, replace=False).astype(np.intp)
    ro = rng.choice(rows_out, size=k, replace=False).astype(np.intp)
    return out, ro, F, ri, w, gat, sca, ids


@pytest.mark.parametrize("dtype", [float, np.int64])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_mix_add_matches_numpy(dtype, sparse, seed):
    """Dense rows are gathered, sparse ones scattered: both give numpy's sum, and the zero
    column stays 0."""
    rng = np.random.default_rng(seed)
    out, ro, F, ri, w, gat, sca, ids = _tables(rng, dtype, sparse=sparse)
    N = gat.shape[1]
    ref = out.copy()
    ref[ro, :N] += np.einsum("n,anu->au", w, F[ri][:, gat[ids]])
    for sign_tables in ((gat, sca), (sca, gat)):   # the forward and the backward step
        got = out.copy()
        want = out.copy()
        want[ro, :N] += np.einsum("n,anu->au", w, F[ri][:, sign_tables[0][ids]])
        _drawdp.mix_add(got, ro, F, ri, w, *sign_tables, ids)
        if dtype is np.int64:
            assert np.array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=1e-12)
        assert not got[:, N].any()
    assert not np.array_equal(ref, out)   # the sum did something


@pytest.mark.parametrize("dtype", [float, np.int64])
@pytest.mark.parametrize("masked", [False, True])
def test_context_matches_numpy(dtype, masked):
    rng = np.random.default_rng(7)
    _, _, F, _, _, tab, _, ids = _tables(rng, dtype, sparse=masked)
    T = F[::-1].copy()
    T[T == 0] = 1
    N = tab.shape[1]
    p = np.array([0, 2, 4], dtype=np.intp)
    q = np.array([1, 1, 3], dtype=np.intp)
    mask = rng.random(N) < 0.5 if masked else None
    Fa = F[p, :N] * (mask if masked else 1)
    ref = np.einsum("au,anu->n", Fa, T[q][:, tab[ids]])
    out = np.zeros(len(ids), dtype=dtype)
    _drawdp.context(out, F, p, T, q, tab, ids, mask)
    if dtype is np.int64:
        assert np.array_equal(out, ref)
    else:
        np.testing.assert_allclose(out, ref, rtol=1e-12)
    assert out.any()


def test_kernels_refuse_bad_input():
    rng = np.random.default_rng(1)
    out, ro, F, ri, w, gat, sca, ids = _tables(rng, float)
    before = out.copy()
    with pytest.raises(ValueError, match="ri: index 99"):
        _drawdp.mix_add(out, ro, F, np.full_like(ri, 99), w, gat, sca, ids)
    for name in ("gather", "scatter"):
        bad = (gat if name == "gather" else sca).copy()
        bad[ids[0], 0] = gat.shape[1] + 5
        with pytest.raises(ValueError, match=f"{name}: entry"):
            _drawdp.mix_add(out, ro, F, ri, w, *((bad, sca) if name == "gather" else (gat, bad)), ids)
    with pytest.raises(ValueError, match="float64"):
        _drawdp.mix_add(out, ro, F.astype(np.float32), ri, w, gat, sca, ids)
    with pytest.raises(ValueError, match="shapes"):
        _drawdp.mix_add(out, ro, F[:, :-1].copy(), ri, w, gat, sca, ids)
    with pytest.raises(ValueError, match="C-contiguous"):
        _drawdp.mix_add(out, ro, F[:, ::2], ri, w, gat, sca, ids)
    assert np.array_equal(out, before)   # nothing written on refusal


def _answer(upto: int, fast: bool, monkeypatch, **opts):
    monkeypatch.setattr(draw_settings, "DP_FAST", fast)
    # the planned sum (the compact sum, tried first by default, has its own kernels and tests)
    b = GoFishBelief.from_record(read_record(EXAMPLE), seat=1, upto_event=upto,
                                 draw_options={"compact": False, **opts})
    return b, b.holdings(exact=True), b.books(exact=True)


@pytest.mark.parametrize("upto", [25, 40])
def test_full_deck_answer_same_with_and_without_the_kernels(upto, monkeypatch):
    """A full-deck four-player position summed exactly in floating point (mode ``enumerated``;
    the integer modes on reduced decks go through the kernels in test_gofish_belief's
    brute-force comparisons) gives the same answer through the C kernels and numpy."""
    fb, fh, fk = _answer(upto, True, monkeypatch)
    rb, rh, rk = _answer(upto, False, monkeypatch)
    assert fb.mode == rb.mode == "enumerated"
    assert fh.keys() == rh.keys()
    n = 0
    for seat in fh:
        for r in fh[seat]:
            assert fh[seat][r].keys() == rh[seat][r].keys()
            for c, v in fh[seat][r].items():
                assert v == pytest.approx(rh[seat][r][c], abs=1e-12)
                n += 0 < v < 1
    assert n > 10   # a position with real uncertainty
    assert len(fk) == len(rk) > 0
    for a, b in zip(fk, rk):
        assert a["ranks"].keys() == b["ranks"].keys()
        assert all(a["ranks"][r] == pytest.approx(b["ranks"][r], abs=1e-12) for r in a["ranks"])


@pytest.fixture(autouse=True)
def _uniform_by_default(monkeypatch):
    """These tests check the draw engine's constraint-only answer: trackers built without a
    model count the deals alike (with three or more players the default ``auto`` reweighs
    sampled deals on top of it; ``tests/test_gofish_models_multi.py`` tests that)."""
    from cardmind.games.gofish import models as _gofish_models

    monkeypatch.setattr(_gofish_models, "MODELS", ("uniform", "auto", "peer", "belief", "random"))
