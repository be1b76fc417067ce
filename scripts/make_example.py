"""Regenerate the example records in examples/ from seeded simulated games.

    python scripts/make_example.py

Writes ``examples/literature-6p.jsonl`` (seat 1's record, cut mid-game) and
``examples/literature-6p-complete.jsonl`` (the whole game with every hand).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from cardmind.agents.base import resolve_agent
from cardmind.agents.match import play_game
from cardmind.core import get_game
from cardmind.records import Record, write_record

ROOT = Path(__file__).resolve().parent.parent


def main(agent: str = "random", seed: int = 7, cut: int = 40, seat: int = 1) -> None:
    game = get_game("literature")
    cls = resolve_agent(agent, game)
    res = play_game(game, {"players": 6}, [cls] * 6, np.random.default_rng(seed),
                    [np.random.default_rng([seed, s]) for s in range(6)])
    rec = res.record
    write_record(ROOT / "examples" / "literature-6p-complete.jsonl", rec)
    mine = rec.for_seat(seat)
    cut_rec = Record(mine.game, mine.options, mine.header, mine.events[:cut], mine.path, mine.lines[:cut])
    write_record(ROOT / "examples" / "literature-6p.jsonl", cut_rec)
    print(f"wrote examples/literature-6p.jsonl ({cut} events of {len(rec.events)}) and the complete game")


if __name__ == "__main__":
    main(*sys.argv[1:2])
