"""``belief``: the Hand and Foot player that times its decisions by expected team score.

It plays the ``peer`` policy (:mod:`.peer`: what to meld, where the wild cards go, the
discard judgement) and changes the decisions whose value depends on the hidden cards, each
weighed over worlds drawn from its belief about them (:func:`~..decide.quick_worlds`: the
cards it has not seen spread over the hidden places, the cards known from pickups kept; the
constraint-only posterior's sampler costs too much per move for tournaments):

* ``out`` (going out and asking): when it can go out it compares going out now (+300, the
  partner's cards and unpicked foot counting against, red threes 500 each) with playing one
  more round (the partner lays its cards first, against the chance that an opponent goes out
  before its next turn: :func:`~..decide.go_out_swing`), and asks only when now is worth more;
* ``answer``: as the partner it answers yes only when the team's expected score of going out
  now is at least that of a no (:func:`~..decide.answer_swing`: its own cards and foot count
  against if it says yes);
* ``pile``: it takes the discard pile when the points it lets it lay this turn, doubled (they
  leave the hand and count on the table), beat a draw's, less 500 per red three taken times the
  chance the hand ends before it can discard them (one a turn); ``peer`` takes it unless it holds
  more than two red threes;
* ``safe``: it does not discard a card that lets the next player, an opponent, take the pile
  (the chance it holds a natural pair of the card's rank above ``danger``), unless every card is
  so;
* ``foot`` (the move to the foot): in its hand, when every card but one can be laid with the
  wild cards it holds (which ``peer`` keeps), it lays them and moves to its foot, unless the
  wild cards would spoil the clean book its team still needs;
* ``open`` (the opening): it opens as soon as it can, like ``peer``, unless the opening spends
  two or more wild cards, the chance that an opponent goes out before its next turn is below
  ``open_risk`` and the minimum can be reached next turn without them in more than half the
  worlds.

Each feature can be switched off (settings of the same names) for the study's ablations.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..decide import (answer_swing, could_go_out_soon, discard_danger, go_out_swing, opponents_out_risk,
                        quick_worlds)
from ..notation import Answer, Discard, Draw
from ..plan import choose_discard, foot_plan, opening_plan, plays_of
from ..rules import card_points, is_red_three, is_wild, max_meld_points
from .peer import HandFootPeerAgent, play_action


class HandFootBeliefAgent(HandFootPeerAgent):
    """The belief-driven Hand and Foot player (see the module docstring)."""

    name = "belief"
    games = ("handfoot",)
    default_settings = {"max_pile_red_threes": 2, "worlds": 20, "out": True, "answer": True, "pile": True,
                        "safe": True, "foot": True, "open": True, "danger": 0.25, "open_risk": 0.05}

    def _worlds(self, rng: np.random.Generator, n: int | None = None):
        return quick_worlds(self.state, self.seat, n or self.settings["worlds"], rng)

    def act(self, rng: np.random.Generator):
        """Its action now (always legal, see :meth:`HandFootPeerAgent.act`)."""
        self._rng = rng
        return super().act(rng)

    def observe(self, event) -> None:
        """Take in an event; a draw or a pile pickup starts a new turn (decisions taken once a
        turn are forgotten)."""
        super().observe(event)
        if event["type"] in ("draw", "pickup", "deal"):
            self._turn_key = getattr(self, "_turn_key", 0) + 1
            self._play_on_turn = None

    # ------------------------------------------------------------------ answer
    def answer_choice(self):
        st, seat = self.state, self.seat
        if not self.settings["answer"]:
            return Answer(seat, True)
        sw = answer_swing(st, seat, self._worlds(self._rng), self._rng, fast=True)
        return Answer(seat, sw.swing >= 0)

    # ------------------------------------------------------------------ draw
    def draw_choice(self):
        st, seat = self.state, self.seat
        if not self.settings["pile"]:
            return super().draw_choice()
        takes = st._pile_options(seat)
        if not takes:
            return Draw(seat)
        team = st.teams[seat]
        shapes = [m.shape for m in st.melds[team]]
        zone = st.zone[seat]
        e_draw = self._expected_draw_points(zone, shapes, 20)
        taken = st.pile_take_cards()
        best, best_val = None, 0.0
        q = None
        for a in takes:
            after = zone - Counter(a.pair) + Counter(taken[1:])
            pts = sum(card_points(c) for c in (taken[0], *a.pair)) + max_meld_points(after, shapes, 0)
            r3 = sum(1 for c in taken if is_red_three(c))
            penalty = 0.0
            if r3:
                if q is None:
                    q = self._risk()
                penalty = 500 * r3 * (1 - (1 - max(q, 0.02)) ** r3)
            val = 2 * (pts - e_draw) + 5 * (len(taken) - 3) - penalty
            if best is None or val > best_val:
                best, best_val = a, val
        return best if best is not None and best_val >= 0 else Draw(seat)

    def _risk(self) -> float:
        """Chance an opponent goes out before its next turn (0 without worlds when none could)."""
        st = self.state
        if not any(st.teams[s] != st.teams[self.seat] and could_go_out_soon(st, s) for s in range(st.players)):
            return 0.0
        return opponents_out_risk(st, self.seat, self._worlds(self._rng, 20), self._rng, fast=True)

    def _unseen_cards(self) -> list[str]:
        from ..rules import deck_counter  # noqa: PLC0415

        return sorted((deck_counter(self.options) - self.state.visible()).elements())

    def _expected_draw_points(self, zone, shapes, n: int, cards: Counter | None = None) -> float:
        """Expected points it could lay after drawing two cards (a uniform draw from the cards it
        has not seen: the stock is a uniform part of them in its belief)."""
        unseen = self._unseen_cards()
        if cards is not None:
            zone = cards
        total = 0.0
        for _ in range(n):
            k = min(2, len(unseen))
            pick = Counter(unseen[i] for i in self._rng.choice(len(unseen), k, replace=False)) if k else Counter()
            total += max_meld_points(zone + pick, shapes, 0)
        return total / max(1, n)

    # ------------------------------------------------------------------ play
    def play_choice(self):
        st, seat = self.state, self.seat
        team = st.teams[seat]
        zone = st.zone[seat]
        opened = st.opened[team] and not (st.opening and st.turn_points < st.minimum)
        if not st.opened[team] and self.settings["open"]:
            need = st.minimum - st.turn_points
            plays, value = opening_plan(zone, st.melds[team], need)
            if value >= need and plays:
                wilds = sum(1 for _, cards in plays for c in cards if is_wild(c))
                if wilds >= 2 and self._wait_to_open(need, plays):
                    return self.discard()
        if opened and st.in_foot[seat] and not st.may_go_out(seat) and self.settings["out"] \
                and not st.cut_throat() and not st.asked:
            key = getattr(self, "_turn_key", 0)
            if getattr(self, "_play_on_turn", None) == key:
                return self._play_on()
            if self.can_go_out():
                sw = go_out_swing(st, seat, self._worlds(self._rng), self._rng, my_cards=zone, fast=True)
                if sw.swing < 0:
                    self._play_on_turn = key      # decided for this turn
                    return self._play_on()
        if opened and not st.in_foot[seat] and self.settings["foot"]:
            step = self._to_foot()
            if step is not None:
                return step
        return super().play_choice()

    def _wait_to_open(self, need: int, plays) -> bool:
        """Whether to keep the wild cards and open next turn instead (see the module docstring)."""
        st, seat = self.state, self.seat
        if self._risk() >= self.settings["open_risk"]:
            return False
        team = st.teams[seat]
        natural = Counter({c: k for c, k in st.zone[seat].items() if not is_wild(c)})
        unseen = self._unseen_cards()
        shapes = [m.shape for m in st.melds[team]]
        hits = 0
        n = 20
        for _ in range(n):
            k = min(2, len(unseen))
            pick = Counter(unseen[i] for i in self._rng.choice(len(unseen), k, replace=False)) if k else Counter()
            if max_meld_points(natural + pick, shapes, 0) >= need:
                hits += 1
        return hits > n / 2

    def _play_on(self):
        """Going out now is worth less than one more round: lay as ``peer`` would while keeping
        two cards (so it does not go out), then discard."""
        st, seat = self.state, self.seat
        from ..plan import down_plan, trim_for_keep  # noqa: PLC0415

        groups = down_plan(st.zone[seat], st.melds[st.teams[seat]], True, self.needs())
        trim_for_keep(st.zone[seat], groups, 2)
        plays = plays_of(groups)
        if plays:
            return play_action(seat, plays[0])
        return self.discard()

    def _to_foot(self):
        """In the hand: lay every card but the discard, wild cards included, when that leaves
        the team's clean books owed intact (:func:`~..plan.foot_plan` without ``lay_all``);
        ``None`` when not."""
        st, seat = self.state, self.seat
        found = foot_plan(st.zone[seat], st.melds[st.teams[seat]], self.options["books_clean"], lay_all=False)
        if found is None:
            return None
        plays = plays_of(found[1])
        return play_action(seat, plays[0]) if plays else None

    def discard(self):
        st, seat = self.state, self.seat
        team = st.teams[seat]
        melded = {m.rank for m in st.melds[team]}
        zone = st.zone[seat]
        if not self.settings["safe"]:
            return Discard(seat, choose_discard(zone, melded))
        allowed = [c for c in zone if zone[c] > 0 and discard_danger(st, seat, c, None) <= self.settings["danger"]]
        if allowed and not (all(is_wild(c) for c in allowed) and any(not is_wild(c) for c in zone)):
            return Discard(seat, choose_discard(zone, melded, allowed))
        return Discard(seat, choose_discard(zone, melded))


__all__ = ["HandFootBeliefAgent"]
