"""Hand and Foot game state: the rules applied to actions and record events.

Sources: ``shared/seeds/hand-and-foot.txt`` and the Hand and Foot section of
``shared/spec/rules.md``; ``docs/handfoot.md`` states every rule and every decision taken where
the texts are silent.

One class serves the referee (a *complete* state: every hand, foot and the stock order) and a
player (a *view*: its own hand, and its foot once picked up, and what the events show). Both
advance by :meth:`HandFootState.apply_event`, which checks the event against the rules and
against what the state knows, and raises :class:`~cardmind.errors.IllegalAction` naming the
rule broken:

``game-over``, ``event-type``, ``seat``, ``turn``, ``phase``, ``forced``, ``unknown-card``,
``not-held``, ``stock``, ``draw-count``, ``draw-card``, ``pile-size``, ``pile-top``,
``pile-pair``, ``pile-cards``, ``opening-minimum``, ``opening-reachable``, ``not-opened``,
``meld-invalid``, ``meld-open``, ``meld-unknown``, ``book``, ``foot``, ``keep-card``,
``go-out``, ``ask``, ``answer``, ``hand-end``, ``deal``.

Flow of one hand (the game is ``hands`` of them; hand ``k`` starts with seat ``(k-1) % n``):

* **Draw phase**, seat P on turn: ``draw`` (two cards, one when only one is left) or
  ``pickup`` (the top seven of the discard pile, when it holds at least ``pile_min``, its top
  card a natural 4..A and P holding a natural pair of that rank: the top card and the pair go
  to the team's open meld of that rank, or start one).
* **Play phase**: ``meld`` (a new meld), ``lay_off`` (cards added to a team meld; a book
  takes cards too), ``ask_out`` (in the foot, the team holding its books; the partner then
  ``answer``\\ s) and finally ``discard``. The referee adds ``book`` right after the meld or
  lay-off that brings a meld to seven cards, and ``foot`` right after the event that uses up
  P's hand (P keeps playing when it melded its last hand card; its turn ends when it
  discarded it).
* **Opening**: until a team has opened, its players lay nothing, except in the turn one of
  them opens: the melds it lays that turn (a taken pile's top card and pair included) must
  reach the hand's minimum before it discards, and may not use up its hand before they do.
* **Going out**: a player in its foot whose team holds the books needed, with its partner's
  yes this turn (in cut-throat without asking), may discard its last card (the seed: "play all
  of your cards and discard one"; with the house rule ``out_by_laying`` it may also lay it);
  the hand ends (``hand_end``, +300). Told yes, a player that does not go out that turn costs its team
  ``failed_out_penalty``. Otherwise a player in its foot keeps at least one card after its
  discard (so two after its melds).
* **Stock out**: the hand ends after the turn in which the stock's last card was drawn.
* Between hands the referee writes ``hand_end`` (the cards each player still held, the
  scores, the running totals) and then ``deal`` for the next hand. A player's view accepts a
  ``hand_end`` with only what the player knows: ``held`` ``null`` for a seat not noted (or left
  out), the scores typed for a team whose cards are not all given (checked as far as the table
  allows: :meth:`HandFootState.score_bound`), ``totals`` left out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from ...core import Event, Result, State
from ...errors import IllegalAction
from .notation import AskOut, Answer, Discard, Draw, LayOff, Meld, TakePile
from .rules import (BOOK_SIZE, PILE_TAKE, card_points, check_addition, check_group, deck_counter,
                    expand, held_points, is_natural, max_meld_points, minimum_of,
                    partner_of, rank_plural, sort_cards, teams_of, team_score)
from .events import HandFootEvents, check_deal
from .rules import TeamMeld

class HandFootState(HandFootEvents, State):
    """A Hand and Foot game in progress, complete (every hand, foot and the stock known) or
    one seat's view.

    Public attributes (read them, do not change them):

    Attributes:
        options: the parsed options; ``players``: seats; ``teams``: the team of every seat.
        observer: the seat whose view this is, or ``None`` for a complete state.
        hand_no: the hand being played (1-based); ``minimum``: its opening minimum.
        zone: per seat the cards it holds now (its hand, or its foot once picked up) as a
            ``Counter``, or ``None`` where this state does not know them.
        sizes: cards held now per seat (public); ``in_foot``: whether each seat plays from its
            foot; ``foot_sizes``: cards of each foot not yet picked up (0 once it is).
        feet: per seat its foot's cards (``Counter``) while not picked up, or ``None`` where unknown.
        known: per seat the cards everyone knows it holds now (``Counter``: from pile pickups,
            while they stay with it).
        stock: the stock in draw order (complete state), else ``None``; ``stock_count`` (public).
        pile: the discard pile, bottom first (public).
        melds: per team its melds on the table (:class:`TeamMeld`, numbered by list index).
        opened: per team whether it has opened this hand.
        turn: the seat on turn; ``phase``: ``"draw"``, ``"play"``, ``"answer"`` (the partner
            answers an ask to go out) or ``"over"``.
        turn_points: points laid by the player on turn this turn; ``opening``: whether its
            team opens this turn (then ``turn_points`` must reach ``minimum``).
        asked, permission: whether the player on turn asked to go out this turn, and the
            answer (``None`` before one; always ``True`` in cut-throat).
        forced: the record events the rules require next (``book``, ``foot``, ``hand_end``,
            ``deal``), as partial events, in order.
        scores: per finished hand the score of every team; ``totals``: per team, the sum.
        failed: per team how many times its player was told yes and did not go out (this hand).
        went_out: the seat that went out of this hand, or ``None``.
        history: every event applied, as this state received it.
    """

    def __init__(self, game, options: dict, hands: list[Iterable[str] | None], feet: list[Iterable[str] | None] | None,
                 stock: Iterable[str] | None, observer: int | None = None, deals: list[dict] | None = None):
        self.game = game
        self.options = options
        self.players: int = options["players"]
        self.teams = teams_of(options)
        self.num_teams = max(self.teams) + 1
        self.partner = [partner_of(s, options) for s in range(self.players)]
        self.deck = deck_counter(options)
        self.observer = observer
        self.hand_size = options["hand_size"]
        self.num_hands = options["hands"]
        self.deals = deals or []
        self.scores: list[list[int]] = []
        self.totals = [0] * self.num_teams
        self.history: list[Event] = []
        self.dealt: list[list[list[str] | None]] = []
        self._start_hand(1, hands, feet, stock)

    # ------------------------------------------------------------------ setup
    def _start_hand(self, hand_no: int, hands, feet, stock) -> None:
        n = self.players
        self.hand_no = hand_no
        self.minimum = minimum_of(hand_no, self.options)
        self.zone: list[Counter | None] = [None if h is None else Counter(h) for h in hands]
        self.dealt.append([None if h is None else sort_cards(h) for h in hands])
        self.sizes = [self.hand_size] * n
        self.in_foot = [False] * n
        self.foot_sizes = [self.hand_size] * n
        self.feet: list[Counter | None] = [None] * n if feet is None else [None if f is None else Counter(f) for f in feet]
        self.known = [Counter() for _ in range(n)]
        self.stock: list[str] | None = None if stock is None else list(stock)
        self.stock_count = sum(self.deck.values()) - 2 * n * self.hand_size
        self.pile: list[str] = []
        self.melds: list[list[TeamMeld]] = [[] for _ in range(self.num_teams)]
        self.opened = [False] * self.num_teams
        self.turn = (hand_no - 1) % n
        self.phase = "draw"
        self.turn_points = 0
        self.opening = False
        self.asked = False
        self.permission: bool | None = None
        self.forced: list[dict] = []
        self.turn_over = False
        self.failed = [0] * self.num_teams
        self.went_out: int | None = None
        self.hand_over = False

    # ------------------------------------------------------------------ basics
    @property
    def num_seats(self) -> int:
        """Number of seats."""
        return self.players

    def is_complete(self) -> bool:
        """Whether every hand, foot and the stock are known (a referee's state)."""
        return self.observer is None

    def copy(self) -> "HandFootState":
        """An independent copy (the history list is copied)."""
        new = object.__new__(HandFootState)
        new.__dict__.update(self.__dict__)
        new.zone = [None if z is None else Counter(z) for z in self.zone]
        new.feet = [None if f is None else Counter(f) for f in self.feet]
        new.known = [Counter(k) for k in self.known]
        new.sizes = list(self.sizes)
        new.in_foot = list(self.in_foot)
        new.foot_sizes = list(self.foot_sizes)
        new.stock = None if self.stock is None else list(self.stock)
        new.pile = list(self.pile)
        new.melds = [[m.copy() for m in team] for team in self.melds]
        new.opened = list(self.opened)
        new.forced = [dict(f) for f in self.forced]
        new.failed = list(self.failed)
        new.scores = [list(s) for s in self.scores]
        new.totals = list(self.totals)
        new.history = list(self.history)
        new.dealt = [list(d) for d in self.dealt]
        return new

    def view(self, seat: int) -> "HandFootState":
        """What ``seat`` knows: a view built from its first dealt hand and the events as it saw them.

        Raises:
            ValueError: this state does not know ``seat``'s dealt hand.
        """
        own = self._view_of_a_view(seat)
        if own is not None:
            return own
        first = self.dealt[0]
        v = HandFootState(self.game, self.options, [first[seat] if s == seat else None for s in range(self.players)],
                          None, None, observer=seat)
        for ev in self.history:
            v.apply_event(self.redact(ev, seat))
        return v

    def redact(self, event: Event, seat: int) -> Event:
        """``event`` as ``seat`` sees it: another player's draw and foot have ``cards`` null; a
        deal shows ``seat`` its own hand only (no feet, no stock)."""
        t = event["type"]
        if t in ("draw", "foot") and event["player"] != seat:
            ev = dict(event)
            ev["cards"] = None
            return ev
        if t == "deal":
            return {"type": "deal", "hand": event["hand"],
                    "hands": [h if s == seat else None for s, h in enumerate(event["hands"])]}
        return event

    # ------------------------------------------------------------------ public facts
    @property
    def hands(self) -> list[list[str] | None]:
        """Per seat the cards it holds now (hand or foot, sorted), or ``None`` where unknown."""
        return [None if z is None else expand(z) for z in self.zone]

    def team_of(self, seat: int) -> int:
        """The team of ``seat``."""
        return self.teams[seat]

    def team_seats(self, team: int) -> list[int]:
        """The seats of ``team``."""
        return [s for s in range(self.players) if self.teams[s] == team]

    def books(self, team: int) -> tuple[int, int]:
        """``(clean books, dirty books)`` of ``team`` now."""
        clean = dirty = 0
        for m in self.melds[team]:
            if m.book:
                if m.clean:
                    clean += 1
                else:
                    dirty += 1
        return clean, dirty

    def books_met(self, team: int, melds: list[TeamMeld] | None = None) -> bool:
        """Whether ``team`` holds the books going out needs (``books_clean`` clean and
        ``books_dirty`` dirty ones; a clean book beyond those counts for a dirty one? no:
        each book counts as what it is)."""
        clean = dirty = 0
        for m in (self.melds[team] if melds is None else melds):
            if m.book:
                if m.clean:
                    clean += 1
                else:
                    dirty += 1
        return clean >= self.options["books_clean"] and dirty >= self.options["books_dirty"]

    def open_meld(self, team: int, rank: str) -> int | None:
        """The index of ``team``'s open (not yet a book) meld of ``rank``, or ``None``."""
        for i, m in enumerate(self.melds[team]):
            if m.rank == rank and not m.book:
                return i
        return None

    def pile_takeable(self) -> bool:
        """Whether the discard pile may be taken now by someone with the pair: it holds at
        least ``pile_min`` cards and its top card is a natural 4..A."""
        return len(self.pile) >= self.options["pile_min"] and is_natural(self.pile[-1])

    def pile_take_cards(self) -> list[str]:
        """The cards a take would move, top card first."""
        k = min(PILE_TAKE, len(self.pile))
        return self.pile[::-1][:k]

    def is_over(self) -> bool:
        """Whether the game has ended (its last hand is scored)."""
        return self.phase == "over"

    def to_move(self) -> int | None:
        """The seat to act: the partner while it answers an ask to go out, else the seat on
        turn; ``None`` when the game is over."""
        if self.phase == "over":
            return None
        if self.phase == "answer":
            return self.partner[self.turn]
        return self.turn

    def cut_throat(self) -> bool:
        """Whether every player is its own team (no asking to go out)."""
        return bool(self.options["cutthroat"])

    def may_go_out(self, seat: int) -> bool:
        """Whether ``seat`` (on turn) is allowed to go out now: it is in its foot and told yes
        this turn (in cut-throat: needs no answer). The books are checked separately."""
        if seat != self.turn or not self.in_foot[seat]:
            return False
        return True if self.cut_throat() else self.permission is True

    def visible(self) -> Counter:
        """Copies of every card this state can locate outside the hidden places: the tables,
        the pile, the hands and feet it knows and the cards known in the others' hands."""
        out = Counter(self.pile)
        for team in self.melds:
            for m in team:
                out.update(m.cards)
        for s in range(self.players):
            if self.zone[s] is not None:
                out.update(self.zone[s])
            else:
                out.update(self.known[s])
            if self.feet[s] is not None:
                out.update(self.feet[s])
        if self.stock is not None:
            out.update(self.stock)
        return out

    # ------------------------------------------------------------------ checks
    def _live(self) -> None:
        if self.phase == "over":
            raise IllegalAction("game-over", "the game is over")

    def _seat(self, seat: Any, role: str = "player") -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction("seat", f"{role} {seat!r} is not a seat (0-{self.players - 1})")

    def _card(self, card: Any) -> None:
        if not isinstance(card, str) or card not in self.deck:
            raise IllegalAction("unknown-card", f"{card!r} is not a card of this game's decks")

    def _holds(self, seat: int, cards: Iterable[str], what: str) -> None:
        """``seat`` can hold ``cards`` (all of them at once) as far as this state knows."""
        need = Counter(cards)
        for c in need:
            self._card(c)
        z = self.zone[seat]
        if z is not None:
            for c, k in need.items():
                if z[c] < k:
                    raise IllegalAction("not-held", f"seat {seat} {what} {c}" + (" twice" if k > 1 else "")
                                        + f", but holds {z[c]} of it")
            return
        if sum(need.values()) > self.sizes[seat]:
            raise IllegalAction("not-held", f"seat {seat} {what} {sum(need.values())} cards but holds "
                                            f"{self.sizes[seat]}")
        vis = self.visible()
        for c, k in need.items():
            free = self.deck[c] - vis[c] + self.known[seat][c]
            if k > free:
                raise IllegalAction("not-held", f"seat {seat} {what} {k} x {c}, but only {max(free, 0)} "
                                                f"cop{'y' if free == 1 else 'ies'} of it can be in its hand")

    def _expect_no_forced(self, kind: str) -> None:
        if self.forced:
            f = self.forced[0]
            raise IllegalAction("forced", f"a {f['type']} event must come first"
                                          + (f" (seat {f['player']})" if "player" in f else "") + f", not {kind}")

    def _on_turn(self, seat: int, phase: str, what: str) -> None:
        self._live()
        self._seat(seat)
        if self.phase == "answer" and phase != "answer":
            raise IllegalAction("answer", f"seat {self.partner[self.turn]} must first answer the ask to go out")
        if seat != self.turn:
            raise IllegalAction("turn", f"seat {seat} {what}, but it is seat {self.turn}'s turn")
        if self.phase != phase:
            if self.phase == "draw":
                why = "it must first draw or take the pile"
            elif self.phase == "play":
                why = "it has already drawn this turn"
            else:
                why = "the hand is over"
            raise IllegalAction("phase", f"seat {seat} {what}, but {why}")

    def _reachable(self, seat: int, zone: Counter, team_melds: list[TeamMeld], points: int) -> bool:
        """Whether the opening can still reach the minimum from ``points`` with ``zone``
        (keeping two cards in the foot); needs the zone, so only for a known hand."""
        need = self.minimum - points
        if need <= 0:
            return True
        keep = 2 if self.in_foot[seat] else 0
        return max_meld_points(zone, [m.shape for m in team_melds], keep) >= need

    def _check_lay(self, seat: int, cards: list[str], meld_index: int | None) -> tuple[int, bool]:
        """Check a meld (``meld_index`` None) or a lay-off; return ``(points, book made)``."""
        self._on_turn(seat, "play", "laid cards")
        self._expect_no_forced("meld")
        team = self.teams[seat]
        if not cards:
            raise IllegalAction("meld-invalid", f"seat {seat} laid no card")
        if meld_index is None:
            chk = check_group(cards)
            if not chk.valid:
                raise IllegalAction("meld-invalid", f"seat {seat}'s meld {' '.join(cards)}: {chk.reason}")
            if self.open_meld(team, chk.rank) is not None:
                raise IllegalAction("meld-open", f"seat {seat}'s team already has an open meld of {rank_plural(chk.rank)} "
                                                 f"(lay off on it; a new one may start once it is a book)")
            made_book = len(cards) >= BOOK_SIZE
        else:
            if not 0 <= meld_index < len(self.melds[team]):
                raise IllegalAction("meld-unknown", f"seat {seat}'s team has no meld {meld_index} "
                                                    f"(it has {len(self.melds[team])})")
            m = self.melds[team][meld_index]
            if not self.opened[team]:
                raise IllegalAction("not-opened", f"seat {seat}'s team has not opened")
            chk = check_addition(m.rank, m.naturals, m.wilds, cards)
            if not chk.valid:
                raise IllegalAction("meld-invalid", f"seat {seat} laid {' '.join(cards)} on meld {meld_index} "
                                                    f"({rank_plural(m.rank)}): {chk.reason}")
            made_book = not m.book and m.size + len(cards) >= BOOK_SIZE
        self._holds(seat, cards, "laid")
        points = sum(card_points(c) for c in cards)
        left = self.sizes[seat] - len(cards)
        opening = not self.opened[team] or self.opening
        if opening and self.turn_points + points < self.minimum and left == 0 and not self.in_foot[seat]:
            raise IllegalAction("opening-minimum", f"seat {seat} may not use up its hand before its melds reach "
                                                   f"the opening minimum {self.minimum} "
                                                   f"({self.turn_points + points} so far)")
        if self.in_foot[seat] and left == 0 and not self.options["out_by_laying"]:
            raise IllegalAction("keep-card", f"seat {seat} must keep its last card to discard: going out ends "
                                             "with a discard (the house rule out_by_laying lets a player lay "
                                             "its last card instead)")
        if self.in_foot[seat] and left < 2:
            ok = False
            if self.may_go_out(seat):
                melds = [m.copy() for m in self.melds[team]]
                if meld_index is None:
                    melds.append(TeamMeld(chk.rank, cards, seat))
                else:
                    melds[meld_index].add(cards)
                ok = self.books_met(team, melds)
            if not ok:
                raise IllegalAction("keep-card", f"seat {seat} must keep two cards in its foot, one to discard "
                                                 "and one to hold: only a player going out (in its foot, its team "
                                                 "holding the books" + ("" if self.cut_throat() else ", told yes")
                                                 + (") may lay its last cards" if self.options["out_by_laying"]
                                                    else ") may lay all but the card it discards"))
        z = self.zone[seat]
        if opening and z is not None:
            zz = z - Counter(cards)
            melds = [m.copy() for m in self.melds[team]]
            if meld_index is None:
                melds.append(TeamMeld(chk.rank, cards, seat))
            else:
                melds[meld_index].add(cards)
            if not self._reachable(seat, zz, melds, self.turn_points + points):
                raise IllegalAction("opening-reachable", f"after this seat {seat} could no longer reach the "
                                                         f"opening minimum {self.minimum}")
        return points, made_book

    # ------------------------------------------------------------------ legality
    def legal_actions(self, seat: int) -> list:
        """The legal actions of ``seat`` now (needs its hand), in a fixed order. Melds are
        listed one step at a time (a new meld of three cards, or one card laid off; larger
        melds and lay-offs are legal too, :meth:`check_action` accepts them), one choice per
        kind of card (suits do not matter in play, except for the threes). Empty when
        ``seat`` may not act."""
        if self.phase == "over" or self.forced or seat != self.to_move():
            return []
        if self.phase == "answer":
            return [Answer(seat, True), Answer(seat, False)]
        z = self.zone[seat]
        if z is None:
            raise ValueError(f"this state does not know seat {seat}'s hand")
        if self.phase == "draw":
            out: list = [Draw(seat)] if self.stock_count > 0 else []
            out.extend(self._pile_options(seat))
            return out
        return self._play_options(seat)

    def _pile_options(self, seat: int) -> list:
        if not self.pile_takeable():
            return []
        r = self.pile[-1][0]
        z = self.zone[seat]
        toks = sort_cards(c for c in z if c[0] == r and z[c] > 0)
        pairs = []
        for i, a in enumerate(toks):
            for b in toks[i:]:
                if a != b or z[a] >= 2:
                    pairs.append((a, b))
        out = []
        for p in pairs:
            try:
                self._check_take(seat, p)
            except IllegalAction:
                continue
            out.append(TakePile(seat, p))
        return out

    def _play_options(self, seat: int) -> list:
        z = self.zone[seat]
        team = self.teams[seat]
        melds = self.melds[team]
        cand: list = []
        if True:
            wild_toks = [c for c in ("RJ", "BJ") if z[c] > 0][:1] + \
                sorted(c for c in z if c[0] == "2" and z[c] > 0)[:1]
            by_rank: dict[str, list[str]] = {}
            for c in sort_cards(z.elements()):
                if is_natural(c):
                    by_rank.setdefault(c[0], []).append(c)
            for r, cards in by_rank.items():
                if self.open_meld(team, r) is not None:
                    continue
                if len(cards) >= 3:
                    cand.append(Meld(seat, tuple(cards[:3])))
                if len(cards) >= 2:
                    for w in wild_toks:
                        cand.append(Meld(seat, (cards[0], cards[1], w)))
            if self.opened[team] or self.opening:
                for i, m in enumerate(melds):
                    if m.rank in by_rank:
                        cand.append(LayOff(seat, i, (by_rank[m.rank][0],)))
                    if m.naturals - m.wilds - 1 > 0:
                        for w in wild_toks:
                            cand.append(LayOff(seat, i, (w,)))
        out = []
        for a in cand:
            try:
                self._check_lay(seat, list(a.cards), a.meld if isinstance(a, LayOff) else None)
            except IllegalAction:
                continue
            out.append(a)
        try:
            self._check_ask(seat)
            out.append(AskOut(seat))
        except IllegalAction:
            pass
        for c in sort_cards(c for c in z if z[c] > 0):
            try:
                self._check_discard(seat, c)
            except IllegalAction:
                continue
            out.append(Discard(seat, c))
        return out

    def check_action(self, action) -> None:
        """Raise :class:`IllegalAction` unless ``action`` is legal now."""
        if isinstance(action, Draw):
            self._check_draw(action.player)
        elif isinstance(action, TakePile):
            self._check_take(action.player, action.pair)
        elif isinstance(action, Meld):
            self._check_lay(action.player, list(action.cards), None)
        elif isinstance(action, LayOff):
            self._check_lay(action.player, list(action.cards), action.meld)
        elif isinstance(action, Discard):
            self._check_discard(action.player, action.card)
        elif isinstance(action, AskOut):
            self._check_ask(action.player)
        elif isinstance(action, Answer):
            self._check_answer(action.player)
        else:
            raise IllegalAction("unknown-action", f"not a Hand and Foot action: {action!r}")

    def _check_draw(self, seat: int) -> None:
        self._on_turn(seat, "draw", "drew")
        self._expect_no_forced("draw")
        if self.stock_count <= 0:
            raise IllegalAction("stock", "the stock is empty")

    def _check_take(self, seat: int, pair) -> None:
        self._on_turn(seat, "draw", "took the pile")
        self._expect_no_forced("pickup")
        if len(self.pile) < self.options["pile_min"]:
            raise IllegalAction("pile-size", f"the discard pile holds {len(self.pile)} cards; it may be taken "
                                             f"from {self.options['pile_min']}")
        top = self.pile[-1]
        if not is_natural(top):
            raise IllegalAction("pile-top", f"the pile's top card {top} is not a natural 4..A (a three or a wild "
                                            f"card cannot be taken with a pair)")
        if len(pair) != 2 or any(not isinstance(c, str) or c[0] != top[0] or not is_natural(c) for c in pair):
            shown = " ".join(str(c) for c in pair) or "no card"
            raise IllegalAction("pile-pair", f"the pile is taken with a natural pair of {rank_plural(top[0])} "
                                             f"(its top card is {top}), not {shown}")
        self._holds(seat, pair, "took the pile with")
        team = self.teams[seat]
        z = self.zone[seat]
        if not self.opened[team] and z is not None:
            taken = self.pile_take_cards()
            zz = z - Counter(pair)
            zz.update(taken[1:])
            meld = TeamMeld(top[0], [top, *pair], seat)
            pts = sum(card_points(c) for c in meld.cards)
            if not self._reachable(seat, zz, [meld], pts):
                raise IllegalAction("opening-reachable", f"seat {seat}'s team has not opened, and the pile's top "
                                                         f"card with its cards cannot reach the minimum {self.minimum}")

    def _check_discard(self, seat: int, card: str) -> None:
        self._on_turn(seat, "play", "discarded")
        self._expect_no_forced("discard")
        self._holds(seat, [card], "discarded")
        team = self.teams[seat]
        if (self.opening or (not self.opened[team] and self.turn_points)) and self.turn_points < self.minimum:
            raise IllegalAction("opening-minimum", f"seat {seat}'s melds this turn ({self.turn_points} points) "
                                                   f"do not reach the opening minimum {self.minimum}")
        if self.in_foot[seat] and self.sizes[seat] == 1:
            if not (self.may_go_out(seat) and self.books_met(team)):
                raise IllegalAction("keep-card", f"seat {seat} must keep a card: only a player going out (in its "
                                                 f"foot, its team holding the books"
                                                 + ("" if self.cut_throat() else ", told yes") + ") may discard its last card")

    def _check_ask(self, seat: int) -> None:
        self._on_turn(seat, "play", "asked to go out")
        self._expect_no_forced("ask_out")
        if self.cut_throat():
            raise IllegalAction("ask", "in cut-throat nobody asks to go out")
        if self.asked:
            raise IllegalAction("ask", f"seat {seat} has already asked this turn")
        if not self.in_foot[seat]:
            raise IllegalAction("ask", f"seat {seat} is not in its foot")
        if not self.books_met(self.teams[seat]):
            c, d = self.books(self.teams[seat])
            raise IllegalAction("ask", f"seat {seat}'s team has {c} clean and {d} dirty books; going out needs "
                                       f"{self.options['books_clean']} and {self.options['books_dirty']}")

    def _check_answer(self, seat: int) -> None:
        self._live()
        self._seat(seat)
        if self.phase != "answer":
            raise IllegalAction("answer", f"seat {seat} answered, but nobody asked to go out")
        if seat != self.partner[self.turn]:
            raise IllegalAction("answer", f"seat {seat} answered, but seat {self.turn}'s partner is "
                                          f"seat {self.partner[self.turn]}")

    # ------------------------------------------------------------------ applying actions
    def apply_action(self, action) -> list[Event]:
        """Resolve ``action`` (a complete state only), apply it and the events the rules
        force after it (books, the foot, the end of the hand, the next deal); return them all.

        Raises:
            IllegalAction: the action breaks a rule.
            ValueError: not a complete state.
        """
        if self.observer is not None or self.stock is None:
            raise ValueError("only a complete state (every hand, foot and the stock) can resolve actions")
        self.check_action(action)
        if isinstance(action, Draw):
            k = min(2, len(self.stock))
            ev = {"type": "draw", "player": action.player, "count": k, "cards": self.stock[:k]}
        elif isinstance(action, TakePile):
            ev = {"type": "pickup", "player": action.player, "pair": list(action.pair),
                  "cards": self.pile_take_cards()}
        elif isinstance(action, Meld):
            ev = {"type": "meld", "player": action.player, "cards": list(action.cards)}
        elif isinstance(action, LayOff):
            ev = {"type": "lay_off", "player": action.player, "meld": action.meld, "cards": list(action.cards)}
        elif isinstance(action, Discard):
            ev = {"type": "discard", "player": action.player, "card": action.card}
        elif isinstance(action, AskOut):
            ev = {"type": "ask_out", "player": action.player}
        else:
            ev = {"type": "answer", "player": action.player, "yes": action.yes}
        self.apply_event(ev)
        return [ev] + self.advance()

    def advance(self) -> list[Event]:
        """Apply and return the events the rules force now (a complete state only)."""
        out: list[Event] = []
        while self.forced and self.observer is None:
            f = self.forced[0]
            t = f["type"]
            if t == "book":
                ev = dict(f)
            elif t == "foot":
                ev = {"type": "foot", "player": f["player"], "cards": expand(self.feet[f["player"]])}
            elif t == "hand_end":
                ev = self._hand_end_event()
            else:  # deal
                d = self.deals[self.hand_no - 1]
                ev = {"type": "deal", "hand": self.hand_no + 1, "hands": [list(h) for h in d["hands"]],
                      "feet": [list(x) for x in d["feet"]], "stock": list(d["stock"])}
            self.apply_event(ev)
            out.append(ev)
        return out

    def _hand_end_event(self) -> dict:
        held = []
        for s in range(self.players):
            c = Counter(self.zone[s])
            if self.feet[s] is not None and not self.in_foot[s]:
                c.update(self.feet[s])
            held.append(expand(c))
        scores = self._hand_scores(held)
        totals = [t + sc for t, sc in zip(self.totals, scores)]
        return {"type": "hand_end", "hand": self.hand_no, "reason": "out" if self.went_out is not None else "stock",
                "player": self.went_out, "held": held, "scores": scores, "totals": totals}

    def _hand_scores(self, held: list[list[str] | None]) -> list[int | None]:
        """Every team's score of the hand from the cards its players still hold (``held`` per
        seat); ``None`` for a team with a seat whose cards are not given."""
        out: list[int | None] = []
        for t in range(self.num_teams):
            seats = self.team_seats(t)
            if any(held[s] is None for s in seats):
                out.append(None)
                continue
            out.append(team_score([m.cards for m in self.melds[t]], [held[s] for s in seats],
                                  self.went_out is not None and self.teams[self.went_out] == t,
                                  self.failed[t], self.options["failed_out_penalty"]))
        return out

    def score_bound(self, team: int, held: list[list[str] | None] | None = None) -> int:
        """The most ``team`` can score in the hand just ended: its melds, the going-out bonus and
        its penalties, less the points its players hold: exactly where ``held`` gives a seat's
        cards, else at least the cards known in its hand (the whole hand for the observer) and
        5 points for every other card it holds."""
        seats = self.team_seats(team)
        best = team_score([m.cards for m in self.melds[team]], [],
                          self.went_out is not None and self.teams[self.went_out] == team,
                          self.failed[team], self.options["failed_out_penalty"])
        for s in seats:
            h = None if held is None else held[s]
            if h is not None:
                best -= held_points(h)
                continue
            sure = self.zone[s] if self.zone[s] is not None else self.known[s]
            n_sure = sum(sure.values())
            best -= held_points(sure) + 5 * (self.sizes[s] + self.foot_sizes[s] - n_sure)
        return best

    def _check_typed_score(self, team: int, score: int, held: list[list[str] | None]) -> None:
        """A score typed for ``team`` whose cards are not all given: a whole multiple of 5
        points (with its penalties) and at most :meth:`score_bound`."""
        pen = self.failed[team] * self.options["failed_out_penalty"]
        if (score + pen) % 5:
            raise IllegalAction("hand-end", f"team {team}'s score of hand {self.hand_no} cannot be {score}: "
                                            f"every card, book and bonus counts a multiple of 5 points")
        bound = self.score_bound(team, held)
        if score > bound:
            raise IllegalAction("hand-end", f"team {team}'s score of hand {self.hand_no} can be at most {bound} "
                                            f"(its melds and bonus, less the cards its players still hold), "
                                            f"not {score}")

    # ------------------------------------------------------------------ result
    def result(self) -> Result:
        """Each seat scores its team's total over the hands. The team with the highest total
        wins (``1.0`` for each of its seats); teams sharing the top total share first place
        (``0.5``); the others ``0.0``. ``detail``: ``totals`` per team, ``hands`` (every
        hand's scores per team), ``winners`` (the winning teams)."""
        if self.phase != "over":
            raise ValueError("the game is not over")
        top = max(self.totals)
        winners = [t for t in range(self.num_teams) if self.totals[t] == top]
        share = 1.0 if len(winners) == 1 else 0.5
        outcome = tuple(share if self.teams[s] in winners else 0.0 for s in range(self.players))
        return Result(tuple(float(self.totals[self.teams[s]]) for s in range(self.players)), outcome,
                      {"totals": list(self.totals), "hands": [list(h) for h in self.scores], "winners": winners,
                       "teams": list(self.teams)})


__all__ = ["HandFootState", "TeamMeld", "check_deal"]
