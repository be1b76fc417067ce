"""Advice for a Hand and Foot player, built on :class:`~.belief.HandFootBelief`.

:func:`handfoot_hint` answers the questions of the moment, each with the expected swing of
the team's score where it is a choice: take the pile or draw; open now or wait (the points
needed and the chance of opening next turn); which cards to meld and where the wild cards go;
ask to go out or not; as the partner, answer yes or no; which discard is safe (the chance the
next player, an opponent, could take the pile with it). It adds every other player's chances
within its next turn (open, reach the foot, go out) and the chance that the partner's foot
holds a red three, all over worlds drawn from the tracker's posterior. :meth:`HandFootHint.to_json`
is the documented JSON form (``docs/handfoot.md``, "Advice").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from .belief import KINDS, HandFootBelief, kind_of
from .evaluate import (answer_swing, discard_danger, go_out_swing, next_turn_chances, opponents_out_risk,
                       red_three_risk)
from .plan import (BookNeeds, choose_discard, down_plan, go_out_discard, keep_score, opening_plan, plays_of,
                   trim_for_keep)
from .rules import card_points, is_red_three, is_wild, max_meld_points, sort_cards


@dataclass
class HandFootHint:
    """Advice for one Hand and Foot player at one moment (see the module docstring).

    Attributes:
        observer, hand, to_move, phase: who, which hand, who acts now, its phase.
        minimum: the hand's opening minimum; ``opened``: whether the observer's team opened.
        draw: the draw choice (``None`` unless the observer is to draw): options with their
            points laid this turn and swing.
        opening: the opening question (``None`` once the team opened).
        melds: the plays recommended now (``[{"meld": index or "new", "cards", "wilds"}]``).
        go_out: the going-out question (``None`` unless the observer could go out).
        answer: the partner's answer (``None`` unless the observer must answer).
        discards: per card the observer could discard: its danger (chance the next opponent
            could take the pile), points and whether it is the recommended one.
        chances: per other seat its chances within its next turn.
        partner_red_three: chance the partner's unpicked foot holds a red three.
        kinds: per hidden place the expected number of cards of each kind.
        notes: remarks; ``worlds``: how many worlds the chances were computed over;
        ``mode``: the tracker's engine.
    """

    observer: int
    hand: int
    to_move: int | None
    phase: str
    minimum: int
    opened: bool
    draw: dict | None
    opening: dict | None
    melds: list[dict]
    go_out: dict | None
    answer: dict | None
    discards: list[dict]
    chances: dict[int, dict[str, float]]
    partner_red_three: float | None
    kinds: dict[str, dict[str, float]]
    worlds: int
    mode: str
    model: str
    notes: list[str] = field(default_factory=list)
    #: the observer's cards now (its hand, or its foot once picked up), sorted
    your_cards: list[str] = field(default_factory=list)
    #: whether the observer plays from its foot
    in_foot: bool = False

    def to_json(self) -> dict[str, Any]:
        """The advice as one JSON object (keys as the attributes; seats as string keys)."""
        return {"observer": self.observer, "hand": self.hand, "to_move": self.to_move, "phase": self.phase,
                "minimum": self.minimum, "opened": self.opened, "draw": self.draw, "opening": self.opening,
                "melds": self.melds, "go_out": self.go_out, "answer": self.answer, "discards": self.discards,
                "chances": {str(k): v for k, v in self.chances.items()},
                "partner_red_three": self.partner_red_three, "kinds": self.kinds, "worlds": self.worlds,
                "mode": self.mode, "model": self.model, "notes": list(self.notes),
                "your_cards": list(self.your_cards), "in_foot": self.in_foot}

    # ------------------------------------------------------------------ rendering
    def render(self, console: Console, record: Any, show_table: bool = True, tables_only: bool = False) -> None:
        """Print the advice with rich tables (``tables_only``: the belief table only)."""
        title = f"Hand and Foot, hand {self.hand}: seat {self.observer}'s view"
        console.print(f"[bold]{title}[/bold] ({self.mode} belief, player model {self.model}, "
                      f"chances over {self.worlds} worlds)")
        if not tables_only:
            console.print(f"to move: seat {self.to_move} ({self.phase}); opening minimum {self.minimum}; "
                          f"your team has {'opened' if self.opened else 'not opened'}")
            console.print(f"Your {'foot' if self.in_foot else 'hand'} ({len(self.your_cards)} cards): "
                          + (" ".join(self.your_cards) or "no cards"))
            if self.draw:
                d = self.draw
                console.print(f"[bold]Draw:[/bold] {d['advice']}")
                for o in d["options"]:
                    console.print(f"  {o['action']:<26} laid this turn {o['points']:>6.1f}  swing {o['swing']:>+7.1f}")
            if self.opening:
                o = self.opening
                console.print(f"[bold]Open:[/bold] {o['advice']} (needs {o['needed']} points, can lay "
                              f"{o['can_lay']}; chance next turn {o['chance_next_turn']:.2f})")
            if self.melds:
                console.print("[bold]Meld:[/bold] " + "; ".join(
                    f"{'new' if m['meld'] == 'new' else 'on meld ' + str(m['meld'])}: {' '.join(m['cards'])}"
                    + (f" (wilds {' '.join(m['wilds'])})" if m['wilds'] else "") for m in self.melds))
            if self.go_out:
                g = self.go_out
                console.print(f"[bold]Go out:[/bold] {g['advice']} (now {g['now']:+.0f}, one more round "
                              f"{g['later']:+.0f}, swing {g['swing']:+.0f}; opponents out first {g['risk']:.2f})")
            if self.answer:
                a = self.answer
                console.print(f"[bold]Answer:[/bold] {a['advice']} (yes {a['now']:+.0f}, no {a['later']:+.0f}, "
                              f"swing {a['swing']:+.0f}; opponents out first {a['risk']:.2f})")
            if self.discards:
                t = Table(title="Discards")
                for col in ("card", "danger", "points", "keep", ""):
                    t.add_column(col)
                for d in self.discards:
                    t.add_row(d["card"], f"{d['danger']:.2f}", str(d["points"]), str(d["keep"]),
                              "recommended" if d["recommended"] else "")
                console.print(t)
            t = Table(title="Within their next turn")
            for col in ("seat", "open", "reach foot", "go out"):
                t.add_column(col)
            for s, c in sorted(self.chances.items()):
                t.add_row(str(s), f"{c['open']:.2f}", f"{c['foot']:.2f}", f"{c['out']:.2f}")
            console.print(t)
            if self.partner_red_three is not None:
                console.print(f"partner's foot holds a red three: {self.partner_red_three:.2f}")
            for n in self.notes:
                console.print(f"[dim]{n}[/dim]")
        if show_table or tables_only:
            t = Table(title="Expected cards by kind (hidden places)")
            t.add_column("place")
            for k in KINDS:
                t.add_column(k)
            for place, per in self.kinds.items():
                t.add_row(place, *(f"{per.get(k, 0.0):.2f}" for k in KINDS))
            console.print(t)


def _plays_json(plays) -> list[dict]:
    return [{"meld": "new" if t is None else t, "cards": list(cards),
             "wilds": [c for c in cards if is_wild(c)]} for t, cards in plays]


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
    opts = view.options
    needs = BookNeeds(opts["books_clean"], opts["books_dirty"])
    ws = tracker.worlds(worlds) if view.phase != "over" else []
    rng = np.random.default_rng([tracker.seed, len(view.history), 7])
    zone = view.zone[me] or Counter()
    mover = view.to_move()
    notes: list[str] = []
    draw = opening = go_out = answer = None
    melds: list[dict] = []
    discards: list[dict] = []
    melded = {m.rank for m in view.melds[team]}
    if view.phase == "over" or view.forced:
        notes.append("the hand is over" if view.phase != "over" else "the game is over")
    elif mover == me and view.phase == "draw":
        shapes = [m.shape for m in view.melds[team]]
        e_draw = 0.0
        for w in ws:
            cards = list(w["stock"].elements())
            pick = Counter(cards[i] for i in rng.choice(len(cards), min(2, len(cards)), replace=False)) if cards else Counter()
            e_draw += max_meld_points(zone + pick, shapes, 0)
        e_draw /= max(1, len(ws))
        options = [{"action": "draw", "points": round(e_draw, 1), "swing": 0.0}]
        q = opponents_out_risk(view, me, ws, rng) if ws else 0.0
        for a in view._pile_options(me):
            taken = view.pile_take_cards()
            after = zone - Counter(a.pair) + Counter(taken[1:])
            top = taken[0]
            pts = sum(card_points(c) for c in (top, *a.pair)) + max_meld_points(after, shapes, 0)
            r3 = sum(1 for c in taken if is_red_three(c))
            penalty = 500 * r3 * (1 - (1 - q) ** r3) if r3 else 0.0
            options.append({"action": f"take the pile with {a.pair[0]} {a.pair[1]}", "points": round(pts, 1),
                            "swing": round(2 * (pts - e_draw) - penalty, 1), "red_threes": r3})
        best = max(options, key=lambda o: o["swing"])
        draw = {"options": options, "advice": best["action"]}
    elif mover == me and view.phase == "play":
        minimum = view.minimum
        opening_now = not view.opened[team] or (view.opening and view.turn_points < minimum)
        if opening_now:
            need = minimum - view.turn_points
            plays, value = opening_plan(zone, view.melds[team], need)
            can = value >= need
            chance = next_turn_chances(view, me, ws, rng).open if ws and not can else (1.0 if can else 0.0)
            opening = {"needed": need, "can_lay": max_meld_points(zone, [m.shape for m in view.melds[team]], 0),
                       "can_open_now": can, "chance_next_turn": chance,
                       "advice": "open now" if can else "wait: the minimum is out of reach this turn"}
            if can:
                melds = _plays_json(plays)
        else:
            if view.in_foot[me] and view.books_met(team):
                found = go_out_discard(zone, view.melds[team], needs)
                if found is not None:
                    sw = go_out_swing(view, me, ws, rng, my_cards=zone)
                    verb = "go out" if view.may_go_out(me) else "ask to go out"
                    go_out = {**sw.to_json(), "can": True,
                              "advice": f"{verb} now" if sw.swing >= 0 else "play on one more round"}
            groups = down_plan(zone, view.melds[team], view.in_foot[me], needs)
            if view.in_foot[me] and not view.may_go_out(me):
                trim_for_keep(zone, groups, 2)
            melds = _plays_json(plays_of(groups))
        best = choose_discard(zone, melded) if zone else None
        for c in sort_cards(c for c in zone if zone[c] > 0)[:max(1, max_asks) * 4]:
            danger = discard_danger(view, me, c, ws)
            keep = keep_score(c, zone, melded)
            keep = 1000 if keep == float("inf") else (-1000 if keep == float("-inf") else keep)
            discards.append({"card": c, "danger": round(danger, 4), "points": card_points(c),
                             "keep": keep, "recommended": False})
        if discards:
            safe = [d for d in discards if d["danger"] <= 0.1 and not (is_wild(d["card"]) and len(zone) > 1)]
            pool = safe or discards
            rec = next((d for d in pool if d["card"] == best), None) or min(
                pool, key=lambda d: (d["danger"], d["keep"], -d["points"]))
            rec["recommended"] = True
            discards.sort(key=lambda d: (not d["recommended"], d["danger"], d["keep"]))
            discards = discards[:max(1, max_asks)]
    elif mover == me and view.phase == "answer":
        sw = answer_swing(view, me, ws, rng)
        answer = {**sw.to_json(), "advice": "yes" if sw.swing >= 0 else "no"}
    elif mover is not None:
        notes.append(f"it is seat {mover}'s turn; the choices are for when you are to act")
    chances = {}
    if ws:
        for s in range(view.players):
            if s != me:
                chances[s] = next_turn_chances(view, s, ws, rng).to_json()
    partner = view.partner[me]
    p3 = red_three_risk(view, partner, ws) if partner is not None and ws else None
    kinds: dict[str, dict[str, float]] = {}
    for w in ws:
        places = {f"seat {s}": z for s, z in w["zones"].items()}
        places.update({f"foot {s}": f for s, f in w["feet"].items()})
        places["stock"] = w["stock"]
        for nm, cnt in places.items():
            per = kinds.setdefault(nm, {k: 0.0 for k in KINDS})
            for c, k in cnt.items():
                per[kind_of(c)] += k / len(ws)
    kinds = {nm: {k: round(v, 3) for k, v in per.items()} for nm, per in kinds.items()}
    return HandFootHint(me, view.hand_no, mover, view.phase, view.minimum, view.opened[team], draw, opening, melds,
                        go_out, answer, discards, chances, p3, kinds, len(ws), tracker.mode, tracker.model, notes,
                        your_cards=_sorted_cards(zone), in_foot=bool(view.in_foot[me]))


def _sorted_cards(zone: Counter) -> list[str]:
    """The cards of ``zone`` (``Counter`` of cards) in the game's order (:func:`.rules.sort_cards`)."""
    return sort_cards(zone.elements())


__all__ = ["HandFootHint", "handfoot_hint"]
