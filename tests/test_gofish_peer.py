"""The Go Fish ``peer`` player: legal play under every option, a sound memory, its decision
rules on constructed positions, and its strength against ``random``."""

from __future__ import annotations

import numpy as np
import pytest

from cardmind.agents.base import resolve_agent
from cardmind.agents.random import RandomAgent
from cardmind.games.gofish.agents.peer import GoFishPeerAgent
from cardmind.agents.match import play_game
from cardmind.core import get_game
from cardmind.games.gofish import Ask, AskBook, Give, LayBooks

G = get_game("gofish")


def opts(**kw) -> dict:
    return G.parse_options(kw)


def peer_factory(settings=None):
    return lambda game, seat, options, hdr: GoFishPeerAgent(game, seat, options, hdr, settings)


def random_factory(game, seat, options, hdr):
    return RandomAgent(game, seat, options, hdr)


class Referee:
    """A complete state driven by scripted actions, with one peer watching from ``seat``."""

    def __init__(self, hands, stock, seat=0, settings=None, **kw):
        self.options = opts(**kw)
        self.state = G.new_state(self.options, {"hands": hands, "stock": stock})
        self.seat = seat
        self.peer = GoFishPeerAgent(G, seat, self.options, {"observer": seat, "hand": hands[seat]}, settings)

    def play(self, *actions):
        for a in actions:
            events = self.state.apply_action(a)
            notice = self.state.pending_notice()
            if notice is not None:
                self.peer.notice(dict(notice))
            for ev in events:
                self.peer.observe(self.state.redact(ev, self.seat))


# ---------------------------------------------------------------------------- registry, settings
def test_registered_as_peer_for_go_fish_only():
    assert resolve_agent("peer", G) is GoFishPeerAgent
    assert resolve_agent("peer", "gofish") is GoFishPeerAgent
    assert resolve_agent("peer", get_game("literature")) is not GoFishPeerAgent
    assert resolve_agent("random", G) is RandomAgent


def test_settings_are_checked():
    o = opts(players=2)
    hdr = {"observer": 0, "hand": ["2C", "3C", "4C", "5C", "6C", "7C"]}
    for bad in (2, -0.1, "0.3", True):
        with pytest.raises(ValueError, match="plausible"):
            GoFishPeerAgent(G, 0, o, hdr, {"plausible": bad})
    assert GoFishPeerAgent(G, 0, o, hdr, {"plausible": 1}).settings == {"plausible": 1}
    with pytest.raises(ValueError, match="no setting"):
        GoFishPeerAgent(G, 0, o, hdr, {"samples": 3})


# ---------------------------------------------------------------------------- legal play, sound memory
SIM_OPTIONS = [
    {"players": 2},
    {"players": 3},
    {"players": 4, "give": "all"},
    {"players": 5, "books_face_up": True},
    {"players": 6, "phase2": True},
    {"players": 2, "give": "all", "phase2": True},
    {"players": 3, "ranks": 5, "suits": 2, "hand": 3, "phase2": True, "books_face_up": True},
    {"players": 4, "ranks": 4, "suits": 2, "hand": 2, "phase2": True},
    {"players": 2, "ranks": 3, "suits": 2, "hand": 3},                  # every card dealt, dealt books
    {"players": 5, "ranks": 6, "suits": 3, "hand": 3, "give": "all", "phase2": True},
    {"players": 6, "ranks": 7, "suits": 2, "hand": 1, "phase2": True},
    {"players": 3, "ranks": 1, "suits": 4, "hand": 1},
    {"players": 4, "ranks": 13, "suits": 4, "hand": 13, "phase2": True},  # no stock at all
    {"players": 2, "ranks": 6, "suits": 4, "hand": 5, "give": "all", "books_face_up": True},
]


def check_memory(rec) -> int:
    """Replay a complete record; after every event, every seat's peer memory must hold in the
    true deal: ``lo`` never exceeds the cards held, a rank known to be lacking is not held,
    and the cards held beyond ``lo`` fit in :meth:`may_hold`. Returns the facts checked."""
    o = rec.options
    full = G.new_state(o, rec.header)
    peers = [GoFishPeerAgent(G, s, o, G.observer_header(rec.header, s)) for s in range(o["players"])]
    checked = 0
    for ev in rec.events:
        full.apply_event(ev)
        for s, p in enumerate(peers):
            p.observe(full.redact(ev, s))
            for t in range(o["players"]):
                if t == s:
                    continue
                for r in full.ranks:
                    true = full.holds_rank(t, r)
                    assert p.lo[t][r] <= true, (s, t, r, ev)
                    assert true - p.lo[t][r] <= p.may_hold(t, r), (s, t, r, ev)
                    if p.known_none(t, r):
                        assert true == 0, (s, t, r, ev)
                    checked += 1
    return checked


@pytest.mark.parametrize("options", SIM_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_peer_always_plays_legal_actions_and_its_memory_is_sound(options):
    n = opts(**options)["players"]
    for seed in range(4):
        # all peers, then peers and random players alternating
        for mix in ([peer_factory()] * n,
                    [peer_factory({"plausible": 0.0}) if (s + seed) % 2 else random_factory for s in range(n)]):
            m = play_game(G, options, mix, np.random.default_rng(seed),
                          [np.random.default_rng([seed, s]) for s in range(n)], max_actions=20_000)
            assert m.forfeit is None, m.forfeit_reason
            assert not m.unfinished and m.result is not None
            if seed < 2:
                assert check_memory(m.record) > 0


# ---------------------------------------------------------------------------- decisions
def test_asks_a_known_holder():
    """Seat 1 asked for a 5 and was refused, so it holds one: the peer asks it for the 5,
    though it holds more 3s (its guess) and has shown a 7."""
    ref = Referee([["3H", "3S", "5C", "7C"], ["2C", "4C", "5D", "6C"], ["2H", "4D", "6D", "7H"]],
                  ["2D", "4H", "6H", "2S", "3C", "3D", "4S", "5H", "5S", "6S", "7D", "7S"],
                  players=3, ranks=6, suits=4, hand=4)
    ref.play(Ask(0, 1, "7"),           # refused; seat 0 draws 2D, the turn passes
             Ask(1, 2, "5"),           # refused; seat 1 draws 4H
             Ask(2, 0, "4"))           # refused; seat 2 draws 6H
    peer = ref.peer
    assert peer.lo[1]["5"] == 1 and peer.known_holders("5") == {1: 1}
    # seat 1 refused the 7 and seat 2 the 5, but each has drawn one unseen card since
    assert peer.lacks[1]["7"] == 1 and peer.may_hold(1, "7") == 1 and not peer.known_none(1, "7")
    assert peer.lacks[2]["5"] == 1 and peer.lo[2]["4"] == 1
    for k in range(10):
        assert peer.act(np.random.default_rng(k)) == Ask(0, 1, "5")
    other = GoFishPeerAgent(G, 0, ref.options, {"observer": 0, "hand": ["3H", "3S", "5C", "7C"]}, {"plausible": 1.0})
    for ev in ref.state.history:
        other.observe(ref.state.redact(ev, 0))
    assert other.act(np.random.default_rng(0)) == Ask(0, 1, "5")


def test_completes_a_certain_book_first():
    """Seat 1 got a 5 from seat 2 (so it holds two) and the peer holds the other two: a
    certain book, asked before the 7 that seat 2 is known to hold."""
    ref = Referee([["5C", "5S", "7C", "7D"], ["2C", "3C", "4C", "5D"], ["5H", "6C", "6D", "7H"]],
                  ["2D", "3D", "4D", "2H", "2S", "3H", "3S", "4H", "4S", "6H", "6S", "7S"],
                  players=3, ranks=6, suits=4, hand=4)
    ref.play(Ask(0, 1, "7"),                       # refused; seat 0 draws 2D
             Ask(1, 2, "5"), Give(2, "5H"),        # seat 1 now holds 5D 5H
             Ask(1, 2, "2"),                       # refused; seat 1 draws 3D
             Ask(2, 1, "7"))                       # refused; seat 2 draws 4D
    peer = ref.peer
    assert peer.lo[1]["5"] == 2 and peer.lo[2]["7"] == 1 and peer.lo[2]["5"] == 0
    for k in range(10):
        assert peer.act(np.random.default_rng(k)) == Ask(0, 1, "5")
    ref.play(Ask(0, 1, "5"))
    assert ref.state.pending is not None
    # seat 1 hands over a card: the peer's memory follows, and it asks again
    ref.play(Give(1, "5D"))
    assert peer.lo[1]["5"] == 1
    assert peer.act(np.random.default_rng(0)) == Ask(0, 1, "5")
    ref.play(Ask(0, 1, "5"), Give(1, "5H"))
    assert ref.state.num_books(0) == 1 and peer.lo[1]["5"] == 0
    assert peer.act(np.random.default_rng(0)) == Ask(0, 2, "7")


def test_hands_over_the_card_already_public():
    ref = Referee([["5C", "5S", "2C", "3C"], ["5D", "4C", "6C", "7C"], ["5H", "2D", "4D", "6D"]],
                  ["2H", "3D", "3H", "2S", "3S", "4H", "4S", "6H", "6S", "7D", "7H", "7S"],
                  seat=1, players=3, ranks=6, suits=4, hand=4)
    ref.play(Ask(0, 2, "5"), Give(2, "5H"))     # the peer (seat 1) watches 5H go to seat 0
    ref.play(Ask(0, 1, "5"))
    assert ref.peer.act(np.random.default_rng(0)) == Give(1, "5D")   # its only 5
    # now as seat 0: it holds 5C, 5S and the public 5H; asked for a 5 it hands over 5H
    ref2 = Referee([["5C", "5S", "2C", "3C"], ["5D", "4C", "6C", "7C"], ["5H", "2D", "4D", "6D"]],
                   ["2H", "3D", "3H", "2S", "3S", "4H", "4S", "6H", "6S", "7D", "7H", "7S"],
                   seat=0, players=3, ranks=6, suits=4, hand=4)
    ref2.play(Ask(0, 2, "5"), Give(2, "5H"), Ask(0, 2, "2"), Give(2, "2D"),
              Ask(0, 2, "3"))                    # refused; seat 0 draws 2H (not shown), turn passes
    ref2.play(Ask(1, 0, "5"))
    assert ref2.peer.act(np.random.default_rng(0)) == Give(0, "5H")


def test_lays_dealt_books():
    o = opts(players=2, ranks=3, suits=2, hand=3)
    hands = [["2C", "2D", "3C"], ["3D", "4C", "4D"]]
    state = G.new_state(o, {"hands": hands, "stock": []})
    agents = [GoFishPeerAgent(G, s, o, {"observer": s, "hand": hands[s]}) for s in range(2)]
    assert agents[0].act(np.random.default_rng(0)) == LayBooks(0)
    for ev in state.apply_action(LayBooks(0)):
        for s in range(2):
            agents[s].observe(state.redact(ev, s))
    assert agents[1].act(np.random.default_rng(0)) == LayBooks(1)
    # and in whole games the record opens with every dealt book, laid by its owner
    seen = 0
    for seed in range(20):
        m = play_game(G, {"players": 2, "ranks": 3, "suits": 2, "hand": 3}, [peer_factory()] * 2,
                      np.random.default_rng(seed), [np.random.default_rng(s) for s in range(2)])
        assert m.forfeit is None, m.forfeit_reason
        dealt = [(s, r) for s, h in enumerate(m.record.header["hands"])
                 for r in "234" if sum(c[0] == r for c in h) == 2]
        opening = [(e["player"], e["rank"]) for e in m.record.events[:len(dealt)] if e["type"] == "book"]
        assert opening == dealt
        seen += len(dealt)
    assert seen > 0


class RecordingPeer(GoFishPeerAgent):
    """Checks every phase-2 choice: a book whose place is known is asked of its holder."""

    def act(self, rng):
        a = super().act(rng)
        if isinstance(a, AskBook):
            st = self.state
            known = [b for b in st.legal_actions(self.seat) if st.book_at.get(b.rank) == b.target]
            if known:
                assert st.book_at.get(a.rank) == a.target
            else:
                assert a.rank not in self.refused[a.target]
            RecordingPeer.asks += 1
        return a


def test_phase2_asks_for_known_books_first():
    RecordingPeer.asks = 0
    for options in ({"players": 3, "ranks": 6, "suits": 2, "hand": 2, "phase2": True},
                    {"players": 4, "ranks": 6, "suits": 2, "hand": 2, "phase2": True, "books_face_up": True}):
        n = options["players"]
        for seed in range(10):
            m = play_game(G, options, [lambda g, s, o, h: RecordingPeer(g, s, o, h)] * n,
                          np.random.default_rng(seed), [np.random.default_rng([seed, s]) for s in range(n)])
            assert m.forfeit is None, m.forfeit_reason
    assert RecordingPeer.asks > 20


# ---------------------------------------------------------------------------- strength
def test_beats_random_in_two_player_games(tmp_path):
    from cardmind.tournament import run_tournament

    s = run_tournament("gofish", ["peer", "random"], games=200, jobs=1, seed=0, out_dir=tmp_path,
                       options={"players": 2}, quiet=True)
    peer = s["agents"]["peer"]
    assert s["games"] == 200 and peer["forfeits"] == 0 and s["errors"] == 0
    assert peer["win_rate"] > 0.7, peer               # 0.755 when written
    assert peer["win_rate_ci95"][0] > 0.6 and peer["elo"] > 100
