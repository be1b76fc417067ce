"""The table of a Literature game as a seat sees it (``Game.table_view``, the engine's
``view``): the seat's hand, cards held per seat, the claimed sets per team, and the cards
whose holder everyone knows (handed over in an ask)."""

from __future__ import annotations

from typing import Any

from .rules import deck_cards, set_cards, team_of, team_seats


def table_view(game: Any, state: Any, seat: int) -> dict[str, Any]:
    """``Game.table_view`` for Literature (see :meth:`cardmind.core.Game.table_view`).

    Args:
        game: the Literature game; state: a :class:`~.state.LiteratureState`; seat: a seat.

    Returns:
        The view: ``zones`` are one per team (``melds``: the sets it won, each its six
        cards), the void sets (owner ``None``), and per seat the cards it is known to hold;
        ``scores``: sets won per team.
    """
    order = deck_cards(state.deck)
    held = state.hands[seat]
    hand = None if held is None else [c for c in order if c in held]
    zones: list[dict[str, Any]] = []
    for team in (0, 1):
        seats = list(team_seats(team, state.players))
        won = [list(set_cards(name)) for name, owner in state.set_owner.items() if owner == team]
        zones.append({"title": f"sets won by seats {', '.join(map(str, seats))}", "owner": seats, "melds": won})
    void = [list(set_cards(name)) for name, owner in state.set_owner.items() if owner is None]
    if void:
        zones.append({"title": "void sets", "owner": None, "melds": void})
    for s in range(state.players):
        if s == seat:
            continue
        known = [c for c in order if state.holder.get(c) == s and c in state.moved]
        if known:
            zones.append({"title": f"seat {s} is known to hold", "owner": s, "cards": known})
    scores = [{"title": f"seats {', '.join(map(str, team_seats(t, state.players)))}",
               "seats": list(team_seats(t, state.players)), "points": state.team_sets[t]} for t in (0, 1)]
    return {"seat": seat, "hand": hand, "counts": {"cards": list(state.sizes)}, "zones": zones, "scores": scores,
            "notes": [f"your team: seats {', '.join(map(str, team_seats(team_of(seat), state.players)))}"]}
