"""Bulgarian Go Fish ("Mind your own business"): pure rules data and options.

Sources: ``shared/seeds/gofish-bulgarian.en.txt`` (the rule text, with the Bulgarian original
beside it) and the Go Fish section of ``shared/spec/rules.md`` (defaults and options).
``docs/gofish.md`` states every rule as cardmind implements it.
"""

from __future__ import annotations

from functools import lru_cache

from ...cards import RANKS, SUITS
from ...core import OptionSpec, bool_option, choice_option, int_option
from ...errors import OptionError

OPTION_SPECS = (
    OptionSpec("players", 4, "number of players, 2 to 6", int_option(2, 6), (2, 3, 4, 5, 6)),
    OptionSpec("give", "one",
               "\"one\": the asked player hands over one card of the rank; \"all\": every card of it",
               choice_option("one", "all"), ("one", "all")),
    OptionSpec("books_face_up", False, "books are laid face up (everyone sees their rank)",
               bool_option, (False, True)),
    OptionSpec("phase2", False, "after the cards run out, players ask each other for whole books "
                                "until one player holds them all", bool_option, (False, True)),
    OptionSpec("ranks", 13, "number of ranks in the deck (the lowest ones: 2, 3, ...), 1 to 13",
               int_option(1, 13)),
    OptionSpec("suits", 4, "number of suits (C, D, H, S in that order), 2 to 4; a book is every suit "
                           "of a rank", int_option(2, 4), (2, 3, 4)),
    OptionSpec("hand", 6, "cards dealt to each player (at least 1)", int_option(1, 52)),
)


def check_options(options: dict) -> None:
    """Reject option combinations that cannot be dealt.

    Raises:
        OptionError: ``players * hand`` is more than the ``ranks * suits`` cards of the deck.
    """
    deck = options["ranks"] * options["suits"]
    need = options["players"] * options["hand"]
    if need > deck:
        raise OptionError(
            f"gofish options: {options['players']} players with {options['hand']} cards each need "
            f"{need} cards, but {options['ranks']} ranks x {options['suits']} suits make only {deck}")


def game_ranks(options: dict) -> str:
    """The rank characters in play, lowest first (``"23456789TJQKA"`` by default)."""
    return RANKS[:options["ranks"]]


def game_suits(options: dict) -> str:
    """The suit characters in play (``"CDHS"`` by default)."""
    return SUITS[:options["suits"]]


@lru_cache(maxsize=None)
def _deck(ranks: int, suits: int) -> tuple[str, ...]:
    return tuple(r + s for r in RANKS[:ranks] for s in SUITS[:suits])


def deck_cards(options: dict) -> tuple[str, ...]:
    """Every card of the deck in canonical order: rank by rank, suits C D H S within a rank."""
    return _deck(options["ranks"], options["suits"])


def rank_cards(rank: str, options: dict) -> tuple[str, ...]:
    """The cards of one rank (a book), in suit order."""
    return tuple(rank + s for s in game_suits(options))


def stock_size(options: dict) -> int:
    """Cards left in the stock after the deal."""
    return options["ranks"] * options["suits"] - options["players"] * options["hand"]


def card_key(card: str) -> tuple[int, int]:
    """Sort key for Go Fish hands: by rank, then suit."""
    return (RANKS.index(card[0]), SUITS.index(card[1]))


def sort_hand(cards) -> list[str]:
    """``cards`` sorted by rank then suit (the order hands are written in)."""
    return sorted(cards, key=card_key)


def next_seat(seat: int, players: int) -> int:
    """The seat after ``seat`` clockwise (turn order is seat order)."""
    return (seat + 1) % players


__all__ = [
    "OPTION_SPECS", "check_options", "game_ranks", "game_suits", "deck_cards", "rank_cards",
    "stock_size", "card_key", "sort_hand", "next_seat",
]


def move_known_book(known_books: dict[str, int], book_log: list[dict], rank: str, owner: int) -> None:
    """A phase-2 ask that wins a face-up book: the book of ``rank`` goes to ``owner`` (the
    asking seat), in ``known_books`` (rank -> seat) and in every entry of ``book_log`` of that
    rank (``{"maker", "rank", "owner"}``). Both are changed in place (the trackers' own
    bookkeeping of the books on the table)."""
    known_books[rank] = owner
    for b in book_log:
        if b["rank"] == rank:
            b["owner"] = owner
