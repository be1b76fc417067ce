"""``peer``: a rebuild of the published contract rummy bots, the baseline to beat.

The published bots it rebuilds (read with the project's search tools; the facts of their
policies, not their code):

* **sebherrerabe/carioca** (a Carioca server in Rust, ``backend/src/engine/bot.rs``, the
  "Medium" bot): a card's *synergy* with a hand is +15 for every card of the same rank, +10 for
  every card of the same suit one rank away and +5 two ranks away (a joker: 100); it takes the
  discard when the synergy is at least 15 (it joins a pair, or a run fragment); it goes down
  as soon as it can (``find_best_bajada``, laying the most points); once down it sheds every
  card it can onto the melds on the table, the highest-scoring first; it discards the card of
  least synergy with the rest of its hand.
* **gmlewis/godot-liverpool-rummy** (Liverpool rummy in Godot, ``docs/bot-ai-system.md``,
  the default ``BasicBot``): it asks to buy (steal) a discard out of turn on the same test it
  uses to take it on turn, without weighing the penalty card; it melds the moment its hand
  meets the round's requirement, then adds cards to the public melds one at a time; it never
  discards a joker; it has no memory of the discards and no odds.

So ``peer``, in the terms of this game (issue 17):

* **offer**: it takes the discard on turn, and steals it out of turn, when the card joins a
  meld or a near-meld of its hand (synergy at least 15, counting ranks only when the contract
  has sets and suits only when it has runs; a joker always); once down, when the
  card can be laid off on a meld on the table. It never prices the penalty card;
* **going down**: at the first chance, with the arrangement that lays the most points;
* **laying off**: everything it can, the highest-scoring card first (keeping one to discard);
* **discard**: its highest-scoring card that is in no near-meld (synergy below 15 with the
  rest of its hand; never a joker while it has another card, and never the discard it just
  took, as the Liverpool bot); when every card is in a near-meld, the card of least synergy
  (then the highest-scoring).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..melds import layoff_places
from ..notation import Discard, GoDown, LayOff, Pass, Steal, Take
from ..rules import RUN_VALUE, card_points, is_joker, sort_hand
from ..state import CariocaState
from ....agents.base import Agent

#: synergy at which a card joins a meld or near-meld (sebherrerabe/carioca, Medium bot)
JOINS = 15


def synergy(card: str, others: Counter, sets: bool = True, runs: bool = True) -> int:
    """The synergy of ``card`` with the cards ``others`` (sebherrerabe/carioca's
    ``card_synergy_score``): 100 for a joker, else +15 per card of the same rank (when the
    contract has ``sets``), +10 per card of the same suit one rank away and +5 two ranks away
    (when it has ``runs``; the Ace is next to the 2 and to the King). Jokers among ``others``
    add nothing. The contract terms follow the Liverpool bot, which builds only what the
    round asks for."""
    if is_joker(card):
        return 100
    r, s = card[0], card[1]
    vals = _values(r)
    score = 0
    for c, k in others.items():
        if k <= 0 or is_joker(c):
            continue
        if c[0] == r:
            if sets:
                score += 15 * k
        elif c[1] == s and runs:
            d = min(abs(a - b) for a in vals for b in _values(c[0]))
            if d == 1:
                score += 10 * k
            elif d == 2:
                score += 5 * k
    return score


def _values(rank: str) -> tuple[int, ...]:
    return (1, 14) if rank == "A" else (RUN_VALUE[rank],)


def fits_table(state: CariocaState, card: str) -> bool:
    """Whether ``card`` can be laid off on some meld on the table."""
    return any(layoff_places(m["kind"], m["cards"], card) for m in state.table)


def peer_wants(state: CariocaState, seat: int, card: str) -> bool:
    """``peer``'s test for taking (or stealing) ``card``: once down, it fits a meld on the
    table; before, it joins a meld or near-meld of the hand (synergy at least :data:`JOINS`)."""
    hand = state.hands[seat]
    if state.down[seat]:
        return fits_table(state, card)
    return synergy(card, hand, state.sets > 0, state.runs > 0) >= JOINS


def just_taken(state: CariocaState, seat: int) -> str | None:
    """The discard ``seat`` took this turn (its draw), if it did."""
    for ev in reversed(state.history[state.hand_start:]):
        if ev["type"] == "take" and ev["player"] == seat:
            return ev["card"]
        if ev["type"] in ("discard", "draw", "deal"):
            return None
    return None


def peer_discard(state: CariocaState, seat: int) -> str:
    """``peer``'s discard: the highest-scoring card in no near-meld, else the least synergy."""
    return hand_discard(state.hands[seat], state.sets > 0, state.runs > 0, state.options, just_taken(state, seat))


def hand_discard(hand: Counter, sets: bool, runs: bool, options: dict, took: str | None = None) -> str:
    """``peer``'s discard from ``hand`` (a multiset of cards, at least one): its highest-scoring
    card in no near-meld (synergy below :data:`JOINS` with the rest of the hand, the contract
    having ``sets`` / ``runs``), never a joker while it holds another card nor ``took`` (the
    discard it took this turn) while it holds another; when every card is in a near-meld, the
    card of least synergy (then the highest-scoring). ``options``: the game's options (the
    cards' points)."""
    cards = sort_hand(c for c in hand if hand[c] > 0)
    naturals = [c for c in cards if not is_joker(c)] or cards
    if took is not None and any(c != took for c in naturals):
        naturals = [c for c in naturals if c != took]

    def rest(c: str) -> Counter:
        r = Counter(hand)
        r[c] -= 1
        return r

    loose = [c for c in naturals if synergy(c, rest(c), sets, runs) < JOINS]
    if loose:
        return max(loose, key=lambda c: (card_points(c, options), -cards.index(c)))
    return min(naturals, key=lambda c: (synergy(c, rest(c), sets, runs), -card_points(c, options), cards.index(c)))


class CariocaPeerAgent(Agent):
    """The baseline contract rummy bot (see the module docstring for its sources and rules)."""

    name = "peer"
    games = ("carioca",)
    state: CariocaState

    def act(self, rng: np.random.Generator):
        """``peer``'s action (deterministic; ``rng`` is unused)."""
        st = self.state
        me = self.seat
        if st.phase == "offer":
            card = st.offer["card"]
            want = peer_wants(st, me, card)
            if me == st.turn:
                return Take(me) if want else Pass(me)
            return Steal(me) if want and st.can_steal() else Pass(me)
        return peer_play(st, me)


def peer_play(st: CariocaState, me: int):
    """``peer``'s play on its turn: go down, lay off, discard (see the module docstring)."""
    if not st.down[me]:
        options = st.go_down_options(me, limit=1)
        if options:
            return GoDown(me, options[0])
        return Discard(me, peer_discard(st, me))
    hand = st.hands[me]
    if st.sizes[me] > 1:
        best = None
        for c in sort_hand(c for c in hand if hand[c] > 0):
            places = st.layoff_options(me, c)
            if places:
                key = (card_points(c, st.options), -st.layoff_options(me, c)[0][0])
                if best is None or key > best[0]:
                    best = (key, LayOff(me, c, places[0][0], places[0][1]))
        if best is not None:
            return best[1]
    return Discard(me, peer_discard(st, me))


__all__ = ["CariocaPeerAgent", "JOINS", "fits_table", "hand_discard", "peer_discard", "peer_play", "peer_wants", "synergy"]
