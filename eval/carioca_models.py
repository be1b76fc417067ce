"""Contract rummy player models: fit them, and measure what they add to the belief.

    python eval/carioca_models.py fit --games 60            # the peer model (cardmind/games/carioca/data/models.json)
    python eval/carioca_models.py fit --games 0 --belief-records eval/out/carioca/records --deals 0-24
                                                              # the belief model, from the study's games
    python eval/carioca_models.py eval --records eval/out/carioca/records --deals 30-44 --points 6

``fit`` simulates seeded four-player games (seven hands, deal seeds from 10000) and fits, by
maximum likelihood (:meth:`cardmind.belief.models.SoftmaxChoice.fit`), an offer model and a
discard model of the ``peer`` player (games of four ``peer`` seats); with ``--belief-records``
it fits the ``belief`` player's models on the decisions of its seats in the strength study's
complete records (``eval/carioca_study.py``: two ``belief`` against two ``peer`` seats) of the
deals given. Weights, standard errors and the log-likelihood per decision (against uniform
choice) are stored with each model.

``eval`` takes complete records of games not used for fitting (the study's other deals, or
games it plays itself) and, at ``points`` moments of each game (inside a hand, the seat on
turn deciding on the offer), asks the tracker of that seat for every opponent and every card
the chance that the opponent holds at least one copy more than it is known to hold, under the
constraint-only posterior (``uniform``) and under the ``peer`` and ``belief`` models; the
truth comes from the complete record. It reports, per model, the mean log-loss, the Brier
score and a calibration table (predictions in bins: mean predicted against observed frequency).
"""

from __future__ import annotations

import argparse
import json
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

GAME = get_game("carioca")
DATA = ROOT / "cardmind" / "games" / "carioca" / "data" / "models.json"


def play(names: list[str], seed: int):
    factories = [resolve_agent(n, GAME) for n in names]
    res = play_game(GAME, {"players": len(names)}, factories, np.random.default_rng(seed),
                    [np.random.default_rng([seed, s]) for s in range(len(names))], max_actions=20000)
    return res


def _deals(text: str) -> range:
    a, _, b = text.partition("-")
    return range(int(a), int(b or a) + 1)


def study_records(folder: str, deals: range) -> list[tuple[object, set[int]]]:
    """``(record, seats played by belief)`` of the study's complete records of ``deals``."""
    from cardmind.records import read_record

    out = []
    for p in sorted(Path(folder).glob("deal*-s*.jsonl")):
        deal, k = int(p.stem[4:8]), int(p.stem[-1])
        if deal in deals:
            out.append((read_record(p), {0, 2} if k == 0 else {1, 3}))
    return out


def cmd_fit(args) -> None:
    from cardmind.games.carioca.models import fit_models

    out = json.loads(DATA.read_text()) if DATA.exists() else {}
    if args.games:
        t0 = time.time()
        recs = [r.record for r in (play(["peer"] * 4, 10_000 + g) for g in range(args.games)) if r.result is not None]
        out["peer"] = fit_models(recs, "peer")
        print(f"peer: {len(recs)} games, {time.time() - t0:.0f} s", flush=True)
    if args.belief_records:
        pairs = study_records(args.belief_records, _deals(args.deals))
        out["belief"] = fit_models([r for r, _ in pairs], "belief", [s for _, s in pairs])
        out["belief"]["offer"]["info"]["source"] = out["belief"]["discard"]["info"]["source"] = (
            f"the belief seats of {len(pairs)} strength-study games (deals {args.deals}) against peer")
        print(f"belief: {len(pairs)} games", flush=True)
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps(out, indent=1) + "\n")
    for name, m in out.items():
        for kind in ("offer", "discard"):
            info = m[kind]["info"]
            print(f"{name} {kind}: {info['decisions']} decisions, log-likelihood per decision "
                  f"{info['mean_log_likelihood']:.3f} (uniform {info['uniform_log_likelihood'] / info['decisions']:.3f})")
            for f, w, se in zip(m[kind]["features"], m[kind]["weights"], info["stderr"]):
                print(f"    {f:12s} {w:+.3f} ± {se:.3f}")


def cmd_eval(args) -> None:
    models = ["uniform", "peer", "belief"]
    rows = {m: [] for m in models}
    t0 = time.time()
    if args.records:
        recs = [r for r, _ in study_records(args.records, _deals(args.deals))]
    else:
        recs = []
        for g in range(args.games):
            res = play(["belief", "peer", "belief", "peer"] if g % 2 else ["peer"] * 4, 30_000 + g)
            if res.result is not None:
                recs.append(res.record)
    for g, rec in enumerate(recs):
        seat = g % 4
        # the points: moments inside each hand (not right after a deal or at its end)
        st = GAME.new_state(rec.options, rec.header)
        marks = []
        for i, ev in enumerate(rec.events):
            st.apply_event(ev)
            if st.phase == "offer" and st.turn == seat and len(st.history) - st.hand_start > 6:
                marks.append(i + 1)
        rng = np.random.default_rng(g)
        pick = sorted(rng.choice(marks, size=min(args.points, len(marks)), replace=False)) if marks else []
        for k in pick:
            truth = GAME.new_state(rec.options, rec.header)
            for ev in rec.events[:k]:
                truth.apply_event(ev)
            for m in models:
                extra = {} if args.temper is None else {"temper": args.temper}
                tr = tracker_for(rec, seat, upto_event=int(k), model=m, samples=args.samples, seed=g, **extra)
                hold = tr.holdings()
                for c, places in hold.items():
                    for s, v in places.items():
                        if s == "stock":
                            continue
                        s = int(s)
                        actual = truth.hands[s][c] > tr.state.known[s][c]
                        rows[m].append((min(max(v["p_any"], 1e-6), 1 - 1e-6), float(actual)))
        print(f"game {g}: {len(pick)} points, {time.time() - t0:.0f} s", flush=True)
    report = {}
    for m in models:
        p = np.array([r[0] for r in rows[m]])
        y = np.array([r[1] for r in rows[m]])
        ll = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
        brier = float(np.mean((p - y) ** 2))
        bins = np.linspace(0, 1, 11)
        cal = []
        for a, b in zip(bins[:-1], bins[1:]):
            sel = (p >= a) & (p < b if b < 1 else p <= b)
            if sel.sum():
                cal.append([round(float(a), 1), round(float(b), 1), int(sel.sum()), round(float(p[sel].mean()), 4),
                            round(float(y[sel].mean()), 4)])
        report[m] = {"predictions": len(p), "log_loss": round(ll, 5), "brier": round(brier, 5), "calibration": cal}
    print(json.dumps(report, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("fit")
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--belief-records", default="")
    p.add_argument("--deals", default="0-24")
    p = sub.add_parser("eval")
    p.add_argument("--games", type=int, default=12)
    p.add_argument("--points", type=int, default=6)
    p.add_argument("--samples", type=int, default=200)
    p.add_argument("--temper", type=float, default=None, help="the models' likelihood power (default: the tracker's)")
    p.add_argument("--records", default="")
    p.add_argument("--deals", default="30-44")
    p.add_argument("--out", default="")
    args = ap.parse_args()
    {"fit": cmd_fit, "eval": cmd_eval}[args.cmd](args)


if __name__ == "__main__":
    main()
