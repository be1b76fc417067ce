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
    r = _request(e, cmd="hint", session=sid, params={"text": True})   # the defaults are the CLI's
    assert r["text"] == printed
    assert "\x1b" not in r["text"] and len(printed.splitlines()) > 3
    # the JSON beside it is the same advice as without text, and without text there is none
    plain = _request(e, cmd="hint", session=sid, params={"max_asks": 10})
    assert "text" not in plain and plain["hint"] == r["hint"]
    assert cli.main(["hint", str(path), "--upto", str(upto), "--asks", "2"]) == 0
    assert _request(e, cmd="hint", session=sid, params={"text": True, "max_asks": 2})["text"] == capsys.readouterr().out
    bad = json.loads(e.handle(json.dumps({"cmd": "hint", "session": sid, "params": {"text": "yes"}})))
    assert bad["error"]["code"] == "bad_request" and "'text'" in bad["error"]["message"]


COMPLETE = ["literature-6p-complete.jsonl", "gofish-4p-complete.jsonl", "carioca-3p-complete.jsonl",
            "handfoot-4p-short-complete.jsonl"]


def _cards_in_view(view: dict) -> int:
    """Cards the view accounts for: every seat's cards, the counted piles, and the cards on the
    table (not the "known to hold" zones, which repeat cards in hands)."""
    n = sum(view["counts"]["cards"]) + sum(v for k, v in view["counts"].items() if k != "cards" and isinstance(v, int))
    n += sum(sum(view["counts"][k]) for k in view["counts"] if k != "cards" and isinstance(view["counts"][k], list))
    for z in view["zones"]:
        if "known to hold" in z["title"]:
            continue
        n += len(z.get("cards", [])) + sum(len(m) for m in z.get("melds", []))
    return n


@pytest.mark.parametrize("example", COMPLETE)
def test_view_follows_the_game(example):
    """Through a whole recorded game, a seat's ``view`` shows the hand the complete record
    says it holds, as many cards per seat as they hold, and every card of the deck exactly
    once (hands, stock, piles, melds); the referee's view of that seat agrees."""
    rec = read_record(EXAMPLES / example)
    g = rec.game
    e = Engine()
    h = rec.header
    _request(e, cmd="new", session="ref", game=g.name, role="referee", options=h["options"], hands=h["hands"],
             header={k: v for k, v in h.items() if k not in ("format", "game", "options", "hands")} or None)
    seat = 1
    mine = rec.for_seat(seat)
    extra = {k: v for k, v in mine.header.items() if k not in ("format", "game", "options", "observer", "hand")}
    _request(e, cmd="new", session="me", game=g.name, options=h["options"], seat=seat, hand=mine.header["hand"],
             agent=None, check=False, header=extra or None)
    reply_schema = _reply_validator()
    from cardmind.records import new_state

    complete = new_state(rec)
    total = None
    steps = 0
    for i, (ev, my_ev) in enumerate(zip(rec.events, mine.events, strict=True)):
        complete.apply_event(ev)
        _request(e, cmd="event", session="ref", event=ev)
        _request(e, cmd="event", session="me", event=my_ev)
        if i % max(1, len(rec.events) // 12) and i != len(rec.events) - 1:
            continue
        steps += 1
        r = _request(e, cmd="view", session="me")
        reply_schema.validate(r)
        v = r["view"]
        assert v == _request(e, cmd="view", session="me", seat=seat)["view"]
        truth = complete.view(seat)
        expected = sorted(g.table_view(truth, seat)["hand"])
        assert sorted(v["hand"]) == expected and len(v["hand"]) == v["counts"]["cards"][seat]
        assert v["seat"] == seat and len(v["counts"]["cards"]) == complete.num_seats
        n = _cards_in_view(v)
        total = n if total is None else total
        assert n == total, (i, n, total)   # no card appears or vanishes
        ref = _request(e, cmd="view", session="ref", seat=seat)["view"]
        assert (ref["hand"], ref["counts"], ref["scores"]) == (v["hand"], v["counts"], v["scores"])
    assert steps > 3
    assert total == _deck_size(g, h["options"])


def _deck_size(game, options) -> int:
    """Cards in a fresh deal of ``game`` (every hand, foot, stock and up card)."""
    import numpy as np

    def count(x) -> int:
        if isinstance(x, str):
            return 1
        return sum(count(y) for y in x) if isinstance(x, (list, tuple)) else 0

    return count(list(game.deal(game.parse_options(options), np.random.default_rng(0)).values()))


def _reply_validator():
    """A validator of any reply (cardmind/protocol/schemas/reply.json)."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    from cardmind.protocol.schemagen import load_all

    schemas = load_all()
    registry = Registry().with_resources([(x["$id"], Resource.from_contents(x)) for x in schemas.values()])
    return Draft202012Validator(schemas["reply.json"], registry=registry)


def test_view_errors_and_the_default():
    """A player session shows only its own seat; a referee needs a seat; a game without a
    table view gets the documented default."""
    from cardmind.core import Game, get_game

    e = Engine()
    ref = _request(e, cmd="new", session="ref", game="literature", role="referee", seed=3)
    hands = ref["header"]["hands"]
    _request(e, cmd="new", session="p", game="literature", seat=2, hand=hands[2], agent=None)
    assert _request(e, cmd="view", session="p")["view"]["hand"] == hands[2]   # dealt sorted, in deck order
    for req in ({"cmd": "view", "session": "p", "seat": 3}, {"cmd": "view", "session": "p", "seat": 9},
                {"cmd": "view", "session": "ref"}, {"cmd": "view", "session": "ref", "seat": "1"},
                {"cmd": "view", "session": "p", "cards": True}):
        r = json.loads(e.handle(json.dumps(req)))
        assert r["ok"] is False and r["error"]["code"] == "bad_request", (req, r)
    assert json.loads(e.handle('{"cmd":"view","session":"nope"}'))["error"]["code"] == "no_session"
    assert [_request(e, cmd="view", session="ref", seat=s)["view"]["hand"] for s in range(6)] == hands
    lit = get_game("literature")
    state = lit.initial_state(None, __import__("numpy").random.default_rng(0))[0]
    assert Game.table_view(lit, state, 4) == {"seat": 4, "hand": None, "counts": {}, "zones": [], "scores": None,
                                              "notes": []}
