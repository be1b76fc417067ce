"""The table of a Carioca game as a seat sees it (``Game.table_view``, the engine's
``view``): the seat's hand, cards held per seat and the stock, the discard pile, each
seat's melds on the table, the cards everyone knows a seat holds, and the totals."""

from __future__ import annotations

from typing import Any

from .rules import contract_name, sort_hand


def table_view(game: Any, state: Any, seat: int) -> dict[str, Any]:
    """``Game.table_view`` for Carioca (see :meth:`cardmind.core.Game.table_view`).

    Args:
        game: the Carioca game; state: a :class:`~.state.CariocaState`; seat: a seat.

    Returns:
        The view: the discard pile (bottom first: the last card is the one to take), then
        per seat its melds (in the order laid; a meld's number is its place in
        ``state.table``, as ``lay_off`` events count them) and the cards it is known to hold;
        ``scores``: the points so far per seat (lower is better); ``notes``: the hand and
        its contract.
    """
    held = state.hands[seat]
    zones: list[dict[str, Any]] = [{"title": "discard pile", "owner": None, "cards": list(state.pile)}]
    for s in range(state.players):
        melds = [list(m["cards"]) for m in state.table if m["owner"] == s]
        zones.append({"title": f"melds of seat {s}" + ("" if state.down[s] else " (not down yet)"), "owner": s,
                      "melds": melds})
        known = +state.known[s]
        if s != seat and known:
            zones.append({"title": f"seat {s} is known to hold", "owner": s, "cards": sort_hand(known.elements())})
    scores = [{"title": f"seat {s}", "seats": [s], "points": state.totals[s]} for s in range(state.players)]
    notes = [f"hand {state.hand_no}: {contract_name(state.sets, state.runs)}", "lowest total wins"]
    return {"seat": seat, "hand": None if held is None else sort_hand(held.elements()),
            "counts": {"cards": list(state.sizes), "stock": state.stock_count}, "zones": zones, "scores": scores,
            "notes": notes}
