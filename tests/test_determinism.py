"""Deterministic output (issue 24, point 5): the same record and options give byte-identical
``cardmind hint`` and ``cardmind belief`` output, and the same tournament gives the same
results, records and summary (apart from timings), under any ``PYTHONHASHSEED``: set order,
dict order of sets, sampling seeds and caches must not leak into an answer.

Each command runs as a separate process under two hash seeds; the outputs are compared byte for
byte. The positions: every example record (the player's records at their end, the complete ones
from one seat in the middle of the game), default text and ``--json``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardmind.records import read_record

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ("1", "2")


def run(args: list[str], seed: str, cwd: Path = ROOT) -> str:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    r = subprocess.run([sys.executable, "-m", "cardmind", *args], capture_output=True, text=True, cwd=cwd, env=env,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout


def positions() -> list[tuple[str, list[str]]]:
    out = []
    for path in sorted((ROOT / "examples").glob("*.jsonl")):
        rec = read_record(path)
        rel = str(path.relative_to(ROOT))
        if rec.is_complete:
            n = rec.game.num_seats(rec.options)
            out.append((path.stem, [rel, "--seat", str(n - 1), "--upto", str(len(rec.events) // 2 + 1)]))
        else:
            out.append((path.stem, [rel]))
    return out


@pytest.mark.parametrize("args", [a for _, a in positions()], ids=[i for i, _ in positions()])
def test_hint_and_belief_are_the_same_under_any_hash_seed(args):
    for cmd in (["hint", *args], ["hint", *args, "--json"], ["belief", *args, "--json"]):
        first, second = (run(cmd, s) for s in SEEDS)
        assert first == second, f"cardmind {' '.join(cmd)} differs between PYTHONHASHSEED {SEEDS[0]} and {SEEDS[1]}"


def _without_timing(results: str) -> list[dict]:
    rows = [json.loads(x) for x in results.splitlines()]
    for r in rows:
        for key in ("think", "wall"):
            r.pop(key, None)
    return rows


@pytest.mark.parametrize("game, options, agents", [
    ("carioca", {"players": 3, "hands": 1}, "peer,belief"),
    ("handfoot", {"hands": 1, "hand_size": 6, "minimums": "30,60,90,120", "decks": 2, "pile_min": 5}, "peer,belief"),
    ("gofish", {"players": 3}, "peer,belief"),
    ("literature", {"players": 6}, "peer,belief"),
], ids=["carioca", "handfoot", "gofish", "literature"])
def test_a_tournament_is_the_same_under_any_hash_seed(tmp_path, game, options, agents):
    outs = []
    for s in SEEDS:
        out = tmp_path / f"t{s}"
        run(["tournament", game, "--agents", agents, "--options", json.dumps(options), "--games", "2", "--jobs", "1",
             "--seed", "5", "--out", str(out), "--quiet"], s, cwd=tmp_path)
        summary = json.loads((out / "summary.json").read_text())
        summary.pop("timing", None)
        summary.pop("out_dir", None)
        records = {p.name: p.read_text() for p in sorted((out / "records").glob("*.jsonl"))}
        outs.append((_without_timing((out / "results.jsonl").read_text()), records, summary))
    assert outs[0][0] == outs[1][0], "results.jsonl differs"
    assert outs[0][1] == outs[1][1], "the game records differ"
    assert outs[0][2] == outs[1][2], "summary.json differs"
