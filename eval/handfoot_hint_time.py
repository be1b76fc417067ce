"""Time of a Hand and Foot hint (``cardmind hint``'s computation) at many positions.

    python eval/handfoot_hint_time.py --games 6 --every 7

Seeded games between ``peer`` partnerships (four hands each); every ``--every``-th event of
every seat's record, the seat's tracker (built by replaying its record) is asked for a hint,
and the time of :func:`cardmind.games.handfoot.hints.handfoot_hint` is measured (the worlds it
draws from the posterior, every chance and swing; not the replay, nor the process start).
Reported: median, 99th percentile and maximum of the processor time and of the wall time (the
machine is shared, so the wall time includes waiting), and the slowest position.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from cardmind.agents import resolve_agent
from cardmind.agents.match import play_game
from cardmind.core import get_game
from cardmind.games.handfoot.belief import HandFootBelief
from cardmind.games.handfoot.hints import handfoot_hint

GAME = get_game("handfoot")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", default=None, help="write the per-position times (JSON lines) here")
    args = ap.parse_args(argv)
    peer = resolve_agent("peer", GAME)
    cpu, wall, where = [], [], []
    for g in range(args.games):
        mr = play_game(GAME, {}, [peer] * 4, np.random.default_rng([args.seed, g]),
                       [np.random.default_rng([args.seed, g, s]) for s in range(4)])
        for seat in range(4):
            mine = mr.record.for_seat(seat)
            t = HandFootBelief(mine.options, seat, mine.header["hand"])
            for i, ev in enumerate(mine.events):
                t.observe(ev)
                if i % args.every != seat % args.every:
                    continue
                c0, w0 = time.process_time(), time.perf_counter()
                handfoot_hint(t)
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
                where.append({"game": g, "seat": seat, "event": i, "cpu": cpu[-1], "wall": wall[-1], "mode": t.mode})
    c, w = np.array(cpu), np.array(wall)
    print(f"{len(c)} positions ({args.games} games x 4 seats, every {args.every}th event)")
    print(f"  processor time: median {np.median(c):.3f} s, p99 {np.percentile(c, 99):.3f} s, max {c.max():.3f} s")
    print(f"  wall time:      median {np.median(w):.3f} s, p99 {np.percentile(w, 99):.3f} s, max {w.max():.3f} s")
    worst = max(where, key=lambda x: x["cpu"])
    print(f"  slowest (processor): game {worst['game']}, seat {worst['seat']}, event {worst['event']} ({worst['mode']})")
    if args.out:
        with open(args.out, "w") as fh:
            for x in where:
                fh.write(json.dumps(x) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
