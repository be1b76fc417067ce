"""The short notation of contract rummy: one line per event, typed at the table
(``cardmind advise carioca``; the shared contract is :mod:`cardmind.shorthand`).

Lines (case-insensitive; ``S`` a seat number, ``CARD`` a card such as ``7H``, ``10S`` or ``RJ``):

* the **offer**: ``2 takes`` (the player on turn takes the discard), ``nobody takes`` (every
  seat still to decide passes: one entry for the whole offer), ``3 steals`` (the seats before
  it in the offer passed; a restock the steal needs comes with it), ``1 steals penalty 5D``
  (the player's own steal with its penalty card), ``2 passes`` (the seats up to seat 2 pass,
  the offer goes on);
* the **turn**: ``1 draws 5C`` (the player's own draw from the stock, with its card),
  ``1 down 7H 7S 7C / KD KS KC`` (sets and runs told apart by their cards; runs in the order
  laid), ``1 lays off 8H`` (``on CARD`` or ``on N`` names the meld when the card fits more
  than one, ``start`` / ``end`` the end of a run), ``2 discards 7H``;
* **between hands**: ``end 1 6C 6C 3D 3D / 3 9`` (each other seat's cards, or its score as a
  number when its cards were not seen; the player's own cards and the seat that went out are
  filled in; scores and totals are computed) and ``deal 3D 5D AH AH 2H QH 9S up 6H`` (the
  player's new cards and the card turned up).

The rules fill in (:meth:`CariocaShorthand.implied`) another player's draw from the stock
after an offer closed without a take, and a restock when a draw is due on an empty stock (its
count is the discards under the top card; nobody sees its order).

The header of a player's record needs the card turned up: ``--hand "TD QD TH QS KS RJ up
QH"`` (:meth:`CariocaShorthand.start`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import IllegalAction
from ...shorthand import Form, Shorthand, ShorthandError, cards_of, seat_of, tokens
from .melds import meld_kind
from .rules import hand_cards, hand_points, is_joker, sort_hand

_FORMS = (
    Form("S takes", "the player on turn takes the discard on offer (its draw)", "2 takes"),
    Form("nobody takes", "every seat still to decide passes: the offer closes, the player on turn draws "
                         "from the stock (another player's draw is filled in)", "nobody takes"),
    Form("S steals", "a player not on turn steals the discard (the seats before it in the offer passed)",
         "3 steals"),
    Form("S steals penalty CARDS", "your own steal, with the penalty card(s) you drew", "1 steals penalty 5D"),
    Form("S passes", "the seats up to S pass (the offer goes on to the next seat)", "2 passes"),
    Form("S draws CARD", "your own draw from the stock, with its card", "1 draws 5C"),
    Form("S down CARDS / CARDS ...", "S goes down: the contract's melds separated by /, sets and runs told "
                                      "apart by their cards, runs in the order laid", "1 down 7H 7S 7C / KD KS KC"),
    Form("S lays off CARD [on CARD or N] [start or end]", "S lays a card off on a meld of the table (on: a card "
                                                         "of that meld or its number from 1, when the card fits "
                                                         "more than one; start/end: the end of a run)",
         "3 lays off BJ on 7D"),
    Form("S discards CARD", "S discards, ending its turn", "2 discards 7H"),
    Form("end S CARDS / S POINTS ...", "the hand ends: each other seat's cards, or its score when its cards "
                                        "were not seen (your cards and the seat out are filled in; scores and "
                                        "totals are computed)", "end 1 6C 6C 3D 3D / 3 9"),
    Form("deal CARDS up CARD", "the next hand: your new cards and the card turned up", "deal 3D 5D AH AH 2H QH 9S up 6H"),
)

_TAKE = {"takes", "take", "took"}
_PASS = {"passes", "pass", "passed"}
_STEAL = {"steals", "steal", "stole", "buys", "buy"}
_DRAW = {"draws", "draw", "drew"}
_DOWN = {"down", "goes", "go", "went"}
_LAY = {"lays", "lay", "layoff", "layoffs", "laid"}
_DISCARD = {"discards", "discard", "discarded"}
_PENALTY = {"penalty", "gets", "plus", "+"}
_ME = {"i", "me"}
_SEPARATORS = re.compile(r"[/|]")


def _meld_kind_of(cards: Sequence[str]) -> str:
    """The kind a typed meld is read as: ``"set"`` when its natural cards share one rank
    (a valid run never does), else ``"run"`` (the rules then check it)."""
    kind = meld_kind(cards)
    if kind is not None:
        return kind
    ranks = {c[0] for c in cards if not is_joker(c)}
    return "set" if len(ranks) <= 1 else "run"


class CariocaShorthand(Shorthand):
    """Contract rummy's short notation (see the module docstring; the forms are :attr:`forms`)."""

    forms = _FORMS

    # ------------------------------------------------------------------ the start
    def start(self, options: Mapping[str, Any], seat: int, text: str) -> dict:
        """``{"observer", "hand", "up"}`` from ``"TD QD TH QS KS RJ up QH"`` (the cards dealt to
        the player, then ``up`` and the card turned up).

        Raises:
            ShorthandError: no ``up CARD`` at the end, or a word that is not a card.
        """
        words = tokens(text)
        if "up" not in words or words.index("up") != len(words) - 2:
            raise ShorthandError("expected your cards, then 'up' and the card turned up, for example "
                                 "'TD QD TH QS KS RJ up QH'")
        i = words.index("up")
        return {"observer": seat, "hand": cards_of(words[:i], "your hand"),
                "up": cards_of(words[i + 1:], "the card turned up")[0]}

    def start_text(self, header: Mapping[str, Any]) -> str:
        """``"TD QD TH QS KS RJ up QH"``: the header's hand, ``up`` and the card turned up."""
        return " ".join(header["hand"]) + " up " + header["up"]

    # ------------------------------------------------------------------ parsing
    def parse(self, line: str, state) -> list[dict]:
        """The events of one typed line from ``state`` (the player's view; see the module
        docstring for the forms).

        Raises:
            ShorthandError: not a form of the notation, or a seat, card or meld that cannot be
                right here (one sentence with an example).
        """
        if state.is_over():
            raise ShorthandError("the game is over: nothing more can happen")
        words = tokens(_SEPARATORS.sub(" / ", line))
        if not words:
            raise ShorthandError("nothing to enter: type an event, for example '2 discards 7H'")
        head = words[0]
        if head in ("nobody", "none", "noone"):
            return self._nobody(words, state)
        if head in ("end", "hand", "scores", "over"):
            return self._hand_end(words, state)
        if head == "deal":
            return self._deal(words, state)
        seat = self._seat(head, state)
        if len(words) < 2:
            raise ShorthandError(f"expected what seat {seat} did after its number, for example "
                                 f"'{seat} discards 7H' (help lists the forms)")
        verb, rest = words[1], words[2:]
        if verb in _TAKE:
            return self._take(seat, rest, state)
        if verb in _PASS:
            return self._pass(seat, rest, state)
        if verb in _STEAL:
            return self._steal(seat, rest, state)
        if verb in _DRAW:
            return self._draw(seat, rest, state)
        if verb in _DOWN:
            if verb != "down":
                if not rest or rest[0] != "down":
                    raise ShorthandError(f"expected '{seat} down' and the melds, for example "
                                         f"'{seat} down 7H 7S 7C / KD KS KC'")
                rest = rest[1:]
            return self._down(seat, rest, state)
        if verb in _LAY:
            if verb in ("lays", "lay", "laid"):
                if not rest or rest[0] != "off":
                    raise ShorthandError(f"expected '{seat} lays off CARD', for example '{seat} lays off 8H'")
                rest = rest[1:]
            return self._lay_off(seat, rest, state)
        if verb in _DISCARD:
            return self._discard(seat, rest, state)
        raise ShorthandError(f"{verb!r} is not a word of the notation: expected takes, passes, steals, draws, "
                             f"down, lays off or discards, for example '{seat} discards 7H'")

    def _seat(self, word: str, state) -> int:
        if word in _ME and state.observer is not None:
            return state.observer
        if not word.isdigit():
            raise ShorthandError(f"{word!r} does not start a line of the notation: a line starts with a seat "
                                 f"number, 'nobody takes', 'end' or 'deal', for example '2 discards 7H'")
        return seat_of(word, state.players, "a seat")

    # ------------------------------------------------------------------ the offer
    def _offer(self, state, what: str) -> dict:
        if state.phase != "offer":
            now = self.prompt(state)
            raise ShorthandError(f"no discard is on offer, so nobody {what} now ({now})")
        return state.offer

    def _offered_card(self, rest: list[str], offer: dict, example: str) -> list[str]:
        """Check an optional card typed after the verb (it must be the card on offer)."""
        if rest and rest[0] not in _PENALTY:
            card = cards_of(rest[:1], "the card on offer")[0]
            if card != offer["card"]:
                raise ShorthandError(f"the card on offer is {offer['card']}, not {card}: type {example!r}")
            return rest[1:]
        return rest

    def _passes_before(self, seat: int, offer: dict, what: str) -> list[dict]:
        order = offer["order"]
        if seat not in order:
            if offer["from"] == seat:
                raise ShorthandError(f"seat {seat} discarded the {offer['card']}: it cannot {what} it")
            raise ShorthandError(f"seat {seat} has already passed on the {offer['card']}: seats "
                                 f"{', '.join(map(str, order))} are still to decide")
        return [{"type": "pass", "player": s} for s in order[:order.index(seat)]]

    def _nobody(self, words: list[str], state) -> list[dict]:
        if words[1:] not in (["takes"], ["take"], ["takes", "it"], ["pass"], ["passes"]):
            raise ShorthandError("expected 'nobody takes' (every seat still to decide passes)")
        offer = self._offer(state, "passes")
        return [{"type": "pass", "player": s} for s in offer["order"]]

    def _take(self, seat: int, rest: list[str], state) -> list[dict]:
        offer = self._offer(state, "takes")
        card = offer["card"]
        if seat == offer["from"]:
            raise ShorthandError(f"seat {seat} discarded the {card}: it cannot take it back")
        if seat != state.turn:
            raise ShorthandError(f"seat {seat} is not on turn, so it cannot take the {card} as its draw"
                                 + (f"; it may steal it: '{seat} steals'" if seat in offer["order"] else ""))
        if seat not in offer["order"]:
            raise ShorthandError(f"seat {seat} has already passed on the {card}")
        rest = self._offered_card(rest, offer, f"{seat} takes")
        if rest:
            raise ShorthandError(f"expected '{seat} takes' (or '{seat} takes {card}'), nothing more")
        return [{"type": "take", "player": seat, "card": card}]

    def _pass(self, seat: int, rest: list[str], state) -> list[dict]:
        offer = self._offer(state, "passes")
        if rest:
            raise ShorthandError(f"expected '{seat} passes', nothing more")
        return self._passes_before(seat, offer, "pass on") + [{"type": "pass", "player": seat}]

    def _steal(self, seat: int, rest: list[str], state) -> list[dict]:
        offer = self._offer(state, "steals")
        if seat == state.turn:
            raise ShorthandError(f"seat {seat} is on turn: it takes the {offer['card']} as its draw "
                                 f"('{seat} takes') instead of stealing it")
        events = self._passes_before(seat, offer, "steal")
        mine = seat == state.observer
        rest = self._offered_card(rest, offer, f"{seat} steals")
        need = state.options["steal_penalty"]
        penalty = None
        if rest:
            if rest[0] not in _PENALTY:
                raise ShorthandError(f"expected '{seat} steals' or '{seat} steals penalty CARD', not "
                                     f"{' '.join(rest)!r}")
            if not mine:
                raise ShorthandError(f"seat {seat}'s penalty card is hidden from you: type '{seat} steals'")
            penalty = cards_of(rest[1:], "the penalty cards")
        if mine:
            penalty = penalty or []
            if len(penalty) != need:
                ex = f"{seat} steals" + (" penalty " + " ".join(["5D", "9C", "KH"][:need]) if need else "")
                raise ShorthandError(f"your steal takes {need} penalty card(s) from the stock, not {len(penalty)}: "
                                     f"type them, for example {ex!r}")
        probe = state.copy()
        try:
            for ev in events:
                probe.apply_event(ev)
        except IllegalAction as exc:
            raise ShorthandError(f"the offer cannot go on to seat {seat}: {exc.message}") from None
        if probe.stock_count < need and probe.can_restock():
            events.append({"type": "restock", "count": len(probe.pile) - 1, "cards": None})
        events.append({"type": "steal", "player": seat, "card": offer["card"], "penalty": penalty})
        return events

    # ------------------------------------------------------------------ the turn
    def _draw(self, seat: int, rest: list[str], state) -> list[dict]:
        if seat != state.observer:
            raise ShorthandError(f"seat {seat}'s draw from the stock is filled in by the rules once an offer "
                                 f"closes without a take: nothing to type ({self.prompt(state)})")
        if state.must() != "draw" or state.turn != seat:
            raise ShorthandError(f"no draw of yours is due now ({self.prompt(state)})")
        if len(rest) != 1:
            raise ShorthandError(f"expected the card you drew, for example '{seat} draws 5C'")
        return [{"type": "draw", "player": seat, "card": cards_of(rest, "the card drawn")[0]}]

    def _down(self, seat: int, rest: list[str], state) -> list[dict]:
        groups: list[list[str]] = [[]]
        for w in rest:
            if w == "/":
                groups.append([])
            else:
                groups[-1].append(w)
        if not rest or any(not g for g in groups):
            raise ShorthandError(f"expected the melds separated by /, for example '{seat} down 7H 7S 7C / KD KS KC'")
        melds = []
        for g in groups:
            cards = cards_of(g, "the melds")
            melds.append({"kind": _meld_kind_of(cards), "cards": cards})
        return [{"type": "go_down", "player": seat, "melds": melds}]

    def _lay_off(self, seat: int, rest: list[str], state) -> list[dict]:
        if not rest:
            raise ShorthandError(f"expected the card laid off, for example '{seat} lays off 8H'")
        card = cards_of(rest[:1], "the card laid off")[0]
        target, at = None, None
        words = rest[1:]
        while words:
            w = words.pop(0)
            if w in ("start", "end", "low", "high", "front", "back"):
                at = "start" if w in ("start", "low", "front") else "end"
            elif w == "on" and words:
                target = words.pop(0)
            elif w in ("at", "the", "meld"):
                continue
            else:
                raise ShorthandError(f"expected '{seat} lays off {card}', with 'on CARD' or 'on N' naming the meld "
                                     f"and 'start' or 'end' when needed, for example '{seat} lays off {card} on 2'")
        try:      # the rules that do not depend on the meld come first (the last card, not down)
            state.check_lay_off_card(seat, card)
        except IllegalAction as exc:
            raise ShorthandError(f"'{seat} lays off {card}' breaks a rule: {exc.message}") from None
        meld, where = self._layoff_place(state, seat, card, target, at)
        return [{"type": "lay_off", "player": seat, "card": card, "meld": meld, "at": where}]

    def _layoff_place(self, state, seat: int, card: str, target: str | None, at: str | None) -> tuple[int, str]:
        """The ``(meld index, end)`` a typed lay-off names (see :meth:`_lay_off`)."""
        table = state.table
        if not table:
            raise ShorthandError(f"there is no meld on the table to lay {card} off on")
        melds = range(len(table))
        if target is not None:
            if target.isdigit():
                n = int(target)
                if not 1 <= n <= len(table):
                    raise ShorthandError(f"there is no meld {n}: the melds on the table are 1-{len(table)} "
                                         f"(in the order laid)")
                melds = [n - 1]
            else:
                c = cards_of([target], "the meld named")[0]
                melds = [i for i, m in enumerate(table) if c in m["cards"]]
                if not melds:
                    raise ShorthandError(f"no meld on the table holds {c}: name the meld by one of its cards "
                                         f"or its number, for example 'on 1'")
        places = [(i, a) for i, a in state.layoff_options(seat, card) if i in melds and (at is None or a == at)]
        if not places:
            where = " there" if target is not None else " on the table"
            raise ShorthandError(f"{card} fits no meld{where}" + (f" at its {at}" if at else "")
                                 + f" ({self._table_text(state)})")
        if len({i for i, _ in places}) > 1:
            which = " and ".join(f"meld {i + 1} ({' '.join(table[i]['cards'])})" for i in sorted({i for i, _ in places}))
            raise ShorthandError(f"{card} fits {which}: say which, for example '{seat} lays off {card} on "
                                 f"{places[0][0] + 1}'")
        if len(places) > 1:
            raise ShorthandError(f"{card} fits both ends of meld {places[0][0] + 1}: add 'start' or 'end', for "
                                 f"example '{seat} lays off {card} end'")
        return places[0]

    @staticmethod
    def _table_text(state) -> str:
        return "; ".join(f"meld {i + 1}: {' '.join(m['cards'])}" for i, m in enumerate(state.table))

    def _discard(self, seat: int, rest: list[str], state) -> list[dict]:
        if len(rest) != 1:
            raise ShorthandError(f"expected the card discarded, for example '{seat} discards 7H'")
        return [{"type": "discard", "player": seat, "card": cards_of(rest, "the discard")[0]}]

    # ------------------------------------------------------------------ between hands
    def _hand_end(self, words: list[str], state) -> list[dict]:
        if state.phase == "deal":
            raise ShorthandError(f"the end of hand {state.hand_no} is entered already (undo takes it back): "
                                 f"{self.prompt(state)}")
        if state.must() != "hand_end":
            raise ShorthandError(f"hand {state.hand_no} is not over ({self.prompt(state)})")
        while words and words[0] in ("end", "hand", "ends", "over", "scores", ":"):
            words = words[1:]
        n = state.players
        out = next((s for s in range(n) if state.sizes[s] == 0), None)
        given: dict[int, list[str] | int] = {}
        segments: list[list[str]] = [[]]
        for w in words:
            if w == "/":
                segments.append([])
            else:
                segments[-1].append(w)
        example = self._end_example(state)
        for seg in segments:
            if not seg:
                if len(segments) > 1:
                    raise ShorthandError(f"an empty part between slashes: type each seat's cards or score, for "
                                         f"example {example!r}")
                continue
            s = seat_of(seg[0].rstrip(":"), n, "a seat")
            if s in given:
                raise ShorthandError(f"seat {s} is named twice: type each seat once, for example {example!r}")
            rest = [w for w in seg[1:] if w not in ("points", "pts", "point", ":")]
            if len(rest) == 1 and re.fullmatch(r"-?\d+", rest[0]):
                given[s] = int(rest[0])
            else:
                given[s] = cards_of(rest, f"seat {s}'s cards")
        hands: list[list[str] | None] = [None] * n
        typed_scores = [0] * n
        for s in range(n):
            g = given.get(s)
            if s == out:
                if isinstance(g, list) and g:
                    raise ShorthandError(f"seat {s} went out: it holds no card")
                hands[s] = []
                if isinstance(g, int):
                    typed_scores[s] = g
            elif state.hands[s] is not None:
                own = sort_hand(state.hands[s].elements())
                if g is None:
                    hands[s] = own
                elif isinstance(g, int):
                    if g != hand_points(own, state.options):
                        raise ShorthandError(f"seat {s}'s cards ({' '.join(own)}) score "
                                             f"{hand_points(own, state.options)} points, not {g}")
                    hands[s] = own
                else:
                    hands[s] = g
            elif g is None:
                raise ShorthandError(f"say seat {s}'s cards, or its score if you did not see them, for example "
                                     f"{example!r}")
            elif isinstance(g, int):
                typed_scores[s] = g
            else:
                hands[s] = g
        for s, h in enumerate(hands):
            if h is not None and len(h) != state.sizes[s]:
                held = f"{state.sizes[s]} card" + ("" if state.sizes[s] == 1 else "s")
                raise ShorthandError(f"seat {s} holds {held}, but {len(h)} are typed: type its cards or its score")
        try:
            scores = state.score_hand(out, hands, typed_scores)
        except IllegalAction as exc:
            raise ShorthandError(f"{exc.message}") from None
        if out is not None and isinstance(given.get(out), int) and given[out] != scores[out]:
            raise ShorthandError(f"seat {out} went out and scores {scores[out]}, not {given[out]}")
        totals = [t + x for t, x in zip(state.totals, scores)]
        return [{"type": "hand_end", "hand": state.hand_no, "out": out, "hands": hands, "scores": scores,
                 "totals": totals}]

    @staticmethod
    def _end_example(state) -> str:
        """The form of the hand's end here: ``"end 0 CARD / 3 CARDS"`` (each other seat holding
        cards, with as many ``CARD`` as it holds up to three)."""
        others = [s for s in range(state.players) if s != state.observer and state.sizes[s] > 0]
        parts = [f"{s} " + (" ".join(["CARD"] * state.sizes[s]) if state.sizes[s] <= 3 else "CARDS") for s in others]
        return "end " + " / ".join(parts) if parts else "end"

    def _deal(self, words: list[str], state) -> list[dict]:
        if state.phase != "deal":
            raise ShorthandError(f"no new hand is to be dealt now ({self.prompt(state)})")
        k = state.hand_no + 1
        size = hand_cards(state.options, k)
        rest = words[1:]
        if "up" not in rest or rest.index("up") != len(rest) - 2:
            raise ShorthandError(f"expected your {size} new cards, then 'up' and the card turned up, for example "
                                 f"'deal 3D 5D AH AH 2H QH 9S up 6H'")
        i = rest.index("up")
        cards = cards_of(rest[:i], "your new hand")
        if len(cards) != size:
            raise ShorthandError(f"hand {k} deals {size} cards, but {len(cards)} are typed")
        up = cards_of(rest[i + 1:], "the card turned up")[0]
        hands = [cards if s == state.observer else None for s in range(state.players)]
        return [{"type": "deal", "hand": k, "hands": hands, "stock": None, "up": up}]

    # ------------------------------------------------------------------ implied
    def implied(self, state) -> list[dict]:
        """A restock when a draw is due on an empty stock (its count: the discards under the top
        card), and another player's draw from the stock after an offer without a take."""
        if state.is_over():
            return []
        m = state.must()
        if m == "restock":
            return [{"type": "restock", "count": len(state.pile) - 1, "cards": None}]
        if m == "draw" and state.turn != state.observer:
            return [{"type": "draw", "player": state.turn, "card": None}]
        return []

    # ------------------------------------------------------------------ writing lines
    def line_for(self, events: Sequence[dict], state) -> tuple[str, int]:
        """The line that gives the first events of ``events`` (see :class:`Shorthand`).

        Raises:
            ValueError: ``events[0]`` cannot be typed here.
        """
        ev = events[0]
        t = ev["type"]
        me = state.observer
        if t == "take":
            return f"{ev['player']} takes", 1
        if t in ("pass", "restock", "steal") and state.phase == "offer":
            order = state.offer["order"]
            j = 0
            while j < len(events) and j < len(order) and events[j]["type"] == "pass":
                j += 1
            if t == "pass" and j == len(order):
                return "nobody takes", j
            k = j
            if k < len(events) and events[k]["type"] == "restock":
                k += 1
            if k < len(events) and events[k]["type"] == "steal":
                st = events[k]
                line = f"{st['player']} steals"
                if st["player"] == me and st["penalty"]:
                    line += " penalty " + " ".join(st["penalty"])
                return line, k + 1
            if j > 0:
                return f"{order[j - 1]} passes", j
            raise ValueError(f"a restock in an offer must come with the steal that needs it: {ev!r}")
        if t == "draw" and ev["player"] == me and ev["card"] is not None:
            return f"{me} draws {ev['card']}", 1
        if t == "go_down":
            for m in ev["melds"]:
                if _meld_kind_of(m["cards"]) != m["kind"]:
                    raise ValueError(f"the meld {m['cards']} would be read as a {_meld_kind_of(m['cards'])}")
            return f"{ev['player']} down " + " / ".join(" ".join(m["cards"]) for m in ev["melds"]), 1
        if t == "lay_off":
            return self._lay_off_line(ev, state), 1
        if t == "discard":
            return f"{ev['player']} discards {ev['card']}", 1
        if t == "hand_end":
            return self._hand_end_line(ev, state), 1
        if t == "deal":
            return f"deal {' '.join(ev['hands'][me])} up {ev['up']}", 1
        raise ValueError(f"event {ev!r} is not typed in the notation here (the rules fill it in, or it does not "
                         f"fit the position)")

    def _lay_off_line(self, ev: dict, state) -> str:
        p, card, want = ev["player"], ev["card"], (ev["meld"], ev["at"])
        table = state.table
        unique = [c for c in dict.fromkeys(table[want[0]]["cards"])
                  if sum(c in m["cards"] for m in table) == 1] if want[0] < len(table) else []
        for target in [None] + unique[:1] + [str(want[0] + 1)]:
            for at in (None, want[1]):
                try:
                    got = self._layoff_place(state, p, card, target, at)
                except ShorthandError:
                    continue
                if got == want:
                    return (f"{p} lays off {card}" + (f" on {target}" if target else "")
                            + (f" {at}" if at else ""))
        raise ValueError(f"the lay-off {ev!r} does not fit the table")

    def _hand_end_line(self, ev: dict, state) -> str:
        me = state.observer
        parts = []
        for s, h in enumerate(ev["hands"]):
            if s == ev["out"] and h == []:
                continue
            if s == me and state.hands[s] is not None and h == sort_hand(state.hands[s].elements()):
                continue
            parts.append(f"{s} {ev['scores'][s]}" if h is None else f"{s} {' '.join(h)}")
        return "end" + (" " + " / ".join(parts) if parts else "")

    # ------------------------------------------------------------------ prompt and words
    def prompt(self, state) -> str:
        """Whose turn it is and what comes next, e.g. ``"7H on offer to seat 2 (on turn): '2
        takes', 'S steals' or 'nobody takes'"``."""
        me = state.observer
        if state.is_over():
            return "the game is over"
        m = state.must()
        if m == "hand_end":
            return (f"hand {state.hand_no} is over: type each other seat's cards, or its score where you did not "
                    f"see them: '{self._end_example(state)}'")
        if m == "deal" or state.phase == "deal":
            k = state.hand_no + 1
            return f"hand {k}: type your {hand_cards(state.options, k)} new cards: 'deal CARDS up CARD'"
        who = "you" if state.turn == me else f"seat {state.turn}"
        if state.phase == "offer":
            card, first = state.offer["card"], state.offer["order"][0]
            if first == state.turn:
                head = f"{card} on offer to {'you' if first == me else f'seat {first}'} (on turn)"
                return f"{head}: '{first} takes', 'S steals' or 'nobody takes'"
            asked = "your decision" if first == me else f"seat {first} to decide"
            return f"{card} on offer, {asked}: 'S steals' or 'nobody takes' ({who} to draw)"
        if m == "draw":
            return f"your draw from the stock: '{me} draws CARD'"
        if state.phase == "play":
            if state.turn == me:
                return f"your turn: go down, lay off, then '{me} discards CARD'"
            return f"seat {state.turn} to play: '{state.turn} discards CARD' (or down, lays off)"
        return f"{who} on turn"   # pragma: no cover - every phase is named above

    def words(self, state) -> list[str]:
        """The notation's verbs for the position, the seats, and every card of the pack (yours first)."""
        if state.is_over():
            return []
        if state.phase == "offer":
            verbs = ["takes", "steals", "passes", "nobody", "penalty"]
        elif state.must() == "hand_end":
            verbs = ["end", "points"]
        elif state.phase == "deal":
            verbs = ["deal", "up"]
        elif state.must() == "draw":
            verbs = ["draws"]
        else:
            verbs = ["discards", "down", "lays", "off", "on", "start", "end"]
        seats = [str(s) for s in range(state.players)]
        mine = sort_hand(+state.hands[state.observer]) if state.hands[state.observer] is not None else []
        pack = sort_hand(state.deck)
        return verbs + seats + mine + [c for c in pack if c not in mine]


__all__ = ["CariocaShorthand"]
