"""The summary of a tournament: a pure function of its ``results.jsonl`` lines.

Scoring (``docs/tournament.md`` explains it with examples):

* An agent's **outcome** in a game is that of its best seat (``Result.outcome``: 1 win, 0.5
  draw or shared first place, 0 loss), or 1 when its seats hold every first place
  (:func:`agent_outcomes`); above 0.5 counts as a win, 0.5 as a draw, below as a loss. In
  Literature every seat of a team shares the outcome.
* A **forfeit** (an agent raised or returned an illegal action) scores 0 for every seat of
  the forfeiting agent (its team, in a team game) and 1 for every other seat; a forfeited
  game has no points and no length.
* The **pairwise score** of agent A against B in a game they both play comes from their
  **finishing order** (:func:`agent_places`): 1 when A's best seat finished ahead of B's, 0.5
  when level, 0 when behind. A seat finishes ahead of another when its outcome is better, or,
  with the same outcome, when it scored more points (``Result.scores``, higher is better). So
  at a three-player table where a third agent wins, the one of A and B with more points beats
  the other (both lost the game, but not to each other). In a two-seat or two-team game this
  is the win, draw or loss of the game itself. The pairs table's W-D-L counts these.
* A **unit** is one deal: A's unit score against B is the mean pairwise score over the games
  of that deal (for a pair in a team game: the two games, so 0, 0.25, 0.5, 0.75 or 1, the
  pentanomial model); an agent's own unit score is the mean, over its games of the deal, of
  its mean pairwise score against the other agents at the table. Only deals whose games are
  all finished count. Elo and the SPRT use units, which are independent, so the luck of the
  deal shared by the duplicate games does not inflate the certainty.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence

from .ratings import Z95, elo_interval, llr_from_counts, sprt_bounds, sprt_verdict, wilson_interval
from .schedule import Schedule

SUMMARY_FORMAT = "cardmind-tournament-summary/1"
#: forfeited games listed one by one in the summary (``forfeited_games``), the first in id order
MAX_FORFEITS_LISTED = 20
_EPS = 1e-9


def _num(x: float | None, digits: int = 6) -> float | None:
    """A JSON-safe float: ``None`` for nan and infinities, rounded otherwise."""
    if x is None or math.isnan(x) or math.isinf(x):
        return None
    return round(float(x), digits)


def agent_outcomes(line: Mapping, index: Mapping[str, int]) -> dict[int, float]:
    """``{agent index: outcome}`` for one results line (seat outcomes: 1 win, 0.5 shared
    first place or draw, 0 loss).

    An agent is placed by its **best seat**: its outcome is the best outcome among the seats
    it holds, except that an agent holding *every* seat with the best outcome of the game
    (while some other agent's seat did worse) gets 1, because it shares first place with no
    other agent. With one seat per agent this is the seat's own outcome; in a team game,
    where the seats of a team share their outcome, it is the team's. With two agents at a
    four-seat free-for-all table (A B A B) exactly one agent wins unless seats of both share
    first place (a draw), so the two win rates add up to 100% as in a head-to-head game.
    """
    seats: dict[int, list[float]] = {}
    for name, o in zip(line["seats"], line["outcome"]):
        seats.setdefault(index[name], []).append(float(o))
    best = max(o for outs in seats.values() for o in outs)
    worst = min(o for outs in seats.values() for o in outs)
    out = {}
    for a in sorted(seats):
        top = max(seats[a])
        alone = top == best > worst and all(max(outs) < best for b, outs in seats.items() if b != a)
        out[a] = 1.0 if alone else top
    return out


def agent_places(line: Mapping, index: Mapping[str, int]) -> dict[int, tuple[float, float]]:
    """``{agent index: (outcome, points)}`` for one results line: the place of each agent's
    best seat, to compare agents by their finishing order (a larger tuple finished ahead).

    The outcome is the agent's from :func:`agent_outcomes` (1 win, 0.5 shared first place,
    0 loss); the points are those of its best seat (the best outcome, then the most points:
    ``scores``, higher is better in every game: Literature sets, Go Fish books, Hand and Foot
    team totals, contract rummy minus the penalty points). A line without scores (a forfeit, a stopped game) compares
    by outcome only (points 0).
    """
    outcomes = agent_outcomes(line, index)
    scores = line.get("scores")
    best: dict[int, tuple[float, float]] = {}   # the agent's best seat: (seat outcome, points)
    for s, (name, o) in enumerate(zip(line["seats"], line["outcome"])):
        a = index[name]
        seat = (float(o), 0.0 if scores is None else float(scores[s]))
        best[a] = max(best.get(a, seat), seat)
    return {a: (o, best[a][1]) for a, o in outcomes.items()}


def fair_share(line: Mapping, index: Mapping[str, int], agent: int, teams: Sequence[int] | None) -> float:
    """The win rate ``agent`` would have in this game if every seat were equally strong: the
    share of the table's seats it holds (of its teams, in a team game). 1/3 for one seat at a
    three-player table, 1/2 for two seats of four or for one team of two; a probability."""
    held = [s for s, name in enumerate(line["seats"]) if index[name] == agent]
    if teams is not None:
        return len({teams[s] for s in held}) / len(set(teams))
    return len(held) / len(line["seats"])


def pair_score(pa: tuple[float, float], pb: tuple[float, float]) -> float:
    """A's pairwise score against B in one game from their places (:func:`agent_places`):
    1 when A finished ahead, 0.5 when level, 0 when behind."""
    return 1.0 if pa > pb else (0.5 if pa == pb else 0.0)


def _kind(x: float) -> int:
    """1 win, 0 draw, -1 loss for an outcome or pairwise score."""
    return 1 if x > 0.5 + _EPS else (-1 if x < 0.5 - _EPS else 0)


class _DealIndex:
    """Which games of a deal involve which agents (from the schedule alone)."""

    def __init__(self, schedule: Schedule):
        self.schedule = schedule
        m = schedule.rotations
        self.agent_offsets: dict[int, list[int]] = {}
        self.pair_offsets: dict[tuple[int, int], list[int]] = {}
        for g, group in enumerate(schedule.groups):
            for r in range(m):
                off = g * m + r
                for a in group:
                    self.agent_offsets.setdefault(a, []).append(off)
                for i, a in enumerate(group):
                    for b in group[i + 1:]:
                        self.pair_offsets.setdefault((a, b), []).append(off)

    def ids(self, deal: int, offsets: Sequence[int]) -> list[int]:
        base = deal * self.schedule.games_per_deal
        return [base + o for o in offsets]


def _pair_unit(lines: Sequence[Mapping], a: int, b: int, index: Mapping[str, int]) -> float:
    scores = []
    for line in lines:
        p = agent_places(line, index)
        scores.append(pair_score(p[a], p[b]))
    return math.fsum(scores) / len(scores)


class SprtMonitor:
    """The GSPRT of agent 0 against agent 1 over deals in schedule order.

    Deals are taken strictly in order, each only once all its games are finished, so the
    stopping point (and the summary) is the same whatever order games finish in.
    """

    def __init__(self, schedule: Schedule, labels: Sequence[str], sprt: tuple[float, float],
                 alpha: float = 0.05, beta: float = 0.05):
        self.schedule = schedule
        self.index = {lab: i for i, lab in enumerate(labels)}
        self.elo0, self.elo1 = sprt
        self.alpha, self.beta = alpha, beta
        self.deals = _DealIndex(schedule)
        m = schedule.rotations
        self.grid = [k / (2 * m) for k in range(2 * m + 1)]
        self.counts: dict[float, float] = {}
        self.next_deal = 0
        self.llr = 0.0
        self.verdict: str | None = None
        self.cutoff: int | None = None  # last deal counted when a verdict was reached

    def update(self, done: Mapping[int, Mapping]) -> bool:
        """Take in newly finished deals; return True once there is a verdict."""
        offsets = self.deals.pair_offsets.get((0, 1), [])
        while self.verdict is None and self.next_deal < self.schedule.deals:
            ids = self.deals.ids(self.next_deal, offsets)
            if not all(i in done for i in ids):
                break
            u = round(_pair_unit([done[i] for i in ids], 0, 1, self.index), 12)
            self.counts[u] = self.counts.get(u, 0.0) + 1.0
            self.llr = llr_from_counts(self.counts, self.elo0, self.elo1, self.grid)
            self.verdict = sprt_verdict(self.llr, self.alpha, self.beta)
            if self.verdict is not None:
                self.cutoff = self.next_deal
            self.next_deal += 1
        return self.verdict is not None

    def to_json(self) -> dict:
        lo, hi = sprt_bounds(self.alpha, self.beta)
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "lower_bound": _num(lo), "upper_bound": _num(hi), "llr": _num(self.llr),
                "verdict": self.verdict, "deals": self.next_deal,
                "stopped_after_deal": self.cutoff, "tested": "first agent against second"}


def counted_ids(schedule: Schedule, done: Mapping[int, Mapping], sprt: tuple[float, float] | None,
                labels: Sequence[str], monitor: SprtMonitor | None = None) -> tuple[list[int], SprtMonitor | None]:
    """The ids the summary counts (in order) and the SPRT monitor (or ``None``): every
    finished scheduled game, or with an SPRT verdict those of the deals up to the verdict.
    A ``monitor`` already fed with ``done`` may be passed to save recomputing the LLRs."""
    ids = sorted(i for i in done if 0 <= i < schedule.total)
    if sprt is None:
        monitor = None
    else:
        if monitor is None:
            monitor = SprtMonitor(schedule, labels, sprt)
        monitor.update(done)
        if monitor.cutoff is not None:
            last = (monitor.cutoff + 1) * schedule.games_per_deal
            ids = [i for i in ids if i < last]
    return ids, monitor


def _stats(values: Sequence[float]) -> dict:
    if not values:
        return {"mean": None, "median": None, "min": None, "max": None}
    return {"mean": _num(statistics.fmean(values), 3), "median": _num(statistics.median(values), 3),
            "min": min(values), "max": max(values)}


class _Tally:
    """Counts over the counted games, gathered game by game in id order: per agent (by its
    index in the labels) its wins, draws, losses (outcomes, :func:`_kind`), fair shares
    (probabilities), points per game and forfeits; per pair of agents ``(a, b)``, ``a < b``,
    the pairwise W-D-L and the points of both; the forfeits and errors of the tournament and
    the game lengths (actions, events) of the games with scores."""

    def __init__(self, k: int):
        self.wins = [0] * k
        self.draws = [0] * k
        self.losses = [0] * k
        self.shares: list[list[float]] = [[] for _ in range(k)]
        self.points: list[list[float]] = [[] for _ in range(k)]
        self.forfeits = [0] * k
        self.reasons: list[list[str]] = [[] for _ in range(k)]
        self.pair_wdl: dict[tuple[int, int], list[int]] = {}
        self.pair_points: dict[tuple[int, int], list[tuple[float, float]]] = {}
        self.actions_len: list[int] = []
        self.events_len: list[int] = []
        self.n_forfeit = 0
        self.n_error = 0
        self.error_reasons: list[str] = []
        self.forfeited_games: list[dict] = []

    def add_outcomes(self, line: Mapping, index: Mapping[str, int], teams: Sequence[int] | None) -> None:
        """Count one game's win, draw or loss and fair share (:func:`fair_share`) for each agent
        at the table, and the pairwise W-D-L of each pair of them (:func:`agent_places`)."""
        o = agent_outcomes(line, index)
        for a in o:
            self.shares[a].append(fair_share(line, index, a, teams))
        for a, x in o.items():
            kind = _kind(x)
            if kind > 0:
                self.wins[a] += 1
            elif kind < 0:
                self.losses[a] += 1
            else:
                self.draws[a] += 1
        places = agent_places(line, index)
        for ai, a in enumerate(places):
            for b in list(places)[ai + 1:]:
                w = self.pair_wdl.setdefault((a, b), [0, 0, 0])
                w[1 - _kind(pair_score(places[a], places[b]))] += 1

    def add_forfeit_or_error(self, game_id: int, line: Mapping, index: Mapping[str, int]) -> None:
        """Count game ``game_id``'s forfeit (keeping the first three distinct reasons per agent
        and the first :data:`MAX_FORFEITS_LISTED` forfeited games) or its error (a stopped
        game: the first three distinct reasons); nothing for a game played to its end."""
        if line.get("forfeit_agent") is not None:
            self.n_forfeit += 1
            f = index[line["forfeit_agent"]]
            self.forfeits[f] += 1
            if len(self.reasons[f]) < 3 and line.get("reason") not in self.reasons[f]:
                self.reasons[f].append(line.get("reason", ""))
            if len(self.forfeited_games) < MAX_FORFEITS_LISTED:
                self.forfeited_games.append({"id": game_id, "agent": line["forfeit_agent"],
                                             "seat": line.get("forfeit"), "reason": line.get("reason", ""),
                                             "traceback": line.get("traceback")})
        elif line.get("error"):
            self.n_error += 1
            if len(self.error_reasons) < 3 and line["error"] not in self.error_reasons:
                self.error_reasons.append(line["error"])

    def add_points(self, line: Mapping, index: Mapping[str, int]) -> None:
        """For a game with scores: each agent's points (the mean over its seats), the points of
        each pair of agents at the table, and the game's length in actions and events. A game
        without scores (a forfeit, a stopped game) adds nothing."""
        if line.get("scores") is None:
            return
        by_agent: dict[int, list[float]] = {}
        for name, sc in zip(line["seats"], line["scores"]):
            by_agent.setdefault(index[name], []).append(sc)
        for a, scs in by_agent.items():
            self.points[a].append(math.fsum(scs) / len(scs))
        met = sorted(by_agent)
        for ai, a in enumerate(met):
            for b in met[ai + 1:]:
                self.pair_points.setdefault((a, b), []).append(
                    (math.fsum(by_agent[a]) / len(by_agent[a]), math.fsum(by_agent[b]) / len(by_agent[b])))
        self.actions_len.append(sum(line["actions"]))
        self.events_len.append(line["events"])


def _tally_games(ids: Sequence[int], counted: Mapping[int, Mapping], index: Mapping[str, int],
                 teams: Sequence[int] | None, k: int) -> _Tally:
    """The :class:`_Tally` of the games ``ids`` (in that order) of ``counted``
    (``{id: results line}``) for ``k`` agents."""
    tally = _Tally(k)
    for i in ids:
        line = counted[i]
        tally.add_outcomes(line, index, teams)
        tally.add_forfeit_or_error(i, line, index)
        tally.add_points(line, index)
    return tally


def _deal_units(schedule: Schedule, ids: Sequence[int], counted: Mapping[int, Mapping],
                index: Mapping[str, int], k: int) -> tuple[list[list[float]], dict[tuple[int, int], list[float]]]:
    """The unit scores (one per deal whose relevant games are all counted; see the module
    docstring), deal by deal up to the last counted id: ``(agent_units, pair_units)``, the
    unit scores of each agent (a list per agent index) and of each pair of agents ``(a, b)``
    that meet in the schedule (A's score against B); each a number in [0, 1]."""
    deals = _DealIndex(schedule)
    n_deals = (ids[-1] // schedule.games_per_deal + 1) if ids else 0
    agent_units: list[list[float]] = [[] for _ in range(k)]
    pair_units: dict[tuple[int, int], list[float]] = {p: [] for p in deals.pair_offsets}
    for d in range(n_deals):
        for a in range(k):
            gids = deals.ids(d, deals.agent_offsets.get(a, []))
            if gids and all(g in counted for g in gids):
                per_game = []
                for g in gids:
                    p = agent_places(counted[g], index)
                    opp = [pair_score(p[a], p[b]) for b in p if b != a]
                    per_game.append(math.fsum(opp) / len(opp))
                agent_units[a].append(math.fsum(per_game) / len(per_game))
        for (a, b), offs in deals.pair_offsets.items():
            gids = deals.ids(d, offs)
            if all(g in counted for g in gids):
                pair_units[(a, b)].append(_pair_unit([counted[g] for g in gids], a, b, index))
    return agent_units, pair_units


def _agent_entry(a: int, spec: str, tally: _Tally, units: Sequence[float]) -> dict:
    """The summary's entry of agent ``a`` (``summary["agents"][label]``, ``docs/tournament.md``):
    its W-D-L, win rates (probabilities, Wilson 95% intervals), points per game, Elo from its
    deal ``units`` and forfeits; ``None`` where there are no games to compute it from."""
    wins, draws, losses = tally.wins[a], tally.draws[a], tally.losses[a]
    shares, points = tally.shares[a], tally.points[a]
    n = wins + draws + losses
    score = wins + 0.5 * draws
    dec = wins + losses
    elo, (lo, hi), mean_u, se_u = elo_interval(units)
    return {
        "spec": spec,
        "games": n, "wins": wins, "draws": draws, "losses": losses,
        "score": score,
        "win_rate": _num(score / n) if n else None,
        "fair_share": _num(statistics.fmean(shares)) if shares else None,
        "win_rate_ci95": [_num(x) for x in wilson_interval(score, n)] if n else [None, None],
        "decided_games": dec,
        "decided_win_rate": _num(wins / dec) if dec else None,
        "decided_win_rate_ci95": [_num(x) for x in wilson_interval(wins, dec)] if dec else [None, None],
        "points_per_game": _num(statistics.fmean(points), 4) if points else None,
        "points_games": len(points),
        "elo": _num(elo, 2), "elo_ci95": [_num(lo, 2), _num(hi, 2)],
        "units": len(units), "mean_unit_score": _num(mean_u), "unit_score_se": _num(se_u),
        "forfeits": tally.forfeits[a], "forfeit_reasons": tally.reasons[a],
    }


def _pair_entry(labels: Sequence[str], a: int, b: int, tally: _Tally, units: Sequence[float]) -> dict:
    """The summary's entry of the pair of agents ``a`` and ``b`` (one of ``summary["pairs"]``,
    ``docs/tournament.md``): A's pairwise W-D-L against B, the points per game of both, the
    distribution of A's deal ``units`` and the Elo from them."""
    w = tally.pair_wdl.get((a, b), [0, 0, 0])
    elo, (lo, hi), mean_u, se_u = elo_interval(units)
    dist: dict[float, int] = {}
    for u in units:
        key = round(u, 6)
        dist[key] = dist.get(key, 0) + 1
    pts = tally.pair_points.get((a, b))
    return {
        "agents": [labels[a], labels[b]], "games": sum(w), "wins": w[0], "draws": w[1], "losses": w[2],
        "points_per_game": ([_num(statistics.fmean(p[0] for p in pts), 4),
                             _num(statistics.fmean(p[1] for p in pts), 4)]
                            if pts else None),
        "units": len(units), "unit_scores": {f"{v:g}": c for v, c in sorted(dist.items())},
        "mean_unit_score": _num(mean_u), "unit_score_se": _num(se_u),
        "elo": _num(elo, 2), "elo_ci95": [_num(lo, 2), _num(hi, 2)],
    }


def summarize(schedule: Schedule, labels: Sequence[str], done: Mapping[int, Mapping],
              sprt: tuple[float, float] | None = None, specs: Sequence[str] | None = None,
              game: str | None = None, options: Mapping | None = None, seed: int | None = None,
              games_requested: int | None = None, monitor: SprtMonitor | None = None) -> dict:
    """The summary dict of the finished games ``done`` (``{id: results line}``).

    Deterministic: it depends only on the lines of the counted ids, taken in id order, so
    it is the same for any number of jobs and any completion order. (The runner adds a
    ``timing`` entry, the only part that varies.) ``monitor``: see :func:`counted_ids`.
    """
    index = {lab: i for i, lab in enumerate(labels)}
    k = len(labels)
    ids, monitor = counted_ids(schedule, done, sprt, labels, monitor)
    counted = {i: done[i] for i in ids}
    tally = _tally_games(ids, counted, index, schedule.teams, k)
    agent_units, pair_units = _deal_units(schedule, ids, counted, index, k)
    agents = {lab: _agent_entry(a, specs[a] if specs else lab, tally, agent_units[a])
              for a, lab in enumerate(labels)}
    pairs = [_pair_entry(labels, a, b, tally, units) for (a, b), units in sorted(pair_units.items())]

    sprt_json = monitor.to_json() if monitor is not None else None
    complete = len(ids) == schedule.total or (monitor is not None and monitor.verdict is not None)
    return {
        "format": SUMMARY_FORMAT,
        "game": game, "options": dict(options) if options is not None else None, "seed": seed,
        "games": len(ids),
        "games_requested": games_requested, "games_scheduled": schedule.total,
        "deals": schedule.deals, "games_per_deal": schedule.games_per_deal, "complete": complete,
        "schedule": {
            "kind": "teams" if schedule.teams is not None else "free-for-all",
            "seat_teams": list(schedule.teams) if schedule.teams is not None else None,
            "groups": [[labels[a] for a in g] for g in schedule.groups],
            "rotations": schedule.rotations,
        },
        "draws": "win_rate counts a draw as half a win; decided_win_rate leaves draws out",
        "confidence": 0.95, "z": Z95,
        "agents": agents,
        "pairs": pairs,
        "forfeits": tally.n_forfeit, "forfeited_games": tally.forfeited_games,
        "errors": tally.n_error, "error_reasons": tally.error_reasons,
        "game_length": {"games": len(tally.actions_len), "actions": _stats(tally.actions_len),
                        "events": _stats(tally.events_len)},
        "sprt": sprt_json,
    }
