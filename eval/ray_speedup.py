"""The speed of the Ray executor against the local one (issue 27, docs/tournament.md).

Plays the same tournament with ``--executor local`` and ``--executor ray`` (a local Ray
instance started for each run) ``--runs`` times each, alternating, and reports the median and
the spread of the play time (``summary["timing"]["play_seconds"]``: the games only, not Ray's
start) and of the whole command's wall time, checks that the summaries are equal apart from
the timings, and measures Ray's overhead per task (a task that does nothing, run many times on
the same instance), which predicts the speed-up on more cores: a game of ``g`` seconds on
``c`` cores takes about ``(g + overhead) / c`` per game.

    python eval/ray_speedup.py --game literature --agents peer,random --games 200 --jobs 2 --runs 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_once(args, executor: str, out: Path) -> tuple[float, float, dict]:
    cmd = [sys.executable, "-m", "cardmind", "tournament", args.game, "--agents", args.agents, "--games",
           str(args.games), "--seed", str(args.seed), "--jobs", str(args.jobs), "--out", str(out), "--quiet",
           "--executor", executor]
    if args.options:
        cmd += ["--options", args.options]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    wall = time.perf_counter() - t0
    summary = json.loads((out / "summary.json").read_text())
    play = summary["timing"]["play_seconds"]
    summary.pop("timing")
    summary.pop("out_dir")
    return play, wall, summary


def task_overhead(jobs: int, tasks: int = 2000) -> float:
    """Seconds per task of Ray's round trip for a task that does nothing (median of 3)."""
    import ray

    ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        noop = ray.remote(lambda: None)
        ray.get([noop.remote() for _ in range(50)])  # start the workers
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            ray.get([noop.remote() for _ in range(tasks)])
            times.append((time.perf_counter() - t0) / tasks)
        return statistics.median(times)
    finally:
        ray.shutdown()


def spread(xs: list[float]) -> str:
    return f"median {statistics.median(xs):.1f} s (min {min(xs):.1f}, max {max(xs):.1f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="literature")
    ap.add_argument("--agents", default="peer,random")
    ap.add_argument("--options", default=None)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    play = {"local": [], "ray": []}
    wall = {"local": [], "ray": []}
    summaries = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.runs):
            for ex in ("local", "ray"):
                p, w, s = run_once(args, ex, Path(tmp) / f"{ex}-{r}")
                play[ex].append(p)
                wall[ex].append(w)
                summaries.setdefault(ex, s)
                assert s == summaries[ex], f"{ex} gave different summaries in two runs"
    same = summaries["local"] == summaries["ray"]
    per_game_local = statistics.median(play["local"]) / args.games
    overhead = task_overhead(args.jobs)
    print(f"{args.game} {args.agents} {args.games} games, --jobs {args.jobs}, {args.runs} runs each")
    for ex in ("local", "ray"):
        print(f"  {ex:5}: play {spread(play[ex])}; whole command {spread(wall[ex])}")
    print(f"  ray / local play time: {statistics.median(play['ray']) / statistics.median(play['local']):.2f}")
    print(f"  summaries equal apart from timing: {same}")
    print(f"  Ray overhead per task: {1000 * overhead:.2f} ms; a game takes {1000 * per_game_local:.0f} ms of "
          f"play per {args.jobs} jobs here ({100 * overhead / (per_game_local * args.jobs):.1f}% overhead)")


if __name__ == "__main__":
    main()
