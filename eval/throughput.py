"""Throughput: Literature games per second on one core.

Measures, for 6 and 8 players (default options), in this one process pinned to one CPU:

* ``random`` v ``random`` through :func:`cardmind.agents.match.play_game` (the general
  agent interface: referee state, one view state and one ``CertainKnowledge`` per seat);
* the same games through the fast engine path
  :func:`cardmind.games.literature.fast.play_random` (the engine alone: event for event the
  same games, see its module);
* ``belief`` v ``belief`` through ``play_game`` (exact belief trackers: far slower, so
  fewer games).

Every repeat plays the same seeded games (deal ``default_rng(seed)``, seat ``s`` plays
with ``default_rng([seed, s])``), so the spread between repeats is timing noise. The rate
is games per CPU-second of this process (``time.process_time``), the honest figure on a
machine shared with other work; games per wall-second is printed alongside. Prints the
median and the spread (min-max) with rich and writes ``docs/throughput.md``.

Run from the repository root::

    python eval/throughput.py                      # the figures in docs/throughput.md
    python eval/throughput.py --quick --no-doc     # a fast look
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardmind.agents.base import resolve_agent  # noqa: E402
from cardmind.agents.match import play_game  # noqa: E402
from cardmind.core import get_game  # noqa: E402

try:  # the fast path (absent before it was written: the script also measures old trees)
    from cardmind.games.literature.fast import play_random
except ImportError:  # pragma: no cover
    play_random = None

GAME = get_game("literature")

#: Figures of the code before the speed-ups (commit 2fadb24, the same machine, this script
#: with ``--json``): games per CPU-second, median (min-max) of 5 repeats.
BASELINE = {
    "note": "before the speed-ups (commit 2fadb24): same script, same machine, same seeds",
    "random/play_game": {6: "10.5 (9.9-11.4)", 8: "6.0 (5.7-6.6)"},
    "belief/play_game": {6: "3.8 (3.4-4.0)", 8: "0.8 (0.7-0.9)"},
}


def _rngs(seed: int, n: int) -> tuple[np.random.Generator, list[np.random.Generator]]:
    return np.random.default_rng(seed), [np.random.default_rng([seed, s]) for s in range(n)]


def _play_agents(agent: str):
    cls = resolve_agent(agent, GAME)

    def play(options: dict, seed: int) -> int:
        n = options["players"]
        deal, plays = _rngs(seed, n)
        res = play_game(GAME, options, [cls] * n, deal, plays)
        if res.forfeit is not None or res.unfinished:
            raise RuntimeError(f"{agent} game {seed}: {res.forfeit_reason or res.unfinished}")
        return len(res.record.events)

    return play


def _play_fast(options: dict, seed: int) -> int:
    deal, plays = _rngs(seed, options["players"])
    g = play_random(options, deal, plays)
    if g.unfinished:
        raise RuntimeError(f"fast game {seed} did not finish")
    return g.num_events


def measure(play, options: dict, games: int, repeats: int, first_seed: int) -> dict:
    """Play ``games`` seeded games ``repeats`` times; return rates and event counts."""
    play(options, first_seed)  # warm up: imports, caches
    cpu_rates, wall_rates = [], []
    events = 0
    for _ in range(repeats):
        events = 0
        c0, w0 = time.process_time(), time.perf_counter()
        for seed in range(first_seed, first_seed + games):
            events += play(options, seed)
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        cpu_rates.append(games / cpu)
        wall_rates.append(games / wall)
    return {"games": games, "repeats": repeats, "events_per_game": events / games,
            "cpu": _summary(cpu_rates), "wall": _summary(wall_rates)}


def _summary(xs: list[float]) -> dict:
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "all": xs}


def _pin_one_cpu(cpu: int | None) -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity on this platform); one process, one thread"
    allowed = sorted(os.sched_getaffinity(0))
    target = allowed[0] if cpu is None else cpu
    os.sched_setaffinity(0, {target})
    return f"pinned to CPU {target} (of {len(allowed)} allowed; os.cpu_count() = {os.cpu_count()})"


def _git() -> str:
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "cardmind"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
        return rev + (" (with uncommitted changes under cardmind/)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _fmt(s: dict) -> str:
    return f"{s['median']:.1f} ({s['min']:.1f}-{s['max']:.1f})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, nargs="+", default=[6, 8], choices=[6, 8])
    ap.add_argument("--repeats", type=int, default=5, help="timed repeats of each batch (default 5)")
    ap.add_argument("--random-games", type=int, default=50, help="random games per repeat via play_game")
    ap.add_argument("--fast-games", type=int, default=300, help="games per repeat via the fast path")
    ap.add_argument("--belief-games", type=int, nargs=2, default=[8, 3], metavar=("SIX", "EIGHT"),
                    help="belief games per repeat for 6 and for 8 players (default 8 3)")
    ap.add_argument("--seed", type=int, default=1000, help="first seed (default 1000)")
    ap.add_argument("--cpu", type=int, default=None, help="CPU to pin to (default: the first allowed)")
    ap.add_argument("--quick", action="store_true", help="few games and repeats (a fast look)")
    ap.add_argument("--no-belief", action="store_true", help="skip belief v belief")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures as JSON here")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "throughput.md")
    ap.add_argument("--no-doc", action="store_true", help="do not write --out")
    args = ap.parse_args(argv)
    if args.quick:
        args.repeats, args.random_games, args.fast_games, args.belief_games = 3, 10, 60, [2, 1]

    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(120, Console().width))
    pinned = _pin_one_cpu(args.cpu)
    load0 = os.getloadavg() if hasattr(os, "getloadavg") else None
    env = {
        "command": "python " + " ".join([Path(sys.argv[0]).as_posix()] + (argv if argv is not None else sys.argv[1:])),
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "commit": _git(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "machine": f"{platform.machine()}, {platform.processor() or 'unknown CPU'}",
        "cpus": os.cpu_count(),
        "pinned": pinned,
        "load_before": load0,
    }
    console.print(f"[bold]cardmind throughput[/bold]: one process, {pinned}")
    if load0 is not None:
        console.print(f"load average before: {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f} "
                      f"(other work shares this machine's {os.cpu_count()} CPUs)")

    modes = [("random v random", "play_game", _play_agents("random"), args.random_games)]
    if play_random is not None:
        modes.append(("random v random", "fast path", _play_fast, args.fast_games))
    if not args.no_belief:
        belief = _play_agents("belief")
        modes.append(("belief v belief", "play_game", belief, None))
    results = []
    for n in args.players:
        options = GAME.parse_options({"players": n})
        for who, path, play, games in modes:
            if games is None:
                games = args.belief_games[0 if n == 6 else 1]
            console.print(f"  {who:16} {path:10} {n} players: {games} games x {args.repeats} ...")
            r = measure(play, options, games, args.repeats, args.seed)
            r.update({"players": n, "who": who, "path": path})
            results.append(r)
    load1 = os.getloadavg() if hasattr(os, "getloadavg") else None
    env["load_after"] = load1

    table = Table(title="Literature games per second on one core (median, min-max over repeats)")
    for col in ("players", "players' agents", "path", "games x repeats", "events/game",
                "games / CPU-s", "games / wall-s"):
        table.add_column(col, justify="right" if col not in ("players' agents", "path") else "left")
    for r in results:
        table.add_row(str(r["players"]), r["who"], r["path"], f"{r['games']} x {r['repeats']}",
                      f"{r['events_per_game']:.0f}", _fmt(r["cpu"]), _fmt(r["wall"]))
    console.print(table)
    if load1 is not None:
        console.print(f"load average after: {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")

    if args.json is not None:
        args.json.write_text(json.dumps({"env": env, "results": results}, indent=1))
    if not args.no_doc:
        args.out.write_text(_doc(env, results))
        console.print(f"wrote {args.out}")
    return 0


def _doc(env: dict, results: list[dict]) -> str:
    lines = [
        "# Throughput",
        "",
        "Literature games per second on **one core**: one process pinned to one CPU, default",
        "options (`deck` 54, asks only for cards not held, claims on turn, the awarded team picks",
        "who plays next). Written by `eval/throughput.py`:",
        "",
        "```sh",
        env["command"],
        "```",
        "",
        "| players | agents | path | games x repeats | events/game | games per CPU-second | games per wall-second |",
        "|---:|---|---|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(f"| {r['players']} | {r['who']} | {r['path']} | {r['games']} x {r['repeats']} | "
                     f"{r['events_per_game']:.0f} | {_fmt(r['cpu'])} | {_fmt(r['wall'])} |")
    lb, la = env.get("load_before"), env.get("load_after")
    load = "" if lb is None else (f" Load average (1, 5, 15 min) {lb[0]:.2f} {lb[1]:.2f} {lb[2]:.2f} before, "
                                 f"{la[0]:.2f} {la[1]:.2f} {la[2]:.2f} after.")
    lines += [
        "",
        "Figures: median (min-max) over the repeats; every repeat plays the same seeded games",
        "(deal `default_rng(seed)`, seat `s` with `default_rng([seed, s])`), so the spread is",
        "timing noise. **Games per CPU-second** (`time.process_time` of the process) is the",
        "figure to compare: this machine is shared with other workers, which the wall-clock",
        "rate also counts.",
        "",
        f"Measured {env['date']} at commit {env['commit']}; Python {env['python']}, numpy {env['numpy']},"
        f" {env['machine']}, {env['cpus']} CPUs, {env['pinned']}.{load}",
        "",
        "## What is measured",
        "",
        "* **random v random, play_game**: `cardmind.agents.match.play_game` with six or eight",
        "  `random` agents: the general agent interface, as tournaments run it. A referee",
        "  `LiteratureState` checks and applies each action; every agent keeps its own view",
        "  state (which checks every event again) and its own `CertainKnowledge` (a random",
        "  player claims only the sets whose six locations it knows for certain).",
        "* **random v random, fast path** (the engine alone):",
        "  `cardmind.games.literature.fast.play_random`, one complete-information loop that",
        "  plays *the same games*, event for event, from the same seeds",
        "  (`tests/test_fast_literature.py` checks it against `play_game`): bitmask hands, no",
        "  re-checking of actions known to be legal, every seat's certain knowledge kept at once",
        "  in the lanes of wide integers (`fast_certain.LaneKnowledge`, checked against",
        "  `CertainKnowledge` after every event), numpy's `integers` reproduced from the raw",
        "  generator output.",
        "* **belief v belief, play_game**: the `belief` player (exact belief tracker, exact",
        "  probabilities for every ask and claim); its games are shorter but each decision counts",
        "  deals exactly, so it is timed on fewer games.",
        "",
        "## Before the speed-ups",
        "",
        BASELINE["note"] + ", games per CPU-second:",
        "",
        "| players | agents | path | games per CPU-second |",
        "|---:|---|---|---:|",
    ]
    for key in ("random/play_game", "belief/play_game"):
        who = key.split("/")[0] + " v " + key.split("/")[0]
        for n, fig in BASELINE[key].items():
            lines.append(f"| {n} | {who} | play_game | {fig if fig is not None else 'not measured'} |")
    lines += [
        "",
        "What changed (behaviour is unchanged: `tests/test_throughput_regression.py` replays 48",
        "seeded games recorded before the changes and checks them bit for bit):",
        "",
        "* `CertainKnowledge` (`cardmind/games/literature/certain.py`): bitmasks (seats per card, cards",
        "  per seat) and incremental propagation: an event re-examines only the seats whose",
        "  facts it changed, a seat's clauses only when one names a changed card, and an ask",
        "  adds no clause that one of the seat's clauses already implies (long games of random",
        "  players piled up hundreds of copies). Same facts after every event as the original",
        "  (`tests/test_throughput_certain.py` keeps the original as the oracle).",
        "* `LiteratureState`: deck look-up tables instead of repeated set searches, cheaper",
        "  checks in `_check_ask` (same rules, same order, same messages), `ask_choices`.",
        "* `RandomAgent`: reads its certain sets off the bitmasks and picks its ask by index in",
        "  the (card, target) product without building every `Ask` (same draws, same choice).",
        "* `play_game`: binds the per-event calls once.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
