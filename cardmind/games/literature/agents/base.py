"""Literature players: ``random`` (this module), ``peer`` and ``belief`` (their own modules)."""

from __future__ import annotations

import numpy as np

from ..notation import Ask, ChooseNext, Claim, Pass
from ..rules import set_cards, set_names, team_of
from ..state import LiteratureState
from ..notation import make_claim
from ..certain import CertainKnowledge
from ....agents.base import Agent


class LiteratureAgent(Agent):
    """Shared helpers for Literature agents (the view state is a :class:`LiteratureState`)."""

    games = ("literature",)
    state: LiteratureState

    def certain_claims(self, known: dict[str, int] | None = None) -> list[Claim]:
        """Claims of sets whose six holders are all known and on this seat's team.

        Args:
            known: ``{card: seat}`` of certainly located cards (default: the cards the view
                state locates: own hand and cards handed over).
        """
        st = self.state
        if not st.may_claim(self.seat):
            return []
        known = st.holder if known is None else known
        team = team_of(self.seat)
        out = []
        for name in st.unclaimed_sets():
            cards = set_cards(name)
            if all(c in known and team_of(known[c]) == team for c in cards):
                out.append(make_claim(self.seat, name, known, cards))
        return out

    def forced_choice(self, rng: np.random.Generator):
        """The action when the only choices are who plays next or whom to pass to (random)."""
        st = self.state
        if st.pending is not None:
            cands = st.next_candidates(st.pending)
            return ChooseNext(self.seat, cands[int(rng.integers(len(cands)))])
        if st.sizes[self.seat] == 0:
            passes = st.legal_passes(self.seat)
            return passes[int(rng.integers(len(passes)))]
        return None

    def guess_claim(self, rng: np.random.Generator, known: dict[str, int] | None = None) -> Claim:
        """A claim when no ask is possible: a random unclaimed set, its known cards at their
        holders and the rest at random teammates with cards."""
        st = self.state
        known = st.holder if known is None else known
        names = st.unclaimed_sets()
        name = names[int(rng.integers(len(names)))]
        mates = [s for s in range(team_of(self.seat), st.players, 2) if st.sizes[s] > 0] or [self.seat]
        a = {}
        for c in set_cards(name):
            if c in known and team_of(known[c]) == team_of(self.seat):
                a[c] = known[c]
            else:
                a[c] = mates[int(rng.integers(len(mates)))]
        return make_claim(self.seat, name, a, set_cards(name))


class RandomAgent(LiteratureAgent):
    """A uniformly random legal ask; it claims only a set whose six locations it knows for
    certain (and guesses a claim only when no ask is possible).

    It decides exactly as ``certain_claims`` (first certain set in canonical order) followed
    by a uniform pick from ``legal_asks``, but reads the certain sets off the bitmasks of
    :class:`CertainKnowledge` and picks the ask by its index in the product
    ``ask_choices`` describes, without building every claim and ask.
    """

    name = "random"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.certain = CertainKnowledge(self.options, self.seat, self.header["hand"])

    def observe(self, event) -> None:
        """Advance the view and the certain facts."""
        super().observe(event)
        self.certain.observe(event)

    def _certain_claim(self) -> Claim | None:
        """``certain_claims(certain.located())[0]``, or ``None`` when there is none."""
        if not self.state.may_claim(self.seat):
            return None
        k = self.certain.certain_set(self.seat % 2)
        if k is None:
            return None
        name = set_names(self.state.deck)[k]
        cards = set_cards(name)
        holder = self.certain.holder
        return make_claim(self.seat, name, {c: holder(c) for c in cards}, cards)

    def act(self, rng: np.random.Generator):
        """Claim a certain set if any, else a uniformly random legal ask."""
        forced = self.forced_choice(rng)
        if forced is not None:
            return forced
        claim = self._certain_claim()
        if claim is not None:
            return claim
        cards, targets = self.state.ask_choices(self.seat)
        if cards:
            nt = len(targets)
            k = int(rng.integers(len(cards) * nt))
            return Ask(self.seat, targets[k % nt], cards[k // nt])
        return self.guess_claim(rng, self.certain.located())

    def react(self, rng: np.random.Generator):
        """Out of turn: claim a certain set, if any."""
        return self._certain_claim()


__all__ = ["LiteratureAgent", "RandomAgent", "Pass"]
