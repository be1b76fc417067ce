"""Bulgarian Go Fish's short notation for ``cardmind advise`` (one typed line per event).

The player types what happens at the table, one line per event, from its own seat
(``docs/gofish.md``, "Typing a game live"):

* ``2 asks 0 7 got 7H 7S`` / ``2 asks 0 7 no``: an ask and its answer (the cards handed over
  are public: everyone sees their suits). ``got 2`` (a count) is taken only where what the
  player knows fixes which cards they are; elsewhere the line is refused with a sentence
  asking for the cards (see :meth:`GoFishShorthand.given`).
* ``0 draws`` (another player's draw you do not see), ``0 draws 7H`` (a draw shown to everyone:
  the rank just asked for), ``1 draws 7H`` (your own draw: you see your card).
* ``2 books`` / ``2 books 7`` (another player's book, face down or face up).
* ``1 asks 3 book 7 yes|no`` (phase 2: a whole book).

What the rules imply is never typed (:meth:`GoFishShorthand.implied`): the player's own books
(it holds every suit of a rank), another player's book when the cards everyone saw it take
complete the rank, and the draws of another player on turn with no cards or with nobody to
ask (never shown). Dealt books the player laid before play (its seat's place in the opening
comes after the lower seats') and forced draws of another player that wait on a book it may
still lay are added in front of the next line the player types (:meth:`GoFishShorthand.lead`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...cards import parse_card, parse_rank
from ...errors import CardError, IllegalAction
from ...shorthand import Form, Shorthand, ShorthandError, tokens
from .rules import sort_hand

_ASK = {"asks", "ask", "asked"}
_DRAW = {"draws", "draw", "drew"}
_BOOK = {"books", "book", "booked", "lays"}
_YES = {"got", "yes", "gets", "hit"}
_NO = {"no", "nothing", "miss"}
_FILLER = {"for", "the", "of", "any"}
#: ranks by name, as a card player says them (and the advice writes them): singular and plural
_RANK_NAMES = {name: r for r, names in {
    "2": ("two", "twos", "deuce", "deuces"), "3": ("three", "threes", "trey", "treys"), "4": ("four", "fours"),
    "5": ("five", "fives"), "6": ("six", "sixes"), "7": ("seven", "sevens"), "8": ("eight", "eights"),
    "9": ("nine", "nines"), "T": ("ten", "tens"), "J": ("jack", "jacks"), "Q": ("queen", "queens"),
    "K": ("king", "kings"), "A": ("ace", "aces")}.items() for name in names}


class GoFishShorthand(Shorthand):
    """The short notation of Bulgarian Go Fish (see the module docstring and ``forms``).

    Seats are numbers (``me`` is the player's own seat); a rank is written ``7``, ``10`` or
    ``T``, ``J``, ``Q``, ``K``, ``A`` (a plural ``7s`` is read as the rank too, and so is its
    name, singular or plural, as the advice writes it: ``kings``, ``sevens``, ``ten``); cards as in
    records (``7H``, ``10S``). Every method takes the player's view
    (:class:`~cardmind.games.gofish.state.GoFishState` with an ``observer``) and leaves it as
    it is.
    """

    forms = (
        Form("S asks T RANK got CARDS", "seat S asks seat T for RANK; T hands over these cards (everyone sees them)",
             "2 asks 0 7 got 7H 7S"),
        Form("S asks T RANK got N", "the same with only how many: taken when what you know fixes which cards "
                                    "(your own cards, or the only ones left); else you are asked for the cards",
             "2 asks 0 7 got 2"),
        Form("S asks T RANK no", "T has none (\"mind your own business\"); `nothing` also says it",
             "2 asks 0 7 no"),
        Form("S asks T RANK", "an ask of you: your answer follows from your hand (none, all of them, or your "
                              "only card of RANK)", "0 asks 1 7"),
        Form("S draws", "S draws a card you do not see (after a refusal)", "0 draws"),
        Form("S draws CARD", "your own draw (you see your card), or a draw shown to everyone (the rank S just "
                             "asked for)", "1 draws 7H"),
        Form("S books", "S lays down a book face down (you do not see its rank)", "2 books"),
        Form("S books RANK", "S lays down the book of RANK face up (option books_face_up), or your own dealt "
                             "book", "2 books 7"),
        Form("S asks T book RANK yes|no", "phase 2 (option phase2): S asks T for the whole book of RANK; T hands "
                                          "it over (yes) or not (no)", "1 asks 3 book 7 yes"),
    )

    # ------------------------------------------------------------------ reading a line
    def parse(self, line: str, state) -> list[dict]:
        """The events ``line`` stands for from ``state`` (see :class:`Shorthand`): the events
        the rules force before it (:meth:`lead`) when the line needs them, then its own.

        Raises:
            ShorthandError: not a form of the notation, a seat, rank or card that cannot be
                right, or a line the rules refuse here (one sentence).
        """
        intent = self._read(line, state)
        st = state.copy()
        lead: list[dict] = []
        last: Exception | None = None
        for _ in range(8 * state.players + 8):
            try:
                events = self._build(intent, st)
                trial = st.copy()
                for ev in events:
                    trial.apply_event(ev)
                return lead + events
            except (ShorthandError, IllegalAction) as exc:
                last = exc
            step = self._step(st)
            if not step:
                break
            for ev in step:
                st.apply_event(ev)
            lead.extend(step)
        if isinstance(last, ShorthandError):
            raise last
        raise ShorthandError(f"{line.strip()!r} breaks a rule: {last.message}") from None

    def _read(self, line: str, state) -> dict[str, Any]:
        """The form of ``line`` (an ``intent``: ``kind`` ``ask``, ``ask_book``, ``draw`` or
        ``book`` and its words), checked without the position's rules."""
        w = tokens(line)
        if len(w) < 2:
            raise ShorthandError(f"expected 'S asks T RANK got CARDS', 'S asks T RANK no', 'S draws', or "
                                 f"'S books', for example '2 asks 0 7 no', not {line.strip()!r}")
        seat = self._seat(w[0], state, "the player")
        verb = w[1]
        rest = [t for t in w[2:] if t not in _FILLER]
        if verb in _ASK:
            return self._read_ask(seat, rest, state)
        if verb in _DRAW:
            if len(rest) > 1:
                raise ShorthandError(f"a draw is 'S draws' or 'S draws CARD' (one card), for example '{seat} draws' "
                                     f"or '{seat} draws 7H', not {line.strip()!r}")
            return {"kind": "draw", "player": seat, "card": self._card(rest[0], "the draw") if rest else None}
        if verb in _BOOK:
            if len(rest) > 1:
                raise ShorthandError(f"a book is 'S books' or 'S books RANK', for example '{seat} books' or "
                                     f"'{seat} books 7', not {line.strip()!r}")
            return {"kind": "book", "player": seat, "rank": self._rank(rest[0], state) if rest else None}
        raise ShorthandError(f"expected 'asks', 'draws' or 'books' after the seat, not {verb!r}, for example "
                             f"'{seat} asks {(seat + 1) % state.players} 7 no'")

    def _read_ask(self, asker: int, rest: list[str], state) -> dict[str, Any]:
        example = f"'{asker} asks {(asker + 1) % state.players} 7 got 7H' or '... no'"
        if not rest:
            raise ShorthandError(f"an ask names the seat asked and the rank, for example {example}")
        target = self._seat(rest[0], state, "the seat asked")
        words = rest[1:]
        book = False
        if "book" in words or "books" in words:
            book = True
            words = [t for t in words if t not in ("book", "books")]
        if not words:
            raise ShorthandError(f"an ask names the rank after the seat asked, for example {example}")
        rank = self._rank(words[0], state)
        answer = words[1:]
        if book or state.phase == 2:
            if state.phase != 2:
                raise ShorthandError("whole books are asked for only in phase 2 (option phase2, once the cards "
                                     f"run out); now ask for cards, for example {example}")
            if len(answer) != 1 or answer[0] not in _YES | _NO:
                raise ShorthandError(f"phase 2: say whether {_who(target, state)} handed the book over, for example "
                                     f"'{asker} asks {target} book {rank} yes' or '... no'")
            return {"kind": "ask_book", "asker": asker, "target": target, "rank": rank,
                    "success": answer[0] in _YES}
        if not answer:
            return {"kind": "ask", "asker": asker, "target": target, "rank": rank, "given": None, "count": None}
        head, more = answer[0], answer[1:]
        if head in _NO:
            if more:
                raise ShorthandError(f"a refusal is '... {rank} no' with nothing after it, for example "
                                     f"'{asker} asks {target} {rank} no'")
            return {"kind": "ask", "asker": asker, "target": target, "rank": rank, "given": [], "count": 0}
        if head in _YES:
            answer = more
        elif not _is_card(head):
            raise ShorthandError(f"after the rank say what {_who(target, state)} handed over ('got' and the cards) or "
                                 f"'no', for example '{asker} asks {target} {rank} got {rank}H' or "
                                 f"'{asker} asks {target} {rank} no', not {head!r}")
        if len(answer) == 1 and answer[0].isdigit():
            n = int(answer[0])
            if n == 0:
                return {"kind": "ask", "asker": asker, "target": target, "rank": rank, "given": [], "count": 0}
            return {"kind": "ask", "asker": asker, "target": target, "rank": rank, "given": None, "count": n}
        if not answer:
            return {"kind": "ask", "asker": asker, "target": target, "rank": rank, "given": None,
                    "count": -1}  # "got" alone: one card under give "one", all of them when that is known
        cards = [self._card(t, "the cards handed over") for t in answer]
        return {"kind": "ask", "asker": asker, "target": target, "rank": rank, "given": cards, "count": len(cards)}

    @staticmethod
    def _seat(word: str, state, what: str) -> int:
        if word in ("me", "i", "you"):
            return state.observer
        if word.isdigit() and int(word) < state.players:
            return int(word)
        raise ShorthandError(f"expected {what}: a seat number 0-{state.players - 1} (or 'me'), not {word!r}, "
                             f"for example '1 asks 0 7 no'")

    @staticmethod
    def _rank(word: str, state) -> str:
        """The rank ``word`` names: ``7``, ``7s``, ``10``, ``T``, ``K``, or a name (``kings``,
        ``king``, ``sevens``, ``tens``, ``aces``...: what the advice says).

        Raises:
            ShorthandError: not a rank, or not one of this game's ranks.
        """
        named = _RANK_NAMES.get(word.lower())
        for w in ((named,) if named else (word, word[:-1] if len(word) > 1 and word.endswith("s") else None)):
            if w is None:
                continue
            try:
                r = parse_rank(w)
            except CardError:
                continue
            if r in state.ranks:
                return r
            raise ShorthandError(f"{word!r} is not a rank of this game (ranks {' '.join(state.ranks)})")
        raise ShorthandError(f"expected a rank (2-9, 10 or T, J, Q, K, A, or its name: kings, sevens...), not "
                             f"{word!r}, for example '2 asks 0 7 no'")

    @staticmethod
    def _card(word: str, what: str) -> str:
        try:
            return parse_card(word)
        except CardError:
            raise ShorthandError(f"{word!r} in {what} is not a card (cards are written like 7H, TS or 10S)") from None

    # ------------------------------------------------------------------ events of a line
    def _build(self, intent: dict[str, Any], st) -> list[dict]:
        """The events of ``intent`` at ``st`` (the rules are checked by the caller)."""
        kind = intent["kind"]
        me = st.observer
        self._basics(intent, st)
        if kind == "ask":
            a, t, r = intent["asker"], intent["target"], intent["rank"]
            given = intent["given"]
            if given is None:
                given = self.given(st, a, t, r, intent["count"])
            return [{"type": "ask", "asker": a, "target": t, "rank": r, "given": sort_hand(given)}]
        if kind == "ask_book":
            return [{"type": "ask_book", "asker": intent["asker"], "target": intent["target"],
                     "rank": intent["rank"], "success": intent["success"]}]
        if kind == "draw":
            p, card = intent["player"], intent["card"]
            m = st._settled().must_draw
            asked = m["rank"] if m is not None and m["player"] == p and m["reason"] == "refused" else None
            if p == me:
                if card is None:
                    raise ShorthandError(f"type the card you drew, for example '{p} draws 7H'")
                return [{"type": "draw", "player": p, "card": card, "shown": asked is not None and card[0] == asked}]
            if card is None:
                return [{"type": "draw", "player": p, "card": None, "shown": False}]
            if m is not None and m["player"] == p and (asked is None or card[0] != asked):
                why = (f"the rank it asked for ({asked})" if asked is not None else
                       "a card drawn on turn without an ask (never shown)")
                raise ShorthandError(f"you see another player's draw only when it is {why}: type '{p} draws'")
            return [{"type": "draw", "player": p, "card": card, "shown": True}]
        # a book
        p, rank = intent["player"], intent["rank"]
        if p == me:
            if rank is None:
                due = (st.unlaid[me] or []) if st.opening else []
                if not due:
                    w = st.window
                    if w is not None and w["seat"] == me and w["rank"] is not None:
                        due = [w["rank"]]
                if not due:
                    raise ShorthandError("you have no book to lay now: your own books are written as soon as you "
                                         "hold every suit of a rank (type the next event, for example '0 asks 1 7 no')")
                rank = due[0]
            return [{"type": "book", "player": p, "rank": rank}]
        w = st.window if st.window is not None and st.window["seat"] == p else None
        seen = w["public_rank"] if w is not None else None
        if st.options["books_face_up"]:
            if rank is None:
                if seen is None:
                    raise ShorthandError(f"books are laid face up here: say its rank, for example '{p} books 7'")
                rank = seen
            return [{"type": "book", "player": p, "rank": rank}]
        if rank is not None and rank != seen and (w is not None or st.opening):
            why = (f"it can only be the {seen}s, the rank it just took" if seen is not None
                   else "a face-down book does not show its rank")
            raise ShorthandError(f"seat {p}'s book of {rank}s cannot be written: {why}; type '{p} books'")
        return [{"type": "book", "player": p, "rank": None if w is not None or st.opening else rank}]

    @staticmethod
    def _basics(intent: dict[str, Any], st) -> None:
        """Refuse an ask or a draw that cannot come now by the rules' basics, before any
        detail of its answer is asked for (whose turn it is, a draw that is due, the seat
        asked, the rank; the player's own card drawn), in the player's words ("you" for its
        own seat). What passes is checked in full by the rules afterwards.

        Raises:
            ShorthandError: one sentence saying why, and what comes instead.
        """
        kind = intent["kind"]
        if kind not in ("ask", "draw"):
            return
        me = st.observer
        if st.over:
            raise ShorthandError("the game is over")
        s2 = st._settled()
        m = s2.must_draw

        def who(s: int) -> str:
            return "you" if s == me else f"seat {s}"

        if kind == "draw":
            p, card = intent["player"], intent["card"]
            if m is None:
                raise ShorthandError("no draw is due now (a player draws after a refused ask, or on turn with no "
                                     "cards or nobody to ask): "
                                     + ("it is your turn" if s2.turn == me else f"it is seat {s2.turn}'s turn"))
            q = m["player"]
            if p != q:
                how = f"type '{q} draws CARD'" if q == me else f"type '{q} draws'"
                whose = "your" if q == me else f"seat {q}'s"
                not_whose = "yours" if p == me else f"seat {p}'s"
                raise ShorthandError(f"it is {whose} draw, not {not_whose}: {how}")
            if card is None:
                return
            holder = st._holder(card)
            if p == me and holder == me:
                raise ShorthandError(f"you already hold {card}: type the card you drew")
            if holder is not None and holder != p:
                where = "you hold it" if holder == me else f"seat {holder} holds it (everyone saw it)"
                raise ShorthandError(f"{who(p)} cannot have drawn {card}: {where}")
            if card[0] in st.book_at:
                raise ShorthandError(f"{who(p)} cannot have drawn {card}: the book of {_plural(card[0])} has been "
                                     f"laid")
            return
        a, t, r = intent["asker"], intent["target"], intent["rank"]
        if m is not None:
            q = m["player"]
            how = f"type '{q} draws CARD'" if q == me else f"type '{q} draws'"
            raise ShorthandError(f"{who(q)} must draw from the stock first: {how}")
        if a != s2.turn:
            if s2.turn == me:
                raise ShorthandError(f"it is your turn, so seat {a} cannot ask now")
            raise ShorthandError(f"it is seat {s2.turn}'s turn, so {who(a)} cannot ask now")
        if a == t:
            raise ShorthandError("you cannot ask yourself" if a == me else f"seat {a} cannot ask itself")
        if st.sizes[t] == 0:
            raise ShorthandError(f"{who(t)} {'have' if t == me else 'has'} no cards, so cannot be asked")
        if r in st.book_at:
            raise ShorthandError(f"the book of {_plural(r)} has been laid: nobody can ask for them")
        if a == me and st.holds_rank(me, r) == 0:
            held = sorted({c[0] for c in st.hands[me]}, key=st.ranks.index)
            raise ShorthandError(f"you hold no {_plural(r)}: ask for a rank you hold"
                                 + (f" ({', '.join(held)})" if held else ""))
        for c in intent["given"] or ():
            if c[0] != r:
                continue   # the rules say it: a card of another rank
            if t == me and c not in st.hands[me]:
                raise ShorthandError(f"you do not hold {c}: type the {r} you handed over, or '{a} asks {t} {r}'")
            if t != me and st._holder(c) == me:
                raise ShorthandError(f"you hold {c}, so seat {t} cannot have handed it over")

    def given(self, st, asker: int, target: int, rank: str, count: int | None) -> list[str]:
        """The cards handed over for an ask typed without them (``got N``, ``got``, or no
        answer when the player is asked), when what the player knows fixes them; else a
        :class:`ShorthandError` asking for the cards.

        The cards are fixed when they are the player's own (it is asked: all its cards of the
        rank under ``give: "all"``, its only one under ``give: "one"``), or when exactly that
        many cards of the rank can be with the target (the rest are in the player's hand,
        known with another seat, or booked), or, under ``give: "all"``, when they are the
        cards everyone saw the target take. Choosing suits anywhere else could write a card
        into the record that the target never held: a later event the player types (its own
        draw of that card) would then be refused, so the line is refused instead.

        Args:
            st: the player's view before the ask.
            count: how many cards (``None``: no answer typed; ``-1``: ``got`` with no count).

        Raises:
            ShorthandError: the cards are not fixed by what the player knows (one sentence).
        """
        me = st.observer
        give_all = st.options["give"] == "all"
        cards = [rank + s for s in st.suits]
        if rank in st.book_at:
            cands: list[str] = []
        else:
            cands = [c for c in cards if st._holder(c) in (None, target)] if target != me else \
                [c for c in cards if c in st.hands[me]]
        forced = [c for c in cands if c in st.known_cards(target)]
        example = f"'{asker} asks {target} {rank} got {(cands or [rank + st.suits[-1]])[0]}'"
        if count is None and target != me:
            raise ShorthandError(f"say what seat {target} handed over (everyone sees the cards) or 'no', for "
                                 f"example {example} or '{asker} asks {target} {rank} no'")
        if count is None or count == -1:
            if target == me:
                count = len(cands) if give_all else min(1, len(cands))
            elif not give_all:
                count = 1
            elif len(forced) == len(cands):
                count = len(cands)
            else:
                raise ShorthandError(f"say which cards seat {target} handed over (everyone sees them), for example "
                                     f"{example}")
        if not give_all and count > 1:
            raise ShorthandError(f"an asked player hands over one card here (give \"one\"), not {count}: for "
                                 f"example {example}")
        if count > len(cands):
            if target == me:
                raise ShorthandError(f"you cannot hand over {count} {rank}s: you hold {len(cands)}")
            raise ShorthandError(f"seat {target} cannot hand over {count} {rank}s: it can hold at most {len(cands)}")
        if count == len(cands):
            return cands
        if give_all and count == len(forced):
            return forced
        who = "you" if target == me else f"seat {target}"
        raise ShorthandError(f"say which {rank}s {who} handed over (everyone sees them), for example {example}")

    # ------------------------------------------------------------------ what the rules imply
    def implied(self, state) -> list[dict]:
        """The next event the rules force that carries nothing to type (or ``[]``):

        * the player's dealt books before play when it is seat 0 (later seats' books wait for
          the lower seats', see :meth:`lead`);
        * the player's own book right after the cards that complete it;
        * another player's book when the cards everyone saw it take make every suit of the rank;
        * once no book can follow, the draw of another player on turn with no cards or with
          nobody to ask (never shown).
        """
        st = state
        if st.over:
            return []
        me = st.observer
        if st.opening:
            if me == 0 and st.unlaid[me]:
                return [{"type": "book", "player": me, "rank": st.unlaid[me][0]}]
            return []
        w = st.window
        if w is not None:
            s = w["seat"]
            full = st._full_ranks(st.known_cards(s))
            if full:
                shown = s == me or st.options["books_face_up"]
                return [{"type": "book", "player": s, "rank": full[0] if shown else None}]
            if s != me and self._book_possible(st, s):
                return []
        return self._forced_draw(st)

    def _forced_draw(self, st) -> list[dict]:
        """Another player's draw on turn with no cards, or with nobody to ask, once any open
        book window is closed (``[]`` when none is due)."""
        settled = st._settled()
        if settled is st and st.window is not None:
            return []
        m = settled.must_draw
        if m is not None and m["player"] != st.observer and m["reason"] != "refused":
            return [{"type": "draw", "player": m["player"], "card": None, "shown": False}]
        return []

    @staticmethod
    def _book_possible(st, seat: int) -> bool:
        """Whether ``seat`` may lay a book now (its book window is open) by the rules."""
        trial = st.copy()
        try:
            trial.apply_event({"type": "book", "player": seat,
                               "rank": st.window["public_rank"] if st.options["books_face_up"] else None})
        except IllegalAction:
            return False
        return True

    def _step(self, st) -> list[dict]:
        """One event the rules force when the next typed entry is not a book that may come
        now: the implied event, else the player's next dealt book (before play), else the
        forced draw of another player that an open book window held back."""
        imp = self.implied(st)
        if imp:
            return imp
        if st.over:
            return []
        me = st.observer
        if st.opening and st.unlaid[me]:
            return [{"type": "book", "player": me, "rank": st.unlaid[me][0]}]
        return self._forced_draw(st) if st.window is None or st.window["seat"] != me else []

    def lead(self, state) -> list[dict]:
        """The events the rules force before the next typed line unless that line is a book
        that may come now (the player's dealt books after the lower seats', another player's
        forced draw after a book window): what :meth:`parse` puts in front of such a line."""
        st = state.copy()
        out: list[dict] = []
        for _ in range(8 * state.players + 8):
            step = self._step(st)
            if not step:
                break
            for ev in step:
                st.apply_event(ev)
            out.extend(step)
        return out

    # ------------------------------------------------------------------ writing lines
    def line_for(self, events: Sequence[dict], state) -> tuple[str, int]:
        """The line that gives the first events of ``events`` (see :class:`Shorthand`): the
        events the rules force first (:meth:`lead`) are folded into the next line typed.

        Raises:
            ValueError: ``events[0]`` cannot be typed from ``state``.
        """
        lead = self.lead(state)
        j = 0
        while j < len(lead) and j < len(events) and events[j] == lead[j]:
            j += 1
        sts = [state.copy()]
        for ev in lead[:j]:
            nxt = sts[-1].copy()
            nxt.apply_event(ev)
            sts.append(nxt)
        for i in range(min(j, len(events) - 1), -1, -1):
            text = self._text(events[i], sts[i])
            try:
                got = self.parse(text, state)
            except ShorthandError:
                continue
            if list(events[:len(got)]) == got and len(got) > i:
                return text, len(got)
        raise ValueError(f"cannot type event {events[0]!r} here")

    @staticmethod
    def _text(ev: dict, st) -> str:
        """The plain line of one event."""
        kind = ev["type"]
        if kind == "ask":
            answer = "got " + " ".join(ev["given"]) if ev["given"] else "no"
            return f"{ev['asker']} asks {ev['target']} {ev['rank']} {answer}"
        if kind == "draw":
            return f"{ev['player']} draws" + (f" {ev['card']}" if ev["card"] else "")
        if kind == "book":
            return f"{ev['player']} books" + (f" {ev['rank']}" if ev["rank"] else "")
        if kind == "ask_book":
            return f"{ev['asker']} asks {ev['target']} book {ev['rank']} {'yes' if ev['success'] else 'no'}"
        raise ValueError(f"not a Go Fish event: {ev!r}")

    # ------------------------------------------------------------------ prompt and words
    def prompt(self, state) -> str:
        """Whose turn it is and what comes next, e.g. ``"seat 2 to ask"``, ``"your draw: type
        '1 draws CARD'"``, ``"phase 2: seat 3 to ask for a book"``."""
        st = state
        me = st.observer
        if st.over:
            return "the game is over"
        pre = ""
        w = st.window
        if w is not None and w["seat"] != me and not st._full_ranks(st.known_cards(w["seat"])) \
                and self._book_possible(st, w["seat"]):
            pre = f"seat {w['seat']} may lay a book ('{w['seat']} books'); "
        if st.opening:
            first = "your turn: ask a player for a rank you hold" if me == 0 else "seat 0 to ask"
            return first + " (before play, a player dealt a whole book lays it: 'S books')"
        s2 = st._settled()
        m = s2.must_draw
        if m is not None:
            p = m["player"]
            if p == me:
                return pre + f"your draw: type '{me} draws CARD'"
            if m["reason"] == "refused":
                return pre + f"seat {p} draws: '{p} draws', or '{p} draws CARD' if it shows {'an' if m['rank'] in '8A' else 'a'} {m['rank']}"
            return pre + f"seat {p} draws"
        t = s2.turn
        if s2.phase == 2:
            return pre + ("phase 2: your turn to ask for a book" if t == me else f"phase 2: seat {t} to ask for a book")
        if t == me:
            return pre + "your turn: ask a player for a rank you hold"
        return pre + f"seat {t} to ask"

    def words(self, state) -> list[str]:
        """The verbs and answers of the notation, the seats, the ranks still in play and the
        cards of the deck not yet in a book this view knows."""
        st = state
        ranks = [r for r in st.ranks if r not in st.book_at]
        cards = [r + s for r in ranks for s in st.suits]
        return (["asks", "draws", "books", "got", "no", "nothing", "book", "yes", "me"]
                + [str(s) for s in range(st.players)] + ranks + cards)


def _who(seat: int, state) -> str:
    """``"you"`` for the player's own seat, else ``"seat N"``."""
    return "you" if seat == state.observer else f"seat {seat}"


def _plural(r: str) -> str:
    """A rank in the plural as the advice writes it (``"7s"``, ``"10s"``, ``"kings"``)."""
    from .advice import rank_plural  # noqa: PLC0415

    return rank_plural(r)


def _is_card(word: str) -> bool:
    try:
        parse_card(word)
    except CardError:
        return False
    return True


__all__ = ["GoFishShorthand"]
