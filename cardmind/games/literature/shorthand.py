"""Literature's short notation: one typed line per event at the table (``cardmind advise``).

The forms (:data:`FORMS`, the table of ``docs/literature.md``)::

    3 asks 2 9H yes                                     an ask that got the card
    3 asks 2 9H no                                      an ask refused (the turn goes to 2)
    2 claims low-spades 2S:0 3S:2 4S:2 5S:4 6S:0 7S:4   a right claim (who the claimer named)
    2 claims low-spades 0 2 2 4 0 4                     the same, seats in the set's order
    ... wrong 5S:3                                      a wrong claim: where the cards really were
    ... next 4                                          who the team chose to play next
    3 passes to 5                                       a player without cards hands on the turn

A claim event of the record (``records.md``) also holds ``actual`` (who held each card: the
six cards are shown as they leave the game), ``correct`` and, under the default options,
``next``. The notation fills them in from what the player saw:

* ``actual`` is the assignment, except for the cards typed after ``wrong`` and the cards
  whose holder the player's view already knows (its own cards, cards handed over in asks);
  a claim the view knows to be wrong must still say ``wrong`` (so that a mistyped seat is
  not silently recorded as a wrong claim);
* ``correct`` follows from ``actual``;
* ``next`` (rules.md: the team awarded the set picks who plays next) is typed only when that
  team had a choice; when one seat only can play next it is filled in, and when the claim
  ends the game it is null. Under ``claim_any_time`` or ``after_claim: "claimant"`` a claim
  has no ``next`` (the turn stays with the player who had it).

The rules fill in a **pass** that is forced (:meth:`LiteratureShorthand.implied`): a player
on turn without cards with only one seat to hand the turn to. A pass with a choice is typed.

Sources: ``shared/seeds/literature.txt``, ``shared/spec/rules.md`` and ``records.md``
(Literature).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core import Event
from ...shorthand import Form, Shorthand, ShorthandError, cards_of, seat_of, tokens
from .rules import is_card_in_deck, set_cards, set_names, team_of
from .state import LiteratureState

_ASK_EXAMPLE = "3 asks 2 9H yes"
_CLAIM_EXAMPLE = "2 claims low-spades 2S:0 3S:2 4S:2 5S:4 6S:0 7S:4"
_PASS_EXAMPLE = "3 passes to 5"
_EXPECTED = (f"expected 'S asks T CARD yes|no', 'S claims SET CARD:S ...' or 'S passes to T', "
             f"for example '{_ASK_EXAMPLE}'")

#: every form of the notation (the table of ``docs/literature.md`` and the advisor's ``help``)
FORMS: tuple[Form, ...] = (
    Form("S asks T CARD yes", "seat S asked seat T for CARD and was handed it, so S asks again (y for short)",
         "5 asks 2 AD yes"),
    Form("S asks T CARD no", "seat T did not have CARD: the turn passes to seat T (n for short)", "0 asks 3 JS no"),
    Form("S asks T CARD", "you are seat T: your hand says whether you handed it over", "0 asks 1 JC"),
    Form("S claims SET CARD:S CARD:S CARD:S CARD:S CARD:S CARD:S",
         "seat S claimed SET, naming for each of its six cards the teammate who holds it; the claim was right",
         "4 claims low-clubs 2C:4 3C:0 4C:4 5C:4 6C:0 7C:4"),
    Form("S claims SET S S S S S S", "the same claim, the six seats named in the set's card order "
         "(low: 2 to 7; high: 9 10 J Q K A; eights: 8C 8D 8H 8S RJ BJ)", "2 claims low-diamonds 2 2 2 2 2 2"),
    Form("... wrong CARD:S ...", "ends a claim that was wrong: where each misplaced card really was "
         "(cards whose holder you already know may be left out)", "5 claims low-clubs 1 5 3 5 5 3 wrong 2C:3 4C:1"),
    Form("... next S", "ends a claim: the seat the team that picks chose to play next (only when it had a "
         "choice; otherwise the rules fill it in)", "3 claims high-spades 9S:1 TS:1 JS:3 QS:1 KS:1 AS:1 next 3"),
    Form("S passes to T", "seat S, on turn without cards, handed the turn to seat T (only when S had a "
         "choice; a forced pass is filled in)", "5 passes to 3"),
)

_YES = {"yes", "y"}
_NO = {"no", "n"}
_VERBS = {"asks": "ask", "ask": "ask", "claims": "claim", "claim": "claim", "passes": "pass", "pass": "pass"}


def _set_aliases(deck: str) -> dict[str, str]:
    """Typed set names (lower case) -> set names: ``low-spades``, ``lowspades``, ``low-s``, ``lows``."""
    out: dict[str, str] = {}
    for name in set_names(deck):
        out[name] = name
        out[name.replace("-", "")] = name
        if "-" in name:
            half, suit = name.split("-")
            out[f"{half}-{suit[0]}"] = name
            out[f"{half}{suit[0]}"] = name
    return out


def _wrong_example(cards: Sequence[str], assignment: dict[str, int] | None, claimer: int, players: int,
                   skip: str | None = None) -> str:
    """An example of the end of a wrong claim for the set of ``cards`` (the claim's own set):
    ``"wrong 5S:3"``, a card of the set (its fourth, or the next one when it is ``skip``) with a
    seat other than the one the claim named for it (``assignment``; ``None``: the claimer's)."""
    card = next(c for c in (*cards[3:], *cards[:3]) if c != skip)
    named = claimer if assignment is None else assignment[card]
    return f"wrong {card}:{(named + 1) % players}"


class LiteratureShorthand(Shorthand):
    """The short notation of Literature (see the module docstring for the forms and what the
    rules fill in). The methods take the player's view (a
    :class:`~cardmind.games.literature.state.LiteratureState` with an ``observer``) and never
    change it."""

    forms = FORMS

    # ------------------------------------------------------------------ parse
    def parse(self, line: str, state: LiteratureState) -> list[Event]:
        """The events of one typed entry (see :meth:`Shorthand.parse`).

        Raises:
            ShorthandError: the entry is not a form of the notation, names a seat, card or set
                that is not one, or a claim that leaves out what the player saw (a wrong claim
                without ``wrong``, a choice of the next player without ``next``).
        """
        words = tokens(line)
        if len(words) < 2:
            raise ShorthandError(_EXPECTED)
        verb = _VERBS.get(words[1])
        if verb is None:
            raise ShorthandError(_EXPECTED)
        seat = seat_of(words[0], state.players, "the seat who acts first on the line")
        if verb == "ask":
            return [self._parse_ask(seat, words[2:], state)]
        if verb == "claim":
            return [self._parse_claim(seat, words[2:], state)]
        return [self._parse_pass(seat, words[2:], state)]

    def _parse_ask(self, asker: int, rest: list[str], state: LiteratureState) -> Event:
        if len(rest) == 2 and state.observer is not None and rest[0] == str(state.observer):
            # you were asked: your hand says whether you handed the card over
            card = cards_of([rest[1]], "the ask")[0]
            held = state.hands[state.observer]
            rest = rest + ["yes" if held is not None and card in held else "no"]
        if len(rest) != 3 or rest[2] not in _YES | _NO:
            raise ShorthandError(f"an ask is 'S asks T CARD yes' or '... no' (was the card handed over?), "
                                 f"for example '{_ASK_EXAMPLE}'")
        target = seat_of(rest[0], state.players, "the seat asked")
        card = cards_of([rest[1]], "the ask")[0]
        if not is_card_in_deck(card, state.deck):
            raise ShorthandError(f"{card} is not in the {state.deck}-card deck: ask for a card of a set in play, "
                                 f"for example '{_ASK_EXAMPLE}'")
        return {"type": "ask", "asker": asker, "target": target, "card": card, "success": rest[2] in _YES}

    def _parse_pass(self, frm: int, rest: list[str], state: LiteratureState) -> Event:
        if rest and rest[0] == "to":
            rest = rest[1:]
        if len(rest) != 1:
            raise ShorthandError(f"a pass is 'S passes to T' (the seat handed the turn), for example '{_PASS_EXAMPLE}'")
        return {"type": "pass", "from": frm, "to": seat_of(rest[0], state.players, "the seat handed the turn")}

    def _parse_claim(self, claimer: int, rest: list[str], state: LiteratureState) -> Event:
        """``rest`` after '<claimer> claims': the set, a seat per card, then 'wrong CARD:S
        ...' and 'next S' (either order); returns the claim event. Raises ShorthandError."""
        if not rest:
            raise ShorthandError(f"a claim names its set and who holds each card, for example '{_CLAIM_EXAMPLE}'")
        aliases = _set_aliases(state.deck)
        name = aliases.get(rest[0])
        if name is None:
            raise ShorthandError(f"{rest[0]!r} is not a set: the sets are {', '.join(set_names(state.deck))}")
        cards = set_cards(name)
        parts = self._claim_parts(claimer, name, cards, rest[1:], state.players)
        assignment = self._assignment(name, cards, parts["assignment"], state.players)
        for c in cards:
            if team_of(assignment[c]) != team_of(claimer):
                mates = ", ".join(str(s) for s in range(team_of(claimer), state.players, 2))
                raise ShorthandError(f"seat {claimer}'s claim names seat {assignment[c]} for {c}, who is not on its "
                                     f"team: a claim names the claimer's team (seats {mates}) for every card")
        actual = self._claim_actual(claimer, name, cards, assignment, parts, state)
        correct = actual == assignment
        ev: dict[str, Any] = {"type": "claim", "claimer": claimer, "set": name, "assignment": assignment,
                              "actual": {c: actual[c] for c in cards}, "correct": correct}
        self._claim_next(ev, parts.get("next"), state)
        return ev

    @staticmethod
    def _claim_parts(claimer: int, name: str, cards: Sequence[str], words: list[str],
                     players: int) -> dict[str, list[str]]:
        """The words after a claim's set, split: ``{"assignment": [...]}`` and, when written,
        ``"wrong"`` and ``"next"`` with the words after them. Raises ShorthandError when
        'wrong' or 'next' is written twice."""
        parts: dict[str, list[str]] = {"assignment": []}
        part = "assignment"
        for w in words:
            if w in ("wrong", "next"):
                if w in parts:
                    raise ShorthandError(f"'{w}' is written once in a claim, for example '{claimer} claims "
                                         f"{name} ... {_wrong_example(cards, None, claimer, players)}'")
                part = w
                parts[w] = []
            else:
                parts[part].append(w)
        return parts

    def _claim_actual(self, claimer: int, name: str, cards: Sequence[str], assignment: dict[str, int],
                      parts: dict[str, list[str]], state: LiteratureState) -> dict[str, int]:
        """Where the claimed set's cards really were (``{card: seat}``): the claimed seats,
        corrected by the cards written after 'wrong' and by the holders the view knows.
        Raises ShorthandError when 'wrong' and what the view knows disagree."""
        actual = dict(assignment)
        typed: dict[str, int] = {}
        for w in parts.get("wrong", []):
            card, seat = self._card_seat(w, name, cards, state.players, "after 'wrong'")
            if card in typed:
                raise ShorthandError(f"{card} is named twice after 'wrong'")
            if seat == assignment[card]:
                raise ShorthandError(f"{card} was claimed at seat {seat}: after 'wrong' list only the cards that "
                                     f"were elsewhere, each with the seat that held it (for example "
                                     f"'{_wrong_example(cards, assignment, claimer, state.players)}')")
            typed[card] = seat
        actual.update(typed)
        known_wrong = []
        for c in cards:
            if c in typed:
                continue
            h = state.holder.get(c)
            if h is not None and h != assignment[c]:
                actual[c] = h
                known_wrong.append(c)
            elif h is None and assignment[c] == state.observer:   # the view knows its own hand
                raise ShorthandError(f"you do not hold {c}, which the claim names at your seat, so the claim was "
                                     f"wrong: end the line with 'wrong {c}:S', S the seat that showed {c}")
        correct = actual == assignment
        if "wrong" in parts and correct:
            raise ShorthandError(f"say where the misplaced cards were: after 'wrong' write each card the claim "
                                 f"placed wrongly with the seat that held it, for example '... "
                                 f"{_wrong_example(cards, assignment, claimer, state.players)}'")
        if not correct and "wrong" not in parts:
            c = known_wrong[0]
            who = "you hold" if actual[c] == state.observer else f"seat {actual[c]} holds"
            raise ShorthandError(f"{who} {c}, not seat {assignment[c]} as claimed: if that is what was said, the "
                                 f"claim was wrong: end the line with 'wrong' (and where any other misplaced card "
                                 f"was, for example '{_wrong_example(cards, assignment, claimer, state.players, c)}')")
        return actual

    @staticmethod
    def _claim_next(ev: dict[str, Any], nxt: list[str] | None, state: LiteratureState) -> None:
        """Set ``ev["next"]``, the seat that plays after the claim, where the options give
        claim events one (from 'next S' when the team picks, else the only candidate or
        ``None``). Raises ShorthandError for a missing, extra or impossible 'next'."""
        if state.claim_has_next():
            if nxt is not None and len(nxt) != 1:
                raise ShorthandError("'next' is followed by the one seat chosen to play next, for example "
                                     f"'{_CLAIM_EXAMPLE} next 4'")
            chosen = None if nxt is None else seat_of(nxt[0], state.players, "the seat to play next")
            cands = state.next_candidates(ev)
            if len(cands) > 1 and chosen is None:
                picker = "your team" if team_of(cands[0]) == team_of(state.observer) else "the other team"
                raise ShorthandError(f"after this claim {picker} picks who plays next: end the line with 'next S' "
                                     f"(seat {_or(cands)}), for example '... next {cands[0]}'")
            if not cands and chosen is not None:
                raise ShorthandError("this claim ends the game: nobody plays next (leave out 'next')")
            if len(cands) == 1 and chosen is not None and chosen != cands[0]:
                raise ShorthandError(f"only seat {cands[0]} can play next after this claim, not seat {chosen}")
            ev["next"] = chosen if chosen is not None else (cands[0] if cands else None)
        elif nxt is not None:
            raise ShorthandError("under these options the turn stays with the player who had it after a claim: "
                                 "leave out 'next'")

    @staticmethod
    def _card_seat(word: str, name: str, cards: Sequence[str], players: int, where: str) -> tuple[str, int]:
        if ":" not in word:
            raise ShorthandError(f"expected CARD:SEAT {where}, like {cards[0]}:0, not {word!r}")
        c, s = word.split(":", 1)
        card = cards_of([c], f"the claim of {name}")[0]
        if card not in cards:
            raise ShorthandError(f"{card} is not a card of {name} ({' '.join(cards)})")
        return card, seat_of(s, players, f"the seat after {card}:")

    def _assignment(self, name: str, cards: Sequence[str], words: list[str], players: int) -> dict[str, int]:
        example = f"'2 claims {name} " + " ".join(f"{c}:0" for c in cards) + "'"
        if len(words) == 6 and all(w.isdigit() for w in words):
            return {c: seat_of(w, players, f"the seat of {c}") for c, w in zip(cards, words)}
        if not words or all(w.isdigit() for w in words):
            raise ShorthandError(f"a claim of {name} names who holds each of its six cards ({' '.join(cards)}): "
                                 f"six CARD:SEAT or six seats in that order, for example {example}")
        named: dict[str, int] = {}
        for w in words:
            card, seat = self._card_seat(w, name, cards, players, f"in the claim of {name}")
            if card in named:
                raise ShorthandError(f"{card} is named twice in the claim of {name}")
            named[card] = seat
        missing = [c for c in cards if c not in named]
        if missing:
            raise ShorthandError(f"a claim of {name} names all six cards: {' '.join(missing)} "
                                 f"{'is' if len(missing) == 1 else 'are'} missing, for example {example}")
        return {c: named[c] for c in cards}

    # ------------------------------------------------------------------ what the rules fill in
    def implied(self, state: LiteratureState) -> list[Event]:
        """A forced pass: the player on turn has no cards and only one seat to hand the turn to
        (rules.md: a teammate with cards, else an opponent with cards)."""
        if state.is_over() or state.pending is not None:
            return []
        passes = state.legal_passes(state.turn)
        if len(passes) == 1:
            return [passes[0].to_json()]
        return []

    # ------------------------------------------------------------------ write back
    def line_for(self, events: Sequence[Event], state: LiteratureState) -> tuple[str, int]:
        """The typed line of ``events[0]`` (each Literature event is one line).

        Raises:
            ValueError: ``events[0]`` is not a Literature event this view can take.
        """
        ev = events[0]
        kind = ev.get("type")
        if kind == "ask":
            return f"{ev['asker']} asks {ev['target']} {ev['card']} {'yes' if ev['success'] else 'no'}", 1
        if kind == "pass":
            return f"{ev['from']} passes to {ev['to']}", 1
        if kind == "claim":
            cards = set_cards(ev["set"])
            line = f"{ev['claimer']} claims {ev['set']} " + " ".join(f"{c}:{ev['assignment'][c]}" for c in cards)
            wrong = [c for c in cards if ev["actual"][c] != ev["assignment"][c]]
            if not ev["correct"]:
                line += " wrong" + "".join(f" {c}:{ev['actual'][c]}" for c in wrong)
            if "next" in ev and ev["next"] is not None and len(state.next_candidates(ev)) > 1:
                line += f" next {ev['next']}"
            return line, 1
        raise ValueError(f"not a Literature event: {ev!r}")

    # ------------------------------------------------------------------ prompt and completion
    def prompt(self, state: LiteratureState) -> str:
        """Whose turn it is and what may happen next (``"seat 3 to ask or claim"``,
        ``"your turn: ask or claim"``, ``"seat 3 has no cards: it passes the turn to seat 1 or 5"``)."""
        if state.is_over():
            return "the game is over"
        t, me = state.turn, state.observer
        mine = t == me
        if state.sizes[t] == 0:
            targets = [p.to for p in state.legal_passes(t)]
            head = "you have no cards: pass" if mine else f"seat {t} has no cards: it passes"
            return f"{head} the turn to seat {_or(targets)} ('{t} passes to {targets[0]}')"
        who = "your turn:" if mine else f"seat {t}{' (your team)' if team_of(t) == team_of(me) else ''} to"
        can_ask = any(state.sizes[s] > 0 for s in range(1 - t % 2, state.players, 2))
        text = f"{who} {'ask or claim' if can_ask else 'claim (no opponent has cards to ask)'}"
        if state.options["claim_any_time"]:
            text += "; anyone with cards may claim"
        return text

    def words(self, state: LiteratureState) -> list[str]:
        """The verbs and keywords, the seats, the cards and the sets still in play."""
        verbs = ["asks", "claims", "passes", "to", "yes", "no", "wrong", "next"]
        seats = [str(s) for s in range(state.players)]
        return verbs + seats + state.cards_in_play() + state.unclaimed_sets()


def _or(seats: Sequence[int]) -> str:
    """``"1"``, ``"1 or 5"``, ``"0, 2 or 4"``."""
    items = [str(s) for s in seats]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


__all__ = ["FORMS", "LiteratureShorthand"]
