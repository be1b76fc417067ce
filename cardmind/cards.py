"""Card notation and decks.

A card is a canonical two-character token (``records.md``): a rank from
``2 3 4 5 6 7 8 9 T J Q K A`` followed by a suit from ``C D H S`` (``"TS"`` is the
ten of spades), or a joker ``"RJ"`` (red) / ``"BJ"`` (black). Readers also accept
``10S`` and lower case (and a rank alone as ``10`` or ``T``); writers always emit the
canonical form. In multi-deck games
equal tokens are copies of one card and a hand is a multiset (a list that may
repeat tokens).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .errors import CardError

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
JOKERS = ("RJ", "BJ")
RANK_NAMES = {
    "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}


def parse_card(token: object) -> str:
    """Return the canonical token for ``token``.

    Args:
        token: a card token such as ``"TS"``, ``"10s"``, ``"rj"``.

    Returns:
        The canonical two-character token (``"TS"``, ``"RJ"``).

    Raises:
        CardError: when ``token`` is not a string naming a card.
    """
    if not isinstance(token, str):
        raise CardError(f"a card must be a string such as 'TS', not {token!r}")
    t = token.strip().upper()
    if t in JOKERS:
        return t
    if len(t) == 3 and t.startswith("10"):
        t = "T" + t[2]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise CardError(f"unknown card {token!r} (expected rank 2-9 T J Q K A then suit C D H S, or RJ/BJ)")
    return t


def parse_rank(token: object) -> str:
    """Return the canonical rank character for ``token``.

    Args:
        token: a rank such as ``"T"``, ``"10"``, ``"q"`` (a Go Fish ask names a rank).

    Returns:
        One character of :data:`RANKS` (``"T"`` for ``"10"``).

    Raises:
        CardError: when ``token`` is not a string naming a rank.
    """
    t = token.strip().upper() if isinstance(token, str) else None
    if t == "10":
        t = "T"
    if t is None or len(t) != 1 or t not in RANKS:
        raise CardError(f"a rank must be 2-9, T (or 10), J, Q, K or A, not {_json_text(token)}")
    return t


def _json_text(value: object) -> str:
    """``value`` as JSON text when it is JSON (``"X"``, ``12``, ``null``), else its ``repr``."""
    import json  # noqa: PLC0415

    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def parse_cards(tokens: Iterable[object]) -> list[str]:
    """Parse every token of ``tokens`` with :func:`parse_card` (order and copies kept)."""
    return [parse_card(t) for t in tokens]


def rank_of(card: str) -> str:
    """The rank character of a canonical card (``"J"`` for both jokers)."""
    return card[0] if card not in JOKERS else "J*"


def suit_of(card: str) -> str | None:
    """The suit character of a canonical card, or ``None`` for a joker."""
    return None if card in JOKERS else card[1]


def standard_deck(ranks: str = RANKS, suits: str = SUITS, jokers: int = 0, decks: int = 1) -> list[str]:
    """Build a deck as a list of canonical tokens, suit-major then rank order.

    Args:
        ranks: which rank characters to include (a subset of :data:`RANKS`).
        suits: which suit characters to include (a subset of :data:`SUITS`).
        jokers: jokers per deck (0, 1 or 2: ``RJ`` then ``BJ``).
        decks: number of decks; copies repeat the same token.

    Returns:
        A list of ``decks * (len(ranks) * len(suits) + jokers)`` tokens.
    """
    one = [r + s for s in suits for r in ranks] + list(JOKERS[:jokers])
    return one * decks


def card_sort_key(card: str) -> tuple[int, int]:
    """Sort key that orders cards by suit (C, D, H, S, jokers last) then rank."""
    if card in JOKERS:
        return (4, JOKERS.index(card))
    return (SUITS.index(card[1]), RANKS.index(card[0]))


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Return ``cards`` sorted by :func:`card_sort_key`."""
    return sorted(cards, key=card_sort_key)


def multiset(cards: Iterable[str]) -> Counter:
    """The multiset (a :class:`collections.Counter`) of ``cards``."""
    return Counter(cards)


def card_name(card: str) -> str:
    """A readable name (``"ten of spades"``, ``"red joker"``)."""
    if card == "RJ":
        return "red joker"
    if card == "BJ":
        return "black joker"
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"
