"""Fast play-outs of Go Fish phase 1 at the level of rank counts, for the ``belief`` player's
look-ahead (``search`` setting of :class:`~cardmind.games.gofish.agents.belief.GoFishBeliefAgent`).

A **world** is a complete hidden state as counts: per seat and rank how many cards it holds,
and the stock as a sequence of ranks (suits never matter to the play). :func:`play_out`
plays such a world to the end of phase 1 with every seat following :func:`peer_ask`, a
count-level form of the ``peer`` player (:mod:`cardmind.games.gofish.agents.peer`): the same order
of asks (certain books, known holders, then the rank it holds most among the plausible
guesses, a rank it has shown breaking ties) on the same public memory (``lo``: cards of a rank
a seat certainly holds; ``lacks``: unseen cards a seat has gained since it was last known to
hold none of a rank, ``-1`` when never known). The memory is public, so one copy serves
every seat: each seat adds only its own hand.

The rules are those of :mod:`cardmind.games.gofish.state` (``shared/spec/rules.md``): a hit
keeps the turn; a refusal draws from the stock and keeps the turn only when the card drawn
is of the rank asked for; four of a rank are put aside at once; a seat on turn with no
cards draws one (and goes on) or, with the stock empty, is skipped; a seat with cards but
nobody to ask draws one and the turn passes; phase 1 ends when the stock and every hand are
empty. ``tests/test_gofish_rollout.py`` checks the play-outs against the real game, event by
event. Only the books matter for the result, so which suit changes hands is not modelled.
"""

from __future__ import annotations

import random


class Memory:
    """The public memory of a Go Fish table (see the module docstring).

    Attributes:
        lo: ``lo[s][r]``, cards of rank index ``r`` seat ``s`` certainly holds.
        lacks: ``lacks[s][r]``, unseen cards ``s`` has gained since it was last known to hold
            no ``r`` (``0``: certainly none now), ``-1`` when never known.
    """

    __slots__ = ("lo", "lacks")

    def __init__(self, lo: list[list[int]], lacks: list[list[int]]):
        self.lo = lo
        self.lacks = lacks

    def copy(self) -> "Memory":
        """An independent copy."""
        return Memory([row[:] for row in self.lo], [row[:] for row in self.lacks])


def peer_ask(p: int, hands: list[list[int]], sizes: list[int], stock_left: int, mem: Memory,
             S: int, targets: list[int], rnd: random.Random) -> tuple[int, int]:
    """The ask ``(target seat, rank index)`` of seat ``p`` under the ``peer`` player's order
    (count-level; ties at random with ``rnd``).

    Args:
        p: the seat on turn (it holds cards).
        hands: cards per seat and rank index (only ``hands[p]`` is read: ``p`` sees its own).
        sizes: cards per seat (public).
        stock_left: cards in the stock.
        mem: the public memory.
        S: suits (cards in a book).
        targets: the other seats holding cards (not empty).
        rnd: breaks ties.
    """
    mine = hands[p]
    lo = mem.lo
    others = [lo[s] for s in range(len(sizes)) if s != p]
    held = [r for r, k in enumerate(mine) if k]
    if len(others) == 1:
        o = others[0]
        located = {r: mine[r] + o[r] for r in held}
    else:
        located = {r: mine[r] + sum(x[r] for x in others) for r in held}
    best, tied = None, []
    for t in targets:                      # (a) certain books, (b) known holders
        lt = lo[t]
        for r in held:
            k = lt[r]
            if k > 0:
                key = (located[r] >= S, mine[r], k)
                if best is None or key > best:
                    best, tied = key, [(t, r)]
                elif key == best:
                    tied.append((t, r))
    if tied:
        return tied[rnd.randrange(len(tied))] if len(tied) > 1 else tied[0]
    unknown = stock_left
    for s in range(len(sizes)):
        if s != p:
            f = sizes[s] - sum(lo[s])
            if f > 0:
                unknown += f
    guesses = []
    best_c = 0.0
    for t in targets:                      # (c)/(d) guesses
        f = sizes[t] - sum(lo[t])
        if f <= 0:
            continue
        lk_t = mem.lacks[t]
        for r in held:
            u = S - located[r]
            if u <= 0 or unknown <= 0:
                continue
            lk = lk_t[r]
            m = f if lk < 0 or lk > f else lk
            if m > 0:
                c = 1.0 - (1.0 - min(1.0, u / unknown)) ** m
                guesses.append((c, r, t))
                if c > best_c:
                    best_c = c
    if not guesses:                        # every ask fails: the rank most likely drawn
        top = max(S - located[r] for r in held)
        pool = [(t, r) for r in held if S - located[r] == top for t in targets]
        return pool[rnd.randrange(len(pool))] if len(pool) > 1 else pool[0]
    floor = 0.3 * best_c - 1e-12
    lp = lo[p]
    best, tied = None, []
    for c, r, t in guesses:
        if c < floor:
            continue
        key = (mine[r], lp[r] > 0, c)
        if best is None or key > best:
            best, tied = key, [(t, r)]
        elif key == best:
            tied.append((t, r))
    return tied[rnd.randrange(len(tied))] if len(tied) > 1 else tied[0]


def _emptied(s: int, mem: Memory, R: int) -> None:
    mem.lo[s] = [0] * R
    mem.lacks[s] = [0] * R


def _book(p: int, r: int, public: bool, hands, sizes, books, mem: Memory, S: int) -> None:
    """Seat ``p`` puts aside its four (``S``) cards of ``r``."""
    hands[p][r] = 0
    sizes[p] -= S
    books[p] += 1
    for s in range(len(sizes)):  # nobody holds the rank now (a ``peer`` that saw it knows)
        mem.lo[s][r] = 0
        mem.lacks[s][r] = 0
    if not public:  # face down: the maker no longer surely holds any rank the book may be
        # of (as ``peer`` clears it, judged from the other seats' hands: exact with two players)
        lo = mem.lo[p]
        for x in range(len(lo)):
            if lo[x] and not any(hands[s][x] for s in range(len(sizes)) if s != p):
                lo[x] = 0
    if sizes[p] == 0:
        _emptied(p, mem, len(hands[p]))


def _draw_unseen(p: int, hands, sizes, stock, books, mem: Memory, S: int, face_up: bool) -> None:
    """Seat ``p`` draws the next card of the stock, seen by nobody else (a book it completes
    is face down unless ``face_up``)."""
    c = stock.pop()
    hands[p][c] += 1
    sizes[p] += 1
    lacks = mem.lacks[p]
    for x in range(len(lacks)):
        if lacks[x] >= 0:
            lacks[x] += 1
    if hands[p][c] == S:
        _book(p, c, face_up, hands, sizes, books, mem, S)


def _lay_dealt_books(hands: list[list[int]], sizes: list[int], books: list[int], mem: Memory, S: int) -> None:
    """Every seat lays, face up, each complete rank it holds (a dealt book not laid yet: at
    the very start, a view cannot tell that the others laid none). ``hands``: cards per seat
    and rank index; ``sizes``: cards per seat; ``books``: books per seat (all changed in
    place)."""
    for s in range(len(hands)):
        for r in range(len(hands[0])):
            if hands[s][r] == S:
                _book(s, r, True, hands, sizes, books, mem, S)


def _hit(p: int, t: int, r: int, hands: list[list[int]], sizes: list[int], books: list[int], mem: Memory,
         S: int, give_all: bool) -> None:
    """Seat ``t`` holds rank index ``r`` that seat ``p`` asked for: it hands over one card
    (all of them with ``give_all``), everybody sees it; ``p`` lays the book when it completes
    the rank. ``hands``, ``sizes``, ``books`` and ``mem`` are changed in place."""
    lo = mem.lo
    g = hands[t][r] if give_all else 1
    hands[t][r] -= g
    sizes[t] -= g
    hands[p][r] += g
    sizes[p] += g
    lo[p][r] += g
    lo[t][r] = max(lo[t][r], g) - g
    if give_all:
        mem.lacks[t][r] = 0
    if sizes[t] == 0:
        _emptied(t, mem, len(hands[t]))
    if hands[p][r] == S:
        _book(p, r, True, hands, sizes, books, mem, S)


def _go_fish(p: int, r: int, hands: list[list[int]], sizes: list[int], stock: list[int], books: list[int],
             mem: Memory, S: int, face_up: bool, watch) -> bool:
    """Seat ``p``'s ask for rank index ``r`` was refused: it draws the next card of the stock
    (``stock`` not empty; its next card **last**). A card of ``r`` is shown and ``p`` keeps the
    turn (``True``); any other is drawn unseen and the turn passes (``False``). Everything is
    changed in place; ``watch`` as in :func:`play_out`."""
    if stock[-1] == r:                 # the rank asked for: shown, the turn is kept
        stock.pop()
        hands[p][r] += 1
        sizes[p] += 1
        mem.lo[p][r] += 1
        if watch is not None:
            watch.shown(p, r)
        if hands[p][r] == S:
            _book(p, r, True, hands, sizes, books, mem, S)
        return True
    _draw_unseen(p, hands, sizes, stock, books, mem, S, face_up)
    if watch is not None:
        watch.draw_unseen(p)
    return False


def play_out(hands: list[list[int]], stock: list[int], books: list[int], mem: Memory, turn: int,
             S: int, rnd: random.Random, first: tuple[int, int] | None = None, give_all: bool = False,
             face_up: bool = False, policy=peer_ask, max_moves: int = 10_000, watch=None) -> list[int]:
    """Play a world to the end of phase 1; return the books per seat.

    Args:
        hands: cards per seat and rank index (changed in place); a complete rank in a hand is
            a dealt book, laid before play.
        stock: the stock as rank indices, the next card drawn **last** (changed in place).
        books: books per seat so far (changed in place).
        mem: the public memory (changed in place).
        turn: the seat on turn.
        S: suits (cards in a book).
        rnd: breaks the policy's ties.
        first: the first ask ``(target, rank index)`` of ``turn`` (the move being judged),
            else the policy's.
        give_all: the ``give: "all"`` option (else one card per hit).
        face_up: the ``books_face_up`` option (a book completed by an unseen draw is then public).
        policy: ``policy(p, hands, sizes, stock_left, mem, S, targets, rnd) -> (target, rank)``.
        max_moves: a guard against a broken policy.
        watch: optional, told what every seat sees happen (for a policy that remembers more
            than the public memory): ``watch.ask(p, t, r, mem, sizes)`` before an ask changes
            the memory, ``watch.draw_unseen(p)`` after a card drawn unseen, and
            ``watch.shown(p, r)`` after a drawn card of the rank asked for.

    Raises:
        RuntimeError: the play-out did not end within ``max_moves`` asks and draws.
    """
    n = len(hands)
    sizes = [sum(h) for h in hands]
    lo, lacks = mem.lo, mem.lacks
    _lay_dealt_books(hands, sizes, books, mem, S)
    p = turn
    for _ in range(max_moves):
        if not stock and not any(sizes):
            return books
        if sizes[p] == 0:
            if not stock:
                p = (p + 1) % n
                continue
            _draw_unseen(p, hands, sizes, stock, books, mem, S, face_up)  # on turn with no cards:
            if watch is not None:                                      # draw, and play on
                watch.draw_unseen(p)
            continue
        targets = [t for t in range(n) if t != p and sizes[t]]
        if not targets:                    # nobody to ask: draw, unseen, the turn passes
            _draw_unseen(p, hands, sizes, stock, books, mem, S, face_up)
            if watch is not None:
                watch.draw_unseen(p)
            p = (p + 1) % n
            continue
        if first is not None:
            t, r = first
            first = None
        else:
            t, r = policy(p, hands, sizes, len(stock), mem, S, targets, rnd)
        if watch is not None:
            watch.ask(p, t, r, mem, sizes)
        lo[p][r] = max(lo[p][r], 1)
        lacks[p][r] = -1
        if hands[t][r]:
            _hit(p, t, r, hands, sizes, books, mem, S, give_all)
            continue                       # a hit keeps the turn
        lo[t][r] = 0
        lacks[t][r] = 0
        if stock and _go_fish(p, r, hands, sizes, stock, books, mem, S, face_up, watch):
            continue
        p = (p + 1) % n
    raise RuntimeError(f"a Go Fish play-out did not end within {max_moves} moves")


def memory_worlds(n: int, own: list[int], sizes: list[int], stock_left: int, mem: Memory, booked: set[int],
                  hidden_books: int, me: int, S: int, rnd: random.Random, tries: int = 50) -> list[dict]:
    """``n`` worlds that fit the public memory, for the look-ahead when the exact tracker
    cannot draw worlds (:meth:`GoFishBelief.sample_hidden` returns ``None``: three or more
    players past its budget). **Approximate**: they respect this seat's hand, the cards each
    seat is known to hold (``lo``), the known absences (``lacks``: at most that many more
    cards of the rank), the hand sizes and the stock's size, and no hand holds a complete
    rank; the rest of the history (which ranks were drawn unseen, and when) is ignored. The
    ranks of the ``hidden_books`` face-down books this seat cannot place are drawn among the
    ranks nobody is known to hold a card of.

    Args:
        n: worlds wanted.
        own: this seat's cards per rank index.
        sizes: cards per seat.
        stock_left: cards in the stock.
        mem: the public memory.
        booked: rank indices of the books whose rank this seat knows.
        hidden_books: face-down books whose rank this seat does not know.
        me: this seat.
        S: suits.
        rnd: the generator.
        tries: attempts per world before giving up on it (a dead end of the random filling).

    Returns:
        Up to ``n`` worlds ``{seat or "stock": [cards per rank index]}`` (fewer when the
        filling keeps failing; empty when the memory allows none).
    """
    R = len(own)
    seats = [s for s in range(len(sizes)) if s != me]
    out: list[dict] = []
    for _ in range(n * tries):
        if len(out) == n:
            break
        unloc = []
        for r in range(R):
            if r in booked:
                unloc.append(0)
                continue
            unloc.append(S - own[r] - sum(mem.lo[s][r] for s in seats))
        free_ranks = [r for r in range(R) if unloc[r] == S]
        if len(free_ranks) < hidden_books:
            return out
        for r in rnd.sample(free_ranks, hidden_books):
            unloc[r] = 0
        cap = {s: max(0, sizes[s] - sum(mem.lo[s])) for s in seats}
        if sum(cap.values()) + stock_left != sum(unloc):
            return out
        world = {s: mem.lo[s][:] for s in seats}
        world["stock"] = [0] * R
        cards = [r for r in range(R) for _ in range(unloc[r])]
        rnd.shuffle(cards)
        left = dict(cap)
        left["stock"] = stock_left
        ok = True
        for r in cards:
            slots, weights = [], []
            for s, k in left.items():
                if k <= 0:
                    continue
                if s != "stock":
                    lk = mem.lacks[s][r]
                    if (0 <= lk <= world[s][r] - mem.lo[s][r]) or world[s][r] + 1 >= S:
                        continue
                slots.append(s)
                weights.append(k)
            if not slots:
                ok = False
                break
            s = rnd.choices(slots, weights)[0]
            world[s][r] += 1
            left[s] -= 1
        if ok:
            out.append(world)
    return out


__all__ = ["Memory", "memory_worlds", "peer_ask", "play_out"]
