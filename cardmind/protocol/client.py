"""A small Python client of the engine protocol, and a referee loop that plays a whole game
through engine sessions.

:class:`EngineClient` talks to an engine in this process (an
:class:`~cardmind.protocol.engine.Engine`, for tests) or in a child process
(``cardmind engine``), one request line at a time, and can keep a transcript of every line
sent and received. :func:`play_through_engine` is the reference game loop of a frontend:
the referee (here the caller's complete :class:`~cardmind.core.State`) deals and resolves
actions, every seat is a player session, and events and notices are relayed to every
session as ``cardmind.agents.match`` relays them to in-process agents. It is used by
``scripts/protocol_transcript.py`` and the tests.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core import Game, get_game
from .engine import Engine, dumps


class EngineReplyError(RuntimeError):
    """An error reply to a request sent with ``check=True``.

    Attributes:
        reply: the reply object; ``reply["error"]["code"]`` is the error code.
    """

    def __init__(self, request: Mapping[str, Any], reply: Mapping[str, Any]):
        super().__init__(f"{request.get('cmd')}: {reply.get('error')}")
        self.request = dict(request)
        self.reply = dict(reply)


class EngineClient:
    """Send requests to an engine and read its replies.

    Args:
        engine: an in-process :class:`Engine` (default when ``command`` is ``None``).
        command: start ``command`` (a list, for example
            ``[sys.executable, "-m", "cardmind", "engine"]``) and talk to it over pipes.
        record: keep :attr:`transcript` (every request and reply line, in order).

    Attributes:
        transcript: ``[(request line, reply line), ...]`` when ``record`` is set.
    """

    def __init__(self, engine: Engine | None = None, command: Sequence[str] | None = None, record: bool = False):
        self.proc = None
        self.engine = None
        if command is not None:
            self.proc = subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=sys.stderr)
        else:
            self.engine = engine or Engine()
        self.record = record
        self.transcript: list[tuple[str, str]] = []
        self._next = 1

    def send_line(self, line: str) -> str:
        """Send one raw line (no newline in it); return the reply line (no newline)."""
        reply = self.send_bytes(line.encode("utf-8", "surrogatepass"))
        if self.record:
            self.transcript.append((line, reply))
        return reply

    def send_bytes(self, data: bytes) -> str:
        """Send one raw line given as bytes (which need not be UTF-8); return the reply line.
        Not recorded in :attr:`transcript`."""
        if self.proc is None:
            return self.engine.handle(data)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline()
        if not reply:
            raise RuntimeError("the engine closed its output")
        return reply.decode("utf-8").rstrip("\n")

    def request(self, cmd: str, check: bool = True, **fields: Any) -> dict[str, Any]:
        """Send ``{"cmd": cmd, **fields}`` (with a fresh integer ``id`` unless one is given)
        and return the reply object.

        Raises:
            EngineReplyError: an error reply, when ``check`` is true.
        """
        req = {"id": self._next, "cmd": cmd, **fields}
        self._next += 1
        reply = json.loads(self.send_line(dumps(req)))
        if reply.get("id") != req["id"]:
            raise RuntimeError(f"reply id {reply.get('id')!r} does not match request id {req['id']!r}")
        if check and not reply.get("ok"):
            raise EngineReplyError(req, reply)
        return reply

    def close(self) -> int | None:
        """Send ``quit`` (child process: wait for it to end); return its exit status."""
        if self.proc is None:
            return None
        try:
            self.request("quit")
        except (BrokenPipeError, RuntimeError):
            pass
        try:
            return self.proc.wait(timeout=30)
        finally:
            for stream in (self.proc.stdin, self.proc.stdout):
                if stream is not None:
                    stream.close()

    def __enter__(self) -> "EngineClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


@dataclass
class EngineGame:
    """What :func:`play_through_engine` returns.

    Attributes:
        header: the complete header (every hand).
        events: the complete events in order.
        result: the referee's result as JSON (``scores``, ``outcome``, ``detail``).
        sessions: the session id of each seat.
        actions: number of actions resolved.
    """

    header: dict
    events: list[dict] = field(default_factory=list)
    result: dict | None = None
    sessions: list[str] = field(default_factory=list)
    actions: int = 0


def play_through_engine(client: EngineClient, game: Game | str,
                        options: Mapping[str, Any] | None = None, seed: int = 0,
                        agents: Sequence[str] | str = "random", time_ms: float | None = None,
                        prefix: str = "p", on_turn: Callable[[EngineClient, int, int, list[str]], None] | None = None,
                        max_actions: int = 10_000) -> EngineGame:
    """Play one game: the caller's referee deals with ``seed`` and every seat is an engine
    player session asked to ``act`` (and ``react`` when it may act out of turn).

    Args:
        client: the engine.
        game, options: the game.
        seed: the deal (``numpy.random.default_rng(seed)``); seat ``s``'s agent is seeded ``s``.
        agents: one agent name per seat, or one for all.
        time_ms: the time limit passed with every ``act``.
        prefix: session ids are ``prefix + seat``.
        on_turn: called as ``on_turn(client, seat, actions so far, session ids)`` before each
            ``act`` (to ask for hints and so on).
    """
    g = game if isinstance(game, Game) else get_game(game)
    state, header = g.initial_state(options, np.random.default_rng(seed))
    n = state.num_seats
    names = [agents] * n if isinstance(agents, str) else list(agents)
    out = EngineGame(header=header)
    for s in range(n):
        view = {k: v for k, v in g.observer_header(header, s).items() if k not in ("observer", "hand")}
        req: dict[str, Any] = {"session": f"{prefix}{s}", "game": g.name, "options": state.options, "seat": s,
                               "hand": g.observer_header(header, s)["hand"], "agent": names[s], "seed": s}
        if view:
            req["header"] = view
        out.sessions.append(client.request("new", **req)["session"])

    def resolve(seat: int, action: dict) -> None:
        act = g.action_from_json(action)
        if act.seat != seat:
            raise RuntimeError(f"seat {seat}'s session returned an action for seat {act.seat}")
        step = state.referee_step(act)
        out.actions += 1
        if step.notice is not None:
            for s in range(n):
                client.request("notice", session=out.sessions[s], notice=step.notice)
        for i, ev in enumerate(step.events):
            out.events.append(ev)
            for s in range(n):
                client.request("event", session=out.sessions[s], event=step.views[s][i])

    while not state.is_over():
        if out.actions >= max_actions:
            raise RuntimeError(f"the game did not end within {max_actions} actions")
        seat = state.to_move()
        if on_turn is not None:
            on_turn(client, seat, out.actions, out.sessions)
        fields = {} if time_ms is None else {"time_ms": time_ms}
        resolve(seat, client.request("act", session=out.sessions[seat], **fields)["action"])
        while not state.is_over():  # out-of-turn actions, as cardmind.agents.match offers them
            for s in state.actors()[1:]:
                action = client.request("react", session=out.sessions[s])["action"]
                if action is not None:
                    resolve(s, action)
                    break
            else:
                break
    r = state.result()
    out.result = {"scores": list(r.scores), "outcome": list(r.outcome), "detail": dict(r.detail)}
    return out
