"""Why the chance that an opponent goes down by the end of its next turn missed: the observed
go-downs split by whether the seat stole or took a discard before going down.

Plays the games of ``eval/calibration_carioca.py`` (seat 0 ``belief``, seats 1-3 of one kind,
the first two contracts, deal seeds ``[seed, kind, deal]``) and, at every ``--every``-th event,
for every other seat not yet down, takes the tracker's chance that it goes down by the end of
its next turn (:meth:`cardmind.games.carioca.belief.CariocaBelief.opponent_chances`, the
constraint-only posterior by default) and what happened in that window (to the seat's first
discard from then, or the hand's end): whether it went down, and whether it stole a discard or
took one on its turn before going down. Per bin of predicted chance: predictions, mean
predicted, observed; the go-downs that followed a steal or a take; and the predictions whose
seat neither stole nor took in the window, with their mean predicted and observed.

    python eval/carioca_down_split.py --kinds peer,belief --games 30 --every 4

(issue 24: run at commit 30705d8, before the opponents' chances counted steals and takes,
and after; ``docs/calibration.md`` quotes both.)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibration_carioca import simulate  # noqa: E402

BINS = ((0.0, 0.1), (0.1, 0.3), (0.3, 1.0))


def window(events: list[dict], i: int, seat: int) -> tuple[bool, bool]:
    """From event ``i`` to ``seat``'s first discard (or the hand's end): ``(went down, stole or
    took a discard before going down)``."""
    down = acquired = False
    for ev in events[i:]:
        t = ev["type"]
        if t in ("steal", "take") and ev.get("player") == seat and not down:
            acquired = True
        if t == "go_down" and ev["player"] == seat:
            down = True
        if t == "hand_end" or (t == "discard" and ev["player"] == seat):
            break
    return down, acquired


def rows_of(kind: str, deal: int, every: int, model: str, seed: int) -> list[tuple[float, int, int]]:
    """``(predicted, went down, stole or took first)`` for every scored prediction of one game."""
    from cardmind.games.carioca.belief import CariocaBelief

    rec = simulate(kind, deal, 2, seed)
    view, truth = rec.for_seat(0), rec.events
    tr = CariocaBelief(view.options, 0, view.header["hand"], up=view.header["up"], model=model, samples=60)
    out = []
    for i, ev in enumerate(view.events):
        st = tr.state
        if not st.over and st.phase in ("offer", "draw", "play") and i % every == 0:
            for s, v in tr.opponent_chances().items():
                if not v["down"]:
                    down, acq = window(truth, i, s)
                    out.append((float(v["p_go_down"]), int(down), int(acq)))
        tr.observe(ev)
    return out


def report(kind: str, rows: list[tuple[float, int, int]]) -> list[str]:
    lines = []
    for lo, hi in BINS:
        b = [r for r in rows if lo <= r[0] < hi or (hi == 1.0 and r[0] == 1.0)]
        if not b:
            continue
        n, downs = len(b), sum(r[1] for r in b)
        acq = sum(1 for r in b if r[1] and r[2])
        rest = [r for r in b if not r[2]]
        lines.append(f"| {kind} | {lo:.1f}-{hi:.1f} | {n} | {100 * sum(r[0] for r in b) / n:.1f}% | "
                     f"{100 * downs / n:.1f}% | {downs} | {acq} | {len(rest)} | "
                     f"{100 * sum(r[0] for r in rest) / max(1, len(rest)):.1f}% | "
                     f"{100 * sum(r[1] for r in rest) / max(1, len(rest)):.1f}% |")
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kinds", default="peer,belief")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--model", default="uniform")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    t0 = time.time()
    lines = ["| opponents | bin | n | predicted | went down | go-downs | after a steal or take | "
             "no steal or take: n | predicted | went down |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for kind in args.kinds.split(","):
        rows = []
        for deal in range(args.first, args.first + args.games):
            rows += rows_of(kind, deal, args.every, args.model, args.seed)
            print(f"{kind} game {deal + 1 - args.first}/{args.games} ({time.time() - t0:.0f} s)", file=sys.stderr,
                  flush=True)
        lines += report(kind, rows)
    print("\n".join(lines))
    print(f"({args.games} games per kind, every {args.every} events, model {args.model}; {time.time() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
