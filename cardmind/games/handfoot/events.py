"""Hand and Foot record events applied to the state: each event type's checks and effects
(``apply_event`` and its handlers), the end of a hand and the next deal."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from ...core import Event
from ...core import check_deal as check_pack
from ...errors import IllegalAction
from .rules import (TeamMeld, card_points, check_group, expand, sort_cards)


_EVENT_TYPES = ("draw", "pickup", "meld", "lay_off", "book", "discard", "foot", "ask_out", "answer",
                "hand_end", "deal")


class HandFootEvents:
    """Hand and Foot record events applied to the state: each event type's checks and effects (a part of the state class, which derives from it)."""

    # ------------------------------------------------------------------ applying events
    def apply_event(self, event: Event) -> None:
        """Apply one record event after checking it (see the module docstring for the flow).

        Raises:
            IllegalAction: the event breaks a rule or contradicts what this state knows.
        """
        kind = event.get("type")
        if kind not in _EVENT_TYPES:
            raise IllegalAction("event-type", f"unknown Hand and Foot event type {kind!r}")
        self._live()
        if self.forced:
            f = self.forced[0]
            if kind != f["type"]:
                raise IllegalAction("forced", f"a {f['type']} event must come next"
                                              + (f" (seat {f['player']})" if "player" in f else "") + f", not {kind}")
        getattr(self, "_ev_" + kind)(event)
        self.history.append(dict(event))
        if not self.forced and self.turn_over:
            self._end_turn()

    def _ev_draw(self, ev: Event) -> None:
        p, k, cards = ev["player"], ev["count"], ev["cards"]
        self._check_draw(p)
        if k != min(2, self.stock_count):
            raise IllegalAction("draw-count", f"seat {p} drew {k} cards; with {self.stock_count} in the stock "
                                              f"a draw takes {min(2, self.stock_count)}")
        knows = self.zone[p] is not None
        if cards is None:
            if knows:
                raise IllegalAction("draw-card", f"seat {p}'s draw must show its cards in "
                                                 + ("a complete record" if self.observer is None else "its own record"))
        else:
            if not knows:
                raise IllegalAction("draw-card", f"seat {p}'s draw is hidden from seat {self.observer}, so its "
                                                 f"cards must be null")
            if len(cards) != k:
                raise IllegalAction("draw-count", f"seat {p} drew {k} cards but {len(cards)} are named")
            for c in cards:
                self._card(c)
            if self.stock is not None and list(cards) != self.stock[:k]:
                raise IllegalAction("draw-card", f"seat {p} drew {_plain(cards)}, but the stock's next cards are "
                                                 f"{_plain(self.stock[:k])}")
            vis = self.visible()
            if self.stock is None:
                for c, n in Counter(cards).items():
                    if vis[c] + n > self.deck[c]:
                        raise IllegalAction("draw-card", f"seat {p} drew {c}, but every copy of it is elsewhere")
        if self.stock is not None:
            del self.stock[:k]
        self.stock_count -= k
        self.sizes[p] += k
        if cards is not None:
            self.zone[p].update(cards)
        self.phase = "play"

    def _ev_pickup(self, ev: Event) -> None:
        p, pair, cards = ev["player"], list(ev["pair"]), list(ev["cards"])
        self._check_take(p, pair)
        expect = self.pile_take_cards()
        if cards != expect:
            raise IllegalAction("pile-cards", f"seat {p} took {_plain(cards)}, but the pile's top cards are {_plain(expect)}")
        team = self.teams[p]
        del self.pile[len(self.pile) - len(cards):]
        top = cards[0]
        z = self.zone[p]
        if z is not None:
            z.subtract(pair)
            z.update(cards[1:])
            _drop_zeros(z)
        self._take_known(p, pair)
        self.known[p].update(cards[1:])
        self.sizes[p] += len(cards) - 3
        opening = not self.opened[team]
        if opening:
            self.opened[team] = True
            self.opening = True
        i = self.open_meld(team, top[0])
        if i is None:
            self.melds[team].append(TeamMeld(top[0], [top, *pair], p))
            i = len(self.melds[team]) - 1
            was_book = False
        else:
            was_book = self.melds[team][i].book
            self.melds[team][i].add([top, *pair])
        self.turn_points += sum(card_points(c) for c in (top, *pair))
        m = self.melds[team][i]
        if m.book and not was_book:
            self.forced.append({"type": "book", "player": p, "meld": i, "clean": m.clean})
        self.phase = "play"

    def _take_known(self, seat: int, cards: Iterable[str]) -> None:
        """Cards leave ``seat``'s hand: the publicly known ones go first (they may be those)."""
        kn = self.known[seat]
        for c in cards:
            if kn[c] > 0:
                kn[c] -= 1
                if not kn[c]:
                    del kn[c]

    def _lay(self, p: int, cards: list[str], meld_index: int | None) -> None:
        points, _ = self._check_lay(p, cards, meld_index)
        team = self.teams[p]
        if not self.opened[team]:
            self.opened[team] = True
            self.opening = True
        if meld_index is None:
            self.melds[team].append(TeamMeld(check_group(cards).rank, cards, p))
            meld_index = len(self.melds[team]) - 1
            was_book = False
        else:
            was_book = self.melds[team][meld_index].book
            self.melds[team][meld_index].add(cards)
        m = self.melds[team][meld_index]
        z = self.zone[p]
        if z is not None:
            z.subtract(cards)
            _drop_zeros(z)
        self._take_known(p, cards)
        self.sizes[p] -= len(cards)
        self.turn_points += points
        if m.book and not was_book:
            self.forced.append({"type": "book", "player": p, "meld": meld_index, "clean": m.clean})
        self._after_cards_left(p)

    def _after_cards_left(self, p: int) -> None:
        """After ``p`` laid cards: its hand used up brings its foot; its last foot card laid
        (allowed only when going out under the house rule ``out_by_laying``) ends the hand."""
        if self.sizes[p] == 0:
            if not self.in_foot[p]:
                self.forced.append({"type": "foot", "player": p})
            else:
                self.went_out = p
                self.turn_over = True

    def _ev_meld(self, ev: Event) -> None:
        self._lay(ev["player"], list(ev["cards"]), None)

    def _ev_lay_off(self, ev: Event) -> None:
        self._lay(ev["player"], list(ev["cards"]), ev["meld"])

    def _ev_book(self, ev: Event) -> None:
        f = self.forced[0]
        if (ev["player"], ev["meld"], ev["clean"]) != (f["player"], f["meld"], f["clean"]):
            raise IllegalAction("book", f"the book event must say seat {f['player']}'s team completed meld "
                                        f"{f['meld']} ({'clean' if f['clean'] else 'dirty'}), not seat {ev['player']}'s meld {ev['meld']} "
                                        f"({'clean' if ev['clean'] else 'dirty'})")
        self.forced.pop(0)

    def _ev_foot(self, ev: Event) -> None:
        f = self.forced[0]
        p, cards = ev["player"], ev["cards"]
        if p != f["player"]:
            raise IllegalAction("foot", f"seat {f['player']} picks up its foot now, not seat {p}")
        knows = self.observer is None or p == self.observer
        if knows and cards is None:
            raise IllegalAction("foot", f"seat {p}'s foot must be shown in "
                                        + ("a complete record" if self.observer is None else "its own record"))
        if not knows and cards is not None:
            raise IllegalAction("foot", f"seat {p}'s foot is hidden from seat {self.observer}, so its cards must be null")
        if cards is not None:
            if len(cards) != self.foot_sizes[p]:
                raise IllegalAction("foot", f"seat {p}'s foot holds {self.foot_sizes[p]} cards, not {len(cards)}")
            for c in cards:
                self._card(c)
            if self.feet[p] is not None and Counter(cards) != self.feet[p]:
                raise IllegalAction("foot", f"seat {p}'s foot is {_plain(expand(self.feet[p]))}, not {_plain(sort_cards(cards))}")
            if self.observer is not None:
                vis = self.visible()
                for c, k in Counter(cards).items():
                    if vis[c] + k > self.deck[c]:
                        raise IllegalAction("foot", f"seat {p}'s foot holds {c}, but every copy of it is elsewhere")
        self.forced.pop(0)
        self.zone[p] = Counter(cards) if cards is not None else None
        self.feet[p] = None
        self.known[p] = Counter()
        self.sizes[p] = self.foot_sizes[p]
        self.foot_sizes[p] = 0
        self.in_foot[p] = True

    def _ev_discard(self, ev: Event) -> None:
        p, card = ev["player"], ev["card"]
        self._check_discard(p, card)
        team = self.teams[p]
        z = self.zone[p]
        if z is not None:
            z[card] -= 1
            if not z[card]:
                del z[card]
        self._take_known(p, [card])
        self.sizes[p] -= 1
        self.pile.append(card)
        if self.sizes[p] == 0:
            if self.in_foot[p]:
                self.went_out = p
            else:
                self.forced.append({"type": "foot", "player": p})
        if self.went_out is None and self.permission is True and not self.cut_throat():
            self.failed[team] += 1
        self.turn_over = True

    def _ev_ask_out(self, ev: Event) -> None:
        self._check_ask(ev["player"])
        self.asked = True
        self.phase = "answer"

    def _ev_answer(self, ev: Event) -> None:
        self._check_answer(ev["player"])
        self.permission = bool(ev["yes"])
        self.phase = "play"

    def _end_turn(self) -> None:
        """The turn is over (its discard, or going out, and the events it forced are in)."""
        self.turn_over = False
        if self.went_out is not None or self.stock_count == 0:
            self.hand_over = True
            self.forced.append({"type": "hand_end"})
            return
        self._next_turn()

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.players
        self.phase = "draw"
        self.turn_points = 0
        self.opening = False
        self.asked = False
        self.permission = None

    def _ev_hand_end(self, ev: Event) -> None:
        """The ``hand_end`` event: check how the hand ended, the cards each seat still held
        and the teams' scores of the hand (in points, the team of seat 0 first) and totals;
        record the scores and go on to the next deal (or end the game after the last hand).

        Raises:
            IllegalAction: (rule ``hand-end``) the event contradicts the state.
        """
        self._check_hand_end_reason(ev)
        held = self._hand_end_held(ev)
        scores = self._hand_end_scores(ev, held)
        totals = [t + sc for t, sc in zip(self.totals, scores)]
        if ev.get("totals") is not None and list(ev["totals"]) != totals:
            raise IllegalAction("hand-end", f"the totals after hand {self.hand_no} are {_nums(totals)}, not "
                                            f"{_nums(ev['totals'])} (the team of seat 0 first)")
        self.forced.pop(0)
        self.scores.append(scores)
        self.totals = totals
        self.last_held = held
        if self.hand_no >= self.num_hands:
            self.phase = "over"
        else:
            self.forced.append({"type": "deal"})
            self.phase = "between"

    def _check_hand_end_reason(self, ev: Event) -> None:
        """Check that the hand is over and that ``ev`` names this hand and how it ended (``out``
        with the seat that went out, or ``stock`` with player ``None``).

        Raises:
            IllegalAction: (rule ``hand-end``) otherwise.
        """
        if not self.hand_over:
            raise IllegalAction("hand-end", "the hand is not over")
        if ev["hand"] != self.hand_no:
            raise IllegalAction("hand-end", f"this is the end of hand {self.hand_no}, not {ev['hand']}")
        reason = "out" if self.went_out is not None else "stock"
        if ev["reason"] != reason or ev["player"] != self.went_out:
            raise IllegalAction("hand-end", f"hand {self.hand_no} ended with "
                                            + (f"seat {self.went_out} going out" if reason == "out" else "the stock used up")
                                            + f" (reason {reason!r}, player {self.went_out})")

    def _hand_end_held(self, ev: Event) -> list[list[str] | None]:
        """The cards each seat still held in hand and foot at the end of the hand (``None`` for a
        seat whose cards an observer's record does not give), from ``ev["held"]``, checked
        against what the state knows of each seat and, in an observer's record, against the
        cards seen elsewhere.

        Raises:
            IllegalAction: (rule ``hand-end``) missing in a complete record, the wrong number
                of seats or cards, cards a seat cannot hold, or more copies of a card than the
                deck has.
        """
        complete = self.observer is None
        raw = ev.get("held")
        if raw is None:
            if complete:
                raise IllegalAction("hand-end", "a complete record's hand_end shows every seat's 'held' cards")
            raw = [None] * self.players
        held: list[list[str] | None] = [None if h is None else list(h) for h in raw]
        if len(held) != self.players:
            raise IllegalAction("hand-end", f"'held' lists {len(held)} seats, not {self.players}")
        for s in range(self.players):
            if held[s] is None:
                if complete:
                    raise IllegalAction("hand-end", f"a complete record shows seat {s}'s 'held' cards")
                continue
            self._check_seat_held(s, held[s])
        if not complete:
            self._check_held_unseen(held)
        return held

    def _check_seat_held(self, s: int, cards: list[str]) -> None:
        """Check the cards seat ``s`` says it still held: as many as its hand and foot hold, and
        the cards it is known to hold (all of them when its hand, and its foot if any, are known).

        Raises:
            IllegalAction: (rule ``hand-end``, or the card check's) otherwise.
        """
        for c in cards:
            self._card(c)
        want = self.sizes[s] + self.foot_sizes[s]
        if len(cards) != want:
            raise IllegalAction("hand-end", f"seat {s} holds {want} cards in hand and foot, not {len(cards)}")
        hs = Counter(cards)
        if self.zone[s] is not None:
            own = Counter(self.zone[s])
            exact = self.foot_sizes[s] == 0 or self.feet[s] is not None
            if self.feet[s] is not None and self.foot_sizes[s]:
                own.update(self.feet[s])
            if (exact and hs != own) or (not exact and own - hs):
                raise IllegalAction("hand-end", f"seat {s} holds {_plain(expand(own))}"
                                                + ("" if exact else " and its foot")
                                                + f", not {_plain(sort_cards(cards))}")
        elif self.known[s] - hs:
            raise IllegalAction("hand-end", f"seat {s} is known to hold {_plain(expand(self.known[s] - hs))}, "
                                            f"which 'held' leaves out")

    def _check_held_unseen(self, held: list[list[str] | None]) -> None:
        """In an observer's record: check that the cards ``held`` shows that were unseen so far,
        with the cards visible elsewhere, need no more copies of a card than the deck has.

        Raises:
            IllegalAction: (rule ``hand-end``) otherwise.
        """
        vis = self.visible()
        for s in range(self.players):
            if held[s] is None:
                continue
            if self.zone[s] is None:
                vis.update(Counter(held[s]) - self.known[s])
            elif self.foot_sizes[s] and self.feet[s] is None:
                vis.update(Counter(held[s]) - self.zone[s])
        over = [c for c in vis if vis[c] > self.deck[c]]
        if over:
            raise IllegalAction("hand-end", f"'held' shows {over[0]}, but every copy of it is elsewhere")

    def _hand_end_scores(self, ev: Event, held: list[list[str] | None]) -> list[int]:
        """The teams' scores of the hand (points, the team of seat 0 first): ``ev["scores"]``
        checked against those computed from the melds and the ``held`` cards (a team whose
        held cards are not all given: against its melds, :meth:`_check_typed_score`), or the
        computed ones when the event gives none.

        Raises:
            IllegalAction: (rule ``hand-end``) no scores when some held cards are not given,
                the wrong number of teams, or a score that is not the computed one.
        """
        computed = self._hand_scores(held)
        given = ev.get("scores")
        if given is None:
            unknown = [s for s in range(self.players) if held[s] is None]
            if unknown:
                raise IllegalAction("hand-end", f"the scores of hand {self.hand_no} are needed: the cards seat"
                                                + ("s " if len(unknown) > 1 else " ")
                                                + ", ".join(map(str, unknown)) + " still held are not given")
            return computed
        given = list(given)
        if len(given) != self.num_teams:
            raise IllegalAction("hand-end", f"'scores' lists {len(given)} teams, not {self.num_teams}")
        if None not in computed and given != computed:
            raise IllegalAction("hand-end", f"the scores of hand {self.hand_no} are {_nums(computed)}, not {_nums(given)} "
                                            f"(the team of seat 0 first)")
        for t in range(self.num_teams):
            if computed[t] is not None:
                if given[t] != computed[t]:
                    raise IllegalAction("hand-end", f"team {t}'s score of hand {self.hand_no} is {computed[t]} "
                                                    f"(from its melds and the cards given), not {given[t]}")
            else:
                self._check_typed_score(t, given[t], held)
        return given

    def _ev_deal(self, ev: Event) -> None:
        k = ev["hand"]
        if k != self.hand_no + 1:
            raise IllegalAction("deal", f"the next deal is of hand {self.hand_no + 1}, not {k}")
        hands = ev["hands"]
        n, size = self.players, self.hand_size
        if len(hands) != n:
            raise IllegalAction("deal", f"the deal lists {len(hands)} hands for {n} players")
        complete = self.observer is None
        for s, h in enumerate(hands):
            if complete or s == self.observer:
                if h is None:
                    raise IllegalAction("deal", f"seat {s}'s hand must be shown in "
                                                + ("a complete record" if complete else "its own record"))
            elif h is not None:
                raise IllegalAction("deal", f"seat {s}'s hand is hidden from seat {self.observer}; write null")
            if h is not None:
                if len(h) != size:
                    raise IllegalAction("deal", f"seat {s}'s hand has {len(h)} cards; the deal gives {size}")
                for c in h:
                    self._card(c)
        feet, stock = ev.get("feet"), ev.get("stock")
        if complete:
            if feet is None or stock is None:
                raise IllegalAction("deal", "a complete record's deal shows the feet and the stock")
            check_deal(self.deck, hands, feet, stock, size, f"hand {k}'s deal")
            if self.deals:
                d = self.deals[self.hand_no - 1]
                if [sort_cards(h) for h in hands] != [sort_cards(h) for h in d["hands"]] or \
                        [sort_cards(f) for f in feet] != [sort_cards(f) for f in d["feet"]] or \
                        list(stock) != list(d["stock"]):
                    raise IllegalAction("deal", f"hand {k}'s deal differs from the header's 'deals'")
        elif feet is not None or stock is not None:
            raise IllegalAction("deal", f"seat {self.observer}'s record cannot show the feet or the stock")
        else:
            own = hands[self.observer]
            for c, m in Counter(own).items():
                if m > self.deck[c]:
                    raise IllegalAction("deal", f"seat {self.observer}'s hand holds {m} x {c}; the decks have {self.deck[c]}")
        self.forced.pop(0)
        self._start_hand(k, hands, feet, stock)


def _plain(cards: Iterable[str]) -> str:
    """Cards as a player writes them in a sentence: ``"5S 6D 6S"`` (``"no card"`` for none)."""
    return " ".join(cards) or "no card"


def _nums(xs: Iterable[Any]) -> str:
    """Numbers in a sentence: ``"370 and 1705"``."""
    xs = [str(x) for x in xs]
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1]


def _drop_zeros(c: Counter) -> None:
    """Remove the tokens of ``c`` with no copy left (in place)."""
    for k in [k for k, v in c.items() if v <= 0]:
        del c[k]


def check_deal(deck: Counter, hands, feet, stock, size: int, what: str) -> None:
    """Check one hand's complete deal: every hand and foot of ``size`` cards, and hands,
    feet and stock together exactly the decks (:func:`cardmind.core.check_deal`, each part
    named with ``what``, e.g. ``"hand 2's deal"``).

    Raises:
        IllegalAction: (rule ``deal``) naming what is wrong.
    """
    n = len(hands)
    if len(feet) != n:
        raise IllegalAction("deal", f"{what}: {len(feet)} feet for {n} players")
    parts = ([(f"{what}: seat {s}'s hand", hands[s], size) for s in range(n)]
             + [(f"{what}: seat {s}'s foot", feet[s], size) for s in range(n)]
             + [(f"{what}: the stock", stock, None)])
    try:
        check_pack(deck, parts, "the decks")
    except IllegalAction as exc:
        if exc.message.startswith(what):
            raise
        raise IllegalAction("deal", f"{what}: {exc.message}") from None
