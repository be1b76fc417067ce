"""The table of a Go Fish game as a seat sees it (``Game.table_view``, the engine's
``view``): the seat's hand, cards held per seat and the stock, each seat's books, and the
cards everyone knows a seat holds (handed over, or drawn and shown)."""

from __future__ import annotations

from typing import Any

from .rules import rank_cards, sort_hand


def table_view(game: Any, state: Any, seat: int) -> dict[str, Any]:
    """``Game.table_view`` for Go Fish (see :meth:`cardmind.core.Game.table_view`).

    Args:
        game: the Go Fish game; state: a :class:`~.state.GoFishState`; seat: a seat.

    Returns:
        The view: per seat a zone of its books (``melds``: each book's cards; a book whose
        rank this state does not know is a list of ``None``, face down) and, when any, a zone
        of the cards it is known to hold; ``scores``: books per seat.
    """
    held = state.hands[seat]
    zones: list[dict[str, Any]] = []
    books = state.books_per_seat()
    for s in range(state.players):
        melds = [list(rank_cards(r, state.options)) for r in state.ranks if state.book_at.get(r) == s]
        melds += [[None] * state.nsuits for _ in range(state.hidden_books[s])]
        zones.append({"title": f"books of seat {s}", "owner": s, "melds": melds})
        if s != seat and state.public[s]:
            zones.append({"title": f"seat {s} is known to hold", "owner": s, "cards": sort_hand(state.public[s])})
    scores = [{"title": f"seat {s}", "seats": [s], "points": books[s]} for s in range(state.players)]
    notes = ["phase 2: asking for whole books" if state.phase == 2 else "phase 1"]
    return {"seat": seat, "hand": None if held is None else sort_hand(held),
            "counts": {"cards": list(state.sizes), "stock": state.stock_count}, "zones": zones, "scores": scores,
            "notes": notes}
