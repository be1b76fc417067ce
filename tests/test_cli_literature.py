"""The command line: ``cardmind hint`` / ``belief`` / ``validate`` on Literature records, run
as ``python -m cardmind``; bad input gives ``cardmind: error: file:line: reason`` on stderr,
exit status 2, nothing on stdout and never a traceback."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardmind.belief import tracker_for
from cardmind.cli import main
from cardmind.games.literature.rules import set_cards, set_names, team_of
from cardmind.records import read_record, write_record

from .conftest import shared_path
from .lit_helpers import OPTION_COMBOS, multinomial, simulate

ROOT = Path(__file__).resolve().parent.parent
HINT_KEYS = {"game", "observer", "team", "events", "to_move", "your_turn", "headline", "recommend", "consistent_deals",
             "consistent_deals_str", "claims", "asks", "belief", "notes", "model", "seat_models", "method", "auto"}
CLAIM_KEYS = {"set", "assignment", "probability", "p_team_holds", "ties", "certain"}
ASK_KEYS = {"card", "target", "probability", "reason", "score"}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardmind", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def assert_error(proc, path=None, line=None):
    """Exit 2, nothing on stdout, one ``cardmind: error: ...`` message, no traceback."""
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("cardmind: error: ")
    if path is not None:
        where = f"{path}:{line}: " if line is not None else f"{path}"
        assert proc.stderr.startswith(f"cardmind: error: {where}"), proc.stderr
    return proc.stderr


@pytest.fixture(scope="module")
def complete_path(tmp_path_factory):
    p = tmp_path_factory.mktemp("cli") / "game6.jsonl"
    write_record(p, simulate(OPTION_COMBOS[0], 1, "random"))
    return p


# ----------------------------------------------------------------------------- seats and --upto
def test_complete_record_needs_a_seat(complete_path, capsys):
    err = assert_error(run("hint", complete_path), complete_path)
    assert "--seat" in err
    for cmd in (["belief", "--json"], ["hint", "--json", "--upto", "20"], ["belief"]):
        err = assert_error(in_process(capsys, cmd[0], complete_path, *cmd[1:]), complete_path)
        assert "--seat" in err


def in_process(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(args, code, out, err)


def test_bad_seats_and_lines(complete_path, capsys):
    assert "not a seat" in assert_error(run("hint", complete_path, "--seat", "6"), complete_path)
    assert "--upto" in assert_error(in_process(capsys, "belief", complete_path, "--seat", "0", "--upto", "0"),
                                    complete_path)
    mine = complete_path.parent / "seat1.jsonl"
    write_record(mine, read_record(complete_path).for_seat(1))
    assert "seat 1" in assert_error(in_process(capsys, "hint", mine, "--seat", "3"), mine)
    assert in_process(capsys, "hint", mine, "--seat", "1", "--json").returncode == 0
    assert in_process(capsys, "hint", mine, "--json").returncode == 0  # a player's record: its observer


def test_unknown_player_model_is_refused(complete_path, capsys):
    """``--model`` names one of the game's player models (``Game.player_models``); a name the
    game does not have is refused before any work, naming what there is."""
    from cardmind.core import get_game

    models = get_game("literature").player_models()
    err = assert_error(in_process(capsys, "belief", complete_path, "--seat", "0", "--model", "no-such-model"))
    assert "--model no-such-model" in err
    assert (", ".join(models) if models else "no player models") in err


def test_model_is_used_and_named(complete_path, capsys):
    """``--model NAME`` weighs the deals by that player model: the JSON and the text name it,
    the count of consistent deals is the same, and the probabilities differ from ``uniform``."""
    import json as _json

    assert main(["hint", str(complete_path), "--seat", "2", "--upto", "70", "--json", "--model", "peer"]) == 0
    weighted = _json.loads(capsys.readouterr().out)
    assert main(["hint", str(complete_path), "--seat", "2", "--upto", "70", "--json", "--model", "uniform"]) == 0
    plain = _json.loads(capsys.readouterr().out)
    assert weighted["model"] == "peer" and weighted["method"] == "factored"
    assert set(weighted["seat_models"]) == {"0", "1", "3", "4", "5"}
    assert plain["model"] == "uniform" and plain["method"] == "exact"
    assert weighted["consistent_deals"] == plain["consistent_deals"]
    wm, pm = weighted["belief"]["marginals"], plain["belief"]["marginals"]
    assert max(abs(wm[c].get(s, 0) - pm[c].get(s, 0)) for c in pm for s in pm[c]) > 0.01
    assert main(["belief", str(complete_path), "--seat", "2", "--upto", "70", "--model", "people"]) == 0
    text = capsys.readouterr().out
    assert "Player model: people (seats 0, 1, 3, 4, 5)" in " ".join(text.split())


def test_auto_is_the_default_and_reads_the_players(tmp_path, capsys):
    """The default model is ``auto`` (the first of ``player_models``): in a game of ``random``
    players every other seat is weighed as ``random`` once its team has asked, which gives
    the marginals of ``--model random`` and not those of ``uniform``; before any ask the
    teammates are weighed as ``belief`` and the other team as ``peer``; the text says so in
    words."""
    from cardmind.core import get_game

    assert get_game("literature").player_models()[0] == "auto"
    path = tmp_path / "random.jsonl"
    write_record(path, simulate({"players": 6}, 11, "random"))
    base = ["hint", str(path), "--seat", "0", "--upto", "50", "--json"]
    got = {}
    for model in (None, "random", "uniform"):
        assert main(base + (["--model", model] if model else [])) == 0
        got[model] = json.loads(capsys.readouterr().out)
    auto = got[None]
    assert auto["model"] == "auto" and auto["method"] == "factored"
    assert auto["seat_models"] == {str(s): "random" for s in range(1, 6)}
    assert [(t["team"], t["seats"], t["teammates"], t["model"]) for t in auto["auto"]] == \
        [(1, [1, 3, 5], False, "random"), (0, [2, 4], True, "random")]
    for team in auto["auto"]:
        assert team["asks"] > 0 and max(team["log_likelihood"], key=team["log_likelihood"].get) == "random"
    am, rm, um = (got[m]["belief"]["marginals"] for m in (None, "random", "uniform"))
    assert am == rm
    assert max(abs(am[c].get(s, 0) - um[c].get(s, 0)) for c in um for s in um[c]) > 0.01
    assert main(["hint", str(path), "--seat", "0", "--upto", "50", "--no-table"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Player model: read from the play: the other team (seats 1, 3, 5) as random players (their " in text
    assert "your teammates (seats 2, 4) as random players (their " in text
    assert main(["hint", str(path), "--seat", "0", "--upto", "1", "--no-table"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("the other team (seats 1, 3, 5) as peer players (no asks yet, so the usual choice); your teammates "
            "(seats 2, 4) as belief players (no asks yet, so the usual choice)") in text


def test_hint_json_keys_and_values(complete_path):
    proc = run("hint", complete_path, "--seat", "2", "--upto", "90", "--json", "--asks", "5")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == HINT_KEYS
    rec = read_record(complete_path, upto=90)
    b = tracker_for(rec, 2)
    assert out["game"] == "literature" and out["observer"] == 2 and out["team"] == 0
    assert out["events"] == 89 == len(rec.events)
    assert out["to_move"] == b.state.to_move() and out["your_turn"] == (b.state.to_move() == 2)
    assert out["consistent_deals"] == b.consistent_deals == int(out["consistent_deals_str"])
    assert set(out["belief"]) == {"seats", "sets", "marginals"}
    assert out["belief"]["seats"] == list(range(6))
    assert out["belief"]["sets"] == {n: list(set_cards(n)) for n in b.state.unclaimed_sets()}
    marg = b.marginals()
    assert out["belief"]["marginals"] == {c: {str(s): p for s, p in d.items()} for c, d in marg.items()}
    assert 0 < len(out["asks"]) <= 5
    for ask in out["asks"]:
        assert set(ask) == ASK_KEYS
        assert ask["probability"] == marg[ask["card"]][ask["target"]] > 0
        assert team_of(ask["target"]) != 0 and ask["reason"]
    scores = [a["score"] for a in out["asks"]]
    assert scores == sorted(scores, reverse=True)
    for c in out["claims"]:
        assert set(c) == CLAIM_KEYS and c["set"] in set_names()
        assert all(team_of(s) == 0 for s in c["assignment"].values())
        assert c["probability"] == pytest.approx(b.assignment_probability(c["set"], c["assignment"]), rel=1e-12)
        assert c["p_team_holds"] == pytest.approx(b.team_holds_probability(c["set"]), rel=1e-12)
        assert c["probability"] <= c["p_team_holds"] + 1e-12
        assert c["certain"] == (c["probability"] == 1.0)


def test_belief_json_equals_the_tracker_and_upto_cuts(complete_path, capsys):
    rec = read_record(complete_path)
    for line in (1, 2, 60, len(rec.events) - 10):
        args = ["belief", str(complete_path), "--seat", "4", "--upto", str(line), "--json"]
        if line == 60:
            proc = run(*args)
            assert proc.returncode == 0 and proc.stderr == ""
            text = proc.stdout
        else:
            assert main(args) == 0
            text, err = capsys.readouterr()
            assert err == ""
        out = json.loads(text)
        assert set(out) == {"consistent_deals", "marginals", "claims", "model", "seat_models", "method", "auto"}
        assert out["model"] == "auto" and out["method"] == "factored"   # the output names the model used
        assert sorted(s for team in out["auto"] for s in team["seats"]) == [0, 1, 2, 3, 5]
        expect = json.loads(json.dumps(tracker_for(read_record(complete_path, upto=line), 4).to_json()))
        assert out == expect
        if line == 1:  # only the header: the deal itself
            assert out["consistent_deals"] == multinomial([9] * 5)


def test_text_output(complete_path, capsys):
    proc = run("hint", complete_path, "--seat", "3", "--upto", "40")
    assert proc.returncode == 0 and proc.stderr == ""
    assert "seat 3" in proc.stdout and "Your hand: (" in proc.stdout
    assert "Consistent deals" not in proc.stdout   # the count is for --verbose and belief
    proc = run("hint", complete_path, "--seat", "3", "--upto", "40", "--verbose")
    assert proc.returncode == 0 and "Consistent deals: " in proc.stdout
    proc = in_process(capsys, "belief", complete_path, "--seat", "3", "--upto", "40")
    assert proc.returncode == 0 and "Belief" in proc.stdout


# ----------------------------------------------------------------------------- the human game with a mistake
def test_hint_rejects_the_human_game_at_line_13():
    path = shared_path("records", "literature-human", "human-12-3_1427.jsonl")
    err = assert_error(run("hint", path, "--seat", "2"), path, 13)
    assert "(rule: turn)" in err
    assert_error(run("validate", path), path, 13)


def test_hint_advises_on_the_human_game_up_to_line_12():
    path = shared_path("records", "literature-human", "human-12-3_1427.jsonl")
    proc = run("hint", path, "--seat", "2", "--upto", "12", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == HINT_KEYS and out["events"] == 11 and out["observer"] == 2
    assert out["to_move"] == 3  # seat 3 is on turn after line 12 (seat 7 then asked out of turn)
    assert out["recommend"] is None   # another seat is on turn: nothing for seat 2 to do
    b = tracker_for(read_record(path, upto=12), 2)
    assert out["consistent_deals"] == b.consistent_deals
    # the 48-card deck: no eights in the advice
    assert "eights" not in out["belief"]["sets"] and len(out["belief"]["sets"]) == 8
    proc = run("hint", path, "--seat", "2", "--upto", "12")
    assert proc.returncode == 0 and "seat 2" in proc.stdout


def test_validate(capsys):
    for name in ("human-12-10_1107.jsonl", "human-12-6_1108.jsonl"):
        path = shared_path("records", "literature-human", name)
        proc = in_process(capsys, "validate", path, "--seat", "1") if "1108" in name else run("validate", path)
        assert proc.returncode == 0 and proc.stderr == ""
        assert "ok" in proc.stdout and "complete" in proc.stdout


# ----------------------------------------------------------------------------- malformed input
HEADER = {"format": "cardmind-record/1", "game": "literature", "options": {"players": 6}, "observer": 0,
          "hand": ["QC", "KC", "6D", "AD", "2H", "4H", "9H", "QH", "KH"]}
ASK = {"type": "ask", "asker": 0, "target": 1, "card": "JH", "success": False}

BAD = {
    "json": (['{"type": "ask", "asker": 1'], 3),
    "type": ([{"type": "bid"}], 3),
    "missing": ([{"type": "ask", "asker": 1, "target": 0, "card": "3D"}], 3),
    "unknown-key": ([dict(ASK, asker=1, target=0, card="3D", why="x")], 3),
    "kind": ([dict(ASK, asker="one", target=0, card="3D")], 3),
    "card": ([dict(ASK, asker=1, target=0, card="3X")], 3),
    "seat": ([dict(ASK, asker=1, target=9, card="3D")], 3),
    "turn": ([dict(ASK, asker=2, target=1, card="TD")], 3),
    "teammate": ([dict(ASK, asker=1, target=3, card="3D")], 3),
    "own-card": ([dict(ASK, asker=1, target=0, card="3D"), dict(ASK, asker=0, target=1, card="QC")], 4),
    "without-set": ([dict(ASK, asker=1, target=0, card="3D"), dict(ASK, asker=0, target=1, card="3S")], 4),
    "observer-hand": ([dict(ASK, asker=1, target=0, card="KC")], 3),
    "claim-next": ([dict(ASK, asker=1, target=0, card="3D"),
                    {"type": "claim", "claimer": 0, "set": "low-hearts",
                     "assignment": {"2H": 0, "3H": 2, "4H": 0, "5H": 4, "6H": 2, "7H": 4},
                     "actual": {"2H": 0, "3H": 2, "4H": 0, "5H": 4, "6H": 2, "7H": 4}, "correct": True}], 4),
    "header": (None, 1),
    "blank": (["", json.dumps(dict(ASK, asker=1, target=0, card="3D"))], 3),
    "contradiction": ([dict(ASK, asker=1, target=0, card="3D"), dict(ASK, success=True)], None),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_malformed_records(tmp_path, case, capsys):
    extra, line = BAD[case]
    header = dict(HEADER)
    if case == "header":
        header["options"] = {"players": 5}
        extra = []
    lines = [json.dumps(header), json.dumps(ASK)] + [e if isinstance(e, str) else json.dumps(e) for e in extra]
    p = tmp_path / f"{case}.jsonl"
    p.write_text("\n".join(lines) + "\n")
    # in process, for each command
    for cmd in (["hint"], ["hint", "--json"], ["belief", "--json"], ["validate"]):
        code = main([cmd[0], str(p), *cmd[1:]])
        out, err = capsys.readouterr()
        assert code == 2 and out == "", (cmd, out)
        assert re.match(rf"cardmind: error: {re.escape(str(p))}:(\d+): \S", err), err
        got = int(re.match(rf"cardmind: error: {re.escape(str(p))}:(\d+):", err).group(1))
        if line is not None:
            assert got == line, err
        else:
            assert 2 <= got <= len(lines), err
    # and as a separate process for a few
    if case in ("json", "turn", "header", "contradiction"):
        assert_error(run("hint", p, "--json"), p, line if line is not None else None)


def test_unreadable_files(tmp_path, capsys):
    missing = tmp_path / "missing.jsonl"
    assert_error(run("hint", missing), missing)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert_error(in_process(capsys, "belief", empty, "--json"), empty, 1)
    folder = tmp_path / "dir.jsonl"
    folder.mkdir()
    assert_error(in_process(capsys, "validate", folder), folder)


def test_usage_errors_exit_2_without_traceback():
    proc = run("hint")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stdout == ""
    proc = run("belief", "x.jsonl", "--seat", "two")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stdout == ""
