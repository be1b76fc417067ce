"""The paired difference of two tournaments played on the same deals (``cardmind tournament``
with the same ``--seed``, ``--games`` and game options; one agent's settings changed).

    python eval/gofish_paired.py TOURNAMENT_A TOURNAMENT_B [--agent belief]

Each tournament folder holds ``results.jsonl``. For every deal present in both, the agent's
score (1 a win, 0.5 a shared first place, 0 a loss; averaged over the deal's seatings) in B
minus its score in A; printed: both win rates with 95% Wilson intervals, the mean paired
difference in points (percentage points of the score) with its standard error over deals
and a 95% interval, and the deals used. ``docs/strength.md`` quotes these figures.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path


def scores(folder: Path, agent: str) -> dict[int, list[float]]:
    """``{deal: [the agent's outcome in each game of the deal]}`` (forfeits count as losses)."""
    out: dict[int, list[float]] = {}
    with open(folder / "results.jsonl", encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if agent not in r["seats"]:
                continue
            seat = r["seats"].index(agent)
            o = 0.0 if r.get("forfeit") is not None and r.get("forfeit_agent") == agent else \
                (r["outcome"][seat] if r.get("outcome") else 0.0)
            out.setdefault(r["deal"], []).append(float(o))
    return out


def wilson(k: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def paired(a: dict, b: dict) -> dict:
    """The paired comparison of two ``scores`` maps on their common deals."""
    deals = sorted(set(a) & set(b))
    if not deals:
        raise ValueError("the two tournaments share no deal")
    da = [sum(a[d]) / len(a[d]) for d in deals]
    db = [sum(b[d]) / len(b[d]) for d in deals]
    diff = [y - x for x, y in zip(da, db)]
    n = len(diff)
    mean = sum(diff) / n
    var = sum((x - mean) ** 2 for x in diff) / max(1, n - 1)
    se = math.sqrt(var / n)
    ga = sum(len(a[d]) for d in deals)
    gb = sum(len(b[d]) for d in deals)
    wa = sum(sum(a[d]) for d in deals)
    wb = sum(sum(b[d]) for d in deals)
    return {"deals": n, "games_a": ga, "games_b": gb, "score_a": wa / ga, "score_b": wb / gb,
            "ci_a": wilson(wa, ga), "ci_b": wilson(wb, gb), "diff": mean, "se": se,
            "ci_diff": (mean - 1.96 * se, mean + 1.96 * se)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--agent", default="belief")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    res = paired(scores(args.a, args.agent), scores(args.b, args.agent))
    if args.json:
        print(json.dumps(res, indent=1))
        return
    def pct(x):
        return f"{100 * x:.1f}%"

    print(f"{args.agent} in {args.a}: {pct(res['score_a'])} [{pct(res['ci_a'][0])}, {pct(res['ci_a'][1])}] "
          f"of {res['games_a']} games")
    print(f"{args.agent} in {args.b}: {pct(res['score_b'])} [{pct(res['ci_b'][0])}, {pct(res['ci_b'][1])}] "
          f"of {res['games_b']} games")
    print(f"paired difference (B - A) over {res['deals']} deals: {100 * res['diff']:+.1f} +- "
          f"{100 * res['se']:.1f} points (95% interval {100 * res['ci_diff'][0]:+.1f} to {100 * res['ci_diff'][1]:+.1f})")


if __name__ == "__main__":
    sys.exit(main())
