"""Hand and Foot through the engine protocol (``cardmind engine``): a whole game played by
engine sessions is the game ``cardmind.agents.match`` plays in process; belief and hint
answer for a player session along the way."""

from __future__ import annotations

import numpy as np

from cardmind.agents import resolve_agent
from cardmind.agents.match import play_game
from cardmind.protocol.client import EngineClient, play_through_engine
from tests.hf_helpers import GAME


def test_whole_game_through_the_protocol_with_belief_and_hint():
    client = EngineClient()
    agents = ["peer", "belief", "peer", "peer"]
    asked = []

    def on_turn(cl, seat, actions, sessions):
        if actions % 151 == 5:
            b = cl.request("belief", session=sessions[seat])["belief"]
            assert b["observer"] == seat and "holdings" in b and "pile" in b
            h = cl.request("hint", session=sessions[seat])["hint"]
            assert h["observer"] == seat and "chances" in h and "discards" in h
            asked.append(seat)

    game = play_through_engine(client, "handfoot", {"hands": 1}, seed=3, agents=agents, prefix="hf",
                               on_turn=on_turn)
    classes = [resolve_agent(a, GAME) for a in agents]
    m = play_game(GAME, {"hands": 1}, [lambda g, s, o, h, c=c: c(g, s, o, h) for c in classes],
                  np.random.default_rng(3), [np.random.default_rng(s) for s in range(4)])
    assert m.forfeit is None
    assert game.events == m.record.events
    assert game.result["scores"] == list(m.result.scores)
    assert asked
    for sid in game.sessions:
        st = client.request("status", session=sid)
        assert st["over"] and st["result"]["detail"]["totals"] == m.result.detail["totals"]
