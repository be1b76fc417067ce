"""CertainKnowledge (bitmasks, incremental propagation) against the original implementation.

``ReferenceCertain`` below is the original, straightforward CertainKnowledge (re-apply every
rule to every seat until nothing changes), kept verbatim as the oracle. The fast one must
reach exactly the same facts after every event of many games (random and peer players,
every option combination), including the long games of random players.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pytest

from cardmind.agents.base import resolve_agent
from cardmind.agents.match import play_game
from cardmind.games.literature.certain import CertainKnowledge
from cardmind.core import get_game

from .lit_helpers import OPTION_COMBOS
from cardmind.games.literature.rules import deal_sizes, deck_cards, set_cards, set_names, set_of

GAME = get_game("literature")

COMBOS = OPTION_COMBOS


class ReferenceCertain:
    """One seat's certain knowledge of who holds each card now.

    Args:
        options: parsed Literature options.
        observer: the seat whose view this is.
        hand: its dealt cards.

    Attributes:
        possible: ``{card: set of seats}`` that may hold each card in play now.
        sizes: public hand sizes.
        clauses: ``[(seat, set of cards)]``: ``seat`` holds at least one of the cards.
    """

    def __init__(self, options: Mapping[str, Any], observer: int, hand: Iterable[str]):
        self.options = options
        self.players = options["players"]
        self.deck = options["deck"]
        self.observer = observer
        self.sizes = list(deal_sizes(self.players, self.deck))
        hand = set(hand)
        others = {s for s in range(self.players) if s != observer}
        self.possible: dict[str, set[int]] = {
            c: ({observer} if c in hand else set(others)) for c in deck_cards(self.deck)}
        self.clauses: list[tuple[int, set[str]]] = []
        self._propagate()

    def holder(self, card: str) -> int | None:
        """The seat certainly holding ``card`` now, or ``None``."""
        p = self.possible.get(card)
        if p is not None and len(p) == 1:
            return next(iter(p))
        return None

    def located(self) -> dict[str, int]:
        """``{card: seat}`` for every card in play whose holder is certain."""
        return {c: next(iter(p)) for c, p in self.possible.items() if len(p) == 1}

    def observe(self, event: Mapping[str, Any]) -> None:
        """Apply one Literature event (assumed legal)."""
        kind = event["type"]
        if kind == "ask":
            a, t, c = event["asker"], event["target"], event["card"]
            name = set_of(c, self.deck)
            own = self.options["ask_own_card"]
            others = {x for x in set_cards(name) if own or x != c}
            if not any(self.holder(x) == a for x in others):
                self.clauses.append((a, set(others)))
            if not own:
                self.possible[c].discard(a)
            if event["success"]:
                self._give(t, c)
                self.possible[c] = {a}
                self.sizes[t] -= 1
                self.sizes[a] += 1
            else:
                self.possible[c].discard(t)
        elif kind == "claim":
            for c, s in event["actual"].items():
                self.sizes[s] -= 1
                self.possible.pop(c, None)
            cards = set(event["actual"])
            self.clauses = [(s, u - cards) for s, u in self.clauses if not u <= cards]
        self._propagate()

    def _give(self, seat: int, card: str) -> None:
        """``seat`` gave ``card`` away: forget clauses of ``seat`` that named it."""
        self.clauses = [(s, u) for s, u in self.clauses if not (s == seat and card in u)]

    def _propagate(self) -> None:
        changed = True
        possible = self.possible
        while changed:
            changed = False
            # clauses
            kept = []
            for s, u in self.clauses:
                u = {c for c in u if c in possible and s in possible[c]}
                if any(len(possible[c]) == 1 for c in u):
                    continue  # satisfied: the seat is seen holding one
                if len(u) == 1:
                    c = next(iter(u))
                    possible[c] = {s}
                    changed = True
                    continue
                if u:
                    kept.append((s, u))
            self.clauses = kept
            # hand sizes
            located = [0] * self.players
            could = [0] * self.players
            for c, p in possible.items():
                if len(p) == 1:
                    located[next(iter(p))] += 1
                else:
                    for s in p:
                        could[s] += 1
            for s in range(self.players):
                free = self.sizes[s] - located[s]
                if free == 0 and could[s]:
                    for p in possible.values():
                        if len(p) > 1 and s in p:
                            p.discard(s)
                    changed = True
                elif free > 0 and free == could[s]:
                    for c, p in possible.items():
                        if len(p) > 1 and s in p:
                            possible[c] = {s}
                    changed = True


def _minimal_clauses(clauses) -> set:
    """The clauses that no other clause of the same seat implies (duplicates merged): the
    fast version skips a clause an existing one implies, which deduces nothing more."""
    all_ = {(s, frozenset(u)) for s, u in clauses}
    return {(s, u) for s, u in all_ if not any(t == s and v < u for t, v in all_)}


def _same(ref: ReferenceCertain, new: CertainKnowledge, where: str) -> None:
    assert new.sizes == ref.sizes, where
    assert dict(new.possible) == ref.possible, where
    assert list(new.possible) == list(ref.possible), where
    assert new.located() == {c: next(iter(p)) for c, p in ref.possible.items() if len(p) == 1}, where
    assert _minimal_clauses(new.clauses) == _minimal_clauses(ref.clauses), where


def _records(options: dict, seeds: Iterable[int], agent: str, max_actions: int):
    cls = resolve_agent(agent, GAME)
    n = options.get("players", 6)
    for seed in seeds:
        res = play_game(GAME, options, [cls] * n, np.random.default_rng(seed),
                        [np.random.default_rng([seed, s]) for s in range(n)], max_actions=max_actions)
        assert res.forfeit is None, res.forfeit_reason
        yield seed, res.record


def _replay_both(opts: dict, rec, where: str) -> None:
    hands = rec.header["hands"]
    for seat in range(opts["players"]):
        ref = ReferenceCertain(opts, seat, hands[seat])
        new = CertainKnowledge(opts, seat, hands[seat])
        _same(ref, new, f"{where} seat {seat} start")
        for k, ev in enumerate(rec.events):
            ref.observe(ev)
            new.observe(ev)
            _same(ref, new, f"{where} seat {seat} event {k}: {ev}")


@pytest.mark.parametrize("options", COMBOS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_same_facts_after_every_event(options):
    opts = GAME.parse_options(options)
    for seed, rec in _records(options, [11], "random", 400):
        _replay_both(opts, rec, f"random seed {seed}")


@pytest.mark.parametrize("options", COMBOS[:3], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_same_facts_peer_games(options):
    opts = GAME.parse_options(options)
    for seed, rec in _records(options, [5], "peer", 400):
        _replay_both(opts, rec, f"peer seed {seed}")


def test_holder_and_certain_set():
    opts = GAME.parse_options({"players": 6})
    _, rec = next(_records({"players": 6}, [3], "random", 3000))
    hands = rec.header["hands"]
    names = set_names("54")
    for seat in range(6):
        k = CertainKnowledge(opts, seat, hands[seat])
        claimed: set[str] = set()
        for ev in rec.events:
            k.observe(ev)
            if ev["type"] == "claim":
                claimed.add(ev["set"])
            located = k.located()
            for c in deck_cards("54"):
                assert k.holder(c) == located.get(c)
            for team in (0, 1):
                want = next((i for i, name in enumerate(names) if name not in claimed and all(
                    c in located and located[c] % 2 == team for c in set_cards(name))), None)
                assert k.certain_set(team) == want
