"""Bad input found by a stranger's trial: each gets a clear error naming what and where, and
the answers stay in range (duplicate JSON keys, byte-order marks, --upto past the end,
settings of the wrong kind, an output folder that cannot be made, --asks 0, Go Fish
probabilities above 1)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardmind.agents import resolve_agent
from cardmind.core import get_game
from cardmind.errors import RecordError
from cardmind.records import read_record
from cardmind.tournament import TournamentError, run_tournament

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "literature-6p.jsonl"


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardmind", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_duplicate_key_is_rejected_at_its_line(tmp_path):
    lines = lines_of(EXAMPLE)
    ev = json.loads(lines[3])
    text = json.dumps(ev)[:-1] + ', "type": ' + json.dumps(ev["type"]) + "}"
    bad = tmp_path / "dup.jsonl"
    bad.write_text("\n".join(lines[:3] + [text] + lines[4:]) + "\n", encoding="utf-8")
    with pytest.raises(RecordError) as info:
        read_record(bad)
    assert info.value.line == 4 and "'type' appears twice" in str(info.value)


def test_byte_order_mark_is_accepted(tmp_path):
    p = tmp_path / "bom.jsonl"
    p.write_bytes(b"\xef\xbb\xbf" + EXAMPLE.read_bytes())
    assert read_record(p).events == read_record(EXAMPLE).events


def test_json_error_column_is_on_the_line(tmp_path):
    lines = lines_of(EXAMPLE)
    cut = lines[2][:-1]  # the closing brace is missing
    p = tmp_path / "cut.jsonl"
    p.write_text("\n".join(lines[:2] + [cut] + lines[3:]) + "\n", encoding="utf-8")
    with pytest.raises(RecordError) as info:
        read_record(p)
    assert info.value.line == 3 and f"column {len(cut) + 1}" in str(info.value)


def test_upto_past_the_end_is_an_error():
    n = len(lines_of(EXAMPLE))
    assert len(read_record(EXAMPLE, upto=n).events) == n - 1
    with pytest.raises(RecordError, match="past the end"):
        read_record(EXAMPLE, upto=n + 1)
    p = cli("hint", EXAMPLE, "--upto", n + 5)
    assert p.returncode == 2 and "past the end" in p.stderr and "Traceback" not in p.stderr


def test_asks_must_be_positive():
    p = cli("hint", EXAMPLE, "--asks", "0")
    assert p.returncode == 2 and "--asks" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("game,agent,setting,value", [
    ("literature", "peer", "claim_threshold", "high"),
    ("literature", "belief", "stall_events", 2.5),
    ("literature", "belief", "next_policy", 3),
    ("gofish", "belief", "steps", "many"),
    ("gofish", "belief", "w_turn", True),
])
def test_setting_of_the_wrong_kind_is_named(game, agent, setting, value, tmp_path):
    cls = resolve_agent(agent, get_game(game))
    with pytest.raises(ValueError, match=f"setting '{setting}' must be"):
        cls.check_settings({setting: value})
    assert cls.check_settings({})[setting] == cls.default_settings[setting]
    with pytest.raises(TournamentError, match=setting):
        run_tournament(game, [agent, "random"], games=2, settings={agent: {setting: value}},
                       out_dir=tmp_path / "t", options={"players": 2} if game == "gofish" else None)
    assert not (tmp_path / "t" / "results.jsonl").exists()


def test_output_folder_that_cannot_be_made(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    p = cli("tournament", "literature", "--agents", "random,peer", "--games", "2", "--out", blocker / "sub",
            "--quiet")
    assert p.returncode == 2 and "cannot create the output folder" in p.stderr and "Traceback" not in p.stderr


def test_resume_needs_a_tournament(tmp_path):
    with pytest.raises(TournamentError, match="cannot resume"):
        run_tournament("literature", ["random", "peer"], games=2, out_dir=tmp_path / "none", resume=True)


def test_go_fish_probabilities_stay_in_range():
    auto = json.loads(cli("belief", ROOT / "examples" / "gofish-4p.jsonl", "--json").stdout)
    probs = [q for seat in auto["holdings"].values() for rank in seat.values() for q in rank.values()]
    assert probs and all(0.0 <= q <= 1.0 for q in probs) and max(probs) == 1.0
    # the default auto with four players: sampled deals reweighed, with standard errors
    assert auto["model"] == "auto" and auto["mode"] == "weighted" and 0 < auto["stderr"] < 0.5
    p = cli("belief", ROOT / "examples" / "gofish-4p.jsonl", "--json", "--model", "uniform")
    assert p.returncode == 0, p.stderr
    probs = [q for seat in json.loads(p.stdout)["holdings"].values() for rank in seat.values()
             for q in rank.values()]
    assert probs and all(0.0 <= q <= 1.0 for q in probs)
    assert max(probs) == 1.0
    obj = json.loads(p.stdout)
    # 10 unseen draws: summed exactly (the compact sum, in floating point), so no sampling
    # error to report; the output names the method and bounds its rounding error
    assert obj["mode"] == "compact" and obj["exact"] is False and "stderr" not in obj
    assert obj["method"] == "the compact exact sum" and 0 < obj["error_bound"] < 1e-6
    assert obj["model"] == "uniform"


def test_go_fish_contradiction_says_what_it_contradicts(tmp_path):
    """A seat asks for a rank it refused, having drawn nothing since: the error names the
    line of the ask and the refusal it contradicts."""
    path = tmp_path / "gf.jsonl"

    def validate(last_card: str, *events: dict) -> str:
        """``cardmind validate`` on seat 0's record (its hand 2C-6C and ``last_card``): the
        same five opening events (seat 1 refuses 2s, seat 2 refuses Ks, seat 2 takes 3C from
        seat 0), then ``events``; a clean usage error; its message."""
        lines = [
            {"format": "cardmind-record/1", "game": "gofish", "options": {"players": 3}, "observer": 0,
             "hand": ["2C", "3C", "4C", "5C", "6C", last_card]},
            {"type": "ask", "asker": 0, "target": 1, "rank": "2", "given": []},
            {"type": "draw", "player": 0, "card": "8C", "shown": False},
            {"type": "ask", "asker": 1, "target": 2, "rank": "K", "given": []},
            {"type": "draw", "player": 1, "card": None, "shown": False},
            {"type": "ask", "asker": 2, "target": 0, "rank": "3", "given": ["3C"]},
            *events,
        ]
        path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
        p = cli("validate", path)
        assert p.returncode == 2 and "Traceback" not in p.stderr
        return p.stderr

    err = validate("7C", {"type": "ask", "asker": 2, "target": 1, "rank": "K", "given": []})
    assert "gf.jsonl:7:" in err and "seat 2 asked for Ks, but it holds none: it refused Ks at event 3" in err
    # the other way round: a seat refuses a rank it asked for (and has lost none of since)
    err = validate("KC", {"type": "ask", "asker": 2, "target": 1, "rank": "Q", "given": []},
                   {"type": "draw", "player": 2, "card": None, "shown": False},
                   {"type": "ask", "asker": 0, "target": 1, "rank": "K", "given": []})
    assert "gf.jsonl:9:" in err, err
    assert "seat 1 refused Ks, but it holds at least one: it asked for Ks at event 3" in err, err


def test_go_fish_precision_reaches_the_sampled_answer(monkeypatch, capsys):
    """Where the tracker samples (seat 1 after line 54, 15 unseen draws, with the table
    budget of the exact sum past its guaranteed range set to 0, in-process) the hint says it
    sampled and how precise it is; ``--precision`` sets that target; a bad target is a usage
    error."""
    import re

    from cardmind import cli as cli_main
    from cardmind.games.gofish.draws import settings as draw_settings

    monkeypatch.setattr(draw_settings, "EXACT_TABLE_CELLS", 0)
    monkeypatch.setattr(draw_settings, "COMPACT_WORK", 0)
    code = cli_main.main(["hint", str(ROOT / "examples" / "gofish-4p-complete.jsonl"), "--seat", "1",
                          "--upto", "54", "--precision", "0.03", "--no-table", "--verbose", "--model", "uniform"])
    out = capsys.readouterr().out
    assert code == 0, out
    m = re.search(r"largest standard error of a probability (\d\.\d+)", " ".join(out.split()))
    assert m, out
    assert 0 < float(m.group(1)) <= 0.03
    assert "the precision asked (0.03) was reached" in " ".join(out.split())
    for bad in ("0", "0.5", "x"):
        q = cli("belief", ROOT / "examples" / "gofish-4p.jsonl", "--precision", bad)
        assert q.returncode == 2 and "--precision" in q.stderr and "Traceback" not in q.stderr


def test_go_fish_exact_memory_sets_the_table_budget(monkeypatch, capsys):
    """``--exact-memory GB`` is the table budget of the planned exact sum past the guaranteed
    range (what answers where the compact sum gives up: here made to give up at once):
    seat 0 after line 100 of the complete example (18 unseen draws) is summed exactly by
    default and sampled with a tiny budget; the sampled hint's JSON then has ``sampling``
    and its human output calls the count an estimate and gives the statistical bound; a
    bad size is a usage error."""
    from cardmind import cli as cli_main
    from cardmind.games.gofish.draws import settings as draw_settings

    monkeypatch.setattr(draw_settings, "COMPACT_WORK", 0)
    path = str(ROOT / "examples" / "gofish-4p-complete.jsonl")
    base = ["--seat", "0", "--upto", "100", "--model", "uniform"]
    assert cli_main.main(["belief", path, *base, "--json"]) == 0
    exact = json.loads(capsys.readouterr().out)
    assert exact["mode"] == "enumerated" and "sampling" not in exact
    assert cli_main.main(["hint", path, *base, "--json", "--exact-memory", "0.001"]) == 0
    small = json.loads(capsys.readouterr().out)
    assert small["mode"] == "mcmc" and small["sampling"]["steps"] == 400 and small["sampling"]["target_met"]
    assert small["method"] == "the sampler (approximate)" and small["error_bound"] == min(1.0, 4 * small["stderr"])
    assert cli_main.main(["belief", path, *base, "--exact-memory", "0.001"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Consistent deals: roughly " in out and "rough importance-sampling estimate" in out
    assert (f"Answered by the sampler (approximate); each chance is within about {100 * small['error_bound']:.1f} "
            "points of the exact one (4 standard errors: a statistical bound, not a certain one)") in out
    assert cli_main.main(["belief", path, *base, "--precision", "0.01"]) == 0
    assert "has no effect: the answer was summed exactly" in " ".join(capsys.readouterr().out.split())
    for bad in ("0", "-1", "x", "5000"):
        q = cli("belief", ROOT / "examples" / "gofish-4p.jsonl", "--exact-memory", bad)
        assert q.returncode == 2 and "--exact-memory" in q.stderr and "Traceback" not in q.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_that_cannot_be_written_is_one_error_line():
    """A full disk or a closed standard output: one line, no traceback, exit 1."""
    for args in (["belief", "examples/gofish-4p.jsonl"], ["hint", "examples/literature-6p.jsonl", "--json"]):
        with open("/dev/full", "w") as full:
            q = subprocess.run([sys.executable, "-m", "cardmind", *args], stdout=full, stderr=subprocess.PIPE,
                               text=True, cwd=ROOT, timeout=300)
        assert q.returncode == 1 and "Traceback" not in q.stderr
        assert q.stderr.strip() == "cardmind: error: cannot write the output: No space left on device"
    q = subprocess.run([sys.executable, "-m", "cardmind", "belief", "examples/gofish-4p.jsonl"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=300,
                       preexec_fn=lambda: __import__("os").close(1))
    assert q.returncode == 1 and "standard output is closed" in q.stderr


def test_cli_says_what_it_did():
    """An unknown flag shows the command's own usage; ``belief`` (no asks) leaves out the note
    that the asks are for another turn, ``hint`` keeps it; a floating-point count is printed to
    15 digits, not as an exact integer; ``validate --seat`` says it checked that seat."""
    q = cli("belief", "examples/gofish-4p.jsonl", "--bogus")
    assert q.returncode == 2 and q.stderr.startswith("usage: cardmind belief")
    assert "unrecognized arguments: --bogus" in q.stderr
    belief = " ".join(cli("belief", "examples/gofish-4p.jsonl", "--model", "uniform").stdout.split())
    hint = " ".join(cli("hint", "examples/gofish-4p.jsonl", "--model", "uniform").stdout.split())
    note = "the asks are for when you are on turn"
    assert "seat 2 to play" in belief and note not in belief and note in hint
    count = json.loads(cli("belief", "examples/gofish-4p.jsonl", "--json", "--model", "uniform").stdout)
    assert count["mode"] == "compact" and not count["exact"]
    n = int(count["consistent_deals"])   # 4 significant digits, written out with separators
    written = f"{round(n, 4 - len(str(n))):,}"
    assert written.count(",") >= 6 and written.replace(",", "")[:4] == f"{float(n):.3e}".replace(".", "")[:4]
    assert f"Consistent deals: about {written} (every consistent deal counted" in belief
    assert not re.search(r"\de[+-]?\d", belief), belief   # no e-notation anywhere
    assert count["error_bound"] < 1e-9
    assert "Answered by the compact exact sum; each chance is off by less than one part in a billion" in belief
    # --exact: the same exact sum here (no budget to pass), the same probabilities
    exact = json.loads(cli("belief", "examples/gofish-4p.jsonl", "--json", "--exact", "--model", "uniform").stdout)
    assert exact["mode"] == "compact" and exact["holdings"] == count["holdings"]
    # --model peer: with four players the model reads each other seat's recent asks, and says so
    peer = " ".join(cli("belief", "examples/gofish-4p.jsonl", "--model", "peer").stdout.split())
    assert "Player model peer: seat 0's 1 recent ask read as from a player with memory (peer)" in peer
    assert "Player model" not in belief
    assert "Face-down books, every rank worked out from the events: #1 5 (made by seat 3), #2 Q" in belief
    q = cli("validate", "examples/gofish-4p-complete.jsonl", "--seat", "2")
    assert q.returncode == 0 and q.stdout.strip().endswith("with 152 events; consistent from seat 2's view")


def test_identical_duplicate_scores_do_not_give_a_zero_width_elo_interval():
    from cardmind.tournament.ratings import elo_interval

    elo, (lo, hi), s, se = elo_interval([0.75, 0.75, 0.75])
    assert s == 0.75 and lo < elo < hi and se > 0.2
    elo2, (lo2, hi2), _, _ = elo_interval([0.5, 1.0, 0.75, 0.75])
    assert lo2 < elo2 < hi2 and abs(elo2 - elo) < 1e-9


CONTRA = [
    {"format": "cardmind-record/1", "game": "literature", "options": {"players": 6}, "observer": 1,
     "hand": ["JC", "2D", "2H", "TH", "4S", "6S", "9S", "JS", "8C"]},
    {"type": "ask", "asker": 0, "target": 1, "card": "3D", "success": False},
    {"type": "ask", "asker": 1, "target": 0, "card": "4D", "success": False},
    {"type": "ask", "asker": 0, "target": 1, "card": "5D", "success": False},
    {"type": "ask", "asker": 1, "target": 0, "card": "6D", "success": False},
    # seat 0 asks for 7D, so it holds another low diamond; but it asked for 3D and 5D (so
    # holds neither), seat 1 found no 4D or 6D there and seat 1 holds 2D: none is left
    {"type": "ask", "asker": 0, "target": 1, "card": "7D", "success": False},
    # and this ask breaks a rule: seat 1 holds 2H
    {"type": "ask", "asker": 1, "target": 0, "card": "2H", "success": False},
]


@pytest.mark.parametrize("command", ["validate", "hint", "belief"])
def test_the_first_problem_is_reported(tmp_path, command):
    p = tmp_path / "contra.jsonl"
    p.write_text("\n".join(json.dumps(x) for x in CONTRA) + "\n", encoding="utf-8")
    out = cli(command, p)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"{p}:6: no deal is consistent" in out.stderr, out.stderr
    # without the impossible ask the rule error at line 7 is the first problem
    q = tmp_path / "rule.jsonl"
    q.write_text("\n".join(json.dumps(x) for x in CONTRA[:5] + CONTRA[6:]) + "\n", encoding="utf-8")
    out = cli(command, q)
    assert out.returncode == 2 and f"{q}:6: illegal ask" in out.stderr, out.stderr
