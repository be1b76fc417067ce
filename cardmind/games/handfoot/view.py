"""The table of a Hand and Foot game as a seat sees it (``Game.table_view``, the engine's
``view``): the seat's cards (its hand, or its foot once picked up), cards held per seat,
feet not yet picked up and the stock, the discard pile, each team's melds, the cards
everyone knows a seat holds, and the totals."""

from __future__ import annotations

from typing import Any

from .rules import BOOK_SIZE, sort_cards


def table_view(game: Any, state: Any, seat: int) -> dict[str, Any]:
    """``Game.table_view`` for Hand and Foot (see :meth:`cardmind.core.Game.table_view`).

    Args:
        game: the Hand and Foot game; state: a :class:`~.state.HandFootState`; seat: a seat.

    Returns:
        The view: ``counts`` has ``cards`` (held now), ``foot`` (cards of each foot not yet
        picked up) and ``stock``; the discard pile (bottom first); per team its melds (in
        the order laid: a meld's number is its place, as ``lay_off`` events count them; the
        title says which are books); ``scores``: each team's total; ``notes``: the hand and
        its opening minimum.
    """
    held = state.zone[seat]
    zones: list[dict[str, Any]] = [{"title": "discard pile", "owner": None, "cards": list(state.pile)}]
    seats_of = [[s for s in range(state.players) if state.teams[s] == t] for t in range(state.num_teams)]
    for t, seats in enumerate(seats_of):
        melds = state.melds[t]
        books = [i for i, m in enumerate(melds) if m.size >= BOOK_SIZE]
        who = "seat" if len(seats) == 1 else "seats"
        title = f"melds of {who} {', '.join(map(str, seats))}" + (f" (books: {', '.join(str(i) for i in books)})"
                                                                   if books else "")
        zones.append({"title": title, "owner": seats if len(seats) > 1 else seats[0],
                      "melds": [list(m.cards) for m in melds]})
    for s in range(state.players):
        known = +state.known[s]
        if s != seat and known:
            zones.append({"title": f"seat {s} is known to hold", "owner": s, "cards": sort_cards(known.elements())})
    scores = [{"title": f"{'seat' if len(seats) == 1 else 'seats'} {', '.join(map(str, seats))}", "seats": seats,
               "points": state.totals[t]} for t, seats in enumerate(seats_of)]
    notes = [f"hand {state.hand_no}: the opening minimum is {state.minimum} points",
             "playing from the foot" if state.in_foot[seat] else "playing from the hand"]
    return {"seat": seat, "hand": None if held is None else sort_cards(held.elements()),
            "counts": {"cards": list(state.sizes), "foot": list(state.foot_sizes), "stock": state.stock_count},
            "zones": zones, "scores": scores, "notes": notes}
