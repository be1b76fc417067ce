"""Ranked, explained advice built on the belief trackers; shared by the CLI and the
engine protocol.

:func:`hint_for` gives the advice object of any supported game for a tracker; every
advice object has ``to_json()`` (documented in ``docs/hints.md``).
"""

from __future__ import annotations

from typing import Any


def hint_for(tracker: Any, **kwargs: Any):
    """Advice for the observer of ``tracker`` (a game's belief tracker).

    Raises:
        ValueError: no hint engine for that tracker's game.
        Contradiction: the events leave no consistent deal.
    """
    name = type(tracker).__name__
    if name == "LiteratureBelief":
        from .literature import literature_hint  # noqa: PLC0415

        return literature_hint(tracker, **kwargs)
    if name == "GoFishBelief":
        from .gofish import gofish_hint  # noqa: PLC0415

        return gofish_hint(tracker, **kwargs)
    raise ValueError(f"no hint engine for {name}")
