"""Go Fish record events applied to the state: each event type's checks and effects
(``apply_event`` and its handlers: asks, draws, books, phase-2 book asks)."""

from __future__ import annotations


from ...core import Event
from ...errors import IllegalAction
from .rules import next_seat


_EVENT_TYPES = ("ask", "draw", "book", "ask_book")


class GoFishEvents:
    """Go Fish record events applied to the state: each event type's checks and effects (a part of the state class, which derives from it)."""

    # ------------------------------------------------------------------ applying events
    def apply_event(self, event: Event) -> None:
        """Apply one record event after checking it (see the module docstring for the flow)."""
        kind = event.get("type")
        if kind not in _EVENT_TYPES:
            raise IllegalAction("event-type", f"unknown Go Fish event type {kind!r}")
        w = self.window
        if w is not None:
            if kind == "book" and event["player"] == w["seat"]:
                self._window_book(event)
                self._finish(event)
                return
            self._close_window()
        self._check_live()
        if kind == "book":
            self._check_seat(event["player"], "player")
            if self.opening:
                self._opening_book(event)
                self._finish(event)
                return
            raise IllegalAction("book-window", f"seat {event['player']} laid a book, but a book is laid at "
                                               f"once, right after the ask or draw that completes it")
        if self.opening:
            self._end_opening()
        if self.pending is not None and kind != "ask":
            raise IllegalAction("pending-give", f"seat {self.pending['target']} must first hand over a card")
        if kind == "draw":
            self._apply_draw(event)
        elif self.must_draw is not None:
            m = self.must_draw
            raise IllegalAction("must-draw", f"seat {m['player']} must draw from the stock now "
                                             f"({_DRAW_REASONS[m['reason']]})")
        elif kind == "ask":
            self._apply_ask(event)
        else:
            self._apply_ask_book(event)
        self._finish(event)

    def _finish(self, event: Event) -> None:
        self.history.append(dict(event))
        self.num_events += 1

    def _window_book(self, event: Event) -> None:
        w = self.window
        s, rank = w["seat"], event["rank"]
        self._check_book_rank_given(s, rank)
        if rank is not None and w["rank"] is not None and rank != w["rank"]:
            raise IllegalAction("book-rank", f"seat {s}'s book must be of rank {w['rank']}, the rank it just "
                                             f"gained, not {rank}")
        eff = rank if rank is not None else w["rank"]
        public = rank if self.options["books_face_up"] else w["public_rank"]
        self._apply_book(s, eff, public, opening=False)
        self._close_window()

    def _opening_book(self, event: Event) -> None:
        s, rank = event["player"], event["rank"]
        self._check_book_rank_given(s, rank)
        if self.is_complete():
            first = min(t for t in range(self.players) if self.unlaid[t]) if any(self.unlaid) else None
            if first is None or s != first:
                raise IllegalAction("dealt-book", f"seat {s} laid a book before play, but "
                                                  + ("no seat has a dealt book left" if first is None
                                                     else f"seat {first} lays its dealt books next"))
        else:
            if s < self.opening_seat:
                raise IllegalAction("dealt-book", f"seat {s} laid a dealt book after seat {self.opening_seat}: "
                                                  f"dealt books are laid in seat order")
            o = self.observer
            if o is not None and o < s and self.unlaid[o]:
                raise IllegalAction("dealt-book", f"seat {o} must lay its dealt books before seat {s}")
        unlaid = self.unlaid[s]
        if unlaid is not None:
            if not unlaid:
                raise IllegalAction("dealt-book", f"seat {s} laid a book before play but has no dealt book left")
            if rank != unlaid[0]:
                raise IllegalAction("dealt-book", f"seat {s} must lay its dealt book of {unlaid[0]} next "
                                                  f"(dealt books are laid in rank order), not {rank}")
            unlaid.pop(0)
        eff = rank if rank is not None else None
        self._apply_book(s, eff, rank if self.options["books_face_up"] else None, opening=True)
        self.opening_seat = s
        if self.is_complete() and not any(self.unlaid):
            self.opening = False
            self.turn = 0
            self._settle()

    def _apply_ask(self, event: Event) -> None:
        asker, target, rank, given = event["asker"], event["target"], event["rank"], list(event["given"])
        self._check_ask(asker, target, rank)
        self._check_ask_answer(asker, target, rank, given)
        self.pending = None
        for c in given:
            if self.hands[target] is not None:
                self.hands[target].discard(c)
            self.public[target].discard(c)
            if self.hands[asker] is not None:
                self.hands[asker].add(c)
            self.public[asker].add(c)
        self.sizes[target] -= len(given)
        self.sizes[asker] += len(given)
        if given:
            self.window = {"seat": asker, "rank": rank, "public_rank": rank, "then": "keep"}
        elif self.stock_count > 0:
            self.must_draw = {"player": asker, "reason": "refused", "rank": rank}
        else:
            self.turn = next_seat(asker, self.players)
            self._settle()

    def _apply_draw(self, event: Event) -> None:
        m = self.must_draw
        p, card, shown = event["player"], event["card"], event["shown"]
        self._check_seat(p, "player")
        if m is None:
            raise IllegalAction("no-draw", f"seat {p} drew, but no draw is due (a player draws after a "
                                           f"refusal, or on turn with no cards or nobody to ask)")
        if p != m["player"]:
            raise IllegalAction("turn", f"seat {p} drew, but seat {m['player']} must draw now")
        knows = self.hands[p] is not None
        if card is None:
            if knows:
                raise IllegalAction("draw-card", f"seat {p}'s draw must show the card in "
                                                 + ("a complete record" if self.observer is None
                                                    else "its own record"))
            if shown:
                raise IllegalAction("draw-card", "a shown draw must name the card")
        else:
            if not knows and not shown:
                raise IllegalAction("draw-card", f"seat {p}'s unshown draw is hidden from seat "
                                                 f"{self.observer}'s record, so its card must be null")
            self._check_card(card)
            k = self._holder(card)
            if k is not None or card[0] in self.book_at:
                where = f"seat {k} holds it" if k is not None else f"the book of {card[0]} has been laid"
                raise IllegalAction("draw-card", f"seat {p} drew {card}, but {where}")
            if self.stock is not None and card != self.stock[0]:
                raise IllegalAction("stock-order", f"seat {p} drew {card}, but the next card of the stock "
                                                   f"is {self.stock[0]}")
        if m["reason"] == "refused":
            if card is not None and shown != (card[0] == m["rank"]):
                raise IllegalAction("draw-shown", f"a draw after a refused ask for {m['rank']} is shown exactly "
                                                  f"when it is of that rank ({card} with shown={shown})")
        elif shown:
            raise IllegalAction("draw-shown", f"seat {p}'s draw ({_DRAW_REASONS[m['reason']]}) follows no "
                                              f"ask, so it is not shown")
        if self.stock is not None:
            self.stock.pop(0)
        self.stock_count -= 1
        self.sizes[p] += 1
        if card is not None:
            if self.hands[p] is not None:
                self.hands[p].add(card)
            if shown:
                self.public[p].add(card)
        self.must_draw = None
        keep = (m["reason"] == "refused" and shown) or m["reason"] == "empty"
        r = None if card is None else card[0]
        self.window = {"seat": p, "rank": r, "public_rank": r if shown else None,
                       "then": "keep" if keep else "pass"}

    def _apply_ask_book(self, event: Event) -> None:
        asker, target, rank, success = event["asker"], event["target"], event["rank"], event["success"]
        self._check_ask_book(asker, target, rank)
        at = self.book_at.get(rank)
        if at is not None:
            if success != (at == target):
                raise IllegalAction("ask-book-result", f"seat {target} " + ("handed over" if success else "refused")
                                    + f" the book of {rank}, but seat {at} holds it")
        elif success and self.hidden_books[target] == 0:
            raise IllegalAction("ask-book-result", f"seat {target} handed over the book of {rank}, but none of "
                                                   f"its books can be of that rank")
        elif not success and not any(self.hidden_books[s] for s in range(self.players) if s not in (asker, target)):
            raise IllegalAction("ask-book-result", f"seat {target} refused the book of {rank}, but no other "
                                                   f"player can hold it")
        if success:
            if at is None:
                self.hidden_books[target] -= 1
            self.book_at[rank] = asker
            self._books[target] -= 1
            self._books[asker] += 1
            self.turn = asker
        else:
            self.turn = next_seat(asker, self.players)
        self._settle()


_DRAW_REASONS = {
    "refused": "the ask was refused",
    "empty": "it is on turn with no cards",
    "no-target": "it is on turn and nobody else holds cards",
}
