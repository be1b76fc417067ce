"""docs/protocol.md's per-game part is what ``python -m cardmind.protocol.gamedoc`` makes now
(issue 25): every game's actions and events, each with a real request and reply."""

from __future__ import annotations

import json
import re

import pytest

from cardmind.core import game_names, get_game
from cardmind.protocol import gamedoc
from cardmind.protocol.session import Session

DOC = gamedoc.DOC.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def section():
    return gamedoc.section()


def test_the_doc_is_what_the_generator_makes(section):
    assert gamedoc.splice(DOC, section) == DOC, \
        "docs/protocol.md is stale: run python -m cardmind.protocol.gamedoc --write"


def test_every_game_and_every_event_type_has_a_real_example(section):
    for name in game_names():
        part = section.split(f"### `{name}`:", 1)[1].split("\n### ", 1)[0]
        for kind in get_game(name).event_schema():
            assert f"`event`, event `{kind}`" in part, f"{name}: no example of the {kind} event"
        requests = [json.loads(line[2:]) for line in part.splitlines() if line.startswith("> ")]
        replies = [json.loads(line[2:]) for line in part.splitlines() if line.startswith("< ")]
        assert len(requests) == len(replies) > 0 and all(r["ok"] for r in replies)
        assert all("id" not in r for r in replies)
        for req, rep in zip(requests, replies):
            assert rep["cmd"] == req["cmd"] and rep["session"] == req["session"]


def test_every_example_matches_the_json_schemas(section):
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    from cardmind.protocol.schemagen import load_all

    schemas = load_all()
    registry = Registry().with_resources([(s["$id"], Resource.from_contents(s)) for s in schemas.values()])
    lines = [json.loads(line[2:]) for line in section.splitlines() if line[:2] in ("> ", "< ")]
    for req, rep in zip(lines[::2], lines[1::2]):
        for name, obj in ((f"{req['cmd']}.request.json", req), (f"{rep['cmd']}.reply.json", rep)):
            errors = list(Draft202012Validator(schemas[name], registry=registry).iter_errors(obj))
            assert not errors, f"{name}: {errors[0].message}"


def test_every_documented_action_is_accepted_by_the_game_as_it_is(section):
    """Each quoted action parses as an action of its game, and its type is the type listed;
    the table names the events apply made of it (take_pile makes pickup)."""
    for name in game_names():
        game = get_game(name)
        part = section.split(f"### `{name}`:", 1)[1].split("\n### ", 1)[0]
        for line in part.splitlines():
            if line.startswith("> ") and '"cmd":"apply"' in line:
                action = json.loads(line[2:])["action"]
                assert game.action_from_json(action).to_json()["type"] == action["type"]
    hf = section.split("### `handfoot`:", 1)[1].split("\n### ", 1)[0]
    assert re.search(r"^\| `take_pile` \| `player`, `pair` \|.*\| `pickup` \(\*\*not\*\* `take_pile`\) \|$", hf, re.M)


def test_the_first_example_replays_in_a_fresh_referee():
    """The examples are real: the first action of the first game played (seed 0, default
    options), applied to a fresh referee dealt with seed 0, makes the quoted events again."""
    for name in ("handfoot", "carioca"):
        ex = gamedoc.examples(name)
        first = [e for e in ex.actions.values() if e.reply["num_events"] == len(e.reply["events"])]
        assert len(first) == 1
        ref = Session.referee(name, None, seed=0)
        assert ref.apply(first[0].request["action"])["events"] == first[0].reply["events"]


def test_check_mode_reports_a_stale_doc(tmp_path, capsys):
    stale = tmp_path / "protocol.md"
    stale.write_text(DOC.replace("`take_pile`", "`take`", 1), encoding="utf-8")
    monkey_section = gamedoc.section
    try:
        gamedoc.section = lambda: "x\n"   # the comparison, not the games, is under test here
        assert gamedoc.main(["--check", "--doc", str(stale)]) == 1
        assert "stale" in capsys.readouterr().err
        stale.write_text(gamedoc.splice(DOC, "x\n"), encoding="utf-8")
        assert gamedoc.main(["--check", "--doc", str(stale)]) == 0
    finally:
        gamedoc.section = monkey_section
