"""Read, validate and write game records in the ``cardmind-record/1`` format.

The format is defined in ``shared/spec/records.md``: JSON Lines, line 1 the header, every
later line one event. Reading is strict: an unknown ``type``, a missing or unknown key,
a value of the wrong kind, an unknown card or seat, and any event that breaks the rules
is rejected with a :class:`~cardmind.errors.RecordError` whose text is
``file:line: reason``. Writing emits the canonical form (canonical card tokens, every
option spelled out); reading what was written gives an equal record.

Example::

    rec = read_record("examples/literature-6p.jsonl")       # parse + replay under the rules
    state = replay(rec)                                       # the state after the last event
    write_record("copy.jsonl", rec)
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import IO, Any

from .cards import parse_card, parse_rank
from .core import Game, State, get_game
from .errors import CardError, CardmindError, IllegalAction, OptionError, RecordError

FORMAT = "cardmind-record/1"

#: header keys every game accepts, with their kinds
HEADER_SCHEMA = {
    "format": "str", "game": "str", "options": "object", "names": "?str_list",
    "hands": "?hands", "observer": "?seat", "hand": "?card_list",
}


@dataclass
class Record:
    """A parsed game record.

    Attributes:
        game: the :class:`~cardmind.core.Game` it is a record of.
        options: the game's parsed options (every option, defaults filled in).
        header: the canonical header (``format``, ``game``, ``options`` and the deal keys).
        events: the events in order, canonical (card tokens normalised).
        path: where it was read from (``"<record>"`` when built in memory).
        lines: 1-based line number of each event in the file (the header is line 1).
    """

    game: Game
    options: dict
    header: dict
    events: list[dict] = field(default_factory=list)
    path: str = "<record>"
    lines: list[int] = field(default_factory=list)

    @property
    def observer(self) -> int | None:
        """The observer's seat for a player's record, else ``None``."""
        return self.header.get("observer")

    @property
    def is_complete(self) -> bool:
        """Whether the header has every seat's hand."""
        return "hands" in self.header

    def line_of(self, index: int) -> int:
        """The file line of event ``index`` (0-based)."""
        return self.lines[index] if index < len(self.lines) else index + 2

    def truncated(self, upto_line: int) -> "Record":
        """A copy holding only the events on lines ``<= upto_line``."""
        keep = [i for i, ln in enumerate(self.lines) if ln <= upto_line]
        return Record(self.game, self.options, dict(self.header), [self.events[i] for i in keep],
                      self.path, [self.lines[i] for i in keep])

    def for_seat(self, seat: int) -> "Record":
        """The player's record of ``seat`` cut from a complete record (events as that seat saw them).

        Raises:
            CardmindError: the record is not complete, or ``seat`` is not a seat.
        """
        if "hands" not in self.header:
            if self.observer == seat:
                return self
            raise CardmindError(f"{self.path}: this is seat {self.observer}'s record; it cannot be "
                                f"seen from seat {seat}")
        n = self.game.num_seats(self.options)
        if not 0 <= seat < n:
            raise CardmindError(f"seat {seat} is not a seat of this game (0-{n - 1})")
        header = {k: v for k, v in self.header.items() if k in ("format", "game", "options", "names")}
        header.update(self.game.observer_header(self.header, seat))
        state = self.game.new_state(self.options, self.header)
        events = []
        for ev in self.events:
            events.append(state.redact(ev, seat))
            state.apply_event(ev)
        return Record(self.game, self.options, header, events, self.path, list(self.lines))


# ---------------------------------------------------------------------------- kinds
def _err(path: str, line: int, msg: str) -> RecordError:
    return RecordError(path, line, msg)


#: the value kinds every game's schemas may use (``docs/records.md``); a game adds its own
#: through :attr:`~cardmind.core.Game.record_kinds`
SHARED_KINDS = ("str", "bool", "seat", "count", "seat_or_null", "card", "card_or_null", "rank", "rank_or_null",
                "card_list", "hands", "card_list_or_null", "hands_or_null", "int", "int_list", "object_list",
                "str_list", "object")


def check_kind(kind: str, value: Any, what: str, game_kinds: Mapping[str, Any] | None = None) -> Any:
    """Check and canonicalise one value of ``kind`` (a :data:`SHARED_KINDS` name, or one of
    ``game_kinds``: ``{name: check(value, what) -> canonical value}``, a game's
    :attr:`~cardmind.core.Game.record_kinds`); a ``?`` in front marks an optional key and is
    ignored here.

    Raises:
        ValueError: the value is not of that kind (the message names ``what``).
        KeyError: ``kind`` is neither shared nor the game's (a schema error, not bad input).
    """
    if kind.startswith("?"):
        kind = kind[1:]
    if kind not in SHARED_KINDS:
        if game_kinds is None or kind not in game_kinds:
            raise KeyError(f"unknown record value kind {kind!r}")
        return game_kinds[kind](value, what)
    return _check_kind(kind, value, what)


def _check_kind(kind: str, value: Any, what: str) -> Any:
    """Check and canonicalise one value of a shared ``kind``; raise ``ValueError(reason)``."""
    if kind == "str":
        if not isinstance(value, str):
            raise ValueError(f"{what} must be a string, not {json.dumps(value)}")
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"{what} must be true or false, not {json.dumps(value)}")
        return value
    if kind in ("seat", "count"):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{what} must be a non-negative integer, not {json.dumps(value)}")
        return value
    if kind == "seat_or_null":
        return None if value is None else _check_kind("seat", value, what)
    if kind == "card":
        try:
            return parse_card(value)
        except CardError as exc:
            raise ValueError(f"{what}: {exc}") from None
    if kind == "card_or_null":
        return None if value is None else _check_kind("card", value, what)
    if kind == "rank":
        try:
            return parse_rank(value)
        except CardError:
            raise ValueError(f"{what} must be a rank 2-9, T (or 10), J, Q, K or A, "
                             f"not {json.dumps(value)}") from None
    if kind == "rank_or_null":
        return None if value is None else _check_kind("rank", value, what)
    if kind == "card_list":
        if not isinstance(value, list):
            raise ValueError(f"{what} must be a list of cards, not {json.dumps(value)}")
        return [_check_kind("card", v, what) for v in value]
    if kind == "hands":
        if not isinstance(value, list) or not all(isinstance(h, list) for h in value):
            raise ValueError(f"{what} must be a list of card lists (one per seat)")
        return [_check_kind("card_list", h, f"{what}[{i}]") for i, h in enumerate(value)]
    if kind == "card_list_or_null":
        return None if value is None else _check_kind("card_list", value, what)
    if kind == "hands_or_null":
        if not isinstance(value, list) or not all(h is None or isinstance(h, list) for h in value):
            raise ValueError(f"{what} must be a list with a card list or null (unseen) per seat")
        return [None if h is None else _check_kind("card_list", h, f"{what}[{i}]") for i, h in enumerate(value)]
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{what} must be an integer, not {json.dumps(value)}")
        return value
    if kind == "int_list":
        if not isinstance(value, list):
            raise ValueError(f"{what} must be a list of integers, not {json.dumps(value)}")
        return [_check_kind("int", v, what) for v in value]
    if kind == "object_list":
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise ValueError(f"{what} must be a list of objects")
        return value
    if kind == "str_list":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ValueError(f"{what} must be a list of strings")
        return value
    if kind == "object":
        if not isinstance(value, dict):
            raise ValueError(f"{what} must be an object, not {json.dumps(value)}")
        return value
    raise AssertionError(f"unknown kind {kind}")


def _check_object(obj: dict, schema: Mapping[str, str], what: str, game_kinds: Mapping[str, Any]) -> dict:
    out = {}
    for key in obj:
        if key not in schema:
            raise ValueError(f"unknown key {key!r} in {what} (expected {', '.join(schema)})")
    for key, kind in schema.items():
        if key not in obj:
            if kind.startswith("?"):
                continue
            raise ValueError(f"{what} is missing {key!r}")
        out[key] = check_kind(kind, obj[key], f"{key!r}", game_kinds)
    return out


# ---------------------------------------------------------------------------- reading
def parse_header(obj: Any, path: str = "<record>", line: int = 1) -> tuple[Game, dict, dict]:
    """Check a header object; return ``(game, parsed options, canonical header)``.

    Raises:
        RecordError: a malformed header, unknown game or option.
    """
    if not isinstance(obj, dict):
        raise _err(path, line, "the header must be a JSON object")
    if "format" not in obj:
        if "type" in obj:  # an event where the header belongs
            raise _err(path, line, f"the record has no header: line {line} is an event (type "
                                   f"{json.dumps(obj['type'])}), but a record starts with its header line, for example "
                                   f'{{"format": "{FORMAT}", "game": ..., "options": {{...}}, "observer": 0, '
                                   f'"hand": [...]}} (docs/records.md)')
        raise _err(path, line, f'the header lacks "format": "{FORMAT}" (docs/records.md)')
    if obj.get("format") != FORMAT:
        raise _err(path, line, f"the header's format must be {FORMAT!r}, not {obj.get('format')!r}")
    try:
        game = get_game(obj.get("game"))
    except OptionError as exc:
        raise _err(path, line, str(exc)) from None
    schema = dict(HEADER_SCHEMA)
    schema.update(game.header_schema)
    try:
        header = _check_object(obj, schema, "the header", game.record_kinds)
        options = game.parse_options(header["options"])
    except (ValueError, OptionError) as exc:
        raise _err(path, line, str(exc)) from None
    if "hands" not in header and not ("observer" in header and "hand" in header):
        raise _err(path, line, "the header needs 'hands' (a complete record) or 'observer' and 'hand' "
                               "(a player's record)")
    if ("observer" in header) != ("hand" in header):
        raise _err(path, line, "'observer' and 'hand' go together")
    n = game.num_seats(options)
    if "observer" in header and header["observer"] >= n:
        raise _err(path, line, f"observer {header['observer']} is not a seat (0-{n - 1})")
    if "names" in header and len(header["names"]) != n:
        raise _err(path, line, f"'names' has {len(header['names'])} names for {n} seats")
    header["options"] = dict(options)
    return game, options, header


def parse_event(game: Game, obj: Any, path: str = "<record>", line: int = 0) -> dict:
    """Check one event object against the game's event schema; return it canonical.

    Raises:
        RecordError: not an object, unknown ``type``, missing/unknown key, wrong kind.
    """
    if not isinstance(obj, dict):
        raise _err(path, line, "an event must be a JSON object")
    schema = game.event_schema()
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in schema:
        raise _err(path, line, f"unknown event type {kind!r} for {game.name} (expected {', '.join(schema)})")
    try:
        body = _check_object({k: v for k, v in obj.items() if k != "type"}, schema[kind], f"the {kind} event",
                             game.record_kinds)
    except ValueError as exc:
        raise _err(path, line, str(exc)) from None
    return {"type": kind, **body}


def loads_record(text: str, path: str = "<record>", upto: int | None = None, replay_rules: bool = True) -> Record:
    """Parse a record from a string (see :func:`read_record`)."""
    return _parse_lines(io.StringIO(text), path, upto, replay_rules)


def read_record(path: str | os.PathLike, upto: int | None = None, replay_rules: bool = True) -> Record:
    """Read and check a record file.

    Args:
        path: the ``.jsonl`` file.
        upto: when given, only lines ``<= upto`` are read (the header is line 1).
        replay_rules: replay the events under the rules (default) and reject the first
            illegal one; a player's record is checked as far as its hand and the public
            events allow (use :func:`cardmind.belief.check_record` for the full check).

    Returns:
        The :class:`Record`.

    Raises:
        RecordError: ``file:line: reason`` for unreadable files, bad JSON, a malformed
            header or event, or an illegal event.
    """
    p = os.fspath(path)
    try:
        with open(p, encoding="utf-8-sig") as fh:  # a byte-order mark (Windows editors) is skipped
            return _parse_lines(fh, p, upto, replay_rules)
    except OSError as exc:
        raise RecordError(p, None, f"cannot read the record: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(p, None, "the record is not UTF-8 text") from None


class _DuplicateKey(ValueError):
    """A JSON object of a record names the same key twice (the reader is strict)."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


def _parse_lines(fh: IO[str], path: str, upto: int | None, replay_rules: bool) -> Record:
    raw_lines = []
    for no, text in enumerate(fh, start=1):
        if upto is not None and no > upto:
            break
        raw_lines.append((no, text))
    if upto is not None and upto > len(raw_lines):
        raise RecordError(path, None, f"--upto {upto} is past the end of the record "
                                      f"({len(raw_lines)} lines)")
    while raw_lines and not raw_lines[-1][1].strip():
        raw_lines.pop()
    if not raw_lines:
        raise RecordError(path, 1, "the record is empty (line 1 must be the header)")
    objs = []
    for no, text in raw_lines:
        if not text.strip():
            raise _err(path, no, "blank line inside the record")
        try:
            objs.append((no, json.loads(text.rstrip("\r\n"), object_pairs_hook=_no_duplicate_keys)))
        except json.JSONDecodeError as exc:
            raise _err(path, no, f"not valid JSON ({exc.msg.removesuffix(' at')} at column {exc.colno})") from None
        except _DuplicateKey as exc:
            raise _err(path, no, f"the key {exc.args[0]!r} appears twice in one object") from None
    game, options, header = parse_header(objs[0][1], path, objs[0][0])
    events, lines = [], []
    for no, obj in objs[1:]:
        events.append(parse_event(game, obj, path, no))
        lines.append(no)
    rec = Record(game, options, header, events, path, lines)
    if replay_rules:
        replay(rec)
    return rec


def new_state(rec: Record) -> State:
    """The state at the start of ``rec``'s game.

    Raises:
        RecordError: (line 1) dealt hands that do not match the deal.
    """
    try:
        return rec.game.new_state(rec.options, rec.header)
    except IllegalAction as exc:
        raise RecordError(rec.path, 1, exc.message, exc.rule) from None


def replay(rec: Record, upto_event: int | None = None) -> State:
    """Replay ``rec`` under the rules and return the state after its events.

    Args:
        rec: the record.
        upto_event: replay only the first ``upto_event`` events.

    Raises:
        RecordError: ``file:line: reason (rule: name)`` for the first illegal event.
    """
    state = new_state(rec)
    feed(rec, state.apply_event, upto_event)
    return state


def feed(rec: Record, apply: Callable[[dict], None], upto_event: int | None = None) -> None:
    """Pass the first ``upto_event`` events of ``rec`` (default: all) to ``apply`` in order
    (a state's ``apply_event``, a tracker's ``observe``).

    Raises:
        RecordError: ``file:line: reason (rule: name)`` when ``apply`` raises ``IllegalAction``.
    """
    for i, ev in enumerate(rec.events[:upto_event]):
        try:
            apply(ev)
        except IllegalAction as exc:
            raise RecordError(rec.path, rec.line_of(i), f"illegal {ev['type']}: {exc.message} "
                                                        f"(rule: {exc.rule})", exc.rule) from None


# ---------------------------------------------------------------------------- writing
def header_of(game: Game, options: Mapping[str, Any], **deal: Any) -> dict:
    """A canonical header for ``game`` with ``options`` and deal keys (``hands``, ...)."""
    out = {"format": FORMAT, "game": game.name, "options": dict(game.parse_options(options))}
    out.update({k: v for k, v in deal.items() if v is not None})
    return out


def record_lines(rec: Record) -> list[str]:
    """The record as JSON lines (no newlines), canonical form."""
    return [json.dumps(rec.header)] + [json.dumps(ev) for ev in rec.events]


def write_record(path_or_file: str | os.PathLike | IO[str], rec: Record) -> None:
    """Write ``rec`` in canonical form (one JSON object per line, UTF-8)."""
    text = "\n".join(record_lines(rec)) + "\n"
    if hasattr(path_or_file, "write"):
        path_or_file.write(text)
        return
    tmp = os.fspath(path_or_file) + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path_or_file)


def make_record(header: Mapping[str, Any], events: Iterable[dict] = ()) -> Record:
    """Build a :class:`Record` in memory from a header dict and events (both checked)."""
    g, options, h = parse_header(dict(header))
    evs = [parse_event(g, e, "<record>", i + 2) for i, e in enumerate(events)]
    return Record(g, options, h, evs, "<record>", list(range(2, len(evs) + 2)))
