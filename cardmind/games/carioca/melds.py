"""Sets and runs: the meld checker, laying off, and finding a contract in a hand.

Rules (``shared/seeds/carioca.txt``, ``shared/spec/rules.md``, contract rummy):

* a **set** is 3 or more cards of one rank, any suits; jokers stand in for any card, but a
  set is never all jokers;
* a **run** is 4 or more consecutive cards of one suit, read in the order laid on the table
  (a joker stands for the card its place needs). The Ace is low (A-2-3-4) or high
  (J-Q-K-A) but never both in one run, so a run never wraps (K-A-2) and nothing follows a
  high Ace nor comes before a low one; jokers fill gaps but two jokers are never adjacent;
  no rank appears twice.

:func:`meld_error` says why a meld is refused (``None`` when it is valid); every other
function of this module is built on it or checked against it in the tests. The finders
(:func:`find_contract`, :func:`deficiency`) serve the players and the advice: they look for
the contract among a hand's cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ...cards import JOKERS
from .rules import RANK_ORDER, RUN_MIN, RUN_VALUE, SET_MIN, SUIT_ORDER

MELD_KINDS = ("set", "run")


def _rank_at(value: int) -> str:
    """The rank of run value ``value`` (1 and 14 are both the Ace)."""
    return "A" if value in (1, 14) else RANK_ORDER[value - 1]


def set_error(cards: Sequence[str]) -> str | None:
    """Why ``cards`` is not a set (``None`` when it is one)."""
    if len(cards) < SET_MIN:
        return f"a set needs at least {SET_MIN} cards, not {len(cards)}"
    naturals = [c for c in cards if c not in JOKERS]
    if not naturals:
        return "a set cannot be made entirely of jokers"
    ranks = {c[0] for c in naturals}
    if len(ranks) > 1:
        return f"a set is of one rank, not {', '.join(sorted(ranks, key=RANK_ORDER.index))}"
    return None


def run_values(cards: Sequence[str]) -> list[int] | None:
    """The run value of every place of ``cards`` read as a run in the order given (a joker
    takes the value its place needs), or ``None`` when no reading fits (see :func:`run_error`).
    A value is 1 to 14 (1 and 14 are the Ace, low and high)."""
    if not cards:
        return None
    for ace in (1, 14):
        start = None
        ok = True
        for i, c in enumerate(cards):
            if c in JOKERS:
                continue
            v = RUN_VALUE[c[0]] if c[0] != "A" else ace
            s = v - i
            if start is None:
                start = s
            elif s != start:
                ok = False
                break
        if not ok or start is None:
            continue
        end = start + len(cards) - 1
        if start < 1 or end > 14 or (start == 1 and end == 14):
            continue
        return list(range(start, end + 1))
    return None


def run_error(cards: Sequence[str]) -> str | None:
    """Why ``cards`` (in the order laid) is not a run (``None`` when it is one)."""
    if len(cards) < RUN_MIN:
        return f"a run needs at least {RUN_MIN} cards, not {len(cards)}"
    naturals = [c for c in cards if c not in JOKERS]
    if not naturals:
        return "a run cannot be made entirely of jokers"
    suits = {c[1] for c in naturals}
    if len(suits) > 1:
        return f"a run is of one suit, not {', '.join(sorted(suits, key=SUIT_ORDER.index))}"
    for a, b in zip(cards, cards[1:]):
        if a in JOKERS and b in JOKERS:
            return "two jokers are never adjacent in a run"
    ranks = [c[0] for c in naturals]
    dup = [r for r, k in Counter(ranks).items() if k > 1]
    if dup:
        return f"a run has each rank once ({dup[0]} appears twice)"
    if run_values(cards) is None:
        if "A" in ranks and "K" in ranks and any(r in ranks for r in "23456"):
            return "a run never wraps through the Ace (the Ace is low or high, not both)"
        return ("the cards are not consecutive in the order laid (the Ace is low, before the 2, or high, "
                "after the King; nothing follows a high Ace or comes before a low one)")
    return None


def meld_error(kind: str, cards: Sequence[str]) -> str | None:
    """Why ``cards`` is not a meld of ``kind`` (``"set"`` or ``"run"``), or ``None``."""
    if kind == "set":
        return set_error(cards)
    if kind == "run":
        return run_error(cards)
    return f"a meld is a set or a run, not {kind!r}"


def is_valid(kind: str, cards: Sequence[str]) -> bool:
    """Whether ``cards`` is a valid meld of ``kind``."""
    return meld_error(kind, cards) is None


def meld_kind(cards: Sequence[str]) -> str | None:
    """``"set"`` or ``"run"`` when ``cards`` is a valid meld (never both: a valid run has two
    naturals of different ranks), else ``None``."""
    if set_error(cards) is None:
        return "set"
    if run_error(cards) is None:
        return "run"
    return None


def laid_with(kind: str, cards: Sequence[str], card: str, at: str) -> list[str]:
    """The meld after laying ``card`` off at ``at`` (``"start"`` or ``"end"``; a set takes it at
    the end whatever ``at`` says)."""
    if kind == "run" and at == "start":
        return [card] + list(cards)
    return list(cards) + [card]


def layoff_error(kind: str, cards: Sequence[str], card: str, at: str) -> str | None:
    """Why laying ``card`` off on the meld ``cards`` at ``at`` is refused, or ``None``."""
    if at not in ("start", "end"):
        return f"a card is laid at the 'start' or the 'end' of a meld, not {at!r}"
    err = meld_error(kind, laid_with(kind, cards, card, at))
    return None if err is None else f"the {kind} would not stay valid: {err}"


def layoff_places(kind: str, cards: Sequence[str], card: str) -> list[str]:
    """Where ``card`` may be laid off on the meld: ``[]``, ``["end"]`` (a set, or the high end
    of a run), ``["start"]`` or both."""
    if kind == "set":
        return ["end"] if layoff_error(kind, cards, card, "end") is None else []
    return [at for at in ("start", "end") if layoff_error(kind, cards, card, at) is None]


def layoff_candidates(kind: str, cards: Sequence[str]) -> list[tuple[str, str]]:
    """Every ``(card, at)`` that may be laid off on the meld now: for a set, a natural of its
    rank or a joker; for a run, the natural or a joker just before or after it (checked with
    :func:`layoff_error`)."""
    nat = [c for c in cards if c not in JOKERS]
    if not nat:
        return []
    if kind == "set":
        r = nat[0][0]
        cands = [(r + s, "end") for s in SUIT_ORDER] + [(j, "end") for j in JOKERS]
    else:
        vals = run_values(cards)
        if vals is None:
            return []
        suit = nat[0][1]
        cands = []
        if vals[0] > 1:
            cands += [(_rank_at(vals[0] - 1) + suit, "start")] + [(j, "start") for j in JOKERS]
        if vals[-1] < 14:
            cands += [(_rank_at(vals[-1] + 1) + suit, "end")] + [(j, "end") for j in JOKERS]
    return [(c, at) for c, at in cands if layoff_error(kind, cards, c, at) is None]


# ---------------------------------------------------------------------------- finding
@dataclass(frozen=True)
class Meld:
    """A meld to lay: its ``kind`` (``"set"``/``"run"``) and its ``cards`` in the order laid."""

    kind: str
    cards: tuple[str, ...]

    def to_json(self) -> dict:
        """``{"kind", "cards"}``."""
        return {"kind": self.kind, "cards": list(self.cards)}


def _run_windows(suits: str) -> list[tuple[str, int]]:
    """``(suit, first value)`` of every 4-card window of a run (values 1-4 up to 11-14)."""
    return [(s, v) for s in suits for v in range(1, 15 - RUN_MIN + 1)]


def _window_cards(suit: str, start: int, length: int = RUN_MIN) -> list[str]:
    return [_rank_at(v) + suit for v in range(start, start + length)]


def _no_adjacent(jpos: Sequence[int]) -> bool:
    return all(b - a > 1 for a, b in zip(jpos, jpos[1:]))


def _set_slots(counts: Counter, sets: int) -> list[tuple[str, int]] | None:
    """How to spread ``sets`` sets over the ranks held so that they use the most naturals:
    ``[(rank, naturals of that set)]``, or ``None`` when fewer than ``sets`` sets can each
    have a natural. Each set takes at most 3 naturals and at least 1; the naturals a rank
    can give grow by at most 3 per set it hosts, so adding sets one at a time to the rank
    that gains most is optimal (the gains of a rank never increase)."""
    by_rank: Counter = Counter()
    for c, k in counts.items():
        if c not in JOKERS and k > 0:
            by_rank[c[0]] += k
    hosts: Counter = Counter()
    for _ in range(sets):
        best, gain = None, -1
        for r in sorted(by_rank, key=RANK_ORDER.index):
            m, n = hosts[r], by_rank[r]
            if n < m + 1:
                continue
            g = min(n, SET_MIN * (m + 1)) - min(n, SET_MIN * m)
            if g > gain:
                best, gain = r, g
        if best is None:
            return None
        hosts[best] += 1
    slots = []
    for r in sorted(hosts, key=RANK_ORDER.index):
        m, n = hosts[r], by_rank[r]
        use = min(n, SET_MIN * m)
        base, extra = divmod(use, m)
        for i in range(m):
            slots.append((r, base + (1 if i < extra else 0)))
    slots.sort(key=lambda x: (-x[1], RANK_ORDER.index(x[0])))
    return slots


def _lay_sets(cnt: Counter, jl: list[str], sets: int) -> list[Meld] | None:
    """The ``sets`` sets of a contract laid from the naturals ``cnt`` (a multiset of cards)
    and the jokers ``jl`` left after its runs, using the most naturals (:func:`_set_slots`;
    jokers fill the rest, taken from the end of ``jl``); ``None`` when they cannot be laid."""
    if sets == 0:
        return []
    slots = _set_slots(cnt, sets)
    if slots is None:
        return None
    need = sum(SET_MIN - u for _, u in slots)
    if need > len(jl):
        return None
    melds = []
    left = Counter(cnt)
    js = list(jl)
    for r, u in slots:
        cards = []
        for s in SUIT_ORDER:
            while len(cards) < u and left[r + s] > 0:
                left[r + s] -= 1
                cards.append(r + s)
        while len(cards) < SET_MIN:
            cards.append(js.pop())
        melds.append(Meld("set", tuple(cards)))
    return melds


def find_contract(hand: Iterable[str], sets: int, runs: int, limit: int = 1,
                  keep: int = 1) -> list[tuple[Meld, ...]]:
    """Ways to lay the contract (``sets`` sets of 3 and ``runs`` runs of 4) from ``hand``,
    keeping at least ``keep`` card(s) in hand (a turn ends with a discard).

    The search is exhaustive (every choice of run windows, of natural or joker at each place
    of a run, of set ranks) and returns up to ``limit`` arrangements, those using the fewest
    jokers first among the runs tried; melds are of the minimum length (lay the other cards
    off afterwards). An empty list means the contract cannot be made.

    Args:
        hand: the cards (a multiset).
        sets, runs: the contract.
        limit: most arrangements to return.
        keep: cards that must stay in hand.
    """
    counts = Counter(hand)
    total = sum(counts.values())
    if total - (SET_MIN * sets + RUN_MIN * runs) < keep:
        return []
    jokers = [c for c in counts.elements() if c in JOKERS]
    out: list[tuple[Meld, ...]] = []
    suits = sorted({c[1] for c in counts if c not in JOKERS}, key=SUIT_ORDER.index)
    windows = _run_windows("".join(suits))

    def lay_runs(k: int, first: int, cnt: Counter, jl: list[str], chosen: list[Meld]) -> None:
        """Lay runs ``k`` .. ``runs - 1`` in windows from index ``first`` on, from the naturals
        ``cnt`` and jokers ``jl`` left, then the sets; arrangements go to ``out``."""
        if len(out) >= limit:
            return
        if k == runs:
            ms = _lay_sets(cnt, jl, sets)
            if ms is not None:
                out.append(tuple(chosen + ms))
            return
        for wi in range(first, len(windows)):
            suit, start = windows[wi]
            cards = _window_cards(suit, start)
            avail = [i for i, c in enumerate(cards) if cnt[c] > 0]
            if len(avail) < 2:
                continue
            # try using naturals at as many places as possible first
            for mask in range((1 << len(avail)) - 1, -1, -1):
                use = [avail[b] for b in range(len(avail)) if mask >> b & 1]
                jpos = [i for i in range(RUN_MIN) if i not in use]
                if len(jpos) > len(jl) or not _no_adjacent(jpos) or len(use) < 2:
                    continue
                cnt2 = Counter(cnt)
                jl2 = list(jl)
                laid = []
                for i in range(RUN_MIN):
                    if i in use:
                        cnt2[cards[i]] -= 1
                        laid.append(cards[i])
                    else:
                        laid.append(jl2.pop())
                cnt2 = +cnt2
                lay_runs(k + 1, wi, cnt2, jl2, chosen + [Meld("run", tuple(laid))])
                if len(out) >= limit:
                    return

    naturals = +Counter({c: k for c, k in counts.items() if c not in JOKERS})
    lay_runs(0, 0, naturals, jokers, [])
    return out


def can_make(hand: Iterable[str], sets: int, runs: int, keep: int = 1) -> bool:
    """Whether ``hand`` holds the contract with ``keep`` card(s) left over (see :func:`find_contract`)."""
    return bool(find_contract(hand, sets, runs, limit=1, keep=keep))


def deficiency_cached(hand: Counter, sets: int, runs: int) -> tuple[int, frozenset[str]]:
    """:func:`deficiency` without ``available`` (every card may still come), memoised by hand."""
    return _deficiency_memo(tuple(sorted((c, k) for c, k in hand.items() if k > 0)), sets, runs)


@lru_cache(maxsize=200_000)
def _deficiency_memo(key: tuple, sets: int, runs: int) -> tuple[int, frozenset[str]]:
    d, outs = deficiency([c for c, k in key for _ in range(k)], sets, runs)
    return d, frozenset(outs)


def _max_jokers(miss: Sequence[int]) -> int:
    """The most of the places ``miss`` (of a 4-card window) jokers can fill: never two adjacent."""
    best = 0
    for mask in range(1 << len(miss)):
        pos = [miss[b] for b in range(len(miss)) if mask >> b & 1]
        if _no_adjacent(pos):
            best = max(best, len(pos))
    return best


def deficiency(hand: Iterable[str], sets: int, runs: int, available: Counter | None = None,
               max_missing: int = 12, windows_kept: int = 10) -> tuple[int, set[str]]:
    """How far ``hand`` is from the contract (a fast estimate for the players): the cards it
    must still get, and the cards that would each bring it one closer (the *outs*).

    A run target is a 4-card window of one suit holding at least one natural of the hand; its
    other places are **missing** (a card to get) unless a joker fills them (never two jokers
    adjacent). A set target is a rank, its places filled by naturals, jokers (never all
    jokers) or missing. The answer is the fewest missing places over the choices of targets
    searched (the ``windows_kept`` windows with the fewest missing places, every combination
    of them, a window twice where the hand has the naturals for two runs in it, and the sets that use the most naturals of what the runs leave), and the union of
    the cards those missing places need over the choices that reach it (a joker is always an
    out while anything is missing). It is an estimate, not an exact minimum.

    Args:
        hand: the cards held.
        sets, runs: the contract.
        available: when given, ``{card: copies not yet seen out of play}``: a missing place may
            only be a card with a copy still available (dead cards cannot be drawn).
        max_missing: answers above this are ``(max_missing + 1, set())``.
        windows_kept: how many run windows the search combines.

    Returns:
        ``(missing, outs)``; ``(0, set())`` when the contract is in hand (the keep-a-card rule
        is not checked here).
    """
    counts = Counter(hand)
    nat = +Counter({c: k for c, k in counts.items() if c not in JOKERS})
    jok = sum(k for c, k in counts.items() if c in JOKERS)
    targets = _run_targets(nat, available, windows_kept) if runs else []
    search = _ShortfallSearch(nat, jok, sets, runs, targets, available, max_missing)
    search.choose_runs(0, 0, Counter(), 0, 0, [])
    best, outs = search.best, search.outs
    if best <= 0:
        return 0, set()
    if best > max_missing:
        return max_missing + 1, set()
    outs.update(c for c in JOKERS if _can_come(c, available) or available is None)
    return best, outs


def _can_come(card: str, available: Counter | None) -> bool:
    """Whether ``card`` may still be drawn: a copy is available (always, without ``available``)."""
    return available is None or available.get(card, 0) > 0


def _run_targets(nat: Counter, available: Counter | None,
                 windows_kept: int) -> list[tuple[int, int, tuple[str, ...], tuple[str, ...]]]:
    """The run windows :func:`deficiency` aims at: every 4-card window of a suit holding a
    natural of ``nat`` (the hand's naturals, a multiset) whose missing cards may all still
    come, as ``(missing places, most of them jokers can fill, the naturals held, the missing
    cards)``; the ``windows_kept`` with the fewest missing places (a stable sort)."""
    cands = []
    suits = sorted({c[1] for c in nat}, key=SUIT_ORDER.index)
    for suit in suits:
        for start in range(1, 15 - RUN_MIN + 1):
            cards = _window_cards(suit, start)
            have = [i for i, c in enumerate(cards) if nat[c] > 0]
            if not have:
                continue
            miss = [i for i in range(RUN_MIN) if i not in have]
            if any(not _can_come(cards[i], available) for i in miss):
                continue
            cands.append((len(miss), _max_jokers(miss), tuple(cards[i] for i in have),
                          tuple(cards[i] for i in miss)))
    cands.sort(key=lambda x: x[0])
    return cands[:windows_kept]


class _ShortfallSearch:
    """The search of :func:`deficiency`: every choice of run targets (``targets`` from
    :func:`_run_targets`, a window more than once where the naturals allow), then the sets
    that use the most naturals left; keeps the fewest missing places (``best``, starting at
    ``max_missing + 1``) and the union of the cards those choices miss (``outs``).

    Args:
        nat: the hand's naturals (a multiset); jok: its number of jokers.
        sets, runs: the contract.
        targets: the run windows.
        available: ``{card: copies not yet seen out of play}`` or ``None``.
        max_missing: answers above this are not searched.
    """

    def __init__(self, nat: Counter, jok: int, sets: int, runs: int,
                 targets: list[tuple[int, int, tuple[str, ...], tuple[str, ...]]],
                 available: Counter | None, max_missing: int):
        self.nat, self.jok, self.sets, self.runs = nat, jok, sets, runs
        self.targets, self.available = targets, available
        self.best = max_missing + 1
        self.outs: set[str] = set()

    def choose_runs(self, k: int, first: int, used: Counter, miss: int, jcap: int, need: list[str]) -> None:
        """Choose run targets ``k`` .. ``runs - 1`` from target ``first`` on, the runs before
        using the naturals ``used``, missing ``miss`` places (``jcap`` of them fillable by
        jokers) that need the cards ``need``; then the sets (:meth:`add_sets`). A run with no
        target left counts all four places missing, two of them fillable by jokers."""
        jok, runs, nat, targets = self.jok, self.runs, self.nat, self.targets
        if miss - min(jok, jcap + 2 * (runs - k) + 2 * self.sets) > self.best:
            return
        if k == runs:
            self.add_sets(used, miss, jcap, need)
            return
        placed = False
        for wi in range(first, len(targets)):
            m, jc, have, missing = targets[wi]
            u2 = Counter(used)
            u2.update(have)
            if any(u2[c] > nat[c] for c in have):
                continue
            placed = True
            # the same window may hold a second run when the hand has second copies (two decks)
            self.choose_runs(k + 1, wi, u2, miss + m, jcap + jc, need + list(missing))
        if not placed:
            self.choose_runs(k + 1, len(targets), used, miss + RUN_MIN, jcap + 2, need)

    def add_sets(self, used: Counter, run_miss: int, run_jcap: int, run_need: list[str]) -> None:
        """The sets after runs that use the naturals ``used``, miss ``run_miss`` places
        (``run_jcap`` fillable by jokers) and need ``run_need``: the set slots using the most
        naturals left; records the total missing places and their cards when it is the best."""
        sets = self.sets
        left = Counter(self.nat)
        left.subtract(used)
        left = +left
        # sets: the slots using the most naturals
        held = sum(left.values())
        slots = _set_slots(left, min(sets, held)) or [] if sets else []
        empty = sets - len(slots)
        set_miss = sum(SET_MIN - u for _, u in slots) + SET_MIN * empty
        set_jcap = sum(SET_MIN - u for _, u in slots if u >= 1) + (SET_MIN - 1) * empty
        j = min(self.jok, run_jcap + set_jcap)
        total = run_miss + set_miss - j
        if total > self.best:
            return
        wanted = set(run_need)
        for r, u in slots:
            if u < SET_MIN:
                wanted.update(r + s for s in SUIT_ORDER if _can_come(r + s, self.available))
        if total < self.best:
            self.best = total
            self.outs.clear()
        self.outs.update(wanted)


__all__ = ["MELD_KINDS", "Meld", "can_make", "deficiency", "deficiency_cached", "find_contract", "is_valid", "laid_with",
           "layoff_candidates", "layoff_error", "layoff_places", "meld_error", "meld_kind", "run_error", "run_values", "set_error"]
