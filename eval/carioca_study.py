"""Contract rummy strength study: two ``belief`` seats against two ``peer`` seats, four-player
games of seven hands on duplicate deals with the seats rotated, and the ablations of
``belief``'s features.

    python eval/carioca_study.py run --variant full --deals 60 --jobs 2
    python eval/carioca_study.py run --variant no_steal_pricing --deals 40 --jobs 2   # and no_timing,
                                                                    # no_discard_safety, no_opponent_model
    python eval/carioca_study.py report                 # the tables of docs/carioca.md

Each deal ``d`` is played twice with the same cards (deal seed ``d``): ``belief`` at seats 0
and 2 (``peer`` at 1 and 3), then ``peer`` at 0 and 2 (the seats rotated one place: every
seat of the table is played by each agent on the deal). The metric is computed here from the
games' results (not from a tournament summary): a game is a **win** for ``belief`` when one
of its seats has the lowest total (strictly below both ``peer`` totals; a tie for the lowest
counts as not a win), with a 95% Wilson interval over games. Also: the average points per
hand of each agent's seats, the time per move of each agent (median over games of the mean
time of its seats' moves), and for each ablation the **paired difference** against ``full``
on the same deals (per deal: the mean over its two games of ``belief``'s points per hand,
and of the win indicator), with a 95% interval (normal, over deals).

Results go to ``eval/out/carioca/<variant>.jsonl`` (one line per game; a run skips the games
already there, so a killed run continues). Records of the ``full`` games are kept in
``eval/out/carioca/records/`` (the ``belief`` player model is fitted on them).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OUT = ROOT / "eval" / "out" / "carioca"
VARIANTS = {
    "full": {},
    "no_steal_pricing": {"steal_pricing": False},
    "no_timing": {"timing": False},
    "no_discard_safety": {"discard_safety": False},
    "no_opponent_model": {"opponent_model": False},
}
SEATINGS = (("belief", "peer", "belief", "peer"), ("peer", "belief", "peer", "belief"))


def play_one(task: tuple[str, int, int]) -> dict:
    """Play deal ``deal`` in seating ``k`` with the ``variant`` settings of ``belief``."""
    from cardmind.agents.base import resolve_agent
    from cardmind.agents.match import play_game
    from cardmind.core import get_game
    from cardmind.records import write_record

    variant, deal, k = task
    game = get_game("carioca")
    names = SEATINGS[k]
    settings = VARIANTS[variant]

    def factory(name):
        cls = resolve_agent(name, game)
        if name == "belief":
            return lambda g, s, o, h: cls(g, s, o, h, dict(settings))
        return cls

    t0 = time.time()
    res = play_game(game, {"players": 4}, [factory(n) for n in names], np.random.default_rng(deal),
                    [np.random.default_rng([deal, s]) for s in range(4)], max_actions=20000)
    line = {"variant": variant, "deal": deal, "seating": k, "seats": list(names), "wall": time.time() - t0,
            "actions": res.actions, "think": res.think_time}
    if res.result is None:
        line.update({"error": res.forfeit_reason or res.unfinished})
        return line
    d = res.result.detail
    line.update({"totals": d["totals"], "hand_scores": d["hand_scores"], "outs": d["outs"]})
    if variant == "full":
        (OUT / "records").mkdir(parents=True, exist_ok=True)
        write_record(OUT / "records" / f"deal{deal:04d}-s{k}.jsonl", res.record)
    return line


def cmd_run(args) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{args.variant}.jsonl"
    done = set()
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                done.add((r["deal"], r["seating"]))
    tasks = [(args.variant, d, k) for d in range(args.first, args.first + args.deals) for k in range(2)
             if (d, k) not in done]
    print(f"{args.variant}: {len(tasks)} games to play ({len(done)} done)", flush=True)
    t0 = time.time()
    with Pool(args.jobs) as pool, open(path, "a") as fh:
        for i, line in enumerate(pool.imap_unordered(play_one, tasks)):
            fh.write(json.dumps(line) + "\n")
            fh.flush()
            if (i + 1) % 10 == 0:
                print(f"  {i + 1}/{len(tasks)} games, {time.time() - t0:.0f} s", flush=True)


def wilson(k: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``k / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (mid - half, mid + half)


def load(variant: str) -> list[dict]:
    path = OUT / f"{variant}.jsonl"
    if not path.exists():
        return []
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def per_game(r: dict) -> dict:
    tot = r["totals"]
    b = [s for s, n in enumerate(r["seats"]) if n == "belief"]
    p = [s for s, n in enumerate(r["seats"]) if n == "peer"]
    win = min(tot[s] for s in b) < min(tot[s] for s in p)
    tie = min(tot[s] for s in b) == min(tot[s] for s in p)
    hands = len(r["hand_scores"])
    pts = {name: statistics.fmean(hs[s] for hs in r["hand_scores"] for s in seats)
           for name, seats in (("belief", b), ("peer", p))}
    move = {name: statistics.fmean(r["think"][s] / max(1, r["actions"][s]) for s in seats)
            for name, seats in (("belief", b), ("peer", p))}
    return {"win": win, "tie": tie, "points": pts, "move": move, "hands": hands}


def summarize(variant: str) -> dict:
    rows = [r for r in load(variant) if "totals" in r]
    errors = [r for r in load(variant) if "error" in r]
    g = [per_game(r) for r in rows]
    n = len(g)
    wins = sum(x["win"] for x in g)
    ties = sum(x["tie"] for x in g)
    lo, hi = wilson(wins, n)
    out = {"variant": variant, "games": n, "errors": len(errors), "deals": len({r["deal"] for r in rows}),
           "wins": wins, "ties": ties, "win_rate": wins / n if n else None, "ci95": [lo, hi]}
    for name in ("belief", "peer"):
        pts = [x["points"][name] for x in g]
        out[f"{name}_points_per_hand"] = statistics.fmean(pts) if pts else None
        out[f"{name}_points_se"] = statistics.stdev(pts) / math.sqrt(len(pts)) if len(pts) > 1 else None
        mv = sorted(x["move"][name] for x in g)
        if mv:
            out[f"{name}_ms_per_move_median"] = 1000 * statistics.median(mv)
            out[f"{name}_ms_per_move_p10_p90"] = [1000 * mv[int(0.1 * (len(mv) - 1))],
                                                  1000 * mv[int(0.9 * (len(mv) - 1))]]
    return out


def paired(variant: str) -> dict | None:
    """Per deal, the variant minus ``full``: belief's points per hand and the win indicator."""
    base = {(r["deal"], r["seating"]): per_game(r) for r in load("full") if "totals" in r}
    mine = {(r["deal"], r["seating"]): per_game(r) for r in load(variant) if "totals" in r}
    deals = sorted({d for d, k in mine if (d, 0) in mine and (d, 1) in mine and (d, 0) in base and (d, 1) in base})
    if len(deals) < 2:
        return None
    dp, dw = [], []
    for d in deals:
        dp.append(statistics.fmean(mine[(d, k)]["points"]["belief"] - base[(d, k)]["points"]["belief"]
                                   for k in range(2)))
        dw.append(statistics.fmean(float(mine[(d, k)]["win"]) - float(base[(d, k)]["win"]) for k in range(2)))

    def ci(v):
        m = statistics.fmean(v)
        se = statistics.stdev(v) / math.sqrt(len(v))
        return m, se, [m - 1.96 * se, m + 1.96 * se]

    mp, sp, cp = ci(dp)
    mw, sw, cw = ci(dw)
    return {"deals": len(deals), "points_per_hand_diff": mp, "points_se": sp, "points_ci95": cp,
            "win_rate_diff": mw, "win_se": sw, "win_ci95": cw}


def cmd_report(args) -> None:
    lines = ["| variant | games (deals) | belief wins | win rate [95% CI] | points/hand belief | "
             "points/hand peer | ms/move belief (p10-p90) | ms/move peer |", "|---|---|---|---|---|---|---|---|"]
    rep = {}
    for v in VARIANTS:
        s = summarize(v)
        if not s["games"]:
            continue
        rep[v] = s
        lines.append(f"| {v} | {s['games']} ({s['deals']}) | {s['wins']} (ties {s['ties']}) | "
                     f"{100 * s['win_rate']:.1f}% [{100 * s['ci95'][0]:.1f}, {100 * s['ci95'][1]:.1f}] | "
                     f"{s['belief_points_per_hand']:.1f} ± {s['belief_points_se']:.1f} | "
                     f"{s['peer_points_per_hand']:.1f} ± {s['peer_points_se']:.1f} | "
                     f"{s['belief_ms_per_move_median']:.0f} ({s['belief_ms_per_move_p10_p90'][0]:.0f}-"
                     f"{s['belief_ms_per_move_p10_p90'][1]:.0f}) | {s['peer_ms_per_move_median']:.2f} |")
    lines += ["", "| feature switched off | deals | points/hand (variant - full) [95% CI] | "
                  "win rate (variant - full) [95% CI] |", "|---|---|---|---|"]
    for v in VARIANTS:
        if v == "full":
            continue
        p = paired(v)
        if p is None:
            continue
        rep[v]["paired"] = p
        lines.append(f"| {v.removeprefix('no_')} | {p['deals']} | {p['points_per_hand_diff']:+.2f} "
                     f"[{p['points_ci95'][0]:+.2f}, {p['points_ci95'][1]:+.2f}] | "
                     f"{100 * p['win_rate_diff']:+.1f} pts [{100 * p['win_ci95'][0]:+.1f}, "
                     f"{100 * p['win_ci95'][1]:+.1f}] |")
    print("\n".join(lines))
    (OUT / "report.json").write_text(json.dumps(rep, indent=1) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run")
    p.add_argument("--variant", choices=list(VARIANTS), default="full")
    p.add_argument("--deals", type=int, default=60)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2)
    sub.add_parser("report")
    args = ap.parse_args()
    {"run": cmd_run, "report": cmd_report}[args.cmd](args)


if __name__ == "__main__":
    main()
