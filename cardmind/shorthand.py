"""The short notation a player types at the table (``cardmind advise``): the shared part.

A game that can be followed live brings a :class:`Shorthand` (``Game.shorthand()``): it turns
one short typed line (``3 asks 1 9H yes``, ``nobody takes``, ``1 melds 8H 8S 8C``) into the
record events it stands for, seen from the player's seat, and back. The live advisor
(:mod:`cardmind.advise`) knows no game: it asks the game's shorthand for the prompt, the words
to complete, the events of a line and the events the rules imply.

The contract every game's shorthand keeps (tested on every example record of every game):

* :meth:`Shorthand.parse` gives events that the player's view accepts in order, or raises
  :class:`ShorthandError` with one sentence saying what was expected (nothing is applied);
* :meth:`Shorthand.implied` gives the events the rules force next that carry nothing the
  player must type (a forced draw of another player, a restock, the player's own book...);
  the advisor applies them after every line, until there are none;
* :meth:`Shorthand.lines` writes a record's events back as the lines that give them:
  typing those lines (each followed by the implied events) rebuilds exactly those events.

Lines are case-insensitive; cards are written as in records (``TS``, ``10s``, ``RJ``). Several
entries may share a line separated by ``;`` (the advisor applies them all or none).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import parse_card
from .errors import CardError, CardmindError

if TYPE_CHECKING:  # pragma: no cover
    from .core import Event, Game, State


class ShorthandError(CardmindError):
    """A typed line that the notation or the rules refuse.

    Attributes:
        message: one sentence saying what was expected (``"expected 'S asks T CARD yes' or
            'no', for example '3 asks 1 9H yes'"``); shown to the player as it is.
    """

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Form:
    """One form of a game's short notation (a row of its table in the game's doc and of the
    advisor's ``help``).

    Attributes:
        form: the form with placeholders in capitals (``"S asks T CARD yes|no"``: ``S``, ``T``
            seats, ``CARD`` a card, ``RANK`` a rank, ``CARDS`` cards separated by spaces).
        meaning: what it records, in the game's own terms.
        example: a line of that form (``"3 asks 1 9H yes"``); the docs tests parse it.
    """

    form: str
    meaning: str
    example: str


class Shorthand:
    """Base class of a game's short notation (see the module docstring).

    A game subclasses it and returns an instance from ``Game.shorthand()``. The methods take
    the player's view (a :class:`~cardmind.core.State` with an ``observer``); none of them
    changes it.

    Attributes:
        game: the :class:`~cardmind.core.Game`.
        forms: every form of the notation (:class:`Form`), in the order a player meets them.
    """

    forms: tuple[Form, ...] = ()

    def __init__(self, game: "Game"):
        self.game = game

    # ------------------------------------------------------------------ what a game writes
    def start(self, options: Mapping[str, Any], seat: int, text: str) -> dict:
        """The deal keys of the player's record header from the cards typed at the start
        (``cardmind advise GAME --seat N --hand TEXT``): by default ``{"observer": seat,
        "hand": [cards]}``; a game that needs more (the card turned up) reads it from ``text``.

        Raises:
            ShorthandError: ``text`` is not what the game expects (the message shows a form).
        """
        return {"observer": seat, "hand": cards_of(text, "your hand")}

    def start_text(self, header: Mapping[str, Any]) -> str:
        """What a player types at the start (``--hand TEXT``) for a player's record ``header``:
        the inverse of :meth:`start` (by default the hand's cards separated by spaces)."""
        return " ".join(header["hand"])

    def parse(self, line: str, state: "State") -> list["Event"]:
        """The record events that the typed ``line`` stands for, from ``state`` (the player's
        view, not changed): events of the game's record format, as the player's record writes
        them (``records.md``).

        Raises:
            ShorthandError: the line is not a form of the notation, or names a seat, card or
                rank that cannot be right here; one sentence says what was expected.
        """
        raise NotImplementedError

    def implied(self, state: "State") -> list["Event"]:
        """The events the rules force next that carry nothing the player must type, from
        ``state`` (not changed); empty when the next event needs the player. The advisor
        applies them after every line and asks again, until this is empty."""
        return []

    def line_for(self, events: Sequence["Event"], state: "State") -> tuple[str, int]:
        """One typed line that gives the first events of ``events`` from ``state``: ``(line,
        how many events it stands for)``; ``events[0]`` is not an implied event.

        Raises:
            ValueError: ``events[0]`` cannot be typed from ``state``.
        """
        raise NotImplementedError

    def prompt(self, state: "State") -> str:
        """What the rules expect next, in a few words that name whose turn it is (``"seat 3
        to ask"``, ``"your turn: take the 7H, or pass"``, ``"hand 2: type your new hand"``)."""
        raise NotImplementedError

    def words(self, state: "State") -> list[str]:
        """Words worth completing now: the notation's verbs, the seats, cards, ranks, sets...
        (the advisor adds its own commands)."""
        return []

    # ------------------------------------------------------------------ shared
    def lines(self, events: Sequence["Event"], state: "State") -> list[tuple[str, int]]:
        """The lines a player would type for ``events`` from ``state`` (not changed): each
        ``(line, how many events it gives)``, implied events counted in the line they follow
        (implied events before the first line form a line ``""``).

        Raises:
            ValueError: an event cannot be typed, or the events break a rule.
        """
        st = state.copy()
        out: list[tuple[str, int]] = []
        i = 0
        n = len(events)
        lead = self._consume_implied(events, i, st)
        if lead:
            out.append(("", lead))
            i += lead
        while i < n:
            line, k = self.line_for(events[i:], st)
            if k < 1:
                raise ValueError(f"line_for gave no event for {events[i]!r}")
            for ev in events[i:i + k]:
                st.apply_event(ev)
            i += k
            extra = self._consume_implied(events, i, st)
            i += extra
            out.append((line, k + extra))
        return out

    def _consume_implied(self, events: Sequence["Event"], i: int, st: "State") -> int:
        """Apply to ``st`` the implied events that ``events[i:]`` begins with; their number."""
        used = 0
        while True:
            imp = self.implied(st)
            if not imp:
                return used
            if list(events[i + used:i + used + len(imp)]) != imp:
                raise ValueError(f"event {i + used} is not the event the rules imply here ({imp[0]!r})")
            for ev in imp:
                st.apply_event(ev)
            used += len(imp)


# ---------------------------------------------------------------------------- helpers for games
_SPLIT = re.compile(r"[\s,]+")


def tokens(line: str) -> list[str]:
    """The words of a typed line: split on spaces and commas, lower case."""
    return [t for t in _SPLIT.split(line.strip().lower()) if t]


def cards_of(text: str | Iterable[str], what: str = "the cards") -> list[str]:
    """Card tokens from typed text (``"9h 10s rj"`` -> ``["9H", "TS", "RJ"]``).

    Raises:
        ShorthandError: a word is not a card (the message names it and ``what``).
    """
    words = tokens(text) if isinstance(text, str) else list(text)
    out = []
    for w in words:
        try:
            out.append(parse_card(w))
        except CardError:
            raise ShorthandError(f"{w.upper()!r} in {what} is not a card (cards are written like 9H, TS or 10S, "
                                 f"RJ)") from None
    return out


def seat_of(word: str, players: int, what: str = "a seat") -> int:
    """A seat number from a typed word (``"3"``).

    Raises:
        ShorthandError: not a seat of a ``players``-seat game.
    """
    if word.isdigit() and int(word) < players:
        return int(word)
    raise ShorthandError(f"expected {what} (a seat number 0-{players - 1}), not {word!r}")


__all__ = ["Form", "Shorthand", "ShorthandError", "cards_of", "seat_of", "tokens"]
