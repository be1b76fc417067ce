"""The duplicate schedule of a tournament: which agents sit where in every game, and the seeds.

Every **deal** is played several times with the same cards and the agents moved around the
table, so that the luck of the deal cancels out:

* **Team games** (Literature: team 0 = even seats, team 1 = odd seats) are played by
  *groups* of as many agents as there are teams (a pair for Literature). Each group plays
  each deal once per *rotation*: in rotation ``r`` team ``t`` is played by
  ``group[(t + r) % teams]``, so with agents A and B deal ``k`` is played once with A on
  team 0 and once with B on team 0. With more agents than teams every combination of agents
  forms a group (a round robin of pairings), each with its duplicate.
* **Free-for-all games** (Go Fish) seat a group of ``m = min(agents, seats)`` agents; in
  rotation ``r`` seat ``s`` is played by ``group[(s + r) % m]``, so over the ``m``
  rotations of a deal every agent of the group sits in every seat position. With fewer
  agents than seats an agent holds several seats (every ``m``-th one); with more agents
  than seats every combination of ``seats`` agents forms a group.

The schedule is **deal-major** and numbered: game ``id`` is rotation ``id % m`` of group
``(id // m) % G`` on deal ``id // (m * G)``, where ``G`` is the number of groups, so the
first ``d`` deals are always the first ``d * m * G`` ids, whatever the total. Every group
plays the same deals.

Seeds never depend on execution order: the deal of deal index ``k`` is shuffled with
``SeedSequence(seed, spawn_key=(0, k))`` (shared by the duplicate games of the deal) and
seat ``s`` of game ``id`` plays with ``SeedSequence(seed, spawn_key=(1, id, s))``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np


def seat_teams(game, options: dict) -> list[int] | None:
    """The team of every seat for a team game, or ``None`` for a free-for-all game, as the
    game says with :meth:`~cardmind.core.Game.teams` (a game without that method, or whose
    method returns ``None``, is free-for-all).

    Raises:
        ValueError: not one label per seat, or teams not numbered ``0 .. T-1``.
    """
    n = game.num_seats(options)
    teams = game.teams(options)
    if teams is not None:
        teams = [int(t) for t in teams]
        if len(teams) != n:
            raise ValueError(f"{game.name}: {len(teams)} team labels for {n} seats")
        if sorted(set(teams)) != list(range(len(set(teams)))):
            raise ValueError(f"{game.name}: teams must be numbered 0..T-1, got {teams}")
    return teams


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the schedule.

    Attributes:
        id: its number (0-based, deal-major).
        deal: the deal index (games of the same deal get the same cards).
        group: index of the group playing it in :attr:`Schedule.groups`.
        rotation: which seat assignment of the group (0 .. rotations-1).
        seats: the agent index playing each seat.
    """

    id: int
    deal: int
    group: int
    rotation: int
    seats: tuple[int, ...]


@dataclass(frozen=True)
class Schedule:
    """The deterministic list of games of a tournament (see the module docstring).

    Attributes:
        num_agents: number of agents.
        num_seats: seats per game.
        teams: team of every seat (team game) or ``None`` (free-for-all).
        groups: the agent groups (tuples of agent indices, in round-robin order).
        rotations: seat assignments per group and deal.
        deals: number of deals.
    """

    num_agents: int
    num_seats: int
    teams: tuple[int, ...] | None
    groups: tuple[tuple[int, ...], ...]
    rotations: int
    deals: int

    @property
    def games_per_deal(self) -> int:
        """Games played on each deal (every group in every rotation)."""
        return len(self.groups) * self.rotations

    @property
    def total(self) -> int:
        """Number of games scheduled."""
        return self.deals * self.games_per_deal

    def seats_of(self, group: int, rotation: int) -> tuple[int, ...]:
        """The agent index of every seat for ``group`` in ``rotation``."""
        g = self.groups[group]
        m = len(g)
        if self.teams is not None:
            return tuple(g[(t + rotation) % m] for t in self.teams)
        return tuple(g[(s + rotation) % m] for s in range(self.num_seats))

    def game(self, game_id: int) -> ScheduledGame:
        """The game numbered ``game_id``."""
        if not 0 <= game_id < self.total:
            raise IndexError(f"game id {game_id} is not in the schedule (0-{self.total - 1})")
        per_deal = self.games_per_deal
        deal, rest = divmod(game_id, per_deal)
        group, rotation = divmod(rest, self.rotations)
        return ScheduledGame(game_id, deal, group, rotation, self.seats_of(group, rotation))

    def __iter__(self):
        return (self.game(i) for i in range(self.total))

    def __len__(self) -> int:
        return self.total


def make_schedule(num_agents: int, num_seats: int, teams: list[int] | None, games: int) -> Schedule:
    """Build the schedule for at least ``games`` games in total.

    ``games`` is rounded up to a whole number of deals (every group plays every deal in
    every rotation), so the schedule has ``ceil(games / games_per_deal)`` deals.

    Raises:
        ValueError: fewer than two agents, fewer agents than teams, or ``games < 1``.
    """
    if num_agents < 2:
        raise ValueError("a tournament needs at least two agents")
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    if teams is not None:
        m = len(set(teams))
        if num_agents < m:
            raise ValueError(f"this team game has {m} teams: it needs at least {m} agents")
    else:
        m = min(num_agents, num_seats)
    groups = tuple(combinations(range(num_agents), m))
    per_deal = len(groups) * m
    deals = math.ceil(games / per_deal)
    return Schedule(num_agents, num_seats, None if teams is None else tuple(teams), groups, m, deals)


def deal_rng(seed: int, deal: int) -> np.random.Generator:
    """The generator that shuffles deal ``deal`` (shared by its duplicate games)."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0, deal)))


def play_rngs(seed: int, game_id: int, num_seats: int) -> list[np.random.Generator]:
    """One generator per seat for game ``game_id``."""
    return [np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1, game_id, s)))
            for s in range(num_seats)]
