"""Go Fish belief (cardmind.games.gofish.belief) against the brute-force reference on reduced decks.

Every engine -- the joint filter (``fast``), the plain reference filter (``reference``), the draw
engine (``draws``, exact mode; also with its enumeration forced on, with the planned sum over
every unseen draw from the first one, with the compact sum from the first event, and the
``fast`` tracker switching to it mid-game past a tiny budget) -- must give exactly the brute force's number of
consistent deals, holdings marginals and face-down book rank distributions (Fractions), at
every prefix of simulated games, from several seats, for 2, 3 and 4 players and every option.
The draw engine's sampler must stay within a stated tolerance of the exact answer, and a
contradictory record must raise ``Contradiction``. Assumptions (``GoFishBelief.assume_lacks``,
what a player infers from another's choices) must filter the deals as the brute force does.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gofish_bruteforce as bf

from cardmind.agents import resolve_agent
from cardmind.agents.match import play_game
from cardmind.games.gofish.draws import DrawEngine
from cardmind.games.gofish.belief import GoFishBelief
from cardmind.core import get_game
from cardmind.errors import Contradiction

GAME = get_game("gofish")
ROOT = Path(__file__).resolve().parent.parent

#: engine name -> tracker keyword arguments
ENGINES = {
    "fast": {"engine": "fast"},
    "reference": {"engine": "reference"},
    "draws": {"engine": "draws"},
    # the draw engine enumerating every unseen draw but the last one (search + CP-SAT supports)
    "draws-enum": {"engine": "draws", "exact_free": 1, "enum_nodes": 100_000, "enum_leaves": 100_000},
    # the draw engine summing every unseen draw in one block product, planned by its live
    # subsets (what the default does past its guaranteed range), from the first unseen draw
    "draws-planned": {"engine": "draws", "exact_free": 0, "draw_options": {"exact_cells": 10 ** 9}},
    # the joint filter giving up after a few states: the draw engine takes over mid-game
    # (with the compact sum, the default's, from there)
    "fast-switch": {"engine": "fast", "budget": 12},
    # the compact sum from the first event (integers: the counts of these small decks are
    # far below COMPACT_INT_TOTAL)
    "compact": {"engine": "draws", "draw_options": {"compact": True}},
}

#: (players, deck options); each case plays seeded games with seeded random option flags
CASES = [
    (2, {"ranks": 4, "suits": 3, "hand": 3}),
    (2, {"ranks": 3, "suits": 4, "hand": 3}),
    (3, {"ranks": 4, "suits": 2, "hand": 2}),
    (3, {"ranks": 4, "suits": 3, "hand": 2}),
    (3, {"ranks": 3, "suits": 4, "hand": 2}),
    (4, {"ranks": 4, "suits": 2, "hand": 1}),
    (4, {"ranks": 5, "suits": 2, "hand": 1}),
    (4, {"ranks": 4, "suits": 3, "hand": 1}),
]


def play(options: dict, agents: list[str], seed: int):
    res = play_game(GAME, options, [resolve_agent(a, GAME) for a in agents], np.random.default_rng(seed),
                    [np.random.default_rng([seed, s]) for s in range(len(agents))], max_actions=3000)
    return res.record


def tracker(view, seat: int, **kwargs) -> GoFishBelief:
    """The seat's tracker; the constraint-only posterior (``model="uniform"``) unless asked
    otherwise, as the brute force counts it (the default ``auto`` weighs two-player deals)."""
    kwargs.setdefault("model", "uniform")
    return GoFishBelief(view.options, seat, view.header["hand"], **kwargs)


def check_exact(view, seat: int, engines: dict = ENGINES, events: list | None = None) -> int:
    """Every prefix of the seat's record (or of ``events``, its events with assumptions),
    every engine (name -> tracker keyword arguments), against the brute force; the number of
    positions checked."""
    evs = view.events if events is None else events
    ref = bf.prefixes(view.options, seat, view.header["hand"], evs)
    for name, kwargs in engines.items():
        t = tracker(view, seat, **kwargs)
        for L in range(len(evs) + 1):
            if L:
                ev = evs[L - 1]
                if ev["type"] == "assume_lacks":
                    # right after an assumption the tracker takes the opening as over and no
                    # book as pending (the next event is an ask); the brute force checks that
                    # only at that ask, so the two are compared there
                    t.assume_lacks(ev["player"], ev["ranks"])
                    continue
                t.observe(ev)
            r = ref[L]
            if r.n == 0:  # an assumption no deal fits
                with pytest.raises(Contradiction):
                    t.holdings()
                break
            assert t.exact, (name, L)
            assert t.consistent_deals == r.n, (name, L)
            hold, want = t.holdings(exact=True), r.holdings()
            for s, rd in want.items():
                for rank, dist in rd.items():
                    got = hold.get(s, {}).get(rank)
                    if got is None:  # a rank whose book is known: nobody holds it
                        assert dist == {0: 1}, (name, L, s, rank, dist)
                    else:
                        assert got == dist, (name, L, s, rank, got, dist)
            assert all(rank in want[s] for s, rd in hold.items() for rank in rd)
            books, wantb = t.books(exact=True), r.book_ranks()
            assert len(books) == len(wantb), (name, L)
            for b, w in zip(books, wantb):
                assert b["ranks"] == w, (name, L, b, w)
    return len(evs) + 1


def case_games(players: int, deck: dict):
    """The seeded games of a case: (complete record, seat) for two seats (or every seat) of
    three games with random option flags and players."""
    rnd = random.Random(players * 1000 + deck["ranks"] * 100 + deck["suits"] * 10 + deck["hand"])
    for _ in range(3):
        opts = dict(deck, players=players, give=rnd.choice(["one", "all"]),
                    books_face_up=rnd.random() < 0.3, phase2=rnd.random() < 0.5)
        agents = [rnd.choice(["random", "peer", "belief"]) for _ in range(players)]
        rec = play(opts, agents, rnd.randrange(10 ** 6))
        for seat in rnd.sample(range(players), min(players, 2)):
            yield rec, seat


def case_views(players: int, deck: dict):
    """(view, seat) of every game of :func:`case_games`."""
    for rec, seat in case_games(players, deck):
        yield rec.for_seat(seat), seat


CASE_IDS = [f"{p}p-{d['ranks']}x{d['suits']}-h{d['hand']}" for p, d in CASES]


def with_assumptions(rec, seat: int, rnd: random.Random, false_share: float = 0.1) -> list[dict]:
    """The events of ``rec`` (a complete record) as ``seat`` saw them, with an assumption
    (``GoFishBelief.assume_lacks``) before about half of the other seats' asks: the asker
    holds none of some ranks, true of the real deal except, now and then (``false_share``),
    one rank it does hold (then fewer deals, or none, fit)."""
    view = rec.for_seat(seat)
    st = GAME.new_state(rec.options, rec.header)
    out = []
    for full, ev in zip(rec.events, view.events):
        p = full.get("asker")
        if full["type"] == "ask" and p != seat and rnd.random() < 0.5:
            held = {c[0] for c in st.hands[p]}
            lacks = [r for r in st.ranks if r not in held]
            pick = rnd.sample(lacks, rnd.randint(1, len(lacks))) if lacks else []
            if held and rnd.random() < false_share:
                pick.append(rnd.choice(sorted(held)))
            if pick:
                out.append({"type": "assume_lacks", "player": p, "ranks": pick})
        st.apply_event(full)
        out.append(ev)
    return out


@pytest.mark.parametrize("players,deck", CASES, ids=CASE_IDS)
def test_assumptions_against_bruteforce(players, deck):
    """Assumptions (what a player infers from another's choices) filter the consistent deals
    exactly as the brute force does, in every engine; one no deal fits is a Contradiction."""
    rnd = random.Random(players * 31 + deck["ranks"])
    engines = {k: ENGINES[k] for k in ("fast", "reference", "draws", "draws-planned", "fast-switch", "compact")}
    positions = assumed = 0
    for rec, seat in case_games(players, deck):
        events = with_assumptions(rec, seat, rnd)
        assumed += sum(1 for e in events if e["type"] == "assume_lacks")
        positions += check_exact(rec.for_seat(seat), seat, engines, events)
    assert positions >= 10 and assumed >= 5


@pytest.mark.parametrize("players,deck", CASES, ids=CASE_IDS)
def test_exact_against_bruteforce(players, deck):
    positions = sum(check_exact(view, seat) for view, seat in case_views(players, deck))
    assert positions >= 10


#: the draw engine summing every unseen draw in parts (:meth:`DrawEngine.split`): on these
#: decks a table budget of 120 cells cuts most late positions into 2-9 parts (positions no
#: part fits fall back to the exact enumeration)
SPLIT = {"engine": "draws", "exact_free": 0, "enum_nodes": 100_000, "enum_leaves": 100_000,
         "draw_options": {"exact_cells": 120, "exact_split": 10_000}}


@pytest.mark.parametrize("players,deck", CASES[3:4] + CASES[5:], ids=CASE_IDS[3:4] + CASE_IDS[5:])
def test_split_sum_against_bruteforce(players, deck, monkeypatch):
    """The sum cut into parts by the ranks some draws may have equals the brute force."""
    parts = []
    split = DrawEngine.split

    def spy(self, *args):
        got = split(self, *args)
        parts.append(0 if got is None else len(got))
        return got

    monkeypatch.setattr(DrawEngine, "split", spy)
    for view, seat in case_views(players, deck):
        check_exact(view, seat, {"draws-split": SPLIT})
    assert sum(n > 1 for n in parts) >= 10


def test_exact_every_option():
    """Each option value at least once on a 3-player deck (all engines, every seat)."""
    for i, extra in enumerate([{"give": "all"}, {"books_face_up": True}, {"phase2": True, "give": "all"}]):
        opts = dict({"players": 3, "ranks": 4, "suits": 2, "hand": 2}, **extra)
        rec = play(opts, ["peer", "random", "peer"], 77 + i)
        for seat in range(3):
            check_exact(rec.for_seat(seat), seat)


def test_bruteforce_counts_the_deal():
    """The reference itself: before any event every split of the unseen cards is consistent,
    unless a seat would be dealt a complete rank it did not lay."""
    opts = {"players": 3, "ranks": 4, "suits": 2, "hand": 1}
    hand = ["2C"]
    ref = bf.prefixes(opts, 0, hand, [])[0]
    # 7 unknown cards: 7 * 6 choices of the other two seats' single cards, the rest is the stock
    assert ref.n == 42
    # the other 2 is in the stock unless seat 1 or 2 was dealt it: 5/7
    assert ref.holdings()["stock"]["2"] == {0: bf.Fraction(2, 7), 1: bf.Fraction(5, 7)}
    assert ref.holdings()[1]["3"] == {0: bf.Fraction(5, 7), 1: bf.Fraction(2, 7)}


@pytest.mark.parametrize("sampler", ["seats", "draws"])
def test_sampler_within_tolerance(sampler):
    """The draw engine's Gibbs sampler (every exact shortcut off, one draw summed per step in
    the older ``draws`` sampler, so that it really samples) on small 3- and 4-player decks
    with several unseen draws: every holdings marginal and book rank within TOL of the exact
    answer after 300 steps, and (``seats``) within a few of its own estimated standard errors."""
    TOL = 0.08
    checked = 0
    worst = 0.0
    cases = [({"players": 3, "ranks": 4, "suits": 3, "hand": 2}, 5),
             ({"players": 4, "ranks": 5, "suits": 2, "hand": 1}, 11)]
    for opts, seed in cases:
        rec = play(opts, ["random"] * opts["players"], seed)
        seat = 0
        view = rec.for_seat(seat)
        evs = view.events
        ref = bf.prefixes(view.options, seat, view.header["hand"], evs)
        for L in range(len(evs) // 3, len(evs) + 1, max(1, len(evs) // 4)):
            t = tracker(view, seat, engine="draws", enum_nodes=0, exact_free=0, record_block=1, block=1,
                        steps=300, draw_options={"sampler": sampler})
            for ev in evs[:L]:
                t.observe(ev)
            hold = t.holdings()
            if t.exact:  # no unseen draw yet: nothing sampled
                assert t.stderr is None
                continue
            assert t.mode == "mcmc"
            se = t.stderr
            assert se is not None and 0 <= se < TOL
            tol = TOL if sampler == "draws" else min(TOL, 5 * se + 0.005)
            want = ref[L].holdings()
            for s, rd in want.items():
                if s == seat:
                    continue
                for rank, dist in rd.items():
                    got = hold.get(s, {}).get(rank)
                    if got is None:  # a rank whose book is known
                        assert dist == {0: 1}
                        continue
                    for c in set(dist) | set(got):
                        err = abs(float(dist.get(c, 0)) - got.get(c, 0.0))
                        worst = max(worst, err)
                        assert err <= tol, (opts, L, s, rank, dist, got, se)
            for b, w in zip(t.books(), ref[L].book_ranks()):
                for rank in set(b["ranks"]) | set(w):
                    assert abs(b["ranks"].get(rank, 0.0) - float(w.get(rank, 0))) <= TOL
            # the estimate of the number of consistent deals is of the right size
            assert 0.5 * ref[L].n <= t.consistent_deals <= 2 * ref[L].n, (t.consistent_deals, ref[L].n)
            checked += 1
    assert checked >= 3
    print(f"sampler {sampler}: {checked} positions, largest error {worst:.4f}")
    assert worst > 0  # it did sample (an exact answer would have error 0 everywhere)


def test_joint_sample_matches_exact_conditional():
    """``DrawEngine._joint_sample`` (backward sampling through one block product) draws the
    free draws' ranks from their exact joint conditional: over 3000 draws the frequency of
    every joint rank vector of a seat's unseen draws is within 0.03 of its exact probability
    (each vector's count from the block product with those draws fixed)."""
    from itertools import product as iproduct

    def position(seed: int, L: int):
        """(engine, timeline, product, draws, exact probabilities) at a prefix, or None."""
        opts = {"players": 3, "ranks": 6, "suits": 4, "hand": 4}
        view = play(opts, ["random"] * 3, seed).for_seat(0)
        if L > len(view.events):
            return None
        t = tracker(view, 0, engine="draws", enum_nodes=0, exact_free=0, steps=20)
        for ev in view.events[:L]:
            t.observe(ev)
        t.holdings()
        if t.mode != "mcmc":
            return None
        eng = t._draws
        tl = eng._tl
        seats = {}
        for j, d in enumerate(tl.draws):
            seats.setdefault(d.seat, []).append(j)
        js = max(seats.values(), key=len)[:3]
        if len(js) < 2:
            return None
        fixed = {k: q for k, q in enumerate(eng.delta) if k not in js}
        pr = eng.product(tl, fixed, js, tl.n)
        want = {}
        for combo in iproduct(*[tl.draws[j].domain for j in js]):
            f = dict(fixed)
            f.update(zip(js, combo))
            w = float(eng.product(tl, f, [], tl.n, backward=False).total)
            if w > 0:
                want[combo] = w / float(pr.total)
        return (eng, pr, js, want) if len(want) >= 4 else None

    got_pos = next(p for p in (position(seed, L) for seed in range(5, 40) for L in (12, 18, 24)) if p)
    eng, pr, js, want = got_pos
    assert abs(sum(want.values()) - 1) < 1e-9
    eng.rng = np.random.default_rng(7)
    n = 3000
    got: dict = {}
    for _ in range(n):
        out = eng._joint_sample(pr)[0]
        key = tuple(out[j] for j in js)
        got[key] = got.get(key, 0) + 1
    assert set(got) <= set(want)
    for combo, p in want.items():
        assert abs(got.get(combo, 0) / n - p) <= 0.03, (combo, p, got.get(combo, 0) / n)


def test_precision_goes_on_until_the_standard_error_is_met():
    """With ``precision`` the sampler makes more steps than ``steps`` until its estimated
    standard error is at most the target (or ``max_steps``)."""
    opts = {"players": 4, "ranks": 7, "suits": 4, "hand": 4}
    view = play(opts, ["random"] * 4, 3).for_seat(0)
    # the first prefix where three seats have unseen draws
    L = next(i for i in range(len(view.events) + 1)
             if len({e["player"] for e in view.events[:i] if e["type"] == "draw" and e["card"] is None}) == 3)
    kw = dict(engine="draws", enum_nodes=0, exact_free=0, steps=40)
    loose = tracker(view, 0, **kw)
    tight = tracker(view, 0, **kw, draw_options={"precision": 0.01, "max_steps": 3000})
    for ev in view.events[:L]:
        loose.observe(ev)
        tight.observe(ev)
    loose.holdings()
    tight.holdings()
    assert loose.mode == tight.mode == "mcmc"
    assert loose.stderr > 0.01
    assert tight.stderr <= 0.01
    assert tight.sampling["precision"] == 0.01 and tight.sampling["steps"] > 40
    # a target out of reach stops at max_steps, and the advice says so
    from cardmind.games.gofish.hints import gofish_hint

    capped = tracker(view, 0, **kw, draw_options={"precision": 1e-6, "max_steps": 80})
    for ev in view.events[:L]:
        capped.observe(ev)
    info = capped.sampling
    assert info["steps"] == 80 and info["stderr"] > 1e-6
    notes = gofish_hint(capped).notes
    assert any("was not reached" in n and "80 steps" in n for n in notes), notes
    assert not any("was not reached" in n for n in gofish_hint(tight).notes)
    assert tight._draws._answer[1].steps > loose._draws._answer[1].steps == 40
    # ... and so does the belief object (cardmind belief --json, the protocol's belief)
    assert capped.to_json()["sampling"] == {**info, "target_met": False}
    assert tight.to_json()["sampling"]["target_met"] is True
    assert loose.to_json()["sampling"]["precision"] == 0 and loose.to_json()["sampling"]["target_met"]


def test_late_position_exact_and_sampled_count_positive():
    """Late in a full-deck 4-player game (19 unseen draws, past the guaranteed range of 14)
    the default tracker sums over every unseen draw exactly, by the compact sum
    (:mod:`cardmind.games.gofish.draws.compact`); the planned sum over the live subsets of
    the draws (:meth:`DrawEngine.plan`, the compact sum turned off) gives the same answer to
    rounding. The sampler there (forced) estimates the number of consistent deals by
    importance sampling mixed with the chain's states, so the estimate is never 0
    (independent draw ranks alone gave 0 here before)."""
    from cardmind.records import read_record

    rec = read_record(Path(__file__).resolve().parent.parent / "examples" / "gofish-4p-complete.jsonl")
    t = GoFishBelief.from_record(rec, seat=1, upto_event=89, model="uniform")
    assert t.mode == "compact" and not t.exact
    eng = t._draws
    assert eng._answer[1].draws == 19 > eng.exact_free
    assert t.consistent_deals > 10 ** 12
    planned = GoFishBelief.from_record(rec, seat=1, upto_event=89, draw_options={"compact": False}, model="uniform")
    assert planned.mode == "enumerated"
    assert abs(planned.consistent_deals / t.consistent_deals - 1) < 1e-12
    got, ref = t.holdings(), planned.holdings()
    assert max(abs(got[s][r].get(c, 0) - ref[s][r].get(c, 0)) for s in ref for r in ref[s] for c in range(5)) < 1e-12
    gb, rb = t.books(), planned.books()
    assert [b["ranks"].keys() for b in gb] == [b["ranks"].keys() for b in rb]
    assert max((abs(b["ranks"][q] - c["ranks"][q]) for b, c in zip(gb, rb) for q in c["ranks"]), default=0) < 1e-12
    s = GoFishBelief.from_record(rec, seat=1, upto_event=89, exact_free=0, enum_nodes=0, model="uniform")
    assert s.mode == "mcmc"
    assert s.consistent_deals > 0
    # the sampled marginals are close to the exact ones where the chain mixes (the stock)
    want, got = t.holdings()["stock"], s.holdings()["stock"]
    assert max(abs(want[r].get(c, 0) - got[r].get(c, 0)) for r in want for c in range(5)) < 0.2


def test_full_deck_float_sum_matches_integers():
    """Full deck, 4 players, a few unseen draws: the draw engine's exact sum in Python integers
    (mode ``exact``) and in floating point (mode ``enumerated``, used once counts pass 64
    bits) agree to rounding, and the float one says it is not exact."""
    rec = play({"players": 4}, ["peer"] * 4, 3)
    view = rec.for_seat(1)
    L = next(i for i in range(len(view.events) + 1)
             if sum(1 for e in view.events[:i] if e["type"] == "draw" and e["card"] is None) == 3)
    a = tracker(view, 1, engine="draws")
    b = tracker(view, 1, engine="draws", draw_options={"object_limit": 0})
    for ev in view.events[:L]:
        a.observe(ev)
        b.observe(ev)
    ha, hb = a.holdings(exact=True), b.holdings()
    assert a.mode == "exact" and a.exact and b.mode == "enumerated" and not b.exact
    n = 0
    for s, rd in ha.items():
        for rank, dist in rd.items():
            for c, p in dist.items():
                assert abs(float(p) - hb[s][rank].get(c, 0.0)) < 1e-12
                n += 1
    assert n > 50
    assert abs(b.consistent_deals / a.consistent_deals - 1) < 1e-12


def _contradictory_events():
    """Seat 1 refuses rank 2, then (never having drawn) asks for rank 2: legal in seat 0's
    view, which does not know seat 1's hand, but no deal is consistent with it."""
    return [
        {"type": "ask", "asker": 0, "target": 1, "rank": "2", "given": []},
        {"type": "draw", "player": 0, "card": "4C", "shown": False},
        {"type": "ask", "asker": 1, "target": 2, "rank": "2", "given": []},
    ]


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_contradiction(engine):
    opts = {"players": 3, "ranks": 4, "suits": 2, "hand": 2}
    t = GoFishBelief(opts, 0, ["2C", "3C"], **ENGINES[engine])
    evs = _contradictory_events()
    for ev in evs[:2]:
        t.observe(ev)
    assert t.consistent_deals > 0  # the prefix is fine
    t.observe(evs[2])
    with pytest.raises(Contradiction):
        t.consistent_deals  # noqa: B018
    with pytest.raises(Contradiction):
        t.holdings()
    # the brute force agrees: no consistent deal
    assert bf.prefixes(opts, 0, ["2C", "3C"], evs)[-1].n == 0


def test_four_player_full_deck_agent_game_finishes():
    """The regression of the crash in the draw engine's exchange move (a rank with a single
    split): a full-deck 4-player game with the belief player ends without a forfeit, and its
    answers are distributions."""
    res = play_game(GAME, {"players": 4}, [resolve_agent(a, GAME) for a in ["belief", "peer", "peer", "peer"]],
                    np.random.default_rng(1), [np.random.default_rng([1, s]) for s in range(4)], max_actions=3000)
    assert res.forfeit is None, res.forfeit_reason
    assert res.result is not None


def test_sampled_chances_carry_their_standard_errors(monkeypatch):
    """Where the Go Fish answer is sampled (4 players late in a game, the exact sums turned
    off), every sampled chance has its standard error: the tracker's ``holdings_stderr`` has
    one per probability of ``holdings`` (at most the largest, ``stderr``, and above 0 for
    some uncertain cell); the advice's JSON carries it for every ask and for the holdings;
    the default text says the chances are sampled and ``--verbose`` prints each one's error
    (``± N``) in the asks and the tables."""
    import io

    from rich.console import Console

    from cardmind.games.gofish.draws import settings as draw_settings
    from cardmind.hints import hint_for
    from cardmind.records import read_record

    monkeypatch.setattr(draw_settings, "COMPACT_WORK", 0)
    rec = read_record(ROOT / "examples" / "gofish-4p-complete.jsonl").for_seat(0)
    t = GoFishBelief(rec.options, 0, rec.header["hand"], draw_options={"exact_cells": 100}, model="uniform")
    for ev in rec.events[:99]:
        t.observe(ev)
    hold, ses = t.holdings(), t.holdings_stderr()
    assert t.mode == "mcmc" and ses is not None
    top = t.stderr
    cells = [(s, r, c) for s in ses for r in ses[s] for c in ses[s][r]]
    assert cells and all(c in hold[s][r] for s, r, c in cells)
    assert max(ses[s][r][c] for s, r, c in cells) == pytest.approx(top, rel=1e-9)
    some = [(s, r) for s in hold if s != 0 for r in hold[s] if 0 < hold[s][r].get(0, 0.0) < 1]
    assert some and any(ses[s][r][0] > 0 for s, r in some)
    assert t.p_holds_stderr(some[0][0], some[0][1]) == ses[some[0][0]][some[0][1]][0]
    advice = hint_for(t)
    obj = advice.to_json()
    assert obj["holdings_stderr"] and all("stderr" in a and a["stderr"] <= top + 1e-12 for a in obj["asks"])
    unsure = [a for a in obj["asks"] if 0 < a["probability"] < 1]
    for a in unsure:
        assert a["stderr"] == pytest.approx(ses[a["target"]][a["rank"]][0])
    buf = io.StringIO()
    advice.render(Console(file=buf, width=160, force_terminal=False), rec, verbose=True)
    text = buf.getvalue()
    assert "± " in text and "(sampled)" in text
    exact = GoFishBelief(rec.options, 0, rec.header["hand"], model="uniform")
    for ev in rec.events[:40]:
        exact.observe(ev)
    assert exact.holdings_stderr() is None and "holdings_stderr" not in hint_for(exact).to_json()
