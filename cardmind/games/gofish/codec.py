"""The Go Fish codec: action ids, observation vector and a consistent resampler.

Action ids (``R`` ranks, ``S`` suits, ``N = R * S`` cards in deck order: rank by rank,
suits C D H S within a rank; ``P`` players):

==========================  ==============================  ====================
action                      id                              count (4 players)
==========================  ==============================  ====================
lay the dealt books         ``0``                           1
ask ``target`` for ``rank``  ``1 + rank_index * P + target``  ``R * P`` (52)
give ``card`` (asked,        ``1 + R*P + card_index``        ``N`` (52)
``give: "one"``)
ask ``target`` for the       ``1 + R*P + N + rank_index * P  ``R * P`` (52)
book of ``rank`` (phase 2)   + target``
==========================  ==============================  ====================

157 ids with the default options (the adapters' ``decline`` id, 157, is never legal: Go Fish
has no out-of-turn actions). Draws and books that the rules force are not actions: they
follow the action that causes them, as in cardmind.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ...core import Result, State
from .state import GoFishState
from .notation import Ask, AskBook, Give, LayBooks
from .resample import GoFishResampler
from .rules import deck_cards, game_ranks
from ...adapters.codec import ActionCodec


class GoFishCodec(ActionCodec):
    """Bulgarian Go Fish (see the module docstring for the ids)."""

    game_name = "gofish"
    exact_resampler = False

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        o = self.options
        self.P = o["players"]
        self.ranks = game_ranks(o)
        self.R = len(self.ranks)
        self.cards = deck_cards(o)
        self.N = len(self.cards)
        self.S = self.N // self.R
        self.rank_index = {r: i for i, r in enumerate(self.ranks)}
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.base_ask = 1
        self.base_give = 1 + self.R * self.P
        self.base_book = self.base_give + self.N
        self._num = self.base_book + self.R * self.P
        dealt = self.P * o["hand"]
        self._positions = tuple(i % self.P if i < dealt else None for i in range(self.N))

    # ------------------------------------------------------------------ deal
    def deck(self) -> tuple[str, ...]:
        """The deck in canonical order."""
        return self.cards

    def deal_positions(self) -> tuple[int | None, ...]:
        """``hand`` cards to each seat round robin from seat 0, then the stock in draw order."""
        return self._positions

    def header_from_order(self, cards) -> dict:
        """``hands`` and ``stock`` (empty when every card is dealt)."""
        out = super().header_from_order(cards)
        out.setdefault("stock", [])
        return out

    # ------------------------------------------------------------------ actions
    @property
    def num_actions(self) -> int:
        """Lay books, asks, gives and book asks (see the module docstring)."""
        return self._num

    def encode(self, action: Any) -> int:
        """The id of a Go Fish action."""
        if isinstance(action, LayBooks):
            return 0
        if isinstance(action, Ask):
            return self.base_ask + self.rank_index[action.rank] * self.P + action.target
        if isinstance(action, Give):
            return self.base_give + self.card_index[action.card]
        if isinstance(action, AskBook):
            return self.base_book + self.rank_index[action.rank] * self.P + action.target
        raise ValueError(f"not a Go Fish action: {action!r}")

    def decode(self, action_id: int, seat: int) -> Any:
        """The Go Fish action of ``action_id`` for ``seat``."""
        a = int(action_id)
        if a == 0:
            return LayBooks(seat)
        if 0 < a < self.base_give:
            r, t = divmod(a - self.base_ask, self.P)
            return Ask(seat, t, self.ranks[r])
        if self.base_give <= a < self.base_book:
            return Give(seat, self.cards[a - self.base_give])
        if self.base_book <= a < self._num:
            r, t = divmod(a - self.base_book, self.P)
            return AskBook(seat, t, self.ranks[r])
        raise ValueError(f"{action_id!r} is not a Go Fish action id (0-{self._num - 1})")

    # ------------------------------------------------------------------ outcome
    def returns(self, result: Result) -> list[float]:
        """Zero-sum: ``(outcome - mean outcome) * P / (P - 1)``: a sole winner gets +1 and the
        others share -1; a shared first place gets less, a draw of everyone 0."""
        o = np.asarray(result.outcome, dtype=float)
        return list((o - o.mean()) * self.P / (self.P - 1))

    def partial_returns(self, state: State) -> list[float]:
        """:meth:`returns` as if the game ended now (most books so far wins)."""
        books = state.books_per_seat()
        top = max(books)
        win = [b == top for b in books]
        share = 1.0 if sum(win) == 1 else 0.5
        return self.returns(Result(tuple(float(b) for b in books), tuple(share if w else 0.0 for w in win)))

    def utility_range(self) -> tuple[float, float]:
        """(-1, 1) for 2 players, (-0.5, 1) for more."""
        return (-1.0 if self.P == 2 else -0.5, 1.0)

    # ------------------------------------------------------------------ observation
    def observation_size(self) -> int:
        """``P + N + P*N + P + 1 + P + P + R*(P+1) + 3 + P + R + 2P`` (370 with the defaults)."""
        P, N, R = self.P, self.N, self.R
        return P + N + P * N + P + 1 + P + P + R * (P + 1) + 3 + P + R + 2 * P

    def observation(self, view: State, seat: int) -> np.ndarray:
        """The layout (in this order; one-hot or 0/1 unless said):

        * ``seat`` [P]: this seat;
        * ``hand`` [N]: this seat's cards (deck order);
        * ``public`` [P, N]: cards everyone knows a seat holds (handed over or shown);
        * ``sizes`` [P]: cards held per seat (counts); ``stock`` [1]: cards in the stock (count);
        * ``books`` [P]: books held per seat (counts); ``hidden_books`` [P]: of them, books
          whose rank this seat does not know (counts);
        * ``book_at`` [R, P+1]: per rank the seat known to hold its book, column ``P``: no
          book of it is known;
        * ``phase`` [3]: opening (dealt books being laid), phase 1, phase 2;
        * ``to_move`` [P]: the seat deciding now (all zero when over);
        * ``pending`` [R + 2P]: an ask waiting for the asked seat to choose its card
          (``give: "one"``): its rank, asker and target.
        """
        st: GoFishState = view  # type: ignore[assignment]
        P, N, R = self.P, self.N, self.R
        out = np.zeros(self.observation_size(), dtype=np.float32)
        out[seat] = 1
        k = P
        for c in st.hands[seat] or ():
            out[k + self.card_index[c]] = 1
        k += N
        for s in range(P):
            for c in st.public[s]:
                out[k + s * N + self.card_index[c]] = 1
        k += P * N
        out[k:k + P] = st.sizes
        k += P
        out[k] = st.stock_count
        k += 1
        out[k:k + P] = st.books_per_seat()
        k += P
        out[k:k + P] = st.hidden_books
        k += P
        at = out[k:k + R * (P + 1)].reshape(R, P + 1)
        for i, r in enumerate(self.ranks):
            at[i, st.book_at.get(r, P)] = 1
        k += R * (P + 1)
        out[k + (0 if st.opening else st.phase)] = 1
        k += 3
        mover = st.to_move()
        if mover is not None:
            out[k + mover] = 1
        k += P
        if st.pending is not None:
            p = st.pending
            out[k + self.rank_index[p["rank"]]] = 1
            out[k + R + p["asker"]] = 1
            out[k + R + P + p["target"]] = 1
        return out

    def observation_string(self, view: State, seat: int) -> str:
        """Hand, card counts, public cards, books and who decides, as one line."""
        st: GoFishState = view  # type: ignore[assignment]
        hand = sorted(st.hands[seat] or (), key=self.card_index.__getitem__)
        public = "; ".join(f"{s}: {' '.join(sorted(p, key=self.card_index.__getitem__))}"
                           for s, p in enumerate(st.public) if p and s != seat)
        books = " ".join(f"{r}@{s}" for r, s in sorted(st.book_at.items(), key=lambda x: self.rank_index[x[0]]))
        parts = [f"seat {seat}", f"hand {' '.join(hand) or '-'}", f"sizes {' '.join(map(str, st.sizes))}",
                 f"stock {st.stock_count}", f"books {' '.join(map(str, st.books_per_seat()))}",
                 f"known books {books or '-'}", f"public {public or '-'}",
                 f"phase {'opening' if st.opening else st.phase}", f"to move {st.to_move()}"]
        if st.pending is not None:
            parts.append("pending " + json.dumps(st.pending, sort_keys=True, separators=(",", ":")))
        return " | ".join(parts)

    def resample(self, world, seat: int, rng: np.random.Generator):
        """A complete world that ``seat`` cannot tell from ``world``: consistent but not
        uniform (:class:`~.resample.GoFishResampler`, built once per codec).

        Raises:
            RuntimeError: no consistent deal was found within the resampler's attempts.
        """
        sampler = self.__dict__.get("_resampler")
        if sampler is None:
            sampler = self.__dict__["_resampler"] = GoFishResampler(self)
        return sampler.sample(world, seat, rng)


__all__ = ["GoFishCodec"]
