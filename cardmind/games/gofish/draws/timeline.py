"""A rank's timeline: the facts of the record about one rank, replayed over every candidate
count of the other seats (see :mod:`cardmind.games.gofish.draws`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from math import factorial
from typing import Any

import numpy as np

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
        holder: dict[str, int] = {c: o for c in t.hand}
        known_books: dict[str, int] = {}
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
        window: _Window | None = None
        wj: int | None = None
        wrank: str | None = None
        refused = None
        opening = True
        for i, ev in enumerate(events):
            kind = ev["type"]
            if kind == "book" and opening:
                s, r = ev["player"], ev["rank"]
                self.opening_books.append((i, s, r))
                if r is not None:
                    known_books[r] = s
                else:
                    nth = sum(1 for _, s2, r2 in self.opening_books[:-1] if s2 == s and r2 is None)
                    self.hidden.append(("open", s, nth))
                self.book_log.append({"maker": s, "rank": r, "owner": s})
                continue
            if opening:
                opening = False
                self.first_play = i
            w, window = window, None
            if w is not None:
                w.close = i
                if kind == "book" and ev["player"] == w.seat:
                    w.book = True
                    s, r = w.seat, ev["rank"]
                    rank = r if r is not None else wrank
                    if rank is not None:
                        known_books[rank] = s
                        if wj is not None:  # a face-up book after an unseen draw: the draw's rank
                            d = self.draws[wj]
                            d.domain = (rank,) if rank in d.domain else ()
                    else:
                        self.hidden.append(("draw", wj))
                        self.draws[wj].hidden = len(self.hidden) - 1
                    self.book_log.append({"maker": s, "rank": rank, "owner": s})
                    continue
            if kind == "ask":
                a, tg, r, given = ev["asker"], ev["target"], ev["rank"], list(ev["given"])
                if a != o:
                    self.ops[r].append((i, _HAS, a))
                if not given:
                    if tg != o:
                        self.ops[r].append((i, _NONE, tg))
                    refused = (a, r)
                    continue
                refused = None
                self.ops[r].append((i, _GIVE, tg, a, len(given)))
                for c in given:
                    h = holder.get(c)
                    if h is None:
                        self.first[r].append((t.kidx[tg], i))
                    elif h != tg:
                        self.contradiction = f"seat {tg} handed over {c}, which seat {h} received earlier"
                    holder[c] = a
                window, wj, wrank = _Window(a), None, r
                if a != o:
                    self.ops[r].append((i, _WIN, a, window))
            elif kind == "draw":
                p, card = ev["player"], ev["card"]
                ref = refused[1] if refused is not None and refused[0] == p else None
                refused = None
                if card is not None:
                    r = card[0]
                    if card in holder:
                        self.contradiction = f"seat {p} drew {card}, which was seen before"
                    holder[card] = p
                    self.kdraws[r].append(i)
                    window, wj, wrank = _Window(p), None, r
                    if p != o:
                        self.ops[r].append((i, _KDRAW, p))
                        self.ops[r].append((i, _WIN, p, window))
                else:
                    window, wj, wrank = _Window(p), len(self.draws), None
                    dom = tuple(q for q in ranks if q != ref and q not in known_books)
                    self.draws.append(_Draw(i, p, t.kidx[p], dom, window))
            elif kind == "assume_lacks":   # an assumption: the seat holds none of the ranks
                if ev["player"] != o:
                    for r in ev["ranks"]:
                        self.ops[r].append((i, _NONE, ev["player"]))
            elif kind == "ask_book":
                a, tg, r, success = ev["asker"], ev["target"], ev["rank"], ev["success"]
                if r in known_books:
                    if success:
                        known_books[r] = a
                        for b in self.book_log:
                            if b["rank"] == r:
                                b["owner"] = a
                else:
                    self.ops[r].append((i, _ASKBOOK, a, tg, success))
                    if success:
                        self.final_owner[r] = a
        self.known_books = known_books
        self._openings: dict = {}

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
