"""A game and an agent from another installed package plug into cardmind with no change to it.

``tests/plugins/cardmind_toy`` is a toy game (Secret: guess the card put aside) written
only against cardmind's public doors. The test installs it the way pip does, as a
distribution whose metadata declares the entry points ``cardmind.games`` (the game) and
``cardmind.agents`` (one more agent), on a ``PYTHONPATH`` of its own, and plays it through
``cardmind tournament``, ``cardmind engine`` (hello, new, event, act, belief, hint) and
``cardmind validate`` / ``belief`` as separate processes. A broken plugin beside it must not
stop anything, and asking for it must say why it is missing. The beliefs are checked against
a brute-force count written here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import permutations
from pathlib import Path

import pytest

from .plugin_env import plugin_env


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    """The environment of a Python where the toy package is installed (:func:`plugin_env`)."""
    return plugin_env(tmp_path_factory.mktemp("site"))


def cardmind(env, *args: str, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardmind", *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300)


def brute_force(options: dict, seat: int, hand: list[str], events: list[dict]) -> dict:
    """Count the deals of the unseen cards consistent with ``events``, and the chance that each
    card is the secret (written from the rules, independently of the toy's tracker)."""
    n, k = options["players"], options["hand"]
    cards = [f"{r}S" for r in "23456789TJQKA"[:n * k + 1]]
    unseen = [c for c in cards if c not in hand]
    others = [s for s in range(n) if s != seat]
    deals = set()
    for perm in permutations(unseen):
        hands = {seat: set(hand)}
        hands.update({s: set(perm[i * k:(i + 1) * k]) for i, s in enumerate(others)})
        secret = perm[-1]
        ok = all((ev["card"] not in hands[ev["asker"]] and (ev["card"] in hands[ev["target"]]) == ev["has"])
                 if ev["type"] == "ask" else
                 (ev["card"] not in hands[ev["player"]] and (ev["card"] == secret) == ev["correct"])
                 for ev in events)
        if ok:
            deals.add((tuple(frozenset(hands[s]) for s in others), secret))
    secret = {}
    for _, c in deals:
        secret[c] = secret.get(c, 0) + 1
    return {"count": len(deals), "secret": {c: v / len(deals) for c, v in secret.items()}}


def test_toy_game_is_not_in_cardmind_without_the_plugin():
    """Without the installed plugin the game does not exist (nothing of it is built in)."""
    from cardmind.core import game_names

    assert "secret" not in game_names()


def test_tournament_plays_the_plugin_game_and_agent(env, tmp_path):
    out = tmp_path / "t"
    r = cardmind(env, "tournament", "secret", "--agents", "random,sure", "--games", "40", "--seed", "3",
                 "--out", str(out), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 40 and summary["complete"] and summary["errors"] == 0
    rates = summary["agents"]
    assert rates["sure"]["games"] == rates["random"]["games"] == 40
    # the agent that reads its tracker beats the random one (it never guesses blind)
    assert rates["sure"]["win_rate_ci95"][0] > 0.5
    # the broken plugin beside it was reported, not fatal
    assert "broken" in r.stderr and "was not loaded" in r.stderr

    records = sorted((out / "records").glob("*.jsonl"))
    assert len(records) == 40
    rec = records[0]
    v = cardmind(env, "validate", str(rec))
    assert v.returncode == 0 and "ok: a complete secret record" in v.stdout, v.stderr
    v = cardmind(env, "validate", str(rec), "--seat", "1")
    assert v.returncode == 0 and "consistent from seat 1's view" in v.stdout, v.stderr

    lines = [json.loads(x) for x in rec.read_text().splitlines()]
    header, events = lines[0], lines[1:]
    for upto in (1, len(lines)):
        b = cardmind(env, "belief", str(rec), "--seat", "1", "--json", "--upto", str(upto))
        assert b.returncode == 0, b.stderr
        got = json.loads(b.stdout)
        want = brute_force(header["options"], 1, header["hands"][1], events[:upto - 1])
        assert got["consistent_deals"] == want["count"]
        for card, p in want["secret"].items():
            assert got["marginals"][card]["secret"] == pytest.approx(p, abs=1e-12)
    h = cardmind(env, "hint", str(rec), "--seat", "1", "--json")
    assert h.returncode == 0 and json.loads(h.stdout)["game"] == "secret"


def test_engine_serves_the_plugin_game(env):
    """hello lists the game and both agents; a referee and two player sessions play a game;
    the belief of a player session is the brute-force count."""
    reqs = [{"id": 1, "cmd": "hello"},
            {"id": 2, "cmd": "new", "session": "ref", "game": "secret", "role": "referee", "seed": 5,
             "options": {"players": 3}}]
    r = cardmind(env, "engine", stdin="".join(json.dumps(q) + "\n" for q in reqs))
    replies = [json.loads(x) for x in r.stdout.splitlines()]
    hello, ref = replies
    assert hello["ok"] and ref["ok"], r.stdout
    game = next(g for g in hello["games"] if g["name"] == "secret")
    assert game["belief"] is True and game["hint"] is True and game["seats"] == 2
    agents = {a["name"]: a["games"] for a in hello["agents"] if "secret" in a["games"]}
    assert set(agents) == {"random", "sure"}
    hands = ref["header"]["hands"]

    # play the game through one engine process, request by request
    proc = subprocess.Popen([sys.executable, "-m", "cardmind", "engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)

    def ask(req: dict) -> dict:
        proc.stdin.write(json.dumps(req) + "\n")
        proc.stdin.flush()
        reply = json.loads(proc.stdout.readline())
        assert reply["ok"], reply
        return reply

    try:
        ask({"cmd": "new", "session": "ref", "game": "secret", "role": "referee", "seed": 5,
             "options": {"players": 3}})
        for s, agent in enumerate(["sure", "random", "random"]):
            ask({"cmd": "new", "session": f"p{s}", "game": "secret", "seat": s, "hand": hands[s],
                 "agent": agent, "seed": s, "options": {"players": 3}})
        events = []
        status = ask({"cmd": "status", "session": "ref"})
        while not status["over"]:
            seat = status["to_move"]
            act = ask({"cmd": "act", "session": f"p{seat}"})["action"]
            applied = ask({"cmd": "apply", "session": "ref", "action": act})
            for ev in applied["events"]:
                events.append(ev)
                for s in range(3):
                    ask({"cmd": "event", "session": f"p{s}", "event": ev})
            status = applied
            belief = ask({"cmd": "belief", "session": "p0"})["belief"]
            want = brute_force({"players": 3, "hand": 2}, 0, hands[0], events)
            assert belief["consistent_deals"] == want["count"]
        assert len(events) >= 1
        hint = ask({"cmd": "hint", "session": "p1"})["hint"]
        assert hint["game"] == "secret" and 0 <= hint["probability"] <= 1
        ask({"cmd": "quit"})
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)


def test_a_broken_plugin_says_why_it_is_missing(env, tmp_path):
    r = cardmind(env, "tournament", "broken", "--agents", "random,random", "--games", "2",
                 "--out", str(tmp_path / "b"), "--quiet")
    assert r.returncode == 2
    assert "unknown game 'broken'" in r.stderr and "failed to load" in r.stderr and "NO_SUCH_GAME" in r.stderr
