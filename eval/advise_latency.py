"""How long the live advisor (``cardmind advise``) takes to show its advice after an event.

    python eval/advise_latency.py                       # every example game, every seat
    python eval/advise_latency.py --record examples/gofish-4p-complete.jsonl --seats 1 --runs 3
    python eval/advise_latency.py --record examples/gofish-2p-complete.jsonl   # Go Fish, two players

For every complete example record (``examples/*-complete.jsonl``, among them the two-player
Go Fish game ``examples/gofish-2p-complete.jsonl`` where the player models weigh every deal
exactly, or the ``--record`` files),
seen from each seat, the benchmark replays the game one event at a time as the advisor does
and times, after every event, what the advisor does before the player sees its advice: the
belief tracker takes in the event (``observe``), the advice is computed (the game's hint) and
its live text is rendered (``Advice.render_live``, into memory). Reported per game: the
positions, the median, the 95th percentile and the maximum of the processor time and of the
wall time (the machine is shared: the wall time includes waiting), over ``--runs`` runs (the
median of the runs' figures and their range). The target of issue 23: 0.3 s at the 95th
percentile on a 2-core machine.
"""

from __future__ import annotations

import argparse
import glob
import io
import json
import sys
import time
from pathlib import Path

import numpy as np
from rich.console import Console

from cardmind.belief import tracker_for
from cardmind.hints import hint_for
from cardmind.records import Record, read_record

ROOT = Path(__file__).resolve().parent.parent


def time_seat(rec: Record, seat: int, every: int = 1) -> tuple[list[float], list[float], list[int]]:
    """Processor and wall seconds after each event of ``rec`` seen from ``seat`` (every
    ``every``-th event timed; the others are only taken in), and the events' indices."""
    view = rec.for_seat(seat) if rec.is_complete else rec
    empty = Record(view.game, dict(view.options), dict(view.header), [], view.path, [])
    tracker = tracker_for(empty, seat)
    console = Console(file=io.StringIO(), width=100, force_terminal=False)
    cpu, wall, where = [], [], []
    for i, ev in enumerate(view.events):
        timed = i % every == 0
        c0, w0 = time.process_time(), time.perf_counter()
        tracker.observe(ev)
        if timed:
            advice = hint_for(tracker)
            try:
                advice.render_live(console)
            except (NotImplementedError, AttributeError):   # advice with no live text yet: its JSON
                json.dumps(advice.to_json(), default=str)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
            where.append(i)
    return cpu, wall, where


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--record", action="append", default=None,
                    help="a complete record (repeatable; default: examples/*-complete.jsonl)")
    ap.add_argument("--seats", default=None, help="seats to take, comma-separated (default: every seat)")
    ap.add_argument("--every", type=int, default=1, help="time every K-th event (default 1: all)")
    ap.add_argument("--runs", type=int, default=1, help="repeat the whole measure this many times")
    ap.add_argument("--json", default=None, help="write the figures (JSON) here")
    args = ap.parse_args(argv)
    files = args.record or sorted(glob.glob(str(ROOT / "examples" / "*-complete.jsonl")))
    report = {}
    for path in files:
        rec = read_record(path)
        n = rec.game.num_seats(rec.options)
        seats = [int(s) for s in args.seats.split(",")] if args.seats else list(range(n))
        runs = []
        slowest = None
        for _ in range(args.runs):
            cpu: list[float] = []
            wall: list[float] = []
            for seat in seats:
                c, w, where = time_seat(rec, seat, args.every)
                cpu += c
                wall += w
                k = int(np.argmax(w)) if w else None
                if k is not None and (slowest is None or w[k] > slowest[0]):
                    slowest = (w[k], seat, where[k])
            c, w = np.array(cpu), np.array(wall)
            runs.append({"positions": len(c), "cpu_median": float(np.median(c)), "cpu_p95": float(np.percentile(c, 95)),
                         "cpu_max": float(c.max()), "wall_median": float(np.median(w)),
                         "wall_p95": float(np.percentile(w, 95)), "wall_max": float(w.max())})
        name = Path(path).name
        med = {k: float(np.median([r[k] for r in runs])) for k in runs[0] if k != "positions"}
        spread = {k: (min(r[k] for r in runs), max(r[k] for r in runs)) for k in med}
        report[name] = {"game": rec.game.name, "positions": runs[0]["positions"], "runs": runs, "median": med,
                        "slowest": {"wall": slowest[0], "seat": slowest[1], "event": slowest[2] + 1}}
        print(f"{name} ({rec.game.name}): {runs[0]['positions']} positions x {args.runs} run(s), seats "
              f"{','.join(map(str, seats))}")
        for what in ("cpu", "wall"):
            cells = []
            for stat in ("median", "p95", "max"):
                k = f"{what}_{stat}"
                lo, hi = spread[k]
                rng = f" [{lo:.3f}-{hi:.3f}]" if args.runs > 1 else ""
                cells.append(f"{stat} {med[k]:.3f} s{rng}")
            print(f"  {'processor' if what == 'cpu' else 'wall':9}: " + ", ".join(cells))
        print(f"  slowest: seat {slowest[1]}, event {slowest[2] + 1} ({slowest[0]:.3f} s wall)")
        sys.stdout.flush()
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
