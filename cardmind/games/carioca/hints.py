"""Advice for a contract rummy player: take, steal or pass; go down now or wait; which card to
discard; each with its numbers and a one-line reason (:class:`~.advisor.Advisor`).

:func:`carioca_hint` builds a :class:`CariocaHint` for the observer of a
:class:`~.belief.CariocaBelief`; :meth:`CariocaHint.to_json` is the documented JSON object
(``docs/carioca.md``, "Advice") and :meth:`CariocaHint.render` prints it for people.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .advisor import Advisor, Option
from .belief import CariocaBelief
from .rules import contract_name


@dataclass
class CariocaHint:
    """Advice for one contract rummy player at one moment (see the module docstring)."""

    observer: int
    events: int
    hand_no: int
    sets: int
    runs: int
    to_move: int | None
    phase: str
    consistent_deals: int
    exact: bool
    model: str
    hand: list[str]
    sizes: list[int]
    stock: int
    top: str | None
    offer: Option | None
    go_down: Option | None
    lay_off: dict | None
    discards: list[Option]
    opponents: dict[int, dict[str, Any]]
    holdings: dict[str, dict[str, dict[str, float]]]
    known: dict[int, list[str]]
    hazard: float | None
    recommend: dict | None
    notes: list[str] = field(default_factory=list)

    @property
    def your_turn(self) -> bool:
        """Whether the observer decides now."""
        return self.to_move == self.observer

    def to_json(self) -> dict[str, Any]:
        """The documented JSON object (``docs/carioca.md``, "Advice")."""
        return {
            "game": "carioca", "observer": self.observer, "events": self.events, "hand": self.hand_no,
            "contract": {"sets": self.sets, "runs": self.runs}, "to_move": self.to_move,
            "your_turn": self.your_turn, "phase": self.phase,
            "consistent_deals": self.consistent_deals, "consistent_deals_str": str(self.consistent_deals),
            "exact": self.exact, "model": self.model, "your_hand": self.hand, "hand_sizes": self.sizes,
            "stock": self.stock, "top_discard": self.top,
            "recommend": self.recommend,
            "offer": None if self.offer is None else self.offer.to_json(),
            "go_down": None if self.go_down is None else self.go_down.to_json(),
            "lay_off": self.lay_off,
            "discards": [d.to_json() for d in self.discards],
            "hazard": self.hazard,
            "opponents": {str(s): v for s, v in self.opponents.items()},
            "known": {str(s): v for s, v in self.known.items()},
            "holdings": self.holdings,
            "notes": self.notes,
        }

    def render(self, console: Console, record: Any = None, show_table: bool = True, tables_only: bool = False) -> None:
        """Print for people (``cardmind hint``; ``cardmind belief`` prints the tables only)."""
        turn = "game over" if self.to_move is None else ("your decision" if self.your_turn
                                                        else f"seat {self.to_move} to decide")
        console.print(Text(f"Contract rummy: seat {self.observer}'s view after {self.events} events: hand "
                           f"{self.hand_no} ({contract_name(self.sets, self.runs)}), {turn}; stock {self.stock}; "
                           f"hands " + ", ".join(f"{s}:{n}" for s, n in enumerate(self.sizes)), style="bold"))
        console.print(f"Your cards: {' '.join(self.hand) or '-'}; top discard: {self.top or '-'}; "
                      f"player model: {self.model}"
                      + ("" if self.exact else " (card chances weighted by it over sampled worlds)"))
        console.print(f"Consistent histories of this hand: {self.consistent_deals:.3e}" if self.consistent_deals > 10**12
                      else f"Consistent histories of this hand: {self.consistent_deals:,}")
        for note in self.notes:
            console.print(Text(f"Note: {note}", style="yellow"))
        if not tables_only:
            console.print()
            if self.recommend is not None:
                console.print(Text(f"Advice: {_describe(self.recommend)}", style="bold green"))
            if self.offer is not None:
                o = self.offer
                console.print(f"The discard {o.numbers.get('card')}: {o.action['type']} ({o.reason})")
                nums = ", ".join(f"{k} {v}" for k, v in o.numbers.items() if k != "card")
                console.print(Text(f"  {nums}", style="dim"))
            if self.go_down is not None:
                g = self.go_down
                what = "wait" if g.action["type"] == "wait" else "go down"
                console.print(f"Going down: {what} ({g.reason})")
                console.print(Text("  " + ", ".join(f"{k} {v}" for k, v in g.numbers.items()), style="dim"))
            if self.lay_off is not None:
                lo = self.lay_off
                console.print(f"Lay off: {lo['card']} on meld {lo['meld']} ({lo['at']})")
            if self.discards:
                t = Table(title="Discards, best first (missing: cards the contract still needs after it; "
                                "live outs: copies that would help, expected in the stock; taken: chance an "
                                "opponent takes or steals it, and who most)", title_justify="left")
                t.add_column("#", justify="right")
                t.add_column("card")
                t.add_column("pts", justify="right")
                t.add_column("missing", justify="right")
                t.add_column("live outs", justify="right")
                t.add_column("taken", justify="right")
                t.add_column("value", justify="right")
                for i, d in enumerate(self.discards, 1):
                    n = d.numbers
                    taken = "-"
                    if n["p_taken"] is not None and n["taken_by"]:
                        s, p = max(n["taken_by"].items(), key=lambda kv: kv[1])
                        taken = f"{100 * n['p_taken']:.0f}% (seat {s} {100 * p:.0f}%)"
                    t.add_row(str(i), n["card"], str(n["points"]), str(n["deficiency_after"]),
                              f"{n['live_outs_after']:.1f}", taken, f"{d.value:.1f}")
                console.print(t)
                console.print(f"Why {self.discards[0].numbers['card']}: {self.discards[0].reason}")
        if show_table:
            console.print()
            t = Table(title="Opponents: chance to go down / go out by the end of their next turn",
                      title_justify="left")
            t.add_column("seat", justify="right")
            t.add_column("cards", justify="right")
            t.add_column("down")
            t.add_column("go down", justify="right")
            t.add_column("go out", justify="right")
            t.add_column("known cards")
            for s, v in self.opponents.items():
                t.add_row(str(s), str(self.sizes[s]), "yes" if v["down"] else "no",
                          _chance(v["p_go_down"], v["stderr_down"], v), _chance(v["p_go_out"], v["stderr_out"], v),
                          " ".join(self.known.get(s, [])) or "-")
            console.print(t)
            if self.holdings:
                t = Table(title="Unseen cards: % chance of at least one more copy (expected copies)",
                          title_justify="left")
                t.add_column("card")
                places = list(next(iter(self.holdings.values())).keys())
                for p in places:
                    t.add_column(p if p == "stock" else f"seat {p}", justify="right")
                for c, v in self.holdings.items():
                    t.add_row(c, *[f"{100 * v[p]['p_any']:.0f}% ({v[p]['expected']:.2f})" for p in places])
                console.print(t)


def _chance(p: float, se: float, v: dict) -> str:
    """A chance for the table: exact, or sampled with its standard error (none seen in ``n``
    samples: below the 95% bound ``3 / n``, the rule of three)."""
    if v["exact"] or not v["samples"]:
        return f"{100 * p:.0f}%"
    n = v["samples"]
    if p == 0:
        return f"0% (<{300 / n:.0f}%)"
    if p == 1:
        return f"100% (>{100 - 300 / n:.0f}%)"
    return f"{100 * p:.0f}% ± {100 * se:.0f}"


def _describe(action: dict) -> str:
    t = action["type"]
    if t == "go_down":
        return "go down with " + " | ".join(" ".join(m["cards"]) for m in action["melds"])
    if t == "lay_off":
        return f"lay off {action['card']} on meld {action['meld']} ({action['at']})"
    if t == "discard":
        return f"discard {action['card']}"
    return {"take": "take the discard", "steal": "steal the discard", "pass": "pass"}.get(t, t)


def carioca_hint(belief: CariocaBelief, max_asks: int = 10) -> CariocaHint:
    """Build the advice for ``belief``'s observer (``max_asks``: how many discards to list).

    Raises:
        Contradiction: the events leave no consistent history.
    """
    st = belief.state
    me = belief.observer
    total = belief.consistent_deals
    notes: list[str] = []
    adv = Advisor(belief, worlds=32)
    offer = go_down = None
    lay_off = None
    discards: list[Option] = []
    recommend = None
    hazard = None
    over = st.over or st.phase in ("hand_end", "deal")
    if over:
        notes.append("the hand is over" if not st.over else "the game is over")
    elif st.phase == "offer" and me in st.offer["order"]:
        offer = adv.offer()
        if st.to_move() == me:
            recommend = offer.action
        else:
            notes.append(f"seat {st.to_move()} decides on the discard first; the advice is for when it comes to you")
    elif st.phase == "play" and st.turn == me:
        if not st.down[me]:
            go_down = adv.go_down()
            if go_down is not None and go_down.action["type"] == "go_down":
                recommend = go_down.action
        lay_off = adv.lay_off()
        if recommend is None and lay_off is not None:
            recommend = lay_off
        discards = adv.discards()[:max(0, max_asks)]
        if recommend is None and discards:
            recommend = discards[0].action
    elif st.turn == me and st.phase == "draw":
        notes.append("your draw from the stock is due")
    else:
        notes.append(f"seat {st.to_move()} is to decide; advice comes when the discard is offered to you or "
                     f"it is your turn")
    if not over:
        try:
            hazard = round(adv.hazard(), 4)
        except Exception:  # noqa: BLE001 - the hazard is extra information
            hazard = None
    opp = belief.opponent_chances()
    hold = belief.holdings()
    if belief.model != "uniform":
        notes.append(f"the {belief.model} player model weighs {belief.samples} sampled worlds (effective sample "
                     f"size {belief.ess:.0f}); the card chances carry standard errors")
    return CariocaHint(me, len(belief.events), st.hand_no, st.sets, st.runs, st.to_move(), st.phase, total,
                       belief.exact, belief.model, sorted(st.hands[me].elements()), list(st.sizes), st.stock_count,
                       st.pile[-1] if st.pile else None, offer, go_down, lay_off, discards, opp, hold,
                       belief.known_cards(), hazard, recommend, notes)


__all__ = ["CariocaHint", "carioca_hint"]
