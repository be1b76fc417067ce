"""``cardmind advise``, the shared session, driven as a person uses it (a pseudo-terminal), on
the toy plugin game Secret (``tests/plugins/cardmind_toy``: its short notation is the plugin's
own, so this also shows that a game from another package can be followed live).

Covered: the advice after every event, a refused line (one sentence, nothing recorded),
``undo``, ``hint``, ``why``, ``table``, ``help``, ``save``, tab completion, Ctrl-C with
nothing lost, ``--resume``, the record being valid for ``cardmind validate`` and ``hint``, a
line that no deal fits, piped input, and the errors of bad arguments. Every built-in game is
typed whole in ``tests/test_advise_games.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardmind.advise.app import ADVICE_MARK

from .plugin_env import plugin_env
from .terminal import Terminal, advise_command

pytest.importorskip("pexpect")

START = ["secret", "--seat", "1", "--hand", "2S 4S", "--options", '{"players": 3}']


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return plugin_env(tmp_path_factory.mktemp("site"))


def events_of(path: Path) -> list[dict]:
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["format"] == "cardmind-record/1"
    return [json.loads(x) for x in lines[1:]]


def run(env, *args, stdin="", cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardmind", *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)


def test_a_session_in_a_terminal(env, tmp_path):
    rec = tmp_path / "game.jsonl"
    t = Terminal(advise_command(*START, "--record", str(rec)), env=env, cwd=str(tmp_path))
    assert "Following a game of Secret" in t.start.text
    assert f"{ADVICE_MARK} Guess" in t.start.text and "20%" in t.start.text   # 5 unseen cards: 1 in 5
    assert t.start.events == 0 and t.start.prompt == "seat 0's turn: ask or guess"
    assert events_of(rec) == []   # the header is on disk before the first event

    a = t.type("0 asks 1 3S no")
    assert "recorded: ask" in a.text and ADVICE_MARK in a.text
    assert a.events == 1 and a.prompt == "your turn: ask or guess"
    assert events_of(rec) == [{"type": "ask", "asker": 0, "target": 1, "card": "3S", "has": False}]

    # a line the notation refuses, and one the rules refuse: one sentence each, nothing recorded
    a = t.type("0 asks 1 3S maybe")
    assert "✗ expected yes or no at the end, not 'maybe'" in a.text and "Nothing was recorded." in a.text
    assert a.events == 1
    a = t.type("0 asks 2 5S no")
    assert "✗" in a.text and "it is seat 1's turn, not seat 0's" in a.text
    assert a.events == 1 and len(events_of(rec)) == 1

    a = t.type("1 asks 2 3S yes")
    assert a.events == 2 and ADVICE_MARK in a.text
    # seat 2 holds 3S: the secret is one of 5S 6S 7S 8S, each 25%
    assert "25%" in a.text

    # tab completion of the notation's verbs
    screen = t.keys("2 gu\t", wait_for="guesses")
    assert "2 guesses" in screen
    a = t.type(" 5S wrong")
    assert a.events == 3 and events_of(rec)[-1] == {"type": "guess", "player": 2, "card": "5S", "correct": False}

    a = t.type("undo")
    assert "Undone: guess" in a.text and a.events == 2 and len(events_of(rec)) == 2

    a = t.type("hint")
    assert "Best guess" in a.text and a.events == 2
    a = t.type("why")
    assert "consistent deals" in a.text
    a = t.type("table")
    assert "consistent deals" in a.text
    a = t.type("help")
    assert "S asks T CARD yes|no" in a.text and "undo" in a.text and "quit" in a.text
    a = t.type(f"save {tmp_path / 'copy.jsonl'}")
    assert "Copied the record (2 events)" in a.text
    assert (tmp_path / "copy.jsonl").read_text() == rec.read_text()

    # Ctrl-C: the program stops, nothing typed is lost
    out = t.interrupt()
    assert "Stopped with 2 events saved in" in out and "--resume" in out
    assert t.close() == 130
    assert len(events_of(rec)) == 2

    # --resume continues where it stopped
    t = Terminal(advise_command("--resume", str(rec)), env=env, cwd=str(tmp_path))
    assert "Continuing a game of Secret" in t.start.text and t.start.events == 2
    a = t.type("2 guesses 6S right")
    assert a.events == 3 and a.prompt == "the game is over"
    a = t.type("quit")
    assert a.events is None and "Stopped with 3 events" in a.text
    assert t.close() == 0

    assert events_of(rec)[-1] == {"type": "guess", "player": 2, "card": "6S", "correct": True}
    v = run(env, "validate", str(rec))
    assert v.returncode == 0 and "seat 1's secret record with 3 events; consistent" in v.stdout, v.stderr
    h = run(env, "hint", str(rec))
    assert h.returncode == 0 and "Guess" in h.stdout, h.stderr


def test_a_line_no_deal_fits_is_refused(env, tmp_path):
    """Seat 2 said it holds 3S; then seat 0 says it holds 3S too: the rules cannot see it (both
    hands are hidden from seat 1), the count of consistent deals can."""
    rec = tmp_path / "g.jsonl"
    r = run(env, "advise", *START, "--record", str(rec),
            stdin="0 asks 2 3S yes\n1 asks 0 3S yes\n1 asks 0 5S no\n")
    assert r.returncode == 0, r.stderr
    assert "'1 asks 0 3S yes' cannot have happened: no deal of the cards fits it" in r.stdout
    assert [e["card"] for e in events_of(rec)] == ["3S", "5S"]


def test_piped_input_gives_the_same_record(env, tmp_path):
    """With input from a pipe the session reads lines (no line editor) and echoes them."""
    rec = tmp_path / "g.jsonl"
    r = run(env, "advise", *START, "--record", str(rec),
            stdin="0 asks 1 3S no; 1 asks 2 3S yes\nundo\n0 asks 1 3S no\n1 asks 2 3S no\n")
    assert r.returncode == 0, r.stderr
    assert "[1] seat 0's turn: ask or guess > 0 asks 1 3S no; 1 asks 2 3S yes" in r.stdout
    assert "Undone: 2 × ask." in r.stdout   # one entry: both events of the line
    assert r.stdout.count(ADVICE_MARK) == 5   # the start, three entries, the undo
    assert events_of(rec) == [{"type": "ask", "asker": 0, "target": 1, "card": "3S", "has": False},
                              {"type": "ask", "asker": 1, "target": 2, "card": "3S", "has": False}]


@pytest.mark.parametrize("args, message", [
    (["secret", "--hand", "2S 4S"], "say your seat and your cards"),
    (["--seat", "1", "--hand", "2S"], "name the game"),
    (["nosuchgame", "--seat", "1", "--hand", "2S"], "unknown game 'nosuchgame'"),
    (["secret", "--seat", "7", "--hand", "2S 4S"], "--seat 7 is not a seat"),
    (["secret", "--seat", "1", "--hand", "2S XX"], "'XX' in your hand is not a card"),
    (["secret", "--seat", "1", "--hand", "2S 4S", "--options", "{players: 3}"], "--options is not JSON"),
    (["secret", "--seat", "1", "--hand", "2S 4S", "--options", '{"players": 9}'], "option 'players'"),
    (["secret", "--seat", "1", "--hand", "2S 4S 5S"], "the hand: seat 1 must be dealt 2 different cards"),
])
def test_bad_arguments_get_one_clear_error(env, tmp_path, args, message):
    r = run(env, "advise", *args, "--record", str(tmp_path / "g.jsonl"))
    assert r.returncode == 2 and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "g.jsonl").exists()


def test_an_existing_record_is_never_overwritten(env, tmp_path):
    rec = tmp_path / "g.jsonl"
    rec.write_text("precious\n")
    r = run(env, "advise", *START, "--record", str(rec))
    assert r.returncode == 2 and f"{rec} exists: continue that game with --resume" in r.stderr
    assert rec.read_text() == "precious\n"
    r = run(env, "advise", "--resume", str(rec), "--seat", "1")
    assert r.returncode == 2 and "--seat does not go with --resume" in r.stderr
    r = run(env, "advise", "--resume", str(rec))
    assert r.returncode == 2 and f"{rec}:1: not valid JSON" in r.stderr
    assert rec.read_text() == "precious\n"


def test_resume_refuses_a_complete_record(env, tmp_path):
    rec = tmp_path / "c.jsonl"
    rec.write_text(json.dumps({"format": "cardmind-record/1", "game": "secret", "options": {"players": 2, "hand": 1},
                               "hands": [["2S"], ["3S"]], "secret": "4S"}) + "\n")
    r = run(env, "advise", "--resume", str(rec))
    assert r.returncode == 2 and "this is a complete record" in r.stderr


def test_a_closed_terminal_loses_nothing(env, tmp_path):
    """The terminal goes away (SIGHUP, as when its window is closed): every event typed is
    in the record, which resumes."""
    rec = tmp_path / "g.jsonl"
    t = Terminal(advise_command(*START, "--record", str(rec)), env=env, cwd=str(tmp_path))
    t.type("0 asks 1 3S no")
    t.type("1 asks 2 5S yes")
    t.child.close(force=True)
    assert [e["card"] for e in events_of(rec)] == ["3S", "5S"]
    r = run(env, "advise", "--resume", str(rec), stdin="2 guesses 6S wrong\n")
    assert r.returncode == 0 and "Continuing a game of Secret (a toy plugin) as seat 1; 2 events so far." in r.stdout
    assert [e["card"] for e in events_of(rec)] == ["3S", "5S", "6S"]


@pytest.fixture
def secret_game(monkeypatch):
    """The toy game registered in this process (taken out again afterwards)."""
    from cardmind import core

    from .plugin_env import PLUGINS

    monkeypatch.syspath_prepend(str(PLUGINS))
    import cardmind_toy

    monkeypatch.setitem(core._REGISTRY, "secret", cardmind_toy.GAME)
    return cardmind_toy.GAME


def test_a_contradiction_found_only_by_the_advice_takes_the_line_back(secret_game, tmp_path, monkeypatch):
    """Some trackers find that no deal fits only while answering (Go Fish with three or more
    players, past its cheap checks): the advisor then takes the line back, file included."""
    from cardmind.advise.live import LiveGame
    from cardmind.shorthand import ShorthandError

    path = tmp_path / "g.jsonl"
    live = LiveGame.new(secret_game, {"players": 3}, 1, "2S 4S", path)
    live.enter("0 asks 2 3S yes", advise=True)
    before = path.read_text()
    monkeypatch.setattr(LiveGame, "_check_consistent", lambda self: None)   # the cheap check sees nothing
    with pytest.raises(ShorthandError, match="'1 asks 0 3S yes' cannot have happened: no deal of the cards fits"):
        live.enter("1 asks 0 3S yes", advise=True)
    assert path.read_text() == before and len(live.events) == 1
    assert live.advice().card != "3S"   # the advice is that of the position before the line


def test_resume_sets_aside_a_last_line_cut_off(env, tmp_path):
    """The machine stopped while a line was being written: --resume keeps the game before it,
    sets the fragment aside (FILE.cut) and says so; another bad line is named with a way out."""
    rec = tmp_path / "g.jsonl"
    r = run(env, "advise", *START, "--record", str(rec), stdin="0 asks 1 3S no\n1 asks 2 5S yes\n")
    assert r.returncode == 0, r.stderr
    whole = rec.read_text()
    rec.write_text(whole[:-20])   # the last event cut in the middle, no newline
    r = run(env, "advise", "--resume", str(rec), stdin="")
    assert r.returncode == 0, r.stderr
    assert "Continuing a game of Secret (a toy plugin) as seat 1; 1 event so far." in r.stdout
    assert f"Note: the last line of {rec} was cut off" in " ".join(r.stdout.split())
    assert (tmp_path / "g.jsonl.cut").read_text() == whole.splitlines()[-1][:-19] + "\n"
    assert len(events_of(rec)) == 1
    rec.write_text(rec.read_text() + '{"type": "ask", "asker": 9}\n')
    r = run(env, "advise", "--resume", str(rec), stdin="")
    assert r.returncode == 2 and f"{rec}:3:" in r.stderr
    assert "the lines before it are a valid game: fix or delete this line" in r.stderr


def test_a_record_in_a_missing_folder_is_a_clear_error(env, tmp_path):
    r = run(env, "advise", *START, "--record", str(tmp_path / "no" / "g.jsonl"))
    assert r.returncode == 2 and f"the folder {tmp_path / 'no'} does not exist (nothing was written)" in r.stderr
