"""What a Go Fish player is told, and how it is shown: :class:`GoFishHint`.

:class:`GoFishHint` holds the best asks (:class:`GoFishAskHint`: target, rank, probability of a
hit, expected cards won, chance of completing a book, a one-line reason), the table of how many
cards of each rank every player and the stock hold, and, in phase 2 or whenever face-down books
exist, who most likely holds each book. :meth:`GoFishHint.to_json` is the documented JSON form
(``docs/hints.md``); :class:`GoFishHint` is an :class:`~cardmind.hints.words.Advice`: it says
what to do in one sentence (:meth:`GoFishHint.headline`) and prints itself in a card player's
words (chances in percent by :func:`~cardmind.hints.words.chance`), every number behind it with
``verbose``. The engine that computes it is :func:`~cardmind.games.gofish.hints.gofish_hint`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ...hints import asks_only
from ...hints.words import Advice, article, big_number, chance, count, points
from .belief import target_met

#: the tracker's modes whose chances are sampled (``GoFishBelief.mode``)
SAMPLED = ("mcmc", "weighted")

#: how a card player names the ranks in the plural
_PLURAL = {"T": "10s", "J": "jacks", "Q": "queens", "K": "kings", "A": "aces"}
_NUMBER = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
#: how a card player names one card of a rank ("a 7", "a 10", "a jack")
_RANK_NAME = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def rank_plural(r: str) -> str:
    """``"7s"``, ``"10s"``, ``"jacks"``...: a rank as a card player says it in the plural."""
    return _PLURAL.get(r, f"{r}s")


@dataclass
class GoFishAskHint:
    """An ask the player could make.

    Attributes:
        target: the player to ask.
        rank: the rank (phase 1: a rank the player holds; phase 2: a book it does not hold).
        probability: chance the target holds it (at least one card; in phase 2 the book).
        expected_cards: expected number of cards won (phase 1; 4 for a book in phase 2).
        p_book: chance the ask completes a book for the player (phase 1).
        reason: one line saying why (``"seat 0 asked for Ts at event 9 and still holds one"``).
        score: the ranking score (higher first).
        why: the same reason about the target as "it", for the advice's sentences (``"it asked
            for them at event 9 and still holds one"``; not in the JSON).
    """

    target: int
    rank: str
    probability: float
    expected_cards: float
    p_book: float
    reason: str
    score: float
    why: str = ""
    #: sampled answers: the standard errors of ``probability`` and ``p_book`` (``None``: exact)
    stderr: float | None = None
    p_book_stderr: float | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form (keys as the attributes, without ``why``; ``stderr`` and
        ``p_book_stderr`` only when sampled)."""
        out = {"target": self.target, "rank": self.rank, "probability": self.probability,
               "expected_cards": self.expected_cards, "p_book": self.p_book, "reason": self.reason,
               "score": self.score}
        if self.stderr is not None:
            out["stderr"] = self.stderr
            out["p_book_stderr"] = self.p_book_stderr
        return out


@dataclass
class GoFishHint(Advice):
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
    #: how the model weighs the other player (``GoFishBelief.model_fit``: ``seat``, ``asks``,
    #: ``weights`` {model: share}), ``None`` where no model applies
    model_fit: dict | None = None
    #: the seat that must draw from the stock next (after a refusal, or forced), else ``None``;
    #: ``draw_after``: the rank of the refused ask it follows (``None`` for a forced draw)
    draw_due: int | None = None
    draw_after: str | None = None
    #: books held now per seat (public)
    books_held: list[int] = field(default_factory=list)
    #: the ``give`` option ("one" or "all")
    give: str = "one"
    #: when no ask can win a card (phase 1, the player holds cards): the rank it holds whose
    #: card is likeliest to be the next one drawn from the stock, and that chance (a refused
    #: ask makes the asker draw, and a card of the rank asked for keeps its turn); else ``None``
    draw_rank: tuple[str, float] | None = None
    #: cards of a rank (the ``suits`` option: a book is every suit)
    suits: int = 4
    #: the action advised now, as the engine's ``apply`` takes it (``lay_books``, ``give``,
    #: ``ask`` or ``ask_book``), or ``None`` when the observer does not act now
    recommend: dict[str, Any] | None = None
    #: while the observer hands over a card: the asking seat, and whether everyone already
    #: knows the observer holds the card advised (``None`` otherwise)
    give_to: int | None = None
    give_known: bool = False
    #: the best ask, also when ``max_asks`` keeps none in :attr:`asks`
    top_ask: GoFishAskHint | None = None
    #: sampled answers: the standard error of every probability of ``holdings`` (same shape)
    holdings_stderr: dict | None = None
    #: sampled answers: per face-down book, the standard errors ``{"ranks", "owner"}``
    books_stderr: list | None = None
    #: how the count of consistent deals was made and whether it is exact
    #: (``GoFishBelief.count_mode``, ``count_exact``): ``None``, the same as :attr:`mode` and
    #: :attr:`exact` (the player models' reweighting samples the chances, not the count)
    count_mode: str | None = None
    count_exact: bool | None = None

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
            "headline": self.headline(),
            "recommend": self.recommend,
            "consistent_deals": self.consistent_deals,
            "consistent_deals_str": str(self.consistent_deals),
            "exact": self.exact,
            "mode": self.mode,
            "method": self.method,
            "error_bound": self.error_bound,
            "model": self.model,
            "model_asked": self.model_asked,
            "model_fit": self.model_fit,
            **({"stderr": self.stderr} if self.stderr is not None else {}),
            **({"sampling": {**self.sampling, "target_met": target_met(self.sampling)}}
               if self.sampling is not None else {}),
            **({"holdings_stderr": {str(k): {r: {str(c): x for c, x in d.items()} for r, d in v.items()}
                                    for k, v in self.holdings_stderr.items()}}
               if self.holdings_stderr is not None else {}),
            **({"books_stderr": [{"ranks": b["ranks"], "owner": {str(k): x for k, x in b["owner"].items()}}
                                 for b in self.books_stderr]} if self.books_stderr is not None else {}),
            "asks": [a.to_json() for a in self.asks],
            "hand_sizes": self.sizes,
            "stock": self.stock,
            "holdings": {str(k): {r: {str(c): p for c, p in d.items()} for r, d in v.items()}
                         for k, v in self.holdings.items()},
            "books": [{**b, "owner": b["owner"] if not isinstance(b["owner"], dict)
                       else {str(k): v for k, v in b["owner"].items()}} for b in self.books],
            "notes": self.notes,
        }

    # ------------------------------------------------------------------ words
    def _estimated(self, p: float) -> bool:
        """Whether the chance ``p`` is an estimate: the answer is sampled and ``p`` is neither
        certain nor impossible (those the constraints decide)."""
        return self.mode in SAMPLED and p not in (0.0, 1.0)

    def _chance(self, p: float, verbose: bool = False, se: float | None = None) -> str:
        """``p`` by :func:`chance`; a sampled chance says so (and, when ``verbose``, its
        standard error ``se``, or the largest of the answer when ``se`` is not given)."""
        if not self._estimated(p):
            return chance(p)
        return chance(p, (self.stderr if se is None else se) if verbose else None) + " (sampled)"

    def _chance_of(self, p: float) -> str:
        """``p`` as the start of a phrase inside a sentence: ``"59% chance"``, or ``"an
        estimated 59% chance"`` where it is sampled (no brackets inside the sentence's
        brackets)."""
        return f"an estimated {chance(p)} chance" if self._estimated(p) else f"{chance(p)} chance"

    def _seat(self, s: int) -> str:
        return "you" if s == self.observer else f"seat {s}"

    def _ask_words(self, a: GoFishAskHint) -> str:
        """``"seat 2 for 8s"`` / ``"seat 3 for the book of 7s"``."""
        if self.phase == 1:
            return f"seat {a.target} for {rank_plural(a.rank)}"
        return f"seat {a.target} for the book of {rank_plural(a.rank)}"

    def _ask_reason(self, a: GoFishAskHint) -> str:
        """Why, in a few words: ``"it asked for them at event 30 and still holds one (certain)"``
        or ``"59% chance it holds one; a hit completes your book"``."""
        if a.probability >= 1:
            text = f"{a.why} (certain)" if a.why else "certain"
        else:
            what = "one" if self.phase == 1 else "it"
            text = f"{self._chance_of(a.probability)} it holds {what}"
        if self.phase == 1 and a.p_book > 0:
            if self.give == "one":
                text += "; a hit completes your book"
            elif a.p_book >= 0.05:
                text += f"; {self._chance_of(a.p_book)} it completes your book"
        return text

    def headline(self) -> str:
        """What to do now, in one sentence (see :meth:`Advice.headline`): the best ask and
        why on the player's turn; its draw when one is due; on another player's turn whose
        turn it is and the ask to make when the player's turn comes; the result once over."""
        me = self.observer
        if self.final is not None:
            return _final_text(self.final, me)
        best = self.top_ask or (self.asks[0] if self.asks else None)
        if self.draw_due == me:
            head = "Your ask was refused: draw" if self.draw_after else "Draw"
            return f"{head} from the stock and enter the card you drew."
        rec = self.recommend or {}
        if rec.get("type") == "give":
            c = rec["card"]
            why = ("everyone already knows you hold it" if self.give_known else
                   f"you must hand over one of your {rank_plural(c[0])}")
            return f"Hand seat {self.give_to} the {c}: {why}."
        full = [r for r in self.ranks if sum(1 for c in self.hand if c[0] == r) == self.suits > 0]
        if full:
            return f"Lay down your book of {rank_plural(full[0])}: you hold every suit of it."
        if self.your_turn:
            if best is None:
                if self.phase == 1:
                    return "No ask can win you a card now (nobody else can hold a rank you hold): " + \
                        self._no_hit_text() + "."
                return "No book can be won now: nobody can hold one you lack."
            return f"Ask {self._ask_words(best)}: {self._ask_reason(best)}."
        t = self.to_move
        who = f"Seat {t} draws from the stock" if self.draw_due == t else f"Seat {t} to play"
        if self.phase == 2 and self.books_held and not self.books_held[me]:
            return f"{who}; you hold no books, so you no longer ask."
        if best is None:
            if self.phase == 1 and not self.hand:
                return f"{who}; you hold no cards (you draw one when your turn comes)."
            if self.phase == 1:
                return (f"{who}; as things stand no ask can win you a card (nobody else can hold a rank you "
                        f"hold): an ask would be refused" + (" and you would draw." if self.stock else
                                                              " and the turn would pass."))
            return f"{who}; nothing to ask for now."
        if best.probability >= 1:
            return f"{who}; on your turn ask {self._ask_words(best)}: {self._ask_reason(best)}."
        return f"{who}; your best ask now would be {self._ask_words(best)} ({self._ask_reason(best)})."

    def _no_hit_text(self) -> str:
        """What happens on the player's turn when no ask can win a card: ``"ask for 6s anyway:
        it is refused and you draw, a 12% chance of a 6, which is shown and keeps your turn"``;
        ``"any ask is refused and the turn passes"`` with an empty stock."""
        if not self.stock or self.draw_rank is None:
            return "any ask is refused and the turn passes"
        r, p = self.draw_rank
        one = "an" if r in "8A" else "a"
        return (f"ask for {rank_plural(r)} anyway: it is refused and you draw, {article(self._chance(p))} "
                f"{self._chance(p)} chance of {one} {_RANK_NAME.get(r, r)}, which is shown and keeps your turn")

    def _status(self) -> str:
        """``"Go Fish, seat 1 (you), after 40 events: seat 2 to play; stock 12 cards; cards in
        hand: seat 0 8, you 9, ...; books: seat 0 1."``"""
        if self.to_move is None:
            turn = "game over"
        elif self.your_turn:
            turn = "your turn"
        else:
            turn = f"seat {self.to_move} to play"
        phase = "" if self.phase == 1 else " (phase 2: asking for whole books)"
        text = (f"Go Fish, seat {self.observer} (you), after {count(self.events, 'event')}{phase}: {turn}; "
                f"stock {self.stock} cards; cards in hand: "
                + ", ".join(f"{self._seat(s)} {n}" for s, n in enumerate(self.sizes)))
        held = [(s, b) for s, b in enumerate(self.books_held) if b]
        if held:
            text += "; books: " + ", ".join(f"{self._seat(s)} {b}" for s, b in held)
        return text + "."

    # ------------------------------------------------------------------ printing
    def render(self, console: Console, record: Any = None, show_table: bool = True, tables_only: bool = False,
               verbose: bool = False) -> None:
        """Print for people (``cardmind hint``; ``cardmind belief`` with ``tables_only``).

        By default: the headline, where the game stands, the player's hand, whether the
        chances are exact or sampled, the best asks (each with its chance of a hit and of
        completing a book, and why) and the tables (``show_table``), chances in percent.
        ``verbose`` adds every number behind them: the count of consistent deals, the method
        and its error bound, the expected cards and the ranking score of each ask, the
        expected count of each rank in the tables. ``tables_only`` (``cardmind belief``): the
        count, the method and the tables.
        """
        if not tables_only:
            console.print(Text(self.headline(), style="bold"))
            console.print(Text(f"Your hand: {_hand_text(self.hand)}"))
            console.print(Text(self._status()))
        else:
            console.print(Text(self._status()))
            console.print(Text(f"Your hand: {_hand_text(self.hand)}"))
        if self.final is not None and tables_only:
            console.print(Text(_final_text(self.final, self.observer), style="bold"))
        if verbose or tables_only:
            self._render_count(console)
            self._render_method(console)
        elif self.mode == "weighted":
            se = "" if self.stderr is None else f" (each could be off by {_off_by(self.stderr)})"
            console.print(Text(f"Note: the chances below are estimates: deals that fit were sampled and weighed by "
                               f"the player model below{se}; --verbose says more", style="yellow"))
        elif self.mode == "mcmc":
            se = "" if self.stderr is None else f" (each could be off by {_off_by(self.stderr)})"
            console.print(Text(f"Note: the chances below are estimates from sampling{se}; --precision SE "
                               f"samples longer, --verbose says more", style="yellow"))
        elif self.model_fit and any(self.model_fit.get("weights", {}).values()) and not self.exact:
            console.print("The chances are exact sums over every deal of the cards that fits what you have seen, "
                          "each weighed by the player model below.")
        else:
            console.print("The chances are exact: every deal of the cards that fits what you have seen counts.")
        self._render_model(console)
        for note in self.notes:
            if not (tables_only and asks_only(note)):
                console.print(Text(f"Note: {note}", style="yellow"))
        if not tables_only:
            console.print()
            self._render_asks(console, verbose)
        if show_table:
            self._render_tables(console, record, verbose)

    def _render_count(self, console: Console) -> None:
        """The count of consistent deals and how it was summed (``verbose``, ``cardmind belief``)."""
        how = "" if self.exact else {
            "filter": " (every consistent deal counted exactly; the chances weigh each by the player model)",
            "weighted": " (the chances weigh a sample of the consistent deals by the player model; largest "
                        f"standard error of a probability {self.stderr or 0:.3f})",
            "enumerated": " (every consistent deal counted, in floating point: the count is "
                          "approximate, the probabilities exact to about 1e-15; see docs/gofish-belief.md)",
            "compact": " (every consistent deal counted, in floating point: the count is approximate, "
                       "the probabilities exact to rounding; see docs/gofish-belief.md)",
        }.get(self.mode, " (the draw engine sampled"
                     + (f"; largest standard error of a probability {self.stderr:.3f}"
                        if self.stderr is not None else "")
                     + "; the count is a rough importance-sampling estimate, late in a game off "
                       "by orders of magnitude; see docs/gofish-belief.md)")
        # a sampled count is rough (2 digits); a floating-point sum is good to about 15 digits
        # (4 shown): whole numbers with separators, never e-notation
        cm = self.mode if self.count_mode is None else self.count_mode
        exact = self.exact if self.count_exact is None else self.count_exact
        count = f"roughly {_rounded(self.consistent_deals, 2)}" if cm in SAMPLED else \
            f"about {_rounded(self.consistent_deals, 4)}" \
            if not exact and cm in ("enumerated", "compact") else f"{self.consistent_deals:,}"
        console.print(f"Consistent deals: {count}{how}")

    def _render_method(self, console: Console) -> None:
        """Which method answered and its error bound in words (``verbose``, ``cardmind belief``):
        ``"Answered by the compact exact sum; each chance is off by less than one part in a
        billion (rounding)."``"""
        if not self.method:
            return
        b = self.error_bound
        if self.mode in SAMPLED:
            bound = ("its error is unknown (too few steps to estimate it)" if b is None else
                     f"each chance is within about {100 * b:.1f} points of the exact one (4 standard errors: "
                     "a statistical bound, not a certain one)")
        elif b == 0:
            bound = "every chance is exact"
        else:
            bound = f"each chance is off by {_tiny(b)} (rounding)"
        method = "the joint filter (exact counts)" if self.mode == "filter" else self.method
        console.print(f"Answered by {method}; {bound}.")

    def _render_model(self, console: Console) -> None:
        """Which player model the chances use, for whom, in words (:meth:`model_text`)."""
        text = self.model_text()
        if text:
            console.print(Text(text))

    def model_text(self) -> str:
        """Which player model the chances use, for whom, in words: ``""`` for ``uniform`` asked
        (the line on how the chances were counted says it); else a sentence such as ``"Player
        model auto: seat 1's 20 asks fit a player with memory (peer) >99% and a random asker
        <1%, so each deal counts by how likely those asks were."``"""
        from .models import MODEL_WORDS  # noqa: PLC0415

        if self.model_asked == "uniform":
            return ""
        if self.model == "uniform" or not self.model_fit:
            return (f"Player model {self.model_asked} does not apply with {self.players} players: every deal that "
                    "fits counts alike (the player models read the other player's asks in two-player games only).")
        fit = self.model_fit
        if "seats" in fit:
            return self._model_text_seats(fit["seats"])
        seat, asks, weights = fit["seat"], fit["asks"], fit["weights"]
        head = f"Player model {self.model}: "
        if self.model != "auto":
            return (head + f"each deal counts by how likely seat {seat}'s {asks} ask{'s' if asks != 1 else ''} "
                    f"were from {MODEL_WORDS.get(self.model, self.model)}.")
        if not asks:
            return head + (f"seat {seat} has not asked yet, so every deal that fits counts alike; its asks will "
                           "be read as those of " + _or([MODEL_WORDS.get(m, m) for m in weights])
                           + ", whichever fits them best.")
        order = sorted(weights, key=lambda m: -weights[m])
        parts = _and([f"{MODEL_WORDS.get(m, m)} {chance(weights[m])}" for m in order])
        many = f"{asks} asks fit" if asks != 1 else "one ask fits"
        return head + (f"seat {seat}'s {many} {parts}, so each deal counts by how likely those asks were "
                       "from such players, in those shares.")

    def _model_text_seats(self, seats: list[dict]) -> str:
        """:meth:`model_text` with three or more players: a clause per other seat (its recent
        asks read, and the models' shares under ``auto``)."""
        from .models import MODEL_WORDS  # noqa: PLC0415

        head = f"Player model {self.model}: "
        unread = [f["seat"] for f in seats if not f["weighed"]]
        if len(unread) == len(seats):
            return head + ("no other player has a recent ask to read yet (asks are read back to a player's last unseen "
                           "draw), so every deal that fits counts alike.")
        parts = []
        if unread:
            parts.append(("seat " if len(unread) == 1 else "seats ") + _and([str(s) for s in unread])
                         + f" {'has' if len(unread) == 1 else 'have'} no recent ask to read (asks are read back "
                         "to a player's last unseen draw)")
        for f in seats:
            seat, n, weights = f["seat"], f["weighed"], f["weights"]
            if not n:
                continue
            elif self.model != "auto":
                parts.append(f"seat {seat}'s {n} recent ask{'s' if n != 1 else ''} read as from "
                             f"{MODEL_WORDS.get(self.model, self.model)}")
            else:
                order = sorted(weights, key=lambda m: -weights[m])
                many = f"{n} recent asks fit" if n != 1 else "one recent ask fits"
                parts.append(f"seat {seat}'s {many} "
                             + _and([f"{MODEL_WORDS.get(m, m)} {chance(weights[m])}" for m in order]))
        return head + "; ".join(parts) + (". Each deal counts by how likely the asks read were from such "
                                          "players" + (", in those shares." if self.model == "auto" else "."))

    def _render_asks(self, console: Console, verbose: bool) -> None:
        """The table of the best asks."""
        if not self.asks:
            console.print("Asks: none possible now." if self.phase == 1 or self.final is not None else
                          "Book asks: none possible now.")
            return
        title = "Best asks" if self.your_turn else "Best asks (for when your turn comes)"
        t = Table(title=title, title_justify="left")
        t.add_column("#", justify="right")
        t.add_column("ask")
        t.add_column("hit", justify="right")
        books = self.phase == 1 and any(a.p_book > 0 for a in self.asks)
        if verbose:
            t.add_column("cards", justify="right")
        elif self.phase == 1 and self.give == "all":
            t.add_column("cards won on average", justify="right")
        if books or verbose:
            t.add_column("completes a book" if not verbose else "book", justify="right")
        if verbose:
            t.add_column("score", justify="right")
        why = verbose or any(a.why for a in self.asks)
        if why:
            t.add_column("why")
        for i, a in enumerate(self.asks, 1):
            row = [str(i), self._ask_words(a), self._chance(a.probability, verbose, a.stderr)]
            if verbose:
                row.append(f"{a.expected_cards:.2f}")
            elif self.phase == 1 and self.give == "all":
                row.append(f"{a.expected_cards:.1f}")
            if books or verbose:
                row.append(self._chance(a.p_book, verbose, a.p_book_stderr) if self.phase == 1 else "")
            if verbose:
                row.append(f"{a.score:.3f}")
            if why:
                row.append(a.reason if verbose else a.why)
            t.add_row(*row, style="bold green" if a.probability >= 1 else None)
        console.print(t)

    def _render_tables(self, console: Console, record: Any, verbose: bool) -> None:
        """The holdings table and the face-down books (``verbose``: expected counts too)."""
        if not self.holdings:
            console.print()
            console.print("Cards held now: none (every hand and the stock are empty).")
            return
        console.print()
        title = ("Expected cards of each rank held now (% chance of at least one)" if verbose else
                 "Who holds each rank")
        t = Table(title=title, title_justify="left")
        t.add_column("rank")
        cols = list(self.holdings)
        for s in cols:
            t.add_column("you" if s == self.observer else str(s), justify="right")
        for r in self.ranks:
            if not any(r in self.holdings[s] for s in cols):
                continue
            ses = self.holdings_stderr or {}
            t.add_row(r, *(self._cell(self.holdings[s].get(r), verbose, ses.get(s, {}).get(r)) for s in cols))
        console.print(t)
        if not verbose:
            console.print("(the chance of holding at least one card of the rank; in brackets how many, when "
                          "certain; · none)")
        hidden = [b for b in self.books if not b["known"]]
        if hidden:
            t = Table(title="Face-down books: most likely ranks", title_justify="left")
            t.add_column("#", justify="right")
            t.add_column("made by")
            t.add_column("held by")
            t.add_column("ranks")
            ses = iter(self.books_stderr or [])
            for i, b in enumerate(self.books, 1):
                if b["known"]:
                    continue
                se = (next(ses, None) or {}).get("ranks", {})
                top = sorted(b["ranks"].items(), key=lambda kv: -kv[1])[:4]
                owner = b["owner"] if not isinstance(b["owner"], dict) else max(b["owner"], key=b["owner"].get)
                t.add_row(str(i), str(b["maker"]), str(owner),
                          "  ".join(f"{r}: {self._chance(p, verbose, se.get(r))}" for r, p in top))
            console.print(t)
        elif self.books and not (record is not None and record.options.get("books_face_up")):
            console.print("Face-down books, every rank worked out from the events: " + ", ".join(
                f"#{i} {max(b['ranks'], key=b['ranks'].get)} (made by seat {b['maker']})"
                for i, b in enumerate(self.books, 1)))

    def _cell(self, d: dict[int, float] | None, verbose: bool, se: dict[int, float] | None = None) -> str:
        """One cell of the holdings table: ``"·"`` for none; the chance of at least one, with
        the count in brackets when it is certain (``"100% (3)"``); ``verbose``: the expected
        count and that chance (``"0.72 (58%)"``; sampled: with its standard error in points,
        ``"0.72 (58% ± 3)"``, ``se`` the standard errors of the counts' probabilities)."""
        if not d:
            return "·"
        e = sum(c * p for c, p in d.items())
        some = at_least_one(d)
        if e == 0:
            return "·"
        if verbose:
            pm = ""
            if se is not None and self.mode in SAMPLED and 0 < some < 1:
                x = round(100 * se.get(0, 0.0))
                pm = f" ± {x}" if x >= 1 else " ± <1"
            return f"{e:.2f} ({100 * some:.0f}%{pm})"
        if len(d) == 1:
            return f"{chance(1.0)} ({next(iter(d))})"
        return self._chance(some)

    def render_live(self, console: Console, options: int = 3) -> None:
        """The live advisor's lines after every event (at most about six): the headline, then
        on the player's turn its next best asks, else what is certain about the other hands."""
        console.print(Text(self.headline(), style="bold"))
        if self.final is not None:
            return
        if self.your_turn and self.draw_due is None:
            for i, a in enumerate(self.asks[1:options], 2):
                console.print(f"  {i}. ask {self._ask_words(a)}: {self._ask_reason(a)}")
            return
        known = self._known_text(limit=4)
        if known:
            console.print(f"  Known: {known}.")
        books = "books " + ", ".join(f"{self._seat(s)} {b}" for s, b in enumerate(self.books_held) if b)
        if self.phase == 2:
            console.print(f"  Books: {books[6:]}.")
        else:
            console.print(f"  Stock {self.stock} cards; in hand " + ", ".join(
                f"{self._seat(s)} {n}" for s, n in enumerate(self.sizes))
                + (f"; {books}" if any(self.books_held) else "") + ".")

    def _known_text(self, limit: int = 4) -> str:
        """What is certain about the other players' hands, seat by seat: ``"seat 0 has J, Q,
        A; seat 3 has three 2s, 4"`` (a rank alone: at least one; a number: exactly that many;
        at most ``limit`` seats)."""
        parts = []
        for s, per in self.holdings.items():
            if s in ("stock", self.observer):
                continue
            have = []
            for r, d in per.items():
                if d.get(0, 0.0) > 0:
                    continue
                n = next(iter(d)) if len(d) == 1 else 0
                have.append(f"{_NUMBER.get(n, n)} {rank_plural(r)}" if n > 1 else r)
            if have:
                parts.append(f"seat {s} has {', '.join(have)}")
        return "; ".join(parts[:limit])

    def render_why(self, console: Console) -> None:
        """The reasoning behind the advice, in words with the numbers: how the asks are
        ranked, each of the best ones with its chances and its evidence, how the chances were
        counted and how exact they are."""
        console.print(Text(self.headline(), style="bold"))
        if self.asks:
            if self.phase == 1 and self.give == "all":
                console.print("Asks are ranked mostly by the chance of a hit, with a bonus for completing a book "
                              "and for every card a hit is expected to win (a hit hands over every card of the "
                              "rank).")
            elif self.phase == 1:
                console.print("Asks are ranked mostly by the chance of a hit (a hit wins one card), with a bonus "
                              "for completing a book.")
            else:
                console.print("Book asks are ranked by the chance that the player asked holds that book.")
            for a in self.asks[:5]:
                extra = ""
                if self.phase == 1:
                    extra = f", completes a book {self._chance(a.p_book, True, a.p_book_stderr)}"
                    if self.give == "all":
                        extra += f", on average you would win {_cards_words(a.expected_cards)}"
                console.print(f"- {self._ask_words(a)}: hit {self._chance(a.probability, True, a.stderr)}{extra}: "
                              f"{a.reason}.")
        known = self._known_text(limit=8)
        if known:
            console.print(f"Certain: {known}.")
        n = self.consistent_deals
        if self.mode == "weighted":
            se = "" if self.stderr is None else \
                f": each chance could be off by about {100 * self.stderr:.1f} points (one standard error)"
            console.print("The chances were estimated from deals that fit what you have seen, sampled and weighed "
                          "by the player model below" + se + ".")
        elif self.mode == "mcmc":
            steps = (self.sampling or {}).get("steps")
            se = "" if self.stderr is None else \
                f": each chance could be off by about {100 * self.stderr:.1f} points (one standard error)"
            console.print("The chances were estimated by sampling the unseen draws"
                          + (f" ({steps} steps)" if steps else "") + se + ".")
        elif self.exact:
            console.print(f"The chances are exact: every deal of the cards that fits what you have seen counts the "
                          f"same, and there are {big_number(n)} of them.")
        elif self.mode == "filter":
            console.print(f"The chances are sums over every deal of the cards that fits what you have seen "
                          f"({big_number(n)}), each weighed by the player model below.")
        else:
            console.print(f"The chances are exact sums over every deal of the cards that fits what you have seen "
                          f"({big_number(n)}), added in floating point: each is off by "
                          f"{_tiny(self.error_bound)}.")
        self._render_model(console)

    def render_tables(self, console: Console) -> None:
        """The belief tables alone (the advisor's ``table``), in the default words."""
        self._render_tables(console, None, verbose=False)


def _and(items: list[str], word: str = "and") -> str:
    """``"a, b and c"``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def _or(items: list[str]) -> str:
    """``"a, b or c"``."""
    return _and(items, "or")


def _rounded(n: float, digits: int) -> str:
    """A large count rounded to ``digits`` significant digits, written out with separators
    (``"17,890,000,000,000,000,000"``), never in e-notation."""
    n = int(round(float(n)))
    if n <= 0:
        return "0"
    drop = max(0, len(str(n)) - digits)
    return f"{round(n, -drop):,}"


def _tiny(bound: float | None) -> str:
    """A small error bound in words (no scientific notation)."""
    if bound is None:
        return "an unknown amount"
    if bound < 1e-9:
        return "less than one part in a billion"
    if bound < 1e-6:
        return "less than one part in a million"
    return f"{100 * bound:.4f} points of percent"


def _cards_words(x: float) -> str:
    """An expected number of cards in words: ``"about 1.4 cards"``, ``"about 1 card"``,
    ``"less than 0.1 card"``."""
    if x < 0.05:
        return "less than 0.1 card"
    n = f"{x:.1f}".rstrip("0").rstrip(".")
    return f"about {n} card{'' if n == '1' else 's'}"


def at_least_one(d: dict[int, float]) -> float:
    """The chance of at least one card from a count distribution ``{count: probability}``
    (counts of probability 0 left out): exactly 0 when no count above 0 is possible, exactly 1
    when 0 is not, else ``1 - P(0)`` (a sum of floating-point chances would leave a rounding
    error at either end: "<1%" for an impossible ask)."""
    if not any(c > 0 for c in d):
        return 0.0
    return 1.0 - float(d.get(0, 0.0))


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


def _off_by(stderr: float) -> str:
    """One standard error of a sampled chance (a probability) in the words of the note above
    the tables: ``"about 2 points"``, ``"about 1 point"``, ``"less than 1 point"``."""
    return "less than 1 point" if 100 * stderr < 0.5 else f"about {points(100 * stderr)}"
