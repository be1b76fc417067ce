"""Paired difference of one agent's results between two tournaments on the same deals.

Two runs of ``cardmind tournament`` (or ``eval/strength.py``) with the same game, options,
agents' seats and ``--seed`` play the same deals in the same seatings; only an agent's
settings differ (a feature switched off, say). Per deal, the agent's mean outcome (1 win,
0.5 draw, 0 loss over the deal's games) is compared between the runs; the mean of the
differences, its standard error (deals are independent) and a 95% interval are printed.

    python eval/paired.py eval/out/strength/literature-6p-belief-peer \\
        eval/out/strength/literature-6p-belief-peer-literature-uniform --agent belief
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path


def per_deal(out_dir: Path, agent: str) -> dict[int, float]:
    """``{deal: the agent's mean outcome over the deal's finished games}``."""
    acc: dict[int, list[float]] = {}
    for line in (out_dir / "results.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        if r.get("error") or r.get("outcome") is None:
            continue
        seats = [i for i, name in enumerate(r["seats"]) if name == agent]
        if not seats:
            continue
        acc.setdefault(r["deal"], []).append(sum(r["outcome"][i] for i in seats) / len(seats))
    return {d: sum(v) / len(v) for d, v in acc.items()}


def paired(a: dict[int, float], b: dict[int, float]) -> dict[str, float]:
    """Mean of ``b - a`` over the deals both have, its standard error and 95% interval."""
    deals = sorted(set(a) & set(b))
    if len(deals) < 2:
        raise ValueError("fewer than two deals in common")
    d = [b[k] - a[k] for k in deals]
    mean = sum(d) / len(d)
    var = sum((x - mean) ** 2 for x in d) / (len(d) - 1)
    se = math.sqrt(var / len(d))
    return {"deals": len(deals), "a": sum(a[k] for k in deals) / len(deals),
            "b": sum(b[k] for k in deals) / len(deals), "difference": mean, "stderr": se,
            "ci95": [mean - 1.96 * se, mean + 1.96 * se]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", type=Path, help="the reference run's folder")
    ap.add_argument("b", type=Path, help="the other run's folder")
    ap.add_argument("--agent", required=True)
    args = ap.parse_args(argv)
    r = paired(per_deal(args.a, args.agent), per_deal(args.b, args.agent))
    print(f"{args.agent}: {r['a']:.1%} ({args.a.name}) -> {r['b']:.1%} ({args.b.name}) over {r['deals']} deals: "
          f"paired difference {100 * r['difference']:+.1f} ± {100 * r['stderr']:.1f} points "
          f"(95% interval {100 * r['ci95'][0]:+.1f} to {100 * r['ci95'][1]:+.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
