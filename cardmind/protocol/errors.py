"""The error type of the engine protocol and its stable error codes.

Every failure of a :class:`~cardmind.protocol.session.Session` method or of an engine
request is a :class:`ProtocolError` whose :attr:`~ProtocolError.code` is one of
:data:`ERROR_CODES`. The codes are part of the protocol (``docs/protocol.md``): programs
may test them; the messages are for people and may change.
"""

from __future__ import annotations

from typing import Any

from ..errors import CardmindError

#: every error code, with what it means (docs/protocol.md repeats this table)
ERROR_CODES: dict[str, str] = {
    "bad_json": "the line is not valid JSON (or not UTF-8, or empty)",
    "line_too_long": "the line is longer than the engine accepts (see hello: limits)",
    "bad_request": "a JSON request that is not an object, lacks a key, has an unknown key or a value of the wrong kind",
    "unknown_cmd": "no such command",
    "unknown_game": "no game of that name",
    "bad_option": "an unknown game option, or a value the option does not accept",
    "bad_deal": "dealt cards that do not match the game's deal (sizes, unknown or repeated cards)",
    "unknown_agent": "no agent of that name for that game",
    "bad_setting": "an unknown agent setting or a value the agent does not accept",
    "session_exists": "a session with that id is already open",
    "too_many_sessions": "the engine's session limit is reached (close some)",
    "too_many_connections": "the server's connection limit is reached (WebSocket transport); try again later",
    "no_session": "no open session with that id",
    "wrong_role": "the command does not apply to this kind of session (player or referee)",
    "bad_event": "an event that is not a record event of the game (records.md: type, keys, kinds)",
    "illegal_event": "an event (or notice) that breaks the rules given what the session knows; nothing changed",
    "contradiction": "an event after which no deal is consistent with the session's view; nothing changed",
    "bad_action": "an object that is not an action of the game",
    "illegal_action": "an action that breaks the rules now; nothing changed",
    "no_agent": "the session has no agent (it was opened with agent null)",
    "not_your_turn": "act was asked of a seat that is not to move",
    "game_over": "the game is over",
    "timeout": "the agent did not answer within time_ms; nothing changed",
    "agent_error": "the agent raised or returned an illegal action; the session is unchanged",
    "unsupported": "the game has no belief tracker or hint engine (yet)",
    "internal": "a bug in cardmind; the session is unchanged where possible",
}


class ProtocolError(CardmindError):
    """A request that cannot be carried out.

    Attributes:
        code: one of :data:`ERROR_CODES`.
        message: what went wrong, for people.
        data: extra JSON-able facts (for example ``rule`` for an illegal event).
    """

    def __init__(self, code: str, message: str, **data: Any):
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_json(self) -> dict[str, Any]:
        """``{"code", "message", ...data}``: the ``error`` object of an error reply."""
        return {"code": self.code, "message": self.message, **self.data}
