"""Drawing complete Go Fish deals that one seat cannot tell from what it saw: the
resampler of the adapters' codec (:meth:`~.codec.GoFishCodec.resample`, used by the
``openspiel-ismcts`` player). Consistent with the seat's view, but **not uniform**: see
:class:`GoFishResampler`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import IllegalAction
from .notation import Ask, AskBook, Give, LayBooks

if TYPE_CHECKING:
    from .codec import GoFishCodec

class _Dead(Exception):
    """This sampling attempt reached a contradiction (start again)."""


class _Unit:
    """One card whose place in the deal is known (a dealt slot or a stock position) but whose
    rank or identity the sampler may not have fixed yet."""

    __slots__ = ("origin", "rank", "card", "forbid", "caps", "since", "fixed_at")

    def __init__(self, origin: tuple, card: str | None = None):
        self.origin = origin
        self.card = card
        self.rank = None if card is None else card[0]
        self.forbid: set[str] = set()
        #: ``[rank, cap, count]`` limits shared with other units: at most ``cap`` of them may be ``rank``
        self.caps: list[list] = []
        #: log index since which its holder has held it; when its rank was fixed because its
        #: holder asked for that rank (``None`` otherwise)
        self.since = -1
        self.fixed_at: int | None = None


class GoFishResampler:
    """Draws complete Go Fish deals (hands and stock order) consistent with one seat's view.

    **Not uniform.** It walks the seat's log once, keeping every card it cannot place as a
    *unit* (a dealt slot of a seat, or the stock position a draw took) and fixing a unit's
    rank only when an event needs it: an asker holds the rank (a random unit of the asker is
    made that rank), a refusal forbids the rank to every unit the target holds, a card handed
    over becomes one of the target's units of its rank, a face-down book takes a random rank
    the maker can complete (not one seen in play later), an unseen draw after a refused ask is
    not that rank, and a seat that gains cards without laying a book (or starts play) is kept
    from holding a whole rank. The units left get random ranks (a matching of units to the cards left of each
    rank, most constrained units first),
    identities are shuffled within ranks, and the deal is **checked by replaying** every
    action of the log on it: it is kept only when the seat would have seen exactly the same
    events (this also enforces what the walk does not, such as books that must be laid at
    once). Choices are random but not weighted by how many deals follow from them, so some
    consistent deals are more likely than others; ``cardmind.games.gofish.belief.GoFishBelief``
    counts them exactly but cannot sample deals yet.

    Raises:
        RuntimeError: (from :meth:`sample`) no consistent deal found in ``attempts`` tries.
    """

    def __init__(self, codec: "GoFishCodec", attempts: int = 400):
        self.codec = codec
        self.attempts = attempts
        self.S = codec.S

    # ------------------------------------------------------------------ public
    def sample(self, world, seat: int, rng: np.random.Generator):
        """A complete :class:`~cardmind.adapters.world.World` that ``seat`` cannot tell from
        ``world`` (the decisions of its log replayed on a sampled deal)."""
        log = self.seat_log(world, seat)
        hand = world.dealt_hand(seat)
        decisions = self.decisions(log)
        target_events = [e for k, e in log if k == "event"]
        pending = world.state.pending
        # who decides now is public; while dealt books are being laid, the seats before the
        # one laying have none left, and once play has started nobody has one
        mover = world.current_player()
        laying = None
        if mover >= 0 and world.state.opening:
            try:
                if 0 in self.codec.legal_ids(world.state, mover):
                    laying = mover
            except ValueError:       # a view cannot list another seat's actions
                laying = mover
        last = "no attempt"
        for _ in range(self.attempts):
            try:
                header = self._attempt(log, seat, hand, rng, laying)
            except _Dead as exc:
                last = str(exc)
                continue
            w = self._replay(world, header, decisions)
            if w is None:
                last = "replay failed"
                continue
            got = [w.state.redact(e, seat) for k, e in w.log if k == "event"]
            if got == target_events and w.state.pending == pending and w.current_player() == mover:
                return w
            last = "replay differs"
        raise RuntimeError(f"gofish resampler: no consistent deal in {self.attempts} attempts ({last})")

    def seat_log(self, world, seat: int) -> list[tuple]:
        """``world``'s log as ``seat`` saw it (events redacted)."""
        st = world.state
        return [(k, st.redact(e, seat)) if k == "event" else (k, e) for k, e in world.log]

    def decisions(self, log: list[tuple]) -> list[tuple[int, Any]]:
        """The actions behind a log's events: ``(seat, action)``; draws and books during play
        are forced, so they are not actions."""
        out: list[tuple[int, Any]] = []
        opening = True
        laid: set[int] = set()
        give_one = self.codec.options["give"] == "one"
        pending = None
        for kind, e in log:
            if kind == "notice":
                out.append((e["asker"], Ask(e["asker"], e["target"], e["rank"])))
                pending = (e["asker"], e["target"], e["rank"])
                continue
            if kind != "event":
                continue
            t = e["type"]
            if t == "book":
                if opening and e["player"] not in laid:
                    laid.add(e["player"])
                    out.append((e["player"], LayBooks(e["player"])))
                continue
            opening = False
            if t == "ask":
                key = (e["asker"], e["target"], e["rank"])
                if pending != key:
                    out.append((e["asker"], Ask(*key)))
                pending = None
                if give_one and e["given"]:
                    out.append((e["target"], Give(e["target"], e["given"][0])))
            elif t == "ask_book":
                out.append((e["asker"], AskBook(e["asker"], e["target"], e["rank"])))
        return out

    # ------------------------------------------------------------------ one attempt
    def _attempt(self, log: list[tuple], seat: int, hand: list[str], rng: np.random.Generator,
                 laying: int | None = None) -> dict:
        """One try at a deal consistent with ``seat``'s log (see the class docstring).

        Args:
            log: ``seat``'s log, ``(kind, entry)`` with events redacted (:meth:`seat_log`).
            seat: the seat whose view the deal must fit.
            hand: the cards dealt to ``seat``, in dealt order.
            rng: the source of every random choice.
            laying: the seat laying its dealt books now, when the log ends before play starts
                (``None``: nobody, or play has started).

        Returns:
            The header ``{"hands": [[card, ...] per seat], "stock": [card, ...]}``, the
            stock in the order it is drawn.

        Raises:
            _Dead: this attempt reached a contradiction.
        """
        walk = _Walk(self.codec, seat, hand, rng)
        later = _ranks_in_play_later(log)
        for i, (kind, e) in enumerate(log):
            if kind == "event":
                walk.see(log, i, e, later[i])
        if walk.opening:            # the log ends before play starts
            walk.opening_over(laying)
        walk.rank_the_rest()
        return walk.header()

    def _replay(self, world, header: dict, decisions: list[tuple[int, Any]]):
        from ...adapters.world import World  # noqa: PLC0415

        codec = self.codec
        w = World(codec, 10 ** 9, world.truncation)
        index = codec.deck_index()
        try:
            for c in codec.order_from_header(header):
                w.apply_chance(index[c])
            for seat, action in decisions:
                if w.current_player() != seat:
                    return None
                w.apply(codec.encode(action))
        except (IllegalAction, ValueError, KeyError):
            return None
        w.react = list(world.react)
        w.moves = world.moves
        w.max_moves = world.max_moves
        w.truncated = world.truncated
        w._current = None
        return w


def _ranks_in_play_later(log: list[tuple]) -> list[set[str]]:
    """Per entry of ``log``, the ranks certainly still in play after it: cards shown later,
    ranks asked for later (the asker holds one), books of known rank laid later. A book laid
    at that entry cannot be of these ranks."""
    later: list[set[str]] = [set() for _ in log]
    acc: set[str] = set()
    for i in range(len(log) - 1, -1, -1):
        later[i] = set(acc)
        kind, e = log[i]
        if kind == "notice":
            acc.add(e["rank"])
        elif kind == "event":
            t = e["type"]
            if t == "ask":
                acc.add(e["rank"])
            elif t == "draw" and e["card"] is not None:
                acc.add(e["card"][0])
            elif t == "book" and e["rank"] is not None:
                acc.add(e["rank"])
    return later


def _book_follows(log: list[tuple], i: int, s: int) -> bool:
    """Whether the next event after log entry ``i`` is a book laid by seat ``s``."""
    for kind, e in log[i + 1:]:
        if kind == "event":
            return e["type"] == "book" and e["player"] == s
    return False


class _Walk:
    """The working state of one attempt of :class:`GoFishResampler`: the units each seat
    holds, walked through the seat's log event by event, ranks fixed only when an event needs
    them. Every random choice is drawn from ``rng``; a contradiction raises :class:`_Dead`."""

    def __init__(self, codec: "GoFishCodec", seat: int, hand: list[str], rng: np.random.Generator):
        """Deal the units: ``codec.options["hand"]`` slots per seat, ``seat``'s own ones
        known (``hand``, in dealt order), the others' unknown."""
        self.codec, self.S, self.P, self.seat, self.rng = codec, codec.S, codec.P, seat, rng
        h = codec.options["hand"]
        #: per seat, the units it holds now
        self.held: list[list[_Unit]] = [[] for _ in range(self.P)]
        #: every unit: dealt slots, then the stock positions drawn, in order
        self.units: list[_Unit] = []
        #: per rank, the units whose rank is fixed
        self.fixed = {r: 0 for r in codec.ranks}
        #: the card identities placed
        self.used: set[str] = set()
        for s in range(self.P):
            for i in range(h):
                u = _Unit(("deal", s, i), hand[i] if s == seat else None)
                self.held[s].append(u)
                self.units.append(u)
                if u.card is not None:
                    self.fixed[u.rank] += 1
                    self.used.add(u.card)
        #: sampled rank -> the seat holding its book; per seat, the ranks of the books it laid
        self.book_rank: dict[str, int] = {}
        self.books_of: list[list[str]] = [[] for _ in range(self.P)]
        self.draws = 0                  # cards drawn from the stock so far
        self.opening = True             # dealt books are still being laid
        #: ``(asker, rank)`` of an ask refused just now
        self.refused: tuple[int, str] | None = None
        #: ``(seat, rank or None, unit drawn or None)``: who just gained cards, of what rank
        self.gained: tuple[int, str | None, _Unit | None] | None = None
        self.now = -1                   # the log index being walked
        self.later: set[str] = set()    # ranks still in play after it (no book of them now)

    # ---------------------------------------------------------------- ranks of units
    def fix(self, u: _Unit, r: str) -> None:
        """Make unit ``u`` a card of rank ``r`` (nothing when it is one already)."""
        if u.rank == r:
            return
        if u.rank is not None or r in u.forbid or self.fixed[r] >= self.S:
            raise _Dead(f"cannot make a card of {u.origin} a {r}")
        for c in u.caps:
            if c[0] == r:
                if c[2] >= c[1]:
                    raise _Dead(f"a seat would have held every {r} without laying the book")
                c[2] += 1
        u.rank = r
        self.fixed[r] += 1

    def unfix(self, u: _Unit) -> None:
        """Make unit ``u``'s rank unknown again."""
        for c in u.caps:
            if c[0] == u.rank:
                c[2] -= 1
        self.fixed[u.rank] -= 1
        u.rank = None
        u.fixed_at = None

    def repair(self, s: int, r: str, missing: int) -> None:
        """Free up to ``missing`` more units of seat ``s`` for rank ``r``: a unit given another
        rank only because ``s`` asked for it passes that rank to a unit that was already
        there then and cannot be ``r``."""
        held = self.held[s]
        for v in [u for u in held if u.card is None and u.fixed_at is not None and u.rank != r
                  and r not in u.forbid]:
            if missing <= 0:
                return
            q, t = v.rank, v.fixed_at
            ws = [w for w in held if w.rank is None and q not in w.forbid and w.since <= t]
            ws.sort(key=lambda w: r not in w.forbid)      # units that cannot be r first
            for w in ws:
                self.unfix(v)
                try:
                    self.fix(w, q)
                except _Dead:
                    self.fix(v, q)
                    v.fixed_at = t
                    continue
                w.fixed_at = t
                missing -= 1
                break

    def pick(self, s: int, r: str, avoid_identity: bool = True) -> _Unit:
        """A unit of seat ``s`` that is (or is made) rank ``r``: fixed ones first (without a
        known card when ``avoid_identity``), else a random free one, weighted towards those
        with the most ranks ruled out. ``avoid_identity=False`` (the seat asks for ``r``)
        records the log index it was fixed at."""
        rng, held = self.rng, self.held[s]
        same = [u for u in held if u.rank == r and (u.card is None or not avoid_identity)]
        if same:
            return same[int(rng.integers(len(same)))]
        free = [u for u in held if u.rank is None and r not in u.forbid]
        if not free:
            self.repair(s, r, 1)
            free = [u for u in held if u.rank is None and r not in u.forbid]
        if not free or self.fixed[r] >= self.S:
            raise _Dead(f"seat {s} cannot hold a {r}")
        # prefer the cards with the most ranks ruled out: keep the flexible ones for later
        w = np.array([4.0 ** len(u.forbid) for u in free])
        u = free[int(rng.choice(len(free), p=w / w.sum()))]
        self.fix(u, r)
        if not avoid_identity:
            u.fixed_at = self.now
        return u

    # ---------------------------------------------------------------- books
    def book_rank_choice(self, s: int, must: _Unit | None) -> str:
        """A random rank for a face-down book of seat ``s``: one no other seat holds, not in
        play later, that ``s`` can complete (with unit ``must`` in it, when given)."""
        held, S = self.held, self.S
        cands = []
        for q in self.codec.ranks:
            if q in self.book_rank or q in self.later:
                continue
            if must is not None and (must.rank not in (None, q) or q in must.forbid):
                continue
            have = [u for u in held[s] if u.rank == q]
            if any(u.rank == q for t in range(self.P) if t != s for u in held[t]):
                continue
            free = [u for u in held[s] if u.rank is None and q not in u.forbid]
            need = S - len(have)
            if need <= len(free) and self.fixed[q] + need <= S:
                cands.append(q)
        if not cands:
            raise _Dead(f"seat {s} cannot have completed any book")
        return cands[int(self.rng.integers(len(cands)))]

    def lay(self, s: int, r: str | None, must: _Unit | None = None) -> None:
        """Seat ``s`` lays the book of rank ``r`` (``None``: face down, a rank drawn by
        :meth:`book_rank_choice`), with unit ``must`` in it when given; the units completing
        it are drawn at random among ``s``'s free ones."""
        if r is None:
            r = self.book_rank_choice(s, must)
        if r in self.book_rank:
            raise _Dead(f"book {r} laid twice")
        if must is not None:
            self.fix(must, r)
        held, S = self.held[s], self.S
        have = [u for u in held if u.rank == r]
        if len(have) > S:
            raise _Dead("too many cards of a rank")
        free = [u for u in held if u.rank is None and r not in u.forbid]
        need = S - len(have)
        if need > len(free):
            self.repair(s, r, need - len(free))
            free = [u for u in held if u.rank is None and r not in u.forbid]
        if need > len(free):
            raise _Dead(f"seat {s} cannot complete {r}")
        w = np.array([4.0 ** len(u.forbid) for u in free])
        order = self.rng.choice(len(free), size=need, replace=False, p=w / w.sum()) if need else []
        for k in order:
            self.fix(free[k], r)
            have.append(free[k])
        for u in have:
            held.remove(u)
        self.book_rank[r] = s
        self.books_of[s].append(r)

    def no_complete(self, s: int, q: str) -> None:
        """Seat ``s`` did not lay a book: it does not hold every card of rank ``q`` (a limit
        on how many of its unfixed units may turn out to be ``q``, checked whenever one is
        fixed)."""
        held, S = self.held[s], self.S
        f = sum(1 for u in held if u.rank == q)
        if f >= S:
            raise _Dead(f"seat {s} holds every {q} but laid no book")
        capable = [u for u in held if u.rank is None and q not in u.forbid]
        if len(capable) > S - 1 - f:
            if S - 1 - f == 0:
                for u in capable:
                    u.forbid.add(q)
                return
            cap = [q, S - 1 - f, 0]
            for u in capable:
                u.caps.append(cap)

    def no_complete_rank(self, s: int) -> None:
        """Seat ``s`` holds no complete rank whose book is not laid yet."""
        for q in self.codec.ranks:
            if q not in self.book_rank:
                self.no_complete(s, q)

    def opening_over(self, laying: int | None = None) -> None:
        """The dealt books are laid: nobody but the seat itself holds a complete rank it did
        not lay; with ``laying`` (a seat laying its dealt books now), only the seats before
        it."""
        for t in range(self.P if laying is None else laying):
            if t != self.seat:
                self.no_complete_rank(t)

    # ---------------------------------------------------------------- the events
    def see(self, log: list[tuple], i: int, e: dict, later: set[str]) -> None:
        """Walk event ``e``, entry ``i`` of ``log``; ``later``: the ranks still in play after
        it (:func:`_ranks_in_play_later`)."""
        self.now = i
        self.later = later
        t = e["type"]
        if t == "book":
            self.book(e)
            return
        if self.opening:
            self.opening = False
            self.opening_over()
        self.gained = None
        after_refusal, self.refused = self.refused, None
        if t == "ask":
            self.ask(log, i, e)
        elif t == "draw":
            self.draw(log, i, e, after_refusal)
        elif t == "ask_book":
            self.ask_book(e)

    def book(self, e: dict) -> None:
        """A ``book`` event: a dealt book, or one completed by what its maker just gained."""
        s, r = e["player"], e["rank"]
        if self.opening:
            self.lay(s, r)
        else:
            must = None
            gained = self.gained
            if gained is not None and gained[0] == s:
                # the book is of the rank just gained; after a draw, the card drawn completes it
                r = r if r is not None else gained[1]
                must = gained[2]
            self.lay(s, r, must)
        self.gained = None

    def ask(self, log: list[tuple], i: int, e: dict) -> None:
        """An ``ask`` event (entry ``i`` of ``log``): the asker holds the rank; a refusal
        rules it out of the target's units, a hit moves the cards handed over."""
        a, tg, r, given = e["asker"], e["target"], e["rank"], e["given"]
        held = self.held
        if a != self.seat:
            self.pick(a, r, avoid_identity=False)
        if not given:
            for u in held[tg]:
                if u.rank == r:
                    raise _Dead(f"seat {tg} refused {r} but holds one")
                if u.rank is None:
                    u.forbid.add(r)
            self.refused = (a, r)
            return
        for c in given:
            u = next((x for x in held[tg] if x.card == c), None)
            if u is None:
                if c in self.used:
                    raise _Dead(f"{c} is elsewhere")
                u = self.pick(tg, r)
                u.card = c
                self.used.add(c)
            held[tg].remove(u)
            held[a].append(u)
            u.since = i
        if self.codec.options["give"] == "all":
            for u in held[tg]:
                if u.rank == r:
                    raise _Dead(f"seat {tg} kept a {r}")
                if u.rank is None:
                    u.forbid.add(r)
        self.gained = (a, r, None)
        if not _book_follows(log, i, a):
            self.no_complete(a, r)

    def draw(self, log: list[tuple], i: int, e: dict, after_refusal: tuple[int, str] | None) -> None:
        """A ``draw`` event (entry ``i`` of ``log``): the next stock position becomes a unit
        of the drawer; an unseen card drawn after the drawer's refused ask ``after_refusal``
        (``(asker, rank)``) is not of that rank."""
        d, c = e["player"], e["card"]
        u = _Unit(("draw", self.draws), c)
        u.since = i
        self.draws += 1
        self.units.append(u)
        if c is not None:
            if c in self.used:
                raise _Dead(f"{c} drawn twice")
            self.used.add(c)
            if self.fixed[u.rank] >= self.S:
                raise _Dead(f"too many {u.rank}")
            self.fixed[u.rank] += 1
        elif after_refusal is not None and after_refusal[0] == d:
            u.forbid.add(after_refusal[1])
        self.held[d].append(u)
        self.gained = (d, None if c is None else c[0], u)
        if not _book_follows(log, i, d):
            if c is not None:
                self.no_complete(d, c[0])
            else:       # the unseen card completes no rank of the drawer's
                self.no_complete_rank(d)

    def ask_book(self, e: dict) -> None:
        """An ``ask_book`` event (phase 2): a hit moves the book of the rank to the asker."""
        a, tg, r, ok = e["asker"], e["target"], e["rank"], e["success"]
        if ok:
            if self.book_rank.get(r) != tg:
                raise _Dead(f"seat {tg} holds no book of {r} here")
            self.book_rank[r] = a
        elif self.book_rank.get(r) == tg:
            raise _Dead(f"seat {tg} holds the book of {r} here")

    # ---------------------------------------------------------------- the deal
    def rank_the_rest(self) -> None:
        """Ranks for the units left: a matching of units to the cards of each rank left
        (augmenting paths, so it finds one whenever one exists), most constrained units
        first, in random order."""
        codec, S, fixed, rng = self.codec, self.S, self.fixed, self.rng
        left = {r: S - fixed[r] for r in codec.ranks}
        free_units = [u for u in self.units if u.rank is None]
        rng.shuffle(free_units)
        free_units.sort(key=lambda u: len(u.forbid), reverse=True)
        at: dict[str, list[_Unit]] = {r: [] for r in codec.ranks}
        ranks = list(codec.ranks)

        def augment(u: _Unit, seen: set[str]) -> bool:
            opts = [r for r in ranks if r not in u.forbid and r not in seen and S - fixed[r] > 0]
            rng.shuffle(opts)
            opts.sort(key=lambda r: len(at[r]) >= left[r])       # ranks with room first
            for r in opts:
                seen.add(r)
                if len(at[r]) < left[r]:
                    at[r].append(u)
                    return True
                for v in list(at[r]):
                    if augment(v, seen):
                        at[r].remove(v)
                        at[r].append(u)
                        return True
            return False

        for u in free_units:
            if not augment(u, set()):
                raise _Dead("no rank left for a card")
        for r, us in at.items():
            for u in us:
                u.rank = r

    def header(self) -> dict:
        """The deal, once every unit has a rank: the unplaced cards of each rank shuffled
        among its units and the rest of the stock; ``{"hands": [[card, ...] per seat],
        "stock": [card, ...]}``, the stock in the order it is drawn."""
        codec, rng, units = self.codec, self.rng, self.units
        stock_rest: list[str] = []
        for r in codec.ranks:
            free_cards = [c for c in codec.cards if c[0] == r and c not in self.used]
            rng.shuffle(free_cards)
            need = [u for u in units if u.rank == r and u.card is None]
            if len(free_cards) < len(need):
                raise _Dead("identities do not add up")
            for u, c in zip(need, free_cards):
                u.card = c
            stock_rest += free_cards[len(need):]
        rng.shuffle(stock_rest)
        hands = [[""] * codec.options["hand"] for _ in range(self.P)]
        drawn: dict[int, str] = {}
        for u in units:
            if u.origin[0] == "deal":
                hands[u.origin[1]][u.origin[2]] = u.card
            else:
                drawn[u.origin[1]] = u.card
        stock = [drawn[k] for k in range(self.draws)] + stock_rest
        return {"hands": hands, "stock": stock}


__all__ = ["GoFishResampler"]
