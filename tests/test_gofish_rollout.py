"""The count-level Go Fish play-outs of the ``belief`` player's look-ahead
(:mod:`cardmind.games.gofish.decide`) against the real game, and the exact world sampler
they start from (:meth:`GoFishBelief.sample_hidden`)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardmind.agents.random import RandomAgent
from cardmind.games.gofish.agents.belief import GoFishBeliefAgent
from cardmind.games.gofish.agents.peer import GoFishPeerAgent
from cardmind.games.gofish.decide import Memory, memory_worlds, peer_ask, play_out
from cardmind.agents.match import play_game
from cardmind.games.gofish.belief import GoFishBelief
from cardmind.core import get_game
from cardmind.games.gofish import Ask

G = get_game("gofish")


def _memory(peer: GoFishPeerAgent, ranks) -> tuple[list, list]:
    n = len(peer.lo)
    return ([[peer.lo[s][r] for r in ranks] for s in range(n)],
            [[peer.lacks[s].get(r, -1) for r in ranks] for s in range(n)])


def _random_game(seed: int, **kw):
    """A game played at random on the complete state, with a ``peer`` watching from seat 0.

    Returns ``(options, snapshot, asks, final books)``: the snapshot (hands as counts, the
    stock as ranks drawn last-first, books, turn, peer memory) is taken at the first ask; ``asks``
    lists ``(asker, target, rank index, peer memory before it)``.
    """
    options = G.parse_options(kw)
    state, header = G.initial_state(options, np.random.default_rng(seed))
    ranks = state.ranks
    ri = {r: i for i, r in enumerate(ranks)}
    peer = GoFishPeerAgent(G, 0, options, G.observer_header(header, 0))
    rng = np.random.default_rng([seed, 1])
    snap, asks = None, []
    while not state.is_over():
        seat = state.to_move()
        acts = state.legal_actions(seat)
        a = acts[int(rng.integers(len(acts)))]
        if isinstance(a, Ask):
            if snap is None:
                hands = [[0] * len(ranks) for _ in range(state.players)]
                for s in range(state.players):
                    for c in state.hands[s]:
                        hands[s][ri[c[0]]] += 1
                snap = (hands, [ri[c[0]] for c in reversed(state.stock)], state.books_per_seat(), seat,
                        _memory(peer, ranks))
            asks.append((a.asker, a.target, ri[a.rank], _memory(peer, ranks)))
        events = state.apply_action(a)
        notice = state.pending_notice()
        if notice is not None:
            peer.notice(dict(notice))
        for ev in events:
            peer.observe(state.redact(ev, 0))
    return options, snap, asks, state.result().detail["phase1_books"]


@pytest.mark.parametrize("seed,kw", [
    (1, {"players": 2}), (2, {"players": 2, "give": "all"}), (3, {"players": 3}),
    (4, {"players": 4, "books_face_up": True}), (5, {"players": 5, "ranks": 8}),
    (6, {"players": 2, "ranks": 5, "suits": 3, "hand": 4}), (7, {"players": 6}),
    (8, {"players": 3, "give": "all", "books_face_up": True}),
])
def test_play_out_replays_the_real_game(seed, kw):
    """Fed the asks of a real game, a play-out makes the same books, and every ask is legal
    in it (the asker on turn, holding the rank; the target holding cards)."""
    for k in range(4):
        options, snap, asks, books = _random_game(100 * seed + k, **kw)
        if snap is None:
            continue
        hands, stock, books0, turn, (lo, lacks) = snap
        it = iter(asks[1:])

        def replay(p, hands_, sizes, stock_left, mem, S, targets, rnd):
            asker, target, r, _ = next(it)
            assert asker == p and target in targets and hands_[p][r] > 0
            return target, r

        got = play_out(hands, stock, list(books0), Memory(lo, lacks), turn, options["suits"],
                       random.Random(0), first=(asks[0][1], asks[0][2]),
                       give_all=options["give"] == "all", face_up=options["books_face_up"], policy=replay)
        assert got == books
        assert next(it, None) is None   # every ask of the game was made


@pytest.mark.parametrize("seed,kw", [(11, {"players": 2}), (12, {"players": 3, "books_face_up": True}),
                                     (13, {"players": 2, "give": "all", "books_face_up": True})])
def test_play_out_memory_matches_peer(seed, kw):
    """The play-out's memory of the other seats' live ranks before every ask is what a ``peer``
    at seat 0 remembers of them (exact with two players or books face up: a face-down book
    clears the ranks it may be of as seen from the other seats' hands)."""
    for k in range(4):
        options, snap, asks, _ = _random_game(100 * seed + k, **kw)
        hands, stock, books0, turn, (lo, lacks) = snap
        it = iter(asks[1:])
        seen = []

        def replay(p, hands_, sizes, stock_left, mem, S, targets, rnd):
            asker, target, r, (plo, placks) = next(it)
            seen.append(1)
            live = [x for x in range(len(hands_[0])) if any(h[x] for h in hands_) or x in stock]
            for o in range(1, len(hands_)):   # booked ranks are nobody's to ask for
                assert [mem.lo[o][x] for x in live] == [plo[o][x] for x in live]
                assert [mem.lacks[o][x] for x in live] == [placks[o][x] for x in live]
            return target, r

        play_out(hands, stock, list(books0), Memory(lo, lacks), turn, options["suits"], random.Random(0),
                 first=(asks[0][1], asks[0][2]), give_all=options["give"] == "all",
                 face_up=options["books_face_up"], policy=replay)
        assert len(seen) == len(asks) - 1 > 5


def test_peer_ask_orders_known_holders_then_guesses():
    """Count-level ``peer``: a certain book before a known holder, a known holder before a
    guess, and among guesses the rank held most."""
    rnd = random.Random(0)
    R, S = 4, 4
    hands = [[2, 1, 3, 0], [0] * R, [0] * R]
    sizes = [6, 5, 5]
    lo = [[0] * R for _ in range(3)]
    lacks = [[-1] * R for _ in range(3)]
    mem = Memory(lo, lacks)
    # guesses only: the rank held most (rank 2, three cards)
    assert peer_ask(0, hands, sizes, 10, mem, S, [1, 2], rnd)[1] == 2
    # seat 2 is known to hold one card of rank 1: a known holder beats every guess
    lo[2][1] = 1
    assert peer_ask(0, hands, sizes, 10, mem, S, [1, 2], rnd) == (2, 1)
    # seat 1 holds both missing cards of rank 0: a certain book comes first
    lo[1][0] = 2
    assert peer_ask(0, hands, sizes, 10, mem, S, [1, 2], rnd) == (1, 0)
    # nobody may hold rank 2 (seat 1, 2 known to lack it): it is not guessed
    lo[1][0] = lo[2][1] = 0
    lacks[1][2] = lacks[2][2] = 0
    assert peer_ask(0, hands, sizes, 10, mem, S, [1, 2], rnd)[1] == 0


def test_sample_hidden_follows_the_exact_marginals():
    """Worlds drawn from the two-player posterior: every sample fits the public counts, and the
    frequencies of each seat's and the stock's counts match the exact marginals."""
    opts = G.parse_options({"players": 2})
    res = play_game(G, opts, [lambda g, s, o, h: RandomAgent(g, s, o, h)] * 2,
                    np.random.default_rng(5), [np.random.default_rng(6), np.random.default_rng(7)])
    rec = res.record
    b = GoFishBelief.from_record(rec, seat=0, upto_event=40)
    b.settled = False
    hold = b.holdings()
    worlds = b.sample_hidden(4000, np.random.default_rng(0))
    _frequencies_match(b, worlds, hold, 0.04)


def _frequencies_match(b, worlds, hold, tol):
    """Every world fits the hand sizes and the stock, and the frequency of each seat's (and
    the stock's) count of each rank is within ``tol`` of ``hold``; returns the largest gap."""
    n_size = {s: b.state.sizes[s] for s in b.others}
    for w in worlds:
        assert sum(w["stock"]) == b.state.stock_count
        for s in b.others:
            assert sum(w[s]) == n_size[s]
    worst = 0.0
    for who in b.others + ["stock"]:
        for ri, r in enumerate(b.ranks):
            exact = hold.get(who, {}).get(r, {0: 1.0})
            freq = {}
            for w in worlds:
                freq[w[who][ri]] = freq.get(w[who][ri], 0) + 1 / len(worlds)
            for c in set(exact) | set(freq):
                worst = max(worst, abs(freq.get(c, 0.0) - exact.get(c, 0.0)))
                assert abs(freq.get(c, 0.0) - exact.get(c, 0.0)) < tol, (who, r, c)
    return worst


def test_sample_hidden_from_the_draw_engine():
    """Four players (the draw engine): where its answer is exact the worlds are exact posterior
    draws (frequencies within 0.04 of the exact marginals over 3000 draws); where it samples
    (mode ``mcmc``) they come from its chain and still fit every public size, with
    frequencies near its sampled marginals."""
    G4 = {"players": 4}
    res = play_game(G, G.parse_options(G4), [lambda g, s, o, h: RandomAgent(g, s, o, h)] * 4,
                    np.random.default_rng(3), [np.random.default_rng([3, s]) for s in range(4)])
    view = res.record.for_seat(1)
    unseen = [i for i, e in enumerate(view.events) if e["type"] == "draw" and e["card"] is None]
    L = unseen[4] + 1  # five unseen draws
    b = GoFishBelief.from_record(res.record, seat=1, upto_event=L, engine="draws")
    hold = b.holdings()
    assert b.mode in ("exact", "enumerated")
    worlds = b.sample_hidden(3000, np.random.default_rng(0))
    assert _frequencies_match(b, worlds, hold, 0.04) > 0
    s = GoFishBelief.from_record(res.record, seat=1, upto_event=L, engine="draws", exact_free=0, enum_nodes=0)
    hold = s.holdings()
    assert s.mode == "mcmc"
    worlds = s.sample_hidden(600, np.random.default_rng(1))
    assert len(worlds) == 600
    _frequencies_match(s, worlds, hold, 0.12)


def test_search_setting_plays_legal_games():
    """``belief`` with the look-ahead finishes two-player games under ``give: "all"`` and face-up
    books, and its look-ahead decided some moves."""
    agents = []

    def fb(game, seat, options, hdr):
        a = GoFishBeliefAgent(game, seat, options, hdr, {"search": 4, "search_players": 2})
        agents.append(a)
        return a

    for kw in ({"players": 2}, {"players": 2, "give": "all", "books_face_up": True}):
        res = play_game(G, kw, [fb, lambda g, s, o, h: GoFishPeerAgent(g, s, o, h)],
                        np.random.default_rng(3), [np.random.default_rng(4), np.random.default_rng(5)])
        assert res.forfeit is None and res.result is not None
    assert all(a.search_moves > 0 for a in agents)
    with pytest.raises(ValueError, match="search"):
        GoFishBeliefAgent(G, 0, G.parse_options({"players": 2}), {"observer": 0, "hand": ["2C", "3C", "4C", "5C", "6C", "7C"]},
                          {"search": -1})


def test_chain_worlds_setting_plays_legal_games(monkeypatch):
    """``sampled_worlds: "chain"``: at a three-player table whose tracker samples early (few
    draws summed exactly) the look-ahead takes its worlds from the draw engine's chain; the
    games end legally and the look-ahead decided moves; a bad value is refused."""
    agents = []

    def fb(game, seat, options, hdr):
        # (the compact sum off: the player's answers past 2 unseen draws are the sampler's)
        a = GoFishBeliefAgent(game, seat, options, hdr, {"search": 8, "sampled_worlds": "chain", "exact_free": 2,
                                                         "compact": False})
        agents.append(a)
        return a

    peer = lambda g, s, o, h: GoFishPeerAgent(g, s, o, h)  # noqa: E731
    calls = []
    orig = GoFishBelief.sample_hidden

    def spy(self, n, rng):
        out = orig(self, n, rng)
        calls.append((self.mode, out is not None and len(out) == n))
        return out

    monkeypatch.setattr(GoFishBelief, "sample_hidden", spy)
    res = play_game(G, {"players": 3, "ranks": 9}, [fb, peer, peer], np.random.default_rng(2),
                    [np.random.default_rng([2, s]) for s in range(3)])
    assert res.forfeit is None and res.result is not None
    assert agents[0].search_moves > 0
    assert any(m == "mcmc" and ok for m, ok in calls), calls
    with pytest.raises(ValueError, match="sampled_worlds"):
        GoFishBeliefAgent(G, 0, G.parse_options({"players": 3}), {"observer": 0, "hand": ["2C", "3C", "4C", "5C", "6C", "7C"]},
                          {"sampled_worlds": "posterior"})


def test_play_out_lays_a_dealt_book_first():
    """A complete rank in a hand at the start (a dealt book a view could not rule out) is laid
    before play: it counts as a book and its cards leave the hand."""
    hands = [[1, 0, 0], [0, 4, 1]]        # seat 1 holds all four cards of rank 1
    books = play_out(hands, [2, 2, 2, 0, 0, 0], [0, 0], Memory([[0] * 3, [0] * 3], [[-1] * 3, [-1] * 3]),
                     0, 4, random.Random(0))
    assert books[1] >= 1 and sum(books) == 3


def test_play_out_tells_its_watch_what_happens():
    """The ``watch`` hook sees every ask before the memory changes, every stock card drawn
    (unseen or shown) once, and does not change the play-out."""

    class Recorder:
        def __init__(self):
            self.asks, self.n_unseen, self.n_shown = [], 0, 0

        def ask(self, p, t, r, mem, sizes):
            self.asks.append((p, t, r, mem.lo[p][r]))

        def draw_unseen(self, p):
            self.n_unseen += 1

        def shown(self, p, r):
            self.n_shown += 1

    for seed in range(5):
        rnd = random.Random(seed)
        deck = [r for r in range(13) for _ in range(4)]
        rnd.shuffle(deck)
        hands = [[0] * 13 for _ in range(3)]
        for s in range(3):
            for c in deck[6 * s:6 * s + 6]:
                hands[s][c] += 1
        stock = deck[18:]
        args = lambda: ([h[:] for h in hands], stock[:], [0, 0, 0],  # noqa: E731
                        Memory([[0] * 13 for _ in range(3)], [[-1] * 13 for _ in range(3)]), 0, 4)
        rec = Recorder()
        watched = play_out(*args(), random.Random(seed), watch=rec)
        assert watched == play_out(*args(), random.Random(seed))
        assert sum(watched) == 13
        assert rec.n_unseen + rec.n_shown == len(stock) and rec.n_shown > 0
        assert rec.asks and all(p != t for p, t, _, _ in rec.asks)
        # an asker is publicly known to hold the rank only after it asked (or was seen with it)
        assert any(known == 0 for _, _, _, known in rec.asks)


def test_memory_worlds_respect_the_memory():
    """Approximate worlds: known cards stay where they are, known absences hold, sizes and the
    stock add up, no hand holds a complete rank, and the hidden book's rank is taken out."""
    R, S = 6, 4
    own = [2, 1, 0, 0, 0, 1]                        # seat 0's hand (4 cards)
    sizes = [4, 5, 5, 4]
    lo = [[0] * R, [0, 2, 0, 0, 0, 0], [0] * R, [1, 0, 0, 0, 0, 0]]
    lacks = [[-1] * R, [-1] * R, [0, 0, 1, -1, -1, -1], [-1] * R]
    mem = Memory(lo, lacks)
    # unlocated: rank 0: 1, rank 1: 1, ranks 2-4: 4 each, rank 5: 3 = 17; one hidden book
    # takes a rank nobody holds (2, 3 or 4): 13 cards for 3 + 5 + 3 free places in hands, 2 in the stock
    stock_left = 13 - (5 - 2) - 5 - (4 - 1)
    worlds = memory_worlds(200, own, sizes, stock_left, mem, set(), 1, 0, S, random.Random(1))
    assert len(worlds) == 200
    book_ranks = set()
    for w in worlds:
        for s in (1, 2, 3):
            assert sum(w[s]) == sizes[s]
            assert all(w[s][r] >= lo[s][r] for r in range(R))
            assert all(c < S for c in w[s])
        assert sum(w["stock"]) == stock_left
        assert w[2][0] == 0 and w[2][1] == 0 and w[2][2] <= 1
        totals = [own[r] + sum(w[s][r] for s in (1, 2, 3)) + w["stock"][r] for r in range(R)]
        assert sorted(totals).count(0) == 1 and all(t in (0, S) for t in totals)
        book_ranks.add(totals.index(0))
    assert book_ranks == {2, 3, 4}
    # a memory that cannot be met (more cards placed than slots): no worlds
    assert memory_worlds(5, own, sizes, stock_left + 1, mem, set(), 1, 0, S, random.Random(1)) == []


def test_four_player_look_ahead_on_memory_worlds():
    """At four players (the default look-ahead table) the tracker cannot draw worlds exactly:
    the look-ahead plays on worlds of the public memory and decides most moves (a certain hit
    goes to ``peer``); with ``sampled: "peer"`` the moves the tracker only sampled go to it."""
    made = {}

    def factory(settings):
        def fb(game, seat, options, hdr):
            a = GoFishBeliefAgent(game, seat, options, hdr, {"search": 4, "compact": False, **settings})
            made.setdefault(settings.get("sampled", "search"), []).append(a)
            return a
        return fb

    peer = lambda g, s, o, h: GoFishPeerAgent(g, s, o, h)  # noqa: E731
    for settings in ({}, {"sampled": "peer"}):
        res = play_game(G, {"players": 4}, [factory(settings), peer, peer, peer], np.random.default_rng(8),
                        [np.random.default_rng([8, s]) for s in range(4)])
        assert res.forfeit is None and res.result is not None
    a, b = made["search"][0], made["peer"][0]
    assert a.search_moves > 0
    assert b.fallback_moves > 0


@pytest.fixture(autouse=True)
def _uniform_by_default(monkeypatch):
    """These tests check the draw engine's constraint-only answer: trackers built without a
    model count the deals alike (with three or more players the default ``auto`` reweighs
    sampled deals on top of it; ``tests/test_gofish_models_multi.py`` tests that)."""
    from cardmind.games.gofish import models as _gofish_models

    monkeypatch.setattr(_gofish_models, "MODELS", ("uniform", "auto", "peer", "belief", "random"))
