"""Brute-force reference for Go Fish belief on tiny decks: enumerate every order of the
cards the observer cannot see, replay the observer's record against each, and count.

Used by the tests (tests/test_gofish_belief.py) and eval/gofish_belief_error.py.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from itertools import permutations

from cardmind.core import get_game
from cardmind.errors import IllegalAction
from cardmind.games.gofish.rules import deck_cards


def consistent_deals(options: dict, observer: int, hand: list[str], events: list[dict]):
    """Every consistent deal of a player's record, as a dict
    ``{deal key: final complete state}``. A deal key is (other seats' dealt hands as sets,
    the cards of the draws the observer did not see, the rest of the stock as a set)."""
    game = get_game("gofish")
    opts = game.parse_options(options)
    n, H = opts["players"], opts["hand"]
    unknown = [c for c in deck_cards(opts) if c not in hand]
    out = {}
    for perm in permutations(unknown):
        # deal round-robin: seat s gets deck positions s, s+n, ...; build the full deck
        deck = []
        it = iter(perm)
        hands = [[] for _ in range(n)]
        for i in range(n * H):
            s = i % n
            hands[s].append(None)
        for s in range(n):
            if s == observer:
                hands[s] = list(hand)
            else:
                hands[s] = [next(it) for _ in range(H)]
        stock = list(it)
        del deck
        header = {"hands": hands, "stock": stock}
        try:
            st = game.new_state(opts, header)
        except IllegalAction:
            continue
        unseen = []
        ok = True
        for ev in events:
            full = dict(ev)
            if ev["type"] == "draw" and ev["card"] is None:
                if not st.stock:
                    ok = False
                    break
                full["card"] = st.stock[0]
                unseen.append(st.stock[0])
            elif ev["type"] == "book" and ev["rank"] is None:
                p = ev["player"]
                cnt = Counter(c[0] for c in st.hands[p])
                full_ranks = [r for r, k in cnt.items() if k == len(opts and game_suits(opts))]
                if st.opening:
                    rem = st.unlaid[p]
                    if not rem:
                        ok = False
                        break
                    full["rank"] = rem[0]
                else:
                    if len(full_ranks) != 1:
                        ok = False
                        break
                    full["rank"] = full_ranks[0]
            try:
                st.apply_event(full)
            except IllegalAction:
                ok = False
                break
            if st.redact(full, observer) != ev:
                ok = False
                break
        if not ok:
            continue
        # the state must also be settled (no pending complete rank left unlaid)
        try:
            st._settled()
        except IllegalAction:
            continue
        key = (tuple(frozenset(hands[s]) for s in range(n) if s != observer), tuple(unseen),
               frozenset(st.stock or ()))
        out[key] = st
    return out


def game_suits(opts):
    from cardmind.games.gofish.rules import game_suits as gs  # noqa: PLC0415

    return gs(opts)


def holdings(options: dict, observer: int, deals: dict):
    """Exact ``{seat or "stock": {rank: {count: Fraction}}}`` over the consistent deals."""
    game = get_game("gofish")
    opts = game.parse_options(options)
    n = opts["players"]
    ranks = [r for r in "23456789TJQKA"[:opts["ranks"]]]
    acc = defaultdict(lambda: defaultdict(Counter))
    for st in deals.values():
        for r in ranks:
            for s in range(n):
                acc[s][r][sum(1 for c in st.hands[s] if c[0] == r)] += 1
            acc["stock"][r][sum(1 for c in (st.stock or ()) if c[0] == r)] += 1
    total = len(deals)
    return {s: {r: {k: Fraction(v, total) for k, v in sorted(d.items())} for r, d in rd.items()}
            for s, rd in acc.items()}


def book_ranks(options: dict, observer: int, deals: dict):
    """Exact rank distribution of every book, in the order laid: a list of
    ``{rank: Fraction}`` (from each consistent deal's complete state)."""
    acc = []
    total = len(deals)
    for st in deals.values():
        for i, b in enumerate(st.book_log):
            while len(acc) <= i:
                acc.append(Counter())
            acc[i][b["rank"]] += 1
    return [{r: Fraction(v, total) for r, v in c.items()} for c in acc]
