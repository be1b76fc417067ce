"""The compact exact sum of the Go Fish draw engine (:mod:`cardmind.games.gofish.draws.compact`).

Its answers are checked against the brute force on reduced decks in ``test_gofish_belief.py``
(engines ``compact`` and ``fast-switch``); here: that its blocks (each seat's block times the
shared factor of the rank) are the joint replay's, that it gives the planned sum's answer on
full-deck positions with 3, 4 and 5 players, that its C kernels give the numpy reference's
tables and refuse bad input, that its worlds follow the posterior, its error bound and its
limits (past them the tracker answers another way, and says so). Skipped without the C
extension unless ``CARDMIND_REQUIRE_EXTRAS`` is set (then a failure)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from extras import missing_extra

from cardmind.agents import resolve_agent
from cardmind.agents.match import play_game
from cardmind.core import get_game
from cardmind.games.gofish.belief import GoFishBelief
from cardmind.games.gofish.draws import compact
from cardmind.games.gofish.draws import settings as draw_settings

if compact._compact is None:
    missing_extra("the C extension cardmind.games.gofish.draws._compact", "install with a C compiler: pip install -e .")
from cardmind.games.gofish.draws import _compact

GAME = get_game("gofish")


def _view(players: int, seed: int, seat: int, unseen: int):
    """A seat's view of a seeded ``peer`` game (full deck) cut at the first event after which
    ``unseen`` draws are hidden from it."""
    res = play_game(GAME, {"players": players}, [resolve_agent("peer", GAME)] * players,
                    np.random.default_rng(seed), [np.random.default_rng([seed, s]) for s in range(players)],
                    max_actions=3000)
    view = res.record.for_seat(seat)
    evs = view.events
    L = next(i for i in range(len(evs) + 1)
             if sum(1 for e in evs[:i] if e["type"] == "draw" and e["card"] is None) == unseen)
    return view, L


def _tracker(view, seat: int, L: int, **kw) -> GoFishBelief:
    kw.setdefault("model", "uniform")   # the constraint-only posterior the sums count
    t = GoFishBelief(view.options, seat, view.header["hand"], **kw)
    for ev in view.events[:L]:
        t.observe(ev)
    return t


def _max_diff(a: GoFishBelief, b: GoFishBelief) -> float:
    ha, hb = a.holdings(), b.holdings()
    err = max(abs(ha[s][r].get(c, 0.0) - hb[s][r].get(c, 0.0)) for s in hb for r in hb[s] for c in range(5))
    for x, y in zip(a.books(), b.books()):
        assert x["ranks"].keys() == y["ranks"].keys()
        err = max([err] + [abs(x["ranks"][q] - y["ranks"][q]) for q in y["ranks"]])
    return err


def test_seat_blocks_times_shared_factor_is_the_joint_block():
    """For random ranks and sets of unseen draws of that rank, the product of the seats'
    blocks and ``G(n)`` has the rows, weights, held counts and stock of the joint replay
    (:meth:`DrawEngine._build`); one seat's block differs with the draw it takes but not
    with which draw of a segment."""
    view, L = _view(4, 11, 1, 9)
    t = _tracker(view, 1, L, engine="draws")
    eng = t._draw_engine()
    tl = eng._timeline(t.events, False)
    segs = compact.draw_segments(t, tl)
    rnd = random.Random(3)
    cache: dict = {}
    checked = 0
    for _ in range(150):
        pos = rnd.randrange(t.R)
        r = t.ranks[pos]
        cand = [j for j in range(len(tl.draws)) if segs[pos][j] >= 0]
        D = tuple(sorted(rnd.sample(cand, min(len(cand), rnd.randint(0, 3)))))
        joint = eng.block(tl, r, D, tl.n)
        nf, G = compact.rank_factor(t, tl, pos)
        mine = compact.joint_block(eng, tl, pos, D, segs[pos], G, nf, cache)
        got = {tuple(x): (w, tuple(f), s) for x, w, f, s in zip(mine.X.tolist(), mine.w, mine.fc.tolist(), mine.st)}
        want = {tuple(x): (w, tuple(f), s) for x, w, f, s in zip(joint.X.tolist(), joint.w, joint.fc.tolist(), joint.st)}
        assert got.keys() == want.keys(), (r, D)
        for x, (w, f, s) in want.items():
            assert abs(got[x][0] - w) <= 1e-12 * w and got[x][1:] == (f, s), (r, D, x)
        checked += len(want)
    assert checked > 100


@pytest.mark.parametrize("players,seed,seat,unseen", [(3, 5, 2, 9), (4, 7, 0, 8), (5, 2, 3, 6)])
def test_compact_equals_the_planned_sum(players, seed, seat, unseen):
    """Full deck: the compact sum (the default tracker's answer) and the planned sum over
    every unseen draw (the compact sum off) give the same count, holdings and face-down
    books to rounding; the compact answer reports its rounding bound."""
    view, L = _view(players, seed, seat, unseen)
    a = _tracker(view, seat, L)
    b = _tracker(view, seat, L, draw_options={"compact": False})
    assert a.mode == "compact" and b.mode in ("enumerated", "exact")
    assert abs(a.consistent_deals / b.consistent_deals - 1) < 1e-12
    assert _max_diff(a, b) < 1e-12
    assert 0 < a.error_bound < 1e-6
    assert a.to_json()["method"] == "the compact exact sum"


def _game(options: dict, agents: list[str], seed: int):
    return play_game(GAME, options, [resolve_agent(a, GAME) for a in agents], np.random.default_rng(seed),
                     [np.random.default_rng([seed, s]) for s in range(len(agents))], max_actions=3000).record


def test_a_draw_a_book_followed_splits_its_seats_segments():
    """A seat's unseen draws before and after one of its unseen draws that a (face-down)
    book followed are not interchangeable: if that draw was of the rank, the book took the
    rank's cards, so a draw of the rank before it may have completed the book and one after
    it cannot be of the rank. Smallest case found (3 players, 4 ranks x 4 suits, 2 cards
    dealt): seat 2 is handed 2S (event 6), draws unseen (8), draws unseen (14) and lays a
    face-down book (15), draws unseen (23); the compact sum counted the draws 8 and 23 as one
    segment of rank 2, and 72 deals at event 25 for seat 0 where there are 36 (96 for 48 for
    seat 1). Every prefix of the record: seat 1 against the brute force, seat 0 against the
    planned sum (both in integers)."""
    import gofish_bruteforce as bf

    rec = _game({"players": 3, "ranks": 4, "suits": 4, "hand": 2}, ["random", "random", "peer"], 294)
    view = rec.for_seat(0)
    t = _tracker(view, 0, 25, engine="draws")
    eng = t._draw_engine()
    tl = eng._timeline(t.events, False)
    times = [d.time for d in tl.draws]
    before, booked, after = times.index(8), times.index(14), times.index(23)
    assert tl.outcome(tl.draws[booked].win, tl.n) == "book"
    seg = compact.draw_segments(t, tl)[t.ranks.index("2")]
    assert seg[before] >= 0 and seg[after] >= 0 and seg[before] != seg[after]

    def same(a: GoFishBelief, n: int, hold: dict, books: list, where: tuple) -> None:
        assert a.consistent_deals == n, where
        got = a.holdings(exact=True)
        for s, rd in hold.items():
            for rank, dist in rd.items():
                g = got.get(s, {}).get(rank)
                assert g == dist or (g is None and dist == {0: 1}), (where, s, rank, g, dist)
        assert [b["ranks"] for b in a.books(exact=True)] == books, where

    checked = 0
    # seat 0: the planned sum over every unseen draw (exact integers)
    view = rec.for_seat(0)
    a = GoFishBelief(view.options, 0, view.header["hand"], engine="draws", draw_options={"compact": True})
    b = GoFishBelief(view.options, 0, view.header["hand"], engine="draws", exact_free=0,
                     draw_options={"compact": False, "exact_cells": 10 ** 9})
    for L, ev in enumerate(view.events, 1):
        a.observe(ev)
        b.observe(ev)
        assert a.exact and b.exact and (L < 25 or a.mode == "compact"), L
        same(a, b.consistent_deals, b.holdings(exact=True), [x["ranks"] for x in b.books(exact=True)], (0, L))
        checked += 1
    # seat 1: the brute force
    view = rec.for_seat(1)
    ref = bf.prefixes(view.options, 1, view.header["hand"], view.events)
    a = GoFishBelief(view.options, 1, view.header["hand"], engine="draws", draw_options={"compact": True})
    for L, ev in enumerate(view.events, 1):
        a.observe(ev)
        assert a.exact and (L < 25 or a.mode == "compact"), L
        same(a, ref[L].n, ref[L].holdings(), ref[L].book_ranks(), (1, L))
        checked += 1
    assert checked > 60


def test_compact_equals_the_planned_sum_after_a_face_down_book():
    """A full-deck 3-player position where the compact sum was 0.067 off the planned sum (a
    seat's draws on both sides of its draw a face-down book followed, one segment; first
    wrong at event 77): the default tracker (the compact sum) gives the planned sum's
    answer."""
    rec = _game({"players": 3}, ["peer"] * 3, 3000)
    view = rec.for_seat(0)
    a = _tracker(view, 0, 79)
    b = _tracker(view, 0, 79, draw_options={"compact": False, "exact_split": 100_000}, exact_only=True)
    assert a.mode == "compact" and b.mode in ("enumerated", "exact")
    assert abs(a.consistent_deals / b.consistent_deals - 1) < 1e-9
    assert _max_diff(a, b) < 1e-9


def _small_plan(players: int = 3, seed: int = 5, unseen: int = 5):
    view, L = _view(players, seed, 0, unseen)
    t = _tracker(view, 0, L, engine="draws")
    eng = t._draw_engine()
    tl = eng._timeline(t.events, False)
    return t, tl, compact.plan_compact(eng, tl)


@pytest.mark.parametrize("players,seed,unseen", [(3, 5, 5), (4, 7, 3), (5, 2, 1), (6, 1, 0)])
def test_kernels_equal_the_numpy_reference(players, seed, unseen):
    """The C kernels' forward and backward tables and context sums equal the numpy
    reference's to 1e-12 relative, with boxes of 2 to 5 dimensions (3 to 6 players: each
    has its own unrolled loops); so do the answers and the worlds sampled."""
    t, tl, plan = _small_plan(players, seed, unseen)
    assert plan.D == players - 1
    assert 12 < len(plan.tr_src) < 5000
    fast = compact.CompactSum(plan, fast=True)
    slow = compact.CompactSum(plan, fast=False)
    for a, b in ((fast.F, slow.F), (fast.T, slow.T), (fast.ctx, slow.ctx)):
        assert np.allclose(a, b, rtol=1e-12, atol=0)
    assert fast.total > 0 and abs(fast.total / slow.total - 1) < 1e-12
    hf, _ = fast.marginals(t, tl)
    hs, _ = slow.marginals(t, tl)
    assert hf.keys() == hs.keys()
    assert all(abs(hf[k].get(c, 0) - hs[k].get(c, 0)) <= 1e-12 * fast.total for k in hs for c in range(5))
    # the sampling kernel walks as the numpy reference does with the same random numbers
    wf = fast.sample(t, 30, np.random.default_rng(4))
    ws = compact.CompactSum(plan, fast=False, contexts=False).sample(t, 30, np.random.default_rng(4))
    assert wf == ws and len({str(w) for w in wf}) > 3


def test_kernels_refuse_bad_input():
    """A box outside the table, an edge out of range, arrays of the wrong type or shape: a
    ValueError, nothing written."""
    _, _, p = _small_plan()
    args = [p.row_off, p.row_lo, p.row_dim, p.tr_src, p.tr_dst, p.tr_coef, p.tr_blk, p.blk_off, p.blk_n,
            p.x_inc, p.x_w]
    F = np.zeros(p.cells)
    with pytest.raises(ValueError, match="outside the table"):
        _compact.forward(np.zeros(p.cells - 1), *args)
    bad = list(args)
    bad[3] = p.tr_src.copy()
    bad[3][0] = len(p.row_off)
    with pytest.raises(ValueError, match="out of range"):
        _compact.forward(F, *bad)
    bad = list(args)
    bad[5] = p.tr_coef.astype(np.float32)
    with pytest.raises(ValueError, match="float64"):
        _compact.backward(F, *bad)
    with pytest.raises(ValueError, match="writable"):
        ro = np.zeros(p.cells)
        ro.flags.writeable = False
        _compact.forward(ro, *args)
    assert not F.any()
    z = np.zeros(0, dtype=np.int64)
    with pytest.raises(ValueError, match="class is out of range"):
        _compact.expand(np.zeros((2, 3), dtype=np.int64), np.zeros(2, dtype=np.int64), np.ones(3, dtype=np.int64),
                        np.array([0, 1]), np.array([5]), np.array([1]), np.array([1]), z, z, z, z, z, z)
    two = np.zeros(2, dtype=np.int64)
    with pytest.raises(ValueError, match="edge is out of range"):
        _compact.boxes(np.array([0, 1, 2]), np.array([0]), np.array([7]), np.array([0]), np.zeros((1, 2), dtype=np.int64),
                       np.zeros((1, 2), dtype=np.int64), two + 1, two, two, two + 1, np.zeros((2, 2), dtype=np.int64),
                       np.zeros((2, 2), dtype=np.int64))


def test_coefficients_and_threads_equal_the_reference(monkeypatch):
    """The transition coefficients of the C kernel equal the numpy reference's exactly (the
    same products in the same order), and the sum with its passes in two threads gives the
    one-thread tables exactly; the kernel refuses a class, a count or a row out of range."""
    rng = np.random.default_rng(3)
    size = np.array([3, 2, 4, 1], dtype=np.int64)
    rows = np.stack([rng.integers(0, s + 1, 40) for s in size], axis=1).astype(np.int64)
    moves = [[(c, int(rng.integers(1, 3))) for c in sorted(rng.choice(4, int(rng.integers(0, 4)), replace=False))]
             for _ in range(25)]
    mv_off = np.array([0] + list(np.cumsum([len(m) for m in moves])), dtype=np.int64)
    mv_cls = np.array([c for m in moves for c, _ in m], dtype=np.int64)
    mv_val = np.array([v for m in moves for _, v in m], dtype=np.int64)
    pairs = [(i, k) for i in range(len(rows)) for k, m in enumerate(moves)
             if all(rows[i, c] + v <= size[c] for c, v in m)]
    src = np.array([i for i, _ in pairs], dtype=np.int64)
    mvi = np.array([k for _, k in pairs], dtype=np.int64)
    binom = np.array([[float(__import__("math").comb(a, b)) for b in range(5)] for a in range(6)])
    fast = compact._coefs(rows, src, mvi, mv_off, mv_cls, mv_val, size, binom)
    monkeypatch.setattr(draw_settings, "DP_FAST", False)
    slow = compact._coefs(rows, src, mvi, mv_off, mv_cls, mv_val, size, binom)
    monkeypatch.undo()
    assert len(pairs) > 100 and (fast > 1).any() and (fast == 1).any()
    assert np.array_equal(fast, slow)
    _, _, plan = _small_plan(4, 2, 8)
    monkeypatch.setattr(draw_settings, "COMPACT_THREAD_CELLS", 1)
    two = compact.CompactSum(plan)
    monkeypatch.setattr(draw_settings, "COMPACT_THREAD_CELLS", 0)
    one = compact.CompactSum(plan)
    assert two.total > 0 and np.array_equal(two.F, one.F) and np.array_equal(two.T, one.T)
    assert np.array_equal(two.ctx, one.ctx)
    i1 = np.array([0])
    with pytest.raises(ValueError, match="class or count is out of range"):
        _compact.coefs(rows, i1, i1 * 0, np.array([0, 1]), np.array([5]), np.array([1]), size, binom, np.zeros(1))
    with pytest.raises(ValueError, match="remaining count is out of range"):
        _compact.coefs(rows, i1 + 400, i1 * 0, np.array([0, 1]), np.array([1]), np.array([1]), size, binom,
                       np.zeros(1))


def test_compact_worlds_follow_the_posterior():
    """Worlds drawn from the compact sum (``sample_hidden``, what the belief player's
    look-ahead plays in) have every holdings frequency within 0.04 of its probability
    (2000 draws of a 4-player full-deck position)."""
    view, L = _view(4, 7, 2, 7)
    t = _tracker(view, 2, L)
    hold = t.holdings()
    assert t.mode == "compact"
    worlds = t.sample_hidden(2000, np.random.default_rng(0))
    seats = t.others + ["stock"]
    for s in seats:
        for ri, r in enumerate(t.ranks):
            want = hold.get(s, {}).get(r)
            if want is None:
                continue
            freq = np.bincount([w[s][ri] for w in worlds], minlength=5) / len(worlds)
            for c in range(5):
                assert abs(freq[c] - want.get(c, 0.0)) < 0.04, (s, r, c)


def test_limits_and_what_answers_past_them(monkeypatch):
    """Past its work budget the compact sum is not used and the tracker says what answered
    instead; ``exact_sum`` (``--exact``) lifts the budget; a plan past the cell limit raises
    PlanTooLarge."""
    view, L = _view(4, 7, 0, 8)
    t = _tracker(view, 0, L, draw_options={"compact_work": 10})
    assert t.mode != "compact" and t.method != "the compact exact sum"
    e = _tracker(view, 0, L, exact_sum=True)
    assert e.mode == "compact"
    eng = e._draws
    with pytest.raises(compact.PlanTooLarge):
        compact.plan_compact(eng, eng._tl, max_cells=10)
    monkeypatch.setattr(draw_settings, "COMPACT_MAX_CELLS", 10)
    x = _tracker(view, 0, L, exact_sum=True)
    assert x.mode == "enumerated" and x.error_bound == GoFishBelief.FLOAT_BOUND
    assert _max_diff(x, e) < 1e-12


def test_sampled_answer_reports_a_statistical_bound():
    """A sampled answer's error bound is 4 of its largest standard errors."""
    view, L = _view(4, 7, 0, 8)
    t = _tracker(view, 0, L, engine="draws", exact_free=0, enum_nodes=0, steps=40)
    assert t.mode == "mcmc"
    assert t.error_bound == pytest.approx(min(1.0, 4 * t.stderr))
    assert t.to_json()["method"] == "the sampler (approximate)"


def test_exact_only_takes_an_exact_sum_in_floating_point_and_refuses_sampling():
    """``exact_only`` answers from the compact (floating-point) sum as it does without it, and
    raises MemoryError only where the draw engine would sample."""
    view, L = _view(4, 7, 0, 8)
    t = _tracker(view, 0, L, exact_only=True)
    assert t.mode == "compact" and _max_diff(t, _tracker(view, 0, L)) == 0.0
    s = _tracker(view, 0, L, exact_only=True, engine="draws", exact_free=0, enum_nodes=0, steps=40,
                 draw_options={"compact": False})
    with pytest.raises(MemoryError, match="had to sample"):
        s.holdings()


@pytest.fixture(autouse=True)
def _uniform_by_default(monkeypatch):
    """These tests check the draw engine's constraint-only answer: trackers built without a
    model count the deals alike (with three or more players the default ``auto`` reweighs
    sampled deals on top of it; ``tests/test_gofish_models_multi.py`` tests that)."""
    from cardmind.games.gofish import models as _gofish_models

    monkeypatch.setattr(_gofish_models, "MODELS", ("uniform", "auto", "peer", "belief", "random"))
