"""The contract rummy codec: action ids, the deal as chance, observation vector, resampler.

Action ids (``T`` distinct card tokens of the pack, in :func:`~.rules.deck_cards` order of first
appearance: Ace to King suit by suit, then ``RJ``, ``BJ``; ``M = 3 * players`` the most melds
a hand's table can hold):

=========================  ====================================  ======================
action                     id                                    count (4 players)
=========================  ====================================  ======================
take the discard           ``0``                                 1
pass                       ``1``                                 1
steal the discard          ``2``                                 1
go down                    ``3`` (the first arrangement the      1
                           rules list: the most points laid)
discard ``card``           ``4 + card_index``                    ``T`` (54)
lay ``card`` off on meld   ``4 + T + (card_index * M + meld)     ``2 * T * M`` (1296)
``meld`` at ``at``         * 2 + (at == "end")``
=========================  ====================================  ======================

1353 ids with the default options. Going down is one id: the adapters' player goes down with
the arrangement that lays the most points (``GoDown(seat, None)``); cardmind's own players and
records may lay any valid arrangement. Forced events (the draw after the offer, restocks, the
end of a hand, the next deal) are not actions.

**The deal as chance.** The chance nodes deal the first hand (``hand_size`` cards to each seat
from seat 0, then the card turned up, then the stock in draw order); the later deals and the
restocks come from the header's ``seed``, which the codec derives from the first deal's order
(a hash), so the whole game is a function of the chance outcomes.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

import numpy as np

from ...core import State
from .notation import Discard, GoDown, LayOff, Pass, Steal, Take
from .rules import deck_cards, hand_cards
from .state import CariocaState
from ...adapters.codec import ActionCodec

_PHASES = ("offer", "draw", "play", "hand_end", "deal", "over")


class CariocaCodec(ActionCodec):
    """Carioca-style contract rummy (see the module docstring for the ids)."""

    game_name = "carioca"
    exact_resampler = False

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        o = self.options
        self.P = o["players"]
        self.pack = deck_cards(o)
        self.tokens = tuple(dict.fromkeys(self.pack))
        self.T = len(self.tokens)
        self.M = 3 * self.P
        self.token_index = {c: i for i, c in enumerate(self.tokens)}
        self.base_discard = 4
        self.base_layoff = 4 + self.T
        self._num = self.base_layoff + 2 * self.T * self.M
        dealt = self.P * hand_cards(o, 1)
        self._positions = tuple(i % self.P if i < dealt else None for i in range(len(self.pack)))
        self._dealt = dealt

    # ------------------------------------------------------------------ deal
    def deck(self) -> tuple[str, ...]:
        """The pack in canonical order (copies repeated)."""
        return self.pack

    def deal_positions(self) -> tuple[int | None, ...]:
        """``hand_size`` cards to each seat round robin from seat 0, then ``None`` for the card
        turned up and the stock (in draw order)."""
        return self._positions

    def header_from_order(self, cards) -> dict:
        """``hands``, ``up`` (the first undealt card), ``stock`` (the rest) and ``seed`` (a hash
        of the order: the source of the later deals and restocks)."""
        cards = list(cards)
        hands: list[list[str]] = [[] for _ in range(self.P)]
        for pos, card in zip(self._positions[:self._dealt], cards):
            hands[pos].append(card)
        digest = hashlib.sha256(" ".join(cards).encode()).digest()
        seed = int.from_bytes(digest[:8], "little") >> 2
        return {"hands": hands, "up": cards[self._dealt], "stock": cards[self._dealt + 1:], "seed": seed}

    def order_from_header(self, header) -> list[str]:
        """The inverse of :meth:`header_from_order`."""
        queues = [list(h) for h in header["hands"]]
        out = [queues[p].pop(0) for p in self._positions[:self._dealt]]
        return out + [header["up"]] + list(header["stock"])

    # ------------------------------------------------------------------ actions
    @property
    def num_actions(self) -> int:
        """Take, pass, steal, go down, discards and lay-offs (see the module docstring)."""
        return self._num

    def encode(self, action: Any) -> int:
        """The id of a contract rummy action (every way to go down is id 3)."""
        if isinstance(action, Take):
            return 0
        if isinstance(action, Pass):
            return 1
        if isinstance(action, Steal):
            return 2
        if isinstance(action, GoDown):
            return 3
        if isinstance(action, Discard):
            return self.base_discard + self.token_index[action.card]
        if isinstance(action, LayOff):
            if not 0 <= action.meld < self.M:
                raise ValueError(f"meld {action.meld} is past the {self.M} melds a table can hold")
            return self.base_layoff + (self.token_index[action.card] * self.M + action.meld) * 2 + (action.at == "end")
        raise ValueError(f"not a contract rummy action: {action!r}")

    def decode(self, action_id: int, seat: int) -> Any:
        """The action of ``action_id`` for ``seat`` (id 3: :class:`GoDown` with ``melds`` ``None``)."""
        a = int(action_id)
        if a == 0:
            return Take(seat)
        if a == 1:
            return Pass(seat)
        if a == 2:
            return Steal(seat)
        if a == 3:
            return GoDown(seat, None)
        if self.base_discard <= a < self.base_layoff:
            return Discard(seat, self.tokens[a - self.base_discard])
        if self.base_layoff <= a < self._num:
            k, end = divmod(a - self.base_layoff, 2)
            card, meld = divmod(k, self.M)
            return LayOff(seat, self.tokens[card], meld, "end" if end else "start")
        raise ValueError(f"{action_id!r} is not a contract rummy action id (0-{self._num - 1})")

    # ------------------------------------------------------------------ observation
    def observation_size(self) -> int:
        """``T`` hand + ``P*T`` known + ``T`` top + ``T`` pile + ``T`` table + ``P`` sizes + 1 stock
        + ``P`` down + 7 hand + 6 phase + ``P`` to move + ``P + 1`` offered by + ``P`` totals."""
        T, P = self.T, self.P
        return T + P * T + 3 * T + P + 1 + P + 7 + len(_PHASES) + P + P + 1 + P

    def observation(self, view: State, seat: int) -> np.ndarray:
        """The layout (in this order; counts, one-hot or 0/1):

        * ``hand`` [T]: copies of each card this seat holds;
        * ``known`` [P, T]: cards everyone knows a seat holds (discards it took or stole);
        * ``top`` [T]: the card on top of the discard pile; ``pile`` [T]: copies in the pile;
          ``table`` [T]: copies in the melds on the table;
        * ``sizes`` [P]: cards held per seat; ``stock`` [1]: cards in the stock;
        * ``down`` [P]: seats gone down this hand; ``hand`` [7]: the hand being played;
        * ``phase`` [6]: offer, draw, play, hand end, deal, over;
        * ``to_move`` [P]: the seat deciding now; ``from`` [P + 1]: the seat whose discard is on
          offer (column ``P``: the card turned up); ``totals`` [P]: points so far / 100.
        """
        st: CariocaState = view  # type: ignore[assignment]
        T, P = self.T, self.P
        out = np.zeros(self.observation_size(), dtype=np.float32)
        k = 0
        for c, n in (st.hands[seat] or Counter()).items():
            if n > 0:
                out[k + self.token_index[c]] = n
        k += T
        for s in range(P):
            for c, n in st.known[s].items():
                out[k + s * T + self.token_index[c]] = n
        k += P * T
        if st.pile:
            out[k + self.token_index[st.pile[-1]]] = 1
        k += T
        for c in st.pile:
            out[k + self.token_index[c]] += 1
        k += T
        for c, n in st.table_counts().items():
            out[k + self.token_index[c]] = n
        k += T
        out[k:k + P] = st.sizes
        k += P
        out[k] = st.stock_count
        k += 1
        out[k:k + P] = st.down
        k += P
        out[k + st.hand_no - 1] = 1
        k += 7
        out[k + _PHASES.index(st.phase)] = 1
        k += len(_PHASES)
        mover = st.to_move()
        if mover is not None:
            out[k + mover] = 1
        k += P
        if st.phase == "offer":
            frm = st.offer["from"]
            out[k + (P if frm is None else frm)] = 1
        k += P + 1
        out[k:k + P] = [t / 100 for t in st.totals]
        return out

    def observation_string(self, view: State, seat: int) -> str:
        """Hand, table, pile top, sizes and who decides, as one line."""
        st: CariocaState = view  # type: ignore[assignment]
        hand = " ".join(sorted((st.hands[seat] or Counter()).elements(), key=self.token_index.__getitem__))
        table = "; ".join(f"{m['owner']}:{' '.join(m['cards'])}" for m in st.table)
        parts = [f"seat {seat}", f"hand {st.hand_no}", f"cards {hand or '-'}", f"table {table or '-'}",
                 f"top {st.pile[-1] if st.pile else '-'}", f"sizes {' '.join(map(str, st.sizes))}",
                 f"stock {st.stock_count}", f"phase {st.phase}", f"to move {st.to_move()}",
                 f"totals {' '.join(map(str, st.totals))}"]
        return " | ".join(parts)

    # ------------------------------------------------------------------ resampling
    def resample(self, world, seat: int, rng: np.random.Generator):
        """A complete world ``seat`` cannot tell from ``world`` *now*: the other hands and the
        stock drawn from the exact posterior of ``seat``'s belief tracker
        (:meth:`~.belief.CariocaBelief.sample_worlds`), on a copy of ``world`` whose complete
        state holds them (the past of the hand is not re-dealt: what a search needs is the
        position, not the history)."""
        from ...records import Record  # noqa: PLC0415
        from .belief import CariocaBelief  # noqa: PLC0415

        view = world.view(seat) if world.is_complete() else world.state
        hdr = self.game.observer_header(world.header, seat) if "hands" in world.header else {
            "observer": seat, "hand": list(world.header["hand"]), "up": world.header["up"]}
        rec = Record(self.game, self.options, {"format": "cardmind-record/1", "game": self.game.name,
                                               "options": self.options, **hdr},
                     [e for k, e in world.log if k == "event"] if not world.is_complete() else
                     [world.state.redact(e, seat) for k, e in world.log if k == "event"], "<world>", [])
        tracker = CariocaBelief.from_record(rec, seat)
        hands, stock = tracker.sample_worlds(1, rng)[0]
        st = view.copy()
        st.hands = [Counter(h) if s != seat else Counter(view.hands[seat]) for s, h in enumerate(hands)]
        st.stock = list(stock)
        st.observer = None
        new = world.copy()
        new.state = st
        new.header = {**world.header, "hands": [list(h) for h in hands]}
        new.decisions = None
        return new


__all__ = ["CariocaCodec"]
