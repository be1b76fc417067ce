"""``belief``: the Go Fish player driven by the belief tracker
(:class:`~cardmind.games.gofish.belief.GoFishBelief`, exact for two players).

Phase 1, on its turn, it scores every (player, rank) ask by its expected value::

    EV = p * (cards + W_TURN) + p_book * W_BOOK + (1 - p) * p_draw * (1 + W_TURN) - W_REVEAL * reveal

where ``p`` is the probability that the player holds the rank (a hit), ``cards`` the expected
cards won (one under ``give: "one"``), ``p_book`` the chance the ask completes a book,
``p_draw`` the chance a refusal is followed by a lucky draw of that rank (shown: the turn is
kept), and ``reveal`` 1 when the rank has not been asked for by this player before (asking
tells everyone it holds the rank). A certain hit is asked first (the best EV among them).
Otherwise, by default (setting ``order: "held"``), it guesses in ``peer``'s order on the
exact chances: among the asks whose chance of a hit is at least 0.3 of the best, the rank it
holds most (a rank it has asked for before, then the EV, breaking ties); with ``order: "ev"``
it asks the best EV (the default until 2026-11-30; ``docs/strength.md`` compares them). At
tables of three or more players the look-ahead below decides instead. Handing a card over
(``give: "one"``) it gives the lowest suit; dealt books are laid. Phase 2: it asks for the
book (of a rank it does not hold) most likely held by the player it asks.

**Inference from the others' asks** (setting ``infer``, on by default): a player that
remembers who asked for what asks first for a rank another player is publicly known to hold
(a certain hit). So when another player guesses, it holds none of those ranks; the player adds
that to its tracker as an assumption (:meth:`GoFishBelief.assume_lacks`), judged from the
memory every seat shares, and drops every assumption for good once the tracker finds no deal
consistent with them (a player who guesses anyway, such as ``random``). ``docs/strength.md``
measures it.

**Look-ahead** (settings ``search``, ``search_width``, ``search_players``; on at tables of three
or more players): unless a hit is certain, the ``search_width`` best asks by EV are each played
out to the end of phase 1 in the same ``search`` worlds (every seat then playing a count-level
``peer``, :mod:`.rollout`), and the ask that wins most often is chosen. The worlds come
from the exact posterior when the tracker's answer is exact
(:meth:`~cardmind.games.gofish.belief.GoFishBelief.sample_hidden`); where it could only sample they
come from the draw engine's sampler (approximate), or, with ``sampled_worlds: "memory"``, fit
the public memory (:func:`.rollout.memory_worlds`: a rougher approximation). With two
players it did not beat the EV against ``peer`` (``docs/strength.md``), so it is off there by
default.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..belief import GoFishBelief
from ....errors import Contradiction
from ..notation import Ask, AskBook, Give, LayBooks
from ..state import GoFishState
from ....agents.base import Agent
from .peer import PLAUSIBLE, GoFishPeerAgent
from ..decide import Memory, memory_worlds, play_out

#: the player's draw-engine settings (see ``docs/gofish-belief.md``)
AGENT_STEPS = 8
AGENT_BLOCK = 1
AGENT_EXCHANGES = 1
AGENT_RECORD_BLOCK = 3
AGENT_EXACT_FREE = 7
AGENT_ENUM_NODES = 30
AGENT_ENUM_LEAVES = 2
AGENT_SUPPORT_LOG10 = -1.0  # never narrow the draws' ranks with CP-SAT (about 1 s a time)


class GoFishBeliefAgent(Agent):
    """The belief-driven Go Fish player (see the module docstring).

    Settings:
        w_turn: value of keeping the turn (in cards).
        w_book: value of completing a book (in cards).
        w_reveal: cost of telling the others it holds a rank it has not asked for before.
        infer: add what the others' guesses show to the tracker as assumptions (see the
            module docstring and :meth:`_infer`).
        compact, compact_work: answer by the draw engine's compact exact sum
            (:mod:`..draws.compact`) within this budget of work units (default on, 3e8: about
            0.1-0.5 s), and only past it by the settings below (sampling); off, the player's
            answers past ``exact_free`` unseen draws are the cheap sampler's (the player's
            setting before the compact sum).
        model: the tracker's player model (:mod:`..models`): ``"peer"`` (default) weighs the
            consistent deals by the fitted likelihood of the other player's asks (two
            players; with more the player counts the deals alike, as before: the tracker's
            reweighting by the models is sampled and slower), ``"uniform"`` counts
            them alike, ``"auto"`` mixes ``peer`` and ``random`` by how well each explains
            the asks (the tracker's default, used by the advice; about twice the filter's
            work), ``"random"`` weighs them as a random asker's.
        order: how it guesses when no hit is certain: ``"held"`` (default: ``peer``'s order on
            the exact chances, the rank held most among the plausible asks) or ``"ev"`` (the
            best EV).
        sampled: what to do when the tracker could only sample (``mode == "mcmc"``: three or
            more players, many unseen draws, where the player's cheap sampler is far from the
            exact answer, ``docs/gofish-belief.md``): ``"search"`` (default) decides that move
            by the look-ahead (worlds per ``sampled_worlds``; when the look-ahead is on at this
            table, else as ``"peer"``), ``"peer"`` decides it as the ``peer`` player
            would (its memory is kept alongside), ``"use"`` goes on with the sampled
            probabilities.
        search: worlds per move of the look-ahead (0 turns it off): the candidate asks are
            played out to the end of phase 1 in the same worlds, every seat then playing a
            count-level ``peer`` (:mod:`.rollout`), and the ask winning most often is
            chosen (see :meth:`_search`).
        sampled_worlds: where the look-ahead's worlds come from on the moves the tracker could
            only sample: ``"chain"`` (default: the draw engine's sampler goes on and each of
            its steps gives worlds, closer to the posterior) or ``"memory"`` (they fit the
            public memory, :func:`.rollout.memory_worlds`). Elsewhere the worlds are
            exact posterior draws. ``docs/strength.md`` compares the two (4 players: 27.5%
            against 23.6% on the same 400 games, at about the same time per move).
        search_width: candidate asks the look-ahead compares (the best by EV, or by ``peer``'s
            chance of a hit when the tracker only sampled).
        search_players: the look-ahead is used at tables of at least this many players
            (default 3: with two players it did not beat the EV, ``docs/strength.md``).
        w_exposed: cost per card of a miss that hands the turn over while the others know
            this player holds those cards: ``(1 - p) * (1 - p_draw) * exposed``, where
            ``exposed`` counts its cards of the ranks it has asked for (this one included),
            which a player with memory can then ask it for with certainty (0 disables).
        steps, block, exchanges, record_block, exact_free, enum_nodes, enum_leaves, support_log10:
            the settings of the tracker's draw
            engine (3+ players, see :mod:`cardmind.games.gofish.draws`). The player's
            defaults are cheaper than the tracker's (few Gibbs steps per move; the chain is
            continued from move to move): ``docs/gofish-belief.md`` measures what that costs
            in accuracy.
    """

    name = "belief"
    games = ("gofish",)
    default_settings = {"w_turn": 0.5, "w_book": 2.0, "w_reveal": 0.1, "w_exposed": 0.0, "infer": True,
                        "model": "peer", "compact": True, "compact_work": 300_000_000,
                        "order": "held", "sampled": "search",
                        "sampled_worlds": "chain", "search": 48, "search_width": 4, "search_players": 3,
                        "steps": AGENT_STEPS, "block": AGENT_BLOCK, "exchanges": AGENT_EXCHANGES,
                        "record_block": AGENT_RECORD_BLOCK, "exact_free": AGENT_EXACT_FREE,
                        "enum_nodes": AGENT_ENUM_NODES, "enum_leaves": AGENT_ENUM_LEAVES,
                        "support_log10": AGENT_SUPPORT_LOG10}
    state: GoFishState

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        st = self.settings
        self.tracker = self._new_tracker(self.seat)
        self.state = self.tracker.state
        self._notice = None   # the notice of a decision under way (re-applied on a rebuild)
        self.asked: set[str] = set()
        #: the peer player kept alongside: its public memory feeds the look-ahead, and it
        #: decides the moves the tracker can only sample
        self.peer = GoFishPeerAgent(self.game, self.seat, self.options, self.header) \
            if (st["sampled"] != "use" and self.tracker.players > 2) or self._searching() \
            or st["infer"] else None
        #: setting ``infer`` still on (off for good once an assumption met a contradiction)
        self.inferring = bool(st["infer"])
        #: the memory every seat shares at least (what the others know of each hand)
        self.common = GoFishPeerAgent(self.game, self.seat, self.options, self.header) if st["infer"] else None
        if self.common is not None:
            self.common.common = True
        #: assumptions added to the tracker (see :meth:`_infer`)
        self.assumed = 0
        #: moves decided by the look-ahead
        self.search_moves = 0
        #: moves decided by the peer fallback (``sampled: "peer"``) and by the belief
        self.fallback_moves = 0
        self.belief_moves = 0

    #: the settings that take one of a few words
    CHOICES = {"sampled": ("search", "peer", "use"), "sampled_worlds": ("chain", "memory"), "order": ("held", "ev"),
               "model": ("peer", "auto", "uniform", "belief", "random")}

    @classmethod
    def check_settings(cls, settings):
        """The base checks (:meth:`Agent.check_settings`), then the words of :attr:`CHOICES`
        and the look-ahead's whole numbers >= 0, so that a bad value is refused before any
        game starts.

        Raises:
            ValueError: naming the setting, the value and what it may be.
        """
        st = super().check_settings(settings)
        for k, allowed in cls.CHOICES.items():
            if st[k] not in allowed:
                raise ValueError(f"belief setting {k!r} must be " + " or ".join(f'"{a}"' for a in allowed)
                                 + f", not {st[k]!r}")
        for k in ("search", "search_width", "search_players"):
            if st[k] < 0:
                raise ValueError(f"belief setting {k!r} must be a whole number >= 0, not {st[k]!r}")
        return st

    def observe(self, event) -> None:
        """Advance the tracker (which owns the view state), and the peer fallback's memory;
        with ``infer``, first add what another player's ask shows (:meth:`_infer`)."""
        if self.inferring and event["type"] == "ask" and event["asker"] != self.seat:
            self._infer(event["asker"], event["target"], event["rank"])
        self.tracker.observe(event)
        self._notice = None
        if self.peer is not None:
            self.peer.observe(event)
        if self.common is not None:
            self.common.observe(event)
        if event["type"] == "ask" and event["asker"] == self.seat:
            self.asked.add(event["rank"])

    def notice(self, info) -> None:
        """Take in a decision under way (the tracker's view state, and the peer fallback's)."""
        super().notice(info)
        self._notice = info
        if self.peer is not None:
            self.peer.notice(info)

    def _infer(self, p: int, target: int, rank: str) -> None:
        """Setting ``infer``: what the ask of ``p`` (another player) shows beyond the rules.

        A player that remembers who asked for what (as ``peer`` does, and anyone who keeps
        track) asks first for a rank it holds that another player is publicly known to hold:
        a certain hit. So when ``p`` guesses (asks ``target`` for a ``rank`` that ``target`` is
        not publicly known to hold), it holds none of the ranks the others are publicly known
        to hold (``peer``'s memory ``lo``, which counts this player too). That becomes an
        assumption of the tracker (:meth:`GoFishBelief.assume_lacks`) and of the ``peer``
        memory kept alongside. Not a rule: a player who guesses anyway (``random``) breaks it,
        and when the tracker then finds no consistent deal the assumptions are dropped for
        good (:meth:`_drop_assumptions`). A rank ``p`` itself is publicly known to hold shows
        the same at once (it guessed while holding a rank it could ask for), and inferring
        stops.
        """
        lo = self.common.lo
        if lo[target][rank] > 0:
            return   # a known holder: the ask a memory player makes, nothing more shown
        st = self.state
        known = {r for s in range(st.players) if s != p and st.sizes[s] > 0
                 for r, k in lo[s].items() if k > 0 and r not in st.book_at}
        if not known:
            return
        if any(lo[p][r] > 0 for r in known):
            self._drop_assumptions()
            return
        self.tracker.assume_lacks(p, known)
        self.assumed += 1
        if self.peer is not None:
            for r in known:
                self.peer.lacks[p][r] = 0

    def _drop_assumptions(self) -> None:
        """Stop inferring and rebuild the tracker from the events alone (an assumption of
        :meth:`_infer` was wrong: some player does not play as assumed)."""
        self.inferring = False
        if not self.assumed:
            return
        old = self.tracker
        self.tracker = self._new_tracker(self.seat + self.state.players)
        for ev in old.events:
            if ev["type"] != "assume_lacks":
                self.tracker.observe(ev)
        self.state = self.tracker.state
        if self._notice is not None:
            self.state.apply_pending_notice(self._notice)
        self.assumed = 0

    def _new_tracker(self, seed: int) -> GoFishBelief:
        """A tracker of this seat's view before any event, with the player's settings."""
        st = self.settings
        # three or more players: the constraint-only count (the models' reweighting samples)
        model = str(st["model"]) if self.options["players"] == 2 else "uniform"
        t = GoFishBelief(self.options, self.seat, self.header["hand"], seed=seed, model=model,
                         steps=int(st["steps"]), block=int(st["block"]),
                         exchanges=int(st["exchanges"]), record_block=int(st["record_block"]),
                         exact_free=int(st["exact_free"]), enum_nodes=int(st["enum_nodes"]),
                         enum_leaves=int(st["enum_leaves"]),
                         draw_options={"enum_memo": True, "support_log10": float(st["support_log10"]),
                                       "object_limit": 0, "compact": bool(st["compact"]),
                                       "compact_work": int(st["compact_work"])})
        t.settled = True
        return t

    def act(self, rng: np.random.Generator):
        """The action on turn (see the module docstring)."""
        if self.assumed:
            try:
                self.tracker.holdings()
            except Contradiction:
                self._drop_assumptions()
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
            if self.settings["sampled"] != "use" and self.tracker.players > 2 and (asks or book_asks):
                self.tracker.holdings()  # answers (cached) and sets the mode
                if self.tracker.mode == "mcmc":
                    if asks and self.settings["sampled"] == "search" and self._searching():
                        got = self._search(asks, rng, approx=True)
                        if got is not None:
                            self.search_moves += 1
                            return got
                    self.fallback_moves += 1
                    return self.peer.act(rng)
            self.belief_moves += 1
            if asks:
                if self._searching():
                    got = self._search(asks, rng)
                    if got is not None:
                        self.search_moves += 1
                        return got
                return self._best_ask(asks)
            if book_asks:
                return self._best_book_ask(book_asks)
        except Contradiction:
            pass
        return actions[int(rng.integers(len(actions)))]

    def _searching(self) -> bool:
        """Whether the look-ahead is on at this table (settings ``search``, ``search_players``)."""
        return bool(self.settings["search"]) and self.tracker.players >= self.settings["search_players"]

    def _ev(self, asks: list[Ask]) -> list[tuple[tuple, Ask]]:
        """``(key, ask)`` per ask, best first: ``key = (EV, p, ...)`` of the module docstring."""
        st = self.state
        tr = self.tracker
        hold = tr.holdings()
        s = self.settings
        S = tr.S
        own = st.hands[self.seat] or set()
        stock = st.stock_count
        scored = []
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
            scored.append(((ev, p, -a.target, a.rank), a))
        scored.sort(key=lambda x: x[0], reverse=True)
        return scored

    def _best_ask(self, asks: list[Ask]) -> Ask:
        """The ask by the setting ``order``: the best EV (``"ev"``), or ``peer``'s order of
        guesses on the exact chances (``"held"``): a certain hit by EV first, else among the
        plausible asks (a chance of a hit at least ``PLAUSIBLE`` times the best) the rank held
        most, a rank already asked for breaking ties, then the chance."""
        scored = self._ev(asks)
        if self.settings["order"] == "ev" or scored[0][0][1] >= 1.0 - 1e-12:
            return scored[0][1]
        floor = PLAUSIBLE * max(k[1] for k, _ in scored) - 1e-12
        own = self.state.hands[self.seat] or set()
        held = {a.rank: sum(1 for c in own if c[0] == a.rank) for _, a in scored}
        return max(((held[a.rank], a.rank in self.asked, k), a) for k, a in scored
                   if k[1] >= floor)[1]

    def _search(self, asks: list[Ask], rng: np.random.Generator, approx: bool = False) -> Ask | None:
        """The look-ahead (setting ``search``): among the ``search_width`` asks of best EV,
        the one whose play-outs to the end of phase 1 win most often. ``search`` worlds are
        drawn from the exact posterior (:meth:`GoFishBelief.sample_hidden`), with the stock
        in a random order; every candidate is played out in the same worlds, then every seat
        plays the count-level ``peer`` (:mod:`.rollout`). The score of a play-out is
        this seat's result (1 a win, 0.5 a shared first place, 0 a loss) plus 0.01 per book
        of margin over the best other seat.

        With ``approx`` (the tracker could only sample: ``sampled: "search"``) the candidates
        are ranked by ``peer``'s chance of a hit and the worlds come from the draw engine's
        sampler (``sampled_worlds: "chain"``) or fit the public memory only
        (:func:`.rollout.memory_worlds`, ``"memory"``). Without it the worlds are exact
        posterior draws (the memory's, should the tracker have none).

        Returns ``None`` (use the EV) when a hit is certain (it keeps the turn: the look-ahead
        could only delay it), with a single candidate, or when no world fits.
        """
        tr = self.tracker
        if approx:
            mine = {r: sum(1 for c in self.state.hands[self.seat] or () if c[0] == r) for r in tr.ranks}
            ranked = sorted((((self.peer.hit_chance(a.target, a.rank, mine), mine[a.rank]), a) for a in asks),
                            key=lambda x: x[0], reverse=True)
            certain = ranked[0][0][0] >= 1.0 - 1e-12
        else:
            ranked = self._ev(asks)
            certain = ranked[0][0][1] >= 1.0 - 1e-12
        if certain or len(ranked) == 1:
            return None
        cands = [a for _, a in ranked[:max(1, self.settings["search_width"])]]
        if len(cands) == 1:
            return cands[0]
        n_worlds = int(self.settings["search"])
        seed = int(rng.integers(2 ** 62))
        worlds = tr.sample_hidden(n_worlds, rng) \
            if not approx or self.settings["sampled_worlds"] == "chain" else None
        st = self.state
        ri = tr.rank_index
        me = self.seat
        own = [0] * tr.R
        for c in st.hands[me] or ():
            own[ri[c[0]]] += 1
        lo = [[self.peer.lo[s][r] for r in tr.ranks] for s in range(tr.players)]
        lacks = [[self.peer.lacks[s].get(r, -1) for r in tr.ranks] for s in range(tr.players)]
        base_mem = Memory(lo, lacks)
        if worlds is None:
            worlds = memory_worlds(n_worlds, own, list(st.sizes), st.stock_count, base_mem,
                                   {ri[r] for r in st.book_at}, sum(st.hidden_books), me, tr.S,
                                   random.Random(seed - 1))
            if not worlds:
                return None
        books0 = st.books_per_seat()
        give_all = tr.options["give"] == "all"
        face_up = bool(tr.options["books_face_up"])
        score = [0.0] * len(cands)
        for w, world in enumerate(worlds):
            stock = [r for r, k in enumerate(world["stock"]) for _ in range(k)]
            random.Random(seed + w).shuffle(stock)
            for i, a in enumerate(cands):
                hands = [own[:] if s == me else list(world[s]) for s in range(tr.players)]
                books = play_out(hands, stock[:], list(books0), base_mem.copy(), me, tr.S,
                                 random.Random(seed + w), first=(a.target, ri[a.rank]),
                                 give_all=give_all, face_up=face_up)
                best_other = max(b for s, b in enumerate(books) if s != me)
                mine = books[me]
                score[i] += (1.0 if mine > best_other else 0.5 if mine == best_other else 0.0) \
                    + 0.01 * (mine - best_other)
        return cands[max(range(len(cands)), key=lambda i: (score[i], -i))]

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
