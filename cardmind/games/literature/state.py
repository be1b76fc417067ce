"""Literature game state: the rules applied to actions and record events.

Sources: ``shared/seeds/literature.txt`` and ``shared/spec/rules.md`` (Literature).
Every rule check raises :class:`~cardmind.errors.IllegalAction` whose ``rule`` is one of:

``game-over``, ``pending-next``, ``turn``, ``no-cards``, ``ask-teammate``, ``ask-self``,
``ask-empty``, ``unknown-card``, ``set-claimed``, ``ask-own-card``, ``ask-without-set``,
``ask-result``, ``claim-set``, ``claim-teammates``, ``claim-actual``, ``claim-correct``,
``claim-next``, ``pass-has-cards``, ``pass-target``, ``choose-next``, ``seat``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from itertools import product
from typing import Any

from ...core import Event, Result, State
from ...errors import IllegalAction
from .notation import Ask, ChooseNext, Claim, Pass
from .rules import deal_sizes, deck_cards, set_cards, set_names, set_of, team_of


@lru_cache(maxsize=None)
def _deck_info(deck: str) -> tuple[dict[str, str], dict[str, int], int]:
    """Look-up tables of a deck: ``({card: set}, {set: canonical position}, number of sets)``."""
    names = set_names(deck)
    return ({c: set_of(c, deck) for c in deck_cards(deck)}, {n: k for k, n in enumerate(names)}, len(names))


class LiteratureState(State):
    """A Literature game in progress, complete (every hand known) or one seat's view.

    Attributes:
        options: the parsed options (``players``, ``deck``, ...).
        sizes: current number of cards per seat (public).
        holder: ``{card: seat}`` for every card in play whose holder this state knows
            (every card in a complete state; in a view, the seat's own cards and every card
            that has been handed over, since hand-overs are public).
        hands: per seat the set of cards held now, or ``None`` where unknown.
        set_owner: ``{set: team or None}`` for claimed sets (``None`` = void).
        turn: the seat on turn (``None`` when over).
        pending: a claim event waiting for the choice of who plays next, or ``None``.
        moved: cards that have been handed over at least once.
        observer: the seat whose view this is, or ``None`` for a complete state.
    """

    def __init__(self, game, options: dict, hands: list[Iterable[str] | None], observer: int | None = None):
        self.game = game
        self.options = options
        self.players: int = options["players"]
        self.deck: str = options["deck"]
        self.dealt_sizes = deal_sizes(self.players, self.deck)
        self.sizes = list(self.dealt_sizes)
        self.hands: list[set[str] | None] = [None if h is None else set(h) for h in hands]
        self.holder: dict[str, int] = {}
        for s, h in enumerate(self.hands):
            if h is not None:
                for c in h:
                    self.holder[c] = s
        self.set_owner: dict[str, int | None] = {}
        self.team_sets = [0, 0]
        self.turn: int | None = 0
        self.pending: Event | None = None
        self.moved: set[str] = set()
        self.observer = observer
        self.num_events = 0
        self._set_of, self._set_pos, self._nsets = _deck_info(self.deck)

    # ------------------------------------------------------------------ basics
    @property
    def num_seats(self) -> int:
        """Number of seats."""
        return self.players

    def copy(self) -> "LiteratureState":
        """An independent copy."""
        new = object.__new__(LiteratureState)
        new.__dict__.update(self.__dict__)
        new.sizes = list(self.sizes)
        new.hands = [None if h is None else set(h) for h in self.hands]
        new.holder = dict(self.holder)
        new.set_owner = dict(self.set_owner)
        new.team_sets = list(self.team_sets)
        new.moved = set(self.moved)
        new.pending = None if self.pending is None else dict(self.pending)
        return new

    def view(self, seat: int) -> "LiteratureState":
        """What ``seat`` knows: its own hand and the holders of cards that were handed over."""
        new = self.copy()
        new.hands = [set(self.hands[s]) if s == seat and self.hands[s] is not None else None
                     for s in range(self.players)]
        if new.hands[seat] is None:
            raise ValueError(f"this state does not know seat {seat}'s hand")
        new.holder = {c: s for c, s in self.holder.items() if s == seat or c in self.moved}
        new.observer = seat
        return new

    def redact(self, event: Event, seat: int) -> Event:
        """Literature events are public: every seat sees them whole."""
        return event

    def is_complete(self) -> bool:
        """Whether every hand is known."""
        return all(h is not None for h in self.hands)

    def unclaimed_sets(self) -> list[str]:
        """Sets not yet claimed or void, in canonical order."""
        return [n for n in set_names(self.deck) if n not in self.set_owner]

    def cards_in_play(self) -> list[str]:
        """Cards of the unclaimed sets, in deck order."""
        return [c for c in deck_cards(self.deck) if set_of(c, self.deck) not in self.set_owner]

    def is_over(self) -> bool:
        """Whether every set has been claimed or voided."""
        return len(self.set_owner) == self._nsets

    def to_move(self) -> int | None:
        """The seat to act: the chooser of the next player while a claim waits, else the seat on turn."""
        if len(self.set_owner) == self._nsets:
            return None
        if self.pending is not None:
            return self.pending_chooser()
        return self.turn

    def actors(self) -> list[int]:
        """Seats that may act now: the seat to move first; under ``claim_any_time`` also every
        other seat with cards (they may claim)."""
        t = self.to_move()
        if t is None:
            return []
        if self.options["claim_any_time"] and self.pending is None:
            return [t] + [s for s in range(self.players) if s != t and self.sizes[s] > 0]
        return [t]

    def team_has_cards(self, team: int) -> bool:
        """Whether any seat of ``team`` holds cards."""
        return any(self.sizes[s] > 0 for s in range(team, self.players, 2))

    # ------------------------------------------------------------------ legality
    def legal_asks(self, seat: int) -> list[Ask]:
        """Every legal ask for ``seat`` now (needs ``seat``'s hand), set by set in canonical
        order, card by card, target by target (``[Ask(seat, t, c) for c in cards for t in
        targets]`` with ``(cards, targets) = ask_choices(seat)``)."""
        cards, targets = self.ask_choices(seat)
        return [Ask(seat, t, c) for c in cards for t in targets]

    def ask_choices(self, seat: int) -> tuple[list[str], list[int]]:
        """``(cards, targets)``: the legal asks of ``seat`` now are every card of ``cards``
        asked of every seat of ``targets`` (both empty when it may not ask).

        ``cards`` lists, for each set ``seat`` holds a card of (canonical order), the set's
        cards in rank order that it may ask for; ``targets`` the opponents with cards in
        seat order. ``legal_asks`` is this product, cards major, without building it.
        """
        if len(self.set_owner) == self._nsets or self.pending is not None or seat != self.turn \
                or self.sizes[seat] == 0:
            return [], []
        hand = self.hands[seat]
        if hand is None:
            raise ValueError(f"this state does not know seat {seat}'s hand")
        sizes = self.sizes
        targets = [t for t in range(1 - seat % 2, self.players, 2) if sizes[t] > 0]
        if not targets:
            return [], []
        own = self.options["ask_own_card"]
        set_of_card = self._set_of
        sets = {set_of_card[c] for c in hand}
        cards = []
        for name in sorted(sets, key=self._set_pos.__getitem__):
            if own:
                cards.extend(set_cards(name))
            else:
                cards.extend(c for c in set_cards(name) if c not in hand)
        return (cards, targets) if cards else ([], [])

    def legal_passes(self, seat: int) -> list[Pass]:
        """The passes open to ``seat`` (on turn without cards)."""
        if self.is_over() or self.pending is not None or seat != self.turn or self.sizes[seat] > 0:
            return []
        return [Pass(seat, t) for t in self._pass_targets(seat)]

    def _pass_targets(self, seat: int) -> list[int]:
        mates = [s for s in range(seat % 2, self.players, 2) if s != seat and self.sizes[s] > 0]
        if mates:
            return mates
        return [s for s in range(1 - seat % 2, self.players, 2) if self.sizes[s] > 0]

    def may_claim(self, seat: int) -> bool:
        """Whether ``seat`` may claim now (on turn with cards, or any time under ``claim_any_time``)."""
        if self.is_over() or self.pending is not None or self.sizes[seat] == 0:
            return False
        return seat == self.turn or self.options["claim_any_time"]

    def claim_actions(self, seat: int, set_name: str) -> list[Claim]:
        """Every claim of ``set_name`` that ``seat`` may make (one per assignment to its team)."""
        if not self.may_claim(seat) or set_name in self.set_owner:
            return []
        cards = set_cards(set_name)
        team = tuple(range(seat % 2, self.players, 2))
        return [Claim(seat, set_name, tuple(zip(cards, seats))) for seats in product(team, repeat=6)]

    def legal_actions(self, seat: int, claims: bool = True) -> list:
        """Every legal action for ``seat``: asks, passes, next-player choices and, unless
        ``claims`` is false, every claim (``team size ** 6`` per unclaimed set)."""
        if self.is_over():
            return []
        if self.pending is not None:
            if seat != self.pending_chooser():
                return []
            return [ChooseNext(seat, n) for n in self.next_candidates(self.pending)]
        out: list = []
        if seat == self.turn:
            out += self.legal_passes(seat)
            out += self.legal_asks(seat)
        if claims:
            for name in self.unclaimed_sets():
                out += self.claim_actions(seat, name)
        return out

    def check_action(self, action) -> None:
        """Raise :class:`IllegalAction` unless ``action`` is legal now."""
        if isinstance(action, Ask):
            self._check_ask(action.asker, action.target, action.card, None)
        elif isinstance(action, Claim):
            self._check_claim_common(action.claimer, action.set, action.assignment_dict())
        elif isinstance(action, Pass):
            self._check_pass(action.from_, action.to)
        elif isinstance(action, ChooseNext):
            if self.pending is None:
                raise IllegalAction("choose-next", "no claim is waiting for the choice of who plays next")
            if action.chooser != self.pending_chooser():
                raise IllegalAction("turn", f"seat {self.pending_chooser()} chooses who plays next, "
                                            f"not seat {action.chooser}")
            cands = self.next_candidates(self.pending)
            if action.next not in cands:
                raise IllegalAction("choose-next", f"seat {action.next} cannot play next "
                                                   f"(choose one of {cands})")
        else:
            raise IllegalAction("unknown-action", f"not a Literature action: {action!r}")

    def _check_seat(self, seat: Any, role: str) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction("seat", f"{role} {seat!r} is not a seat (0-{self.players - 1})")

    def _check_live(self) -> None:
        if len(self.set_owner) == self._nsets:
            raise IllegalAction("game-over", "the game is over: every set has been claimed")
        if self.pending is not None:
            raise IllegalAction("pending-next", f"seat {self.pending_chooser()} must first choose who plays next")

    def _check_card(self, card: str) -> str:
        name = self._set_of.get(card)
        if name is None:
            raise IllegalAction("unknown-card", f"{card} is not in the {self.deck}-card deck")
        if name in self.set_owner:
            raise IllegalAction("set-claimed", f"{card} belongs to {name}, which has already been claimed")
        return name

    def _check_ask(self, asker: int, target: int, card: str, success: bool | None) -> None:
        if len(self.set_owner) == self._nsets or self.pending is not None:
            self._check_live()
        players = self.players
        # the fast tests let plain in-range ints through; anything else gets the full check
        if type(asker) is not int or not 0 <= asker < players:
            self._check_seat(asker, "asker")
        if type(target) is not int or not 0 <= target < players:
            self._check_seat(target, "target")
        if asker != self.turn:
            raise IllegalAction("turn", f"seat {asker} asked, but it is seat {self.turn}'s turn")
        sizes = self.sizes
        if sizes[asker] == 0:
            raise IllegalAction("no-cards", f"seat {asker} has no cards and cannot ask (it must pass)")
        if asker == target:
            raise IllegalAction("ask-self", f"seat {asker} asked itself")
        if asker % 2 == target % 2:
            raise IllegalAction("ask-teammate", f"seat {asker} asked its teammate seat {target}")
        if sizes[target] == 0:
            raise IllegalAction("ask-empty", f"seat {asker} asked seat {target}, who has no cards")
        name = self._set_of.get(card)
        if name is None or name in self.set_owner:
            name = self._check_card(card)
        own = self.options["ask_own_card"]
        holder = self.holder
        if not own and holder.get(card) == asker:
            raise IllegalAction("ask-own-card", f"seat {asker} asked for {card}, which it holds")
        hand = self.hands[asker]
        if hand is not None:
            for c in set_cards(name):
                if c in hand and (own or c != card):
                    break
            else:
                raise IllegalAction("ask-without-set", f"seat {asker} asked for {card} without holding "
                                                       f"{'a' if own else 'another'} card of {name}")
        if success is not None:
            known = holder.get(card)
            if success and known is not None and known != target:
                raise IllegalAction("ask-result", f"seat {target} handed over {card}, but seat {known} holds it")
            if not success and known == target:
                raise IllegalAction("ask-result", f"seat {target} refused {card}, but holds it")
            if success and self.hands[target] is not None and card not in self.hands[target]:
                raise IllegalAction("ask-result", f"seat {target} handed over {card}, which it does not hold")

    def _check_claim_common(self, claimer: int, name: str, assignment: Mapping[str, int]) -> tuple[str, ...]:
        self._check_live()
        self._check_seat(claimer, "claimer")
        if self.sizes[claimer] == 0:
            raise IllegalAction("no-cards", f"seat {claimer} has no cards and cannot claim")
        if claimer != self.turn and not self.options["claim_any_time"]:
            raise IllegalAction("turn", f"seat {claimer} claimed, but it is seat {self.turn}'s turn "
                                        f"(claims out of turn need the option claim_any_time)")
        if not isinstance(name, str) or name not in self._set_pos:
            raise IllegalAction("claim-set", f"{name!r} is not a set of the {self.deck}-card deck")
        if name in self.set_owner:
            raise IllegalAction("set-claimed", f"{name} has already been claimed")
        cards = set_cards(name)
        if set(assignment) != set(cards):
            raise IllegalAction("claim-set", f"a claim of {name} must name exactly {', '.join(cards)}")
        for c in cards:
            s = assignment[c]
            self._check_seat(s, "claimed holder")
            if team_of(s) != team_of(claimer):
                raise IllegalAction("claim-teammates", f"seat {claimer}'s claim names seat {s} for {c}, "
                                                       f"who is not on its team")
        return cards

    def _check_pass(self, frm: int, to: int) -> None:
        self._check_live()
        self._check_seat(frm, "passer")
        self._check_seat(to, "pass target")
        if frm != self.turn:
            raise IllegalAction("turn", f"seat {frm} passed, but it is seat {self.turn}'s turn")
        if self.sizes[frm] > 0:
            raise IllegalAction("pass-has-cards", f"seat {frm} passed the turn while holding cards")
        if to not in self._pass_targets(frm):
            raise IllegalAction("pass-target", f"seat {frm} passed to seat {to}; it must pass to "
                                               f"{self._pass_targets(frm)} (a teammate with cards first)")

    # ------------------------------------------------------------------ claims and the next player
    def claim_award(self, claimer: int, correct: bool, actual: Mapping[str, int]) -> int | None:
        """The team awarded a claim (``None`` = void, under ``wrong_claim: "cancel"``)."""
        team = team_of(claimer)
        if correct:
            return team
        if self.options["wrong_claim"] == "cancel" and all(team_of(s) == team for s in actual.values()):
            return None
        return 1 - team

    def claim_has_next(self) -> bool:
        """Whether claim events carry ``next`` under these options."""
        return not self.options["claim_any_time"] and self.options["after_claim"] == "awarded_team"

    def next_candidates(self, event: Mapping[str, Any]) -> list[int]:
        """Seats that may play next after the claim ``event`` (sizes after its cards leave);
        empty when the game ends with it."""
        sizes = list(self.sizes)
        for s in event["actual"].values():
            sizes[s] -= 1
        if len(self.set_owner) + 1 == self._nsets:
            return []
        award = self.claim_award(event["claimer"], event["correct"], event["actual"])
        team = team_of(event["claimer"]) if award is None else award
        for t in (team, 1 - team):
            cands = [s for s in range(t, self.players, 2) if sizes[s] > 0]
            if cands:
                return cands
        return []

    def pending_notice(self) -> Event | None:
        """The claim waiting for the choice of who plays next (its cards are public), or ``None``."""
        return None if self.pending is None else dict(self.pending)

    def apply_pending_notice(self, notice: Event) -> None:
        """Record the referee's pending claim so this view knows who must choose next.

        Raises:
            IllegalAction: the notice is not a claim that this state could accept.
        """
        if notice.get("type") != "claim" or "next" in notice:
            raise IllegalAction("notice", f"not a pending claim: {notice!r}")
        self._check_claim_common(notice["claimer"], notice["set"], notice["assignment"])
        self.pending = dict(notice)

    def pending_chooser(self) -> int:
        """The seat that chooses who plays next for the pending claim: the claimer if its team
        picks, else the first seat of the picking team clockwise from the claimer."""
        ev = self.pending
        cands = self.next_candidates(ev)
        team = team_of(cands[0])
        c = ev["claimer"]
        for k in range(self.players):
            s = (c + k) % self.players
            if team_of(s) == team:
                return s
        raise AssertionError("unreachable")

    # ------------------------------------------------------------------ applying
    def apply_action(self, action) -> list[Event]:
        """Resolve ``action`` (needs the hands it depends on) and apply it; return its events."""
        self.check_action(action)
        if isinstance(action, Ask):
            hand = self.hands[action.target]
            if hand is None:
                raise ValueError(f"cannot resolve an ask: seat {action.target}'s hand is unknown")
            ev = {"type": "ask", "asker": action.asker, "target": action.target, "card": action.card,
                  "success": action.card in hand}
        elif isinstance(action, Pass):
            ev = {"type": "pass", "from": action.from_, "to": action.to}
        elif isinstance(action, Claim):
            actual = {}
            for c in set_cards(action.set):
                if c not in self.holder:
                    raise ValueError(f"cannot resolve a claim: the holder of {c} is unknown")
                actual[c] = self.holder[c]
            assignment = action.assignment_dict()
            ev = {"type": "claim", "claimer": action.claimer, "set": action.set, "assignment": assignment,
                  "actual": actual, "correct": assignment == actual}
            if self.claim_has_next():
                cands = self.next_candidates(ev)
                if len(cands) > 1:
                    self.pending = ev
                    return []
                ev["next"] = cands[0] if cands else None
        else:  # ChooseNext
            ev = dict(self.pending)
            ev["next"] = action.next
            self.pending = None
        self.apply_event(ev)
        return [ev]

    def apply_event(self, event: Event) -> None:
        """Apply one record event after checking it (see the module docstring for the rules)."""
        kind = event["type"]
        if kind == "ask":
            self._check_ask(event["asker"], event["target"], event["card"], event["success"])
            card, asker, target = event["card"], event["asker"], event["target"]
            if event["success"]:
                self.sizes[target] -= 1
                self.sizes[asker] += 1
                if self.hands[target] is not None:
                    self.hands[target].discard(card)
                if self.hands[asker] is not None:
                    self.hands[asker].add(card)
                self.holder[card] = asker
                self.moved.add(card)
            else:
                self.turn = target
        elif kind == "claim":
            self._apply_claim(event)
        elif kind == "pass":
            self._check_pass(event["from"], event["to"])
            self.turn = event["to"]
        else:
            raise IllegalAction("event-type", f"unknown Literature event type {kind!r}")
        self.num_events += 1

    def _apply_claim(self, event: Event) -> None:
        claimer, name = event["claimer"], event["set"]
        if self.pending is not None:
            p = self.pending
            if (p["claimer"], p["set"], p["assignment"]) != (claimer, name, event["assignment"]):
                raise IllegalAction("pending-next", f"seat {self.pending_chooser()} must first choose who "
                                                    f"plays next after the claim of {p['set']}")
            self.pending = None
        cards = self._check_claim_common(claimer, name, event["assignment"])
        actual = event["actual"]
        if set(actual) != set(cards):
            raise IllegalAction("claim-actual", f"the actual holders must name exactly {', '.join(cards)}")
        need = [0] * self.players
        for c in cards:
            s = actual[c]
            self._check_seat(s, "actual holder")
            known = self.holder.get(c)
            if known is not None and known != s:
                raise IllegalAction("claim-actual", f"the claim shows {c} at seat {s}, but seat {known} holds it")
            hand = self.hands[s]
            if hand is not None and c not in hand:
                raise IllegalAction("claim-actual", f"the claim shows {c} at seat {s}, which does not hold it")
            need[s] += 1
        for s in range(self.players):
            if need[s] > self.sizes[s]:
                raise IllegalAction("claim-actual", f"the claim shows {need[s]} cards at seat {s}, "
                                                    f"which holds only {self.sizes[s]}")
        correct = all(event["assignment"][c] == actual[c] for c in cards)
        if event["correct"] != correct:
            raise IllegalAction("claim-correct", f"the claim is marked correct={event['correct']}, "
                                                 f"but the assignment and the actual holders "
                                                 f"{'agree' if correct else 'differ'}")
        has_next = self.claim_has_next()
        if has_next:
            if "next" not in event:
                raise IllegalAction("claim-next", "under these options a claim must say who plays next ('next')")
            cands = self.next_candidates(event)
            nxt = event["next"]
            if not cands and nxt is not None:
                raise IllegalAction("claim-next", "the game ends with this claim, so 'next' must be null")
            if cands and nxt not in cands:
                raise IllegalAction("claim-next", f"seat {nxt!r} cannot play next; the team that picks "
                                                  f"chooses among {cands}")
        elif "next" in event:
            raise IllegalAction("claim-next", "under claim_any_time or after_claim=claimant a claim has no 'next' "
                                              "(the turn stays with the player who had it)")
        award = self.claim_award(claimer, correct, actual)
        for c in cards:
            s = actual[c]
            self.sizes[s] -= 1
            if self.hands[s] is not None:
                self.hands[s].discard(c)
            self.holder.pop(c, None)
        self.set_owner[name] = award
        if award is not None:
            self.team_sets[award] += 1
        self.pending = None
        if self.is_over():
            self.turn = None
        elif has_next:
            self.turn = event["next"]

    # ------------------------------------------------------------------ result
    def result(self) -> Result:
        """Sets won per team as each seat's score; the team with more sets wins (a tie draws)."""
        if not self.is_over():
            raise ValueError("the game is not over")
        t0, t1 = self.team_sets
        out0 = 1.0 if t0 > t1 else 0.5 if t0 == t1 else 0.0
        outcome = tuple(out0 if s % 2 == 0 else 1.0 - out0 for s in range(self.players))
        scores = tuple(float(self.team_sets[s % 2]) for s in range(self.players))
        void = [n for n, t in self.set_owner.items() if t is None]
        return Result(scores, outcome, {"team_sets": [t0, t1], "void_sets": void})
