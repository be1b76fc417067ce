"""The belief tracker's counts are exact.

* CP-SAT enumeration of the same constraints gives the same count, marginals, claim
  probabilities and forced cards on many small late positions of simulated 6- and 8-player
  games under several option combinations;
* a brute force that does not use the tracker's constraints at all (every deal of the
  cards the observer cannot locate, replayed as a complete game under the rules) finds
  exactly the same deals;
* at the deal and after the first event, the counts and marginals equal a closed-form
  count (huge numbers, beyond 64 bits).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from math import factorial

import numpy as np
import pytest

from cardmind.games.literature.belief import LiteratureBelief
from cardmind.games.literature.rules import deal_sizes, deck_cards, set_cards, set_of, team_of

from .lit_helpers import (GAME, OPTION_COMBOS, belief_after, brute_force, brute_marginals, hands_from, known_dealt, multinomial, refusal_exclusions, replay_complete, simulate,
                          true_dealt)

#: (option combination, seed, agent): 6 and 8 players, both decks, every option
CPSAT_GAMES = [(0, 1, "random"), (0, 0, "peer"), (1, 0, "random"), (1, 1, "peer"), (2, 1, "random"),
               (2, 1, "peer"), (3, 1, "random"), (3, 2, "peer"), (4, 1, "random"), (4, 1, "peer"),
               (5, 1, "random"), (5, 1, "peer"), (6, 1, "random"), (6, 1, "peer"), (7, 1, "random"),
               (7, 1, "peer")]
MAX_COUNT = 1500  # CP-SAT enumerates about 1500 solutions a second here
PER_GAME = 4


def _scan(rec, fractions=(0.4, 0.5, 0.6, 0.7, 0.8, 0.9), lo=2, hi=MAX_COUNT):
    """Positions ``(seat, k, count)`` with ``lo <= count <= hi`` at the given fractions of the
    game (shifted by the seat so that observers see different moments)."""
    n = rec.options["players"]
    E = len(rec.events)
    out = []
    for seat in range(n):
        ks = {min(E, int(E * f) + seat) for f in fractions}
        b = LiteratureBelief(rec.options, seat, rec.header["hands"][seat], model="uniform")
        for i in range(E + 1):
            if i in ks and not b.state.is_over():
                N = b.consistent_deals
                if lo <= N <= hi:
                    out.append((seat, i, N))
            if i < E:
                b.observe(rec.events[i])
    return out


@lru_cache(maxsize=None)
def cpsat_positions(combo, seed, agent):
    """Up to PER_GAME positions of one game, spread over the scan, distinct counts first."""
    rec = simulate(OPTION_COMBOS[combo], seed, agent)
    found = _scan(rec)
    picked, seen = [], set()
    for seat, k, N in found:
        if N not in seen:
            seen.add(N)
            picked.append((seat, k, N))
    step = max(1, len(picked) // PER_GAME)
    return tuple(picked[::step][:PER_GAME])


def claim_stats(belief, solutions):
    """From full solutions ``{card: dealt seat}`` of the unknown cards: per unclaimed set,
    ``(P(team holds), p_best, ties)`` for the observer's team, as exact fractions."""
    N = len(solutions)
    team = team_of(belief.observer)
    holders = belief.current_holders()
    out = {}
    for name in belief.state.unclaimed_sets():
        cards = set_cards(name)
        per = Counter()
        for sol in solutions:
            a = tuple(holders[c] if c in holders else sol[c] for c in cards)
            if all(team_of(s) == team for s in a):
                per[a] += 1
        held = sum(per.values())
        if held:
            best = max(per.values())
            ties = sum(1 for v in per.values() if v == best)
            out[name] = (Fraction(held, N), Fraction(best, N), ties)
        else:
            out[name] = (Fraction(0), None, None)
    return out


def check_against_solutions(belief, solutions):
    """Everything the tracker says equals what the list of all consistent deals says."""
    N = belief.consistent_deals
    assert len(solutions) == N
    assert len({tuple(sorted(s.items())) for s in solutions}) == N  # all distinct
    cons = belief.constraints()
    holders = belief.current_holders()
    in_play = belief.state.cards_in_play()
    # every card in play is located by the events or is unknown, never both
    assert set(in_play) == set(holders) | set(cons.unknown)
    assert not set(holders) & set(cons.unknown)
    exact = belief.marginals_exact()
    assert set(exact) == set(in_play)
    for c in cons.unknown:
        freq = Counter(sol[c] for sol in solutions)
        assert exact[c] == {s: Fraction(k, N) for s, k in sorted(freq.items())}, c
    for c, s in holders.items():
        assert exact[c] == {s: 1}
    for name, (p_team, p_best, ties) in claim_stats(belief, solutions).items():
        assert belief.team_holds_probability(name, exact=True) == p_team, name
        best = belief.best_assignment(name, exact=True)
        if p_best is None:
            assert best is None
        else:
            a, p, t = best
            assert (p, t) == (p_best, ties), name
            assert belief.assignment_probability(name, a, exact=True) == p_best
            assert all(team_of(s) == team_of(belief.observer) for s in a.values())


@pytest.mark.parametrize("combo,seed,agent", CPSAT_GAMES)
def test_exact_count_equals_cpsat_enumeration(combo, seed, agent):
    rec = simulate(OPTION_COMBOS[combo], seed, agent)
    positions = cpsat_positions(combo, seed, agent)
    assert len(positions) >= 3, f"only {len(positions)} small positions in this game"
    dealt = true_dealt(rec)
    for seat, k, N in positions:
        b = belief_after(rec, seat, k)
        assert b.consistent_deals == N
        model = b.cpsat_model()
        solutions = model.enumerate(limit=N + 1, time_limit=120)
        check_against_solutions(b, solutions)
        # the true deal is one of them
        assert {c: dealt[c] for c in b.constraints().unknown} in solutions
        # forced cards: CP-SAT's search agrees with the exact marginals
        assert b.cpsat_model().forced(time_limit=60) == b.forced_cards()


def test_cpsat_comparison_covers_at_least_50_positions():
    total = sum(len(cpsat_positions(*g)) for g in CPSAT_GAMES)
    assert total >= 50
    players = {OPTION_COMBOS[c]["players"] for c, s, a in CPSAT_GAMES if cpsat_positions(c, s, a)}
    assert players == {6, 8}
    own = [g for g in CPSAT_GAMES if OPTION_COMBOS[g[0]].get("ask_own_card") and cpsat_positions(*g)]
    any_time = [g for g in CPSAT_GAMES if OPTION_COMBOS[g[0]].get("claim_any_time") and cpsat_positions(*g)]
    assert len(own) >= 4 and len(any_time) >= 4


def test_cpsat_count_api_and_limits():
    rec = simulate(OPTION_COMBOS[0], 1, "random")
    seat, k, N = next(p for p in cpsat_positions(0, 1, "random") if p[2] >= 10)
    b = belief_after(rec, seat, k)
    assert b.cpsat_model().count(limit=20000, time_limit=60) == N
    from cardmind.belief.cpsat import TooManySolutions

    with pytest.raises(TooManySolutions):
        b.cpsat_model().count(limit=N - 1, time_limit=60)
    assert b.cpsat_model().feasible(time_limit=60) is True


# ----------------------------------------------------------------------------- brute force
BRUTE_GAMES = [(0, 1, "random"), (0, 0, "peer"), (1, 1, "peer"), (1, 2, "peer"), (2, 1, "random"), (4, 1, "random"),
               (2, 1, "peer"), (3, 0, "peer"), (4, 0, "peer"),
               (5, 1, "peer"), (6, 0, "peer"), (7, 1, "peer")]
BRUTE_LIMIT = 600


@lru_cache(maxsize=None)
def brute_positions(combo, seed, agent, want=2):
    """Late positions (count >= 2) whose candidate deals number at most BRUTE_LIMIT."""
    rec = simulate(OPTION_COMBOS[combo], seed, agent)
    n = rec.options["players"]
    E = len(rec.events)
    out = []
    for k in range(E - 1, E // 3, -3):
        seat = k % n
        b = belief_after(rec, seat, k)
        if b.state.is_over() or b.consistent_deals < 2:
            continue
        res = brute_force(b, limit=BRUTE_LIMIT)
        if res is None:
            continue
        out.append((seat, k))
        if len(out) >= want:
            break
    return tuple(out)


@pytest.mark.parametrize("combo,seed,agent", BRUTE_GAMES)
def test_brute_force_finds_exactly_the_counted_deals(combo, seed, agent):
    rec = simulate(OPTION_COMBOS[combo], seed, agent)
    positions = brute_positions(combo, seed, agent)
    assert positions, "no small position in this game"
    for seat, k in positions:
        b = belief_after(rec, seat, k)
        cons = b.constraints()
        # the tracker reads the same dealt holders off the events as the plain rule above
        assert known_dealt(b.options, seat, b.hand, b.events) == cons.known
        legal, states = brute_force(b, limit=BRUTE_LIMIT)
        assert len(legal) == b.consistent_deals >= 2
        # the same deals as the CP-SAT model of the tracker's constraints
        cpsat = b.cpsat_model().enumerate(limit=len(legal) + 1, time_limit=60)
        assert {tuple(sorted(a.items())) for a in legal} == {tuple(sorted(a.items())) for a in cpsat}
        # marginals of the current holders over the replayed games
        exact = b.marginals_exact()
        assert brute_marginals(states) == exact
        # claim probabilities
        check_against_solutions(b, legal)
        # every replayed game agrees on the public facts
        for st in states:
            assert st.sizes == b.state.sizes and st.turn == b.state.turn


@pytest.mark.parametrize("combo,seed,agent", BRUTE_GAMES[::3])
def test_brute_force_pruning_removes_only_illegal_deals(combo, seed, agent):
    """The brute force skips deals where a seat would have refused (or, without ask_own_card,
    asked for) a card it held; check on random deals that the rules reject every such deal."""
    rec = simulate(OPTION_COMBOS[combo], seed, agent)
    rng = np.random.default_rng(combo * 100 + seed)
    checked = 0
    for seat, k in brute_positions(combo, seed, agent):
        b = belief_after(rec, seat, k)
        opts = b.options
        known = known_dealt(opts, seat, b.hand, b.events)
        excluded = refusal_exclusions(opts, b.events)
        unknown = sorted(set(deck_cards(opts["deck"])) - set(known))
        sizes = deal_sizes(opts["players"], opts["deck"])
        slots = [s for s in range(opts["players"]) if s != seat
                 for _ in range(sizes[s] - sum(1 for v in known.values() if v == s))]
        for _ in range(200):
            perm = rng.permutation(len(slots))
            a = {c: slots[j] for c, j in zip(unknown, perm)}
            if any(a[c] in excluded.get(c, ()) for c in unknown):
                assert replay_complete(opts, hands_from(known, a, opts["players"]), b.events) is None
                checked += 1
    assert checked >= 20


# ----------------------------------------------------------------------------- closed forms
def compositions(m, k):
    if k == 0:
        if m == 0:
            yield ()
        return
    for x in range(m, -1, -1):
        for rest in compositions(m - x, k - 1):
            yield (x,) + rest


def count_classes(caps: dict[int, int], classes: list[tuple[int, frozenset]]) -> int:
    """Ways to deal distinct cards, in small classes ``(number, allowed seats)`` plus free
    cards filling whatever is left, so that every seat gets exactly its capacity: a direct
    sum over the split of each class, then a multinomial for the free cards."""
    seats = sorted(caps)

    def rec(i, left):
        if i == len(classes):
            return multinomial([left[s] for s in seats])
        m, allowed = classes[i]
        al = [s for s in seats if s in allowed]
        total = 0
        for parts in compositions(m, len(al)):
            if any(p > left[s] for p, s in zip(parts, al)):
                continue
            ways = factorial(m)
            for p in parts:
                ways //= factorial(p)
            nl = dict(left)
            for p, s in zip(parts, al):
                nl[s] -= p
            total += ways * rec(i + 1, nl)
        return total

    return rec(0, dict(caps))


@pytest.mark.parametrize("options", [{"players": 6}, {"players": 8}, {"players": 6, "deck": "48"},
                                     {"players": 8, "deck": "48"}])
def test_count_and_marginals_at_the_deal(options):
    opts = GAME.parse_options(options)
    hands = GAME.deal(opts, np.random.default_rng(3))["hands"]
    sizes = deal_sizes(opts["players"], opts["deck"])
    for seat in (0, opts["players"] - 1):
        b = LiteratureBelief(opts, seat, hands[seat], model="uniform")
        others = [sizes[s] for s in range(opts["players"]) if s != seat]
        assert b.consistent_deals == multinomial(others)
        unknown = sum(others)
        marg = b.marginals_exact()
        c = next(c for c in deck_cards(opts["deck"]) if c not in hands[seat])
        assert marg[c] == {s: Fraction(sizes[s], unknown) for s in range(opts["players"]) if s != seat}
        assert marg[hands[seat][0]] == {seat: 1}
    if opts["players"] == 8 and opts["deck"] == "54":
        assert b.consistent_deals > 2 ** 64  # the 8-player count does not fit 64 bits


FIRST_EVENT_GAMES = [(0, 0, "random"), (1, 0, "random"), (2, 1, "random"), (3, 1, "random"), (6, 1, "random"),
                     (0, 0, "peer"), (1, 1, "peer"), (5, 0, "peer"), (7, 1, "peer")]


@pytest.mark.parametrize("combo,seed,agent", FIRST_EVENT_GAMES)
def test_first_event_count_in_closed_form(combo, seed, agent):
    """After the first ask, for every observer other than the asker A and the target T: the
    count is (deals where the asked card is where the ask allows it) minus (those where A
    holds no card of the set it must hold one of), each a direct sum; so are the asked
    card's marginals."""
    rec = simulate(OPTION_COMBOS[combo], seed, agent)
    opts = rec.options
    ev = rec.events[0]
    assert ev["type"] == "ask"
    A, T, c = ev["asker"], ev["target"], ev["card"]
    own, success = opts["ask_own_card"], ev["success"]
    sizes = deal_sizes(opts["players"], opts["deck"])
    checked = 0
    for seat in range(opts["players"]):
        if seat in (A, T):
            continue
        hand = rec.header["hands"][seat]
        caps = {s: sizes[s] for s in range(opts["players"]) if s != seat}
        others = frozenset(caps)
        in_set = [x for x in set_cards(set_of(c, opts["deck"])) if x not in hand]
        U0 = [x for x in in_set if x != c]  # the other unknown cards of the set
        c_free = not success and c in in_set  # the asked card's holder is still unknown
        if success:
            caps[T] -= 1
        c_allowed = frozenset(others - {T} - (set() if own else {A}))

        def f(c_at, violate):
            """Deals with the asked card in ``c_at``; with ``violate``, A holds none of the
            cards of the set that would satisfy the ask (U0, and the asked card itself
            under ask_own_card)."""
            classes = [(len(U0), others - {A} if violate else others)]
            if c_free:
                classes.append((1, c_at - {A} if violate and own else c_at))
            return count_classes(caps, classes)

        N = f(c_allowed, False) - f(c_allowed, True)
        b = belief_after(rec, seat, 1)
        assert b.consistent_deals == N, seat
        marg = b.marginals_exact()[c]
        if c_free:
            for s in sorted(others):
                k = f(c_allowed & {s}, False) - f(c_allowed & {s}, True)
                assert marg.get(s, 0) == Fraction(k, N), (seat, s)
        else:
            assert marg == {(A if success else seat): 1}  # current holder
        checked += 1
    assert checked == opts["players"] - 2


@pytest.mark.parametrize("combo,seed,agent,ks", [(1, 0, "random", (1,)), (0, 0, "peer", (1, 3, 6)),
                                                  (3, 1, "peer", (1, 2))])
def test_python_reference_and_fast_path_agree_early(combo, seed, agent, ks):
    """The first events of a game (counts above 2^64, 8 players included). The Python
    reference is slow on early 8-player positions (seconds), so only the first events."""
    rec = simulate(OPTION_COMBOS[combo], seed, agent)
    for k in ks:
        seat = k % rec.options["players"]
        fast = belief_after(rec, seat, k)
        ref = belief_after(rec, seat, k)
        ref.engine = "python"
        assert fast.consistent_deals == ref.consistent_deals > 2 ** 64
        assert fast.marginals_exact() == ref.marginals_exact()
        name = fast.state.unclaimed_sets()[0]
        assert fast.team_holds_probability(name, exact=True) == ref.team_holds_probability(name, exact=True)
