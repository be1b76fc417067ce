"""The duplicate schedule: seat assignments, round robin, free-for-all rotations, seeds."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from cardmind.core import get_game
from cardmind.tournament.schedule import deal_rng, make_schedule, play_rngs, seat_teams

LIT6 = [0, 1, 0, 1, 0, 1]


def test_literature_is_a_team_game_with_alternating_seats():
    g = get_game("literature")
    assert seat_teams(g, g.parse_options({"players": 6})) == LIT6
    assert seat_teams(g, g.parse_options({"players": 8})) == [0, 1] * 4


def test_free_for_all_and_self_declared_teams():
    class FakeGoFish:
        name = "gofish"

        def num_seats(self, options):
            return options["players"]

        def teams(self, options):      # Game.teams: None for a free-for-all game (declared, not probed)
            return None

    assert seat_teams(FakeGoFish(), {"players": 4}) is None

    class Partners(FakeGoFish):
        name = "partners"

        def teams(self, options):
            return [0, 0, 1, 1]

    assert seat_teams(Partners(), {"players": 4}) == [0, 0, 1, 1]


def test_two_agents_each_deal_played_with_both_team_assignments():
    sch = make_schedule(2, 6, LIT6, 10)
    assert (sch.deals, sch.games_per_deal, sch.total) == (5, 2, 10)
    for d in range(sch.deals):
        a, b = sch.game(2 * d), sch.game(2 * d + 1)
        assert a.deal == b.deal == d
        assert a.seats == (0, 1, 0, 1, 0, 1)  # agent 0 on team 0 (even seats)
        assert b.seats == (1, 0, 1, 0, 1, 0)  # swapped


def test_games_round_up_to_whole_deals():
    sch = make_schedule(2, 6, LIT6, 7)
    assert sch.total == 8 and sch.deals == 4
    with pytest.raises(ValueError):
        make_schedule(1, 6, LIT6, 10)
    with pytest.raises(ValueError):
        make_schedule(2, 6, LIT6, 0)


def test_three_agents_round_robin_of_pairings_with_duplicates():
    sch = make_schedule(3, 8, [0, 1] * 4, 12)
    assert sch.groups == ((0, 1), (0, 2), (1, 2))
    assert sch.games_per_deal == 6 and sch.deals == 2
    for d in range(sch.deals):
        games = [sch.game(d * 6 + i) for i in range(6)]
        assert {g.deal for g in games} == {d}
        # every ordered (team 0 agent, team 1 agent) pairing exactly once per deal
        ordered = Counter((g.seats[0], g.seats[1]) for g in games)
        assert ordered == Counter({(a, b): 1 for a in range(3) for b in range(3) if a != b})
        for g in games:
            assert len(set(g.seats[0::2])) == 1 and len(set(g.seats[1::2])) == 1  # one agent per team


def test_free_for_all_rotations_put_every_agent_in_every_seat():
    # 3 agents at 3 seats: one group, 3 rotations
    sch = make_schedule(3, 3, None, 3)
    assert sch.games_per_deal == 3
    seats = [sch.game(i).seats for i in range(3)]
    for s in range(3):
        assert sorted(g[s] for g in seats) == [0, 1, 2]
    # 2 agents at 5 seats: alternate seats, every agent in every seat once per deal
    sch = make_schedule(2, 5, None, 2)
    a, b = sch.game(0).seats, sch.game(1).seats
    assert a == (0, 1, 0, 1, 0) and b == (1, 0, 1, 0, 1)
    # 4 agents at 3 seats: every 3-agent table, each with its 3 rotations
    sch = make_schedule(4, 3, None, 12)
    assert sch.groups == tuple(combinations(range(4), 3)) and sch.games_per_deal == 12
    for gi, group in enumerate(sch.groups):
        tables = [sch.game(gi * 3 + r).seats for r in range(3)]
        for s in range(3):
            assert sorted(t[s] for t in tables) == sorted(group)


def test_ids_are_deal_major_and_stable_when_extending():
    small, big = make_schedule(3, 6, LIT6, 12), make_schedule(3, 6, LIT6, 60)
    assert [small.game(i) for i in range(small.total)] == [big.game(i) for i in range(small.total)]
    assert [g.id for g in big] == list(range(big.total))
    with pytest.raises(IndexError):
        small.game(small.total)


def test_seeds_depend_on_seed_and_ids_only():
    a = deal_rng(7, 3).permutation(54)
    assert np.array_equal(a, deal_rng(7, 3).permutation(54))
    assert not np.array_equal(a, deal_rng(7, 4).permutation(54))
    assert not np.array_equal(a, deal_rng(8, 3).permutation(54))
    r1 = [r.integers(1 << 30) for r in play_rngs(7, 10, 6)]
    assert r1 == [r.integers(1 << 30) for r in play_rngs(7, 10, 6)]
    assert len(set(r1)) == 6
    assert r1 != [r.integers(1 << 30) for r in play_rngs(7, 11, 6)]
