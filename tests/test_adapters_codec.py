"""The adapters' pure-Python core: action codecs, World, resamplers (no extra needed)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from cardmind.adapters.codec import ActionCodec, codec_names, make_codec
from cardmind.adapters.world import TERMINAL, World, replay_deal
from cardmind.core import game_names

CONFIGS = [
    ("literature", {}, None),
    ("literature", {"players": 8, "claim_any_time": True}, None),
    ("literature", {"deck": "48", "ask_own_card": True, "wrong_claim": "cancel", "after_claim": "claimant"}, None),
    ("literature", {}, {"claims": "known"}),
    ("gofish", {}, None),
    ("gofish", {"players": 2, "give": "all", "phase2": True}, None),
    ("gofish", {"players": 3, "books_face_up": True, "phase2": True}, None),
    ("gofish", {"players": 6, "ranks": 6, "hand": 3}, None),
]
#: games whose ids and worlds are tested (the resampler test below takes CONFIGS only)
ID_CONFIGS = CONFIGS + [
    ("handfoot", {"hands": 1}, None),
    ("handfoot", {"players": 3, "cutthroat": True, "hands": 2, "hand_size": 5, "pile_min": 3}, None),
]


def deal(world: World, rng: np.random.Generator) -> World:
    while world.is_chance():
        outs = world.chance_outcomes()
        world.apply_chance(outs[int(rng.integers(len(outs)))][0])
    return world


def ask_biased(world: World, rng: np.random.Generator) -> int:
    """A random legal id, mostly asks in Literature (random claims end games at once)."""
    ids = world.legal_ids()
    codec = world.codec
    if codec.game_name == "literature":
        asks = [a for a in ids if a < codec.base_claim]
        if asks and rng.random() < 0.97:
            return int(rng.choice(asks))
    return int(rng.choice(ids))


def test_every_game_has_a_codec():
    assert set(codec_names()) == set(game_names())


@pytest.mark.parametrize("game,options,params", ID_CONFIGS)
def test_ids_roundtrip_and_legal(game, options, params):
    codec = make_codec(game, options, params)
    rng = np.random.default_rng(1)
    step = 0
    for _ in range(2):
        w = deal(World(codec, max_moves=400), rng)
        while not w.is_over():
            seat = w.current_player()
            ids = w.legal_ids()
            assert ids and ids == sorted(set(ids))
            assert all(0 <= a <= codec.decline_id for a in ids)
            sample = ids if len(ids) < 60 else list(rng.choice(ids, 60, replace=False))
            for a in sample:
                if a != codec.decline_id:
                    action = codec.decode(int(a), seat)
                    assert action.seat == seat
                    assert codec.encode(action) == a
                    assert codec.action_name(int(a), seat)
            if (params or {}).get("claims") != "known" and step % 9 == 0:
                for s in {seat, int(rng.integers(codec.num_seats))}:   # the fast path = encoding legal_actions
                    assert codec.legal_ids(w.state, s) == ActionCodec.legal_ids(codec, w.state, s)
            step += 1
            w.apply(ask_biased(w, rng))
        r = w.returns()
        lo, hi = codec.utility_range()
        assert abs(sum(r)) < 1e-9 and all(lo - 1e-9 <= x <= hi + 1e-9 for x in r)
        assert w.current_player() == TERMINAL and w.legal_ids() == []
        for s in range(codec.num_seats):
            obs = w.observation(s)
            assert obs.shape == (codec.observation_size(),) and obs.dtype == np.float32
            assert obs.min() >= 0 and obs.max() <= len(codec.deck())


def test_literature_ids_documented():
    codec = make_codec("literature", {})
    assert codec.num_actions == 54 * 6 + 9 * 3 ** 6 + 6 + 6 == 6897
    assert make_codec("literature", {"players": 8}).num_actions == 54 * 8 + 9 * 4 ** 6 + 16 == 37312
    from cardmind.games.literature.notation import Ask, ChooseNext, Claim, Pass
    assert codec.encode(Ask(0, 3, "2C")) == 3
    assert codec.encode(Ask(1, 4, "3C")) == 6 + 4
    cards = ("9C", "TC", "JC", "QC", "KC", "AC")
    # seat 1's team is 1, 3, 5 (members 0, 1, 2); set index 1 = high-clubs
    claim = Claim(1, "high-clubs", tuple(zip(cards, (1, 3, 5, 1, 1, 5))))
    assert codec.encode(claim) == 324 + 729 + (0 * 243 + 1 * 81 + 2 * 27 + 0 * 9 + 0 * 3 + 2)
    assert codec.decode(codec.encode(claim), 1) == claim
    assert codec.encode(Pass(2, 4)) == 324 + 6561 + 4
    assert codec.encode(ChooseNext(0, 2)) == 324 + 6561 + 6 + 2
    assert codec.decline_id == 6897


def test_gofish_ids_documented():
    codec = make_codec("gofish", {})
    from cardmind.games.gofish.notation import Ask, AskBook, Give, LayBooks
    assert codec.num_actions == 1 + 13 * 4 + 52 + 13 * 4 == 157
    assert codec.encode(LayBooks(2)) == 0
    assert codec.encode(Ask(0, 3, "2")) == 1 + 3
    assert codec.encode(Ask(0, 1, "A")) == 1 + 12 * 4 + 1
    assert codec.encode(Give(1, "2D")) == 53 + 1
    assert codec.encode(AskBook(2, 0, "3")) == 105 + 4
    assert codec.observation_size() == 370


def test_literature_known_claims_are_certain_or_forced():
    codec = make_codec("literature", {}, {"claims": "known"})
    rng = np.random.default_rng(4)
    w = deal(World(codec, max_moves=300), rng)
    seen = 0
    while not w.is_over():
        seat, st = w.current_player(), w.state
        legal = set(make_codec("literature", {}).legal_ids(st, seat))
        ids = w.legal_ids()
        assert set(ids) <= legal
        claims = [a for a in ids if codec.base_claim <= a < codec.base_pass]
        asks = [a for a in ids if a < codec.base_claim]
        for a in claims:
            c = codec.decode(a, seat)
            if asks:  # not forced: every holder is known to the claimer and right
                for card, s in c.assignment:
                    assert st.holder[card] == s and (s == seat or card in st.moved)
                seen += 1
        w.apply(ask_biased(w, rng))
    assert seen > 0


def play_to(world: World, rng, moves: int) -> World:
    for _ in range(moves):
        if world.is_over():
            break
        world.apply(ask_biased(world, rng))
    return world


@pytest.mark.parametrize("game,options,params", CONFIGS)
def test_resample_keeps_the_information(game, options, params):
    codec = make_codec(game, options, params)
    rng = np.random.default_rng(7)
    for k in range(4):
        w = play_to(deal(World(codec), rng), rng, int(rng.integers(5, 80)))
        if w.is_over():
            continue
        for seat in range(codec.num_seats):
            r = codec.resample(w, seat, rng)
            assert r is not w and r.is_complete()
            assert r.info_string(seat) == w.info_string(seat)
            assert r.current_player() == w.current_player()
            if w.current_player() == seat:
                assert r.legal_ids() == w.legal_ids()
            np.testing.assert_array_equal(r.observation(seat), w.observation(seat))
            assert r.dealt_hand(seat) == w.dealt_hand(seat)
            # the resampled world is a real game: its deal replays to the same state
            again = replay_deal(w, r.deal_order())
            assert again is not None
            assert [set(h) for h in again.state.hands] == [set(h) for h in r.state.hands]
            play_to(r, rng, 30)       # and it plays on


def test_literature_resample_is_the_exact_sampler():
    """Each seat's hidden cards vary between samples, the known ones never do."""
    codec = make_codec("literature", {})
    rng = np.random.default_rng(11)
    w = play_to(deal(World(codec), rng), rng, 40)
    seat = w.current_player()
    view = w.view(seat)
    hands = [codec.resample(w, seat, rng).state.hands for _ in range(30)]
    for c, s in view.holder.items():
        assert all(c in h[s] for h in hands)
    hidden = [c for c in w.state.holder if c not in view.holder]
    assert any(len({next(s for s, h in enumerate(hh) if c in h) for hh in hands}) > 1 for c in hidden)


def test_partial_world_from_a_view():
    """What an agent has (its hand, view state, the events it saw) resamples to complete worlds."""
    for game, options in (("literature", {}), ("gofish", {"players": 3})):
        codec = make_codec(game, options)
        rng = np.random.default_rng(5)
        w = play_to(deal(World(codec), rng), rng, 25)
        seat = w.current_player()
        log = [(k, w.state.redact(e, seat)) if k == "event" else (k, e) for k, e in w.log]
        part = World.from_view(codec, seat, w.dealt_hand(seat), w.view(seat).copy(), log)
        assert not part.is_complete()
        r = codec.resample(part, seat, rng)
        assert r.is_complete() and r.info_pieces(seat) == w.info_pieces(seat)
        assert r.legal_ids() == w.legal_ids()


def test_truncation():
    codec = make_codec("literature", {}, {"claims": "known"})
    rng = np.random.default_rng(2)
    for mode in ("draw", "score"):
        w = deal(World(codec, max_moves=20, truncation=mode), rng)
        play_to(w, rng, 100)
        assert w.truncated and w.is_over() and w.moves == 20
        assert abs(sum(w.returns())) < 1e-9
    with pytest.raises(ValueError):
        World(codec, truncation="maybe")


def test_decline_only_out_of_turn():
    from cardmind.errors import IllegalAction

    codec = make_codec("literature", {"claim_any_time": True})
    w = deal(World(codec), np.random.default_rng(0))
    assert not w.react
    with pytest.raises(IllegalAction):
        w.apply(codec.decline_id)
    first_ask = next(a for a in w.legal_ids() if a < codec.base_claim)
    w.apply(first_ask)
    assert w.react and w.current_player() == w.react[0]
    assert codec.decline_id in w.legal_ids()
    before = list(w.react)
    w.apply(codec.decline_id)
    assert w.react == before[1:] and w.log[-1] == ("decline", before[0])


def test_agent_without_openspiel_says_how_to_install(monkeypatch):
    from cardmind.games.literature.agents.ismcts import LiteratureISMCTSAgent
    from cardmind.core import get_game

    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "cardmind.adapters.openspiel", raising=False)
    game = get_game("literature")
    opts = game.parse_options({})
    _, header = game.initial_state(opts, np.random.default_rng(0))
    with pytest.raises(RuntimeError, match=r"pip install"):
        LiteratureISMCTSAgent(game, 0, opts, game.observer_header(header, 0))


def test_registry_knows_the_agent():
    from cardmind.agents.base import resolve_agent

    for g in ("literature", "gofish"):
        assert resolve_agent("openspiel-ismcts", g).name == "openspiel-ismcts"


def test_gofish_resample_keeps_who_decides_in_the_opening():
    """Small decks often deal complete ranks: a resampled deal must not give a seat a dealt
    book that would make it lay books before the seat now deciding (regression)."""
    codec = make_codec("gofish", {"players": 3, "ranks": 3, "suits": 2, "hand": 2})
    rng = np.random.default_rng(0)
    for _ in range(60):
        w = deal(World(codec), rng)
        for _ in range(3):
            if w.is_over():
                break
            seat = w.current_player()
            log = [(k, w.state.redact(e, seat)) if k == "event" else (k, e) for k, e in w.log]
            part = World.from_view(codec, seat, w.dealt_hand(seat), w.view(seat).copy(), log)
            for source in (w, part):
                r = codec.resample(source, seat, rng)
                assert r.current_player() == seat and r.legal_ids() == w.legal_ids()
            w.apply(int(rng.choice(w.legal_ids())))
