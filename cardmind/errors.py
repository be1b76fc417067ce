"""Exception types shared by every part of cardmind.

Every error cardmind raises on bad input derives from :class:`CardmindError`, so a
front end can catch one type and print its message. Messages say *what* is wrong
and *where* (file, line, event) whenever that is known.
"""

from __future__ import annotations


class CardmindError(Exception):
    """Base class of every error cardmind raises on bad input or an impossible request."""


class CardError(CardmindError, ValueError):
    """A card token that cannot be parsed or is not part of the game's deck."""


class OptionError(CardmindError, ValueError):
    """An unknown option name, or a value an option does not accept."""


class IllegalAction(CardmindError):
    """An action or event that breaks a rule of the game.

    Attributes:
        rule: short name of the rule broken (for example ``"turn"``,
            ``"ask-teammate"``, ``"ask-own-card"``); stable across versions so
            programs can test it.
        message: the human-readable explanation.
    """

    def __init__(self, rule: str, message: str):
        super().__init__(message)
        self.rule = rule
        self.message = message


class Contradiction(CardmindError):
    """A history that no deal is consistent with.

    Attributes:
        event_index: 0-based index of the first event after which no deal fits
            (``None`` when the dealt hands themselves are impossible).
        message: what the event contradicts.
    """

    def __init__(self, message: str, event_index: int | None = None):
        super().__init__(message)
        self.message = message
        self.event_index = event_index


class RecordError(CardmindError):
    """A game record that cannot be read, is malformed, or is not legal.

    The string form is ``file:line: reason`` (``line`` is 1-based; the header is line 1).

    Attributes:
        path: the file name (or ``"<record>"``).
        line: the 1-based line number, or ``None`` for the file as a whole.
        reason: what is wrong.
        rule: the rule broken, when the error comes from an illegal event.
    """

    def __init__(self, path: str, line: int | None, reason: str, rule: str | None = None):
        self.path = path
        self.line = line
        self.reason = reason
        self.rule = rule
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {reason}")
