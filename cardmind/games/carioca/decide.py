"""Decisions by expected score over belief-weighted worlds: the engine of the ``belief`` player
and of ``cardmind hint`` for contract rummy.

A hand is a race: the dealt cards are exactly the contract's minimum, so a player who makes
the contract usually goes down and out in one turn (``out_bonus``, -20), and every other
player pays the points it holds. What matters is how soon one makes the contract and how many
points one holds when someone else goes out. The :class:`Advisor` prices each decision in
expected points with these estimates (all from one player's view, :class:`~.belief.CariocaBelief`):

* **progress**: the hand's *deficiency* (cards still missing for the contract,
  :func:`~.melds.deficiency`) and its *live outs*: the expected copies of the cards that
  would bring it closer that lie in the stock (the exact posterior); a stock draw improves the
  hand with chance ``live outs / stock``, so the rounds until the contract is made are about
  ``deficiency * stock / live outs``;
* **danger**: ``hazard``, the chance another player goes out before our next turn, from the
  opponents' chances to go out by the end of their next turn (the tracker's sampled worlds);
  a card held then costs its points;
* **what opponents want**: for each card we may discard, the chance each opponent would take
  or steal it, averaged over sampled worlds of their hands under the ``peer`` offer model
  (:mod:`.models`), the worlds weighed by a player model of their past choices when
  ``opponent_model`` is on.

* **the price of a steal** (:meth:`Advisor.steal_race`): a race to go down and out first,
  with and without the steal (turns to the contract, the chance per round that another player
  goes out first, the cards over the contract to lay off and the bonus they cost).

The four features the study switches off one at a time are settings of the advisor:
``steal_pricing`` (else a steal follows the take test, like ``peer``), ``timing`` (else go
down at the first chance), ``discard_safety`` (else discards ignore what opponents want) and
``opponent_model`` (else the worlds are the constraint-only posterior).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...hints.words import chance
from .belief import CariocaBelief
from .counting import can_go_down_out
from .melds import deficiency_cached
from .models import _fits, _logp, _near, _profile, load
from .rules import card_points, is_joker, sort_hand

#: defaults of the advisor's settings (the ``belief`` player's, see :class:`Advisor`)
DEFAULTS = {"steal_pricing": True, "timing": True, "discard_safety": True, "opponent_model": True,
            "worlds": 12, "safety_weight": 12.0, "recent": 4, "hazard": None, "safety_candidates": 5,
            "hand_rounds": 7.5, "cards_per_turn": 2.0,
            "lay_off_rate": 0.38, "steal_pace": 1.9}


@dataclass
class Option:
    """One choice with its numbers: ``action`` (JSON), ``value`` (expected points saved against
    the alternative; higher is better), ``numbers`` (what the value is made of) and ``reason``."""

    action: dict
    value: float
    numbers: dict = field(default_factory=dict)
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        """``{"action", "value", "numbers", "reason"}``."""
        return {"action": self.action, "value": round(self.value, 4), "numbers": self.numbers,
                "reason": self.reason}


class Advisor:
    """Prices the decisions of ``tracker``'s observer (see the module docstring).

    Args:
        tracker: the observer's :class:`~.belief.CariocaBelief` (its state is the position).
        settings: ``steal_pricing``, ``timing``, ``discard_safety``, ``opponent_model`` (bools),
            ``worlds`` (sampled worlds for what opponents want), ``safety_weight`` (points a
            discard is charged per unit of chance that an opponent takes it),
            ``safety_candidates`` (how many of the best discards are priced for it), ``recent``
            (the choices per opponent the opponent model reads), ``hazard`` (a given hazard, else
            estimated); the steal's race (:meth:`steal_race`): ``hand_rounds`` (rounds a hand
            lasts, 7.5), ``lay_off_rate`` (the chance a turn to lay off a card once down, 0.38) and
            ``steal_pace`` (turns per missing card of a player that steals, 1.9), measured on
            the strength study's games (``docs/carioca.md``, "Advice"), and ``cards_per_turn``
            (cards a player that draws and takes sees a turn: the stock draw and the discard
            offered on its turn, 2).
    """

    def __init__(self, tracker: CariocaBelief, **settings: Any):
        self.t = tracker
        self.st = tracker.state
        self.me = tracker.observer
        self.o = tracker.options
        self.s = {**DEFAULTS, **settings}
        self._def: dict = {}
        self._stock_exp: dict[str, float] | None = None
        self._hazard: float | None = None
        self._worlds: list | None = None
        self._offer_model = load("peer")[0]
        self._wo = [float(x) for x in self._offer_model.weights]
        self._pass_row = [0, 0, 0, 0, 0, 0, 0, 1.0]
        self._ctx = {"table": self.st.table}
        self._wanted_se: dict[str, dict[int, float]] = {}
        self._wanted: dict[str, dict[int, float]] = {}

    # ------------------------------------------------------------------ estimates
    def hand(self) -> Counter:
        """The observer's cards now."""
        return +Counter(self.st.hands[self.me])

    def stock_expected(self) -> dict[str, float]:
        """Expected copies of each card in the stock (exact posterior)."""
        if self._stock_exp is None:
            self._stock_exp = self.t.stock_expected()
        return self._stock_exp

    def progress(self, hand: Counter) -> tuple[int, float]:
        """``(deficiency, live outs)`` of ``hand`` for this hand's contract."""
        key = tuple(sorted(hand.items()))
        hit = self._def.get(key)
        if hit is not None:
            return hit
        d, outs = deficiency_cached(hand, self.st.sets, self.st.runs)
        exp = self.stock_expected()
        live = sum(exp.get(c, 0.0) for c in outs)
        self._def[key] = (d, live)
        return d, live

    def p_stock_helps(self, hand: Counter) -> float:
        """The chance that a stock draw brings ``hand`` closer to the contract (``live outs /
        stock``), rounded once to 4 places: the one value every word and number of the advice
        says (``chance()`` of it)."""
        _, live = self.progress(hand)
        return round(min(1.0, live / max(1, self.st.stock_count)), 4)

    def rounds_to_contract(self, hand: Counter) -> float:
        """About how many of our turns until ``hand`` makes the contract (stock draws only)."""
        d, live = self.progress(hand)
        if d == 0:
            return 0.0
        stock = max(1, self.st.stock_count)
        p = min(1.0, live / stock)
        return d / max(p, 0.02)

    def hazard(self) -> float:
        """The chance another player goes out before our next turn (from the tracker's
        opponents' chances to go out by the end of their next turn)."""
        if self._hazard is None and self.s.get("hazard") is not None:
            self._hazard = float(self.s["hazard"])
        if self._hazard is None:
            opp = self.t.opponent_chances()
            stay = 1.0
            for s, v in opp.items():
                stay *= 1.0 - v["p_go_out"]
            self._hazard = min(0.95, max(0.02, 1.0 - stay))
        return self._hazard

    def hazard_stderr(self) -> float:
        """The standard error of :meth:`hazard` from the opponents' sampled chances (delta
        method, the seats taken as independent; 0 when every chance is exact or the hazard was
        given)."""
        if self.s.get("hazard") is not None:
            return 0.0
        opp = self.t.opponent_chances()
        var = 0.0
        for s, v in opp.items():
            rest = 1.0
            for t, w in opp.items():
                if t != s:
                    rest *= 1.0 - w["p_go_out"]
            var += (rest * v["stderr_out"]) ** 2
        return float(np.sqrt(var))

    def worlds(self) -> tuple[list, np.ndarray]:
        """Sampled worlds for what opponents want, with their normalised weights."""
        if self._worlds is None:
            rng = np.random.default_rng([self.t.seed, len(self.t.events), 7])
            ws = self.t.sample_worlds(int(self.s["worlds"]), rng)
            w = np.full(len(ws), 1.0 / max(1, len(ws)))
            if self.s["opponent_model"] and self.t.hand_events:
                from ...belief.models import importance_weights  # noqa: PLC0415
                from .models import seat_log_likelihoods, world_log_likelihoods  # noqa: PLC0415

                try:
                    if self.t.model == "auto":
                        weigh = {s: m for s, m in self.seat_models().items() if m != "uniform"}
                        per = seat_log_likelihoods(self.t, ws, weigh, recent=int(self.s["recent"]))
                        lw = sum(per.values(), np.zeros(len(ws)))
                    else:
                        lw = world_log_likelihoods(self.t, ws, "peer", recent=int(self.s["recent"]))
                    w = importance_weights(lw).w
                except ValueError:
                    pass
            # each opponent's hand in each world, as counts by rank and by suit and value
            profiles = [[_profile(Counter(hands[s])) if s != self.me else None for s in range(self.st.players)]
                        for hands, _ in ws]
            self._worlds = (ws, w, profiles)
        return self._worlds[0], self._worlds[1]

    def seat_models(self) -> dict[int, str]:
        """The player model of each other seat for what it wants: with the tracker's ``auto``
        model, the model that explains its choices best (:meth:`~.belief.CariocaBelief.seat_models`;
        ``uniform``: worlds not weighed for it), else ``peer`` for every seat."""
        if self.t.model == "auto" and self.s["opponent_model"]:
            return self.t.seat_models()
        return {s: "peer" for s in range(self.st.players) if s != self.me}

    def _offer_weights(self, seat: int) -> list[float]:
        """The offer model's weights for ``seat``: its model's, ``peer``'s for a seat weighed by
        none (choices that no model explains better than chance say little: the worlds are not
        weighed for it, and what it wants is priced as a ``peer`` player would want it)."""
        name = self.seat_models().get(seat, "peer")
        if name in ("peer", "uniform"):
            return self._wo
        m = load(name)[0]
        return [float(x) for x in getattr(m, "weights", np.zeros(len(self._wo)))]

    def wanted(self, card: str) -> dict[int, float]:
        """For each opponent, the chance it takes (next seat) or steals ``card`` if we discard it
        (a weighted mean over the sampled worlds: :meth:`wanted_stderr` has its errors)."""
        if card in self._wanted:
            return self._wanted[card]
        ws, w = self.worlds()
        profiles = self._worlds[2]
        st = self.st
        out = {}
        nxt = (self.me + 1) % st.players
        joker = 1.0 if is_joker(card) else 0.0
        pts = card_points(card, self.o) / 10.0
        ses: dict[int, float] = {}
        for s in range(st.players):
            if s == self.me:
                continue
            steal = s != nxt
            if steal and not st.can_steal():
                out[s] = 0.0
                ses[s] = 0.0
                continue
            fit = 1.0 if st.down[s] and _fits(card, self._ctx) else 0.0
            wo = self._offer_weights(s)
            p = 0.0
            vals = []
            for j, wt in enumerate(w):
                by_rank, by_sv = profiles[j][s]
                same, one, two = _near(card, by_rank, by_sv, st.sets > 0, st.runs > 0)
                rows = [[same, one, two, joker, fit, 1.0 if steal else 0.0, pts, 0.0], self._pass_row]
                v = np.exp(_logp(wo, rows, 0))
                vals.append(v)
                p += wt * v
            out[s] = float(p)
            ses[s] = float(np.sqrt(sum(wt * wt * (v - p) ** 2 for wt, v in zip(w, vals))))
        self._wanted_se[card] = ses
        self._wanted[card] = out
        return out

    def wanted_stderr(self, card: str) -> dict[int, float]:
        """The standard errors of :meth:`wanted` (self-normalised importance sampling over the
        sampled worlds, the delta method: :func:`cardmind.belief.models.weighted_mean`)."""
        if card not in self._wanted_se:
            self.wanted(card)
        return self._wanted_se[card]

    def danger_stderr(self, card: str) -> float:
        """The standard error of :meth:`danger`'s total (delta method over the seats' chances,
        taken as independent)."""
        per = self.wanted(card)
        se = self.wanted_stderr(card)
        st = self.st
        order = [(self.me + i) % st.players for i in range(1, st.players)]
        var = 0.0
        for k, s in enumerate(order):
            # d total / d per[s] = (chance the offer reaches s) * (1 - what the later seats take)
            reach = 1.0
            for t in order[:k]:
                reach *= 1.0 - per[t]
            later, left = 0.0, 1.0
            for t in order[k + 1:]:
                later += left * per[t]
                left *= 1.0 - per[t]
            var += (reach * (1.0 - later) * se.get(s, 0.0)) ** 2
        return float(np.sqrt(var))

    def danger(self, card: str) -> tuple[float, dict[int, float]]:
        """``(chance some opponent takes or steals card, per opponent)``: the offer goes in seat
        order, so later seats only get it when the earlier ones pass."""
        per = self.wanted(card)
        st = self.st
        left = 1.0
        total = 0.0
        for i in range(1, st.players):
            s = (self.me + i) % st.players
            total += left * per[s]
            left *= 1.0 - per[s]
        return total, per

    # ------------------------------------------------------------------ the offer
    def best_discard_progress(self, hand: Counter) -> tuple[int, float, str | None]:
        """The best ``(deficiency, live outs, card)`` after discarding one card of ``hand``."""
        best = None
        for c in sort_hand(c for c in hand if hand[c] > 0):
            h = Counter(hand)
            h[c] -= 1
            d, live = self.progress(+h)
            key = (d, -live, -card_points(c, self.o))
            if best is None or key < best[0]:
                best = (key, d, live, c)
        if best is None:
            return 99, 0.0, None
        return best[1], best[2], best[3]

    def offer(self) -> Option:
        """Take, steal or pass the discard on offer to the observer (see the module docstring)."""
        st = self.st
        card = st.offer["card"]
        hand = self.hand()
        on_turn = st.turn == self.me
        me = self.me
        pen = self.o["steal_penalty"]
        if st.down[me]:
            fits = any(st.layoff_options(me, card))
            gain = 1.0 if fits else 0.0
            numbers = {"card": card, "fits_a_meld": fits}
            if on_turn:
                act = "take" if fits else "pass"
                return Option({"type": act, "player": me}, gain * 10, numbers,
                              f"{card} {'can be laid off: one card fewer to shed' if fits else 'fits no meld: draw instead'}")
            if not fits or not st.can_steal():
                return Option({"type": "pass", "player": me}, 0.0, numbers,
                              f"{card} fits no meld" if not fits else "no penalty card can be drawn")
            # down: stealing a card that fits gives one card laid off for one penalty card kept
            cost = self._penalty_cost() if self.s["steal_pricing"] else 0.0
            value = 10 * self.hazard() - cost
            act = "steal" if (value > 0 or not self.s["steal_pricing"]) else "pass"
            numbers.update({"penalty_cost": round(cost, 2)})
            return Option({"type": act, "player": me}, value, numbers,
                          f"{card} fits a meld but the {pen} penalty card(s) stay in hand" if act == "pass"
                          else f"{card} fits a meld")
        # passing keeps the hand as it is (a stock draw that does not help is discarded again)
        d0, live0 = self.progress(hand)
        with_c = Counter(hand)
        with_c[card] += 1
        if on_turn:
            d1, live1, _ = self.best_discard_progress(with_c)
        else:
            d1, live1 = self.progress(with_c)
        better = d1 < d0 or (is_joker(card) and d0 > 0)
        # the chance a stock draw helps, rounded once: every word and number says this one value
        p_draw = self.p_stock_helps(hand)
        numbers = {"card": card, "deficiency_now": d0, "deficiency_with": d1,
                   "live_outs_now": round(live0, 2), "live_outs_with": round(live1, 2),
                   "p_stock_draw_helps": p_draw}
        if on_turn:
            # taking is the draw: a sure improvement against a draw that improves with live/stock
            if better:
                return Option({"type": "take", "player": me}, 10 * (1 - p_draw), numbers,
                              f"{card} brings the contract one card closer (a stock draw would with "
                              f"{chance(p_draw)})")
            return Option({"type": "pass", "player": me}, 0.0, numbers,
                          f"{card} does not bring the contract closer")
        if not better or not st.can_steal():
            return Option({"type": "pass", "player": me}, 0.0, numbers,
                          f"{card} does not bring the contract closer" if not better
                          else "no penalty card can be drawn")
        if not self.s["steal_pricing"]:
            return Option({"type": "steal", "player": me}, 1.0, numbers, f"{card} brings the contract one card closer")
        # the price: the race to go down and out first, with and without the steal
        steal = self.steal_race(hand, card)
        gain, cost = steal["gain"], steal["penalty_cost"]
        value = gain - cost
        saved = steal["rounds_saved"]
        numbers.update({k: steal[k] for k in ("hazard", "race_hazard", "turns_to_contract_pass",
                                              "turns_to_contract_steal", "rounds_saved", "points_at_risk",
                                              "lay_off_rate", "expected_points_pass", "expected_points_steal",
                                              "gain", "penalty_cost")})
        if value > 0:
            return Option({"type": "steal", "player": me}, value, numbers,
                          f"{card} saves about {saved:.1f} turns; worth {gain:.0f} points against a penalty "
                          f"costing {cost:.0f}")
        return Option({"type": "pass", "player": me}, -value, numbers,
                      f"{card} would save {saved:.1f} turns ({gain:.0f} points) but the penalty card costs "
                      f"{cost:.0f}")

    def turn_rate(self, hand: Counter) -> float:
        """The chance that one of our turns brings ``hand`` one card closer to the contract:
        each turn shows ``cards_per_turn`` cards (the stock draw and the discards offered;
        setting, default 2), each useful with chance ``live outs / stock``."""
        _, live = self.progress(hand)
        p = min(1.0, live / max(1, self.st.stock_count))
        return max(0.02, 1.0 - (1.0 - p) ** float(self.s["cards_per_turn"]))

    def race_hazard(self) -> float:
        """The chance per round that another player goes out first, for a race of several rounds:
        the larger of :meth:`hazard` (the opponents' chances now) and the rate a hand ends at
        (``(players - 1) / players / hand_rounds``: a hand of the strength study lasts about
        ``hand_rounds`` rounds, setting, default 8; its end belongs to each seat alike). The
        chances now see only the next turn: early in a hand they are near 0, though someone goes
        out within about 8 rounds."""
        n = self.st.players
        base = (n - 1) / n / max(1.0, float(self.s["hand_rounds"]))
        return min(0.95, max(self.hazard(), base))

    def lay_off_rate(self, hand: Counter) -> float:
        """The chance per turn, once down, to shed one more card by a lay-off: the larger of the
        ``lay_off_rate`` setting (default 0.38, measured: in 15 four-player games of the strength
        study, a player that was down laid off a card in 186 of its 482 later turns) and the
        expected stock share of jokers, of the ranks ``hand`` holds two or more of (its sets) and
        of the cards that fit a meld on the table now; at most 0.6."""
        exp = self.stock_expected()
        total = sum(exp.values())
        base = float(self.s["lay_off_rate"])
        if total <= 0:
            return base
        ranks = Counter(c[0] for c, k in hand.items() for _ in range(k) if not is_joker(c))
        sets = {r for r, k in ranks.items() if k >= 2} if self.st.sets else set()
        fit = sum(v for c, v in exp.items() if is_joker(c) or c[0] in sets or _fits(c, self._ctx))
        return min(0.6, max(base, fit / total))

    def race_points(self, turns: float, hand_points: float, p_bonus: float, left: float, left_points: float,
                    h: float, q: float) -> float:
        """Expected points of the hand for the observer in a race: it goes down at its ``turns``-th
        turn from now; until then another player goes out first with chance ``1 - (1 - h) **
        turns`` and it pays ``hand_points``. Going down, with chance ``p_bonus`` it goes out at
        once (``out_bonus``); else it keeps ``left`` cards (expected) worth ``left_points`` and
        sheds one a turn with chance ``q`` (a lay-off): about ``left / q`` turns during which
        another player may go out and it pays them, else it goes out for 0 (the bonus needs going
        down and out in one turn). Source: cardmind's own model (docs/carioca.md, "Advice")."""
        survive = (1.0 - h) ** turns
        after = (1.0 - (1.0 - h) ** (max(left, 0.0) / q)) * left_points
        after = p_bonus * float(self.o["out_bonus"]) + (1.0 - p_bonus) * after
        return (1.0 - survive) * hand_points + survive * after

    def steal_race(self, hand: Counter, card: str) -> dict[str, float]:
        """What stealing ``card`` is worth against passing (points; see :meth:`race_points`).

        Passing, the hand goes down after the turns a player that draws and takes needs to find
        its ``d`` missing cards: each turn shows ``cards_per_turn`` cards, each useful with
        chance ``p * j / d`` while ``j`` cards are still missing (``p = live outs / stock``: the
        outs are spread over the missing cards, so each find makes the next rarer: a coupon
        collector's sum; at least 1). Stealing, one
        card fewer is missing, at the pace of a player that steals what helps: ``steal_pace``
        turns per missing card (setting, default 1.9, measured: ``belief`` seats of the strength
        study that went down did so after 2.0, 3.8, 5.6 and 7.5 of their turns when their dealt
        hand lacked 1, 2, 3 and 4 cards), or the drawing time of ``deficiency - 1 - penalty * p``
        cards when that is sooner (each penalty card is one more card seen, useful with chance ``p = live
        outs / stock``); 1 (the next turn) when the card completes the contract.
        Going down, the hand keeps its cards beyond the contract's ``need`` (less the turn's
        discard): passing ``n - need``, and it goes down and out at once when that is 0;
        stealing, the card and each penalty card are one more card (the next turn's draw is no
        longer needed for the contract), each laid off at once with chance ``q``
        (:meth:`lay_off_rate`). ``gain``: what going down sooner is worth (the pass's expected
        points minus a steal's without penalty cards); ``penalty_cost``: what the penalty cards
        add to the steal's expected points (negative when they help more than they cost). Their
        difference is the steal's value.

        Returns:
            ``{"hazard", "race_hazard", "turns_to_contract_pass", "turns_to_contract_steal",
            "rounds_saved", "points_at_risk", "lay_off_rate", "expected_points_pass",
            "expected_points_steal", "gain", "penalty_cost"}`` (rounded).
        """
        pen = self.o["steal_penalty"]
        h = self.race_hazard()
        with_c = Counter(hand)
        with_c[card] += 1
        d0, live0 = self.progress(hand)
        d1, _ = self.progress(with_c)
        p = min(1.0, live0 / max(1, self.st.stock_count))
        k = float(self.s["cards_per_turn"])

        def drawn(d: float) -> float:
            # the turns to find d missing cards by drawing and taking: the outs are spread over
            # the missing cards, so each find makes the next rarer (a coupon collector's sum)
            t, left = 0.0, d
            while left > 1e-9:
                step = min(1.0, left)
                pj = p * left / max(d0, 1)
                t += step / max(0.02, 1.0 - (1.0 - pj) ** k)
                left -= step
            return t

        t0 = max(1.0, min(40.0, drawn(d0)))
        pace = float(self.s["steal_pace"])

        def turns(extra: int) -> float:
            if d1 == 0:
                return 1.0
            return max(1.0, min(40.0, drawn(d1 - extra * p), d1 * pace))

        need = 3 * self.st.sets + 4 * self.st.runs
        n = sum(hand.values())
        left0 = max(0, n - need)
        exp = self.stock_expected()
        stock = sum(exp.values())
        avg = sum(card_points(c, self.o) * v for c, v in exp.items()) / stock if stock > 0 else 8.0
        pts = float(sum(card_points(c, self.o) * k for c, k in hand.items()))
        q = self.lay_off_rate(with_c)
        e_pass = self.race_points(t0, pts, 1.0 if left0 == 0 else 0.0, left0, left0 * avg, h, q)
        pts1 = pts + card_points(card, self.o)

        def steal(extra: int) -> float:
            cards = 1 + extra
            p_bonus = q ** cards if left0 == 0 else 0.0
            left = left0 + cards * (1 - q)
            return self.race_points(turns(extra), pts1 + extra * avg, p_bonus, left, left * avg, h, q)

        e_free, e_steal = steal(0), steal(pen)
        t1 = turns(pen)
        return {"hazard": round(self.hazard(), 3), "race_hazard": round(h, 3),
                "turns_to_contract_pass": round(t0, 2), "turns_to_contract_steal": round(t1, 2),
                "rounds_saved": round(t0 - t1, 2), "points_at_risk": int(pts), "lay_off_rate": round(q, 3),
                "expected_points_pass": round(e_pass, 2), "expected_points_steal": round(e_steal, 2),
                "gain": round(e_pass - e_free, 2), "penalty_cost": round(e_steal - e_free, 2)}

    def _penalty_cost(self) -> float:
        """Expected points a steal costs: the card taken and the penalty cards are extra cards
        to shed (the out bonus is lost unless they can be laid off) and points held meanwhile."""
        pen = self.o["steal_penalty"]
        exp = self.stock_expected()
        stock = max(1e-9, sum(exp.values()))
        avg = sum(card_points(c, self.o) * v for c, v in exp.items()) / stock if exp else 8.0
        extra = 1 + pen
        bonus = -self.o["out_bonus"]
        # each extra card takes about one more turn to shed (a turn's discard), meanwhile at risk
        h = self.hazard()
        return bonus * 0.6 + extra * h * 2 * avg + pen * avg * 0.3

    # ------------------------------------------------------------------ the play
    def go_down(self) -> Option | None:
        """Go down now or wait (``None`` when the observer cannot go down now)."""
        st = self.st
        me = self.me
        if st.down[me]:
            return None
        options = st.go_down_options(me, limit=3)
        if not options:
            return None
        hand = self.hand()
        # the arrangement that leaves the fewest points after laying off what fits
        best = None
        for melds in options:
            rest = Counter(hand)
            for m in melds:
                rest.subtract(m.cards)
            table = [dict(m) for m in st.table] + [{"owner": me, "kind": m.kind, "cards": list(m.cards)}
                                                    for m in melds]
            from .counting import _layoff_all  # noqa: PLC0415

            left_cards = +rest
            n_left = _layoff_all(Counter(left_cards), [dict(t) for t in table])
            pts = sum(card_points(c, self.o) * k for c, k in left_cards.items())
            key = (n_left, pts)
            if best is None or key < best[0]:
                best = (key, melds, n_left, pts)
        _, melds, n_left, pts_left = best
        action = {"type": "go_down", "player": me, "melds": [m.to_json() for m in melds]}
        laid = sum(card_points(c, self.o) for m in melds for c in m.cards)
        numbers = {"cards_left_after_lay_offs": n_left, "points_laid": laid, "points_left": pts_left}
        if n_left <= 1:
            return Option(action, -self.o["out_bonus"] + laid, numbers,
                          f"go down and out this turn ({self.o['out_bonus']} points)")
        if not self.s["timing"]:
            return Option(action, laid, numbers, "go down at the first chance")
        h = self.hazard()
        p_next = self.p_out_next_turn()
        bonus = -self.o["out_bonus"]
        wait_gain = (1 - h) * p_next * bonus
        wait_cost = h * laid
        numbers.update({"hazard": round(h, 3), "p_down_and_out_next_turn": round(p_next, 3),
                        "wait_gain": round(wait_gain, 2), "wait_cost": round(wait_cost, 2)})
        if wait_gain > wait_cost:
            return Option({"type": "wait"}, wait_gain - wait_cost, numbers,
                          f"wait: {100 * p_next:.0f}% to go down and out next turn ({self.o['out_bonus']}) "
                          f"against {100 * h:.0f}% that someone goes out first with {laid} points in hand")
        return Option(action, wait_cost - wait_gain, numbers,
                      f"go down now: {laid} points leave the hand; waiting for {self.o['out_bonus']} "
                      f"({100 * p_next:.0f}% next turn) is not worth {100 * h:.0f}% risk")

    def p_out_next_turn(self) -> float:
        """The chance that, waiting now (discarding the best card), the observer can go down and
        out in one turn next time: one more card, from the stock (the exact posterior of its
        top card) or the discard on offer."""
        st = self.st
        hand = self.hand()
        _, _, disc = self.best_discard_progress(hand)
        if disc is not None:
            hand[disc] -= 1
            hand = +hand
        exp = self.stock_expected()
        total = sum(exp.values())
        if total <= 0:
            return 0.0
        p = 0.0
        cache: dict[str, float] = {}
        for c, e in exp.items():
            if e <= 0:
                continue
            if c not in cache:
                h = Counter(hand)
                h[c] += 1
                probe = st.copy()
                probe.hands[self.me] = h
                probe.sizes[self.me] = sum(h.values())
                d, o = can_go_down_out(probe, self.me, h)
                cache[c] = o
            p += cache[c] * e / total
        return p

    def discards(self) -> list[Option]:
        """Every discard with its numbers, best first."""
        st = self.st
        hand = self.hand()
        if st.sizes[self.me] == 1:
            # the last card: discarding it ends the hand (nobody is offered it)
            c = next(iter(+hand))
            bonus = self.o["out_bonus"] if st.down_turn[self.me] == st.turn_no else 0
            numbers = {"card": c, "points": card_points(c, self.o), "goes_out": True, "out_score": bonus,
                       "deficiency_after": 0, "live_outs_after": 0.0, "p_taken": None, "taken_by": {}}
            return [Option({"type": "discard", "player": self.me, "card": c}, 100.0, numbers,
                           f"the last card: discarding it ends the hand ({bonus} points)")]
        out = []
        h = self.hazard() if (st.down[self.me] or self.s["discard_safety"]) else 0.0
        base = {}
        for c in sort_hand(c for c in hand if hand[c] > 0):
            rest = Counter(hand)
            rest[c] -= 1
            d, live = (0, 0.0) if st.down[self.me] else self.progress(+rest)
            pts = card_points(c, self.o)
            base[c] = (d, live, pts, -d * 30.0 + live * 2.0 + pts * (0.2 + h) - (25.0 if is_joker(c) and not
                                                                             st.down[self.me] else 0.0))
        # what opponents want only re-ranks close options: price the danger of the best few
        ranked = sorted(base, key=lambda c: -base[c][3])
        priced = set(ranked[:int(self.s["safety_candidates"])]) if self.s["discard_safety"] else set()
        weight = float(self.s["safety_weight"])
        for c in ranked:
            d, live, pts, value = base[c]
            # value in points: progress first (a missing card is worth many rounds of risk), then
            # the live outs kept, the points shed weighed by the risk, and what opponents get (a
            # card not priced for it is charged the most it could be, so it never jumps ahead)
            if c in priced:
                danger, per = self.danger(c)
                value -= danger * weight
            else:
                danger, per = 0.0, {}
                if self.s["discard_safety"]:
                    value -= weight
            numbers = {"card": c, "points": pts, "deficiency_after": d, "live_outs_after": round(live, 2),
                       "p_taken": round(danger, 3) if c in priced or not self.s["discard_safety"] else None,
                       "p_taken_stderr": round(self.danger_stderr(c), 3) if c in priced else None,
                       "taken_by": {str(s): round(p, 3) for s, p in per.items()},
                       "taken_by_stderr": ({str(s): round(v, 3) for s, v in self.wanted_stderr(c).items()}
                                           if c in priced else {})}
            reason = (f"keeps {d} card{'s' if d != 1 else ''} from the contract with {live:.1f} live outs"
                      if not st.down[self.me] else "fits no meld")
            if c not in priced and self.s["discard_safety"]:
                reason += "; not among the best few, so not priced for what opponents want"
            elif danger >= 0.3:
                reason += f"; {100 * danger:.0f}% an opponent takes it"
            elif pts >= 10:
                reason += f"; sheds {pts} points"
            out.append(Option({"type": "discard", "player": self.me, "card": c}, value, numbers, reason))
        out.sort(key=lambda o: -o.value)
        return out

    def lay_off(self) -> dict | None:
        """A lay-off to make now (the highest-scoring card that fits), keeping a card to discard."""
        st = self.st
        me = self.me
        if not st.down[me] or st.sizes[me] <= 1:
            return None
        hand = self.hand()
        best = None
        for c in sort_hand(c for c in hand if hand[c] > 0):
            places = st.layoff_options(me, c)
            if places:
                key = card_points(c, self.o)
                if best is None or key > best[0]:
                    best = (key, {"type": "lay_off", "player": me, "card": c, "meld": places[0][0],
                                  "at": places[0][1]})
        return None if best is None else best[1]


__all__ = ["Advisor", "DEFAULTS", "Option"]
