"""The JSON Schemas of the engine protocol (cardmind/protocol/schemas): valid draft 2020-12,
up to date with their generator, strict, and matching every message of real sessions and of
the transcript in docs/protocol.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from cardmind.agents import base as agents_base
from cardmind.core import get_game
from cardmind.protocol import ERROR_CODES
from cardmind.protocol.client import EngineClient, play_through_engine
from cardmind.protocol.engine import COMMANDS, Engine
from cardmind.protocol.schemagen import BASE, SCHEMA_DIR, build, load_all, stale
from cardmind.records import make_record
from tests.test_engine import SlowAgent

ROOT = Path(__file__).resolve().parent.parent
LIT = get_game("literature")


@pytest.fixture(scope="module")
def schemas():
    return load_all()


@pytest.fixture(scope="module")
def validators(schemas):
    registry = Registry().with_resources(
        [(s["$id"], Resource.from_contents(s)) for s in schemas.values()])
    return {name: Draft202012Validator(s, registry=registry) for name, s in schemas.items()}


def test_schema_files_are_valid_complete_and_up_to_date(schemas):
    assert stale() == [], "run: python -m cardmind.protocol.schemagen"
    expected = {"common.json", "request.json", "reply.json", "error.reply.json"}
    expected |= {f"{c}.request.json" for c in COMMANDS} | {f"{c}.reply.json" for c in COMMANDS}
    assert set(schemas) == expected == set(build())
    for name, s in schemas.items():
        Draft202012Validator.check_schema(s)
        assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert s["$id"] == BASE + name
    assert schemas["common.json"]["$defs"]["error"]["properties"]["code"]["enum"] == list(ERROR_CODES)
    # shipped as package data (pyproject: cardmind = ["**/*.json"])
    assert SCHEMA_DIR == ROOT / "cardmind" / "protocol" / "schemas"


def test_schemas_are_strict(validators):
    req, rep = validators["request.json"], validators["reply.json"]
    assert req.is_valid({"cmd": "hello", "id": 1})
    assert not req.is_valid({"cmd": "hello", "colour": 1})
    assert not req.is_valid({"cmd": "dance"})
    assert not req.is_valid({"cmd": "event", "session": "a"})
    assert not req.is_valid({"cmd": "event", "session": "a b", "event": {"type": "ask"}})
    assert not req.is_valid({"cmd": "act", "session": "a", "time_ms": 0})
    assert req.is_valid({"cmd": "new", "game": "literature", "seat": 0, "hand": ["2C"]})
    assert rep.is_valid({"ok": True, "cmd": "quit"})
    assert not rep.is_valid({"ok": True, "cmd": "quit", "extra": 1})
    assert not rep.is_valid({"ok": True, "cmd": "close"})
    assert rep.is_valid({"ok": False, "error": {"code": "bad_json", "message": "x"}})
    assert not rep.is_valid({"ok": False, "error": {"code": "oops", "message": "x"}})
    assert not rep.is_valid({"ok": True, "cmd": "belief", "session": "a", "belief": {"consistent_deals": 3}})
    assert rep.is_valid({"ok": True, "cmd": "belief", "session": "a",
                         "belief": {"consistent_deals": 3, "consistent_deals_str": "3"}})


def _no_constant(name: str):
    raise ValueError(name)


class Checker:
    """Validate every (request line, reply line) pair."""

    def __init__(self, validators):
        self.v = validators
        self.count = 0
        self.cmds: set[str] = set()
        self.codes: set[str] = set()

    def __call__(self, req_line: str, rep_line: str) -> None:
        """Validate against the command's own schemas, and every 10th pair (and every
        error) also through the dispatching request.json / reply.json."""
        reply = json.loads(rep_line)
        try:
            request = json.loads(req_line, parse_constant=_no_constant)
        except ValueError:
            request = None
        cmd = request.get("cmd") if isinstance(request, dict) else None
        full = self.count % 10 == 0 or not reply["ok"]
        if reply["ok"]:
            self._valid(f"{reply['cmd']}.reply.json", reply, rep_line)
            self._valid(f"{reply['cmd']}.request.json", request, req_line)
            assert cmd == reply["cmd"]
            self.cmds.add(reply["cmd"])
        else:
            self._valid("error.reply.json", reply, rep_line)
            self.codes.add(reply["error"]["code"])
            if reply["error"]["code"] in ("bad_json", "unknown_cmd", "line_too_long"):
                assert request is None or not self.v["request.json"].is_valid(request)
        if full:
            self._valid("reply.json", reply, rep_line)
            if reply["ok"]:
                self._valid("request.json", request, req_line)
        if isinstance(request, dict) and "id" in request:
            assert reply["id"] == request["id"]
        self.count += 1

    def _valid(self, schema: str, obj, line: str) -> None:
        errors = sorted(self.v[schema].iter_errors(obj), key=str)
        assert not errors, f"{schema}: {line[:300]}: {errors[0].message}"


def _rich_session(client: EngineClient) -> None:
    """Every command, on a real game, and many error replies."""
    client.request("hello")

    def on_turn(cl, seat, actions, sessions):
        if actions in (3, 30):
            sid = sessions[seat]
            for cmd, kw in (("status", {}), ("hint", {"params": {"max_asks": 2}}), ("belief", {}),
                            ("legal", {"types": ["ask"], "limit": 5}), ("legal", {"limit": 1}), ("record", {}),
                            ("view", {}), ("hint", {"params": {"text": True}})):
                cl.request(cmd, session=sid, **kw)
            cl.request("sessions")
            cl.request("check", session=sid, action={"type": "ask", "asker": seat, "target": (seat + 2) % 6,
                                                     "card": "2C"})
            cl.request("react", session=sessions[(seat + 1) % 6])
            cl.request("act", session=sid, time_ms=60_000)
            for bad in ({"type": "ask", "asker": (seat + 1) % 6, "target": seat, "card": "2C", "success": False},
                        {"type": "ask"}, {"type": "pass", "from": seat, "to": seat}):
                client.request("event", check=False, session=sid, event=bad)
            client.request("act", check=False, session=sessions[(seat + 1) % 6])

    play_through_engine(client, "literature", None, seed=0, agents="belief", on_turn=on_turn)
    play_through_engine(client, "literature", {"claim_any_time": True, "deck": "48"}, seed=3, agents="peer",
                        prefix="cat")
    r = client.request("new", game="literature", role="referee", seed=2)
    ref = r["session"]
    hands = r["header"]["hands"]
    first = client.request("legal", session=ref, seat=0, types=["ask"], limit=1)["actions"][0]
    client.request("apply", session=ref, action=first)
    client.request("apply", check=False, session=ref, action={"type": "ask", "asker": 5, "target": 2, "card": "2C"})
    client.request("apply", check=False, session=ref, action={"type": "fold"})
    client.request("new", session="slow", game="literature", seat=0, hand=hands[0], agent="slow-test",
                   settings={"spin_s": 3.0})
    client.request("act", check=False, session="slow", time_ms=50)
    client.request("act", session="slow", time_ms=50, on_timeout="fallback")
    client.request("new", session="h", game="literature", seat=1, hand=hands[1], agent=None, check=False)
    for cmd, kw in (("act", {"session": "h"}), ("hint", {"session": ref}), ("status", {"session": "nope"}),
                    ("new", {"game": "chess"}), ("new", {"game": "literature", "seat": 0, "hand": ["2C"]}),
                    ("new", {"game": "literature", "options": {"players": 7}, "seat": 0, "hand": []}),
                    ("new", {"game": "literature", "seat": 0, "hand": hands[0], "agent": "nobody"}),
                    ("new", {"game": "literature", "seat": 0, "hand": hands[0], "agent": "peer",
                             "settings": {"x": 1}}),
                    ("new", {"session": "h", "game": "literature", "seat": 1, "hand": hands[1]}),
                    ("event", {"session": "h", "event": {"type": "ask", "asker": 1, "target": 0, "card": "2C",
                                                         "success": True}}),
                    ("dance", {}), ("hello", {"x": 1})):
        client.request(cmd, check=False, **kw)
    hand = ["2C", "3C", "4C", "5C", "6C", "7C", "9C", "TC", "JC"]
    client.request("new", session="c", game="literature", seat=0, hand=hand, agent=None)
    client.request("event", session="c", event={"type": "ask", "asker": 0, "target": 1, "card": "QC", "success": False})
    client.request("event", check=False, session="c",
                   event={"type": "ask", "asker": 1, "target": 0, "card": "2C", "success": True})
    for line in ("", "{", "[]", "{\"cmd\":\"hello\",\"id\":NaN}", "x" * 1_000_100):
        client.send_line(line)
    client.request("close", session="c")
    client.request("sessions")
    client.request("quit")


def test_every_message_of_a_real_session_matches_the_schemas(validators, monkeypatch):
    monkeypatch.setitem(agents_base._AGENTS, ("slow-test", "literature"), SlowAgent)
    check = Checker(validators)
    client = EngineClient(Engine(max_sessions=40), record=True)
    _rich_session(client)
    for req, rep in client.transcript:
        check(req, rep)
    assert check.cmds == set(COMMANDS), set(COMMANDS) - check.cmds
    assert {"bad_json", "line_too_long", "bad_request", "unknown_cmd", "unknown_game", "bad_option", "bad_deal",
            "unknown_agent", "bad_setting", "session_exists", "no_session", "wrong_role", "bad_event",
            "illegal_event", "contradiction", "bad_action", "illegal_action", "no_agent", "not_your_turn",
            "timeout"} <= check.codes, check.codes


def _doc_transcript() -> list[tuple[str, str]]:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- transcript:begin -->(.*?)<!-- transcript:end -->", text, re.S).group(1)
    lines = re.search(r"```text\n(.*?)\n```", block, re.S).group(1).split("\n")
    assert len(lines) % 2 == 0
    pairs = []
    for i in range(0, len(lines), 2):
        assert lines[i].startswith("> ") and lines[i + 1].startswith("< "), lines[i][:80]
        pairs.append((lines[i][2:], lines[i + 1][2:]))
    return pairs


def test_docs_transcript_matches_the_schemas_and_is_a_legal_game(validators):
    pairs = _doc_transcript()
    assert len(pairs) > 500
    check = Checker(validators)
    for req, rep in pairs:
        check(req, rep)
    assert {"hello", "new", "event", "notice", "act", "hint", "belief", "legal", "check", "status", "apply",
            "sessions", "close", "quit"} <= check.cmds
    # seat 0's session saw a whole legal game: rebuild its player record and replay it
    done = []
    for r, p in pairs:
        try:
            done.append((json.loads(r), json.loads(p)))
        except ValueError:
            pass
    new0 = next(r for r, _ in done if r["cmd"] == "new" and r.get("session") == "p0")
    events = [r["event"] for r, p in done if r["cmd"] == "event" and r["session"] == "p0" and p["ok"]]
    rec = make_record({"format": "cardmind-record/1", "game": "literature", "options": new0["options"],
                       "observer": 0, "hand": new0["hand"]}, events)
    from cardmind.belief import check_record
    from cardmind.records import replay

    state = replay(rec)
    check_record(rec)
    assert state.is_over()
    final = [p for r, p in done if r["cmd"] == "status" and r["session"] == "p0"][-1]
    assert final["over"] and final["result"]["detail"]["team_sets"] == list(state.result().detail["team_sets"])
    # the deal of the transcript is the script's: seed 0
    _, header = LIT.initial_state(None, np.random.default_rng(0))
    assert new0["hand"] == header["hands"][0]
