"""What a newcomer hit (issue 15), each point checked the way a user meets it: through the
``cardmind`` command, its exit status, its stderr and its stdout.

* ``validate``/``hint``/``belief --seat N`` on a player's record of another seat: one error
  line naming whose record it is, exit 2, no traceback (6- and 8-player Literature, Go Fish).
* Go Fish ranks written ``10`` (as cards accept ``10S``); a record without its header line
  is told so, not that its format is ``None``.
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
