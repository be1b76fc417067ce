"""Helpers for the Hand and Foot tests: a complete deal with chosen cards, and a state built
from it, so that a test can put exactly the position it needs on the table."""

from __future__ import annotations

from collections import Counter

from cardmind.core import get_game
from cardmind.games.handfoot.rules import deck_cards

GAME = get_game("handfoot")


def header_with(options: dict | None = None, hands: dict[int, list[str]] | None = None,
                feet: dict[int, list[str]] | None = None, stock_front: list[str] | None = None) -> dict:
    """A complete header of the first hand whose given seats hold ``hands`` (and ``feet``),
    whose stock starts with ``stock_front``; every other place is filled from the rest of the
    decks in canonical order. Later hands (``deals``) are filled the same way with no choice."""
    opts = GAME.parse_options(options or {})
    n, size = opts["players"], opts["hand_size"]

    def one(hands, feet, front):
        pool = Counter(deck_cards(opts))
        for part in list((hands or {}).values()) + list((feet or {}).values()) + [front or []]:
            pool.subtract(part)
            assert min(pool.values()) >= 0, "the chosen cards are not in the decks"
        rest = []
        for c in deck_cards(opts):
            if pool[c] > 0:
                rest.append(c)
                pool[c] -= 1
        hs, fs = [], []
        for s in range(n):
            h = list((hands or {}).get(s, []))
            while len(h) < size:
                h.append(rest.pop())
            hs.append(h)
        for s in range(n):
            f = list((feet or {}).get(s, []))
            while len(f) < size:
                f.append(rest.pop())
            fs.append(f)
        return {"hands": hs, "feet": fs, "stock": list(front or []) + rest}

    first = one(hands, feet, stock_front)
    later = [one(None, None, None) for _ in range(opts["hands"] - 1)]
    return {"format": "cardmind-record/1", "game": "handfoot", "options": opts, **first, "deals": later}


def state_with(options: dict | None = None, **kw):
    """The complete state at the start of :func:`header_with`'s deal."""
    h = header_with(options, **kw)
    return GAME.new_state(h["options"], h)


def play(state, actions) -> list[dict]:
    """Apply ``actions`` (cardmind actions) to a complete ``state``; return every event made."""
    out = []
    for a in actions:
        out.extend(state.apply_action(a))
    return out
