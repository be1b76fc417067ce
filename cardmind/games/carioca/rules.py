"""Carioca-style contract rummy: pure rules data and options.

Sources: ``shared/seeds/carioca.txt`` (the rule text) and the contract rummy section of
``shared/spec/rules.md`` (defaults and named options; where the two differ, rules.md rules).
``docs/carioca.md`` states every rule as cardmind implements it.

Card values used everywhere in this package:

* **points** (what a card left in hand costs at the end of a hand): joker ``joker_points``
  (50), Ace ``ace_points`` (20), K Q J 10 points, 10 down to 2 their face value;
* **run values** (the place a card takes in a run): Ace 1 (low, before the 2) or 14 (high,
  after the King), 2-10 face value, J 11, Q 12, K 13.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from ...cards import JOKERS
from ...core import OptionSpec, int_option
from ...errors import OptionError

#: the seven contracts: (sets, runs) of hand 1..7 (seeds/carioca.txt)
CONTRACTS: tuple[tuple[int, int], ...] = ((2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3))
#: fewest cards of a set and of a run
SET_MIN, RUN_MIN = 3, 4
#: the ranks in run order, Ace low first (the Ace is also high, after the King)
RANK_ORDER = "A23456789TJQK"
SUIT_ORDER = "CDHS"
#: the run value of each rank (Ace low; an Ace high is 14)
RUN_VALUE = {r: i + 1 for i, r in enumerate(RANK_ORDER)}


def _points_option(lo: int, hi: int):
    return int_option(lo, hi)


OPTION_SPECS = (
    OptionSpec("players", 4, "number of players, 2 to 5", int_option(2, 5), (2, 3, 4, 5)),
    OptionSpec("jokers", 4, "jokers in the pack (RJ, BJ, RJ, BJ, ...), 0 to 6", int_option(0, 6)),
    OptionSpec("decks", 2, "52-card decks shuffled together, 1 to 3", int_option(1, 3), (1, 2, 3)),
    OptionSpec("out_bonus", -20, "points of a player who goes down and out in the same turn, never down "
                                 "before in that hand (seed: -20; 0 turns the bonus off)", int_option(-100, 0)),
    OptionSpec("steal_penalty", 1, "penalty cards a stealer takes from the stock with the discard, 0 to 3",
               int_option(0, 3), (0, 1, 2, 3)),
    OptionSpec("joker_points", 50, "points of a joker left in hand at the end of a hand", _points_option(0, 200)),
    OptionSpec("ace_points", 20, "points of an Ace left in hand at the end of a hand", _points_option(0, 200)),
    OptionSpec("restocks", 3, "times the stock may be rebuilt from the discards in one hand; when it runs out "
                              "once more, the hand ends with nobody out (cardmind's rule: the texts are silent), "
                              "0 to 20", int_option(0, 20)),
    OptionSpec("hands", 7, "hands played: the first N contracts (two sets, set and run, two runs, three sets, "
                           "two sets and a run, set and two runs, three runs), 1 to 7", int_option(1, 7)),
    OptionSpec("hand_size", 6, "cards dealt in the first hand (each later hand deals one more), 1 to 12",
               int_option(1, 12)),
    OptionSpec("ranks", 13, "ranks in each deck, Ace first (A, 2, 3, ...): 13 is the full deck; fewer give "
                            "small games for tests, 4 to 13", int_option(4, 13)),
    OptionSpec("suits", 4, "suits in each deck (C, D, H, S in that order), 1 to 4", int_option(1, 4)),
)


def check_options(options: dict) -> None:
    """Reject option combinations that cannot be dealt.

    Raises:
        OptionError: the largest deal (every player's hand of the last hand played, plus
            the card turned up) needs more cards than the pack has.
    """
    pack = deck_size(options)
    biggest = options["players"] * hand_cards(options, options["hands"]) + 1
    if biggest > pack:
        raise OptionError(
            f"carioca options: hand {options['hands']} deals {hand_cards(options, options['hands'])} cards to "
            f"each of {options['players']} players plus one turned up ({biggest} cards), but the pack has "
            f"only {pack} ({options['decks']} deck(s) of {options['ranks']} ranks x {options['suits']} suits "
            f"and {options['jokers']} jokers)")


def deck_size(options: dict) -> int:
    """Cards in the pack."""
    return options["decks"] * options["ranks"] * options["suits"] + options["jokers"]


def game_ranks(options: dict) -> str:
    """The rank characters in the pack, Ace first (``"A23456789TJQK"`` by default)."""
    return RANK_ORDER[:options["ranks"]]


def game_suits(options: dict) -> str:
    """The suit characters in the pack (``"CDHS"`` by default)."""
    return SUIT_ORDER[:options["suits"]]


@lru_cache(maxsize=None)
def _pack(decks: int, ranks: int, suits: int, jokers: int) -> tuple[str, ...]:
    one = [r + s for s in SUIT_ORDER[:suits] for r in RANK_ORDER[:ranks]]
    return tuple(one * decks + [JOKERS[i % 2] for i in range(jokers)])


def deck_cards(options: dict) -> tuple[str, ...]:
    """Every card of the pack (copies repeated), in canonical order: deck by deck, suit by
    suit, Ace to King; then the jokers ``RJ``, ``BJ``, ``RJ``, ... ."""
    return _pack(options["decks"], options["ranks"], options["suits"], options["jokers"])


def deck_counts(options: dict) -> Counter:
    """The pack as a multiset ``{card: copies}``."""
    return Counter(deck_cards(options))


def contract(options: dict, hand: int) -> tuple[int, int]:
    """``(sets, runs)`` of hand ``hand`` (1-based)."""
    return CONTRACTS[hand - 1]


def contract_name(sets: int, runs: int) -> str:
    """A readable contract (``"2 sets"``, ``"1 set and 1 run"``, ``"3 runs"``)."""
    parts = []
    if sets:
        parts.append(f"{sets} set{'s' if sets > 1 else ''}")
    if runs:
        parts.append(f"{runs} run{'s' if runs > 1 else ''}")
    return " and ".join(parts)


def contract_cards(sets: int, runs: int) -> int:
    """The fewest cards that make the contract (3 per set, 4 per run)."""
    return SET_MIN * sets + RUN_MIN * runs


def hand_cards(options: dict, hand: int) -> int:
    """Cards dealt to each player in hand ``hand`` (1-based): ``hand_size + hand - 1``."""
    return options["hand_size"] + hand - 1


def first_player(options: dict, hand: int) -> int:
    """The seat that plays first in hand ``hand``: seat 0 in hand 1, then one seat on per
    hand (the deal and the first turn rotate)."""
    return (hand - 1) % options["players"]


def is_joker(card: str) -> bool:
    """Whether ``card`` is a joker (``RJ`` or ``BJ``)."""
    return card in JOKERS


def card_points(card: str, options: dict) -> int:
    """Points of ``card`` left in hand at the end of a hand (seed: joker 50, Ace 20, K Q J 10,
    others their face value; the joker and Ace values are the options ``joker_points`` and
    ``ace_points``)."""
    if card in JOKERS:
        return options["joker_points"]
    r = card[0]
    if r == "A":
        return options["ace_points"]
    if r in "TJQK":
        return 10
    return int(r)


def hand_points(cards: Iterable[str], options: dict) -> int:
    """Points of the cards ``cards`` (a hand at the end of a hand)."""
    return sum(card_points(c, options) for c in cards)


def next_seat(seat: int, players: int) -> int:
    """The seat after ``seat`` (turn order is seat order)."""
    return (seat + 1) % players


def card_key(card: str) -> tuple[int, int]:
    """Sort key for hands: by suit (C D H S, jokers last), then Ace to King."""
    if card in JOKERS:
        return (4, JOKERS.index(card))
    return (SUIT_ORDER.index(card[1]), RANK_ORDER.index(card[0]))


def sort_hand(cards: Iterable[str]) -> list[str]:
    """``cards`` sorted by :func:`card_key` (the order hands are written in)."""
    return sorted(cards, key=card_key)


__all__ = [
    "CONTRACTS", "OPTION_SPECS", "RANK_ORDER", "RUN_VALUE", "SET_MIN", "RUN_MIN", "SUIT_ORDER",
    "card_key", "card_points", "check_options", "contract", "contract_cards", "contract_name", "deck_cards",
    "deck_counts", "deck_size", "first_player", "game_ranks", "game_suits", "hand_cards", "hand_points",
    "is_joker", "next_seat", "sort_hand",
]
