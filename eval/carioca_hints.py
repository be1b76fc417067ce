"""How long a contract rummy hint takes (``cardmind hint`` at any position): median, p99, max.

    python eval/carioca_hints.py --games 8 --positions 40
    python eval/carioca_hints.py --records eval/out/carioca/records --games 10 --positions 30

Plays seeded four-player games (seven hands; two ``belief`` and two ``peer`` seats), or takes
the first ``games`` complete records of a folder (``--records``: the strength study's), and, at
``positions`` moments of each game chosen at random (from every kind of moment: offers to the
observer, its turns, other seats' decisions), times what ``cardmind hint`` computes: the
observer's tracker replayed from the record (the record is read once) and the advice
(``hint_for``, with the opponents' chances and the card table). Prints the timings in
milliseconds (the process's CPU time, and the wall time with the machine's load average: on
a shared machine the wall time also counts the other processes), and how many were over one
second.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardmind.agents.base import resolve_agent  # noqa: E402
from cardmind.agents.match import play_game  # noqa: E402
from cardmind.belief import tracker_for  # noqa: E402
from cardmind.core import get_game  # noqa: E402
from cardmind.hints import hint_for  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--records", default="")
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    game = get_game("carioca")
    names = ["belief", "peer", "belief", "peer"]
    times, cpu, kinds = [], [], []
    if args.records:
        from cardmind.records import read_record

        recs = [read_record(p) for p in sorted(Path(args.records).glob("*.jsonl"))[:args.games]]
    else:
        recs = [play_game(game, {"players": 4}, [resolve_agent(n, game) for n in names], np.random.default_rng(500 + g),
                          [np.random.default_rng([500 + g, s]) for s in range(4)], max_actions=20000).record
                for g in range(args.games)]
    for g, rec in enumerate(recs):
        rng = np.random.default_rng(g)
        for k in sorted(rng.choice(len(rec.events) + 1, size=min(args.positions, len(rec.events) + 1), replace=False)):
            seat = int(rng.integers(4))
            t0, c0 = time.perf_counter(), time.process_time()
            tr = tracker_for(rec, seat, upto_event=int(k))
            h = hint_for(tr)
            h.to_json()
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            kinds.append(h.phase if h.to_move != seat else f"{h.phase} (yours)")
        print(f"game {g}: {len(times)} positions so far", flush=True)
    def stats(xs):
        ms = sorted(1000 * t for t in xs)
        return {"median_ms": round(statistics.median(ms), 1), "p90_ms": round(ms[int(0.9 * (len(ms) - 1))], 1),
                "p99_ms": round(ms[int(0.99 * (len(ms) - 1))], 1), "max_ms": round(ms[-1], 1),
                "over_1s": sum(t > 1000 for t in ms)}

    import os

    out = {"positions": len(times), "cpu": stats(cpu), "wall": stats(times),
           "load_average": [round(x, 2) for x in os.getloadavg()],
           "cpu_median_ms_by_kind": {k: round(statistics.median(1000 * t for t, kk in zip(cpu, kinds) if kk == k), 1)
                                     for k in sorted(set(kinds))}}
    print(json.dumps(out, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
