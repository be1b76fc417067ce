"""Advice in a card player's words (issue 23, point 6): the default text of ``cardmind hint``
on every example record (the player's records as they are; the complete ones from every seat
at several points of the game) names no internal variable and shows no scientific notation,
and starts with a one-sentence headline; ``--verbose`` and ``--json`` keep the numbers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardmind.cli import main
from cardmind.records import read_record

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.jsonl"))

#: what the default text must not show: the names the code gives its numbers, and e-notation
FORBIDDEN = [
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "an internal name (snake_case)"),
    (re.compile(r"\b(deficiency|hazard|swing|live.outs|keep 1000|rounds.saved|penalty.cost)\b", re.I),
     "an internal name"),
    (re.compile(r"\b\d+(\.\d+)?e[+-]?\d+\b", re.I), "scientific notation"),
]


def positions() -> list[tuple[str, list[str]]]:
    """``(id, hint arguments)`` of every example record: a player's record at its end; a
    complete record from every seat, each at another point of the game (every 20% of it)."""
    out = []
    for path in EXAMPLES:
        rel = str(path.relative_to(ROOT))
        rec = read_record(path)
        if not rec.is_complete:
            out.append((path.stem, [rel]))
            continue
        n = rec.game.num_seats(rec.options)
        last = len(rec.events) + 1
        cuts = sorted({max(1, round(last * f / 5)) for f in range(1, 6)})
        for i, line in enumerate(cuts):
            seat = i % n
            out.append((f"{path.stem}-seat{seat}-line{line}", [rel, "--seat", str(seat), "--upto", str(line)]))
    return out


POSITIONS = positions()


def hint_text(capsys, args: list[str]) -> str:
    assert main(["hint", *args]) == 0
    out = capsys.readouterr()
    return out.out


@pytest.mark.parametrize("args", [a for _, a in POSITIONS], ids=[i for i, _ in POSITIONS])
def test_default_hint_speaks_a_players_words(capsys, monkeypatch, args):
    monkeypatch.chdir(ROOT)
    text = hint_text(capsys, args)
    for pattern, what in FORBIDDEN:
        m = pattern.search(text)
        assert m is None, f"{what} in the default text: {m.group(0)!r}\n{text}"
    lines = [x for x in text.splitlines() if x.strip()]
    assert lines, "the hint printed nothing"


def test_every_example_is_covered():
    games = {read_record(p).game.name for p in EXAMPLES}
    assert games >= {"literature", "gofish", "carioca", "handfoot"}
    assert len(POSITIONS) >= 2 * len(EXAMPLES) - 4


@pytest.mark.parametrize("path", [p for p in EXAMPLES if not read_record(p).is_complete], ids=lambda p: p.stem)
def test_verbose_and_json_keep_the_numbers(capsys, monkeypatch, path):
    """The numbers behind the advice are still there: the JSON has the count of consistent
    deals (an exact integer or an estimate) and ``--verbose`` prints more than the default."""
    monkeypatch.chdir(ROOT)
    rel = str(path.relative_to(ROOT))
    plain_text = hint_text(capsys, [rel])
    verbose = hint_text(capsys, [rel, "--verbose"])
    assert len(verbose) > len(plain_text)
    assert main(["hint", rel, "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert "consistent_deals" in obj and obj["observer"] == read_record(path).observer
