"""Calibration study: are cardmind's Literature probabilities right as often as they say?

Scores the probabilities cardmind gives, from every seat's view at many moments of many
games, against the true deal (issue 16, "Calibration, measured"):

* **card marginals**: at every ``--every``-th event, from every seat's view, P(card at seat)
  for every card that seat cannot locate and every other seat;
* **claim probabilities**: at the same moments, for every unclaimed set the seat's team may
  hold, the probability that the best claim (the most probable assignment under the model)
  is right, and P(the team holds the set);
* **claims made**: every claim the players made, with the probability of its assignment from
  the claimer's view just before it.

Each is scored under every model row: ``auto`` (the default of ``cardmind hint``: each other
team weighed by the fitted model that best explains its asks so far, read from that view:
:class:`cardmind.games.literature.models.AutoChoice`; first row of every table), ``uniform``
(the constraint-only posterior) and ``fitted`` (each other seat weighed by the fitted model of
the kind of player in it, which a player at the table does not know:
:mod:`cardmind.games.literature.models`); the weighted rows are computed exactly by the
counter with the factored likelihood. Scores: reliability tables (predicted bins against the observed
frequency), Brier score and log-loss (probabilities clipped to [1e-6, 1 - 1e-6]).

Data:

* simulated games (seeded) among ``random``, ``peer`` and ``belief``, 6 players (54 cards)
  and 8 players (48 cards), both seatings of every deal (``--games`` per pairing);
* the people's games in ``../shared/records/literature-human`` (every claim they made,
  every card at every tenth event, from every seat's view). Their ``fitted`` row uses the
  ``people`` model fitted on the *other* people's games (leave one game out), so no game is
  scored by a model fitted on it.

    python eval/calibration.py literature --games 60 --seed 1 --out docs/calibration.md

Writes the tables between markers in ``docs/calibration.md`` and the raw predictions to
``eval/out/calibration/``.
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

from calibration_common import BINS, reliability  # noqa: E402

from cardmind.agents import resolve_agent  # noqa: E402
from cardmind.agents.match import play_game  # noqa: E402
from cardmind.core import get_game  # noqa: E402
from cardmind.errors import RecordError  # noqa: E402
from cardmind.games.literature.belief import LiteratureBelief  # noqa: E402
from cardmind.games.literature.models import (AskModel, ask_decisions, load_player_model,  # noqa: E402
                                              register_player_model)
from cardmind.games.literature.rules import set_cards, team_of  # noqa: E402
from cardmind.records import read_record  # noqa: E402

MARK_BEGIN = "<!-- calibration-literature:tables:begin -->"
MARK_END = "<!-- calibration-literature:tables:end -->"
#: the model rows, the default first
ROWS = ["auto", "uniform", "fitted"]
#: the target of issue 24: within this many points in every bin of at least MIN_BIN predictions
TARGET, MIN_BIN = 0.05, 100
#: the pairings simulated: (players, team 0's kind, team 1's kind)
PAIRINGS = [(6, "belief", "peer"), (6, "peer", "random"), (6, "belief", "random"), (6, "peer", "peer"),
            (8, "belief", "peer"), (8, "peer", "random")]
EPS = 1e-6


class Scores:
    """Predictions and outcomes per (group, quantity, model)."""

    def __init__(self) -> None:
        self.data: dict[tuple[str, str, str], list[tuple[float, int]]] = {}

    def add(self, group: str, quantity: str, model: str, p: float, outcome: bool) -> None:
        self.data.setdefault((group, quantity, model), []).append((float(p), int(outcome)))

    def merge(self, other: "Scores") -> None:
        for k, v in other.data.items():
            self.data.setdefault(k, []).extend(v)

    def arrays(self, select, quantity: str, model: str) -> tuple[np.ndarray, np.ndarray]:
        """Predictions and outcomes of the groups ``select(group)`` accepts."""
        rows = [r for (g, q, m), v in self.data.items() if q == quantity and m == model and select(g) for r in v]
        if not rows:
            return np.zeros(0), np.zeros(0)
        a = np.array(rows)
        return a[:, 0], a[:, 1]


def brier(p: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((p - y) ** 2)) if len(p) else float("nan")


def logloss(p: np.ndarray, y: np.ndarray) -> float:
    q = np.clip(p, EPS, 1 - EPS)
    return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))) if len(p) else float("nan")




# ----------------------------------------------------------------------------- scoring one game
def truth_at(game, rec, upto: int):
    """The complete state after the first ``upto`` events."""
    st = game.new_state(rec.options, rec.header)
    for ev in rec.events[:upto]:
        st.apply_event(ev)
    return st


def score_game(rec, group: str, kinds: list[str], models: dict[str, dict[int, str]], every: int,
               scores: Scores, claim_kinds: dict[int, str] | None = None) -> None:
    """Score every seat's view of ``rec`` at every ``every``-th event (and before every claim).

    Args:
        kinds: the kind of player in each seat (for the claims-made table).
        models: ``{model row: {seat: model name}}`` (seats the view does not weigh: absent),
            or ``{model row: model name}`` (every other seat: ``"auto"``, ``"uniform"``).
    """
    game = rec.game
    n = game.num_seats(rec.options)
    hands = rec.header["hands"]
    trackers = [LiteratureBelief(rec.options, s, hands[s]) for s in range(n)]
    truth = game.new_state(rec.options, rec.header)
    for i, ev in enumerate(rec.events + [None]):
        moment = i % every == 0 and ev is not None
        claim = ev is not None and ev["type"] == "claim"
        if moment or claim:
            for s, tr in enumerate(trackers):
                if claim and not moment and s != ev["claimer"]:
                    continue
                for row, per_seat in models.items():
                    if isinstance(per_seat, str):
                        tr.set_models(per_seat)
                    else:
                        tr.set_models("uniform", {x: m for x, m in per_seat.items() if x != s})
                    if claim and s == ev["claimer"]:
                        p = tr.assignment_probability(ev["set"], ev["assignment"])
                        scores.add(group, "claims made", row, p, ev["correct"])
                    if moment:
                        _score_view(tr, truth, f"{group}", row, scores)
                tr.set_models("uniform")
        if ev is None:
            break
        truth.apply_event(ev)
        for tr in trackers:
            tr.observe(ev)


def _score_view(tr: LiteratureBelief, truth, group: str, row: str, scores: Scores) -> None:
    st = tr.state
    if st.is_over():
        return
    marg = tr.marginals()
    holders = st.holder
    team = team_of(tr.observer)
    for c, d in marg.items():
        if c in holders:
            continue
        real = truth.holder[c]
        for s in range(tr.players):
            if s == tr.observer:
                continue
            scores.add(group, "cards", row, d.get(s, 0.0), real == s)
    for name in st.unclaimed_sets():
        p_team = tr.team_holds_probability(name)
        right_team = all(team_of(truth.holder[c]) == team for c in set_cards(name))
        scores.add(group, "team holds", row, p_team, right_team)
        if p_team <= 0:
            continue
        best = tr.best_assignment(name)
        if best is None:
            continue
        a, p, _ = best
        scores.add(group, "claims", row, p, all(truth.holder[c] == a[c] for c in set_cards(name)))


# ----------------------------------------------------------------------------- simulated games
def simulate(players: int, kind0: str, kind1: str, games: int, seed: int):
    """Both seatings of ``games // 2`` seeded deals: (record, kinds per seat)."""
    game = get_game("literature")
    out = []
    for d in range(max(1, games // 2)):
        for side in (0, 1):
            kinds = [(kind0 if s % 2 == side else kind1) for s in range(players)]
            classes = [resolve_agent(k, game) for k in kinds]
            factories = [(lambda c: (lambda g, s, o, h: c(g, s, o, h)))(c) for c in classes]
            res = play_game(game, {"players": players}, factories, np.random.default_rng([seed, players, d]),
                            [np.random.default_rng([seed, players, d, side, s]) for s in range(players)])
            out.append((res.record, kinds))
    return out


# ----------------------------------------------------------------------------- people
def people_records(shared: Path):
    """``[(game name, record)]`` of the people's games (the one logged with a mistake up to the
    line before it)."""
    out = []
    for path in sorted((shared / "records" / "literature-human").glob("*.jsonl")):
        try:
            rec = read_record(path)
        except RecordError as exc:
            if exc.line is None or exc.line <= 2:
                raise
            rec = read_record(path, upto=exc.line - 1)
        out.append((path.stem, rec))
    return out


def leave_one_out_people(records) -> dict[str, str]:
    """Register a ``people`` model fitted without each game; ``{game: model name}``."""
    decisions = {name: ask_decisions(rec.options, rec.header["hands"], rec.events) for name, rec in records}
    out = {}
    base = load_player_model("people")
    for name in decisions:
        train = [d for other, dec in decisions.items() if other != name for d in dec]
        model = AskModel.fit(train, name=f"people-without-{name}")
        model.temper = base.temper if base is not None else 1.0
        register_player_model(model)
        out[name] = model.name
    return out


# ----------------------------------------------------------------------------- report
def fmt(x: float, digits: int = 3) -> str:
    return "" if x != x else f"{x:.{digits}f}"


def report(scores: Scores, groups: list[tuple], rows: list[str]) -> str:
    """The tables; ``groups`` are ``(select(group) -> bool, label)``."""
    lines = ["### Scores", "",
             "Brier score and log-loss (lower is better); n = predictions scored.", "",
             "| games | model | cards: n | Brier | log-loss | claims: n | Brier | log-loss | team holds: Brier | log-loss | claims made: n | Brier | log-loss |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for key, label in groups:
        for row in rows:
            cells = []
            for q in ("cards", "claims", "team holds", "claims made"):
                p, y = scores.arrays(key, q, row)
                if q == "team holds":
                    cells += [fmt(brier(p, y), 4), fmt(logloss(p, y), 4)]
                else:
                    cells += [str(len(p)), fmt(brier(p, y), 4), fmt(logloss(p, y), 4)]
            lines.append(f"| {label} | {row} | " + " | ".join(cells) + " |")
    for q, title in (("claims", "Claim probabilities (best claim of every set the team may hold)"),
                     ("cards", "Card marginals"), ("claims made", "Claims the players made")):
        lines += ["", f"### Reliability: {title}", "",
                  "Per bin of predicted probability: predictions (n), mean predicted, observed frequency; "
                  "**bold** where a bin with at least 100 predictions is off by more than 5 points.", ""]
        head = "| games | model | " + " | ".join(f"{BINS[b]:.1f}-{BINS[b + 1]:.1f}" for b in range(len(BINS) - 1)) + " |"
        lines += [head, "| --- | --- | " + " | ".join("---" for _ in range(len(BINS) - 1)) + " |"]
        for key, label in groups:
            for row in rows:
                p, y = scores.arrays(key, q, row)
                if not len(p):
                    continue
                cells = []
                for n, mp, ob in reliability(p, y):
                    if not n:
                        cells.append("")
                        continue
                    txt = f"{n}: {mp:.2f} / {ob:.2f}"
                    cells.append(f"**{txt}**" if n >= MIN_BIN and abs(mp - ob) > TARGET else txt)
                lines.append(f"| {label} | {row} | " + " | ".join(cells) + " |")
    lines += ["", "### Bins that miss the target", "",
              f"Every bin with at least {MIN_BIN} predictions whose observed frequency is more than "
              f"{TARGET * 100:.0f} points from its mean prediction (predicted / observed, points off).", ""]
    for row in rows:
        miss = misses(scores, groups, row)
        lines.append(f"* `{row}`: " + ("none." if not miss else "; ".join(miss) + "."))
    return "\n".join(lines)


def misses(scores: Scores, groups: list[tuple], row: str) -> list[str]:
    """The bins of ``row`` that miss the target, in words (quantity, games, bin, n, predicted,
    observed, points off)."""
    out = []
    for q in ("claims", "cards", "claims made"):
        for key, label in groups:
            p, y = scores.arrays(key, q, row)
            if not len(p):
                continue
            for b, (n, mp, ob) in enumerate(reliability(p, y)):
                if n >= MIN_BIN and abs(mp - ob) > TARGET:
                    out.append(f"{q}, {label}, {BINS[b]:.1f}-{BINS[b + 1]:.1f}: n {n}, {mp:.3f} / {ob:.3f} "
                               f"({abs(mp - ob) * 100:.1f} points)")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=60, help="games per simulated pairing (both seatings of games/2 deals)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--every", type=int, default=10, help="score every seat's view at every N-th event")
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "calibration.md")
    ap.add_argument("--raw", type=Path, default=ROOT / "eval" / "out" / "calibration")
    ap.add_argument("--pairings", default="all", help="comma-separated indices into PAIRINGS, or 'all'")
    ap.add_argument("--no-people", dest="people", action="store_false",
                    help="leave out the people's games (../shared/records/literature-human)")
    ap.add_argument("--from-raw", type=Path, default=None, metavar="DIR",
                    help="only write the tables again from the raw predictions an earlier run saved in DIR "
                         "(its scores.json and run.json)")
    args = ap.parse_args(argv)
    if args.from_raw is not None:
        return rewrite_from_raw(args.from_raw, args.out)
    scores = Scores()
    t0 = time.time()
    pairings = PAIRINGS if args.pairings == "all" else [PAIRINGS[int(i)] for i in args.pairings.split(",")]
    groups = []
    for players, k0, k1 in pairings:
        group = f"{players}p {k0} v {k1}"
        groups.append(((lambda g, x=group: g == x), f"{players} players, {k0} v {k1}"))
        for rec, kinds in simulate(players, k0, k1, args.games, args.seed):
            fitted = {s: kinds[s] for s in range(players)}
            score_game(rec, group, kinds, {"auto": "auto", "uniform": "uniform", "fitted": fitted}, args.every,
                       scores)
        print(f"{group}: done ({time.time() - t0:.0f} s)", file=sys.stderr)
    people = people_records(args.shared) if args.people else []
    loo = leave_one_out_people(people) if people else {}
    for name, rec in people:
        n = rec.game.num_seats(rec.options)
        score_game(rec, f"people {name}", ["people"] * n,
                   {"auto": "auto", "uniform": "uniform", "fitted": {s: loo[name] for s in range(n)}}, 10, scores)
    if people:
        groups.append(((lambda g: g.startswith("people")), "people's games (fitted: leave one game out)"))
        print(f"people's games: done ({time.time() - t0:.0f} s)", file=sys.stderr)
    groups.insert(0, ((lambda g: not g.startswith("people")), "all simulated games"))
    text = report(scores, groups, ROWS)
    args.raw.mkdir(parents=True, exist_ok=True)
    (args.raw / "scores.json").write_text(json.dumps({"|".join(k): v for k, v in scores.data.items()}))
    cmd = (f"python eval/calibration.py literature --games {args.games} --seed {args.seed} --every {args.every}"
           + (f" --pairings {args.pairings}" if args.pairings != "all" else "")
           + ("" if args.people else " --no-people"))
    seconds = time.time() - t0
    (args.raw / "run.json").write_text(json.dumps({"command": cmd, "seconds": seconds,
                                                   "groups": [label for _, label in groups]}))
    write_tables(args.out, cmd, seconds, text)
    print(text)
    return 0


def group_selector(label: str):
    """The ``select(group)`` of a table row's label (as :func:`main` builds them)."""
    if label == "all simulated games":
        return lambda g: not g.startswith("people")
    if label.startswith("people"):
        return lambda g: g.startswith("people")
    players, rest = label.split(" players, ")
    k0, k1 = rest.split(" v ")
    return lambda g, x=f"{players}p {k0} v {k1}": g == x


def rewrite_from_raw(raw: Path, out: Path) -> int:
    """Write the tables of an earlier run again from its raw predictions (``scores.json``) and
    its command, seconds and table groups (``run.json``)."""
    scores = Scores()
    scores.data = {tuple(k.split("|")): [tuple(r) for r in v]
                   for k, v in json.loads((raw / "scores.json").read_text()).items()}
    meta = json.loads((raw / "run.json").read_text())
    groups = [(group_selector(label), label) for label in meta["groups"]]
    text = report(scores, groups, ROWS)
    write_tables(out, meta["command"], meta["seconds"], text)
    print(text)
    return 0


def write_tables(out: Path, cmd: str, seconds: float, text: str) -> None:
    """Put the tables between :data:`MARK_BEGIN` and :data:`MARK_END` of ``out`` (appended
    when the markers are missing; a new file when there is none)."""
    body = "\n".join([MARK_BEGIN, "", f"Command: `{cmd}` ({seconds:.0f} s)", "", text, "", MARK_END])
    if out.exists() and MARK_BEGIN in out.read_text():
        old = out.read_text()
        new = old[:old.index(MARK_BEGIN)] + body + old[old.index(MARK_END) + len(MARK_END):]
    elif out.exists():
        new = out.read_text().rstrip("\n") + "\n\n" + body + "\n"      # no markers yet: append, never overwrite
    else:
        new = "# Calibration of the Literature probabilities\n\n" + body + "\n"
    out.write_text(new)


if __name__ == "__main__":
    sys.exit(main())
