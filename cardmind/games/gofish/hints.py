"""Ranked, explained advice for a Go Fish player, built on :class:`~cardmind.games.gofish.belief.GoFishBelief`.

:func:`gofish_hint` gives the best asks (target, rank, probability of a hit, expected cards
won, chance of completing a book, a one-line reason), the table of how many cards of each
rank every player and the stock hold, and, in phase 2 or whenever face-down books exist,
who most likely holds each book. :meth:`GoFishHint.to_json` is the documented JSON form
(``docs/hints.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .belief import GoFishBelief, target_met
from ...hints import asks_only, turn_note


@dataclass
class GoFishAskHint:
    """An ask the player could make.

    Attributes:
        target: the player to ask.
        rank: the rank (phase 1: a rank the player holds; phase 2: a book it does not hold).
        probability: chance the target holds it (at least one card; in phase 2 the book).
        expected_cards: expected number of cards won (phase 1; 4 for a book in phase 2).
        p_book: chance the ask completes a book for the player (phase 1).
        reason: one line saying why.
        score: the ranking score (higher first).
    """

    target: int
    rank: str
    probability: float
    expected_cards: float
    p_book: float
    reason: str
    score: float

    def to_json(self) -> dict[str, Any]:
        """JSON form (keys as the attributes)."""
        return {"target": self.target, "rank": self.rank, "probability": self.probability,
                "expected_cards": self.expected_cards, "p_book": self.p_book, "reason": self.reason,
                "score": self.score}


@dataclass
class GoFishHint:
    """Advice for one Go Fish player at one moment (see the module docstring)."""

    observer: int
    events: int
    to_move: int | None
    phase: int
    players: int
    ranks: str
    consistent_deals: int
    exact: bool
    asks: list[GoFishAskHint]
    holdings: dict[Any, dict[str, dict[int, float]]]
    books: list[dict[str, Any]]
    sizes: list[int]
    stock: int
    notes: list[str] = field(default_factory=list)
    #: how the tracker answered (``GoFishBelief.mode``): ``"filter"``/``"exact"`` (exact),
    #: ``"enumerated"`` (an exact sum in floating point) or ``"mcmc"`` (sampled)
    mode: str = "filter"
    #: sampled answers: the largest estimated standard error of a probability (``GoFishBelief.stderr``)
    stderr: float | None = None
    #: sampled answers: how the sampler ran (``GoFishBelief.sampling``: steps, stderr,
    #: precision, max_steps; ``target_met`` is added in the JSON)
    sampling: dict | None = None
    #: the observer's cards now (for the human output; not in the JSON)
    hand: list[str] = field(default_factory=list)
    #: once the game is over: ``{"books": per seat, "winners": [seats]}`` (``None`` before;
    #: for the human output; not in the JSON)
    final: dict[str, Any] | None = None
    #: which method answered, in words (``GoFishBelief.method``)
    method: str = ""
    #: a bound on the error of any probability (``GoFishBelief.error_bound``: 0 exact)
    error_bound: float | None = 0.0
    #: the player model the deals were weighed by (``GoFishBelief.model_used``), and the one asked
    model: str = "uniform"
    model_asked: str = "uniform"

    @property
    def your_turn(self) -> bool:
        """Whether the observer is to move."""
        return self.to_move == self.observer

    def to_json(self) -> dict[str, Any]:
        """The documented JSON object (``docs/hints.md``)."""
        return {
            "game": "gofish",
            "observer": self.observer,
            "events": self.events,
            "to_move": self.to_move,
            "your_turn": self.your_turn,
            "phase": self.phase,
            "consistent_deals": self.consistent_deals,
            "consistent_deals_str": str(self.consistent_deals),
            "exact": self.exact,
            "mode": self.mode,
            "method": self.method,
            "error_bound": self.error_bound,
            "model": self.model,
            **({"stderr": self.stderr} if self.stderr is not None else {}),
            **({"sampling": {**self.sampling, "target_met": target_met(self.sampling)}}
               if self.sampling is not None else {}),
            "asks": [a.to_json() for a in self.asks],
            "hand_sizes": self.sizes,
            "stock": self.stock,
            "holdings": {str(k): {r: {str(c): p for c, p in d.items()} for r, d in v.items()}
                         for k, v in self.holdings.items()},
            "books": [{**b, "owner": b["owner"] if not isinstance(b["owner"], dict)
                       else {str(k): v for k, v in b["owner"].items()}} for b in self.books],
            "notes": self.notes,
        }

    def render(self, console: Console, record: Any = None, show_table: bool = True, tables_only: bool = False,
               verbose: bool = False) -> None:
        """Print for humans (used by ``cardmind hint`` and ``cardmind belief``): the player's
        hand, the final books once the game is over, whether the chances are estimates, the
        best asks and the tables. ``verbose`` (and ``tables_only``, ``cardmind belief``): also
        the count of consistent deals and how it was computed."""
        turn = "game over" if self.to_move is None else ("your turn" if self.your_turn else f"seat {self.to_move} to play")
        console.print(Text(f"Go Fish: seat {self.observer}'s view after {self.events} events "
                           f"(phase {self.phase}, {turn}); stock {self.stock} cards; hands "
                           + ", ".join(f"{s}:{n}" for s, n in enumerate(self.sizes)), style="bold"))
        console.print(Text(f"Your hand: {_hand_text(self.hand)}"))
        if self.final is not None:
            console.print(Text(_final_text(self.final, self.observer), style="bold"))
        if not (verbose or tables_only):
            if self.mode == "mcmc":
                se = "" if self.stderr is None else f" (each could be off by about {100 * self.stderr:.0f} points)"
                console.print(Text(f"Note: the chances below are estimates from sampling{se}; --precision SE "
                                   f"samples longer, --verbose says more", style="yellow"))
            self._render_method(console)
            self._render_rest(console, record, show_table, tables_only)
            return
        how = "" if self.exact else {
            "enumerated": " (every consistent deal counted, in floating point: the count is "
                          "approximate, the probabilities exact to about 1e-15; see docs/gofish-belief.md)",
            "compact": " (every consistent deal counted, in floating point: the count is approximate, "
                       "the probabilities exact to rounding; see docs/gofish-belief.md)",
        }.get(self.mode, " (the draw engine sampled"
                     + (f"; largest standard error of a probability {self.stderr:.3f}"
                        if self.stderr is not None else "")
                     + "; the count is a rough importance-sampling estimate, late in a game off "
                       "by orders of magnitude; see docs/gofish-belief.md)")
        # a sampled count is rough; a floating-point sum is good to about 15 digits
        count = f"about {float(self.consistent_deals):.1e}" if self.mode == "mcmc" else \
            f"{float(self.consistent_deals):.15g}" if not self.exact and self.mode in ("enumerated", "compact") else \
            f"{self.consistent_deals:,}"
        console.print(f"Consistent deals: {count}{how}")
        self._render_method(console)
        self._render_rest(console, record, show_table, tables_only)

    def _render_method(self, console: Console) -> None:
        """Which method answered and its error bound, and the player model if one was asked for."""
        bound = "unknown" if self.error_bound is None else "0 (exact)" if self.error_bound == 0 else \
            f"{self.error_bound:.0e}"
        if self.method:
            console.print(f"Answered by {self.method}; error of any probability at most {bound}"
                          + (" (4 standard errors: a statistical bound)" if self.mode == "mcmc" else ""))
        if self.model != "uniform" or self.model_asked != "uniform":
            console.print(f"Player model: {self.model}" + (
                " (the deals weighed by the likelihood of the other player's asks)" if self.model != "uniform" else
                f" (the model {self.model_asked} asked for applies with two players only)"))

    def _render_rest(self, console: Console, record: Any, show_table: bool, tables_only: bool) -> None:
        """The notes, the best asks and the tables (see :meth:`render`)."""
        for note in self.notes:
            if not (tables_only and asks_only(note)):
                console.print(Text(f"Note: {note}", style="yellow"))
        if not tables_only:
            console.print()
            if self.asks:
                t = Table(title="Best asks", title_justify="left")
                t.add_column("#", justify="right")
                t.add_column("ask")
                t.add_column("hit", justify="right")
                t.add_column("cards", justify="right")
                t.add_column("book", justify="right")
                t.add_column("why")
                for i, a in enumerate(self.asks, 1):
                    what = f"seat {a.target} for the {a.rank}s" if self.phase == 1 else f"seat {a.target} for the book of {a.rank}"
                    t.add_row(str(i), what, f"{100 * a.probability:.0f}%", f"{a.expected_cards:.2f}",
                              f"{100 * a.p_book:.0f}%" if self.phase == 1 else "", a.reason,
                              style="bold green" if a.probability >= 1 else None)
                console.print(t)
            else:
                console.print("Asks: none possible now.")
        if show_table and not self.holdings:
            console.print()
            console.print("Cards held now: none (every hand and the stock are empty).")
        elif show_table:
            console.print()
            t = Table(title="Expected cards of each rank held now (% chance of at least one)", title_justify="left")
            t.add_column("rank")
            cols = [s for s in self.holdings]
            for s in cols:
                t.add_column("you" if s == self.observer else str(s), justify="right")
            for r in self.ranks:
                if not any(r in self.holdings[s] for s in cols):
                    continue
                cells = []
                for s in cols:
                    d = self.holdings[s].get(r)
                    if not d:
                        cells.append("·")
                        continue
                    e = sum(c * p for c, p in d.items())
                    some = 1.0 - d.get(0, 0.0)
                    cells.append("·" if e == 0 else f"{e:.2f} ({100 * some:.0f}%)")
                t.add_row(r, *cells)
            console.print(t)
            hidden = [b for b in self.books if not b["known"]]
            if hidden:
                t = Table(title="Face-down books: most likely ranks", title_justify="left")
                t.add_column("#", justify="right")
                t.add_column("made by")
                t.add_column("held by")
                t.add_column("ranks")
                for i, b in enumerate(self.books, 1):
                    if b["known"]:
                        continue
                    top = sorted(b["ranks"].items(), key=lambda kv: -kv[1])[:4]
                    owner = b["owner"] if not isinstance(b["owner"], dict) else max(b["owner"], key=b["owner"].get)
                    t.add_row(str(i), str(b["maker"]), str(owner), "  ".join(f"{r}: {100 * p:.0f}%" for r, p in top))
                console.print(t)
            elif self.books and not (record is not None and record.options.get("books_face_up")):
                console.print("Face-down books, every rank worked out from the events: " + ", ".join(
                    f"#{i} {max(b['ranks'], key=b['ranks'].get)} (made by seat {b['maker']})"
                    for i, b in enumerate(self.books, 1)))


def gofish_hint(belief: GoFishBelief, max_asks: int = 10) -> GoFishHint:
    """Build the advice for ``belief``'s observer.

    Raises:
        Contradiction: the events leave no consistent deal.
    """
    st = belief.state
    me = belief.observer
    hold = belief.holdings()
    books = belief.books()
    total = belief.consistent_deals
    sizes = list(st.sizes)
    notes: list[str] = []
    asks: list[GoFishAskHint] = []
    phase = st.phase
    own = st.hands[me] or set()
    S = belief.S
    if phase == 1:
        mine = sorted({c[0] for c in own}, key=belief.ranks.index)
        for r in mine:
            have = sum(1 for c in own if c[0] == r)
            for t in range(belief.players):
                if t == me or sizes[t] == 0:
                    continue
                d = hold.get(t, {}).get(r, {})
                p = 1.0 - d.get(0, 0.0)
                if p <= 0:
                    continue
                exp = sum(c * q for c, q in d.items())
                if belief.options["give"] == "one":
                    exp_cards = p  # one card per hit
                    p_book = p if have == S - 1 else 0.0
                else:
                    exp_cards = exp
                    p_book = d.get(S - have, 0.0)
                reason = _reason(belief, t, r, p)
                score = p + 0.3 * p_book + 0.05 * exp_cards
                asks.append(GoFishAskHint(t, r, p, exp_cards, p_book, reason, score))
    else:
        held_ranks = {r for b in books if b["owner"] == me and b["known"] for r in b["ranks"]}
        for r in belief.ranks:
            if r in held_ranks:
                continue
            for t in range(belief.players):
                if t == me:
                    continue
                p = 0.0
                for b in books:
                    owner = b["owner"]
                    q_owner = (1.0 if owner == t else 0.0) if not isinstance(owner, dict) else owner.get(t, 0.0)
                    p += q_owner * b["ranks"].get(r, 0.0)
                if p <= 0:
                    continue
                reason = (f"seat {t} holds the book of {r}" if p >= 0.9995 else
                          f"{_pct(belief, p)} of consistent deals put the book of {r} with seat {t}")
                asks.append(GoFishAskHint(t, r, p, 4 * p, 0.0, reason, p))
    asks.sort(key=lambda a: (-a.score, a.rank, a.target))
    if st.to_move() != me and not st.is_over():
        notes.append(turn_note(st.to_move()))
    info = belief.sampling
    if info is not None and info["precision"] > 0:
        se = "unknown" if info["stderr"] is None else f"{info['stderr']:.4f}"
        if not target_met(info):
            notes.append(f"the precision asked ({info['precision']:g}) was not reached: the sampler stopped at its "
                         f"cap of {info['steps']} steps with a largest standard error of {se}")
        else:
            notes.append(f"the precision asked ({info['precision']:g}) was reached: largest standard error {se} "
                         f"after {info['steps']} steps")
    if info is None and belief.precision > 0:
        notes.append(f"the precision asked ({belief.precision:g}) has no effect: the answer was summed exactly, "
                     "not sampled")
    final = None
    if st.is_over():
        detail = st.result().detail
        final = {"books": list(detail["books"]), "winners": list(detail["winners"])}
    hand = sorted(own, key=lambda c: (belief.ranks.index(c[0]), c[1]))
    return GoFishHint(me, len(belief.events), st.to_move(), phase, belief.players, belief.ranks, total,
                      belief.exact, asks[:max_asks], hold, books, sizes, st.stock_count, notes,
                      belief.mode, belief.stderr, info, hand=hand, final=final, method=belief.method,
                      error_bound=belief.error_bound, model=belief.model_used, model_asked=belief.model_name)


def _hand_text(hand: list[str]) -> str:
    """The observer's cards grouped by rank: ``"(5 cards) 3S  6C 6D  KC"``."""
    if not hand:
        return "no cards"
    groups: dict[str, list[str]] = {}
    for c in hand:
        groups.setdefault(c[0], []).append(c)
    return f"({len(hand)} card{'s' if len(hand) != 1 else ''}) " + "  ".join(" ".join(g) for g in groups.values())


def _final_text(final: dict[str, Any], me: int) -> str:
    """``"Game over: you won with 5 books (seat 0: 3, you: 5, ...)."``, or who shared first place."""
    books, winners = final["books"], final["winners"]
    top = books[winners[0]]
    many = f"{top} book{'s' if top != 1 else ''}"

    def names(seats):
        seats = [f"seat {s}" if s != me else "you" for s in seats]
        return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " and " + seats[-1]

    if len(winners) == 1:
        head = f"{'you' if winners[0] == me else f'seat {winners[0]}'} won with {many}"
    elif me in winners:
        head = f"you shared first place with {names([s for s in winners if s != me])}, {many} each"
    else:
        head = f"{names(winners)} shared first place, {many} each"
    per = ", ".join(f"{'you' if s == me else f'seat {s}'}: {b}" for s, b in enumerate(books))
    return f"Game over: {head} ({per})."


def _pct(belief: GoFishBelief, p: float) -> str:
    """``p`` as a percentage, marked as an estimate when the tracker sampled."""
    return f"{'an estimated ' if belief.mode == 'mcmc' else ''}{100 * p:.0f}%"


def _reason(belief: GoFishBelief, t: int, r: str, p: float) -> str:
    """One line on why seat ``t`` may hold rank ``r``."""
    st = belief.state
    for ev in reversed(belief.events):
        if ev["type"] == "ask" and ev["asker"] == t and ev["rank"] == r:
            idx = belief.events.index(ev) + 1
            if p >= 0.9995:
                return f"seat {t} asked for {r}s at event {idx} and still holds one"
            return f"seat {t} asked for {r}s at event {idx}; {_pct(belief, p)} of consistent deals leave it one"
        if ev["type"] == "ask" and ev["target"] == t and ev["rank"] == r and not ev["given"]:
            break
    known = [c for c in st.public[t] if c[0] == r]
    if known:
        return f"everyone saw seat {t} receive {', '.join(sorted(known))}"
    return f"{_pct(belief, p)} of consistent deals give seat {t} at least one {r}"
