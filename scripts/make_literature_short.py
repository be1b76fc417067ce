"""Write the short whole Literature example game (``examples/literature-short-complete.jsonl``).

    python scripts/make_literature_short.py

A six-player game with the default options between ``belief`` players, dealt and played from
seed 2: 82 events (about a third of ``examples/literature-6p-complete.jsonl``), short enough to
be typed whole in the live advisor's tests (``cardmind advise``, one line per event). It has
what a game mostly holds: asks handed over and refused, claims that were right, one that was
wrong (the set goes to the other team), claims after which the team picked who plays next
(``next S`` typed) and the last claim, which ends the game. The script checks that the game is
whole and has those; it writes nothing otherwise.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardmind.agents.base import resolve_agent  # noqa: E402 - after the sys.path line
from cardmind.agents.match import play_game  # noqa: E402 - after the sys.path line
from cardmind.core import get_game  # noqa: E402 - after the sys.path line
from cardmind.records import Record, replay, write_record  # noqa: E402 - after the sys.path line

GAME = get_game("literature")
PATH = ROOT / "examples" / "literature-short-complete.jsonl"


def short_game(seed: int = 2) -> Record:
    """The seeded six-player game between ``belief`` players (default options).

    Raises:
        SystemExit: the game is not whole or lacks a form the example must show.
    """
    cls = resolve_agent("belief", GAME)
    res = play_game(GAME, {"players": 6}, [cls] * 6, np.random.default_rng(seed),
                    [np.random.default_rng([seed, s]) for s in range(6)])
    rec = res.record
    if res.result is None or not replay(rec).is_over():
        raise SystemExit(f"seed {seed}: the game did not finish")
    kinds = {(ev["type"], ev.get("success", ev.get("correct"))) for ev in rec.events}
    want = {("ask", True), ("ask", False), ("claim", True), ("claim", False)}
    if not want <= kinds:
        raise SystemExit(f"seed {seed}: the game lacks {sorted(want - kinds)}")
    return rec


def main() -> None:
    rec = short_game()
    write_record(PATH, rec)
    print(f"wrote {PATH.relative_to(ROOT)} ({len(rec.events)} events)")


if __name__ == "__main__":
    main()
