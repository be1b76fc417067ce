"""The ASGI app of ``cardmind serve`` (Starlette; run by uvicorn in :func:`run`).

Routes:

- ``/engine`` (WebSocket): the engine protocol (``docs/protocol.md``). One text or binary
  message is one request line; the reply is one text message. One
  :class:`~cardmind.protocol.engine.Engine` per connection (its sessions vanish with the
  connection). Requests run in a worker thread, one at a time per connection, so a slow
  agent does not hold up other connections; replies come in request order.
- ``GET /api/games``, ``POST /api/games``, ``GET /api/games/{name}``: the save folder
  (:mod:`cardmind.serve.saves`).
- everything else: the pages, files of ``cardmind/serve/static/``.

Safe by default: requests whose ``Host`` is not the server's own name are refused when it
binds to a local address (against DNS rebinding); a WebSocket or a ``POST`` from a page of
another origin (``Origin`` not this server) is refused; agents are never imported by
name (``package.module:Class``); the number of connections, the message size and the
sessions per connection are limited.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..protocol.engine import MAX_LINE, Engine, dumps
from ..protocol.errors import ProtocolError
from .saves import MAX_RECORD_BYTES, SaveError, SaveFolder, default_save_dir

STATIC = Path(__file__).resolve().parent / "static"

#: WebSocket connections open at once, by default
MAX_CONNECTIONS = 16
#: sessions one connection may open, by default
MAX_SESSIONS_PER_CONNECTION = 64
#: the largest WebSocket message read at all (bytes); a message up to this size that is
#: longer than the protocol's line limit gets the ``line_too_long`` reply, a longer one
#: closes the connection (code 1009)
MAX_MESSAGE = 4 * MAX_LINE
#: WebSocket close code when the connection limit is reached ("try again later")
CLOSE_BUSY = 1013
#: WebSocket close code for a refused origin ("policy violation")
CLOSE_POLICY = 1008

LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def is_local(host: str) -> bool:
    """Whether binding to ``host`` keeps the server on this machine (a loopback address or
    ``localhost``)."""
    if host in LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass
class ServerSettings:
    """What ``cardmind serve`` was started with.

    Attributes:
        save_dir: the save folder (made on the first save).
        max_connections: WebSocket connections open at once.
        max_sessions: sessions per connection.
        local_only: refuse requests whose ``Host`` is not a loopback name (set when the
            server binds to a local address).
        max_record_bytes: the largest record the save folder accepts.
    """

    save_dir: Path = field(default_factory=default_save_dir)
    max_connections: int = MAX_CONNECTIONS
    max_sessions: int = MAX_SESSIONS_PER_CONNECTION
    local_only: bool = True
    max_record_bytes: int = MAX_RECORD_BYTES


def _host_name(hostport: str) -> str:
    """``"localhost"`` of ``"localhost:8765"``, ``"::1"`` of ``"[::1]:8765"``."""
    if hostport.startswith("["):
        return hostport[1:].split("]", 1)[0]
    return hostport.rsplit(":", 1)[0] if hostport.count(":") == 1 else hostport


def _refusal(headers: Any, settings: ServerSettings, check_origin: bool) -> str | None:
    """Why a request with these headers is refused, or ``None``."""
    host = headers.get("host", "")
    if settings.local_only and not is_local(_host_name(host).lower()):
        return f"this server answers only requests to localhost, not to {host[:80]!r}"
    origin = headers.get("origin")
    if check_origin and origin is not None:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or parts.netloc.lower() != host.lower():
            return f"requests from pages of another site ({origin[:80]}) are refused"
    return None


class _Handlers:
    """The route handlers of one app and the state they share: the settings and the save
    folder. Each HTTP handler answers a refused request (:func:`_refusal`) with status 403
    and ``{"ok": false, "error": why}``."""

    def __init__(self, settings: ServerSettings):
        self.settings = settings
        self.saves = SaveFolder(settings.save_dir, settings.max_record_bytes)

    async def engine_ws(self, ws: WebSocket) -> None:
        """``/engine``: the engine protocol over one WebSocket connection, one request line per
        message, one reply per request in order. A refused origin is closed with
        :data:`CLOSE_POLICY`; past ``max_connections`` the connection gets a
        ``too_many_connections`` error and is closed with :data:`CLOSE_BUSY`."""
        settings = self.settings
        why = _refusal(ws.headers, settings, check_origin=True)
        if why is not None:
            await ws.close(code=CLOSE_POLICY, reason=why[:120])
            return
        state = ws.app.state
        await ws.accept()
        if state.connections >= settings.max_connections:
            err = ProtocolError("too_many_connections", f"{state.connections} connections are open "
                                                        f"(the server's limit); try again later")
            await ws.send_text(dumps({"ok": False, "error": err.to_json()}))
            await ws.close(code=CLOSE_BUSY)
            return
        state.connections += 1
        engine = Engine(allow_agent_import=False, max_sessions=settings.max_sessions)
        try:
            while not engine.done:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                data = msg.get("text")
                if data is None:
                    data = msg.get("bytes") or b""
                reply = await anyio.to_thread.run_sync(engine.handle, data)
                await ws.send_text(reply)
            if engine.done:
                await ws.close(code=1000)
        except WebSocketDisconnect:
            pass
        finally:
            state.connections -= 1

    def _guard(self, request: Request, check_origin: bool) -> Response | None:
        """The 403 response to a refused ``request``, or ``None`` when it may proceed."""
        why = _refusal(request.headers, self.settings, check_origin)
        return None if why is None else JSONResponse({"ok": False, "error": why}, status_code=403)

    async def list_games(self, request: Request) -> Response:
        """``GET /api/games``: the saved games, ``{"ok": true, "folder": ..., "games": [...]}``."""
        refused = self._guard(request, check_origin=False)
        if refused is not None:
            return refused
        games = await anyio.to_thread.run_sync(self.saves.list)
        return JSONResponse({"ok": True, "folder": str(self.saves.root), "games": games})

    async def save_game(self, request: Request) -> Response:
        """``POST /api/games``: save the record in the body; 201 with what was saved, 413 for a
        record over the size limit (bytes), the :class:`SaveError`'s status for a bad one."""
        refused = self._guard(request, check_origin=True)
        if refused is not None:
            return refused
        saves = self.saves
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > saves.max_bytes:
            return JSONResponse({"ok": False, "error": f"the record has more than {saves.max_bytes} bytes"},
                                status_code=413)
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > saves.max_bytes:
                return JSONResponse({"ok": False, "error": f"the record has more than {saves.max_bytes} bytes"},
                                    status_code=413)
        try:
            saved = await anyio.to_thread.run_sync(saves.save, bytes(body))
        except SaveError as exc:
            return JSONResponse({"ok": False, "error": exc.message}, status_code=exc.status)
        return JSONResponse({"ok": True, **saved}, status_code=201)

    async def get_game(self, request: Request) -> Response:
        """``GET /api/games/{name}``: the saved record ``name`` as NDJSON text, or the
        :class:`SaveError`'s status and message."""
        refused = self._guard(request, check_origin=False)
        if refused is not None:
            return refused
        try:
            text = await anyio.to_thread.run_sync(self.saves.read, request.path_params["name"])
        except SaveError as exc:
            return JSONResponse({"ok": False, "error": exc.message}, status_code=exc.status)
        return PlainTextResponse(text, media_type="application/x-ndjson")


class _GuardedStatic(StaticFiles):
    """The pages, behind the same Host check as the rest (a refused request gets 403 and the
    reason as plain text)."""

    def __init__(self, server_settings: ServerSettings, **kwargs: Any):
        super().__init__(**kwargs)
        self.server_settings = server_settings

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
            why = _refusal(headers, self.server_settings, check_origin=False)
            if why is not None:
                await PlainTextResponse(why, status_code=403)(scope, receive, send)
                return
        await super().__call__(scope, receive, send)


def create_app(settings: ServerSettings | None = None) -> Starlette:
    """The ASGI app.

    Args:
        settings: limits and the save folder (default :class:`ServerSettings`).

    Returns:
        A Starlette app; ``app.state.settings`` holds the settings and
        ``app.state.connections`` the number of open WebSocket connections.
    """
    settings = settings or ServerSettings()
    handlers = _Handlers(settings)
    routes = [
        WebSocketRoute("/engine", handlers.engine_ws),
        Route("/api/games", handlers.list_games, methods=["GET"]),
        Route("/api/games", handlers.save_game, methods=["POST"]),
        Route("/api/games/{name}", handlers.get_game, methods=["GET"]),
        Mount("/", app=_GuardedStatic(settings, directory=STATIC, html=True), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.settings = settings
    app.state.connections = 0
    return app


def run(host: str = "127.0.0.1", port: int = 8765, save_dir: str | os.PathLike | None = None,
        max_connections: int = MAX_CONNECTIONS, max_sessions: int = MAX_SESSIONS_PER_CONNECTION,
        log_level: str = "warning", ready=None) -> int:
    """Serve the app with uvicorn until interrupted.

    Args:
        host, port: where to listen (port 0: a free port).
        save_dir: the save folder (default :func:`~cardmind.serve.saves.default_save_dir`).
        max_connections, max_sessions: the limits of :class:`ServerSettings`.
        log_level: uvicorn's log level.
        ready: called with the URL once the server listens (default: print it).

    Returns:
        The exit status: 0.
    """
    import socket  # noqa: PLC0415

    import uvicorn  # noqa: PLC0415

    settings = ServerSettings(save_dir=Path(save_dir) if save_dir is not None else default_save_dir(),
                              max_connections=max_connections, max_sessions=max_sessions,
                              local_only=is_local(host))
    # bound here, so that a port in use is an OSError for the caller, not uvicorn's exit
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.create_server((host.strip("[]"), port), family=family, reuse_port=False)
    config = uvicorn.Config(create_app(settings), log_level=log_level, ws_max_size=MAX_MESSAGE,
                            ws_per_message_deflate=False, lifespan="off", server_header=False)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}/"
    (ready or (lambda u: print(f"cardmind serve: open {u} (Ctrl-C stops it)", flush=True)))(url)
    with sock:
        uvicorn.Server(config).run(sockets=[sock])
    return 0
