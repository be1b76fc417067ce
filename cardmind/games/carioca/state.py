"""Contract rummy game state: the rules applied to actions and record events.

Sources: ``shared/seeds/carioca.txt`` and ``shared/spec/rules.md`` (contract rummy);
``docs/carioca.md`` states every rule and every decision taken where the texts are silent.

One class serves the referee (a *complete* state: every hand and the stock order) and a
player (a *view*: its own hand and what the events show). Both advance by
:meth:`CariocaState.apply_event`, which checks the event against the rules and against
what the state knows, and raises :class:`~cardmind.errors.IllegalAction` naming the rule:

``game-over``, ``event-type``, ``seat``, ``turn``, ``offer``, ``take``, ``steal``,
``steal-stock``, ``must-draw``, ``draw``, ``draw-card``, ``stock-order``, ``restock``,
``not-in-hand``, ``go-down``, ``go-down-twice``, ``contract``, ``meld``, ``keep-a-card``,
``lay-off``, ``not-down``, ``last-card``, ``discard``, ``hand-end``, ``scores``, ``deal``,
``unknown-card``.

Flow of a hand (what event may come next):

* **Offer.** The card on top of the discard pile is offered in seat order, starting with
  the player on turn (after a discard: the seat after the discarder; the discarder is never
  asked; the card turned up at the start of a hand is offered to every seat). The player on
  turn ``take``\\ s it (its draw) or ``pass``\\ es; any other player ``steal``\\ s it (with
  ``steal_penalty`` penalty cards from the stock, seen by the stealer only) or ``pass``\\ es.
  A take or a steal closes the offer; so does the last pass.
* **Draw.** When the offer closed without a take, the player on turn ``draw``\\ s from the
  stock. When the stock is empty, a ``restock`` comes first: the discards but the top card,
  shuffled, are the new stock (a steal that needs more penalty cards than the stock has is
  also preceded by a ``restock``). When no restock can give a card (no discards under the top
  card, or the hand already had ``restocks`` restocks), the hand ends with nobody out.
* **Play.** The player on turn may ``go_down`` once per hand (exactly the contract's sets and
  runs, each at least 3 / 4 cards, keeping a card), ``lay_off`` single cards on any meld
  once down (keeping a card), and ends the turn with a ``discard``.
* **End.** Discarding the last card ends the hand: ``hand_end`` (remaining hands shown,
  scores, totals; in a player's record a hand it did not see may be ``null``, its score then
  the number given), then the ``deal`` of the next hand, or the end of the game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any


from ...core import Event, Result, State
from ...errors import IllegalAction
from .melds import Meld, find_contract, layoff_error, layoff_places, meld_error
from .notation import Discard, GoDown, LayOff, Pass, Steal, Take
from .rules import (card_points, contract, contract_name, deck_counts, first_player, hand_cards,
                    hand_points, sort_hand)
from .events import CariocaEvents, deal_hand, next_deal, restock_order

#: how many ways to go down ``legal_actions`` lists (any valid arrangement is accepted)
GO_DOWN_OPTIONS = 6


class CariocaState(CariocaEvents, State):
    """A contract rummy game in progress, complete (every hand and the stock known) or one seat's view.

    Public attributes (read them, do not change them; the trackers and players use these):

    Attributes:
        options: the parsed options; ``players``: number of seats.
        observer: the seat whose view this is, or ``None`` for a complete state.
        hand_no: the hand being played (1-based); ``sets``, ``runs``: its contract.
        hands: per seat a :class:`~collections.Counter` of the cards held now, or ``None``
            where this state does not know it.
        known: per seat the cards everyone knows it holds now (discards it took or stole,
            while it may still hold them: a copy it plays is taken off).
        sizes: cards held per seat (public).
        stock: the stock in draw order (complete state) else ``None``; ``stock_count``: its size.
        pile: the discard pile, bottom first (public); its last card is on top.
        table: the melds of this hand in the order laid: ``{"owner", "kind", "cards"}``.
        down: per seat whether it has gone down this hand; ``down_turn``: the turn number it
            went down in (or ``None``).
        turn: the seat on turn; ``turn_no``: turns begun this hand (a turn begins with the offer).
        phase: ``"offer"``, ``"draw"`` (the offer closed without a take: a draw is due),
            ``"play"``, ``"hand_end"`` (the last card was discarded), ``"deal"`` (the next
            hand is to be dealt) or ``"over"``.
        offer: while ``phase == "offer"``: ``{"card", "from" (discarder or None), "order"
            (seats still to decide, first decides now)}``.
        restock_for_steal: a restock just came for a steal (the next event must be that steal).
        totals: points per seat so far (the hands ended); ``hand_scores``: per ended hand the
            points of every seat; ``outs``: per ended hand the seat that went out (or ``None``).
        seed: the header's seed (a referee deals later hands and restocks from it), or ``None``.
        history: every event applied, as this state received it; ``hand_start``: the index in
            it of the first event of the current hand.
    """

    def __init__(self, game, options: dict, hands: list[Iterable[str] | None], up: str,
                 stock: Iterable[str] | None = None, observer: int | None = None, seed: int | None = None):
        self.game = game
        self.options = options
        self.players: int = options["players"]
        self.observer = observer
        self.seed = seed
        self.deck = deck_counts(options)
        self.totals = [0] * self.players
        self.hand_scores: list[list[int]] = []
        self.outs: list[int | None] = []
        self.history: list[Event] = []
        self.over = False
        self.restocks = 0
        self.shown_hands: list[list[str]] | None = None
        self.first_deal = {"hands": [None if h is None else list(h) for h in hands], "up": up}
        self._start_hand(1, hands, up, stock)

    # ------------------------------------------------------------------ hands
    def _start_hand(self, hand_no: int, hands: list[Iterable[str] | None], up: str,
                    stock: Iterable[str] | None) -> None:
        self.hand_no = hand_no
        self.sets, self.runs = contract(self.options, hand_no)
        self.hands: list[Counter | None] = [None if h is None else Counter(h) for h in hands]
        self.known: list[Counter] = [Counter() for _ in range(self.players)]
        size = hand_cards(self.options, hand_no)
        self.sizes = [size] * self.players
        self.stock: list[str] | None = None if stock is None else list(stock)
        self.stock_count = sum(self.deck.values()) - self.players * size - 1
        self.pile: list[str] = [up]
        self.table: list[dict] = []
        self.down = [False] * self.players
        self.down_turn: list[int | None] = [None] * self.players
        self.turn = first_player(self.options, hand_no)
        self.turn_no = 1
        self.phase = "offer"
        self.offer: dict | None = {"card": up, "from": None,
                                   "order": [(self.turn + i) % self.players for i in range(self.players)]}
        self.restock_for_steal = False
        self.hand_start = len(self.history)
        self.hand_restocks = 0

    # ------------------------------------------------------------------ basics
    @property
    def num_seats(self) -> int:
        """Number of seats."""
        return self.players

    def is_complete(self) -> bool:
        """Whether every hand is known (a referee's state or a complete record)."""
        return all(h is not None for h in self.hands)

    def copy(self) -> "CariocaState":
        """An independent copy."""
        new = object.__new__(CariocaState)
        new.__dict__.update(self.__dict__)
        new.hands = [None if h is None else Counter(h) for h in self.hands]
        new.known = [Counter(k) for k in self.known]
        new.sizes = list(self.sizes)
        new.stock = None if self.stock is None else list(self.stock)
        new.pile = list(self.pile)
        new.table = [{"owner": m["owner"], "kind": m["kind"], "cards": list(m["cards"])} for m in self.table]
        new.down = list(self.down)
        new.down_turn = list(self.down_turn)
        new.offer = None if self.offer is None else {**self.offer, "order": list(self.offer["order"])}
        new.totals = list(self.totals)
        new.hand_scores = [list(x) for x in self.hand_scores]
        new.outs = list(self.outs)
        new.history = list(self.history)
        return new

    def view(self, seat: int) -> "CariocaState":
        """What ``seat`` knows: a view built from its first dealt hand and the events as it saw them.

        Raises:
            ValueError: this state does not know ``seat``'s dealt hand.
        """
        own = self._view_of_a_view(seat)
        if own is not None:
            return own
        first = self.first_deal
        v = CariocaState(self.game, self.options, [first["hands"][seat] if s == seat else None
                                                   for s in range(self.players)], first["up"], None, seat)
        for ev in self.history:
            v.apply_event(self.redact(ev, seat))
        return v

    def redact(self, event: Event, seat: int) -> Event:
        """``event`` as ``seat`` sees it: another player's stock draw and penalty cards are null,
        a restock's order is null, and a deal shows only ``seat``'s hand (no stock)."""
        t = event["type"]
        if t == "draw" and event["player"] != seat:
            return {**event, "card": None}
        if t == "steal" and event["player"] != seat:
            return {**event, "penalty": None}
        if t == "restock":
            return {**event, "cards": None}
        if t == "deal":
            hands = event["hands"]
            return {**event, "hands": [h if s == seat else None for s, h in enumerate(hands)], "stock": None}
        return dict(event)

    # ------------------------------------------------------------------ public facts
    def is_over(self) -> bool:
        """Whether the game has ended (the last hand's ``hand_end`` was applied)."""
        return self.over

    def to_move(self) -> int | None:
        """The seat deciding now: in an offer the seat asked, else the player on turn (also while
        its forced draw is due); ``None`` when the game is over."""
        if self.over:
            return None
        if self.phase == "offer":
            return self.offer["order"][0]
        return self.turn

    def must(self) -> str | None:
        """The forced event due next (``"draw"``, ``"restock"``, ``"hand_end"``, ``"deal"``), else ``None``."""
        if self.phase == "draw":
            if self.stock_count > 0:
                return "draw"
            return "restock" if self.can_restock() else "hand_end"
        if self.phase in ("hand_end", "deal"):
            return self.phase
        return None

    def table_counts(self) -> Counter:
        """Every card in the melds on the table."""
        c: Counter = Counter()
        for m in self.table:
            c.update(m["cards"])
        return c

    def located(self, exclude: int | None = None) -> Counter:
        """The copies this state can place: its known hands, public holdings, the pile and the
        table (``exclude``: leave that seat's hand and holdings out)."""
        c = Counter(self.pile)
        c.update(self.table_counts())
        for s in range(self.players):
            if s == exclude:
                continue
            h = self.hands[s]
            c.update(h if h is not None else self.known[s])
        return c

    def layoff_options(self, seat: int, card: str) -> list[tuple[int, str]]:
        """``(meld index, at)`` of every place ``card`` may be laid off on the table now."""
        out = []
        for i, m in enumerate(self.table):
            for at in layoff_places(m["kind"], m["cards"], card):
                out.append((i, at))
        return out

    def can_restock(self) -> bool:
        """Whether the stock may be rebuilt now: discards lie under the top card and the hand has
        had fewer than ``restocks`` restocks."""
        return len(self.pile) > 1 and self.hand_restocks < self.options["restocks"]

    def can_steal(self) -> bool:
        """Whether the stock (with a restock of the discards under the offered card) holds the penalty cards."""
        need = self.options["steal_penalty"]
        if self.stock_count >= need:
            return True
        return self.can_restock() and self.stock_count + len(self.pile) - 1 >= need

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: int) -> list:
        """Every legal action of ``seat`` now, as far as this state knows its hand (empty when
        it may not act or its hand is unknown). Going down is listed for up to
        :data:`GO_DOWN_OPTIONS` arrangements (the melds at their minimum lengths, the most
        points laid first); any valid arrangement is accepted by :meth:`check_action`."""
        if self.over or self.must() is not None:
            return []
        if self.phase == "offer":
            if seat != self.offer["order"][0]:
                return []
            if seat == self.turn:
                return [Take(seat), Pass(seat)]
            return ([Steal(seat)] if self.can_steal() else []) + [Pass(seat)]
        if self.phase != "play" or seat != self.turn:
            return []
        hand = self.hands[seat]
        if hand is None:
            return []
        out: list = []
        if not self.down[seat]:
            for melds in self.go_down_options(seat):
                out.append(GoDown(seat, melds))
        if self.down[seat] and self.sizes[seat] > 1:
            for c in sort_hand(hand):
                if hand[c] <= 0:
                    continue
                for i, at in self.layoff_options(seat, c):
                    out.append(LayOff(seat, c, i, at))
        for c in sort_hand(+hand):
            out.append(Discard(seat, c))
        return out

    def go_down_options(self, seat: int, limit: int = GO_DOWN_OPTIONS) -> list[tuple[Meld, ...]]:
        """Ways ``seat`` (whose hand this state knows) can go down now (see :func:`.melds.find_contract`),
        the arrangements laying the most points first."""
        hand = self.hands[seat]
        if hand is None or self.down[seat]:
            return []
        found = find_contract(hand.elements(), self.sets, self.runs, limit=4 * limit)
        found.sort(key=lambda ms: -sum(card_points(c, self.options) for m in ms for c in m.cards))
        out, seen = [], set()
        for ms in found:
            key = tuple(sorted((m.kind, tuple(sorted(m.cards))) for m in ms))
            if key not in seen:
                seen.add(key)
                out.append(ms)
            if len(out) >= limit:
                break
        return out

    def check_action(self, action) -> None:
        """Raise :class:`IllegalAction` unless ``action`` is legal now (checked against what
        this state knows; a view cannot check another seat's cards)."""
        self._check_live()
        if self.must() is not None:
            raise IllegalAction("must-draw", f"the {self.must()} is due before any decision")
        if isinstance(action, (Take, Pass, Steal)):
            self._check_offer(action.seat, type(action).__name__.lower())
            return
        if isinstance(action, (GoDown, LayOff, Discard)):
            p = action.seat
            self._check_play(p)
            hand = self.hands[p]
            if isinstance(action, GoDown):
                self._check_go_down(p, [m.to_json() for m in self._melds_of(action)])
            elif isinstance(action, LayOff):
                self._check_lay_off(p, action.card, action.meld, action.at)
            else:
                if hand is not None and hand[action.card] <= 0:
                    raise IllegalAction("not-in-hand", f"seat {p} does not hold {action.card}")
            return
        raise IllegalAction("unknown-action", f"not a contract rummy action: {action!r}")

    def _melds_of(self, action: GoDown) -> tuple[Meld, ...]:
        """The melds of a go-down action (``melds`` ``None``: the first listed arrangement)."""
        if action.melds is not None:
            return action.melds
        if self.down[action.player]:
            raise IllegalAction("go-down-twice", f"seat {action.player} has already gone down this hand")
        options = self.go_down_options(action.player, limit=1)
        if not options:
            raise IllegalAction("contract", f"seat {action.player} does not hold hand {self.hand_no}'s contract "
                                            f"({contract_name(self.sets, self.runs)}) with a card to spare")
        return options[0]

    # ------------------------------------------------------------------ checks
    def _check_live(self) -> None:
        if self.over:
            raise IllegalAction("game-over", "the game is over")

    def _check_seat(self, seat: Any, role: str = "player") -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction("seat", f"{role} {seat!r} is not a seat (0-{self.players - 1})")

    def _check_card(self, card: Any) -> None:
        if card not in self.deck:
            raise IllegalAction("unknown-card", f"{card!r} is not a card of this pack")

    def _check_offer(self, seat: int, what: str) -> None:
        self._check_seat(seat)
        if self.phase != "offer":
            raise IllegalAction("offer", f"seat {seat} cannot {what}: no discard is on offer "
                                         f"(seat {self.turn} is {'playing' if self.phase == 'play' else 'to draw'})")
        first = self.offer["order"][0]
        if seat != first:
            if self.offer["from"] == seat:
                raise IllegalAction("offer", f"seat {seat} discarded {self.offer['card']}: it cannot take it back")
            raise IllegalAction("offer", f"seat {seat} cannot {what} now: the offer of {self.offer['card']} "
                                         f"goes in seat order and seat {first} decides first")
        if what == "take" and seat != self.turn:
            raise IllegalAction("take", f"seat {seat} is not on turn: it may steal the discard (with the "
                                        f"penalty) or pass, not take it")
        if what == "steal":
            if seat == self.turn:
                raise IllegalAction("steal", f"seat {seat} is on turn: it takes the discard as its draw "
                                             f"instead of stealing it")
            if not self.can_steal():
                raise IllegalAction("steal-stock", f"seat {seat} cannot steal: the stock and the discards "
                                                   f"do not hold the {self.options['steal_penalty']} penalty card(s)")

    def _check_play(self, p: int) -> None:
        self._check_seat(p)
        if self.phase != "play":
            if self.phase == "offer":
                raise IllegalAction("turn", f"seat {p} cannot play now: the discard {self.offer['card']} is on "
                                            f"offer to seat {self.offer['order'][0]}")
            raise IllegalAction("turn", f"seat {p} cannot play now (the {self.must()} is due)")
        if p != self.turn:
            raise IllegalAction("turn", f"seat {p} played, but seat {self.turn} is on turn")

    def _check_holds(self, p: int, cards: Iterable[str]) -> None:
        """``p`` holds the multiset ``cards`` (exactly where its hand is known, else as far as
        the located copies allow)."""
        need = Counter(cards)
        for c in need:
            self._check_card(c)
        hand = self.hands[p]
        if sum(need.values()) > self.sizes[p]:
            raise IllegalAction("not-in-hand", f"seat {p} holds {self.sizes[p]} cards, not {sum(need.values())}")
        if hand is not None:
            for c, k in need.items():
                if hand[c] < k:
                    raise IllegalAction("not-in-hand", f"seat {p} does not hold {c}" + (f" {k} times" if k > 1 else ""))
            return
        loc = self.located(exclude=p)
        for c, k in need.items():
            free = self.deck[c] - loc[c]
            if free < k:
                raise IllegalAction("not-in-hand", f"seat {p} cannot hold {c}" + (f" {k} times" if k > 1 else "")
                                    + f": {self.deck[c] - free} of its {self.deck[c]} copies are elsewhere")

    def _check_go_down(self, p: int, melds: list[dict]) -> None:
        if self.down[p]:
            raise IllegalAction("go-down-twice", f"seat {p} has already gone down this hand (once per hand)")
        kinds = Counter(m["kind"] for m in melds)
        if kinds["set"] != self.sets or kinds["run"] != self.runs or len(melds) != self.sets + self.runs:
            raise IllegalAction("contract", f"hand {self.hand_no}'s contract is {contract_name(self.sets, self.runs)}, "
                                            f"not {contract_name(kinds['set'], kinds['run']) or 'nothing'}")
        for i, m in enumerate(melds):
            err = meld_error(m["kind"], m["cards"])
            if err is not None:
                raise IllegalAction("meld", f"meld {i + 1} ({' '.join(m['cards'])}) is not a valid {m['kind']}: {err}")
        cards = [c for m in melds for c in m["cards"]]
        self._check_holds(p, cards)
        if len(cards) >= self.sizes[p]:
            raise IllegalAction("keep-a-card", f"seat {p} would lay all its {self.sizes[p]} cards: a turn ends with "
                                               f"a discard, so a card must stay in hand")

    def check_lay_off_card(self, p: int, card: str) -> None:
        """The rules of a lay-off that do not depend on the meld: ``p`` has gone down, holds
        ``card`` (as far as this state knows its hand) and keeps a card to discard.

        Raises:
            IllegalAction: ``not-down``, ``not-in-hand`` or ``last-card``.
        """
        if not self.down[p]:
            raise IllegalAction("not-down", f"seat {p} lays off, but has not gone down this hand")
        self._check_holds(p, [card])
        if self.sizes[p] <= 1:
            raise IllegalAction("last-card", f"seat {p} would lay off its last card: the hand ends with a discard "
                                             f"('{p} discards {card}' goes out)")

    def _check_lay_off(self, p: int, card: str, meld: Any, at: Any) -> None:
        self.check_lay_off_card(p, card)
        if isinstance(meld, bool) or not isinstance(meld, int) or not 0 <= meld < len(self.table):
            raise IllegalAction("lay-off", f"there is no meld {meld!r} on the table (melds 0-{len(self.table) - 1})")
        m = self.table[meld]
        err = layoff_error(m["kind"], m["cards"], card, at)
        if err is not None:
            raise IllegalAction("lay-off", f"{card} cannot be laid at the {at} of meld {meld} "
                                           f"({' '.join(m['cards'])}): {err}")

    # ------------------------------------------------------------------ applying actions
    def apply_action(self, action) -> list[Event]:
        """Resolve ``action`` (a complete state only) and apply it; return the events it made,
        followed by the events the rules then force (restock, draw, hand end, next deal).

        Raises:
            IllegalAction: the action is not legal.
            ValueError: this state does not know every hand and the stock.
        """
        if not self.is_complete() or self.stock is None:
            raise ValueError("only a complete state (every hand and the stock) can resolve actions")
        events = self.advance()
        self.check_action(action)
        p = action.seat
        if isinstance(action, Take):
            evs = [{"type": "take", "player": p, "card": self.offer["card"]}]
        elif isinstance(action, Pass):
            evs = [{"type": "pass", "player": p}]
        elif isinstance(action, Steal):
            evs = []
            need = self.options["steal_penalty"]
            if self.stock_count < need:
                evs.append(self._restock_event())
                self.apply_event(evs[-1])
            pen = self.stock[:need]
            evs.append({"type": "steal", "player": p, "card": self.offer["card"], "penalty": pen})
        elif isinstance(action, GoDown):
            evs = [{"type": "go_down", "player": p, "melds": [m.to_json() for m in self._melds_of(action)]}]
        elif isinstance(action, LayOff):
            evs = [{"type": "lay_off", "player": p, "card": action.card, "meld": action.meld, "at": action.at}]
        else:
            evs = [{"type": "discard", "player": p, "card": action.card}]
        for ev in evs:
            if ev["type"] != "restock":
                self.apply_event(ev)
        return events + evs + self.advance()

    def _restock_event(self) -> Event:
        cards = self.pile[:-1]
        seed = self.seed if self.seed is not None else 0
        order = restock_order(seed, self.hand_no, self.hand_restocks, cards)
        return {"type": "restock", "count": len(order), "cards": order}

    def advance(self) -> list[Event]:
        """Apply and return the events the rules force now (a complete state only): a restock
        and the draw after an offer without a take, the end of a hand and the next deal."""
        out: list[Event] = []
        if not self.is_complete() or self.stock is None:
            return out
        while not self.over:
            m = self.must()
            if m is None:
                return out
            if m == "restock":
                ev = self._restock_event()
            elif m == "draw":
                ev = {"type": "draw", "player": self.turn, "card": self.stock[0]}
            elif m == "hand_end":
                ev = self._hand_end_event()
            else:
                seed = self.seed if self.seed is not None else 0
                d = next_deal(seed, self.options, self.hand_no + 1)
                ev = {"type": "deal", "hand": self.hand_no + 1, "hands": d["hands"], "stock": d["stock"], "up": d["up"]}
            self.apply_event(ev)
            out.append(ev)
        return out

    def _hand_end_event(self) -> Event:
        out = next((s for s in range(self.players) if self.sizes[s] == 0), None)
        hands = [sort_hand(h.elements()) for h in self.hands]
        scores = self.score_hand(out, hands)
        return {"type": "hand_end", "hand": self.hand_no, "out": out, "hands": hands, "scores": scores,
                "totals": [t + s for t, s in zip(self.totals, scores)]}

    def score_hand(self, out: int | None, hands: list[list[str] | None],
                   given: list[int] | None = None) -> list[int]:
        """The points of every seat for this hand: the seat that went ``out`` scores
        ``out_bonus`` when it went down in its last turn (never down before in the hand), else
        0; every other seat the points of the cards ``hands`` it holds. A seat whose hand is
        ``None`` (not shown in a player's record) scores ``given[s]``, the number the player
        typed, checked against what the seat can hold.

        Raises:
            IllegalAction: (rule ``scores``) a hand is ``None`` and ``given`` has no score for it,
                or a score no hand of that seat's size (with the cards it is known to hold) can make.
        """
        scores = []
        for s in range(self.players):
            if s == out:
                scores.append(self.options["out_bonus"] if self.down_turn[s] == self.turn_no else 0)
            elif hands[s] is not None:
                scores.append(hand_points(hands[s], self.options))
            else:
                if given is None or s >= len(given):
                    raise IllegalAction("scores", f"seat {s}'s hand is not shown, so its score must be given")
                lo, hi = self.score_range(s)
                if not lo <= given[s] <= hi:
                    raise IllegalAction("scores", f"seat {s} holds {self.sizes[s]} card{'' if self.sizes[s] == 1 else 's'}"
                                        + (f" ({' '.join(sort_hand(self.known[s].elements()))} known)"
                                           if self.known[s] else "")
                                        + f": its score is {lo} to {hi} points, not {given[s]}")
                scores.append(given[s])
        return scores

    def score_range(self, seat: int) -> tuple[int, int]:
        """The fewest and the most points ``seat``'s cards can score now (its size, the cards
        everyone knows it holds, and the points of the cards it cannot be shown not to hold)."""
        known = +self.known[seat]
        base = hand_points(known.elements(), self.options)
        rest = self.sizes[seat] - sum(known.values())
        free = Counter(self.deck)
        free.subtract(self.located())
        pts = sorted(card_points(c, self.options) for c, k in (+free).items() for _ in range(k))
        if rest <= 0 or len(pts) < rest:
            return base, base + max(0, rest) * max((card_points(c, self.options) for c in self.deck), default=0)
        return base + sum(pts[:rest]), base + sum(pts[-rest:])

    # ------------------------------------------------------------------ result
    def result(self) -> Result:
        """The lowest total after the last hand wins (``1.0``); a tie for the lowest is a shared
        first place (``0.5`` each); everyone else ``0.0``. ``scores`` are the totals negated
        (higher is better, as :class:`~cardmind.core.Result` says); ``detail`` has ``totals``
        (points, lower is better), ``hand_scores`` (per hand, per seat), ``outs`` (per hand the
        seat that went out, or null) and ``winners``."""
        if not self.over:
            raise ValueError("the game is not over")
        low = min(self.totals)
        winners = [s for s in range(self.players) if self.totals[s] == low]
        share = 1.0 if len(winners) == 1 else 0.5
        outcome = tuple(share if s in winners else 0.0 for s in range(self.players))
        return Result(tuple(float(-t) for t in self.totals), outcome,
                      {"totals": list(self.totals), "hand_scores": [list(x) for x in self.hand_scores],
                       "outs": list(self.outs), "winners": winners})


def complete_state(game, options: dict, header: Mapping[str, Any]) -> CariocaState:
    """A complete state from a complete header (``hands``, ``up``, ``stock``, optional ``seed``)."""
    return CariocaState(game, options, [list(h) for h in header["hands"]], header["up"], list(header["stock"]),
                        None, header.get("seed"))


__all__ = ["CariocaState", "GO_DOWN_OPTIONS", "complete_state", "deal_hand", "next_deal", "restock_order"]
