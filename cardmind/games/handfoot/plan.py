"""Planning a Hand and Foot turn from one player's view: lay-downs, where the wild cards go,
the discard, and going out. Shared by the ``peer`` and ``belief`` players and the advice.

A *play* is ``(target, cards)``: ``target`` the index of one of the team's melds (a lay-off)
or ``None`` (a new meld). Plans are lists of plays in the order to make them; the players
turn them into :class:`~.notation.Meld` and :class:`~.notation.LayOff` actions one at a time.
A plan's new melds get their indices as they are laid, so a plan is recomputed from the
view after every play.

Sources: the lay-down search, the wild card placement and the discard judgement follow the
published bot ``jcj59/hand-and-foot`` (``packages/engine/src/plan.ts``: ``greedyLayDown``;
``policy.ts``: ``placeWilds``, ``discardFrom``), rewritten for cardmind's rules (team melds,
several melds of a rank once one is a book, the opening counting card points only).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .rules import BOOK_SIZE, card_points, is_natural, is_red_three, is_three, is_wild, meldable_all, sort_cards

Play = tuple[int | None, tuple[str, ...]]


@dataclass
class Group:
    """A meld as a plan sees it: ``target`` (the team meld's index, ``None`` for a new one),
    its ``rank``, the cards already on the table (``base_nat``, ``base_wild``, ``base_size``,
    ``base_clean``: no wild card) and the cards the plan adds (``nat``, ``wild``)."""

    target: int | None
    rank: str
    base_nat: int = 0
    base_wild: int = 0
    nat: list[str] = field(default_factory=list)
    wild: list[str] = field(default_factory=list)

    @property
    def naturals(self) -> int:
        """Natural cards after the plan."""
        return self.base_nat + len(self.nat)

    @property
    def wilds(self) -> int:
        """Wild cards after the plan."""
        return self.base_wild + len(self.wild)

    @property
    def size(self) -> int:
        """Cards after the plan."""
        return self.naturals + self.wilds

    @property
    def was_book(self) -> bool:
        """A book before the plan."""
        return self.base_nat + self.base_wild >= BOOK_SIZE

    @property
    def book(self) -> bool:
        """A book after the plan."""
        return self.size >= BOOK_SIZE

    @property
    def clean(self) -> bool:
        """No wild card after the plan."""
        return self.wilds == 0

    def accepts_wild(self, k: int = 1) -> bool:
        """Whether ``k`` more wild cards keep at least one more natural than wilds."""
        return self.naturals >= self.wilds + k + 1 and self.size + k >= 3

    def valid(self) -> bool:
        """A valid meld after the plan (three cards at least, naturals above wilds)."""
        return self.size >= 3 and self.naturals >= self.wilds + 1

    def play(self) -> Play | None:
        """The play this group makes (``None`` when the plan adds nothing)."""
        cards = tuple(self.nat + self.wild)
        return (self.target, cards) if cards else None


def table_groups(melds) -> list[Group]:
    """Groups of a team's melds on the table (``TeamMeld`` objects), by index."""
    return [Group(i, m.rank, m.naturals, m.wilds) for i, m in enumerate(melds)]


def _naturals(zone: Mapping[str, int]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for c in sort_cards(c for c, k in zone.items() for _ in range(k)):
        if is_natural(c):
            out.setdefault(c[0], []).append(c)
    return out


def _wilds(zone: Mapping[str, int]) -> list[str]:
    """The wild cards of a zone, most valuable first (jokers)."""
    return sorted((c for c, k in zone.items() for _ in range(k) if is_wild(c)), key=lambda c: (-card_points(c), c))


def natural_plan(zone: Mapping[str, int], melds) -> tuple[list[Group], dict[str, list[str]]]:
    """Lay every natural card that costs nothing (``greedyLayDown`` step 1): naturals of a
    rank with an open meld go on it; three or more naturals of a rank start a new meld;
    fewer naturals of a rank that only has books go on its last book. Returns the groups
    (every team meld, then the new ones) and the natural pairs left for a wild card."""
    groups = table_groups(melds)
    pairs: dict[str, list[str]] = {}
    for r, nat in _naturals(zone).items():
        open_g = next((g for g in groups if g.rank == r and not g.was_book and g.target is not None), None)
        if open_g is not None:
            open_g.nat.extend(nat)
        elif len(nat) >= 3:
            groups.append(Group(None, r, nat=list(nat)))
        else:
            books = [g for g in groups if g.rank == r and g.was_book]
            if books:
                books[-1].nat.extend(nat)
            elif len(nat) == 2:
                pairs[r] = list(nat)
    return groups, pairs


def plan_points(groups: Sequence[Group]) -> int:
    """Card points the plan lays."""
    return sum(card_points(c) for g in groups for c in g.nat + g.wild)


def opening_plan(zone: Mapping[str, int], melds, need: int) -> tuple[list[Play], int]:
    """``greedyLayDown``: the free natural plan, then wild cards only while it is short of
    ``need`` points, each on the single move that adds most (a wild on a group of the plan,
    or a natural pair made a meld with it), jokers first. Returns ``(plays, points)``."""
    groups, pairs = natural_plan(zone, melds)
    wilds = _wilds(zone)
    value = plan_points(groups)
    while value < need and wilds:
        w = wilds[0]
        best = None
        for g in groups:
            if g.accepts_wild() and g.valid():
                gain = card_points(w)
                if best is None or gain > best[0]:
                    best = (gain, "group", g)
        for r, pair in pairs.items():
            gain = card_points(w) + sum(card_points(c) for c in pair)
            if best is None or gain > best[0]:
                best = (gain, "pair", r)
        if best is None:
            break
        if best[1] == "group":
            best[2].wild.append(w)
        else:
            groups.append(Group(None, best[2], nat=pairs.pop(best[2]), wild=[w]))
        wilds.pop(0)
        value += best[0]
    plays = [p for g in groups if (p := g.play()) is not None]
    return plays, value


@dataclass(frozen=True)
class BookNeeds:
    """The books going out needs (options ``books_clean``, ``books_dirty``)."""

    clean: int
    dirty: int


def count_books(groups: Sequence[Group]) -> tuple[int, int]:
    """``(clean, dirty)`` books after the plan."""
    clean = sum(1 for g in groups if g.book and g.clean)
    dirty = sum(1 for g in groups if g.book and not g.clean)
    return clean, dirty


def place_wilds(groups: list[Group], wilds: list[str], in_foot: bool, needs: BookNeeds) -> None:
    """``placeWilds`` (in place): never a wild card on a clean book, nor on the best clean
    prospect (the largest clean meld not yet a book) while a clean book is still owed, except
    a spare clean book when a dirty one is missing; first complete books (the meld nearest to
    seven first, when the wild cards in hand can finish it); in the hand keep the rest (a pair
    and a wild take the pile); in the foot lay the rest one at a time: a spare clean book,
    then the unfinished meld nearest completion, then a dirty book."""
    clean_now, _ = count_books(groups)
    prospect = None
    for g in groups:
        if not g.book and g.clean and (g.target is not None or g.nat) and g.valid():
            if prospect is None or g.size > prospect.size:
                prospect = g
    guarded = prospect if clean_now < needs.clean else None

    def open_(g: Group) -> bool:
        if g is guarded:
            return False
        if not (g.book and g.clean):
            return True
        clean, dirty = count_books(groups)
        return clean > needs.clean and dirty < needs.dirty

    pool = list(wilds)
    for g in sorted([g for g in groups if open_(g) and g.valid()], key=lambda g: -g.size):
        k = BOOK_SIZE - g.size
        if k <= 0 or k > len(pool) or not g.accepts_wild(k):
            continue
        g.wild.extend(pool[:k])
        del pool[:k]
    if in_foot:
        for w in list(pool):
            def order(g: Group) -> tuple[int, int]:
                kind = 0 if (g.book and g.clean) else (1 if not g.book else 2)
                return (kind, -g.size)
            cands = [g for g in groups if open_(g) and g.valid() and g.accepts_wild()]
            if not cands:
                break
            min(cands, key=order).wild.append(w)
            pool.remove(w)


def down_plan(zone: Mapping[str, int], melds, in_foot: bool, needs: BookNeeds) -> list[Group]:
    """What a player whose team has opened lays (``downPlays``): every free natural, then the
    wild cards :func:`place_wilds` assigns."""
    groups, _ = natural_plan(zone, melds)
    place_wilds(groups, _wilds(zone), in_foot, needs)
    return groups


def keep_score(card: str, zone: Mapping[str, int], melded_ranks: set[str]) -> float:
    """How reluctant a player is to part with ``card`` (``keepScore``): wild cards never,
    red threes first; otherwise 100 + its companions when its team has a meld of its rank,
    else the number of its companions in the zone."""
    if is_wild(card):
        return float("inf")
    if is_red_three(card):
        return float("-inf")
    companions = sum(k for c, k in zone.items() if c[0] == card[0] and not is_wild(c)) - 1
    return 100 + companions if card[0] in melded_ranks else companions


def choose_discard(zone: Mapping[str, int], melded_ranks: set[str], allowed: Sequence[str] | None = None) -> str:
    """The least useful card (``discardFrom``): lowest :func:`keep_score`, then the most
    points (a card held at the end counts against), then the card order."""
    cards = sorted(c for c, k in zone.items() if k > 0 and (allowed is None or c in allowed))
    if not cards:
        raise ValueError("no card to discard")
    return min(cards, key=lambda c: (keep_score(c, zone, melded_ranks), -card_points(c), sort_cards([c])[0]))


def trim_for_keep(zone: Mapping[str, int], groups: list[Group], keep: int) -> None:
    """Take cards back out of a plan (in place) until it leaves at least ``keep`` cards in the
    zone: wild cards first (cheapest first), then naturals laid off on melds already on the
    table, then naturals beyond three of a new meld, then whole new melds (smallest first)."""
    def laid() -> int:
        return sum(len(g.nat) + len(g.wild) for g in groups)

    total = sum(zone.values())
    while total - laid() < keep:
        wild_gs = [g for g in groups if g.wild]
        if wild_gs:
            g = min(wild_gs, key=lambda g: card_points(g.wild[-1]))
            g.wild.pop()
            continue
        ext = [g for g in groups if g.target is not None and g.nat]
        if ext:
            ext[0].nat.pop()
            continue
        big = [g for g in groups if g.target is None and len(g.nat) > 3]
        if big:
            big[0].nat.pop()
            continue
        new = [g for g in groups if g.target is None and g.nat]
        if not new:
            return
        g = min(new, key=lambda g: len(g.nat))
        g.nat.clear()
        g.wild.clear()


def plays_of(groups: Sequence[Group]) -> list[Play]:
    """The plays of a plan, in its group order (lay-offs on the table's melds first)."""
    return [p for g in groups if (p := g.play()) is not None]


def go_out_discard(zone: Mapping[str, int], melds, needs: BookNeeds, lay_all: bool = False) \
        -> tuple[str | None, list[Group]] | None:
    """A way to go out now: ``(discard, plan)`` where ``plan`` lays every other card and
    leaves the team its books, ``discard`` the last card (the seed: "play all of your cards and
    discard one"); with ``lay_all`` (the house rule ``out_by_laying``) also a plan laying every
    card, ``discard`` ``None``, tried first. ``None`` when there is no way. The discard is the
    least useful card that works."""
    shapes = [m.shape for m in melds]
    total = sum(zone.values())
    options: list[str | None] = [None] if lay_all and total and meldable_all(zone, shapes) else []
    melded = {m.rank for m in melds}
    for c in sorted((c for c in zone if zone[c] > 0),
                    key=lambda c: (keep_score(c, zone, melded), -card_points(c))):
        rest = Counter(zone)
        rest[c] -= 1
        if meldable_all(rest, shapes):
            options.append(c)
    for d in options:
        rest = Counter(zone)
        if d is not None:
            rest[d] -= 1
        plan = full_plan(rest, melds, needs)
        if plan is not None:
            return d, plan
    return None


def foot_plan(zone: Mapping[str, int], melds, books_clean: int, lay_all: bool = True) \
        -> tuple[str | None, list[Group]] | None:
    """A way to use up the hand this turn and so reach the foot, wild cards included (which
    ``peer`` keeps in the hand): ``(discard, plan)``, ``plan`` laying every card of ``zone``
    (``discard`` ``None``: the foot is picked up at once and played this turn; only with
    ``lay_all``) or every card but ``discard`` (the foot comes with that discard, to be played
    next turn); ``None`` when neither can be done, or only by a wild card spoiling a clean book
    the team still needs (a clean book of the table while at most ``books_clean`` are clean,
    or its best clean prospect, five naturals or more, while fewer are).

    The ``belief`` player's move to the foot (``foot`` setting) uses it without ``lay_all``;
    the advice with it (rules.md: a player who lays its last hand card picks up its foot at
    once and keeps playing)."""
    total = sum(zone.values())
    if total < (1 if lay_all else 2) or not any(is_wild(c) for c in zone if zone[c] > 0):
        return None
    clean_now = sum(1 for m in melds if m.book and m.clean)

    def acceptable(plan: list[Group]) -> bool:
        clean_after, _ = count_books(plan)
        if clean_after < clean_now and clean_now <= books_clean:
            return False           # a wild card would dirty a clean book the team needs
        spoiled = any(g.wild and g.target is not None and g.base_wild == 0 and g.base_nat >= 5 and not g.was_book
                      for g in plan)
        return not (clean_after < books_clean and spoiled)

    if lay_all:
        plan = full_plan(zone, melds, BookNeeds(0, 0))
        if plan is not None and acceptable(plan):
            return None, plan
    if total < 2:
        return None
    melded = {m.rank for m in melds}
    d = choose_discard(zone, melded)
    rest = Counter(zone)
    rest[d] -= 1
    plan = full_plan(+rest, melds, BookNeeds(0, 0))
    if plan is None or not acceptable(plan):
        return None
    return d, plan


def full_plan(zone: Mapping[str, int], melds, needs: BookNeeds) -> list[Group] | None:
    """A plan laying every card of ``zone`` that leaves the team at least the books going out
    needs; ``None`` when none is found. Naturals as :func:`natural_plan` (a rank with one or two
    naturals and only books takes them on a book), a wild card for every pair, then the other
    wild cards where they fit: melds not yet books and dirty books first, spare clean books last."""
    groups, pairs = natural_plan(zone, melds)
    if any(is_three(c) and k > 0 for c, k in zone.items()):
        return None
    wilds = _wilds(zone)
    for r, pair in pairs.items():
        if not wilds:
            return None
        groups.append(Group(None, r, nat=list(pair), wild=[wilds.pop()]))
    for w in wilds:
        def order(g: Group) -> tuple[int, int]:
            return (2 if (g.book and g.clean) else (0 if not g.book else 1), -g.size)
        cands = [g for g in groups if g.valid() and g.accepts_wild()]
        if not cands:
            return None
        clean, _ = count_books(groups)
        cands = [g for g in cands if not (g.book and g.clean) or clean > needs.clean]
        if not cands:
            return None
        min(cands, key=order).wild.append(w)
    if any(g.play() is not None and not g.valid() for g in groups):
        return None
    clean, dirty = count_books(groups)
    if clean < needs.clean or dirty < needs.dirty:
        return None
    laid = sum(len(g.nat) + len(g.wild) for g in groups)
    if laid != sum(zone.values()):
        return None
    return groups


def would_lay(zone: Mapping[str, int], melds, opened: bool, in_foot: bool, minimum: int,
              needs: BookNeeds) -> Counter:
    """The cards that both the ``peer`` and the ``belief`` player would lay from ``zone`` in
    their play phase on a table whose team melds are ``melds`` (an empty Counter: nothing).

    Team open (``opened``): every free natural and the wild cards that complete books
    (:func:`down_plan`), keeping two cards in the foot (:func:`trim_for_keep`; the ``belief``
    player playing on keeps two as well). Team not open: the opening of :func:`opening_plan`
    when it reaches ``minimum`` points with at most one wild card (with two or more the
    ``belief`` player may wait to open, so nothing is certain to be laid). Used to read a
    player's cards from its last discard: what it held then left nothing it would have laid.

    Args:
        zone: the player's cards ``{token: count}`` at the decision (before its discard).
        melds: its team's melds on the table then (:class:`~.rules.TeamMeld`).
        opened: whether its team had opened; ``in_foot``: whether it was playing its foot.
        minimum: the opening minimum of the hand (points).
        needs: the books going out needs.

    Returns:
        ``Counter`` of the cards laid.
    """
    if not opened:
        plays, value = opening_plan(zone, melds, minimum)
        if value < minimum or not plays:
            return Counter()
        if sum(1 for _, cards in plays for c in cards if is_wild(c)) >= 2:
            return Counter()
        return Counter(c for _, cards in plays for c in cards)
    groups = down_plan(zone, melds, in_foot, needs)
    if in_foot:
        trim_for_keep(zone, groups, 2)
    return Counter(c for g in groups for c in g.nat + g.wild)


__all__ = ["Play", "Group", "BookNeeds", "table_groups", "natural_plan", "plan_points", "opening_plan",
           "count_books", "place_wilds", "down_plan", "keep_score", "choose_discard", "trim_for_keep", "plays_of",
           "go_out_discard", "foot_plan", "full_plan", "would_lay"]
