"""Hand and Foot typed live (``cardmind advise handfoot``): the short notation of the table.

One short line per event, seen from the player's seat (the *observer*), in the game's terms
(``docs/handfoot.md``, "Typing a game live"): ``2 draws``, ``1 draws 6D 9D``, ``3 picks up QD
QH``, ``1 melds 8H 8S 8C``, ``2 lays off JH JS``, ``0 discards 8C``, ``2 asks to go out``,
``yes``, ``foot CARDS``, ``held 1 4C 2 3H KD``, ``scores 2430 410``, ``deal CARDS``.

**What the rules fill in** (:meth:`HandFootShorthand.implied`): a ``book`` right after the
cards that make a meld seven cards (its number and whether it is clean are known from the
table), another player's ``foot`` (it shows nothing), and another player's ``draw`` when the
discard pile cannot be taken (fewer than ``pile_min`` cards, or a top card that is not a
natural 4..A): a draw is then the only thing it can do. A line fills in what the table shows:
the cards taken with the pile (its top seven), the number of cards a draw takes, the meld a
lay-off goes to (the team's meld of that rank), the seat that answers (the asker's partner),
the reason the hand ended, its scores where the cards still held are given, the totals.

Cards are written as in records (``TS`` or ``10S``, ``RJ``), case-insensitive.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...cards import SUITS, parse_rank
from ...errors import CardError
from ...shorthand import Form, Shorthand, ShorthandError, cards_of, seat_of, tokens
from .rules import deck_counter, is_natural, is_wild, sort_cards

#: words that stand for "no card" in ``held``
_NONE_WORDS = ("-", "none", "nothing", "0cards")
#: the words of a yes and of a no (the partner's answer)
_YES = ("yes", "y")
_NO = ("no", "n")
#: verbs and other words of the notation (completion)
_VERBS = ("draws", "picks", "up", "melds", "lays", "off", "on", "meld", "book", "discards", "asks", "to", "go",
          "out", "yes", "no", "foot", "held", "scores", "deal")


def _plural(rank: str) -> str:
    return {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}.get(rank, rank) + "s"


class HandFootShorthand(Shorthand):
    """The Hand and Foot short notation (see the module docstring and :attr:`forms`)."""

    forms = (
        Form("S draws", "another player draws from the stock (its cards are hidden; filled in when the discard "
                        "pile cannot be taken)", "0 draws"),
        Form("S draws CARDS", "you draw: the two cards you drew (one when the stock has one left)",
             "1 draws 3D 7S"),
        Form("S picks up CARD CARD", "S takes the discard pile with a natural pair of its top card's rank: the "
                                     "pair as laid on the table (or its suits only: 3 picks up H S); the cards "
                                     "taken are filled in from the pile", "3 picks up QH QS"),
        Form("S picks up", "the same when only one pair is possible (you hold just one pair of the rank)",
             "1 picks up"),
        Form("S melds CARDS", "a new meld of S's team", "1 melds 7D 7S 7S"),
        Form("S lays off CARDS", "cards added to the team's meld of their rank (its open meld, else its book "
                                 "of that rank: a book takes cards too)", "1 lays off JS"),
        Form("S lays off CARDS on RANK", "the same on the team's meld of RANK (needed for wild cards alone; "
                                         "on RANK book: its book)", "1 lays off 2S on J"),
        Form("S lays off CARDS on meld N", "the same on the team's meld number N (numbered from 0 in the order "
                                           "laid this hand)", "1 lays off JC on meld 2"),
        Form("S discards CARD", "S discards a card, ending its turn", "0 discards JS"),
        Form("S asks to go out", "S, in its foot with the books, asks its partner whether it may go out",
             "3 asks to go out"),
        Form("yes", "the partner's answer to the ask: yes, or y (binding: not going out this turn then costs the "
                    "team its failed-out penalty)", "yes"),
        Form("no", "the partner's answer: no, or n (the asker may not go out this turn)", "no"),
        Form("foot CARDS", "your hand is used up: the cards of your foot (another player's foot is filled "
                           "in)", "foot 2D 2D 3S 5H 6D TS QS"),
        Form("held S CARDS ... [scores N N]", "the hand is over: the cards still held in hand and foot by the "
                                              "seats you noted (a dash for none; a seat with no card, and your own "
                                              "cards once you play from your foot, are filled in); the scores are computed for every team whose seats are all "
                                              "given, the others typed after scores (the team of seat 0 first)",
             "held 0 3C 5S 6H 7C 8C JS AD AS BJ scores 370 1705"),
        Form("scores N N", "the hand is over: each team's score of the hand as counted at the table (the "
                           "team of seat 0 first); the totals are added up", "scores 370 1705"),
        Form("deal CARDS", "the next hand: your new hand", "deal 2S 2S 3S 6H 6S 7S 9H TC JD KS RJ"),
    )

    # ------------------------------------------------------------------ reading lines
    def parse(self, line: str, state) -> list[dict]:
        """The events of one typed line from ``state`` (the player's view, not changed).

        Raises:
            ShorthandError: the line is not a form of the notation, or cannot be right here
                (one sentence, with an example of the right form).
        """
        words = tokens(line)
        if not words:
            raise ShorthandError("nothing typed: type an event such as '2 draws' or '1 melds 8H 8S 8C' "
                                 "(help lists every form)")
        if state.is_over():
            raise ShorthandError("the game is over: there is nothing more to type")
        head = words[0]
        due = state.forced[0]["type"] if state.forced else None
        if head in ("held", "scores"):
            return [self._hand_end(words, state)]
        if due == "hand_end":
            raise ShorthandError(self._hand_end_wanted(state))
        if head == "deal":
            return [self._deal(words[1:], state)]
        if due == "deal":
            raise ShorthandError(f"hand {state.hand_no + 1} is dealt next: type your new hand, for example "
                                 f"'deal {self._example_cards(state, state.hand_size)}'")
        if head == "foot":
            return [self._own_foot(words[1:], state)]
        if head in _YES + _NO:
            return [self._answer(head in _YES, None, state)]
        if not head.isdigit():
            raise ShorthandError(f"{line.strip()!r} is not a form of the notation: start with a seat ('2 draws', "
                                 f"'1 melds 8H 8S 8C'), or type yes, no, foot, held, scores or deal "
                                 f"(help lists every form)")
        seat = seat_of(head, state.players, "a seat")
        rest = words[1:]
        verb = rest[0] if rest else ""
        args = rest[1:]
        if verb in ("picks", "pick") and args[:1] == ["up"]:
            verb, args = "picks up", args[1:]
        elif verb in ("lays", "lay") and args[:1] == ["off"]:
            verb, args = "lays off", args[1:]
        elif verb in ("pickup", "takes", "take"):
            verb = "picks up"
        if verb == "picks up" and args[:1] == ["foot"] or verb == "foot":
            if seat != state.observer:
                raise ShorthandError(f"seat {seat}'s foot is filled in when its hand is used up: nothing to type")
            return [self._own_foot(args[1:] if verb == "picks up" else args, state)]
        if due == "foot":
            raise ShorthandError(self._foot_wanted(state))
        if verb in ("draws", "draw"):
            return [self._draw(seat, args, state)]
        if verb == "picks up":
            return [self._pickup(seat, args, state)]
        if verb in ("melds", "meld"):
            if not args:
                raise ShorthandError(f"type the cards of the meld, for example '{seat} melds 8H 8S 8C'")
            return [{"type": "meld", "player": seat, "cards": cards_of(args, "the meld")}]
        if verb == "lays off":
            return [self._lay_off(seat, args, state)]
        if verb in ("discards", "discard"):
            if len(args) != 1:
                raise ShorthandError(f"type one card after 'discards', for example '{seat} discards 8C'")
            return [{"type": "discard", "player": seat, "card": cards_of(args, "the discard")[0]}]
        if verb in ("asks", "ask"):
            if args and args != ["to", "go", "out"]:
                raise ShorthandError(f"expected '{seat} asks to go out'")
            return [{"type": "ask_out", "player": seat}]
        if verb in _YES + _NO and not args:
            return [self._answer(verb in _YES, seat, state)]
        if verb in ("says", "answers") and len(args) == 1 and args[0] in _YES + _NO:
            return [self._answer(args[0] in _YES, seat, state)]
        raise ShorthandError(f"{line.strip()!r} is not a form of the notation: after the seat comes draws, picks "
                             f"up, melds, lays off, discards or asks to go out (for example '{seat} discards 8C')")

    # ------------------------------------------------------------------ the forms
    def _draw(self, seat: int, args: list[str], state) -> dict:
        me = state.observer
        if state.phase == "play" and state.turn == seat and state.history and \
                state.history[-1].get("type") == "draw" and state.history[-1].get("player") == seat:
            why = " (filled in: the discard pile could not be taken)" if not state.pile_takeable() else ""
            raise ShorthandError(f"seat {seat} has drawn this turn already{why}: type what it does next")
        count = min(2, state.stock_count)
        if seat != me:
            if args:
                raise ShorthandError(f"seat {seat}'s draw is hidden from you: type '{seat} draws' without cards")
            return {"type": "draw", "player": seat, "count": count, "cards": None}
        if not args:
            raise ShorthandError(f"type the cards you drew, for example '{seat} draws "
                                 f"{self._example_cards(state, max(1, count))}'")
        cards = cards_of(args, "your draw")
        if len(cards) != count:
            raise ShorthandError(f"a draw takes {count} card{'s' if count != 1 else ''} from the stock now: type "
                                 f"{'them' if count != 1 else 'it'}, for example '{seat} draws "
                                 f"{self._example_cards(state, max(1, count))}'")
        return {"type": "draw", "player": seat, "count": count, "cards": cards}

    def _pickup(self, seat: int, args: list[str], state) -> dict:
        if not state.pile:
            raise ShorthandError("the discard pile is empty: there is nothing to pick up")
        top = state.pile[-1]
        r = top[0]
        example = f"'{seat} picks up {r}{SUITS[1]} {r}{SUITS[2]}'" if is_natural(top) else None
        if not is_natural(top):
            raise ShorthandError(f"the pile's top card {top} is not a natural 4..A: it cannot be picked up")
        if not args:
            cands = self.pairs(state, seat, r)
            if len(cands) == 1:
                pair = list(cands[0])
            elif not cands:
                who = "you hold" if seat == state.observer else f"seat {seat} can hold"
                raise ShorthandError(f"{who} no pair of {_plural(r)} to pick up the pile with")
            else:
                raise ShorthandError(f"type the pair of {_plural(r)} seat {seat} laid with the pile's top card, "
                                     f"for example {example}")
        elif len(args) == 2 and all(len(a) == 1 and a.upper() in SUITS for a in args):
            pair = [r + a.upper() for a in args]
        elif len(args) == 2:
            pair = cards_of(args, "the pair")
        else:
            raise ShorthandError(f"type the two cards of the pair laid with the pile's top card, for example "
                                 f"{example}")
        return {"type": "pickup", "player": seat, "pair": pair, "cards": state.pile_take_cards()}

    def pairs(self, state, seat: int, rank: str) -> list[tuple[str, str]]:
        """The pairs of natural cards of ``rank`` (tokens, sorted) ``seat`` can hold as far as
        ``state`` knows: from its cards when it is the observer, else from the copies not seen
        elsewhere."""
        z = state.zone[seat]
        if z is not None:
            have = {c: z[c] for c in z if z[c] > 0}
        else:
            deck = deck_counter(state.options)
            vis = state.visible()
            have = {c: deck[c] - vis[c] + state.known[seat][c] for c in deck}
        toks = sort_cards(c for c, k in have.items() if k > 0 and c[0] == rank and is_natural(c))
        out = []
        for i, a in enumerate(toks):
            for b in toks[i:]:
                if a != b or have[a] >= 2:
                    out.append((a, b))
        return out

    def _lay_off(self, seat: int, args: list[str], state) -> dict:
        if "on" in args:
            k = args.index("on")
            card_words, target = args[:k], args[k + 1:]
        else:
            card_words, target = args, []
        if not card_words:
            raise ShorthandError(f"type the cards laid off, for example '{seat} lays off JH JS' or "
                                 f"'{seat} lays off 2C on 9'")
        cards = cards_of(card_words, "the lay-off")
        team = state.teams[seat]
        melds = state.melds[team]
        if target[:1] == ["meld"]:
            if len(target) != 2 or not target[1].isdigit():
                raise ShorthandError(f"expected 'on meld N' (N the team's meld number from 0), for example "
                                     f"'{seat} lays off 2C on meld 0'")
            i = int(target[1])
            if i >= len(melds):
                raise ShorthandError(f"seat {seat}'s team has {len(melds)} meld{'s' if len(melds) != 1 else ''} "
                                     f"(numbered from 0), not a meld {i}")
            return {"type": "lay_off", "player": seat, "meld": i, "cards": cards}
        book_only = False
        if target:
            if target[-1] == "book":
                book_only, target = True, target[:-1]
            if len(target) != 1:
                raise ShorthandError(f"expected 'on RANK' or 'on meld N' after the cards, for example "
                                     f"'{seat} lays off 2C on 9'")
            rank = _rank_word(target[0])
        else:
            ranks = {c[0] for c in cards if not is_wild(c)}
            if len(ranks) != 1:
                raise ShorthandError(f"wild cards alone need the meld they go on, for example '{seat} lays off "
                                     f"{cards[0]} on 9'" if not ranks else
                                     f"a lay-off goes on one meld: one rank at a time, for example "
                                     f"'{seat} lays off JH JS'")
            rank = ranks.pop()
        i = self.meld_of(state, team, rank, book_only)
        if i is None:
            what = "book" if book_only else "meld"
            raise ShorthandError(f"seat {seat}'s team has no {what} of {_plural(rank)}: a new meld is typed "
                                 f"'{seat} melds CARDS'")
        if i < 0:
            raise ShorthandError(f"seat {seat}'s team has several books of {_plural(rank)}: say which, for "
                                 f"example '{seat} lays off {' '.join(cards)} on meld "
                                 f"{next(j for j, m in enumerate(melds) if m.rank == rank)}'")
        return {"type": "lay_off", "player": seat, "meld": i, "cards": cards}

    @staticmethod
    def meld_of(state, team: int, rank: str, book_only: bool = False) -> int | None:
        """The meld a lay-off on ``rank`` goes to: the team's open meld of that rank, else its
        one book of that rank (``book_only``: its one book); ``None`` when there is none, ``-1``
        when there are several books and no open meld."""
        if not book_only:
            i = state.open_meld(team, rank)
            if i is not None:
                return i
        books = [j for j, m in enumerate(state.melds[team]) if m.rank == rank and m.book]
        if not books:
            return None
        return books[0] if len(books) == 1 else -1

    def _answer(self, yes: bool, seat: int | None, state) -> dict:
        if state.phase != "answer":
            raise ShorthandError("nobody has asked to go out: an answer comes right after 'S asks to go out'")
        partner = state.partner[state.turn]
        if seat is not None and seat != partner:
            raise ShorthandError(f"seat {state.turn}'s partner, seat {partner}, answers: type 'yes' or 'no'")
        return {"type": "answer", "player": partner, "yes": yes}

    def _own_foot(self, args: list[str], state) -> dict:
        me = state.observer
        f = state.forced[0] if state.forced else None
        if f is None or f["type"] != "foot" or f["player"] != me:
            raise ShorthandError("you pick up your foot when your hand is used up (after you lay or discard "
                                 "its last card): not now")
        cards = cards_of(args, "your foot")
        if len(cards) != state.foot_sizes[me]:
            raise ShorthandError(self._foot_wanted(state))
        return {"type": "foot", "player": me, "cards": cards}

    def _foot_wanted(self, state) -> str:
        return (f"your hand is used up: type the {state.foot_sizes[state.observer]} cards of your foot, for "
                f"example 'foot {self._example_cards(state, state.foot_sizes[state.observer])}'")

    def _deal(self, args: list[str], state) -> dict:
        f = state.forced[0] if state.forced else None
        if f is None or f["type"] != "deal":
            raise ShorthandError("a new hand is dealt after the end of a hand ('held ...' or 'scores ...'): "
                                 "not now")
        cards = cards_of(args, "your new hand")
        if len(cards) != state.hand_size:
            raise ShorthandError(f"type the {state.hand_size} cards of your new hand, for example "
                                 f"'deal {self._example_cards(state, state.hand_size)}'")
        return {"type": "deal", "hand": state.hand_no + 1,
                "hands": [cards if s == state.observer else None for s in range(state.players)]}

    # ------------------------------------------------------------------ the end of a hand
    def _hand_end_wanted(self, state) -> str:
        teams = "; ".join(f"team {t}: seats {' '.join(map(str, state.team_seats(t)))}"
                          for t in range(state.num_teams))
        others = [s for s in range(state.players) if s != state.observer][:2]
        example = " ".join(f"{s} {c}" for s, c in zip(others, ("4C", "3H KD")))
        return (f"hand {state.hand_no} is over: type the cards the others still hold ('held {example}', a seat "
                f"not named unknown, yours filled in) or the scores of the teams ('scores 2430 410'; {teams})")

    def _hand_end(self, words: list[str], state) -> dict:
        f = state.forced[0] if state.forced else None
        if f is None or f["type"] != "hand_end":
            raise ShorthandError("the hand is not over: 'held' and 'scores' end a hand (after a player goes out, "
                                 "or the turn that drew the stock's last card)")
        n = state.players
        held: list[list[str] | None] = [None] * n
        scores: list[int] | None = None
        i = 0
        while i < len(words):
            w = words[i]
            if w == "held":
                i += 1
                seat = None
                while i < len(words) and words[i] != "scores":
                    t = words[i].rstrip(":")
                    if t.isdigit():
                        seat = seat_of(t, n, "a seat after 'held'")
                        if held[seat] is not None:
                            raise ShorthandError(f"seat {seat} is named twice after 'held'")
                        held[seat] = []
                    elif seat is None:
                        raise ShorthandError("after 'held' name a seat, then its cards, for example "
                                             "'held 1 4C 2 3H KD 3 -'")
                    elif t not in _NONE_WORDS:
                        held[seat].extend(cards_of([t], f"seat {seat}'s cards"))
                    i += 1
            elif w == "scores":
                if scores is not None:
                    raise ShorthandError("type 'scores' once, with one number per team")
                i += 1
                scores = []
                while i < len(words) and words[i] != "held":
                    try:
                        scores.append(int(words[i]))
                    except ValueError:
                        raise ShorthandError(f"{words[i]!r} after 'scores' is not a whole number of points "
                                             f"(for example 'scores 2430 410')") from None
                    i += 1
                if len(scores) != state.num_teams:
                    raise ShorthandError(f"type one score per team ({state.num_teams}, the team of seat 0 "
                                         f"first), for example 'scores "
                                         + _example_scores(state.num_teams) + "'")
            else:
                raise ShorthandError(self._hand_end_wanted(state))
        for s in range(n):
            if held[s] is None and state.sizes[s] + state.foot_sizes[s] == 0:
                held[s] = []
        self._fill_own(held, state)
        computed = state._hand_scores(held)
        if scores is None:
            if None in computed:
                missing = [s for s in range(n) if held[s] is None]
                given = " ".join(f"{s} " + (" ".join(h) or "-") for s, h in enumerate(held)
                                 if h is not None and state.sizes[s] + state.foot_sizes[s] and s != state.observer)
                me = state.observer
                own = (f" (yours: your hand is filled in, type your foot's {state.foot_sizes[me]} cards after "
                       f"'held {me}')" if me in missing else "")
                raise ShorthandError(f"the cards of seat{'s' if len(missing) > 1 else ''} "
                                     f"{' '.join(map(str, missing))} are not given{own}: type them, or the scores "
                                     f"too, for example '" + (f"held {given} " if given else "") + "scores "
                                     + _example_scores(state.num_teams) + "'")
            scores = [int(x) for x in computed]
        totals = [t + s for t, s in zip(state.totals, scores)]
        return {"type": "hand_end", "hand": state.hand_no, "reason": "out" if state.went_out is not None else "stock",
                "player": state.went_out, "held": held, "scores": scores, "totals": totals}

    @staticmethod
    def _fill_own(held: list[list[str] | None], state) -> None:
        """Fill in the observer's own cards at the end of a hand (in place): it knows its hand,
        and its foot once picked up. With its foot still unpicked, cards typed for its seat are
        either everything it holds or its foot's cards alone (then its hand is added)."""
        me = state.observer
        if me is None or state.zone[me] is None:
            return
        hand = sort_cards(state.zone[me].elements())
        if held[me] is None:
            if state.foot_sizes[me] == 0 or state.feet[me] is not None:
                held[me] = hand + (sort_cards(state.feet[me].elements()) if state.foot_sizes[me] else [])
        elif state.foot_sizes[me] and len(held[me]) == state.foot_sizes[me] != state.sizes[me] + state.foot_sizes[me]:
            held[me] = sort_cards(hand + list(held[me]))

    # ------------------------------------------------------------------ implied events
    def implied(self, state) -> list[dict]:
        """The next event when the rules force it and it carries nothing to type: a ``book``,
        another player's ``foot``, another player's ``draw`` when the pile cannot be taken."""
        if state.is_over():
            return []
        if state.forced:
            f = state.forced[0]
            if f["type"] == "book":
                return [{"type": "book", "player": f["player"], "meld": f["meld"], "clean": f["clean"]}]
            if f["type"] == "foot" and f["player"] != state.observer:
                return [{"type": "foot", "player": f["player"], "cards": None}]
            return []
        if state.phase == "draw" and state.turn != state.observer and state.stock_count > 0 \
                and not state.pile_takeable():
            return [{"type": "draw", "player": state.turn, "count": min(2, state.stock_count), "cards": None}]
        return []

    # ------------------------------------------------------------------ writing lines
    def line_for(self, events: Sequence[Mapping[str, Any]], state) -> tuple[str, int]:
        """The typed line of ``events[0]`` from ``state`` (one event per line).

        Raises:
            ValueError: the event cannot be typed (an implied event, or one the notation would
                write differently).
        """
        ev = events[0]
        t = ev.get("type")
        p = ev.get("player")
        if t == "draw":
            return (f"{p} draws" + ("" if ev["cards"] is None else " " + " ".join(ev["cards"])), 1)
        if t == "pickup":
            pair = list(ev["pair"])
            top = state.pile[-1] if state.pile else None
            cands = self.pairs(state, p, top[0]) if top else []
            if len(cands) == 1 and list(cands[0]) == pair:
                return (f"{p} picks up", 1)
            return (f"{p} picks up {pair[0]} {pair[1]}", 1)
        if t == "meld":
            return (f"{p} melds " + " ".join(ev["cards"]), 1)
        if t == "lay_off":
            cards = list(ev["cards"])
            team = state.teams[p]
            i = ev["meld"]
            line = f"{p} lays off " + " ".join(cards)
            ranks = {c[0] for c in cards if not is_wild(c)}
            if i < len(state.melds[team]):
                rank = state.melds[team][i].rank
                if len(ranks) == 1 and self.meld_of(state, team, rank) == i:
                    return (line, 1)
                if self.meld_of(state, team, rank) == i:
                    return (f"{line} on {rank}", 1)
                if self.meld_of(state, team, rank, True) == i:
                    return (f"{line} on {rank} book", 1)
            return (f"{line} on meld {i}", 1)
        if t == "discard":
            return (f"{p} discards {ev['card']}", 1)
        if t == "foot":
            if ev["cards"] is None:
                raise ValueError(f"seat {p}'s foot is filled in by the rules, not typed")
            return ("foot " + " ".join(ev["cards"]), 1)
        if t == "ask_out":
            return (f"{p} asks to go out", 1)
        if t == "answer":
            return ("yes" if ev["yes"] else "no", 1)
        if t == "hand_end":
            return (self._hand_end_line(ev, state), 1)
        if t == "deal":
            own = ev["hands"][state.observer] if state.observer is not None else None
            if own is None:
                raise ValueError("a deal is typed by its player: the record must show its hand")
            return ("deal " + " ".join(own), 1)
        raise ValueError(f"a {t} event is not typed: the rules fill it in")

    def _hand_end_line(self, ev: Mapping[str, Any], state) -> str:
        held = ev.get("held") or [None] * state.players
        parts = []
        own = list(held)
        own[state.observer if state.observer is not None else 0] = None
        if state.observer is not None:
            self._fill_own(own, state)
        for s, h in enumerate(held):
            if s == state.observer and h is not None and own[s] is not None and sort_cards(h) == sort_cards(own[s]):
                continue   # filled in from what the player holds
            if h is None:
                if state.sizes[s] + state.foot_sizes[s] == 0:
                    raise ValueError(f"seat {s} held no card, so 'held' shows [] for it")
                continue
            if state.sizes[s] + state.foot_sizes[s] == 0:
                continue
            parts.append(f"{s} " + (" ".join(h) if h else "-"))
        filled = [h if h is not None else ([] if state.sizes[s] + state.foot_sizes[s] == 0 else None)
                  for s, h in enumerate(held)]
        if state.observer is not None and filled[state.observer] is None:
            self._fill_own(filled, state)
        line = "held " + " ".join(parts) if parts else ""
        if None in state._hand_scores(filled):
            line = (line + " " if line else "") + "scores " + " ".join(str(x) for x in ev["scores"])
        return line

    # ------------------------------------------------------------------ help at the prompt
    def prompt(self, state) -> str:
        """Whose turn it is and what the rules expect next (see :class:`Shorthand`)."""
        if state.is_over():
            return "the game is over"
        me = state.observer
        if state.forced:
            f = state.forced[0]
            if f["type"] == "hand_end":
                how = (f"seat {state.went_out} went out" if state.went_out is not None else "the stock ran out")
                others = [s for s in range(state.players) if s != me][:2]
                example = " ".join(f"{s} {c}" for s, c in zip(others, ("4C", "-")))
                return (f"hand {state.hand_no} is over ({how}): type the cards the others still hold (held "
                        f"{example}; yours are filled in) or the scores (scores "
                        + " ".join("N" for _ in range(state.num_teams)) + ")")
            if f["type"] == "deal":
                return f"hand {state.hand_no + 1}: type your new hand: deal CARDS"
            if f["type"] == "foot" and f["player"] == me:
                return f"your hand is used up: type your foot: foot CARDS ({state.foot_sizes[me]} cards)"
        t = state.turn
        if state.phase == "answer":
            partner = state.partner[t]
            if partner == me:
                return f"seat {t} asks to go out: your answer, yes or no"
            return f"seat {partner} to answer seat {t}: yes or no"
        if state.phase == "draw":
            take = " or pick up the pile" if state.pile_takeable() else ""
            if t == me:
                return f"your turn: draw ({me} draws CARDS){take}" + (f" ({me} picks up ...)" if take else "")
            return f"seat {t} to draw{take}"
        acts = []
        team = state.teams[t]
        if state.opened[team] or state.turn_points or t == me:
            acts.append("meld, lay off")
        else:
            acts.append("open (meld)")
        if state.in_foot[t] and not state.asked and not state.cut_throat() and state.books_met(team):
            acts.append("ask to go out")
        if state.permission is True:
            acts = ["told yes: meld, lay off and go out (lay or discard the last card)"
                    if state.options["out_by_laying"] else
                    "told yes: meld, lay off, and discard the last card to go out"]
        drew = ""
        last = state.history[-1] if state.history else None
        if t != me and last and last.get("type") == "draw" and last.get("player") == t and not state.turn_points:
            drew = " drew" + (" (the pile cannot be taken)" if not state.pile_takeable() else "") + ";"
        if state.permission is True:
            return ("your turn, " if t == me else f"seat {t} ") + acts[0]
        if t == me:
            return "your turn: " + ", ".join(acts) + " or discard"
        return f"seat {t}{drew} to " + ", ".join(acts) + " or discard"

    def words(self, state) -> list[str]:
        """The notation's words, the seats, your cards first, then every card of the decks."""
        out = list(_VERBS)
        out += [str(s) for s in range(state.players)]
        me = state.observer
        own = sort_cards(state.zone[me]) if me is not None and state.zone[me] is not None else []
        out += own
        out += [c for c in sort_cards(deck_counter(state.options)) if c not in own]
        return out

    # ------------------------------------------------------------------ examples in messages
    @staticmethod
    def _example_cards(state, k: int) -> str:
        """``k`` cards of the decks to show in an example (``"4C 4D ..."``)."""
        deck = sort_cards(deck_counter(state.options))
        return " ".join(deck[j % len(deck)] for j in range(k))


def _example_scores(teams: int) -> str:
    """Scores to show in an example, one per team (``"2430 410"``)."""
    return " ".join(str(x) for x in (2430, 410, 1250, 905, 1760, 330)[:teams])


def _rank_word(word: str) -> str:
    """A rank typed after 'on' (``9``, ``10``, ``j``, ``9s``, ``jacks``).

    Raises:
        ShorthandError: not a rank.
    """
    w = word.lower()
    names = {"fours": "4", "fives": "5", "sixes": "6", "sevens": "7", "eights": "8", "nines": "9", "tens": "T",
             "jacks": "J", "queens": "Q", "kings": "K", "aces": "A"}
    if w in names:
        return names[w]
    if w.endswith("s") and len(w) > 1 and w[:-1] in ("4", "5", "6", "7", "8", "9", "10", "t", "j", "q", "k", "a"):
        w = w[:-1]
    try:
        return parse_rank(w)
    except CardError:
        raise ShorthandError(f"{word!r} is not a rank: type the meld's rank, for example 'on 9' or 'on J'") from None


__all__ = ["HandFootShorthand"]
