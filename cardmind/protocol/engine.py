"""``cardmind engine``: cardmind's players and advice over JSON Lines on stdin/stdout.

Frontends in any language embed cardmind the way chess GUIs embed an engine over UCI: they
start ``cardmind engine`` and write one JSON request per line; the engine writes exactly one
JSON reply line per request, in order, and flushes it. The protocol (every request, reply
and error code) is specified in ``docs/protocol.md``; JSON Schemas of every message are in
``cardmind/protocol/schemas/``.

:class:`Engine` is the pure part (``handle(line) -> reply line``, no I/O); :func:`serve`
connects it to streams. The protocol layer knows no game: it goes through
:class:`~cardmind.protocol.session.Session`, which uses only the game, agent and belief
interfaces.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import IO, Any

import numpy as np

from .. import __version__
from ..core import game_names, get_game
from ..records import FORMAT, Record
from .errors import ERROR_CODES, ProtocolError
from .session import Session, resolve_game

PROTOCOL = "cardmind-engine/1"

#: the longest request line accepted, in bytes (without the newline)
MAX_LINE = 1_000_000
#: sessions open at once, by default
MAX_SESSIONS = 1000

_SESSION_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")

#: command -> keys it accepts besides "cmd" and "id"
COMMANDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"protocol"}),
    "new": frozenset({"session", "game", "options", "role", "seat", "hand", "hands", "header", "agent",
                      "settings", "seed", "check"}),
    "close": frozenset({"session"}),
    "sessions": frozenset(),
    "event": frozenset({"session", "event"}),
    "notice": frozenset({"session", "notice"}),
    "act": frozenset({"session", "time_ms", "on_timeout"}),
    "react": frozenset({"session", "time_ms", "on_timeout"}),
    "apply": frozenset({"session", "action"}),
    "legal": frozenset({"session", "seat", "types", "limit"}),
    "check": frozenset({"session", "action"}),
    "status": frozenset({"session"}),
    "record": frozenset({"session"}),
    "hint": frozenset({"session", "params"}),
    "belief": frozenset({"session", "params"}),
    "view": frozenset({"session", "seat"}),
    "quit": frozenset(),
}

_MISSING = object()


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    v = float(text)
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text[:40]} is out of range")
    return v


def _json_default(obj: Any) -> Any:
    """Turn the few non-JSON values game code may hand back into JSON."""
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=repr)
    if isinstance(obj, tuple):
        return list(obj)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, Fraction):
        return float(obj)
    raise TypeError(f"{type(obj).__name__} is not JSON")


def dumps(obj: Any) -> str:
    """One reply line (no newline): compact, ASCII, strict JSON (no NaN)."""
    return json.dumps(obj, separators=(",", ":"), default=_json_default, allow_nan=False)


class Engine:
    """The protocol engine: sessions by id and the request handler.

    Args:
        allow_agent_import: allow agents named ``package.module:Class`` in ``new``.
        max_sessions: how many sessions may be open at once.

    Attributes:
        sessions: open sessions by id.
        done: set by ``quit``; :func:`serve` stops after replying.
    """

    def __init__(self, allow_agent_import: bool = False, max_sessions: int = MAX_SESSIONS):
        self.allow_agent_import = allow_agent_import
        self.max_sessions = max_sessions
        self.sessions: dict[str, Session] = {}
        self.done = False
        self._next_id = 1
        self._hello: dict[str, Any] | None = None
        self._handlers: dict[str, Callable[[dict], dict]] = {
            name: getattr(self, f"cmd_{name}") for name in COMMANDS}

    # ------------------------------------------------------------------ entry points
    def handle(self, line: str | bytes) -> str:
        """Answer one request line with one reply line (no newline). Never raises."""
        try:
            reply = self.handle_obj(line)
        except Exception as exc:  # noqa: BLE001 - the engine must answer every line
            reply = {"ok": False, "error": {"code": "internal", "message": f"{type(exc).__name__}: {exc}"}}
        try:
            return dumps(reply)
        except (TypeError, ValueError, RecursionError) as exc:
            err = {"ok": False, "error": {"code": "internal", "message": f"reply not JSON-able: {exc}"}}
            if "id" in reply:
                try:
                    dumps(reply["id"])
                    err["id"] = reply["id"]
                except (TypeError, ValueError, RecursionError):
                    pass
            return dumps(err)

    def handle_obj(self, line: str | bytes) -> dict[str, Any]:
        """As :meth:`handle`, returning the reply object."""
        if isinstance(line, (bytes, bytearray)):
            line = bytes(line).rstrip(b"\r\n")
            if len(line) > MAX_LINE:
                return self.error("line_too_long", f"the line has more than {MAX_LINE} bytes")
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError as exc:
                return self.error("bad_json", f"the line is not UTF-8 text ({exc.reason} at byte {exc.start})")
        else:
            text = line.rstrip("\r\n")
            if len(text) > MAX_LINE or len(text.encode("utf-8", "surrogatepass")) > MAX_LINE:
                return self.error("line_too_long", f"the line has more than {MAX_LINE} bytes")
        if not text.strip():
            return self.error("bad_json", "empty line (every line must be one JSON request)")
        try:
            req = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
        except RecursionError:
            return self.error("bad_json", "the JSON is nested too deeply")
        except json.JSONDecodeError as exc:
            return self.error("bad_json", f"not valid JSON ({exc.msg} at column {exc.colno})")
        except (ValueError, TypeError) as exc:
            return self.error("bad_json", f"not valid JSON ({exc})")
        return self.handle_request(req)

    def handle_request(self, req: Any) -> dict[str, Any]:
        """Answer one parsed request object."""
        if not isinstance(req, dict):
            return self.error("bad_request", f"a request must be a JSON object, not {type(req).__name__}")
        rid = req.get("id", _MISSING)
        cmd = req.get("cmd")
        try:
            if "cmd" not in req:
                raise ProtocolError("bad_request", "the request has no 'cmd'")
            if not isinstance(cmd, str):
                raise ProtocolError("bad_request", f"'cmd' must be a string, not {json.dumps(cmd)[:60]}")
            allowed = COMMANDS.get(cmd)
            if allowed is None:
                raise ProtocolError("unknown_cmd", f"unknown command {cmd[:60]!r} (commands: {', '.join(COMMANDS)})")
            for key in req:
                if key not in allowed and key not in ("cmd", "id"):
                    raise ProtocolError("bad_request", f"{cmd} takes no {key[:60]!r} "
                                                       f"(keys: {', '.join(sorted(allowed)) or 'none'})")
            body = self._handlers[cmd](req)
            reply = {"ok": True, "cmd": cmd, **body}
        except ProtocolError as exc:
            reply = {"ok": False, "error": exc.to_json()}
            if isinstance(cmd, str) and cmd in COMMANDS:
                reply["cmd"] = cmd
        except RecursionError:
            reply = {"ok": False, "error": {"code": "bad_request", "message": "the request is nested too deeply"}}
        except Exception as exc:  # noqa: BLE001
            reply = {"ok": False, "error": {"code": "internal", "message": f"{type(exc).__name__}: {exc}"}}
            if isinstance(cmd, str) and cmd in COMMANDS:
                reply["cmd"] = cmd
        if rid is not _MISSING:
            reply["id"] = rid
        return reply

    @staticmethod
    def error(code: str, message: str) -> dict[str, Any]:
        """An error reply object (no ``id``: used when the request could not be read)."""
        return {"ok": False, "error": ProtocolError(code, message).to_json()}

    # ------------------------------------------------------------------ request helpers
    @staticmethod
    def _get(req: dict, key: str, kinds: tuple, what: str, default: Any = _MISSING) -> Any:
        """``req[key]`` checked to be of ``kinds`` (``None`` allowed only if listed)."""
        if key not in req:
            if default is _MISSING:
                raise ProtocolError("bad_request", f"{req['cmd']} needs {key!r} ({what})")
            return default
        v = req[key]
        ok = any((k is None and v is None) or (k is not None and isinstance(v, k)) for k in kinds)
        if isinstance(v, bool) and bool not in kinds:
            ok = False
        if not ok:
            raise ProtocolError("bad_request", f"{key!r} must be {what}, not {json.dumps(v)[:80]}")
        return v

    def _session(self, req: dict) -> tuple[str, Session]:
        sid = self._get(req, "session", (str,), "a session id")
        s = self.sessions.get(sid)
        if s is None:
            raise ProtocolError("no_session", f"no open session {sid[:64]!r}"
                                              f"{' (open: ' + ', '.join(sorted(self.sessions)[:20]) + ')' if self.sessions else ''}")
        return sid, s

    # ------------------------------------------------------------------ commands
    def cmd_hello(self, req: dict) -> dict:
        """Protocol version, cardmind version, games with options, agents with settings."""
        self._get(req, "protocol", (str,), "a protocol name such as \"cardmind-engine/1\"", None)
        if self._hello is None:
            self._hello = describe_engine()
        return {**self._hello, "limits": {"max_line_bytes": MAX_LINE, "max_sessions": self.max_sessions},
                "allow_agent_import": self.allow_agent_import}

    def cmd_new(self, req: dict) -> dict:
        """Open a player or referee session."""
        sid = self._get(req, "session", (str, None), "a session id (1-64 of A-Z a-z 0-9 _ . : -)", None)
        if sid is not None:
            if not _SESSION_ID.match(sid):
                raise ProtocolError("bad_request", f"a session id is 1-64 of A-Z a-z 0-9 _ . : -, not {sid[:80]!r}")
            if sid in self.sessions:
                raise ProtocolError("session_exists", f"session {sid!r} is already open (close it first)")
        if len(self.sessions) >= self.max_sessions:
            raise ProtocolError("too_many_sessions", f"{len(self.sessions)} sessions are open (the limit); close some")
        game = self._get(req, "game", (str,), "a game name")
        resolve_game(game)  # an unknown game is reported before anything else
        role = self._get(req, "role", (str,), "\"player\" or \"referee\"", "player")
        options = self._get(req, "options", (dict, None), "an object of game options", None)
        header = self._get(req, "header", (dict, None), "an object of extra header keys", None)
        seed = self._get(req, "seed", (int,), "a non-negative integer", 0)
        if role == "player":
            for key in ("hands",):
                if key in req:
                    raise ProtocolError("bad_request", f"a player session takes 'hand', not {key!r} "
                                                       f"(use role \"referee\" for the complete deal)")
            seat = self._get(req, "seat", (int,), "a seat number")
            hand = self._get(req, "hand", (list,), "the seat's dealt cards (a list)")
            agent = self._get(req, "agent", (str, None), "an agent name or null", "random")
            settings = self._get(req, "settings", (dict, None), "an object of agent settings", None)
            check = self._get(req, "check", (bool,), "true or false", True)
            s = Session(game, options, seat, hand, agent=agent, settings=settings, seed=seed, header=header,
                        check=check, allow_import=self.allow_agent_import)
        elif role == "referee":
            for key in ("seat", "hand", "agent", "settings", "check"):
                if key in req:
                    raise ProtocolError("bad_request", f"a referee session takes no {key!r}")
            hands = self._get(req, "hands", (list, None), "every seat's dealt cards (a list of lists)", None)
            s = Session.referee(game, options, hands, seed=seed, header=header)
        else:
            raise ProtocolError("bad_request", f"'role' must be \"player\" or \"referee\", not {json.dumps(role)[:60]}")
        if sid is None:
            while f"s{self._next_id}" in self.sessions:
                self._next_id += 1
            sid = f"s{self._next_id}"
            self._next_id += 1
        self.sessions[sid] = s
        return {"session": sid, **s.describe(), **s.status()}

    def cmd_close(self, req: dict) -> dict:
        """Close a session."""
        sid, _ = self._session(req)
        del self.sessions[sid]
        return {"session": sid}

    def cmd_sessions(self, req: dict) -> dict:
        """The open sessions."""
        return {"sessions": [{"session": sid, "role": s.role, "game": s.game.name, "seat": s.seat,
                              "agent": s.agent_spec, "num_events": len(s.log)}
                             for sid, s in self.sessions.items()]}

    def cmd_event(self, req: dict) -> dict:
        """Apply one record event to a session."""
        sid, s = self._session(req)
        ev = self._get(req, "event", (dict,), "a record event object")
        return {"session": sid, **s.event(ev)}

    def cmd_notice(self, req: dict) -> dict:
        """Pass a referee's pending notice to a session."""
        sid, s = self._session(req)
        n = self._get(req, "notice", (dict,), "a notice object (the referee's pending notice)")
        return {"session": sid, **s.notice(n)}

    def _decide(self, req: dict, method: str) -> dict:
        sid, s = self._session(req)
        time_ms = self._get(req, "time_ms", (int, float, None), "a positive number of milliseconds", None)
        on_timeout = self._get(req, "on_timeout", (str,), "\"error\" or \"fallback\"", "error")
        d = s.decide(method, time_ms, on_timeout)
        return {"session": sid, "action": d.action, "elapsed_ms": round(d.elapsed_ms, 3), "fallback": d.fallback}

    def cmd_act(self, req: dict) -> dict:
        """The agent's action (the seat must be to move)."""
        return self._decide(req, "act")

    def cmd_react(self, req: dict) -> dict:
        """The agent's out-of-turn action, or null."""
        return self._decide(req, "react")

    def cmd_apply(self, req: dict) -> dict:
        """Referee: resolve an action into events."""
        sid, s = self._session(req)
        action = self._get(req, "action", (dict,), "an action object")
        if s.role != "referee":
            raise ProtocolError("wrong_role", "apply needs a referee session (a player session takes events)")
        return {"session": sid, **s.apply(action)}

    def cmd_legal(self, req: dict) -> dict:
        """The legal actions of a seat."""
        sid, s = self._session(req)
        seat = self._get(req, "seat", (int, None), "a seat number", None)
        types = self._get(req, "types", (list, None), "a list of action types", None)
        if types is not None and not all(isinstance(t, str) for t in types):
            raise ProtocolError("bad_request", "'types' must be a list of strings")
        limit = self._get(req, "limit", (int, None), "a non-negative integer", None)
        if limit is not None and limit < 0:
            raise ProtocolError("bad_request", "'limit' must be a non-negative integer")
        seat = s._seat_arg(seat)
        actions, total = s.legal(seat, types, limit)
        return {"session": sid, "seat": seat, "actions": actions, "count": total}

    def cmd_check(self, req: dict) -> dict:
        """Whether an action is legal now."""
        sid, s = self._session(req)
        action = self._get(req, "action", (dict,), "an action object")
        return {"session": sid, **s.check_action(action)}

    def cmd_status(self, req: dict) -> dict:
        """Who is to move, whether the game is over, the pending notice."""
        sid, s = self._session(req)
        return {"session": sid, **s.status()}

    def cmd_record(self, req: dict) -> dict:
        """The session's record: header and events."""
        sid, s = self._session(req)
        return {"session": sid, **s.record()}

    def cmd_hint(self, req: dict) -> dict:
        """The seat's advice (docs/hints.md); with ``params.text`` true also ``text``: the
        advice as ``cardmind hint`` prints it."""
        sid, s = self._session(req)
        params = self._get(req, "params", (dict, None), "an object of hint parameters", None) or {}
        hint, text = s.hint_and_text(**params)
        return {"session": sid, "hint": hint, **({} if text is None else {"text": text})}

    def cmd_belief(self, req: dict) -> dict:
        """The seat's posterior (``params``: ``precision`` for a sampled Go Fish belief)."""
        sid, s = self._session(req)
        params = self._get(req, "params", (dict, None), "an object of belief parameters", None) or {}
        return {"session": sid, "belief": s.belief(**params)}

    def cmd_view(self, req: dict) -> dict:
        """The table as a seat sees it: its hand and the public table (``Game.table_view``)."""
        sid, s = self._session(req)
        seat = self._get(req, "seat", (int, None), "a seat number", None)
        return {"session": sid, "view": s.table_view(seat)}

    def cmd_quit(self, req: dict) -> dict:
        """Stop after this reply."""
        self.done = True
        return {}


# ---------------------------------------------------------------------------- hello
def _json_value(v: Any) -> Any:
    return json.loads(dumps(v))


def _game_features(game) -> dict[str, bool]:
    """Whether ``game`` has a belief tracker and a hint engine (tried on a fresh deal)."""
    out = {"belief": False, "hint": False}
    try:
        from ..belief import tracker_for  # noqa: PLC0415
        from ..hints import hint_for  # noqa: PLC0415

        state, header = game.initial_state(None, np.random.default_rng(0))
        h = {k: v for k, v in header.items() if k not in ("hands", "stock")}
        h.update(game.observer_header(header, 0))
        rec = Record(game, state.options, h, [], "<hello>", [])
        tracker = tracker_for(rec, 0)
        out["belief"] = True
        hint_for(tracker)
        out["hint"] = True
    except Exception:  # noqa: BLE001 - a game without (working) advice simply says so
        pass
    return out


def describe_engine() -> dict[str, Any]:
    """The body of the ``hello`` reply (without ``limits``)."""
    from ..agents.base import agent_table, resolve_agent  # noqa: PLC0415

    games = []
    names = game_names()
    for name in names:
        g = get_game(name)
        opts = [{"name": s.name, "default": _json_value(s.default), "doc": s.doc,
                 "choices": None if s.choices is None else _json_value(list(s.choices))}
                for s in g.option_specs]
        default_opts = g.parse_options(None)
        games.append({"name": g.name, "title": g.title or g.name, "options": opts,
                      "seats": g.num_seats(default_opts),
                      "events": {k: dict(v) for k, v in g.event_schema().items()},
                      "header_keys": dict(g.header_schema), **_game_features(g),
                      "player_models": list(g.player_models())})
    agents: list[dict[str, Any]] = []
    for name, gs in agent_table().items():
        by_cls: dict[int, dict[str, Any]] = {}
        for gname in (names if "*" in gs else gs):
            if gname not in names:
                continue
            try:
                cls = resolve_agent(name, gname)
            except ValueError:
                continue
            entry = by_cls.get(id(cls))
            if entry is None:
                doc = (cls.__doc__ or "").strip().split("\n\n")[0]
                entry = by_cls[id(cls)] = {"name": name, "games": [],
                                           "settings": _json_value(dict(cls.default_settings)),
                                           "doc": " ".join(doc.split())}
            entry["games"].append(gname)
        agents.extend(by_cls.values())
    return {"protocol": PROTOCOL, "engine": "cardmind", "version": __version__, "record_format": FORMAT,
            "games": games, "agents": agents, "commands": list(COMMANDS), "errors": dict(ERROR_CODES)}


# ---------------------------------------------------------------------------- serving
def _is_binary(stream: Any) -> bool:
    if isinstance(stream, io.TextIOBase):
        return False
    if isinstance(stream, (io.RawIOBase, io.BufferedIOBase)):
        return True
    return "b" in getattr(stream, "mode", "")


def serve(infile: IO | None = None, outfile: IO | None = None, engine: Engine | None = None) -> int:
    """Answer requests from ``infile`` on ``outfile`` until ``quit`` or end of input.

    Args:
        infile: a binary or text stream (default: standard input, read as bytes so that
            bad UTF-8 is an error reply, not a crash).
        outfile: a binary or text stream (default: standard output). Each reply is one line,
            flushed at once. While a request is handled, ``sys.stdout`` points to standard
            error, so stray prints cannot corrupt the protocol.
        engine: the :class:`Engine` (default: a new one).

    Returns:
        The exit status: 0.
    """
    if infile is None:
        infile = sys.stdin.buffer
    if outfile is None:
        outfile = sys.stdout
    engine = engine or Engine()
    in_binary = _is_binary(infile)
    out_binary = _is_binary(outfile)
    nl = b"\n" if in_binary else "\n"

    def write(text: str) -> None:
        data = text + "\n"
        outfile.write(data.encode("ascii") if out_binary else data)
        outfile.flush()

    try:
        while not engine.done:
            raw = infile.readline(MAX_LINE + 3)  # a full line: at most MAX_LINE, "\r\n"
            if not raw:
                break
            if not raw.endswith(nl) and len(raw) >= MAX_LINE + 3:
                while True:  # skip the rest of the overlong line
                    more = infile.readline(1 << 16)
                    if not more or more.endswith(nl):
                        break
                reply = dumps(Engine.error("line_too_long", f"the line has more than {MAX_LINE} bytes"))
            else:
                with contextlib.redirect_stdout(sys.stderr):
                    reply = engine.handle(raw)
            write(reply)
    except BrokenPipeError:
        return 0
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m cardmind.protocol.engine``: the same as ``cardmind engine``."""
    import argparse  # noqa: PLC0415

    p = argparse.ArgumentParser(prog="cardmind engine", description="the cardmind engine protocol on stdin/stdout")
    add_engine_args(p)
    args = p.parse_args(argv)
    return run_engine(args)


def add_engine_args(p) -> None:
    """The options of ``cardmind engine`` (shared with :mod:`cardmind.cli`)."""
    p.add_argument("--allow-agent-import", action="store_true",
                   help="allow agents named package.module:Class (imports and runs that module)")
    p.add_argument("--max-sessions", type=int, default=MAX_SESSIONS, metavar="N",
                   help=f"sessions open at once (default {MAX_SESSIONS})")


def run_engine(args) -> int:
    """Serve stdin/stdout with the options parsed by :func:`add_engine_args`."""
    return serve(engine=Engine(allow_agent_import=args.allow_agent_import, max_sessions=max(1, args.max_sessions)))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
