"""The Literature codec: action ids, observation vector and the exact resampler.

Action ids (``C`` cards in the deck in deck order, ``P`` players, ``T = P / 2`` seats per
team, ``S`` sets in :func:`~cardmind.games.literature.rules.set_names` order):

=====================  ===============================================  ==================
action                 id                                               count (6p, 54)
=====================  ===============================================  ==================
ask ``card`` of        ``card_index * P + target``                      ``C * P`` (324)
``target``
claim ``set``          ``C*P + set_index * T**6 + sum(k_i * T**(5-i))``  ``S * T**6`` (6561)
                       where card ``i`` of the set (set order) is
                       assigned to the claimer's team member ``k_i``
                       (seat ``claimer % 2 + 2 * k_i``)
pass to ``to``         ``C*P + S*T**6 + to``                            ``P`` (6)
choose ``next``        ``C*P + S*T**6 + P + next``                      ``P`` (6)
=====================  ===============================================  ==================

The acting seat is never encoded (it is the seat deciding). With ``claim_any_time`` the
adapters add ``decline`` (id ``num_actions``). 6 players and 54 cards: 6897 ids (+1);
8 players: 37312 (+1).

Adapter parameter ``claims``: ``"all"`` (default) offers every claim the rules allow;
``"known"`` is a smaller model for searches: a claim only of a set whose six holders the
claimer knows to be on its team (its own cards and cards handed to teammates), except that
a seat on turn with nothing else to do (no ask, no pass) gets every claim consistent with
what it knows (or every claim, when none is). It is not the full game: use it to search,
not to check play.
"""

from __future__ import annotations

import json
from itertools import product
from typing import Any

import numpy as np

from .belief import LiteratureBelief
from ...core import Result, State
from .state import LiteratureState
from .notation import Ask, ChooseNext, Claim, Pass
from .rules import deal_sizes, deck_cards, set_cards, set_names, set_of
from ...adapters.codec import ActionCodec


class LiteratureCodec(ActionCodec):
    """Literature (see the module docstring for the ids)."""

    game_name = "literature"
    params = {"claims": "all"}
    exact_resampler = True

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if self.param_values["claims"] not in ("all", "known"):
            raise ValueError(f"literature parameter claims must be 'all' or 'known', not "
                             f"{self.param_values['claims']!r}")
        o = self.options
        self.P = o["players"]
        self.T = self.P // 2
        self.T6 = self.T ** 6
        self.cards = deck_cards(o["deck"])
        self.C = len(self.cards)
        self.sets = set_names(o["deck"])
        self.S = len(self.sets)
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.set_index = {n: i for i, n in enumerate(self.sets)}
        self.base_claim = self.C * self.P
        self.base_pass = self.base_claim + self.S * self.T6
        self.base_next = self.base_pass + self.P
        self._num = self.base_next + self.P
        self._positions = tuple(i % self.P for i in range(self.C))
        self._weights = [self.T ** (5 - i) for i in range(6)]
        self._set_cards = {n: set_cards(n) for n in self.sets}

    # ------------------------------------------------------------------ deal
    def deck(self) -> tuple[str, ...]:
        """The deck in canonical (set by set) order."""
        return self.cards

    def deal_positions(self) -> tuple[int | None, ...]:
        """Round robin from seat 0, as :meth:`LiteratureGame.deal`."""
        return self._positions

    # ------------------------------------------------------------------ actions
    @property
    def num_actions(self) -> int:
        """Asks, claims, passes and next-player choices (see the module docstring)."""
        return self._num

    def encode(self, action: Any) -> int:
        """The id of a Literature action."""
        if isinstance(action, Ask):
            return self.card_index[action.card] * self.P + action.target
        if isinstance(action, Claim):
            team = action.claimer % 2
            code = 0
            for (c, s), w in zip(action.assignment, self._weights):
                if s % 2 != team:
                    raise ValueError(f"claim names seat {s}, not on seat {action.claimer}'s team")
                code += (s // 2) * w
            return self.base_claim + self.set_index[action.set] * self.T6 + code
        if isinstance(action, Pass):
            return self.base_pass + action.to
        if isinstance(action, ChooseNext):
            return self.base_next + action.next
        raise ValueError(f"not a Literature action: {action!r}")

    def decode(self, action_id: int, seat: int) -> Any:
        """The Literature action of ``action_id`` for ``seat``."""
        a = int(action_id)
        if 0 <= a < self.base_claim:
            card, target = divmod(a, self.P)
            return Ask(seat, target, self.cards[card])
        if a < self.base_pass:
            s, code = divmod(a - self.base_claim, self.T6)
            name = self.sets[s]
            team = seat % 2
            members = []
            for w in self._weights:
                k, code = divmod(code, w)
                members.append(team + 2 * k)
            return Claim(seat, name, tuple(zip(set_cards(name), members)))
        if a < self.base_next:
            return Pass(seat, a - self.base_pass)
        if a < self._num:
            return ChooseNext(seat, a - self.base_next)
        raise ValueError(f"{action_id!r} is not a Literature action id (0-{self._num - 1})")

    def legal_ids(self, state: State, seat: int) -> list[int]:
        """Sorted legal ids of ``seat`` (computed from the hands and id ranges: no action
        objects are built, so it is fast enough for rollouts)."""
        st: LiteratureState = state  # type: ignore[assignment]
        if st.is_over():
            return []
        if st.pending is not None:
            if seat != st.pending_chooser():
                return []
            return sorted(self.base_next + n for n in st.next_candidates(st.pending))
        ids: list[int] = []
        on_turn = seat == st.turn
        sizes = st.sizes
        if on_turn and sizes[seat] > 0:
            hand = st.hands[seat]
            if hand is None:
                raise ValueError(f"this state does not know seat {seat}'s hand")
            targets = [t for t in range(1 - seat % 2, self.P, 2) if sizes[t] > 0]
            if targets:
                own = self.options["ask_own_card"]
                P, ci = self.P, self.card_index
                for name in st.unclaimed_sets():
                    cards = self._set_cards[name]
                    held = [c in hand for c in cards]
                    n_held = sum(held)
                    if not n_held:
                        continue
                    for c, h in zip(cards, held):
                        if own or not h:
                            base = ci[c] * P
                            ids += [base + t for t in targets]
                ids.sort()
        if sizes[seat] > 0 and (on_turn or self.options["claim_any_time"]):
            if self.param_values["claims"] == "all":
                for name in st.unclaimed_sets():
                    lo = self.base_claim + self.set_index[name] * self.T6
                    ids += range(lo, lo + self.T6)
            else:
                ids += self._known_claims(st, seat, on_turn and not ids)
        if on_turn and sizes[seat] == 0:
            ids += [self.base_pass + p.to for p in st.legal_passes(seat)]
        return ids

    def _known_claims(self, st: LiteratureState, seat: int, forced: bool) -> list[int]:
        """Claim ids of the ``claims="known"`` model (see the module docstring)."""
        team = seat % 2
        holder, moved, weights = st.holder, st.moved, self._weights
        out: list[int] = []
        for name in st.unclaimed_sets():
            total = 0
            for c, w in zip(self._set_cards[name], weights):
                h = holder.get(c)
                if h is None or h % 2 != team or (h != seat and c not in moved):
                    break
                total += (h // 2) * w
            else:
                out.append(self.base_claim + self.set_index[name] * self.T6 + total)
        if out or not forced:
            return out
        mates = [s // 2 for s in range(team, self.P, 2) if s != seat and st.sizes[s] > 0]
        for name in st.unclaimed_sets():
            lo = self.base_claim + self.set_index[name] * self.T6
            choices = []
            for c in self._set_cards[name]:
                h = holder.get(c)
                if h == seat or (h is not None and c in moved):
                    if h % 2 != team:
                        break
                    choices.append((h // 2,))
                elif not mates:
                    break
                else:
                    choices.append(mates)
            else:
                out += [lo + sum(k * w for k, w in zip(ks, weights)) for ks in product(*choices)]
        if not out:
            for name in st.unclaimed_sets():
                lo = self.base_claim + self.set_index[name] * self.T6
                out += range(lo, lo + self.T6)
        return sorted(out)

    # ------------------------------------------------------------------ outcome
    def returns(self, result: Result) -> list[float]:
        """+1 for each seat of the winning team, -1 for the losers, 0 for a draw."""
        return [2.0 * o - 1.0 for o in result.outcome]

    def partial_returns(self, state: State) -> list[float]:
        """(own team's sets - other team's sets) / number of sets, per seat."""
        t = state.team_sets
        return [(t[s % 2] - t[1 - s % 2]) / self.S for s in range(self.P)]

    # ------------------------------------------------------------------ observation
    def observation_size(self) -> int:
        """``P + C*(P+2) + P + 4*S + P + P + S + P`` (507 for 6 players and 54 cards)."""
        P, C, S = self.P, self.C, self.S
        return P + C * (P + 2) + P + 4 * S + P + P + S + P

    def observation(self, view: State, seat: int) -> np.ndarray:
        """The layout (in this order; one-hot unless said):

        * ``seat`` [P]: this seat;
        * ``cards`` [C, P+2]: per card in deck order its holder as this seat knows it
          (columns 0..P-1), ``P``: in play, holder unknown; ``P+1``: out of play (claimed);
        * ``sizes`` [P]: cards held per seat (counts);
        * ``sets`` [S, 4]: unclaimed, won by team 0, won by team 1, void;
        * ``to_move`` [P]: the seat deciding now (all zero when over);
        * ``turn`` [P]: the seat on turn (differs from ``to_move`` while a claim's team chooses);
        * ``pending_set`` [S]: the set of a claim waiting for the choice of the next player;
        * ``next_options`` [P]: the seats that may be chosen to play next.
        """
        st: LiteratureState = view  # type: ignore[assignment]
        P, C, S = self.P, self.C, self.S
        out = np.zeros(self.observation_size(), dtype=np.float32)
        out[seat] = 1
        k = P
        cards = out[k:k + C * (P + 2)].reshape(C, P + 2)
        for i, c in enumerate(self.cards):
            if set_of(c, st.deck) in st.set_owner:
                cards[i, P + 1] = 1
            else:
                h = st.holder.get(c)
                cards[i, P if h is None else h] = 1
        k += C * (P + 2)
        out[k:k + P] = st.sizes
        k += P
        sets = out[k:k + 4 * S].reshape(S, 4)
        for i, name in enumerate(self.sets):
            if name not in st.set_owner:
                sets[i, 0] = 1
            else:
                t = st.set_owner[name]
                sets[i, 3 if t is None else 1 + t] = 1
        k += 4 * S
        mover = st.to_move()
        if mover is not None:
            out[k + mover] = 1
        k += P
        if st.turn is not None:
            out[k + st.turn] = 1
        k += P
        if st.pending is not None:
            out[k + self.set_index[st.pending["set"]]] = 1
            for n in st.next_candidates(st.pending):
                out[k + S + n] = 1
        return out

    def observation_string(self, view: State, seat: int) -> str:
        """Hand, card counts, located cards, claimed sets and who decides, as one line."""
        st: LiteratureState = view  # type: ignore[assignment]
        hand = sorted(st.hands[seat] or (), key=self.card_index.__getitem__)
        located = sorted((c, s) for c, s in st.holder.items() if s != seat)
        claimed = ", ".join(f"{n}:{'void' if t is None else t}" for n, t in st.set_owner.items())
        parts = [f"seat {seat}", f"hand {' '.join(hand) or '-'}", f"sizes {' '.join(map(str, st.sizes))}",
                 f"located {' '.join(f'{c}@{s}' for c, s in located) or '-'}", f"claimed {claimed or '-'}",
                 f"to move {st.to_move()}"]
        if st.pending is not None:
            parts.append("pending " + json.dumps(st.pending, sort_keys=True, separators=(",", ":")))
        return " | ".join(parts)

    # ------------------------------------------------------------------ resampling
    def belief(self, world, seat: int) -> LiteratureBelief:
        """``seat``'s exact belief tracker after ``world``'s log (cached on the world), with a
        pending claim taken in as if it were complete (its cards are shown)."""
        key = ("literature-belief", seat, len(world.log))
        b = world.cache.get(key)
        if b is None:
            b = LiteratureBelief(self.options, seat, world.dealt_hand(seat), model="uniform")
            for entry in world.log:
                if entry[0] == "event":
                    b.observe(entry[1])
            st = world.state
            if st.pending is not None:
                ev = dict(st.pending)
                if st.claim_has_next():
                    cands = st.next_candidates(ev)
                    ev["next"] = cands[0] if cands else None
                b.observe(ev)
            world.cache[key] = b
        return b

    def resample(self, world, seat: int, rng: np.random.Generator):
        """Exactly uniform among the deals consistent with ``seat``'s information
        (:meth:`LiteratureBelief.sample_hands`, the exact counting sampler); the complete
        state is the current one with the hidden hands replaced (every event is public)."""
        from ...adapters.world import World  # noqa: PLC0415

        st: LiteratureState = world.state
        b = self.belief(world, seat)
        hands = b.sample_hands(rng)
        if st.pending is not None:            # the pending claim's cards are still held
            for c, s in st.pending["actual"].items():
                hands[s].add(c)
        # the dealt hands: a card's dealt holder is the giver of its first hand-over, else the
        # holder shown by a claim, else where it is now
        dealt: dict[str, int] = {}
        for entry in world.log:
            if entry[0] != "event":
                continue
            ev = entry[1]
            if ev["type"] == "ask" and ev["success"]:
                dealt.setdefault(ev["card"], ev["target"])
            elif ev["type"] == "claim":
                for c, s in ev["actual"].items():
                    dealt.setdefault(c, s)
        if st.pending is not None:
            for c, s in st.pending["actual"].items():
                dealt.setdefault(c, s)
        for s, h in enumerate(hands):
            for c in h:
                dealt.setdefault(c, s)
        dealt_hands: list[list[str]] = [[] for _ in range(self.P)]
        for c in self.cards:
            dealt_hands[dealt[c]].append(c)
        sizes = deal_sizes(self.P, self.options["deck"])
        if [len(h) for h in dealt_hands] != list(sizes) or dealt_hands[seat] != world.dealt_hand(seat):
            raise AssertionError("resampled deal does not match the deal sizes or the seat's hand")
        new = st.copy()
        new.hands = [set(h) for h in hands]
        new.holder = {c: s for s, h in enumerate(hands) for c in h}
        new.observer = None
        header = {"format": "cardmind-record/1", "game": self.game.name, "options": self.options,
                  "hands": dealt_hands}
        if world.is_complete():
            w = world.copy()
            w.header = header
            w.state = new
            w.order = [self.card_index[c] for c in self.order_from_header(header)]
        else:
            w = World.from_state(self, header, new, world.log, world.react, world.moves,
                                 world.max_moves, world.truncation)
            w.decisions = None
        w._views = {}      # the other seats' views depend on their hands (the pieces do not: events are public)
        w._current = None
        w.cache = {k: v for k, v in world.cache.items() if k[1] == seat}
        return w


__all__ = ["LiteratureCodec"]
