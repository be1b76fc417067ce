"""What a contract rummy player is told, and how it is shown: :class:`CariocaHint`.

:class:`CariocaHint` (a :class:`~cardmind.hints.words.Advice`) holds the advice on taking,
stealing or passing, going down now or waiting and which card to discard, each with its numbers
and a one-line reason (each an :class:`~.decide.Option` of :class:`~.decide.Advisor`);
:meth:`CariocaHint.to_json` is the documented JSON object (``docs/hints.md``, "Contract rummy").
The words for people: :meth:`CariocaHint.headline` says what to do and why in one sentence,
:meth:`CariocaHint.render` prints it with each option's chance (percent) and its cost or gain in
points, the opponents' chances and the cards the player needs (every number behind it with
``verbose``), :meth:`CariocaHint.render_live` the few lines of the live advisor,
:meth:`CariocaHint.render_why` the reasoning with its numbers. The engine that computes it is
:func:`~cardmind.games.carioca.hints.carioca_hint`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ...hints.words import WATCH, Advice, big_number, chance, points
from .decide import Option
from .rules import contract_name


def _short(missing: int) -> str:
    """``"completes your contract"``-style words for a hand ``missing`` cards from it."""
    if missing <= 0:
        return "your contract is complete"
    return f"{missing} card{'s' if missing != 1 else ''} short of your contract"


def _sooner(turns: float) -> str:
    """``"about 10 turns sooner"``: the turns a steal saves, in words."""
    k = round(turns)
    if k < 1:
        return "less than a turn sooner"
    return f"about {k} turn{'s' if k != 1 else ''} sooner"


def _melds_text(melds: list[dict]) -> str:
    return " / ".join(" ".join(m["cards"]) for m in melds)


@dataclass
class CariocaHint(Advice):
    """Advice for one contract rummy player at one moment (see the module docstring).

    The first fields are the JSON object's (``to_json``); the later ones (``missing`` ...
    ``samples``) only serve the words: the cards the player's hand still lacks and the stock's
    useful cards now, the cards that would help, the totals, the player on turn, who is down,
    the melds on the table, the out bonus and the sampling of the player model.
    """

    observer: int
    events: int
    hand_no: int
    sets: int
    runs: int
    to_move: int | None
    phase: str
    consistent_deals: int
    exact: bool
    model: str
    hand: list[str]
    sizes: list[int]
    stock: int
    top: str | None
    offer: Option | None
    go_down: Option | None
    lay_off: dict | None
    discards: list[Option]
    opponents: dict[int, dict[str, Any]]
    holdings: dict[str, dict[str, dict[str, float]]]
    known: dict[int, list[str]]
    hazard: float | None
    recommend: dict | None
    notes: list[str] = field(default_factory=list)
    missing: int | None = None
    live_outs: float | None = None
    p_draw: float | None = None
    needed: list[str] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    last_scores: list[int] | None = None
    turn: int | None = None
    down: list[bool] = field(default_factory=list)
    table: list[dict] = field(default_factory=list)
    out_bonus: int = -20
    samples: int = 0
    ess: float | None = None
    must: str | None = None
    seat_models: dict[int, str] = field(default_factory=dict)
    model_fit: dict[int, dict[str, float]] = field(default_factory=dict)
    chose: set[int] = field(default_factory=set)
    hazard_stderr: float | None = None
    wanted_samples: int = 0

    @property
    def your_turn(self) -> bool:
        """Whether the observer decides now."""
        return self.to_move == self.observer

    @property
    def contract(self) -> str:
        """The contract in words (``"2 sets"``)."""
        return contract_name(self.sets, self.runs)

    def to_json(self) -> dict[str, Any]:
        """The documented JSON object (``docs/hints.md``, "Contract rummy"), with ``headline``."""
        return {
            "game": "carioca", "observer": self.observer, "events": self.events, "hand": self.hand_no,
            "contract": {"sets": self.sets, "runs": self.runs}, "to_move": self.to_move,
            "your_turn": self.your_turn, "phase": self.phase,
            "consistent_deals": self.consistent_deals, "consistent_deals_str": str(self.consistent_deals),
            "exact": self.exact, "model": self.model,
            "models": {str(s): m for s, m in self.seat_models.items()},
            "model_fit": {str(s): v for s, v in self.model_fit.items()},
            "models_text": self.models_sentence(),
            "samples": self.samples if not self.exact else 0, "ess": self.ess,
            "your_hand": self.hand, "hand_sizes": self.sizes,
            "stock": self.stock, "top_discard": self.top,
            "headline": self.headline(),
            "recommend": self.recommend,
            "offer": None if self.offer is None else self.offer.to_json(),
            "go_down": None if self.go_down is None else self.go_down.to_json(),
            "lay_off": self.lay_off,
            "discards": [d.to_json() for d in self.discards],
            "hazard": self.hazard, "hazard_stderr": self.hazard_stderr,
            "sampled": {"opponents": max((v["samples"] for v in self.opponents.values() if not v["exact"]),
                                         default=0),
                        "taken": self.wanted_samples, "holdings": self.samples if not self.exact else 0},
            "opponents": {str(s): v for s, v in self.opponents.items()},
            "known": {str(s): v for s, v in self.known.items()},
            "holdings": self.holdings,
            "notes": self.notes,
        }

    # ------------------------------------------------------------------ sentences
    def models_sentence(self) -> str:
        """Which player model the chances use for whom, in one sentence (``"Chances weigh seat 0
        as a peer player (its choices fit it best) ..."``), and whether they are sampled."""
        if self.model == "uniform":
            return ("Chances count every history of the hand that fits what you saw, each equally likely "
                    "(the uniform model: what the players chose is not read).")
        by: dict[str, list[int]] = {}
        for s, m in sorted(self.seat_models.items()):
            by.setdefault(m, []).append(s)

        def seats(xs: list[int]) -> str:
            words = [str(x) for x in xs]
            return ("seat " if len(xs) == 1 else "seats ") + (" and ".join(words) if len(words) <= 2
                                                              else ", ".join(words[:-1]) + " and " + words[-1])

        weighed = [f"{seats(xs)} as {'a ' if len(xs) == 1 else ''}{m} player{'s' if len(xs) > 1 else ''}"
                   for m, xs in by.items() if m != "uniform"]
        plain = by.get("uniform", [])
        if self.model != "auto":
            why = "the model asked for"
        else:
            why = "the model that best explains " + ("its" if sum(len(by[m]) for m in by if m != "uniform") == 1
                                                     else "their") + " choices this hand"
        if not weighed:
            quiet = [s for s in plain if s not in self.chose]
            if len(quiet) == len(plain):
                return ("No other player has chosen anything this hand yet: chances count every history of the "
                        "hand that fits what you saw, each equally likely (exact).")
            return ("No player model explains the other players' choices better than chance: chances count every "
                    "history of the hand that fits what you saw, each equally likely (exact).")
        out = "Chances weigh " + "; ".join(weighed) + f" ({why})"
        if plain:
            quiet = [s for s in plain if s not in self.chose]
            out += (f"; {seats(plain)} {'is' if len(plain) == 1 else 'are'} not weighed ("
                    + ("no choices yet" if len(quiet) == len(plain) else "no model fits better than chance") + ")")
        return out + f"; sampled: {self.samples} deals of the unseen cards, so they carry a standard error."

    def headline(self) -> str:
        """What to do now and why, in one sentence (see :class:`~cardmind.hints.words.Advice`)."""
        if self.phase == "over":
            low = min(self.totals)
            winners = [s for s, t in enumerate(self.totals) if t == low]
            if self.observer in winners:
                return (f"The game is over: you {'win' if len(winners) == 1 else 'share first place'} with "
                        f"{points(low)}.")
            return (f"The game is over: seat {winners[0]} has the lowest total ({points(low)}); you have "
                    f"{points(self.totals[self.observer])}.")
        if self.phase == "deal":
            mine = self.last_scores[self.observer] if self.last_scores else None
            got = f"you scored {points(mine)}, " if mine is not None else ""
            return (f"Hand {self.hand_no} is over: {got}your total is {points(self.totals[self.observer])}; "
                    f"hand {self.hand_no + 1} comes next.")
        if self.phase == "hand_end" or self.must == "hand_end":
            out = next((s for s, n in enumerate(self.sizes) if n == 0), None)
            who = "you went out" if out == self.observer else ("nobody went out" if out is None
                                                               else f"seat {out} went out")
            return f"Hand {self.hand_no} is over ({who}): the scores come with each seat's cards."
        if self.offer is not None:
            verb, reason = self._offer_sentence()
            if not self.your_turn:
                short = {"take": "take it", "steal": "steal it"}.get(self.offer.action["type"], "pass")
                return (f"If the {self.offer.numbers['card']} comes to you (seat {self.to_move} decides first), "
                        f"{short}: {reason}.")
            return f"{verb}: {reason}."
        if self.phase == "play" and self.your_turn:
            return self._play_sentence()
        if self.phase == "draw" and self.turn == self.observer:
            return "Draw from the stock: the advice for your play comes with the card."
        return self._watch_sentence()

    def _offer_sentence(self) -> tuple[str, str]:
        """``(what to do, why)`` for the discard on offer: ``("Steal the 7C", "it completes ...")``."""
        o = self.offer
        n = o.numbers
        card, act = n["card"], o.action["type"]
        on_turn = self.turn == self.observer
        if "fits_a_meld" in n:      # the player is down: the card is only worth laying off
            if not n["fits_a_meld"]:
                return f"Pass on the {card}", "it fits no meld on the table"
            if on_turn:
                return f"Take the {card}", "you can lay it off, one card fewer to shed"
            cost = n.get("penalty_cost")
            if act == "steal":
                return f"Steal the {card}", "you can lay it off" + (
                    f"; the penalty card costs about {points(cost)}" if cost is not None else "")
            if cost is None:
                return f"Pass on the {card}", "there is no penalty card left to draw"
            return f"Pass on the {card}", (f"it fits a meld, but the penalty card would stay in your hand "
                                           f"(about {points(cost)})")
        d0, d1 = n["deficiency_now"], n["deficiency_with"]
        helps = d1 < d0 or card in ("RJ", "BJ")
        gets = "completes your contract" if d1 == 0 else "brings your contract one card closer"
        if on_turn:
            p = n.get("p_stock_draw_helps", 0.0)
            if act == "take":
                return f"Take the {card}", f"it {gets}; a stock draw would help {chance(p)} of the time"
            return (f"Pass on the {card} and draw from the stock",
                    f"the {card} does not bring your contract closer (a stock draw helps {chance(p)} of the time)")
        if not helps:
            return f"Pass on the {card}", "it does not bring your contract closer"
        if "gain" not in n:
            if act == "steal":
                return f"Steal the {card}", f"it {gets}"
            return f"Pass on the {card}", "there is no penalty card left to draw, so it cannot be stolen"
        gain, cost = n["gain"], n["penalty_cost"]
        sooner = _sooner(n["rounds_saved"])
        if act == "steal":
            return f"Steal the {card}", (f"it {gets}; going down {sooner} is worth about {points(gain)}, the "
                                         f"penalty card costs about {points(cost)}")
        if gain <= 0:
            return f"Pass on the {card}", (f"it {gets}, but going down {sooner} is not worth the extra cards you "
                                           f"would hold: a steal is about {points(round(cost - gain))} worse in all")
        return f"Pass on the {card}", (f"it {gets}, but by these numbers the penalty card costs more (about "
                                       f"{points(cost)}) than going down {sooner} is worth (about {points(gain)})")

    def _play_sentence(self) -> str:
        g = self.go_down
        rec = self.recommend or {}
        if g is not None:
            n = g.numbers
            if rec.get("type") == "go_down":
                melds = _melds_text(rec["melds"])
                if n["cards_left_after_lay_offs"] <= 1:
                    return f"Go down with {melds} and go out this turn: {points(self.out_bonus)}."
                if "p_down_and_out_next_turn" in n:
                    return (f"Go down now with {melds}: {points(n['points_laid'])} leave your hand; waiting for the "
                            f"{self.out_bonus} ({chance(n['p_down_and_out_next_turn'])} next turn) is not worth "
                            f"the {chance(n['hazard'])} risk that someone goes out first.")
                return f"Go down now with {melds}."
            if g.action["type"] == "wait":
                disc = f"; discard the {self.discards[0].numbers['card']}" if self.discards else ""
                return (f"Wait to go down: {chance(n['p_down_and_out_next_turn'])} that you go down and out next "
                        f"turn for {points(self.out_bonus)}, against {chance(n['hazard'])} that someone goes out "
                        f"first while you hold {points(n['points_laid'])}{disc}.")
        if rec.get("type") == "lay_off":
            i = rec["meld"]
            cards = " ".join(self.table[i]["cards"]) if i < len(self.table) else "?"
            return f"Lay off the {rec['card']} on meld {i + 1} ({cards}): one card fewer to shed."
        if self.discards:
            d = self.discards[0].numbers
            if d.get("goes_out"):
                return (f"Discard the {d['card']} and go out: you score {points(d['out_score'])}, the others pay "
                        f"the cards they hold.")
            return f"Discard the {d['card']}: " + self._discard_words(d) + "."
        return "Your turn: play and discard."

    def _discard_words(self, d: dict) -> str:
        if d.get("goes_out"):
            return f"your last card: the hand ends and you score {points(d['out_score'])}"
        down = self.down[self.observer] if self.down else False
        if down:
            first = "it fits no meld"
        elif d["deficiency_after"] == 0:
            first = "your contract stays complete"
        else:
            first = f"you stay {_short(d['deficiency_after'])}"
        parts = [first]
        parts.append(f"it sheds {points(d['points'])}")
        if d["p_taken"] is not None:
            parts.append(f"{chance(d['p_taken'])} that another player takes it")
        return ", ".join(parts[:2]) + ("; " + parts[2] if len(parts) > 2 else "")

    def _threats(self, floor: float = WATCH) -> list[tuple[int, str, float, float | None]]:
        """The opponents to watch: those that may go out (or down) by the end of their next turn
        with a chance of ``floor`` or more (default :data:`~cardmind.hints.words.WATCH`), most
        likely first: ``(seat, "go out" | "go down", chance, standard error or None when exact)``."""
        out = []
        for s, v in self.opponents.items():
            if v["p_go_out"] > 0 and v["p_go_out"] >= floor:
                out.append((s, "go out", v["p_go_out"], None if v["exact"] else v["stderr_out"]))
            elif not v["down"] and v["p_go_down"] > 0 and v["p_go_down"] >= floor:
                out.append((s, "go down", v["p_go_down"], None if v["exact"] else v["stderr_down"]))
        out.sort(key=lambda x: (x[1] != "go out", -x[2]))
        return out

    def _when(self, seat: int) -> str:
        """``"this turn"`` for the seat playing now, else ``"by the end of its next turn"``."""
        return "this turn" if (seat == self.turn and self.phase == "play") else "by the end of its next turn"

    def _calm(self) -> str:
        """Words for no opponent to watch (every chance to go down or out under ``WATCH``)."""
        return f"no opponent is likely to go down or out by the end of its next turn (under {chance(WATCH)} each)"

    def _watch_sentence(self) -> str:
        who = f"Seat {self.to_move}" if self.to_move is not None else "Nobody"
        if self.phase == "offer":
            what = f"decides on the {self.top}"
        elif self.phase == "draw":
            what = "draws from the stock"
        else:
            what = "is playing"
        threats = self._threats()
        if threats:
            s, verb, p, _ = threats[0]
            watch = f"watch seat {s}: {chance(p)} that it can {verb} {self._when(s)}"
        else:
            watch = self._calm()
        return f"{who} {what}; {watch}."

    # ------------------------------------------------------------------ options
    def options(self, discards: bool = True) -> list[str]:
        """Each option of the decision now with its chance and its cost or gain (points), best
        first (``discards``: list the discards too); when the player does not decide now, the
        opponents to watch."""
        out: list[str] = []
        if self.offer is not None:
            n = self.offer.numbers
            card = n["card"]
            on_turn = self.turn == self.observer
            if "fits_a_meld" in n:
                verb = "Take" if on_turn else "Steal"
                out.append(f"{verb} the {card}: " + ("lay it off" if n["fits_a_meld"] else "it fits no meld")
                           + (f"; the penalty card costs about {points(n['penalty_cost'])}" if "penalty_cost" in n
                              else ""))
                out.append("Pass: " + ("draw from the stock" if on_turn else "keep your hand as it is"))
            else:
                live = n["live_outs_now"]
                p = n["p_stock_draw_helps"]
                draw = (f"a stock draw helps {chance(p)} of the time (about {live:.0f} useful cards among the "
                        f"{self.stock} in the stock)")
                still = "still " if n["deficiency_with"] >= n["deficiency_now"] > 0 else ""
                if on_turn:
                    out.append(f"Take the {card}: {still}{_short(n['deficiency_with'])} afterwards")
                    out.append(f"Draw from the stock: helps {chance(p)} of the time (about {live:.0f} useful cards "
                               f"among the {self.stock} in the stock)")
                else:
                    steal = f"Steal the {card}: {still}{_short(n['deficiency_with'])} afterwards"
                    if "gain" in n:
                        steal += (f"; you go down {_sooner(n['rounds_saved'])}, worth about "
                                  f"{points(n['gain'])}; the penalty card costs about {points(n['penalty_cost'])}")
                    out.append(steal)
                    out.append(f"Pass: {_short(n['deficiency_now'])}; on your turn {draw}")
            if self.offer.action["type"] == "pass":
                out.reverse()
            return out
        if self.phase == "play" and self.your_turn:
            g = self.go_down
            if g is not None:
                n = g.numbers
                left = n["cards_left_after_lay_offs"]
                now = (f"Go down now: {points(n['points_laid'])} leave your hand, {left} card{'s' if left != 1 else ''} "
                       f"left after lay-offs")
                if n["cards_left_after_lay_offs"] <= 1:
                    now += f": out this turn, {points(self.out_bonus)}"
                out.append(now)
                if "p_down_and_out_next_turn" in n:
                    wait = (f"Wait: {chance(n['p_down_and_out_next_turn'])} to go down and out next turn "
                            f"({points(self.out_bonus)}); {chance(n['hazard'])} that someone goes out first")
                    if g.action["type"] == "wait":
                        out.insert(0, wait)
                    else:
                        out.append(wait)
            if g is not None:
                return out            # the discards come after going down (or waiting): the table lists them
            if self.lay_off is not None and (self.recommend or {}).get("type") != "lay_off":
                i = self.lay_off["meld"]
                cards = " ".join(self.table[i]["cards"]) if i < len(self.table) else "?"
                out.append(f"Lay off the {self.lay_off['card']} on meld {i + 1} ({cards})")
            advised = (self.recommend or {}).get("type") == "discard"
            for k, d in enumerate(self.discards if discards else []):
                if advised and k == 0:
                    continue          # the headline says it
                n = d.numbers
                out.append(f"{'Or discard' if advised else 'Discard'} the {n['card']}: " + self._discard_words(n))
            return out
        for s, verb, p, _ in self._threats():
            out.append(f"Seat {s}: {chance(p)} that it can {verb} {self._when(s)}")
        return out

    # ------------------------------------------------------------------ printing
    def _status(self) -> str:
        if self.phase == "over":
            turn = "the game is over"
        elif self.phase in ("hand_end", "deal") or self.must == "hand_end":
            turn = f"hand {self.hand_no} is over"
        elif self.your_turn:
            turn = "your decision"
        else:
            turn = f"seat {self.to_move} to decide"
        held = ", ".join(f"seat {s}: {n}" for s, n in enumerate(self.sizes))
        return (f"Contract rummy, hand {self.hand_no} ({self.contract}), seat {self.observer}'s view after "
                f"{self.events} events: {turn}. Stock {self.stock} cards; cards held: {held}.")

    def render(self, console: Console, record: Any = None, show_table: bool = True, tables_only: bool = False,
               verbose: bool = False) -> None:
        """Print for people (``cardmind hint``; ``cardmind belief`` prints the tables only):
        the headline, each option with its chance and points, the discards, the opponents'
        chances and the cards the player needs; ``verbose`` adds every number behind them and
        the table of every unseen card (which ``tables_only`` also prints)."""
        console.print(Text(self._status(), style="bold"))
        console.print(f"Your cards: {' '.join(self.hand) or '-'}; top discard: {self.top or '-'}"
                      + (f"; {_short(self.missing)} ({self.contract})" if self.missing is not None
                         and not (self.down and self.down[self.observer]) else ""))
        console.print(self.models_sentence())
        if verbose:
            console.print(f"Player model: {self.model}"
                          + ("" if self.exact else " (card chances weighted by it over sampled worlds)"))
            console.print(f"Consistent histories of this hand: {self.consistent_deals:.3e}"
                          if self.consistent_deals > 10**12
                          else f"Consistent histories of this hand: {self.consistent_deals:,}")
        if verbose:     # in the default text the headline says what they say
            for note in self.notes:
                console.print(Text(f"Note: {note}", style="yellow"))
        if not tables_only:
            console.print()
            console.print(Text(self.headline(), style="bold green"))
            for line in self.options(discards=not self.discards):   # the discards have their table
                console.print(f"  {line}")
            if verbose:
                self._render_numbers(console)
            if self.discards and (verbose or not self.discards[0].numbers.get("goes_out")):
                self._render_discards(console, verbose)
        ended = self.phase in ("hand_end", "deal", "over") or self.must == "hand_end"
        if (show_table or tables_only) and not (ended and not verbose):
            console.print()
            self._render_opponents(console, verbose)
            if self.table:
                console.print("Melds on the table (numbered as lay-offs name them): " + "; ".join(
                    f"{i + 1}. seat {m['owner']} {m['kind']} {' '.join(m['cards'])}" for i, m in enumerate(self.table)))
            if verbose or tables_only:
                self._render_unseen(console, list(self.holdings), "Unseen cards: chance of at least one more copy "
                                                                  "(expected copies)", verbose)
            elif self.needed and self.holdings:
                self._render_unseen(console, [c for c in self.needed if c in self.holdings],
                                    "Cards that would bring your contract closer: chance that a copy is in the stock "
                                    "or in each hand (beyond the cards it is known to hold)", verbose)

    def _render_numbers(self, console: Console) -> None:
        """Every number behind the advice, as the advisor names them (``verbose``)."""
        if self.recommend is not None:
            console.print(Text(f"Advice: {_describe(self.recommend)}", style="bold"))
        if self.offer is not None:
            o = self.offer
            console.print(f"The discard {o.numbers.get('card')}: {o.action['type']} ({o.reason})")
            nums = ", ".join(f"{k} {v}" for k, v in o.numbers.items() if k != "card")
            console.print(Text(f"  {nums}", style="dim"))
        if self.go_down is not None:
            g = self.go_down
            what = "wait" if g.action["type"] == "wait" else "go down"
            console.print(f"Going down: {what} ({g.reason})")
            console.print(Text("  " + ", ".join(f"{k} {v}" for k, v in g.numbers.items()), style="dim"))
        if self.lay_off is not None:
            lo = self.lay_off
            console.print(f"Lay off: {lo['card']} on meld {lo['meld'] + 1} (index {lo['meld']}, {lo['at']})")
        if self.hazard is not None:
            se = f" ± {self.hazard_stderr}, sampled" if self.hazard_stderr else ""
            console.print(Text(f"  hazard {self.hazard}{se} (the chance another player goes out before your next turn)",
                               style="dim"))
        if self.ess is not None:
            console.print(Text(f"  the player models weigh {self.samples} sampled worlds (effective sample "
                               f"size {self.ess:.0f})", style="dim"))

    def _render_discards(self, console: Console, verbose: bool) -> None:
        down = self.down[self.observer] if self.down else False
        sampled = (f", sampled over {self.wanted_samples} deals of their hands"
                   + (" ± standard error" if verbose else "")) if self.wanted_samples else ""
        console.print("Discards, best first (short: cards your contract still lacks after it; taken: the chance "
                      f"another player takes or steals it{sampled}, and who most):")
        t = Table()
        t.add_column("#", justify="right")
        t.add_column("card")
        t.add_column("points", justify="right")
        if not down:
            t.add_column("short", justify="right")
            t.add_column("useful cards in stock" if not verbose else "live outs", justify="right")
        t.add_column("taken", justify="right")
        if verbose:
            t.add_column("value", justify="right")
        for i, d in enumerate(self.discards, 1):
            n = d.numbers
            taken = "-"
            if n["p_taken"] is not None and n["taken_by"]:
                s, p = max(n["taken_by"].items(), key=lambda kv: kv[1])
                se = n.get("p_taken_stderr") if verbose else None
                taken = f"{chance(n['p_taken'], se)} (seat {s} {chance(p)})"
            row = [str(i), n["card"], str(n["points"])]
            if not down:
                row += [str(n["deficiency_after"]),
                        f"{n['live_outs_after']:.2f}" if verbose else f"{n['live_outs_after']:.0f}"]
            row.append(taken)
            if verbose:
                row.append(f"{d.value:.1f}")
            t.add_row(*row)
        console.print(t)
        if verbose:
            console.print(f"Why {self.discards[0].numbers['card']}: {self.discards[0].reason}")

    def _render_opponents(self, console: Console, verbose: bool) -> None:
        sampled = [v["samples"] for v in self.opponents.values() if not v["exact"] and v["samples"]]
        title = "Opponents: chance to go down / go out by the end of their next turn"
        if sampled:
            title += f" (sampled: {max(sampled)} deals of the unseen cards" + (", ± standard error)" if verbose else ")")
        console.print(title + ":")
        t = Table()
        t.add_column("seat", justify="right")
        t.add_column("cards", justify="right")
        t.add_column("down")
        t.add_column("go down", justify="right")
        t.add_column("go out", justify="right")
        t.add_column("cards it took")
        for s, v in self.opponents.items():
            t.add_row(str(s), str(self.sizes[s]), "yes" if v["down"] else "no",
                      "-" if v["down"] else _chance(v["p_go_down"], v["stderr_down"], v, verbose),
                      _chance(v["p_go_out"], v["stderr_out"], v, verbose),
                      " ".join(self.known.get(s, [])) or "-")
        console.print(t)

    def _render_unseen(self, console: Console, cards: list[str], title: str, verbose: bool) -> None:
        if not cards:
            return
        if not self.exact:
            title += (f" (sampled: {self.samples} deals weighed by the player models"
                      + (", ± standard error)" if verbose else ")"))
        console.print(title + ":")
        t = Table()
        t.add_column("card")
        places = list(next(iter(self.holdings.values())).keys())
        for p in places:
            t.add_column(p if p == "stock" else f"seat {p}", justify="right")
        for c in cards:
            v = self.holdings[c]
            t.add_row(c, *[f"{chance(v[p]['p_any'], v[p].get('stderr') if verbose else None)} "
                           f"({v[p]['expected']:.2f})" for p in places])
        console.print(t)

    def render_live(self, console: Console, options: int = 3) -> None:
        """The headline and at most ``options`` options (the live advisor, after every event)."""
        console.print(Text(self.headline(), style="bold green"))
        for line in self.options()[:max(0, options)]:
            console.print(f"  {line}")
        n = max(self.wanted_samples or 0, 0 if self.exact else self.samples)
        if n:   # issue 24: a sampled answer says so, also in the live lines
            console.print(Text(f"  (chances sampled over {n} deals of the unseen cards: 'why' gives their "
                               "standard errors)", style="dim"))

    def render_why(self, console: Console) -> None:
        """The reasoning behind the advice, in words, with its numbers."""
        console.print(Text(self.headline(), style="bold green"))
        for line in self.why():
            console.print(f"- {line}")

    def render_tables(self, console: Console) -> None:
        """The opponents' chances, the melds and every unseen card (the advisor's ``table``)."""
        self.render(console, None, show_table=True, tables_only=True)

    def why(self) -> list[str]:
        """The reasoning, one sentence per line (what :meth:`render_why` prints)."""
        out: list[str] = []
        down = self.down[self.observer] if self.down else False
        if self.missing is not None and not down and self.phase in ("offer", "draw", "play"):
            line = (f"Your hand holds your contract ({self.contract})" if self.missing == 0
                    else f"Your hand is {_short(self.missing)} ({self.contract})")
            if self.live_outs is not None and self.missing > 0:
                p = self.p_draw
                line += (f"; about {self.live_outs:.1f} of the {self.stock} cards in the stock would bring it closer, "
                         f"so a stock draw helps {chance(p)} of the time")
            out.append(line + ".")
        if self.hazard is not None:
            out.append(f"The chance that another player goes out before your next turn is {chance(self.hazard)} "
                       f"(from each opponent's chance to go out by the end of its next turn); the cards you hold "
                       f"then count against you.")
        for opt in (self.offer, self.go_down):
            if opt is not None:
                out.append(f"{opt.reason[0].upper()}{opt.reason[1:]}: "
                           + ", ".join(f"{_plain(k)} {v}" for k, v in opt.numbers.items() if k != "card") + ".")
                if opt is self.offer and "penalty_cost" in opt.numbers and "gain" in opt.numbers:
                    n = opt.numbers
                    out.append(f"A steal is priced by the race to go out: passing, you go down in about "
                               f"{n['turns_to_contract_pass']:.0f} turns, stealing in about "
                               f"{n['turns_to_contract_steal']:.0f}; each round someone else goes out first with "
                               f"{chance(n['race_hazard'])} and you pay what you hold (about "
                               f"{points(n['points_at_risk'])} now); going down and out in one turn scores "
                               f"{points(self.out_bonus)}, and the stolen and penalty cards are extra cards to "
                               f"lay off after going down ({chance(n['lay_off_rate'])} a turn). Expected points: "
                               f"about {n['expected_points_pass']:.0f} passing, {n['expected_points_steal']:.0f} "
                               f"stealing.")
        if self.discards and self.go_down is None and self.discards[0].numbers.get("goes_out"):
            d = self.discards[0]
            out.append(f"Discard the {d.numbers['card']}: {self._discard_words(d.numbers)}; nobody is offered the "
                       f"last card.")
        elif self.discards and self.go_down is None:
            d = self.discards[0]
            out.append(f"Discard the {d.numbers['card']}: {self._discard_words(d.numbers)}; it is ranked first by "
                       f"the cards your contract lacks after it, then the useful cards left in the stock, the "
                       f"points it sheds (weighed by the chance someone goes out) and the chance another player "
                       f"takes it.")
        for s, verb, p, se in self._threats(floor=0.0):
            out.append(f"Seat {s} can {verb} {self._when(s)}: {chance(p, se)}"
                       + (" (sampled)" if se is not None else " (exact)") + ".")
        if self.phase in ("hand_end", "deal", "over"):
            return out
        if self.exact:
            out.append(f"The chances count every history of the hand that fits what you saw "
                       f"({big_number(self.consistent_deals)}), each equally likely.")
        else:
            out.append(self.models_sentence()[:-1]
                       + (f" (effective sample size {self.ess:.0f})" if self.ess is not None else "") + ".")
        return out


_PLAIN = {"deficiency_now": "cards short now", "deficiency_with": "cards short with it",
          "live_outs_now": "useful cards in the stock now", "live_outs_with": "useful cards in the stock with it",
          "p_stock_draw_helps": "chance a stock draw helps", "hazard": "chance someone goes out first",
          "rounds_saved": "turns saved", "points_at_risk": "points in your hand", "gain": "worth (points)",
          "race_hazard": "chance a round that someone goes out first",
          "turns_to_contract_pass": "turns to your contract passing",
          "turns_to_contract_steal": "turns to your contract stealing",
          "lay_off_rate": "chance a turn to lay off a card once down",
          "expected_points_pass": "expected points passing", "expected_points_steal": "expected points stealing",
          "penalty_cost": "penalty card's cost (points)", "fits_a_meld": "fits a meld",
          "cards_left_after_lay_offs": "cards left after lay-offs", "points_laid": "points laid",
          "points_left": "points left", "p_down_and_out_next_turn": "chance to go down and out next turn",
          "wait_gain": "waiting gains (points)", "wait_cost": "waiting risks (points)"}


def _plain(key: str) -> str:
    return _PLAIN.get(key, key.replace("_", " "))


def _chance(p: float, se: float, v: dict, verbose: bool = False) -> str:
    """A chance for the opponents' table: exact, or sampled (with its standard error in
    ``verbose``; none seen in ``n`` samples: under the 95% bound ``3 / n``, the rule of three)."""
    if v["exact"] or not v["samples"]:
        return chance(p)
    n = v["samples"]
    if p == 0:
        return f"under {round(300 / n)}%"
    if p == 1:
        return f"over {100 - round(300 / n)}%"
    return chance(p, se if verbose else None)


def _describe(action: dict) -> str:
    t = action["type"]
    if t == "go_down":
        return "go down with " + " | ".join(" ".join(m["cards"]) for m in action["melds"])
    if t == "lay_off":
        return f"lay off {action['card']} on meld {action['meld'] + 1} (index {action['meld']}, {action['at']})"
    if t == "discard":
        return f"discard {action['card']}"
    return {"take": "take the discard", "steal": "steal the discard", "pass": "pass"}.get(t, t)


__all__ = ["CariocaHint"]
