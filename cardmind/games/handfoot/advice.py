"""What a Hand and Foot player is told, and how it is shown: :class:`HandFootHint`.

:class:`HandFootHint` holds the answers to the questions of the moment, each with the expected
swing of the team's score where it is a choice: take the pile or draw; open now or wait (the
points needed and the chance of opening next turn); which cards to meld and where the wild cards
go; ask to go out or not; as the partner, answer yes or no; which discard is safe (the chance
the next player, an opponent, could take the pile with it). It adds every other player's chances
within its next turn (open, reach the foot, go out) and the chance that the partner's foot holds
a red three. :meth:`HandFootHint.to_json` is the documented JSON form (``docs/handfoot.md``,
"Advice"); :class:`HandFootHint` is an :class:`~cardmind.hints.words.Advice`: it says what to do
in one sentence (:meth:`~HandFootHint.headline`) and prints itself in a card player's words,
every chance in percent and marked sampled, every number behind it under ``verbose``. The engine
that computes it is :func:`~cardmind.games.handfoot.hints.handfoot_hint`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from math import sqrt
from typing import Any

from rich.console import Console
from rich.table import Table

from ...hints.words import WATCH, Advice, article, chance, count, points
from .counting import KINDS
from .rules import is_red_three, is_wild

#: the rank names a card player says ("your jacks")
_RANK_PLURAL = {"4": "fours", "5": "fives", "6": "sixes", "7": "sevens", "8": "eights", "9": "nines", "T": "tens",
                "J": "jacks", "Q": "queens", "K": "kings", "A": "aces"}
#: the kinds of cards in the tables' columns, as a player names them
_KIND_WORDS = {"W": "wild", "R3": "red 3", "B3": "black 3"}


def _and(items: list[str]) -> str:
    """``"a, b and c"``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _signed(x: float) -> str:
    """Points with a sign (``"+250 points"``, ``"-40 points"``; ``"0 points"``)."""
    return points(x, signed=round(x) != 0)


@dataclass
class HandFootHint(Advice):
    """Advice for one Hand and Foot player at one moment (see the module docstring).

    Attributes:
        observer, hand, to_move, phase: who, which hand, who acts now, its phase.
        minimum: the hand's opening minimum; ``opened``: whether the observer's team opened.
        draw: the draw choice (``None`` unless the observer is to draw): options with their
            points laid this turn and swing.
        opening: the opening question (``None`` once the team opened).
        melds: the plays advised now, in order: ``[{"meld": index or "new", "cards": the natural
            cards, "wilds": the wild cards (each card listed once), "points": the points laid,
            "action": the ``meld`` or ``lay_off`` action object}]``.
        go_out: the going-out question (``None`` unless the observer could go out).
        answer: the partner's answer (``None`` unless the observer must answer).
        discards: per card the observer could discard: its danger (chance the next opponent
            could take the pile), points and whether it is the recommended one.
        chances: per other seat its chances within its next turn.
        partner_red_three: chance the partner's unpicked foot holds a red three.
        kinds: per hidden place the expected number of cards of each kind.
        recommend: the one action advised now, as the engine's ``apply`` takes it (the first
            of the melds advised, else the discard, ask or answer; the draw or pickup), or
            ``None`` when the observer does not act now.
        notes: remarks; ``worlds``: how many worlds the chances were computed over;
        ``mode``: the tracker's engine.
        your_cards, in_foot: the observer's cards now and whether they are its foot.
        table: facts of the table the words need (not in the JSON): the seat on turn, the
            partner, the pile, the team's melds, the ask to go out, the totals...
    """

    observer: int
    hand: int
    to_move: int | None
    phase: str
    minimum: int
    opened: bool
    draw: dict | None
    opening: dict | None
    melds: list[dict]
    go_out: dict | None
    answer: dict | None
    discards: list[dict]
    chances: dict[int, dict[str, float]]
    partner_red_three: float | None
    kinds: dict[str, dict[str, float]]
    worlds: int
    mode: str
    model: str
    notes: list[str] = field(default_factory=list)
    #: the observer's cards now (its hand, or its foot once picked up), sorted
    your_cards: list[str] = field(default_factory=list)
    #: whether the observer plays from its foot
    in_foot: bool = False
    #: the move to the foot advised (``None``: none): ``{"now": the hand is used up by melds and the
    #: foot played this turn, "discard": else the card whose discard brings the foot, "points"}``
    to_foot: dict | None = None
    #: per other seat the model weighing it (``"uniform"`` or ``"fitted"``; ``auto`` chooses per seat)
    seat_models: dict[int, str] = field(default_factory=dict)
    #: the effective sample size of the weighted worlds (``None``: unweighted)
    ess: float | None = None
    #: per other seat the policy its next turn is played by in every world for :attr:`chances`
    #: (``"random"``, or ``"mixed"``: ``peer`` and ``belief`` alternately;
    #: :meth:`~.belief.HandFootBelief.rollout_policies`)
    policies: dict[int, str] = field(default_factory=dict)
    #: the standard errors of ``kinds`` (``None``: exact, the token marginals of the exact engine)
    kinds_se: dict[str, dict[str, float]] | None = None
    #: the action advised now (see the class docstring)
    recommend: dict | None = None
    #: facts of the table for the words (not in the JSON)
    table: dict[str, Any] = field(default_factory=dict, repr=False)
    #: the exact number of consistent deals, computed when asked (``None``: sampled)
    count_of: Callable[[], int | None] | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The advice as one JSON object (keys as the attributes, seats as string keys), with
        ``headline`` and ``consistent_deals`` (the exact count of consistent deals of the
        hand under way when the exact engine answers, else null)."""
        return {"game": "handfoot", "observer": self.observer, "hand": self.hand, "to_move": self.to_move,
                "phase": self.phase, "minimum": self.minimum, "opened": self.opened, "draw": self.draw,
                "opening": self.opening, "melds": self.melds, "go_out": self.go_out, "answer": self.answer,
                "discards": self.discards,
                "chances": {str(k): v for k, v in self.chances.items()},
                "partner_red_three": self.partner_red_three, "kinds": self.kinds, "kinds_exact": self.kinds_se is None,
                "kinds_se": self.kinds_se, "worlds": self.worlds, "standard_errors": self.standard_errors(),
                "mode": self.mode, "model": self.model,
                "seat_models": {str(k): v for k, v in sorted(self.seat_models.items())}, "ess": self.ess,
                "next_turn_policy": {str(k): v for k, v in sorted(self.policies.items())},
                "notes": list(self.notes),
                "your_cards": list(self.your_cards), "in_foot": self.in_foot, "to_foot": self.to_foot,
                "headline": self.headline(), "recommend": self.recommend,
                "consistent_deals": self.count_of() if self.count_of is not None else None}

    # ------------------------------------------------------------------ chances in words
    def se(self, p: float) -> float | None:
        """The standard error of a chance estimated over the sampled worlds (binomial, the
        worlds taken as independent; over their effective number when a player model weighs
        them), or ``None`` without worlds."""
        if not self.worlds:
            return None
        n = min(self.worlds, self.ess) if self.ess else self.worlds
        return sqrt(max(p * (1 - p), 0.0) / n)

    def standard_errors(self) -> dict[str, Any]:
        """The standard error of every sampled chance of :meth:`to_json` (binomial over the
        ``worlds`` sampled deals, :meth:`se`), keyed as the chances: ``chances`` (per seat
        ``open``, ``foot``, ``out``), ``discards`` (per card its ``danger``), ``opening``
        (``chance_next_turn``), ``go_out`` and ``answer`` (``risk``), ``partner_red_three``."""
        out: dict[str, Any] = {"chances": {str(s): {k: self.se(c[k]) for k in ("open", "foot", "out")}
                                           for s, c in self.chances.items()},
                               "discards": {d["card"]: self.se(d["danger"]) for d in self.discards}}
        if self.opening:
            out["opening"] = {"chance_next_turn": self.se(self.opening["chance_next_turn"])}
        for key in ("go_out", "answer"):
            g = getattr(self, key)
            if g:
                out[key] = {"risk": self.se(g["risk"])}
        if self.partner_red_three is not None:
            out["partner_red_three"] = self.se(self.partner_red_three)
        return out

    def _ch(self, p: float, verbose: bool = False) -> str:
        """A sampled chance in percent (with its standard error when ``verbose``)."""
        return chance(p, self.se(p) if verbose else None)

    def _sampled(self, long: bool = False) -> str:
        weighed = (f", worth about {max(1, round(self.ess))} after weighing them by the players' choices"
                   if self.ess else "")
        if long:
            return f"sampled over {self.worlds} deals that fit what you have seen{weighed}"
        return f"sampled over {self.worlds} deals{weighed}"

    # ------------------------------------------------------------------ what to do
    def _meld_words(self, m: dict) -> str:
        cards = " ".join(meld_cards(m))
        if m["meld"] == "new":
            return f"meld {cards}"
        ranks = self.table.get("meld_ranks", [])
        i = m["meld"]
        if isinstance(i, int) and i < len(ranks):
            rank, book = ranks[i]
            return f"lay {cards} on your " + (f"book of {_RANK_PLURAL[rank]}" if book else _RANK_PLURAL[rank])
        return f"lay {cards} on meld {i}"

    def _lay_words(self) -> list[str]:
        """The melds advised, as a player says them: ``["lay JD on your jacks and 7S on your
        sevens", "meld 9C 9D 2H"]``."""
        ons = [self._meld_words(m).removeprefix("lay ") for m in self.melds if m["meld"] != "new"]
        news = [" ".join(meld_cards(m)) for m in self.melds if m["meld"] == "new"]
        out = []
        if ons:
            out.append("lay " + _and(ons))
        if news:
            out.append("meld " + _and(news))
        return out

    def _recommended(self) -> dict | None:
        return next((d for d in self.discards if d["recommended"]), None)

    def _discard_reason(self, d: dict) -> str:
        t = self.table
        if self.to_foot and self.to_foot.get("discard") == d["card"] and d["recommended"]:
            return "your last card: its discard brings your foot"
        if d["danger"] > 0:
            return f"a {chance(d['danger'])} chance the next player can pick up the pile with it"
        if t.get("next_is_partner"):
            return "your partner plays next"
        if is_red_three(d["card"]):
            return "a red three counts 500 against you while you hold it"
        if is_wild(d["card"]):
            return "a wild card on top blocks the pile"
        if d["card"][0] == "3":
            return "a three on top blocks the pile"
        if t.get("pile", 0) + 1 < t.get("pile_min", 0):
            return "the pile stays too small to pick up"
        return "the next player holds no pair of it in any sampled deal"

    def _keep_words(self, d: dict) -> str:
        c = d["card"]
        k = d["keep"]
        if self.to_foot and self.to_foot.get("discard") == c and d["recommended"]:
            return "your last card: its discard brings your foot"
        if k >= 1000:
            return "a wild card: keep it for your melds"
        if k <= -1000:
            return "a red three: 500 points against you if still held"
        rank = _RANK_PLURAL.get(c[0])
        if k >= 100:
            return f"your team has a meld of {rank}: lay it off instead" if rank else ""
        if k >= 1 and rank:
            return f"you hold {int(k) + 1} {rank}"
        return "a single card" if rank else "a black three: it cannot be melded"

    def headline(self) -> str:
        """What to do now and why, in one sentence (see :meth:`Advice.headline`)."""
        t = self.table
        me = self.observer
        if self.phase == "over":
            tot = t.get("totals")
            if not tot:
                return "The game is over."
            mine = tot[t.get("team", 0)]
            others = [x for i, x in enumerate(tot) if i != t.get("team", 0)]
            word = "wins" if mine > max(others) else ("ties for first" if mine == max(others) else "loses")
            return f"The game is over: your team {word}, {mine} to {' and '.join(map(str, others))}."
        forced = t.get("forced")
        if forced == "hand_end":
            return (f"Hand {self.hand} is over ({t.get('how', '')}): type the cards the others still hold, or the "
                    f"teams' scores.")
        if forced == "deal":
            return f"{self._hand_result()}: type your new hand for hand {self.hand + 1}."
        if forced == "foot" and t.get("forced_player") == me:
            return "Your hand is used up: pick up your foot and type its cards."
        if forced:
            return "The rules fill in the next event."
        if self.to_move == me and self.draw:
            return self._draw_headline()
        if self.to_move == me and self.answer:
            a = self.answer
            word = "Say yes" if a["advice"] == "yes" else "Say no"
            return (f"{word}: going out now is worth about {_signed(a['now'])} to your team, against about "
                    f"{_signed(a['later'])} if seat {t.get('turn')} plays on (an opponent goes out first: "
                    f"{chance(a['risk'])}, sampled).")
        if self.to_move == me and self.phase == "play":
            return self._play_headline()
        return self._watch_headline()

    def _draw_headline(self) -> str:
        d = self.draw
        t = self.table
        opts = d["options"]
        draw = opts[0]
        best = max(opts, key=lambda o: o["swing"])
        if best is not draw:
            pair = best["action"].removeprefix("take the pile with ")
            text = (f"Pick up the pile with your {pair}: you could lay about {points(best['points'])} this turn "
                    f"against about {points(draw['points'])} after a draw, worth about {_signed(best['swing'])} to "
                    f"your team (the points laid count for it instead of against it, so twice the difference)")
            r3 = best.get("red_threes")
            if r3:
                text += (f"; it holds {r3} red three{'s' if r3 > 1 else ''}, 500 points against you each until "
                         f"discarded (the hand ends first in {chance(best.get('hand_ends', 0.0))} of the sampled "
                         f"deals: about {points(best.get('red_three_cost', 0.0))} counted)")
            return text + "."
        if len(opts) > 1:
            other = max(opts[1:], key=lambda o: o["swing"])
            why = (f"its {other['red_threes']} red three{'s' if other['red_threes'] > 1 else ''} could cost 500 "
                   f"points each" if other.get("red_threes") and other["points"] >= draw["points"] else
                   f"it would let you lay about {points(other['points'])}, a draw about {points(draw['points'])}")
            return f"Draw rather than pick up the pile: {why}."
        top = t.get("top")
        if top is None:
            why = "the discard pile is empty"
        elif t.get("pile", 0) < t.get("pile_min", 0):
            why = f"the pile holds {count(t['pile'], 'card')} and can be picked up from {t['pile_min']}"
        elif not t.get("top_natural"):
            why = f"its top card {top} cannot be picked up"
        else:
            why = f"you hold no pair to pick up the pile (its top card is {top})"
        return f"Draw two cards from the stock: {why}."

    def _play_headline(self) -> str:
        t = self.table
        rec = self._recommended()
        lay = self._lay_words()
        if self.opening and not self.opening["can_open_now"]:
            o = self.opening
            text = (f"Wait to open: you can lay {points(o['can_lay'])} of the {o['needed']} needed (a "
                    f"{chance(o['chance_next_turn'])} chance to open next turn, sampled)")
            if rec:
                text += f"; discard the {rec['card']} ({self._discard_reason(rec)})"
            return text + "."
        if self.go_out and t.get("permission") is not False:
            g = self.go_out
            if t.get("permission") is True:
                if g["swing"] >= 0:
                    how = "; ".join(lay)
                    if t.get("out_discard"):
                        how = f"{how}, then discard the {t['out_discard']}" if how else f"discard the {t['out_discard']}"
                    return (f"Go out now ({how}): about {_signed(g['now'])} for your team with the 300 for going "
                            f"out, against {_signed(g['later'])} for one more round after your partner's yes.")
                return (f"Play on one more round although your partner said yes: about {_signed(g['later'])} "
                        f"for your team, the {t.get('penalty', 100)} points a broken yes costs included, against "
                        f"{_signed(g['now'])} now.")
            if not t.get("asked"):
                if g["swing"] >= 0:
                    return (f"Ask your partner to go out: going out now is worth about {_signed(g['now'])} to your "
                            f"team, one more round about {_signed(g['later'])} (an opponent goes out first: "
                            f"{chance(g['risk'])}, sampled).")
                text = (f"Do not ask to go out yet: one more round is worth about {_signed(g['later'])} to your "
                        f"team, going out now about {_signed(g['now'])}")
                if lay:
                    text += "; " + "; ".join(lay)
                if rec:
                    text += f"; then discard the {rec['card']}"
                return text + "."
        if self.to_foot and (lay or not self.to_foot["now"]):
            f = self.to_foot
            what = "; ".join(lay)
            if self.opening and lay:
                what = f"open: {what}"
            laid = f" ({points(f['points'])} laid)" if lay else ""
            if f["now"]:
                text = f"{what}: that uses up your hand{laid}, so you pick up your foot and play on from it this turn"
            else:
                text = (f"{what + ', then ' if what else ''}discard the {f['discard']}: that uses up your "
                        f"hand{laid} and your foot is yours for your next turn")
            return text[0].upper() + text[1:] + "."
        if self.opening and lay:
            lays = self.opening.get("lays")
            laid = self.opening.get("laid") or 0
            text = (f"Open: {'; '.join(lay)} ("
                    + (f"{points(lays)}; " if lays is not None else "")
                    + (f"{laid} laid this turn already; " if laid else "")
                    + f"the minimum is {self.minimum} points)")
        elif lay:
            text = "; ".join(lay)
            text = text[0].upper() + text[1:]
        else:
            text = ""
        if rec:
            d = f"discard the {rec['card']} ({self._discard_reason(rec)})"
            text = f"{text}, then {d}" if text else d[0].upper() + d[1:]
        elif not text:
            text = "Discard a card to end your turn"
        return text + "."

    def _watch_headline(self) -> str:
        t = self.table
        mover = self.to_move
        if mover is None:
            return "Nothing to decide now."
        if self.phase == "answer":
            who = f"Seat {t.get('turn')} asked to go out; seat {mover} answers"
        elif mover == t.get("partner"):
            who = f"Your partner, seat {mover}, is to play"
        else:
            who = f"Seat {mover} is to play"
        opp = {s: c for s, c in self.chances.items() if s in t.get("opponents", ())}
        if not opp:
            return who + "."
        def when(s: int) -> str:
            return "this turn" if s == mover and self.phase == "play" else "within its next turn"

        s_out, c_out = max(opp.items(), key=lambda kv: (kv[1]["out"], -kv[0]))
        if c_out["out"] >= WATCH:
            ch = chance(c_out["out"])
            return f"{who}; watch seat {s_out}: {article(ch)} {ch} chance it goes out {when(s_out)} (sampled)."
        calm = f"{who}; no opponent is likely to go out before your turn (each under {chance(WATCH)})"
        s_ft, c_ft = max(opp.items(), key=lambda kv: (kv[1]["foot"], -kv[0]))
        shut = {s: c for s, c in opp.items() if not c.get("opened")}
        s_op, c_op = max(shut.items(), key=lambda kv: (kv[1]["open"], -kv[0])) if shut else (None, {"open": 0.0})
        if c_ft["foot"] >= WATCH and (c_ft["foot"] >= 0.1 or c_op["open"] <= c_ft["foot"]):
            return f"{calm}; seat {s_ft} reaches its foot {when(s_ft)} in {chance(c_ft['foot'])} of the sampled deals."
        if c_op["open"] >= WATCH:
            return f"{calm}; seat {s_op} opens {when(s_op)} in {chance(c_op['open'])} of the sampled deals."
        return (f"{who}; no opponent is likely to go out, reach its foot or open before your turn (each under "
                f"{chance(WATCH)}).")

    def _teams_words(self, values: list[int], verb: str = "") -> str:
        """Per team points as a player says them: ``"your team 370 points, the other team 1705"``
        (``verb``: ``"scored "`` gives ``"your team scored 370 points, ..."``)."""
        t = self.table
        mine = t.get("team", 0)
        seats = t.get("team_seats") or [[i] for i in range(len(values))]
        cut = len(seats[0]) == 1
        words = [f"{'you' if cut else 'your team'} {verb}{points(values[mine])}"]
        for i, v in enumerate(values):
            if i == mine:
                continue
            if len(values) == 2 and not cut:
                name = "the other team"
            else:
                name = "seat" + ("s " if len(seats[i]) > 1 else " ") + " and ".join(map(str, seats[i]))
            words.append(f"{name} {v}")
        return ", ".join(words)

    def _hand_result(self) -> str:
        """The last hand scored, in words: ``"Hand 1 is over (seat 3 went out): your team scored
        370 points, the other team 1705"`` (with the totals after the first hand)."""
        t = self.table
        scores = t.get("scores") or []
        if not scores:
            return f"Hand {self.hand} is over"
        k = len(scores)
        text = f"Hand {k} is over ({t.get('how', '')}): {self._teams_words(scores[-1], 'scored ')}"
        if k > 1:
            text += f" (totals: {self._teams_words(t.get('totals') or [])})"
        return text

    # ------------------------------------------------------------------ the options
    def option_lines(self, verbose: bool = False, discards: bool = True) -> list[str]:
        """Each option of the moment in a line: its chance in percent and its gain or cost in
        points (``verbose``: the numbers behind them too; ``discards``: a line of the safest
        discards)."""
        out: list[str] = []
        if self.draw:
            draw_pts = self.draw["options"][0]["points"]
            for o in self.draw["options"]:
                if o["action"] == "draw":
                    line = f"draw two cards: you could lay about {points(o['points'])} this turn"
                else:
                    line = (f"pick up the pile with your {o['action'].removeprefix('take the pile with ')}: "
                            f"about {points(o['points'])} this turn, {_signed(o['swing'])} for your team against "
                            f"a draw")
                    if o.get("red_threes"):
                        line += f" (it holds {o['red_threes']} red three{'s' if o['red_threes'] > 1 else ''})"
                if verbose and o["action"] != "draw":
                    line += (f"  (you would lay {o['points']:.1f} points against {draw_pts:.1f} after a draw: twice "
                             f"the {o['more_laid']:+.1f}, less {o['red_three_cost']:.1f} for red threes, is "
                             f"{o['swing']:+.1f})")
                elif verbose:
                    line += f"  (on average {o['points']:.1f} points over the sampled draws)"
                out.append(line)
        if self.opening:
            o = self.opening
            if o["can_open_now"]:
                laid = o.get("laid") or 0
                line = (f"open now: the melds advised lay {points(o.get('lays', o['needed']))} of the {o['needed']} "
                        f"{'still ' if laid else ''}needed")
                extras = [f"{laid} laid this turn already, the minimum is {self.minimum}"] if laid else []
                if o.get("lays") is not None and o["can_lay"] > o["lays"]:
                    extras.append(f"up to {o['can_lay']} could be laid: the advice keeps the rest in your hand")
                if extras:
                    line += f" ({'; '.join(extras)})"
            else:
                line = (f"wait to open: you can lay {points(o['can_lay'])} of {o['needed']}; chance to open next "
                        f"turn {self._ch(o['chance_next_turn'], verbose)}")
            if verbose:
                line += (f"  ({o['needed']} points needed, {o['can_lay']} can be laid now, a "
                         f"{o['chance_next_turn']:.3f} chance next turn)")
            out.append(line)
        if self.melds:
            out.append("lay down: " + "; ".join(self._lay_words()))
        for key, label in (("go_out", "go out now"), ("answer", "say yes")):
            g = getattr(self, key)
            if not g:
                continue
            other = "play one more round" if key == "go_out" else "say no"
            line = (f"{label}: about {_signed(g['now'])} for your team; {other}: about {_signed(g['later'])} "
                    f"(an opponent goes out first: {self._ch(g['risk'], verbose)})")
            if verbose:
                line += (f"  (now {g['now']:+.1f} points, later {g['later']:+.1f}, a difference of {g['swing']:+.1f}; "
                         f"an opponent out first {g['risk']:.4f})")
            out.append(line)
        if discards and self.discards and not self.draw:
            cells = []
            for d in self.discards[:4]:
                cell = f"{d['card']} {self._ch(d['danger'], verbose)}"
                if verbose:
                    cell += f" ({self._keep_words(d)})"
                cells.append(cell)
            after = " after the melds" if self.melds else ""
            out.append(f"discard{after} (the chance the next player can pick up the pile with it): " + ", ".join(cells))
        return out

    # ------------------------------------------------------------------ printing
    @property
    def between(self) -> bool:
        """Whether no hand is being played: a hand is over (its end or the next deal is to be
        typed) or the game is."""
        return self.phase == "over" or self.table.get("forced") in ("hand_end", "deal")

    def result_lines(self) -> list[str]:
        """Every hand scored so far and the totals, in words (``[]`` before the first ends)."""
        t = self.table
        scores = t.get("scores") or []
        out = [f"Hand {k}: {self._teams_words(sc, 'scored ')}." for k, sc in enumerate(scores, start=1)]
        if scores:
            out.append(f"Totals: {self._teams_words(t.get('totals') or [])}.")
        return out

    def render(self, console: Console, record: Any = None, show_table: bool = True, tables_only: bool = False,
               verbose: bool = False) -> None:
        """Print the advice (``cardmind hint``; ``tables_only``: the belief table alone, for
        ``cardmind belief``): the headline, each option with its chance and points, the
        others' chances within their next turn, then the table of expected cards by kind.
        ``verbose`` adds every number behind it (the swings, the standard errors of the sampled
        chances, how the belief was reached). Between hands: the scores of every hand so far and
        the totals."""
        t = self.table
        title = f"Hand and Foot, hand {self.hand}: seat {self.observer}'s view"
        console.print(f"[bold]{title}[/bold]")
        if verbose and not self.between:
            console.print(self._how_words(numbers=True))
        if not tables_only:
            console.print(f"[bold]{self.headline()}[/bold]")
            if self.between:
                for ln in self.result_lines():
                    console.print(ln)
                return
            opened = "your team has opened" if self.opened else f"your team has not opened ({self.minimum} points needed)"
            console.print(f"{self._whose_turn()}; {opened}")
            console.print(f"Your {'foot' if self.in_foot else 'hand'} ({len(self.your_cards)} cards): "
                          + (" ".join(self.your_cards) or "no cards"))
            lines = self.option_lines(verbose, discards=False)
            if lines:
                console.print("[bold]Options:[/bold]")
                for ln in lines:
                    console.print("  " + ln)
            if self.discards and not self.draw:
                title = "Discards" + (" (after the melds advised)" if self.melds else "")
                tb = Table(title=title)
                for col in ("card", "next player picks up the pile", "points", "why", "advice"):
                    tb.add_column(col)
                for d in self.discards:
                    tb.add_row(d["card"], self._ch(d["danger"], verbose), str(d["points"]), self._keep_words(d),
                               "discard it" if d["recommended"] else "")
                console.print(tb)
            if self.chances:
                tb = Table(title=f"Within their next turn ({self._sampled()})")
                for col in ("seat", "opens", "reaches its foot", "goes out"):
                    tb.add_column(col)
                for s, c in sorted(self.chances.items()):
                    who = f"{s} (partner)" if s == t.get("partner") else str(s)
                    opens = "opened" if c.get("opened") else self._ch(c["open"], verbose)
                    tb.add_row(who, opens, *(self._ch(c[k], verbose) for k in ("foot", "out")))
                console.print(tb)
            if self.partner_red_three is not None and t.get("partner_foot"):
                console.print(f"Your partner's foot holds a red three: {self._ch(self.partner_red_three, verbose)} "
                              f"(sampled)")
            if self.chances:
                console.print(self.model_sentence())
                console.print(self.policy_sentence())
            for n in self.notes:
                console.print(f"[dim]{n}[/dim]")
        if (show_table or tables_only) and self.kinds:
            how = "exact" if self.kinds_se is None else "sampled" + (", ± a standard error" if verbose else "")
            tb = Table(title=f"Expected cards of each kind in the hidden places ({how})")
            tb.add_column("place")
            for k in KINDS:
                tb.add_column(_KIND_WORDS.get(k, k))
            for place, per in self.kinds.items():
                se = (self.kinds_se or {}).get(place, {})
                tb.add_row(place, *(f"{per.get(k, 0.0):.2f}" + (f" ± {se[k]:.2f}" if verbose and k in se else "")
                                    for k in KINDS))
            console.print(tb)

    def _model_words(self) -> str:
        """Which player model weighs the deals, for whom, in words."""
        if self.model == "uniform":
            return "every deal that fits is taken as equally likely (no model of how the others play)"
        if self.model == "fitted":
            return ("the deals are weighed by how well they explain the others' draws, melds and discards (a model "
                    "fitted on simulated games)")
        if self.model == "auto":
            per = self.seat_models or {}
            fitted = sorted(s for s, m in per.items() if m == "fitted")
            if not fitted:
                return ("every deal that fits is taken as equally likely (no other player's recent choices fit the "
                        "fitted player model better than chance)")
            who = ("seat " if len(fitted) == 1 else "seats ") + _and([str(x) for x in fitted])
            return (f"the deals are weighed by how well they explain the recent draws and discards of {who} (the "
                    f"fitted player model fits {'it' if len(fitted) == 1 else 'them'} best), the others' deals "
                    f"taken as equally likely")
        return f"the deals are weighed by the {self.model} model of how the others play"

    def model_sentence(self) -> str:
        """Whom the chances weigh how, in one sentence (the ``auto`` model's choice per seat):
        ``"Chances weigh seat 0 as a fitted player (its recent draws and discards fit that model
        best); seats 2 and 3 count every deal alike (their choices fit no model better than
        chance)."``"""
        per = self.seat_models or {}
        fitted = sorted(s for s, m in per.items() if m == "fitted")
        plain = sorted(s for s, m in per.items() if m != "fitted")

        def seats(xs: list[int]) -> str:
            return ("seat " if len(xs) == 1 else "seats ") + _and([str(x) for x in xs])

        if self.model == "uniform" or not per:
            return "Chances count every deal that fits alike (no model of how the others play)."
        if self.model == "fitted":
            return ("Chances weigh every other player as the fitted player model (how simulated players draw, meld "
                    "and discard).")
        if not fitted:
            return ("Chances count every deal that fits alike: no other player's recent choices fit the fitted player "
                    "model better than chance.")
        text = (f"Chances weigh {seats(fitted)} as {'a fitted player' if len(fitted) == 1 else 'fitted players'} "
                f"({'its' if len(fitted) == 1 else 'their'} recent draws and discards fit that model best)")
        if plain:
            text += (f"; {seats(plain)} count{'s' if len(plain) == 1 else ''} every deal alike "
                     f"({'its' if len(plain) == 1 else 'their'} choices fit no model better than chance)")
        return text + "."

    def policy_sentence(self) -> str:
        """How the chances of the table "Within their next turn" are reached, in one sentence:
        in every deal each player's next turn is played out as it would play it (its policy,
        :attr:`policies`), so they are what it will do, not only what its cards allow; under a
        player model the deals are also read for what the players did not lay and did not go
        out with (``docs/handfoot.md``, "Advice")."""
        rnd = sorted(s for s, p in self.policies.items() if p == "random")
        read = self.model != "uniform"
        text = ("In every deal each player's next turn is played out as a peer or a belief player would play it "
                "(half the deals each" + ("; a belief player where it could have gone out at its last discard and "
                                          "did not" if read else "") + ")")
        if rnd:
            text += (f", {'seat ' if len(rnd) == 1 else 'seats '}{_and([str(x) for x in rnd])} as a random player "
                     f"({'its' if len(rnd) == 1 else 'their'} choices fit random play best)")
        if read and len(rnd) < len(self.policies):
            text += ", in deals where such a player held nothing it would have laid at its last discard"
        return text + ": the chances are of what each will do, not only what its cards allow."

    def _how_words(self, numbers: bool = False) -> str:
        """How the chances were reached, in words (``numbers``: with the count of deals)."""
        if self.mode == "exact":
            count_ = self.count_of() if (numbers and self.count_of is not None) else None
            how = ("the deals that fit what you have seen are counted exactly"
                   + (f" ({count_:,} of them)" if count_ is not None else ""))
        else:
            how = "the deals that fit what you have seen are too many to count, so a sampler draws them"
        over = f"the {self.worlds} deals" if not self.ess else f"about {max(1, round(self.ess))} deals"
        return (f"How: {how}; {self._model_words()}; the chances are {self._sampled(True)}, each with its "
                f"standard error after the ± (binomial over {over}).")

    def _whose_turn(self) -> str:
        if self.to_move is None:
            return "Nobody is to play"
        if self.to_move == self.observer:
            return {"draw": "Your turn to draw", "play": "Your turn to play", "answer": "Your answer"}.get(
                self.phase, "Your turn")
        return f"Seat {self.to_move} to {'answer' if self.phase == 'answer' else self.phase}"

    def render_live(self, console: Console, options: int = 3) -> None:
        """The headline and at most ``options`` options (the live advisor, after every event);
        when another seat is to play, the chances (from 5% up) of the seats likeliest to go out or
        reach their foot; between hands, the scores."""
        console.print(self.headline())
        if self.between:
            for ln in self.result_lines()[-options:]:
                console.print("  " + ln)
            return
        if self.table.get("forced"):
            return
        lines = self.option_lines()
        if self.to_move != self.observer or not lines:
            lines = []
            ranked = sorted(self.chances.items(), key=lambda kv: (-kv[1]["out"], -kv[1]["foot"], -kv[1]["open"], kv[0]))
            for s, c in ranked:
                parts = [f"{word} {chance(c[k])}" for k, word in (("out", "goes out"), ("foot", "reaches its foot"),
                                                                  ("open", "opens"))
                         if c[k] >= WATCH and not (k == "open" and c.get("opened"))]
                if parts:
                    who = f"seat {s} (partner)" if s == self.table.get("partner") else f"seat {s}"
                    lines.append(f"{who} within its next turn: " + ", ".join(parts))
            if lines:
                lines[0] += f" ({self._sampled()})"
        for ln in lines[:options]:
            console.print("  " + ln)

    def render_why(self, console: Console) -> None:
        """How the advice was reached, in words with its numbers."""
        console.print(f"[bold]{self.headline()}[/bold]")
        if self.between:
            for ln in self.result_lines():
                console.print(ln)
            return
        console.print(self._how_words(numbers=True))
        if self.draw:
            console.print("Points laid count for your team instead of against it, so laying 10 more points is worth "
                          "20 to your team; a red three picked up costs 500 if the hand ends before you can discard "
                          "it.")
        if self.to_foot:
            console.print("Using up your hand brings your foot: its cards are then yours to lay, and a foot not "
                          "picked up counts against your team if the hand ends.")
        if self.go_out:
            console.print("Going out now scores 300 and counts your partner's cards (and unpicked foot) against "
                          "your team; one more round lets your partner lay its cards, unless an opponent goes out "
                          "first (then your team loses the 300 and holds its cards).")
        if self.answer:
            console.print("Saying yes lets your partner go out now: 300 for your team, your own cards (and unpicked "
                          "foot) against it; saying no lets you lay your cards on your next turn, unless an "
                          "opponent goes out first (then your team loses the 300 and holds its cards).")
        if self.discards and not self.draw:
            console.print("A discard is safe when the next player, an opponent, cannot pick up the pile with it "
                          "(it would need a pair of its rank, and the pile enough cards); among the safe ones the "
                          "least useful card goes: a wild card is kept, a red three goes first.")
        for ln in self.option_lines(verbose=True):
            console.print("  " + ln)


def meld_cards(m: dict) -> list[str]:
    """Every card of a play of the JSON's ``melds`` (its naturals, then its wild cards: the
    order of its action's ``cards``)."""
    return list(m["cards"]) + list(m["wilds"])


__all__ = ["HandFootHint", "meld_cards"]
