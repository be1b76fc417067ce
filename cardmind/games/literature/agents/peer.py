"""``peer``: a rebuild of the strongest published Literature bot, as the baseline to beat.

Source: MeagerPotato/Canadian-Fish, ``lib/engine/bots/decide.ts`` (``decide`` for the
``hard`` tier: ``decideMediumHard``, ``hardPickAsk``, ``evClaim``, ``forcedClaim``,
``signallingAsk``, ``isDeepStalled``) and ``lib/engine/bots/knowledge.ts`` (its knowledge
propagation, ``pHit``, ``refinedHitProbability``, ``rankAsksWith``). The facts of its policy
are rebuilt here in cardmind's own code; ``docs/agents.md`` lists what the earlier rebuild
did differently.

Knowledge: :class:`~cardmind.games.literature.certain.CertainKnowledge` (every card's
possible holders, propagated to a fixpoint from hits, misses, "holds at least one of"
clauses, full hands and free slots; the same facts as the bot's deal-time propagation).
``free(s)`` is seat ``s``'s hand size less the cards located at it.

On its turn, in this order (the bot's ``hard`` tier):

1. no legal ask (its opponents are out of cards): the **forced claim**: the set whose
   planned claim is most likely right (ties: fewer guessed cards, then set order);
2. a set wholly in its hand, then a set whose six cards are located on its team: claim it;
3. the asks are ranked by ``70 p + 18 progress + 12 narrowing (+ 20 when p = 1)``, rounded
   to 0.01, ties by card then target: ``p`` = the target's share of the free slots of the
   card's possible holders (``1 / possible holders`` when they have none), ``progress`` =
   the set's cards located on its team / 6, ``narrowing`` = ``1 / (possible holders - 1)``
   (1 with one possible holder);
4. if the best ask is a certain hit, it asks (chosen as in 7);
5. the **EV claim**: a set with five cards located on its team and one whose possible
   holders are all its teammates, planned right with probability at least 0.8 (0.5 once
   play has stalled: no hit for 36 events and no claim for 120, or no claim for 400);
6. stalled: the forced claim; if every ask is a known miss and nothing hit in the last 8
   events: the **signalling ask** (a card of the set it holds most of, from the opponent
   with the fewest cards);
7. otherwise the ask with the best refined score ``score + 70 (refined p - p)``, where the
   refined ``p`` adds ``(1 - p) / n`` for a target that holds at least one of ``n`` live
   cards of a clause naming the card; among asks within 0.5 of the best, it prefers sets
   its team does not already hold 4+ cards of (asking there tells the opponents what it is
   completing), then, between two certain misses, the target with fewer cards.

A claim's plan puts each card at its known holder, else at the teammate among its possible
holders with the most free slots (each guess uses one slot); its probability is the
product of ``slots / free slots of all the card's possible holders`` over the guessed cards.
It passes to the teammate with the most cards; after a claim its team won it plays on
itself (the bot's claimant keeps the turn). It claims only on its own turn.
"""

from __future__ import annotations

from functools import cmp_to_key

import numpy as np

from ..certain import CertainKnowledge
from ..notation import Ask, Claim
from ..rules import set_cards, team_of
from ..notation import ChooseNext, make_claim
from ..rules import deck_cards, set_names, set_of
from .base import LiteratureAgent

#: the weights of the bot's ask score
W_HIT, W_PROGRESS, W_NARROW, CERTAIN_BONUS = 70.0, 18.0, 12.0, 20.0
#: the EV claim's threshold, and the same once play has stalled
CLAIM_THRESHOLD, STALLED_THRESHOLD = 0.8, 0.5
#: refined scores within this of the best are ties for the information-protection choice
LEAK_EPSILON = 0.5


def book_order(deck: str) -> list[str]:
    """The bot's set order: the low sets suit by suit, then the high sets, then the eights."""
    names = set_names(deck)
    return [n for n in names if n.startswith("low-")] + [n for n in names if n.startswith("high-")] + \
        [n for n in names if not n.startswith(("low-", "high-"))]


class PeerAgent(LiteratureAgent):
    """The rebuilt ``hard`` tier of the Canadian-Fish bot (see the module docstring).

    Settings:
        claim_threshold: the EV claim's threshold (0.8).
        stalled_threshold: the same once play has stalled (0.5).
    """

    name = "peer"
    default_settings = {"claim_threshold": CLAIM_THRESHOLD, "stalled_threshold": STALLED_THRESHOLD}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.certain = CertainKnowledge(self.options, self.seat, self.header["hand"])
        self._events: list[dict] = []
        self._order = book_order(self.state.deck)
        self._card_index = {c: i for i, c in enumerate(deck_cards(self.state.deck))}

    def observe(self, event) -> None:
        """Advance the view and the certain facts."""
        super().observe(event)
        self.certain.observe(event)
        self._events.append(event)

    # ------------------------------------------------------------------ knowledge
    def _free(self) -> list[int]:
        """Per seat: hand size less the cards located at it (the bot's unknown slots)."""
        located = [0] * self.state.players
        for s in self.certain.located().values():
            located[s] += 1
        return [max(0, self.state.sizes[s] - located[s]) for s in range(self.state.players)]

    def hit_probability(self, card: str, seat: int, free: list[int] | None = None) -> float:
        """The bot's ``pHit``: ``seat``'s share of the free slots of ``card``'s possible holders."""
        poss = self.certain.possible.get(card)
        if not poss or seat not in poss:
            return 0.0
        if len(poss) == 1:
            return 1.0
        free = self._free() if free is None else free
        total = sum(free[s] for s in poss)
        return 1.0 / len(poss) if total <= 0 else free[seat] / total

    def refined_probability(self, card: str, seat: int, free: list[int], clauses) -> float:
        """The bot's ``refinedHitProbability``: ``p + (1 - p) / n`` for the tightest clause of
        ``seat`` naming ``card`` among its ``n`` live cards (never 1 from this boost)."""
        base = self.hit_probability(card, seat, free)
        if base in (0.0, 1.0):
            return base
        best = base
        possible = self.certain.possible
        for s, cards in clauses:
            if s != seat:
                continue
            alive = [u for u in cards if u in possible and len(possible[u]) > 1 and seat in possible[u]]
            if card in alive:
                best = max(best, base + (1 - base) / len(alive))
        return min(1 - 1e-9, best)

    def _team_known(self, name: str) -> int:
        team = team_of(self.seat)
        return sum(1 for c in set_cards(name) if (h := self.certain.holder(c)) is not None and team_of(h) == team)

    # ------------------------------------------------------------------ claims
    def plan_claim(self, name: str, free: list[int]) -> tuple[float, dict[str, int], list[str]]:
        """``(probability, assignment, guessed cards)`` of the bot's claim plan for ``name``."""
        me, team = self.seat, team_of(self.seat)
        capacity = list(free)
        a: dict[str, int] = {}
        guessed: list[str] = []
        p = 1.0
        for c in set_cards(name):
            h = self.certain.holder(c)
            if h is not None:
                if team_of(h) == team:
                    a[c] = h
                else:
                    a[c], p = me, 0.0
                continue
            cand = sorted(self.certain.possible.get(c, ()))
            mates = [s for s in cand if team_of(s) == team]
            guessed.append(c)
            if not mates:
                a[c], p = me, 0.0
                continue
            best = mates[0]
            for s in mates:
                if capacity[s] > capacity[best]:
                    best = s
            total = sum(max(0, capacity[s]) for s in cand)
            p *= max(0, capacity[best]) / total if total > 0 else 1.0 / len(cand)
            if capacity[best] > 0:
                capacity[best] -= 1
            a[c] = best
        return p, a, guessed

    def _claim(self, name: str, a: dict[str, int]) -> Claim:
        return make_claim(self.seat, name, a, set_cards(name))

    def _unclaimed(self) -> list[str]:
        live = set(self.state.unclaimed_sets())
        return [n for n in self._order if n in live]

    def forced_claim(self, free: list[int]) -> Claim:
        """The most probable planned claim (ties: fewer guesses, then set order)."""
        best = None
        for name in self._unclaimed():
            p, a, guessed = self.plan_claim(name, free)
            if best is None or p > best[0] or (p == best[0] and len(guessed) < len(best[2])):
                best = (p, a, guessed, name)
        return self._claim(best[3], best[1])

    def ev_claim(self, threshold: float, free: list[int]) -> Claim | None:
        """A set with one guessed card whose possible holders are all teammates, planned right
        with probability at least ``threshold`` (the most probable such set)."""
        team = team_of(self.seat)
        best = None
        for name in self._unclaimed():
            p, a, guessed = self.plan_claim(name, free)
            if len(guessed) != 1 or p < threshold:
                continue
            cand = self.certain.possible.get(guessed[0], ())
            if not cand or any(team_of(s) != team for s in cand):
                continue
            if best is None or p > best[0]:
                best = (p, name, a)
        return None if best is None else self._claim(best[1], best[2])

    def _certain_claim(self) -> Claim | None:
        """A set wholly in its hand, else one whose six cards are located on its team."""
        hand = self.state.hands[self.seat] or set()
        for name in self._unclaimed():
            if all(c in hand for c in set_cards(name)):
                return self._claim(name, {c: self.seat for c in set_cards(name)})
        team = team_of(self.seat)
        for name in self._unclaimed():
            a = {c: self.certain.holder(c) for c in set_cards(name)}
            if all(h is not None and team_of(h) == team for h in a.values()):
                return self._claim(name, a)
        return None

    # ------------------------------------------------------------------ asks
    def rank_asks(self, asks: list[Ask], free: list[int]) -> list[tuple[float, Ask]]:
        """``[(score, ask)]``, best first (the bot's ``rankAsksWith``)."""
        out = []
        for ask in asks:
            p = self.hit_probability(ask.card, ask.target, free)
            cand = self.certain.possible.get(ask.card, ())
            progress = self._team_known(set_of(ask.card, self.state.deck)) / 6
            narrowing = 1.0 / (len(cand) - 1) if len(cand) > 1 else 1.0
            score = round(W_HIT * p + W_PROGRESS * progress + W_NARROW * narrowing
                          + (CERTAIN_BONUS if p == 1.0 else 0.0), 2)
            out.append((score, ask))
        out.sort(key=lambda x: (-x[0], self._card_index[x[1].card], x[1].target))
        return out

    def _leaky(self, name: str) -> bool:
        hand = self.state.hands[self.seat] or set()
        team = team_of(self.seat)
        n = sum(1 for c in set_cards(name)
                if c in hand or ((h := self.certain.holder(c)) is not None and team_of(h) == team))
        return n >= 4

    def pick_ask(self, ranked: list[tuple[float, Ask]], free: list[int]) -> Ask:
        """The bot's ``hardPickAsk`` (see the module docstring, step 7)."""
        clauses = self.certain.clauses
        scored = []
        for idx, (score, ask) in enumerate(ranked):
            base = self.hit_probability(ask.card, ask.target, free)
            refined = self.refined_probability(ask.card, ask.target, free, clauses)
            scored.append((score + W_HIT * (refined - base), idx, refined, ask))
        scored.sort(key=lambda x: (-x[0], x[1]))
        top = scored[0]
        near = [x for x in scored if x[0] >= top[0] - LEAK_EPSILON]
        if len(near) == 1:
            return top[3]
        sizes, deck = self.state.sizes, self.state.deck

        def cmp(a, b) -> int:
            la, lb = self._leaky(set_of(a[3].card, deck)), self._leaky(set_of(b[3].card, deck))
            if la != lb:
                return int(la) - int(lb)
            if a[2] == 0 and b[2] == 0:
                ca, cb = sizes[a[3].target], sizes[b[3].target]
                if ca != cb:
                    return ca - cb
            return a[1] - b[1]

        near.sort(key=cmp_to_key(cmp))
        return near[0][3]

    def _signalling_ask(self) -> Ask | None:
        """A card of the set it holds most of, from the opponent with the fewest cards."""
        st = self.state
        asks = st.legal_asks(self.seat)
        if not asks:
            return None
        held: dict[str, int] = {}
        for c in st.hands[self.seat] or ():
            held[set_of(c, st.deck)] = held.get(set_of(c, st.deck), 0) + 1
        # the bot's legal order: target by target, cards in deck order
        asks = sorted(asks, key=lambda a: (a.target, self._card_index[a.card]))
        best, best_score = None, None
        for a in asks:
            score = held.get(set_of(a.card, st.deck), 0) * 100 - st.sizes[a.target]
            if best_score is None or score > best_score:
                best, best_score = a, score
        return best

    # ------------------------------------------------------------------ stalls
    def _since(self, pred) -> int:
        """Events since the last one ``pred`` accepts (all of them plus one when none)."""
        for i in range(len(self._events) - 1, -1, -1):
            if pred(self._events[i]):
                return len(self._events) - 1 - i
        return len(self._events)

    def stalled(self) -> bool:
        """The bot's ``isDeepStalled``: no hit for 36 events and no claim for 120, or no
        claim for 400."""
        no_hit = self._since(lambda e: e["type"] == "ask" and e["success"])
        no_claim = self._since(lambda e: e["type"] == "claim")
        return (no_hit >= 36 and no_claim >= 120) or no_claim >= 400

    def _no_recent_hit(self, n: int) -> bool:
        return not any(e["type"] == "ask" and e["success"] for e in self._events[-n:])

    # ------------------------------------------------------------------ decisions
    def act(self, rng: np.random.Generator):
        """The bot's ``hard`` decision (see the module docstring)."""
        st = self.state
        if st.pending is not None:
            return ChooseNext(self.seat, self._choose_next(st.next_candidates(st.pending)))
        if st.sizes[self.seat] == 0:
            passes = st.legal_passes(self.seat)
            return max(passes, key=lambda p: (st.sizes[p.to], -p.to))
        free = self._free()
        asks = st.legal_asks(self.seat)
        if not asks:
            return self.forced_claim(free)
        claim = self._certain_claim()
        if claim is not None:
            return claim
        stalled = self.stalled()
        ranked = self.rank_asks(asks, free)
        top = ranked[0][1]
        if self.certain.holder(top.card) == top.target:
            return self.pick_ask(ranked, free)
        claim = self.ev_claim(self.settings["stalled_threshold"] if stalled else self.settings["claim_threshold"], free)
        if claim is not None:
            return claim
        if stalled:
            return self.forced_claim(free)
        possible = self.certain.possible
        if all(a.target not in possible.get(a.card, ()) for _, a in ranked) and self._no_recent_hit(8):
            ask = self._signalling_ask()
            if ask is not None:
                return ask
        return self.pick_ask(ranked, free)

    def _choose_next(self, cands: list[int]) -> int:
        """After a claim: itself when it may (the bot's claimant keeps the turn), else the
        candidate with the most cards."""
        if self.seat in cands:
            return self.seat
        return max(cands, key=lambda s: (self.state.sizes[s], -s))

    def react(self, rng: np.random.Generator):
        """Out of turn: nothing (the bot claims only on its own turn)."""
        return None
