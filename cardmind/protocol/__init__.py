"""The engine protocol: cardmind's players and advice for programs in any language.

* :class:`~cardmind.protocol.session.Session`: the Python embedding API (one seat's view,
  its agent and its advice; or a referee holding the complete deal).
* :class:`~cardmind.protocol.engine.Engine` and :func:`~cardmind.protocol.engine.serve`:
  the same over JSON Lines (``cardmind engine``), specified in ``docs/protocol.md``.
* ``schemas/``: JSON Schemas (draft 2020-12) of every request and reply.
"""

from __future__ import annotations

from .errors import ERROR_CODES, ProtocolError
from .session import Decision, RefereeSession, Session

__all__ = ["Session", "RefereeSession", "Decision", "ProtocolError", "ERROR_CODES", "Engine", "serve", "PROTOCOL"]


def __getattr__(name: str):
    if name in ("Engine", "serve", "PROTOCOL"):
        from . import engine  # noqa: PLC0415

        return getattr(engine, name)
    raise AttributeError(name)
