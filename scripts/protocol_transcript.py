#!/usr/bin/env python3
"""Play a real Literature game through ``cardmind engine`` and write the transcript into
``docs/protocol.md`` (between ``<!-- transcript:begin -->`` and ``<!-- transcript:end -->``).

The script starts the engine as a child process (``python -m cardmind engine``) and is the
frontend: its referee holds the complete state (``game.initial_state``), deals with
``--seed``, opens one engine player session per seat (agent ``--agent``, seat ``s`` seeded
``s``), asks the seat to move to ``act``, resolves the action, and relays the pending notice
and the events to every session (``cardmind.protocol.client.play_through_engine``). At one
turn it also asks that seat's session for ``hint``, ``belief``, ``legal`` and ``check``,
and sends an illegal event to show that it is rejected without changing the session. After
the game it shows a referee session (``role: "referee"``, which resolves actions itself)
and a few error replies, then ``quit``. Every line sent and received is recorded verbatim.

Usage::

    python scripts/protocol_transcript.py                 # rewrite docs/protocol.md
    python scripts/protocol_transcript.py --stdout        # print the transcript instead
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardmind.protocol.client import EngineClient, play_through_engine  # noqa: E402

BEGIN = "<!-- transcript:begin -->"
END = "<!-- transcript:end -->"


def make_transcript(seed: int, agent: str, in_process: bool, demo_turn: int = 12) -> tuple[str, dict]:
    """Run everything; return ``(markdown block, facts)``."""
    command = None if in_process else [sys.executable, "-m", "cardmind", "engine"]
    client = EngineClient(command=command, record=True)
    client.request("hello", protocol="cardmind-engine/1")
    shown = {"done": False}

    def on_turn(cl: EngineClient, seat: int, actions: int, sessions: list[str]) -> None:
        if shown["done"] or actions < demo_turn:
            return
        shown["done"] = True
        sid = sessions[seat]
        cl.request("status", session=sid)
        cl.request("hint", session=sid, params={"max_asks": 3})
        cl.request("belief", session=sid)
        cl.request("legal", session=sid, types=["ask"], limit=3)
        mate = (seat + 2) % 6
        cl.request("check", session=sid, action={"type": "ask", "asker": seat, "target": mate, "card": "2C"})
        # an event that breaks the rules (it is not seat (seat+1)'s turn): rejected, nothing changes
        cl.request("event", check=False, session=sid,
                   event={"type": "ask", "asker": (seat + 1) % 6, "target": seat, "card": "2C", "success": False})
        cl.request("status", session=sid)

    game = play_through_engine(client, "literature", None, seed=seed, agents=agent, on_turn=on_turn)
    client.request("status", session=game.sessions[0])
    client.request("sessions")
    for sid in game.sessions:
        client.request("close", session=sid)

    # a referee session: the engine deals (seed) and resolves actions into events
    ref = client.request("new", session="ref", game="literature", role="referee", seed=seed)
    client.request("legal", session="ref", seat=0, types=["ask"], limit=2)
    hand0 = ref["header"]["hands"][0]
    card = next(c for c in ("2C", "3C", "4C", "5C", "6C", "7C") if c not in hand0 and any(
        x in hand0 for x in ("2C", "3C", "4C", "5C", "6C", "7C")))
    client.request("apply", session="ref", action={"type": "ask", "asker": 0, "target": 1, "card": card})
    client.request("apply", check=False, session="ref", action={"type": "ask", "asker": 1, "target": 3, "card": card})
    client.request("close", session="ref")

    # error replies
    client.send_line("{\"cmd\": \"hello\"")
    client.request("dance", check=False)
    client.request("act", check=False, session="nobody")
    client.request("new", check=False, game="literature", seat=0, hand=["2C"], agent="random")
    client.request("quit")
    if client.proc is not None:
        client.proc.wait(timeout=30)

    lines = []
    for req, rep in client.transcript:
        lines.append("> " + req)
        lines.append("< " + rep)
    facts = {"requests": len(client.transcript), "events": len(game.events), "actions": game.actions,
             "result": game.result, "seed": seed, "agent": agent}
    team = game.result["detail"]["team_sets"]
    how = ("in-process (`--in-process`)" if in_process else
           "`python -m cardmind engine` as a child process")
    block = (
        f"{BEGIN}\n"
        f"Produced by `python scripts/protocol_transcript.py` (seed {seed}, six `{agent}` seats, the engine run as "
        f"{how}): {facts['requests']} requests, {facts['actions']} actions, {facts['events']} events; "
        f"team 0 won {team[0]} sets, team 1 won {team[1]}. `>` lines were sent to the engine, `<` lines are its "
        f"replies, verbatim.\n\n"
        f"<details><summary>Show the transcript ({2 * facts['requests']} lines)</summary>\n\n"
        f"<!-- docs:example {time.strftime('%Y-%m-%d')} {_commit()} -->\n"
        "```text\n" + "\n".join(lines) + "\n```\n\n</details>\n" + END)
    return block, facts


def _commit() -> str:
    """The short hash of the checked-out commit (the transcript is marked as an example run
    of it, ``<!-- docs:example DATE COMMIT -->``, for the docs tests).

    Raises:
        SystemExit: not in a git checkout.
    """
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as exc:
        raise SystemExit(f"protocol_transcript: cannot tell the commit (git rev-parse failed: {exc})") from None
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=0, help="the deal (default 0)")
    p.add_argument("--agent", default="belief", help="the agent of every seat (default belief)")
    p.add_argument("--doc", type=Path, default=ROOT / "docs" / "protocol.md")
    p.add_argument("--stdout", action="store_true", help="print the transcript instead of writing the doc")
    p.add_argument("--in-process", action="store_true", help="use an in-process Engine instead of a child process")
    args = p.parse_args(argv)
    block, facts = make_transcript(args.seed, args.agent, args.in_process)
    if args.stdout:
        print(block)
        return 0
    text = args.doc.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        print(f"{args.doc}: no {BEGIN} ... {END} markers", file=sys.stderr)
        return 1
    args.doc.write_text(pattern.sub(lambda m: block, text, count=1), encoding="utf-8")
    print(f"{args.doc}: transcript of {facts['requests']} requests ({json.dumps(facts['result']['detail'])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
