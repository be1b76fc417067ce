"""A game followed live from one seat: typed lines in, record events out, advice on demand.

:class:`LiveGame` is the part of ``cardmind advise`` that knows no terminal: it holds the
player's view, its belief tracker and the record file, turns each typed line into events
through the game's short notation (``Game.shorthand()``, :mod:`cardmind.shorthand`), checks
them (the rules on a copy of the view, then the tracker: a line that leaves no consistent deal
is refused too), and appends every accepted event to the record file at once (flushed and
synced to disk), so that nothing typed is lost if the program stops.

Example::

    live = LiveGame.new("literature", {"players": 6}, seat=1, hand="3C 9C JC 4D KD 2H TS 8S RJ",
                        path="game.jsonl")
    live.enter("0 asks 1 4D yes")          # the events it made (appended to game.jsonl)
    live.prompt()                          # "seat 0 to ask ..."
    live.advice().headline()               # what to do, in one sentence
    live.undo()                            # back one entry (the file is rewritten)

Nothing here names a game.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from ..core import Event, Game, State, get_game
from ..errors import CardmindError, Contradiction, IllegalAction, OptionError, RecordError
from ..records import FORMAT, Record, parse_event, parse_header, read_record
from ..shorthand import Shorthand, ShorthandError

#: exceptions that mean "this typed input cannot be right" when raised by rules code on odd input
_INPUT_ERRORS = (ValueError, KeyError, IndexError, TypeError)


def shorthand_of(game: Game) -> Shorthand:
    """The game's short notation.

    Raises:
        CardmindError: the game has none (it cannot be followed live).
    """
    sh = game.shorthand()
    if sh is None:
        raise CardmindError(f"{game.name} has no short notation: it cannot be followed live with cardmind advise")
    return sh


def _cut_last_line(path: str) -> str | None:
    """When the last line of the file at ``path`` was cut off while being written (no newline
    at its end and not valid JSON), move it to ``path + ".cut"`` and take it off the file;
    return that file's name, else ``None`` (nothing changes)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return None   # read_record says why
    if not data or data.endswith(b"\n"):
        return None
    start = data.rfind(b"\n") + 1
    if start == 0:
        return None   # a header cut off: nothing to continue
    last = data[start:]
    try:
        json.loads(last.decode("utf-8"))
        return None
    except (UnicodeDecodeError, json.JSONDecodeError):
        pass
    cut = path + ".cut"
    with open(cut, "wb") as fh:
        fh.write(last + b"\n")
    with open(path, "r+b") as fh:
        fh.truncate(start)
    return cut


class LiveGame:
    """One seat's view of a game being played, written to a record file as it goes.

    Args:
        game: the :class:`~cardmind.core.Game`.
        header: the player's record header (``format``, ``game``, ``options``, ``observer``,
            ``hand`` and the game's own deal keys), already checked.
        path: the record file; it is (re)written with ``header`` and ``events`` at once.
        events: events already played (a resumed record), checked again here.
        tracker_settings: settings of the game's belief tracker (``model``, ...).
        entries: how many events each typed entry made (for :meth:`undo`); by default the
            entries the short notation would type for ``events``.

    Raises:
        RecordError: ``events`` break a rule or leave no consistent deal (the line named).
        CardmindError: the game cannot be followed live.
    """

    def __init__(self, game: Game, header: Mapping[str, Any], path: str | os.PathLike,
                 events: list[Event] | None = None, tracker_settings: Mapping[str, Any] | None = None,
                 entries: list[int] | None = None):
        self.game = game
        self.shorthand = shorthand_of(game)
        self.header = dict(header)
        self.options = dict(self.header["options"])
        self.seat: int = self.header["observer"]
        self.path = os.fspath(path)
        self.tracker_settings = dict(tracker_settings or {})
        self.events: list[Event] = []
        self.state: State = self._new_state()
        self.tracker = self._new_tracker()
        events = list(events or [])
        for i, ev in enumerate(events):
            try:
                self.state.apply_event(ev)
                self.tracker.observe(ev)
            except IllegalAction as exc:
                raise RecordError(self.path, i + 2, f"illegal {ev['type']}: {exc.message} (rule: {exc.rule})",
                                  exc.rule) from None
            self.events.append(ev)
        if not self.events:   # the events the rules give before anyone acts (books dealt, ...)
            for ev in self.implied(self.state.copy()):
                self.state.apply_event(ev)
                self.tracker.observe(ev)
                self.events.append(ev)
        self._check_consistent()
        #: events before the first typed entry (the rules gave them at the start): never undone
        self.base = 0
        if entries is None:
            try:
                lines = self.shorthand.lines(self.events, self._new_state())
                if lines and lines[0][0] == "":
                    self.base = lines.pop(0)[1]
                entries = [n for _, n in lines]
            except (ValueError, ShorthandError, IllegalAction):
                entries = [1] * len(self.events)
        self.entries: list[int] = list(entries)
        self._advice = None
        #: remarks for the player about how the game was opened (a cut last line left out)
        self.notes: list[str] = []
        self._write_all()

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, game: Game | str, options: Mapping[str, Any] | str | None, seat: int, hand: str,
            path: str | os.PathLike, tracker_settings: Mapping[str, Any] | None = None) -> "LiveGame":
        """A new game from the player's seat and the cards typed at the start.

        Args:
            game: a game name or :class:`~cardmind.core.Game`.
            options: the game's options (an object, or its JSON text; ``None`` for defaults).
            seat: the player's seat.
            hand: the cards as typed (the game's :meth:`Shorthand.start` reads them).
            path: the record file to write (an existing file is replaced).

        Raises:
            OptionError: an unknown game or option, or options that are not a JSON object.
            ShorthandError: the hand text is not what the game expects.
            CardmindError: a seat that is not one, or a hand the deal cannot give.
        """
        g = get_game(game) if isinstance(game, str) else game
        if isinstance(options, str):
            try:
                options = json.loads(options)
            except json.JSONDecodeError as exc:
                raise OptionError(f"--options is not JSON ({exc.msg} at column {exc.colno}): {options}") from None
        if options is not None and not isinstance(options, dict):
            raise OptionError(f"--options must be a JSON object such as '{{\"players\": 4}}', not {options!r}")
        opts = g.parse_options(options)
        n = g.num_seats(opts)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise CardmindError(f"--seat {seat} is not a seat of this {g.name} game (seats 0-{n - 1})")
        deal = shorthand_of(g).start(opts, seat, hand)
        obj = {"format": FORMAT, "game": g.name, "options": opts, **deal}
        try:
            _, _, header = parse_header(obj, "<header>", 1)
        except RecordError as exc:
            raise CardmindError(f"the hand: {exc.reason}") from None
        try:
            g.new_state(opts, header)
        except IllegalAction as exc:
            raise CardmindError(f"the hand: {exc.message}") from None
        return cls(g, header, path, [], tracker_settings)

    @classmethod
    def resume(cls, path: str | os.PathLike, tracker_settings: Any = None) -> "LiveGame":
        """Continue the game of a player's record file (what ``cardmind advise`` wrote, or any
        player's record).

        Args:
            path: the record file (it goes on being written).
            tracker_settings: the tracker's settings, or ``settings(game) -> dict`` to choose
                them once the record's game is known.

        Raises:
            RecordError: the file cannot be read, is not a player's record, or its events break a
                rule or leave no consistent deal (``file:line: reason``).
        """
        notes: list[str] = []
        cut = _cut_last_line(os.fspath(path))
        if cut is not None:
            notes.append(f"the last line of {os.fspath(path)} was cut off (the program stopped while writing it); "
                         f"it is left out and kept in {cut}: type that event again")
        try:
            rec = read_record(path)
        except RecordError as exc:
            if exc.line is None or exc.line < 2:
                raise
            raise RecordError(exc.path, exc.line, f"{exc.reason}; the lines before it are a valid game: fix or "
                                                  f"delete this line (and those after it), then --resume again",
                              exc.rule) from None
        if rec.observer is None:
            raise RecordError(rec.path, 1, "this is a complete record (every hand): --resume continues a player's "
                                           "record (a header with 'observer' and 'hand')")
        if callable(tracker_settings):
            tracker_settings = tracker_settings(rec.game)
        live = cls(rec.game, rec.header, path, rec.events, tracker_settings)
        live.notes = notes
        return live

    def _new_state(self) -> State:
        return self.game.new_state(self.options, self.header)

    def _new_tracker(self):
        from ..belief import tracker_for  # noqa: PLC0415

        rec = Record(self.game, dict(self.options), dict(self.header), [], self.path, [])
        return tracker_for(rec, self.seat, **self.tracker_settings)

    def _rebuild_tracker(self) -> None:
        self.tracker = self._new_tracker()
        for ev in self.events:
            self.tracker.observe(ev)

    def _check_consistent(self) -> None:
        """Raise :class:`Contradiction` when no deal is consistent with the events."""
        self.tracker.check_consistent()

    # ------------------------------------------------------------------ the file
    def _write_all(self) -> None:
        """Write the header and every event (atomically: a new file replaces the old)."""
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(self.header) + "\n")
            for ev in self.events:
                fh.write(json.dumps(ev) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)

    def _append(self, events: list[Event]) -> None:
        """Append ``events`` to the record file, flushed and synced to disk."""
        with open(self.path, "a", encoding="utf-8") as fh:
            for ev in events:
                fh.write(json.dumps(ev) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    # ------------------------------------------------------------------ play
    def implied(self, state: State) -> list[Event]:
        """Every implied event from ``state`` on (applied to ``state``)."""
        out: list[Event] = []
        for _ in range(10_000):
            imp = self.shorthand.implied(state)
            if not imp:
                return out
            for ev in imp:
                state.apply_event(ev)
            out.extend(imp)
        raise RuntimeError("the implied events do not end")  # pragma: no cover - a game's bug

    def preview(self, line: str) -> list[Event]:
        """The events ``line`` would add (its entries separated by ``;``, each followed by the
        events the rules imply), checked by the rules; nothing changes.

        Raises:
            ShorthandError: the notation or the rules refuse the line (one sentence).
        """
        state = self.state.copy()
        out: list[Event] = []
        parts = [p.strip() for p in line.split(";") if p.strip()]
        if not parts:
            raise ShorthandError("nothing to enter: type an event (help lists the forms)")
        for part in parts:
            events = self.shorthand.parse(part, state)
            for ev in events:
                try:
                    ev = parse_event(self.game, ev, "<typed>", 0)
                except RecordError as exc:   # a game's notation made an event the format refuses
                    raise ShorthandError(f"{part!r}: {exc.reason}") from None
                try:
                    state.apply_event(ev)
                except IllegalAction as exc:
                    raise ShorthandError(f"{part!r} breaks a rule: {exc.message}") from None
                except _INPUT_ERRORS as exc:
                    raise ShorthandError(f"{part!r} cannot be right here: {exc}") from None
                out.append(ev)
            try:
                out.extend(self.implied(state))
            except IllegalAction as exc:  # pragma: no cover - an implied event is legal by construction
                raise ShorthandError(f"{part!r}: the rules then give an illegal event: {exc.message}") from None
        return out

    def enter(self, line: str, advise: bool = False) -> list[Event]:
        """Add what ``line`` says (see :meth:`preview`): check it against the rules and the
        belief tracker, append it to the record file, and return its events.

        Args:
            line: the typed line.
            advise: also compute the advice of the new position (:meth:`advice`) before
                returning; a tracker that finds only then that no deal fits the line (a
                check it makes only while answering) takes the line back, file included.

        Raises:
            ShorthandError: the line is refused (nothing changes): the notation, a rule, or no
                deal consistent with it.
        """
        events = self.preview(line)
        state = self.state.copy()
        try:
            for ev in events:
                state.apply_event(ev)
                self.tracker.observe(ev)
            self._check_consistent()
        except (Contradiction, IllegalAction) as exc:
            self._rebuild_tracker()
            why = exc.message
            raise ShorthandError(f"{line.strip()!r} cannot have happened: no deal of the cards fits it with what "
                                 f"came before ({why})") from None
        self._append(events)
        self.state = state
        self.events.extend(events)
        self.entries.append(len(events))
        self._advice = None
        if advise:
            try:
                self.advice()
            except Contradiction as exc:
                self.undo()
                raise ShorthandError(f"{line.strip()!r} cannot have happened: no deal of the cards fits it with "
                                     f"what came before ({exc.message})") from None
        return events

    def undo(self) -> list[Event]:
        """Take back the last entry (a typed line and the events it implied); the record file
        is rewritten without it. Returns the events removed (``[]`` when there are none)."""
        if not self.entries:
            return []
        k = self.entries.pop()
        removed = self.events[len(self.events) - k:]
        del self.events[len(self.events) - k:]
        self.state = self._new_state()
        for ev in self.events:
            self.state.apply_event(ev)
        self._rebuild_tracker()
        self._write_all()
        self._advice = None
        return removed

    # ------------------------------------------------------------------ questions
    def prompt(self) -> str:
        """Whose turn it is and what the rules expect next (the game's words)."""
        if self.state.is_over():
            return "the game is over"
        return self.shorthand.prompt(self.state)

    def words(self) -> list[str]:
        """Words to complete now (the game's notation)."""
        return self.shorthand.words(self.state)

    def advice(self, **params: Any):
        """The advice now (the game's advice object, :class:`cardmind.hints.words.Advice`),
        computed once per position for the default parameters."""
        from ..hints import hint_for  # noqa: PLC0415

        if params:
            return hint_for(self.tracker, **params)
        if self._advice is None:
            self._advice = hint_for(self.tracker)
        return self._advice

    def record(self) -> Record:
        """The game so far as a :class:`~cardmind.records.Record`."""
        return Record(self.game, dict(self.options), dict(self.header), list(self.events), self.path,
                      list(range(2, len(self.events) + 2)))


__all__ = ["LiveGame", "shorthand_of"]
