"""Calibration study: are cardmind's contract rummy chances right as often as they say?

Scores the chances the default advice (``cardmind hint``) gives against what happened in
simulated games (issue 24, point 2):

* **taken**: when the observer discards a card (not its last), the chance that another player
  takes or steals it (:meth:`cardmind.games.carioca.decide.Advisor.danger`, the hint's
  discard table), against whether the offer closed with a take or a steal;
* **down** and **out**: at every ``--every``-th event, for every other seat, the chance that it
  can go down (if not down yet) and go out by the end of its next turn
  (:meth:`cardmind.games.carioca.belief.CariocaBelief.opponent_chances`), against whether it
  went down (out) by the end of that turn: its first discard from then (or the hand's end).
  The tracker gives the chance that it *can* with its hand and the card it would get; a
  player that can but waits (or a hand that ends first) counts as not.

Games: four players, the first ``--hands`` contracts; the observer (seat 0, ``belief``) against
three players of one built-in kind (``random``, ``peer`` or ``belief``), ``--games`` deals per
kind (deal seeds ``[seed, kind, deal]``). Each is scored under the default model (``auto``)
and ``uniform`` (the constraint-only posterior). Per bin of predicted chance (10 bins): n, mean
predicted, observed; a bin of 100 or more predictions off by more than 5 points is **bold**
and named below the tables.

    python eval/calibration.py carioca --games 6 --hands 2 --every 6 --out docs/calibration.md

Writes the tables between ``<!-- calibration-carioca:begin -->`` and ``<!-- calibration-carioca:end -->``
in ``--out`` and the raw predictions to ``eval/out/calibration/carioca.json``.
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibration_common import BINS, reliability_cells  # noqa: E402

MARK_BEGIN = "<!-- calibration-carioca:begin -->"
MARK_END = "<!-- calibration-carioca:end -->"
KINDS = ("random", "peer", "belief")
MODELS = ("auto", "uniform")
QUANTITIES = (("taken", "a discard is taken or stolen"), ("down", "an opponent goes down by the end of its next turn"),
              ("out", "an opponent goes out by the end of its next turn"))
KIND_ID = {k: i for i, k in enumerate(KINDS)}




def simulate(kind: str, deal: int, hands: int, seed: int):
    """One game: ``belief`` at seat 0, ``kind`` at seats 1-3 (the complete record)."""
    from cardmind.agents.base import resolve_agent
    from cardmind.agents.match import play_game
    from cardmind.core import get_game

    game = get_game("carioca")
    agents = [resolve_agent("belief", game)] + [resolve_agent(kind, game)] * 3
    res = play_game(game, {"players": 4, "hands": hands}, agents, np.random.default_rng([seed, KIND_ID[kind], deal]),
                    [np.random.default_rng([seed, KIND_ID[kind], deal, s]) for s in range(4)], max_actions=4000)
    return res.record


def _offer_taken(events: list[dict], i: int) -> bool | None:
    """After the discard at ``i``: whether its offer closed with a take or a steal (``None``:
    the hand ended, no offer)."""
    for ev in events[i + 1:]:
        t = ev["type"]
        if t in ("take", "steal"):
            return True
        if t in ("draw", "restock", "discard", "go_down", "lay_off"):
            return False
        if t in ("hand_end", "deal"):
            return None
    return None


def _by_next_turn(events: list[dict], i: int, seat: int) -> tuple[bool, bool]:
    """From event ``i`` on: whether ``seat`` goes down, and goes out, by the end of its next
    turn (its first discard from ``i``; the hand's end closes the window)."""
    down = False
    for j in range(i, len(events)):
        ev = events[j]
        t = ev["type"]
        if t == "go_down" and ev["player"] == seat:
            down = True
        if t == "hand_end":
            return down, ev.get("out") == seat
        if t == "discard" and ev["player"] == seat:
            nxt = events[j + 1] if j + 1 < len(events) else {}
            return down, nxt.get("type") == "hand_end" and nxt.get("out") == seat
    return down, False


def score_game(rec, kind: str, every: int, samples: int, out: dict) -> None:
    """Add the predictions of seat 0's view of ``rec`` under each model to ``out``."""
    from cardmind.games.carioca.decide import Advisor
    from cardmind.games.carioca.belief import CariocaBelief

    view = rec.for_seat(0)
    truth = rec.events
    trackers = {m: CariocaBelief(view.options, 0, view.header["hand"], up=view.header["up"], model=m,
                                 samples=samples) for m in MODELS}
    for i, ev in enumerate(view.events):
        st = trackers["auto"].state
        live = not st.over and st.phase in ("offer", "draw", "play")
        if ev["type"] == "discard" and ev["player"] == 0 and st.sizes[0] > 1:
            taken = _offer_taken(truth, i)
            if taken is not None:
                for m, tr in trackers.items():
                    p, _ = Advisor(tr, worlds=32).danger(ev["card"])
                    out.setdefault((kind, "taken", m), []).append((float(p), int(taken)))
        if live and i % every == 0:
            for m, tr in trackers.items():
                for s, v in tr.opponent_chances().items():
                    down, gone = _by_next_turn(truth, i, s)
                    if not v["down"]:
                        out.setdefault((kind, "down", m), []).append((float(v["p_go_down"]), int(down)))
                    out.setdefault((kind, "out", m), []).append((float(v["p_go_out"]), int(gone)))
        for tr in trackers.values():
            tr.observe(ev)


def report(data: dict, misses: list[str]) -> str:
    lines = []
    for q, title in QUANTITIES:
        lines += ["", f"### The chance that {title}", "",
                  "Per bin of predicted chance: predictions (n): mean predicted / observed; **bold** where a bin "
                  "with at least 100 predictions is off by more than 5 points.", ""]
        head = "| opponents | model | n | " + " | ".join(f"{BINS[b]:.1f}-{BINS[b + 1]:.1f}"
                                                       for b in range(len(BINS) - 1)) + " |"
        lines += [head, "| --- | --- | ---: | " + " | ".join("---" for _ in range(len(BINS) - 1)) + " |"]
        for kind in KINDS:
            for m in MODELS:
                rows = data.get((kind, q, m), [])
                if not rows:
                    continue
                a = np.array(rows, dtype=float)
                cells, missed = reliability_cells(a[:, 0], a[:, 1])
                misses += [f"{q} against {kind}, {m}, bin {label}: {n} predictions, predicted {100 * mp:.0f}%, "
                           f"observed {100 * ob:.0f}%" for label, n, mp, ob in missed]
                lines.append(f"| {kind} | {m} | {len(rows)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6, help="games per opponent kind")
    ap.add_argument("--hands", type=int, default=2, help="contracts played per game (the first N)")
    ap.add_argument("--every", type=int, default=6, help="score the opponents' chances at every N-th event")
    ap.add_argument("--samples", type=int, default=60, help="the tracker's sampled worlds (its default: 60)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="the first deal (deals first .. first + games - 1)")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "calibration.md")
    ap.add_argument("--raw", type=Path, default=ROOT / "eval" / "out" / "calibration")
    ap.add_argument("--merge", default=None, help="comma-separated raw files of earlier runs (each kind in its own "
                                                  "process): report them instead of playing")
    ap.add_argument("--seconds", type=float, default=None, help="with --merge: the runs' time, for the report")
    ap.add_argument("--label", default=None, help="with --merge: the commands of the runs, for the report")
    args = ap.parse_args(argv)
    t0 = time.time()
    data: dict = {}
    kinds = args.kinds.split(",")
    if args.merge:
        for f in args.merge.split(","):
            for k, v in json.loads(Path(f).read_text()).items():
                data.setdefault(tuple(k.split("|")), []).extend(v)
    else:
        args.raw.mkdir(parents=True, exist_ok=True)
        raw = args.raw / f"carioca-{'-'.join(kinds)}-{args.first}.json"
        for kind in kinds:
            for deal in range(args.first, args.first + args.games):
                rec = simulate(kind, deal, args.hands, args.seed)
                score_game(rec, kind, args.every, args.samples, data)
                raw.write_text(json.dumps({"|".join(k): v for k, v in data.items()}))
                print(f"{kind} game {deal + 1 - args.first}/{args.games} ({time.time() - t0:.0f} s)", file=sys.stderr,
                      flush=True)
    misses: list[str] = []
    text = report(data, misses)
    cmd = (f"python eval/calibration.py carioca --games {args.games} --hands {args.hands} --every {args.every} "
           f"--seed {args.seed}" + (f" --kinds {args.kinds}" if args.kinds != ",".join(KINDS) else ""))
    miss = ("Bins that miss the target (100 or more predictions, off by more than 5 points):\n\n"
            + "\n".join(f"* {m}" for m in misses)) if misses else \
        "Every bin of 100 or more predictions is within 5 points of what happened."
    took = args.seconds if args.seconds is not None else time.time() - t0
    what = args.label if args.label else f"Command: `{cmd}`"
    body = "\n".join([MARK_BEGIN, "", f"{what} ({took:.0f} s)", text, "", miss, "", MARK_END])
    out = args.out
    old = out.read_text() if out.exists() else ""
    if MARK_BEGIN in old:
        new = old[:old.index(MARK_BEGIN)] + body + old[old.index(MARK_END) + len(MARK_END):]
    else:
        new = old.rstrip("\n") + "\n\n## Contract rummy\n\n" + body + "\n"
    out.write_text(new)
    print(text)
    print(miss)
    return 0


if __name__ == "__main__":
    sys.exit(main())
