"""Time per move of the Literature ``belief`` player, in CPU time (issue 16: under 50 ms).

Plays seeded games of ``belief`` (one team) against ``peer`` and times every ``act`` of the
``belief`` seats with ``time.process_time`` (the CPU time of this process: on a shared
machine the wall-clock time per move also counts the time other programs held the cores).
Prints, per game, the mean CPU time per move, then the median and the spread (quartiles,
least and most) of those means, and the 90th percentile and the largest single move.

    python eval/move_time.py --games 20 --players 6 --seed 1
    python eval/move_time.py --games 20 --players 6 --seed 1 --settings '{"opponent_model": "uniform", "teammate_model": "uniform"}'
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardmind.agents import resolve_agent  # noqa: E402
from cardmind.agents.match import play_game  # noqa: E402
from cardmind.core import get_game  # noqa: E402


def run(games: int, players: int, seed: int, settings: dict | None) -> tuple[list[float], list[float]]:
    """``(per-game mean CPU ms per move, every move's CPU ms)``."""
    game = get_game("literature")
    belief, peer = resolve_agent("belief", game), resolve_agent("peer", game)
    moves: list[float] = []
    per_game: list[float] = []

    class Timed(belief):
        def act(self, rng):
            t0 = time.process_time()
            try:
                return super().act(rng)
            finally:
                self._times.append(1000 * (time.process_time() - t0))

    for d in range(games):
        times: list[float] = []

        def make(cls, st=None):
            def factory(g, s, o, h):
                a = cls(g, s, o, h, st)
                a._times = times
                return a
            return factory

        side = d % 2
        factories = [make(Timed, settings) if s % 2 == side else make(peer) for s in range(players)]
        play_game(game, {"players": players}, factories, np.random.default_rng([seed, d]),
                  [np.random.default_rng([seed, d, s]) for s in range(players)])
        moves += times
        per_game.append(float(np.mean(times)))
    return per_game, moves


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--settings", default=None, help="belief's settings as JSON")
    args = ap.parse_args(argv)
    settings = json.loads(args.settings) if args.settings else None
    per_game, moves = run(args.games, args.players, args.seed, settings)
    q = np.percentile(per_game, [0, 25, 50, 75, 100])
    print(f"belief, {args.players} players, {args.games} games against peer, {len(moves)} moves"
          + (f", settings {json.dumps(settings)}" if settings else ""))
    print(f"CPU ms per move, per-game means: median {q[2]:.1f} (quartiles {q[1]:.1f}-{q[3]:.1f}, "
          f"least {q[0]:.1f}, most {q[4]:.1f}); over all moves: mean {np.mean(moves):.1f}, "
          f"90th percentile {np.percentile(moves, 90):.1f}, largest {max(moves):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
