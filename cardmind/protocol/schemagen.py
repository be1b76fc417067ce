"""Write the JSON Schemas (draft 2020-12) of every engine request and reply.

The schemas live in ``cardmind/protocol/schemas/`` (shipped with the package) so that
frontends in any language can validate messages or generate types from them:

* ``request.json`` / ``reply.json``: any request / any reply (they dispatch on ``cmd`` and
  ``ok`` to the files below);
* ``<cmd>.request.json`` and ``<cmd>.reply.json`` for every command, ``error.reply.json``
  for every error reply;
* ``common.json``: shared definitions (session id, event, action, status, result, ...).

They are generated from this module (one source of truth) by::

    python -m cardmind.protocol.schemagen          # rewrite the files
    python -m cardmind.protocol.schemagen --check  # exit 1 if the files are out of date

Game-specific objects (events, actions, options, hints, beliefs) are described generically
(objects with a ``type``, ...): the protocol is the same for every game; the game's own
formats are in ``records.md`` and ``docs/hints.md``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .engine import COMMANDS, PROTOCOL
from .errors import ERROR_CODES

BASE = "https://cardmind.dev/schemas/engine/1/"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"


def _c(name: str) -> dict:
    return {"$ref": f"common.json#/$defs/{name}"}


def _nullable(schema: dict) -> dict:
    return {"anyOf": [schema, {"type": "null"}]}


COMMON: dict[str, Any] = {
    "id": {"description": "Any JSON value the client chose; echoed in the reply."},
    "session_id": {"type": "string", "pattern": "^[A-Za-z0-9_.:-]{1,64}$"},
    "seat": {"type": "integer", "minimum": 0},
    "event": {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}},
              "description": "A record event exactly as records.md writes it (game-specific keys)."},
    "action": {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}},
               "description": "An action as the game's action.to_json() writes it (game-specific keys)."},
    "notice": {"type": "object",
               "description": "A referee's pending notice (State.pending_notice): a decision under way."},
    "result": {"type": "object", "required": ["scores", "outcome", "detail"], "additionalProperties": False,
               "properties": {"scores": {"type": "array", "items": {"type": "number"}},
                              "outcome": {"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 1}},
                              "detail": {"type": "object"}}},
    "decimal": {"type": "string", "pattern": "^-?[0-9]+$"},
    "big_counts": {"type": "object", "dependentRequired": {"consistent_deals": ["consistent_deals_str"]},
                   "properties": {"consistent_deals": {"type": "integer"},
                                  "consistent_deals_str": {"$ref": "#/$defs/decimal"}}},
    "time_ms": {"type": "number", "exclusiveMinimum": 0},
    "on_timeout": {"enum": ["error", "fallback"]},
    "error": {"type": "object", "required": ["code", "message"],
              "properties": {"code": {"enum": list(ERROR_CODES)}, "message": {"type": "string"},
                             "rule": {"type": "string"}, "elapsed_ms": {"type": "number"}}},
}

#: properties of the status object (player sessions add your_turn)
STATUS = {
    "to_move": _nullable(_c("seat")),
    "actors": {"type": "array", "items": _c("seat")},
    "over": {"type": "boolean"},
    "result": _nullable(_c("result")),
    "notice": _nullable(_c("notice")),
    "num_events": {"type": "integer", "minimum": 0},
    "your_turn": {"type": "boolean"},
}
STATUS_REQUIRED = ["to_move", "actors", "over", "result", "notice", "num_events"]

SESSION_REF = _c("session_id")

#: request properties per command (besides cmd and id), and the required ones
REQUESTS: dict[str, tuple[dict, list[str]]] = {
    "hello": ({"protocol": {"type": "string"}}, []),
    "new": ({
        "session": SESSION_REF,
        "game": {"type": "string"},
        "role": {"enum": ["player", "referee"], "default": "player"},
        "options": _nullable({"type": "object"}),
        "seat": _c("seat"),
        "hand": {"type": "array", "items": {"type": "string"}},
        "hands": _nullable({"type": "array", "items": {"type": "array", "items": {"type": "string"}}}),
        "header": _nullable({"type": "object"}),
        "agent": _nullable({"type": "string", "minLength": 1}),
        "settings": _nullable({"type": "object"}),
        "seed": {"type": "integer", "minimum": 0},
        "check": {"type": "boolean", "default": True},
    }, ["game"]),
    "close": ({"session": SESSION_REF}, ["session"]),
    "sessions": ({}, []),
    "event": ({"session": SESSION_REF, "event": _c("event")}, ["session", "event"]),
    "notice": ({"session": SESSION_REF, "notice": _c("notice")}, ["session", "notice"]),
    "act": ({"session": SESSION_REF, "time_ms": _nullable(_c("time_ms")), "on_timeout": _c("on_timeout")},
            ["session"]),
    "react": ({"session": SESSION_REF, "time_ms": _nullable(_c("time_ms")), "on_timeout": _c("on_timeout")},
              ["session"]),
    "apply": ({"session": SESSION_REF, "action": _c("action")}, ["session", "action"]),
    "legal": ({"session": SESSION_REF, "seat": _nullable(_c("seat")),
               "types": _nullable({"type": "array", "items": {"type": "string"}}),
               "limit": _nullable({"type": "integer", "minimum": 0})}, ["session"]),
    "check": ({"session": SESSION_REF, "action": _c("action")}, ["session", "action"]),
    "status": ({"session": SESSION_REF}, ["session"]),
    "record": ({"session": SESSION_REF}, ["session"]),
    "hint": ({"session": SESSION_REF, "params": _nullable({"type": "object", "properties": {
        "model": {"type": "string", "description": "a player model of the game (hello: player_models)"},
        "text": {"type": "boolean", "description": "also reply with text: the advice as cardmind hint prints it"}}})},
             ["session"]),
    "belief": ({"session": SESSION_REF, "params": _nullable({"type": "object", "properties": {
        "model": {"type": "string", "description": "a player model of the game (hello: player_models)"}}})},
               ["session"]),
    "view": ({"session": SESSION_REF, "seat": _nullable(_c("seat"))}, ["session"]),
    "quit": ({}, []),
}

_GAME = {
    "type": "object", "additionalProperties": False,
    "required": ["name", "title", "options", "seats", "events", "header_keys", "belief", "hint", "player_models"],
    "properties": {
        "name": {"type": "string"}, "title": {"type": "string"},
        "options": {"type": "array", "items": {
            "type": "object", "additionalProperties": False, "required": ["name", "default", "doc", "choices"],
            "properties": {"name": {"type": "string"}, "default": {}, "doc": {"type": "string"},
                           "choices": _nullable({"type": "array"})}}},
        "seats": {"type": "integer", "minimum": 1},
        "events": {"type": "object", "additionalProperties": {"type": "object",
                                                              "additionalProperties": {"type": "string"}}},
        "header_keys": {"type": "object", "additionalProperties": {"type": "string"}},
        "belief": {"type": "boolean"}, "hint": {"type": "boolean"},
        "player_models": {"type": "array", "items": {"type": "string"}},
    },
}
_AGENT = {
    "type": "object", "additionalProperties": False, "required": ["name", "games", "settings", "doc"],
    "properties": {"name": {"type": "string"}, "games": {"type": "array", "items": {"type": "string"}},
                   "settings": {"type": "object"}, "doc": {"type": "string"}},
}

_CARDS = {"type": "array", "items": {"type": ["string", "null"]}}
_OWNER = {"oneOf": [_c("seat"), {"type": "array", "items": _c("seat")}, {"type": "null"}]}
#: the table as a seat sees it (Game.table_view)
_VIEW = {
    "type": "object", "additionalProperties": False, "required": ["seat", "hand", "counts", "zones", "scores", "notes"],
    "properties": {
        "seat": _c("seat"),
        "hand": _nullable({"type": "array", "items": {"type": "string"}}),
        "counts": {"type": "object", "additionalProperties": {
            "oneOf": [{"type": "integer"}, {"type": "array", "items": {"type": "integer"}}]}},
        "zones": {"type": "array", "items": {
            "type": "object", "additionalProperties": False, "required": ["title", "owner"],
            "oneOf": [{"required": ["cards"]}, {"required": ["melds"]}],
            "properties": {"title": {"type": "string"}, "owner": _OWNER, "cards": _CARDS,
                           "melds": {"type": "array", "items": _CARDS}}}},
        "scores": _nullable({"type": "array", "items": {
            "type": "object", "additionalProperties": False, "required": ["title", "seats", "points"],
            "properties": {"title": {"type": "string"}, "seats": {"type": "array", "items": _c("seat")},
                           "points": {"type": "number"}}}}),
        "notes": {"type": "array", "items": {"type": "string"}},
    },
}

#: reply properties per command (besides ok, cmd and id), the required ones, and whether
#: the status object's properties are part of the reply
REPLIES: dict[str, tuple[dict, list[str], bool]] = {
    "hello": ({
        "protocol": {"const": PROTOCOL}, "engine": {"const": "cardmind"}, "version": {"type": "string"},
        "record_format": {"type": "string"},
        "games": {"type": "array", "items": _GAME},
        "agents": {"type": "array", "items": _AGENT},
        "commands": {"type": "array", "items": {"enum": list(COMMANDS)}},
        "errors": {"type": "object", "additionalProperties": {"type": "string"}},
        "limits": {"type": "object", "required": ["max_line_bytes", "max_sessions"],
                   "properties": {"max_line_bytes": {"type": "integer"}, "max_sessions": {"type": "integer"}}},
        "allow_agent_import": {"type": "boolean"},
    }, ["protocol", "engine", "version", "record_format", "games", "agents", "commands", "errors", "limits",
        "allow_agent_import"], False),
    "new": ({
        "session": SESSION_REF, "role": {"enum": ["player", "referee"]}, "game": {"type": "string"},
        "options": {"type": "object"}, "seats": {"type": "integer", "minimum": 1},
        "seat": _nullable(_c("seat")), "header": {"type": "object"},
        "agent": _nullable({"type": "string"}), "settings": _nullable({"type": "object"}),
        "seed": {"type": "integer", "minimum": 0}, "check": {"type": "boolean"},
        "tracker": _nullable({"type": "boolean"}),
        "deck": _nullable({"type": "array", "items": {"type": "string"}, "uniqueItems": True}),
    }, ["session", "role", "game", "options", "seats", "seat", "header", "seed", "deck"], True),
    "close": ({"session": SESSION_REF}, ["session"], False),
    "sessions": ({"sessions": {"type": "array", "items": {
        "type": "object", "additionalProperties": False,
        "required": ["session", "role", "game", "seat", "agent", "num_events"],
        "properties": {"session": SESSION_REF, "role": {"enum": ["player", "referee"]}, "game": {"type": "string"},
                       "seat": _nullable(_c("seat")), "agent": _nullable({"type": "string"}),
                       "num_events": {"type": "integer", "minimum": 0}}}}}, ["sessions"], False),
    "event": ({"session": SESSION_REF}, ["session"], True),
    "notice": ({"session": SESSION_REF}, ["session"], True),
    "act": ({"session": SESSION_REF, "action": _c("action"), "elapsed_ms": {"type": "number", "minimum": 0},
             "fallback": {"type": "boolean"}}, ["session", "action", "elapsed_ms", "fallback"], False),
    "react": ({"session": SESSION_REF, "action": _nullable(_c("action")),
               "elapsed_ms": {"type": "number", "minimum": 0}, "fallback": {"type": "boolean"}},
              ["session", "action", "elapsed_ms", "fallback"], False),
    "apply": ({"session": SESSION_REF, "events": {"type": "array", "items": _c("event")},
               "redacted": {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"},
                            "additionalProperties": {"type": "array", "items": _c("event")}}},
              ["session", "events", "redacted"], True),
    "legal": ({"session": SESSION_REF, "seat": _c("seat"), "actions": {"type": "array", "items": _c("action")},
               "count": {"type": "integer", "minimum": 0}}, ["session", "seat", "actions", "count"], False),
    "check": ({"session": SESSION_REF, "legal": {"type": "boolean"}, "rule": {"type": "string"},
               "message": {"type": "string"}}, ["session", "legal"], False),
    "status": ({"session": SESSION_REF}, ["session"], True),
    "record": ({"session": SESSION_REF, "header": {"type": "object", "required": ["format", "game", "options"]},
                "events": {"type": "array", "items": _c("event")}}, ["session", "header", "events"], False),
    "hint": ({"session": SESSION_REF, "hint": _c("big_counts"), "text": {"type": "string"}}, ["session", "hint"],
             False),
    "belief": ({"session": SESSION_REF, "belief": _c("big_counts")}, ["session", "belief"], False),
    "view": ({"session": SESSION_REF, "view": _VIEW}, ["session", "view"], False),
    "quit": ({}, [], False),
}


def _doc(cmd: str, kind: str) -> str:
    return f"The {cmd!r} {kind} of the cardmind engine protocol ({PROTOCOL}); see docs/protocol.md."


def build() -> dict[str, dict]:
    """Every schema file: ``{file name: schema}``."""
    assert set(REQUESTS) == set(COMMANDS) == set(REPLIES), "schemas and commands disagree"
    for cmd, keys in COMMANDS.items():
        assert set(REQUESTS[cmd][0]) == set(keys), f"request keys of {cmd} disagree with the engine"
    out: dict[str, dict] = {}

    def file(name: str, title: str, body: dict) -> None:
        out[name] = {"$schema": DRAFT, "$id": BASE + name, "title": title, **body}

    file("common.json", "Shared definitions of the cardmind engine protocol", {"$defs": COMMON})
    for cmd, (props, required) in REQUESTS.items():
        file(f"{cmd}.request.json", f"{cmd} request", {
            "description": _doc(cmd, "request"), "type": "object", "additionalProperties": False,
            "required": ["cmd", *required],
            "properties": {"cmd": {"const": cmd}, "id": _c("id"), **props}})
    for cmd, (props, required, with_status) in REPLIES.items():
        p = {"ok": {"const": True}, "cmd": {"const": cmd}, "id": _c("id"), **props}
        req = ["ok", "cmd", *required]
        if with_status:
            p.update(STATUS)
            req += STATUS_REQUIRED
        file(f"{cmd}.reply.json", f"{cmd} reply", {
            "description": _doc(cmd, "reply"), "type": "object", "additionalProperties": False,
            "required": req, "properties": p})
    file("error.reply.json", "error reply", {
        "description": "Any failed request: ok false, a stable error code and a message.",
        "type": "object", "additionalProperties": False, "required": ["ok", "error"],
        "properties": {"ok": {"const": False}, "error": _c("error"), "id": _c("id"),
                       "cmd": {"enum": list(COMMANDS)}}})

    def dispatch(kind: str) -> list[dict]:
        return [{"if": {"required": ["cmd"], "properties": {"cmd": {"const": cmd}}},
                 "then": {"$ref": f"{cmd}.{kind}.json"}} for cmd in COMMANDS]

    file("request.json", "Any request of the cardmind engine protocol", {
        "description": f"One request line of {PROTOCOL}: a JSON object with a known cmd.",
        "type": "object", "required": ["cmd"], "properties": {"cmd": {"enum": list(COMMANDS)}},
        "allOf": dispatch("request")})
    file("reply.json", "Any reply of the cardmind engine protocol", {
        "description": f"One reply line of {PROTOCOL}: an error reply (ok false) or the reply of its cmd.",
        "type": "object", "required": ["ok"],
        "if": {"properties": {"ok": {"const": False}}},
        "then": {"$ref": "error.reply.json"},
        "else": {"required": ["cmd"], "properties": {"cmd": {"enum": list(COMMANDS)}}, "allOf": dispatch("reply")}})
    return out


def render(schema: dict) -> str:
    """A schema file's text."""
    return json.dumps(schema, indent=2) + "\n"


def write(folder: Path = SCHEMA_DIR) -> list[Path]:
    """Write every schema file into ``folder``; return the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, schema in build().items():
        p = folder / name
        p.write_text(render(schema), encoding="utf-8")
        paths.append(p)
    return paths


def stale(folder: Path = SCHEMA_DIR) -> list[str]:
    """Names of schema files that are missing or differ from :func:`build`."""
    out = []
    for name, schema in build().items():
        p = folder / name
        if not p.exists() or p.read_text(encoding="utf-8") != render(schema):
            out.append(name)
    return out


def load_all(folder: Path = SCHEMA_DIR) -> dict[str, dict]:
    """The schema files as read from ``folder``: ``{file name: schema}``."""
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))}


def main(argv: list[str] | None = None) -> int:
    """Write the schemas, or with ``--check`` report stale ones."""
    argv = sys.argv[1:] if argv is None else argv
    if "--check" in argv:
        bad = stale()
        for name in bad:
            print(f"stale: {SCHEMA_DIR / name}", file=sys.stderr)
        return 1 if bad else 0
    for p in write():
        print(p)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
