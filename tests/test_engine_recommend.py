"""Every game's hint carries ``recommend``: one action that the engine's ``apply`` accepts
exactly as it is (issue 25, point 2).

A frontend drives ``cardmind engine`` (the real subprocess, JSON Lines): a referee session
deals and resolves every action, one player session per seat follows the game. One seat is
played by the advice alone: at each of its turns the frontend asks for its ``hint`` and
applies ``recommend`` unchanged; the other seats are the engine's own agents (``act`` and
``react``). Every game must end with no action refused.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import pytest

from cardmind.core import get_game
from cardmind.protocol.client import EngineClient

#: per game: small seeded games ``(options, deal seed, the seat played from the hint, the
#: others' agent, hint params)`` that together see every kind of action advised
GAMES: dict[str, list[tuple[dict, int, int, str, dict | None]]] = {
    "literature": [({"players": 6}, 3, 0, "random", {"max_asks": 0}),   # recommend needs no listed ask
                   ({"players": 6, "claim_any_time": True}, 4, 0, "peer", None)],
    "gofish": [({"players": 3, "ranks": 5, "phase2": True}, 0, 0, "random", {"max_asks": 0}),
               ({"players": 3, "ranks": 6, "suits": 2, "hand": 4}, 5, 2, "random", None)],
    "carioca": [({"players": 3, "hands": 2}, 7, 1, "peer", None)],
    "handfoot": [({"hands": 1, "hand_size": 6, "books_clean": 1, "books_dirty": 1}, 0, 0, "peer", {"worlds": 4}),
                 ({"hands": 1, "hand_size": 6, "books_clean": 1, "books_dirty": 1}, 3, 3, "peer", {"worlds": 4}),
                 ({"players": 3, "cutthroat": True, "hands": 1, "hand_size": 6, "books_clean": 1,
                   "books_dirty": 1}, 3, 0, "peer", {"worlds": 4})],
}

#: every action type of each game (``Game.action_from_json``), all of which the games above advise
ACTION_TYPES = {
    "literature": {"ask", "claim", "pass", "next"},
    "gofish": {"ask", "give", "lay_books", "ask_book"},
    "carioca": {"take", "pass", "steal", "go_down", "lay_off", "discard"},
    "handfoot": {"draw", "take_pile", "meld", "lay_off", "discard", "ask_out", "answer"},
}


class Frontend:
    """A frontend of ``cardmind engine``: a referee session and a player session per seat.

    Attributes:
        client: the engine (a child process).
        advised: the seat that plays the hint's ``recommend``.
        applied: ``recommend`` actions applied; ``refused``: ``apply`` error replies to them.
    """

    def __init__(self, client: EngineClient, game: str, options: dict, seed: int, advised: int, agent: str,
                 params: dict | None = None):
        self.client = client
        self.params = params
        self.game = game
        self.advised = advised
        ref = client.request("new", session="ref", game=game, role="referee", options=options, seed=seed)
        self.n = ref["seats"]
        g = get_game(game)
        for s in range(self.n):
            view = g.observer_header(ref["header"], s)
            extra = {k: v for k, v in view.items() if k not in ("observer", "hand")}
            req: dict[str, Any] = {"session": f"p{s}", "game": game, "options": options, "seat": s,
                                   "hand": view["hand"], "seed": s,
                                   "agent": None if s == advised else agent}
            if extra:
                req["header"] = extra
            client.request("new", **req)
        self.status = client.request("status", session="ref")
        self.applied = 0
        self.kinds: Counter = Counter()
        self.refused: list[dict] = []
        self.hints: list[dict] = []
        #: hints asked while another seat was to move and the advised seat could not act
        self.idle_hints: list[dict] = []
        self._moves = 0

    def recommend(self) -> dict | None:
        """The advised seat's ``recommend`` now (its hint is kept in :attr:`hints`)."""
        h = self.client.request("hint", session=f"p{self.advised}", params=self.params)["hint"]
        assert h["game"] == self.game and h["observer"] == self.advised
        self.hints.append(h)
        return h["recommend"]

    def apply(self, seat: int, action: dict, advised: bool) -> None:
        """Resolve ``action`` at the referee and relay the notice and the events to every seat."""
        if advised:   # the player's own session finds it legal too
            assert self.client.request("check", session=f"p{seat}", action=action)["legal"] is True, action
        reply = self.client.request("apply", check=False, session="ref", action=action)
        if advised:
            self.applied += 1
            self.kinds[action["type"]] += 1
            if not reply["ok"]:
                self.refused.append({"action": action, "error": reply["error"]})
        assert reply["ok"], f"seat {seat}'s action {action} was refused: {reply['error']}"
        if reply["notice"] is not None:
            for s in range(self.n):
                self.client.request("notice", session=f"p{s}", notice=reply["notice"])
        for i, ev in enumerate(reply["events"]):
            for s in range(self.n):
                mine = reply["redacted"].get(str(s), reply["events"])[i]
                self.client.request("event", session=f"p{s}", event=mine)
        self.status = {k: reply[k] for k in ("to_move", "actors", "over", "result", "notice")}

    def turn(self) -> None:
        """One action of the seat to move, then any out-of-turn action offered."""
        seat = self.status["to_move"]
        self._moves += 1
        if seat != self.advised and self.advised not in self.status["actors"] and self._moves % 5 == 0:
            self.recommend()
            self.idle_hints.append(self.hints.pop())
        if seat == self.advised:
            action = self.recommend()
            assert action is not None, f"no recommend for seat {seat}, which is to move: {self.hints[-1]['headline']}"
            self.apply(seat, action, True)
        else:
            self.apply(seat, self.client.request("act", session=f"p{seat}")["action"], False)
        while not self.status["over"]:
            for s in self.status["actors"][1:]:
                action = (self.recommend() if s == self.advised else
                          self.client.request("react", session=f"p{s}")["action"])
                if action is not None:
                    self.apply(s, action, s == self.advised)
                    break
            else:
                break


@pytest.fixture(scope="module")
def client():
    c = EngineClient(command=[sys.executable, "-m", "cardmind", "engine"])
    yield c
    assert c.close() == 0


def play(client: EngineClient, game: str, options: dict, seed: int, advised: int, agent: str,
         params: dict | None) -> Frontend:
    """One whole game through ``client`` (its sessions closed first)."""
    for s in client.request("sessions")["sessions"]:
        client.request("close", session=s["session"])
    fe = Frontend(client, game, options, seed, advised, agent, params)
    for _ in range(5000):
        if fe.status["over"]:
            break
        fe.turn()
    assert fe.status["over"], f"{game} seed {seed}: the game did not end"
    assert client.request("status", session=f"p{advised}")["result"] == fe.status["result"]
    return fe


_PLAYED: dict[str, list[Frontend]] = {}


def played(client: EngineClient, game: str) -> list[Frontend]:
    """The games of ``GAMES[game]``, played once per test session."""
    if game not in _PLAYED:
        _PLAYED[game] = [play(client, game, *g) for g in GAMES[game]]
    return _PLAYED[game]


@pytest.mark.parametrize("game", list(GAMES))
def test_whole_games_played_from_recommend(client, game):
    kinds: Counter = Counter()
    for fe in played(client, game):
        assert fe.refused == []
        assert fe.applied >= 1
        kinds.update(fe.kinds)
        assert fe.idle_hints and all(h["recommend"] is None for h in fe.idle_hints)
    assert set(kinds) == ACTION_TYPES[game], kinds
    assert sum(kinds.values()) >= 10


def test_hand_and_foot_melds_list_each_card_once_and_the_opening_says_what_they_lay(client):
    """``melds[].cards`` are the naturals and ``wilds`` the wild cards of each play (the action's
    cards, each once), all from the observer's cards; the points of the opening agree."""
    from cardmind.games.handfoot.rules import is_wild

    plays = opened = 0
    for fe in played(client, "handfoot"):
        for h in fe.hints:
            used: Counter = Counter()
            for m in h["melds"]:
                assert not any(is_wild(c) for c in m["cards"]) and all(is_wild(c) for c in m["wilds"]), m
                assert m["cards"] + m["wilds"] == m["action"]["cards"], m
                assert m["action"]["type"] == ("meld" if m["meld"] == "new" else "lay_off")
                used.update(m["action"]["cards"])
                plays += 1
            assert not used - Counter(h["your_cards"]), (h["your_cards"], h["melds"])
            if h["melds"] and h["recommend"]["type"] != "ask_out":    # asking comes first
                assert h["recommend"] == h["melds"][0]["action"]
            o = h["opening"]
            if o is not None and o["can_open_now"] and h["to_foot"] is None:
                lays = sum(m["points"] for m in h["melds"])
                assert o["lays"] == lays >= o["needed"] and o["can_lay"] >= lays
                assert f"{lays} points" in h["headline"], h["headline"]
                opened += 1
    assert plays >= 10 and opened >= 2
