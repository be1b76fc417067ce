"""Calibration study: is the chance that a Go Fish ask hits right as often as cardmind says?

Plays seeded games among the built-in players and scores, from the asker's view just before
every ask of phase 1, the chance the advice gives (``cardmind hint``: the chance the target
holds at least one card of the rank) of **every** ask the asker could make then (each rank
it holds, at each other player with cards), against whether the target held one (issue 24,
point 2). A certain ask (100%) is counted apart (it is always right, or the tracker is
wrong); an impossible one (0%) is left out, as the advice leaves it out.

Rows: the kind of the **other** player(s) (``random``, ``peer``, ``belief``: the asker's
opponents) and the model of the asker's tracker: ``auto`` (the default: the opponent's asks
read by the ``peer`` and ``random`` models mixed by their likelihood) and ``uniform`` (every
consistent deal alike). The asker plays ``peer`` or ``belief`` (both seatings of every
deal). With three or more players ``auto`` reweighs deals sampled from the exact count by
each other player's recent asks (``docs/gofish-belief.md``), and both rows are scored.

    python eval/calibration.py gofish --games 40 --seed 1

Writes the tables between ``<!-- calibration-gofish:begin -->`` and
``<!-- calibration-gofish:end -->`` in ``docs/calibration.md`` and the raw predictions to
``eval/out/calibration/gofish.json``.
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

from calibration_common import BINS, MIN_N, TARGET, reliability, reliability_cells  # noqa: E402

from cardmind.agents import resolve_agent  # noqa: E402
from cardmind.agents.match import play_game  # noqa: E402
from cardmind.core import get_game  # noqa: E402
from cardmind.games.gofish.belief import GoFishBelief  # noqa: E402

MARK_BEGIN = "<!-- calibration-gofish:begin -->"
MARK_END = "<!-- calibration-gofish:end -->"
#: the pairings simulated: (players, the asker's kind, the opponents' kind); both seatings
#: of every deal, so each game scores both kinds' views
PAIRINGS = [(2, "peer", "random"), (2, "peer", "peer"), (2, "peer", "belief"), (2, "belief", "random"),
            (2, "belief", "belief"), (4, "peer", "random"), (4, "peer", "peer"), (4, "peer", "belief")]


class Scores:
    """Predictions and outcomes per (players, opponents' kind, model)."""

    def __init__(self) -> None:
        self.data: dict[tuple[int, str, str], list[tuple[float, int]]] = {}
        self.certain: dict[tuple[int, str, str], list[int]] = {}

    def add(self, key: tuple[int, str, str], p: float, hit: bool) -> None:
        if p >= 1.0:
            self.certain.setdefault(key, []).append(int(hit))
        elif p > 0.0:
            self.data.setdefault(key, []).append((float(p), int(hit)))

    def arrays(self, select) -> tuple[np.ndarray, np.ndarray]:
        rows = [r for k, v in self.data.items() if select(k) for r in v]
        if not rows:
            return np.zeros(0), np.zeros(0)
        a = np.array(rows)
        return a[:, 0], a[:, 1]




def simulate(players: int, kind_a: str, kind_b: str, games: int, seed: int, options: dict | None = None):
    """``games`` seeded games: deal ``d`` is played twice, with the ``kind_a`` player in seat 0
    and then in seat 1 (the others ``kind_b``). Yields ``(record, kinds per seat)``."""
    game = get_game("gofish")
    for d in range(max(1, games // 2)):
        for side in (0, 1):
            kinds = [kind_a if s == side else kind_b for s in range(players)]
            classes = [resolve_agent(k, game) for k in kinds]
            factories = [(lambda c: (lambda g, s, o, h: c(g, s, o, h)))(c) for c in classes]
            res = play_game(game, {**(options or {}), "players": players}, factories, np.random.default_rng([seed, players, d]),
                            [np.random.default_rng([seed, players, d, side, s]) for s in range(players)])
            yield res.record, kinds


def score_game(rec, kinds: list[str], models: list[str], scores: Scores, seats: list[int],
               label: str | None = None) -> None:
    """Score the views of ``seats`` (each before each of its phase-1 asks) under every model;
    the rows are keyed ``(label, opponents' kind, model)`` (``label``: the number of players)."""
    game = rec.game
    n = game.num_seats(rec.options)
    truth = game.new_state(rec.options, rec.header)
    views = {s: {m: GoFishBelief(rec.options, s, rec.header["hands"][s], model=m) for m in models}
             for s in seats}
    for ev in rec.events:
        a = ev.get("asker") if ev["type"] == "ask" else None
        if a in views and truth.phase == 1:
            others = [k for k in kinds[:a] + kinds[a + 1:]]
            opp = others[0] if len(set(others)) == 1 else "mixed"
            held = sorted({c[0] for c in truth.hands[a]})
            for m, tr in views[a].items():
                for t in range(n):
                    if t == a or not truth.hands[t]:
                        continue
                    real = {c[0] for c in truth.hands[t]}
                    for r in held:
                        scores.add((label or str(n), opp, m), tr.p_holds(t, r), r in real)
        truth.apply_event(ev)
        for s, per in views.items():
            red = truth.redact(ev, s)
            for tr in per.values():
                tr.observe(red)


def fmt_table(scores: Scores, keys: list[tuple[int, str, str]]) -> list[str]:
    lines = ["| players (deck) | opponents | model | certain asks (hit) | "
             + " | ".join(f"{BINS[b]:.1f}-{BINS[b + 1]:.1f}" for b in range(len(BINS) - 1)) + " |",
             "| ---: | --- | --- | ---: | " + " | ".join("---" for _ in range(len(BINS) - 1)) + " |"]
    misses = []
    for key in keys:
        p, y = scores.arrays(lambda k, key=key: k == key)
        cert = scores.certain.get(key, [])
        cells, missed = reliability_cells(p, y)
        misses += [(key, *miss) for miss in missed]
        c = f"{len(cert)} ({100 * np.mean(cert):.0f}%)" if cert else "0"
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | {c} | " + " | ".join(cells) + " |")
    return lines, misses


def report(scores: Scores, keys: list[tuple[int, str, str]]) -> str:
    lines = ["Per bin of predicted chance of a hit: asks scored (n), mean predicted / observed share of "
             f"hits; **bold** where a bin of at least {MIN_N} asks is off by more than {100 * TARGET:.0f} "
             "points. Certain asks (100%) are counted apart; impossible ones (0%) are left out, as the "
             "advice leaves them out.", ""]
    table, misses = fmt_table(scores, keys)
    lines += table
    lines += ["", "Brier score (lower is better) and the largest miss of a bin of at least "
              f"{MIN_N} asks:", "", "| players (deck) | opponents | model | asks | Brier | largest miss (points) |",
              "| ---: | --- | --- | ---: | ---: | ---: |"]
    for key in keys:
        p, y = scores.arrays(lambda k, key=key: k == key)
        if not len(p):
            continue
        worst = max((abs(mp - ob) for n, mp, ob in reliability(p, y) if n >= MIN_N), default=float("nan"))
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | {len(p)} | {np.mean((p - y) ** 2):.4f} | "
                     + ("" if worst != worst else f"{100 * worst:.1f}") + " |")
    lines.append("")
    if misses:
        lines.append("Bins that miss the target (at least "
                     f"{MIN_N} asks, more than {100 * TARGET:.0f} points off):")
        lines.append("")
        for (pl, opp, m), b, n, mp, ob in misses:
            who = f"{pl} players" if "(" not in str(pl) else str(pl).replace(" (", " players (", 1)
            lines.append(f"* {who}, against {opp}, model {m}, bin {b}: {n} asks, predicted "
                         f"{100 * mp:.1f}%, hit {100 * ob:.1f}% ({100 * (ob - mp):+.1f} points)")
    else:
        lines.append(f"Every bin of at least {MIN_N} asks is within {100 * TARGET:.0f} points.")
    return "\n".join(lines)


def _write_raw(folder: Path, scores: Scores, played: dict, secs: float) -> None:
    """The raw predictions so far (``gofish.json``: ``data``, ``certain``, ``played`` games
    per pairing index, ``seconds``)."""
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / "gofish.json.tmp"
    tmp.write_text(json.dumps({
        "data": {"|".join(map(str, k)): v for k, v in scores.data.items()},
        "certain": {"|".join(map(str, k)): v for k, v in scores.certain.items()},
        "played": played, "seconds": secs}))
    tmp.replace(folder / "gofish.json")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40, help="games per pairing (both seatings of games/2 deals)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pairings", default="all", help="comma-separated indices into PAIRINGS, or 'all'")
    ap.add_argument("--games-4p", type=int, default=None, help="games per pairing of 3+ players (default --games)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "calibration.md")
    ap.add_argument("--raw", type=Path, default=ROOT / "eval" / "out" / "calibration")
    ap.add_argument("--no-write", action="store_true", help="print the tables only")
    ap.add_argument("--merge", nargs="+", type=Path, default=None, metavar="RAW",
                    help="no games: report the raw predictions of earlier runs (their gofish.json files) "
                         "together (runs of disjoint pairings in parallel); --games etc. name the command")
    ap.add_argument("--seconds", type=float, default=None, help="with --merge: the runs' time, for the doc")
    ap.add_argument("--options", default=None, help="deck options as JSON (e.g. a reduced deck: "
                    "'{\"ranks\": 6, \"suits\": 4, \"hand\": 5}'); the rows are then labelled with them")
    args = ap.parse_args(argv)
    t0 = time.time()
    deck = json.loads(args.options) if args.options else None

    def label(players: int) -> str:
        if not deck:
            return str(players)
        return f"{players} ({', '.join(f'{k} {v}' for k, v in deck.items())})"

    pairings = PAIRINGS if args.pairings == "all" else [PAIRINGS[int(i)] for i in args.pairings.split(",")]
    scores = Scores()
    keys: list[tuple[int, str, str]] = []
    played_all: dict[str, int] = {}
    if args.merge:
        for path in args.merge:
            raw = json.loads(path.read_text())
            for k, v in raw.get("played", {}).items():
                played_all[k] = played_all.get(k, 0) + v
            for part, store in (("data", scores.data), ("certain", scores.certain)):
                for k, v in raw[part].items():
                    pl, opp, m = k.split("|")
                    key = (pl, opp, m)
                    store.setdefault(key, []).extend(tuple(x) if isinstance(x, list) else x for x in v)
                    if key not in keys:
                        keys.append(key)
        pairings = []
    # the pairings take turns, deal by deal (both seatings of a deal in a row), and the raw
    # predictions are written after every game: a run stopped early keeps balanced data
    runs = []
    played: dict[str, int] = {}
    for players, ka, kb in pairings:
        models = ["auto", "uniform"]
        games = args.games if players == 2 or args.games_4p is None else args.games_4p
        runs.append((players, ka, kb, models, simulate(players, ka, kb, games, args.seed, deck)))
        for m in models:
            if (label(players), kb, m) not in keys:
                keys.append((label(players), kb, m))
    played.update({f"{r[0]}p {r[1]} v {r[2]}": 0 for r in runs})
    while runs:
        for players, ka, kb, models, gen in list(runs):
            for _ in range(2):
                got = next(gen, None)
                if got is None:
                    runs.remove((players, ka, kb, models, gen))
                    print(f"{players}p {ka} v {kb}: done ({time.time() - t0:.0f} s)", file=sys.stderr, flush=True)
                    break
                rec, kinds = got
                score_game(rec, kinds, models, scores, [s for s in range(players) if kinds[s] == ka],
                           label(players))
                played[f"{players}p {ka} v {kb}"] += 1
                _write_raw(args.raw, scores, played, time.time() - t0)
    keys.sort(key=lambda k: (k[0], ["random", "peer", "belief", "mixed"].index(k[1]), k[2] != "auto"))
    text = report(scores, keys)
    secs = args.seconds if args.merge and args.seconds is not None else time.time() - t0
    print(text)
    if not args.merge:
        _write_raw(args.raw, scores, played, secs)
    if args.no_write:
        return 0
    cmd = (f"python eval/calibration.py gofish --games {args.games} --seed {args.seed}"
           + (f" --games-4p {args.games_4p}" if args.games_4p is not None else "")
           + (f" --pairings {args.pairings}" if args.pairings != "all" else ""))
    n2 = sum(len(v) for k, v in scores.data.items() if k[0] == "2" and k[2] == "auto")
    body = "\n".join([MARK_BEGIN, "", "## Go Fish: the chance an ask hits", "", INTRO, "",
                      f"<!-- docs:skip the measured run: {secs:.0f} s on the shared 2-core machine -->",
                      "```sh", cmd, "```", "",
                      f"{n2} uncertain asks scored per model in two-player games; games played (asker v "
                      "opponents; both seatings of every deal, seed "
                      f"{args.seed}): " + (", ".join(f"{k} {v}" for k, v in played_all.items()) or
                                           f"{args.games} per pairing") + ".", "", text, "", MARK_END])
    out = args.out
    old = out.read_text() if out.exists() else ""
    if MARK_BEGIN in old and MARK_END in old:
        new = old[:old.index(MARK_BEGIN)] + body + old[old.index(MARK_END) + len(MARK_END):]
    else:
        new = old.rstrip("\n") + "\n\n" + body + "\n"
    out.write_text(new)
    return 0


#: the section's opening words in ``docs/calibration.md``
INTRO = """Does an ask hit as often as `cardmind hint` says? `eval/calibration_gofish.py` plays seeded games
among the built-in players and, from the asker's view just before each of its asks in phase 1,
scores the chance the advice gives for **every** ask it could make then (each rank it holds, at
each other player holding cards) against whether that player held one. Rows: the kind of the
asker's opponents (`random`, `peer`, `belief`) and the model of the asker's tracker: `auto`, the
default (the opponent's asks read by the `peer`, `belief` and `random` ask models, mixed by
their likelihood: `docs/gofish-belief.md`, "Player models"), and `uniform` (every consistent deal
alike). The asker plays `peer` or `belief`; each deal is played with the asker in either seat.
With four players `auto` reads each other player's recent asks by the same models, choice of
target included, on deals sampled from the exact count (`docs/gofish-belief.md`, "Three or
more players"). The ask models were fitted on other seeds (`peer`: seed 0; `belief`: seed 0 against
`peer`); the study uses seeds `[1, players, deal]`."""


if __name__ == "__main__":
    sys.exit(main())
