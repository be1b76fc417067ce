"""Fit the Literature player models (issue 16) and write them into the package.

For each kind of player, the sequential-logit ask model
(:class:`cardmind.games.literature.models.AskModel`: which set the asker stops at, then which
of the set's asks) is fitted by maximum likelihood (:meth:`AskModel.fit`) to the asks that
kind made, with the asker's true hand (complete records):

* ``random``, ``peer``, ``belief``: simulated games (seeded), the kind on one team against
  each of the three kinds on the other, half with 6 players (54 cards) and half with 8
  (48 cards), both seatings of every deal;
* ``people``: the people's games in ``../shared/records/literature-human`` (the one logged
  with a mistake is used up to the line before it).

Every fit is checked on asks it did not see: the simulated games are split by deal (four
deals in five fit, the fifth tests), the people's games by game (each game is tested by the
model fitted on the others, and the file keeps the model fitted on all of them). The mean
log-likelihood per ask of the held-out asks is written into the model's ``info`` next to the
uniform choice's (every legal ask alike).

Each model's tempering exponent ``λ`` (``temper``: the likelihood is raised to it, so that a
model that cannot see all the players saw does not compound its errors over many asks) is
then chosen on further games of other seeds (``--temper-games``, the kind on both teams' other
side as above): the ``λ`` of a grid whose posterior gives the lowest log-loss of the card
marginals and of the best claims from every seat's view at every tenth event.

    python eval/fit_player_models.py --games 120 --seed 1          # writes player_models/*.json
    python eval/fit_player_models.py --games 20 --out /tmp/models  # a quick look elsewhere

Seeded: the same command writes the same files.
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
sys.path.insert(0, str(ROOT / "eval"))

from cardmind.agents import resolve_agent  # noqa: E402
from cardmind.agents.match import play_game  # noqa: E402
from cardmind.core import get_game  # noqa: E402
from cardmind.games.literature.models import (CARD_FEATURES, MODEL_DIR, STOP_FEATURES, AskModel,  # noqa: E402
                                              ask_decisions, uniform_choice_loglik)

KINDS = ("random", "peer", "belief")


def simulated_decisions(kind: str, games: int, seed: int, quiet: bool = False) -> list[tuple[int, list]]:
    """``[(deal index, decisions)]``: the asks ``kind`` made in ``games`` seeded games (both
    seatings of ``games // 2`` deals; the opponents cycle through :data:`KINDS`; even deals
    6 players, odd deals 8)."""
    game = get_game("literature")
    out = []
    deals = max(1, games // 2)
    for d in range(deals):
        other = KINDS[d % len(KINDS)]
        options = {"players": 6 if d % 2 == 0 else 8}
        for side in (0, 1):
            names = [kind if s % 2 == side else other for s in range(options["players"])]
            classes = [resolve_agent(n, game) for n in names]
            factories = [(lambda c: (lambda g, s, o, h: c(g, s, o, h)))(c) for c in classes]
            deal_rng = np.random.default_rng([seed, d])
            play_rngs = [np.random.default_rng([seed, d, side, s]) for s in range(options["players"])]
            res = play_game(game, options, factories, deal_rng, play_rngs)
            rec = res.record
            seats = [s for s in range(options["players"]) if s % 2 == side]
            out.append((d, ask_decisions(rec.options, rec.header["hands"], rec.events, seats)))
        if not quiet and (d + 1) % 10 == 0:
            print(f"  {kind}: {d + 1}/{deals} deals", file=sys.stderr)
    return out


def people_decisions(shared: Path) -> list[tuple[str, list]]:
    """``[(game name, decisions)]`` from the people's records."""
    from calibration_literature import people_records

    return [(name, ask_decisions(rec.options, rec.header["hands"], rec.events)) for name, rec in people_records(shared)]


def mean_loglik(model: AskModel, decisions: list) -> tuple[float, float, int]:
    """``(model, uniform choice)`` mean log-likelihood per ask."""
    if not decisions:
        return float("nan"), float("nan"), 0
    m = sum(float(model.log_likelihood(s, h, mine)[0]) for s, h, mine in decisions)
    u = sum(uniform_choice_loglik(s, h, mine) for s, h, mine in decisions)
    return m / len(decisions), u / len(decisions), len(decisions)


def fit_kind(name: str, groups: list[tuple[object, list]], test_of, source: str) -> AskModel:
    """Fit on every group; check on held-out groups (``test_of(key) -> bool`` marks the test
    groups of the split fit; with ``None``, leave one group out at a time)."""
    all_dec = [x for _, dec in groups for x in dec]
    model = AskModel.fit(all_dec, name=name, source=source)
    held_m = held_u = 0.0
    held_n = 0
    if test_of is None:
        splits = [([d for k2, dec in groups if k2 != k for d in dec], dec) for k, dec in groups]
    else:
        splits = [([d for k, dec in groups if not test_of(k) for d in dec],
                   [d for k, dec in groups if test_of(k) for d in dec])]
    for train, test in splits:
        if not train or not test:
            continue
        m = AskModel.fit(train, name=name)
        a, b, n = mean_loglik(m, test)
        held_m += a * n
        held_u += b * n
        held_n += n
    model.info["held_out"] = {"asks": held_n,
                              "mean_log_likelihood": held_m / held_n if held_n else None,
                              "uniform_mean_log_likelihood": held_u / held_n if held_n else None}
    return model


TEMPER_GRID = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0)
TEMPER_PAIRINGS = [(6, "belief", "peer"), (6, "peer", "random"), (6, "belief", "random"), (8, "belief", "peer")]


def choose_temper(models: dict[str, AskModel], games: int, seed: int, quiet: bool = False) -> tuple[float, list]:
    """The ``λ`` of :data:`TEMPER_GRID` whose posteriors (every simulated kind weighed by its
    model raised to ``λ``) give the lowest mean of the card-marginal and best-claim log-losses
    on ``games`` games per pairing of :data:`TEMPER_PAIRINGS` (seeds apart from the fit's and
    from the calibration study's); returns ``(λ, [(λ, cards, claims)])``."""
    from calibration_literature import Scores, logloss, score_game, simulate

    from cardmind.games.literature.models import register_player_model

    records = []
    for players, k0, k1 in TEMPER_PAIRINGS:
        records += simulate(players, k0, k1, games, seed + 1000)
    rows = []
    for lam in TEMPER_GRID:
        names = {}
        for kind, m in models.items():
            trial = AskModel(f"{kind}-temper-trial", m.stop, m.card, lam)
            register_player_model(trial)
            names[kind] = trial.name
        scores = Scores()
        for rec, kinds in records:
            score_game(rec, "v", kinds, {"fitted": {s: names[k] for s, k in enumerate(kinds)}}, 10, scores)
        cards = logloss(*scores.arrays(lambda g: True, "cards", "fitted"))
        claims = logloss(*scores.arrays(lambda g: True, "claims", "fitted"))
        rows.append((lam, cards, claims))
        if not quiet:
            print(f"  temper {lam}: card log-loss {cards:.4f}, claim log-loss {claims:.4f}", file=sys.stderr)
    best = min(rows, key=lambda r: (r[1] + r[2]) / 2)
    return best[0], rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=120, help="simulated games per kind (both seatings of games/2 deals)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--out", type=Path, default=MODEL_DIR, help="folder for <kind>.json (default: the package's)")
    ap.add_argument("--kinds", default="random,peer,belief,people")
    ap.add_argument("--temper-games", type=int, default=12,
                    help="games per pairing to choose the tempering exponent on (0: keep 1)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    fitted: dict[str, AskModel] = {}
    for kind in args.kinds.split(","):
        t0 = time.time()
        if kind == "people":
            groups = people_decisions(args.shared)
            model = fit_kind("people", groups, None,
                             source="../shared/records/literature-human (every ask; held out: leave one game out)")
        else:
            groups = simulated_decisions(kind, args.games, args.seed, args.quiet)
            model = fit_kind(kind, groups, lambda d: d % 5 == 4,
                             source=f"eval/fit_player_models.py --games {args.games} --seed {args.seed} "
                                    f"(held out: every fifth deal)")
        fitted[kind] = model
        print(f"{kind}: {model.info['asks']} asks, {time.time() - t0:.0f} s", file=sys.stderr)
    if args.temper_games > 0:
        t0 = time.time()
        lam, trials = choose_temper({k: m for k, m in fitted.items() if k != "people"}, args.temper_games, args.seed,
                                    args.quiet)
        for m in fitted.values():
            m.temper = lam
            m.info["temper"] = {"chosen": lam, "by": f"eval/fit_player_models.py --temper-games {args.temper_games} "
                                                    f"--seed {args.seed} (seeds {args.seed + 1000}...)",
                                "trials": [{"temper": a, "card_log_loss": b, "claim_log_loss": c} for a, b, c in trials]}
        print(f"temper {lam} ({time.time() - t0:.0f} s)", file=sys.stderr)
    for kind, model in fitted.items():
        path = args.out / f"{kind}.json"
        path.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
        info = model.info
        rows.append((kind, info["asks"], np.concatenate([model.stop, model.card]),
                     info["stop_stderr"] + info["card_stderr"], info["held_out"], model.temper))
        print(f"{kind} -> {path}", file=sys.stderr)
    names = [f"stop: {f}" for f in STOP_FEATURES] + [f"ask: {f}" for f in CARD_FEATURES]
    print("| model | asks | " + " | ".join(names) + " | λ | held-out log-lik per ask (model / uniform choice) |")
    print("| --- | ---: | " + " | ".join("---:" for _ in names) + " | ---: | --- |")
    for kind, n, w, se, held, lam in rows:
        cells = " | ".join(f"{a:+.2f} ± {b:.2f}" for a, b in zip(w, se))
        hl = (f"{held['mean_log_likelihood']:.3f} / {held['uniform_mean_log_likelihood']:.3f} "
              f"({held['asks']} asks)") if held["asks"] else "n/a"
        print(f"| {kind} | {n} | {cells} | {lam:.2f} | {hl} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
