"""What the pages need from the engine protocol: ``hint`` with ``params.text`` gives exactly
what ``cardmind hint`` prints for the same position, and ``view`` gives a seat's hand and the
public table in a shape that names no game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardmind import cli
from cardmind.protocol.engine import Engine
from cardmind.records import read_record

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _request(e: Engine, **req) -> dict:
    r = json.loads(e.handle(json.dumps(req)))
    assert r["ok"], r
    return r


def _session_at(e: Engine, path: Path, upto: int) -> str:
    """A player session of the record's observer fed the events of lines 2..upto."""
    rec = read_record(path)
    h = rec.header
    extra = {k: v for k, v in h.items() if k not in ("format", "game", "options", "observer", "hand")}
    _request(e, cmd="new", session="me", game=rec.game.name, options=h["options"], seat=h["observer"],
             hand=h["hand"], agent=None, header=extra or None)
    for ev in rec.events[:upto - 1]:
        _request(e, cmd="event", session="me", event=ev)
    return "me"


@pytest.mark.parametrize("example,upto", [("literature-6p.jsonl", 20), ("literature-6p.jsonl", 41),
                                          ("gofish-4p.jsonl", 12), ("handfoot-4p.jsonl", 30),
                                          ("carioca-4p.jsonl", 25)])
def test_hint_text_is_what_cardmind_hint_prints(example, upto, capsys):
    path = EXAMPLES / example
    assert cli.main(["hint", str(path), "--upto", str(upto)]) == 0
    printed = capsys.readouterr().out
    e = Engine()
    sid = _session_at(e, path, upto)
    r = _request(e, cmd="hint", session=sid, params={"text": True, "max_asks": 10})
    assert r["text"] == printed
    assert "\x1b" not in r["text"] and len(printed.splitlines()) > 3
    # the JSON beside it is the same advice as without text, and without text there is none
    plain = _request(e, cmd="hint", session=sid, params={"max_asks": 10})
    assert "text" not in plain and plain["hint"] == r["hint"]
    assert cli.main(["hint", str(path), "--upto", str(upto), "--asks", "2"]) == 0
    assert _request(e, cmd="hint", session=sid, params={"text": True, "max_asks": 2})["text"] == capsys.readouterr().out
    bad = json.loads(e.handle(json.dumps({"cmd": "hint", "session": sid, "params": {"text": "yes"}})))
    assert bad["error"]["code"] == "bad_request" and "'text'" in bad["error"]["message"]
