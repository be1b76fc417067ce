"""``belief``: the Literature player driven by the exact belief tracker.

It keeps a :class:`~cardmind.games.literature.belief.LiteratureBelief` of its own view and on its
turn:

1. claims every set its team holds for certain (exact probability 1), so it never loses a
   set it could have claimed for certain;
2. asks a certain hit when it has one (exact marginal 1);
3. claims a set whose exact probability of a correct claim beats the expected value of
   waiting (see :meth:`BeliefAgent.claim_now`);
4. otherwise asks the (card, target) with the best expected value: the exact chance of the
   card, plus what a hit adds towards a claim of its set, minus what the ask reveals to
   the opponents, valuing keeping the turn (see :meth:`BeliefAgent.ask_value`).

When no ask is possible (the opponents are out of cards), it claims the set with the best
exact probability; when it has no cards it passes to the teammate with the most cards;
after a claim its team won it picks the teammate best placed to ask.

Every probability above is the tracker's posterior weighted by **player models** of the
other seats (:mod:`cardmind.games.literature.models`; issue 16): what the opponents' asks
reveal of their hands, and what its teammates' asks say they hold. By default
(``opponent_model`` and ``teammate_model`` ``"auto"``) the tracker reads which fitted model
fits each team from that team's asks so far (:class:`~cardmind.games.literature.models.AutoChoice`,
the tracker's default, also that of ``cardmind hint``): the likelihood of the card and target
each ask chose within its set (public features only, so no hand is needed), summed over the
team's asks, picks among :data:`~cardmind.games.literature.models.AUTO_MODELS` (before any ask: ``peer`` for the opponents,
``belief`` for its teammates). A name fixes the model (``"uniform"``: the constraint-only
posterior). Certainty is unchanged by a model, so it still claims a certain set at once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..belief import LiteratureBelief
from ..models import AUTO, AUTO_MODELS, load_player_model  # noqa: F401 (AUTO_MODELS: re-exported)
from ....errors import Contradiction
from ..rules import set_cards, team_of
from ..notation import ChooseNext, Pass, make_claim
from ..rules import set_of
from .base import LiteratureAgent



class BeliefAgent(LiteratureAgent):
    """The exact-belief Literature player (see the module docstring).

    Settings:
        claim_margin: how much a claim's probability must exceed the value of waiting.
        idle_claim: when no ask can succeed, claim only at this probability or more;
            below it, ask anyway (handing the turn over) unless play has stalled.
        stall_events: events without a card handed over or a claim after which play counts
            as stalled (then the best claim is made whatever its probability).
        next_policy: whom to choose after a won claim: ``"self"`` (this seat when it has
            cards), ``"most_cards"`` (the teammate holding the most cards), ``"best_asker"``
            (the teammate with the most certain asks: cards publicly located at opponents in
            sets it holds a card of) or ``"endgame"`` (self, or most cards once the opponents
            are out of cards).
        lookahead: how many of the best asks to re-rank by looking one ask ahead: the
            exact posterior after a hit gives the best next ask's chance ``q``, and the ask is
            worth ``p * (1 + chain * q)`` (a hit keeps the turn); 0 disables.
        chain: weight of the follow-up in the lookahead.
        w_exposure: weight of finishing a set whose cards this team is publicly known to hold:
            a hit in set S is worth ``(our public cards of S + 1) / (its cards not on our
            team)`` more (they are safe once the set is complete and claimed).
        w_miss: weight of what a miss gives away: the target gets the turn and can ask for
            every card this team is publicly known to hold in a set the target holds cards
            of (``sum over sets of P(target holds one of its cards) * our known cards in it``).
        w_progress: weight of the progress a hit makes towards claiming its set.
        w_reveal: weight of the information an ask gives the opponents.
        w_info: weight of what the answer teaches (prefers informative asks on ties).
        opponent_model: the player model of the opponents: ``"auto"`` (chosen from their
            asks, see the module docstring) or a name of
            :data:`cardmind.games.literature.models.MODEL_NAMES` (``"uniform"``: none).
        teammate_model: the same for its teammates.
    """

    name = "belief"
    default_settings = {"claim_margin": 0.0, "w_progress": 0.0, "w_reveal": 0.0, "w_info": 0.0,
                        "idle_claim": 0.9, "stall_events": 24, "next_policy": "self",
                        "lookahead": 0, "chain": 1.0, "w_miss": 0.0, "w_exposure": 0.3,
                        "opponent_model": "auto", "teammate_model": "auto"}

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        for key in ("opponent_model", "teammate_model"):
            name = self.settings[key]
            if name != AUTO:
                load_player_model(name)   # ValueError naming the models there are
        mates, opponents = self.settings["teammate_model"], self.settings["opponent_model"]
        players = self.options["players"]
        if mates == opponents:
            self.tracker = LiteratureBelief(self.options, self.seat, self.header["hand"], model=mates)
        else:
            per_seat = {s: (mates if team_of(s) == team_of(self.seat) else opponents)
                        for s in range(players) if s != self.seat}
            self.tracker = LiteratureBelief(self.options, self.seat, self.header["hand"], model="uniform",
                                            seat_models=per_seat)
        self.state = self.tracker.state

    def observe(self, event) -> None:
        """Advance the tracker (which owns the view state and reads the player models)."""
        self.tracker.observe(event)

    # ------------------------------------------------------------------ player models
    def team_model(self, team: int) -> str:
        """The model used for the seats of ``team`` (other than this seat)."""
        return next(m for s, m in self.tracker.seat_models.items() if team_of(s) == team)

    # ------------------------------------------------------------------ evaluation
    def _team_seats(self) -> list[int]:
        return list(range(team_of(self.seat), self.state.players, 2))

    def claim_options(self) -> list[tuple[float, bool, str, dict[str, int]]]:
        """``(probability, certain, set, assignment)`` of the best claim of each set, best first."""
        tr = self.tracker
        out = []
        for name in self.state.unclaimed_sets():
            if tr.team_holds_probability(name) <= 0:
                continue
            best = tr.best_assignment(name, exact=True)
            if best is None:
                continue
            a, p, _ = best
            out.append((float(p), p == 1, name, a))
        out.sort(key=lambda x: (-x[0], x[2]))
        return out

    def ask_value(self, card: str, target: int, marg: dict[str, dict[int, float]],
                  team_hold: dict[str, float]) -> float:
        """Expected value of asking ``target`` for ``card`` (higher is better).

        ``p + w_progress * p * gain - w_reveal * reveal + w_info * info``: ``p`` is the exact
        chance the target holds the card (a hit also keeps the turn); ``gain`` is how much a
        hit raises the chance that the team holds the whole set (estimated from the exact
        marginals, assuming the set's other cards independent); ``reveal`` is the share of
        the set's cards in this hand that the opponents do not yet know about (asking tells
        them this seat holds one); ``info`` is the entropy of the answer.
        """
        s = self.settings
        p = marg.get(card, {}).get(target, 0.0)
        name = set_of(card, self.state.deck)
        team = team_of(self.seat)
        on_team = sum(q for seat, q in marg.get(card, {}).items() if team_of(seat) == team)
        before = team_hold.get(name, 0.0)
        after = before / on_team if on_team > 0 else 0.0
        gain = max(0.0, min(1.0, after) - before)
        hand = self.state.hands[self.seat] or set()
        mine = [c for c in set_cards(name) if c in hand]
        hidden = [c for c in mine if c not in self.state.moved]
        reveal = len(hidden) / 6.0
        info = 0.0 if p <= 0 or p >= 1 else -(p * np.log2(p) + (1 - p) * np.log2(1 - p))
        return p + s["w_progress"] * p * gain - s["w_reveal"] * reveal * (1 - p) + s["w_info"] * info

    def claim_now(self, p_claim: float, best_ask: float) -> bool:
        """Whether a claim with exact success probability ``p_claim`` beats waiting, when the
        best ask has value ``best_ask``: a claim's set differential is ``2p - 1`` and keeps
        the initiative when right; waiting is worth about the best ask's chance of keeping
        the turn."""
        return p_claim >= 0.5 and 2 * p_claim - 1 >= best_ask + self.settings["claim_margin"]

    # ------------------------------------------------------------------ decisions
    def act(self, rng: np.random.Generator):
        """The action on turn (see the module docstring)."""
        st = self.state
        if st.pending is not None:
            return ChooseNext(self.seat, self._choose_next(st.next_candidates(st.pending)))
        if st.sizes[self.seat] == 0:
            passes = st.legal_passes(self.seat)
            best = max(passes, key=lambda p: (st.sizes[p.to], -p.to))
            return Pass(self.seat, best.to)
        try:
            claims = self.claim_options()
            marg = self.tracker.marginals()
        except Contradiction:  # cannot happen in a legal game; play on safely
            return self.guess_claim(rng) if not st.legal_asks(self.seat) else st.legal_asks(self.seat)[0]
        for p, certain, name, a in claims:
            if certain:
                return make_claim(self.seat, name, a, set_cards(name))
        asks = st.legal_asks(self.seat)
        if not asks:
            if claims:
                p, _, name, a = claims[0]
                return make_claim(self.seat, name, a, set_cards(name))
            return self.guess_claim(rng)
        team_hold = {name: self.tracker.team_holds_probability(name) for name in st.unclaimed_sets()}
        damage = self._miss_damage(marg) if self.settings["w_miss"] else {}
        exposure = self._exposure(marg) if self.settings["w_exposure"] else {}
        def value(a):
            p = marg.get(a.card, {}).get(a.target, 0.0)
            if p <= 0.0:
                return -1e9  # never prefer a certain miss to an ask that can succeed
            return (self.ask_value(a.card, a.target, marg, team_hold)
                    - self.settings["w_miss"] * (1 - p) * damage.get(a.target, 0.0)
                    + self.settings["w_exposure"] * p * exposure.get(set_of(a.card, st.deck), 0.0))

        ranked = sorted(((value(a), a.card, -a.target, a) for a in asks), key=lambda x: x[:3], reverse=True)
        best_ask = ranked[0][3]
        k = self.settings["lookahead"]
        if k and marg.get(best_ask.card, {}).get(best_ask.target, 0.0) < 1.0:
            best_val = None
            for v, _, _, a in ranked[:k]:
                p = marg.get(a.card, {}).get(a.target, 0.0)
                q = self._follow_up(a)
                val = (p * (1 + self.settings["chain"] * q), v)
                if best_val is None or val > best_val:
                    best_val, best_ask = val, a
        p_best_ask = marg.get(best_ask.card, {}).get(best_ask.target, 0.0)
        if p_best_ask >= 1.0:
            return best_ask
        if claims and p_best_ask <= 0.0:
            # no ask can succeed: asking only hands the turn over; claim the best set if it is
            # likely enough or play has stalled
            p, _, name, a = claims[0]
            if p >= self.settings["idle_claim"] or self._stalled():
                return make_claim(self.seat, name, a, set_cards(name))
            return min(asks, key=lambda x: (st.sizes[x.target], x.target, x.card))
        if claims and self.claim_now(claims[0][0], p_best_ask):
            p, _, name, a = claims[0]
            return make_claim(self.seat, name, a, set_cards(name))
        return best_ask

    def _miss_damage(self, marg: dict[str, dict[int, float]]) -> dict[int, float]:
        """Per opponent: the cards it could ask this team for with certainty if it got the turn
        (our publicly located cards in the sets it likely holds a card of)."""
        st = self.state
        team = team_of(self.seat)
        known = {}
        for c in st.moved:
            s = st.holder.get(c)
            if s is not None and team_of(s) == team:
                name = set_of(c, st.deck)
                known[name] = known.get(name, 0) + 1
        out = {}
        for t in range(1 - team, st.players, 2):
            if st.sizes[t] == 0:
                continue
            d = 0.0
            for name, k in known.items():
                none = 1.0
                for c in set_cards(name):
                    none *= 1.0 - marg.get(c, {}).get(t, 0.0)
                d += (1.0 - none) * k
            out[t] = d
        return out

    def _exposure(self, marg: dict[str, dict[int, float]]) -> dict[str, float]:
        """Per set: (this team's publicly located cards + 1) / (expected cards not on our team)."""
        st = self.state
        team = team_of(self.seat)
        out = {}
        for name in st.unclaimed_sets():
            public = sum(1 for c in set_cards(name) if c in st.moved and team_of(st.holder.get(c, -1)) == team)
            away = sum(sum(q for t, q in marg.get(c, {}).items() if team_of(t) != team) for c in set_cards(name))
            if away > 0:
                out[name] = (public + 1) / away
        return out

    def _follow_up(self, ask) -> float:
        """The best ask's chance right after ``ask`` succeeds (exact posterior of that future)."""
        tr = self.tracker
        hyp = LiteratureBelief(tr.options, tr.observer, tr.hand, engine=tr.engine, seat_models=tr.seat_models)
        try:
            for ev in tr.events:
                hyp.observe(ev)
            hyp.observe({"type": "ask", "asker": ask.asker, "target": ask.target, "card": ask.card, "success": True})
            marg = hyp.marginals()
        except (Contradiction, Exception):  # noqa: BLE001 - an impossible future is worth nothing
            return 0.0
        best = 0.0
        for a in hyp.state.legal_asks(self.seat):
            best = max(best, marg.get(a.card, {}).get(a.target, 0.0))
        return best

    def _stalled(self) -> bool:
        """Whether no card has been handed over and no claim made for ``stall_events`` events."""
        quiet = 0
        for ev in reversed(self.tracker.events):
            if ev["type"] == "claim" or (ev["type"] == "ask" and ev["success"]):
                break
            quiet += 1
        return quiet >= self.settings["stall_events"]

    def _choose_next(self, cands: list[int]) -> int:
        """The teammate best placed to play (see the ``next_policy`` setting)."""
        st = self.state
        policy = self.settings["next_policy"]
        if policy == "endgame":
            # when the opponents are out of cards only claims remain: the teammate holding
            # the most cards sees the most of them
            opp = any(st.sizes[s] > 0 for s in range(1 - self.seat % 2, st.players, 2))
            policy = "self" if opp else "most_cards"
        if policy == "self" and self.seat in cands:
            return self.seat
        if policy == "best_asker":
            return max(cands, key=lambda s: (self._certain_asks_for(s), s == self.seat, st.sizes[s], -s))
        return max(cands, key=lambda s: (st.sizes[s], s == self.seat, -s))

    def _certain_asks_for(self, mate: int) -> float:
        """Expected number of certain asks ``mate`` has now: cards publicly located at an
        opponent, in sets ``mate`` holds a card of (this seat: its own exact count)."""
        st = self.state
        try:
            marg = self.tracker.marginals()
        except Contradiction:
            return 0.0
        if mate == self.seat:
            return float(sum(1 for a in st.legal_asks(self.seat) if marg.get(a.card, {}).get(a.target, 0) >= 1.0))
        team = team_of(self.seat)
        total = 0.0
        for name in st.unclaimed_sets():
            at_opp = sum(1 for c in set_cards(name) if team_of(st.holder.get(c, team)) != team)
            if not at_opp:
                continue
            none = 1.0
            for c in set_cards(name):
                none *= 1.0 - marg.get(c, {}).get(mate, 0.0)
            total += (1.0 - none) * at_opp
        return total

    def react(self, rng: np.random.Generator):
        """Out of turn (claim_any_time): claim a set the team holds for certain."""
        st = self.state
        if not st.may_claim(self.seat):
            return None
        try:
            for p, certain, name, a in self.claim_options():
                if certain:
                    return make_claim(self.seat, name, a, set_cards(name))
        except Contradiction:
            return None
        return None
