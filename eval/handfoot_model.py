"""Fit and measure the Hand and Foot player model (``--model fitted``).

    python eval/handfoot_model.py --fit --games 40          # writes cardmind/games/handfoot/model.json
    python eval/handfoot_model.py --measure --games 12      # fitted against the constraint-only posterior

**Fit**: simulated games (seeded) of ``peer`` and ``belief`` partnerships (half ``peer`` against
``peer``, half ``belief`` against ``peer``); every take/draw, stop-laying and discard choice of every
player with its options' features computed from the player's true cards
(:func:`cardmind.games.handfoot.models.decisions_of_record`); a softmax choice model fitted by
maximum likelihood (:meth:`cardmind.belief.models.SoftmaxChoice.fit`, with the standard errors of
its weights).

**Measure**: other seeded games (``--seed`` + 1000); at positions spread over every hand (seat 0's
view, right after one of its draws), the same worlds drawn from the constraint-only posterior
(the tracker's sampler) are used unweighted (``uniform``) and weighted by the fitted model
(``fitted``, as the tracker applies it: each opponent's choices of its last two turns, the
log-likelihood halved); the score of each is the mean log probability it gives the true number of cards of
every kind (natural rank, wild, red three, black three) in each opponent's hand. Reported: the
mean of each, their paired difference with its 95% interval, and the effective sample size of the
weights (median and range).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter

import numpy as np

from cardmind.agents import resolve_agent
from cardmind.agents.match import play_game
from cardmind.belief.models import SoftmaxChoice, importance_weights
from cardmind.core import get_game
from cardmind.games.handfoot.belief import HandFootBelief
from cardmind.games.handfoot.counting import KINDS, kind_of
from cardmind.games.handfoot.models import FEATURES, MODEL_FILE, decisions_of_record, load
from cardmind.records import Record

GAME = get_game("handfoot")


def games(n: int, seed: int, options: dict):
    """``n`` seeded games: even ones peer v peer, odd ones belief v peer."""
    peer, belief = resolve_agent("peer", GAME), resolve_agent("belief", GAME)
    for i in range(n):
        classes = [peer] * 4 if i % 2 == 0 else [belief, peer, belief, peer]
        mr = play_game(GAME, options, classes, np.random.default_rng([seed, i]),
                       [np.random.default_rng([seed, i, s]) for s in range(4)], max_actions=50_000)
        yield mr.record


def fit(n: int, seed: int, options: dict) -> SoftmaxChoice:
    data = []
    for rec in games(n, seed, options):
        data.extend(decisions_of_record(rec))
    model = SoftmaxChoice.fit(data, FEATURES, name="fitted",
                              source=f"eval/handfoot_model.py --fit --games {n} --seed {seed}: peer v peer and "
                                     f"belief v peer, options {json.dumps(options)}")
    return model


def measure(n: int, seed: int, options: dict, worlds: int, every: int) -> dict:
    fitted = load("fitted")
    rows = []
    ess = []
    for rec in games(n, seed + 1000, options):
        mine = rec.for_seat(0)
        draws = [i for i, e in enumerate(mine.events) if e["type"] == "draw" and e["player"] == 0]
        for i in draws[every // 2::every]:
            cut = Record(mine.game, mine.options, mine.header, mine.events[:i + 1], mine.path, mine.lines[:i + 1])
            t = HandFootBelief.from_record(cut, engine="sampled", worlds=worlds, seed=i)
            if not t.choices:
                continue
            truth = rec.game.new_state(rec.options, rec.header)
            for ev in rec.events[:i + 1]:
                truth.apply_event(ev)
            ws = t.worlds()
            lw = t.log_weights(ws, "fitted")
            wt = importance_weights(lw)
            wa = importance_weights(t.log_weights(ws, "auto"))     # the default: per seat, its best model
            ess.append(wt.ess)
            u = np.full(len(ws), 1.0 / len(ws))
            score = {"uniform": 0.0, "fitted": 0.0, "auto": 0.0}
            count = 0
            for s in range(4):
                if truth.teams[s] == truth.teams[0]:
                    continue
                true = Counter(kind_of(c) for c in truth.zone[s].elements())
                for kd in KINDS:
                    vals = np.array([sum(k for c, k in w["zones"][s].items() if kind_of(c) == kd) for w in ws])
                    hit = (vals == true[kd]).astype(float)
                    for name, weights in (("uniform", u), ("fitted", wt.w), ("auto", wa.w)):
                        p = float(hit @ weights)
                        score[name] += math.log(max(p, 1e-3))
                    count += 1
            rows.append({k: v / count for k, v in score.items()})
    diff = np.array([r["fitted"] - r["uniform"] for r in rows])
    se = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else float("nan")
    da = np.array([r["auto"] - r["uniform"] for r in rows])
    sa = float(da.std(ddof=1) / math.sqrt(len(da))) if len(da) > 1 else float("nan")
    return {"positions": len(rows), "uniform": float(np.mean([r["uniform"] for r in rows])),
            "fitted": float(np.mean([r["fitted"] for r in rows])), "diff": float(diff.mean()),
            "diff95": [float(diff.mean() - 1.96 * se), float(diff.mean() + 1.96 * se)],
            "auto": float(np.mean([r["auto"] for r in rows])), "auto_diff": float(da.mean()),
            "auto_diff95": [float(da.mean() - 1.96 * sa), float(da.mean() + 1.96 * sa)],
            "ess_median": float(np.median(ess)), "ess_min": float(np.min(ess)), "ess_max": float(np.max(ess)),
            "worlds": worlds, "model": fitted.to_json()["weights"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fit", action="store_true")
    ap.add_argument("--measure", action="store_true")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--options", default='{"hands": 2}')
    ap.add_argument("--worlds", type=int, default=200)
    ap.add_argument("--every", type=int, default=8, help="measure at every K-th draw of seat 0")
    args = ap.parse_args(argv)
    options = json.loads(args.options)
    t0 = time.time()
    if args.fit:
        model = fit(args.games, args.seed, options)
        MODEL_FILE.write_text(json.dumps(model.to_json(), indent=1) + "\n")
        info = model.info
        print(f"fitted on {info['decisions']} choices ({args.games} games): mean log-likelihood "
              f"{info['mean_log_likelihood']:.4f} per choice (uniform {info['uniform_log_likelihood'] / info['decisions']:.4f})")
        for f, w, se in zip(FEATURES, model.weights, info["stderr"]):
            print(f"  {f:<14} {w:+8.3f} (se {se:.3f})")
        print(f"wrote {MODEL_FILE}")
    if args.measure:
        load.cache_clear()
        r = measure(args.games, args.seed, options, args.worlds, args.every)
        print(f"{r['positions']} positions; mean log probability of the true kind counts in the opponents' hands: "
              f"uniform {r['uniform']:.4f}, fitted {r['fitted']:.4f}; fitted - uniform {r['diff']:+.4f} "
              f"[{r['diff95'][0]:+.4f}, {r['diff95'][1]:+.4f}]; auto {r['auto']:.4f}, auto - uniform "
              f"{r['auto_diff']:+.4f} [{r['auto_diff95'][0]:+.4f}, {r['auto_diff95'][1]:+.4f}]; ESS median {r['ess_median']:.1f} "
              f"(min {r['ess_min']:.1f}, max {r['ess_max']:.1f}) of {r['worlds']} worlds")
    print(f"{time.time() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
