"""``belief``: the contract rummy player that decides by expected score over belief-weighted
worlds (:class:`~cardmind.games.carioca.decide.Advisor`).

It keeps the exact belief tracker of its seat (:class:`~cardmind.games.carioca.belief.CariocaBelief`)
and, at each decision:

* **the offer**: takes the discard on turn when it brings the contract one card closer (or,
  once down, when it can lay it off), instead of a stock draw that would with chance
  ``live outs / stock``; steals it out of turn when the race to go down and out first says
  the steal pays: the turns it saves against the penalty card and the bonus at stake
  (``steal_pricing``, :meth:`~cardmind.games.carioca.decide.Advisor.steal_race`);
* **going down**: at once when it can go down and out in the same turn (``out_bonus``); else
  it waits when the chance of going down and out next turn, times the bonus, beats the chance
  that someone goes out first times the points it would keep in hand (``timing``);
* **laying off**: the highest-scoring card that fits, while it keeps a card to discard;
* **discards**: the card whose loss keeps the hand closest to the contract with the most live
  outs, shedding points as the risk grows, and charged for the chance that an opponent takes
  or steals it (``discard_safety``), that chance read from worlds weighed by a player model
  of the opponents' past choices (``opponent_model``).

Its own danger estimate reads the opponents' chances as they were when the steal pricing and
the timing were measured (the tracker's ``ahead=False``: the card on offer and the stock card,
not the steals and takes ahead that the hints count).

Settings (each of the four features can be switched off for the study's ablations):
``steal_pricing``, ``timing``, ``discard_safety``, ``opponent_model`` (true by default),
``worlds`` (sampled worlds, default 12), ``samples`` (the tracker's worlds for the opponents'
chances, default 8), ``safety_weight`` (12.0), ``seed`` (0).
"""

from __future__ import annotations

import numpy as np

from ..decide import Advisor
from ..belief import CariocaBelief
from ..melds import Meld
from ..notation import Discard, GoDown, LayOff, Pass, Steal, Take
from ..state import CariocaState
from ....agents.base import Agent


class CariocaBeliefAgent(Agent):
    """Decides by expected score over belief-weighted worlds (see the module docstring)."""

    name = "belief"
    games = ("carioca",)
    state: CariocaState
    default_settings = {"steal_pricing": True, "timing": True, "discard_safety": True, "opponent_model": True,
                        "worlds": 12, "samples": 8, "safety_weight": 12.0, "seed": 0}

    def __init__(self, game, seat, options, header, settings=None):
        super().__init__(game, seat, options, header, settings)
        s = self.settings
        if s["worlds"] < 1 or s["samples"] < 1:
            raise ValueError("agent 'belief': 'worlds' and 'samples' must be 1 or more")
        # the constraint-only posterior (the advisor weighs its own worlds by the ``peer`` model
        # when ``opponent_model`` is on): what the strength study measured
        # and the opponents' chances as they were when the steal pricing and the timing were
        # measured (``ahead=False``: only the card on offer and the stock card are counted);
        # counting the steals and takes ahead made this player score more points on fresh
        # deals (docs/carioca.md, "The price of a steal, measured again")
        self.tracker = CariocaBelief(self.options, seat, self.header["hand"], up=self.header["up"],
                                     model="uniform", samples=s["samples"], seed=s["seed"], ahead=False)
        #: the hazard (chance someone goes out before our next turn), estimated once per turn
        self._hazard: tuple[tuple, float] | None = None

    def observe(self, event) -> None:
        """Advance the view and the tracker."""
        super().observe(event)
        self.tracker.observe(event)

    def advisor(self) -> Advisor:
        """An advisor for the position now (with this player's settings; the hazard is estimated
        once per turn of the table and reused for the decisions of that turn)."""
        s = self.settings
        st = self.state
        key = (st.hand_no, st.turn_no)
        hz = self._hazard[1] if self._hazard is not None and self._hazard[0] == key else None
        adv = Advisor(self.tracker, steal_pricing=s["steal_pricing"], timing=s["timing"],
                      discard_safety=s["discard_safety"], opponent_model=s["opponent_model"],
                      worlds=s["worlds"], safety_weight=s["safety_weight"], hazard=hz)
        self._pending_key = key
        return adv

    def _keep_hazard(self, adv: Advisor) -> None:
        if adv._hazard is not None:
            self._hazard = (self._pending_key, adv._hazard)

    def act(self, rng: np.random.Generator):
        """The action the advisor prices best (deterministic given the events and ``seed``)."""
        adv = self.advisor()
        try:
            return self._decide(adv)
        finally:
            self._keep_hazard(adv)

    def _decide(self, adv: Advisor):
        st = self.state
        me = self.seat
        if st.phase == "offer":
            kind = adv.offer().action["type"]
            if kind == "take":
                return Take(me)
            if kind == "steal":
                return Steal(me)
            return Pass(me)
        if not st.down[me]:
            gd = adv.go_down()
            if gd is not None and gd.action["type"] == "go_down":
                melds = tuple(Meld(m["kind"], tuple(m["cards"])) for m in gd.action["melds"])
                return GoDown(me, melds)
        lo = adv.lay_off()
        if lo is not None:
            return LayOff(me, lo["card"], lo["meld"], lo["at"])
        best = adv.discards()[0]
        return Discard(me, best.action["card"])


__all__ = ["CariocaBeliefAgent"]
