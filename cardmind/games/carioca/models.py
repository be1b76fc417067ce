"""Player models of contract rummy: what a player's takes, passes, steals and discards say
about the cards it holds.

Two kinds of choice are modelled with the shared softmax models
(:class:`cardmind.belief.models.SoftmaxChoice`, ``P(option) ∝ exp(w · x)``):

* an **offer**: accept (take on turn, steal out of turn) or pass the discard on offer. The
  accept option's features (:data:`OFFER_FEATURES`) describe the card against the chooser's
  hand; the pass option has only its ``pass`` indicator;
* a **discard**: which card (each distinct card of the hand is an option,
  :data:`DISCARD_FEATURES`).

The features are cheap counts (same rank, same suit one and two ranks away, joker, points,
fits a meld on the table...), the terms the published bots decide by. A model's weights are
fitted by maximum likelihood on simulated games of ``peer`` or ``belief`` players
(``eval/carioca_models.py fit``) and shipped in ``data/models.json``: ``peer`` and ``belief``
each have an offer and a discard model.

:func:`world_log_likelihoods` weighs a sampled world by the likelihood of every choice the
other seats made this hand. It needs each chooser's hand at each choice: it walks the hand
back from the world's hands now, adding back each card the chooser showed and taking away
each card it took; a card it drew unseen is taken away at random among the cards it then held
(an approximation: the exact time each hidden card arrived is not tracked).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ...belief.models import ChoiceModel, SoftmaxChoice, UniformChoice, model_from_json
from .melds import layoff_places
from .rules import RUN_VALUE, card_points, is_joker

#: the player models (the first is the default: ``auto``, each other seat weighed by the fitted
#: model that best explains its choices this hand; ``uniform``: the constraint-only posterior)
MODELS = ("auto", "uniform", "peer", "belief")
#: the models ``auto`` chooses among for each seat (``uniform``: choices that say nothing)
AUTO_MODELS = ("peer", "belief", "uniform")

OFFER_FEATURES = ("same_rank", "suit_1", "suit_2", "joker", "fits_table", "steal", "points", "pass")
DISCARD_FEATURES = ("same_rank", "suit_1", "suit_2", "joker", "fits_table", "points", "just_taken")

DATA = Path(__file__).resolve().parent / "data" / "models.json"


def _values(rank: str) -> tuple[int, ...]:
    return (1, 14) if rank == "A" else (RUN_VALUE[rank],)


_SUITS = "CDHS"


def _profile(hand: Counter) -> tuple[dict, list]:
    """Counts of ``hand`` by rank and by (suit, run value) (an Ace at 1 and at 14)."""
    by_rank: dict[str, int] = {}
    by_sv = [[0] * 16 for _ in range(4)]
    for c, k in hand.items():
        if k <= 0 or is_joker(c):
            continue
        by_rank[c[0]] = by_rank.get(c[0], 0) + k
        row = by_sv[_SUITS.index(c[1])]
        for v in _values(c[0]):
            row[v] += k
    return by_rank, by_sv


def _near(card: str, by_rank: dict, by_sv: list, sets: bool, runs: bool, self_count: int = 0) -> tuple[int, int, int]:
    """:func:`neighbours` from a :func:`_profile` (``self_count``: copies of ``card`` itself
    in the profile to leave out of the same-rank count)."""
    if is_joker(card):
        return 0, 0, 0
    r = card[0]
    same = (by_rank.get(r, 0) - self_count) if sets else 0
    one = two = 0
    if runs:
        row = by_sv[_SUITS.index(card[1])]
        if r == "A":
            one, two = row[2] + row[13], row[3] + row[12]
        else:
            v = RUN_VALUE[r]        # 2..13: an Ace (at 1 and 14) is within two of v only once
            one, two = row[v - 1] + row[v + 1], row[v - 2] + row[v + 2]
    return same, one, two


def neighbours(card: str, hand: Counter, sets: bool, runs: bool) -> tuple[int, int, int]:
    """``(same rank, same suit one rank away, two ranks away)`` cards of ``hand`` around
    ``card`` (the rank term only when the contract has sets, the suit terms only with runs;
    the Ace is next to the 2 and to the King)."""
    by_rank, by_sv = _profile(hand)
    return _near(card, by_rank, by_sv, sets, runs)


def _fits(card: str, ctx: dict) -> bool:
    cache = ctx.setdefault("_fits", {})
    hit = cache.get(card)
    if hit is None:
        hit = cache[card] = any(layoff_places(m["kind"], m["cards"], card) for m in ctx["table"])
    return hit


def offer_features(card: str, hand: Counter, ctx: dict) -> np.ndarray:
    """The two options of an offer (accept, pass) as rows of :data:`OFFER_FEATURES`.

    ``ctx``: ``sets``, ``runs`` (the contract has them), ``down`` (the chooser is down),
    ``table`` (the melds on the table), ``steal`` (accepting is a steal), ``options``.
    """
    return np.array(offer_rows(card, hand, ctx), dtype=float)


def offer_rows(card: str, hand: Counter, ctx: dict) -> list[list[float]]:
    """:func:`offer_features` as lists."""
    same, one, two = neighbours(card, hand, ctx["sets"], ctx["runs"])
    fit = 1.0 if ctx["down"] and _fits(card, ctx) else 0.0
    pts = card_points(card, ctx["options"]) / 10.0
    return [[same, one, two, 1.0 if is_joker(card) else 0.0, fit, 1.0 if ctx["steal"] else 0.0, pts, 0.0],
            [0, 0, 0, 0, 0, 0, 0, 1.0]]


def discard_features(hand: Counter, ctx: dict) -> tuple[list[str], np.ndarray]:
    """The options of a discard: the distinct cards of ``hand`` and their rows of
    :data:`DISCARD_FEATURES` (``ctx`` as :func:`offer_features`, plus ``taken``: the discard
    it took this turn, if any)."""
    cards, rows = discard_rows(hand, ctx)
    return cards, np.array(rows, dtype=float)


def discard_rows(hand: Counter, ctx: dict) -> tuple[list[str], list[list[float]]]:
    """:func:`discard_features` as lists."""
    cards = sorted(c for c, k in hand.items() if k > 0)
    by_rank, by_sv = _profile(hand)
    rows = []
    sets, runs = ctx["sets"], ctx["runs"]
    for c in cards:
        if is_joker(c):
            same = one = two = 0
        else:
            same, one, two = _near(c, by_rank, by_sv, sets, runs, self_count=1)
        fit = 1.0 if ctx["down"] and _fits(c, ctx) else 0.0
        rows.append([same, one, two, 1.0 if is_joker(c) else 0.0, fit, card_points(c, ctx["options"]) / 10.0,
                     1.0 if c == ctx.get("taken") else 0.0])
    return cards, rows


def _logp(weights: list[float], rows: list[list[float]], chosen: int) -> float:
    """``log softmax(rows · weights)[chosen]`` in plain Python (small option sets)."""
    z = [sum(a * b for a, b in zip(r, weights)) for r in rows]
    m = max(z)
    return z[chosen] - m - math.log(sum(math.exp(v - m) for v in z))


@lru_cache(maxsize=None)
def _load() -> dict:
    if not DATA.exists():
        return {}
    return json.loads(DATA.read_text())


def load(name: str) -> tuple[ChoiceModel, ChoiceModel]:
    """``(offer model, discard model)`` of the player model ``name``.

    Raises:
        ValueError: an unknown model, or one whose fitted weights are missing.
    """
    if name == "uniform":
        return UniformChoice(), UniformChoice()
    data = _load().get(name)
    if data is None:
        raise ValueError(f"no fitted contract rummy player model {name!r} in {DATA.name} "
                         f"(run eval/carioca_models.py fit)")
    return model_from_json(data["offer"]), model_from_json(data["discard"])


# ---------------------------------------------------------------------------- decisions
def decision_of(before, event: dict) -> dict | None:
    """The public facts of a choice another seat made (an offer answered or a discard), taken
    from the state ``before`` the event, or ``None`` when the event is no such choice."""
    t = event["type"]
    if t in ("take", "pass", "steal"):
        p = event["player"]
        return {"kind": "offer", "seat": p, "card": before.offer["card"], "accept": t != "pass",
                "steal": p != before.turn, "ctx": _ctx(before, p)}
    if t == "discard":
        p = event["player"]
        taken = None
        for ev in reversed(before.history[before.hand_start:]):
            if ev["type"] == "take" and ev.get("player") == p:
                taken = ev["card"]
                break
            if ev["type"] in ("discard", "draw"):
                break
        ctx = _ctx(before, p)
        ctx["taken"] = taken
        return {"kind": "discard", "seat": p, "card": event["card"], "ctx": ctx}
    return None


def _ctx(state, seat: int) -> dict:
    return {"sets": state.sets > 0, "runs": state.runs > 0, "down": state.down[seat],
            "table": [{"kind": m["kind"], "cards": list(m["cards"])} for m in state.table],
            "steal": seat != state.turn, "options": state.options}


def hands_at_decisions(events: list[dict], decisions: list[tuple[int, dict]], seat: int, hand_now: Counter,
                       penalty: int, rng: np.random.Generator) -> dict[int, Counter]:
    """``{event index: seat's hand when it made that choice}``, walking ``events`` (this hand's,
    as the observer saw them) back from ``hand_now`` (see the module docstring)."""
    x = Counter(hand_now)
    want = {i for i, d in decisions if d["seat"] == seat}
    out: dict[int, Counter] = {}

    def drop_random(k: int) -> None:
        for _ in range(k):
            items = list(x.elements())
            if not items:
                return
            c = items[int(rng.integers(len(items)))]
            x[c] -= 1

    first = min(want, default=len(events))
    for i in range(len(events) - 1, first - 1, -1):
        ev = events[i]
        t = ev["type"]
        if ev.get("player") != seat and t != "hand_end":
            continue
        if t in ("discard", "lay_off"):
            x[ev["card"]] += 1
        elif t == "go_down":
            for m in ev["melds"]:
                x.update(m["cards"])
        elif t in ("take", "steal"):
            if t == "steal":
                drop_random(penalty)
            if x[ev["card"]] > 0:
                x[ev["card"]] -= 1
        elif t == "draw":
            drop_random(1)
        if i in want:
            out[i] = +Counter(x)
    return out


def world_log_likelihoods(tracker, worlds: list, model: str, recent: int | None = None) -> np.ndarray:
    """The log-likelihood of every other seat's choices this hand in each world of ``worlds``
    (:meth:`~.belief.CariocaBelief.sample_worlds`) under the player model ``model`` (only each
    seat's last ``recent`` choices when given: what it collects now): shape ``(len(worlds),)``."""
    per = seat_log_likelihoods(tracker, worlds, {s: model for s in range(tracker.players)
                                                 if s != tracker.observer}, recent)
    return sum(per.values(), np.zeros(len(worlds)))


def seat_log_likelihoods(tracker, worlds: list, models: dict[int, str],
                         recent: int | None = None) -> dict[int, np.ndarray]:
    """Per other seat ``s`` of ``models``: the log-likelihood of its choices this hand in each
    world under the player model ``models[s]`` (as :func:`world_log_likelihoods`), shape
    ``(len(worlds),)``.

    Raises:
        ValueError: a model with no fitted weights.
    """
    per = seat_log_likelihoods_by_model(tracker, worlds, {s: (m,) for s, m in models.items()}, recent)
    return {s: per[s][m] for s, m in models.items() if s in per}


def seat_log_likelihoods_by_model(tracker, worlds: list, models: dict[int, tuple[str, ...]],
                                  recent: int | None = None) -> dict[int, dict[str, np.ndarray]]:
    """Per other seat ``s`` of ``models`` and per player model ``m`` of ``models[s]``: the
    log-likelihood of the seat's choices this hand in each world under ``m`` (as
    :func:`world_log_likelihoods`), shape ``(len(worlds),)``. The hands at each decision and
    the choices' feature rows are built once per world and seat and scored by every model, so
    weighing several models (``auto``) costs little more than one.

    Raises:
        ValueError: a model with no fitted weights.
    """
    fitted = {}
    for name in {m for ms in models.values() for m in ms}:
        offer_m, discard_m = load(name)
        fitted[name] = (list(getattr(offer_m, "weights", np.zeros(len(OFFER_FEATURES)))),
                        list(getattr(discard_m, "weights", np.zeros(len(DISCARD_FEATURES)))))
    decisions = tracker.decisions
    if recent is not None:
        keep, seen = [], Counter()
        for i, d in reversed(decisions):
            if seen[d["seat"]] < recent:
                keep.append((i, d))
                seen[d["seat"]] += 1
        decisions = keep[::-1]
    events = tracker.hand_events
    penalty = tracker.options["steal_penalty"]
    others = [s for s in range(tracker.players) if s != tracker.observer and s in models]
    out = {s: {m: np.zeros(len(worlds)) for m in models[s]} for s in others}
    for j, (hands, _stock) in enumerate(worlds):
        rng = np.random.default_rng([tracker.seed, len(tracker.events), j])
        for s in others:
            names = models[s]
            total = dict.fromkeys(names, 0.0)
            at = hands_at_decisions(events, decisions, s, Counter(hands[s]), penalty, rng)
            for i, d in decisions:
                if d["seat"] != s or i not in at:
                    continue
                hand = at[i]
                if d["kind"] == "offer":
                    d["ctx"]["steal"] = d["steal"]
                    rows = offer_rows(d["card"], hand, d["ctx"])
                    chosen, which = (0 if d["accept"] else 1), 0
                else:
                    cards, rows = discard_rows(hand, d["ctx"])
                    if d["card"] not in cards or len(cards) < 2:
                        continue
                    chosen, which = cards.index(d["card"]), 1
                for m in names:
                    total[m] += _logp(fitted[m][which], rows, chosen)
            for m in names:
                out[s][m][j] = total[m]
    return out


def fit_models(records: list, name: str, seats: list[set[int]] | None = None) -> dict[str, Any]:
    """Fit the offer and discard models of one player type on complete records: the decisions
    of the seats it played (``seats[i]`` for record ``i``; every seat when ``None``), with the
    true hands of the choosers.

    Returns:
        ``{"offer": SoftmaxChoice JSON, "discard": SoftmaxChoice JSON}``.
    """
    from ...core import get_game  # noqa: PLC0415

    game = get_game("carioca")
    offers, discards = [], []
    for r, rec in enumerate(records):
        st = game.new_state(rec.options, rec.header)
        mine = None if seats is None else seats[r]
        for ev in rec.events:
            d = decision_of(st, ev) if ev["type"] in ("take", "pass", "steal", "discard") else None
            if d is not None and (mine is None or d["seat"] in mine):
                hand = +Counter(st.hands[d["seat"]])
                if d["kind"] == "offer":
                    offers.append((offer_features(d["card"], hand, {**d["ctx"], "steal": d["steal"]}),
                                   0 if d["accept"] else 1))
                else:
                    cards, x = discard_features(hand, d["ctx"])
                    if len(cards) > 1:
                        discards.append((x, cards.index(d["card"])))
            st.apply_event(ev)
    src = f"{len(records)} simulated games of {name}"
    om = SoftmaxChoice.fit(offers, OFFER_FEATURES, name=f"{name}-offer", source=src)
    dm = SoftmaxChoice.fit(discards, DISCARD_FEATURES, name=f"{name}-discard", source=src)
    return {"offer": om.to_json(), "discard": dm.to_json()}


__all__ = ["AUTO_MODELS", "DISCARD_FEATURES", "MODELS", "OFFER_FEATURES", "decision_of", "discard_features", "fit_models",
           "hands_at_decisions", "load", "neighbours", "offer_features", "seat_log_likelihoods",
           "seat_log_likelihoods_by_model", "world_log_likelihoods"]
