"""Contract rummy records: events written by games, read back, cut for a seat, and bad lines
rejected with ``file:line: reason`` (and by ``cardmind validate`` with exit status 2)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cardmind.agents.base import resolve_agent
from cardmind.agents.match import play_game
from cardmind.cli import main
from cardmind.core import get_game
from cardmind.errors import RecordError
from cardmind.records import read_record, replay, write_record

GAME = get_game("carioca")
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def game_record():
    peer = resolve_agent("peer", GAME)
    res = play_game(GAME, {"players": 3, "hands": 2}, [peer] * 3, np.random.default_rng(4),
                    [np.random.default_rng(s) for s in range(3)])
    assert res.result is not None
    return res.record


def _write(tmp_path, name, header, events) -> Path:
    p = tmp_path / name
    p.write_text("\n".join(json.dumps(x) for x in [header] + events) + "\n")
    return p


def test_round_trip_and_views(game_record, tmp_path):
    p = tmp_path / "g.jsonl"
    write_record(p, game_record)
    rec = read_record(p)
    assert rec.events == game_record.events and rec.header == game_record.header
    kinds = {e["type"] for e in rec.events}
    assert {"take", "pass", "draw", "go_down", "discard", "hand_end", "deal"} <= kinds
    end = replay(rec)
    assert end.is_over()
    for seat in range(3):
        v = rec.for_seat(seat)
        assert v.header["observer"] == seat and "stock" not in v.header and "seed" not in v.header
        assert v.header["up"] == rec.header["up"]
        for e in v.events:
            if e["type"] == "draw" and e["player"] != seat:
                assert e["card"] is None
            if e["type"] == "steal" and e["player"] != seat:
                assert e["penalty"] is None
            if e["type"] == "deal":
                assert e["stock"] is None and [h is None for h in e["hands"]] == [s != seat for s in range(3)]
        q = tmp_path / f"seat{seat}.jsonl"
        write_record(q, v)
        assert replay(read_record(q)).totals == end.totals


def _mutate(rec, index, change):
    events = [dict(e) for e in rec.events]
    events[index] = change(events[index])
    return events


def _first(rec, kind, pred=lambda e: True):
    return next(i for i, e in enumerate(rec.events) if e["type"] == kind and pred(e))


@pytest.mark.parametrize("what", ["discard-unheld", "draw-in-offer", "bad-meld-kind", "wrong-score", "take-by-other",
                                  "unknown-key", "bad-card", "deal-size"])
def test_bad_lines_name_the_line_and_the_rule(game_record, tmp_path, what):
    rec = game_record
    if what == "discard-unheld":
        i = _first(rec, "discard")
        held = set(rec.header["hands"][rec.events[i]["player"]])
        card = next(c for c in ["AS", "KD", "2C", "7H", "9S", "QC"] if c not in held)
        events, rule = _mutate(rec, i, lambda e: {**e, "card": card}), "not-in-hand"
    elif what == "draw-in-offer":
        i = 0
        events = [{"type": "draw", "player": 0, "card": rec.header["stock"][0]}] + list(rec.events)
        rule = "draw"
    elif what == "bad-meld-kind":
        i = _first(rec, "go_down")
        events = _mutate(rec, i, lambda e: {**e, "melds": [{"kind": "pair", "cards": ["5H", "5S"]}]})
        rule = None
    elif what == "wrong-score":
        i = _first(rec, "hand_end")
        events, rule = _mutate(rec, i, lambda e: {**e, "scores": [s + 1 for s in e["scores"]]}), "scores"
    elif what == "take-by-other":
        i = _first(rec, "pass")
        p = rec.events[i]["player"]
        events = _mutate(rec, i, lambda e: {"type": "take", "player": (p + 1) % 3, "card": "AS"})
        rule = "offer"
    elif what == "unknown-key":
        i = 3
        events, rule = _mutate(rec, i, lambda e: {**e, "why": "x"}), None
    elif what == "bad-card":
        i = _first(rec, "discard")
        events, rule = _mutate(rec, i, lambda e: {**e, "card": "1X"}), None
    else:
        i = _first(rec, "deal")
        events = _mutate(rec, i, lambda e: {**e, "hands": [h[:-1] for h in e["hands"]]})
        rule = "deal"
    p = _write(tmp_path, f"{what}.jsonl", rec.header, events)
    with pytest.raises(RecordError) as exc:
        read_record(p)
    err = exc.value
    assert err.line == i + 2 and str(err).startswith(f"{p}:{i + 2}: ")
    if rule is not None:
        assert err.rule == rule, str(err)
    assert main(["validate", str(p)]) == 2


def test_a_players_record_hides_what_the_player_did_not_see(game_record, tmp_path):
    v = game_record.for_seat(0)
    i = next(k for k, e in enumerate(v.events) if e["type"] == "draw" and e["player"] != 0)
    events = [dict(e) for e in v.events]
    events[i]["card"] = game_record.events[i]["card"]
    p = _write(tmp_path, "seen.jsonl", v.header, events)
    with pytest.raises(RecordError) as exc:
        read_record(p)
    assert exc.value.line == i + 2 and exc.value.rule == "draw-card"
    # the header needs the card turned up
    h = {k: x for k, x in v.header.items() if k != "up"}
    p = _write(tmp_path, "noup.jsonl", h, v.events[:3])
    with pytest.raises(RecordError) as exc:
        read_record(p)
    assert exc.value.line == 1 and "up" in str(exc.value)


def test_validate_accepts_the_example_records(capsys):
    for name in ("carioca-4p-complete.jsonl", "carioca-4p.jsonl", "carioca-short-complete.jsonl"):
        path = ROOT / "examples" / name
        assert main(["validate", str(path)]) == 0
        assert "ok:" in capsys.readouterr().out


def test_the_docs_example_is_the_example_file():
    """docs/carioca.md quotes examples/carioca-short-complete.jsonl verbatim (it cannot drift)."""
    doc = (ROOT / "docs" / "carioca.md").read_text()
    block = doc.split("```json\n")[2].split("```")[0]
    assert block == (ROOT / "examples" / "carioca-short-complete.jsonl").read_text()
    rec = read_record(ROOT / "examples" / "carioca-short-complete.jsonl")
    end = replay(rec)
    assert end.is_over() and end.totals[0] == -20 and end.outs == [0]
