"""``cardmind serve``: the engine protocol over WebSocket and the web pages.

The server is small on purpose: the pages (``static/``, shipped as package data) are a
JavaScript client of the engine protocol (``docs/protocol.md``), talking to ``/engine``
over a WebSocket. Everything else it offers is a folder of saved records
(:mod:`cardmind.serve.saves`). It needs the optional extra ``cardmind[web]``
(Starlette on uvicorn); importing :mod:`cardmind.serve.app` without it raises
``ImportError``.
"""

from __future__ import annotations

#: the message printed when the ``web`` extra is missing
MISSING_EXTRA = "cardmind serve needs the web extra: pip install 'cardmind[web]'"
