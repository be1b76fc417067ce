"""Literature: pure rules data (sets, teams, deal sizes) and options.

Sources: ``shared/seeds/literature.txt`` (the rule text) and the Literature section of
``shared/spec/rules.md`` (defaults and options).
"""

from __future__ import annotations

from functools import lru_cache

from ...cards import RANKS, SUIT_NAMES, SUITS
from ...core import OptionSpec, bool_option, choice_option

LOW_RANKS = "234567"
HIGH_RANKS = "9TJQKA"
EIGHTS = ("8C", "8D", "8H", "8S", "RJ", "BJ")


def _players(value) -> int:
    if isinstance(value, bool) or value not in (6, 8):
        raise ValueError(f"expected 6 or 8, got {value!r}")
    return value


def _deck(value) -> str:
    if isinstance(value, bool):
        raise ValueError(f"expected \"54\" or \"48\", got {value!r}")
    if value in (54, 48):
        return str(value)
    if value in ("54", "48"):
        return value
    raise ValueError(f"expected \"54\" or \"48\", got {value!r}")


OPTION_SPECS = (
    OptionSpec("players", 6, "6 (3 v 3) or 8 (4 v 4) players; teams alternate seats", _players, (6, 8)),
    OptionSpec("deck", "54", "\"54\" (nine sets, with the 8s and jokers) or \"48\" (eight sets)", _deck, ("54", "48")),
    OptionSpec("claim_any_time", False, "any player with cards may claim between any two actions",
               bool_option, (False, True)),
    OptionSpec("ask_own_card", False, "a player may ask for a card they hold (a bluff)",
               bool_option, (False, True)),
    OptionSpec("wrong_claim", "opponents",
               "\"opponents\" get a wrong claim's set, or \"cancel\": void when all six were on the claimer's team",
               choice_option("opponents", "cancel"), ("opponents", "cancel")),
    OptionSpec("after_claim", "awarded_team",
               "\"awarded_team\" picks who plays next, or \"claimant\" keeps the turn",
               choice_option("awarded_team", "claimant"), ("awarded_team", "claimant")),
)


@lru_cache(maxsize=None)
def set_names(deck: str = "54") -> tuple[str, ...]:
    """Names of the sets in play, in canonical order (``low-clubs``, ``high-clubs``, ...,
    ``eights`` last when the deck has 54 cards)."""
    names = []
    for s in SUITS:
        names += [f"low-{SUIT_NAMES[s]}", f"high-{SUIT_NAMES[s]}"]
    if deck == "54":
        names.append("eights")
    return tuple(names)


@lru_cache(maxsize=None)
def set_cards(name: str) -> tuple[str, ...]:
    """The six cards of set ``name`` in rank order.

    Raises:
        KeyError: ``name`` is not a Literature set.
    """
    if name == "eights":
        return EIGHTS
    try:
        half, suit_name = name.split("-")
        suit = {v: k for k, v in SUIT_NAMES.items()}[suit_name]
        ranks = {"low": LOW_RANKS, "high": HIGH_RANKS}[half]
    except (ValueError, KeyError):
        raise KeyError(name) from None
    return tuple(r + suit for r in ranks)


@lru_cache(maxsize=None)
def deck_cards(deck: str = "54") -> tuple[str, ...]:
    """Every card of the deck, set by set in :func:`set_names` order."""
    return tuple(c for name in set_names(deck) for c in set_cards(name))


@lru_cache(maxsize=None)
def _set_index(deck: str) -> dict[str, str]:
    return {c: name for name in set_names(deck) for c in set_cards(name)}


def set_of(card: str, deck: str = "54") -> str:
    """The set a card belongs to.

    Raises:
        KeyError: the card is not in the deck (an 8 or joker with the 48-card deck).
    """
    return _set_index(deck)[card]


def team_of(seat: int) -> int:
    """Team of a seat: team 0 holds the even seats (rules.md)."""
    return seat % 2


def team_seats(team: int, players: int) -> tuple[int, ...]:
    """The seats of ``team`` in seat order."""
    return tuple(range(team, players, 2))


def deal_sizes(players: int, deck: str = "54") -> tuple[int, ...]:
    """Cards dealt to each seat: all cards round-robin from seat 0 (rules.md), so the
    first seats get one more when the deck does not divide evenly."""
    n = len(deck_cards(deck))
    base, extra = divmod(n, players)
    return tuple(base + (1 if s < extra else 0) for s in range(players))


def is_card_in_deck(card: str, deck: str) -> bool:
    """Whether ``card`` (canonical) is part of the deck ``deck``."""
    return card in _set_index(deck)


__all__ = [
    "OPTION_SPECS", "set_names", "set_cards", "deck_cards", "set_of", "team_of", "team_seats",
    "deal_sizes", "is_card_in_deck", "RANKS",
]
