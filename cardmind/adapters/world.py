"""A cardmind game as a plain sequence of decisions, shared by every adapter.

:class:`World` turns a cardmind :class:`~cardmind.core.Game` into what OpenSpiel's and
PettingZoo's sequential games expect:

1. **The deal is chance.** One chance decision per card: outcome ``i`` deals card
   ``codec.deck()[i]`` to the next position (``codec.deal_positions()``), each remaining
   card equally likely, so every deal has the same probability as cardmind's own shuffle.
   A game dealt several times (one deal per hand of a game of several hands) splits ``deck()`` into pools, one per
   deal (``codec.deal_pool(position)``): a position is dealt from its pool only.
2. **Then one seat decides at a time**, with the codec's action ids. The seat is the game's
   ``to_move()``. When the rules let other seats act out of turn (``State.actors()``, as
   Literature claims under ``claim_any_time``), every such seat is then asked in turn,
   exactly as the referee loop :func:`cardmind.agents.match.play_game` does: it may take
   one of its out-of-turn actions or ``decline`` (``codec.decline_id``); an action restarts
   the round, and when every seat has declined the seat on turn plays.
3. **The game ends** when cardmind's state is over, or after ``max_moves`` decisions
   (``truncation``: ``"draw"`` scores a stopped game zero for everyone, ``"score"`` with
   the codec's estimate from the score so far).

The world keeps a **log** of what happened, as the seats see it: ``("event", event)`` for
every record event, ``("notice", notice)`` for a decision under way
(``State.pending_notice``) and ``("decline", seat)``. A seat's information is its dealt
hand plus the log redacted for it (:meth:`World.info_pieces`); its view state
(:meth:`World.view`) is built lazily from the same log, as an agent's would be.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import Event, State
from ..errors import IllegalAction

if TYPE_CHECKING:  # annotations only: the codec imports this module to replay deals
    from .codec import ActionCodec

#: OpenSpiel's ids of the chance and terminal pseudo-players (kept identical here)
CHANCE = -1
TERMINAL = -4


class World:
    """One game in progress: the deal so far, the complete cardmind state and the log.

    Args:
        codec: the game's codec (holds the game and its options).
        max_moves: decisions after which the game is stopped (counts declines too).
        truncation: ``"draw"`` or ``"score"`` (see the module docstring).

    Attributes:
        state: the complete cardmind state (``None`` while dealing).
        header: the complete record header (``None`` while dealing).
        log: what happened since the deal (see the module docstring).
        decisions: ``(seat, action id)`` of every decision, or ``None`` for a world built
            from a seat's view (whose past decisions are not known, only their events).
        react: seats still to be offered an out-of-turn action, first = to decide now.
        moves: decisions taken so far.
    """

    def __init__(self, codec: ActionCodec, max_moves: int = 3000, truncation: str = "draw"):
        if truncation not in ("draw", "score"):
            raise ValueError(f"truncation must be 'draw' or 'score', not {truncation!r}")
        self.codec = codec
        self.max_moves = int(max_moves)
        self.truncation = truncation
        self.deck = codec.deck()
        self.positions = codec.deal_positions()
        self.order: list[int] = []
        self.remaining: list[int] = list(range(len(self.deck)))
        self.header: dict | None = None
        self.state: State | None = None
        self.log: list[tuple] = []
        self.decisions: list[tuple[int, int]] | None = []
        self.react: list[int] = []
        self.moves = 0
        self.truncated = False
        self._views: dict[int, list] = {}
        self._pieces: dict[int, list[str]] = {}
        self.cache: dict = {}
        self._current: int | None = None

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_state(cls, codec: ActionCodec, header: Mapping[str, Any], state: State, log: Sequence[tuple],
                   react: Sequence[int] = (), moves: int = 0, max_moves: int = 3000,
                   truncation: str = "draw") -> "World":
        """A world at a given complete ``state`` (for example one consistent with an agent's
        view), with ``log`` as its history; ``decisions`` is ``None``."""
        w = cls(codec, max_moves, truncation)
        w.header = dict(header)
        w.order = [w.deck.index(c) for c in codec.order_from_header(header)]
        w.remaining = []
        w.state = state
        w.log = list(log)
        w.decisions = None
        w.react = list(react)
        w.moves = moves
        return w

    @classmethod
    def from_view(cls, codec: ActionCodec, seat: int, hand: Sequence[str], view: State, log: Sequence[tuple],
                  react: Sequence[int] = (), moves: int = 0, max_moves: int = 3000,
                  truncation: str = "draw") -> "World":
        """A *partial* world: ``seat``'s view (its dealt ``hand``, its view state and the log as
        it saw it). It cannot be played; :meth:`ActionCodec.resample` turns it into complete
        worlds consistent with it (what an IS-MCTS agent searches from)."""
        header = {"format": "cardmind-record/1", "game": codec.game.name, "options": codec.options,
                  "observer": seat, "hand": list(hand)}
        w = cls(codec, max_moves, truncation)
        w.header = header
        w.remaining = []
        w.state = view
        w.log = list(log)
        w.decisions = None
        w.react = list(react)
        w.moves = moves
        return w

    def is_complete(self) -> bool:
        """Whether this world knows every hand (it was dealt, or resampled)."""
        return self.header is not None and "hands" in self.header

    def copy(self) -> "World":
        """An independent copy (cheap: the cardmind state's own ``copy``)."""
        new = object.__new__(World)
        new.__dict__.update(self.__dict__)
        new.order = list(self.order)
        new.remaining = list(self.remaining)
        new.state = None if self.state is None else self.state.copy()
        new.log = list(self.log)
        new.decisions = None if self.decisions is None else list(self.decisions)
        new.react = list(self.react)
        new._views = {s: [v.copy(), k] for s, (v, k) in self._views.items()}
        new._pieces = {s: list(p) for s, p in self._pieces.items()}
        new.cache = dict(self.cache)
        return new

    def __deepcopy__(self, memo) -> "World":
        return self.copy()

    # ------------------------------------------------------------------ chance
    def is_chance(self) -> bool:
        """Whether the deal is still under way."""
        return self.state is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(deck index, probability)`` of every card that may be dealt next (the remaining
        cards of the next position's pool, :meth:`ActionCodec.deal_pool`)."""
        pool = self.codec.deal_pool(len(self.order))
        if pool is None:
            p = 1.0 / len(self.remaining)
            return [(i, p) for i in self.remaining]
        lo, hi = pool
        idx = self.remaining[bisect.bisect_left(self.remaining, lo):bisect.bisect_left(self.remaining, hi)]
        p = 1.0 / len(idx)
        return [(i, p) for i in idx]

    def apply_chance(self, index: int) -> None:
        """Deal card ``deck[index]`` to the next position."""
        k = bisect.bisect_left(self.remaining, index)
        if k == len(self.remaining) or self.remaining[k] != index:
            raise ValueError(f"card {index} has already been dealt or is not in the deck")
        pool = self.codec.deal_pool(len(self.order))
        if pool is not None and not pool[0] <= index < pool[1]:
            raise ValueError(f"card {index} is not in the pool {pool[0]}-{pool[1] - 1} of deal position "
                             f"{len(self.order)}")
        del self.remaining[k]
        self.order.append(index)
        self._current = None
        if not self.remaining:
            self._start()

    def _start(self) -> None:
        codec = self.codec
        hidden = codec.header_from_order([self.deck[i] for i in self.order])
        self.header = {"format": "cardmind-record/1", "game": codec.game.name, "options": codec.options, **hidden}
        self.state = codec.game.new_state(codec.options, self.header)
        self.log.extend(("event", ev) for ev in self.state.advance())

    def deal_order(self) -> list[str]:
        """The cards dealt so far, in dealing order."""
        return [self.deck[i] for i in self.order]

    def dealt_hand(self, seat: int) -> list[str]:
        """The cards dealt to ``seat`` (so far, while dealing), in deck order.

        Raises:
            ValueError: a world built from another seat's view does not know them.
        """
        h = self.header
        if h is None:
            cards = [self.deck[i] for k, i in enumerate(self.order) if self.positions[k] == seat]
        elif "hands" in h:
            cards = h["hands"][seat]
        elif h.get("observer") == seat:
            cards = h["hand"]
        else:
            raise ValueError(f"this world is seat {h.get('observer')}'s view; seat {seat}'s hand is unknown")
        index = self.codec.deck_index()
        return sorted(cards, key=index.__getitem__)

    # ------------------------------------------------------------------ decisions
    def is_over(self) -> bool:
        """Whether the game has ended (or was stopped)."""
        return self.state is not None and (self.truncated or self.state.is_over())

    def current_player(self) -> int:
        """The seat deciding now, :data:`CHANCE` while dealing, :data:`TERMINAL` at the end."""
        cur = self._current
        if cur is None:
            cur = self._current = self._current_player()
        return cur

    def _current_player(self) -> int:
        if self.state is None:
            return CHANCE
        if self.truncated or self.state.is_over():
            return TERMINAL
        if self.react:
            return self.react[0]
        return self.state.to_move()

    def legal_ids(self) -> list[int]:
        """Sorted action ids of the seat deciding now (empty at chance and terminal nodes)."""
        seat = self.current_player()
        if seat < 0:
            return []
        ids = self.codec.legal_ids(self.state, seat)
        if self.react:
            ids = sorted(set(ids) | {self.codec.decline_id})
        return ids

    def apply(self, action_id: int) -> list[Event]:
        """Take action ``action_id`` for the seat deciding now; return the events it made.

        Raises:
            IllegalAction: the action is not legal now.
            ValueError: not an action id, or no seat decides now.
        """
        seat = self.current_player()
        if seat < 0:
            raise ValueError("no seat decides now (chance or terminal node)")
        self._current = None
        action_id = int(action_id)
        if action_id == self.codec.decline_id:
            if not self.react:
                raise IllegalAction("decline", f"seat {seat} is on turn and must act (decline is only "
                                               f"for out-of-turn actions)")
            self.react.pop(0)
            self.log.append(("decline", seat))
            events: list[Event] = []
        else:
            action = self.codec.decode(action_id, seat)
            step = self.state.referee_step(action, views=False)   # a seat's view is redacted when asked
            events = step.events
            self.log.extend(("event", ev) for ev in events)
            if step.notice is not None:
                self.log.append(("notice", step.notice))
            self.react = [] if self.state.is_over() else list(self.state.actors()[1:])
        if self.decisions is not None:
            self.decisions.append((seat, action_id))
        self.moves += 1
        if self.moves >= self.max_moves and not self.state.is_over():
            self.truncated = True
        return events

    # ------------------------------------------------------------------ outcome
    def returns(self) -> list[float]:
        """Each seat's reward: the codec's ``returns`` at the end, zero before it."""
        if self.state is None:
            return [0.0] * self.codec.num_seats
        if self.state.is_over():
            return [float(x) for x in self.codec.returns(self.state.result())]
        if self.truncated and self.truncation == "score":
            return [float(x) for x in self.codec.partial_returns(self.state)]
        return [0.0] * self.codec.num_seats

    # ------------------------------------------------------------------ what a seat knows
    def info_pieces(self, seat: int) -> list[str]:
        """The log as ``seat`` sees it, one text piece per entry (cached, incremental)."""
        pieces = self._pieces.get(seat)
        if pieces is None:
            pieces = self._pieces[seat] = []
        if len(pieces) < len(self.log):
            state, piece = self.state, self.codec.info_piece
            for entry in self.log[len(pieces):]:
                if entry[0] == "event":
                    entry = ("event", state.redact(entry[1], seat))
                pieces.append(piece(entry, seat))
        return pieces

    def info_string(self, seat: int) -> str:
        """``seat``'s information state: its seat, its dealt hand and the log it saw."""
        head = f"seat {seat} hand {' '.join(self.dealt_hand(seat))}"
        if self.state is None:
            return head + " dealing"
        return "|".join([head] + self.info_pieces(seat))

    def view(self, seat: int) -> State:
        """``seat``'s view state now (do not modify it)."""
        if self.state is None:
            raise ValueError("the deal is not finished")
        slot = self._views.get(seat)
        if slot is None:
            hdr = self.codec.game.observer_header(self.header, seat)
            slot = self._views[seat] = [self.codec.game.new_state(self.codec.options, hdr), 0]
        v, k = slot
        for entry in self.log[k:]:
            if entry[0] == "event":
                v.apply_event(self.state.redact(entry[1], seat))
            elif entry[0] == "notice":
                v.apply_pending_notice(dict(entry[1]))
        slot[1] = len(self.log)
        return v

    def observation(self, seat: int) -> np.ndarray:
        """The codec's observation vector of ``seat`` (zeros while dealing)."""
        if self.state is None:
            return np.zeros(self.codec.observation_size(), dtype=np.float32)
        return self.codec.observation(self.view(seat), seat)

    def observation_string(self, seat: int) -> str:
        """The codec's readable summary of what ``seat`` knows now."""
        if self.state is None:
            return f"seat {seat} hand {' '.join(self.dealt_hand(seat))} dealing"
        return self.codec.observation_string(self.view(seat), seat)

    def __str__(self) -> str:
        if self.state is None:
            return f"dealing: {' '.join(self.deal_order())}"
        hands = " / ".join(f"{s}: {' '.join(sorted(h, key=self.deck.index)) if h is not None else '?'}"
                           for s, h in enumerate(self.state.hands))
        who = self.current_player()
        tail = "over" if who == TERMINAL else f"seat {who} decides"
        if self.react:
            tail += f" (out of turn; then {self.react[1:]})"
        return f"{hands} | moves {self.moves} | log {len(self.log)} | {tail}"


def replay_deal(world: World, order: Sequence[str]) -> World | None:
    """A new world dealt in ``order`` (cards) with ``world``'s decisions replayed; ``None`` when
    one of them is not legal there (or ``world`` does not know its decisions)."""
    if world.decisions is None:
        return None
    w = World(world.codec, world.max_moves, world.truncation)
    index: dict[str, list[int]] = {}
    for i in range(len(w.deck) - 1, -1, -1):    # copies of a token (several decks): first unused first
        index.setdefault(w.deck[i], []).append(i)
    for c in order:
        pool = w.codec.deal_pool(len(w.order))
        free = index.get(c, [])
        k = len(free) - 1
        while pool is not None and k >= 0 and not pool[0] <= free[k] < pool[1]:
            k -= 1
        if k < 0:
            return None
        w.apply_chance(free.pop(k))
    for seat, aid in world.decisions:
        if w.current_player() != seat:
            return None
        try:
            w.apply(aid)
        except (IllegalAction, ValueError):
            return None
    return w


__all__ = ["World", "CHANCE", "TERMINAL", "replay_deal"]
