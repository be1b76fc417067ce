"""Player models of Hand and Foot: what a player takes, melds and discards tells what it holds.

The shared machinery is :mod:`cardmind.belief.models` (softmax choice models fitted by maximum
likelihood, importance weights with the effective sample size). This module supplies the game's
part: the **choices** a record shows, and the **features** of every option of a choice given
what the chooser held (in a sampled world):

* ``take`` (at the start of a turn, when the pile could be taken by a player holding the pair):
  draw or take. Taking is an option only when the chooser held a natural pair of the top card
  (and, its team not opened, could reach the minimum with the pile). Features of *take*:
  ``take`` (1), ``take_red3`` (red threes among the cards taken); *draw*: zeros.
* ``lay`` (at the end of a turn, the discard): stop laying or lay more. Laying more is an option
  when the chooser still held natural cards it could lay (its team open: a rank with an open
  meld, or three of a rank; not open: enough to open). Features of *lay more*: ``lay`` (1),
  ``lay_cards`` (natural cards it could lay), ``lay_foot`` (in its foot), ``lay_open`` (it
  would be opening); *stop*: zeros.
* ``discard``: which card. One option per kind of card held (natural rank, wild, red three,
  black three). Features: ``d_companions`` (other cards of its rank held), ``d_melded`` (its
  team has a meld of that rank), ``d_wild``, ``d_red3``, ``d_black3``, ``d_points`` (points / 10).

The fitted model (``fitted``, in ``model.json`` beside this module) is fitted by
``eval/handfoot_model.py`` on simulated games of ``peer`` and ``belief``; its ``info`` says how.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ...belief.models import ChoiceModel, SoftmaxChoice, UniformChoice, model_from_json
from .rules import TableMeld, card_points, is_natural, is_red_three, is_three, is_wild, max_meld_points

FEATURES = ("take", "take_red3", "lay", "lay_cards", "lay_foot", "lay_open",
            "d_companions", "d_melded", "d_wild", "d_red3", "d_black3", "d_points")
_F = {f: i for i, f in enumerate(FEATURES)}
MODEL_FILE = Path(__file__).with_name("model.json")
#: the names of the player models (the first is the default): ``auto`` weighs each other seat by
#: the model that best explains its choices so far (:data:`AUTO_CANDIDATES`), ``uniform`` is the
#: constraint-only posterior, ``fitted`` the softmax model of ``model.json`` for every seat
MODEL_NAMES = ("auto", "uniform", "fitted")
#: the choice models ``auto`` compares per seat: ``random`` (every option of a choice alike: the
#: seat is then weighed as by ``uniform``) and ``fitted``
AUTO_CANDIDATES = ("random", "fitted")


@dataclass
class Choice:
    """One observed choice of a player, with the public facts its options depend on.

    Attributes:
        kind: ``"take"``, ``"lay"`` or ``"discard"``.
        seat: the chooser; ``time``: the event index (in the hand) at which it chose.
        chosen: ``"take"``/``"draw"``; ``"stop"``; the discarded card.
        top, taken: (take) the pile's top card and the cards a take moves.
        opened: its team had opened; ``minimum``: the hand's minimum (points still needed).
        table: its team's melds then (:class:`~.rules.TableMeld`); ``in_foot``.
    """

    kind: str
    seat: int
    time: int
    chosen: str
    top: str | None = None
    taken: tuple[str, ...] = ()
    opened: bool = True
    minimum: int = 0
    table: tuple[TableMeld, ...] = ()
    in_foot: bool = False


def _row(**kw: float) -> np.ndarray:
    r = np.zeros(len(FEATURES))
    for k, v in kw.items():
        r[_F[k]] = v
    return r


def options(choice: Choice, zone: Counter) -> tuple[np.ndarray, int]:
    """The feature rows of every option of ``choice`` when the chooser held ``zone``, and the
    index of the option chosen (``-1`` when ``zone`` makes the observed choice impossible)."""
    if choice.kind == "take":
        pair = sum(k for c, k in zone.items() if is_natural(c) and c[0] == choice.top[0]) >= 2
        can = pair
        if pair and not choice.opened:
            after = Counter(zone)
            n = 0
            for c in sorted(after):
                if n < 2 and is_natural(c) and c[0] == choice.top[0]:
                    take = min(2 - n, after[c])
                    after[c] -= take
                    n += take
            after.update(choice.taken[1:])
            pts = 3 * card_points(choice.top)
            can = pts + max_meld_points(after, [TableMeld(choice.top[0], 3, 0)], 0) >= choice.minimum
        rows = [_row()]
        if can:
            rows.append(_row(take=1, take_red3=sum(1 for c in choice.taken if is_red_three(c))))
        chosen = 1 if choice.chosen == "take" else 0
        if chosen >= len(rows):
            return np.array(rows), -1
        return np.array(rows), chosen
    if choice.kind == "lay":
        ranks = {m.rank for m in choice.table}
        nat = Counter(c[0] for c, k in zone.items() for _ in range(k) if is_natural(c))
        if choice.opened:
            layable = sum(k for r, k in nat.items() if r in ranks or k >= 3)
            opening = False
            if choice.in_foot:
                layable = min(layable, max(0, sum(zone.values()) - 2))
        else:
            layable = sum(k for r, k in nat.items() if k >= 3)
            opening = max_meld_points(zone, choice.table, 1) >= choice.minimum
            if not opening:
                layable = 0
        rows = [_row()]
        if layable > 0:
            rows.append(_row(lay=1, lay_cards=layable, lay_foot=float(choice.in_foot), lay_open=float(opening)))
        return np.array(rows), 0
    # discard: one option per kind of card held
    ranks = {m.rank for m in choice.table}
    kinds: dict[str, str] = {}
    for c in sorted(zone):
        if zone[c] <= 0:
            continue
        k = "W" if is_wild(c) else ("R3" if is_red_three(c) else ("B3" if is_three(c) else c[0]))
        kinds.setdefault(k, c)
    kd = "W" if is_wild(choice.chosen) else ("R3" if is_red_three(choice.chosen) else
                                             ("B3" if is_three(choice.chosen) else choice.chosen[0]))
    if kd not in kinds:
        return np.zeros((1, len(FEATURES))), -1
    rows, chosen = [], 0
    for i, (k, c) in enumerate(kinds.items()):
        comp = sum(x for t, x in zone.items() if is_natural(t) and t[0] == c[0]) - 1 if is_natural(c) else 0
        rows.append(_row(d_companions=comp, d_melded=float(is_natural(c) and c[0] in ranks), d_wild=float(is_wild(c)),
                         d_red3=float(is_red_three(c)), d_black3=float(is_three(c) and not is_red_three(c)),
                         d_points=card_points(c) / 10))
        if k == kd:
            chosen = i
    return np.array(rows), chosen


def choices_before(state, event: dict, time: int) -> list[Choice]:
    """The choices ``event`` shows of its player, from ``state`` just before it is applied (a
    view or a complete state; only public facts are read): a draw or a pickup when the pile
    could be taken (``take``); a discard (``lay``, then ``discard``). ``time`` is the event's
    index in the hand."""
    p = event.get("player")
    kind = event.get("type")
    if p is None or kind not in ("draw", "pickup", "discard") or state.phase == "over":
        return []
    team = state.teams[p]
    table = tuple(m.shape for m in state.melds[team])
    if kind in ("draw", "pickup"):
        if state.phase != "draw" or not state.pile_takeable():
            return []
        return [Choice("take", p, time, "take" if kind == "pickup" else "draw", top=state.pile[-1],
                       taken=tuple(state.pile_take_cards()), opened=state.opened[team], minimum=state.minimum,
                       table=table, in_foot=state.in_foot[p])]
    opening = not state.opened[team] or (state.opening and state.turn_points < state.minimum)
    need = state.minimum - state.turn_points if opening else 0
    return [Choice("lay", p, time, "stop", opened=not opening, minimum=need, table=table, in_foot=state.in_foot[p]),
            Choice("discard", p, time, event["card"], opened=not opening, minimum=need, table=table,
                   in_foot=state.in_foot[p])]


def decisions_of_record(record) -> list[tuple[np.ndarray, int]]:
    """Every choice of every player in a complete record with its options' features, the
    chooser's true cards known (for fitting)."""
    state = record.game.new_state(record.options, record.header)
    out = []
    start = 0
    for ev in record.events:
        p = ev.get("player")
        if ev["type"] in ("draw", "pickup", "discard") and p is not None:
            for ch in choices_before(state, ev, len(state.history) - start):
                rows, k = options(ch, Counter(state.zone[p]))
                if k >= 0:
                    out.append((rows, k))
        state.apply_event(ev)
        if ev["type"] == "deal":
            start = len(state.history)
    return out


@lru_cache(maxsize=None)
def load(name: str) -> ChoiceModel:
    """The player model called ``name`` (:data:`MODEL_NAMES`).

    Raises:
        ValueError: an unknown name, or the fitted model's file is missing.
    """
    if name in ("uniform", "random"):
        return UniformChoice()
    if name == "fitted":
        if not MODEL_FILE.exists():
            raise ValueError(f"the fitted Hand and Foot model {MODEL_FILE} is missing "
                             f"(python eval/handfoot_model.py --fit writes it)")
        return model_from_json(json.loads(MODEL_FILE.read_text()))
    raise ValueError(f"no Hand and Foot player model {name!r} (models: {', '.join(MODEL_NAMES)})")


def log_likelihood(model: ChoiceModel, choices: list[Choice], zones_at) -> float:
    """``sum log P(chosen)`` of ``choices`` under ``model``, the chooser's cards at each one given
    by ``zones_at(choice)``; ``-inf`` when a choice was impossible with those cards."""
    total = 0.0
    for ch in choices:
        rows, k = options(ch, zones_at(ch))
        if k < 0:
            return float("-inf")
        if len(rows) > 1:
            total += model.log_prob(rows, k)
    return total


__all__ = ["FEATURES", "MODEL_NAMES", "AUTO_CANDIDATES", "Choice", "options", "choices_before", "decisions_of_record", "load",
           "log_likelihood", "SoftmaxChoice"]
