"""Go Fish game state: the rules applied to actions and record events.

Sources: ``shared/seeds/gofish-bulgarian.en.txt`` and ``shared/spec/rules.md`` (Go Fish);
``docs/gofish.md`` states every rule and every decision taken where the texts are silent.

One class serves the referee (a *complete* state: every hand and the stock order) and a
player (a *view*: its own hand and what the events show). Both advance by
:meth:`GoFishState.apply_event`, which checks the event against the rules and against what
the state knows, and raises :class:`~cardmind.errors.IllegalAction` naming the rule:

``game-over``, ``seat``, ``turn``, ``phase``, ``event-type``, ``unknown-action``,
``unknown-rank``, ``unknown-card``, ``ask-self``, ``ask-empty``, ``ask-unheld-rank``,
``rank-booked``, ``given-rank``, ``given-card``, ``given-count``, ``given-all``, ``ask-result``,
``must-draw``, ``no-draw``, ``draw-card``, ``draw-shown``, ``stock-order``, ``book-window``,
``book-rank``, ``book-cards``, ``book-missing``, ``dealt-book``, ``pending-give``,
``give-card``, ``ask-no-books``, ``ask-own-book``, ``ask-book-result``, ``notice``.

Flow of a game (what event may come next):

* **Opening** (before the first non-book event): every player dealt a complete book lays it
  down, seats in order, ranks in order within a seat (``book`` events).
* **Phase 1**, seat P on turn:

  - P has no cards: P draws (``draw``, never shown) and keeps the turn; with an empty stock P
    is skipped (no event).
  - P has cards but every other player is empty (the stock then has cards): P draws
    (``draw``, not shown) and the turn passes to the next seat.
  - Otherwise P asks (``ask``). Cards given: P keeps the turn. Refused: P draws if the stock
    has cards; a card of the asked rank is ``shown`` and P keeps the turn, any other card
    passes the turn; with an empty stock the turn passes.
  - Right after any event that gives a player cards (an ``ask`` with cards given, a
    ``draw``), that player's completed book follows as a ``book`` event; then the turn goes
    on as above (a book never changes who plays next).
  - Phase 1 ends when the stock and every hand are empty.

* **Phase 2** (option ``phase2``): begun by the player who completed the last book of
  phase 1. Players holding at least one book ask in turn (``ask_book``) for a rank they do
  not hold; a hit hands the book over (it is face up from then on) and the asker goes on, a
  miss passes the turn to the next seat holding a book. It ends when one player holds
  every book.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from ...core import Event, Result, State
from ...errors import IllegalAction
from .notation import Ask, AskBook, Give, LayBooks
from .rules import deck_cards, game_ranks, game_suits, next_seat, rank_cards, sort_hand, stock_size
from .events import _DRAW_REASONS, GoFishEvents



class GoFishState(GoFishEvents, State):
    """A Go Fish game in progress, complete (every hand and the stock known) or one seat's view.

    Public attributes (read them, do not change them; a belief tracker needs these):

    Attributes:
        options: the parsed options.
        players: number of seats.
        ranks: the rank characters in play (lowest first); ``suits``: the suit characters.
        observer: the seat whose view this is, or ``None`` for a complete state.
        sizes: cards held now per seat (public).
        stock_count: cards left in the stock (public).
        stock: the remaining stock in draw order (complete state), else ``None``.
        hands: per seat the set of cards held now, or ``None`` where this state does not know it.
        dealt: per seat the dealt hand (sorted), or ``None`` where unknown.
        public: per seat the cards everyone knows it holds now (cards handed over to it and
            cards it drew shown, while they stay with it; dropped when it lays a book whose
            rank is not public and might be theirs).
        book_log: every book in the order made: ``{"maker": seat, "rank": rank or None
            (this state's knowledge), "public_rank": rank or None (everyone's knowledge),
            "opening": bool}``. A face-down book's rank is public when it follows an ask
            (the rank asked) or a shown draw; it is hidden when dealt or completed by an
            unseen draw.
        book_at: ``{rank: seat}`` for every book whose rank this state knows and where it
            is now.
        hidden_books: per seat, books held whose rank this state does not know.
        phase: 1 or 2 (phase 1 includes the opening; see :attr:`opening`).
        opening: whether dealt books may still be laid (a view keeps this true until the
            first non-book event).
        over: whether the game has ended.
        turn: the seat on turn (phase 1 or 2), ``None`` when over.
        must_draw: ``{"player", "reason", "rank"}`` when the next event must be a draw
            (``reason``: ``"refused"`` after a refusal, ``"empty"`` for a player on turn
            without cards, ``"no-target"`` for a player nobody can be asked by), else ``None``.
        window: ``{"seat", "rank", "public_rank", "then"}`` right after an event that gave
            ``seat`` cards: a ``book`` by that seat may come next (``rank``: the rank it must
            be when known; ``then``: ``"keep"`` or ``"pass"``, the turn afterwards).
        pending: ``{"asker", "target", "rank"}`` while the asked player chooses the card it
            hands over (``give: "one"``), else ``None``.
        unlaid: per seat the ranks of dealt books not yet laid, or ``None`` where unknown.
        phase1_books: books per seat when phase 1 ended (``None`` before).
        history: every event applied, as this state received it.
    """

    def __init__(self, game, options: dict, hands: list[Iterable[str] | None],
                 stock: Iterable[str] | None = None, observer: int | None = None):
        self.game = game
        self.options = options
        self.players: int = options["players"]
        self.ranks: str = game_ranks(options)
        self.suits: str = game_suits(options)
        self.nsuits = len(self.suits)
        self.deck = frozenset(deck_cards(options))
        self.observer = observer
        self.dealt: list[list[str] | None] = [None if h is None else sort_hand(h) for h in hands]
        self.hands: list[set[str] | None] = [None if h is None else set(h) for h in hands]
        self.sizes = [options["hand"]] * self.players
        self.public: list[set[str]] = [set() for _ in range(self.players)]
        self.stock: list[str] | None = None if stock is None else list(stock)
        self.stock_count = stock_size(options)
        self.book_log: list[dict] = []
        self.book_at: dict[str, int] = {}
        self.hidden_books = [0] * self.players
        self._books = [0] * self.players
        self._rank_cards = {r: rank_cards(r, options) for r in self.ranks}
        self.phase = 1
        self.over = False
        self.turn: int | None = 0
        self.must_draw: dict | None = None
        self.window: dict | None = None
        self.pending: dict | None = None
        self.phase1_books: list[int] | None = None
        self.last_book_maker: int | None = None
        self.history: list[Event] = []
        self.num_events = 0
        self.unlaid: list[list[str] | None] = [None if h is None else self._full_ranks(h) for h in self.hands]
        self.opening_seat = 0
        if self.is_complete():
            self.opening = any(self.unlaid)
            if not self.opening:
                self._settle()
        else:
            self.opening = True

    # ------------------------------------------------------------------ basics
    @property
    def num_seats(self) -> int:
        """Number of seats."""
        return self.players

    def is_complete(self) -> bool:
        """Whether every hand is known (a referee's state or a complete record)."""
        return all(h is not None for h in self.hands)

    def copy(self) -> "GoFishState":
        """An independent copy (the history list is shared copy-on-append)."""
        new = object.__new__(GoFishState)
        new.__dict__.update(self.__dict__)
        new.hands = [None if h is None else set(h) for h in self.hands]
        new.sizes = list(self.sizes)
        new.public = [set(p) for p in self.public]
        new.stock = None if self.stock is None else list(self.stock)
        new.book_log = [dict(b) for b in self.book_log]
        new.book_at = dict(self.book_at)
        new.hidden_books = list(self.hidden_books)
        new._books = list(self._books)
        new.must_draw = None if self.must_draw is None else dict(self.must_draw)
        new.window = None if self.window is None else dict(self.window)
        new.pending = None if self.pending is None else dict(self.pending)
        new.phase1_books = None if self.phase1_books is None else list(self.phase1_books)
        new.history = list(self.history)
        new.unlaid = [None if u is None else list(u) for u in self.unlaid]
        return new

    def view(self, seat: int) -> "GoFishState":
        """What ``seat`` knows: a view built from its dealt hand and the events as it saw them.

        Raises:
            ValueError: this state does not know ``seat``'s dealt hand.
        """
        own = self._view_of_a_view(seat)
        if own is not None:
            return own
        v = GoFishState(self.game, self.options,
                        [self.dealt[seat] if s == seat else None for s in range(self.players)],
                        None, observer=seat)
        for ev in self.history:
            v.apply_event(self.redact(ev, seat))
        if self.pending is not None:
            v.pending = dict(self.pending)
        return v

    def redact(self, event: Event, seat: int) -> Event:
        """``event`` as ``seat`` sees it: another player's unshown draw has ``card`` null, and
        another player's book has ``rank`` null unless ``books_face_up``."""
        ev = dict(event)
        if ev["type"] == "draw" and ev["player"] != seat and not ev["shown"]:
            ev["card"] = None
        elif ev["type"] == "book" and ev["player"] != seat and not self.options["books_face_up"]:
            ev["rank"] = None
        return ev

    # ------------------------------------------------------------------ public facts
    def num_books(self, seat: int) -> int:
        """Books ``seat`` holds now (public)."""
        return self._books[seat]

    def books_per_seat(self) -> list[int]:
        """Books held now, per seat (public)."""
        return list(self._books)

    def known_cards(self, seat: int) -> set[str]:
        """The cards this state knows ``seat`` holds now (its whole hand when known)."""
        h = self.hands[seat]
        return set(h) if h is not None else set(self.public[seat])

    def holds_rank(self, seat: int, rank: str) -> int | None:
        """How many cards of ``rank`` ``seat`` holds, or ``None`` when its hand is unknown."""
        h = self.hands[seat]
        return None if h is None else sum(1 for c in h if c[0] == rank)

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._settled().over

    def to_move(self) -> int | None:
        """The seat to act: in the opening the next seat laying dealt books (a view knows
        only its own), the asked player while it chooses a card, else the seat on turn
        (also when its next event is a forced draw); ``None`` when over."""
        st = self._settled()
        if st.over:
            return None
        if st.pending is not None:
            return st.pending["target"]
        if st.opening:
            if st.is_complete():
                return min(s for s in range(st.players) if st.unlaid[s])
            if st.observer is not None and st.unlaid[st.observer]:
                return st.observer
        if st.window is not None:  # a book must still come (closing it is impossible)
            return st.window["seat"]
        return st.turn

    def expected_draw(self) -> int | None:
        """The seat whose draw must be the next event (after a refusal, or forced), else ``None``."""
        st = self._settled()
        return None if st.must_draw is None else st.must_draw["player"]

    # ------------------------------------------------------------------ internals
    def _full_ranks(self, cards: Iterable[str]) -> list[str]:
        """Ranks all of whose cards are in ``cards`` (a set of distinct cards of the deck)."""
        count = Counter(c[0] for c in cards)
        return [r for r in self.ranks if count[r] == self.nsuits]

    def _holder(self, card: str) -> int | None:
        """The seat this state knows holds ``card`` now, else ``None``."""
        for s in range(self.players):
            h = self.hands[s]
            if (h is not None and card in h) or card in self.public[s]:
                return s
        return None

    def _check_seat(self, seat: Any, role: str) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction("seat", f"{role} {seat!r} is not a seat (0-{self.players - 1})")

    def _check_rank(self, rank: Any) -> None:
        if not isinstance(rank, str) or rank not in self.ranks:
            raise IllegalAction("unknown-rank", f"{rank!r} is not a rank of this game ({' '.join(self.ranks)})")

    def _check_card(self, card: Any) -> None:
        if card not in self.deck:
            raise IllegalAction("unknown-card", f"{card!r} is not a card of this game's deck "
                                                f"(ranks {self.ranks}, suits {self.suits})")

    def _settled(self) -> "GoFishState":
        """This state with an open book window closed (no book came) and, in a view whose
        observer has no dealt book left, the opening over: what queries answer from."""
        can_end = (self.opening and not self.is_complete() and self.observer is not None
                   and not self.unlaid[self.observer])
        if self.window is None and not can_end:
            return self
        st = self.copy()
        try:
            if st.window is not None:
                st._close_window()
            if can_end and st.opening:
                st._end_opening()
        except IllegalAction:
            return self
        return st

    def _settle(self) -> None:
        """Move the turn on over skipped players, end phases, and note a forced draw."""
        self.must_draw = None
        if self.over:
            return
        for _ in range(4 * self.players + 4):
            if self.phase == 1:
                if self.stock_count == 0 and not any(self.sizes):
                    self.phase1_books = self.books_per_seat()
                    if self.options["phase2"]:
                        self.phase = 2
                        self.turn = self.last_book_maker if self.last_book_maker is not None else 0
                        continue
                    self.over, self.turn = True, None
                    return
                p = self.turn
                if self.sizes[p] == 0:
                    if self.stock_count > 0:
                        self.must_draw = {"player": p, "reason": "empty", "rank": None}
                        return
                    self.turn = next_seat(p, self.players)
                    continue
                if not any(self.sizes[s] for s in range(self.players) if s != p):
                    if self.stock_count == 0:
                        raise IllegalAction("book-missing", f"seat {p} holds every card left, so it must "
                                                            f"hold a complete book that was not laid")
                    self.must_draw = {"player": p, "reason": "no-target", "rank": None}
                return
            # phase 2
            books = self.books_per_seat()
            if max(books) == len(self.ranks):
                self.over, self.turn = True, None
                return
            if books[self.turn] == 0:
                self.turn = next_seat(self.turn, self.players)
                continue
            return
        raise AssertionError("turn order did not settle")

    def _close_window(self) -> None:
        """No book followed the cards just gained: check none was due, then go on."""
        w, self.window = self.window, None
        s = w["seat"]
        full = self._full_ranks(self.known_cards(s))
        if full:
            raise IllegalAction("book-missing", f"seat {s} holds all of rank {full[0]} but laid no book "
                                                f"(a book is put aside at once)")
        self.turn = s if w["then"] == "keep" else next_seat(s, self.players)
        self._settle()

    def _end_opening(self) -> None:
        """The first event of play arrives: every dealt book must have been laid."""
        for s in range(self.players):
            if self.unlaid[s]:
                raise IllegalAction("dealt-book", f"seat {s} was dealt the complete rank {self.unlaid[s][0]} "
                                                  f"and must lay it down before play starts")
        self.opening = False
        self.turn = 0
        self._settle()

    def _apply_book(self, seat: int, rank: str | None, public_rank: str | None, opening: bool) -> None:
        """Take a book out of ``seat``'s hand (``rank`` as far as this state knows it)."""
        if self.sizes[seat] < self.nsuits:
            raise IllegalAction("book-cards", f"seat {seat} laid a book but holds only {self.sizes[seat]} cards")
        if rank is not None:
            if rank in self.book_at:
                raise IllegalAction("book-cards", f"the book of rank {rank} was already laid")
            cards = self._rank_cards[rank]
            h = self.hands[seat]
            if h is not None and not all(c in h for c in cards):
                raise IllegalAction("book-cards", f"seat {seat} laid the book of {rank} without holding "
                                                  f"{', '.join(c for c in cards if c not in h)}")
            for c in cards:
                k = self._holder(c)
                if k is not None and k != seat:
                    raise IllegalAction("book-cards", f"seat {seat} laid the book of {rank}, but seat {k} holds {c}")
            for c in cards:
                if h is not None:
                    h.discard(c)
                self.public[seat].discard(c)
            self.book_at[rank] = seat
        else:
            possible = [r for r in self.ranks if r not in self.book_at
                        and all(self._holder(c) in (None, seat) for c in self._rank_cards[r])]
            if not possible:
                raise IllegalAction("book-cards", f"seat {seat} laid a book, but no rank can be complete in its hand")
            self.hidden_books[seat] += 1
        if public_rank is None:
            # everyone else only knows a book was made: the public cards of ranks it may be are uncertain now
            elsewhere = {c[0] for t in range(self.players) if t != seat for c in self.public[t]}
            self.public[seat] = {c for c in self.public[seat] if c[0] in elsewhere}
        self.sizes[seat] -= self.nsuits
        self._books[seat] += 1
        self.book_log.append({"maker": seat, "rank": rank, "public_rank": public_rank, "opening": opening})
        self.last_book_maker = seat

    def _check_book_rank_given(self, seat: int, rank: str | None) -> None:
        """The book event's ``rank`` must be there exactly when this record may show it."""
        knows = self.hands[seat] is not None
        if knows or self.options["books_face_up"]:
            if rank is None:
                why = "books are face up" if not knows else \
                    ("a complete record shows every book" if self.observer is None else "its owner's record shows it")
                raise IllegalAction("book-rank", f"seat {seat}'s book has no rank, but {why}")
        elif rank is not None:
            raise IllegalAction("book-rank", f"seat {seat}'s book is face down, so seat {self.observer}'s "
                                             f"record cannot show its rank")
        if rank is not None:
            self._check_rank(rank)

    # ------------------------------------------------------------------ legality
    def legal_actions(self, seat: int) -> list:
        """Every legal action for ``seat`` now (needs ``seat``'s hand): its dealt books to lay,
        its card to hand over, its asks (phase 1, ranks in order, then targets) or its book asks
        (phase 2). Empty when ``seat`` may not act or the next event is forced (a draw)."""
        st = self._settled()
        if st.over or st.window is not None:
            return []
        if st.pending is not None:
            p = st.pending
            if seat != p["target"]:
                return []
            hand = st._need_hand(seat)
            return [Give(seat, c) for c in sort_hand(c for c in hand if c[0] == p["rank"])]
        if st.opening:
            if st.unlaid[seat] and st.to_move() == seat:
                return [LayBooks(seat)]
            return []
        if st.must_draw is not None or seat != st.turn:
            return []
        if st.phase == 1:
            hand = st._need_hand(seat)
            held = [r for r in st.ranks if any(c[0] == r for c in hand)]
            targets = [t for t in range(st.players) if t != seat and st.sizes[t] > 0]
            return [Ask(seat, t, r) for r in held for t in targets]
        if st.hidden_books[seat]:
            raise ValueError(f"this state does not know the ranks of seat {seat}'s books")
        own = {r for r, o in st.book_at.items() if o == seat}
        targets = [t for t in range(st.players) if t != seat and st.num_books(t) > 0]
        return [AskBook(seat, t, r) for r in st.ranks if r not in own for t in targets]

    def _need_hand(self, seat: int) -> set[str]:
        h = self.hands[seat]
        if h is None:
            raise ValueError(f"this state does not know seat {seat}'s hand")
        return h

    def check_action(self, action) -> None:
        """Raise :class:`IllegalAction` unless ``action`` is legal now."""
        self._settled()._check_action(action)

    def _check_action(self, action) -> None:
        if isinstance(action, Ask):
            if self.pending is not None:
                raise IllegalAction("pending-give", f"seat {self.pending['target']} must first hand over a card")
            self._check_ask(action.asker, action.target, action.rank)
        elif isinstance(action, Give):
            self._check_live()
            if self.pending is None:
                raise IllegalAction("pending-give", "no ask is waiting for a card to be handed over")
            p = self.pending
            if action.target != p["target"]:
                raise IllegalAction("turn", f"seat {p['target']} hands over the card, not seat {action.target}")
            h = self.hands[action.target]
            if not (isinstance(action.card, str) and action.card[:1] == p["rank"]) or \
                    (h is not None and action.card not in h):
                raise IllegalAction("give-card", f"seat {action.target} must hand over a card of rank "
                                                 f"{p['rank']} that it holds, not {action.card!r}")
        elif isinstance(action, LayBooks):
            self._check_live()
            self._check_seat(action.player, "player")
            if not self.opening or not self.unlaid[action.player]:
                raise IllegalAction("dealt-book", f"seat {action.player} has no dealt book to lay "
                                                  f"(dealt books are laid before play starts)")
            if self.to_move() != action.player:
                raise IllegalAction("turn", f"seat {self.to_move()} lays its dealt books first")
        elif isinstance(action, AskBook):
            self._check_ask_book(action.asker, action.target, action.rank)
        else:
            raise IllegalAction("unknown-action", f"not a Go Fish action: {action!r}")

    def _check_live(self) -> None:
        if self.over:
            raise IllegalAction("game-over", "the game is over")

    def _check_turn_start(self, asker: int, target: int, phase: int, what: str) -> None:
        self._check_live()
        if self.pending is not None and what != "ask":
            raise IllegalAction("pending-give", f"seat {self.pending['target']} must first hand over a card")
        if self.opening and self.is_complete():
            s = self.to_move()
            raise IllegalAction("dealt-book", f"seat {s} must first lay the books it was dealt")
        self._check_seat(asker, "asker")
        self._check_seat(target, "target")
        if self.phase != phase:
            raise IllegalAction("phase", "phase 1 asks for cards (ask), phase 2 for whole books (ask_book); "
                                         f"this is phase {self.phase}")
        if self.must_draw is not None:
            m = self.must_draw
            raise IllegalAction("must-draw", f"seat {m['player']} must draw from the stock now "
                                             f"({_DRAW_REASONS[m['reason']]})")
        if asker != self.turn:
            raise IllegalAction("turn", f"seat {asker} asked, but it is seat {self.turn}'s turn")
        if asker == target:
            raise IllegalAction("ask-self", f"seat {asker} asked itself")

    def _check_ask(self, asker: int, target: int, rank: str) -> None:
        """The ask itself (before its answer) is legal."""
        self._check_turn_start(asker, target, 1, "ask")
        if self.pending is not None:
            p = self.pending
            if (p["asker"], p["target"], p["rank"]) != (asker, target, rank):
                raise IllegalAction("pending-give", f"seat {p['target']} must first hand over a card of "
                                                    f"{p['rank']} to seat {p['asker']}")
            return
        if self.sizes[target] == 0:
            raise IllegalAction("ask-empty", f"seat {asker} asked seat {target}, who has no cards")
        self._check_rank(rank)
        if rank in self.book_at:
            raise IllegalAction("rank-booked", f"the book of rank {rank} has already been laid")
        n = self.holds_rank(asker, rank)
        if n == 0:
            raise IllegalAction("ask-unheld-rank", f"seat {asker} asked for rank {rank} without holding one")
        if n is None and all(self._holder(c) not in (None, asker) for c in self._rank_cards[rank]):
            raise IllegalAction("ask-unheld-rank", f"seat {asker} asked for rank {rank}, but every card of "
                                                   f"it is known to be elsewhere")

    def _check_ask_answer(self, asker: int, target: int, rank: str, given: list[str]) -> None:
        """The cards handed over answer the ask correctly as far as this state knows."""
        if len(set(given)) != len(given):
            raise IllegalAction("given-card", f"the cards given name a card twice: {given}")
        for c in given:
            self._check_card(c)
            if c[0] != rank:
                raise IllegalAction("given-rank", f"seat {target} handed over {c} for rank {rank}")
            k = self._holder(c)
            if k is not None and k != target:
                raise IllegalAction("given-card", f"seat {target} handed over {c}, but seat {k} holds it")
        if self.pending is not None and len(given) != 1:
            raise IllegalAction("pending-give", f"seat {target} chose to hand over one card, "
                                                f"but the ask shows {len(given)}")
        if len(given) > self.sizes[target]:
            raise IllegalAction("given-count", f"seat {target} handed over {len(given)} cards but holds "
                                               f"{self.sizes[target]}")
        if self.options["give"] == "one" and len(given) > 1:
            raise IllegalAction("given-count", f"seat {target} handed over {len(given)} cards; with give "
                                               f"\"one\" an asked player hands over one card")
        known = sorted(c for c in self.known_cards(target) if c[0] == rank)
        h = self.hands[target]
        if h is not None:
            for c in given:
                if c not in h:
                    raise IllegalAction("given-card", f"seat {target} handed over {c}, which it does not hold")
        if not given and known:
            raise IllegalAction("ask-result", f"seat {target} refused rank {rank} but holds {known[0]}")
        if self.options["give"] == "all":
            missing = [c for c in known if c not in given]
            if missing:
                raise IllegalAction("given-all", f"seat {target} must hand over every card of rank {rank} "
                                                 f"(give \"all\"), but kept {missing[0]}")

    def _check_ask_book(self, asker: int, target: int, rank: str) -> None:
        self._check_turn_start(asker, target, 2, "ask_book")
        if self.num_books(target) == 0:
            raise IllegalAction("ask-no-books", f"seat {asker} asked seat {target}, who holds no book")
        self._check_rank(rank)
        if self.book_at.get(rank) == asker:
            raise IllegalAction("ask-own-book", f"seat {asker} asked for the book of {rank}, which it holds")

    # ------------------------------------------------------------------ notices (give "one")
    def pending_notice(self) -> Event | None:
        """While the asked player chooses its card: ``{"type": "ask", "asker", "target", "rank"}``
        (the ask is public; ``given`` follows in the ``ask`` event), else ``None``."""
        if self.pending is None:
            return None
        return {"type": "ask", **self.pending}

    def apply_pending_notice(self, notice: Event) -> None:
        """Take in the referee's pending ask, so this view knows the asked player is choosing.

        Raises:
            IllegalAction: (``notice``) not a pending ask this state could accept.
        """
        if not isinstance(notice, dict) or notice.get("type") != "ask" or "given" in notice or \
                set(notice) != {"type", "asker", "target", "rank"}:
            raise IllegalAction("notice", f"not a pending Go Fish ask: {notice!r}")
        st = self._settled()
        if st is not self:  # adopt the settled state (a window closed, or the opening ended)
            self.__dict__.update(st.__dict__)
        if self.opening and not self.is_complete():
            self._end_opening()
        self._check_ask(notice["asker"], notice["target"], notice["rank"])
        if self.holds_rank(notice["target"], notice["rank"]) == 0:
            raise IllegalAction("notice", f"seat {notice['target']} holds no {notice['rank']} to hand over")
        self.pending = {"asker": notice["asker"], "target": notice["target"], "rank": notice["rank"]}

    # ------------------------------------------------------------------ applying actions
    def apply_action(self, action) -> list[Event]:
        """Resolve ``action`` (a complete state only) and apply it; return the events it made,
        followed by the events the rules then force (books, forced draws).

        Under ``give: "one"`` an ask whose target holds the rank waits for the target's
        :class:`Give` (returns ``[]``; see :meth:`pending_notice`).
        """
        if not self.is_complete() or self.stock is None:
            raise ValueError("only a complete state (every hand and the stock) can resolve actions")
        if self.window is not None or (self.must_draw is not None and self.pending is None):
            trial = self.copy()          # judge the action after the forced events, without
            trial.advance()              # applying them when it is illegal
            trial.check_action(action)
        events = self.advance()
        self.check_action(action)
        if isinstance(action, Ask):
            held = sort_hand(c for c in self.hands[action.target] if c[0] == action.rank)
            if self.options["give"] == "one" and held:
                self.pending = {"asker": action.asker, "target": action.target, "rank": action.rank}
                return events
            ev = {"type": "ask", "asker": action.asker, "target": action.target, "rank": action.rank,
                  "given": held}
        elif isinstance(action, Give):
            p = self.pending
            ev = {"type": "ask", "asker": p["asker"], "target": p["target"], "rank": p["rank"],
                  "given": [action.card]}
        elif isinstance(action, LayBooks):
            for r in list(self.unlaid[action.player]):
                ev = {"type": "book", "player": action.player, "rank": r}
                self.apply_event(ev)
                events.append(ev)
            return events + self.advance()
        else:  # AskBook
            ev = {"type": "ask_book", "asker": action.asker, "target": action.target, "rank": action.rank,
                  "success": self.book_at.get(action.rank) == action.target}
        self.apply_event(ev)
        events.append(ev)
        return events + self.advance()

    def advance(self) -> list[Event]:
        """Apply and return the events the rules force now (a complete state only): a book
        just completed, a draw after a refusal, a draw by a player on turn with no cards or
        with nobody to ask. :meth:`apply_action` calls it; call it yourself after replaying
        a complete record that stops in the middle of a move."""
        out: list[Event] = []
        if not self.is_complete() or self.stock is None:
            return out
        while True:
            w = self.window
            if w is not None:
                if w["rank"] is not None and w["rank"] in self._full_ranks(self.hands[w["seat"]]):
                    ev = {"type": "book", "player": w["seat"], "rank": w["rank"]}
                    self.apply_event(ev)
                    out.append(ev)
                else:
                    self._close_window()
                continue
            if self.over or self.pending is not None or self.opening or self.must_draw is None:
                return out
            m = self.must_draw
            card = self.stock[0]
            ev = {"type": "draw", "player": m["player"], "card": card,
                  "shown": m["reason"] == "refused" and card[0] == m["rank"]}
            self.apply_event(ev)
            out.append(ev)

    # ------------------------------------------------------------------ result
    def result(self) -> Result:
        """Books held per seat as the scores.

        Without ``phase2``: the most books wins (``1.0``); a tie for the most is a shared
        first place (``0.5`` each of the tied seats); everyone else ``0.0``. With ``phase2``:
        the player holding every book wins (``1.0``), everyone else ``0.0``. ``detail`` has
        ``books`` (held at the end), ``phase1_books`` (held when phase 1 ended) and
        ``winners`` (the seats sharing first place).
        """
        st = self._settled()
        if not st.over:
            raise ValueError("the game is not over")
        books = st.books_per_seat()
        top = max(books)
        winners = [s for s in range(st.players) if books[s] == top]
        share = 1.0 if len(winners) == 1 else 0.5
        outcome = tuple(share if s in winners else 0.0 for s in range(st.players))
        return Result(tuple(float(b) for b in books), outcome,
                      {"books": books, "phase1_books": list(st.phase1_books or books), "winners": winners})


__all__ = ["GoFishState"]
