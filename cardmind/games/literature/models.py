"""Player models for Literature: how likely each ask was, given what the asker could see.

The constraint-only posterior (``uniform``) counts every consistent deal alike. A player
model weighs each deal by the likelihood of the asks the other players chose in it
(:mod:`cardmind.belief.models`):

    P(deal | events) ∝ [deal consistent] * prod over asks by others P(ask | asker's hand then)

**The ask model** (:class:`AskModel`, a sequential logit). An asker is taken to consider the
unclaimed sets one by one, in the order of their public promise (first the sets with a
*public hit*, a card handed to an opponent earlier and still there; then by the best
*share* of any of the set's asks, below); at each set it holds a card of, it stops with
probability

    π(set) = σ(θ · [1, held, best share, public hit, team known])   (:data:`STOP_FEATURES`)

where ``held`` is how many of the set's cards it holds and ``team known`` how many are
publicly at its teammates (/ 6); if it passes every set it starts again. Having stopped at a set, it picks one of the set's legal asks ``(card, target)`` by
a softmax ``exp(γ · x)`` over their public features (:data:`CARD_FEATURES`):

========================  ==============================================================
``public_hit``            the card was handed to the target earlier and is still there
``public_miss``           the target is publicly known not to hold it (the card is
                          publicly elsewhere, or the target refused it or asked for it
                          since it last moved)
``share``                 the target's share of the card's possible holders' unknown
                          slots (the hand sizes less the cards publicly at them)
``narrow``                ``1 / (possible holders - 1)``: what a miss would pin down
``target_asked_set``      the target asked within the set earlier (so it held a card of it)
========================  ==============================================================

Every feature but ``held`` (and which of a set's cards the asker may ask for: not its own
unless ``ask_own_card``) is public, computed once per ask (:class:`AskLedger`). ``θ`` and
``γ`` are fitted by maximum likelihood per kind of player (``random``, ``peer``, ``belief``,
``people``) by ``eval/fit_player_models.py`` from games whose hands are known; the files are
in ``cardmind/games/literature/player_models/``. A model may carry a tempering exponent
``λ`` (:attr:`AskModel.temper`: the likelihood is raised to ``λ``), fitted on other games.

**Why this form: it factors.** The probability of an ask is a product over sets of terms
that each depend on the deal only through how many of that set's cards the asker held: the
sets considered before the chosen one contribute ``1 - π`` (if the asker held one of their
cards), the chosen set ``π · P(this ask | set)``, the later sets nothing. The asker's count
of a set is a known number plus its count of the set's unknown cards, a usage of the set's
block, so the likelihood folds into the exact count as
:class:`~cardmind.belief.models.CountFactors` (:meth:`AskModel.count_terms`). Two parts do
not factor and are left out of the exact count: the restart (a factor ``1 / (1 - P(no set
chosen))``, near 1 when the asker holds cards of a set it would stop at) and which of the
set's unknown cards the asker holds (an ask for a card it holds is not legal; the count
terms use the set's average). Importance weighting
(:meth:`~.belief.LiteratureBelief.importance_posterior`) evaluates the exact likelihood
(:meth:`AskModel.log_likelihood`), drawing the deals from the factored posterior.

Claims and passes are taken as uninformative about the hidden cards: a claim shows where
its six cards were (a hard fact), and a pass only follows the public hand sizes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ...belief.models import CountFactors, SoftmaxChoice
from .rules import deal_sizes, deck_cards, set_names, set_of

#: the public features of an ask within its set (see the module docstring)
CARD_FEATURES = ("public_hit", "public_miss", "share", "narrow", "target_asked_set")
#: the features of a set's stop probability
STOP_FEATURES = ("bias", "held", "best_share", "public_hit", "team_known")
#: the player models a tracker can use, the constraint-only posterior first
MODEL_NAMES = ("uniform", "peer", "belief", "random", "people")
#: the name of the automatic choice (:class:`AutoChoice`): every other seat is weighed by the
#: fitted model that best explains its team's asks so far
AUTO = "auto"
#: the fitted models :data:`AUTO` chooses among
AUTO_MODELS = ("peer", "belief", "random")
#: the names a tracker's ``model`` takes (``Game.player_models``): :data:`AUTO` first, the default
MODEL_CHOICES = (AUTO, *MODEL_NAMES)
#: where the fitted models live (``<name>.json``)
MODEL_DIR = Path(__file__).resolve().parent / "player_models"
#: most cards of one set a seat can hold
MAX_COUNT = 6
_COUNTS = np.arange(MAX_COUNT + 1)[None, :]


@dataclass
class AskSituation:
    """One ask seen as a choice among the asks its asker could have made.

    Options are every ``(card, target)`` with the card in a set unclaimed then and the target
    an opponent of the asker with cards; which of them were legal depends on the asker's
    hand (the sets it held a card of; its own cards unless ``ask_own_card``).

    Attributes:
        t: the event's index (0-based).
        asker, target, card: the ask made.
        chosen: index of the ask made among the options.
        opt_card: per option, the card's index in deck order (shape ``(options,)``).
        opt_set: per option, the set's index in :func:`set_names` order.
        opt_target: per option, the target seat.
        public: per option, the public features (shape ``(options, len(CARD_FEATURES))``).
        sets: the indices of the sets unclaimed then.
        own_allowed: ``ask_own_card`` (a held card may be asked for).
        deck: the deck (``"54"`` or ``"48"``).
        order: the sets in the order the asker considers them (public hits first, then by
            best share, then canonical).
        best_share: per set index, the best share of its options (1 for a public hit).
        has_hit: per set index, whether one of its options is a public hit.
        team_known: per set index, its cards publicly at the asker's teammates (/ 6).
    """

    t: int
    asker: int
    target: int
    card: str
    chosen: int
    opt_card: np.ndarray
    opt_set: np.ndarray
    opt_target: np.ndarray
    public: np.ndarray
    sets: tuple[int, ...]
    own_allowed: bool
    deck: str
    order: tuple[int, ...] = ()
    best_share: np.ndarray = field(default_factory=lambda: np.zeros(0))
    has_hit: np.ndarray = field(default_factory=lambda: np.zeros(0))
    team_known: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def __post_init__(self) -> None:
        nsets = len(set_names(self.deck))
        best = np.zeros(nsets)
        hit = np.zeros(nsets)
        np.maximum.at(best, self.opt_set, self.public[:, 2])
        np.maximum.at(hit, self.opt_set, self.public[:, 0])
        self.best_share, self.has_hit = best, hit
        self.order = tuple(sorted(self.sets, key=lambda j: (-hit[j], -best[j], j)))

    @property
    def chosen_set(self) -> int:
        """The set of the ask made."""
        return int(self.opt_set[self.chosen])

    def stop_features(self, held: np.ndarray) -> np.ndarray:
        """Per world and set: :data:`STOP_FEATURES` (shape ``(worlds, sets, 5)``) given
        ``held[w, j]`` (cards of set ``j`` the asker held, shape ``(worlds, sets)``)."""
        w, k = held.shape
        out = np.empty((w, k, len(STOP_FEATURES)))
        out[..., 0] = 1.0
        out[..., 1] = held
        out[..., 2] = self.best_share[None, :]
        out[..., 3] = self.has_hit[None, :]
        out[..., 4] = self.team_known[None, :]
        return out

    def card_options(self, mine: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, int]:
        """The options of the chosen set: ``(indices into the options, legal mask per world,
        position of the ask made among them)``; ``mine[w, i]`` marks the cards the asker
        held (ignored under ``ask_own_card``); the mask has shape ``(worlds, options)``."""
        got = self.__dict__.get("_chosen_options")
        if got is None:
            idx = np.flatnonzero(self.opt_set == self.chosen_set)
            got = self.__dict__["_chosen_options"] = (idx, int(np.flatnonzero(idx == self.chosen)[0]))
        idx, pos = got
        if mine is None or self.own_allowed:
            legal = np.ones((1 if mine is None else len(mine), len(idx)), dtype=bool)
        else:
            legal = ~mine[:, self.opt_card[idx]]
        return idx, legal, pos


@lru_cache(maxsize=None)
def _set_index(deck: str) -> dict[str, int]:
    names = set_names(deck)
    return {c: names.index(set_of(c, deck)) for c in deck_cards(deck)}


class AskLedger:
    """The public information of a game, kept event by event, with every ask as an
    :class:`AskSituation` (public only: the same from every seat's view).

    Args:
        options: parsed Literature options.

    Attributes:
        situations: the asks so far, in order.
    """

    def __init__(self, options: Mapping[str, Any]):
        self.players, self.deck = options["players"], options["deck"]
        self.own = bool(options["ask_own_card"])
        cards = deck_cards(self.deck)
        self._cindex = {c: i for i, c in enumerate(cards)}
        self._names = set_names(self.deck)
        self._card_set = _card_set_array(self.deck)
        self.sizes = np.array(deal_sizes(self.players, self.deck))
        #: per card: the seat it was publicly handed to (still there), or -1
        self.holder = np.full(len(cards), -1)
        #: per card and seat: the seat is publicly known not to hold it (since it last moved)
        self.lacks = np.zeros((len(cards), self.players), dtype=bool)
        #: per card: its set is still unclaimed
        self.live = np.ones(len(cards), dtype=bool)
        self.claimed: set[int] = set()
        #: per seat and set: the seat asked within the set (it held a card of it then)
        self.asked_in = np.zeros((self.players, len(self._names)), dtype=bool)
        self.situations: list[AskSituation] = []
        self.t = 0

    def observe(self, ev: Mapping[str, Any]) -> None:
        """Take the next event (assumed legal)."""
        t, self.t = self.t, self.t + 1
        kind = ev["type"]
        if kind == "ask":
            self.situations.append(self._situation(t, ev))
            a, tg = ev["asker"], ev["target"]
            i = self._cindex[ev["card"]]
            self.asked_in[a, self._card_set[i]] = True
            if ev["success"]:
                self.holder[i] = a
                self.sizes[tg] -= 1
                self.sizes[a] += 1
                self.lacks[i] = False
            else:
                self.lacks[i, tg] = True
                if not self.own:
                    self.lacks[i, a] = True
        elif kind == "claim":
            j = self._names.index(ev["set"])
            self.claimed.add(j)
            for x, s in ev["actual"].items():
                self.sizes[s] -= 1
                i = self._cindex[x]
                self.holder[i] = -1
                self.live[i] = False
            self.asked_in[:, j] = False

    def _situation(self, t: int, ev: Mapping[str, Any]) -> AskSituation:
        a, tg = ev["asker"], ev["target"]
        players = self.players
        sizes, holder = self.sizes, self.holder
        seats = np.arange(players)
        sets = tuple(j for j in range(len(self._names)) if j not in self.claimed)
        targets = np.array([s for s in range(1 - a % 2, players, 2) if sizes[s] > 0])
        cards = np.flatnonzero(self.live)                                    # deck order: set by set
        h = holder[cards]
        located = np.bincount(holder[holder >= 0], minlength=players)
        free = np.maximum(0, sizes - located)
        open_ = (seats[None, :] != a) & (sizes[None, :] > 0) & ~self.lacks[cards]
        poss = np.where((h >= 0)[:, None], seats[None, :] == h[:, None], open_)   # (cards, seats)
        npos = poss.sum(axis=1)
        denom = poss @ free
        narrow = np.where(npos > 1, 1.0 / np.maximum(npos - 1, 1), 1.0)
        hit = h[:, None] == targets[None, :]
        miss = ((h >= 0)[:, None] & ~hit) | self.lacks[cards][:, targets]
        share = np.where(denom[:, None] > 0, free[targets][None, :] / np.maximum(denom, 1)[:, None],
                         1.0 / np.maximum(npos, 1)[:, None])
        share = np.where(hit, 1.0, np.where(miss | ~poss[:, targets], 0.0, share))
        cset = self._card_set[cards]
        asked = self.asked_in[targets][:, cset].T                            # (cards, targets)
        k = len(targets)
        pub = np.stack([hit, miss, share, np.repeat(narrow[:, None], k, axis=1), asked], axis=2).astype(float)
        opt_card = np.repeat(cards, k)
        opt_target = np.tile(targets, len(cards))
        ci = self._cindex[ev["card"]]
        where = np.flatnonzero((opt_card == ci) & (opt_target == tg))
        if not len(where):
            raise ValueError(f"the ask of event {t + 1} ({a} asks {tg} for {ev['card']}) is not among the possible asks")
        team = holder[cards]
        team_at = np.bincount(cset[(team >= 0) & (team % 2 == a % 2) & (team != a)], minlength=len(self._names))
        return AskSituation(t, a, tg, ev["card"], int(where[0]), opt_card, np.repeat(cset, k), opt_target,
                            pub.reshape(-1, len(CARD_FEATURES)), sets, self.own, self.deck,
                            team_known=team_at.astype(float) / 6.0)


def ask_situations(options: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> list[AskSituation]:
    """Every ask of ``events`` as an :class:`AskSituation` (:class:`AskLedger`)."""
    ledger = AskLedger(options)
    for ev in events:
        ledger.observe(ev)
    return ledger.situations


def hands_at_asks(options: Mapping[str, Any], hands: Sequence[Iterable[str]],
                  events: Sequence[Mapping[str, Any]]) -> dict[int, frozenset[str]]:
    """``{event index: the asker's hand just before that ask}`` for every ask of a complete
    record (dealt ``hands``, then the public moves)."""
    cur = [set(h) for h in hands]
    out = {}
    for t, ev in enumerate(events):
        if ev["type"] == "ask":
            out[t] = frozenset(cur[ev["asker"]])
            if ev["success"]:
                cur[ev["target"]].discard(ev["card"])
                cur[ev["asker"]].add(ev["card"])
        elif ev["type"] == "claim":
            for c, s in ev["actual"].items():
                cur[s].discard(c)
    return out


def ask_decisions(options: Mapping[str, Any], hands: Sequence[Iterable[str]],
                  events: Sequence[Mapping[str, Any]], seats: Iterable[int] | None = None
                  ) -> list[tuple[AskSituation, np.ndarray, np.ndarray]]:
    """``[(ask, held, mine)]`` for every ask of a complete record (by the given ``seats``,
    default all): ``held[0, j]`` the asker's cards of set ``j`` then and ``mine[0, i]``
    whether it held card ``i`` (shapes ``(1, sets)`` and ``(1, cards)``): the data a model is
    fitted on (:meth:`AskModel.fit`).

    Raises:
        ValueError: an ask that was not legal with the asker's hand.
    """
    want = None if seats is None else set(seats)
    hands_then = hands_at_asks(options, hands, events)
    deck = options["deck"]
    cindex = {c: i for i, c in enumerate(deck_cards(deck))}
    sindex = _set_index(deck)
    nsets = len(set_names(deck))
    out = []
    for sit in ask_situations(options, events):
        if want is not None and sit.asker not in want:
            continue
        held = np.zeros((1, nsets))
        mine = np.zeros((1, len(cindex)), dtype=bool)
        for c in hands_then[sit.t]:
            held[0, sindex[c]] += 1
            mine[0, cindex[c]] = True
        if held[0, sit.chosen_set] < 1 or (not sit.own_allowed and mine[0, cindex[sit.card]]):
            raise ValueError(f"seat {sit.asker}'s ask for {sit.card} at event {sit.t + 1} is not legal with "
                             f"its hand {sorted(hands_then[sit.t])}")
        out.append((sit, held, mine))
    return out


# ----------------------------------------------------------------------------- the model
def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    return -np.logaddexp(0.0, -x)


@dataclass
class AskModel:
    """The sequential-logit ask model (see the module docstring).

    Attributes:
        name: the model's name (``"peer"``, ...).
        stop: ``θ``, the weights of :data:`STOP_FEATURES` (shape ``(5,)``).
        card: ``γ``, the weights of :data:`CARD_FEATURES` (shape ``(5,)``).
        temper: ``λ`` in ``(0, 1]``: the likelihood is raised to it (1: the plain model).
        info: how it was fitted (asks, log-likelihoods, standard errors, source).
    """

    name: str
    stop: np.ndarray
    card: np.ndarray
    temper: float = 1.0
    info: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.stop = np.asarray(self.stop, dtype=float)
        self.card = np.asarray(self.card, dtype=float)
        if self.stop.shape != (len(STOP_FEATURES),) or self.card.shape != (len(CARD_FEATURES),):
            raise ValueError(f"an ask model has {len(STOP_FEATURES)} stop weights and {len(CARD_FEATURES)} card "
                             f"weights, not {self.stop.shape} and {self.card.shape}")
        if not 0 < float(self.temper) <= 1:
            raise ValueError(f"model {self.name!r}: temper must be in (0, 1], not {self.temper}")
        self.temper = float(self.temper)

    # ------------------------------------------------------------------ json
    def to_json(self) -> dict[str, Any]:
        """``{"kind": "literature-ask", "name", "stop_features", "stop", "card_features",
        "card", "temper", "info"}``."""
        return {"kind": "literature-ask", "name": self.name, "stop_features": list(STOP_FEATURES),
                "stop": [float(v) for v in self.stop], "card_features": list(CARD_FEATURES),
                "card": [float(v) for v in self.card], "temper": self.temper, "info": self.info}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "AskModel":
        """The model :meth:`to_json` wrote.

        Raises:
            ValueError: another kind, other features, or a malformed object.
        """
        if not isinstance(obj, Mapping) or obj.get("kind") != "literature-ask":
            raise ValueError("not a Literature ask model (kind 'literature-ask')")
        if tuple(obj.get("stop_features", ())) != STOP_FEATURES or tuple(obj.get("card_features", ())) != CARD_FEATURES:
            raise ValueError(f"an ask model over other features than {STOP_FEATURES} and {CARD_FEATURES}")
        try:
            return cls(str(obj["name"]), obj["stop"], obj["card"], float(obj.get("temper", 1.0)),
                       dict(obj.get("info", {})))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed ask model: {exc}") from None

    # ------------------------------------------------------------------ likelihood
    def log_likelihood(self, sit: AskSituation, held: np.ndarray, mine: np.ndarray | None) -> np.ndarray:
        """``λ log P(the ask made)`` in each world, exactly (restart and legal cards included).

        Args:
            sit: the ask.
            held: ``held[w, j]``: the asker's cards of set ``j`` then (shape ``(worlds, sets)``).
            mine: ``mine[w, i]``: it held card ``i`` then (needed without ``ask_own_card``).

        Returns:
            Shape ``(worlds,)``; ``-inf`` where the ask made was not legal.
        """
        order = np.array(sit.order)
        h = held[:, order]
        z = sit.stop_features(held)[:, order] @ self.stop                     # (worlds, sets in order)
        elig = h >= 1
        lp, lq = _log_sigmoid(z), _log_sigmoid(-z)
        k = sit.order.index(sit.chosen_set)
        before = np.where(elig[:, :k], lq[:, :k], 0.0).sum(axis=1)
        none = np.where(elig, lq, 0.0).sum(axis=1)                           # log P(no set chosen)
        scan = before + lp[:, k] - np.log(-np.expm1(np.minimum(none, -1e-12)))
        idx, legal, pos = sit.card_options(mine)
        u = sit.public[idx] @ self.card
        util = np.where(legal, u[None, :], -np.inf)
        m = util.max(axis=1, keepdims=True)
        m = np.where(np.isfinite(m), m, 0.0)
        card = util[:, pos] - (m[:, 0] + np.log(np.exp(util - m).sum(axis=1)))
        out = scan + card
        out = np.where(elig[:, k] & np.isfinite(card), out, -np.inf)
        return self.temper * out

    def count_terms(self, sit: AskSituation, hold: "Holdings") -> np.ndarray:
        """The factored log-likelihood of one ask (``λ`` included): ``log_w[j, k]`` is added when
        the asker holds ``k`` of set ``j``'s unknown cards (shape ``(sets, 7)``; 0 for sets
        without unknown cards, whose terms are the same in every deal, and beyond the set's
        number of unknown cards). See the module docstring for what is left out."""
        z0, before, j, log_e_pos, e, ci = self._static(sit)
        card_set = _card_set_array(sit.deck)
        unk = hold.unknown
        u = np.bincount(card_set, weights=unk, minlength=len(z0)).astype(int)
        n = hold.known[:, None] + _COUNTS                                    # (sets, 7)
        lw = np.zeros(n.shape)
        if len(before):
            zb = z0[before, None] + self.stop[1] * n[before]
            lw[before] = np.where(n[before] >= 1, _log_sigmoid(-zb), 0.0)
        lw[j] = _log_sigmoid(z0[j] + self.stop[1] * n[j]) + log_e_pos
        # the chosen ask among the set's legal asks: the cards the asker holds are not legal
        if sit.own_allowed:
            lw[j] -= np.log(e.sum())
        else:
            unk_opt = unk[ci]
            fixed = e[~unk_opt & ~hold.mine[ci]].sum()
            per_unknown = e[unk_opt].sum() / max(1, u[j])                   # an unknown card's options, on average
            lw[j] -= np.log(np.maximum(fixed + (u[j] - _COUNTS[0]) * per_unknown, 1e-300))
        lw[_COUNTS >= u[:, None] + 1] = 0.0
        return self.temper * lw

    def _static(self, sit: AskSituation):
        """The parts of :meth:`count_terms` that do not depend on the holdings (cached on the
        situation for this model)."""
        cache = sit.__dict__.setdefault("_static", {})
        key = (id(self), self.stop.tobytes(), self.card.tobytes())
        got = cache.get(key)
        if got is None:
            z0 = self.stop[0] + self.stop[2] * sit.best_share + self.stop[3] * sit.has_hit \
                + self.stop[4] * sit.team_known
            k = sit.order.index(sit.chosen_set)
            idx, _, pos = sit.card_options(None)
            e = np.exp(np.clip(sit.public[idx] @ self.card, -60, 60))
            got = cache[key] = (z0, np.array(sit.order[:k], dtype=int), sit.chosen_set, float(np.log(e[pos])), e,
                                sit.opt_card[idx])
        return got

    # ------------------------------------------------------------------ fitting
    @classmethod
    def fit(cls, decisions: Sequence[tuple[AskSituation, np.ndarray, np.ndarray]], name: str,
            source: str = "", l2: float = 1e-3) -> "AskModel":
        """Fit ``θ`` and ``γ`` by maximum likelihood (with a small ridge) to asks whose asker's
        hand is known (:func:`ask_decisions`); the two parts of the likelihood separate:
        ``θ`` from the scan over sets (restart included), ``γ`` from the choice within the
        chosen set (:meth:`cardmind.belief.models.SoftmaxChoice.fit`).

        Raises:
            ValueError: no decisions.
        """
        from scipy.optimize import minimize  # noqa: PLC0415

        if not decisions:
            raise ValueError("no asks to fit a model on")
        # the scan: one row per (ask, set it held a card of), in the order considered
        rows, role, dec = [], [], []
        for i, (sit, held, _mine) in enumerate(decisions):
            f = sit.stop_features(held)[0]
            for j in sit.order:
                if held[0, j] < 1:
                    continue
                rows.append(f[j])
                role.append(1 if j == sit.chosen_set else (0 if sit.order.index(j) < sit.order.index(sit.chosen_set)
                                                           else 2))
                dec.append(i)
        x = np.array(rows)
        role = np.array(role)
        dec = np.array(dec)
        n = len(decisions)

        def nll(theta: np.ndarray) -> tuple[float, np.ndarray]:
            z = x @ theta
            lp, lq = _log_sigmoid(z), _log_sigmoid(-z)
            p = np.exp(lp)
            none = np.bincount(dec, weights=lq, minlength=n)                # log P(no set chosen) per ask
            pn = np.exp(np.minimum(none, -1e-12))
            ll = lq[role == 0].sum() + lp[role == 1].sum() - np.log1p(-pn).sum()
            # gradient of ll in z: d lq/dz = -p, d lp/dz = 1 - p; -log(1 - pn) with
            # log pn = sum of lq over the ask's rows: d/dz_r = -pn/(1 - pn) * p_r
            g = np.zeros_like(z)
            g[role == 0] = -p[role == 0]
            g[role == 1] = 1 - p[role == 1]
            g -= (pn / (1 - pn))[dec] * p
            grad = x.T @ g
            return -ll + 0.5 * l2 * n * float(theta @ theta), -grad + l2 * n * theta

        res = minimize(nll, np.zeros(len(STOP_FEATURES)), jac=True, method="L-BFGS-B")
        theta = res.x
        hess = _numeric_hessian(lambda t: nll(t)[1], theta)
        try:
            se_stop = np.sqrt(np.clip(np.diag(np.linalg.inv(hess)), 0, None))
        except np.linalg.LinAlgError:
            se_stop = np.full(len(theta), np.nan)
        within = []
        for sit, _held, mine in decisions:
            idx, legal, pos = sit.card_options(mine)
            keep = np.flatnonzero(legal[0])
            within.append((sit.public[idx][keep], int(np.flatnonzero(keep == pos)[0])))
        card = SoftmaxChoice.fit(within, CARD_FEATURES, name=name, l2=l2)
        model = cls(name, theta, card.weights, 1.0)
        ll = float(sum(model.log_likelihood(s, h, m)[0] for s, h, m in decisions))
        model.info = {"asks": n, "log_likelihood": ll, "mean_log_likelihood": ll / n,
                      "uniform_mean_log_likelihood": float(np.mean([uniform_choice_loglik(s, h, m)
                                                                    for s, h, m in decisions])),
                      "stop_stderr": [float(v) for v in se_stop], "card_stderr": card.info["stderr"],
                      "converged": bool(res.success) and card.info["converged"], "l2": l2, "source": source}
        return model


def _numeric_hessian(grad, x: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    """The Hessian of a function from its gradient, by central differences (symmetrised)."""
    k = len(x)
    h = np.zeros((k, k))
    for i in range(k):
        e = np.zeros(k)
        e[i] = eps
        h[i] = (grad(x + e) - grad(x - e)) / (2 * eps)
    return (h + h.T) / 2


def uniform_choice_loglik(sit: AskSituation, held: np.ndarray, mine: np.ndarray) -> float:
    """``log P(the ask made)`` when every legal ask is equally likely (one world)."""
    legal = held[0, sit.opt_set] >= 1
    if not sit.own_allowed:
        legal &= ~mine[0, sit.opt_card]
    return float(-np.log(legal.sum()))


# ----------------------------------------------------------------------------- loading
#: models added at run time (:func:`register_player_model`), by name
_EXTRA: dict[str, AskModel] = {}


def register_player_model(model: AskModel) -> None:
    """Make ``model`` usable by name in this process, for example a model fitted on part of
    the data to test it on the rest.

    Raises:
        ValueError: a name of :data:`MODEL_NAMES`.
    """
    if model.name in MODEL_NAMES:
        raise ValueError(f"{model.name!r} is the name of a built-in model")
    _EXTRA[model.name] = model


def load_player_model(name: str) -> AskModel | None:
    """The fitted model ``name`` (``None`` for ``uniform``), from ``player_models/<name>.json``
    (or registered by :func:`register_player_model`).

    Raises:
        ValueError: an unknown name, or a file that is not an ask model.
    """
    if name in _EXTRA:
        return _EXTRA[name]
    return _load_builtin(name)


@lru_cache(maxsize=None)
def _load_builtin(name: str) -> AskModel | None:
    if name == "uniform":
        return None
    if name not in MODEL_NAMES:
        extra = f", or registered: {', '.join(_EXTRA)}" if _EXTRA else ""
        raise ValueError(f"unknown Literature player model {name!r} (one of {', '.join(MODEL_NAMES)}{extra})")
    path = MODEL_DIR / f"{name}.json"
    try:
        return AskModel.from_json(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise ValueError(f"the player model {name!r} has not been fitted ({path} is missing: "
                         f"run eval/fit_player_models.py)") from None
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


# ----------------------------------------------------------------------------- the automatic choice
class AutoChoice:
    """Which fitted model (:data:`AUTO_MODELS`) best explains each team's asks so far, from one
    observer's view (the model ``"auto"``).

    Each ask of a seat other than the observer adds, for every candidate model, the
    log-likelihood of the card and target it chose among the legal asks of its set (the
    softmax of the model's card weights ``γ`` over public features only, so no hand is needed);
    a team's model is the candidate with the largest sum over its seats' asks (ties: the
    first of :data:`AUTO_MODELS`). Before any ask of a team: ``belief`` for the observer's
    teammates and ``peer`` for the other team (the choice of cardmind's ``belief`` player,
    issue 16, which wins 75% of its decided games against the best published bot with it).

    Args:
        players: the number of seats (6 or 8).
        observer: the observer's seat (its own asks are not scored).
    """

    #: the model of a team before any of its asks: ``(teammates, opponents)``
    DEFAULTS = ("belief", "peer")

    def __init__(self, players: int, observer: int):
        self.players, self.observer = players, observer
        #: per team, per candidate model: the summed log-likelihood of the team's asks
        self.fit = [dict.fromkeys(AUTO_MODELS, 0.0), dict.fromkeys(AUTO_MODELS, 0.0)]
        #: per team: asks scored
        self.asks = [0, 0]
        self._scored = 0

    def update(self, situations: Sequence[AskSituation]) -> None:
        """Score the asks of ``situations`` not scored yet (the ledger's list, in order)."""
        for sit in situations[self._scored:]:
            if sit.asker == self.observer:
                continue
            team = sit.asker % 2
            idx, _, pos = sit.card_options(None)
            for name in AUTO_MODELS:
                u = sit.public[idx] @ load_player_model(name).card
                m = u.max()
                self.fit[team][name] += float(u[pos] - m - np.log(np.exp(u - m).sum()))
            self.asks[team] += 1
        self._scored = len(situations)

    def choice(self, team: int) -> str:
        """The model of ``team``'s seats (0 or 1)."""
        if not self.asks[team]:
            return self.DEFAULTS[0 if team == self.observer % 2 else 1]
        return max(AUTO_MODELS, key=lambda m: (self.fit[team][m], -AUTO_MODELS.index(m)))

    def to_json(self, seats: Iterable[int]) -> list[dict[str, Any]]:
        """Per team with a seat among ``seats`` (the seats weighed automatically):
        ``{"team", "seats", "teammates", "model", "asks", "log_likelihood": {model: sum}}``
        (``asks`` 0: the model is the default before any ask)."""
        seats = sorted(set(seats))
        out = []
        for team in (1 - self.observer % 2, self.observer % 2):   # the other team first
            mine = [s for s in seats if s % 2 == team]
            if not mine:
                continue
            out.append({"team": team, "seats": mine, "teammates": team == self.observer % 2,
                        "model": self.choice(team), "asks": self.asks[team],
                        "log_likelihood": {m: round(v, 6) for m, v in self.fit[team].items()}})
        return out


# ----------------------------------------------------------------------------- weighing the deals
@dataclass
class Holdings:
    """What the observer knows of one asker's hand at the time of one ask.

    Attributes:
        known: ``known[j]``: cards of set ``j`` certainly at the asker then (shape ``(sets,)``).
        mine: ``mine[i]``: card ``i`` (deck order) was certainly at the asker then.
        unknown: ``unknown[i]``: card ``i`` is one the observer cannot locate (it never
            moved, so it was then with its unknown dealt holder); the same for every ask.
    """

    known: np.ndarray
    mine: np.ndarray
    unknown: np.ndarray

    @property
    def signature(self) -> bytes:
        """Equal for equal holdings (a cache key)."""
        return self.known.tobytes() + np.packbits(self.mine).tobytes() + np.packbits(self.unknown).tobytes()


@lru_cache(maxsize=None)
def _card_set_array(deck: str) -> np.ndarray:
    """The set index of every card, in deck order."""
    sindex = _set_index(deck)
    return np.array([sindex[c] for c in deck_cards(deck)])


def model_factors(situations: Sequence[AskSituation], seat_models: Mapping[int, AskModel],
                  holdings: Mapping[int, Holdings], cache: dict | None = None) -> CountFactors:
    """The :class:`~cardmind.belief.models.CountFactors` (blocks: set indices) of every ask made
    by a seat that has a model (:meth:`AskModel.count_terms`).

    Args:
        situations: the asks (:class:`AskLedger`).
        seat_models: ``{seat: model}`` (seats without one are not weighed).
        holdings: ``{event index: Holdings}`` for the asks of seats with a model.
        cache: a dict kept between calls: an ask's terms are reused while its holdings (which
            change only when the observer locates a card) and the model are the same.
    """
    acc: dict[int, np.ndarray] = {}
    unknown = None
    for sit in situations:
        model = seat_models.get(sit.asker)
        if model is None:
            continue
        hold = holdings[sit.t]
        unknown = hold.unknown
        if cache is None:
            lw = model.count_terms(sit, hold)
        else:
            key = (sit.t, id(model), model.temper, hold.signature)
            lw = cache.get(key)
            if lw is None:
                lw = cache[key] = model.count_terms(sit, hold)
        acc[sit.asker] = lw if sit.asker not in acc else acc[sit.asker] + lw
    factors = CountFactors()
    if unknown is None:
        return factors
    deck = situations[0].deck
    u = np.bincount(_card_set_array(deck), weights=unknown.astype(float), minlength=len(set_names(deck))).astype(int)
    for seat, lw in acc.items():
        for j in np.flatnonzero(u):
            factors.add(int(j), seat, lw[j, :u[j] + 1])
    return factors


__all__ = ["CARD_FEATURES", "STOP_FEATURES", "MODEL_NAMES", "AUTO", "AUTO_MODELS", "MODEL_CHOICES", "AutoChoice",
           "MODEL_DIR", "AskSituation", "AskLedger", "AskModel",
           "Holdings", "ask_situations", "hands_at_asks", "ask_decisions", "uniform_choice_loglik",
           "load_player_model", "register_player_model", "model_factors"]
