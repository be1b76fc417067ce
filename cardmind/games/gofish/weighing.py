"""The player models' side of the Go Fish tracker: which model weighs the deals and how it reads
each seat (any number of players), and with three or more players the asks it can read (each
other seat's recent asks) and the sampled deals reweighted by each seat's model of whom and
what it asks (``auto``: a mixture per seat), with a control variate on the exact uniform
chances."""

from __future__ import annotations

from typing import Any

import numpy as np


class ModelWeighing:
    """The player models' side of the Go Fish tracker (:mod:`.weighing`): a part of the
    tracker class, which derives from it."""

    MODEL_WORLDS = 400
    #: three or more players: an ask of another seat is read when that seat made at most this
    #: many draws the observer did not see since (each summed over the rank it may have had)
    MODEL_DRAWS = 1

    @property
    def model_used(self) -> str:
        """The player model the answer weighs the deals by: :attr:`model_name` (``"uniform"``
        with the ``reference`` engine, and with two players where the joint filter cannot
        answer: the draw engine's answer is the constraint-only one)."""
        if self.model_name == "uniform" or self.engine == "reference":
            return "uniform"
        if self.players >= 3:
            return self.model_name
        self._answer()
        return self.model_name if self._ffs else "uniform"

    @property
    def model_fit(self) -> dict[str, Any] | None:
        """How the player model weighs the other player (two players, a model other than
        ``uniform``): ``{"seat", "asks" (its asks weighed), "weights" {model: share}}``;
        ``weights`` is ``auto``'s mixture (each model's posterior probability given the asks,
        equal prior odds) or ``{name: 1.0}`` for a fixed model. With three or more players
        ``{"seats": [{"seat", "asks" (all its asks), "weighed" (the recent ones read),
        "weights"}, ...]}``, one per other seat (:meth:`_reweigh`). ``None`` when no model
        applies (:attr:`model_used` is ``"uniform"``)."""
        if self.model_used == "uniform":
            return None
        if self.players >= 3:
            self._answer()
            return {"seats": [dict(f, weights=dict(f["weights"])) for f in self._multi_fit or []]}
        seat = self.others[0]
        weights = dict(self._auto_weights) if self._auto_weights is not None else {self.model_name: 1.0}
        return {"seat": seat, "asks": len(self._ask_ctx), "weights": weights}

    def _uniform_count(self) -> int:
        """The number of consistent deals when the answer is weighted by a player model (a
        joint filter without the model's weights)."""
        from .filter import FastFilter  # noqa: PLC0415

        if self._ff_uniform is None:
            self._ff_uniform = FastFilter(self, use_model=False)
        self._ff_uniform.advance(self.events)
        return self._ff_uniform.total(self._ff_uniform.now(self.settled))

    def _usable_asks(self) -> list[tuple]:
        """The other seats' asks the player models read (three or more players): per ask
        ``(index, seat, contexts, target index, rank index, back, draws)``: ``back`` per rank the
        cards the seat lost minus those it gained, publicly, from the ask on (its holdings at
        the ask are its holdings now plus ``back``, less the ``draws`` cards it drew unseen
        since). Left out: asks before a face-down book of the seat (its rank unknown), or
        followed by more than :attr:`MODEL_DRAWS` unseen draws of the seat. Each tuple starts
        with the ask's event index."""
        back = {s: np.zeros(self.R, dtype=np.int64) for s in self.others}
        draws = {s: 0 for s in self.others}
        blocked = {s: False for s in self.others}
        out = []
        for i in range(len(self.events) - 1, -1, -1):
            ev = self.events[i]
            kind = ev.get("type")
            if kind == "ask":
                a, t, ri = ev["asker"], ev["target"], self.rank_index[ev["rank"]]
                g = ev.get("given") or []
                n = g if isinstance(g, int) else len(g)
                if a in back:
                    back[a][ri] -= n
                if t in back:
                    back[t][ri] += n
            elif kind == "draw" and ev.get("player") in back:
                p = ev["player"]
                if ev.get("card"):
                    back[p][self.rank_index[ev["card"][0]]] -= 1
                else:
                    draws[p] += 1
            elif kind == "book" and ev.get("player") in back:
                if ev.get("rank") is None:
                    blocked[ev["player"]] = True
                else:
                    back[ev["player"]][self.rank_index[ev["rank"]]] += self.S
            elif kind == "ask_book":
                for k in ("asker", "target"):
                    if ev.get(k) in blocked:
                        blocked[ev[k]] = True
            got = self._multi_ctx.get(i)
            if got is not None:
                a, ctxs, ti, ri = got
                if not blocked[a] and draws[a] <= self.MODEL_DRAWS:
                    out.append((i, a, ctxs, ti, ri, back[a].copy(), draws[a]))
        return out

    def _reweigh(self, base: dict[str, Any]) -> dict[str, Any]:
        """The answer of three or more players under the player models: a tractable
        approximation (``docs/gofish-belief.md``, "Player models"). :attr:`MODEL_WORLDS` deals
        are drawn from the constraint-only posterior (:meth:`sample_hidden`) and each is
        weighed by the likelihood of the other seats' asks (:meth:`_usable_asks`) under the
        model (:func:`.models.pair_log_likelihood`: the choice of target and rank; the
        holdings at the ask rebuilt from the deal's holdings now and the public events since,
        an unseen draw since summed over its rank in proportion to the cards held). ``auto``
        weighs each seat by a mixture of :data:`.models.AUTO_MODELS` with equal prior odds
        (each deal's weight is the product over seats of the models' mean likelihood), and
        reports each model's share per seat (its marginal likelihood over the deals drawn).
        The holdings are a control variate: the constraint-only answer's chances plus the
        change the weights make on the deals drawn (weighted less unweighted share of each
        count; the even weights of a seat with no ask read change nothing), with the standard
        error of that change (``sum_i ((w_i - 1/N) (x_i - p))^2``, square-rooted: an
        approximation); the face-down books' ranks stay those of the constraint-only answer. Where no ask can be read (or no deal can be drawn) the
        answer is ``base``."""
        key = (len(self.events), self.settled)
        if self._multi_cache is not None and self._multi_cache[0] == key:
            return self._multi_cache[1]
        usable = self._usable_asks()
        names = list(self._multi)
        per_seat, fit = self._model_fit(usable, names)
        self._multi_fit = fit
        worlds = self.sample_hidden(self.MODEL_WORLDS, np.random.default_rng([self.seed, 24, len(self.events)])) \
            if usable else None
        if not worlds:
            self._multi_cache = (key, base)
            return base
        seats = self.others + ["stock"]
        C = np.array([[w[s] for s in seats] for w in worlds], dtype=np.int64)   # (N, K + 1, R)
        N = len(worlds)
        LL = self._asks_log_likelihoods(usable, C, names)
        w = self._deal_weights(LL, per_seat, fit, names, N)
        if w is None:
            self._multi_cache = (key, base)
            return base
        acc, ses, worst = self._weighted_holdings(base, C, seats, w)
        den = float(base["den"])
        hidden = [({r: float(v) / den for r, v in rk.items()}, {o: float(v) / den for o, v in ow.items()})
                  for rk, ow in base["hidden"]]
        bse = (base.get("stderrs") or {}).get("books") or [({}, {}) for _ in hidden]
        ans = dict(base)
        ans.update(exact=False, den=1.0, total=None, holdings=acc, hidden=hidden, stderr=worst, bound=None,
                   stderrs={"holdings": ses, "books": bse}, multi=True,
                   ess=float(1.0 / (w * w).sum()), worlds=N)
        self._multi_cache = (key, ans)
        return ans

    def _model_fit(self, usable: list[tuple], names: list[str]) -> tuple[dict, list[dict]]:
        """``(per_seat, fit)``: per other seat the number of its asks read (``usable``, from
        :meth:`_usable_asks`), and the fit reported per other seat ``{"seat", "asks" (all
        its asks), "weighed" (those read), "weights" (per model name of ``names``, its share:
        even until :meth:`_deal_weights` sets it)}``."""
        per_seat = {s: 0 for s in self.others}
        asked = {s: 0 for s in self.others}
        for a, *_ in self._multi_ctx.values():
            asked[a] += 1
        for _i, a, *_ in usable:
            per_seat[a] += 1
        fit = [{"seat": s, "asks": asked[s], "weighed": per_seat[s],
                "weights": {n: 1.0 / len(names) for n in names}} for s in self.others]
        return per_seat, fit

    def _holdings_at_ask(self, held: np.ndarray, draws: int) -> tuple[np.ndarray, np.ndarray]:
        """The asker's possible holdings at an ask, per sampled deal. ``held`` ``(N, R)``: its
        cards per rank now, with the public moves since the ask undone (so still counting the
        ``draws`` cards it drew unseen since); each unseen draw is taken back as one of the
        cards then held, alike. Returns ``(rows, mix)``: ``rows`` ``(N, c, R)`` the holdings (a
        row with a negative count is impossible), ``mix`` ``(N, c)`` their probabilities."""
        N = len(held)
        eye = np.eye(self.R, dtype=np.int64)
        rows, mix = held[:, None, :], np.ones((N, 1))
        for _ in range(draws):
            tot = rows.sum(axis=2, keepdims=True)
            share = np.where(tot > 0, np.clip(rows, 0, None) / np.maximum(tot, 1), 0.0)   # (N, c, R)
            mix = (mix[:, :, None] * share).reshape(N, -1)
            rows = (rows[:, :, None, :] - eye[None, None, :, :]).reshape(N, -1, self.R)
            keep = mix.any(axis=0)
            rows, mix = rows[:, keep], mix[:, keep]
        return rows, mix

    def _asks_log_likelihoods(self, usable: list[tuple], C: np.ndarray, names: list[str]) -> dict:
        """Per other seat and model name of ``names``, the log-likelihood ``(N,)`` of the
        seat's asks read (``usable``, from :meth:`_usable_asks`) in each sampled deal; ``C``
        ``(N, K + 1, R)`` the deals' cards per other seat (and the stock) and rank."""
        N = len(C)
        LL = {s: {n: np.zeros(N) for n in names} for s in self.others}
        for index, a, ctxs, ti, ri, bk, d in usable:
            rows, mix = self._holdings_at_ask(C[:, self.kidx[a], :] + bk[None, :], d)
            flat = rows.reshape(-1, self.R)
            ok = (flat >= 0).all(axis=1)
            uniq, inv = np.unique(np.where(ok[:, None], flat, 0), axis=0, return_inverse=True)
            inv = inv.reshape(-1)
            lls = self._pair_lls(index, ctxs, uniq, ti, ri)
            for k, n in enumerate(names):
                ll = lls[:, k][inv]
                like = np.where(ok, np.exp(ll), 0.0).reshape(mix.shape)
                with np.errstate(divide="ignore"):
                    LL[a][n] += np.log((like * mix).sum(axis=1))
        return LL

    def _deal_weights(self, LL: dict, per_seat: dict, fit: list[dict], names: list[str], N: int) -> np.ndarray | None:
        """The normalised weights ``(N,)`` of the sampled deals: the product over the other
        seats with an ask read (``per_seat``) of the models' mean likelihood (``LL`` from
        :meth:`_asks_log_likelihoods`); sets each such seat's model shares in ``fit``. ``None``
        when every deal has likelihood 0 (for some seat, or overall)."""
        logw = np.zeros(N)
        for k, s in enumerate(self.others):
            if not per_seat[s]:
                continue
            M = np.stack([LL[s][n] for n in names])     # (models, N)
            top = M.max()
            if not np.isfinite(top):
                return None
            E = np.exp(M - top)
            z = E.mean(axis=1)
            fit[k]["weights"] = {n: float(v) for n, v in zip(names, z / z.sum())}
            with np.errstate(divide="ignore"):
                logw += np.log(E.mean(axis=0)) + top
        top = logw.max()
        if not np.isfinite(top):
            return None
        w = np.exp(logw - top)
        w /= w.sum()
        return w

    def _weighted_holdings(self, base: dict[str, Any], C: np.ndarray, seats: list,
                           w: np.ndarray) -> tuple[dict, dict, float]:
        """The holdings by a control variate: the base answer's (exact) chances plus the
        change the weights ``w`` ``(N,)`` make on the same sampled deals ``C`` ``(N, K + 1,
        R)`` (weighted less unweighted share): where the weights are even the answer is the
        base one, and the sampling noise is that of the change. Returns ``(holdings,
        stderrs, worst)``: per ``(seat or "stock", rank)`` the probability of each count, its
        standard error, and the largest standard error. A count the constraints allow is never
        made impossible by the change (:func:`possible_counts`)."""
        N = len(w)
        acc, ses, worst = {}, {}, 0.0
        u0 = 1.0 / N
        for (s, r), d in base["holdings"].items():
            col = C[:, seats.index(s), self.rank_index[r]]
            hw = np.bincount(col, weights=w, minlength=self.S + 1)
            hu = np.bincount(col, minlength=self.S + 1) / N
            b = np.zeros(len(hw))
            row = float(sum(float(v) for v in d.values()))
            for c, v in d.items():
                b[c] = float(v) / row
            est = possible_counts(b, hw, hu)
            acc[(s, r)] = {c: float(est[c]) for c in range(len(est)) if est[c] > 0}
            se = {}
            for c in range(len(est)):
                x = np.sqrt(float((((w - u0) * ((col == c) - hw[c])) ** 2).sum()))
                if est[c] > 0 or x > 0:
                    se[c] = x
                    worst = max(worst, x)
            ses[(s, r)] = se
        return acc, ses, worst

    def _pair_lls(self, index: int, ctxs: list, rows: np.ndarray, ti: int, ri: int) -> np.ndarray:
        """The log-likelihoods ``(rows, models)`` of the ask at event ``index`` under each model
        of :attr:`_multi`, for every row of the asker's holdings at the ask; kept per ask and
        row (they depend on nothing else), so each position scores only the rows it has not
        seen yet."""
        from . import models as gofish_models  # noqa: PLC0415

        memo = self._ll_memo.setdefault(index, {})
        keys = [r.tobytes() for r in rows]
        miss = [i for i, k in enumerate(keys) if k not in memo]
        if miss:
            got = gofish_models.pair_log_likelihoods(self._multi, ctxs, rows[miss], ti, ri)
            stacked = np.stack([got[n] for n in self._multi], axis=1)
            for j, i in enumerate(miss):
                memo[keys[i]] = stacked[j]
        return np.stack([memo[k] for k in keys]) if keys else np.zeros((0, len(self._multi)))

    def _init_model(self) -> None:
        """Start the player model's memory afresh (:attr:`model_name`): the contexts of the
        other player's asks that the joint filter weighs the states by (two players, a model
        other than uniform)."""
        from . import models as gofish_models  # noqa: PLC0415

        #: per event index of another player's ask: (AskContext, rank index) for the joint
        #: filter to weigh the states by (two players, a model other than uniform)
        self._ask_ctx: dict = {}
        #: the models the joint filter runs with, by name (several: ``auto``'s mixture)
        self._models: dict = {}
        self._ffs: dict = {}
        #: ``auto``: each model's share of the mixture (its posterior probability), or None
        self._auto_weights: dict[str, float] | None = None
        #: three or more players: the models the sampled deals are reweighted by, by name
        self._multi: dict = {}
        #: three or more players: per other seat's ask ``index: (asker, contexts per target,
        #: target index, rank index)``
        self._multi_ctx: dict = {}
        self._multi_cache: tuple | None = None
        #: three or more players: per ask's event index, its log-likelihoods per row of holdings
        self._ll_memo: dict = {}
        #: three or more players: per other seat ``{"seat", "asks", "weighed", "weights"}``
        self._multi_fit: list | None = None
        if self.model_name != "uniform" and self.players >= 3:
            from .agents.peer import GoFishPeerAgent  # noqa: PLC0415

            names = gofish_models.AUTO_MODELS if self.model_name == "auto" else (self.model_name,)
            self._multi = {n: gofish_models.load(n) for n in names}
            self._mem = GoFishPeerAgent(self.game, self.observer, self.options,
                                        {"observer": self.observer, "hand": list(self.hand)})
            self._mem.common = True
            self._shown = gofish_models.ShownRanks(self.players, self.options["give"] == "all")
        if self.model_name != "uniform" and self.players == 2:
            from .agents.peer import GoFishPeerAgent  # noqa: PLC0415

            names = gofish_models.AUTO_MODELS if self.model_name == "auto" else (self.model_name,)
            self._models = {n: gofish_models.load(n) for n in names}
            self._mem = GoFishPeerAgent(self.game, self.observer, self.options,
                                        {"observer": self.observer, "hand": list(self.hand)})
            self._mem.common = True
            self._shown = gofish_models.ShownRanks(self.players, self.options["give"] == "all")

    def _model_sees(self, ev: dict, index: int) -> None:
        """Pass event number ``index`` (already applied to :attr:`state`) to the player model."""
        if not (self._models or self._multi) or ev.get("type") == "assume_lacks":
            return
        if self._multi and ev.get("type") == "ask" and ev.get("asker") != self.observer:
            from .models import ask_context  # noqa: PLC0415

            a, st = ev["asker"], self._mem.state
            targets = [t for t in range(self.players) if t != a and (st.sizes[t] > 0 or t == ev["target"])]
            ctxs = [ask_context(self._mem, st, a, t, self._shown.shown[a]) for t in targets]
            self._multi_ctx[index] = (a, ctxs, targets.index(ev["target"]), self.rank_index[ev["rank"]])
        elif ev.get("type") == "ask" and ev.get("asker") != self.observer:
            from .models import ask_context  # noqa: PLC0415

            a = ev["asker"]
            self._ask_ctx[index] = (ask_context(self._mem, self._mem.state, a, ev["target"],
                                                self._shown.shown[a]), self.rank_index[ev["rank"]])
        self._mem.observe(ev)
        self._shown.observe(ev)


def possible_counts(base: np.ndarray, weighted: np.ndarray, unweighted: np.ndarray) -> np.ndarray:
    """The control variate of :meth:`_weighted_holdings` for one ``(seat, rank)``: the
    probability of each count ``(S + 1,)``, the exact constraint-only chances ``base`` plus
    the change the weights make on the sampled deals (``weighted`` less ``unweighted`` share
    of each count, both ``(S + 1,)``), normalised to sum to 1.

    Where that change would take a count the constraints allow (``base > 0``) to zero or
    below, which sampling noise does on a few small counts, the count keeps instead its
    importance-ratio estimate ``base * weighted / unweighted`` (``base`` itself where no
    sampled deal has that count): smaller, but above zero wherever a deal with that count
    has weight, so a possible card is never called impossible. Where nothing is left the
    answer is ``base``."""
    est = base + weighted - unweighted
    low = (base > 0) & (est <= 0)
    if low.any():
        ratio = np.divide(weighted, unweighted, out=np.ones_like(base), where=unweighted > 0)
        est = np.where(low, base * ratio, est)
    est = np.clip(est, 0.0, None)
    return est / est.sum() if est.sum() > 0 else base
