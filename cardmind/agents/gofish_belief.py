"""``belief``: the Go Fish player driven by the belief tracker
(:class:`~cardmind.belief.gofish.GoFishBelief`, exact for two players).

Phase 1, on its turn, it chooses the (player, rank) ask with the best expected value::

    EV = p * (cards + W_TURN) + p_book * W_BOOK + (1 - p) * p_draw * (1 + W_TURN) - W_REVEAL * reveal

where ``p`` is the probability that the player holds the rank (a hit), ``cards`` the expected
cards won (one under ``give: "one"``), ``p_book`` the chance the ask completes a book,
``p_draw`` the chance a refusal is followed by a lucky draw of that rank (shown: the turn is
kept), and ``reveal`` 1 when the rank has not been asked for by this player before (asking
tells everyone it holds the rank). Handing a card over (``give: "one"``) it gives the lowest
suit; dealt books are laid. Phase 2: it asks for the book (of a rank it does not hold) most
likely held by the player it asks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..belief.gofish import GoFishBelief
from ..errors import Contradiction
from ..games.gofish import Ask, AskBook, Give, GoFishState, LayBooks
from .base import Agent, register_agent
from .gofish_peer import GoFishPeerAgent


#: the player's draw-engine settings (see ``docs/gofish-belief.md``)
AGENT_STEPS = 8
AGENT_BLOCK = 1
AGENT_EXCHANGES = 1
AGENT_RECORD_BLOCK = 3
AGENT_EXACT_FREE = 7
AGENT_ENUM_NODES = 30
AGENT_ENUM_LEAVES = 2
AGENT_SUPPORT_LOG10 = -1.0  # never narrow the draws' ranks with CP-SAT (about 1 s a time)


@register_agent
class GoFishBeliefAgent(Agent):
    """The belief-driven Go Fish player (see the module docstring).

    Settings:
        w_turn: value of keeping the turn (in cards).
        w_book: value of completing a book (in cards).
        w_reveal: cost of telling the others it holds a rank it has not asked for before.
        sampled: what to do when the tracker could only sample (``mode == "mcmc"``: three or
            more players, many unseen draws, where the player's cheap sampler is far from the
            exact answer, ``docs/gofish-belief.md``): ``"peer"`` (default) decides that move
            as the ``peer`` player would (its memory is kept alongside), ``"use"`` goes on
            with the sampled probabilities.
        w_exposed: cost per card of a miss that hands the turn over while the others know
            this player holds those cards: ``(1 - p) * (1 - p_draw) * exposed``, where
            ``exposed`` counts its cards of the ranks it has asked for (this one included),
            which a player with memory can then ask it for with certainty (0 disables).
        steps, block, exchanges, record_block, exact_free, enum_nodes, enum_leaves, support_log10:
            the settings of the tracker's draw
            engine (3+ players, see :mod:`cardmind.belief.gofish_draws`). The player's
            defaults are cheaper than the tracker's (few Gibbs steps per move; the chain is
            continued from move to move): ``docs/gofish-belief.md`` measures what that costs
            in accuracy.
    """

    name = "belief"
    games = ("gofish",)
    default_settings = {"w_turn": 0.5, "w_book": 2.0, "w_reveal": 0.1, "w_exposed": 0.0, "sampled": "peer",
                        "steps": AGENT_STEPS, "block": AGENT_BLOCK, "exchanges": AGENT_EXCHANGES,
                        "record_block": AGENT_RECORD_BLOCK, "exact_free": AGENT_EXACT_FREE,
                        "enum_nodes": AGENT_ENUM_NODES, "enum_leaves": AGENT_ENUM_LEAVES,
                        "support_log10": AGENT_SUPPORT_LOG10}
    state: GoFishState

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        st = self.settings
        self.tracker = GoFishBelief(self.options, self.seat, self.header["hand"], seed=self.seat,
                                    steps=int(st["steps"]), block=int(st["block"]),
                                    exchanges=int(st["exchanges"]), record_block=int(st["record_block"]),
                                    exact_free=int(st["exact_free"]), enum_nodes=int(st["enum_nodes"]),
                                    enum_leaves=int(st["enum_leaves"]),
                                    draw_options={"enum_memo": True, "support_log10": float(st["support_log10"]),
                                                  "object_limit": 0})
        self.tracker.settled = True
        self.state = self.tracker.state
        self.asked: set[str] = set()
        if st["sampled"] not in ("peer", "use"):
            raise ValueError(f"belief setting 'sampled' must be \"peer\" or \"use\", not {st['sampled']!r}")
        #: the peer player kept alongside, for the moves the tracker can only sample
        self.peer = GoFishPeerAgent(self.game, self.seat, self.options, self.header) \
            if st["sampled"] == "peer" and self.tracker.players > 2 else None
        #: moves decided by the peer fallback (``sampled: "peer"``) and by the belief
        self.fallback_moves = 0
        self.belief_moves = 0

    def observe(self, event) -> None:
        """Advance the tracker (which owns the view state), and the peer fallback's memory."""
        self.tracker.observe(event)
        if self.peer is not None:
            self.peer.observe(event)
        if event["type"] == "ask" and event["asker"] == self.seat:
            self.asked.add(event["rank"])

    def notice(self, info) -> None:
        """Take in a decision under way (the tracker's view state, and the peer fallback's)."""
        super().notice(info)
        if self.peer is not None:
            self.peer.notice(info)

    def act(self, rng: np.random.Generator):
        """The action on turn (see the module docstring)."""
        actions = self.legal_now()
        for a in actions:
            if isinstance(a, LayBooks):
                return a
        gives = [a for a in actions if isinstance(a, Give)]
        if gives:
            return min(gives, key=lambda g: (g.card[1], g.card))
        asks = [a for a in actions if isinstance(a, Ask)]
        book_asks = [a for a in actions if isinstance(a, AskBook)]
        try:
            if self.peer is not None and (asks or book_asks):
                self.tracker.holdings()  # answers (cached) and sets the mode
                if self.tracker.mode == "mcmc":
                    self.fallback_moves += 1
                    return self.peer.act(rng)
            self.belief_moves += 1
            if asks:
                return self._best_ask(asks)
            if book_asks:
                return self._best_book_ask(book_asks)
        except Contradiction:
            pass
        return actions[int(rng.integers(len(actions)))]

    def _best_ask(self, asks: list[Ask]) -> Ask:
        st = self.state
        tr = self.tracker
        hold = tr.holdings()
        s = self.settings
        S = tr.S
        own = st.hands[self.seat] or set()
        stock = st.stock_count
        best, best_key = asks[0], None
        for a in asks:
            d = hold.get(a.target, {}).get(a.rank, {})
            p = 1.0 - d.get(0, 0.0)
            have = sum(1 for c in own if c[0] == a.rank)
            if tr.options["give"] == "one":
                cards = p
                p_book = p if have == S - 1 else 0.0
            else:
                cards = sum(c * q for c, q in d.items())
                p_book = d.get(S - have, 0.0)
            sd = hold.get("stock", {}).get(a.rank, {})
            in_stock = sum(c * q for c, q in sd.items())
            p_draw = in_stock / stock if stock else 0.0
            reveal = 0.0 if a.rank in self.asked else 1.0
            ev = cards + p * s["w_turn"] + p_book * s["w_book"] \
                + (1 - p) * p_draw * (1 + s["w_turn"]) - s["w_reveal"] * reveal
            if s["w_exposed"]:
                exposed = sum(1 for c in own if c[0] in self.asked or c[0] == a.rank)
                ev -= s["w_exposed"] * (1 - p) * (1 - p_draw) * exposed
            key = (ev, p, -a.target, a.rank)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best

    def _best_book_ask(self, asks: list[AskBook]) -> AskBook:
        books = self.tracker.books()
        best, best_p = asks[0], -1.0
        for a in asks:
            p = 0.0
            for b in books:
                owner = b["owner"]
                q = (1.0 if owner == a.target else 0.0) if not isinstance(owner, dict) else owner.get(a.target, 0.0)
                p += q * b["ranks"].get(a.rank, 0.0)
            if p > best_p:
                best, best_p = a, p
        return best
