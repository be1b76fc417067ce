"""Terminal rendering of advice objects with :mod:`rich` (used by the CLI)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..cards import card_sort_key
from . import asks_only


def _pct(p: float) -> str:
    if p <= 0:
        return "·"
    if p >= 1:
        return "100"
    if p < 0.005:
        return "<1"
    if p > 0.995:
        return ">99"
    return f"{100 * p:.0f}"


def render_hint(hint: Any, record: Any, show_table: bool = True, tables_only: bool = False,
                console: Console | None = None) -> None:
    """Print ``hint`` (an advice object) for humans.

    Args:
        hint: an advice object (``LiteratureHint``, ...).
        record: the record it was computed from (for the title).
        show_table: include the belief table.
        tables_only: print only the count and the belief table (``cardmind belief``).
    """
    console = console or Console(highlight=False, soft_wrap=False)
    name = getattr(hint, "__class__").__name__
    if name == "LiteratureHint":
        _render_literature(hint, record, console, show_table, tables_only)
    elif hasattr(hint, "render"):
        hint.render(console, record, show_table=show_table, tables_only=tables_only)
    else:  # pragma: no cover - every advice object is one of the above
        console.print(hint.to_json())


def _seat_label(seat: int, me: int) -> str:
    if seat == me:
        return f"{seat} you"
    return f"{seat} mate" if seat % 2 == me % 2 else f"{seat} opp"


def _render_literature(h: Any, record: Any, console: Console, show_table: bool, tables_only: bool) -> None:
    me = h.observer
    mates = [s for s in range(h.players) if s % 2 == me % 2]
    turn = "game over" if h.to_move is None else ("your turn" if h.your_turn else f"seat {h.to_move} to play")
    console.print(Text(f"Literature: seat {me}'s view after {h.events} events ({turn}); "
                       f"your team: seats {', '.join(map(str, mates))}", style="bold"))
    console.print(f"Consistent deals: {h.consistent_deals:,}")
    for note in h.notes:
        if not (tables_only and asks_only(note)):
            console.print(Text(f"Note: {note}", style="yellow"))
    if not tables_only:
        console.print()
        if h.claims:
            t = Table(title="Claims worth making (probability that claiming now succeeds)", title_justify="left")
            t.add_column("set")
            t.add_column("success", justify="right")
            t.add_column("team holds", justify="right")
            t.add_column("say who holds each card")
            for c in h.claims[:6]:
                assign = "  ".join(f"{card}→{seat}" for card, seat in sorted(c.assignment.items(),
                                                                              key=lambda kv: card_sort_key(kv[0])))
                prob = "certain" if c.certain else f"{100 * c.probability:.1f}%"
                style = "bold green" if c.certain else None
                t.add_row(c.set, prob, f"{100 * c.p_team_holds:.1f}%", assign, style=style)
            console.print(t)
            if len(h.claims) > 6:
                console.print(f"({len(h.claims) - 6} more sets your team might hold; see --json)")
        else:
            console.print("Claims: none: the game is over." if h.to_move is None else
                          "Claims: your team cannot hold all six cards of any set yet.")
        console.print()
        if h.asks:
            t = Table(title="Best asks", title_justify="left")
            t.add_column("#", justify="right")
            t.add_column("ask")
            t.add_column("success", justify="right")
            t.add_column("why")
            for i, a in enumerate(h.asks, 1):
                style = "bold green" if a.probability >= 1 else None
                t.add_row(str(i), f"{a.card} from seat {a.target}", f"{100 * a.probability:.1f}%", a.reason,
                          style=style)
            console.print(t)
        else:
            console.print("Asks: none possible now.")
    if show_table:
        console.print()
        t = Table(title="Belief: % chance each seat holds each card now (· = impossible)", title_justify="left")
        t.add_column("set")
        t.add_column("card")
        for s in range(h.players):
            t.add_column(_seat_label(s, me), justify="right")
        for set_name, cards in h.sets.items():
            first = True
            for c in cards:
                d = h.marginals.get(c, {})
                cells = []
                for s in range(h.players):
                    p = d.get(s, 0.0)
                    txt = _pct(p)
                    cells.append(Text(txt, style="bold" if p >= 1 else ("dim" if p <= 0 else "")))
                t.add_row(set_name if first else "", c, *cells)
                first = False
            t.add_section()
        console.print(t)
