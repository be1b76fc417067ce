"""Fit the Go Fish ask model ``peer`` (:mod:`cardmind.games.gofish.models`) by maximum
likelihood on the asks of ``peer`` players in simulated two-player games, and write it to
``cardmind/games/gofish/peer_model.json`` (the file the tracker's ``model="peer"`` reads).

    python eval/gofish_fit_model.py [--games 300] [--seed 0] [--out cardmind/games/gofish/peer_model.json]
    python eval/gofish_fit_model.py --kind belief --against peer --games 80 --seed 0   # belief_model.json

Prints the weights with their standard errors (observed information) and the mean
log-likelihood per decision against the uniform model's (every legal ask alike). The run
that wrote the file in the repository: ``--games 300 --seed 0`` (about a minute).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardmind.games.gofish.models import MODEL_FILE, fit_ask_model


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None, help="default: the model's file beside the models module")
    ap.add_argument("--kind", default="peer", help="whose asks to fit: peer (default) or belief")
    ap.add_argument("--against", default="peer", help="the other player's kind")
    a = ap.parse_args(argv)
    if a.out is None:
        a.out = str(MODEL_FILE if a.kind == "peer" else MODEL_FILE.with_name(f"{a.kind}_model.json"))
    model = fit_ask_model(a.games, seed=a.seed, name=a.kind, kind=a.kind, against=a.against)
    Path(a.out).write_text(json.dumps(model.to_json(), indent=1) + "\n")
    info = model.info
    for f, w, se in zip(model.features, model.weights, info["stderr"]):
        print(f"{f:>12}: {w:+.3f} (standard error {se:.3f})")
    print(f"{info['decisions']} decisions; mean log-likelihood {info['mean_log_likelihood']:.3f} "
          f"(uniform {info['uniform_log_likelihood'] / info['decisions']:.3f}); written to {a.out}")


if __name__ == "__main__":
    main()
