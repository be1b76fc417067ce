"""Contract rummy record events applied to the state: each event type's checks and effects
(``apply_event`` and its handlers: the discard offer, draws and restocks, going down,
laying off, discards, the end of a hand and the next deal)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import numpy as np

from ...core import Event
from ...errors import IllegalAction
from .rules import (deck_cards, first_player, hand_cards,
                    next_seat, sort_hand)


_EVENT_TYPES = ("take", "pass", "steal", "draw", "restock", "go_down", "lay_off", "discard", "hand_end", "deal")


def deal_hand(options: dict, hand: int, rng: np.random.Generator) -> dict:
    """Shuffle the pack with ``rng`` and deal hand ``hand``: ``hand_cards`` cards to each
    seat round-robin from its first player, one card turned up, the rest the stock.

    Returns:
        ``{"hands": [sorted card list per seat], "up": card, "stock": [card, ...] in draw order}``.
    """
    cards = list(deck_cards(options))
    order = rng.permutation(len(cards))
    shuffled = [cards[k] for k in order]
    n, k = options["players"], hand_cards(options, hand)
    first = first_player(options, hand)
    hands: list[list[str]] = [[] for _ in range(n)]
    for i in range(n * k):
        hands[(first + i) % n].append(shuffled[i])
    return {"hands": [sort_hand(h) for h in hands], "up": shuffled[n * k], "stock": shuffled[n * k + 1:]}


def restock_order(seed: int, hand: int, index: int, cards: list[str]) -> list[str]:
    """The referee's shuffle of a restock: ``cards`` permuted by
    ``numpy.random.default_rng([seed, hand, 1000 + index])`` (reproducible from the header)."""
    rng = np.random.default_rng([seed, hand, 1000 + index])
    return [cards[k] for k in rng.permutation(len(cards))]


def next_deal(seed: int, options: dict, hand: int) -> dict:
    """The referee's deal of hand ``hand`` (2 or later) from the header's ``seed``."""
    return deal_hand(options, hand, np.random.default_rng([seed, hand]))


class CariocaEvents:
    """Contract rummy record events applied to the state: each event type's checks and effects (a part of the state class, which derives from it)."""

    # ------------------------------------------------------------------ applying events
    def apply_event(self, event: Event) -> None:
        """Apply one record event after checking it (see the module docstring for the flow)."""
        kind = event.get("type")
        if kind not in _EVENT_TYPES:
            raise IllegalAction("event-type", f"unknown contract rummy event type {kind!r}")
        self._check_live()
        m = self.must()
        if m is not None and kind != m:
            raise IllegalAction("must-draw", f"a {m} is due now, not a {kind}"
                                + (f" (seat {self.turn} draws from the stock after the offer)" if m == "draw" else ""))
        if self.restock_for_steal and kind != "steal":
            raise IllegalAction("restock", "a restock before the offer was decided must be followed by the steal "
                                           "that needed it")
        getattr(self, f"_apply_{kind}")(event)
        self.history.append(dict(event))

    def _take_from_pile(self, p: int, card: str) -> None:
        self._check_card(card)
        if card != self.offer["card"]:
            raise IllegalAction("offer", f"the card on offer is {self.offer['card']}, not {card}")
        self.pile.pop()
        if self.hands[p] is not None:
            self.hands[p][card] += 1
        self.known[p][card] += 1
        self.sizes[p] += 1

    def _apply_take(self, ev: Event) -> None:
        p = ev["player"]
        self._check_offer(p, "take")
        self._take_from_pile(p, ev["card"])
        self.offer = None
        self.phase = "play"

    def _apply_pass(self, ev: Event) -> None:
        p = ev["player"]
        self._check_offer(p, "pass")
        self.offer["order"].pop(0)
        if not self.offer["order"]:
            self.offer = None
            self.phase = "draw"

    def _apply_steal(self, ev: Event) -> None:
        p = ev["player"]
        self.restock_for_steal = False
        self._check_offer(p, "steal")
        need = self.options["steal_penalty"]
        if self.stock_count < need:
            raise IllegalAction("steal-stock", f"the stock has {self.stock_count} cards, fewer than the "
                                               f"{need} penalty card(s): a restock must come first")
        pen = ev["penalty"]
        knows = self.hands[p] is not None
        if pen is None:
            if knows:
                raise IllegalAction("draw-card", f"seat {p}'s penalty cards must be shown in its own record "
                                                 f"and in complete records")
        else:
            if not knows:
                raise IllegalAction("draw-card", f"seat {p}'s penalty cards are hidden from seat "
                                                 f"{self.observer}'s record, so 'penalty' must be null")
            if len(pen) != need:
                raise IllegalAction("steal", f"a steal takes {need} penalty card(s), not {len(pen)}")
            self._check_stock_cards(p, pen)
        self._take_from_pile(p, ev["card"])
        self._draw_cards(p, pen, need)
        self.offer = None
        self.phase = "draw"

    def _check_stock_cards(self, p: int, cards: list[str]) -> None:
        for c in cards:
            self._check_card(c)
        if self.stock is not None:
            if list(cards) != self.stock[:len(cards)]:
                raise IllegalAction("stock-order", f"seat {p} took {' '.join(cards)} from the stock, but its next "
                                                   f"card(s) are {' '.join(self.stock[:len(cards)])}")
            return
        loc = self.located()
        for c, k in Counter(cards).items():
            if self.deck[c] - loc[c] < k:
                raise IllegalAction("draw-card", f"seat {p} drew {c} from the stock, but every copy of it is "
                                                 f"elsewhere")

    def _draw_cards(self, p: int, cards: list[str] | None, count: int) -> None:
        if self.stock is not None:
            del self.stock[:count]
        self.stock_count -= count
        self.sizes[p] += count
        if cards is not None and self.hands[p] is not None:
            self.hands[p].update(cards)

    def _apply_draw(self, ev: Event) -> None:
        p, card = ev["player"], ev["card"]
        self._check_seat(p)
        if self.phase != "draw":
            raise IllegalAction("draw", f"seat {p} drew from the stock, but "
                                + ("the discard is still on offer (nobody draws from the stock until "
                                   "the offer closes)" if self.phase == "offer" else "no draw is due"))
        if p != self.turn:
            raise IllegalAction("turn", f"seat {p} drew, but seat {self.turn} is on turn")
        if self.stock_count == 0:
            raise IllegalAction("draw", "the stock is empty: a restock comes first")
        knows = self.hands[p] is not None
        if card is None:
            if knows:
                raise IllegalAction("draw-card", f"seat {p}'s draw must name the card in its own record "
                                                 f"and in complete records")
        else:
            if not knows:
                raise IllegalAction("draw-card", f"seat {p}'s draw is hidden from seat {self.observer}'s record, "
                                                 f"so its card must be null")
            self._check_stock_cards(p, [card])
        self._draw_cards(p, None if card is None else [card], 1)
        self.phase = "play"

    def _apply_restock(self, ev: Event) -> None:
        due = self.phase == "draw" and self.stock_count == 0
        for_steal = (self.phase == "offer" and self.offer["order"][0] != self.turn
                     and self.stock_count < self.options["steal_penalty"])
        if not (due or for_steal):
            raise IllegalAction("restock", "a restock comes only when the stock is empty and a card must be drawn "
                                           "(or holds fewer than a steal's penalty cards)")
        if self.hand_restocks >= self.options["restocks"]:
            raise IllegalAction("restock", f"the stock was rebuilt {self.hand_restocks} times this hand (option "
                                           f"'restocks'): when it runs out again the hand ends with nobody out")
        cards = self.pile[:-1]
        if ev["count"] != len(cards):
            raise IllegalAction("restock", f"the restock shuffles the {len(cards)} discards under the top card, "
                                           f"not {ev['count']}")
        if not cards:
            raise IllegalAction("restock", "there are no discards to restock")
        order = ev["cards"]
        if order is not None:
            if self.stock is None:
                raise IllegalAction("restock", f"the restock's order is hidden from seat {self.observer}'s record, "
                                               f"so 'cards' must be null")
            if Counter(order) != Counter(cards):
                raise IllegalAction("restock", "the restocked cards must be exactly the discards under the top card")
            self.stock = self.stock + list(order)
        elif self.stock is not None:
            raise IllegalAction("restock", "a complete record gives the restock's order ('cards')")
        self.stock_count += len(cards)
        self.pile = self.pile[-1:]
        self.restocks += 1
        self.hand_restocks += 1
        if for_steal and not due:
            self.restock_for_steal = True

    def _apply_go_down(self, ev: Event) -> None:
        p = ev["player"]
        self._check_play(p)
        melds = ev["melds"]
        self._check_go_down(p, melds)
        for m in melds:
            self._remove(p, m["cards"])
            self.table.append({"owner": p, "kind": m["kind"], "cards": list(m["cards"])})
        self.down[p] = True
        self.down_turn[p] = self.turn_no

    def _remove(self, p: int, cards: Iterable[str]) -> None:
        for c in cards:
            if self.hands[p] is not None:
                self.hands[p][c] -= 1
                if self.hands[p][c] == 0:
                    del self.hands[p][c]
            if self.known[p][c] > 0:
                self.known[p][c] -= 1
                if self.known[p][c] == 0:
                    del self.known[p][c]
            self.sizes[p] -= 1

    def _apply_lay_off(self, ev: Event) -> None:
        p = ev["player"]
        self._check_play(p)
        self._check_lay_off(p, ev["card"], ev["meld"], ev["at"])
        self._remove(p, [ev["card"]])
        m = self.table[ev["meld"]]
        m["cards"] = [ev["card"]] + m["cards"] if (m["kind"] == "run" and ev["at"] == "start") else m["cards"] + [ev["card"]]

    def _apply_discard(self, ev: Event) -> None:
        p, card = ev["player"], ev["card"]
        self._check_play(p)
        self._check_holds(p, [card])
        self._remove(p, [card])
        self.pile.append(card)
        if self.sizes[p] == 0:
            self.phase = "hand_end"
            self.offer = None
            return
        self.turn = next_seat(p, self.players)
        self.turn_no += 1
        self.phase = "offer"
        self.offer = {"card": card, "from": p,
                      "order": [(p + i) % self.players for i in range(1, self.players)]}

    def _apply_hand_end(self, ev: Event) -> None:
        if self.phase not in ("hand_end", "draw") or (self.phase == "draw" and self.must() != "hand_end"):
            raise IllegalAction("hand-end", "the hand ends only when a player discards its last card (or no card "
                                            "is left to draw)")
        if ev["hand"] != self.hand_no:
            raise IllegalAction("hand-end", f"hand {self.hand_no} ended, not hand {ev['hand']}")
        out = next((s for s in range(self.players) if self.sizes[s] == 0), None)
        if ev["out"] != out:
            raise IllegalAction("hand-end", f"the player out is {'nobody' if out is None else f'seat {out}'}, "
                                            f"not {ev['out']!r}")
        hands = ev["hands"]
        if len(hands) != self.players:
            raise IllegalAction("hand-end", f"the hands shown are {len(hands)} for {self.players} seats")
        if len(ev["scores"]) != self.players:
            raise IllegalAction("scores", f"{len(ev['scores'])} scores given for {self.players} seats")
        for s, h in enumerate(hands):
            if h is None:
                if self.hands[s] is not None:
                    raise IllegalAction("hand-end", f"seat {s}'s cards are known to this record, so they must be "
                                                    f"shown (null is for a hand the record's player did not see)")
                if self.sizes[s] == 0:
                    raise IllegalAction("hand-end", f"seat {s} holds no card: its hand shown is [], not null")
                continue
            if len(h) != self.sizes[s]:
                raise IllegalAction("hand-end", f"seat {s} holds {self.sizes[s]} cards, but {len(h)} are shown")
            known = self.hands[s]
            if known is not None and Counter(h) != +known:
                raise IllegalAction("hand-end", f"seat {s}'s hand shown ({' '.join(sort_hand(h))}) is not the hand "
                                                f"it holds ({' '.join(sort_hand(known.elements()))})")
            for c, k in self.known[s].items():
                if Counter(h)[c] < k:
                    raise IllegalAction("hand-end", f"seat {s} took {c} and still holds it, but its hand shown "
                                                    f"lacks it")
        shown = Counter(c for h in hands if h is not None for c in h)
        for c in shown:
            self._check_card(c)
        loc = Counter(self.pile)
        loc.update(self.table_counts())
        for c, k in shown.items():
            if loc[c] + k > self.deck[c]:
                raise IllegalAction("hand-end", f"the hands shown hold {k} {c}, but only {self.deck[c] - loc[c]} "
                                                f"copies are not on the table or the pile")
        scores = self.score_hand(out, hands, ev["scores"])
        if list(ev["scores"]) != scores:
            raise IllegalAction("scores", f"hand {self.hand_no}'s scores are {scores}, not {list(ev['scores'])}")
        totals = [t + s for t, s in zip(self.totals, scores)]
        if list(ev["totals"]) != totals:
            raise IllegalAction("scores", f"the totals after hand {self.hand_no} are {totals}, not {list(ev['totals'])}")
        self.shown_hands = [None if h is None else list(h) for h in hands]
        self.totals = totals
        self.hand_scores.append(scores)
        self.outs.append(out)
        if self.hand_no >= self.options["hands"]:
            self.over = True
            self.phase = "over"
        else:
            self.phase = "deal"

    def _apply_deal(self, ev: Event) -> None:
        if self.phase != "deal":
            raise IllegalAction("deal", "the next hand is dealt only after the hand ends")
        k = self.hand_no + 1
        if ev["hand"] != k:
            raise IllegalAction("deal", f"the next hand is hand {k}, not {ev['hand']}")
        hands = ev["hands"]
        if len(hands) != self.players:
            raise IllegalAction("deal", f"{len(hands)} hands dealt for {self.players} players")
        size = hand_cards(self.options, k)
        mine = self.observer
        for s, h in enumerate(hands):
            if h is None:
                if self.stock is not None or s == mine:
                    raise IllegalAction("deal", f"seat {s}'s hand must be shown "
                                        + ("in a complete record" if self.stock is not None else "in its own record"))
                continue
            if mine is not None and s != mine:
                raise IllegalAction("deal", f"seat {s}'s hand is hidden from seat {mine}'s record (give null)")
            if len(h) != size:
                raise IllegalAction("deal", f"hand {k} deals {size} cards, but seat {s} got {len(h)}")
            for c in h:
                self._check_card(c)
        stock = ev["stock"]
        if self.stock is not None:
            if stock is None:
                raise IllegalAction("deal", "a complete record gives the new stock in draw order")
            allc = Counter(c for h in hands for c in h) + Counter(stock) + Counter([ev["up"]])
            if allc != self.deck:
                raise IllegalAction("deal", "the hands, the card turned up and the stock must be exactly the pack")
        elif stock is not None:
            raise IllegalAction("deal", f"the stock is hidden from seat {mine}'s record (give null)")
        else:
            self._check_card(ev["up"])
            own = Counter(hands[mine]) + Counter([ev["up"]])
            for c, n in own.items():
                if n > self.deck[c]:
                    raise IllegalAction("deal", f"the pack has {self.deck[c]} {c}, not {n}")
        self._start_hand(k, [None if h is None else h for h in hands], ev["up"], stock)
