"""Calibration study: are the Hand and Foot chances of ``cardmind hint`` right as often as they say?

Scores the chances the advice gives for every other player within its next turn (the table
"Within their next turn": **opens** (lays its team's first melds), **reaches its foot** (picks
it up), **goes out**), from every seat's view, against what that player then did in the game
(issue 24, point 2). A chance is scored when it is shown: ``opens`` while the player's team
has not opened, ``reaches its foot`` while the player is in its hand; ``goes out`` always.

Moments: the start of every ``--every``-th turn (before the draw) of simulated games, every
seat's view; the player's "next turn" is its first turn from that moment on (this one, when it
is the player to draw). A hand that ends first (the stock, or another player going out) counts
as "did not".

The chances are of what the player *will* do: its next turn played out in every sampled world
by a policy (:func:`cardmind.games.handfoot.decide.next_turn_chances`). Rows: the kind of the
player the chance is about (``random``, ``peer``, ``belief``) and the model (``auto``: the
default, the advice's own chances: each seat's worlds weighed by the model that best explains
its choices and its turn played by the policy its play fits,
:meth:`~cardmind.games.handfoot.belief.HandFootBelief.rollout_policies`; ``uniform``: the
constraint-only worlds, every seat played by ``peer`` and ``belief`` half each). Both come from
the same tracker at the same moment.

A run keeps the games scored so far in ``RAW/partial.json`` after each game and writes
``RAW/run.json`` at its end; ``--from-raw FILE ...`` writes the tables from several such files
merged (runs side by side, one per pairing or seed; a run cut short by its ``partial.json``).

    python eval/calibration.py handfoot --games 8 --every 3

Writes the tables between ``<!-- calibration-handfoot:begin -->`` and ``<!-- calibration-handfoot:end -->``
in ``docs/calibration.md`` (``--out``) and the raw predictions to ``eval/out/calibration-handfoot/``.
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

from cardmind.agents import resolve_agent  # noqa: E402
from cardmind.agents.match import play_game  # noqa: E402
from cardmind.core import get_game  # noqa: E402
from cardmind.games.handfoot.belief import HandFootBelief  # noqa: E402
from cardmind.games.handfoot.decide import MIXED, next_turn_chances  # noqa: E402

MARK_BEGIN = "<!-- calibration-handfoot:begin -->"
MARK_END = "<!-- calibration-handfoot:end -->"
#: the pairings simulated: (team 0's kind, team 1's kind); both seatings of every deal
PAIRINGS = [("belief", "peer"), ("peer", "random"), ("belief", "random")]
QUANTITIES = ("open", "foot", "out")
WORDS = {"open": "opens", "foot": "reaches its foot", "out": "goes out"}
MODELS = ("auto", "uniform")


def simulate(k0: str, k1: str, games: int, seed: int, options: dict):
    """Both seatings of ``games // 2`` seeded deals: ``[(record, kinds per seat)]``."""
    game = get_game("handfoot")
    out = []
    for d in range(max(1, games // 2)):
        for side in (0, 1):
            kinds = [(k0 if s % 2 == side else k1) for s in range(4)]
            classes = [resolve_agent(k, game) for k in kinds]
            res = play_game(game, options, classes, np.random.default_rng([seed, d]),
                            [np.random.default_rng([seed, d, side, s]) for s in range(4)])
            out.append((res.record, kinds))
    return out


def outcomes(rec, start: int, seat: int, game) -> dict[str, bool]:
    """What ``seat`` did in its first turn from event ``start`` on (a turn starts with its draw or
    pickup and ends before the next player's): ``open`` (it laid its team's first melds),
    ``foot`` (it picked up its foot), ``out`` (it went out). All false if the hand ends first."""
    evs = rec.events
    st = game.new_state(rec.options, rec.header)
    for ev in evs[:start]:
        st.apply_event(ev)
    i = start
    while i < len(evs):
        ev = evs[i]
        if ev["type"] in ("hand_end", "deal"):
            return dict.fromkeys(QUANTITIES, False)
        if ev["type"] in ("draw", "pickup") and ev["player"] == seat:
            break
        st.apply_event(ev)
        i += 1
    else:
        return dict.fromkeys(QUANTITIES, False)
    team = st.teams[seat]
    was_open = st.opened[team]
    res = dict.fromkeys(QUANTITIES, False)
    while i < len(evs):
        ev = evs[i]
        if ev["type"] in ("draw", "pickup") and ev["player"] != seat:
            break
        if ev["type"] == "deal":
            break
        if ev["type"] == "foot" and ev["player"] == seat:
            res["foot"] = True
        if ev["type"] == "hand_end":
            res["out"] = ev["reason"] == "out" and ev["player"] == seat
            break
        st.apply_event(ev)
        i += 1
    res["open"] = (not was_open) and st.opened[team]
    return res


def score_game(rec, kinds: list[str], every: int, worlds: int, rows: list) -> int:
    """Score every seat's view at the start of every ``every``-th turn; append
    ``(kind, quantity, model, p, outcome)`` to ``rows``; return the moments scored."""
    game = rec.game
    hands = rec.header["hands"]
    trackers = [HandFootBelief(rec.options, s, hands[s], worlds=worlds) for s in range(4)]
    truth = game.new_state(rec.options, rec.header)
    turn_starts = 0
    moments = 0
    for i, ev in enumerate(rec.events):
        if ev["type"] in ("draw", "pickup") and not truth.forced:
            turn_starts += 1
            if turn_starts % every == 0:
                moments += 1
                done: dict[int, dict[str, bool]] = {}
                for v, tr in enumerate(trackers):
                    view = tr.state
                    # auto: the advice's own chances (its worlds, its policies, its generators);
                    # uniform: the constraint-only worlds, every seat played by the mixed policy
                    per_model = {"auto": tr.next_turn(),
                                 "uniform": {s: next_turn_chances(view, s, tr.worlds(), tr.rng(11 + s), MIXED)
                                             for s in range(4) if s != v}}
                    for s in range(4):
                        if s == v:
                            continue
                        if s not in done:
                            done[s] = outcomes(rec, i, s, game)
                        for model, chs in per_model.items():
                            ch = chs[s]
                            if not view.opened[view.teams[s]]:
                                rows.append((kinds[s], "open", model, ch.open, done[s]["open"]))
                            if not view.in_foot[s]:
                                rows.append((kinds[s], "foot", model, ch.foot, done[s]["foot"]))
                            rows.append((kinds[s], "out", model, ch.out, done[s]["out"]))
        truth.apply_event(ev)
        for v, tr in enumerate(trackers):
            tr.observe(truth.redact(ev, v))
    return moments




def report(rows: list) -> tuple[str, list[str]]:
    """The tables, and the misses in words (a bin of 100 or more predictions off by > 5 points)."""
    a = np.array([(r[3], float(r[4])) for r in rows]) if rows else np.zeros((0, 2))
    keys = [(r[0], r[1], r[2]) for r in rows]
    kinds = [k for k in ("random", "peer", "belief") if any(x[0] == k for x in keys)]
    lines: list[str] = []
    misses: list[str] = []
    for q in QUANTITIES:
        lines += ["", f"#### {WORDS[q].capitalize()} within its next turn", "",
                  "Per bin of predicted chance: predictions (n): mean predicted / observed; **bold** where a bin "
                  "with at least 100 predictions is off by more than 5 points. Brier score (lower is better).", ""]
        head = "| player | model | n | Brier | " + " | ".join(f"{BINS[b]:.1f}-{BINS[b + 1]:.1f}"
                                                           for b in range(len(BINS) - 1)) + " |"
        lines += [head, "| --- | --- | ---: | ---: | " + " | ".join("---" for _ in range(len(BINS) - 1)) + " |"]
        for kind in kinds + ["all"]:
            for model in MODELS:
                m = np.array([(kind == "all" or k[0] == kind) and k[1] == q and k[2] == model for k in keys])
                if not len(m) or not m.any():
                    continue
                p, y = a[m, 0], a[m, 1]
                cells, missed = reliability_cells(p, y)
                misses += [f"{WORDS[q]}, {kind} players, {model}, bin {label}: predicted {mp:.1%}, "
                           f"observed {ob:.1%} (n = {n})" for label, n, mp, ob in missed]
                brier = float(np.mean((p - y) ** 2))
                lines.append(f"| {kind} | {model} | {len(p)} | {brier:.4f} | " + " | ".join(cells) + " |")
    return "\n".join(lines), misses


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=8, help="games per pairing (both seatings of games/2 deals)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--every", type=int, default=3, help="score at the start of every N-th turn")
    ap.add_argument("--worlds", type=int, default=None, help="worlds per view (default: the advice's)")
    ap.add_argument("--options", default='{"hands": 2}', help="the game's options (JSON)")
    ap.add_argument("--pairings", default="all", help="comma-separated indices into PAIRINGS, or 'all'")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "calibration.md")
    ap.add_argument("--raw", type=Path, default=ROOT / "eval" / "out" / "calibration-handfoot")
    ap.add_argument("--from-raw", nargs="+", type=Path, default=None,
                    help="write the tables from the raw predictions of earlier runs (their run.json files, "
                         "e.g. one run per pairing or per seed run side by side), merged, instead of playing")
    args = ap.parse_args(argv)
    from cardmind.games.handfoot.counting import DEFAULT_WORLDS

    if args.from_raw:
        return merge(args.from_raw, args.out)

    worlds = args.worlds or DEFAULT_WORLDS
    options = json.loads(args.options)
    pairings = PAIRINGS if args.pairings == "all" else [PAIRINGS[int(i)] for i in args.pairings.split(",")]
    t0 = time.time()
    rows: list = []
    moments = games = 0
    for k0, k1 in pairings:
        for rec, kinds in simulate(k0, k1, args.games, args.seed, options):
            moments += score_game(rec, kinds, args.every, worlds, rows)
            games += 1
            print(f"{k0} v {k1}: game {games} scored ({len(rows)} predictions, {time.time() - t0:.0f} s)",
                  file=sys.stderr, flush=True)
            # the games scored so far, kept after each game (a run cut short can still be merged)
            args.raw.mkdir(parents=True, exist_ok=True)
            (args.raw / "partial.json").write_text(json.dumps(
                {"cmd": "(cut short) " + " ".join(sys.argv), "seconds": round(time.time() - t0), "games": games,
                 "moments": moments, "pairings": [f"{k0} v {k1}"], "rows": rows}))
    args.raw.mkdir(parents=True, exist_ok=True)
    (args.raw / "predictions.json").write_text(json.dumps(rows))
    cmd = (f"python eval/calibration.py handfoot --games {args.games} --seed {args.seed} --every {args.every} "
           f"--options '{args.options}'" + (f" --pairings {args.pairings}" if args.pairings != "all" else "")
           + (f" --worlds {args.worlds}" if args.worlds else ""))
    run = {"cmd": cmd, "seconds": round(time.time() - t0), "games": games, "moments": moments,
           "pairings": [f"{a} v {b}" for a, b in pairings], "rows": rows}
    (args.raw / "run.json").write_text(json.dumps(run))
    return write_doc([run], args.out)


def merge(paths: list[Path], out: Path) -> int:
    """The tables of several runs' ``run.json`` files, merged (:func:`write_doc`)."""
    return write_doc([json.loads(p.read_text()) for p in paths], out)


def _plain_cmd(run: dict) -> str:
    """The command of a run as a reader would type it (a run cut short: its arguments, with a
    comment saying after how many games it stopped)."""
    import re

    cmd = run["cmd"]
    if not cmd.startswith("(cut short) "):
        return cmd
    cmd = re.sub(r"^\(cut short\) \S*calibration_handfoot\.py", "python eval/calibration.py handfoot", cmd)
    cmd = re.sub(r" --(out|raw) \S+", "", cmd)
    cmd = re.sub(r"--options (\{.*?\})", lambda m: f"--options '{m.group(1)}'", cmd)
    return f"{cmd}   # cut short after {run['games']} games"


def write_doc(runs: list[dict], out: Path) -> int:
    """Write the Hand and Foot section of ``out`` (between the markers) from ``runs``: each
    ``{"cmd", "seconds", "games", "moments", "pairings", "rows"}``; print it."""
    rows = [tuple(r) for run in runs for r in run["rows"]]
    games = sum(r["games"] for r in runs)
    moments = sum(r["moments"] for r in runs)
    pairs = list(dict.fromkeys(p for r in runs for p in r["pairings"]))
    text, misses = report(rows)
    cmds = [_plain_cmd(r) for r in runs]
    secs = [r["seconds"] for r in runs]
    summary = (f"{games} games ({', '.join(pairs)}, both seatings), {moments} moments, "
               f"every seat's view: {len(rows)} predictions"
               + (f"; {len(runs)} runs side by side, {min(secs)}-{max(secs)} s each." if len(runs) > 1 else
                  f"; {secs[0]} s."))
    miss_text = ("Bins that miss the target (100 or more predictions, off by more than 5 points): "
                 + "; ".join(misses) + "." if misses else
                 "No bin with 100 or more predictions is off by more than 5 points.")
    intro = (
        "Hand and Foot's advice gives, for every other player, the chances that within its next turn it "
        "**opens** (lays its team's first melds), **reaches its foot** and **goes out** (the table \"Within "
        "their next turn\" of `cardmind hint`). Since issue 24 they are chances of what the player *will* do: "
        "in every sampled deal its next turn is played out by the policy its play fits (`random` when the "
        "`random` model explains its recent choices best, else `peer` in half the deals and `belief` in the "
        "other half, `belief` in the deals where the player could have gone out at its last discard and did "
        "not), and under `auto` the deals give a player that is not read as `random` nothing, at its last "
        "discard, that `peer` and `belief` would have laid (`docs/handfoot.md`, \"Advice\"). "
        "`eval/calibration_handfoot.py` scores them from every "
        "seat's view at the start of every third turn of simulated games against what the player then did "
        "(a chance is scored where the advice shows it: \"opens\" while its team has not opened, \"reaches "
        "its foot\" while it is in its hand). Rows: the kind of player the chance is about, and the model "
        "(`auto`, the default: the deals weighed by the fitted player model per seat, read for what the "
        "players did not lay, and the policy read from the play; `uniform`: the constraint-only deals, every "
        "seat played by `peer` and `belief` half each).")
    body = "\n".join([MARK_BEGIN, "", "## Hand and Foot", "", intro, "",
                      f"<!-- docs:skip the Hand and Foot study: {max(secs)} s on the shared machine -->",
                      "```sh", *cmds, "```", "", summary, "", miss_text, text, "", MARK_END])
    old = out.read_text() if out.exists() else ""
    if MARK_BEGIN in old:
        new = old[:old.index(MARK_BEGIN)] + body + old[old.index(MARK_END) + len(MARK_END):]
    else:
        new = old.rstrip("\n") + "\n\n" + body + "\n"
    out.write_text(new)
    print(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
