"""Hand and Foot: pure rules data and options, card points, meld and book checks, scoring.

Sources: ``shared/seeds/hand-and-foot.txt`` (the rule text) and the Hand and Foot section of
``shared/spec/rules.md`` (defaults and named options; where the two disagree rules.md rules).
``docs/handfoot.md`` states every rule as cardmind implements it, with the decisions taken
where the texts are silent.

Everything here is a pure function of its arguments: no state, no randomness. Cards are the
canonical tokens of :mod:`cardmind.cards`; with several decks equal tokens are copies, and a
hand is a :class:`collections.Counter` (token -> copies).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...cards import RANKS, SUITS
from ...core import OptionSpec, bool_option, int_option
from ...errors import OptionError

#: natural ranks that can be melded, lowest first (threes and twos never are natural melds)
MELD_RANKS = "456789TJQKA"
#: the jokers
JOKERS = ("RJ", "BJ")
#: the red threes (500 points against when held at the end of a hand)
RED_THREES = ("3D", "3H")
#: cards in a book
BOOK_SIZE = 7
#: points of a clean book (no wild card) and of a dirty book (rules.md)
CLEAN_BOOK = 300
DIRTY_BOOK = 100
#: the going-out bonus (rules.md)
GO_OUT_BONUS = 300
#: a red three held in hand or foot at the end of a hand (rules.md)
RED_THREE_PENALTY = 500
#: the opening minimums of the four hands (rules.md)
DEFAULT_MINIMUMS = "50,90,120,150"
#: cards taken from the discard pile (its top seven: rules.md)
PILE_TAKE = 7


def _minimums(value: Any) -> str:
    """Coerce the ``minimums`` option: four whole numbers of points (0 to 10000), one per hand,
    as a list or as text (``"50,90,120,150"``); kept as that text (game parameters elsewhere,
    such as OpenSpiel's, cannot be lists)."""
    vals = value
    if isinstance(value, str):
        try:
            vals = [int(v) for v in value.replace(" ", "").split(",")]
        except ValueError:
            vals = None
    if not isinstance(vals, (list, tuple)) or len(vals) != 4 or \
            not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10_000 for v in vals):
        raise ValueError(f"expected four whole numbers of points from 0 to 10000, one per hand "
                         f"(\"50,90,120,150\" or a list), got {value!r}")
    return ",".join(str(v) for v in vals)


def _ranks(value: Any) -> str:
    """Coerce the ``ranks`` option: the ranks in the deck, a string of rank characters."""
    if not isinstance(value, str) or not value:
        raise ValueError(f"expected a string of rank characters such as \"23456789TJQKA\", got {value!r}")
    v = value.upper()
    if any(r not in RANKS for r in v) or len(set(v)) != len(v):
        raise ValueError(f"expected distinct rank characters from {RANKS}, got {value!r}")
    if not any(r in MELD_RANKS for r in v):
        raise ValueError(f"the deck needs at least one rank that can be melded ({MELD_RANKS}), got {value!r}")
    return "".join(r for r in RANKS if r in v)


OPTION_SPECS = (
    OptionSpec("players", 4, "number of players: 4 (two partnerships, partners opposite) or 6 (three "
                             "partnerships); 2 to 6 with cutthroat", int_option(2, 6), (2, 3, 4, 5, 6)),
    OptionSpec("cutthroat", False, "every player is their own team (no partner, no asking to go out); "
                                   "the usual game for 3 players", bool_option, (False, True)),
    OptionSpec("decks", 0, "number of decks shuffled together; 0 = 5, or 6 with six players",
               int_option(0, 10)),
    OptionSpec("hands", 4, "hands in a game (each with its own opening minimum), 1 to 4", int_option(1, 4),
               (1, 2, 3, 4)),
    OptionSpec("minimums", DEFAULT_MINIMUMS, "the opening minimum of each of the four hands, in points "
                                             "(house rules vary: 50, 90, 120, 150 by default)", _minimums),
    OptionSpec("books_clean", 2, "clean books a team needs to go out", int_option(0, 10)),
    OptionSpec("books_dirty", 2, "dirty books a team needs to go out", int_option(0, 10)),
    OptionSpec("pile_min", 7, "cards the discard pile must hold before it may be taken (its top seven, "
                              "or all of it when smaller, are taken)", int_option(1, 50)),
    OptionSpec("failed_out_penalty", 100, "points a team loses when its player, told yes, does not go out "
                                          "that turn", int_option(0, 10_000)),
    OptionSpec("out_by_laying", False, "house rule: a player going out may lay its last card instead of "
                                       "discarding it (the seed: \"play all of your cards and discard one\")",
               bool_option, (False, True)),
    OptionSpec("hand_size", 11, "cards in each hand and in each foot", int_option(1, 20)),
    OptionSpec("ranks", RANKS, "the ranks in the deck (a reduced deck for tests: \"245\")", _ranks),
    OptionSpec("suits", 4, "suits in the deck (C, D, H, S in that order)", int_option(1, 4), (1, 2, 3, 4)),
    OptionSpec("jokers", 2, "jokers per deck (RJ, then BJ)", int_option(0, 2), (0, 1, 2)),
)


def num_decks(options: Mapping[str, Any]) -> int:
    """The decks shuffled together: the ``decks`` option, or 5 (6 with six players) when it is 0."""
    d = options["decks"]
    if d:
        return d
    return 6 if options["players"] == 6 else 5


def check_options(options: Mapping[str, Any]) -> None:
    """Reject option combinations that cannot be played.

    Raises:
        OptionError: partnerships with a number of players other than 4 or 6; a deal needing
            more cards than the decks hold (every seat takes a hand and a foot, and the stock
            must keep at least one card).
    """
    n = options["players"]
    if not options["cutthroat"] and n not in (4, 6):
        raise OptionError(f"handfoot options: partnerships need 4 or 6 players, not {n} "
                          f"(set \"cutthroat\": true for every player on their own)")
    deck = len(deck_cards(options))
    need = 2 * n * options["hand_size"] + 1
    if need > deck:
        raise OptionError(f"handfoot options: {n} players with a hand and a foot of {options['hand_size']} "
                          f"need {need} cards (with one left for the stock), but the {num_decks(options)} "
                          f"decks hold {deck}")


# ---------------------------------------------------------------------------- cards
#: ranks as a card player names several cards of them ("your 4s", "a pair of jacks")
_RANK_NAMES = {"T": "10s", "J": "jacks", "Q": "queens", "K": "kings", "A": "aces"}


def rank_plural(rank: str) -> str:
    """A rank named in the plural as a player says it: ``"4s"``, ``"10s"``, ``"jacks"``, ``"aces"``."""
    return _RANK_NAMES.get(rank, f"{rank}s")


def rank_single(rank: str) -> str:
    """A rank named for one card: ``"4"``, ``"10"``, ``"jack"``, ``"ace"``."""
    return rank_plural(rank)[:-1]


def is_wild(card: str) -> bool:
    """Whether ``card`` is wild (a joker or a two)."""
    return card in JOKERS or card[0] == "2"


def is_three(card: str) -> bool:
    """Whether ``card`` is a three (never melded)."""
    return card[0] == "3"


def is_red_three(card: str) -> bool:
    """Whether ``card`` is a red three (3D, 3H)."""
    return card in RED_THREES


def is_natural(card: str) -> bool:
    """Whether ``card`` can be melded as a natural (rank 4 to A)."""
    return card[0] in MELD_RANKS and card not in JOKERS


def card_points(card: str) -> int:
    """Points of one card (rules.md): black 3 = 5, 4-7 = 5, 8-K = 10, A = 20, 2 = 20,
    joker = 50, and a red 3 = 500 (only ever counted against: it cannot be melded)."""
    if card in JOKERS:
        return 50
    r = card[0]
    if r == "3":
        return RED_THREE_PENALTY if card in RED_THREES else 5
    if r in "4567":
        return 5
    if r in "89TJQK":
        return 10
    return 20  # A and 2


def held_points(cards: Iterable[str] | Mapping[str, int]) -> int:
    """Points of cards held at the end of a hand (counted against; a red three 500)."""
    if isinstance(cards, Mapping):
        return sum(card_points(c) * k for c, k in cards.items())
    return sum(card_points(c) for c in cards)


@lru_cache(maxsize=None)
def _deck(ranks: str, suits: int, jokers: int, decks: int) -> tuple[str, ...]:
    one = [r + s for r in ranks for s in SUITS[:suits]] + list(JOKERS[:jokers])
    return tuple(one * decks)


def deck_cards(options: Mapping[str, Any]) -> tuple[str, ...]:
    """Every card of the shuffled decks (copies repeated), rank by rank, suits C D H S, then
    the jokers; deck after deck."""
    return _deck(options["ranks"], options["suits"], options["jokers"], num_decks(options))


def deck_counter(options: Mapping[str, Any]) -> Counter:
    """The decks as a multiset ``{token: copies}``."""
    return Counter(deck_cards(options))


def card_key(card: str) -> tuple[int, int]:
    """Sort key: by rank (2 low, A high; jokers last), then suit."""
    if card in JOKERS:
        return (len(RANKS), JOKERS.index(card))
    return (RANKS.index(card[0]), SUITS.index(card[1]))


def sort_cards(cards: Iterable[str]) -> list[str]:
    """``cards`` sorted by :func:`card_key` (the order hands are written in)."""
    return sorted(cards, key=card_key)


def expand(counter: Mapping[str, int]) -> list[str]:
    """A multiset as a sorted list of tokens (copies repeated)."""
    return sort_cards(c for c, k in counter.items() for _ in range(k))


# ---------------------------------------------------------------------------- teams
def teams_of(options: Mapping[str, Any]) -> list[int]:
    """The team of every seat: seats alternate (team ``seat % 2`` with four players, ``seat % 3``
    with six, so partners sit opposite); with ``cutthroat`` each seat is its own team."""
    n = options["players"]
    if options["cutthroat"]:
        return list(range(n))
    k = n // 2
    return [s % k for s in range(n)]


def partner_of(seat: int, options: Mapping[str, Any]) -> int | None:
    """``seat``'s partner (the seat opposite), or ``None`` in cut-throat."""
    if options["cutthroat"]:
        return None
    n = options["players"]
    return (seat + n // 2) % n


def minimum_of(hand_no: int, options: Mapping[str, Any]) -> int:
    """The opening minimum (points) of hand ``hand_no`` (1-based)."""
    return int(options["minimums"].split(",")[hand_no - 1])


# ---------------------------------------------------------------------------- melds
@dataclass(frozen=True)
class MeldCheck:
    """What a group of cards is as a meld.

    Attributes:
        valid: whether it is a valid meld under the rules.
        rank: its natural rank (``None`` when there is no natural card).
        naturals: natural cards; ``wilds``: wild cards.
        clean: no wild card (a "red" meld); ``book``: 7 or more cards.
        reason: why it is not valid ('' when valid).
    """

    valid: bool
    rank: str | None
    naturals: int
    wilds: int
    reason: str = ""

    @property
    def clean(self) -> bool:
        """No wild card."""
        return self.wilds == 0

    @property
    def book(self) -> bool:
        """Seven or more cards."""
        return self.naturals + self.wilds >= BOOK_SIZE

    @property
    def kind(self) -> str | None:
        """``"clean"``, ``"dirty"``, ``"clean book"``, ``"dirty book"``, or ``None`` when invalid."""
        if not self.valid:
            return None
        return ("clean" if self.clean else "dirty") + (" book" if self.book else "")


def check_group(cards: Sequence[str]) -> MeldCheck:
    """Whether ``cards`` (tokens) form a valid meld on their own (rules.md): at least three
    cards, no three, the natural cards all of one rank 4..A, and at least one more natural
    card than wild cards (so never wild cards alone)."""
    nat = [c for c in cards if not is_wild(c)]
    wild = len(cards) - len(nat)
    ranks = {c[0] for c in nat}
    rank = nat[0][0] if len(ranks) == 1 else None
    if any(is_three(c) for c in cards):
        return MeldCheck(False, rank, len(nat), wild, "threes are never melded")
    if not nat:
        return MeldCheck(False, None, 0, wild, "wild cards alone are not a meld")
    if len(ranks) > 1:
        return MeldCheck(False, None, len(nat), wild, f"a meld holds one natural rank, not "
                         f"{' and '.join(rank_plural(r) for r in sorted(ranks))}")
    if len(cards) < 3:
        return MeldCheck(False, rank, len(nat), wild, "a meld needs at least three cards")
    if len(nat) < wild + 1:
        return MeldCheck(False, rank, len(nat), wild,
                         f"a meld needs at least one more natural card than wild cards ({len(nat)} naturals, {wild} wilds)")
    return MeldCheck(True, rank, len(nat), wild)


def check_addition(rank: str, naturals: int, wilds: int, cards: Sequence[str]) -> MeldCheck:
    """Whether ``cards`` may be laid off on a meld of ``rank`` holding ``naturals`` natural
    and ``wilds`` wild cards: each card a natural of that rank or a wild, and the meld
    afterwards still with at least one more natural than wilds. A book takes cards too."""
    if not cards:
        return MeldCheck(False, rank, naturals, wilds, "no card to lay off")
    for c in cards:
        if is_three(c):
            return MeldCheck(False, rank, naturals, wilds, "threes are never melded")
        if not is_wild(c) and c[0] != rank:
            return MeldCheck(False, rank, naturals, wilds, f"{c} is not a {rank_single(rank)} or a wild card")
    w = wilds + sum(1 for c in cards if is_wild(c))
    n = naturals + sum(1 for c in cards if not is_wild(c))
    if n < w + 1:
        return MeldCheck(False, rank, n, w, f"the meld would hold {n} naturals and {w} wilds: it needs at "
                                             f"least one more natural than wilds")
    return MeldCheck(True, rank, n, w)


def book_points(clean: bool) -> int:
    """Points of a book: 300 clean, 100 dirty."""
    return CLEAN_BOOK if clean else DIRTY_BOOK


def meld_score(cards: Sequence[str]) -> int:
    """What a meld on the table scores: its cards' points, plus its book's points when it
    holds 7 or more cards (clean exactly when it holds no wild card, whenever the wild came)."""
    pts = sum(card_points(c) for c in cards)
    if len(cards) >= BOOK_SIZE:
        pts += book_points(not any(is_wild(c) for c in cards))
    return pts


def team_score(melds: Iterable[Sequence[str]], held: Iterable[Iterable[str] | Mapping[str, int]],
               went_out: bool, failed_outs: int = 0, failed_out_penalty: int = 100) -> int:
    """A team's score for one hand (rules.md): its melds (cards and books) + 300 for going
    out - the points of the cards its players still hold in hand and foot (a red three 500)
    - ``failed_out_penalty`` for every time its player, told yes, did not go out."""
    total = sum(meld_score(m) for m in melds)
    total -= sum(held_points(h) for h in held)
    if went_out:
        total += GO_OUT_BONUS
    return total - failed_outs * failed_out_penalty


# ---------------------------------------------------------------------------- planning helpers
@dataclass(frozen=True)
class TableMeld:
    """The shape of a meld on the table, for planning: its rank, natural and wild cards."""

    rank: str
    naturals: int
    wilds: int

    @property
    def slack(self) -> int:
        """Wild cards it can still take."""
        return self.naturals - self.wilds - 1


def max_meld_points(zone: Mapping[str, int], table: Iterable[TableMeld] = (), keep: int = 0) -> int:
    """The most points a player can lay from ``zone`` (its cards) in one turn, on the melds
    ``table`` of its team and on new melds, leaving at least ``keep`` cards unmelded (exact).

    Without ``keep``: every natural of a rank with a meld on the table or with three or more
    cards is laid; a natural pair becomes a meld with one wild card, best pairs first, while
    wild cards last; the remaining wild cards fill the room the melds leave (at most one fewer
    wild than naturals in each), jokers first. Activating a pair never loses (its wild card
    scores wherever it goes), so this greedy choice is optimal. With ``keep`` every choice of
    the kept cards is tried (any plan leaves some ``keep`` cards unmelded).
    """
    table = tuple(table)
    if keep <= 0:
        return _greedy_points(zone, table)
    if sum(k for k in zone.values() if k > 0) <= keep:
        return 0
    z = Counter({c: k for c, k in zone.items() if k > 0})
    best = 0
    for c in list(z):
        z[c] -= 1
        best = max(best, max_meld_points(z, table, keep - 1))
        z[c] += 1
    return best


def _split(zone: Mapping[str, int]) -> tuple[dict[str, int], dict[str, int], list[int], int]:
    """``(naturals per rank, their points per rank, wild cards' points, threes)`` of a zone."""
    nat: dict[str, int] = {}
    nat_pts: dict[str, int] = {}
    wilds: list[int] = []
    threes = 0
    for c, k in zone.items():
        if k <= 0:
            continue
        if is_wild(c):
            wilds.extend([card_points(c)] * k)
        elif is_three(c):
            threes += k
        else:
            nat[c[0]] = nat.get(c[0], 0) + k
            nat_pts[c[0]] = nat_pts.get(c[0], 0) + card_points(c) * k
    return nat, nat_pts, wilds, threes


def _greedy_points(zone: Mapping[str, int], table: tuple[TableMeld, ...]) -> int:
    nat, nat_pts, wilds, _ = _split(zone)
    on_table = {m.rank for m in table}
    slack = sum(max(0, m.slack) for m in table)
    points = 0
    pairs = []
    for r, n in nat.items():
        if r in on_table:
            points += nat_pts[r]
            slack += n
        elif n >= 3:
            points += nat_pts[r]
            slack += n - 1
        elif n == 2:
            pairs.append(nat_pts[r])
    wilds.sort(reverse=True)
    pairs.sort(reverse=True)
    act = min(len(pairs), len(wilds))
    points += sum(pairs[:act])
    placed = act + min(len(wilds) - act, slack)
    return points + sum(wilds[:placed])


def meldable_all(zone: Mapping[str, int], table: Iterable[TableMeld]) -> bool:
    """Whether every card of ``zone`` can be laid this turn on ``table`` and new melds (no
    three; every natural rank with a meld on the table, or three or more cards, or a pair
    given a wild card; every wild card with room). Used to know when a player can go out."""
    table = tuple(table)
    nat, _, wilds, threes = _split(zone)
    if threes:
        return False
    on_table = {m.rank for m in table}
    slack = sum(max(0, m.slack) for m in table)
    pairs = 0
    for r, n in nat.items():
        if r in on_table:
            slack += n
        elif n >= 3:
            slack += n - 1
        elif n == 2:
            pairs += 1
            slack += 1
        else:
            return False
    return pairs <= len(wilds) <= slack


class TeamMeld:
    """A meld on the table: ``rank``, ``cards`` (tokens in the order laid), counts of
    natural and wild cards, and the seat that started it."""

    __slots__ = ("rank", "cards", "naturals", "wilds", "owner")

    def __init__(self, rank: str, cards: Iterable[str], owner: int):
        self.rank = rank
        self.cards = list(cards)
        self.wilds = sum(1 for c in self.cards if is_wild(c))
        self.naturals = len(self.cards) - self.wilds
        self.owner = owner

    def add(self, cards: Iterable[str]) -> None:
        """Lay ``cards`` on it (already checked)."""
        for c in cards:
            self.cards.append(c)
            if is_wild(c):
                self.wilds += 1
            else:
                self.naturals += 1

    @property
    def size(self) -> int:
        """Cards in it."""
        return len(self.cards)

    @property
    def book(self) -> bool:
        """Seven or more cards."""
        return len(self.cards) >= BOOK_SIZE

    @property
    def clean(self) -> bool:
        """No wild card in it."""
        return self.wilds == 0

    @property
    def shape(self) -> TableMeld:
        """Its :class:`~.rules.TableMeld` (for planning)."""
        return TableMeld(self.rank, self.naturals, self.wilds)

    def copy(self) -> "TeamMeld":
        new = object.__new__(TeamMeld)
        new.rank, new.cards, new.naturals, new.wilds, new.owner = \
            self.rank, list(self.cards), self.naturals, self.wilds, self.owner
        return new

    def to_json(self) -> dict:
        """``{"rank", "cards", "book", "clean"}``."""
        return {"rank": self.rank, "cards": list(self.cards), "book": self.book, "clean": self.clean}

__all__ = [
    "OPTION_SPECS", "MELD_RANKS", "JOKERS", "RED_THREES", "BOOK_SIZE", "CLEAN_BOOK", "DIRTY_BOOK",
    "GO_OUT_BONUS", "RED_THREE_PENALTY", "DEFAULT_MINIMUMS", "PILE_TAKE",
    "num_decks", "check_options", "is_wild", "is_three", "is_red_three", "is_natural", "card_points",
    "held_points", "deck_cards", "deck_counter", "card_key", "sort_cards", "expand", "teams_of",
    "partner_of", "minimum_of", "MeldCheck", "check_group", "check_addition", "book_points", "meld_score",
    "team_score", "TableMeld", "rank_plural", "rank_single", "max_meld_points", "meldable_all",
]
