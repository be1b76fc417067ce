"""Every shared Literature case is reproduced exactly by the tracker and by `cardmind belief`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cardmind.games.literature.belief import LiteratureBelief
from cardmind.records import read_record

from .conftest import shared_files, shared_path

CASES = shared_files("*.jsonl", "cases", "literature") + shared_files("*.jsonl", "cases", "literature-human")


def close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))


def compare(got: dict, exp: dict) -> list[str]:
    """Differences between a belief object and an expected case (empty when equal)."""
    errs = []
    if got["consistent_deals"] != exp["consistent_deals"]:
        errs.append(f"count {got['consistent_deals']} != {exp['consistent_deals']}")
    if set(got["marginals"]) != set(exp["marginals"]):
        errs.append(f"marginal cards differ: {set(got['marginals']) ^ set(exp['marginals'])}")
    for card, dist in exp["marginals"].items():
        g = got["marginals"].get(card, {})
        for seat in set(dist) | set(g):
            if not close(dist.get(seat, 0.0), g.get(seat, 0.0)):
                errs.append(f"P({card} at {seat}) {g.get(seat, 0.0)} != {dist.get(seat, 0.0)}")
    if set(got["claims"]) != set(exp["claims"]):
        errs.append(f"claim sets differ: {set(got['claims']) ^ set(exp['claims'])}")
    for name, e in exp["claims"].items():
        g = got["claims"].get(name, {})
        if not close(g.get("p_team_holds", -1), e["p_team_holds"]):
            errs.append(f"{name} p_team_holds {g.get('p_team_holds')} != {e['p_team_holds']}")
        if "p_best" in e:
            if not close(g.get("p_best", -1), e["p_best"]) or g.get("ties") != e["ties"]:
                errs.append(f"{name} best {g.get('p_best')}/{g.get('ties')} != {e['p_best']}/{e['ties']}")
        elif "p_best" in g:
            errs.append(f"{name} has a best assignment but the case has none")
    return errs


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_matches(path):
    exp = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text())
    belief = LiteratureBelief.from_record(read_record(path), model="uniform")
    got = belief.to_json()
    assert compare(got, exp) == []
    # the case's own best assignment attains p_best under our tracker
    for name, e in exp["claims"].items():
        if "best_assignment" in e:
            assert close(belief.assignment_probability(name, e["best_assignment"]), e["p_best"])
            ours = got["claims"][name]["best_assignment"]
            assert close(belief.assignment_probability(name, ours), e["p_best"])


def test_there_are_cases():
    shared_path("cases", "literature")
    assert len(CASES) >= 20


@pytest.mark.parametrize("path", CASES[::4], ids=lambda p: p.stem)
def test_cli_belief_json_matches(path):
    out = subprocess.run([sys.executable, "-m", "cardmind", "belief", str(path), "--json", "--model", "uniform"],
                         capture_output=True, text=True, check=True).stdout
    exp = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text())
    assert compare(json.loads(out), exp) == []


@pytest.mark.parametrize("path", CASES[1::5], ids=lambda p: p.stem)
def test_python_reference_engine_agrees(path):
    """The pure-Python reference counter gives the same integers as the fast path."""
    rec = read_record(path)
    fast = LiteratureBelief.from_record(rec, model="uniform")
    ref = LiteratureBelief.from_record(rec, model="uniform")
    ref.engine = "python"
    assert fast.consistent_deals == ref.consistent_deals
    assert fast.marginals_exact() == ref.marginals_exact()
