"""Where two-player Go Fish games are won: asks at cards the asker knew the target held,
hits on guesses, lucky draws and books, per player.

An ask is at a **known** card when the asker's ``peer`` memory (what each player asked for,
received, was refused and drew shown, :mod:`cardmind.games.gofish.agents.peer`) says the target
holds the rank; every other hit is a hit on a **guess**. Each deal is played from both seats.

    python eval/gofish_asks.py --games 100            # belief v peer, the figures in docs/strength.md
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardmind.agents.base import resolve_agent  # noqa: E402
from cardmind.games.gofish.agents.peer import GoFishPeerAgent  # noqa: E402
from cardmind.agents.match import play_game  # noqa: E402
from cardmind.core import get_game  # noqa: E402

GAME = get_game("gofish")


def tally(a: str, b: str, games: int, seed: int) -> dict[str, dict[str, float]]:
    """Per agent name (``a``, ``b``): asks, hits, asks at known cards, hits on guesses, lucky
    draws, books and wins (ties half), over ``games`` two-player games (deal
    ``default_rng(seed + k // 2)``; ``a`` sits at seat ``k % 2``)."""
    A, B = resolve_agent(a, GAME), resolve_agent(b, GAME)
    keys = ("asks", "hits", "known_asks", "guess_hits", "lucky_draws", "books", "wins")
    out = {a: dict.fromkeys(keys, 0.0), b: dict.fromkeys(keys, 0.0)}
    for k in range(games):
        seat_a = k % 2
        name = {seat_a: a, 1 - seat_a: b}
        facs = [(lambda g, s, o, h: A(g, s, o, h)) if s == seat_a else (lambda g, s, o, h: B(g, s, o, h))
                for s in range(2)]
        res = play_game(GAME, {"players": 2}, facs, np.random.default_rng(seed + k // 2),
                        [np.random.default_rng([seed, k, s]) for s in range(2)])
        if res.result is None:
            raise RuntimeError(f"game {k}: seat {res.forfeit} forfeited: {res.forfeit_reason}")
        rec = res.record
        st = GAME.new_state(rec.options, rec.header)
        memory = [GoFishPeerAgent(GAME, s, rec.options, GAME.observer_header(rec.header, s)) for s in range(2)]
        for ev in rec.events:
            if ev["type"] == "ask":
                t = out[name[ev["asker"]]]
                known = memory[ev["asker"]].lo[ev["target"]][ev["rank"]] > 0
                t["asks"] += 1
                t["hits"] += bool(ev["given"])
                t["known_asks"] += known
                t["guess_hits"] += (not known) and bool(ev["given"])
            elif ev["type"] == "draw" and ev["shown"]:
                out[name[ev["player"]]]["lucky_draws"] += 1
            for s in range(2):
                memory[s].observe(st.redact(ev, s))
            st.apply_event(ev)
        for s in range(2):
            out[name[s]]["books"] += res.result.detail["books"][s]
            out[name[s]]["wins"] += res.result.outcome[s]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--agents", default="belief,peer", help="two Go Fish agents, comma-separated")
    ap.add_argument("--seed", type=int, default=5000)
    args = ap.parse_args(argv)
    a, b = args.agents.split(",")
    print(json.dumps(tally(a, b, args.games, args.seed), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
