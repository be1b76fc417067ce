"""``peer``: a rebuild of the best published Hand and Foot bot, as the baseline to beat.

The bot it rebuilds is the playing heuristic of **jcj59/hand-and-foot** (a TypeScript engine
with an arena: ``packages/engine/src/policy.ts``, ``heuristicAction``; its lay-down search
``plan.ts``, ``greedyLayDown``; read with the search tools, rewritten here for cardmind's rules,
no code copied). That bot scores players individually and has no partnership and no asking to
go out; this rebuild keeps its policy and adds what the rules need, as plainly as it can:

* **Draw**: take the discard pile whenever it is legal (cardmind's rule already demands that a
  team that has not opened can reach the minimum with the pile's top card), unless the cards
  taken hold more than ``max_pile_red_threes`` (2) red threes (``MAX_PILE_RED_THREES``:
  measured best by its author); otherwise draw two.
* **Open** as soon as the lay-down search reaches the hand's minimum: every rank with three or
  more naturals, and wild cards only while the points are short, each on the move that adds
  most (a natural pair with a wild, or a wild on a meld), jokers first.
* **Once opened**: lay every natural card that joins a meld or makes a new one; spend wild
  cards from the hand only to complete a book (the meld nearest to seven first), never on a
  clean book or on its best clean prospect while a clean book is still owed (a spare clean
  book may take one when a dirty book is missing); from the foot lay the other wild cards one
  at a time (``placeWilds``). In the foot it keeps two cards (one to discard, one to hold)
  unless it is going out.
* **Going out as soon as it can**: in its foot, with the team's books, when every card but one
  can be laid (or every card, under the house rule ``out_by_laying``), it asks its partner (in
  cut-throat it just goes out), and told yes it lays everything and discards its last card.
* **As a partner** it says yes whenever the requirements are met (the ask is only legal when
  the asker is in its foot and the team has its books, so always).
* **Discard** (``discardFrom``): the least useful card: a red three first, never a wild card
  while another card is left; otherwise the fewest companions of its rank in hand (a rank its
  team has melded counts 100 more), then the most points, then the card order.
"""

from __future__ import annotations

import numpy as np

from ....agents.base import Agent
from ....errors import IllegalAction
from ..notation import Answer, AskOut, Discard, Draw, LayOff, Meld
from ..plan import BookNeeds, choose_discard, down_plan, go_out_discard, opening_plan, plays_of, trim_for_keep
from ..rules import is_red_three
from ..state import HandFootState


def play_action(seat: int, play) -> Meld | LayOff:
    """The action of one plan play ``(target, cards)``."""
    target, cards = play
    return Meld(seat, tuple(cards)) if target is None else LayOff(seat, target, tuple(cards))


class HandFootPeerAgent(Agent):
    """The baseline Hand and Foot bot (see the module docstring)."""

    name = "peer"
    games = ("handfoot",)
    default_settings = {"max_pile_red_threes": 2}
    state: HandFootState

    def needs(self) -> BookNeeds:
        """The books going out needs."""
        return BookNeeds(self.options["books_clean"], self.options["books_dirty"])

    def act(self, rng: np.random.Generator):
        """The bot's action now (always a legal one: a planned action the rules refuse falls
        back to the first legal discard)."""
        st = self.state
        if st.phase == "answer":
            return self.answer_choice()
        if st.phase == "draw":
            return self.draw_choice()
        action = self.play_choice()
        try:
            st.check_action(action)
            return action
        except IllegalAction:
            legal = self.legal_now()
            discards = [a for a in legal if isinstance(a, Discard)]
            return (discards or legal)[0]

    def answer_choice(self):
        """Yes: the ask is legal only when the asker is in its foot and the team has its books."""
        return Answer(self.seat, True)

    # ------------------------------------------------------------------ draw
    def draw_choice(self):
        """Take the pile when legal and it holds at most ``max_pile_red_threes`` red threes."""
        st, seat = self.state, self.seat
        takes = st._pile_options(seat)
        if takes and sum(1 for c in st.pile_take_cards() if is_red_three(c)) <= self.settings["max_pile_red_threes"]:
            return takes[0]
        return Draw(seat)

    # ------------------------------------------------------------------ play
    def opening_step(self):
        """The next play of the opening, or ``None`` when the minimum cannot be reached."""
        st, seat = self.state, self.seat
        team = st.teams[seat]
        need = st.minimum - st.turn_points
        plays, value = opening_plan(st.zone[seat], st.melds[team], need)
        if value < need or not plays:
            return None
        return play_action(seat, plays[0])

    def go_out_step(self):
        """Told yes (or in cut-throat, in the foot): the next play of going out, or the last
        discard; ``None`` when it cannot go out."""
        st, seat = self.state, self.seat
        team = st.teams[seat]
        found = go_out_discard(st.zone[seat], st.melds[team], self.needs(), self.options["out_by_laying"])
        if found is None:
            return None
        discard, groups = found
        plays = plays_of(groups)
        if plays:
            return play_action(seat, plays[0])
        return Discard(seat, discard) if discard is not None else None

    def can_go_out(self) -> bool:
        """In the foot, the team holding its books, every card but the discard can be laid (or
        every card, under ``out_by_laying``)."""
        st, seat = self.state, self.seat
        team = st.teams[seat]
        return st.in_foot[seat] and st.books_met(team) and \
            go_out_discard(st.zone[seat], st.melds[team], self.needs(), self.options["out_by_laying"]) is not None

    def play_choice(self):
        """The next action of the play phase (see the module docstring)."""
        st, seat = self.state, self.seat
        team = st.teams[seat]
        zone = st.zone[seat]
        if st.may_go_out(seat) and st.books_met(team):
            step = self.go_out_step()
            if step is not None:
                return step
        if not st.opened[team] or (st.opening and st.turn_points < st.minimum):
            step = self.opening_step()
            if step is not None:
                return step
            if st.opening:      # cannot happen: the opening was planned to reach the minimum
                return self.discard()
        if st.opened[team] and not (st.opening and st.turn_points < st.minimum):
            if not st.cut_throat() and not st.asked and self.can_go_out():
                return AskOut(seat)
            groups = down_plan(zone, st.melds[team], st.in_foot[seat], self.needs())
            if st.in_foot[seat]:
                trim_for_keep(zone, groups, 2)
            plays = plays_of(groups)
            if plays:
                return play_action(seat, plays[0])
        return self.discard()

    def discard(self):
        """The least useful card (see :func:`~..plan.choose_discard`)."""
        st, seat = self.state, self.seat
        team = st.teams[seat]
        melded = {m.rank for m in st.melds[team]}
        return Discard(seat, choose_discard(st.zone[seat], melded))


__all__ = ["HandFootPeerAgent", "play_action"]
