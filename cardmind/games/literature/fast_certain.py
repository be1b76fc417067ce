"""Every seat's certain knowledge at once: :class:`~cardmind.games.literature.certain.CertainKnowledge`
for all observers, side by side in the lanes of wide integers (for :mod:`.fast`).

``CertainKnowledge`` keeps, for one observer, bitmasks: per card the seats that may hold
it, per seat the cards it may hold and the cards located at it, per seat its "holds at
least one of" clauses. Here the same masks of *every* observer share one Python integer:
observer ``o`` owns bits ``64*o .. 64*o+63`` (a lane), so one ``&`` or ``|`` updates all
observers. The events of the game are public and alike for every observer; only what each
observer can deduce differs, so the common steps (a miss clears a card from two seats, a
hit moves it, the clause an ask adds, the hand-size tests) run once for all lanes with
SWAR arithmetic, and only the deductions that fire are applied lane by lane.

The rules, their order within an event and the clause bookkeeping are those of
``CertainKnowledge`` (see its module): a clause is narrowed to the cards its seat may hold
(and stays narrowed), dropped when satisfied, locates its card when one is left, is
forgotten when its seat gives one of its cards away, and an ask adds no clause that one of
the seat's clauses already implies. The fixpoint reached after every event is the same for
every observer (``tests/test_fast_literature.py`` compares every observer's possible holders
after every event with ``CertainKnowledge``).

Lane arithmetic (values use at most 54 bits of a 64-bit lane):

* ``nz(x)``: one bit (at ``64*o``) per lane where ``x`` is not zero: ``(x + FILL) >> 54 & ONES``;
* ``wide(u)``: the 54-bit lane mask of those lanes: ``u * M54``;
* a lane holds a single bit when it is not zero and ``x & (x - nz(x))`` is zero there;
* the hand-size rules ask whether the cards located at seat ``s`` number its hand size,
  or whether the cards it may hold do. Every deduction is true (the events are legal), so
  the located cards are part of its real hand and its real hand is part of the cards it
  may hold; either count equals the hand size exactly when that mask *is* its real hand.
  The referee knows the real hands, so both tests are one comparison for all lanes
  (``real_hands=False`` counts bits per lane instead, as ``CertainKnowledge`` does).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from .certain import deck_tables
from .rules import deal_sizes

W = 64  # lane width
M54 = (1 << 54) - 1


def _rep(unit: int, lanes: int) -> int:
    return sum(unit << (W * o) for o in range(lanes))


@lru_cache(maxsize=None)
def _constants(n: int, deck: str, own: bool) -> tuple:
    """Lane constants for ``n`` observers: ``ONES`` (bit ``64*o`` of every lane), ``FILL``
    (54 ones per lane), the popcount masks, every seat but the observer in every lane,
    and per card / per card's clause / per seat their masks in every lane."""
    _, _, set_of, _ = deck_tables(deck)
    ones = _rep(1, n)
    others = sum((((1 << n) - 1) & ~(1 << o)) << (W * o) for o in range(n))
    card_rep = tuple((1 << i) * ones for i in range(len(set_of)))
    oth_rep = tuple((set_of[i] if own else set_of[i] & ~(1 << i)) * ones for i in range(len(set_of)))
    seat_rep = tuple((1 << x) * ones for x in range(n))
    return (ones, _rep(M54, n), _rep(0x5555555555555555, n), _rep(0x3333333333333333, n),
            _rep(0x0F0F0F0F0F0F0F0F, n), _rep(0xFF, n), others, card_rep, oth_rep, seat_rep)


class LaneKnowledge:
    """The certain knowledge of every seat of one game.

    Args:
        options: parsed Literature options.
        hands: every seat's dealt cards.
        real_hands: test the hand-size rules against the real hands (kept up to date from
            the events), else by counting (same results for legal games; slower).
    """

    def __init__(self, options, hands: Sequence[Iterable[str]], real_hands: bool = True):
        players = options["players"]
        self.players = n = players
        self.own = bool(options["ask_own_card"])
        cards, index, set_of, set_masks = deck_tables(options["deck"])
        self.index = index
        self.set_of = set_of
        self.set_masks = set_masks
        self.sizes = list(deal_sizes(players, options["deck"]))
        ncards = len(cards)
        (self.ONES, self.FILL, self.B55, self.B33, self.B0F, self.BFF, others, self.card_rep, self.oth_rep,
         self.seat_rep) = _constants(n, options["deck"], self.own)
        ones = self.ONES
        hand_masks = []
        # per card: lane o = the seats that may hold it in observer o's view: the observer
        # for its own cards, every other seat for the rest
        poss = [others] * ncards
        for o, h in enumerate(hands):
            m = 0
            sh = W * o
            keep = ~(0xFF << sh)
            mine = 1 << (sh + o)
            for c in h:
                i = index[c]
                m |= 1 << i
                poss[i] = poss[i] & keep | mine
            hand_masks.append(m)
        # per seat: lane o = the cards it may hold / that are located at it
        rest = sum((((1 << ncards) - 1) & ~hm) << (W * o) for o, hm in enumerate(hand_masks))
        may = [rest & ~(M54 << (W * s)) | hand_masks[s] << (W * s) for s in range(n)]
        at = [hand_masks[s] << (W * s) for s in range(n)]
        self.poss = poss
        self.may = may
        self.at = at
        #: shifts that fold every lane onto lane 0 (OR of the lanes' cards)
        self.folds = tuple(W * k for k in (4, 2, 1) if k < n)
        #: per seat: its real hand in every lane (None: count instead)
        self.real = [m * ones for m in hand_masks] if real_hands else None
        self.clauses: list[list[int]] = [[] for _ in range(n)]  # per seat: lane-wide clause masks
        self.cu = [0] * n  # per seat: union of its clause masks
        self.chg = [self.FILL] * n  # per seat: cards changed since its clauses were examined
        self.dirty = [ones] * n  # per seat: lanes whose rules must be re-examined
        self._propagate((1 << n) - 1)

    # ------------------------------------------------------------------ helpers
    def _nz(self, x: int) -> int:
        return (x + self.FILL) >> 54 & self.ONES

    def _counts(self, x: int) -> int:
        """Per lane, the number of set bits (in the lane's low byte)."""
        x -= x >> 1 & self.B55
        x = (x & self.B33) + (x >> 2 & self.B33)
        x = (x + (x >> 4)) & self.B0F
        x += x >> 8
        x += x >> 16
        x += x >> 32
        return x & self.BFF

    # ------------------------------------------------------------------ queries
    def possible(self, observer: int, i: int) -> int:
        """Seat mask of the possible holders of card number ``i`` in ``observer``'s view."""
        return self.poss[i] >> (W * observer) & 0xFF

    def located(self, observer: int, i: int) -> int | None:
        """The seat certainly holding card ``i`` in ``observer``'s view, or ``None``."""
        p = self.poss[i] >> (W * observer) & 0xFF
        if p and not p & (p - 1):
            return p.bit_length() - 1
        return None

    def certain_set(self, observer: int, team: int, candidates: int = -1) -> int | None:
        """``CertainKnowledge.certain_set`` for ``observer``, looking only at the sets in
        ``candidates`` (bit ``k`` = set ``k``; default all)."""
        held = 0
        sh = W * observer
        at = self.at
        for s in range(team, self.players, 2):
            held |= at[s] >> sh
        held &= M54
        if not held:
            return None
        for k, m in enumerate(self.set_masks):
            if candidates >> k & 1 and held & m == m:
                return k
        return None

    # ------------------------------------------------------------------ events
    def ask(self, a: int, t: int, i: int, success: bool) -> None:
        """Every observer sees seat ``a`` ask seat ``t`` for card number ``i`` (deck order);
        ``success``: ``t`` held it and gave it to ``a`` (:meth:`_card_handed_over`). The miss,
        the common case, is kept here (a call per ask costs measurable speed)."""
        ones, fill = self.ONES, self.FILL
        oth = self.oth_rep[i]  # the clause's cards in every lane
        may, at, chg, dirty, poss = self.may, self.at, self.chg, self.dirty, self.poss
        # the clause "a holds one of others", in the lanes that do not see a holding one
        need = ones & ~((at[a] & oth) + fill >> 54)
        seats = 0  # seats with dirty lanes
        if need:
            cl = self.clauses[a]
            for e in cl:
                # lanes where an existing clause lies inside the new one
                need &= ~(((e + fill) >> 54) & ~(((e & ~oth) + fill) >> 54))
                if not need:
                    break
            if need:
                e = oth & (need * M54)
                cl.append(e)
                self.cu[a] |= e
                chg[a] |= e
                dirty[a] |= need
                seats = 1 << a
        if success:
            seats |= self._card_handed_over(a, t, i)
        else:
            # a miss: neither t nor (unless ask_own_card) a holds the card
            rm = self.seat_rep[t] if self.own else self.seat_rep[a] | self.seat_rep[t]
            old = poss[i]
            gone = old & rm
            if gone:
                p = old ^ gone
                poss[i] = p
                real = self.real
                for x in (a, t):
                    lx = gone >> x & ones
                    if lx:
                        b = lx << i
                        nb = ~b
                        m = may[x] = may[x] & nb
                        at[x] &= nb
                        # x's clauses change only if one names the card; of its hand-size
                        # rules only "its possible cards are its hand" can newly hold
                        if real is None or self.cu[x] & b or lx & ~(((m ^ real[x]) + fill) >> 54):
                            chg[x] |= b
                            dirty[x] |= lx
                            seats |= 1 << x
                # lanes where the card now has a single possible holder: located there
                nz = (p + fill) >> 54 & ones
                single = nz & ~(((p & (p - nz)) + fill) >> 54) & (gone >> a | gone >> t) & ones
                while single:
                    low = single & -single
                    single ^= low
                    sh = low.bit_length() - 1
                    x = (p >> sh & 0xFF).bit_length() - 1
                    at[x] |= low << i
                    chg[x] |= low << i
                    dirty[x] |= low
                    seats |= 1 << x
        if seats:
            self._propagate(seats)

    def _card_handed_over(self, a: int, t: int, i: int) -> int:
        """A hit: card ``i`` moves from ``t`` to ``a`` in every lane; ``t`` forgets its
        clauses that named it. Returns the seat mask of the seats with dirty lanes."""
        ones, fill = self.ONES, self.FILL
        may, at, chg, dirty, poss = self.may, self.at, self.chg, self.dirty, self.poss
        bits = self.card_rep[i]  # card i in every lane
        seats = 0
        if self.cu[t] & bits:
            kept = []
            cu = 0
            for e in self.clauses[t]:
                e &= ~((e >> i & ones) * M54)
                if e:
                    kept.append(e)
                    cu |= e
            self.clauses[t] = kept
            self.cu[t] = cu
        old = poss[i]
        real = self.real
        cus = self.cu
        for x in range(self.players):
            if x != a:
                lx = old >> x & ones
                if lx:
                    b = lx << i
                    nb = ~b
                    m = may[x] = may[x] & nb
                    at[x] &= nb
                    # the target's hand shrank: all its rules; another seat that could
                    # have held the card: its clauses that name it, and "its possible
                    # cards are its hand" (its other rules' premises did not change)
                    if real is None or x == t or cus[x] & b or lx & ~(((m ^ real[x]) + fill) >> 54):
                        chg[x] |= b
                        dirty[x] |= lx
                        seats |= 1 << x
        poss[i] = self.seat_rep[a]
        may[a] |= bits
        at[a] |= bits
        chg[a] |= bits
        dirty[a] = ones
        dirty[t] = ones
        seats |= (1 << a) | (1 << t)
        self.sizes[t] -= 1
        self.sizes[a] += 1
        if real is not None:
            real[t] &= ~bits
            real[a] |= bits
        return seats

    def claim(self, actual: dict[int, int]) -> None:
        """Every observer sees a claim shown at ``actual`` (``{card number: seat}``)."""
        gone = 0
        for i, s in actual.items():
            self.sizes[s] -= 1
            gone |= 1 << i
            self.poss[i] = 0
        keep = ~(gone * self.ONES)
        for s in range(self.players):
            if self.real is not None:
                self.real[s] &= keep
            self.may[s] &= keep
            self.at[s] &= keep
            self.chg[s] = self.FILL
            self.dirty[s] = self.ONES
            if self.cu[s] & ~keep:
                kept = [e & keep for e in self.clauses[s] if e & keep]
                self.clauses[s] = kept
                cu = 0
                for e in kept:
                    cu |= e
                self.cu[s] = cu
        self._propagate((1 << self.players) - 1)

    # ------------------------------------------------------------------ the fixpoint
    def _locate_all(self, take: int, s: int) -> int:
        """Every card of ``take`` (a lane-wide mask) is at seat ``s`` in its lane. Returns
        the seats whose lanes it made dirty."""
        poss, may, at, chg, dirty = self.poss, self.may, self.at, self.chg, self.dirty
        ones, fill = self.ONES, self.FILL
        at[s] |= take
        chg[s] |= take
        dirty[s] |= (take + fill) >> 54 & ones
        seats = 1 << s
        for x in range(self.players):
            if x != s:
                gone = may[x] & take
                if gone:
                    may[x] ^= gone
                    chg[x] |= gone
                    dirty[x] |= (gone + fill) >> 54 & ones
                    seats |= 1 << x
        cards = take
        for sh in self.folds:
            cards |= cards >> sh
        cards &= M54
        while cards:
            low = cards & -cards
            cards ^= low
            i = low.bit_length() - 1
            lanes = take >> i & ones
            poss[i] = poss[i] & ~(lanes * 0xFF) | lanes << s
        return seats

    def _propagate(self, seats: int) -> None:
        """Apply the rules in the dirty lanes of the ``seats`` (a seat mask) and of every
        seat a deduction touches, until none is left: a seat's clauses (narrowed, dropped
        when satisfied, a last card located), then its hand size (its located cards fill it:
        :meth:`_holds_nothing_else`; its possible cards do: :meth:`_locate_all`)."""
        ones, fill = self.ONES, self.FILL
        may, at, chg, dirty, cus, clauses, sizes = (self.may, self.at, self.chg, self.dirty, self.cu, self.clauses,
                                                    self.sizes)
        real = self.real
        locate_all = self._locate_all
        while seats:
            low_seat = seats & -seats
            seats ^= low_seat
            s = low_seat.bit_length() - 1
            lanes = dirty[s]
            if not lanes:
                continue
            dirty[s] = 0
            # clauses of s, in the lanes where one names a changed card
            cu = cus[s]
            hit = cu and (cu & chg[s]) + fill >> 54 & lanes
            chg[s] &= ~(lanes * M54)
            if hit:
                kept = []
                cu = 0
                for e in clauses[s]:
                    e &= may[s]
                    # drop satisfied clauses (s is seen holding one of the cards)
                    e &= ~((((e & at[s]) + fill) >> 54 & ones) * M54)
                    nz = (e + fill) >> 54 & ones
                    single = nz & ~(((e & (e - nz)) + fill) >> 54)
                    if single:  # one card left: it is at s (and the clause is done)
                        unit = e & (single * M54)
                        e ^= unit
                        seats |= locate_all(unit, s)
                    if e:
                        kept.append(e)
                        cu |= e
                clauses[s] = kept
                cus[s] = cu
            # hand size: located cards fill the hand -> nothing else; possible cards
            # exactly fill it -> all of them
            a = at[s]
            unl = may[s] & ~a
            if not unl:
                continue
            has = (unl + fill) >> 54 & ones & lanes
            if not has:
                continue
            if real is not None:
                full = has & ~(((a ^ real[s]) + fill) >> 54)
                exact = has & ~(((may[s] ^ real[s]) + fill) >> 54) & ~full
            else:
                size = sizes[s] * ones
                x = self._counts(a) ^ size
                full = has & ~((x + fill) >> 54)
                x = self._counts(may[s]) ^ size
                exact = has & ~((x + fill) >> 54) & ~full
            if full:
                # lanes where s holds nothing else
                seats |= self._holds_nothing_else(s, unl & (full * M54), full)
            if exact:
                # lanes where s holds every card it may still hold
                seats |= locate_all(unl & (exact * M54), s)

    def _holds_nothing_else(self, s: int, drop: int, full: int) -> int:
        """In the lanes ``full`` (one bit per lane) the cards located at ``s`` fill its hand:
        the cards of ``drop`` (lane-wide) leave its possible cards, and a card left with one
        possible holder is located there. Returns the seat mask made dirty."""
        ones, fill = self.ONES, self.FILL
        poss, at, chg, dirty = self.poss, self.at, self.chg, self.dirty
        self.may[s] ^= drop
        chg[s] |= drop
        dirty[s] |= full
        seats = 1 << s
        cards = drop
        for sh in self.folds:
            cards |= cards >> sh
        cards &= M54
        while cards:
            low = cards & -cards
            cards ^= low
            i = low.bit_length() - 1
            lanes_i = drop >> i & ones
            p = poss[i] & ~(lanes_i << s)
            poss[i] = p
            # lanes where the card now has a single possible holder: located there
            nz = (p + fill) >> 54 & lanes_i
            single = nz & ~(((p & (p - nz)) + fill) >> 54)
            while single:
                lane = single & -single
                single ^= lane
                sh = lane.bit_length() - 1
                y = (p >> sh & 0xFF).bit_length() - 1
                b = lane << i
                at[y] |= b
                chg[y] |= b
                dirty[y] |= lane
                seats |= 1 << y
        return seats
