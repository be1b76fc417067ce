"""Ranked, explained advice built on the belief trackers; shared by the CLI and the
engine protocol.

:func:`hint_for` gives the advice object of any game with a hint engine
(``Game.hint_engine``) for its tracker; every advice object has ``to_json()`` (documented in
``docs/hints.md``) and ``render(console, record, show_table=..., tables_only=...)``.
"""

from __future__ import annotations

from typing import Any


def turn_note(seat: int) -> str:
    """The note of advice given while another seat is on turn (``seat``: the seat to move);
    ``cardmind belief``, which shows no asks, leaves it out (:func:`asks_only`)."""
    return f"it is seat {seat}'s turn; the asks are for when you are on turn"


def asks_only(note: str) -> bool:
    """Whether ``note`` is about the asks only (see :func:`turn_note`)."""
    return note.endswith("the asks are for when you are on turn")


def _engine(tracker: Any):
    game = tracker.state.game
    engine = game.hint_engine()
    if engine is None:
        raise ValueError(f"no hint engine for {game.name}")
    return engine


def hint_params(tracker: Any) -> list[str]:
    """The names of the keyword parameters the hint engine of ``tracker``'s game takes, as
    the game declares them (``Game.hint_params``; e.g. ``["max_asks"]``).

    Raises:
        ValueError: no hint engine for that tracker's game.
    """
    _engine(tracker)
    return [p.name for p in tracker.state.game.hint_params]


def hint_for(tracker: Any, **kwargs: Any):
    """Advice for the observer of ``tracker`` (a game's belief tracker).

    Raises:
        ValueError: no hint engine for that tracker's game.
        Contradiction: the events leave no consistent deal.
    """
    return _engine(tracker)(tracker, **kwargs)
