"""Hand and Foot study: a ``belief`` partnership against a ``peer`` partnership on duplicate deals.

    python eval/handfoot_study.py --deals 100 --out /tmp/hf-study            # 200 games, 4 players
    python eval/handfoot_study.py --deals 100 --ablate out,answer,pile,safe,foot,open --out DIR
    python eval/handfoot_study.py --deals 50 --options '{"players": 3, "cutthroat": true}' --out DIR
    python eval/handfoot_study.py --deals 50 --options '{"players": 6}' --out DIR

Every deal (all four hands, seeded from ``--seed`` and the deal's number) is played twice, once
with ``belief`` in the even seats and once with it in the odd seats (with three cut-throat
players: the three rotations of ``belief, peer, peer``... see ``seatings``). The numbers:

* win rate of ``belief`` (a game won by its team = 1, a shared first place = 1/2) with its 95%
  Wilson interval; its points per hand and the opponents';
* per ablation (``belief`` with one feature switched off, same deals, same seats): the paired
  difference in win rate and in points margin per game, full minus ablated, with a 95% interval
  (normal, over deals);
* time per move of each agent: per game its thinking time over its actions (wall time, as the
  game loop measures it, and processor time); the median and the spread (quartiles, 90th
  percentile, maximum) over games.

Results go to ``--out`` (``games.jsonl``: one line per game; ``summary.json``) and a table to
stdout. Everything is seeded: the same command gives the same games.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from cardmind.agents import resolve_agent
from cardmind.agents.match import play_game
from cardmind.core import get_game

GAME = get_game("handfoot")
FEATURES = ("out", "answer", "pile", "safe", "foot", "open")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (centre - half, centre + half)


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal interval."""
    v = np.asarray(values, dtype=float)
    if len(v) < 2:
        return (float(v.mean()) if len(v) else 0.0, float("nan"), float("nan"))
    m, se = float(v.mean()), float(v.std(ddof=1) / math.sqrt(len(v)))
    return (m, m - 1.96 * se, m + 1.96 * se)


def seatings(n: int, teams: list[int]) -> list[list[str]]:
    """The seat assignments of one deal: ``belief`` on each team once, ``peer`` elsewhere."""
    k = max(teams) + 1
    return [["B" if teams[s] == t else "P" for s in range(n)] for t in range(k)]


def play_one(task: tuple) -> dict:
    """Play one game: ``(deal, seating, options, belief settings, label, seed)``."""
    deal, seating, options, settings, label, seed = task
    opts = GAME.parse_options(options)
    n = opts["players"]
    belief = resolve_agent("belief", GAME)
    peer = resolve_agent("peer", GAME)
    factories = []
    cpu = [0.0] * n

    def timed(cls, **kw):
        """The agent class with its ``act`` timed in processor time (the wall time the game loop
        measures includes waiting for the processor on a shared machine)."""
        def make(g, seat, o, h):
            agent = cls(g, seat, o, h, **kw)
            act = agent.act

            def act_timed(rng):
                c0 = time.process_time()
                try:
                    return act(rng)
                finally:
                    cpu[seat] += time.process_time() - c0
            agent.act = act_timed
            return agent
        return make

    for s in range(n):
        factories.append(timed(belief, settings=settings) if seating[s] == "B" else timed(peer))
    t0 = time.perf_counter()
    mr = play_game(GAME, options, factories, np.random.default_rng([seed, 0, deal]),
                   [np.random.default_rng([seed, 1, deal, s]) for s in range(n)], max_actions=50_000)
    wall = time.perf_counter() - t0
    if mr.result is None:
        raise RuntimeError(f"deal {deal}: {mr.forfeit_reason or mr.unfinished}")
    teams = mr.result.detail["teams"]
    totals = mr.result.detail["totals"]
    btm = sorted({teams[s] for s in range(n) if seating[s] == "B"})
    ptm = sorted({teams[s] for s in range(n) if seating[s] == "P"})
    bseat = [s for s in range(n) if seating[s] == "B"]
    pseat = [s for s in range(n) if seating[s] == "P"]
    outcome = mr.result.outcome
    hands = mr.result.detail["hands"]
    return {
        "label": label, "deal": deal, "seating": "".join(seating), "totals": totals, "hands": hands,
        "belief_outcome": float(np.mean([outcome[s] for s in bseat])),
        "belief_points": float(np.mean([totals[t] for t in btm])),
        "peer_points": float(np.mean([totals[t] for t in ptm])),
        "belief_move_s": sum(mr.think_time[s] for s in bseat) / max(1, sum(mr.actions[s] for s in bseat)),
        "peer_move_s": sum(mr.think_time[s] for s in pseat) / max(1, sum(mr.actions[s] for s in pseat)),
        "belief_move_cpu_s": sum(cpu[s] for s in bseat) / max(1, sum(mr.actions[s] for s in bseat)),
        "peer_move_cpu_s": sum(cpu[s] for s in pseat) / max(1, sum(mr.actions[s] for s in pseat)),
        "actions": sum(mr.actions), "wall": wall,
        "ends": [e["reason"] for e in mr.record.events if e["type"] == "hand_end"],
    }


def summarise(games: list[dict], n_hands: int) -> dict:
    """The numbers of one configuration (see the module docstring)."""
    wins = sum(g["belief_outcome"] for g in games)
    lo, hi = wilson(wins, len(games))
    q = lambda v, p: float(np.percentile(v, p))  # noqa: E731
    bm = [g["belief_move_s"] * 1000 for g in games]
    pm = [g["peer_move_s"] * 1000 for g in games]
    bc = [g.get("belief_move_cpu_s", float("nan")) * 1000 for g in games]
    pc = [g.get("peer_move_cpu_s", float("nan")) * 1000 for g in games]
    return {
        "games": len(games), "win_rate": wins / len(games), "wilson95": [lo, hi],
        "belief_points_per_hand": float(np.mean([g["belief_points"] for g in games])) / n_hands,
        "peer_points_per_hand": float(np.mean([g["peer_points"] for g in games])) / n_hands,
        "margin_per_game": mean_ci([g["belief_points"] - g["peer_points"] for g in games]),
        "belief_ms_per_move": {"median": q(bm, 50), "q1": q(bm, 25), "q3": q(bm, 75), "p90": q(bm, 90), "max": max(bm)},
        "peer_ms_per_move": {"median": q(pm, 50), "q1": q(pm, 25), "q3": q(pm, 75), "p90": q(pm, 90), "max": max(pm)},
        "belief_cpu_ms_per_move": {"median": q(bc, 50), "q1": q(bc, 25), "q3": q(bc, 75), "p90": q(bc, 90),
                                   "max": max(bc)},
        "peer_cpu_ms_per_move": {"median": q(pc, 50), "q1": q(pc, 25), "q3": q(pc, 75), "p90": q(pc, 90),
                                 "max": max(pc)},
        "hand_ends": {r: sum(g["ends"].count(r) for g in games) for r in ("out", "stock")},
    }


def paired(full: list[dict], abl: list[dict]) -> dict:
    """Full minus ablated, paired by (deal, seating): win rate and points margin."""
    key = {(g["deal"], g["seating"]): g for g in abl}
    dw, dm = [], []
    for g in full:
        a = key.get((g["deal"], g["seating"]))
        if a is None:
            continue
        dw.append(g["belief_outcome"] - a["belief_outcome"])
        dm.append((g["belief_points"] - g["peer_points"]) - (a["belief_points"] - a["peer_points"]))
    return {"pairs": len(dw), "win_rate_diff": mean_ci(dw), "margin_diff": mean_ci(dm),
            "ablated_win_rate": float(np.mean([a["belief_outcome"] for a in abl])) if abl else None}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=100, help="duplicate deals (games = deals x teams)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--options", default="{}", help="game options as JSON")
    ap.add_argument("--ablate", default="", help="features to switch off one at a time: " + ",".join(FEATURES))
    ap.add_argument("--settings", default="{}", help="settings of the full belief player (JSON)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    options = json.loads(args.options)
    opts = GAME.parse_options(options)
    n, teams = opts["players"], GAME.teams(opts)
    base = json.loads(args.settings)
    configs = [("full", base)]
    for f in [x for x in args.ablate.split(",") if x]:
        if f not in FEATURES:
            ap.error(f"unknown feature {f!r} (features: {', '.join(FEATURES)})")
        configs.append((f"no-{f}", {**base, f: False}))
    tasks = [(d, seat, options, st, label, args.seed)
             for label, st in configs for d in range(args.deals) for seat in seatings(n, teams)]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    games: list[dict] = []
    with open(out / "games.jsonl", "w") as fh:
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as ex:
                for g in ex.map(play_one, tasks, chunksize=2):
                    games.append(g)
                    fh.write(json.dumps(g) + "\n")
                    fh.flush()
        else:
            for i, t in enumerate(tasks):
                g = play_one(t)
                games.append(g)
                fh.write(json.dumps(g) + "\n")
                fh.flush()
                if (i + 1) % 20 == 0:
                    print(f"{i + 1}/{len(tasks)} games, {time.time() - t0:.0f} s", file=sys.stderr)
    by = {}
    for g in games:
        by.setdefault(g["label"], []).append(g)
    summary = {"options": opts, "deals": args.deals, "seed": args.seed, "settings": base,
               "configs": {lab: summarise(gs, opts["hands"]) for lab, gs in by.items()},
               "ablations": {lab: paired(by["full"], gs) for lab, gs in by.items() if lab != "full"},
               "seconds": time.time() - t0}
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    f = summary["configs"]["full"]
    print(f"belief vs peer, {f['games']} games ({args.deals} duplicate deals), options {json.dumps(options)}")
    print(f"  belief win rate {f['win_rate']:.3f}  95% Wilson [{f['wilson95'][0]:.3f}, {f['wilson95'][1]:.3f}]")
    print(f"  points per hand: belief {f['belief_points_per_hand']:.1f}, peer {f['peer_points_per_hand']:.1f}; "
          f"margin per game {f['margin_per_game'][0]:.0f} [{f['margin_per_game'][1]:.0f}, {f['margin_per_game'][2]:.0f}]")
    bm, pm = f["belief_ms_per_move"], f["peer_ms_per_move"]
    print(f"  ms per move: belief median {bm['median']:.2f} (quartiles {bm['q1']:.2f}-{bm['q3']:.2f}, p90 {bm['p90']:.2f}, "
          f"max {bm['max']:.2f}); peer median {pm['median']:.2f} (p90 {pm['p90']:.2f})")
    bc, pc = f["belief_cpu_ms_per_move"], f["peer_cpu_ms_per_move"]
    print(f"  processor ms per move: belief median {bc['median']:.2f} (quartiles {bc['q1']:.2f}-{bc['q3']:.2f}, "
          f"p90 {bc['p90']:.2f}, max {bc['max']:.2f}); peer median {pc['median']:.2f} (p90 {pc['p90']:.2f})")
    print(f"  hands ended: {f['hand_ends']}")
    for lab, a in summary["ablations"].items():
        w, m = a["win_rate_diff"], a["margin_diff"]
        print(f"  {lab}: ablated win rate {a['ablated_win_rate']:.3f}; full - ablated: win rate {w[0]:+.3f} "
              f"[{w[1]:+.3f}, {w[2]:+.3f}], margin {m[0]:+.0f} [{m[1]:+.0f}, {m[2]:+.0f}] ({a['pairs']} pairs)")
    print(f"  {summary['seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
