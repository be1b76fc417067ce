"""The draw engine's planned exact sum on a full deck (cardmind.games.gofish.draws).

Past its guaranteed range the default tracker sums over every unseen draw when the live
subsets of :meth:`_DP.live_rows` fit its table budget, in the block order of
:func:`block_order`. The brute-force comparisons of test_gofish_belief cover this path on
reduced decks (engine ``draws-planned``); here: the order changes the tables' size but not
the sum, and the planned answer equals the enumeration's on a full-deck position.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cardmind.games.gofish.draws import DrawEngine
from cardmind.games.gofish.draws import dp as gd
from cardmind.games.gofish.draws import settings as draw_settings
from cardmind.games.gofish.belief import GoFishBelief
from cardmind.records import read_record

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "gofish-4p-complete.jsonl"


def _from_record(*args, **kw) -> GoFishBelief:
    """The tracker of the draw engine's constraint-only answer (``model="uniform"``: with
    four players the default ``auto`` reweighs sampled deals on top of it)."""
    return GoFishBelief.from_record(*args, model="uniform", **kw)


def _assert_same_holdings(got: dict, want: dict) -> None:
    """Every holdings probability of ``want`` is in ``got`` and equal to 1e-12, and the
    position has real uncertainty (more than 10 probabilities strictly between 0 and 1)."""
    n = 0
    for seat in want:
        for r in want[seat]:
            for c, v in want[seat][r].items():
                assert got[seat][r][c] == pytest.approx(v, abs=1e-12)
                n += 0 < v < 1
    assert n > 10


def _assert_same_books(got: list, want: list) -> None:
    """Every face-down book's rank probabilities of ``want`` equal ``got``'s to 1e-12."""
    assert len(got) == len(want)
    for a, b in zip(got, want):
        assert all(a["ranks"].get(r, 0) == pytest.approx(v, abs=1e-12) for r, v in b["ranks"].items())


def _position(upto: int):
    """(engine, timeline, variants with every unseen draw free, number of draws) at a prefix
    of the example record, seat 1."""
    b = _from_record(read_record(EXAMPLE), seat=1, upto_event=upto)
    b.holdings()
    eng = b._draws
    tl = eng._tl
    D = len(tl.draws)
    return eng, tl, eng.variants(tl, {}, list(range(D)), tl.n), D


def test_block_order_keeps_the_sum_and_shrinks_the_tables():
    eng, tl, vb, D = _position(40)
    assert D >= 8
    sp = eng._space(tl.opening(tl.n))
    best = gd.block_order(vb, D)
    freeish = [any(t for t, _ in vs) for vs in vb]
    plain = sorted(range(len(vb)), key=lambda i: (freeish[i], len(vb[i]) > 1, i))  # the earlier order
    rng = np.random.default_rng(3)
    shuffled = [int(i) for i in rng.permutation(len(vb))]
    assert sorted(best) == list(range(len(vb)))
    # blocks without free draws come first (the "free" backward pass relies on it)
    assert [freeish[i] for i in best] == sorted(freeish)
    sizes, totals, ctx = {}, {}, {}
    for name, order in (("best", best), ("plain", plain), ("shuffled", shuffled)):
        rows = gd._DP.live_rows(vb, D, order)
        sizes[name] = sum(len(r) for r in rows)
        dp = gd._DP(sp, vb, D, float, True, order, rows)
        totals[name] = dp.total
        pos = next(i for i in range(len(vb)) if len(vb[i]) > 1)
        ctx[name] = [dp.context(pos, vi) for vi in range(len(vb[pos]))]
    assert totals["best"] > 0
    for name in ("plain", "shuffled"):
        assert totals[name] == pytest.approx(totals["best"], rel=1e-12)
        for a, b in zip(ctx[name], ctx["best"]):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=totals["best"] * 1e-15)
    assert sizes["best"] <= sizes["plain"] and sizes["best"] < sizes["shuffled"]
    # the limit gives up past that many live subsets
    assert gd._DP.live_rows(vb, D, best, limit=sizes["best"] // 2) is None
    assert gd._DP.live_rows(vb, D, best, limit=sizes["best"]) is not None


def test_planned_sum_equals_the_enumeration():
    """The planned product over every unseen draw (what the default does past its range)
    and the enumeration of the first draw's ranks with the others summed (the older exact
    path) give the same answer."""
    rec = read_record(EXAMPLE)
    planned = _from_record(rec, seat=1, upto_event=30, engine="draws", exact_free=0,
                                       draw_options={"exact_cells": 10 ** 9})
    hp = planned.holdings()
    D = planned._draws._answer[1].draws
    assert D >= 4 and planned.mode == "enumerated"
    enum = _from_record(rec, seat=1, upto_event=30, engine="draws", exact_free=D - 1,
                                    enum_nodes=10_000, enum_leaves=10_000)
    he = enum.holdings()
    assert enum.mode == "enumerated" and enum._draws._answer[1].leaves > 1   # it did enumerate
    assert planned.consistent_deals == pytest.approx(enum.consistent_deals, rel=1e-12)
    _assert_same_holdings(hp, he)
    _assert_same_books(planned.books(), enum.books())


def test_many_draw_fallbacks_agree(monkeypatch):
    """Past ``BITMAP_BITS`` / ``DENSE_FIND_BITS`` draws the live subsets are sorted and looked
    up by binary search instead of dense tables, and large tables run their backward pass
    in a second thread: same rows, same sum (forced here on a position with fewer draws)."""
    eng, tl, vb, D = _position(40)
    sp = eng._space(tl.opening(tl.n))
    order = gd.block_order(vb, D)
    rows = gd._DP.live_rows(vb, D, order)
    monkeypatch.setattr(draw_settings, "PARALLEL_CELLS", 10 ** 18)   # one thread
    dp = gd._DP(sp, vb, D, float, True, order, rows)
    pos = next(i for i in range(len(vb)) if len(vb[i]) > 1)
    want = dp.context(pos, 0)
    monkeypatch.setattr(draw_settings, "PARALLEL_CELLS", 0)   # the backward pass in a second thread
    for name in ("BITMAP_BITS", "DENSE_FIND_BITS", "KEEP_FIND_BITS"):
        monkeypatch.setattr(draw_settings, name, 0)
    rows2 = gd._DP.live_rows(vb, D, order)
    assert [r.masks.tolist() for r in rows2] == [r.masks.tolist() for r in rows]
    dp2 = gd._DP(sp, vb, D, float, True, order, rows2)
    assert dp2.total == pytest.approx(dp.total, rel=1e-12)
    np.testing.assert_allclose(dp2.context(pos, 0), want, rtol=1e-12, atol=dp.total * 1e-15)


def test_threaded_contexts_give_the_same_answer(monkeypatch):
    """The contexts of a large product are computed in two threads (``_Product.prefetch``):
    the same holdings as in one thread."""
    rec = read_record(EXAMPLE)

    def answer(cells):
        monkeypatch.setattr(draw_settings, "PARALLEL_CELLS", cells)
        b = _from_record(rec, seat=2, upto_event=45, engine="draws")
        return b.holdings(), b.mode

    (one, m1), (two, m2) = answer(10 ** 18), answer(0)
    assert m1 == m2 == "enumerated"
    assert one.keys() == two.keys()
    _assert_same_holdings(two, one)


def test_streamed_backward_pass_gives_the_same_answer():
    """When only the forward tables and two backward stages fit the budget, the backward
    pass computes the contexts stage by stage and drops its tables (``stream``): the same
    answer as with every table kept."""
    rec = read_record(EXAMPLE)
    eng, tl, vb, D = _position(45)
    order = gd.block_order(vb, D)
    sizes = [len(r) for r in gd._DP.live_rows(vb, D, order)]
    N = eng._space(tl.opening(tl.n)).N + 1
    need = (sum(sizes) + max(a + b for a, b in zip(sizes, sizes[1:]))) * N
    assert need < 2 * sum(sizes) * N

    def answer(cells, split=1):
        b = _from_record(rec, seat=1, upto_event=45, engine="draws", exact_free=0, enum_nodes=0,
                                     draw_options={"exact_cells": cells, "exact_split": split})
        return b, b.holdings(), b.books()

    s, hs, bs = answer(need)
    f, hf, bf = answer(2 * sum(sizes) * N)
    (_, ps), (_, pf) = s._draws._exact_prods[0], f._draws._exact_prods[0]
    assert ps.streamed and not pf.streamed
    assert all(x is None for x in ps.dp.T[1:])   # dropped stage by stage
    assert s.mode == f.mode == "enumerated" and s.consistent_deals == f.consistent_deals
    _assert_same_holdings(hs, hf)
    _assert_same_books(bs, bf)
    # one cell less and, not allowed to split the sum, it samples
    assert answer(need - 1)[0].mode == "mcmc"


def test_split_sum_gives_the_same_answer_and_worlds():
    """Past the budget the sum is cut into parts that fit it (:meth:`DrawEngine.split`): the
    same answer as the whole sum, and :meth:`GoFishBelief.sample_hidden` draws its worlds
    from the parts (rebuilt one by one) in the right proportions."""
    rec = read_record(EXAMPLE)
    eng, tl, vb, D = _position(45)
    order = gd.block_order(vb, D)
    sizes = [len(r) for r in gd._DP.live_rows(vb, D, order)]
    N = eng._space(tl.opening(tl.n)).N + 1

    def answer(cells):
        b = _from_record(rec, seat=1, upto_event=45, engine="draws", exact_free=0, enum_nodes=0,
                                     draw_options={"exact_cells": cells})
        return b, b.holdings(), b.books()

    whole, hw, bw = answer(2 * sum(sizes) * N)
    cut, hc, bc = answer(sum(sizes) * N // 2)
    n_parts = cut._draws._answer[1].leaves
    assert whole._draws._answer[1].leaves == 1 and n_parts >= 2
    # every part's tables fit the budget, and none is kept (rebuilt when sampled)
    assert all(isinstance(p, tuple) for _, p in cut._draws._exact_prods)
    assert cut.mode == whole.mode == "enumerated"
    assert cut.consistent_deals == pytest.approx(whole.consistent_deals, rel=1e-12)
    _assert_same_holdings(hc, hw)
    _assert_same_books(bc, bw)
    parts = [p for _, p in cut._draws._exact_prods]
    weights = np.array([float(w) for w, _ in cut._draws._exact_prods]) / cut.consistent_deals
    seen = []
    sample = DrawEngine._joint_sample

    def spy(self, pr, rng=None):
        seen.append(next(i for i, p in enumerate(parts) if p[2] is pr.vb))
        return sample(self, pr, rng)

    n = 400
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(DrawEngine, "_joint_sample", spy)
        worlds = cut.sample_hidden(n, np.random.default_rng(5))
    assert len(worlds) == len(seen) == n
    # each part in proportion to its count (within 4.5 standard errors)
    got = np.bincount(seen, minlength=len(parts))
    assert np.all(np.abs(got - n * weights) <= 4.5 * np.sqrt(n * weights * (1 - weights)))
    ranks = cut._draws.t.ranks
    assert set(worlds[0]) == {s for s in hc if s != 1}   # the other seats and the stock
    for seat in worlds[0]:
        for k, r in enumerate(ranks):
            if r in hc[seat]:   # only counts that can be
                assert all(hc[seat][r].get(w[seat][k], 0) > 0 for w in worlds)
