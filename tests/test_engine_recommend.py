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

#: small seeded games: (game, options, deal seed, the seat played from the hint, the others' agent)
GAMES = [
    ("literature", {"players": 6}, 3, 0, "random"),
    ("literature", {"players": 6, "claim_any_time": True}, 5, 1, "peer"),
    ("gofish", {"players": 3, "ranks": 6}, 2, 1, "random"),
    ("gofish", {"players": 3, "ranks": 5, "phase2": True}, 4, 0, "random"),
    ("carioca", {"players": 3, "hands": 2}, 9, 0, "peer"),
    ("handfoot", {"hands": 1}, 3, 0, "peer"),
]


class Frontend:
    """A frontend of ``cardmind engine``: a referee session and a player session per seat.

    Attributes:
        client: the engine (a child process).
        advised: the seat that plays the hint's ``recommend``.
        applied: ``recommend`` actions applied; ``refused``: ``apply`` error replies to them.
    """

    def __init__(self, client: EngineClient, game: str, options: dict, seed: int, advised: int, agent: str):
        self.client = client
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

    def recommend(self) -> dict | None:
        """The advised seat's ``recommend`` now (checked against the hint's other keys)."""
        h = self.client.request("hint", session=f"p{self.advised}")["hint"]
        assert h["game"] == self.game and h["observer"] == self.advised
        self.hints.append(h)
        return h["recommend"]

    def apply(self, seat: int, action: dict, advised: bool) -> None:
        """Resolve ``action`` at the referee and relay the notice and the events to every seat."""
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


@pytest.mark.parametrize("game,options,seed,advised,agent", GAMES, ids=[f"{g[0]}-{i}" for i, g in enumerate(GAMES)])
def test_a_whole_game_played_from_recommend(client, game, options, seed, advised, agent):
    for s in client.request("sessions")["sessions"]:
        client.request("close", session=s["session"])
    fe = Frontend(client, game, options, seed, advised, agent)
    for _ in range(5000):
        if fe.status["over"]:
            break
        fe.turn()
    assert fe.status["over"], "the game did not end"
    assert fe.refused == []
    assert fe.applied >= 5
    print(game, dict(fe.kinds), len(fe.hints))
    # the record of the advised seat has every action it was advised
    assert client.request("status", session=f"p{advised}")["result"] == fe.status["result"]
