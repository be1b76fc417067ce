"""The player models' side of the Hand and Foot tracker: each seat's recent choices, the
model that fits each seat (``auto``), the weights of the sampled worlds, the weighted answer, and
each seat's next turn played out by its policy."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from .counting import KIND_INDEX, KINDS, Answer, Structure, _place_name, kind_of, kind_table
from .rules import sort_cards

# ----------------------------------------------------------------------------- the tracker


class ModelWeighing:
    """The player models' side of the Hand and Foot tracker: each seat's recent choices, the (a part of the state class, which derives from it)."""

    # ------------------------------------------------------------------ player models
    def zone_at(self, world: dict[str, Any], seat: int, time: int) -> Counter:
        """``seat``'s cards in ``world`` just before the event at ``time`` (of the hand)."""
        line = next(ln for ln in self.structure().lines if ln.seat == seat)
        return _zone_before(line, world["groups"][seat], time)

    def recent_choices(self) -> list:
        """The choices the player model weighs: each other player's choices of its last
        ``model_turns`` turns (older choices, weighed too, make the importance weights collapse
        onto a few worlds: see docs/handfoot.md, "Player models")."""
        by: dict[int, list] = {}
        for ch in self.choices:
            by.setdefault(ch.seat, []).append(ch)
        keep = []
        for lst in by.values():
            times = sorted({c.time for c in lst})[-2 * self.model_turns:]
            keep += [c for c in lst if c.time in times]
        return keep

    def log_weights(self, worlds: list[dict[str, Any]], model: str | None = None) -> np.ndarray:
        """The log-likelihood of the other players' recent choices (:meth:`recent_choices`) in
        each world under the player model ``model`` (default the tracker's), times
        ``model_temperature``. Under ``auto`` each seat's choices count under the model
        :meth:`seat_models` gives it, a seat weighed as ``uniform`` not at all."""
        from .models import load, log_likelihood  # noqa: PLC0415

        name = model or self.model
        chosen = self.recent_choices()
        if name == "auto":
            per = self.seat_models()
            chosen = [ch for ch in chosen if per.get(ch.seat) == "fitted"]
            name = "fitted"
        if name == "uniform" or not chosen:
            return np.zeros(len(worlds))
        if worlds is self.worlds() and name in ("fitted", "random"):
            # the per-seat log-likelihoods over the tracker's own worlds are computed once
            seats = {ch.seat for ch in chosen}
            ll = self._seat_ll()
            return sum((ll[s][name] for s in seats), np.zeros(len(worlds))) * self.model_temperature
        m = load(name)
        out = np.zeros(len(worlds))
        for i, w in enumerate(worlds):
            out[i] = log_likelihood(m, chosen, lambda ch, w=w: self.zone_at(w, ch.seat, ch.time))
        return out * self.model_temperature

    def seat_models(self) -> dict[int, str]:
        """The model weighing each other seat (``{seat: "uniform" or "fitted"}``): the tracker's
        ``model`` for every seat, or under ``auto`` per seat the choice model of
        :data:`~.models.AUTO_CANDIDATES` under which its recent choices (:meth:`recent_choices`)
        are likeliest, their likelihood averaged over the constraint-only worlds (a marginal
        likelihood): ``fitted``, or ``random`` (every option alike), which weighs the seat as
        ``uniform`` does; a seat with no choice yet, or a tie, is ``uniform``. Cached until the
        next event."""
        if "seat_models" in self._cache:
            return self._cache["seat_models"]
        others = [s for s in range(self.state.players) if s != self.observer]
        fit: dict[int, dict[str, float]] = {}
        if self.model == "auto" and (self.state.phase == "over" or self.structure().hand_over):
            out = {s: "uniform" for s in others}       # between hands nothing is hidden
        elif self.model != "auto":
            out = {s: self.model for s in others}
        else:
            from .models import AUTO_CANDIDATES  # noqa: PLC0415

            lls = self._seat_ll()
            out = {}
            for s in others:
                if s not in lls:
                    out[s] = "uniform"
                    continue
                fit[s] = {}
                for name in AUTO_CANDIDATES:
                    ll = lls[s][name]
                    top = float(ll.max()) if len(ll) else 0.0
                    fit[s][name] = (top + float(np.log(np.mean(np.exp(ll - top))))) if np.isfinite(top) else top
                out[s] = "fitted" if fit[s]["fitted"] > fit[s]["random"] + 1e-9 else "uniform"
        self._cache["seat_models"] = out
        self._cache["seat_fit"] = fit
        return out

    def _seat_ll(self) -> dict[int, dict[str, np.ndarray]]:
        """Per other seat with recent choices, per model of :data:`~.models.AUTO_CANDIDATES`,
        the log-likelihood of its recent choices in each of :meth:`worlds` (untempered; cached
        until the next event)."""
        if "seat_ll" in self._cache:
            return self._cache["seat_ll"]
        from .models import AUTO_CANDIDATES, load, log_likelihood  # noqa: PLC0415

        by: dict[int, list] = {}
        for ch in self.recent_choices():
            by.setdefault(ch.seat, []).append(ch)
        ws = self.worlds() if by else []
        out: dict[int, dict[str, np.ndarray]] = {}
        for s, chs in sorted(by.items()):
            out[s] = {name: np.array([log_likelihood(load(name), chs, lambda ch, w=w: self.zone_at(w, ch.seat, ch.time))
                                      for w in ws]) for name in AUTO_CANDIDATES}
        self._cache["seat_ll"] = out
        return out

    def rollout_policies(self) -> dict[int, str]:
        """The policy each other seat's next turn is played by in the chances of what it *will*
        do (:func:`~.decide.next_turn_chances`): ``"random"`` for a seat whose recent choices
        the ``random`` model explains better than the fitted one (:meth:`seat_fit`, under
        ``auto``); otherwise ``"mixed"``: the worlds played alternately by ``peer`` and by
        ``belief`` (its timing decisions on fewer worlds of its own:
        :data:`~.decide.BELIEF_PROXY`), the two kinds of play the fitted model was fitted on.
        The ``uniform`` and ``fitted`` models read no policy from the play: ``"mixed"`` for
        every seat."""
        from .decide import MIXED  # noqa: PLC0415

        others = [s for s in range(self.state.players) if s != self.observer]
        fit = self.seat_fit() if self.model == "auto" else {}
        return {s: ("random" if s in fit and fit[s]["random"] > fit[s]["fitted"] + 1e-9 else MIXED) for s in others}

    def next_turn(self, worlds: int | None = None) -> dict[int, Any]:
        """Per other seat its :class:`~.decide.Chances` of what it will do within its next
        turn (opens, reaches its foot, goes out) over :meth:`model_worlds`, its turn played in
        each world by :meth:`rollout_policies` (with a generator seeded for the position and
        seat, so the same position gives the same chances; cached until the next event)."""
        from .decide import next_turn_chances  # noqa: PLC0415

        key = ("next_turn", worlds)
        if key in self._cache:
            return self._cache[key]
        ws = self.model_worlds(worlds)
        pol = self.rollout_policies()
        out = {s: next_turn_chances(self.state, s, ws, self.rng(11 + s), p, self.world_policies(s, ws, p))
               for s, p in sorted(pol.items())}
        self._cache[key] = out
        return out

    def world_policies(self, seat: int, worlds: list[dict[str, Any]], policy: str) -> list[str] | None:
        """Per world the policy ``seat``'s next turn is played by when its ``policy`` is
        ``"mixed"`` and the worlds tell the two apart (else ``None``: the worlds alternately
        ``peer`` and ``belief``): a world in which ``seat`` could have gone out at its last
        discard (:meth:`peer_excluded`) is played by ``belief``, since ``peer`` would have gone
        out (the likelihood of ``peer``'s choice is zero there, ``belief``'s is not: it plays on
        while its partner holds cards it could lay); the others alternately by ``peer`` and
        ``belief`` as before. Under ``uniform`` no policy is read (``None``)."""
        from .decide import MIXED  # noqa: PLC0415

        if policy != MIXED or self.model == "uniform" or seat not in self.last_discards \
                or not self.last_discards[seat].in_foot:
            return None
        out = [("peer", "belief")[i % 2] for i in range(len(worlds))]
        seen: dict[int, bool] = {}
        for i, w in enumerate(worlds):
            if id(w) not in seen:
                seen[id(w)] = self.peer_excluded(w, seat)
            if seen[id(w)]:
                out[i] = "belief"
        return out

    def peer_excluded(self, world: dict[str, Any], seat: int) -> bool:
        """Whether ``seat``'s last discard rules the ``peer`` player out in ``world``: it was in
        its foot, its team held its books, it had not asked to go out that turn, and its cards
        then (the discard included) allowed a way out (:func:`~.plan.go_out_discard`): ``peer``
        would have asked (and, told yes, gone out)."""
        from .plan import BookNeeds, go_out_discard  # noqa: PLC0415

        m = self.last_discards.get(seat)
        if m is None or not (m.in_foot and m.books_met and not m.asked):
            return False
        line = next(ln for ln in self.structure().lines if ln.seat == seat)
        z = _zone_before(line, world["groups"][seat], m.time)
        needs = BookNeeds(self.options["books_clean"], self.options["books_dirty"])
        return go_out_discard(z, list(m.melds), needs, self.options["out_by_laying"]) is not None

    def seat_fit(self) -> dict[int, dict[str, float]]:
        """Under ``auto``: per seat with choices, the log marginal likelihood of its recent
        choices under each candidate model (:meth:`seat_models`); empty otherwise."""
        self.seat_models()
        return self._cache["seat_fit"]

    @property
    def weighted(self) -> bool:
        """Whether a player model weighs the worlds now (``fitted``, or ``auto`` with some seat
        weighed as ``fitted``); otherwise the answer is the constraint-only posterior."""
        if self.model == "uniform":
            return False
        return "fitted" in self.seat_models().values()

    def model_worlds(self, n: int | None = None) -> list[dict[str, Any]]:
        """The worlds the chances are counted over: :meth:`worlds`, resampled by the player
        model's importance weights when one weighs them (:attr:`weighted`; systematic
        resampling with a generator seeded for the position, so the same position gives the
        same worlds), then read for what the :meth:`laying_seats` did not lay
        (:meth:`unlaid_worlds`)."""
        ws = self.worlds(n)
        if not ws:
            return ws
        key = ("model_worlds", len(ws))
        if key in self._cache:
            return self._cache[key]
        out = ws
        if self.weighted:
            from ...belief.models import importance_weights  # noqa: PLC0415

            w = (self._weights() if ws is self.worlds() else importance_weights(self.log_weights(ws))).w
            u = (self.rng(4).random() + np.arange(len(ws))) / len(ws)
            idx = np.minimum(np.searchsorted(np.cumsum(w), u), len(ws) - 1)
            out = [ws[int(i)] for i in idx]
        if self.laying_seats():
            out = self.unlaid_worlds(out)
        self._cache[key] = out
        return out

    # ------------------------------------------------------------------ what a player did not lay
    def laying_seats(self) -> list[int]:
        """The other seats whose cards are read from what they did not lay (:meth:`unlaid_worlds`):
        under every model but ``uniform`` (the constraint-only posterior), each seat with a
        discard in the hand under way whose next turn is not played as ``random``
        (:meth:`rollout_policies`): the ``peer`` and ``belief`` players lay every card they
        can each turn, a ``random`` player does not."""
        if self.model == "uniform" or not self.last_discards:
            return []
        pol = self.rollout_policies()
        return [s for s in sorted(self.last_discards) if pol.get(s) != "random"]

    def unlaid_worlds(self, worlds: list[dict[str, Any]], max_tries: int = 8) -> list[dict[str, Any]]:
        """``worlds`` in which each of the :meth:`laying_seats` held, at its last discard,
        nothing its policy would have laid on the table as it was then
        (:func:`~.plan.would_lay`, the ``peer`` and ``belief`` players' common plays).

        The constraint-only worlds give a player any cards its plays allow, but a player that
        lays every card it can keeps only what it could not lay, so its hand is less meldable
        than a uniform one (``docs/calibration.md``, "Hand and Foot"). Each world breaking it is
        repaired, an approximation of conditioning on it: a card the policy would lay (drawn at
        random among them) goes from the latest hidden group of the seat that can spare it (its
        plays stay covered) to the free places (the stock and the unpicked feet), in exchange
        for a card drawn uniformly from them; the swap is kept when fewer cards would be laid
        after it. A card that cannot be spared (its plays need it, or it is known from the
        pile) stays; a seat gets at most ``max_tries`` swaps per card its policy would lay, plus
        ``max_tries``, after which the world stays as repaired so far. A world repeated in
        ``worlds`` (the player model's resampling) is repaired once, and the copies stay one
        object. The generator is seeded for the position (:meth:`rng`, stream 5).

        Args:
            worlds: worlds of :meth:`worlds` (``"groups"`` included), possibly repeated.
            max_tries: see above.

        Returns:
            A new list of worlds; a repaired world is a new dict, the others are ``worlds``' own.
        """
        from .plan import BookNeeds  # noqa: PLC0415

        seats = self.laying_seats()
        lines = {ln.seat: ln for ln in self.structure().lines}
        needs = BookNeeds(self.options["books_clean"], self.options["books_dirty"])
        rng = self.rng(5)
        done: dict[int, dict[str, Any]] = {}
        out = []
        for w in worlds:
            if id(w) not in done:
                done[id(w)] = self._unlaid_world(w, seats, lines, needs, rng, max_tries)
            out.append(done[id(w)])
        return out

    def _unlaid_world(self, world: dict[str, Any], seats: list[int], lines: dict, needs, rng: np.random.Generator,
                      max_tries: int) -> dict[str, Any]:
        """One world of :meth:`unlaid_worlds` (``world`` itself when nothing is changed)."""
        from .plan import would_lay  # noqa: PLC0415

        new = None
        free: list[tuple[str | int, str]] | None = None
        for s in seats:
            m = self.last_discards[s]
            line = lines[s]
            groups = [Counter(g) for g in (new or world)["groups"][s]]
            z = _zone_before(line, groups, m.time)
            laid = would_lay(z, m.melds, m.opened, m.in_foot, m.minimum, needs)
            v = sum(laid.values())
            if not v:
                continue
            if free is None:
                src = new or world
                free = [("stock", c) for c in sorted(src["stock"].elements())]
                free += [(f, c) for f in sorted(src["feet"]) for c in sorted(src["feet"][f].elements())]
            if not free:
                break
            stuck: set[str] = set()
            changed = False
            for _ in range(max_tries * (v + 1)):
                cands = [c for c in sorted(laid.elements()) if c not in stuck]
                if not v or not cands:
                    break
                x = cands[int(rng.integers(len(cands)))]
                gi = _spare_group(line, groups, x, m.time)
                if gi is None:
                    stuck.add(x)
                    continue
                j = int(rng.integers(len(free)))
                place, d = free[j]
                z2 = z.copy()
                z2[x] -= 1
                z2[d] += 1
                z2 = +z2
                laid2 = would_lay(z2, m.melds, m.opened, m.in_foot, m.minimum, needs)
                v2 = sum(laid2.values())
                if v2 >= v:
                    continue
                groups[gi][x] -= 1
                groups[gi][d] += 1
                groups[gi] = +groups[gi]
                free[j] = (place, x)
                z, laid, v = z2, laid2, v2
                changed = True
            if changed:
                if new is None:
                    new = {**world, "zones": dict(world["zones"]), "groups": dict(world["groups"])}
                new["groups"][s] = groups
                played, taken = line.totals()
                tot = Counter()
                for g in groups:
                    tot.update(g)
                tot.update(taken)
                tot.subtract(played)
                new["zones"][s] = Counter({c: k for c, k in tot.items() if k > 0})
        if new is None:
            return world
        stock, feet = Counter(), {f: Counter() for f in world["feet"]}
        for place, c in free:
            if place == "stock":
                stock[c] += 1
            else:
                feet[place][c] += 1
        new["stock"], new["feet"] = stock, feet
        return new

    def model_ess(self) -> float | None:
        """The effective sample size of the weighted worlds (``None`` when none weighs them)."""
        if not self.weighted:
            return None
        return float(self._weights().ess)

    def _weights(self):
        """The importance weights of :meth:`worlds` under the model (cached until the next event)."""
        if "weights" not in self._cache:
            from ...belief.models import importance_weights  # noqa: PLC0415

            self._cache["weights"] = importance_weights(self.log_weights(self.worlds()))
        return self._cache["weights"]

    def _model_answer(self, st: Structure) -> Answer:
        """Token marginals weighted by the player model (importance weights over the worlds)."""

        ws = self.worlds()
        wt = self._weights()
        tokens_all = [c for c in sort_cards(st.pool) if st.pool[c] > 0]
        places: dict[str, list[Counter]] = {}
        for w in ws:
            for s, z in w["zones"].items():
                places.setdefault(str(s), []).append(z)
            for s, f in w["feet"].items():
                places.setdefault(f"foot {s}", []).append(f)
            places.setdefault("stock", []).append(w["stock"])
        tokens: dict[str, dict[str, dict[int, float]]] = {}
        se_max = 0.0
        for nm, cnts in places.items():
            tokens[nm] = {}
            for c in tokens_all:
                vals = np.array([cn.get(c, 0) for cn in cnts])
                pmf = {}
                for k in np.unique(vals):
                    ind = (vals == k).astype(float)
                    p = float(ind @ wt.w)
                    se = float(np.sqrt(((wt.w * (ind - p)) ** 2).sum()))
                    se_max = max(se_max, se)
                    pmf[int(k)] = p
                tokens[nm][c] = pmf
        ans = Answer(False, None, tokens, {}, se_max, len(ws))
        ans.ess = wt.ess
        kinds: dict[str, dict[str, dict[int, float]]] = {}
        for w_i, w in zip(wt.w, ws):
            pl = {str(s): z for s, z in w["zones"].items()}
            pl.update({f"foot {s}": f for s, f in w["feet"].items()})
            pl["stock"] = w["stock"]
            for nm, cnt in pl.items():
                per = Counter()
                for c, k in cnt.items():
                    per[kind_of(c)] += k
                d = kinds.setdefault(nm, {})
                for kd in KINDS:
                    dk = d.setdefault(kd, {})
                    dk[per[kd]] = dk.get(per[kd], 0) + float(w_i)
        ans.kinds = kinds
        self._model_kinds(ans, ws, wt.w)
        return ans

    def _model_kinds(self, ans: Answer, ws: list[dict[str, Any]], w: np.ndarray) -> None:
        """Expected cards of each kind per place under the player model's weights ``w`` over the
        worlds ``ws`` (``ans.kind_mean``, ``ans.kind_se``: the weighted mean and its standard
        error, :func:`cardmind.belief.models.weighted_mean`). The positions no play constrains
        and no weighed choice reads (the unpicked feet, the stock, the hidden groups of a seat
        the model does not weigh, after its last play) are exchangeable under the weights too,
        so they share their total by their sizes."""
        st = self.structure()
        per_seat = self.seat_models()
        weighed = {s for s, m in per_seat.items() if m == "fitted"}
        cols: list[tuple[str, int | None, int | None]] = []   # (name, seat, group) per place
        caps: list[int] = []
        unc: list[int] = []
        for ln in st.lines:
            deepest = max((p for lst in ln.needs().values() for p, _ in lst), default=0)
            for gi, g in enumerate(ln.groups):
                if ln.seat not in weighed and gi >= deepest:
                    unc.append(len(cols))
                cols.append((str(ln.seat), ln.seat, gi))
                caps.append(g[1])
        for name, seat, size in st.free:
            unc.append(len(cols))
            cols.append((_place_name((name, seat)), None, None))
            caps.append(size)
        names = list(dict.fromkeys(c[0] for c in cols))
        agg = np.zeros((len(names), len(cols)))
        for j, (nm, _, _) in enumerate(cols):
            agg[names.index(nm), j] = 1.0
        shift = np.zeros((len(names), len(KINDS)))
        for ln in st.lines:
            p, k = ln.totals()
            for c in set(p) | set(k):
                shift[names.index(str(ln.seat)), KIND_INDEX[kind_of(c)]] += k[c] - p[c]
        capv = np.array(caps, dtype=float)
        ys = []
        for wd in ws:
            x = np.zeros((len(cols), len(KINDS)))
            for j, (nm, seat, gi) in enumerate(cols):
                if seat is not None:
                    cnt = wd["groups"][seat][gi]
                elif nm == "stock":
                    cnt = wd["stock"]
                else:
                    cnt = wd["feet"].get(int(nm[5:]), Counter())
                for c, k in cnt.items():
                    x[j, KIND_INDEX[kind_of(c)]] += k
            if len(unc) > 1 and capv[unc].sum():
                x[unc] = np.outer(capv[unc] / capv[unc].sum(), x[unc].sum(axis=0))
            ys.append(agg @ x + shift)
        y = np.array(ys)
        mean = np.tensordot(w, y, axes=1)
        se = np.sqrt(((w[:, None, None] * (y - mean)) ** 2).sum(axis=0))
        ans.kind_mean = kind_table(mean, names)
        ans.kind_se = kind_table(se, names)


def _zone_before(line, groups: list[Counter], time: int) -> Counter:
    """A player's cards just before the event at ``time`` of the hand: its hidden ``groups``
    (one Counter per group of ``line``, :class:`~.counting.SeatLine`) and pickups before it,
    less its plays before it."""
    z = Counter()
    for (t, _, _), cnt in zip(line.groups, groups):
        if t < time:
            z.update(cnt)
    for t, cnt in line.pickups:
        if t < time:
            z.update(cnt)
    for t, cnt in line.plays:
        if t < time:
            z.subtract(cnt)
    return +z


def _spare_group(line, groups: list[Counter], card: str, time: int) -> int | None:
    """The latest of ``line``'s hidden groups before ``time`` holding ``card`` whose copy can go
    without leaving a play of it uncovered (the player's copies of it, group by group, pickups
    and plays in their order, never below zero), or ``None``."""
    for gi in range(len(groups) - 1, -1, -1):
        if line.groups[gi][0] >= time or not groups[gi].get(card):
            continue
        evs = [(t, 0, g.get(card, 0) - (1 if i == gi else 0)) for i, ((t, _, _), g) in enumerate(zip(line.groups, groups))]
        evs += [(t, 1, -c.get(card, 0)) for t, c in line.plays]
        evs += [(t, 2, c.get(card, 0)) for t, c in line.pickups]
        held = 0
        for _, _, k in sorted(evs):
            held += k
            if held < 0:
                break
        else:
            return gi
    return None
