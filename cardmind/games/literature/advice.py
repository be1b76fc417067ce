"""What a Literature player is told, and how it is shown: :class:`LiteratureHint`.

:class:`LiteratureHint` (a :class:`~cardmind.hints.words.Advice`) holds the claims worth making
(:class:`ClaimHint`: each set the player's team may hold, its most probable assignment and the
exact probability that claiming it now succeeds), the best asks (:class:`AskHint`: card, target,
probability of success, a one-line reason) and the belief table (probability of every card at
every seat). The CLI and the engine protocol both render this object;
:meth:`LiteratureHint.to_json` is the documented JSON form (``docs/hints.md``). The engine that
computes it is :func:`~cardmind.games.literature.hints.literature_hint`.

For people it says what to do in one sentence (:meth:`LiteratureHint.headline`: "Ask seat 2 for
the 8H: it received that card at event 26."), then each option with its chance in percent
(:func:`~cardmind.hints.words.chance`) and what it wins or risks in sets. The advice follows the
rule of the ``belief`` player (:mod:`.agents.belief`): a certain claim at once, then a certain
ask, then a claim when it succeeds at least half the time and its average worth in sets
(``2p - 1``: a right claim wins the set, a wrong one gives it to the other team) is at least the
chance of the best ask; else the best ask.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ...cards import card_sort_key
from ...hints import asks_only
from ...hints.words import Advice, big_number, chance, count
from .rules import set_cards, team_of


@dataclass
class ClaimHint:
    """A claim the player's team could make now.

    Attributes:
        set: the set.
        assignment: ``{card: seat}``, the most probable assignment to the team.
        probability: exact-count probability that this claim succeeds now (0..1).
        p_team_holds: probability that the team holds all six cards.
        ties: how many assignments share that probability.
        certain: the claim cannot fail (every consistent deal agrees).
    """

    set: str
    assignment: dict[str, int]
    probability: float
    p_team_holds: float
    ties: int
    certain: bool

    def to_json(self) -> dict[str, Any]:
        """JSON form (keys as the attributes)."""
        return {"set": self.set, "assignment": self.assignment, "probability": self.probability,
                "p_team_holds": self.p_team_holds, "ties": self.ties, "certain": self.certain}

    def who_holds(self) -> str:
        """The assignment as a player says it: ``"seat 1: 9H TH; seat 3: JH"`` (seats in order,
        cards in the set's order)."""
        by: dict[int, list[str]] = {}
        for c in set_cards(self.set):
            by.setdefault(self.assignment[c], []).append(c)
        return "; ".join(f"seat {s}: {' '.join(cs)}" for s, cs in sorted(by.items()))


@dataclass
class AskHint:
    """An ask the player could make.

    Attributes:
        card: the card to ask for.
        target: the opponent to ask.
        probability: probability that the target holds the card now (the ask succeeds).
        reason: one line saying why (with the exact percentage; the JSON's ``reason``).
        score: the ranking score (higher first); probability plus small tie-breakers.
        plain: the reason in a card player's words, without numbers (``"it received that
            card at event 26"``, ``"only seats 0, 4 and 5 can still hold it"``); not in the JSON.
    """

    card: str
    target: int
    probability: float
    reason: str
    score: float
    plain: str = ""

    def to_json(self) -> dict[str, Any]:
        """JSON form (keys as the attributes, without ``plain``)."""
        return {"card": self.card, "target": self.target, "probability": self.probability,
                "reason": self.reason, "score": self.score}

    def what(self) -> str:
        """``"ask seat 2 for the 8H"``."""
        return f"ask seat {self.target} for the {self.card}"


@dataclass
class LiteratureHint(Advice):
    """Advice for one Literature player at one moment (see the module docstring)."""

    observer: int
    events: int
    to_move: int | None
    players: int
    consistent_deals: int
    claims: list[ClaimHint]
    asks: list[AskHint]
    marginals: dict[str, dict[int, float]]
    sets: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: the observer's cards now (for the human output; not in the JSON)
    hand: list[str] = field(default_factory=list)
    #: sets won per team ``[team 0, team 1]`` and the void sets, once the game is over
    #: (``None`` before; for the human output; not in the JSON)
    final: dict[str, Any] | None = None
    model: dict[str, Any] = field(default_factory=lambda: {"model": "uniform", "seat_models": {}, "method": "exact",
                                                           "auto": []})
    #: the rest is for the human output only (not in the JSON)
    #: cards held per seat now
    sizes: list[int] = field(default_factory=list)
    #: sets won so far per team ``[team 0, team 1]``
    team_sets: list[int] = field(default_factory=lambda: [0, 0])
    #: the game's options (``claim_any_time``, ``wrong_claim``, ...)
    options: dict[str, Any] = field(default_factory=dict)
    #: ``{set: P(the other team holds all six)}`` for the unclaimed sets where it is above 0
    their_claims: dict[str, float] = field(default_factory=dict)
    #: the seats the observer may hand the turn to (on turn without cards, with a choice)
    pass_to: list[int] = field(default_factory=list)
    #: whether the observer, on turn, could ask at all (an opponent with cards, a set to ask in)
    can_ask: bool = True
    #: the seats the observer may name to play next (it chooses after a claim), best first;
    #: empty when it does not choose now
    next_to: list[int] = field(default_factory=list)
    #: the ask to make when none can succeed (the opponent with the fewest cards gets the
    #: turn): ``(target, card)``, or ``None``
    miss_ask: tuple[int, str] | None = None
    #: whether a claim waits for the choice of who plays next (no claim or ask meanwhile)
    pending: bool = False
    #: the best ask, also when ``max_asks`` keeps none in :attr:`asks` (``None``: no ask can succeed)
    top_ask: AskHint | None = None

    @property
    def your_turn(self) -> bool:
        """Whether the observer is to move."""
        return self.to_move == self.observer

    def to_json(self) -> dict[str, Any]:
        """The documented JSON object (``docs/hints.md``), with ``headline``."""
        return {
            "game": "literature",
            "observer": self.observer,
            "team": team_of(self.observer),
            "events": self.events,
            "to_move": self.to_move,
            "your_turn": self.your_turn,
            "headline": self.headline(),
            "recommend": self.recommend(),
            "consistent_deals": self.consistent_deals,
            "consistent_deals_str": str(self.consistent_deals),
            "claims": [c.to_json() for c in self.claims],
            "asks": [a.to_json() for a in self.asks],
            "belief": {
                "seats": list(range(self.players)),
                "sets": self.sets,
                "marginals": {c: {str(s): p for s, p in d.items()} for c, d in self.marginals.items()},
            },
            "notes": self.notes,
            **self.model,
        }

    # ------------------------------------------------------------------ the decision
    def _best_ask(self) -> AskHint | None:
        if self.top_ask is not None:
            return self.top_ask
        return self.asks[0] if self.asks else None

    def advised(self) -> tuple[str, Any]:
        """What the advice says to do now, as ``(kind, what)``:

        * ``("claim", ClaimHint)``, ``("ask", AskHint)``: on turn (or, under ``claim_any_time``,
          a certain claim at any time);
        * ``("pass", seat)``: on turn without cards, with a choice of seat;
        * ``("next", seat)``: after a claim, the observer names the seat to play next;
        * ``("ask-miss", None)``: on turn, no ask can succeed and no claim is likely enough;
        * ``("wait", None)``: another seat is to move; ``("over", None)``: the game is over.

        The rule is the ``belief`` player's (module docstring)."""
        if self.to_move is None:
            return "over", None
        if self.next_to:
            return "next", self.next_to[0]
        certain = [c for c in self.claims if c.certain]
        has_cards = bool(self.hand)
        if not self.your_turn:
            if certain and has_cards and self.options.get("claim_any_time") and not self.pending:
                return "claim", certain[0]
            return "wait", None
        if not has_cards:
            return "pass", (self.pass_to or [None])[0]
        if certain:
            return "claim", certain[0]
        best = self._best_ask()
        if best is not None and best.probability >= 1:
            return "ask", best
        top = self.claims[0] if self.claims else None
        if not self.can_ask:
            return ("claim", top) if top is not None else ("ask-miss", None)
        if best is None:
            if top is not None and top.probability >= 0.9:
                return "claim", top
            return "ask-miss", None
        if top is not None and top.probability >= 0.5 and 2 * top.probability - 1 >= best.probability:
            return "claim", top
        return "ask", best

    def recommend(self) -> dict[str, Any] | None:
        """The action advised now (:meth:`advised`) as the action object the engine's
        ``apply`` takes (``{"type": "ask", "asker", "target", "card"}``, ``claim`` with its
        ``assignment``, ``pass``, ``next``; ``docs/hints.md``), or ``None`` when the observer
        has nothing to do now."""
        kind, what = self.advised()
        me = self.observer
        if kind == "claim":
            cards = set_cards(what.set)
            return {"type": "claim", "claimer": me, "set": what.set,
                    "assignment": {c: int(what.assignment[c]) for c in cards}}
        if kind == "ask":
            return {"type": "ask", "asker": me, "target": what.target, "card": what.card}
        if kind == "ask-miss" and self.miss_ask is not None:
            return {"type": "ask", "asker": me, "target": self.miss_ask[0], "card": self.miss_ask[1]}
        if kind == "pass" and what is not None:
            return {"type": "pass", "from": me, "to": what}
        if kind == "next":
            return {"type": "next", "chooser": me, "next": what}
        return None

    def _if_wrong(self) -> str:
        """What a wrong claim gives, in sets."""
        if self.options.get("wrong_claim") == "cancel":
            return "the set goes to the other team, or to nobody if all six were on your team"
        return "the set goes to the other team"

    # ------------------------------------------------------------------ words
    def headline(self) -> str:
        """What to do now and why, in one sentence (see :class:`~cardmind.hints.words.Advice`)."""
        kind, what = self.advised()
        if kind == "over":
            return _final_text(self.final or {"team_sets": self.team_sets}, self.observer)
        if kind == "claim":
            c: ClaimHint = what
            when = "now" if self.your_turn else "now (your rules let anyone claim at any time)"
            if c.certain:
                return f"Claim {c.set} {when}: it succeeds 100% of the time (your team holds all six: {c.who_holds()})."
            if not self.can_ask:
                return (f"Claim {c.set}: no opponent has cards to ask, and it is your likeliest claim, right "
                        f"{chance(c.probability)} of the time ({c.who_holds()}).")
            best = self._best_ask()
            why = ("no ask can succeed" if best is None else
                   f"better than your best ask, which succeeds {chance(best.probability)}")
            return (f"Claim {c.set} now: it succeeds {chance(c.probability)} of the time ({c.who_holds()}), "
                    f"{why}.")
        if kind == "ask":
            a: AskHint = what
            if a.probability >= 1:
                return f"Ask seat {a.target} for the {a.card}: {a.plain}."
            tail = f" ({a.plain})" if a.plain else ""
            top = self.claims[0] if self.claims else None
            if top is not None and top.probability >= CLAIM_WORTH:
                tail += f"; a claim of {top.set} now would be right only {chance(top.probability)} of the time"
            return f"Ask seat {a.target} for the {a.card}: it succeeds {chance(a.probability)} of the time{tail}."
        if kind == "ask-miss":
            top = self.claims[0] if self.claims else None
            text = "No ask can succeed now: whichever opponent you ask gets the turn"
            if self.miss_ask is not None:
                text += (f" (ask seat {self.miss_ask[0]} for the {self.miss_ask[1]}: of the opponents with cards "
                         f"it holds the fewest)")
            if top is not None:
                text += f"; claiming {top.set} instead succeeds only {chance(top.probability)}"
            return text + "."
        if kind == "next":
            if what == self.observer:
                return "Choose to play next yourself: you hold cards and keep your team's turn."
            return f"Choose seat {what} to play next: of the seats you may name it holds the most cards."
        if kind == "pass":
            if what is None:
                return "You have no cards: pass the turn."
            mates = what % 2 == self.observer % 2
            whom = "of your teammates with cards" if mates else "no teammate has cards; of the opponents"
            return (f"Pass the turn to seat {what}: {whom} it holds the most cards "
                    f"({self.sizes[what] if self.sizes else '?'}).")
        return self._watch()

    def _watch(self) -> str:
        """The headline while another seat is to move: who plays, and what to watch for."""
        t = self.to_move
        mate = t % 2 == self.observer % 2
        who = f"Seat {t} ({'your teammate' if mate else 'the other team'}) is on turn"
        certain = [c for c in self.claims if c.certain]
        if certain:
            c = certain[0]
            return f"{who}; your team holds all of {c.set} for sure ({c.who_holds()}): claim it on your team's turn."
        sure_theirs = [n for n, p in self.their_claims.items() if p >= 1]
        if sure_theirs:
            return f"{who}; the other team holds all of {sure_theirs[0]} for sure and can claim it."
        if not self.hand:
            return f"{who}; you have no cards: your teammates play on for your team."
        best = self._best_ask()
        if best is not None and best.probability >= 1:
            return f"{who}; on your turn, ask seat {best.target} for the {best.card} ({best.plain})."
        top = self.claims[0] if self.claims else None
        if top is not None and top.p_team_holds >= 1:
            return (f"{who}; your team holds all of {top.set}, but not surely who holds which: the likeliest "
                    f"claim of it is right {chance(top.probability)} of the time.")
        if top is not None and top.probability >= CLAIM_WORTH:
            return f"{who}; your team's likeliest claim, {top.set}, is right {chance(top.probability)} of the time."
        if self.their_claims:
            name, p = max(self.their_claims.items(), key=lambda kv: kv[1])
            if p >= 0.25:
                return (f"{who}; watch {name}: the other team holds all six {chance(p)} of the time "
                        f"and could claim it.")
        if best is not None:
            return (f"{who}; on your turn, asking seat {best.target} for the {best.card} would succeed "
                    f"{chance(best.probability)} of the time.")
        return f"{who}; no claim or ask of yours can succeed yet."

    def options_lines(self, limit: int | None = None) -> list[str]:
        """The options worth a look, best first, one line each with its chance in front: the
        claims worth making (certain, or right at least half the time; what a right one wins),
        then the asks with their reason (at most ``limit`` lines in all)."""
        out = []
        if self.to_move is None or not self.hand:
            return out
        for c in self.claims:
            if c.certain or c.probability >= CLAIM_WORTH:
                out.append(f"{chance(c.probability):>5}  claim {c.set} ({c.who_holds()}): +1 set if right")
        for a in self.asks:
            out.append(f"{chance(a.probability):>5}  {a.what()}: {a.plain}")
        return out[:limit] if limit is not None else out

    def render_live(self, console: Console, options: int = 3) -> None:
        """The live advisor's few lines: the headline and up to ``options`` options (on
        turn), or the headline alone while another seat is to move."""
        console.print(Text(self.headline(), style="bold"))
        if self.to_move is None:
            return
        if self.your_turn or (self.options.get("claim_any_time") and any(c.certain for c in self.claims)):
            for line in self.options_lines(options):
                console.print(Text(f"  {line}"))

    def render_why(self, console: Console) -> None:
        """The reasoning behind the advice, in words with its numbers, then the verbose advice
        without the tables."""
        console.print(Text(self.headline(), style="bold"))
        for line in self._reasons():
            console.print(Text(f"- {line}"))
        console.print()
        self.render(console, None, show_table=False, verbose=True)

    def _reasons(self) -> list[str]:
        """The steps of the decision, in words with their numbers (for :meth:`render_why`):
        chances in percent, what a claim wins or loses in sets."""
        weighed = self.model.get("method") != "exact"
        deals = big_number(self.consistent_deals)
        out = [f"Every chance is counted over {deals if deals.startswith('more') else 'the ' + deals} "
               f"deal{'s' if self.consistent_deals != 1 else ''} of the cards you "
               f"have not seen that fit your hand and the {count(self.events, 'event')} so far"
               + (", each weighed by how likely it makes the other players' asks." if weighed else
                  ", all equally likely.")]
        out.append("A claim that is right wins the set for your team; a wrong one: " + self._if_wrong()
                   + ". So on average a claim wins its chance of being right less its chance of being wrong, "
                     "in sets (right 80% of the time: 0.6 sets), and a certain claim is made at once (waiting "
                     "only risks it).")
        if self.claims:
            c = self.claims[0]
            ties = round(c.ties)
            out.append(f"Your likeliest claim: {c.set}, right {exact_percent(c.probability)} of the time: on average it "
                       f"{_sets_on_average(2 * c.probability - 1)} (your team holds all six "
                       f"{exact_percent(c.p_team_holds)} of the time"
                       + (f"; {ties:,} ways of saying who holds which card are equally likely" if ties > 1 else "")
                       + ").")
        else:
            out.append("Your team cannot hold all six cards of any set yet: no claim can succeed.")
        best = self._best_ask()
        if best is not None:
            out.append(f"Your best ask: seat {best.target} for the {best.card}, {exact_percent(best.probability)}: "
                       f"{best.reason}. A hit keeps the turn; a miss hands it to seat {best.target}.")
        elif self.hand and self.to_move is not None:
            out.append("No ask can succeed now.")
        if self.claims and best is not None and not self.claims[0].certain and best.probability < 1:
            c = self.claims[0]
            verdict = ("so claim" if c.probability >= 0.5 and 2 * c.probability - 1 >= best.probability
                       else "so ask")
            out.append(f"A claim is advised when it is right at least 50% of the time and wins on average at least "
                       f"as many sets as the best ask's chance of a hit (a claim right 80% of the time beats an ask "
                       f"under 60%): claiming {c.set} now {_sets_on_average(2 * c.probability - 1)}, and asking "
                       f"seat {best.target} for the {best.card} hits {exact_percent(best.probability)} of the time, "
                       f"{verdict} (the rule of cardmind's belief player).")
        return out

    # ------------------------------------------------------------------ the full advice
    def render(self, console: Console, record: Any = None, show_table: bool = True, tables_only: bool = False,
               verbose: bool = False) -> None:
        """Print for humans (used by ``cardmind hint`` and ``cardmind belief``): whose turn it
        is, the player's hand, the headline, the claims worth making (certain or right at
        least :data:`CLAIM_WORTH` of the time; every claim with ``verbose``) and the best asks,
        each with its chance (:func:`~cardmind.hints.words.chance`) and what it wins or risks,
        and the belief table. ``tables_only`` (``cardmind belief``): the count of consistent
        deals and the table. ``verbose``: also the count of consistent deals, the exact
        percentages and the reasons as the JSON gives them."""
        me = self.observer
        mates = [s for s in range(self.players) if s % 2 == me % 2]
        turn = "game over" if self.to_move is None else ("your turn" if self.your_turn else f"seat {self.to_move} to play")
        mine, theirs = self.team_sets[me % 2], self.team_sets[1 - me % 2]
        console.print(Text(f"Literature: seat {me}'s view after {count(self.events, 'event')} ({turn}); "
                           f"your team: seats {', '.join(map(str, mates))}; sets won: yours {mine}, "
                           f"theirs {theirs}", style="bold"))
        console.print(Text(f"Your hand: {_hand_text(self.hand, self.sets)}"))
        if verbose or tables_only:
            console.print(f"Consistent deals: {self.consistent_deals:,} (every deal of the cards you have not "
                          f"seen that fits your hand and the events, counted exactly)")
        if self.final is not None:
            console.print(Text(_final_text(self.final, me), style="bold"))
        elif not tables_only:
            console.print(Text(self.headline(), style="bold"))
        console.print(f"Player model: {_model_line(self.model, verbose or tables_only)}")
        for note in self.notes:
            if not (tables_only and asks_only(note)):
                console.print(Text(f"Note: {note}", style="yellow"))
        if not tables_only:
            console.print()
            self._render_claims(console, verbose)
            console.print()
            self._render_asks(console, verbose)
        if show_table:
            console.print()
            t = Table(title="Belief: % chance each seat holds each card now (· = impossible)", title_justify="left")
            t.add_column("set")
            t.add_column("card")
            for s in range(self.players):
                t.add_column(_seat_label(s, me), justify="right")
            for set_name, cards in self.sets.items():
                first = True
                for c in cards:
                    d = self.marginals.get(c, {})
                    cells = []
                    for s in range(self.players):
                        p = d.get(s, 0.0)
                        txt = _cell(p)
                        cells.append(Text(txt, style="bold" if p >= 1 else ("dim" if p <= 0 else "")))
                    t.add_row(set_name if first else "", c, *cells)
                    first = False
                t.add_section()
            console.print(t)

    def _render_claims(self, console: Console, verbose: bool) -> None:
        shown = self.claims if verbose else [c for c in self.claims if c.certain or c.probability >= CLAIM_WORTH]
        if shown:
            title = ("Claims your team could make (chance that claiming now succeeds)" if verbose else
                     "Claims worth making (chance that the claim is right)")
            t = Table(title=title, title_justify="left")
            t.add_column("set")
            t.add_column("success" if verbose else "right", justify="right")
            if verbose:
                t.add_column("team holds", justify="right")
            t.add_column("say who holds each card")
            for c in (shown if verbose else shown[:6]):
                if verbose:
                    assign = "  ".join(f"{card}→{seat}" for card, seat in sorted(
                        c.assignment.items(), key=lambda kv: card_sort_key(kv[0])))
                    prob = "certain" if c.certain else exact_percent(c.probability)
                    t.add_row(c.set, prob, exact_percent(c.p_team_holds), assign, style="bold green" if c.certain else None)
                else:
                    t.add_row(c.set, chance(c.probability), c.who_holds(), style="bold green" if c.certain else None)
            console.print(t)
            if len(shown) > 6 and not verbose:
                console.print(f"({count(len(shown) - 6, 'more set')} worth claiming; {self.more} lists them)")
            if not verbose:
                console.print(f"A right claim wins your team the set; if wrong, {self._if_wrong()}.")
        if not verbose and self.claims and len(shown) < len(self.claims):
            rest = self.claims[len(shown):]
            best = rest[0]
            more = f"{count(len(rest), 'more set')} your team might hold"
            head = "Claims: none worth making now" if not shown else more
            console.print(f"{head}: the likeliest{' of them' if shown and len(rest) > 1 else ''}, {best.set}, "
                          f"would be right {chance(best.probability)} of the time (under {100 * CLAIM_WORTH:.0f}%; "
                          f"{self.more} lists {'them' if len(rest) > 1 else 'it'}).")
        elif not self.claims:
            console.print("Claims: none: the game is over." if self.to_move is None else
                          "Claims: your team cannot hold all six cards of any set yet.")

    def _render_asks(self, console: Console, verbose: bool) -> None:
        if not self.asks:
            console.print("Asks: none possible now." if not self.hand or not self.can_ask or self.to_move is None
                          else "Asks: none can succeed now.")
            return
        title = "Best asks"
        t = Table(title=title, title_justify="left")
        t.add_column("#", justify="right")
        t.add_column("ask")
        t.add_column("success" if verbose else "chance", justify="right")
        t.add_column("why")
        for i, a in enumerate(self.asks, 1):
            style = "bold green" if a.probability >= 1 else None
            if verbose:
                t.add_row(str(i), f"{a.card} from seat {a.target}", f"{100 * a.probability:.1f}%", a.reason,
                          style=style)
            else:
                t.add_row(str(i), f"seat {a.target} for the {a.card}", chance(a.probability), a.plain, style=style)
        console.print(t)
        if not verbose:
            console.print("A hit keeps your turn; a miss hands it to the seat you asked.")


#: the least chance of success of a claim that ``cardmind hint`` lists as worth making
#: (certain claims always are; ``--verbose`` lists every claim)
CLAIM_WORTH = 0.5


def _hand_text(hand: list[str], sets: dict[str, list[str]]) -> str:
    """The observer's cards grouped by set, in the order of ``sets`` (``{set: its cards}``):
    ``"(7 cards) low-clubs 2C 3C; high-hearts 9H JH"``."""
    if not hand:
        return "no cards"
    held = set(hand)
    groups = [(name, [c for c in cards if c in held]) for name, cards in sets.items()]
    placed = {c for _, cards in groups for c in cards}
    other = [c for c in hand if c not in placed]   # (none: a card in hand is in an unclaimed set)
    groups = [(n, cs) for n, cs in groups if cs] + ([("", other)] if other else [])
    return f"({len(hand)} card{'s' if len(hand) != 1 else ''}) " + "; ".join(
        f"{name} {' '.join(cards)}".strip() for name, cards in groups)


def _final_text(final: dict[str, Any], me: int) -> str:
    """``"Game over: your team won 5 sets to 4."`` (and the void sets)."""
    mine, theirs = final["team_sets"][me % 2], final["team_sets"][1 - me % 2]
    verb = "won" if mine > theirs else "lost" if mine < theirs else "drew"
    text = f"Game over: your team {verb} {mine} set{'s' if mine != 1 else ''} to {theirs}"
    void = final.get("void_sets") or []
    if void:
        text += f" ({len(void)} void: {', '.join(void)})"
    return text + "."


def _model_line(model: dict[str, Any], verbose: bool = False) -> str:
    """How the chances are weighed, in words: ``uniform (...)``, the model of each other seat,
    or (``auto``) the model read from each team's asks and why; the technical wording with
    ``verbose``."""
    if model.get("method") == "exact":
        if verbose:
            return "uniform (every consistent deal equally likely)"
        return "uniform (every deal of the cards you have not seen that fits what you saw is equally likely)"
    auto = {s for team in model.get("auto", []) for s in team["seats"]}
    per: dict[str, list[str]] = {}
    for seat, name in sorted(model.get("seat_models", {}).items(), key=lambda kv: int(kv[0])):
        if int(seat) not in auto:
            per.setdefault(name, []).append(seat)
    parts = []
    for team in model.get("auto", []):
        who = (f"your teammate{'s' if len(team['seats']) > 1 else ''}" if team["teammates"] else "the other team")
        seats = ", ".join(map(str, team["seats"]))
        if verbose:
            fit = ", ".join(f"{m} {v:.1f}" for m, v in team["log_likelihood"].items())
            why = f"{count(team['asks'], 'ask')}, log-likelihood {fit}" if team["asks"] else "no asks yet: the default"
            parts.append(f"{team['model']} for {who} (seats {seats}; auto: {why})")
        else:
            why = (f"{'its' if len(team['seats']) == 1 else 'their'} {count(team['asks'], 'ask')} "
                   f"fit{'s' if team['asks'] == 1 else ''} it best"
                   if team["asks"] else "no asks yet, so the usual choice")
            parts.append(f"{who} (seats {seats}) as {team['model']} players ({why})")
    parts += [f"{name} (seats {', '.join(seats)})" for name, seats in per.items()]
    if verbose:
        return "; ".join(parts) + " — deals weighted by the likelihood of the other players' asks"
    if auto:
        return ("read from the play: " + "; ".join(parts)
                + ". The chances weigh each deal by how likely it makes the other players' asks.")
    return "; ".join(parts) + ": the chances weigh each deal by how likely it makes the other players' asks"


def _sets_on_average(x: float) -> str:
    """What a claim worth ``x`` sets on average does, in words: ``"gains 0.6 sets"``, ``"loses
    1 set"``, ``"neither gains nor loses a set"`` (two decimals at most)."""
    n = f"{abs(x):.2f}".rstrip("0").rstrip(".")
    if n == "0":
        return "neither gains nor loses a set"
    return f"{'gains' if x > 0 else 'loses'} {n} set{'' if n == '1' else 's'}"


def exact_percent(p: float) -> str:
    """The probability ``p`` (0..1) as a percentage with one decimal (``--verbose`` and the
    JSON's reasons): ``"37.5%"``, ``"40%"``, ``">99.9%"``, ``"<0.1%"``."""
    if p >= 0.9995 and p < 1:
        return ">99.9%"
    if 0 < p < 0.0005:
        return "<0.1%"
    return f"{100 * p:.1f}%".replace(".0%", "%")



def _seat_label(seat: int, me: int) -> str:
    """The belief table's column head for ``seat`` as ``me`` sees it: ``"2 you"``, ``"4 mate"``,
    ``"3 opp"``."""
    if seat == me:
        return f"{seat} you"
    return f"{seat} mate" if seat % 2 == me % 2 else f"{seat} opp"


def _cell(p: float) -> str:
    """A belief table cell: the probability ``p`` (0..1) in whole percent, ``"·"`` when
    impossible, ``"<1"``/``">99"`` near the ends."""
    if p <= 0:
        return "·"
    if p >= 1:
        return "100"
    if p < 0.005:
        return "<1"
    if p > 0.995:
        return ">99"
    return f"{100 * p:.0f}"
