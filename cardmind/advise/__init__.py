"""``cardmind advise``: a game followed live from one seat, one short line per event, with
advice after every event (:class:`~cardmind.advise.live.LiveGame`; the terminal session is
:mod:`cardmind.advise.app`). Nothing here names a game: each game brings its short notation
(``Game.shorthand()``, :mod:`cardmind.shorthand`) and its advice."""

from __future__ import annotations

from .live import LiveGame, shorthand_of

__all__ = ["LiveGame", "shorthand_of"]
