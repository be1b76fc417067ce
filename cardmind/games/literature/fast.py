"""The fast engine path: ``random`` v ``random`` Literature games without the agent interface.

:func:`~cardmind.agents.match.play_game` plays through the general agent interface: a
referee state checks every action, every seat keeps its own view state (which checks every
event again) and its own :class:`~cardmind.games.literature.certain.CertainKnowledge`. That is the
path every player uses, and it stays the reference. This module plays the same games
between ``random`` players (:class:`cardmind.games.literature.agents.base.RandomAgent`) as one
complete-information loop, for measuring the engine alone and for bulk statistics:

* the referee is a few bitmasks (who holds each card, each hand, the sets in play), and the
  actions are known to be legal, so nothing is re-checked (the tests replay the records
  through :class:`~cardmind.games.literature.state.LiteratureState`);
* a random player claims exactly the sets it knows for certain, so every seat's
  :class:`~cardmind.games.literature.certain.CertainKnowledge` is still kept, event by event, by the
  same rules; but all seats' knowledge is kept at once, side by side in the lanes of wide
  integers (:class:`~cardmind.games.literature.fast_certain.LaneKnowledge`), so the
  common steps cost one operation for every seat;
* the random choices draw from the same generators in the same order, and
  ``int(rng.integers(n))`` is computed from the generator's raw 64-bit outputs with numpy's
  own algorithm (Lemire's method on the 32-bit halves; checked against numpy once per
  process, with a fallback to ``rng.integers``).

So a game here is **the same game** as ``play_game(GAME, options, [RandomAgent] * n,
deal_rng, play_rngs)``: the same deal, the same events in the same order, the same result
(``tests/test_fast_literature.py`` checks it event by event). The generators are consumed
differently (raw outputs are read in blocks), so do not reuse them after a game.

Usage::

    from cardmind.games.literature.fast import play_random, play_random_seeded
    g = play_random_seeded({"players": 6}, seed=3, record=True)
    g.num_events, g.team_sets, g.events[:2]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from .certain import deck_tables
from ...core import get_game
from .fast_certain import LaneKnowledge
from .rules import set_cards, set_names

_LOW32 = 0xFFFFFFFF


class _Draws:
    """``int(rng.integers(n))`` for a numpy ``Generator``, without a numpy call per draw.

    For ``1 <= n < 2**32`` numpy draws a 32-bit value (the low, then the high half of a
    64-bit output, the other half kept in the bit generator's state) and applies Lemire's
    nearly divisionless method; ``n == 1`` draws nothing. This reads the raw outputs in
    blocks and does the same. Only for PCG64 generators whose emulation was checked
    (:func:`_emulation_ok`); otherwise it calls ``rng.integers``.
    """

    __slots__ = ("_rng", "_raw", "_buf", "_has", "_half", "exact")

    def __init__(self, rng: np.random.Generator):
        self._rng = rng
        bg = rng.bit_generator
        self.exact = type(bg) is np.random.PCG64 and _emulation_ok()
        self._buf: list[int] = []
        if self.exact:
            st = bg.state
            self._has = int(st.get("has_uint32", 0))
            self._half = int(st.get("uinteger", 0))
            self._raw = bg.random_raw

    def _next32(self) -> int:
        if self._has:
            self._has = 0
            return self._half
        buf = self._buf
        if not buf:
            buf.extend(reversed(self._raw(32).tolist()))
        x = buf.pop()
        self._has = 1
        self._half = x >> 32
        return x & _LOW32

    def __call__(self, n: int) -> int:
        if n == 1:  # numpy draws nothing for a range of one value
            return 0
        if not self.exact:
            return int(self._rng.integers(n))
        if self._has:  # (_next32, inlined)
            self._has = 0
            m = self._half * n
        else:
            buf = self._buf
            if not buf:
                buf.extend(reversed(self._raw(32).tolist()))
            x = buf.pop()
            self._has = 1
            self._half = x >> 32
            m = (x & _LOW32) * n
        left = m & _LOW32
        if left < n:
            threshold = (_LOW32 - (n - 1)) % n
            while left < threshold:
                m = self._next32() * n
                left = m & _LOW32
        return m >> 32


@lru_cache(maxsize=None)
def _emulation_ok() -> bool:
    """Whether :class:`_Draws` reproduces ``Generator.integers`` with this numpy."""
    ns = [2, 3, 7, 1, 57, 100, 1, 12, 5, 2**31 - 1, 3_000_000_000, 9, 2]
    for seed in range(8):
        ref = np.random.default_rng([seed, 99])
        probe = _Draws.__new__(_Draws)
        probe._rng, probe.exact, probe._buf, probe._has, probe._half = ref, True, [], 0, 0
        probe._raw = np.random.default_rng([seed, 99]).bit_generator.random_raw
        for k in range(200):
            n = ns[(k * 7 + seed) % len(ns)]
            if int(ref.integers(n)) != probe(n):
                return False
    return True


@lru_cache(maxsize=None)
def _ask_tables(deck: str, own: bool) -> tuple[list[list[tuple[int, ...]]], list[int]]:
    """Per set: for each 6-bit pattern of held cards (bit ``j`` = the set's ``j``-th card),
    the numbers of the cards a holder of that pattern may ask for; and each set's first
    card number (a set's cards are numbered consecutively)."""
    _, index, _, _ = deck_tables(deck)
    idxs = [tuple(index[c] for c in set_cards(name)) for name in set_names(deck)]
    shift = [idx[0] for idx in idxs]
    assert all(idx == tuple(range(idx[0], idx[0] + 6)) for idx in idxs)
    return [[tuple(i for j, i in enumerate(idx) if own or not p >> j & 1) for p in range(64)]
            for idx in idxs], shift


@dataclass
class FastGame:
    """One game of the fast path.

    Attributes:
        options: the parsed options.
        hands: the deal (as ``header["hands"]`` of a complete record).
        events: the record events (only with ``record=True``, else ``None``).
        num_events: number of events.
        team_sets: sets won per team (``None`` when stopped at ``max_actions``).
        void_sets: sets voided by a cancelled wrong claim.
        claims: claims made; ``wrong_claims`` of them were wrong.
        actions: actions taken per seat (as ``MatchResult.actions``).
        unfinished: the game was stopped after ``max_actions`` main-loop actions.
    """

    options: dict
    hands: list[list[str]]
    events: list[dict] | None
    num_events: int = 0
    team_sets: tuple[int, int] | None = None
    void_sets: list[str] = field(default_factory=list)
    claims: int = 0
    wrong_claims: int = 0
    actions: list[int] = field(default_factory=list)
    unfinished: bool = False

    @property
    def outcome(self) -> tuple[float, float] | None:
        """``(team 0, team 1)``: 1 win, 0.5 draw, 0 loss (``None`` when unfinished)."""
        if self.team_sets is None:
            return None
        t0, t1 = self.team_sets
        o = 1.0 if t0 > t1 else 0.5 if t0 == t1 else 0.0
        return o, 1.0 - o


def play_random_seeded(options: Mapping[str, Any] | None, seed: int, max_actions: int = 100_000,
                       record: bool = False) -> FastGame:
    """:func:`play_random` with the seeds the tests use for ``play_game``: the deal from
    ``default_rng(seed)``, seat ``s`` playing with ``default_rng([seed, s])``."""
    opts = get_game("literature").parse_options(options)
    n = opts["players"]
    return play_random(opts, np.random.default_rng(seed), [np.random.default_rng([seed, s]) for s in range(n)],
                       max_actions=max_actions, record=record)


class _Table:
    """The referee of one fast game, and its seats' knowledge.

    Who holds each card (``holder``: card number -> seat), each hand (``hand``: seat -> card
    mask, bit ``i`` = card number ``i`` in deck order), the hand sizes, the sets in play
    (``live_sets``: bit ``k`` = set ``k`` not yet claimed) and every seat's certain knowledge
    (:class:`~cardmind.games.literature.fast_certain.LaneKnowledge`). Its methods are the
    moves of ``random`` players (:class:`cardmind.games.literature.agents.base.RandomAgent`)
    and the referee's answers, in the order ``play_game`` makes them.

    Args:
        opts: parsed Literature options.
        hands_dealt: every seat's dealt cards (``header["hands"]`` of a record).
        play_rngs: one generator per seat.
        record: keep the record events in ``events`` (else ``events`` is ``None``).
    """

    def __init__(self, opts: Mapping[str, Any], hands_dealt: Sequence[Sequence[str]],
                 play_rngs: Sequence[np.random.Generator], record: bool):
        self.opts = opts
        self.hands_dealt = hands_dealt
        self.players = players = opts["players"]
        deck = opts["deck"]
        self.any_time = opts["claim_any_time"]
        self.has_next = not self.any_time and opts["after_claim"] == "awarded_team"
        self.cancel = opts["wrong_claim"] == "cancel"
        cards, index, _, set_masks = deck_tables(deck)
        self.cards, self.set_masks = cards, set_masks
        self.names = names = set_names(deck)
        self.set_idx = set_idx = [tuple(index[c] for c in set_cards(name)) for name in names]
        self.nsets = nsets = len(names)
        self.draws = [_Draws(r) for r in play_rngs]
        self.holder = holder = [0] * len(cards)
        self.hand = hand = [0] * players
        for s, h in enumerate(hands_dealt):
            for c in h:
                i = index[c]
                holder[i] = s
                hand[s] |= 1 << i
        self.sizes = [len(h) for h in hands_dealt]
        self.know = LaneKnowledge(opts, hands_dealt)
        # per team: the sets in play whose six cards the team really holds. What a seat knows
        # is true, so only these can be known for certain by a seat of the team.
        self.team_hand = team_hand = [0, 0]
        for s_ in range(players):
            team_hand[s_ % 2] |= hand[s_]
        self.full_sets = [sum(1 << k for k, m in enumerate(set_masks) if team_hand[t] & m == m) for t in (0, 1)]
        self.ask_table, self.shift = _ask_tables(deck, opts["ask_own_card"])
        self.set_of_card = [k for k, idx in enumerate(set_idx) for _ in idx]
        self.live_sets = (1 << nsets) - 1  # bit k: set k not yet claimed
        self.team_sets = [0, 0]
        self.void: list[str] = []
        self.actions = [0] * players
        self.events: list[dict] | None = [] if record else None
        self.other_events = 0  # pass and claim events (ask events are counted in asks)
        self.asks = 0
        self.claims = 0
        self.wrong = 0
        self.turn = 0
        # per seat: (hand, emptied, targets, cards) of its last ask choices; "emptied" counts
        # the events that may have emptied a hand (the targets are the opponents with cards)
        self.emptied = 0
        self.ask_cache: list[tuple] = [(None,)] * players

    # ---------------------------------------------------------------- the game loop
    def play(self, max_actions: int) -> bool:
        """Play until every set is claimed; returns ``True`` when stopped unfinished after
        ``max_actions`` main-loop actions (as ``play_game``)."""
        pending = None
        total = 0
        actions, sizes, full_sets, any_time = self.actions, self.sizes, self.full_sets, self.any_time
        while self.live_sets:
            total += 1
            if total > max_actions:
                return True
            if pending is not None:
                self.name_next(pending)
                pending = None
                continue
            seat = self.turn
            actions[seat] += 1
            if sizes[seat] == 0:
                self.pass_turn(seat)
            else:
                found = self.certain_claim(seat) if full_sets[seat & 1] else None
                if found is not None:
                    pending = self.claim(seat, found[0], found[1])
                elif not self.ask(seat):
                    pending = self.guess_claim(seat)
            if any_time:
                self.out_of_turn_claims()
        return False

    def result(self, unfinished: bool) -> FastGame:
        """The game as a :class:`FastGame` (``unfinished``: stopped at ``max_actions``)."""
        return FastGame(self.opts, [list(h) for h in self.hands_dealt], self.events, self.other_events + self.asks,
                        None if unfinished else (self.team_sets[0], self.team_sets[1]), self.void, self.claims,
                        self.wrong, self.actions, unfinished)

    # ---------------------------------------------------------------- a turn
    def pass_turn(self, seat: int) -> None:
        """``seat`` (no cards left) passes the turn: to a teammate with cards, else to an
        opponent with cards, chosen at random."""
        sizes, players = self.sizes, self.players
        targets = [s for s in range(seat % 2, players, 2) if s != seat and sizes[s] > 0] or \
                  [s for s in range(1 - seat % 2, players, 2) if sizes[s] > 0]
        to = targets[self.draws[seat](len(targets))]
        if self.events is not None:
            self.events.append({"type": "pass", "from": seat, "to": to})
        self.other_events += 1
        self.turn = to

    def ask(self, seat: int) -> bool:
        """``seat`` asks a random opponent with cards for a random card it may ask for, and
        the referee answers (a hit moves the card, a miss passes the turn to the target).
        Returns ``False`` when the seat has no ask (nothing drawn)."""
        h = self.hand[seat]
        cached = self.ask_cache[seat]
        if cached[0] == h and cached[1] == self.emptied:
            targets, ask_cards = cached[2], cached[3]
        else:
            sizes = self.sizes
            targets = [t for t in range(1 - seat % 2, self.players, 2) if sizes[t] > 0]
            ask_cards = []
            if targets:
                ask_table, shift = self.ask_table, self.shift
                for k in range(self.nsets):
                    p = h >> shift[k] & 63
                    if p:
                        ask_cards += ask_table[k][p]
            self.ask_cache[seat] = (h, self.emptied, targets, ask_cards)
        if not ask_cards:
            return False
        nt = len(targets)
        j = self.draws[seat](len(ask_cards) * nt)
        i = ask_cards[j // nt]
        target = targets[j % nt]
        holder = self.holder
        success = holder[i] == target
        if self.events is not None:
            self.events.append({"type": "ask", "asker": seat, "target": target, "card": self.cards[i],
                                "success": success})
        self.asks += 1
        if success:
            bit = 1 << i
            holder[i] = seat
            hand, sizes = self.hand, self.sizes
            hand[target] &= ~bit
            hand[seat] |= bit
            sizes[target] -= 1
            sizes[seat] += 1
            if not sizes[target]:
                self.emptied += 1
            team = seat % 2
            team_hand = self.team_hand
            team_hand[team] |= bit
            team_hand[1 - team] &= ~bit
            k = self.set_of_card[i]
            if team_hand[team] & self.set_masks[k] == self.set_masks[k]:
                self.full_sets[team] |= 1 << k
        else:
            self.turn = target
        self.know.ask(seat, target, i, success)
        return True

    # ---------------------------------------------------------------- claims
    def certain_claim(self, seat: int) -> tuple[int, list[int]] | None:
        """RandomAgent: the first set (index ``k``) the seat's team holds for certain, with
        its holders (seats, in the set's card order); ``None`` when it knows of none."""
        fs = self.full_sets[seat % 2]
        if not fs:
            return None
        know = self.know
        k = know.certain_set(seat, seat % 2, fs)
        if k is None:
            return None
        return k, [know.located(seat, i) for i in self.set_idx[k]]

    def guess_claim(self, seat: int) -> tuple | None:
        """No ask possible: ``seat`` claims a random live set, naming the teammate it knows
        holds each card, else a random teammate with cards (``LiteratureAgent.guess_claim``).
        Returns the claim pending the next player's choice, as :meth:`claim`."""
        draw = self.draws[seat]
        live_sets, sizes = self.live_sets, self.sizes
        live = [k for k in range(self.nsets) if live_sets >> k & 1]
        k = live[draw(len(live))]
        team = seat % 2
        mates = [s for s in range(team, self.players, 2) if sizes[s] > 0] or [seat]
        assignment = []
        for i in self.set_idx[k]:
            x = self.know.located(seat, i)
            if x is not None and x % 2 == team:
                assignment.append(x)
            else:
                assignment.append(mates[draw(len(mates))])
        return self.claim(seat, k, assignment)

    def out_of_turn_claims(self) -> None:
        """``claim_any_time``: every other seat with cards, in seat order, claims the sets it
        knows for certain, until none claims."""
        sizes = self.sizes
        while self.live_sets:
            for s in range(self.players):
                if s != self.turn and sizes[s] > 0:
                    found = self.certain_claim(s)
                    if found is not None:
                        self.actions[s] += 1
                        self.claim(s, found[0], found[1])
                        break
            else:
                break

    def claim(self, claimer: int, k: int, assignment: list[int]) -> tuple | None:
        """The referee resolves ``claimer``'s claim of set ``k`` with ``assignment`` (a seat
        per card): applies it, or returns it pending the choice of the next player
        (``(claimer, k, assignment, actual, correct, award, candidates)``)."""
        actual = [self.holder[i] for i in self.set_idx[k]]
        correct = assignment == actual
        award = self.award_of(claimer, correct, actual)
        if self.has_next:
            cands = self.candidates(claimer, award, actual)
            if len(cands) > 1:
                return claimer, k, assignment, actual, correct, award, cands
            self.finish_claim(claimer, k, assignment, actual, correct, award, cands[0] if cands else None)
        else:
            self.finish_claim(claimer, k, assignment, actual, correct, award, ...)
        return None

    def award_of(self, claimer: int, correct: bool, actual: list[int]) -> int | None:
        """The team (0 or 1) awarded the set, or ``None`` when a wrong claim is cancelled."""
        team = claimer % 2
        if correct:
            return team
        if self.cancel and all(s % 2 == team for s in actual):
            return None
        return 1 - team

    def candidates(self, claimer: int, award: int | None, actual: list[int]) -> list[int]:
        """LiteratureState.next_candidates: the seats that may play next after this claim."""
        live_sets = self.live_sets
        if live_sets & (live_sets - 1) == 0:  # the last set
            return []
        left = list(self.sizes)
        for s in actual:
            left[s] -= 1
        team = claimer % 2 if award is None else award
        for t in (team, 1 - team):
            cands = [s for s in range(t, self.players, 2) if left[s] > 0]
            if cands:
                return cands
        return []

    def name_next(self, pending: tuple) -> None:
        """The chooser of the team that picks (the first seat of it from the claimer on)
        names the next player at random, and the pending claim is applied."""
        claimer, k, assignment, actual, correct, award, cands = pending
        players = self.players
        t = cands[0] % 2
        chooser = next(s for s in ((claimer + j) % players for j in range(players)) if s % 2 == t)
        self.actions[chooser] += 1
        nxt = cands[self.draws[chooser](len(cands))]
        self.finish_claim(claimer, k, assignment, actual, correct, award, nxt)

    def finish_claim(self, claimer: int, k: int, assignment: list[int], actual: list[int], correct: bool,
                     award: int | None, nxt: Any) -> None:
        """Apply a claim event: the set's cards leave the hands, the set goes to team
        ``award`` (or is void), every seat sees the cards shown, and ``nxt`` plays next
        (``nxt`` is ``...`` when claim events carry no ``next``)."""
        name = self.names[k]
        if self.events is not None:
            cs = set_cards(name)
            ev = {"type": "claim", "claimer": claimer, "set": name,
                  "assignment": dict(zip(cs, assignment)), "actual": dict(zip(cs, actual)), "correct": correct}
            if nxt is not ...:
                ev["next"] = nxt
            self.events.append(ev)
        self.other_events += 1
        self.claims += 1
        if not correct:
            self.wrong += 1
        hand, team_hand, sizes = self.hand, self.team_hand, self.sizes
        for i, s in zip(self.set_idx[k], actual):
            hand[s] &= ~(1 << i)
            team_hand[s % 2] &= ~(1 << i)
            sizes[s] -= 1
        self.emptied += 1  # (or not: it only invalidates the cached asks)
        self.live_sets = live_sets = self.live_sets & ~(1 << k)
        self.full_sets[0] &= live_sets
        self.full_sets[1] &= live_sets
        if award is None:
            self.void.append(name)
        else:
            self.team_sets[award] += 1
        if live_sets:
            self.know.claim(dict(zip(self.set_idx[k], actual)))
            if nxt is not ...:
                self.turn = nxt


def play_random(options: Mapping[str, Any] | None, deal_rng: np.random.Generator,
                play_rngs: Sequence[np.random.Generator], max_actions: int = 100_000,
                record: bool = False) -> FastGame:
    """Deal with ``deal_rng`` and play one game between ``random`` players.

    The same game as ``play_game(GAME, options, [RandomAgent] * n, deal_rng, play_rngs,
    max_actions)`` (see the module docstring).

    Args:
        options: raw or parsed Literature options.
        deal_rng: shuffles the deck (``LiteratureGame.deal``).
        play_rngs: one generator per seat.
        max_actions: stop after this many main-loop actions (as ``play_game``).
        record: keep the record events in ``FastGame.events``.
    """
    game = get_game("literature")
    opts = game.parse_options(options)
    table = _Table(opts, game.deal(opts, deal_rng)["hands"], play_rngs, record)
    return table.result(table.play(max_actions))


__all__ = ["FastGame", "play_random", "play_random_seeded"]
