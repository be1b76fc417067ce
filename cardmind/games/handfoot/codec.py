"""The Hand and Foot codec for the OpenSpiel and PettingZoo adapters: action ids, the deal as
chance, rewards and the observation vector.

**The deal.** Every hand of the game is its own shuffle of the decks, so :meth:`deck` is one
copy of the decks per hand (``hands x 270`` cards with the defaults) and deal position ``k`` of
hand ``h`` is dealt only from hand ``h``'s copy (:meth:`HandFootCodec.deal_pool`). Within a
hand the positions are the hands (round robin from seat 0), the feet (the same), then the
stock in draw order, as :meth:`~cardmind.games.handfoot.HandFootGame.deal_one` deals. Only the
first hand's hands count as a seat's dealt cards; the later hands reach the seats through
their ``deal`` events.

**Action ids.** ``T`` is the list of distinct tokens of the decks (rank by rank, suits C D H S,
jokers last: 54 with the defaults), ``L`` the tokens that can be laid off (naturals 4..A and
wild cards: 50), ``R`` the meldable ranks (11), ``S`` the suits (4), ``W`` the wild tokens (6),
``M`` the most melds a team can have (a third of the natural cards: 73).

=================================  ========================================  ==========
action                             ids                                       count
=================================  ========================================  ==========
draw                               ``0``                                     1
take the pile with a pair          rank, then the pair's suits (a multiset)  R x C(S+1,2) (110)
new meld of three naturals         rank, then the suits (a multiset)         R x C(S+2,3) (220)
new meld of two naturals + a wild  rank, suits of the pair, then the wild    R x C(S+1,2) x W (660)
lay off one card                   meld number x L + token                   M x L (3650)
discard a card                     its token                                 T (54)
ask to go out; answer yes; no      three ids                                 3
=================================  ========================================  ==========

These are the shapes :meth:`~cardmind.games.handfoot.HandFootState.legal_actions` lists
(larger melds and lay-offs are legal too but have no id: an adapter's player builds them a
card at a time). The partner's answer is its own decision (the partner is the seat to move).
Forced events (books, the foot, the end of a hand, the next deal) follow the action that
causes them.

**Rewards** are zero-sum: ``(outcome - mean outcome) * T / (T - 1)`` with ``T`` teams: +1 for
every seat of a sole winning team, the losers share -1 (two teams: -1 each).
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from ...adapters.codec import ActionCodec
from ...core import Result, State
from .notation import Answer, AskOut, Discard, Draw, LayOff, Meld, TakePile
from .rules import JOKERS, MELD_RANKS, deck_cards, is_natural, is_wild, sort_cards, teams_of
from .state import HandFootState


class HandFootCodec(ActionCodec):
    """Hand and Foot (see the module docstring for the ids, the deal and the rewards)."""

    game_name = "handfoot"
    exact_resampler = False

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        o = self.options
        self.P = o["players"]
        self.teams = teams_of(o)
        self.NT = max(self.teams) + 1
        self.one = deck_cards(o)
        self.H = o["hands"]
        self.cards = self.one * self.H
        self.tokens = sort_cards(set(self.one))
        self.T = len(self.tokens)
        self.tok_index = {c: i for i, c in enumerate(self.tokens)}
        self.ranks = [r for r in MELD_RANKS if any(c[0] == r and is_natural(c) for c in self.tokens)]
        self.R = len(self.ranks)
        self.rank_index = {r: i for i, r in enumerate(self.ranks)}
        suits = sorted({c[1] for c in self.tokens if c not in JOKERS}, key="CDHS".index)
        self.wild_toks = [c for c in self.tokens if is_wild(c)]
        self.lay_toks = [c for c in self.tokens if is_wild(c) or is_natural(c)]
        self.lay_index = {c: i for i, c in enumerate(self.lay_toks)}
        self.max_melds = max(1, sum(1 for c in self.one if is_natural(c)) // 3)
        pairs = list(combinations_with_replacement(suits, 2))
        triples = list(combinations_with_replacement(suits, 3))
        self._ids: dict[tuple, int] = {}
        self._actions: list[tuple] = []

        def add(key: tuple) -> None:
            self._ids[key] = len(self._actions)
            self._actions.append(key)

        add(("draw",))
        for r in self.ranks:
            for a, b in pairs:
                add(("take", r + a, r + b))
        for r in self.ranks:
            for t in triples:
                add(("meld", *(r + x for x in t)))
        for r in self.ranks:
            for a, b in pairs:
                for w in self.wild_toks:
                    add(("meld", r + a, r + b, w))
        self.base_lay = len(self._actions)
        self.base_discard = self.base_lay + self.max_melds * len(self.lay_toks)
        self.base_ask = self.base_discard + self.T
        self._num = self.base_ask + 3
        n, h = self.P, o["hand_size"]
        per = len(self.one)
        self.per_hand = per
        first = tuple(i % n if i < n * h else None for i in range(per))
        self._positions = first + (None,) * (per * (self.H - 1))

    # ------------------------------------------------------------------ deal
    def deck(self) -> tuple[str, ...]:
        """One copy of the decks per hand, in canonical order."""
        return self.cards

    def deal_positions(self) -> tuple[int | None, ...]:
        """The first hand's hands round robin from seat 0; every other position (feet, stock,
        later hands) ``None``."""
        return self._positions

    def deal_pool(self, position: int) -> tuple[int, int]:
        """Hand ``h``'s positions are dealt from hand ``h``'s copy of the decks."""
        h = position // self.per_hand
        return (h * self.per_hand, (h + 1) * self.per_hand)

    def _split(self, cards) -> dict:
        n, h = self.P, self.options["hand_size"]
        hands: list[list[str]] = [[] for _ in range(n)]
        feet: list[list[str]] = [[] for _ in range(n)]
        for i in range(n * h):
            hands[i % n].append(cards[i])
            feet[i % n].append(cards[n * h + i])
        return {"hands": [sort_cards(x) for x in hands], "feet": [sort_cards(x) for x in feet],
                "stock": list(cards[2 * n * h:])}

    def header_from_order(self, cards) -> dict:
        """``hands``, ``feet``, ``stock`` of the first hand and ``deals`` of the others."""
        per = self.per_hand
        parts = [self._split(list(cards[k * per:(k + 1) * per])) for k in range(self.H)]
        return {**parts[0], "deals": parts[1:]}

    def order_from_header(self, header) -> list[str]:
        """One dealing order giving ``header``."""
        out: list[str] = []
        n, h = self.P, self.options["hand_size"]
        for d in [header, *header.get("deals", [])]:
            hq = [list(x) for x in d["hands"]]
            fq = [list(x) for x in d["feet"]]
            out += [hq[i % n].pop(0) for i in range(n * h)]
            out += [fq[i % n].pop(0) for i in range(n * h)]
            out += list(d["stock"])
        return out

    # ------------------------------------------------------------------ actions
    @property
    def num_actions(self) -> int:
        """Every id of the table in the module docstring."""
        return self._num

    def encode(self, action: Any) -> int:
        """The id of a Hand and Foot action of a listed shape.

        Raises:
            ValueError: an action without an id (a larger meld or lay-off).
        """
        if isinstance(action, Draw):
            return 0
        if isinstance(action, TakePile):
            key = ("take", *sort_cards(action.pair))
        elif isinstance(action, Meld):
            nat = sort_cards(c for c in action.cards if not is_wild(c))
            key = ("meld", *nat, *sort_cards(c for c in action.cards if is_wild(c)))
        elif isinstance(action, LayOff):
            if len(action.cards) != 1 or action.cards[0] not in self.lay_index or \
                    not 0 <= action.meld < self.max_melds:
                raise ValueError(f"no id for {action!r}: lay-offs have ids one card at a time")
            return self.base_lay + action.meld * len(self.lay_toks) + self.lay_index[action.cards[0]]
        elif isinstance(action, Discard):
            return self.base_discard + self.tok_index[action.card]
        elif isinstance(action, AskOut):
            return self.base_ask
        elif isinstance(action, Answer):
            return self.base_ask + (1 if action.yes else 2)
        else:
            raise ValueError(f"not a Hand and Foot action: {action!r}")
        try:
            return self._ids[key]
        except KeyError:
            raise ValueError(f"no id for {action!r}: new melds have ids of three cards") from None

    def decode(self, action_id: int, seat: int) -> Any:
        """The action of ``action_id`` for ``seat``."""
        a = int(action_id)
        if 0 <= a < self.base_lay:
            key = self._actions[a]
            if key[0] == "draw":
                return Draw(seat)
            if key[0] == "take":
                return TakePile(seat, (key[1], key[2]))
            return Meld(seat, tuple(key[1:]))
        if self.base_lay <= a < self.base_discard:
            m, t = divmod(a - self.base_lay, len(self.lay_toks))
            return LayOff(seat, m, (self.lay_toks[t],))
        if self.base_discard <= a < self.base_ask:
            return Discard(seat, self.tokens[a - self.base_discard])
        if a == self.base_ask:
            return AskOut(seat)
        if a in (self.base_ask + 1, self.base_ask + 2):
            return Answer(seat, a == self.base_ask + 1)
        raise ValueError(f"{action_id!r} is not a Hand and Foot action id (0-{self._num - 1})")

    # ------------------------------------------------------------------ outcome
    def returns(self, result: Result) -> list[float]:
        """Zero-sum: ``(outcome - mean) * T / (T - 1)`` with ``T`` teams."""
        o = np.asarray(result.outcome, dtype=float)
        return list((o - o.mean()) * self.NT / (self.NT - 1))

    def partial_returns(self, state: State) -> list[float]:
        """:meth:`returns` as if the game ended now: the totals so far plus the hand under way
        scored as if the stock had run out."""
        st: HandFootState = state  # type: ignore[assignment]
        if st.phase == "over":
            return self.returns(st.result())
        held = []
        for s in range(self.P):
            c = list(st.zone[s].elements()) if st.zone[s] is not None else []
            if st.feet[s] is not None and st.foot_sizes[s]:
                c += list(st.feet[s].elements())
            held.append(c)
        now = st._hand_scores(held) if st.went_out is None else [0] * self.NT
        totals = [t + x for t, x in zip(st.totals, now)]
        top = max(totals)
        win = [t for t in range(self.NT) if totals[t] == top]
        share = 1.0 if len(win) == 1 else 0.5
        return self.returns(Result(tuple(float(totals[self.teams[s]]) for s in range(self.P)),
                                   tuple(share if self.teams[s] in win else 0.0 for s in range(self.P))))

    def utility_range(self) -> tuple[float, float]:
        """``(-1/(T-1), 1)``: (-1, 1) with two teams."""
        return (-1.0 / (self.NT - 1), 1.0)

    # ------------------------------------------------------------------ observation
    def observation_size(self) -> int:
        """``P + T + P*T + T + 1 + T + 3P + 1 + NT*R*4 + NT + 4 + P + 4`` (see :meth:`observation`)."""
        P, T, R, NT = self.P, self.T, self.R, self.NT
        return P + T + P * T + T + 1 + T + 3 * P + 1 + NT * R * 4 + NT + 4 + P + 4

    def observation(self, view: State, seat: int) -> np.ndarray:
        """The layout (in this order; counts unless said):

        * ``seat`` [P] one-hot; ``zone`` [T]: this seat's cards (hand or foot);
        * ``known`` [P, T]: cards everyone knows a seat holds (taken from the pile);
        * ``pile top`` [T] one-hot; ``pile size`` [1]; ``pile take`` [T]: the cards a take
          would move;
        * ``sizes`` [P], ``foot sizes`` [P] (cards of each foot not picked up), ``in foot`` [P] 0/1;
        * ``stock`` [1];
        * ``melds`` [NT, R, 4]: per team and rank the open meld's naturals and wilds, clean
          books and dirty books;
        * ``opened`` [NT] 0/1; ``phase`` [4] one-hot (draw, play, answer, other);
        * ``to move`` [P] one-hot; ``hand`` [1] (1-based), ``turn points`` [1], ``asked`` [1],
          ``told yes`` [1].
        """
        st: HandFootState = view  # type: ignore[assignment]
        P, T, R, NT = self.P, self.T, self.R, self.NT
        out = np.zeros(self.observation_size(), dtype=np.float32)
        out[seat] = 1
        k = P
        for c, m in (st.zone[seat] or {}).items():
            out[k + self.tok_index[c]] = m
        k += T
        for s in range(P):
            for c, m in st.known[s].items():
                out[k + s * T + self.tok_index[c]] = m
        k += P * T
        if st.pile:
            out[k + self.tok_index[st.pile[-1]]] = 1
        k += T
        out[k] = len(st.pile)
        k += 1
        for c in st.pile_take_cards():
            out[k + self.tok_index[c]] += 1
        k += T
        out[k:k + P] = st.sizes
        out[k + P:k + 2 * P] = st.foot_sizes
        out[k + 2 * P:k + 3 * P] = st.in_foot
        k += 3 * P
        out[k] = st.stock_count
        k += 1
        for t in range(NT):
            for m in st.melds[t]:
                i = k + (t * R + self.rank_index[m.rank]) * 4
                if not m.book:
                    out[i] = m.naturals
                    out[i + 1] = m.wilds
                elif m.clean:
                    out[i + 2] += 1
                else:
                    out[i + 3] += 1
        k += NT * R * 4
        out[k:k + NT] = st.opened
        k += NT
        out[k + {"draw": 0, "play": 1, "answer": 2}.get(st.phase, 3)] = 1
        k += 4
        mover = st.to_move()
        if mover is not None:
            out[k + mover] = 1
        k += P
        out[k] = st.hand_no
        out[k + 1] = max(0, st.turn_points)
        out[k + 2] = 1 if st.asked else 0
        out[k + 3] = 1 if st.permission else 0
        return out

    def observation_string(self, view: State, seat: int) -> str:
        """Hand, sizes, pile, tables and who decides, as one line."""
        st: HandFootState = view  # type: ignore[assignment]
        zone = " ".join(sort_cards(st.zone[seat].elements())) if st.zone[seat] else "-"
        tables = "; ".join(f"team {t}: " + " ".join(f"{m.rank}x{m.size}{'*' if m.book else ''}"
                                                      f"{'' if m.clean else 'w'}" for m in st.melds[t])
                           for t in range(self.NT))
        return " | ".join([f"seat {seat}", f"hand {st.hand_no}", f"cards {zone}",
                           f"sizes {' '.join(map(str, st.sizes))}", f"feet {' '.join(map(str, st.foot_sizes))}",
                           f"stock {st.stock_count}", f"pile {len(st.pile)} top {st.pile[-1] if st.pile else '-'}",
                           f"tables {tables}", f"phase {st.phase}", f"to move {st.to_move()}"])


__all__ = ["HandFootCodec"]
