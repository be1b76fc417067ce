"""Belief tracking for Bulgarian Go Fish from one player's view.

Semantics (``shared/spec/records.md``): a consistent deal assigns every card the observer
cannot locate to a seat's dealt hand, to one of the draws the observer did not see, or to
the stock (as a set), so that the record is legal; all consistent deals are equally likely.

Method: a **forward filter** over the hidden part of the game. Cards of one rank whose
identity the observer does not know are interchangeable (``belief-notes.md``), so the
hidden state after each event is, per other seat and rank, how many such cards the seat
holds, plus the cards everyone knows each seat holds, plus the ranks of the books whose rank
is hidden. Each event maps states to states with exact integer multiplicities (the number of
card identities and stock positions that realise it):

* the deal: per rank, ``u! / (prod h_s! * stock!)`` ways to choose which unknown cards each
  seat was dealt (the stock is a set); seats must have been dealt exactly as many complete
  ranks as they laid books before play;
* an ask: the asker holds a card of the rank; a refusal: the target holds none; a card
  handed over that the observer had not located was one of the target's hidden cards of
  its rank (``h / u`` of the identities, an exact division by symmetry);
* an unseen draw: one branch per rank still in the stock, weighted by how many cards of that
  rank the stock holds; not the rank just asked for (it would have been shown); completing a
  book exactly when a book follows;
* a draw the observer sees: that card was in the stock (``stock / u`` of the identities);
* a book: the maker held every card of the rank (the rank of a face-down book is whatever
  completes in the state); without a book, no rank may be complete;
* phase 2: a book asked for is not the asker's; a hit shows whose book it was.

The sum of the weights is the exact number of consistent deals, and every probability is a
ratio of exact integers. The number of states can grow beyond what is practical with three
or more players (every other seat's hand is part of the joint state); past ``budget`` states
the tracker switches to the **draw engine** (:mod:`.draws`): the hidden quantities are
the dealt hands and the ranks of the unseen draws; given those ranks the count is a block
product over ranks. It sums over the ranks of up to ``exact_free`` unseen draws exactly (in
floating point once the counts pass 64 bits: :attr:`mode` ``"enumerated"``); past that (by
default) over all of them when the subsets of draws that stay alive fit its table budget,
or in parts that each fit it (every 3- to 5-player position measured), else enumerates a
few when it can, and
otherwise samples the draw ranks with a Rao-Blackwellised Gibbs sampler (:attr:`mode`
``"mcmc"``). Then the answers say ``"exact": false``;
``eval/gofish_belief_error.py`` measures the error against the exact answer and
``docs/gofish-belief.md`` reports it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from ...belief.tracker import Tracker
from ...errors import Contradiction
from .particles import _Filter
from .consistency import ConsistencyChecks
from .rules import game_ranks, game_suits
from .weighing import ModelWeighing

State = tuple  # (h: tuple, pub: tuple[frozenset], bk: tuple[(rank, owner)], pend: tuple | None)

DEFAULT_BUDGET = 200_000
DEFAULT_PARTICLES = 4000


class GoFishBelief(ModelWeighing, ConsistencyChecks, Tracker):
    """The posterior of one observer in a Go Fish game (see the module docstring).

    Args:
        options: Go Fish options (parsed or raw).
        observer: the observer's seat.
        hand: the observer's dealt cards.
        budget: most states the exact joint filter keeps; past it (three or more players, as
            a rule) the tracker switches to the draw engine (:mod:`.draws`).
        particles: unused (kept for compatibility: the particle filter was replaced by the
            draw engine).
        seed: seed of the draw engine's sampler (results are reproducible).
        exact_only: never approximate: raise ``MemoryError`` when neither the joint filter
            nor one of the draw engine's exact sums (integers, or floating point: modes
            ``exact``, ``enumerated``, ``compact``) can answer, rather than sample.
        engine: ``"fast"`` (the vectorised joint filter of :mod:`.filter`, then the
            draw engine past the budget), ``"draws"`` (the draw engine only) or
            ``"reference"`` (the plain joint filter of this module; the tests check they agree).
        steps: blocked Gibbs steps per query of the draw engine in approximate mode (the
            setting that trades time for accuracy; see ``docs/gofish-belief.md``).
        block: draws the draw engine redraws together per step (and sums over exactly).
        exact_free: the draw engine's exact mode sums over this many last draws in the
            block product and enumerates the others (default: as many as its tables' size
            surely allows, :func:`~.draws.auto_exact_free`: 14 with 4 players and 6
            cards dealt, 17 with 3, 11 with 5, 10 with 6; and past that every unseen draw
            when the live subsets fit ``draws.settings.EXACT_TABLE_CELLS``, the draw option
            ``exact_cells``, or the sum cut into at most ``EXACT_SPLIT_PARTS`` parts that
            each fit, the draw option ``exact_split``; an ``exact_free`` given turns that off).
        enum_nodes, enum_leaves: budgets of the draw engine's exact enumeration.
        exchanges: rank exchange moves per Gibbs step of the draw engine.
        record_block: draws the draw engine sums over exactly in each step's estimate.
        draw_options: further attributes of the draw engine to set (``support_log10``,
            ``enum_memo``, ``recent``, ``compact``, ``compact_work``, ...; see
            :class:`~.draws.DrawEngine`).
        exact_sum: never sample (``cardmind hint/belief --exact``): where the draw engine
            answers, the compact sum without its time budget, or where it cannot be planned
            within its memory limits the planned sum over every unseen draw in as many parts
            as needed (slow: minutes at the hardest positions); ``MemoryError`` if neither can.
        model: the player model that weighs the consistent deals (:mod:`.models`):
            ``"auto"`` (the default) weighs the other player's asks by a mixture of the
            ``peer``, ``belief`` and ``random`` models, each by how well it explains them so
            far (:attr:`model_fit`); ``"uniform"`` counts every consistent deal alike;
            ``"peer"`` / ``"belief"`` / ``"random"`` weigh each deal by that model's likelihood of every ask
            the other player made (``cardmind hint --model NAME``). With two players applied
            exactly in the joint filter; with three or more by reweighting deals sampled from
            the constraint-only posterior by each other seat's recent asks (:meth:`_reweigh`;
            ``auto`` per seat), a sampled answer (:attr:`mode` ``"weighted"``).

    Raises:
        IllegalAction: (from :meth:`observe`) an event that breaks the rules.
        Contradiction: (from the queries) no deal is consistent with the events.
    """

    def __init__(self, options: Mapping[str, Any], observer: int, hand: Iterable[str],
                 budget: int = DEFAULT_BUDGET, particles: int = DEFAULT_PARTICLES, seed: int = 0,
                 exact_only: bool = False, engine: str = "fast", steps: int | None = None,
                 enum_nodes: int | None = None, enum_leaves: int | None = None, block: int | None = None,
                 exact_free: int | None = None, exchanges: int | None = None,
                 record_block: int | None = None, draw_options: Mapping[str, Any] | None = None,
                 exact_sum: bool = False, model: str | None = None):
        from ...core import get_game  # noqa: PLC0415

        from . import models as gofish_models  # noqa: PLC0415

        self.model_name = gofish_models.MODELS[0] if model is None else str(model)
        if self.model_name not in gofish_models.MODELS:
            raise ValueError(f"unknown Go Fish player model {self.model_name!r} "
                             f"(one of {', '.join(gofish_models.MODELS)})")
        self.game = get_game("gofish")
        self.options = self.game.parse_options(options)
        self.players = self.options["players"]
        if not 0 <= observer < self.players:
            raise ValueError(f"observer {observer} is not a seat (0-{self.players - 1})")
        self.observer = observer
        self.hand = list(hand)
        self.ranks = game_ranks(self.options)
        self.suits = game_suits(self.options)
        self.S = len(self.suits)
        self.R = len(self.ranks)
        self.rank_index = {r: i for i, r in enumerate(self.ranks)}
        self.others = [s for s in range(self.players) if s != observer]
        self.kidx = {s: k for k, s in enumerate(self.others)}
        self.K = len(self.others)
        self.state = self.game.new_state(self.options, {"observer": observer, "hand": list(self.hand)})
        self.events: list[dict] = []
        self.budget = budget
        self.n_particles = particles
        self.seed = seed
        self.exact_only = exact_only
        if engine not in ("fast", "reference", "draws"):
            raise ValueError(f"unknown engine {engine!r}")
        self.engine = engine
        from .draws import settings as draw_settings  # noqa: PLC0415

        self.steps = draw_settings.DEFAULT_STEPS if steps is None else steps
        self.enum_nodes = draw_settings.DEFAULT_ENUM_NODES if enum_nodes is None else enum_nodes
        self.enum_leaves = draw_settings.DEFAULT_ENUM_LEAVES if enum_leaves is None else enum_leaves
        self.block = draw_settings.DEFAULT_BLOCK if block is None else block
        self.exact_free = exact_free   # None: draws.auto_exact_free
        self.exchanges = draw_settings.DEFAULT_EXCHANGES if exchanges is None else exchanges
        self.record_block = draw_settings.DEFAULT_RECORD_BLOCK if record_block is None else record_block
        self._draw_opts = dict(draw_options or {})
        self.exact_sum = bool(exact_sum)
        self._init_model()
        self._ff_uniform = None
        self._ff = None
        self._draws = None
        self._use_draws = engine == "draws"
        self._now: tuple[tuple, dict] | None = None
        #: answer as if the last move were over with no book laid after it (a player about
        #: to act knows this); by default a record's end is a legal prefix and a book may follow
        self.settled = False
        self._cache: tuple[int, Any] | None = None
        self._world_cache: tuple | None = None  # (key, worlds, probabilities) of sample_hidden
        self._filter_answer: tuple | None = None  # (key, groups, answer) of the joint filter

    @property
    def model(self) -> str:
        """The player model asked for (:attr:`model_name`). Settable (the engine protocol's
        ``params.model`` for one request): the model's memory is rebuilt from the events.

        Raises:
            ValueError: (on setting) a model the game does not have.
        """
        return self.model_name

    @model.setter
    def model(self, name: str) -> None:
        from . import models as gofish_models  # noqa: PLC0415

        name = gofish_models.MODELS[0] if name is None else str(name)
        if name not in gofish_models.MODELS:
            raise ValueError(f"unknown Go Fish player model {name!r} (one of {', '.join(gofish_models.MODELS)})")
        if name == self.model_name:
            return
        self.model_name = name
        self._init_model()
        for i, ev in enumerate(self.events):
            self._model_sees(ev, i)
        self._ff = None
        self._ffs = {}
        self._now = None
        self._cache = None
        self._world_cache = None
        self._multi_cache = None

    def observe(self, event: Mapping[str, Any]) -> None:
        """Add one event as the observer saw it (checked against the rules)."""
        ev = dict(event)
        self.state.apply_event(ev)
        self._model_sees(ev, len(self.events))
        self.events.append(ev)
        self._cache = None
        self._now = None

    def notice(self, notice: Mapping[str, Any]) -> None:
        """Take in the referee's pending notice (an ask whose target is choosing the card to
        hand over): the view then knows who is to act. The deals that fit do not change until
        the ``ask`` event arrives.

        Raises:
            IllegalAction: not a pending ask this view could accept.
        """
        self.state.apply_pending_notice(dict(notice))
        self._cache = None
        self._now = None

    def assume_lacks(self, seat: int, ranks: Iterable[str]) -> None:
        """Add an **assumption**, not an event of the game: ``seat`` holds no card of any of
        ``ranks`` now. From then on the consistent deals are those consistent with the events
        *and* the assumptions (each counts as a refusal of every rank in ``ranks`` by ``seat``
        at this point of the record, without the draw that follows a refusal). A player uses
        it for what it infers from another player's choices, e.g. the ``belief`` player's
        ``infer`` setting: a player who guesses holds no rank another player is publicly
        known to hold (it would have asked for that one, a certain hit).

        Call it between events, right before the next one (a book the last event allowed is
        then taken as not laid). An assumption the events contradict makes the queries raise
        :class:`~cardmind.errors.Contradiction`, as a contradictory event would.

        Args:
            seat: a seat other than the observer (an assumption about the observer's own hand
                is ignored: the observer sees it).
            ranks: ranks of the game.

        Raises:
            ValueError: an unknown seat or rank.
        """
        if not 0 <= seat < self.players:
            raise ValueError(f"seat {seat} is not a seat (0-{self.players - 1})")
        ranks = set(ranks)
        bad = sorted(r for r in ranks if r not in self.rank_index)
        if bad:
            raise ValueError(f"assume_lacks: unknown rank(s) {', '.join(map(repr, bad))} "
                             f"(ranks: {''.join(self.ranks)})")
        ranks = sorted(ranks, key=self.rank_index.__getitem__)
        if seat == self.observer or not ranks:
            return
        self.events.append({"type": "assume_lacks", "player": seat, "ranks": ranks})
        self._cache = None
        self._now = None

    # ------------------------------------------------------------------ engines
    def _groups(self):
        """The fast filter advanced to every event, and its groups as of now (raises
        ``MemoryError`` past the budget). With ``auto`` (two players) a filter runs per model
        of :data:`.models.AUTO_MODELS` and the groups are their mixture (:meth:`_mix`)."""
        if self._ff is None:
            from .filter import FastFilter  # noqa: PLC0415

            if self._models:
                self._ffs = {n: FastFilter(self, model=m, giver="random" if n == "random" else None)
                             for n, m in self._models.items()}
            else:
                self._ffs = {"uniform": FastFilter(self, use_model=False)}
            self._ff = next(iter(self._ffs.values()))
        key = (len(self.events), self.settled)
        if self._now is None or self._now[0] != key:
            nows = {}
            for n, ff in self._ffs.items():
                ff.advance(self.events)
                nows[n] = ff.now(self.settled)
            self._now = (key, self._mix(nows))
        return self._ff, self._now[1]

    def _mix(self, nows: dict) -> dict:
        """The groups of ``auto``'s mixture from each model's groups ``nows`` (one model: its
        groups). Each model's posterior is weighted by its marginal likelihood of the other
        player's asks, ``Z_m = exp(log_scale) * total`` (the sum over consistent deals of the
        product of the asks' likelihoods), with equal prior odds: the mixture's weight of a
        state is ``sum_m P(m | asks) W_m / total_m``. Sets :attr:`_auto_weights`. Before the
        other player asks, every model gives the same (integer) counts: those are used."""
        import math  # noqa: PLC0415

        if len(nows) == 1:
            self._auto_weights = None
            return next(iter(nows.values()))
        ffs = self._ffs
        if not any(ff.weighted for ff in ffs.values()):
            self._auto_weights = {n: 1.0 / len(nows) for n in nows}
            return nows[next(iter(nows))]
        totals = {n: ffs[n].total(g) for n, g in nows.items()}
        logz = {n: ffs[n].log_scale + math.log(totals[n]) if totals[n] else -math.inf for n in nows}
        top = max(logz.values())
        if not math.isfinite(top):
            raise Contradiction("no deal is consistent with the events")
        share = {n: math.exp(v - top) for n, v in logz.items()}
        tot = sum(share.values())
        self._auto_weights = {n: v / tot for n, v in share.items()}
        out: dict = {}
        for n, groups in nows.items():
            f = self._auto_weights[n] / float(totals[n]) if totals[n] else 0.0
            if not f:
                continue
            for key, (H, W) in groups.items():
                out.setdefault(key, []).append((H, np.asarray(W, dtype=float) * f))
        return {k: (np.concatenate([h for h, _ in v]), np.concatenate([w for _, w in v])) if len(v) > 1 else v[0]
                for k, v in out.items()}

    def _draw_engine(self):
        if self._draws is None:
            from .draws import DrawEngine  # noqa: PLC0415

            self._draws = DrawEngine(self, steps=self.steps, enum_nodes=self.enum_nodes,
                                     enum_leaves=self.enum_leaves, block=self.block,
                                     exact_free=self.exact_free, exchanges=self.exchanges,
                                     record_block=self.record_block, seed=self.seed)
            # the compact exact sum: the default tracker's (engine "fast", automatic budgets)
            self._draws.compact = self.engine == "fast" and self.exact_free is None
            if self.exact_sum:
                from .draws import settings as draw_settings  # noqa: PLC0415

                self._draws.compact_work = draw_settings.COMPACT_MAX_WORK
                self._draws.exact_split = draw_settings.EXACT_SPLIT_PARTS_MAX
                self._draws.sample_ok = False
            for k, v in self._draw_opts.items():
                if not hasattr(self._draws, k):
                    raise ValueError(f"the draw engine has no setting {k!r}")
                setattr(self._draws, k, v)
        return self._draws

    def _deal_states(self) -> int:
        """An upper bound on the joint filter's states at the deal: the ways to deal one
        other seat's hand from the cards the observer cannot see (per rank at most those),
        to the power of the other seats."""
        own = Counter(c[0] for c in self.hand)
        poly = [1]
        for r in self.ranks:
            cap = self.S - own[r]
            nxt = [0] * (len(poly) + cap)
            for i, a in enumerate(poly):
                if a:
                    for x in range(cap + 1):
                        nxt[i + x] += a
            poly = nxt
        H = self.options["hand"]
        n1 = poly[H] if H < len(poly) else 0
        return n1 ** self.K

    def _filter_groups(self):
        """``(filter, groups)`` of the exact joint filter, or ``None`` once the draw engine is
        in use (switching to it, for good, when the filter passes its budget)."""
        if self._use_draws:
            return None
        if self._ff is None and self._deal_states() > 50 * self.budget:
            # the joint filter would pass its budget at the deal already (three or more
            # players with a full deck): the draw engine from the start
            self._use_draws = True
            return None
        try:
            return self._groups()
        except MemoryError:
            self._use_draws = True
            self._ff = None
            self._ffs = {}
            self._now = None
            return None

    def _answer(self) -> dict[str, Any]:
        """The answer (:meth:`_base_answer`), with three or more players and a model other
        than ``uniform`` reweighted by the player models (:meth:`_reweigh`)."""
        base = self._base_answer()
        if not self._multi:
            return base
        return self._reweigh(base)

    #: three or more players: the deals sampled from the constraint-only posterior that the
    #: player models reweigh (:meth:`_reweigh`)

    def _base_answer(self) -> dict[str, Any]:
        """The answer of the engine in use: ``exact``, ``den`` (what the weights are out of),
        ``holdings`` ``{(seat or "stock", rank): {count: weight}}``, ``hidden`` (per face-down
        book ``({rank: weight}, {owner: weight})``), ``book_log``, ``known_books``."""
        got = self._filter_groups()
        if got is not None:
            ff, groups = got
            # the joint filter's answer is kept while its groups stand (the same events and
            # ``settled``): the advice asks for it a dozen times per position
            key = (len(self.events), self.settled)
            kept = self._filter_answer
            if kept is not None and kept[0] == key and kept[1] is groups:
                return kept[2]
            acc, total = ff.holdings(groups)
            if not total:
                raise Contradiction("no deal is consistent with the events")
            weighted = any(f.weighted for f in self._ffs.values())
            ans = {"exact": not weighted, "den": total, "total": total if not weighted else None,
                   "holdings": acc, "hidden": ff.book_ranks(groups), "book_log": ff.book_log,
                   "known_books": ff.known_books, "weighted": weighted}
            self._filter_answer = (key, groups, ans)
            return ans
        eng = self._draw_engine()
        ans = eng.answer(self.events, self.settled)
        if self.exact_only and eng.last_mode == "mcmc":   # an exact sum in floating point is an answer
            raise MemoryError("the Go Fish belief is not exact here (the draw engine had to sample)")
        return {"exact": ans.exact, "den": ans.den, "total": ans.total, "holdings": ans.holdings,
                "hidden": ans.books, "book_log": ans.book_log, "known_books": ans.known_books,
                "stderr": ans.stderr, "bound": ans.bound, "stderrs": ans.stderrs}

    def _run(self):
        """The reference filter over every event (cached per event count)."""
        if self._cache is not None and self._cache[0] == len(self.events):
            return self._cache[1]
        pop = _Filter(self).run(self.events)
        self._cache = (len(self.events), pop)
        return pop

    @property
    def exact(self) -> bool:
        """Whether the answers are exact (else the draw engine sampled them)."""
        if self.engine == "reference":
            return self._run().exact
        return self._answer()["exact"]

    @property
    def mode(self) -> str:
        """How the answers were computed: ``"filter"`` (the exact joint filter), ``"exact"``
        (the draw engine, exact integers), ``"enumerated"`` (the draw engine's exact sum over
        the draw ranks, in floating point: exact up to rounding, but :attr:`exact` is false
        and :attr:`consistent_deals` is rounded) or ``"mcmc"`` (sampled: approximate)."""
        if self.engine == "reference":
            return "filter"
        if self._answer().get("multi"):
            return "weighted"
        return self._engine_mode()

    def _engine_mode(self) -> str:
        """The mode of the engine under the answer, as :attr:`mode` names it: the draw
        engine's last one, or ``"filter"`` (the joint filter); read after :meth:`_answer`."""
        return self._draws.last_mode if self._use_draws else "filter"

    @property
    def count_mode(self) -> str:
        """How :attr:`consistent_deals` was counted, one of :attr:`mode`'s values: the same as
        :attr:`mode`, except where the player models reweigh sampled deals (``"weighted"``,
        three or more players): those sample the chances, not the count, which is the
        constraint-only one of the engine underneath (``"exact"``, ``"compact"``,
        ``"enumerated"``, ``"mcmc"`` or ``"filter"``)."""
        m = self.mode
        return m if m != "weighted" else self._engine_mode()

    @property
    def count_exact(self) -> bool:
        """Whether :attr:`consistent_deals` is an exact integer: :attr:`exact`, except that
        the player models' sampled reweighting leaves an exact count exact."""
        if self.mode != "weighted":
            return self.exact
        return bool(self._base_answer()["exact"])

    #: the names of :attr:`mode` in the output
    METHODS = {"filter": "the joint filter, exact", "exact": "the draw engine's exact sum",
               "compact": "the compact exact sum", "enumerated": "the planned exact sum (floating point)",
               "mcmc": "the sampler (approximate)",
               "weighted": "deals sampled from the exact count, reweighted by the player models (approximate)"}
    #: the rounding error bound given for the planned exact sum in floating point (mode
    #: ``enumerated``: sums of products of positive terms; a conservative figure, the
    #: measured differences from integer sums are about 1e-15); the compact sum computes
    #: its own bound from its plan (:attr:`.draws.compact.CompactSum.rounding_bound`)
    FLOAT_BOUND = 1e-6
    #: a sampled answer's error bound: this many of its largest estimated standard errors
    SAMPLED_BOUND_SE = 4.0

    @property
    def method(self) -> str:
        """Which method answered, in words (:attr:`mode` named for the output)."""
        return self.METHODS.get(self.mode, self.mode)

    @property
    def error_bound(self) -> float | None:
        """A bound on the error of any probability of the answer: 0 when it is exact (integer
        counts); for an exact sum in floating point the rounding bound (mode ``compact``:
        from its plan, the count of floating-point additions any value went through times
        the unit roundoff, twice; mode ``enumerated``: :attr:`FLOAT_BOUND`); for a sampled
        answer :attr:`SAMPLED_BOUND_SE` times its largest estimated standard error (a
        statistical bound, not a certain one; ``None`` when the sampler made too few steps
        to estimate it)."""
        if self.engine == "reference" or self.exact:
            return 0.0
        mode = self.mode
        if mode in ("mcmc", "weighted"):
            se = self.stderr
            return None if se is None else min(1.0, self.SAMPLED_BOUND_SE * se)
        if mode == "compact":
            return float(self._answer()["bound"])
        return self.FLOAT_BOUND

    @property
    def stderr(self) -> float | None:
        """The largest estimated standard error of any holdings probability when the answers
        were sampled (mode ``"mcmc"``: batch means over the chain, see
        :mod:`.draws`), else ``None`` (exact, or exact up to rounding; also a sampled
        answer of fewer than 4 steps per seat, too few to estimate it)."""
        if self.engine == "reference":
            return None
        return self._answer().get("stderr")

    @property
    def precision(self) -> float:
        """The standard error target of sampled answers (0: none, the fixed ``steps``): where
        the draw engine samples (mode ``"mcmc"``) it goes on until the largest estimated
        standard error of a probability is at most this, or ``max_steps`` steps (as ``cardmind
        belief --precision``). Setting it drops a cached sampled answer that does not meet it.

        Raises:
            ValueError: (on setting) not a number in [0, 0.5).
        """
        return float(self._draw_opts.get("precision", 0.0))

    @precision.setter
    def precision(self, se: float) -> None:
        if isinstance(se, bool) or not isinstance(se, (int, float)) or not 0 <= se < 0.5:
            raise ValueError(f"precision must be a number from 0 up to (not including) 0.5, not {se!r}")
        se = float(se)
        self._draw_opts["precision"] = se
        eng = self._draws
        if eng is not None:
            eng.precision = se
            got = eng._answer
            if se > 0 and got is not None and not got[1].exact and got[1].steps and \
                    not (got[1].stderr is not None and got[1].stderr <= se):
                eng._answer = None

    @property
    def sampling(self) -> dict[str, Any] | None:
        """How a sampled answer (mode ``"mcmc"``) was made: ``steps`` (Gibbs steps averaged),
        ``stderr`` (see :attr:`stderr`), ``precision`` (the target asked, 0 for none) and
        ``max_steps`` (the cap with a target); ``None`` when the answer is not sampled."""
        if self.mode != "mcmc":
            return None
        eng = self._draws
        ans = eng.answer(self.events, self.settled)
        return {"steps": ans.steps, "stderr": ans.stderr, "precision": float(eng.precision),
                "max_steps": int(eng.max_steps)}

    @property
    def consistent_deals(self) -> int:
        """The number of consistent deals: exact (a Python int) when :attr:`exact`, else an
        estimate rounded to an integer.

        Raises:
            Contradiction: no deal is consistent with the events.
        """
        if self.engine == "reference":
            return self._run().total()
        ans = self._base_answer()
        if ans.get("weighted"):
            return int(self._uniform_count())
        if ans["exact"]:
            return int(ans["total"])
        if ans["total"] is not None:  # an enumeration in floating point
            return int(round(float(ans["total"])))
        return int(round(self._draw_engine().estimate_total(self.events, self.settled)))

    def _prob(self, num, den, exact: bool, is_exact: bool):
        if exact and is_exact:
            return Fraction(int(num), int(den))
        # floating-point sums can overshoot by a few ulps: keep probabilities in [0, 1]
        return min(1.0, max(0.0, float(num / den) if is_exact else float(num) / float(den)))

    def holdings(self, exact: bool = False) -> dict[Any, dict[str, dict[int, Any]]]:
        """``{seat or "stock": {rank: {count: probability}}}``: how many cards of each rank
        each seat and the stock hold now (a rank in a face-down book counts as held by
        nobody; ranks whose book the observer has seen laid are left out; zero-probability
        counts are left out)."""
        if self.engine == "reference":
            return self._run().holdings(exact)
        ans = self._answer()
        acc, den, is_exact = ans["holdings"], ans["den"], ans["exact"]
        own = Counter(c[0] for c in (self.state.hands[self.observer] or ()))
        out: dict[Any, dict[str, dict[int, Any]]] = {}
        live = [r for r in self.ranks if r not in ans["known_books"]]
        one = Fraction(1) if exact and is_exact else 1.0
        for r in live:
            out.setdefault(self.observer, {})[r] = {own[r]: one}
        for (s, r), d in acc.items():
            # every consistent deal gives the seat one count of the rank, so a distribution's
            # weights add up to the whole; in floating point (weighted or summed answers) each
            # is divided by its own sum, so that a count that is certain is exactly 1 and an
            # impossible one exactly 0 (dividing by ``den`` left 1 - 3e-16, "<1%", for them)
            row = den if is_exact else sum(float(v) for v in d.values())
            out.setdefault(s, {})[r] = {c: self._prob(v, row, exact, is_exact) for c, v in sorted(d.items()) if v}
        order = {s: i for i, s in enumerate(list(range(self.players)) + ["stock"])}
        return {s: {r: out[s][r] for r in self.ranks if r in out[s]} for s in sorted(out, key=order.__getitem__)}

    def books(self, exact: bool = False) -> list[dict[str, Any]]:
        """For every book laid, in the order made: ``maker``, ``owner`` (now; a
        ``{seat: probability}`` map in the rare case it is uncertain), ``known`` (whether the
        observer knows its rank) and ``ranks`` ``{rank: probability}``."""
        if self.engine == "reference":
            return self._run().books(exact)
        ans = self._answer()
        den, is_exact, hidden = ans["den"], ans["exact"], ans["hidden"]
        one = Fraction(1) if exact and is_exact else 1.0
        out, hi = [], 0
        for b in ans["book_log"]:
            entry: dict[str, Any] = {"maker": b["maker"], "owner": b["owner"], "known": b["rank"] is not None}
            if b["rank"] is not None:
                entry["ranks"] = {b["rank"]: one}
            else:
                ranks, owners = hidden[hi] if hi < len(hidden) else ({}, {})
                entry["ranks"] = {r: self._prob(v, den, exact, is_exact)
                                  for r, v in sorted(ranks.items(), key=lambda kv: self.ranks.index(kv[0])) if v}
                owners = {o: v for o, v in owners.items() if v}
                entry["owner"] = (next(iter(owners)) if len(owners) == 1 else
                                  {o: self._prob(v, den, exact, is_exact) for o, v in sorted(owners.items())})
                hi += 1
            out.append(entry)
        return out

    def sample_hidden(self, n: int, rng: np.random.Generator) -> list[dict[Any, list[int]]] | None:
        """``n`` draws of the hidden counts from the posterior (consistent deals equally
        likely): each a ``{seat or "stock": [cards per rank]}`` map, counts in the order of
        :attr:`ranks`, for every other seat and the stock (a rank in a book counts nowhere).
        Independent and exact from the joint filter (two players, and small games) and from
        the draw engine when its answer is exact (:attr:`mode` ``exact`` or ``enumerated``);
        in mode ``mcmc`` the draw engine's chain goes on and the draws are approximate and
        correlated (:meth:`.draws.DrawEngine.sample_worlds`). ``None`` with the
        ``reference`` engine, and while dealt books are still being laid in a game the draw
        engine tracks.

        Args:
            n: how many draws.
            rng: the generator drawing them.

        Raises:
            Contradiction: no deal is consistent with the events.
        """
        if self.engine == "reference":
            return None
        got = self._filter_groups()
        if got is None:
            return self._draw_engine().sample_worlds(self.events, self.settled, n, rng)
        ff, groups = got
        key = (len(self.events), self.settled)
        if self._world_cache is None or self._world_cache[0] != key:
            rows, weights = [], []
            for (pub, bk, _pend), (H, W) in groups.items():
                base = np.zeros((self.K + 1, self.R), dtype=np.int64)
                for ri, r in enumerate(self.ranks):
                    for k in range(self.K):
                        base[k, ri] = ff.pubcount(pub[k], r)
                    base[self.K, ri] = ff.unknown(r, pub, bk)
                hid = H.astype(np.int64).reshape(len(H), self.K, self.R)
                full = np.repeat(base[None], len(H), axis=0)
                full[:, :self.K] += hid
                full[:, self.K] -= hid.sum(axis=1)
                rows.append(full)
                weights.append(W)
            allw = np.concatenate(weights)
            total = allw.sum()
            if not total:
                raise Contradiction("no deal is consistent with the events")
            probs = np.array([w / total for w in allw], dtype=float)
            self._world_cache = (key, np.concatenate(rows), probs / probs.sum())
        _, worlds, probs = self._world_cache
        pick = rng.choice(len(probs), size=n, p=probs)
        seats = self.others + ["stock"]
        return [{s: worlds[i, k].tolist() for k, s in enumerate(seats)} for i in pick]

    def holdings_stderr(self) -> dict[Any, dict[str, dict[int, float]]] | None:
        """The standard error of every probability of :meth:`holdings` when the answer was
        sampled (mode ``"mcmc"``: batch means over the chain), in the same shape
        (``{seat or "stock": {rank: {count: se}}}``); ``None`` when the answer is not sampled
        (or too few steps were made to estimate it)."""
        if self.engine == "reference":
            return None
        ses = self._answer().get("stderrs")
        if not ses:
            return None
        out: dict[Any, dict[str, dict[int, float]]] = {}
        for (s, r), d in ses["holdings"].items():
            out.setdefault(s, {})[r] = dict(sorted(d.items()))
        order = {s: i for i, s in enumerate(list(range(self.players)) + ["stock"])}
        return {s: {r: out[s][r] for r in self.ranks if r in out[s]} for s in sorted(out, key=order.__getitem__)}

    def books_stderr(self) -> list[dict[str, Any]] | None:
        """Per face-down book (in the order laid, as the hidden ones of :meth:`books`): the
        standard errors ``{"ranks": {rank: se}, "owner": {seat: se}}`` of a sampled answer;
        ``None`` when it is not sampled."""
        if self.engine == "reference":
            return None
        ses = self._answer().get("stderrs")
        if not ses:
            return None
        return [{"ranks": dict(rk), "owner": dict(ow)} for rk, ow in ses["books"]]

    def p_holds_stderr(self, seat: int, rank: str) -> float | None:
        """The standard error of :meth:`p_holds` (``1 - P(no card)``: that of ``P(no card)``)
        when the answer was sampled, else ``None`` (exact, or exact up to rounding)."""
        ses = self.holdings_stderr()
        if ses is None:
            return None
        d = ses.get(seat, {}).get(rank)
        if d is None:
            return 0.0   # the rank is certain here (a count of probability 1 on every step)
        return float(d.get(0, 0.0))

    def p_holds(self, seat: int, rank: str) -> float:
        """P(``seat`` holds at least one card of ``rank`` now)."""
        h = self.holdings().get(seat, {}).get(rank)
        if h is None:
            return 0.0
        if not any(c > 0 for c in h):   # exactly 0 when impossible (never 1 - (1 - 1e-16))
            return 0.0
        return 1.0 - float(h.get(0, 0.0))

    def to_json(self) -> dict[str, Any]:
        """The belief object of ``cardmind belief --json`` for Go Fish (records.md):
        ``consistent_deals`` (exact integer, or an estimate when ``exact`` is false),
        ``holdings`` (seats and counts as string keys), ``books``, ``exact``, ``mode`` (see
        :attr:`mode`), ``method`` and ``error_bound`` (see :attr:`method`,
        :attr:`error_bound`), ``model``, ``model_asked`` and ``model_fit`` (see :attr:`model_used`,
        :attr:`model_fit`) and, when sampled, ``stderr`` (see :attr:`stderr`),
        ``holdings_stderr`` and ``books_stderr`` (the standard error of every sampled
        probability, shaped as ``holdings`` and the face-down ``books``) and ``sampling``
        (:attr:`sampling` plus ``target_met``: false when a ``precision`` was asked and the
        sampler stopped at ``max_steps`` above it)."""
        hold = {str(k): {r: {str(c): p for c, p in d.items()} for r, d in v.items()}
                for k, v in self.holdings().items()}
        books = []
        for b in self.books():
            b = dict(b)
            if isinstance(b["owner"], dict):
                b["owner"] = {str(k): v for k, v in b["owner"].items()}
            books.append(b)
        out = {"consistent_deals": self.consistent_deals, "exact": self.exact, "mode": self.mode,
               "method": self.method, "error_bound": self.error_bound, "model": self.model_used,
               "model_asked": self.model_name, "model_fit": self.model_fit,
               "holdings": hold, "books": books}
        if self.stderr is not None:
            out["stderr"] = self.stderr
        hse = self.holdings_stderr()
        if hse is not None:
            out["holdings_stderr"] = {str(k): {r: {str(c): x for c, x in d.items()} for r, d in v.items()}
                                      for k, v in hse.items()}
            out["books_stderr"] = [{"ranks": b["ranks"], "owner": {str(k): x for k, x in b["owner"].items()}}
                                   for b in self.books_stderr() or []]
        info = self.sampling
        if info is not None:
            out["sampling"] = {**info, "target_met": target_met(info)}
        return out


def target_met(sampling: dict) -> bool:
    """Whether a sampled answer met its precision target (``GoFishBelief.sampling``: true
    when no target was asked, else its largest standard error is at most the target)."""
    return not sampling["precision"] > 0 or (sampling["stderr"] is not None
                                             and sampling["stderr"] <= sampling["precision"])


__all__ = ["GoFishBelief", "target_met"]
