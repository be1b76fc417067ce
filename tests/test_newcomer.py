"""What a newcomer hit (issue 15), each point checked the way a user meets it: through the
``cardmind`` command, its exit status, its stderr and its stdout.

* ``validate``/``hint``/``belief --seat N`` on a player's record of another seat: one error
  line naming whose record it is, exit 2, no traceback (6- and 8-player Literature, Go Fish).
* Go Fish ranks written ``10`` (as cards accept ``10S``); a record without its header line
  is told so, not that its format is ``None``.
* The human output of ``hint`` is for card players: the hand, no count of consistent deals
  (``--verbose`` and ``belief`` show it), only claims worth making, the final score of a
  finished game, no wrapping when piped; an estimate says so plainly; ``--precision`` on a
  Literature record says it has no effect; ``--json`` is unchanged.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cardmind.agents.base import resolve_agent
from cardmind.agents.match import play_game
from cardmind.core import get_game
from cardmind.records import read_record, write_record

ROOT = Path(__file__).resolve().parent.parent
LIT6 = ROOT / "examples" / "literature-6p.jsonl"
GOFISH4 = ROOT / "examples" / "gofish-4p.jsonl"


def cli(*args: object, **kw) -> subprocess.CompletedProcess:
    """``python -m cardmind ARGS`` from the repository root."""
    return subprocess.run([sys.executable, "-m", "cardmind", *map(str, args)], capture_output=True, text=True,
                          cwd=kw.pop("cwd", ROOT), timeout=300, **kw)


def one_error_line(proc: subprocess.CompletedProcess) -> str:
    """Exit 2, nothing on stdout, exactly one ``cardmind: error:`` line, no traceback."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardmind: error: "), proc.stderr
    return lines[0]


@pytest.fixture(scope="module")
def lit8_player_record(tmp_path_factory) -> Path:
    """Seat 2's record of a seeded 8-player Literature game (random players), 30 events."""
    game = get_game("literature")
    cls = resolve_agent("random", game)
    mr = play_game(game, {"players": 8}, [cls] * 8, np.random.default_rng(5),
                   [np.random.default_rng([5, s]) for s in range(8)], max_actions=30)
    rec = mr.record.for_seat(2)
    path = tmp_path_factory.mktemp("lit8") / "literature-8p-seat2.jsonl"
    write_record(path, rec)
    return path


@pytest.mark.parametrize("command", ["validate", "hint", "belief"])
def test_another_seats_player_record_is_refused_by_name(command, lit8_player_record):
    for path, owner, other in ((LIT6, 1, 3), (lit8_player_record, 2, 7), (GOFISH4, 1, 2)):
        line = one_error_line(cli(command, path, "--seat", other))
        # the record is named, whose record it is, and that this seat cannot see it; no event
        # line is blamed (the old Go Fish message blamed a hidden draw at line 5)
        assert line == (f"cardmind: error: {path}: this is seat {owner}'s record; it cannot be seen "
                        f"from seat {other}"), line
    # the record's own seat is fine
    proc = cli("validate", lit8_player_record, "--seat", 2)
    assert proc.returncode == 0 and "seat 2's literature record" in proc.stdout


# ----------------------------------------------------------------------------- records
def test_go_fish_rank_10_is_read_as_t(tmp_path):
    complete = ROOT / "examples" / "gofish-4p-complete.jsonl"
    text = complete.read_text(encoding="utf-8")
    assert '"rank": "T"' in text
    ten = tmp_path / "ten.jsonl"
    ten.write_text(text.replace('"rank": "T"', '"rank": "10"').replace('"rank": "Q"', '"rank": "q"'),
                   encoding="utf-8")
    assert read_record(ten).events == read_record(complete).events
    proc = cli("validate", ten)
    assert proc.returncode == 0 and "ok: a complete gofish record with 152 events" in proc.stdout
    # actions too (the engine protocol and agents' JSON), and a wrong rank still names the choices
    from cardmind.games.gofish.notation import Ask, action_from_json

    assert action_from_json({"type": "ask", "asker": 0, "target": 1, "rank": "10"}) == Ask(0, 1, "T")
    with pytest.raises(ValueError, match=r"T \(or 10\)"):
        action_from_json({"type": "ask", "asker": 0, "target": 1, "rank": "1"})


def test_a_record_without_its_header_line_is_told_so(tmp_path):
    headless = tmp_path / "headless.jsonl"
    headless.write_text("".join(GOFISH4.read_text(encoding="utf-8").splitlines(keepends=True)[1:]),
                        encoding="utf-8")
    line = one_error_line(cli("hint", headless))
    assert line.startswith(f"cardmind: error: {headless}:1: the record has no header: line 1 is an event "
                           f'(type "ask")'), line
    assert "None" not in line and '"format": "cardmind-record/1"' in line


# ----------------------------------------------------------------------------- the human output of hint
def test_hint_shows_a_card_player_what_they_need():
    import json

    from cardmind.belief import tracker_for

    proc = cli("hint", LIT6)
    assert proc.returncode == 0 and proc.stderr == ""
    lines = proc.stdout.splitlines()
    hand = sorted(tracker_for(read_record(LIT6)).state.hands[1])
    assert lines[1].startswith("Your hand: (9 cards) ")
    assert sorted(c for part in lines[1].split(") ", 1)[1].split("; ") for c in part.split()[1:]) == hand
    assert "Consistent deals" not in proc.stdout and "e+" not in proc.stdout
    # the two claims the team might make would succeed 0.1% and <0.1% of the time: not "worth making"
    assert "Claims worth making" not in proc.stdout
    assert ("Claims: none worth making now: the likeliest, high-diamonds, would be right <1% of the time "
            "(under 50%; --verbose lists them).") in lines
    # the headline says what to do, in one sentence
    assert lines[2] == "Ask seat 2 for the 8H: it received that card at event 26."
    # piped: no cell is wrapped, every ask is whole on its line with its chance in percent
    from cardmind.hints.words import chance

    hint = json.loads(cli("hint", LIT6, "--json").stdout)
    for ask in hint["asks"]:
        assert any(f"seat {ask['target']} for the {ask['card']} " in line and f" {chance(ask['probability'])} " in line
                   for line in lines)
    # --verbose: the count, every claim and the reasons with their exact percentages
    verbose = cli("hint", LIT6, "--verbose", "--no-table").stdout
    assert f"Consistent deals: {hint['consistent_deals']:,} (" in verbose
    for ask in hint["asks"]:
        assert any(ask["reason"] in line and f"{ask['card']} from seat {ask['target']}" in line
                   for line in verbose.splitlines())
    assert "high-diamonds" in verbose and "low-clubs" in verbose and "Claims your team could make" in verbose


def test_go_fish_hint_has_no_floating_point_count_unless_asked():
    proc = cli("hint", GOFISH4, "--no-table")
    assert proc.returncode == 0
    assert "Consistent deals" not in proc.stdout and "floating point" not in proc.stdout
    assert proc.stdout.splitlines()[1] == "Your hand: (9 cards) 3S  6D 6H  8S  9D  TD  JD  KC KS"
    verbose = cli("hint", GOFISH4, "--no-table", "--verbose", "--model", "uniform").stdout   # the exact sum's count
    assert "Consistent deals: about 17,890,000,000,000,000,000 (every consistent deal counted, in floating point" \
        in verbose


def test_a_sampled_answer_says_plainly_that_it_is_an_estimate():
    import io

    from rich.console import Console

    from cardmind.games.gofish.advice import GoFishHint

    hint = GoFishHint(observer=0, events=50, to_move=0, phase=1, players=4, ranks="23456789TJQKA",
                      consistent_deals=10 ** 18, exact=False, asks=[], holdings={}, books=[], sizes=[5, 5, 5, 5],
                      stock=10, mode="mcmc", stderr=0.083, hand=["2C", "2D"])
    out = io.StringIO()
    hint.render(Console(file=out, width=200), None)
    text = out.getvalue()
    assert "Note: the chances below are estimates from sampling (each could be off by about 8 points)" in text
    assert "Consistent deals" not in text
    out = io.StringIO()
    hint.render(Console(file=out, width=200), None, verbose=True)
    assert "Consistent deals: roughly 1,000,000,000,000,000,000 (the draw engine sampled" in out.getvalue()


def test_a_finished_game_shows_the_final_score():
    from cardmind.records import replay

    complete = read_record(ROOT / "examples" / "literature-6p-complete.jsonl")
    sets = replay(complete).result().detail["team_sets"]
    for seat in (1, 2):
        out = cli("hint", complete.path, "--seat", seat, "--no-table").stdout
        mine, theirs = sets[seat % 2], sets[1 - seat % 2]
        verb = "won" if mine > theirs else "lost"
        assert f"Game over: your team {verb} {mine} sets to {theirs}." in out.splitlines()
    gofish = ROOT / "examples" / "gofish-4p-complete.jsonl"
    books = replay(read_record(gofish)).result().detail["books"]
    assert books == [1, 4, 4, 4]
    out = cli("hint", gofish, "--seat", 0, "--no-table").stdout
    assert ("Game over: seat 1, seat 2 and seat 3 shared first place, 4 books each "
            "(you: 1, seat 1: 4, seat 2: 4, seat 3: 4).") in out.splitlines()


def test_precision_on_a_literature_record_is_said_to_have_no_effect():
    import json

    for args in (["hint", "--no-table"], ["belief"], ["hint", "--json"]):
        proc = cli(*args[:1], LIT6, *args[1:], "--precision", "0.01")
        assert proc.returncode == 0
        assert proc.stderr == ("cardmind: note: --precision has no effect on this literature record: it takes "
                               "no sampling precision: its card probabilities are counted exactly\n")
    plain = json.loads(cli("hint", LIT6, "--json").stdout)
    assert json.loads(cli("hint", LIT6, "--json", "--precision", "0.01").stdout) == plain
