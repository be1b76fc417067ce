"""The engine protocol (docs/protocol.md): handshake, whole games through the protocol,
error codes, rejected events leaving sessions unchanged, time limits, genericity over games,
the Python embedding API and the real ``cardmind engine`` process."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import threading
import time
from copy import deepcopy
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

import cardmind
from cardmind import core
from cardmind.agents import base as agents_base
from cardmind.agents.base import Agent, resolve_agent
from cardmind.games.literature.agents.base import RandomAgent
from cardmind.agents.match import play_game
from cardmind.core import Game, OptionSpec, Result, State, get_game, int_option
from cardmind.errors import IllegalAction
from cardmind.protocol import ERROR_CODES, ProtocolError, Session
from cardmind.protocol.client import EngineClient, play_through_engine
from cardmind.protocol.engine import MAX_LINE, PROTOCOL, Engine, serve
from cardmind.protocol.session import MAX_SAFE_INT, with_int_strings

ROOT = Path(__file__).resolve().parent.parent
LIT = get_game("literature")


def wire_engine(max_sessions: int = 1000):
    """The engine of the tests that use only request and reply lines (``handle``): an
    in-process :class:`Engine` here; tests/test_serve_engine.py runs the same tests
    (:data:`WIRE_TESTS`) with an engine behind a WebSocket of a real server."""
    return Engine(max_sessions=max_sessions)


def rq(engine: Engine, **req) -> dict:
    """Send one request object; return the reply object."""
    reply = engine.handle(json.dumps(req))
    assert "\n" not in reply
    return json.loads(reply)


def ok(engine: Engine, **req) -> dict:
    r = rq(engine, **req)
    assert r["ok"] is True, r
    assert r["cmd"] == req["cmd"]
    return r


def err(engine: Engine, code: str, **req) -> dict:
    r = rq(engine, **req)
    assert r["ok"] is False, r
    assert r["error"]["code"] == code, r
    assert isinstance(r["error"]["message"], str) and r["error"]["message"]
    return r


def deal(seed: int = 0, options=None):
    return LIT.initial_state(options, np.random.default_rng(seed))


def player(engine: Engine, sid: str, header: dict, seat: int, **kw) -> dict:
    return ok(engine, cmd="new", session=sid, game="literature", options=header["options"], seat=seat,
              hand=header["hands"][seat], **kw)


# ---------------------------------------------------------------------------- handshake
def test_hello_lists_games_options_agents_and_echoes_id():
    e = wire_engine()
    r = ok(e, cmd="hello", id="h1", protocol=PROTOCOL)
    assert r["id"] == "h1"
    assert r["protocol"] == "cardmind-engine/1"
    assert r["engine"] == "cardmind" and r["version"] == cardmind.__version__
    assert r["record_format"] == "cardmind-record/1"
    games = {g["name"]: g for g in r["games"]}
    lit = games["literature"]
    assert lit["seats"] == 6 and lit["belief"] is True and lit["hint"] is True
    opts = {o["name"]: o for o in lit["options"]}
    assert set(opts) == {s.name for s in LIT.option_specs}
    assert opts["players"] == {"name": "players", "default": 6, "doc": opts["players"]["doc"], "choices": [6, 8]}
    assert opts["wrong_claim"]["choices"] == ["opponents", "cancel"]
    assert opts["claim_any_time"]["default"] is False
    assert set(lit["events"]) == {"ask", "claim", "pass"}
    assert lit["events"]["ask"] == {"asker": "seat", "target": "seat", "card": "card", "success": "bool"}
    agents = {(a["name"], g): a for a in r["agents"] for g in a["games"]}
    for name in ("random", "peer", "belief"):
        assert (name, "literature") in agents
    assert agents[("belief", "literature")]["settings"]["claim_margin"] == 0.0
    assert agents[("peer", "literature")]["settings"] == {"claim_threshold": 0.8, "stalled_threshold": 0.5}
    assert agents[("random", "literature")]["settings"] == {}
    assert r["commands"][0] == "hello" and "quit" in r["commands"]
    assert r["errors"] == ERROR_CODES
    assert r["limits"] == {"max_line_bytes": MAX_LINE, "max_sessions": 1000}
    assert r["allow_agent_import"] is False


# ---------------------------------------------------------------------------- whole games
@pytest.mark.parametrize("agent,seed", [("random", 74), ("belief", 0)])
def test_full_game_through_the_protocol_matches_the_in_process_match(agent, seed):
    """Six engine sessions and a referee in the test play exactly the game that
    cardmind.agents.match plays with the same agents, deal and seeds."""
    client = EngineClient(wire_engine())
    game = play_through_engine(client, "literature", None, seed=seed, agents=agent, prefix="t")
    cls = resolve_agent(agent, LIT)
    m = play_game(LIT, None, [lambda g, s, o, h: cls(g, s, o, h)] * 6, np.random.default_rng(seed),
                  [np.random.default_rng(s) for s in range(6)])
    assert m.forfeit is None
    assert game.events == m.record.events
    assert game.result["scores"] == list(m.result.scores)
    for sid in game.sessions:  # every session followed the game to its end
        st = ok(client.engine, cmd="status", session=sid)
        assert st["over"] and st["result"] == game.result and st["num_events"] == len(game.events)
        assert st["to_move"] is None and st["actors"] == []
        err(client.engine, "game_over", cmd="act", session=sid)


def test_referee_session_game_with_out_of_turn_claims():
    """A referee session resolves every action; claims out of turn come through react."""
    e = wire_engine()
    opts = {"claim_any_time": True, "deck": "48"}
    ref = ok(e, cmd="new", session="ref", game="literature", role="referee", options=opts, seed=11)
    assert ref["role"] == "referee" and ref["seat"] is None and "hands" in ref["header"]
    hands = ref["header"]["hands"]
    state, header = LIT.initial_state(opts, np.random.default_rng(11))
    assert hands == header["hands"]  # the engine deals like Game.initial_state
    for s in range(6):
        ok(e, cmd="new", session=f"p{s}", game="literature", options=opts, seat=s, hand=hands[s], seed=s,
           check=False)
    st, reacted, total = ref, 0, 0

    def relay(r):
        if r["notice"] is not None:
            for s in range(6):
                ok(e, cmd="notice", session=f"p{s}", notice=r["notice"])
        for ev in r["events"]:
            for s in range(6):
                ok(e, cmd="event", session=f"p{s}", event=ev)

    while not st["over"]:
        a = ok(e, cmd="act", session=f"p{st['to_move']}")["action"]
        st = ok(e, cmd="apply", session="ref", action=a)
        assert st["redacted"] == {}
        relay(st)
        total += 1
        again = True
        while again and not st["over"]:
            again = False
            for s in st["actors"][1:]:
                r = ok(e, cmd="react", session=f"p{s}")
                if r["action"] is not None:
                    assert r["action"]["type"] == "claim" and r["action"]["claimer"] == s
                    st = ok(e, cmd="apply", session="ref", action=r["action"])
                    relay(st)
                    reacted += 1
                    again = True
                    break
    assert total > 20 and reacted > 0
    assert sum(st["result"]["detail"]["team_sets"]) + len(st["result"]["detail"]["void_sets"]) == 8
    rec = ok(e, cmd="record", session="ref")
    assert rec["header"]["hands"] == hands and len(rec["events"]) == st["num_events"]
    for s in range(6):
        assert ok(e, cmd="status", session=f"p{s}")["result"] == st["result"]
        assert ok(e, cmd="record", session=f"p{s}")["events"] == rec["events"]
    err(e, "game_over", cmd="react", session="p0")


def test_notice_is_relayed_and_the_chooser_acts():
    """After a claim with several candidates the referee reports a notice; after it the
    chooser's act is a 'next' choice and the claim event then carries 'next'."""
    e = wire_engine()
    found = None
    for seed in range(40):
        state, header = deal(seed)
        cls = resolve_agent("random", LIT)
        m = play_game(LIT, None, [lambda g, s, o, h: cls(g, s, o, h)] * 6, np.random.default_rng(seed),
                      [np.random.default_rng(s) for s in range(6)])
        if any(ev["type"] == "claim" for ev in m.record.events):
            found = seed
            break
    assert found is not None
    ref = ok(e, cmd="new", session="ref", game="literature", role="referee", seed=found)
    hands = ref["header"]["hands"]
    for s in range(6):
        ok(e, cmd="new", session=f"p{s}", game="literature", seat=s, hand=hands[s], seed=s, check=False)
    st, notices = ref, 0
    while not st["over"]:
        seat = st["to_move"]
        a = ok(e, cmd="act", session=f"p{seat}")["action"]
        if st["notice"] is not None:
            assert a["type"] == "next" and a["chooser"] == seat
        st = ok(e, cmd="apply", session="ref", action=a)
        if st["notice"] is not None:
            notices += 1
            assert st["events"] == [] and st["notice"]["type"] == "claim" and "next" not in st["notice"]
            for s in range(6):
                r = ok(e, cmd="notice", session=f"p{s}", notice=st["notice"])
                assert r["notice"] == st["notice"] and r["to_move"] == st["to_move"]
            # the same notice again is illegal (the claim is already pending) and changes nothing
            r = err(e, "illegal_event", cmd="notice", session="p0", notice=st["notice"])
            assert r["error"]["rule"] == "pending-next"
        for ev in st["events"]:
            for s in range(6):
                ok(e, cmd="event", session=f"p{s}", event=ev)
    assert notices > 0


# ---------------------------------------------------------------------------- errors
def test_error_codes():
    e = wire_engine(max_sessions=3)
    state, header = deal(1)
    hands = header["hands"]
    # framing
    r = json.loads(e.handle(""))
    assert r["ok"] is False and r["error"]["code"] == "bad_json" and set(r) == {"ok", "error"}
    for line in ("{", "nope", "{\"cmd\": \"hello\",}", "{\"cmd\":\"hello\",\"id\":NaN}", "[" * 50000,
                 "{\"cmd\":\"hello\",\"id\":1e400}"):
        assert json.loads(e.handle(line))["error"]["code"] == "bad_json"
    assert json.loads(e.handle(b"\xff\xfe{}"))["error"]["code"] == "bad_json"
    assert json.loads(e.handle("{\"cmd\":\"hello\",\"x\":\"" + "a" * MAX_LINE + "\"}"))["error"]["code"] == "line_too_long"
    for line in ("[]", "1", "\"hello\"", "null", "{}", "{\"cmd\": 3}", "{\"cmd\": null, \"id\": 4}"):
        r = json.loads(e.handle(line))
        assert r["error"]["code"] == "bad_request", line
    assert json.loads(e.handle("{\"cmd\": null, \"id\": 4}"))["id"] == 4
    r = err(e, "unknown_cmd", cmd="dance", id=[1, {"a": None}])
    assert r["id"] == [1, {"a": None}] and "cmd" not in r
    r = err(e, "bad_request", cmd="hello", extra=1, id=9)
    assert r["cmd"] == "hello" and r["id"] == 9
    err(e, "bad_request", cmd="new")
    err(e, "bad_request", cmd="new", game=5)
    err(e, "bad_request", cmd="new", game="literature", seat=0)
    err(e, "bad_request", cmd="new", game="literature", seat=True, hand=hands[0])
    err(e, "bad_request", cmd="new", game="literature", seat=-1, hand=hands[0])
    err(e, "bad_request", cmd="new", game="literature", seat=0, hand=hands[0], session="bad id!")
    err(e, "bad_request", cmd="new", game="literature", seat=0, hand=hands[0], seed=-1)
    err(e, "bad_request", cmd="new", game="literature", seat=0, hand=hands[0], role="king")
    err(e, "bad_request", cmd="new", game="literature", seat=0, hand=hands[0], hands=hands)
    err(e, "bad_request", cmd="new", game="literature", role="referee", seat=0)
    err(e, "bad_request", cmd="new", game="literature", seat=0, hand=hands[0], header={"hands": hands})
    err(e, "bad_request", cmd="new", game="literature", seat=0, hand=hands[0], header={"colour": 1})
    err(e, "bad_request", cmd="new", game="literature", seat=0, hand=hands[0], agent=None, settings={"a": 1})
    err(e, "unknown_game", cmd="new", game="chess", seat=0, hand=hands[0])
    err(e, "bad_option", cmd="new", game="literature", options={"players": 7}, seat=0, hand=hands[0])
    err(e, "bad_option", cmd="new", game="literature", options={"jokers": 2}, seat=0, hand=hands[0])
    r = err(e, "bad_deal", cmd="new", game="literature", seat=0, hand=hands[0][:5])
    assert r["error"]["rule"] == "deal"
    err(e, "bad_deal", cmd="new", game="literature", seat=0, hand=hands[0][:8] + ["XX"])
    err(e, "bad_deal", cmd="new", game="literature", seat=0, hand=[hands[0][0]] * 9)
    err(e, "bad_deal", cmd="new", game="literature", seat=6, hand=hands[0])
    err(e, "bad_deal", cmd="new", game="literature", role="referee", hands=hands[:5])
    err(e, "bad_deal", cmd="new", game="literature", role="referee", hands=[hands[1]] + hands[1:])
    err(e, "unknown_agent", cmd="new", game="literature", seat=0, hand=hands[0], agent="deep-blue")
    err(e, "unknown_agent", cmd="new", game="literature", seat=0, hand=hands[0], agent="os:system")
    err(e, "bad_setting", cmd="new", game="literature", seat=0, hand=hands[0], agent="peer", settings={"x": 1})
    ok(e, cmd="new", session="a", game="literature", seat=0, hand=hands[0])
    ok(e, cmd="new", session="ref", game="literature", role="referee", hands=hands)
    err(e, "session_exists", cmd="new", session="a", game="literature", seat=0, hand=hands[0])
    ok(e, cmd="new", session="h", game="literature", seat=1, hand=hands[1], agent=None)
    err(e, "too_many_sessions", cmd="new", game="literature", seat=0, hand=hands[0])
    err(e, "no_session", cmd="status", session="zzz")
    err(e, "bad_request", cmd="status")
    err(e, "bad_request", cmd="status", session=7)
    # roles
    err(e, "wrong_role", cmd="apply", session="a", action={"type": "ask", "asker": 0, "target": 1, "card": "2C"})
    err(e, "wrong_role", cmd="act", session="ref")
    err(e, "wrong_role", cmd="hint", session="ref")
    err(e, "wrong_role", cmd="belief", session="ref")
    # events
    err(e, "bad_request", cmd="event", session="a")
    err(e, "bad_request", cmd="event", session="a", event=[1])
    err(e, "bad_event", cmd="event", session="a", event={"type": "dance"})
    err(e, "bad_event", cmd="event", session="a", event={"type": "ask", "asker": 0})
    err(e, "bad_event", cmd="event", session="a",
        event={"type": "ask", "asker": 0, "target": 1, "card": "2C", "success": "yes"})
    err(e, "bad_event", cmd="event", session="a",
        event={"type": "ask", "asker": 0, "target": 1, "card": "ZZ", "success": True})
    err(e, "bad_event", cmd="event", session="a",
        event={"type": "ask", "asker": 0, "target": 1, "card": "2C", "success": True, "extra": 1})
    r = err(e, "illegal_event", cmd="event", session="a",
            event={"type": "ask", "asker": 3, "target": 0, "card": "2C", "success": False})
    assert r["error"]["rule"] == "turn"
    r = err(e, "illegal_event", cmd="event", session="a",
            event={"type": "ask", "asker": 0, "target": 99, "card": "2C", "success": False})
    assert r["error"]["rule"] == "seat"
    r = err(e, "illegal_event", cmd="notice", session="a", notice={"type": "pass", "from": 0, "to": 2})
    err(e, "illegal_event", cmd="notice", session="a", notice={"type": "claim"})
    err(e, "bad_request", cmd="notice", session="a", notice=["claim"])
    # actions
    err(e, "bad_action", cmd="apply", session="ref", action={"type": "fold"})
    err(e, "bad_action", cmd="check", session="a", action={"type": "ask", "asker": 0})
    r = err(e, "illegal_action", cmd="apply", session="ref", action={"type": "ask", "asker": 2, "target": 1, "card": "2C"})
    assert r["error"]["rule"] == "turn"
    r = ok(e, cmd="check", session="a", action={"type": "ask", "asker": 0, "target": 2, "card": "2C"})
    assert r["legal"] is False and r["rule"] in ("ask-teammate", "ask-own-card", "ask-without-set")
    err(e, "no_agent", cmd="act", session="h")
    err(e, "bad_request", cmd="act", session="a", time_ms=0)
    err(e, "bad_request", cmd="act", session="a", time_ms="fast")
    err(e, "bad_request", cmd="act", session="a", on_timeout="panic")
    err(e, "bad_request", cmd="legal", session="a", seat=3)
    err(e, "bad_request", cmd="legal", session="ref")
    err(e, "bad_request", cmd="legal", session="a", limit=-1)
    err(e, "bad_request", cmd="legal", session="a", types=[1])
    err(e, "bad_request", cmd="hint", session="a", params={"colour": "red"})
    ok(e, cmd="close", session="h")
    err(e, "no_session", cmd="close", session="h")
    ok(e, cmd="new", session="b", game="literature", seat=1, hand=hands[1])
    err(e, "not_your_turn", cmd="act", session="b")


def test_no_agent_is_checked_before_the_turn():
    e = wire_engine()
    state, header = deal(1)
    player(e, "h", header, 0, agent=None)
    err(e, "no_agent", cmd="act", session="h")
    assert ok(e, cmd="new", session="x", game="literature", seat=0, hand=header["hands"][0])["agent"] == "random"


def test_internal_errors_are_replies(monkeypatch):
    e = Engine()

    def boom(req):
        raise RuntimeError("kaboom")

    monkeypatch.setitem(e._handlers, "sessions", boom)
    r = rq(e, cmd="sessions", id=3)
    assert r == {"ok": False, "error": {"code": "internal", "message": "RuntimeError: kaboom"}, "cmd": "sessions", "id": 3}
    assert ok(e, cmd="hello")["ok"]


# ---------------------------------------------------------------------------- unchanged after errors
def _snapshot(e: Engine, sid: str) -> dict:
    return {"status": ok(e, cmd="status", session=sid), "record": ok(e, cmd="record", session=sid),
            "belief": ok(e, cmd="belief", session=sid)["belief"], "hint": ok(e, cmd="hint", session=sid)["hint"],
            "legal": ok(e, cmd="legal", session=sid, types=["ask", "pass", "next"])["actions"]}


def _strip(snap: dict) -> dict:
    snap = deepcopy(snap)
    for part in snap.values():
        if isinstance(part, dict):
            part.pop("id", None)
    return snap


def test_illegal_events_leave_the_session_unchanged():
    state, header = deal(3)
    cls = resolve_agent("random", LIT)
    m = play_game(LIT, None, [lambda g, s, o, h: cls(g, s, o, h)] * 6, np.random.default_rng(3),
                  [np.random.default_rng(s) for s in range(6)])
    events = m.record.events
    e = Engine()
    player(e, "p", m.record.header, 2, seed=5)
    player(e, "twin", m.record.header, 2, seed=5)
    upto = next(i for i in range(30, len(events)) if events[i]["type"] == "ask" and events[i]["asker"] == 2)
    for ev in events[:upto]:
        ok(e, cmd="event", session="p", event=ev)
        ok(e, cmd="event", session="twin", event=ev)
    before = _strip(_snapshot(e, "p"))
    assert before["status"]["to_move"] == 2
    saved = deepcopy(e.sessions["p"])
    rng = np.random.default_rng(0)
    bad = []
    nxt = events[upto]
    for k in range(200):
        ev = dict(nxt)
        choice = k % 6
        if choice == 0:
            ev["asker"] = int(rng.integers(0, 6))
        elif choice == 1:
            ev["target"] = int(rng.integers(0, 8))
        elif choice == 2:
            ev["card"] = str(rng.choice(["2C", "9S", "RJ", "AD", "7H", "QC"]))
        elif choice == 3:
            ev["success"] = not ev["success"]
        elif choice == 4:
            ev = {"type": "pass", "from": int(rng.integers(0, 6)), "to": int(rng.integers(0, 6))}
        else:
            ev = {"type": "claim", "claimer": int(rng.integers(0, 6)), "set": "low-clubs",
                  "assignment": {c: int(rng.integers(0, 6)) for c in ("2C", "3C", "4C", "5C", "6C", "7C")},
                  "actual": {c: int(rng.integers(0, 6)) for c in ("2C", "3C", "4C", "5C", "6C", "7C")},
                  "correct": bool(rng.integers(0, 2)), "next": int(rng.integers(0, 6))}
        r = rq(e, cmd="event", session="p", event=ev)
        if r["ok"]:  # a legal alternative history: put the saved session back
            e.sessions["p"] = deepcopy(saved)
        else:
            bad.append(r["error"]["code"])
            assert r["error"]["code"] in ("illegal_event", "contradiction", "bad_event"), r
        if k % 25 == 0:
            assert _strip(_snapshot(e, "p")) == before
    assert len(bad) > 100, bad
    print(f"{200 - len(bad)} legal alternatives")
    assert _strip(_snapshot(e, "p")) == before
    # the agent and its random generator are untouched: the same action as the twin session
    assert ok(e, cmd="act", session="p")["action"] == ok(e, cmd="act", session="twin")["action"]


def test_contradiction_is_rejected_and_changes_nothing():
    """Seat 0 holds every low club; seat 1 asking for one (so holding another) is legal by the
    rules of seat 0's view but leaves no consistent deal."""
    hand = ["2C", "3C", "4C", "5C", "6C", "7C", "9C", "TC", "JC"]
    e = wire_engine()
    ok(e, cmd="new", session="me", game="literature", seat=0, hand=hand, agent="belief")
    ok(e, cmd="event", session="me", event={"type": "ask", "asker": 0, "target": 1, "card": "QC", "success": False})
    before = _strip(_snapshot(e, "me"))
    r = err(e, "contradiction", cmd="event", session="me",
            event={"type": "ask", "asker": 1, "target": 0, "card": "2C", "success": True})
    assert "consistent" in r["error"]["message"]
    assert _strip(_snapshot(e, "me")) == before
    # without the check the rules accept it, and hint/belief report the contradiction
    ok(e, cmd="new", session="lax", game="literature", seat=0, hand=hand, check=False)
    assert ok(e, cmd="status", session="lax")  # tracker built lazily
    ok(e, cmd="event", session="lax", event={"type": "ask", "asker": 0, "target": 1, "card": "QC", "success": False})
    ok(e, cmd="event", session="lax", event={"type": "ask", "asker": 1, "target": 0, "card": "2C", "success": True})
    err(e, "contradiction", cmd="hint", session="lax")
    err(e, "contradiction", cmd="belief", session="lax")


# ---------------------------------------------------------------------------- time limits
class SlowAgent(RandomAgent):
    """A random player that first spins for ``spin_s`` seconds in pure Python."""

    name = "slow-test"
    default_settings = {"spin_s": 2.0}

    def act(self, rng):
        self.thinking = getattr(self, "thinking", 0) + 1
        t = time.perf_counter()
        while time.perf_counter() - t < self.settings["spin_s"]:
            pass
        return super().act(rng)


def _agent_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name == "cardmind-agent")


def test_time_limit_error_fallback_and_no_zombie(monkeypatch):
    monkeypatch.setitem(agents_base._AGENTS, ("slow-test", "literature"), SlowAgent)
    e = Engine()
    state, header = deal(2)
    player(e, "slow", header, 0, agent="slow-test", settings={"spin_s": 5.0}, seed=9)
    player(e, "twin", header, 0, agent="random", seed=9)
    t0 = time.perf_counter()
    r = err(e, "timeout", cmd="act", session="slow", time_ms=150, id=1)
    took = time.perf_counter() - t0
    assert 0.14 < took < 1.5 and r["error"]["elapsed_ms"] >= 150
    deadline = time.perf_counter() + 2
    while _agent_threads() and time.perf_counter() < deadline:
        time.sleep(0.01)
    assert _agent_threads() == 0, "the abandoned agent thread is still running"
    assert getattr(e.sessions["slow"].agent, "thinking", 0) == 0  # the original was never touched
    r = ok(e, cmd="act", session="slow", time_ms=100, on_timeout="fallback")
    assert r["fallback"] is True
    assert r["action"] == ok(e, cmd="legal", session="slow", limit=1)["actions"][0]
    assert ok(e, cmd="check", session="slow", action=r["action"])["legal"]
    # in time: the same action as an identical random player with the same seed
    e.sessions["slow"].agent.settings["spin_s"] = 0.01
    r = ok(e, cmd="act", session="slow", time_ms=5000)
    assert r["fallback"] is False and r["action"] == ok(e, cmd="act", session="twin")["action"]
    assert e.sessions["slow"].agent.thinking == 1  # the copy that thought replaced the original
    # the session goes on normally
    ok(e, cmd="event", session="slow", event={"type": "ask", **r["action"], "success": False})
    assert ok(e, cmd="status", session="slow")["to_move"] == r["action"]["target"]


def test_time_limited_act_is_deterministic():
    state, header = deal(4)
    a = Session("literature", None, 0, header["hands"][0], agent="belief", seed=3)
    b = Session("literature", None, 0, header["hands"][0], agent="belief", seed=3)
    assert a.act(time_ms=60_000) == b.act()
    assert a.act(time_ms=60_000) == b.act() == a.act()


def test_agent_errors_restore_the_agent(monkeypatch):
    class Broken(RandomAgent):
        name = "broken-test"

        def act(self, rng):
            rng.integers(100)
            self.state.sizes[0] = -5  # corrupt its own view, then fail
            raise RuntimeError("oops")

    class Cheat(RandomAgent):
        name = "cheat-test"

        def act(self, rng):
            return LIT.action_from_json({"type": "ask", "asker": self.seat, "target": (self.seat + 2) % 6,
                                         "card": "2C"})

    monkeypatch.setitem(agents_base._AGENTS, ("broken-test", "literature"), Broken)
    monkeypatch.setitem(agents_base._AGENTS, ("cheat-test", "literature"), Cheat)
    e = Engine()
    state, header = deal(5)
    player(e, "b", header, 0, agent="broken-test")
    player(e, "c", header, 0, agent="cheat-test")
    for kw in ({}, {"time_ms": 2000}):
        r = err(e, "agent_error", cmd="act", session="b", **kw)
        assert "oops" in r["error"]["message"]
        assert e.sessions["b"].agent.state.sizes[0] == 9
        r = err(e, "agent_error", cmd="act", session="c", **kw)
        assert "ask-teammate" in r["error"]["message"]


# ---------------------------------------------------------------------------- genericity
@dataclass(frozen=True)
class Play:
    player: int
    card: str

    @property
    def seat(self) -> int:
        return self.player

    def to_json(self) -> dict:
        return {"type": "play", "player": self.player, "card": self.card}


class ToyState(State):
    """Two seats, two cards each from 2C-5C; players alternate playing a card; the higher
    total of played ranks wins."""

    def __init__(self, game, options, hands):
        self.game, self.options = game, options
        self.hands = [None if h is None else list(h) for h in hands]
        self.played: list[tuple[int, str]] = []

    @property
    def num_seats(self) -> int:
        return 2

    def to_move(self):
        return None if self.is_over() else len(self.played) % 2

    def legal_actions(self, seat):
        if self.is_over() or seat != self.to_move():
            return []
        return [Play(seat, c) for c in self.hands[seat]]

    def _check(self, seat, card):
        if self.is_over():
            raise IllegalAction("game-over", "the game is over")
        if seat != self.to_move():
            raise IllegalAction("turn", f"it is seat {self.to_move()}'s turn")
        if card in {c for _, c in self.played}:
            raise IllegalAction("played", f"{card} was played already")
        if card not in ("2C", "3C", "4C", "5C"):
            raise IllegalAction("unknown-card", f"{card} is not in the toy deck")
        if self.hands[seat] is not None and card not in self.hands[seat]:
            raise IllegalAction("not-held", f"seat {seat} does not hold {card}")

    def check_action(self, action):
        if not isinstance(action, Play):
            raise IllegalAction("unknown-action", "not a toy action")
        self._check(action.player, action.card)

    def apply_action(self, action):
        self.check_action(action)
        ev = action.to_json()
        self.apply_event(ev)
        return [ev]

    def apply_event(self, event):
        self._check(event["player"], event["card"])
        if self.hands[event["player"]] is not None:
            self.hands[event["player"]].remove(event["card"])
        self.played.append((event["player"], event["card"]))

    def is_over(self):
        return len(self.played) == 4

    def result(self):
        tot = [sum(int(c[0]) for s, c in self.played if s == seat) for seat in (0, 1)]
        tot[1] += self.options["bonus"]
        w = 1.0 if tot[0] > tot[1] else 0.5 if tot[0] == tot[1] else 0.0
        return Result(tuple(float(t) for t in tot), (w, 1 - w), {})

    def view(self, seat):
        new = self.copy()
        new.hands = [h if s == seat else None for s, h in enumerate(new.hands)]
        return new

    def redact(self, event, seat):
        return event

    def copy(self):
        return deepcopy(self)


class ToyGame(Game):
    name = "toy"
    title = "Toy"
    option_specs = (OptionSpec("bonus", 0, "points added to seat 1's total", int_option(0, 5)),)

    def num_seats(self, options):
        return 2

    def deal(self, options, rng):
        cards = ["2C", "3C", "4C", "5C"]
        order = rng.permutation(4)
        return {"hands": [[cards[order[0]], cards[order[2]]], [cards[order[1]], cards[order[3]]]]}

    def new_state(self, options, header):
        hands = header.get("hands")
        if hands is None:
            obs, hand = header["observer"], header["hand"]
            if len(hand) != 2:
                raise IllegalAction("deal", "a toy hand has two cards")
            hands = [hand if s == obs else None for s in range(2)]
        return ToyState(self, options, hands)

    def event_schema(self):
        return {"play": {"player": "seat", "card": "card"}}

    def action_from_json(self, obj):
        if obj.get("type") != "play":
            raise ValueError("a toy action is {'type': 'play', 'player', 'card'}")
        return Play(obj["player"], obj["card"])


class ToyFirst(Agent):
    name = "first-toy"
    games = ("toy",)

    def act(self, rng):
        return self.state.legal_actions(self.seat)[0]


def test_a_new_game_plugs_in_without_protocol_changes(monkeypatch):
    core._load_games()
    monkeypatch.setitem(core._REGISTRY, "toy", ToyGame())
    monkeypatch.setitem(agents_base._AGENTS, ("first-toy", "toy"), ToyFirst)
    e = Engine()
    hello = ok(e, cmd="hello")
    toy = next(g for g in hello["games"] if g["name"] == "toy")
    assert toy["belief"] is False and toy["hint"] is False and toy["seats"] == 2
    assert toy["options"] == [{"name": "bonus", "default": 0, "doc": "points added to seat 1's total", "choices": None}]
    assert {"name": "first-toy", "games": ["toy"], "settings": {}, "doc": ""} in hello["agents"]
    ref = ok(e, cmd="new", session="ref", game="toy", role="referee", seed=1, options={"bonus": 1})
    hands = ref["header"]["hands"]
    for s in range(2):
        r = ok(e, cmd="new", session=f"t{s}", game="toy", options={"bonus": 1}, seat=s, hand=hands[s],
               agent="first-toy")
        assert r["tracker"] is False
    err(e, "bad_option", cmd="new", game="toy", options={"bonus": 9}, seat=0, hand=hands[0])
    err(e, "unknown_agent", cmd="new", game="toy", seat=0, hand=hands[0], agent="belief")
    err(e, "unsupported", cmd="hint", session="t0")
    err(e, "unsupported", cmd="belief", session="t0")
    st = ref
    while not st["over"]:
        a = ok(e, cmd="act", session=f"t{st['to_move']}")["action"]
        st = ok(e, cmd="apply", session="ref", action=a)
        for ev in st["events"]:
            for s in range(2):
                ok(e, cmd="event", session=f"t{s}", event=ev)
    assert st["num_events"] == 4 and len(st["result"]["scores"]) == 2
    assert ok(e, cmd="status", session="t1")["result"] == st["result"]
    err(e, "bad_event", cmd="event", session="t0", event={"type": "ask", "asker": 0})
    r = err(e, "illegal_event", cmd="event", session="t0", event={"type": "play", "player": 0, "card": "2C"})
    assert r["error"]["rule"] == "game-over"


# ---------------------------------------------------------------------------- sessions, ids, big ints
def test_session_ids_listing_and_close():
    e = wire_engine()
    state, header = deal(0)
    a = ok(e, cmd="new", game="literature", seat=0, hand=header["hands"][0])
    b = ok(e, cmd="new", game="literature", seat=1, hand=header["hands"][1], agent=None)
    assert (a["session"], b["session"]) == ("s1", "s2")
    ok(e, cmd="new", session="s3", game="literature", role="referee", hands=header["hands"])
    c = ok(e, cmd="new", game="literature", seat=2, hand=header["hands"][2])
    assert c["session"] == "s4"
    listing = ok(e, cmd="sessions")["sessions"]
    assert [x["session"] for x in listing] == ["s1", "s2", "s3", "s4"]
    assert listing[1] == {"session": "s2", "role": "player", "game": "literature", "seat": 1, "agent": None,
                          "num_events": 0}
    assert listing[2]["role"] == "referee" and listing[2]["seat"] is None
    ok(e, cmd="close", session="s1")
    assert [x["session"] for x in ok(e, cmd="sessions")["sessions"]] == ["s2", "s3", "s4"]


def test_big_integers_also_as_strings():
    state, header = deal(0, {"players": 8})
    e = wire_engine()
    ok(e, cmd="new", session="p", game="literature", options={"players": 8}, seat=3, hand=header["hands"][3],
       agent=None)
    b = ok(e, cmd="belief", session="p")["belief"]
    assert b["consistent_deals"] > 2**64
    assert b["consistent_deals_str"] == str(b["consistent_deals"])
    h = ok(e, cmd="hint", session="p")["hint"]
    assert h["consistent_deals_str"] == str(h["consistent_deals"]) == b["consistent_deals_str"]
    assert with_int_strings({"a": [{"n": MAX_SAFE_INT + 1, "m": 5, "t": True}]}) == {
        "a": [{"n": MAX_SAFE_INT + 1, "n_str": str(MAX_SAFE_INT + 1), "m": 5, "t": True}]}


def test_legal_and_check():
    e = wire_engine()
    state, header = deal(6)
    player(e, "p", header, 0)
    r = ok(e, cmd="legal", session="p")
    asks = [a for a in r["actions"] if a["type"] == "ask"]
    claims = [a for a in r["actions"] if a["type"] == "claim"]
    assert r["count"] == len(r["actions"]) == len(asks) + len(claims)
    assert len(claims) == 9 * 3**6
    assert [a.to_json() for a in state.legal_actions(0)] == r["actions"]
    r2 = ok(e, cmd="legal", session="p", types=["ask"], limit=4)
    assert r2["actions"] == asks[:4] and r2["count"] == len(asks) and r2["seat"] == 0
    for a in asks[:20]:
        assert ok(e, cmd="check", session="p", action=a) == {"ok": True, "cmd": "check", "session": "p", "legal": True}
    assert ok(e, cmd="legal", session="p", types=["pass"])["actions"] == []


# ---------------------------------------------------------------------------- python API and docs
def test_python_session_api():
    state, header = deal(8)
    s = Session("literature", None, 1, header["hands"][1], agent=None)
    assert s.role == "player" and s.num_seats == 6 and s.status()["to_move"] == 0
    with pytest.raises(ProtocolError) as exc:
        s.act()
    assert exc.value.code == "no_agent"
    ref = Session.referee("literature", None, header["hands"])
    a = Session("literature", None, 0, header["hands"][0], agent="random", seed=1)
    out = ref.apply(a.act())
    for ev in out["events"]:
        a.event(ev)
        s.event(ev)
    assert s.status()["num_events"] == 1
    assert s.record()["header"]["hand"] == header["hands"][1]
    assert s.hint()["observer"] == 1 and "consistent_deals" in s.belief()
    with pytest.raises(ProtocolError) as exc:
        Session("literature", {"players": 5}, 0, header["hands"][0])
    assert exc.value.code == "bad_option"
    with pytest.raises(ProtocolError) as exc:
        ref.hint()
    assert exc.value.code == "wrong_role"


def test_docs_embedding_example_runs(capsys):
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    code = re.search(r"<!-- readme:embedding:begin -->\n```python\n(.*?)```", text, re.S).group(1)
    ns: dict = {}
    exec(compile(code, "docs/protocol.md", "exec"), ns)  # noqa: S102 - our own documentation
    assert capsys.readouterr().out.startswith("illegal_event turn ")
    assert ns["me"].status()["to_move"] == 3


# ---------------------------------------------------------------------------- serving
def test_serve_answers_every_line_and_guards_stdout(monkeypatch):
    class Chatty(RandomAgent):
        name = "chatty-test"

        def act(self, rng):
            print("thinking out loud")
            return super().act(rng)

    monkeypatch.setitem(agents_base._AGENTS, ("chatty-test", "literature"), Chatty)
    state, header = deal(0)
    lines = [
        b'{"cmd":"hello","id":1}',
        b"",
        b"\xff\xfe garbage",
        b'{"cmd":"new","session":"c","game":"literature","seat":0,"hand":' + json.dumps(header["hands"][0]).encode()
        + b',"agent":"chatty-test"}\r',
        b'{"cmd":"act","session":"c","id":"x"}',
        b"x" * (MAX_LINE + 10),
        b'{"cmd":"status","session":"c"}',
        b'{"cmd":"quit"}',
        b'{"cmd":"hello"}',  # after quit: not read
    ]
    out = io.StringIO()
    assert serve(io.BytesIO(b"\n".join(lines) + b"\n"), out, Engine()) == 0
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [r["ok"] for r in replies] == [True, False, False, True, True, False, True, True]
    assert [r.get("error", {}).get("code") for r in replies] == [
        None, "bad_json", "bad_json", None, None, "line_too_long", None, None]
    assert replies[4]["id"] == "x" and replies[4]["action"]["asker"] == 0


def test_cardmind_engine_process():
    lines = ['{"cmd":"hello","id":1}', "not json", '{"cmd":"new","session":"r","game":"literature",'
             '"role":"referee","seed":1}', '{"cmd":"quit","id":"bye"}']
    p = subprocess.run([sys.executable, "-m", "cardmind", "engine"], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    replies = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(replies) == 4
    assert replies[0]["protocol"] == PROTOCOL and replies[1]["error"]["code"] == "bad_json"
    assert replies[2]["ok"] and replies[3] == {"ok": True, "cmd": "quit", "id": "bye"}
    # end of input without quit is a normal end too
    p = subprocess.run([sys.executable, "-m", "cardmind", "engine"], input='{"cmd":"sessions"}\n',
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and json.loads(p.stdout) == {"ok": True, "cmd": "sessions", "sessions": []}


def test_line_limit_is_exact():
    def line(n: int) -> str:
        s = '{"cmd":"hello","id":"' + "a" * (n - len('{"cmd":"hello","id":""}')) + '"}'
        assert len(s) == n
        return s

    data = "\r\n".join([line(MAX_LINE), line(MAX_LINE + 1), line(MAX_LINE + 7), '{"cmd":"sessions"}']) + "\n"
    for stream in (io.BytesIO(data.encode()), io.StringIO(data)):
        out = io.StringIO()
        serve(stream, out, Engine())
        codes = [json.loads(x).get("error", {}).get("code") for x in out.getvalue().splitlines()]
        assert codes == [None, "line_too_long", "line_too_long", None]


@pytest.mark.skipif("gofish" not in core.game_names(), reason="Go Fish is not registered")
def test_go_fish_with_hidden_draws_through_a_referee_session():
    """A second real game through the same protocol: the referee's redacted views reach each
    seat, and the game is the one cardmind.agents.match plays."""
    gf = get_game("gofish")
    e = wire_engine()
    hello = ok(e, cmd="hello")
    name = "peer"
    assert any(a["name"] == name and "gofish" in a["games"] for a in hello["agents"])
    ref = ok(e, cmd="new", session="ref", game="gofish", role="referee", seed=4)
    n = ref["seats"]
    assert "stock" in ref["header"]
    for s in range(n):
        view = gf.observer_header(ref["header"], s)
        ok(e, cmd="new", session=f"g{s}", game="gofish", seat=s, hand=view["hand"], agent=name, seed=s,
           header={k: v for k, v in view.items() if k not in ("observer", "hand")} or None)
    st, redactions = ref, 0
    while not st["over"]:
        a = ok(e, cmd="act", session=f"g{st['to_move']}")["action"]
        st = ok(e, cmd="apply", session="ref", action=a)
        if st["notice"] is not None:
            for s in range(n):
                ok(e, cmd="notice", session=f"g{s}", notice=st["notice"])
        redactions += len(st["redacted"])
        for s in range(n):
            for ev in st["redacted"].get(str(s), st["events"]):
                ok(e, cmd="event", session=f"g{s}", event=ev)
    assert redactions > 0
    cls = resolve_agent(name, gf)
    m = play_game(gf, None, [lambda g, s, o, h: cls(g, s, o, h)] * n, np.random.default_rng(4),
                  [np.random.default_rng(s) for s in range(n)])
    assert ok(e, cmd="record", session="ref")["events"] == m.record.events
    assert st["result"]["scores"] == list(m.result.scores)
    for s in range(n):
        assert ok(e, cmd="status", session=f"g{s}")["result"] == st["result"]
        assert ok(e, cmd="record", session=f"g{s}")["events"] == m.record.for_seat(s).events
    if not hello["games"][[g["name"] for g in hello["games"]].index("gofish")]["belief"]:
        err(e, "unsupported", cmd="belief", session="g0")


def test_go_fish_belief_and_hint_take_a_precision(monkeypatch):
    """``params: {"precision": SE}`` makes a sampled Go Fish belief go on until its largest
    standard error is at most SE (as ``cardmind belief --precision``), for that request only;
    a bad value or another belief parameter is a ``bad_request``; Literature ignores it."""
    from cardmind.games.gofish.draws import settings as draw_settings
    from cardmind.records import read_record

    # past the guaranteed exact range the default sums every draw (the compact sum, or the
    # planned sum when the tables are small enough); with no budget for either it samples
    monkeypatch.setattr(draw_settings, "EXACT_TABLE_CELLS", 0)
    monkeypatch.setattr(draw_settings, "COMPACT_WORK", 0)

    rec = read_record(Path(__file__).resolve().parent.parent / "examples" / "gofish-4p-complete.jsonl")
    view = rec.for_seat(1)
    e = Engine()
    ok(e, cmd="new", session="p", game="gofish", seat=1, hand=view.header["hand"], agent=None)
    for ev in view.events[:56]:   # 15 unseen draws: past the exact range, sampled
        ok(e, cmd="event", session="p", event=ev)
    b0 = ok(e, cmd="belief", session="p", params={"model": "uniform"})["belief"]   # the draw engine's own
    assert b0["mode"] == "mcmc" and b0["stderr"] > 0.005
    target = round(b0["stderr"] * 0.8, 4)
    b1 = ok(e, cmd="belief", session="p", params={"precision": target, "model": "uniform"})["belief"]
    assert b1["mode"] == "mcmc" and b1["stderr"] <= target < b0["stderr"]
    assert b1["sampling"]["precision"] == target and b1["sampling"]["target_met"] is True
    assert b0["sampling"]["precision"] == 0 and b1["sampling"]["steps"] > b0["sampling"]["steps"]
    h = ok(e, cmd="hint", session="p", params={"precision": target, "max_asks": 2, "model": "uniform"})["hint"]
    assert h["stderr"] == b1["stderr"] and len(h["asks"]) <= 2   # the precise answer, cached
    assert e.sessions["p"]._tracker_get().precision == 0   # for that request only
    for bad in (0, 0.5, -1, "0.01", True):
        err(e, "bad_request", cmd="belief", session="p", params={"precision": bad})
        err(e, "bad_request", cmd="hint", session="p", params={"precision": bad})
    err(e, "bad_request", cmd="belief", session="p", params={"steps": 10})
    msg = err(e, "bad_request", cmd="hint", session="p", params={"precison": 0.02})["error"]["message"]
    assert "unknown hint parameters: ['precison']" in msg and "'max_asks', 'precision'" in msg
    lit = get_game("literature")
    ref = ok(e, cmd="new", session="lr", game="literature", role="referee", seed=1)
    hand = lit.observer_header(ref["header"], 0)["hand"]
    ok(e, cmd="new", session="l0", game="literature", seat=0, hand=hand, agent=None)
    assert ok(e, cmd="belief", session="l0", params={"precision": 0.01})["belief"] == \
        ok(e, cmd="belief", session="l0")["belief"]


def test_hint_and_belief_take_a_player_model():
    """``params: {"model": NAME}`` weighs the deals by one of the game's player models for that
    request (as ``cardmind belief --model``); the answer names it; ``hello`` lists the models;
    a model the game does not have is a ``bad_request``."""
    from cardmind.records import read_record

    e = wire_engine()
    hello = ok(e, cmd="hello")
    models = {g["name"]: g["player_models"] for g in hello["games"]}
    assert models["literature"][0] == "auto" and {"uniform", "peer"} <= set(models["literature"])
    assert models["gofish"] == ["auto", "uniform", "peer", "belief", "random"]
    rec = read_record(Path(__file__).resolve().parent.parent / "examples" / "literature-6p-complete.jsonl")
    view = rec.for_seat(1)
    ok(e, cmd="new", session="p", game="literature", seat=1, hand=view.header["hand"], agent=None)
    for ev in view.events[:50]:
        ok(e, cmd="event", session="p", event=ev)
    default = ok(e, cmd="belief", session="p")["belief"]
    plain = ok(e, cmd="belief", session="p", params={"model": "uniform"})["belief"]
    peer = ok(e, cmd="belief", session="p", params={"model": "peer"})["belief"]
    assert default["model"] == "auto" and default["method"] == "factored" and len(default["auto"]) == 2
    assert plain["model"] == "uniform" and plain["method"] == "exact"
    assert peer["model"] == "peer" and peer["method"] == "factored" and peer["seat_models"]["0"] == "peer"
    assert peer["consistent_deals"] == plain["consistent_deals"]
    assert max(abs(peer["marginals"][c].get(s, 0) - p) for c, d in plain["marginals"].items() for s, p in d.items()) > 0.01
    assert ok(e, cmd="belief", session="p")["belief"] == default     # for that request only
    h = ok(e, cmd="hint", session="p", params={"model": "people", "max_asks": 2})["hint"]
    assert h["model"] == "people" and len(h["asks"]) <= 2
    msg = err(e, "bad_request", cmd="belief", session="p", params={"model": "nobody"})["error"]["message"]
    assert "uniform, peer" in msg and "'nobody'" in msg
    err(e, "bad_request", cmd="hint", session="p", params={"model": 3})
    ok(e, cmd="new", session="g", game="gofish", seat=0, hand=["2C", "3C", "4C", "5C", "6C", "7C"], agent=None)
    assert ok(e, cmd="belief", session="g", params={"model": "peer"})["belief"]["model"] == "peer"  # 3+ players too
    assert "uniform, peer" in err(e, "bad_request", cmd="belief", session="g", params={"model": "people"})["error"]["message"]


#: the tests that talk to the engine only through request and reply lines (:func:`wire_engine`):
#: tests/test_serve_engine.py runs them again over the WebSocket transport
WIRE_TESTS = [test_hello_lists_games_options_agents_and_echoes_id,
              test_full_game_through_the_protocol_matches_the_in_process_match,
              test_referee_session_game_with_out_of_turn_claims, test_notice_is_relayed_and_the_chooser_acts,
              test_error_codes, test_no_agent_is_checked_before_the_turn,
              test_contradiction_is_rejected_and_changes_nothing, test_session_ids_listing_and_close,
              test_big_integers_also_as_strings, test_legal_and_check,
              test_go_fish_with_hidden_draws_through_a_referee_session, test_hint_and_belief_take_a_player_model]


# ---------------------------------------------------------------------------- the deck
def test_new_gives_the_pack_of_the_options():
    """``new``'s ``deck``: the cards of the pack under the session's options, each once, in the
    game's order (a card picker offers only these); options change it."""
    e = wire_engine()
    small = ok(e, cmd="new", game="gofish", role="referee", options={"ranks": 3, "suits": 2, "players": 2,
                                                                     "hand": 2})
    assert small["deck"] == ["2C", "2D", "3C", "3D", "4C", "4D"]
    full = ok(e, cmd="new", game="gofish", role="referee")
    assert len(full["deck"]) == 52 and full["deck"][-1] == "AS"
    # a pack of several decks: each card once, jokers only when the options have them
    hf = ok(e, cmd="new", game="handfoot", role="referee", options={"decks": 2, "ranks": "245", "suits": 2,
                                                                     "jokers": 1, "players": 2, "cutthroat": True,
                                                                     "hand_size": 3})
    assert hf["deck"] == ["2C", "2D", "4C", "4D", "5C", "5D", "RJ"]
    with_jokers = ok(e, cmd="new", game="carioca", role="referee")["deck"]
    without = ok(e, cmd="new", game="carioca", role="referee", options={"jokers": 0})["deck"]
    assert {"RJ", "BJ"} <= set(with_jokers) and set(with_jokers) - set(without) == {"RJ", "BJ"}
    assert len(without) == 52
    # a player session's too: the 48-card Literature deck has no eights and no jokers
    ref = ok(e, cmd="new", game="literature", role="referee", options={"deck": "48"})
    p = ok(e, cmd="new", game="literature", options={"deck": "48"}, seat=0, hand=ref["header"]["hands"][0], agent=None)
    assert p["deck"] == ref["deck"] and len(p["deck"]) == 48
    assert not [c for c in p["deck"] if c[0] == "8" or c in ("RJ", "BJ")]
    assert set(ref["header"]["hands"][0]) <= set(p["deck"])
