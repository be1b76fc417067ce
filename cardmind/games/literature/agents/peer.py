"""``peer``: a rebuild of the strongest published Literature bots, as the baseline to beat.

What it does (issue 3, "peer"):

* Certain facts are propagated to a fixpoint by
  :class:`~cardmind.games.literature.certain.CertainKnowledge` (hits, misses, "at least one of"
  clauses from every ask, full hands, free slots equal to possible cards, single possible
  holders).
* Its hit probability for asking seat ``t`` for card ``c`` is ``t``'s share of the unknown
  hand slots of ``c``'s possible holders: ``free(t) / sum(free(s) for s in possible(c))``,
  where ``free(s)`` is ``s``'s hand size minus the cards located at ``s``.
* It asks a certain hit when it has one; else the ask with the best weighted score
  ``W_HIT * hit + W_PROGRESS * progress + W_NARROW * narrowing`` where ``progress`` is the
  share of the set's cards its team would then have located and ``narrowing`` is how much a
  miss would shrink the card's possible holders (``1 / (number of possible holders)``).
* It claims every set it knows for certain, and also claims when its estimate of being
  right (the product over the set's cards of the hit probability of the teammate it
  names) is at least 0.8.
"""

from __future__ import annotations

import numpy as np

from ..certain import CertainKnowledge
from .. import Claim, set_cards, team_of
from ..notation import ChooseNext, make_claim
from ..rules import set_of
from .base import LiteratureAgent

W_HIT = 1.0
W_PROGRESS = 0.3
W_NARROW = 0.1
CLAIM_THRESHOLD = 0.8


class PeerAgent(LiteratureAgent):
    """The baseline Literature bot (see the module docstring)."""

    name = "peer"
    default_settings = {"claim_threshold": CLAIM_THRESHOLD}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.certain = CertainKnowledge(self.options, self.seat, self.header["hand"])

    def observe(self, event) -> None:
        """Advance the view and the certain facts."""
        super().observe(event)
        self.certain.observe(event)

    # ------------------------------------------------------------------ estimates
    def _free(self) -> list[int]:
        located = [0] * self.state.players
        for s in self.certain.located().values():
            located[s] += 1
        return [max(0, self.state.sizes[s] - located[s]) for s in range(self.state.players)]

    def hit_probability(self, card: str, seat: int, free: list[int] | None = None) -> float:
        """The target's share of the unknown slots of the card's possible holders."""
        poss = self.certain.possible.get(card)
        if not poss or seat not in poss:
            return 0.0
        if len(poss) == 1:
            return 1.0
        free = self._free() if free is None else free
        total = sum(free[s] for s in poss)
        return free[seat] / total if total else 0.0

    def claim_estimate(self, set_name: str, free: list[int] | None = None) -> tuple[float, dict[str, int]]:
        """``(estimate of being right, assignment)`` for claiming ``set_name`` now."""
        free = self._free() if free is None else free
        team = team_of(self.seat)
        est = 1.0
        a = {}
        for c in set_cards(set_name):
            mates = [s for s in self.certain.possible.get(c, ()) if team_of(s) == team]
            if not mates:
                return 0.0, {}
            best = max(mates, key=lambda s: (self.hit_probability(c, s, free), -s))
            a[c] = best
            est *= self.hit_probability(c, best, free)
        return est, a

    # ------------------------------------------------------------------ decisions
    def _claims(self, threshold: float) -> list[tuple[float, Claim]]:
        st = self.state
        if not st.may_claim(self.seat):
            return []
        free = self._free()
        out = []
        for name in st.unclaimed_sets():
            est, a = self.claim_estimate(name, free)
            if a and est >= threshold:
                out.append((est, make_claim(self.seat, name, a, set_cards(name))))
        out.sort(key=lambda x: -x[0])
        return out

    def act(self, rng: np.random.Generator):
        """Certain claims, then certain hits, then claims at >= 0.8, then the best scored ask."""
        st = self.state
        if st.pending is not None:
            cands = st.next_candidates(st.pending)
            return ChooseNext(self.seat, self._choose_next(cands))
        if st.sizes[self.seat] == 0:
            passes = st.legal_passes(self.seat)
            return max(passes, key=lambda p: (st.sizes[p.to], -p.to))
        certain = [c for est, c in self._claims(1.0) if est >= 1.0]
        if certain:
            return certain[0]
        asks = st.legal_asks(self.seat)
        free = self._free()
        scored = []
        for ask in asks:
            p = self.hit_probability(ask.card, ask.target, free)
            if p >= 1.0:
                return ask
            scored.append((p, ask))
        claims = self._claims(self.settings["claim_threshold"])
        if claims:
            return claims[0][1]
        if not scored or max(p for p, _ in scored) <= 0.0:
            # no ask possible: claim the most likely set
            best = self._claims(0.0)
            return best[0][1] if best else self.guess_claim(rng, self.certain.located())
        team = team_of(self.seat)
        located = self.certain.located()
        best_score, best_ask = None, None
        for p, ask in scored:
            name = set_of(ask.card, st.deck)
            cards = set_cards(name)
            have = sum(1 for c in cards if c in located and team_of(located[c]) == team)
            progress = (have + p) / len(cards)
            poss = self.certain.possible.get(ask.card, ())
            narrowing = 1.0 / max(1, len(poss))
            score = W_HIT * p + W_PROGRESS * progress + W_NARROW * narrowing
            key = (score, -ask.target, ask.card)
            if best_score is None or key > best_score:
                best_score, best_ask = key, ask
        return best_ask

    def _choose_next(self, cands: list[int]) -> int:
        if self.seat in cands:
            return self.seat
        return max(cands, key=lambda s: (self.state.sizes[s], -s))

    def react(self, rng: np.random.Generator):
        """Out of turn (claim_any_time): claim sets known for certain."""
        certain = [c for est, c in self._claims(1.0) if est >= 1.0]
        return certain[0] if certain else None
