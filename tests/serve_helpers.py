"""A real ``cardmind serve`` server for tests: uvicorn in a thread of the test process, on a
free port, and a WebSocket engine that looks like an in-process :class:`Engine` (``handle``).

Needs the ``web`` extra (the test modules skip themselves without it, or fail when the
extras are required: see tests/extras.py)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

import uvicorn
from websockets.sync.client import connect

from cardmind.serve.app import MAX_MESSAGE, ServerSettings, create_app


@contextlib.contextmanager
def running_server(settings: ServerSettings | None = None) -> Iterator[str]:
    """Start the app with uvicorn on 127.0.0.1 and a free port; yield its base URL
    (``http://127.0.0.1:PORT``); stop it afterwards."""
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=0, log_level="warning",
                            ws_max_size=MAX_MESSAGE, ws_per_message_deflate=False, lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


class WsEngine:
    """One WebSocket connection to ``/engine``, used like an in-process engine: ``handle``
    sends one request and returns the reply text."""

    def __init__(self, base_url: str, **kw):
        self._cm = connect(base_url.replace("http://", "ws://") + "/engine", max_size=None, **kw)
        self.ws = self._cm.__enter__()

    def handle(self, line: str | bytes) -> str:
        """Send one message (text for ``str``, binary for ``bytes``); return the reply text."""
        self.ws.send(line)
        reply = self.ws.recv(timeout=600)
        assert isinstance(reply, str)
        return reply

    def close(self) -> None:
        self._cm.__exit__(None, None, None)
