"""Benchmark of the exact Literature belief tracker (and of CP-SAT enumeration on the same
positions).

    python eval/bench_belief.py [--seed 1] [--positions 600] [--out eval/out] [--runs 3]
                                [--cpsat-time 2.0] [--cpsat-limit 100000] [--no-cpsat]

Positions come from simulated 6- and 8-player games (several option combinations, the
``random`` player and the stronger players registered for Literature), at every stage:
right after the deal, the first events, and evenly through the game up to the last claim.
At each position a fresh :class:`~cardmind.games.literature.belief.LiteratureBelief` is built
from the options, the observer's hand and the events (not timed), then the timed part is
``to_json()``: the exact count, every card marginal and every claim probability together.

Timing passes: pass 1 starts with the process-level caches of the tracker cleared (cold);
later passes reuse them (warm). Each pass builds every tracker afresh. Then, unless
``--no-cpsat``, CP-SAT enumerates the consistent deals of every position with a time limit
and a solution limit; a position "finishes" when the enumeration is complete (its count
must then equal the exact count).

Writes ``<out>/bench-s<seed>-p<positions>.json`` (raw timings per position) and ``.md``
(summary), and prints the tables with rich. The figures in ``docs/benchmark.md`` come
from this script.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from cardmind.agents.base import agent_names, resolve_agent
from cardmind.agents.match import play_game
from cardmind.belief import blocks
from cardmind.games.literature import belief as belief_mod
from cardmind.games.literature.belief import LiteratureBelief
from cardmind.core import get_game

GAME = get_game("literature")

#: option combinations of the simulated games (6 and 8 players, both decks, every option)
COMBOS = [
    {"players": 6},
    {"players": 8},
    {"players": 6, "claim_any_time": True, "ask_own_card": True},
    {"players": 8, "deck": "48", "claim_any_time": True, "ask_own_card": True},
    {"players": 6, "deck": "48", "wrong_claim": "cancel", "after_claim": "claimant"},
    {"players": 8, "ask_own_card": True, "after_claim": "claimant"},
]
#: players whose games are too slow to simulate in bulk with 8 seats (seconds per game)
SLOW_AT_8 = {"belief"}
STAGES = ("deal", "first events", "early", "middle", "late")
TARGETS = {"median_ms": 5.0, "p99_ms": 50.0, "max_ms": 1000.0}


def stage_of(k: int, E: int) -> str:
    if k == 0:
        return "deal"
    if k <= 5:
        return "first events"
    f = k / max(E, 1)
    return "early" if f < 1 / 3 else "middle" if f < 2 / 3 else "late"


def pct(xs: list[float], q: float) -> float:
    return float(np.percentile(xs, q)) if xs else float("nan")


def clear_caches() -> list[str]:
    """Clear the tracker's process-level caches (lru_cache'd helpers); return their names."""
    names = []
    for mod in (belief_mod, blocks):
        for name, obj in vars(mod).items():
            if callable(getattr(obj, "cache_clear", None)) and getattr(obj, "__module__", "") == mod.__name__:
                obj.cache_clear()
                names.append(f"{mod.__name__}.{name}")
    return names


# ----------------------------------------------------------------------------- positions
def simulate_games(seed: int, want_positions: int, per_game: int, max_actions: int, rng: np.random.Generator):
    """Play seeded games until they give ``want_positions`` positions; return
    ``(games, positions)`` with ``games`` a list of ``(info, record)``."""
    lit_agents = agent_names("literature")
    agents = [a for a in ("random", "peer", "belief") if a in lit_agents] or ["random"]
    games, positions = [], []
    i = 0
    while len(positions) < want_positions:
        combo = i % len(COMBOS)
        opts = COMBOS[combo]
        n = opts["players"]
        usable = [a for a in agents if not (n == 8 and a in SLOW_AT_8)]
        agent = usable[(i // len(COMBOS)) % len(usable)]
        gseed = seed * 1000 + i
        cls = resolve_agent(agent, GAME)
        res = play_game(GAME, opts, [cls] * n, np.random.default_rng(gseed),
                        [np.random.default_rng([gseed, s]) for s in range(n)], max_actions=max_actions)
        info = {"game": i, "combo": combo, "options": opts, "agent": agent, "seed": gseed,
                "events": len(res.record.events), "finished": not res.unfinished}
        games.append((info, res.record))
        positions += positions_of(info, res.record, per_game, rng)
        i += 1
    return games, positions


def positions_of(info: dict, rec, per_game: int, rng: np.random.Generator) -> list[dict]:
    """The deal, the first events (k = 1, 2, 3) and evenly spaced later moments, up to the
    position before the last claim; observers rotate through the seats."""
    n = rec.options["players"]
    E = len(rec.events)
    last = E - 1 if info["finished"] else E  # before the final claim (after it the game is over)
    ks = [0, 1, 2, 3]
    rest = per_game - len(ks)
    ks += [int(round(4 + (last - 4) * j / max(rest - 1, 1))) for j in range(rest)]
    ks = sorted({min(max(k, 0), last) for k in ks})
    first_seat = int(rng.integers(n))
    return [{"game": info["game"], "k": k, "seat": (first_seat + j) % n, "stage": stage_of(k, E)}
            for j, k in enumerate(ks)]


def build(rec, pos) -> LiteratureBelief:
    b = LiteratureBelief(rec.options, pos["seat"], rec.header["hands"][pos["seat"]], model="uniform")
    for ev in rec.events[:pos["k"]]:
        b.observe(ev)
    return b


# ----------------------------------------------------------------------------- measuring
def timing_pass(recs, positions, clock=time.perf_counter) -> list[float]:
    """Seconds of ``to_json()`` per position, by ``clock`` (wall time, or this thread's CPU
    time with ``--clock cpu``: less disturbed by other work on a shared machine)."""
    out = []
    for pos in positions:
        b = build(recs[pos["game"]], pos)  # not timed: the record replay
        t0 = clock()
        obj = b.to_json()
        out.append(clock() - t0)
        pos.setdefault("count", obj["consistent_deals"])
        pos.setdefault("unknown", len(b.unknown_cards()))
    return out


def cpsat_pass(recs, positions, time_limit: float, limit: int, console: Console) -> None:
    from cardmind.belief.cpsat import TooManySolutions

    for j, pos in enumerate(positions):
        b = build(recs[pos["game"]], pos)
        model = b.cpsat_model()
        t0 = time.perf_counter()
        try:
            sols = model.enumerate(limit=limit, time_limit=time_limit)
            status = "finished"
        except TooManySolutions as exc:
            sols = None
            status = "solution limit" if "more than" in str(exc) else "time limit"
        pos["cpsat_s"] = time.perf_counter() - t0
        pos["cpsat_status"] = status
        if sols is not None:
            pos["cpsat_count"] = len(sols)
            if len(sols) != pos["count"]:
                console.print(f"[red]count mismatch at {pos}: CP-SAT {len(sols)}[/red]")
        if (j + 1) % 100 == 0:
            console.print(f"  CP-SAT: {j + 1}/{len(positions)} positions")


def summarize(times_ms: list[float]) -> dict:
    return {"n": len(times_ms), "median_ms": statistics.median(times_ms), "p90_ms": pct(times_ms, 90),
            "p99_ms": pct(times_ms, 99), "max_ms": max(times_ms), "mean_ms": statistics.fmean(times_ms)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1, help="seed of the simulated games (default 1)")
    ap.add_argument("--positions", type=int, default=600, help="number of positions (default 600)")
    ap.add_argument("--per-game", type=int, default=24, help="positions per game (default 24)")
    ap.add_argument("--max-actions", type=int, default=600,
                    help="stop a simulated game after this many actions (random players under ask_own_card "
                         "can ask for ever; default 600)")
    ap.add_argument("--runs", type=int, default=3, help="timing passes (1 cold + warm ones; default 3)")
    ap.add_argument("--cpsat-time", type=float, default=2.0, help="CP-SAT time limit per position, s (default 2)")
    ap.add_argument("--cpsat-limit", type=int, default=100_000, help="CP-SAT solution limit (default 100000)")
    ap.add_argument("--no-cpsat", action="store_true", help="skip the CP-SAT comparison")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "out"), help="output folder")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="time the tracker by wall time (default) or by this thread's CPU time "
                         "(time.thread_time: not inflated when other processes share the cores)")
    args = ap.parse_args(argv)
    clock = time.perf_counter if args.clock == "wall" else time.thread_time
    console = Console(width=150)

    t0 = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    games, positions = simulate_games(args.seed, args.positions, args.per_game, args.max_actions, rng)
    stride = len(positions) / args.positions
    keep = sorted({int(j * stride) for j in range(args.positions)})
    # never drop the deal or the first events of an 8-player game
    keep = sorted(set(keep) | {j for j, p in enumerate(positions)
                               if p["k"] <= 3 and games[p["game"]][0]["options"]["players"] == 8})
    positions = [positions[j] for j in keep]
    recs = {info["game"]: rec for info, rec in games}
    console.print(f"{len(games)} games simulated, {len(positions)} positions "
                  f"({time.perf_counter() - t0:.1f} s); agents: {sorted({g[0]['agent'] for g in games})}")

    passes = []
    cleared = clear_caches()
    for r in range(args.runs):
        ts = timing_pass(recs, positions, clock)
        passes.append({"caches": "cold" if r == 0 else "warm", "times_s": ts})
        s = summarize([1000 * t for t in ts])
        console.print(f"pass {r + 1} ({passes[-1]['caches']}): median {s['median_ms']:.2f} ms, "
                      f"p99 {s['p99_ms']:.1f} ms, max {s['max_ms']:.1f} ms")
    for j, pos in enumerate(positions):
        pos["times_ms"] = [1000 * p["times_s"][j] for p in passes]
        warm = pos["times_ms"][1:] or pos["times_ms"]
        pos["warm_ms"] = statistics.median(warm)
        pos["players"] = games[pos["game"]][0]["options"]["players"]
        pos["combo"] = games[pos["game"]][0]["combo"]
        pos["agent"] = games[pos["game"]][0]["agent"]

    if not args.no_cpsat:
        console.print(f"CP-SAT enumeration, {args.cpsat_time} s and {args.cpsat_limit} solutions per position ...")
        cpsat_pass(recs, positions, args.cpsat_time, args.cpsat_limit, console)

    # ------------------------------------------------------------------ tables
    table = Table(title=f"Exact tracker: to_json() per position (ms), seed {args.seed}")
    for col in ("players", "stage", "n", "median", "p90", "p99", "max", "cold median", "cold max"):
        table.add_column(col, justify="right" if col not in ("stage",) else "left")
    rows = []
    for players in (6, 8, None):
        for stage in STAGES + (None,):
            sel = [p for p in positions if (players is None or p["players"] == players)
                   and (stage is None or p["stage"] == stage)]
            if not sel:
                continue
            w = summarize([p["warm_ms"] for p in sel])
            c = summarize([p["times_ms"][0] for p in sel])
            rows.append({"players": players or "all", "stage": stage or "all", **w,
                         "cold_median_ms": c["median_ms"], "cold_max_ms": c["max_ms"]})
            table.add_row(str(players or "all"), stage or "all", str(w["n"]), f"{w['median_ms']:.2f}",
                          f"{w['p90_ms']:.1f}", f"{w['p99_ms']:.1f}", f"{w['max_ms']:.1f}",
                          f"{c['median_ms']:.2f}", f"{c['max_ms']:.1f}")
    console.print(table)

    per_pass = [summarize([1000 * t for t in p["times_s"]]) for p in passes]
    overall = summarize([p["warm_ms"] for p in positions])
    verdict = {k: overall[k] <= v for k, v in TARGETS.items()}
    cold_max = max(p["times_ms"][0] for p in positions)
    verdict["cold max_ms"] = cold_max <= TARGETS["max_ms"]

    cp = None
    if not args.no_cpsat:
        fin = [p for p in positions if p.get("cpsat_status") == "finished"]
        ct = Table(title=f"CP-SAT enumeration ({args.cpsat_time} s, {args.cpsat_limit} solutions) vs exact tracker")
        for col in ("stage", "positions", "finished", "CP-SAT median (finished)", "tracker median (same)",
                    "ratio median", "ratio max", "counts agree"):
            ct.add_column(col, justify="right" if col != "stage" else "left")
        cp = {"finished": len(fin), "positions": len(positions), "by_stage": {}}
        for stage in STAGES + (None,):
            sel = [p for p in positions if stage is None or p["stage"] == stage]
            f = [p for p in sel if p.get("cpsat_status") == "finished"]
            ratios = [1000 * p["cpsat_s"] / p["warm_ms"] for p in f]
            agree = all(p["cpsat_count"] == p["count"] for p in f)
            entry = {"positions": len(sel), "finished": len(f),
                     "cpsat_median_ms": 1000 * statistics.median([p["cpsat_s"] for p in f]) if f else None,
                     "tracker_median_ms": statistics.median([p["warm_ms"] for p in f]) if f else None,
                     "ratio_median": statistics.median(ratios) if f else None,
                     "ratio_max": max(ratios) if f else None, "counts_agree": agree,
                     "max_count_finished": max((p["count"] for p in f), default=None)}
            cp["by_stage"][stage or "all"] = entry
            ct.add_row(stage or "all", str(len(sel)), str(len(f)),
                       f"{entry['cpsat_median_ms']:.1f} ms" if f else "-",
                       f"{entry['tracker_median_ms']:.2f} ms" if f else "-",
                       f"{entry['ratio_median']:.0f}x" if f else "-", f"{entry['ratio_max']:.0f}x" if f else "-",
                       ("yes" if agree else "NO") if f else "-")
        console.print(ct)
        statuses = {}
        for p in positions:
            statuses[p["cpsat_status"]] = statuses.get(p["cpsat_status"], 0) + 1
        cp["statuses"] = statuses
        console.print(f"CP-SAT: {statuses}")

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"bench-s{args.seed}-p{args.positions}"
    meta = {"command": " ".join([Path(sys.argv[0]).name] + (argv if argv is not None else sys.argv[1:])),
            "seed": args.seed, "clock": args.clock, "python": platform.python_version(), "machine": platform.machine(),
            "cpus": os.cpu_count(), "load_avg": os.getloadavg() if hasattr(os, "getloadavg") else None,
            "engine": "c" if blocks.fast_path_available() else "python", "caches_cleared": cleared,
            "games": [g[0] for g in games], "targets": TARGETS, "verdict": verdict,
            "per_pass": [{"caches": p["caches"], **s} for p, s in zip(passes, per_pass)],
            "overall_warm": overall, "rows": rows, "cpsat": cp}
    stem.with_suffix(".json").write_text(json.dumps({"meta": meta, "positions": positions}, indent=1, default=str))

    md = [f"# Belief benchmark, seed {args.seed}, {len(positions)} positions", "",
          f"`{meta['command']}`; Python {meta['python']}, {meta['cpus']} CPUs, load average "
          f"{', '.join(f'{x:.1f}' for x in meta['load_avg'] or [])}; counting engine: {meta['engine']}.", "",
          "| pass | caches | median ms | p99 ms | max ms |", "| --- | --- | ---: | ---: | ---: |"]
    for i, (p, s) in enumerate(zip(passes, per_pass), 1):
        md.append(f"| {i} | {p['caches']} | {s['median_ms']:.2f} | {s['p99_ms']:.1f} | {s['max_ms']:.1f} |")
    md += ["", "| players | stage | n | median | p90 | p99 | max | cold median | cold max |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        md.append(f"| {r['players']} | {r['stage']} | {r['n']} | {r['median_ms']:.2f} | {r['p90_ms']:.1f} | "
                  f"{r['p99_ms']:.1f} | {r['max_ms']:.1f} | {r['cold_median_ms']:.2f} | {r['cold_max_ms']:.1f} |")
    md += ["", "Targets: " + ", ".join(f"{k} {'met' if v else 'NOT met'}" for k, v in verdict.items())]
    if cp:
        md += ["", "| stage | positions | CP-SAT finished | CP-SAT median | tracker median | ratio median | ratio max |",
               "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for stage, e in cp["by_stage"].items():
            if e["finished"]:
                md.append(f"| {stage} | {e['positions']} | {e['finished']} | {e['cpsat_median_ms']:.1f} ms | "
                          f"{e['tracker_median_ms']:.2f} ms | {e['ratio_median']:.0f}x | {e['ratio_max']:.0f}x |")
            else:
                md.append(f"| {stage} | {e['positions']} | 0 | - | - | - | - |")
        md.append(f"\nCP-SAT outcomes: {cp['statuses']}; counts agree where finished: "
                  f"{cp['by_stage']['all']['counts_agree']}.")
    stem.with_suffix(".md").write_text("\n".join(md) + "\n")
    console.print(f"wrote {stem.with_suffix('.json')} and {stem.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
