"""Belief tracking for contract rummy from one player's view.

**What is counted.** Each hand is a new deal, so the belief is about the hand being played.
A *consistent history* of it is: an assignment of the physical cards the observer has not
located (copies of a card are distinct physical cards that records do not tell apart) to
the other seats' dealt hands (as sets), to each draw the observer did not see (in order) and
to the stock (as a set); the shuffled order of each restock (likewise: unseen draws in
order, the rest as a set); and, for every card another player showed (a discard, a meld, a
lay-off, the hands shown at the end), which physical copy it was. Histories that make every
event legal are the consistent ones; all are equally likely (the constraint-only posterior,
``shared/spec/records.md``: "all consistent deals are equally likely", with copies counted as
the distinct cards they are). Counting which copy was shown is what a player choosing a
physical card at random would do; it makes the posterior of the cards not yet shown exactly
multivariate hypergeometric within each *pool* (below), which ``tests/test_carioca_belief.py``
checks against a brute-force enumeration of histories on a small pack.

**Method** (exact integers). The cards an observer cannot place come from *pools*: pool 0 is
the pack less the observer's dealt hand and the card turned up; each restock starts a new
pool, the restocked discards (a known multiset) in an unknown order. Every hidden card of
another seat sits in a *slot* of one pool (dealt or drawn before or after a restock), and
the stock holds the rest of each pool. Cards of one pool are exchangeable, so a **state**
is, per other seat and pool, how many slots it holds, the cards it holds publicly (discards
it took or stole), and per pool which cards are not yet placed. Each event maps states to
states with integer multiplicities:

* another seat's unseen draw (or penalty card) from pool ``p``: ``n_sp + 1`` (the drawn card
  joins its ``p`` slots);
* the observer's own draw of card ``c`` from pool ``p``: ``M_p[c]`` (which copy);
* another seat shows ``c``: one branch per pool ``p`` with a slot there (``M_p[c]`` copies of
  ``c`` unplaced), and one for a publicly held copy (``known[s][c]`` copies);
* a take or a steal: the card joins that seat's public cards; a restock: a new pool.

The number of consistent histories of a state is ``W * prod_p |M_p|! / (prod_s n_sp! * S_p!)``
(``S_p`` the stock cards of pool ``p``), its posterior weight; summed, the exact count
(:attr:`CariocaBelief.consistent_deals`). Given a state, the cards of each pool are dealt
uniformly into its slots and stock: per card and seat the expected copies are
``sum_p n_sp M_p[c] / |M_p|`` and the chance of none is the product over pools of the
hypergeometric ``C(|M_p| - M_p[c], n_sp) / C(|M_p|, n_sp)``. :meth:`CariocaBelief.sample_worlds`
draws complete worlds (every hand, the stock in order) exactly from this posterior.

**Beyond the constraints** (``model``): the choices players make (take, pass, steal, which
card to discard) say what they collect. With a player model of :mod:`.models` (fitted to
``peer`` or ``belief`` players by maximum likelihood, :class:`~cardmind.belief.models.SoftmaxChoice`),
the tracker samples worlds from the exact posterior and weighs each by the likelihood of
every choice the other seats made this hand (:func:`~cardmind.belief.models.importance_weights`);
answers are then weighted means with standard errors and the effective sample size.

**Opponents.** For every other seat: the chance that it can go down, and that it can go
out, by the end of its next turn. In each sampled world the table is played forward to the
end of that turn (:meth:`CariocaBelief.round_ahead`): the seats take and steal the discards
that join their near-melds and discard as ``peer`` does, so a seat's cards at its turn count
the discards it steals before it (with their penalty cards) and the discard it may take on
its turn, or the stock card it would draw. The answer is the mean over ``samples`` sampled
worlds with its standard error; a seat on turn that has drawn already, with at most
``exact_hidden`` hidden cards, is enumerated exactly (its hand now is what counts).
(Counting only the card on offer and the next stock card, as this did before issue 24,
rated 1-2% the chance of seats that went down 8-10% of the time: ``docs/calibration.md``.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from ...belief.blocks import randbelow
from ...belief.tracker import Tracker
from ...errors import Contradiction
from .models import decision_of
from .counting import (_combo_pool_part, _Filter, _p_at_least, _pool_at, _pool_hands,
                       can_go_down_out)
from .rules import deck_counts, hand_cards, sort_hand

#: the power of a player model's likelihood (measured: the fitted models at full strength are
#: overconfident; a fifth of their log-likelihood helps a little: docs/carioca.md)
TEMPER = 0.2
#: sampled worlds for the opponents' chances (and the player model)
DEFAULT_SAMPLES = 60
#: enumerate an opponent's hands exactly when it holds at most this many hidden cards (0: when
#: every card it holds is public; each hidden card multiplies the work by the cards unseen)
EXACT_HIDDEN = 0


class _TableAhead:
    """One world played forward by :meth:`CariocaBelief.round_ahead`: every seat's hand
    (``held``: a ``Counter`` of cards per seat) and the stock in draw order (``stock``, drawn
    from index ``pos`` on; past its end a draw gives ``None``).

    Args:
        held: the hands now (changed in place).
        stock: the stock in draw order.
        penalty: the cards a steal brings from the stock (``steal_penalty``).
    """

    def __init__(self, held: list[Counter], stock: list[str], penalty: int):
        self.held, self.stock, self.penalty = held, stock, penalty
        self.pos = 0

    def draw(self) -> str | None:
        """The next stock card (``None`` once the stock is used up); the position moves on."""
        c = self.stock[self.pos] if self.pos < len(self.stock) else None
        self.pos += 1
        return c

    def next_stock_card(self) -> str | None:
        """The card the next draw would give, without drawing it."""
        return self.stock[self.pos] if self.pos < len(self.stock) else None

    def take_or_steal(self, card: str, order: list[int], turn: int,
                      wants: Callable[[int, str], bool]) -> str | None:
        """The discard ``card`` on offer to the seats of ``order``: the first that ``wants``
        it (``wants(seat, card) -> bool``) gets it. The seat on ``turn`` takes it: returns
        ``card``; another seat steals it, with ``penalty`` cards drawn from the stock: returns
        ``None`` (as when nobody wants it)."""
        held = self.held
        for r in order:
            if not wants(r, card):
                continue
            if r == turn:
                return card
            held[r][card] += 1
            for _ in range(self.penalty):
                c = self.draw()
                if c is not None:
                    held[r][c] += 1
            return None
        return None

    def take_or_draw(self, seat: int, took: str | None) -> None:
        """``seat`` adds the card it took, or (``took`` is ``None``) draws the next stock card."""
        if took is not None:
            self.held[seat][took] += 1
        else:
            c = self.draw()
            if c is not None:
                self.held[seat][c] += 1


class CariocaBelief(Tracker):
    """The posterior of one observer in a contract rummy game (see the module docstring).

    Args:
        options: the game's options (parsed or raw).
        observer: the observer's seat.
        hand: the observer's dealt cards (first hand; later hands come in ``deal`` events).
        model: the player model weighing the consistent histories: ``"auto"`` (the default:
            each other seat weighed by the fitted model, ``peer``, ``belief`` or none, that best
            explains its choices this hand: :meth:`seat_models`), ``"uniform"`` (the
            constraint-only posterior, exact), ``"peer"`` or ``"belief"`` (see :mod:`.models`).
        samples: worlds sampled for the opponents' chances and for a player model.
        seed: seed of the sampler (results are reproducible).
        exact_hidden: enumerate an opponent's possible hands exactly (its chances to go down
            and out) when it has at most this many hidden cards and is on turn having drawn.
        ahead: the opponents' chances count the discards a seat may steal or take by its next
            turn (:meth:`round_ahead`, the default); ``False``: only its hand, the card on offer
            now and the stock card it would draw (the count before issue 24, which the ``belief``
            player's own danger estimate keeps: ``docs/carioca.md``).
        temper: the power of the player model's likelihood (1: the model as fitted; below 1
            flattens the weights, a guard against a model that fits the players imperfectly;
            default :data:`TEMPER`).
        recent: weigh only each other seat's last ``recent`` choices (``None``: all this hand).

    Raises:
        IllegalAction: (from :meth:`observe`) an event that breaks the rules.
        Contradiction: (from :meth:`observe` and the queries) no history fits the events.
    """

    def __init__(self, options: Mapping[str, Any], observer: int, hand: Iterable[str], up: str | None = None,
                 model: str = "auto", samples: int = DEFAULT_SAMPLES, seed: int = 0,
                 exact_hidden: int = EXACT_HIDDEN, temper: float = TEMPER, recent: int | None = None,
                 ahead: bool = True):
        from ...core import get_game  # noqa: PLC0415

        self.game = get_game("carioca")
        self.options = self.game.parse_options(options)
        self.players = self.options["players"]
        if not 0 <= observer < self.players:
            raise ValueError(f"observer {observer} is not a seat (0-{self.players - 1})")
        from .models import MODELS  # noqa: PLC0415

        if model not in MODELS:
            raise ValueError(f"unknown contract rummy player model {model!r} (models: {', '.join(MODELS)})")
        if up is None:
            raise ValueError("the contract rummy tracker needs the card turned up ('up' of the record's header)")
        self.model = model
        self.temper = float(temper)
        self.recent = recent
        self.samples = int(samples)
        self.seed = int(seed)
        self.exact_hidden = int(exact_hidden)
        self.ahead = bool(ahead)
        self.observer = observer
        self.hand = list(hand)
        self.up = up
        self.state = self.game.new_state(self.options, {"observer": observer, "hand": list(self.hand), "up": up})
        self.deck = deck_counts(self.options)
        self.events: list[dict] = []
        self._new_filter(self.hand, up)
        self._cache: dict[str, Any] = {}

    @classmethod
    def from_record(cls, record, seat: int | None = None, upto_event: int | None = None, **settings: Any):
        """As :meth:`Tracker.from_record`, passing the header's ``up`` (the card turned up)."""
        from ...belief.tracker import record_view  # noqa: PLC0415
        from ...errors import IllegalAction, RecordError  # noqa: PLC0415

        view, seat = record_view(record, seat)
        tracker = cls(view.options, seat, view.header["hand"], up=view.header["up"], **settings)
        events = view.events[:upto_event]
        # the hands before the last deal only need the rules (each hand's belief starts afresh)
        last_deal = max((i for i, ev in enumerate(events) if ev["type"] == "deal"), default=-1)
        for i, ev in enumerate(events):
            try:
                tracker.observe(ev, track=i >= last_deal)
            except IllegalAction as exc:
                raise RecordError(record.path, record.line_of(i), f"illegal {ev['type']}: {exc.message} "
                                                                  f"(rule: {exc.rule})", exc.rule) from None
            except Contradiction as exc:
                raise RecordError(record.path, record.line_of(i), f"no deal is consistent with the record after "
                                                                  f"this {ev['type']} event: {exc.message}",
                                  "contradiction") from None
        return tracker

    def _new_filter(self, hand: Iterable[str], up: str) -> None:
        st = self.state
        self.filter = _Filter(self.deck, self.observer, self.players, hand, up,
                              hand_cards(self.options, st.hand_no), st.stock_count)
        self.hand_events: list[dict] = []
        #: ``(index in hand_events, decision)`` of every choice another seat made this hand
        #: (:func:`.models.decision_of`), for the player models
        self.decisions: list[tuple[int, dict]] = []

    # ------------------------------------------------------------------ events
    def observe(self, event: Mapping[str, Any], track: bool = True) -> None:
        """Add one event as the observer saw it (checked against the rules first).

        Args:
            event: the event.
            track: update the belief too (``False``: only the rules, for an event of a hand that
                a later ``deal`` event will end anyway; the belief then starts afresh).

        Raises:
            IllegalAction: the event breaks a rule.
            Contradiction: no history is consistent with it (the tracker is then unusable).
        """
        ev = dict(event)
        before = self.state
        if not track:
            before.apply_event(ev)
            self.events.append(ev)
            if ev["type"] == "deal":
                self._new_filter(ev["hands"][self.observer], ev["up"])
            self._cache = {}
            return
        after = before.copy()
        after.apply_event(ev)
        f = self.filter
        o = self.observer
        t = ev["type"]
        p = ev.get("player")
        if t in ("take", "steal") and p != o:
            f.take(p, ev["card"])
        if t == "steal":
            if p == o:
                f.own_draw(ev["penalty"])
            else:
                f.hidden_draw(p, self.options["steal_penalty"])
        elif t == "draw":
            if p == o:
                f.own_draw([ev["card"]])
            else:
                f.hidden_draw(p)
        elif t == "restock":
            f.restock(before.pile[:-1])
        elif t == "go_down" and p != o:
            for m in ev["melds"]:
                for c in m["cards"]:
                    f.reveal(p, c)
        elif t in ("lay_off", "discard") and p != o:
            f.reveal(p, ev["card"])
        elif t == "hand_end":
            for s, h in enumerate(ev["hands"]):
                if s != o and h is not None:     # a hand not shown (a player's record): its score only
                    for c in h:
                        f.reveal(s, c)
        if p is not None and p != o:
            d = decision_of(before, ev)
            if d is not None:
                self.decisions.append((len(self.hand_events), d))
        self.state = after
        self.events.append(ev)
        self.hand_events.append(ev)
        if t == "deal":
            self._new_filter(ev["hands"][o], ev["up"])
        self._cache = {}

    # ------------------------------------------------------------------ the exact posterior
    def _weighted(self) -> list[tuple[tuple, int]]:
        w = self._cache.get("weighted")
        if w is None:
            w = self.filter.weighted()
            if not w or sum(x for _, x in w) == 0:
                raise Contradiction("no history is consistent with the events")
            self._cache["weighted"] = w
        return w

    @property
    def consistent_deals(self) -> int:
        """The exact number of consistent histories of the hand being played (see the module
        docstring); raises :class:`~cardmind.errors.Contradiction` when it is zero."""
        return sum(x for _, x in self._weighted())

    @property
    def exact(self) -> bool:
        """Whether the card probabilities are exact (the constraint-only posterior) rather than
        weighted by a sampled player model (``auto``: exact while no seat is weighed by a model)."""
        if self.model == "auto":
            return all(m == "uniform" for m in self.seat_models().values())
        return self.model == "uniform"

    def seat_models(self) -> dict[int, str]:
        """The player model each other seat is weighed by: the ``model`` asked for, or for
        ``auto`` the one of :data:`.models.AUTO_MODELS` whose likelihood of the seat's choices
        this hand (as fitted, before :attr:`temper`), averaged over the sampled worlds of the exact posterior, is
        highest (the marginal likelihood, an importance-sampling estimate; ties go to the first
        of ``peer``, ``belief``, ``uniform``); ``uniform`` for a seat that chose nothing yet."""
        others = [s for s in range(self.players) if s != self.observer]
        if self.model != "auto":
            return {s: self.model for s in others}
        hit = self._cache.get("seat_models")
        if hit is not None:
            return hit
        chose = {d["seat"] for _, d in self.decisions}
        if not chose & set(others):
            out = {s: "uniform" for s in others}
            self._cache["seat_models"] = out
            self._cache["model_fit"] = {}
            return out
        from .models import AUTO_MODELS, seat_log_likelihoods_by_model  # noqa: PLC0415

        ws = self._cache.get("sampled")
        if ws is None:
            ws = self._cache["sampled"] = self.sample_worlds(self.samples, self._rng(1))
        by_seat = seat_log_likelihoods_by_model(self, ws, {s: AUTO_MODELS for s in others if s in chose},
                                                recent=self.recent)
        per = {m: {s: by_seat[s][m] for s in by_seat} for m in AUTO_MODELS}
        fit: dict[int, dict[str, float]] = {}
        out = {}
        for s in others:
            if s not in chose:
                out[s] = "uniform"
                continue
            fit[s] = {}
            for m in AUTO_MODELS:
                lw = per[m][s]
                top = float(lw.max())
                fit[s][m] = round(top + float(np.log(np.mean(np.exp(lw - top)))), 6)
            out[s] = max(AUTO_MODELS, key=lambda m: (fit[s][m], -AUTO_MODELS.index(m)))
        self._cache["seat_models"] = out
        self._cache["model_fit"] = fit
        self._cache["seat_ll"] = per
        return out

    def model_fit(self) -> dict[int, dict[str, float]]:
        """For ``auto``: per seat that chose something this hand, the log marginal likelihood
        of its choices under each model :meth:`seat_models` compared (empty otherwise)."""
        if self.model != "auto":
            return {}
        self.seat_models()
        return self._cache.get("model_fit", {})

    def hand_over(self) -> bool:
        """Whether the hand being tracked has ended (its hands were shown; the next is not dealt yet)."""
        return self.state.phase in ("deal", "over")

    def unseen(self) -> Counter:
        """Copies of every card the observer cannot place now (in other hands, unseen, or the
        stock); empty once the hand has ended (every hand was shown)."""
        st = self.state
        if self.hand_over():
            return Counter()
        loc = Counter(st.pile)
        loc.update(st.table_counts())
        loc.update(st.hands[self.observer])
        for s in range(self.players):
            if s != self.observer:
                loc.update(st.known[s])
        out = Counter(self.deck)
        out.subtract(loc)
        return +out

    def known_cards(self) -> dict[int, list[str]]:
        """Per other seat, the cards everyone knows it holds now (discards it took or stole and
        has not played)."""
        return {s: sort_hand(self.state.known[s].elements()) for s in range(self.players) if s != self.observer}

    def stock_expected(self) -> dict[str, float]:
        """Expected copies of every unseen card in the stock (exact posterior; cheaper than
        :meth:`holdings_exact`)."""
        hit = self._cache.get("stock_expected")
        if hit is not None:
            return hit
        f = self.filter
        weighted = self._weighted()
        total = sum(x for _, x in weighted)
        acc = [0.0] * f.T
        for (_, _, pools), x in weighted:
            wt = x / total
            for p, pool in enumerate(pools):
                n, size = f.stock[p], sum(pool)
                if n and size:
                    k = wt * n / size
                    for i, m in enumerate(pool):
                        if m:
                            acc[i] += k * m
        out = {f.types[i]: v for i, v in enumerate(acc) if v > 0}
        self._cache["stock_expected"] = out
        return out

    def holdings_exact(self) -> dict[str, dict[str, dict[str, float]]]:
        """The constraint-only posterior of every unseen card: ``{card: {place: {"expected":
        copies, "p_any": P(at least one copy)}}}`` for ``place`` each other seat (as a string)
        and ``"stock"``. For a seat, both count only the copies beyond those everyone knows it
        holds (:meth:`known_cards`): ``p_any`` is the chance it holds more copies than those."""
        hit = self._cache.get("holdings_exact")
        if hit is not None:
            return hit
        f = self.filter
        weighted = self._weighted()
        total = sum(x for _, x in weighted)
        unseen = self.unseen()
        st = self.state
        acc = {c: {pl: [0.0, 0.0] for pl in [str(s) for s in f.others] + ["stock"]} for c in unseen}
        for (slots, known, pools), x in weighted:
            wt = x / total
            sizes = [sum(pool) for pool in pools]
            for c in unseen:
                i = f.index[c]
                for k, s in enumerate(f.others):
                    fk = dict(known[k]).get(i, 0)
                    groups = [(slots[k][p], pool[i], sizes[p]) for p, pool in enumerate(pools)]
                    e = fk + sum(n * m / t for n, m, t in groups if n and t)
                    need = st.known[s][c] + 1 - fk       # hidden copies that make more than the known ones
                    a = acc[c][str(s)]
                    a[0] += wt * (e - st.known[s][c])
                    a[1] += wt * _p_at_least(groups, need)
                groups = [(f.stock[p], pool[i], sizes[p]) for p, pool in enumerate(pools)]
                a = acc[c]["stock"]
                a[0] += wt * sum(n * m / t for n, m, t in groups if n and t)
                a[1] += wt * _p_at_least(groups, 1)
        out = {c: {pl: {"expected": v[0], "p_any": v[1]} for pl, v in acc[c].items()} for c in sort_hand(unseen)}
        self._cache["holdings_exact"] = out
        return out

    # ------------------------------------------------------------------ sampling worlds
    def sample_worlds(self, k: int, rng: np.random.Generator) -> list[tuple[list[list[str]], list[str]]]:
        """``k`` complete worlds drawn exactly from the constraint-only posterior: ``(hands, stock)``
        with every seat's hand now (the observer's own, the others' public and hidden cards)
        and the stock in draw order."""
        f = self.filter
        weighted = self._weighted()
        weights = [x for _, x in weighted]
        total = sum(weights)
        st = self.state
        out = []
        for _ in range(k):
            r = randbelow(rng, total)
            for j, x in enumerate(weights):
                if r < x:
                    break
                r -= x
            slots, known, pools = weighted[j][0]
            hands = [None] * self.players
            stock: list[str] = []
            extra = [[] for _ in f.others]
            for p, pool in enumerate(pools):
                items = [f.types[i] for i, m in enumerate(pool) for _ in range(m)]
                order = rng.permutation(len(items))
                items = [items[q] for q in order]
                pos = 0
                for kk in range(len(f.others)):
                    n = slots[kk][p]
                    extra[kk].extend(items[pos:pos + n])
                    pos += n
                stock.extend(items[pos:pos + f.stock[p]])
            for kk, s in enumerate(f.others):
                hands[s] = sort_hand([f.types[i] for i, m in known[kk] for _ in range(m)] + extra[kk])
            hands[self.observer] = sort_hand(st.hands[self.observer].elements())
            out.append((hands, stock))
        return out

    def _rng(self, salt: int = 0) -> np.random.Generator:
        return np.random.default_rng([self.seed, len(self.events), salt])

    def worlds(self) -> tuple[list, np.ndarray | None]:
        """The sampled worlds the answers beyond the exact posterior use (cached per event), and
        their player-model log-weights (``None`` for the uniform model)."""
        hit = self._cache.get("worlds")
        if hit is not None:
            return hit
        logw = None
        if self.model == "auto":
            models = self.seat_models()
            ws = self._cache.get("sampled")
            if ws is None:
                ws = self._cache["sampled"] = self.sample_worlds(self.samples, self._rng(1))
            per = self._cache.get("seat_ll")
            if not self.exact and per is not None:
                logw = np.zeros(len(ws))
                for s, m in models.items():
                    if m != "uniform" and s in per[m]:
                        logw = logw + self.temper * per[m][s]
        else:
            ws = self.sample_worlds(self.samples, self._rng(1))
            if self.model != "uniform":
                from .models import world_log_likelihoods  # noqa: PLC0415

                logw = self.temper * world_log_likelihoods(self, ws, self.model, recent=self.recent)
        self._cache["worlds"] = (ws, logw)
        return ws, logw

    def holdings(self) -> dict[str, dict[str, dict[str, float]]]:
        """The posterior of every unseen card under :attr:`model` (exact for ``"uniform"``; for a
        player model the weighted mean over the sampled worlds, with ``"stderr"`` of ``p_any``)."""
        if self.exact:
            return self.holdings_exact()
        hit = self._cache.get("holdings_model")
        if hit is not None:
            return hit
        from ...belief.models import weighted_mean  # noqa: PLC0415

        ws, logw = self.worlds()
        unseen = sort_hand(self.unseen())
        others = [s for s in range(self.players) if s != self.observer]
        places = [str(s) for s in others] + ["stock"]
        st = self.state
        vals = np.zeros((len(ws), len(unseen), len(places), 2))
        for j, (hands, stock) in enumerate(ws):
            sc = Counter(stock)
            for pi, s in enumerate(others):
                h = Counter(hands[s])
                h.subtract(st.known[s])
                for ci, c in enumerate(unseen):
                    vals[j, ci, pi] = (h[c], h[c] > 0)
            for ci, c in enumerate(unseen):
                vals[j, ci, len(others)] = (sc[c], sc[c] > 0)
        mean, se, ess = weighted_mean(vals, logw)
        out = {}
        for ci, c in enumerate(unseen):
            out[c] = {pl: {"expected": float(mean[ci, pi, 0]), "p_any": float(mean[ci, pi, 1]),
                           "stderr": float(se[ci, pi, 1])} for pi, pl in enumerate(places)}
        self._cache["holdings_model"] = out
        self._cache["ess"] = ess
        return out

    @property
    def ess(self) -> float | None:
        """The effective sample size of the player model's weights (``None`` when exact)."""
        if self.exact:
            return None
        self.holdings()
        return self._cache.get("ess")

    # ------------------------------------------------------------------ opponents
    def next_card_index(self, seat: int) -> tuple[int, bool]:
        """``(k, offer)`` for ``seat``'s next turn: the stock card it would draw is the ``k``-th
        (0-based) if every player on turn before it drew from the stock; ``offer``: it may still
        take (or steal) the discard on offer now."""
        st = self.state
        n = self.players
        offer = st.phase == "offer" and seat in st.offer["order"]
        if st.phase == "play" and st.turn == seat:
            return -1, False         # it has drawn already: its hand now is what counts
        if st.phase == "offer" or st.phase == "draw":
            k = (seat - st.turn) % n
        else:
            k = (seat - st.turn - 1) % n
        return k, offer

    def opponent_chances(self) -> dict[int, dict[str, Any]]:
        """For every other seat: ``{"down": bool, "p_go_down", "p_go_out", "stderr_down",
        "stderr_out", "exact": bool, "samples"}``: the chance it can go down (1 when it is down
        already) and go out by the end of its next turn, the discards it may steal or take by
        then counted (:meth:`round_ahead`; see the module docstring)."""
        hit = self._cache.get("opponents")
        if hit is not None:
            return hit
        st = self.state
        out: dict[int, dict[str, Any]] = {}
        for s in range(self.players):
            if s == self.observer:
                continue
            hidden = st.sizes[s] - sum(st.known[s].values())
            if st.over or st.phase in ("hand_end", "deal"):
                out[s] = {"down": st.down[s], "p_go_down": 0.0, "p_go_out": 0.0, "stderr_down": 0.0,
                          "stderr_out": 0.0, "exact": True, "samples": 0}
                continue
            if hidden <= self.exact_hidden and self.exact and (not self.ahead or self.next_card_index(s)[0] < 0):
                out[s] = self._chances_exact(s)
            else:
                out[s] = self._chances_sampled(s)
        self._cache["opponents"] = out
        return out

    def _outcomes(self, seat: int, hand: Counter, extra: list[str | None]) -> tuple[float, float]:
        """Whether ``seat`` holding ``hand`` can go down / out with one of the ``extra`` cards
        (``None``: no card, it has drawn already)."""
        st = self.state
        down = out = 0.0
        memo = self._cache.setdefault("outcomes", {})
        for x in extra:
            h = Counter(hand)
            if x is not None:
                h[x] += 1
            key = (seat, tuple(sorted(h.items())))
            hit = memo.get(key)
            if hit is None:
                hit = memo[key] = can_go_down_out(st, seat, h)
            d, o = hit
            down = max(down, d)
            out = max(out, o)
            if down and out:
                break
        return down, out

    def _extra_cards(self, seat: int, stock: list[str]) -> list[str | None]:
        """The cards ``seat`` may get by its next turn ignoring the discards still to come (the
        stock card it would draw, the discard on offer it may still take): what
        :meth:`_chances_exact` reads."""
        k, offer = self.next_card_index(seat)
        if k < 0:
            return [None]
        cards: list[str | None] = []
        if k < len(stock):
            cards.append(stock[k])
        if offer:
            cards.append(self.state.offer["card"])
        return cards or [None]

    def round_ahead(self, hands: list[list[str]], stock: list[str]) -> dict[int, tuple[float, float]]:
        """In one world (every hand now, the stock in draw order): the table played forward to
        the end of every other seat's next turn, and ``{seat: (can go down, can go out)}`` at
        that turn (1.0 or 0.0; a seat on turn that has drawn: its hand now).

        The seats play as ``peer`` does (``agents/peer.py``: the rebuild of the published bots,
        the measured pace of the game's players): each discard on offer is taken by the
        player on turn, or stolen by the first seat in the offer's order, when it joins a meld
        or near-meld of that seat's hand (once down: when it fits a meld on the table); a steal
        brings the ``steal_penalty`` cards from the stock; a seat that did not take draws the
        next stock card; each turn ends with ``peer``'s discard from the hand then held. At its
        own turn a seat *can* go down (out) with the cards it holds then (its steals and their
        penalty cards included) plus the card it takes, or the stock card it would draw
        (either: the better of the two).
        """
        from .agents.peer import JOINS, fits_table, hand_discard, just_taken, synergy  # noqa: PLC0415 (agents import this module)

        st = self.state
        n = self.players
        sets, runs = st.sets > 0, st.runs > 0
        table = _TableAhead([Counter(h) for h in hands], stock, self.options["steal_penalty"])
        held = table.held
        out: dict[int, tuple[float, float]] = {}
        want = [s for s in range(n) if s != self.observer]

        def wants(seat: int, card: str) -> bool:
            if st.down[seat]:
                return fits_table(st, card)
            return synergy(card, held[seat], sets, runs) >= JOINS

        q = st.turn
        phase = st.phase
        offer = (st.offer["card"], list(st.offer["order"])) if phase == "offer" else None
        for _ in range(n + 1):
            if phase == "play":
                took = just_taken(st, q)
                if q != self.observer and q not in out:
                    out[q] = self._outcomes(q, held[q], [None])
            else:
                took = None if offer is None else table.take_or_steal(offer[0], offer[1], q, wants)
                nxt = table.next_stock_card()
                if q != self.observer and q not in out:
                    extra = [x for x in (nxt, offer[0] if offer is not None and q in offer[1] else None)
                             if x is not None]
                    out[q] = self._outcomes(q, held[q], extra or [None])
                table.take_or_draw(q, took)
            if all(s in out for s in want):
                break
            if sum(held[q].values()) == 0:
                break
            card = hand_discard(held[q], sets, runs, self.options, took)
            held[q][card] -= 1
            offer = (card, [(q + i) % n for i in range(1, n)])
            q = (q + 1) % n
            phase = "offer"
        return out

    def _chances_sampled(self, seat: int) -> dict[str, Any]:
        ws, logw = self.worlds()
        vals = np.zeros((len(ws), 2))
        if self.ahead:
            rounds = self._cache.get("round_ahead")
            if rounds is None:
                rounds = self._cache["round_ahead"] = [self.round_ahead(hands, stock) for hands, stock in ws]
            for j in range(len(ws)):
                vals[j] = rounds[j].get(seat, (0.0, 0.0))
        else:
            for j, (hands, stock) in enumerate(ws):
                vals[j] = self._outcomes(seat, Counter(hands[seat]), self._extra_cards(seat, stock))
        if logw is None:
            mean = vals.mean(axis=0)
            se = np.sqrt(mean * (1 - mean) / max(1, len(ws)))
        else:
            from ...belief.models import weighted_mean  # noqa: PLC0415

            mean, se, _ = weighted_mean(vals, logw)
        return {"down": self.state.down[seat], "p_go_down": float(mean[0]), "p_go_out": float(mean[1]),
                "stderr_down": float(se[0]), "stderr_out": float(se[1]), "exact": False, "samples": len(ws)}

    def _chances_exact(self, seat: int) -> dict[str, Any]:
        """Enumerate ``seat``'s hidden cards (per state, per pool: multivariate hypergeometric) and
        the card it would draw (uniform over the rest of its pool, by exchangeability)."""
        f = self.filter
        k = f.k[seat]
        weighted = self._weighted()
        total = sum(x for _, x in weighted)
        st = self.state
        idx, offer = self.next_card_index(seat)
        pd = po = 0.0
        for (slots, known, pools), x in weighted:
            wt = x / total
            base = Counter({f.types[i]: m for i, m in known[k]})
            for combo, prob in _pool_hands(f, slots[k], pools):
                hand = base + combo
                if idx < 0:
                    d, o = self._outcomes(seat, hand, [None])
                else:
                    # the stock card at position idx: from the pool it falls in, uniform over its
                    # cards not in this seat's hand (the stock and the other slots are exchangeable)
                    p = _pool_at(f.stock, idx)
                    draws: list[tuple[str | None, float]] = []
                    if p is None:
                        draws = [(None, 1.0)]
                    else:
                        left = Counter({f.types[i]: m for i, m in enumerate(pools[p]) if m})
                        mine = _combo_pool_part(combo, slots[k], pools, p, f)
                        left.subtract(mine)
                        left = +left
                        tot = sum(left.values())
                        draws = [(c, m / tot) for c, m in left.items()] if tot else [(None, 1.0)]
                    d = o = 0.0
                    offer_card = st.offer["card"] if offer else None
                    for c, q in draws:
                        dd, oo = self._outcomes(seat, hand, [c] + ([offer_card] if offer_card else []))
                        d += q * dd
                        o += q * oo
                pd += wt * prob * d
                po += wt * prob * o
        return {"down": st.down[seat], "p_go_down": pd, "p_go_out": po, "stderr_down": 0.0,
                "stderr_out": 0.0, "exact": True, "samples": 0}

    # ------------------------------------------------------------------ output
    def to_json(self) -> dict[str, Any]:
        """The belief object of ``cardmind belief --json`` (``docs/carioca.md``)."""
        st = self.state
        opp = self.opponent_chances()
        hold = self.holdings()
        out = {
            "game": "carioca", "observer": self.observer, "hand": st.hand_no,
            "contract": {"sets": st.sets, "runs": st.runs},
            "consistent_deals": self.consistent_deals, "exact": self.exact, "model": self.model,
            "states": len(self.filter.states), "hand_sizes": list(st.sizes), "stock": st.stock_count,
            "your_hand": sort_hand(st.hands[self.observer].elements()),
            "known": {str(s): v for s, v in self.known_cards().items()},
            "out_of_play": {"table": [{"owner": m["owner"], "kind": m["kind"], "cards": list(m["cards"])}
                                      for m in st.table], "pile": list(st.pile)},
            "unseen": dict(sorted(self.unseen().items())),
            "holdings": hold,
            "opponents": {str(s): v for s, v in opp.items()},
        }
        out["models"] = {str(s): m for s, m in self.seat_models().items()}
        if self.model == "auto":
            out["model_fit"] = {str(s): v for s, v in self.model_fit().items()}
        if not self.exact:
            out["ess"] = self.ess
            out["samples"] = self.samples
        return out

__all__ = ["CariocaBelief", "DEFAULT_SAMPLES", "EXACT_HIDDEN", "can_go_down_out"]
