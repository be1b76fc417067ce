"""Helpers shared by the Literature tests: simulated games, prefixes, brute force.

Everything here is deterministic: games are dealt and played from fixed seeds, so a
failing test names a game that can be replayed exactly.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from cardmind.agents.base import resolve_agent
from cardmind.agents.match import play_game
from cardmind.games.literature.belief import LiteratureBelief
from cardmind.core import get_game
from cardmind.errors import IllegalAction
from cardmind.games.literature.rules import deal_sizes
from cardmind.records import Record

GAME = get_game("literature")

#: option combinations used by the simulations (raw options, as a record header writes them)
OPTION_COMBOS: tuple[dict[str, Any], ...] = (
    {"players": 6},
    {"players": 8},
    {"players": 6, "claim_any_time": True, "ask_own_card": True},
    {"players": 8, "deck": "48", "claim_any_time": True, "ask_own_card": True},
    {"players": 6, "deck": "48", "wrong_claim": "cancel", "after_claim": "claimant"},
    {"players": 8, "ask_own_card": True, "after_claim": "claimant"},
    {"players": 8, "deck": "48", "claim_any_time": True},
    {"players": 6, "ask_own_card": True, "wrong_claim": "cancel"},
)


def _key(options: Mapping[str, Any]) -> tuple:
    return tuple(sorted(options.items()))


@lru_cache(maxsize=128)
def _simulate(opts_key: tuple, seed: int, agent: str, max_actions: int) -> Record:
    options = dict(opts_key)
    cls = resolve_agent(agent, GAME)
    n = options.get("players", 6)
    res = play_game(GAME, options, [cls] * n, np.random.default_rng(seed),
                    [np.random.default_rng([seed, s]) for s in range(n)], max_actions=max_actions)
    assert res.forfeit is None, res.forfeit_reason
    return res.record


def simulate(options: Mapping[str, Any], seed: int, agent: str = "random", max_actions: int = 500) -> Record:
    """The complete record of one seeded game between ``agent`` players (cached). Random
    players under ``ask_own_card`` can ask for ever: such games stop after ``max_actions``
    actions; their records are legal prefixes of a game."""
    return _simulate(_key(options), seed, agent, max_actions)


def belief_after(rec: Record, seat: int, k: int) -> LiteratureBelief:
    """``seat``'s tracker after the first ``k`` events of a complete record."""
    return LiteratureBelief.from_record(rec, seat=seat, upto_event=k, model="uniform")


def true_dealt(rec: Record) -> dict[str, int]:
    """``{card: dealt seat}`` of a complete record."""
    return {c: s for s, h in enumerate(rec.header["hands"]) for c in h}


def state_after(rec: Record, k: int):
    """The complete state after the first ``k`` events."""
    st = GAME.new_state(rec.options, rec.header)
    for ev in rec.events[:k]:
        st.apply_event(ev)
    return st


def multinomial(parts: Sequence[int]) -> int:
    out, n = 1, 0
    for r in parts:
        n += r
        out *= math.comb(n, r)
    return out


# ----------------------------------------------------------------------------- brute force
def known_dealt(options: Mapping[str, Any], observer: int, hand: Sequence[str],
                events: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """The dealt holders the observer can read off the events, computed here from scratch:
    its own hand; a card that moved was dealt to the giver of its first move; a card shown
    by a claim that never moved was dealt to the seat it was shown at."""
    known = {c: observer for c in hand}
    first_giver: dict[str, int] = {}
    shown: dict[str, int] = {}
    for ev in events:
        if ev["type"] == "ask" and ev["success"]:
            first_giver.setdefault(ev["card"], ev["target"])
        elif ev["type"] == "claim":
            shown.update(ev["actual"])
    for c, s in first_giver.items():
        known[c] = s
    for c, s in shown.items():
        known.setdefault(c, s)
    return known


def refusal_exclusions(options: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> dict[str, set[int]]:
    """Seats that certainly were not dealt a card, by the plainest reading of the rules:
    a refusal of ``c`` by seat ``s`` before ``c`` ever moved means ``s`` was not dealt ``c``
    (else the complete replay fails with ``ask-result``); without ``ask_own_card`` the same
    holds for the asker of ``c`` (else ``ask-own-card``). Used only to prune the brute force;
    :func:`check_exclusions_sound` checks on samples that it removes only illegal deals."""
    moved: set[str] = set()
    out: dict[str, set[int]] = {}
    own = options.get("ask_own_card", False)
    for ev in events:
        if ev["type"] != "ask":
            continue
        c = ev["card"]
        if c not in moved:
            if not ev["success"]:
                out.setdefault(c, set()).add(ev["target"])
            if not own:
                out.setdefault(c, set()).add(ev["asker"])
        if ev["success"]:
            moved.add(c)
    return out


def candidate_assignments(unknown: Sequence[str], seats: Sequence[int], caps: Mapping[int, int],
                          excluded: Mapping[str, set[int]], limit: int) -> list[dict[str, int]] | None:
    """Every assignment of ``unknown`` to ``seats`` filling each seat's capacity exactly and
    avoiding ``excluded``; ``None`` when there are more than ``limit``."""
    out: list[dict[str, int]] = []
    left = dict(caps)
    cur: dict[str, int] = {}
    order = sorted(unknown, key=lambda c: len(seats) - len(excluded.get(c, ())))

    def rec(j: int) -> bool:
        if j == len(order):
            out.append(dict(cur))
            return len(out) <= limit
        c = order[j]
        for s in seats:
            if left[s] and s not in excluded.get(c, ()):
                left[s] -= 1
                cur[c] = s
                ok = rec(j + 1)
                left[s] += 1
                if not ok:
                    return False
        return True

    if not rec(0):
        return None
    return out


def replay_complete(options: Mapping[str, Any], hands: list[list[str]], events: Sequence[Mapping[str, Any]]):
    """Replay ``events`` as a complete game dealt ``hands``; the final state, or ``None``
    when some event is illegal under the rules with every hand known."""
    header = {"format": "cardmind-record/1", "game": "literature", "options": dict(options), "hands": hands}
    try:
        st = GAME.new_state(dict(options), header)
        for ev in events:
            st.apply_event(dict(ev))
    except IllegalAction:
        return None
    return st


def hands_from(known: Mapping[str, int], assignment: Mapping[str, int], players: int) -> list[list[str]]:
    hands: list[list[str]] = [[] for _ in range(players)]
    for c, s in list(known.items()) + list(assignment.items()):
        hands[s].append(c)
    return hands


def brute_force(belief: LiteratureBelief, limit: int = 1500):
    """Enumerate, independently of the tracker's constraint extraction, the deals consistent
    with ``belief``'s events: every assignment of the cards whose dealt holder the observer
    cannot read off the events to the other seats, with the dealt hand sizes, kept when the
    complete game replays legally. Returns ``(legal assignments, final states)`` or ``None``
    when the candidate space exceeds ``limit``."""
    opts = belief.options
    players = opts["players"]
    known = known_dealt(opts, belief.observer, belief.hand, belief.events)
    deck = [c for h in [GAME.deal(opts, np.random.default_rng(0))["hands"]] for hh in h for c in hh]
    unknown = sorted(c for c in deck if c not in known)
    sizes = deal_sizes(players, opts["deck"])
    caps = {s: sizes[s] - sum(1 for v in known.values() if v == s) for s in range(players) if s != belief.observer}
    if any(v < 0 for v in caps.values()) or sum(caps.values()) != len(unknown):
        return [], []
    excluded = refusal_exclusions(opts, belief.events)
    seats = [s for s in caps if caps[s] > 0]
    cands = candidate_assignments(unknown, seats, {s: caps[s] for s in seats}, excluded, limit)
    if cands is None:
        return None
    legal, states = [], []
    for a in cands:
        st = replay_complete(opts, hands_from(known, a, players), belief.events)
        if st is not None:
            legal.append(a)
            states.append(st)
    return legal, states


def brute_marginals(states) -> dict[str, dict[int, Fraction]]:
    """Exact marginals of the current holders over the final states of the legal deals."""
    n = len(states)
    counts: dict[str, Counter] = {}
    for st in states:
        for c, s in st.holder.items():
            counts.setdefault(c, Counter())[s] += 1
    return {c: {s: Fraction(k, n) for s, k in sorted(cnt.items())} for c, cnt in counts.items()}


# ----------------------------------------------------------------------------- crafted deals
def make_hands(options: Mapping[str, Any], fixed: Mapping[str, int]) -> list[list[str]]:
    """A legal deal for ``options`` with the cards of ``fixed`` at the given seats; the other
    cards fill the remaining places in deck order, round-robin."""
    from cardmind.games.literature.rules import deck_cards

    opts = GAME.parse_options(options)
    sizes = deal_sizes(opts["players"], opts["deck"])
    n = len(sizes)
    hands: list[list[str]] = [[] for _ in range(n)]
    for c, s in fixed.items():
        hands[s].append(c)
    assert all(len(h) <= sizes[s] for s, h in enumerate(hands)), "too many fixed cards for a seat"
    s = 0
    for c in deck_cards(opts["deck"]):
        if c in fixed:
            continue
        while len(hands[s]) >= sizes[s]:
            s = (s + 1) % n
        hands[s].append(c)
        s = (s + 1) % n
    return hands


def complete_state(options: Mapping[str, Any], fixed: Mapping[str, int] | None = None, hands=None):
    """A complete Literature state at the start of play (see :func:`make_hands`)."""
    opts = GAME.parse_options(options)
    if hands is None:
        hands = make_hands(opts, fixed or {})
    header = {"format": "cardmind-record/1", "game": "literature", "options": opts, "hands": hands}
    return GAME.new_state(opts, header), header
