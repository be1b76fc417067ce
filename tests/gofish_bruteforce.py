"""Brute-force reference for Go Fish belief on tiny decks: enumerate every consistent deal of
a player's record by replaying the record on complete states, and count.

A consistent deal (``shared/spec/records.md``) assigns every card the observer cannot locate
to a seat's dealt hand, to one of the draws the observer did not see, or to the (final) stock
as a set. It is enumerated directly: every choice of the other seats' dealt hands (sets), then
a depth-first replay of the record on the complete state that branches at every draw the
observer did not see over the cards left in the stock (a shown or own draw must find its card
in the stock). An assumption (``{"type": "assume_lacks", "player", "ranks"}``, what
``GoFishBelief.assume_lacks`` adds) keeps the deals where that seat holds none of those ranks
at that point. So one search serves every prefix of the record: a node alive after ``L``
events is one consistent deal of the first ``L`` events. The end of a prefix is a legal
prefix (a book may still follow; nothing more is required of it), as for the tracker.

Used by the tests (tests/test_gofish_belief.py) and eval/gofish_belief_error.py.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

from cardmind.core import get_game
from cardmind.errors import IllegalAction
from cardmind.games.gofish.rules import deck_cards, game_ranks, game_suits


class Prefix:
    """Tallies over the consistent deals of one prefix of the record."""

    def __init__(self):
        self.n = 0
        self.hold: dict = {}      # (seat or "stock", rank) -> Counter(count)
        self.books: list = []     # per book in the order laid: Counter(rank)

    def add(self, st, players: int, ranks: str) -> None:
        self.n += 1
        for r in ranks:
            for s in range(players):
                self.hold.setdefault((s, r), Counter())[sum(1 for c in st.hands[s] if c[0] == r)] += 1
            self.hold.setdefault(("stock", r), Counter())[sum(1 for c in st.stock if c[0] == r)] += 1
        for i, b in enumerate(st.book_log):
            while len(self.books) <= i:
                self.books.append(Counter())
            self.books[i][b["rank"]] += 1

    def holdings(self) -> dict:
        """Exact ``{seat or "stock": {rank: {count: Fraction}}}``."""
        out: dict = {}
        for (s, r), c in self.hold.items():
            out.setdefault(s, {})[r] = {k: Fraction(v, self.n) for k, v in sorted(c.items())}
        return out

    def book_ranks(self) -> list:
        """Exact rank distribution of every book, in the order laid."""
        return [{r: Fraction(v, self.n) for r, v in c.items()} for c in self.books]


def prefixes(options: dict, observer: int, hand: list[str], events: list[dict], limit: int = 2_000_000) -> list:
    """A :class:`Prefix` for every prefix of ``events`` (index ``L``: the first ``L`` events).

    Raises:
        RuntimeError: more than ``limit`` search nodes (the deck is too large for brute force).
    """
    game = get_game("gofish")
    opts = game.parse_options(options)
    n, H = opts["players"], opts["hand"]
    ranks = game_ranks(opts)
    S = len(game_suits(opts))
    hand = list(hand)
    unknown = [c for c in deck_cards(opts) if c not in hand]
    others = [s for s in range(n) if s != observer]
    out = [Prefix() for _ in range(len(events) + 1)]
    nodes = 0

    def deals(i: int, left: list, hands: dict):
        if i == len(others):
            yield hands, left
            return
        for combo in combinations(left, H):
            rest = [c for c in left if c not in combo]
            yield from deals(i + 1, rest, {**hands, others[i]: list(combo)})

    def replay(st, L: int) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > limit:
            raise RuntimeError("too many search nodes for the brute force")
        out[L].add(st, n, ranks)
        if L == len(events):
            return
        ev = events[L]
        if ev["type"] == "assume_lacks":  # an assumption (GoFishBelief.assume_lacks), not an event
            if not any(c[0] in ev["ranks"] for c in st.hands[ev["player"]]):
                replay(st, L + 1)
            return
        if ev["type"] == "draw":
            if ev["card"] is not None:
                choices = [ev["card"]] if ev["card"] in st.stock else []
            else:
                choices = list(st.stock)
            for card in choices:
                st2 = st.copy() if len(choices) > 1 else st
                st2.stock.remove(card)
                st2.stock.insert(0, card)
                _step(st2, dict(ev, card=card), ev, L)
            return
        full = dict(ev)
        if ev["type"] == "book" and ev["rank"] is None:
            p = ev["player"]
            if st.opening:
                if not st.unlaid[p]:
                    return
                full["rank"] = st.unlaid[p][0]
            else:
                cnt = Counter(c[0] for c in st.hands[p])
                full_ranks = [r for r, k in cnt.items() if k == S]
                if len(full_ranks) != 1:
                    return
                full["rank"] = full_ranks[0]
        _step(st, full, ev, L)

    def _step(st, full: dict, ev: dict, L: int) -> None:
        try:
            st.apply_event(full)
        except IllegalAction:
            return
        if st.redact(full, observer) != ev:
            return
        replay(st, L + 1)

    for hands, left in deals(0, unknown, {}):
        allh = [hand if s == observer else hands[s] for s in range(n)]
        try:
            st = game.new_state(opts, {"hands": allh, "stock": sorted(left)})
        except IllegalAction:
            continue
        replay(st, 0)
    return out


def weighted_holdings(options: dict, observer: int, hand: list[str], events: list[dict], weigh) -> tuple:
    """``(total weight, {(seat or "stock", rank): {count: weight}})`` over every consistent deal
    of the whole record, each weighted by the product of ``weigh(state, index, event)`` over
    its events (the complete state just before event ``index``; a weight of 0 drops the deal).
    Every choice of the other seats' dealt hands, in seat order, then a depth-first replay that
    branches at every draw the observer did not see and fills in a face-down book's rank.
    Used by the player-model tests (tests/test_gofish_models*.py)."""
    game = get_game("gofish")
    opts = game.parse_options(options)
    n, H = opts["players"], opts["hand"]
    ranks = game_ranks(opts)
    unknown = [c for c in deck_cards(opts) if c not in hand]
    others = [s for s in range(n) if s != observer]
    total = 0.0
    hold: dict = {}

    def replay(st, L: int, w: float) -> None:
        nonlocal total
        if L == len(events):
            total += w
            for r in ranks:
                for s in range(n):
                    hold.setdefault((s, r), Counter())[sum(1 for c in st.hands[s] if c[0] == r)] += w
                hold.setdefault(("stock", r), Counter())[sum(1 for c in st.stock if c[0] == r)] += w
            return
        ev = events[L]
        w = w * weigh(st, L, ev)
        if ev["type"] == "draw":
            for card in ([ev["card"]] if ev["card"] is not None else list(st.stock)):
                if card not in st.stock:
                    continue
                st2 = st.copy()
                st2.stock.remove(card)
                st2.stock.insert(0, card)
                step(st2, dict(ev, card=card), ev, L, w)
            return
        full = dict(ev)
        if ev["type"] == "book" and ev["rank"] is None:
            p = ev["player"]
            if st.opening:
                if not st.unlaid[p]:
                    return
                full["rank"] = st.unlaid[p][0]
            else:
                cnt = Counter(c[0] for c in st.hands[p])
                full_ranks = [r for r, k in cnt.items() if k == opts["suits"]]
                if len(full_ranks) != 1:
                    return
                full["rank"] = full_ranks[0]
        step(st.copy(), full, ev, L, w)

    def step(st, full: dict, ev: dict, L: int, w: float) -> None:
        try:
            st.apply_event(full)
        except IllegalAction:
            return
        if st.redact(full, observer) != ev:
            return
        replay(st, L + 1, w)

    def deal(k: int, left: list[str], hands: dict) -> None:
        if k == len(others):
            try:
                st = game.new_state(opts, {"hands": [hands.get(s, list(hand)) for s in range(n)],
                                           "stock": sorted(left)})
            except IllegalAction:
                return
            replay(st, 0, 1.0)
            return
        for combo in combinations(left, H):
            deal(k + 1, [c for c in left if c not in combo], {**hands, others[k]: list(combo)})

    deal(0, unknown, {})
    return total, hold


def consistent_deals(options: dict, observer: int, hand: list[str], events: list[dict]) -> Prefix:
    """The tallies over the consistent deals of the whole record."""
    return prefixes(options, observer, hand, events)[-1]


def holdings(options: dict, observer: int, deals: Prefix) -> dict:
    """Exact ``{seat or "stock": {rank: {count: Fraction}}}`` over the consistent deals."""
    return deals.holdings()


def book_ranks(options: dict, observer: int, deals: Prefix) -> list:
    """Exact rank distribution of every book, in the order laid."""
    return deals.book_ranks()
