"""A whole game of every built-in game typed into ``cardmind advise`` through a pseudo-terminal,
one short line per event, as a player at the table would (issue 23, point 8).

For each game, a complete example record seen from one seat gives the lines to type (the
game's short notation writes them: ``Shorthand.lines``). The real program runs in a pty; the
test types the first part of the game, a line the notation refuses, an ``undo`` and the line
again, then Ctrl-C; it resumes with ``--resume`` and types the rest. At every step the advice
must appear and the prompt must count the events; at the end the record the program wrote must
hold exactly the example's events in the example's order, and ``cardmind validate`` and
``cardmind hint`` must accept it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardmind.advise.app import ADVICE_MARK
from cardmind.records import read_record

from .terminal import Terminal, advise_command

pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parent.parent

#: (complete example record, the seat that types it): whole games, short enough to type in a test
CASES = [
    ("examples/literature-short-complete.jsonl", 1),
    ("examples/gofish-4p-complete.jsonl", 1),
    ("examples/carioca-3p-complete.jsonl", 2),
    ("examples/handfoot-4p-short-complete.jsonl", 1),
]


def events_of(path: Path) -> list[dict]:
    lines = path.read_text().splitlines()
    return [json.loads(x) for x in lines[1:]]


def typed_lines(path: str, seat: int):
    """``(view, hand text, [(line, events it gives), ...])`` of the example seen from ``seat``."""
    rec = read_record(ROOT / path)
    view = rec.for_seat(seat)
    sh = rec.game.shorthand()
    lines = sh.lines(view.events, rec.game.new_state(view.options, view.header))
    return view, sh.start_text(view.header), lines


@pytest.mark.parametrize("path, seat", CASES, ids=[Path(c[0]).stem for c in CASES])
def test_a_whole_game_typed_live(tmp_path, path, seat):
    view, hand, lines = typed_lines(path, seat)
    assert read_record(ROOT / path).events and lines, "the example has events"
    game = view.game
    out = tmp_path / "live.jsonl"
    start = ["--record", str(out)]
    t = Terminal(advise_command(game.name, "--seat", str(seat), "--hand", hand, "--options",
                                json.dumps(view.options), *start), cwd=str(tmp_path), timeout=120)
    assert ADVICE_MARK in t.start.text, t.start.text
    done = 0
    if lines and lines[0][0] == "":          # events the rules give before anyone acts
        done = lines.pop(0)[1]
    assert t.start.events == done
    half = len(lines) // 2
    for i, (line, n) in enumerate(lines[:half]):
        a = t.type(line)
        done += n
        assert a.events == done, (line, a.text)
        assert "recorded:" in a.text and ADVICE_MARK in a.text, (line, a.text)
        if i == 3:   # a line the notation refuses: one sentence, nothing recorded
            a = t.type("xyzzy 42")
            flat = " ".join(a.text.split())   # the terminal wraps long lines
            assert flat.startswith("✗ ") and flat.endswith("Nothing was recorded.") and a.events == done, a.text
            assert flat.count("✗") == 1 and "recorded:" not in flat and ADVICE_MARK not in flat
            assert len(events_of(out)) == done
            a = t.type("undo")   # back one entry, then the same line again
            assert a.events == done - n and "Undone" in a.text and ADVICE_MARK in a.text
            assert len(events_of(out)) == done - n
            a = t.type(line)
            assert a.events == done and ADVICE_MARK in a.text
    assert events_of(out) == view.events[:done]
    t.interrupt()   # Ctrl-C: nothing typed is lost
    assert t.close() == 130
    assert events_of(out) == view.events[:done]

    t = Terminal(advise_command("--resume", str(out)), cwd=str(tmp_path), timeout=120)
    assert t.start.events == done and ADVICE_MARK in t.start.text
    for line, n in lines[half:]:
        a = t.type(line)
        done += n
        assert a.events == done and ADVICE_MARK in a.text, (line, a.text)
    assert a.prompt == "the game is over"
    a = t.type("quit")
    assert a.events is None
    assert t.close() == 0
    assert events_of(out) == view.events
    header = json.loads(out.read_text().splitlines()[0])
    assert header == view.header
    for cmd in (["validate", str(out)], ["hint", str(out)]):
        r = subprocess.run([sys.executable, "-m", "cardmind", *cmd], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
