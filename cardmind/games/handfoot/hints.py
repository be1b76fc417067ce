"""The hint engine for a Hand and Foot player: :func:`handfoot_hint`.

It answers the questions of the moment over worlds drawn from the tracker's posterior
(:class:`~.belief.HandFootBelief`), each with the expected swing of the team's score where it is
a choice: take the pile or draw; open now or wait; which cards to meld and where the wild cards
go; ask to go out or not; as the partner, answer yes or no; which discard is safe. It adds every
other player's chances within its next turn and the chance that the partner's foot holds a red
three, and returns them as a :class:`~.advice.HandFootHint` (what is said and how it is shown
lives in :mod:`.advice`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from .advice import HandFootHint, meld_cards
from .belief import HandFootBelief
from .counting import KINDS, ExactEngine
from .decide import (answer_swing, discard_danger, go_out_swing, next_turn_chances, opponents_out_risk,
                     red_three_risk)
from .plan import (BookNeeds, choose_discard, down_plan, foot_plan, go_out_discard, keep_score,
                   opening_plan, plan_points, plays_of, trim_for_keep)
from .rules import card_points, is_natural, is_red_three, is_wild, max_meld_points, sort_cards


def _plays_json(plays, me: int) -> list[dict]:
    """The plays of a plan as the JSON's ``melds`` (see :class:`HandFootHint`)."""
    out = []
    for t, cards in plays:
        action = ({"type": "meld", "player": me, "cards": list(cards)} if t is None else
                  {"type": "lay_off", "player": me, "meld": t, "cards": list(cards)})
        out.append({"meld": "new" if t is None else t, "cards": [c for c in cards if not is_wild(c)],
                    "wilds": [c for c in cards if is_wild(c)], "points": sum(card_points(c) for c in cards),
                    "action": action})
    return out


def handfoot_hint(tracker: HandFootBelief, max_asks: int = 10, worlds: int | None = None) -> HandFootHint:
    """Advice for the observer of ``tracker`` now (see the module docstring).

    Args:
        tracker: the observer's tracker.
        max_asks: how many discards to list (the CLI's ``--asks``).
        worlds: worlds to draw (default the tracker's ``worlds`` setting).

    Raises:
        Contradiction: the events leave no consistent deal.
    """
    view = tracker.state
    me = tracker.observer
    team = view.teams[me]
    between = view.phase == "over" or bool(view.forced and view.forced[0]["type"] in ("hand_end", "deal"))
    ws = tracker.model_worlds(worlds) if not between else []
    rng = tracker.rng(7)
    # what every other player will do within its next turn (its turn played in every world by
    # the policy its play fits): the table, the risk that an opponent goes out first, the gains
    turn = tracker.next_turn(worlds) if ws else {}
    zone = view.zone[me] or Counter()
    mover = view.to_move()
    notes: list[str] = []
    draw = opening = go_out = answer = None
    out_discard = None
    melds: list[dict] = []
    discards: list[dict] = []
    recommend: dict | None = None
    if between or view.forced:
        pass
    elif mover == me and view.phase == "draw":
        draw = _draw_choice(view, me, zone, ws, rng, turn)
        best_draw = max(draw["options"], key=lambda o: o["swing"])
        recommend = ({"type": "draw", "player": me} if best_draw["action"] == "draw" else
                     {"type": "take_pile", "player": me, "pair": list(best_draw["pair"])})
    elif mover == me and view.phase == "play":
        opening, go_out, out_discard, melds, discards, recommend = _play_choices(view, me, zone, ws, rng, turn,
                                                                                 max_asks)
    elif mover == me and view.phase == "answer":
        sw = answer_swing(view, me, ws, rng, chances=turn)
        answer = {**sw.to_json(), "advice": "yes" if sw.swing >= 0 else "no"}
        recommend = {"type": "answer", "player": me, "yes": answer["advice"] == "yes"}
    elif mover is not None:
        notes.append(f"it is seat {mover}'s turn; the choices are for when you are to act")
    chances = {}
    if ws:
        for s in range(view.players):
            if s != me:
                chances[s] = {**turn[s].to_json(), "opened": bool(view.opened[view.teams[s]])}
    partner = view.partner[me]
    p3 = red_three_risk(view, partner, ws) if partner is not None and ws else None
    kinds, kinds_se = _kind_means(tracker) if not between else ({}, None)
    mode = tracker.mode
    structure = tracker.structure()

    def count_of() -> int | None:
        return ExactEngine(structure).solve().count if mode == "exact" else None

    foot_json = None
    if view.phase == "play" and mover == me and not view.in_foot[me] and not between and not view.forced:
        foot_json = _to_foot_json(zone, melds)
    return HandFootHint(me, view.hand_no, mover, view.phase, view.minimum, view.opened[team], draw, opening, melds,
                        go_out, answer, discards, chances, p3, kinds, len(ws), mode, tracker.model, notes,
                        kinds_se=kinds_se, seat_models={} if between else tracker.seat_models(),
                        policies={} if not ws else tracker.rollout_policies(),
                        ess=None if between else tracker.model_ess(),
                        your_cards=_sorted_cards(zone), in_foot=bool(view.in_foot[me]), to_foot=foot_json,
                        recommend=recommend,
                        table={**_table_facts(view, me), "out_discard": out_discard},
                        count_of=count_of)


def _play_choices(view, me: int, zone: Counter, ws: list, rng: np.random.Generator, turn: dict,
                  max_asks: int) -> tuple[dict | None, dict | None, str | None, list[dict], list[dict], dict | None]:
    """The choices of the observer's play phase: open now or wait, go out (or ask to), the
    melds to lay and the discard.

    Args:
        view: the observer's view (a ``HandFootState``), ``me`` its seat, ``zone`` the cards it
            plays from now (hand or foot, a ``Counter``).
        ws: the sampled worlds; ``rng``: the hint's generator (drawn from in a fixed order);
            ``turn``: every other seat's next-turn chances (``{seat: NextTurn}``).
        max_asks: how many discards to list.

    Returns:
        ``(opening, go_out, out_discard, melds, discards, recommend)``: the JSON's ``opening``
        (``None`` once opened) and ``go_out`` (``None`` unless the observer can go out), the
        card a way out discards, the melds advised (the JSON's ``melds``), the discards priced
        (at most ``max(1, max_asks)``, the one advised first) and the action advised.
    """
    team = view.teams[me]
    opts = view.options
    needs = BookNeeds(opts["books_clean"], opts["books_dirty"])
    melded = {m.rank for m in view.melds[team]}
    opening = go_out = out_discard = None
    to_foot = None
    going_out = None       # (discard or None, plan): the way out advised now
    ask_now = False        # the advice is to ask the partner to go out
    melds: list[dict] = []
    if not view.opened[team] or (view.opening and view.turn_points < view.minimum):
        opening, to_foot, melds = _opening_choice(view, me, zone, ws, rng)
    else:
        go_out, out_discard, going_out, ask_now = _going_out_choice(view, me, zone, ws, rng, turn, needs)
        if not view.in_foot[me]:
            to_foot = foot_plan(zone, view.melds[team], opts["books_clean"])
        if going_out is not None:
            melds = _plays_json(plays_of(going_out[1]), me)
        elif to_foot is None:
            groups = down_plan(zone, view.melds[team], view.in_foot[me], needs)
            if view.in_foot[me]:     # not going out now: a card stays to discard, one in the foot
                trim_for_keep(zone, groups, 2)
            melds = _plays_json(plays_of(groups), me)
    if to_foot is not None:
        melds = _plays_json(plays_of(to_foot[1]), me)
    if opening is not None and opening["can_open_now"]:
        opening["lays"] = sum(m["points"] for m in melds)
    discards = _discard_choices(view, me, zone, ws, melds, melded, to_foot, going_out, max_asks)
    recommend: dict | None = None
    if ask_now:
        recommend = {"type": "ask_out", "player": me}
    elif melds:
        recommend = dict(melds[0]["action"])
    elif discards:
        recommend = {"type": "discard", "player": me, "card": discards[0]["card"]}
    return opening, go_out, out_discard, melds, discards, recommend


def _opening_choice(view, me: int, zone: Counter, ws: list,
                    rng: np.random.Generator) -> tuple[dict, tuple | None, list[dict]]:
    """Open now or wait, for a team that has not opened (or is opening this turn).

    Args:
        view, me, zone: the observer's view, seat and the cards it plays from now.
        ws, rng: the sampled worlds and the hint's generator (used only when the minimum is out
            of reach now: the chance of opening next turn).

    Returns:
        ``(opening, to_foot, melds)``: the JSON's ``opening`` (points ``needed`` and ``laid``,
        ``can_lay``, ``can_open_now``, ``chance_next_turn`` 0..1, ``advice``); the plan that
        reaches the foot and opens with it (``(discard, groups)`` or ``None``); the opening
        melds to lay (empty when waiting or going to the foot).
    """
    team = view.teams[me]
    shapes = [m.shape for m in view.melds[team]]
    need = view.minimum - view.turn_points
    plays, value = opening_plan(zone, view.melds[team], need)
    can = value >= need
    chance_ = next_turn_chances(view, me, ws, rng).open if ws and not can else (1.0 if can else 0.0)
    opening = {"needed": need, "laid": view.turn_points, "can_lay": max_meld_points(zone, shapes, 0),
               "can_open_now": can, "chance_next_turn": chance_,
               "advice": "open now" if can else "wait: the minimum is out of reach this turn"}
    to_foot = None
    melds: list[dict] = []
    found = None if view.in_foot[me] else foot_plan(zone, view.melds[team], view.options["books_clean"])
    if found is not None and plan_points(found[1]) >= need:
        to_foot = found
        opening.update(can_open_now=True, advice="open now")
    elif can:
        melds = _plays_json(plays, me)
    return opening, to_foot, melds


def _going_out_choice(view, me: int, zone: Counter, ws: list, rng: np.random.Generator, turn: dict,
                      needs: BookNeeds) -> tuple[dict | None, str | None, tuple | None, bool]:
    """Go out (or ask the partner to) now, or play on, for an opened team in the foot with its
    books made (and not told no).

    Args:
        view, me, zone: the observer's view, seat and the cards it plays from now.
        ws, rng, turn: the sampled worlds, the hint's generator, the other seats' next-turn chances.
        needs: the books the team must have to go out.

    Returns:
        ``(go_out, out_discard, going_out, ask_now)``: the JSON's ``go_out`` (the swing in
        points of going out now against one more round, less the failed-out penalty when told
        yes; ``None`` when no way out exists); the card the way out discards; the way out
        advised now (``(discard, plan)``, ``None`` unless going out now and allowed); whether
        the advice is to ask the partner.
    """
    team = view.teams[me]
    opts = view.options
    go_out = out_discard = going_out = None
    ask_now = False
    told_no = view.asked and view.permission is False
    if view.in_foot[me] and view.books_met(team) and not told_no:
        found = go_out_discard(zone, view.melds[team], needs, opts["out_by_laying"])
        if found is not None:
            sw = go_out_swing(view, me, ws, rng, my_cards=zone, chances=turn)
            told_yes = view.may_go_out(me) and not view.cut_throat()
            if told_yes:   # told yes, not going out this turn costs the team the penalty
                sw.later -= opts["failed_out_penalty"]
            verb = "go out" if view.may_go_out(me) else "ask to go out"
            go_out = {**sw.to_json(), "can": True,
                      "advice": f"{verb} now" if sw.swing >= 0 else "play on one more round"}
            out_discard = found[0]
            if sw.swing >= 0 and view.may_go_out(me):
                going_out = found      # the melds and the discard that go out
            elif sw.swing >= 0 and not view.asked and not view.cut_throat():
                ask_now = True
    return go_out, out_discard, going_out, ask_now


def _discard_choices(view, me: int, zone: Counter, ws: list, melds: list[dict], melded: set[str],
                     to_foot: tuple | None, going_out: tuple | None, max_asks: int) -> list[dict]:
    """The discards priced, after the melds advised (chosen among the cards they leave).

    Args:
        view, me, zone: the observer's view, seat and the cards it plays from now.
        ws: the sampled worlds (the danger of each discard is counted over them).
        melds: the melds advised (the JSON's); ``melded``: the ranks the team has melded.
        to_foot, going_out: the plan to the foot, the way out (``(discard, plan)`` or ``None``):
            its discard is the one advised.
        max_asks: how many discards to list (at least one).

    Returns:
        The JSON's ``discards`` (``card``, ``danger``: the chance 0..1 the next player could
        take the pile with it, ``points``, ``keep``: how useful the card is to keep, clamped to
        ±1000, ``recommended``): the one advised first (a safe one, danger at most 0.1 and not a
        wild card while others are left, unless a plan names it), then by danger and keep.
    """
    left = zone - Counter(c for m in melds for c in meld_cards(m))
    plan_ranks = melded | {c[0] for m in melds for c in m["cards"]}
    best = (to_foot[0] if to_foot is not None and to_foot[0] is not None else
            going_out[0] if going_out is not None else
            choose_discard(left, plan_ranks) if left else None)
    listed = sort_cards(c for c in left if left[c] > 0)[:max(1, max_asks) * 4]
    if best is not None and best not in listed:
        listed.append(best)        # the card advised is always priced
    discards: list[dict] = []
    for c in listed:
        danger = discard_danger(view, me, c, ws)
        keep = keep_score(c, left, plan_ranks)
        keep = 1000 if keep == float("inf") else (-1000 if keep == float("-inf") else keep)
        discards.append({"card": c, "danger": round(danger, 4), "points": card_points(c),
                         "keep": keep, "recommended": False})
    if discards:
        safe = [d for d in discards if d["danger"] <= 0.1 and not (is_wild(d["card"]) and len(left) > 1)]
        pool = safe or discards
        if (to_foot is not None or going_out is not None) and best is not None:
            pool = discards      # the card the move to the foot (or going out) leaves
        rec = next((d for d in pool if d["card"] == best), None) or min(
            pool, key=lambda d: (d["danger"], d["keep"], -d["points"]))
        rec["recommended"] = True
        discards.sort(key=lambda d: (not d["recommended"], d["danger"], d["keep"]))
        discards = discards[:max(1, max_asks)]
    return discards


def _kind_means(tracker: HandFootBelief) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]] | None]:
    """The expected cards of each kind (``KINDS``: wild, red 3, black 3, ...) at every place:
    sums of the tracker's token marginals (exact when its answer is).

    Returns:
        ``(kinds, kinds_se)``: ``{place: {kind: expected cards}}`` (places ``"seat N"``, then
        ``"foot N"``, then ``"stock"``; three decimals) and their standard errors the same way
        (``None`` when exact).
    """
    means, se = tracker.kind_means()

    def place(nm: str) -> str:
        return nm if nm == "stock" or nm.startswith("foot ") else f"seat {nm}"

    order = sorted(means, key=lambda nm: (nm == "stock", nm.startswith("foot "), nm))
    kinds = {place(nm): {k: round(means[nm][k], 3) for k in KINDS} for nm in order}
    kinds_se = None
    if se is not None:
        kinds_se = {place(nm): {k: round(se[nm][k], 3) for k in KINDS} for nm in order}
    return kinds, kinds_se


def _to_foot_json(zone: Counter, melds: list[dict]) -> dict[str, Any] | None:
    """Whether the melds advised take the observer to its foot: ``{"now": True, "discard":
    None, "points": laid}`` when they leave no card, ``{"now": False, "discard": card, ...}``
    when they leave one card to discard, else ``None`` (``points``: the points they lay)."""
    left = zone - Counter(c for m in melds for c in meld_cards(m))
    laid = sum(m["points"] for m in melds)
    if sum(left.values()) == 0 and melds:
        return {"now": True, "discard": None, "points": laid}
    if sum(left.values()) == 1:
        return {"now": False, "discard": next(iter(left)), "points": laid}
    return None


def _draw_choice(view, me: int, zone: Counter, ws, rng, turn=None) -> dict:
    """The draw question: the points the observer could lay this turn after a draw (over the
    stock's cards in the sampled worlds) and after each way of taking the pile, and what each
    is worth to its team against a draw: twice the difference in points laid (a card laid counts
    on the table instead of against), less 500 for each red three taken times the chance the
    hand ends before it can discard them."""
    team = view.teams[me]
    shapes = [m.shape for m in view.melds[team]]
    e_draw = 0.0
    for w in ws:
        cards = list(w["stock"].elements())
        pick = Counter(cards[i] for i in rng.choice(len(cards), min(2, len(cards)), replace=False)) if cards else Counter()
        e_draw += max_meld_points(zone + pick, shapes, 0)
    e_draw /= max(1, len(ws))
    options = [{"action": "draw", "points": round(e_draw, 1), "swing": 0.0}]
    q = opponents_out_risk(view, me, ws, rng, chances=turn) if ws else 0.0
    for a in view._pile_options(me):
        taken = view.pile_take_cards()
        after = zone - Counter(a.pair) + Counter(taken[1:])
        top = taken[0]
        pts = sum(card_points(c) for c in (top, *a.pair)) + max_meld_points(after, shapes, 0)
        r3 = sum(1 for c in taken if is_red_three(c))
        ends = 1 - (1 - q) ** r3 if r3 else 0.0
        penalty = 500 * r3 * ends
        options.append({"action": f"take the pile with {a.pair[0]} {a.pair[1]}", "pair": list(a.pair),
                        "points": round(pts, 1),
                        "swing": round(2 * (pts - e_draw) - penalty, 1), "red_threes": r3,
                        "more_laid": round(pts - e_draw, 1), "red_three_cost": round(penalty, 1),
                        "hand_ends": round(ends, 4)})
    best = max(options, key=lambda o: o["swing"])
    return {"options": options, "advice": best["action"]}


def _table_facts(view, me: int) -> dict[str, Any]:
    """What the advice's words need from the observer's view (:attr:`HandFootHint.table`)."""
    team = view.teams[me]
    top = view.pile[-1] if view.pile else None
    forced = view.forced[0] if view.forced else None
    return {"turn": view.turn, "partner": view.partner[me], "team": team,
            "opponents": [s for s in range(view.players) if view.teams[s] != team],
            "next_is_partner": view.teams[(me + 1) % view.players] == team,
            "pile": len(view.pile), "pile_min": view.options["pile_min"], "top": top,
            "top_natural": top is not None and is_natural(top),
            "meld_ranks": [(m.rank, m.book) for m in view.melds[team]],
            "partner_foot": view.partner[me] is not None and view.foot_sizes[view.partner[me]] > 0,
            "asked": view.asked, "permission": view.permission, "penalty": view.options["failed_out_penalty"],
            "totals": list(view.totals), "forced": forced["type"] if forced else None,
            "forced_player": forced.get("player") if forced else None,
            "how": (f"seat {view.went_out} went out" if view.went_out is not None else "the stock ran out"),
            "scores": [list(x) for x in view.scores],
            "team_seats": [view.team_seats(t) for t in range(view.num_teams)]}


def _sorted_cards(zone: Counter) -> list[str]:
    """The cards of ``zone`` (``Counter`` of cards) in the game's order (:func:`.rules.sort_cards`)."""
    return sort_cards(zone.elements())


__all__ = ["handfoot_hint"]
