"""Counting for the contract rummy tracker (:class:`~.belief.CariocaBelief`): the filter of
the pool of unseen cards (:class:`_Filter`: which hands and stock positions the unseen cards
can fill, by groups of interchangeable cards), and the chances a hand can go down or out
(hypergeometric tails over the pools)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from math import comb, factorial, sqrt


from ...errors import Contradiction
from .melds import find_contract, layoff_candidates

#: the power of a player model's likelihood (measured: the fitted models at full strength are
#: overconfident; a fifth of their log-likelihood helps a little: docs/carioca.md)


class _Filter:
    """The exact forward filter of one hand (see the module docstring)."""

    def __init__(self, deck: Counter, observer: int, players: int, hand: Iterable[str], up: str,
                 dealt: int, stock: int):
        self.types = tuple(sorted(deck, key=lambda c: (c in ("RJ", "BJ"), c)))
        self.index = {c: i for i, c in enumerate(self.types)}
        self.T = len(self.types)
        self.observer = observer
        self.players = players
        self.others = [s for s in range(players) if s != observer]
        self.k = {s: i for i, s in enumerate(self.others)}
        m0 = Counter(deck)
        m0.subtract(Counter(hand))
        m0[up] -= 1
        if any(v < 0 for v in m0.values()):
            raise Contradiction("the observer's hand and the card turned up hold more copies than the pack", 0)
        pool0 = tuple(m0[c] for c in self.types)
        slots = tuple((dealt,) for _ in self.others)
        known = tuple(() for _ in self.others)
        self.stock = [stock]            # stock cards per pool (public), oldest pool first
        self.states: dict[tuple, int] = {(slots, known, (pool0,)): 1}

    # ------------------------------------------------------------------ helpers
    def _draw_pool(self) -> int:
        for p, n in enumerate(self.stock):
            if n > 0:
                return p
        raise Contradiction("a card was drawn from an empty stock")

    @staticmethod
    def _known_add(known: tuple, i: int, delta: int) -> tuple:
        d = dict(known)
        v = d.get(i, 0) + delta
        if v:
            d[i] = v
        else:
            d.pop(i, None)
        return tuple(sorted(d.items()))

    def _merge(self, out: dict, key: tuple, w: int) -> None:
        if w:
            out[key] = out.get(key, 0) + w

    def _check(self, what: str) -> None:
        if not self.states:
            raise Contradiction(f"no history is consistent with {what}")

    # ------------------------------------------------------------------ events
    def hidden_draw(self, seat: int, count: int = 1) -> None:
        """``seat`` (another seat) drew ``count`` cards the observer did not see."""
        k = self.k[seat]
        for _ in range(count):
            p = self._draw_pool()
            out: dict = {}
            for (slots, known, pools), w in self.states.items():
                row = list(slots[k])
                row[p] += 1
                ns = slots[:k] + (tuple(row),) + slots[k + 1:]
                self._merge(out, (ns, known, pools), w * row[p])
            self.states = out
            self.stock[p] -= 1

    def own_draw(self, cards: Iterable[str]) -> None:
        """The observer drew ``cards`` from the stock (its draw or its penalty cards)."""
        for c in cards:
            p = self._draw_pool()
            i = self.index[c]
            out: dict = {}
            for (slots, known, pools), w in self.states.items():
                m = pools[p][i]
                if m <= 0:
                    continue
                pool = list(pools[p])
                pool[i] -= 1
                npools = pools[:p] + (tuple(pool),) + pools[p + 1:]
                self._merge(out, (slots, known, npools), w * m)
            self.states = out
            self.stock[p] -= 1
            self._check(f"the observer drawing {c}")

    def take(self, seat: int, card: str) -> None:
        """``seat`` (another seat) took or stole ``card`` (public)."""
        k, i = self.k[seat], self.index[card]
        out: dict = {}
        for (slots, known, pools), w in self.states.items():
            nk = known[:k] + (self._known_add(known[k], i, 1),) + known[k + 1:]
            self._merge(out, (slots, nk, pools), w)
        self.states = out

    def reveal(self, seat: int, card: str) -> None:
        """``seat`` (another seat) showed ``card`` as it left its hand."""
        k, i = self.k[seat], self.index[card]
        out: dict = {}
        for (slots, known, pools), w in self.states.items():
            kd = dict(known[k])
            if kd.get(i, 0) > 0:
                nk = known[:k] + (self._known_add(known[k], i, -1),) + known[k + 1:]
                self._merge(out, (slots, nk, pools), w * kd[i])
            for p, n in enumerate(slots[k]):
                m = pools[p][i]
                if n <= 0 or m <= 0:
                    continue
                row = list(slots[k])
                row[p] -= 1
                pool = list(pools[p])
                pool[i] -= 1
                ns = slots[:k] + (tuple(row),) + slots[k + 1:]
                npools = pools[:p] + (tuple(pool),) + pools[p + 1:]
                self._merge(out, (ns, known, npools), w * m)
        self.states = out
        self._check(f"seat {seat} showing {card}")

    def restock(self, cards: Iterable[str]) -> None:
        """The discards ``cards`` (a multiset) became a new pool at the bottom of the stock."""
        cnt = Counter(cards)
        pool = tuple(cnt[c] for c in self.types)
        out: dict = {}
        for (slots, known, pools), w in self.states.items():
            ns = tuple(row + (0,) for row in slots)
            self._merge(out, (ns, known, pools + (pool,)), w)
        self.states = out
        self.stock.append(sum(cnt.values()))

    # ------------------------------------------------------------------ answers
    def arrangements(self, key: tuple) -> int:
        """``prod_p |M_p|! / (prod_s n_sp! * S_p!)`` of a state."""
        slots, _, pools = key
        out = 1
        for p, pool in enumerate(pools):
            total = sum(pool)
            den = factorial(self.stock[p])
            for row in slots:
                den *= factorial(row[p])
            if sum(row[p] for row in slots) + self.stock[p] != total:
                raise AssertionError("a pool's slots and stock do not add up to its cards")
            out *= factorial(total) // den
        return out

    def weighted(self) -> list[tuple[tuple, int]]:
        """``(state, number of consistent histories)`` of every state."""
        return [(key, w * self.arrangements(key)) for key, w in self.states.items()]


# ---------------------------------------------------------------------------- helpers
def _p_none(n: int, m: int, t: int) -> float:
    """``C(t - m, n) / C(t, n)``: no copy among ``n`` drawn from ``t`` cards holding ``m`` copies
    (as the product ``prod_j (t - n - j) / (t - j)`` over the ``m`` copies)."""
    if n <= 0 or m <= 0:
        return 1.0
    if n > t - m:
        return 0.0
    out = 1.0
    for j in range(m):
        out *= (t - n - j) / (t - j)
    return out


def _p_at_least(groups: list[tuple[int, int, int]], need: int) -> float:
    """P(at least ``need`` copies) in the union of independent hypergeometric draws: per group
    ``(drawn, copies in the pool, pool size)``."""
    if need <= 0:
        return 1.0
    if need == 1:
        none = 1.0
        for n, m, t in groups:
            if n and t:
                none *= _p_none(n, m, t)
        return 1.0 - none
    dist = [1.0]
    for n, m, t in groups:
        if not n or not t:
            continue
        pmf = [comb(m, j) * comb(t - m, n - j) / comb(t, n) for j in range(min(m, n) + 1)]
        new = [0.0] * (len(dist) + len(pmf) - 1)
        for a, pa in enumerate(dist):
            for b, pb in enumerate(pmf):
                new[a + b] += pa * pb
        dist = new
    return max(0.0, 1.0 - sum(dist[:need]))


def _pool_at(stock: list[int], idx: int) -> int | None:
    for p, n in enumerate(stock):
        if idx < n:
            return p
        idx -= n
    return None


def _pool_hands(f: _Filter, row: tuple, pools: tuple) -> list[tuple[Counter, float]]:
    """Every multiset of a seat's hidden cards with its probability: per pool, ``row[p]`` cards
    drawn without replacement from the pool's unplaced cards (multivariate hypergeometric)."""
    parts: list[list[tuple[Counter, float]]] = []
    for p, n in enumerate(row):
        pool = pools[p]
        total = sum(pool)
        items = [(f.types[i], m) for i, m in enumerate(pool) if m]
        opts: list[tuple[Counter, float]] = []

        def rec(j: int, left: int, cur: dict, ways: int) -> None:
            if left == 0:
                opts.append((Counter(cur), ways / comb(total, n)))
                return
            if j == len(items):
                return
            c, m = items[j]
            for t in range(min(m, left), -1, -1):
                if t:
                    cur[c] = t
                else:
                    cur.pop(c, None)
                rec(j + 1, left - t, cur, ways * comb(m, t))
            cur.pop(c, None)

        rec(0, n, {}, 1)
        parts.append([(Counter({(p, c): v for c, v in cnt.items()}), pr) for cnt, pr in opts])
    out: list[tuple[Counter, float]] = [(Counter(), 1.0)]
    for opts in parts:
        out = [(a + b, pa * pb) for a, pa in out for b, pb in opts]
    res = []
    for cnt, pr in out:
        c2: Counter = Counter()
        for (p, c), v in cnt.items():
            c2[c] += v
        c2._pools = cnt  # type: ignore[attr-defined]
        res.append((c2, pr))
    return res


def _combo_pool_part(combo: Counter, row: tuple, pools: tuple, p: int, f: _Filter) -> Counter:
    parts = getattr(combo, "_pools", None)
    if parts is None:
        return Counter()
    return Counter({c: v for (q, c), v in parts.items() if q == p})


def can_go_down_out(state, seat: int, hand: Counter) -> tuple[float, float]:
    """``(can go down, can go out)`` for ``seat`` holding ``hand`` in its turn now (1.0 or 0.0):
    down: it is down already or the contract is in ``hand`` (with a card to spare); out: after
    going down (when it must) and laying off every card it can on the table and its new melds,
    at most one card (its discard) is left."""
    cards = [c for c in hand.elements()]
    if state.down[seat]:
        left = _layoff_all(Counter(hand), [dict(m) for m in state.table])
        return 1.0, 1.0 if left <= 1 else 0.0
    found = find_contract(cards, state.sets, state.runs, limit=3)
    if not found:
        return 0.0, 0.0
    for melds in found:
        rest = Counter(hand)
        for m in melds:
            rest.subtract(m.cards)
        table = [dict(m) for m in state.table] + [{"owner": seat, "kind": m.kind, "cards": list(m.cards)}
                                                  for m in melds]
        if _layoff_all(+rest, table) <= 1:
            return 1.0, 1.0
    return 1.0, 0.0


def _layoff_all(rest: Counter, table: list[dict]) -> int:
    """Lay off greedily (repeat until nothing fits) keeping one card; the cards left."""
    rest = +Counter(rest)
    left = sum(rest.values())
    targets = [layoff_candidates(m["kind"], m["cards"]) for m in table]
    changed = True
    while changed and left > 1:
        changed = False
        for k, m in enumerate(table):
            for c, at in targets[k]:
                if rest[c] > 0 and left > 1:
                    m["cards"] = [c] + m["cards"] if at == "start" else m["cards"] + [c]
                    rest[c] -= 1
                    left -= 1
                    targets[k] = layoff_candidates(m["kind"], m["cards"])
                    changed = True
                    break
    return left


def sqrt_se(p: float, n: int) -> float:
    """The standard error of a proportion ``p`` over ``n`` samples."""
    return sqrt(max(p * (1 - p), 0.0) / max(n, 1))
