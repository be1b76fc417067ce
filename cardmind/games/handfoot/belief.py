"""The Hand and Foot belief tracker: what one player's view implies about the hidden cards.

**What is hidden.** From the observer O's view, in the hand under way, every card position O did
not see: each other player's dealt hand and each of its draws (and its foot once picked up),
the feet nobody has picked up (O's own included) and the rest of the stock. The discard pile,
the melds on the table and every card taken from the pile are public. Each hand is a new
shuffle: earlier hands say nothing about this one.

**The constraints.** A player X who lays or discards a card must hold it then: the copies of a
card ``c`` among X's hidden positions available at that moment (its dealt hand, its draws and
foot so far), plus the copies of ``c`` it took from the pile before, must cover every copy of
``c`` it has played so far. Nothing else hidden constrains a deal (the sizes are public; the
rules' other checks are public too). The cards are counted by **type** (token) with
multiplicities: five decks hold five copies of every token, and the copies are told apart only
to count deals (each copy a different card, as a shuffle makes them).

**Consistent deals** (``docs/handfoot.md``, "Belief"): the ways to place the unseen cards (every
copy a different card) into the hidden places: each other player's dealt hand, each of its
draws and its picked-up foot, each unpicked foot and the stock (as a set: its order is not
counted), such that every play was possible. All equally likely without a player model.

**Two engines.**

* ``exact``: the count as a :class:`~cardmind.belief.blocks.BlockProduct` whose seats are the
  hidden places (a player's positions cut where its plays constrain them, the unpicked feet
  and stock merged into one place split afterwards by sizes) and whose blocks are the card
  types some play constrains (each type's copies spread over the places, in every way the
  plays allow, weighted by ``copies! / prod(per place!)``); the other types form the pool,
  counted in closed form. Exact integers; used when the dynamic programme is small (early in
  a hand every type is in the pool and the answer is hypergeometric).
* ``sampled``: a Gibbs sampler over the constrained types (each step places one type's copies
  uniformly among the free positions that satisfy its constraints, given the others: exact
  conditional draws), with the pool integrated out analytically (Rao-Blackwellised marginals:
  given the constrained cards the pool fills the rest uniformly). Its standard errors come from
  batch means; ``stderr`` is the largest of them.

A **player model** (``model``, :meth:`~cardmind.games.handfoot.HandFootGame.player_models`)
weighs sampled worlds by how likely each player's observed choices were in them (see
:mod:`.models`), with the effective sample size and standard errors of
:func:`cardmind.belief.models.weighted_mean`.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...belief.tracker import Tracker
from .counting import (DEFAULT_BURN, DEFAULT_SAMPLES, DEFAULT_THIN, DEFAULT_WORLDS, FREE, KIND_INDEX, KINDS, Answer,
                       ExactEngine, GibbsEngine, SeatLine, Structure, _hyper_cached, _place_name,
                       check_feasible, kind_of, kind_table, structure_of)
from .rules import sort_cards
from .weighing import ModelWeighing


@dataclass(frozen=True)
class DiscardMoment:
    """The table as a player saw it when it discarded: ``time`` (the discard's event index in
    the hand, as in :class:`SeatLine`), the ``card`` discarded, its team's ``melds`` then
    (copies), whether its team had ``opened``, whether it was ``in_foot``, the hand's opening
    ``minimum`` (points), whether its team held the books going out needs (``books_met``) and
    whether it had asked to go out that turn (``asked``). What the player held then, the card
    included, is what it chose not to lay (:func:`~.plan.would_lay`), and not to go out with."""

    time: int
    card: str
    melds: tuple
    opened: bool
    in_foot: bool
    minimum: int
    books_met: bool = False
    asked: bool = False


# ----------------------------------------------------------------------------- the tracker
class HandFootBelief(ModelWeighing, Tracker):
    """The Hand and Foot tracker (see the module docstring).

    Args:
        options: parsed or raw options; ``observer``: the seat; ``hand``: its first dealt hand.
        engine: ``"auto"`` (exact when small, else sampled), ``"exact"`` or ``"sampled"``.
        samples: sampled answers: the number of Gibbs samples (each after ``thin`` sweeps,
            following ``burn`` sweeps).
        seed: seeds the sampler (answers are reproducible).
        model: the player model weighing the worlds: ``"auto"`` (the default: each other seat
            by the model that best explains its recent choices, :meth:`seat_models`),
            ``"uniform"`` (none, the constraint-only posterior) or ``"fitted"`` (the softmax
            model of :mod:`.models` for every seat).
        worlds: worlds drawn for the chances of the next turn and the model's weights.
        burn, thin: sampled answers: Gibbs sweeps before the first sample and between samples.
        model_turns, model_temperature: the model weighs each player's choices of its last
            ``model_turns`` turns, its log-likelihood times ``model_temperature``.

    Attributes:
        state: the observer's view (:class:`~.state.HandFootState`).
    """

    def __init__(self, options: Mapping[str, Any], observer: int, hand: Iterable[str], engine: str = "auto",
                 samples: int = DEFAULT_SAMPLES, seed: int = 0, model: str = "auto", worlds: int = DEFAULT_WORLDS,
                 burn: int = DEFAULT_BURN, thin: int = DEFAULT_THIN, model_turns: int = 2,
                 model_temperature: float = 0.5):
        from ...core import get_game  # noqa: PLC0415

        self.game = get_game("handfoot")
        self.options = self.game.parse_options(options)
        n = self.options["players"]
        if not 0 <= observer < n:
            raise ValueError(f"observer {observer} is not a seat (0-{n - 1})")
        if engine not in ("auto", "exact", "sampled"):
            raise ValueError(f"engine must be auto, exact or sampled, not {engine!r}")
        if model not in self.game.player_models():
            raise ValueError(f"no player model {model!r} (models: {', '.join(self.game.player_models())})")
        self.observer = observer
        self.hand = list(hand)
        self.state = self.game.new_state(self.options, {"observer": observer, "hand": self.hand})
        self.engine = engine
        self.samples = int(samples)
        self.seed = int(seed)
        self._cache: dict[str, Any] = {}
        self.model = model
        self.n_worlds = int(worlds)
        self.burn = int(burn)
        self.thin = int(thin)
        self.model_turns = int(model_turns)
        self.model_temperature = float(model_temperature)
        self._digest = hashlib.sha256(json.dumps([self.observer, sort_cards(self.hand)]).encode()).digest()
        #: the other players' observed choices in the hand under way (:class:`.models.Choice`)
        self.choices: list = []
        #: per other seat the table at its last discard in the hand under way (:class:`DiscardMoment`)
        self.last_discards: dict[int, DiscardMoment] = {}
        self._hand_start = 0

    @property
    def model(self) -> str:
        """The player model weighing the worlds (see the class docstring)."""
        return self._model

    @model.setter
    def model(self, name: str) -> None:
        """Set the model (the protocol's ``model`` parameter); answers computed so far are dropped."""
        self._model = name
        self._cache.clear()

    # ------------------------------------------------------------------ events
    def observe(self, event: Mapping[str, Any]) -> None:
        """Add one event as the observer saw it (rules checked by the view state), noting the
        choice it shows of another player (for the player models)."""
        st = self.state
        pending = self._choices_of(event) if event.get("type") in ("draw", "pickup", "discard") else []
        if event.get("type") == "discard" and event.get("player") != self.observer:
            self.last_discards[event["player"]] = self._discard_moment(event)
        st.apply_event(dict(event))
        self._digest = hashlib.sha256(self._digest + json.dumps(event, sort_keys=True).encode()).digest()
        self.choices.extend(pending)
        if event.get("type") == "deal":
            self.choices = []
            self.last_discards = {}
            self._hand_start = len(st.history)
        self._cache.clear()

    def _discard_moment(self, event: Mapping[str, Any]) -> DiscardMoment:
        """The table as the player of ``event`` (a discard, not yet applied) saw it then."""
        st = self.state
        seat = event["player"]
        team = st.teams[seat]
        return DiscardMoment(len(st.history) - self._hand_start, event["card"],
                             tuple(m.copy() for m in st.melds[team]),
                             bool(st.opened[team]), bool(st.in_foot[seat]), int(st.minimum),
                             bool(st.books_met(team)), bool(st.asked))

    def _choices_of(self, event: Mapping[str, Any]) -> list:
        """The choices ``event`` (not yet applied) shows of another player."""
        from .models import choices_before  # noqa: PLC0415

        if event.get("player") == self.observer:
            return []
        return choices_before(self.state, event, len(self.state.history) - self._hand_start)

    def structure(self) -> Structure:
        """The hidden part of the hand under way (cached until the next event)."""
        if "st" not in self._cache:
            self._cache["st"] = structure_of(self.state, self.observer)
        return self._cache["st"]

    # ------------------------------------------------------------------ answers
    @property
    def mode(self) -> str:
        """``"exact"`` or ``"sampled"``: how the current answer is computed."""
        st = self.structure()
        if self.engine == "sampled":
            return "sampled"
        if self.engine == "exact":
            return "exact"
        return "exact" if ExactEngine(st).feasible_size() else "sampled"

    @property
    def exact(self) -> bool:
        """Whether the answer is exact."""
        return self.mode == "exact"

    def answer(self) -> Answer:
        """The posterior of the hand under way (cached).

        Raises:
            Contradiction: no deal is consistent with the events.
        """
        if "answer" in self._cache:
            return self._cache["answer"]
        st = self.structure()
        check_feasible(st)
        if self.weighted:
            ans = self._model_answer(st)
        elif self.mode == "exact":
            ans = ExactEngine(st).solve()
            ans.kinds = self._kinds_from_worlds(exact_tokens=ans.tokens)
        else:
            ans = self._sampled_answer(st)
        self._cache["answer"] = ans
        return ans

    def check_consistent(self) -> bool:
        """An exact, fast check that some deal fits the events (every player's needed copies fit
        its positions by their deadlines, no type needed beyond its unseen copies: see
        :func:`check_feasible`); what the engine protocol calls after every event.

        Returns:
            ``True``: consistency is always decided here.

        Raises:
            Contradiction: no deal is consistent with the events.
        """
        check_feasible(self.structure())
        return True

    @property
    def consistent_deals(self) -> int | None:
        """The number of consistent deals of the hand under way (exact engine), else ``None``
        after checking that some deal is consistent.

        Raises:
            Contradiction: no deal is consistent with the events.
        """
        return self.answer().count

    def rng(self, stream: int) -> np.random.Generator:
        """A random generator for one question about the position now: seeded by the tracker's
        ``seed``, a digest of every event so far (:attr:`position`) and ``stream`` (which
        question), so that every sampled answer is a function of the position alone: the same
        whatever was asked before, in ``cardmind hint`` or in the live advisor."""
        return np.random.default_rng([self.seed, self.position, stream])

    @property
    def position(self) -> int:
        """A 64-bit digest of the events observed so far, in order (SHA-256 of their JSON: the
        same under any ``PYTHONHASHSEED``)."""
        return int.from_bytes(self._digest[:8], "little")

    def chain(self, stream: int = 0) -> GibbsEngine:
        """A new Gibbs chain of the current structure after its burn-in, seeded for the position
        and ``stream`` (:meth:`rng`): never a chain shared with another question."""
        ch = GibbsEngine(self.structure(), self.rng(stream))
        for _ in range(self.burn if ch.constrained else 0):
            ch.sweep()
        return ch

    def _sampled_answer(self, st: Structure, with_tokens: bool = True) -> Answer:
        """The sampler's answer; without ``with_tokens`` only the expected cards by kind (cheap: the
        card marginals, which the advice does not need, are skipped)."""
        ch = self.chain(1)
        tokens_all = [c for c in sort_cards(st.pool) if st.pool[c] > 0]
        names, sets = _sampled_places(st, ch.places)
        shift = {}     # per seat: the cards it played less those it picked up, per card
        for ln in st.lines:
            p, k = ln.totals()
            shift[str(ln.seat)] = {c: k[c] - p[c] for c in tokens_all}
        acc_tok, batches, kind_samples = self._run_chain(ch, st, names, sets, tokens_all, with_tokens)
        tokens, se_max = _token_marginals(acc_tok, batches, names, tokens_all, shift, with_tokens)
        ans = Answer(False, None, tokens, {}, se_max if ch.constrained else 0.0, len(batches))
        ans.kind_mean, kind_se = _kind_means(ch, names, sets, shift, kind_samples)
        if kind_se is not None:
            ans.kind_se = kind_se
        ans.kinds = self._kinds_from_worlds() if with_tokens else {}
        return ans

    def _run_chain(self, ch: GibbsEngine, st: Structure, names: list[str], sets: dict[str, list[int]],
                   tokens_all: list[str], with_tokens: bool) -> tuple[dict, list[dict], list[np.ndarray]]:
        """Run the chain ``ch`` for :attr:`samples` states (:attr:`thin` sweeps apart; one state
        when no play constrains it): per named place (``names``, its places ``sets``) and card,
        the summed pmf of its count (``acc_tok``, only ``with_tokens``), each state's pmfs
        (``batches``: ``{(name, card): pmf}``) and each state's expected cards by kind per place
        (``kind_samples``: places x :data:`KINDS`)."""
        pool_tokens = [c for c in tokens_all if c not in ch.copies]
        pool_kind = np.zeros(len(KINDS))
        for c in pool_tokens:
            pool_kind[KIND_INDEX[kind_of(c)]] += st.pool[c]
        acc_tok = {nm: {c: np.zeros(st.pool[c] + 1) for c in tokens_all} for nm in names}
        kind_samples: list[np.ndarray] = []     # per sample: places x kinds, expected counts
        batches = []
        n = max(1, self.samples)
        for _i in range(n):
            for _ in range(self.thin if ch.constrained else 0):
                ch.sweep()
            free = ch._free()
            R_tot = sum(free)
            sample_tok = {}
            kind_samples.append(self._place_kinds(ch, free, R_tot, pool_kind))
            for nm in (names if with_tokens else ()):
                pls = sets[nm]
                R_A = sum(free[i] for i in pls)
                for c in tokens_all:
                    if c in ch.d:
                        pmf = np.zeros(st.pool[c] + 1)
                        dc = ch.d[c]
                        pmf[sum(dc[i] for i in pls)] = 1.0
                    else:
                        pmf = _hyper_cached(R_tot, R_A, st.pool[c])
                    acc_tok[nm][c] += pmf
                    sample_tok[(nm, c)] = pmf
            batches.append(sample_tok)
            if not ch.constrained:
                break
        return acc_tok, batches, kind_samples

    @staticmethod
    def _place_kinds(ch: GibbsEngine, free: list[int], total: int, pool_kind: np.ndarray) -> np.ndarray:
        """Expected cards of each kind in every place of ``ch``'s state (places x kinds): the
        constrained types where the chain put them, the pool's spread over the room left
        (``free`` per place, ``total`` in all; ``pool_kind`` its cards per kind)."""
        P = len(free)
        out = np.outer(np.array(free, dtype=float) / max(total, 1), pool_kind)
        for c, d in ch.d.items():
            k = KIND_INDEX[kind_of(c)]
            for i in range(P):
                if d[i]:
                    out[i, k] += d[i]
        return out

    # ------------------------------------------------------------------ kinds
    def kind_means(self) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]] | None]:
        """Expected cards of each kind (:data:`KINDS`) in every hidden place now, and their
        standard errors.

        The expectations are sums of the token marginals of :meth:`answer` (linearity of
        expectation), so they are exact when the answer is: early in a hand, where the exact
        engine answers, they are the hypergeometric values (symmetric places equal). A sampled
        answer gives Rao-Blackwellised means with batch-means standard errors, the places no play
        constrains (the unpicked feet, the stock, a player that has not played yet) sharing their
        total by their sizes: they are exchangeable, so they are always equal. A player model
        gives its importance-weighted means with their standard errors, the unpicked feet and the
        stock sharing their total.

        Returns:
            ``(means, se)``: ``{place: {kind: expected cards}}`` with places named as in
            :attr:`Answer.tokens` (``"2"`` another seat's holding now, ``"foot 0"``,
            ``"stock"``), and the same shape of standard errors, or ``None`` when exact.

        Raises:
            Contradiction: no deal is consistent with the events.
        """
        if "answer" in self._cache or self.mode == "exact" and not self.weighted:
            ans = self.answer()
        elif "kinds_answer" in self._cache:
            ans = self._cache["kinds_answer"]
        else:
            st = self.structure()
            check_feasible(st)
            if self.weighted:
                ans = Answer(False, None, {}, {})
                self._model_kinds(ans, self.worlds(), self._weights().w)
            else:
                ans = self._sampled_answer(st, with_tokens=False)
            self._cache["kinds_answer"] = ans
        if ans.kind_mean is not None:
            return ({pl: dict(per) for pl, per in ans.kind_mean.items()},
                    {pl: dict(per) for pl, per in (ans.kind_se or {}).items()})
        means = {pl: {kd: 0.0 for kd in KINDS} for pl in ans.tokens}
        free_se = (ans.kind_se or {}).get(FREE)
        for pl, per in ans.tokens.items():
            for c, pmf in per.items():
                means[pl][kind_of(c)] += float(sum(k * p for k, p in pmf.items()))
        if ans.exact:
            return means, None
        se = {pl: dict((ans.kind_se or {}).get(pl) or {kd: 0.0 for kd in KINDS}) for pl in means}
        # the free places (unpicked feet and the stock) are exchangeable, card by card: no play
        # constrains them and no player model weighs them, so each holds its share of their total
        free = {_place_name((name, seat)): size for name, seat, size in self.structure().free}
        free = {pl: size for pl, size in free.items() if pl in means}
        total = sum(free.values())
        if len(free) > 1 and total:
            for kd in KINDS:
                m = sum(means[pl][kd] for pl in free)
                # the total's own standard error (else at most the errors of its parts added)
                e = free_se[kd] if free_se else sum(se[pl][kd] for pl in free)
                for pl, size in free.items():
                    means[pl][kd] = m * size / total
                    se[pl][kd] = e * size / total
        return means, se

    # ------------------------------------------------------------------ worlds
    def worlds(self, n: int | None = None) -> list[dict[str, Any]]:
        """``n`` sampled worlds (default ``worlds``) of the hand under way: each
        ``{"zones": {seat: Counter}, "feet": {seat: Counter}, "stock": Counter, "groups": {seat:
        [Counter per group]}}`` (the other players' holdings now, the unpicked feet, the
        stock's cards, and what each hidden group of a player held). Exact engine: independent
        draws from the exact posterior; sampled: Gibbs samples (one sweep apart)."""
        n = self.n_worlds if n is None else n
        key = ("worlds", n)
        if key in self._cache:
            return self._cache[key]
        st = self.structure()
        check_feasible(st)
        ch = self.chain(2)
        out = []
        for _ in range(n):
            if ch.constrained:
                ch.sweep()
            full = ch.pool_sample()
            out.append(self._world_of(ch, full))
        self._cache[key] = out
        return out

    def _world_of(self, ch: GibbsEngine, full: dict[str, np.ndarray]) -> dict[str, Any]:
        st = self.structure()
        places = ch.places
        zones, feet, groups = {}, {}, {}
        stock = Counter()
        for ln in st.lines:
            p, k = ln.totals()
            g = []
            tot = Counter()
            for pl in places.seat_places[ln.seat]:
                cnt = Counter({c: int(v[pl]) for c, v in full.items() if v[pl]})
                g.append(cnt)
                tot.update(cnt)
            tot.update(k)
            tot.subtract(p)
            zones[ln.seat] = Counter({c: x for c, x in tot.items() if x > 0})
            groups[ln.seat] = g
        for i, lab in enumerate(places.label):
            if places.owner[i] is None:
                cnt = Counter({c: int(v[i]) for c, v in full.items() if v[i]})
                if lab[0] == "stock":
                    stock = cnt
                else:
                    feet[lab[1]] = cnt
        return {"zones": zones, "feet": feet, "stock": stock, "groups": groups}

    def _kinds_from_worlds(self, exact_tokens=None) -> dict[str, dict[str, dict[int, float]]]:
        """``{place: {kind: {count: probability}}}`` estimated from :meth:`worlds` (kinds sum
        several card types, whose joint the token marginals do not give)."""
        self.structure()    # raises Contradiction when no deal fits
        ws = self.worlds()
        out: dict[str, dict[str, dict[int, float]]] = {}
        for w in ws:
            places = {str(s): z for s, z in w["zones"].items()}
            places.update({f"foot {s}": f for s, f in w["feet"].items()})
            places["stock"] = w["stock"]
            for nm, cnt in places.items():
                per = Counter()
                for c, k in cnt.items():
                    per[kind_of(c)] += k
                d = out.setdefault(nm, {})
                for kd in KINDS:
                    dk = d.setdefault(kd, {})
                    dk[per[kd]] = dk.get(per[kd], 0) + 1.0 / len(ws)
        return out

    # ------------------------------------------------------------------ output
    def to_json(self) -> dict[str, Any]:
        """The belief object of ``cardmind belief --json`` (``docs/handfoot.md``, "Belief")."""
        ans = self.answer()
        st = self.state

        def num(v):
            return float(v)

        tokens = {pl: {c: {str(k): num(p) for k, p in sorted(d.items())} for c, d in per.items()}
                  for pl, per in ans.tokens.items()}
        expected = {pl: {c: num(sum(k * p for k, p in d.items())) for c, d in per.items()}
                    for pl, per in ans.tokens.items()}
        kinds = {pl: {kd: {str(k): round(p, 6) for k, p in sorted(d.items())} for kd, d in per.items()}
                 for pl, per in ans.kinds.items()}
        out = {
            "hand": st.hand_no, "observer": self.observer, "mode": self.mode, "exact": ans.exact,
            "model": self.model,
            "seat_models": {str(k): v for k, v in sorted(self.seat_models().items())},
            "consistent_deals": ans.count,
            "pile": list(st.pile),
            "known": {str(s): sort_cards(st.known[s].elements()) for s in range(st.players)
                      if s != self.observer and st.known[s]},
            "sizes": {str(s): st.sizes[s] for s in range(st.players)},
            "holdings": tokens, "expected": expected, "kinds": kinds,
        }
        if not st.forced and st.phase != "over":
            from .decide import red_three_risk  # noqa: PLC0415

            ws = self.model_worlds()
            ess = self.model_ess()
            n = max(1.0, min(len(ws), ess) if ess else len(ws))

            def se(p: float) -> float:
                return float(np.sqrt(max(p * (1 - p), 0.0) / n))

            # what each will do within its next turn: its turn played in every world by its policy
            out["next_turn"] = {str(s): c.to_json() for s, c in self.next_turn().items()}
            out["next_turn_policy"] = {str(s): p for s, p in sorted(self.rollout_policies().items())}
            # the chances are sampled over the worlds: their binomial standard errors
            out["next_turn_se"] = {s: {k: se(p) for k, p in c.items()} for s, c in out["next_turn"].items()}
            out["worlds"] = len(ws)
            partner = st.partner[self.observer]
            if partner is not None:
                out["partner_red_three"] = red_three_risk(st, partner, ws)
                out["partner_red_three_se"] = se(out["partner_red_three"])
        if not st.forced or st.forced[0]["type"] not in ("hand_end", "deal"):
            means, kse = self.kind_means()
            out["expected_kinds"] = {pl: {kd: round(v, 6) for kd, v in per.items()} for pl, per in means.items()}
            out["expected_kinds_se"] = (None if kse is None else
                                        {pl: {kd: round(v, 6) for kd, v in per.items()} for pl, per in kse.items()
                                         if pl != FREE})
        # "kinds" (the distribution of each kind's count) is estimated from the sampled worlds
        out["kinds_sampled"] = True
        if not ans.exact:
            out["stderr"] = ans.stderr
            out["samples"] = ans.samples
        if getattr(ans, "ess", None) is not None:
            out["ess"] = ans.ess
        return out


__all__ = ["HandFootBelief", "DiscardMoment", "Structure", "SeatLine", "structure_of", "check_feasible", "ExactEngine",
           "GibbsEngine", "Answer", "kind_of", "KINDS"]


def _sampled_places(st: Structure, places) -> tuple[list[str], dict[str, list[int]]]:
    """The named places of the sampler's answer: each seat (``"0"``...) and each place no seat
    owns (the stock, the feet not picked up: :func:`_place_name`), with the sampler's places
    (indices into ``places.caps``) each name covers."""
    names = [str(ln.seat) for ln in st.lines] + [_place_name(places.label[i]) for i in range(len(places.caps))
                                                 if places.owner[i] is None]
    sets = {str(ln.seat): places.seat_places[ln.seat] for ln in st.lines}
    for i in range(len(places.caps)):
        if places.owner[i] is None:
            sets[_place_name(places.label[i])] = [i]
    return names, sets


def _token_marginals(acc_tok: dict, batches: list[dict], names: list[str], tokens_all: list[str],
                     shift: dict[str, dict[str, int]], with_tokens: bool) -> tuple[dict, float]:
    """Per named place and card the probability of each count (the chain's mean pmf, moved by
    the cards the seat played less those it picked up: ``shift``), and the largest standard
    error of a probability by 10 batch means (0 with fewer than 10 states or without
    ``with_tokens``)."""
    tokens = {}
    for nm in names:
        tokens[nm] = {}
        for c in tokens_all:
            pmf = acc_tok[nm][c] / len(batches)
            off = shift.get(nm, {}).get(c, 0)
            tokens[nm][c] = {k + off: float(v) for k, v in enumerate(pmf) if v > 1e-15}
    se_max = 0.0
    if len(batches) >= 10 and with_tokens:
        nb = 10
        size = len(batches) // nb
        for nm in names:
            for c in tokens_all:
                means = np.array([sum(batches[b * size + j][(nm, c)] for j in range(size)) / size for b in range(nb)])
                se = means.std(axis=0, ddof=1) / np.sqrt(nb)
                se_max = max(se_max, float(se.max()))
    return tokens, se_max


def _kind_means(ch, names: list[str], sets: dict[str, list[int]], shift: dict[str, dict[str, int]],
                kind_samples: list[np.ndarray]) -> tuple[dict, dict | None]:
    """The expected cards of each kind per named place over the chain's states, and their
    standard errors by 10 batch means (zeros when no play constrains the chain, ``None`` when
    too few states to tell). The places no play constrains are exchangeable (every card type
    alike), so each such place holds its share of their total."""
    places = ch.places
    P = len(places.caps)
    unc = [i for i in range(P) if all(i in ch.plan[c][1] for c in ch.constrained)]
    caps = np.array(places.caps, dtype=float)
    agg = np.zeros((len(names), P))
    for a, nm in enumerate(names):
        agg[a, sets[nm]] = 1.0
    shift_k = np.zeros((len(names), len(KINDS)))
    for a, nm in enumerate(names):
        for c, x in shift.get(nm, {}).items():
            shift_k[a, KIND_INDEX[kind_of(c)]] += x

    def by_name(per_place: np.ndarray) -> np.ndarray:
        x = per_place.copy()
        if len(unc) > 1 and caps[unc].sum():
            x[unc] = np.outer(caps[unc] / caps[unc].sum(), x[unc].sum(axis=0))
        return agg @ x + shift_k

    ks = np.array(kind_samples)
    mean = by_name(ks.mean(axis=0))
    kind_mean = kind_table(mean, names)
    kind_se = None
    if len(kind_samples) >= 10:
        nb = 10
        size = len(kind_samples) // nb
        bm = np.array([by_name(ks[b * size:(b + 1) * size].mean(axis=0)) for b in range(nb)])
        kse = bm.std(axis=0, ddof=1) / np.sqrt(nb)
        kind_se = kind_table(kse, names)
    elif not ch.constrained:
        kind_se = {nm: {kd: 0.0 for kd in KINDS} for nm in names}
    return kind_mean, kind_se
