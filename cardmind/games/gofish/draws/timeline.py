"""A rank's timeline: the facts of the record about one rank, replayed over every candidate
count of the other seats (see :mod:`cardmind.games.gofish.draws`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from math import factorial
from typing import Any

import numpy as np

from ..rules import move_known_book

_FACT = np.array([factorial(i) for i in range(21)], dtype=np.int64)

# op codes of a rank's timeline
_HAS, _NONE, _GIVE, _KDRAW, _WIN, _UDRAW, _ASKBOOK = range(7)


@dataclass
class _Window:
    """A gain of cards by ``seat``: the next event may be its book."""
    seat: int
    close: int | None = None  # index of the event after the gain (None: the record ends first)
    book: bool = False        # that event is the gainer's book


@dataclass
class _Draw:
    """A draw the observer did not see."""
    time: int
    seat: int
    k: int
    domain: tuple
    win: _Window
    hidden: int | None = None  # index among face-down books when one followed


@dataclass
class _Opening:
    """The dealt books laid before the cut, as the blocks need them."""
    final: bool
    last: int
    hb: dict                   # seat -> number of face-down dealt books (other seats)
    known: dict                # seat -> ranks of its face-up dealt books (other seats)
    hseats: tuple              # seats with face-down dealt books, in order (counter dims)
    caps: tuple                # counter capacity per hseat
    lows: tuple                # lowest allowed final counter value per hseat
    pos: int | None            # the seat whose laid books are its lowest complete ranks (prefix)

    @property
    def key(self):
        return (self.final, self.hseats, self.caps, self.lows)


@dataclass
class _Reading:
    """Where the one pass over the events is: ``opening`` (dealt books may still be laid),
    ``holder`` (card -> the seat known to hold it), ``known_books`` (rank -> the seat holding
    its book), the gain whose window is open (``window``; ``wj``: its unseen draw's index,
    ``wrank``: the rank gained, when known) and ``refused`` (``(asker, rank)`` of a refusal
    just made, before the asker's draw)."""
    holder: dict
    known_books: dict = field(default_factory=dict)
    opening: bool = True
    window: _Window | None = None
    wj: int | None = None
    wrank: str | None = None
    refused: tuple | None = None


class _Timeline:
    """One pass over the events: each rank's facts in order, the unseen draws, the books."""

    def __init__(self, t: Any, events: list[dict], settled: bool):
        self.t = t
        self.n = len(events)
        self.settled = settled
        o = t.observer
        ranks = t.ranks
        own = Counter(c[0] for c in t.hand)
        self.u0 = {r: t.S - own[r] for r in ranks}
        self.book_log: list[dict] = []
        self.hidden: list[tuple] = []   # per face-down book: ("open", seat, i) or ("draw", j)
        self.ops: dict[str, list] = {r: [] for r in ranks}
        self.first: dict[str, list] = {r: [] for r in ranks}    # (k of the giver, time)
        self.kdraws: dict[str, list] = {r: [] for r in ranks}   # times of draws of r the observer saw
        self.draws: list[_Draw] = []
        self.opening_books: list[tuple] = []                    # (time, seat, rank or None)
        self.first_play: int | None = None
        self.final_owner: dict[str, int] = {}
        self.contradiction: str | None = None
        rd = _Reading({c: o for c in t.hand})
        for i, ev in enumerate(events):
            kind = ev["type"]
            if kind == "book" and rd.opening:
                self._opening_book(i, ev, rd)
                continue
            if rd.opening:
                rd.opening = False
                self.first_play = i
            w, rd.window = rd.window, None
            if w is not None:
                w.close = i
                if kind == "book" and ev["player"] == w.seat:
                    self._book_after_gain(ev, w, rd)
                    continue
            if kind == "ask":
                self._ask(i, ev, rd)
            elif kind == "draw":
                self._draw(i, ev, rd)
            elif kind == "assume_lacks":   # an assumption: the seat holds none of the ranks
                if ev["player"] != o:
                    for r in ev["ranks"]:
                        self.ops[r].append((i, _NONE, ev["player"]))
            elif kind == "ask_book":
                self._ask_book(i, ev, rd)
        self.known_books = rd.known_books
        self._openings: dict = {}

    # ------------------------------------------------------------------ the events
    def _opening_book(self, i: int, ev: dict, rd: _Reading) -> None:
        """A dealt book laid before play (event ``i``): face up, its rank is known; face
        down, it is the seat's next hidden book."""
        s, r = ev["player"], ev["rank"]
        self.opening_books.append((i, s, r))
        if r is not None:
            rd.known_books[r] = s
        else:
            nth = sum(1 for _, s2, r2 in self.opening_books[:-1] if s2 == s and r2 is None)
            self.hidden.append(("open", s, nth))
        self.book_log.append({"maker": s, "rank": r, "owner": s})

    def _book_after_gain(self, ev: dict, w: _Window, rd: _Reading) -> None:
        """The gainer's book right after its gain (window ``w``): of the rank gained or, after
        an unseen draw, of the draw's rank (face up: the draw's rank is known; face down: a
        hidden book of the draw's rank)."""
        w.book = True
        s, r = w.seat, ev["rank"]
        rank = r if r is not None else rd.wrank
        if rank is not None:
            rd.known_books[rank] = s
            if rd.wj is not None:  # a face-up book after an unseen draw: the draw's rank
                d = self.draws[rd.wj]
                d.domain = (rank,) if rank in d.domain else ()
        else:
            self.hidden.append(("draw", rd.wj))
            self.draws[rd.wj].hidden = len(self.hidden) - 1
        self.book_log.append({"maker": s, "rank": rank, "owner": s})

    def _ask(self, i: int, ev: dict, rd: _Reading) -> None:
        """An ask (event ``i``): the asker holds the rank; a refusal (the target holds none,
        the asker's draw follows) or the cards handed over (their first giver, and a gain
        by the asker)."""
        o = self.t.observer
        a, tg, r, given = ev["asker"], ev["target"], ev["rank"], list(ev["given"])
        if a != o:
            self.ops[r].append((i, _HAS, a))
        if not given:
            if tg != o:
                self.ops[r].append((i, _NONE, tg))
            rd.refused = (a, r)
            return
        rd.refused = None
        self.ops[r].append((i, _GIVE, tg, a, len(given)))
        for c in given:
            h = rd.holder.get(c)
            if h is None:
                self.first[r].append((self.t.kidx[tg], i))
            elif h != tg:
                self.contradiction = f"seat {tg} handed over {c}, which seat {h} received earlier"
            rd.holder[c] = a
        rd.window, rd.wj, rd.wrank = _Window(a), None, r
        if a != o:
            self.ops[r].append((i, _WIN, a, rd.window))

    def _draw(self, i: int, ev: dict, rd: _Reading) -> None:
        """A draw (event ``i``): seen, a gain of its rank; unseen, a new unseen draw whose
        rank may be any but the one just refused and those whose books are known."""
        t = self.t
        p, card = ev["player"], ev["card"]
        ref = rd.refused[1] if rd.refused is not None and rd.refused[0] == p else None
        rd.refused = None
        if card is not None:
            r = card[0]
            if card in rd.holder:
                self.contradiction = f"seat {p} drew {card}, which was seen before"
            rd.holder[card] = p
            self.kdraws[r].append(i)
            rd.window, rd.wj, rd.wrank = _Window(p), None, r
            if p != t.observer:
                self.ops[r].append((i, _KDRAW, p))
                self.ops[r].append((i, _WIN, p, rd.window))
        else:
            rd.window, rd.wj, rd.wrank = _Window(p), len(self.draws), None
            dom = tuple(q for q in t.ranks if q != ref and q not in rd.known_books)
            self.draws.append(_Draw(i, p, t.kidx[p], dom, rd.window))

    def _ask_book(self, i: int, ev: dict, rd: _Reading) -> None:
        """A phase-2 ask for a book (event ``i``): of a known book, it moves its owner; of a
        face-down one, a fact of the rank's timeline."""
        a, tg, r, success = ev["asker"], ev["target"], ev["rank"], ev["success"]
        if r in rd.known_books:
            if success:
                move_known_book(rd.known_books, self.book_log, r, a)
        else:
            self.ops[r].append((i, _ASKBOOK, a, tg, success))
            if success:
                self.final_owner[r] = a

    # ------------------------------------------------------------------ per cut
    def outcome(self, w: _Window, cut: int) -> str:
        """``"book"``, ``"nobook"`` or ``"open"`` (a book may still follow) for the record cut
        before event ``cut``."""
        if w.close is not None and w.close < cut:
            return "book" if w.book else "nobook"
        if cut >= self.n and self.settled:
            return "nobook"
        return "open"

    def opening(self, cut: int) -> _Opening:
        got = self._openings.get(cut)
        if got is None:
            got = self._openings[cut] = self._opening(cut)
        return got

    def _opening(self, cut: int) -> _Opening:
        t = self.t
        final = self.first_play is not None and self.first_play < cut
        books = [(s, r) for i, s, r in self.opening_books if i < cut]
        last = max((s for s, _ in books), default=-1)
        hb: Counter = Counter()
        known: dict[int, list] = {}
        for s, r in books:
            if s == t.observer:
                continue
            if r is None:
                hb[s] += 1
            else:
                known.setdefault(s, []).append(r)
        hseats = tuple(s for s in t.others if hb[s])
        pos = None
        caps, lows = [], []
        cmax = t.options["hand"] // t.S
        for s in hseats:
            if not final and s == last:
                pos = s
                caps.append(max(cmax, hb[s]))
            else:
                caps.append(hb[s])
            lows.append(hb[s])
        return _Opening(final, last, dict(hb), known, hseats, tuple(caps), tuple(lows), pos)

    @cached_property
    def by_seat(self) -> dict[int, list[int]]:
        """The indices of the unseen draws (``draws``) per seat that drew them, in order."""
        out: dict[int, list[int]] = {}
        for j, d in enumerate(self.draws):
            out.setdefault(d.seat, []).append(j)
        return out

    def cut_after(self, j: int) -> int:
        """The cut for a partial delta of draws ``0..j``: before the next unseen draw."""
        return self.draws[j + 1].time if j + 1 < len(self.draws) else self.n
