"""Certain facts about Literature card holders by propagation to a fixpoint.

This is the bookkeeping of the strongest published Literature bots, rebuilt as the
``peer`` baseline (issue 3) and used by the ``random`` player to know when a claim is
certain. Unlike :mod:`cardmind.games.literature.belief` it does not count deals: it keeps, for
every card in play, the seats that may hold it *now*, and applies these rules until
nothing changes:

* a hit locates a card at the asker; a miss clears the card from asker (unless
  ``ask_own_card``) and target;
* every ask means the asker holds another card of that set: an "at least one of" clause,
  dropped when the asker is seen holding one, narrowed when a card is located elsewhere,
  forgotten when the asker gives a card of it away (it may have been that one);
* a seat whose located cards fill its hand holds nothing else;
* a seat whose free slots equal the cards it may still hold holds all of them;
* a card with one possible holder is located; a clause with one possible card locates it.

Implementation: bitmasks and incremental propagation. Cards are numbered in deck order
and seats are bits, so each card's possible holders is an ``int`` (bit ``s`` = seat
``s``), and each seat has the card masks of the cards it may hold and of those located at
it. Clauses are kept per seat as card masks. An event marks the seats whose facts it
changed; only those seats' clauses and hand-size rules are re-examined, and any seat a
deduction touches is marked in turn, until none is left. Every rule only removes
possibilities that the true deal excludes, and each rule's premise depends only on the
facts of its seat, so this worklist reaches the same fixpoint as re-applying every rule
to every seat until nothing changes (the reference implementation kept in
``tests/test_throughput_certain.py`` checks this event by event).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any

from .rules import deal_sizes, deck_cards, set_cards, set_names, set_of


@lru_cache(maxsize=None)
def deck_tables(deck: str) -> tuple[tuple[str, ...], dict[str, int], tuple[int, ...], tuple[int, ...]]:
    """Bitmask tables of a deck: ``(cards, index, set_mask_of_card, set_masks)``.

    ``cards`` in deck order, ``index`` card -> position, ``set_mask_of_card[i]`` the card
    mask of card ``i``'s set, ``set_masks`` the card mask of each set in canonical order.
    """
    cards = deck_cards(deck)
    index = {c: i for i, c in enumerate(cards)}
    set_masks = tuple(sum(1 << index[c] for c in set_cards(name)) for name in set_names(deck))
    of_card = tuple(set_masks[set_names(deck).index(set_of(c, deck))] for c in cards)
    return cards, index, of_card, set_masks


def _bits(mask: int) -> Iterator[int]:
    """Positions of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _PossibleView(Mapping):
    """``{card: set of seats}`` for every card in play, read from the bitmasks (deck order)."""

    __slots__ = ("_k",)

    def __init__(self, knowledge: "CertainKnowledge"):
        self._k = knowledge

    def __getitem__(self, card: str) -> set[int]:
        k = self._k
        i = k._index[card]
        if not k._inplay >> i & 1:
            raise KeyError(card)
        return set(_bits(k._poss[i]))

    def __iter__(self) -> Iterator[str]:
        k = self._k
        cards = k._cards
        return (cards[i] for i in _bits(k._inplay))

    def __len__(self) -> int:
        return self._k._inplay.bit_count()

    def __contains__(self, card: object) -> bool:
        k = self._k
        i = k._index.get(card)  # type: ignore[arg-type]
        return i is not None and bool(k._inplay >> i & 1)


class CertainKnowledge:
    """One seat's certain knowledge of who holds each card now.

    Args:
        options: parsed Literature options.
        observer: the seat whose view this is.
        hand: its dealt cards.

    Attributes:
        possible: ``{card: set of seats}`` that may hold each card in play now (a read-only
            view built from the bitmasks; each lookup returns a new set).
        sizes: public hand sizes.
        clauses: ``[(seat, set of cards)]``: ``seat`` holds at least one of the cards (a
            list built on access, seat by seat, each seat's clauses in the order of its asks;
            an ask whose clause an existing clause of the seat implies adds none).
    """

    def __init__(self, options: Mapping[str, Any], observer: int, hand: Iterable[str]):
        self.options = options
        self.players = options["players"]
        self.deck = options["deck"]
        self.observer = observer
        self.sizes = list(deal_sizes(self.players, self.deck))
        self._own = bool(options["ask_own_card"])
        self._cards, self._index, self._set_of, self._set_masks = deck_tables(self.deck)
        index = self._index
        players = self.players
        hand_mask = 0
        for c in hand:
            hand_mask |= 1 << index[c]
        me = 1 << observer
        others = ((1 << players) - 1) & ~me
        ncards = len(self._cards)
        #: per card: mask of seats that may hold it (0 once out of play)
        self._poss = [me if hand_mask >> i & 1 else others for i in range(ncards)]
        self._inplay = (1 << ncards) - 1
        #: per seat: mask of cards it may hold (located at it or not), and of cards located at it
        self._may = [hand_mask if s == observer else self._inplay & ~hand_mask for s in range(players)]
        self._at = [hand_mask if s == observer else 0 for s in range(players)]
        #: per seat: card masks of its "holds at least one of" clauses
        self._clauses: list[list[int]] = [[] for _ in range(players)]
        #: per seat: union of its clause masks (a superset is harmless)
        self._cu = [0] * players
        #: per seat: cards that left its possible cards or were located at it since its
        #: clauses were last examined (see _propagate)
        self._chg = [-1] * players
        self._propagate((1 << players) - 1)

    # ------------------------------------------------------------------ queries
    @property
    def possible(self) -> Mapping[str, set[int]]:
        """``{card: set of seats}`` that may hold each card in play now (read-only view)."""
        return _PossibleView(self)

    @property
    def clauses(self) -> list[tuple[int, set[str]]]:
        """``[(seat, set of cards)]``: ``seat`` holds at least one of the cards."""
        cards = self._cards
        return [(s, {cards[i] for i in _bits(u)}) for s, us in enumerate(self._clauses) for u in us]

    def holder(self, card: str) -> int | None:
        """The seat certainly holding ``card`` now, or ``None``."""
        i = self._index.get(card)
        if i is None or not self._inplay >> i & 1:
            return None
        p = self._poss[i]
        if p and not p & (p - 1):
            return p.bit_length() - 1
        return None

    def located(self) -> dict[str, int]:
        """``{card: seat}`` for every card in play whose holder is certain (deck order)."""
        cards, poss = self._cards, self._poss
        return {cards[i]: poss[i].bit_length() - 1 for i in _bits(self._inplay)
                if poss[i] and not poss[i] & (poss[i] - 1)}

    def located_mask(self, seat: int) -> int:
        """Card mask (bit ``i`` = ``deck_cards(deck)[i]``) of the cards located at ``seat``."""
        return self._at[seat]

    def certain_set(self, team: int) -> int | None:
        """Index (in :func:`set_names` order) of the first set in play whose six cards are
        all located at seats of ``team``, or ``None``."""
        at = self._at
        held = 0
        for s in range(team, self.players, 2):
            held |= at[s]
        if not held:
            return None
        for k, m in enumerate(self._set_masks):
            if held & m == m:
                return k
        return None

    # ------------------------------------------------------------------ events
    def observe(self, event: Mapping[str, Any]) -> None:
        """Apply one Literature event (assumed legal)."""
        kind = event["type"]
        if kind == "ask":
            self.observe_ask(event["asker"], event["target"], self._index[event["card"]], event["success"])
        elif kind == "claim":
            self.observe_claim(event["actual"])

    def observe_ask(self, a: int, t: int, i: int, success: bool) -> None:
        """Apply the ask of card number ``i`` (deck order) by seat ``a`` of seat ``t``
        (same as :meth:`observe` of the ask event, without the dict)."""
        bit = 1 << i
        nbit = ~bit
        own = self._own
        others = self._set_of[i] if own else self._set_of[i] & nbit
        poss, may, at, chg = self._poss, self._may, self._at, self._chg
        dirty = 0
        if not others & at[a]:
            # a new clause, unless one of a's clauses already implies it (a clause inside
            # it lives no longer and deduces the same: repeated asks add nothing)
            cl = self._clauses[a]
            for u in cl:
                if not u & ~others:
                    break
            else:
                cl.append(others)
                self._cu[a] |= others
                chg[a] |= others
                dirty = 1 << a
        if not own:
            dirty |= self._rule_out(i, a)  # the asker does not hold it
        if success:
            # t gave the card away: forget t's clauses that named it
            if self._cu[t] & bit:
                kept = [u for u in self._clauses[t] if not u & bit]
                self._clauses[t] = kept
                cu = 0
                for u in kept:
                    cu |= u
                self._cu[t] = cu
            old = poss[i]
            poss[i] = 1 << a
            m = old & ~(1 << a)
            while m:
                low = m & -m
                x = low.bit_length() - 1
                may[x] &= nbit
                at[x] &= nbit
                chg[x] |= bit
                m ^= low
            may[a] |= bit
            at[a] |= bit
            chg[a] |= bit
            self.sizes[t] -= 1
            self.sizes[a] += 1
            dirty |= old | (1 << a) | (1 << t)
        else:
            dirty |= self._rule_out(i, t)  # the target does not hold it
        if dirty:
            self._propagate(dirty)

    def _rule_out(self, i: int, seat: int) -> int:
        """``seat`` does not hold card number ``i`` (a card it may have held); locate the card
        when one possible holder is left. Returns the seats whose facts changed (bits)."""
        poss = self._poss
        p = poss[i]
        if not p >> seat & 1:
            return 0
        bit = 1 << i
        p ^= 1 << seat
        poss[i] = p
        self._may[seat] &= ~bit
        self._at[seat] &= ~bit
        self._chg[seat] |= bit
        dirty = 1 << seat
        if p and not p & (p - 1):
            x = p.bit_length() - 1
            self._at[x] |= bit
            self._chg[x] |= bit
            dirty |= p
        return dirty

    def observe_claim(self, actual: Mapping[str, int]) -> None:
        """Apply a claim whose cards were shown at ``actual`` (``{card: seat}``)."""
        gone = 0
        poss, index = self._poss, self._index
        for c, s in actual.items():
            self.sizes[s] -= 1
            i = index[c]
            gone |= 1 << i
            poss[i] = 0
        self._inplay &= ~gone
        keep = ~gone
        may, at, chg, clauses, cus = self._may, self._at, self._chg, self._clauses, self._cu
        for s in range(self.players):
            may[s] &= keep
            at[s] &= keep
            chg[s] = -1  # re-examine everything
            if cus[s] & gone:
                kept = [u & keep for u in clauses[s] if u & keep]
                clauses[s] = kept
                cu = 0
                for u in kept:
                    cu |= u
                cus[s] = cu
        self._propagate((1 << self.players) - 1)

    def _propagate(self, dirty: int) -> None:
        """Apply the clause and hand-size rules to the seats in ``dirty`` (and every seat a
        deduction touches) until nothing changes.

        ``_chg[s]`` holds the cards that left ``s``'s possible cards or were located at ``s``
        since its clauses were last examined: only then can a clause of ``s`` narrow, become
        satisfied or single out a card, so ``s``'s clauses are skipped unless one names such
        a card.
        """
        poss, may, at, sizes, clauses, chg, cus = (self._poss, self._may, self._at, self.sizes,
                                                   self._clauses, self._chg, self._cu)
        while dirty:
            low = dirty & -dirty
            dirty ^= low
            s = low.bit_length() - 1
            # clauses of s: narrow to the cards s may hold; drop when satisfied; a single
            # possible card is located at s
            if cus[s] & chg[s]:
                chg[s] = 0
                kept = []
                cu = 0
                for u in clauses[s]:
                    u &= may[s]
                    if not u or u & at[s]:
                        continue
                    if not u & (u - 1):
                        i = u.bit_length() - 1
                        m = poss[i] & ~low
                        poss[i] = low
                        at[s] |= u
                        chg[s] |= u
                        nbit = ~u
                        dirty |= m | low  # s again: its other clauses may now be satisfied
                        while m:
                            lo = m & -m
                            x = lo.bit_length() - 1
                            may[x] &= nbit
                            chg[x] |= u
                            m ^= lo
                        continue
                    kept.append(u)
                    cu |= u
                clauses[s] = kept
                cus[s] = cu
            else:
                chg[s] = 0
            # hand size: the located cards fill the hand, or the free places equal the cards
            # s may still hold
            a = at[s]
            unl = may[s] & ~a
            if not unl:
                continue
            free = sizes[s] - a.bit_count()
            if free == 0:
                dirty |= self._holds_nothing_else(s, unl)
            elif free == unl.bit_count():
                dirty |= self._holds_all_of(s, unl)

    def _holds_nothing_else(self, s: int, unl: int) -> int:
        """The cards located at seat ``s`` fill its hand: it holds none of ``unl`` (a card
        mask of the cards it may hold, not located at it); a card left with one possible
        holder is located there. Returns the seats to re-examine (bits; ``s`` again: its
        clauses narrow)."""
        poss, at, chg = self._poss, self._at, self._chg
        low = 1 << s
        self._may[s] &= ~unl
        chg[s] |= unl
        dirty = low
        m = unl
        while m:
            lo = m & -m
            i = lo.bit_length() - 1
            p = poss[i] & ~low
            poss[i] = p
            if p and not p & (p - 1):
                x = p.bit_length() - 1
                at[x] |= lo
                chg[x] |= lo
                dirty |= p
            m ^= lo
        return dirty

    def _holds_all_of(self, s: int, unl: int) -> int:
        """Seat ``s``'s free places equal the cards ``unl`` it may still hold (a card mask):
        it holds every one of them, and no other seat does. Returns the seats to re-examine
        (bits; ``s`` again: its clauses are satisfied)."""
        poss, may, chg = self._poss, self._may, self._chg
        low = 1 << s
        self._at[s] |= unl
        chg[s] |= unl
        dirty = low
        m = unl
        while m:
            lo = m & -m
            i = lo.bit_length() - 1
            p = poss[i] & ~low
            poss[i] = low
            dirty |= p
            nlo = ~lo
            while p:
                q = p & -p
                x = q.bit_length() - 1
                may[x] &= nlo
                chg[x] |= lo
                p ^= q
            m ^= lo
        return dirty
