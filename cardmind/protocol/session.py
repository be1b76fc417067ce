"""Embed cardmind's players and advice in a program: one :class:`Session` per seat.

A **player session** is one seat's view of a game: its dealt hand, the events as that seat
sees them, an optional agent (an AI player) and the seat's belief tracker (exact advice).
A **referee session** holds the complete deal and resolves actions into record events, for
programs that do not want to implement the rules themselves. The engine protocol
(:mod:`cardmind.protocol.engine`) is a thin JSON layer over this class; Python programs can
use it directly::

    from cardmind.protocol import Session

    s = Session("literature", {"players": 6}, seat=1, hand=my_nine_cards, agent="belief", seed=7)
    s.event({"type": "ask", "asker": 0, "target": 1, "card": "5S", "success": False})
    s.status()["to_move"]          # 1: this seat is on turn
    s.act(time_ms=500)             # {"type": "ask", "asker": 1, "target": 4, "card": "3D"}
    s.hint()["asks"][0]            # the best ask, with its exact probability and a reason
    s.belief()["consistent_deals"] # an exact integer (also "consistent_deals_str")

Everything goes in and out as JSON-shaped Python values (events and actions as ``dict``,
exactly as ``records.md`` writes them). Every failure raises
:class:`~cardmind.protocol.errors.ProtocolError` with a stable ``code``, and leaves the
session as it was: an event is checked on a copy of the state (and, for a player session,
against the exact belief tracker) before anything is changed.

Nothing here is specific to one game: sessions use only the :class:`~cardmind.core.Game` /
:class:`~cardmind.core.State` interface, the agent registry and the belief/hint entry
points, so a game registered later works unchanged.
"""

from __future__ import annotations

import copy
import ctypes
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from time import perf_counter
from typing import Any

import numpy as np

from ..core import Game, get_game
from ..errors import Contradiction, IllegalAction, OptionError, RecordError
from ..records import FORMAT, HEADER_SCHEMA, Record, parse_event, parse_header
from .advice import SessionAdvice
from .errors import ProtocolError
from .wire import MAX_SAFE_INT, with_int_strings  # noqa: F401 - re-exported


#: header keys a client may not set through ``header`` (the session sets them)
_RESERVED_HEADER_KEYS = ("format", "game", "options", "observer", "hand", "hands")

#: exceptions that mean "this input is wrong" when raised by the rules code on odd input
_INPUT_ERRORS = (ValueError, KeyError, IndexError, TypeError, AttributeError)


def result_json(result) -> dict[str, Any]:
    """A :class:`~cardmind.core.Result` as ``{"scores", "outcome", "detail"}``."""
    return {"scores": list(result.scores), "outcome": list(result.outcome), "detail": dict(result.detail)}


def resolve_game(game: Game | str) -> Game:
    """The :class:`Game` for a name (``unknown_game`` when there is none)."""
    if isinstance(game, Game):
        return game
    if not isinstance(game, str):
        raise ProtocolError("bad_request", f"'game' must be a game name (a string), not {game!r}")
    try:
        return get_game(game)
    except OptionError as exc:
        raise ProtocolError("unknown_game", str(exc)) from None


@dataclass
class Decision:
    """What :meth:`Session.decide` returns.

    Attributes:
        action: the action as JSON (``action.to_json()``), or ``None`` (a ``react`` that
            lets play go on).
        elapsed_ms: wall time the agent took, in milliseconds.
        fallback: the agent ran out of time and ``action`` is the fallback (the first legal
            action; ``None`` for ``react``).
    """

    action: dict[str, Any] | None
    elapsed_ms: float
    fallback: bool = False


class _Cancelled(BaseException):
    """Raised inside an abandoned agent thread to stop it (see :func:`_cancel_thread`)."""


def _cancel_thread(thread: threading.Thread) -> None:
    """Ask ``thread`` to stop by raising :class:`_Cancelled` in it at its next Python
    bytecode (a long C call finishes first). The thread works on copies, so stopping it
    anywhere is safe."""
    ident = thread.ident
    if ident is None:
        return
    try:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(_Cancelled))
    except Exception:  # noqa: BLE001 - not CPython: the thread runs to its end on its copies
        pass


def _run_with_deadline(fn, timeout_s: float) -> tuple[bool, Any, BaseException | None]:
    """Run ``fn()`` in a daemon thread for at most ``timeout_s`` seconds.

    Returns:
        ``(finished, result, error)``; when not finished the thread is cancelled.
    """
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["result"] = fn()
        except _Cancelled:
            pass
        except BaseException as exc:  # noqa: BLE001 - reported to the caller
            box["error"] = exc

    th = threading.Thread(target=work, name="cardmind-agent", daemon=True)
    th.start()
    th.join(max(0.0, timeout_s))
    if th.is_alive():
        _cancel_thread(th)
        return False, None, None
    return True, box.get("result"), box.get("error")


class Session(SessionAdvice):
    """One seat's view of a game, with an optional agent and the exact belief tracker.

    Args:
        game: a game name (``"literature"``) or :class:`~cardmind.core.Game`.
        options: the game's options (raw, as in a record header; defaults filled in).
        seat: this session's seat (0-based).
        hand: the seat's dealt cards.
        agent: the agent playing the seat: a registry name (``"random"``, ``"belief"``, ...),
            ``"package.module:Class"``, or ``None`` for a session that only follows the game
            and gives advice (``hint``/``belief``) to a human.
        settings: the agent's settings (unknown keys are an error).
        seed: seeds the agent's random generator (``numpy.random.default_rng(seed)``); the
            same seed and events give the same actions.
        header: any further keys of the seat's player-record header (``names``, or keys a
            game adds to its player records).
        check: check every event against the exact belief tracker too, and reject one that
            leaves no consistent deal (``contradiction``). Without it, events are checked by
            the rules only and a contradiction shows up at ``hint``/``belief``.
        allow_import: allow ``package.module:Class`` agent names.

    Raises:
        ProtocolError: ``unknown_game``, ``bad_option``, ``bad_deal``, ``bad_request``,
            ``unknown_agent``, ``bad_setting`` or ``agent_error``.
    """

    role = "player"

    def __init__(self, game: Game | str, options: Mapping[str, Any] | None = None, seat: int = 0,
                 hand: Sequence[str] = (), agent: str | None = "random",
                 settings: Mapping[str, Any] | None = None, seed: int = 0,
                 header: Mapping[str, Any] | None = None, check: bool = True, allow_import: bool = True):
        self.game = resolve_game(game)
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise ProtocolError("bad_request", f"'seat' must be a non-negative integer, not {seat!r}")
        if not isinstance(hand, (list, tuple)):
            raise ProtocolError("bad_request", f"'hand' must be a list of cards, not {hand!r}")
        self.seat = seat
        self.check = bool(check)
        self.options, self.header = _make_header(self.game, options, {"observer": seat, "hand": list(hand)}, header)
        self.state = self._new_state()
        self._version = 0  # bumped whenever the state changes (legal() caches by it)
        self.log: list[tuple[str, dict]] = []
        self.rng = _make_rng(seed)
        self.seed = seed
        self.agent_spec = agent
        self.agent_cls = None
        if agent is not None:
            self.agent_cls = _resolve_agent(agent, self.game, allow_import)
            if settings is not None and not isinstance(settings, Mapping):
                raise ProtocolError("bad_request", f"'settings' must be an object, not {settings!r}")
        elif settings:
            raise ProtocolError("bad_request", "'settings' given without an agent")
        self.settings_in = dict(settings or {})
        self.agent = self._new_agent() if self.agent_cls is not None else None
        self._tracker = None
        self._tracker_built = False
        self.tracker_reason = ""
        if self.check:
            self._tracker_get()

    # ------------------------------------------------------------------ construction helpers
    @classmethod
    def referee(cls, game: Game | str, options: Mapping[str, Any] | None = None,
                hands: Sequence[Sequence[str]] | None = None, seed: int = 0,
                header: Mapping[str, Any] | None = None) -> "Session":
        """A referee session: the complete deal, resolving actions with :meth:`apply`.

        Args:
            game, options: as for a player session.
            hands: every seat's dealt cards; ``None`` to let the game deal with ``seed``.
            seed: seeds the deal when ``hands`` is ``None``.
            header: further keys of a complete-record header (``names``; ``stock`` for games
                with a stock, when ``hands`` is given).
        """
        self = object.__new__(RefereeSession)
        self.game = resolve_game(game)
        self.seat = None
        self.check = False
        self.seed = seed
        self.agent = None
        self.agent_cls = None
        self.agent_spec = None
        self.settings_in = {}
        self._tracker = None
        self._tracker_built = True
        self.tracker_reason = "a referee session has no belief tracker (it knows every hand)"
        self.rng = _make_rng(seed)
        if hands is None:
            if header and any(k not in ("names",) for k in header):
                raise ProtocolError("bad_request", "only 'names' may be added to a header the engine deals")
            if options is not None and not isinstance(options, Mapping):
                raise ProtocolError("bad_request", f"'options' must be an object, not {options!r}")
            try:
                opts = self.game.parse_options(options)
            except OptionError as exc:
                raise ProtocolError("bad_option", str(exc)) from None
            deal = self.game.deal(opts, self.rng)
            self.options, self.header = _make_header(self.game, opts, deal, header)
        else:
            if not isinstance(hands, (list, tuple)):
                raise ProtocolError("bad_request", f"'hands' must be a list of hands, not {hands!r}")
            self.options, self.header = _make_header(self.game, options, {"hands": list(hands)}, header)
        self.state = self._new_state()
        self._version = 0
        self.log = []
        return self

    def _new_state(self):
        try:
            return self.game.new_state(self.options, self.header)
        except IllegalAction as exc:
            raise ProtocolError("bad_deal", exc.message, rule=exc.rule) from None
        except _INPUT_ERRORS as exc:
            raise ProtocolError("bad_deal", f"the deal does not fit the game: {exc}") from None

    def _agent_header(self) -> dict:
        return {k: v for k, v in self.header.items() if k not in ("format", "game", "options")}

    def _new_agent(self):
        try:
            return self.agent_cls(self.game, self.seat, dict(self.options), self._agent_header(),
                                  dict(self.settings_in))
        except (ValueError, TypeError, KeyError) as exc:
            raise ProtocolError("bad_setting", f"agent {self.agent_spec!r}: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - a broken agent is an agent error, not a crash
            raise ProtocolError("agent_error", f"agent {self.agent_spec!r} could not start: "
                                               f"{type(exc).__name__}: {exc}") from None

    def _build_tracker(self):
        """A fresh tracker for this seat (no events), or ``None`` with :attr:`tracker_reason`."""
        try:
            from ..belief import tracker_for  # noqa: PLC0415

            rec = Record(self.game, dict(self.options), dict(self.header), [], "<session>", [])
            return tracker_for(rec, self.seat)
        except (ValueError, ImportError, NotImplementedError, RecordError) as exc:
            self.tracker_reason = f"cardmind has no belief tracker for {self.game.name} yet ({exc})"
            return None

    def _tracker_get(self):
        """The tracker, built (and fed the events so far) on first use; ``None`` if the game
        has none."""
        if not self._tracker_built:
            t = self._build_tracker()
            if t is not None:
                for kind, obj in self.log:
                    _feed(t, kind, obj)
            self._tracker = t
            self._tracker_built = True
        return self._tracker

    def _rebuild(self, agent: bool = True, tracker: bool = True) -> None:
        """Rebuild the agent and/or tracker from the log (after a failure mid-update)."""
        if agent and self.agent_cls is not None:
            a = self._new_agent()
            for kind, obj in self.log:
                _feed(a, kind, obj)
            self.agent = a
        if tracker and self._tracker_built:
            self._tracker_built = False
            self._tracker = None
            self._tracker_get()

    # ------------------------------------------------------------------ queries
    @property
    def events(self) -> list[dict]:
        """The events applied so far (as this session saw them)."""
        return [obj for kind, obj in self.log if kind == "event"]

    @property
    def num_seats(self) -> int:
        """The number of seats."""
        return self.state.num_seats

    @property
    def tracker(self):
        """The belief tracker of this seat, or ``None`` when the game has none."""
        return self._tracker_get()

    def status(self) -> dict[str, Any]:
        """``{"to_move", "actors", "over", "result", "notice", "num_events"}``: who may act
        now, whether the game is over (and its result), the decision under way that has no
        event yet (``State.pending_notice``), and how many events were applied."""
        st = self.state
        over = st.is_over()
        out = {"to_move": st.to_move(), "actors": list(st.actors()), "over": over,
               "result": result_json(st.result()) if over else None,
               "notice": st.pending_notice(), "num_events": len(self.events)}
        if self.seat is not None:
            out["your_turn"] = (not over) and st.to_move() == self.seat
        return out

    def table_view(self, seat: int | None = None) -> dict[str, Any]:
        """The table as ``seat`` sees it (``Game.table_view``: its hand, counts, the public
        cards on the table, scores). A player session shows its own seat (``seat`` may be
        left out); a referee session any seat (``seat`` required).

        Raises:
            ProtocolError: ``bad_request`` (no such seat, another seat than a player
                session's own, or no seat for a referee session).
        """
        seat = self._seat_arg(seat)
        state = self.state if self.seat is not None else self.state.view(seat)
        return with_int_strings(self.game.table_view(state, seat))

    def record(self) -> dict[str, Any]:
        """``{"header", "events"}``: this session's game record (``records.md``)."""
        return {"header": dict(self.header), "events": self.events}

    def describe(self) -> dict[str, Any]:
        """What the session is: ``session`` keys of the ``new`` reply; ``deck``: the cards of
        the game's pack under the session's options, each once, in the game's order
        (:meth:`cardmind.core.Game.deck`), or ``None`` when the game does not say."""
        pack = self.game.deck(self.options)
        out = {"role": self.role, "game": self.game.name, "options": dict(self.options),
               "seats": self.num_seats, "seat": self.seat, "header": dict(self.header), "seed": self.seed,
               "deck": None if pack is None else list(dict.fromkeys(pack))}
        if self.role == "player":
            out["agent"] = self.agent_spec
            out["settings"] = dict(self.agent.settings) if self.agent is not None else None
            out["check"] = self.check
            out["tracker"] = self.tracker is not None if self.check else None
        return out

    # ------------------------------------------------------------------ events
    def event(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """Apply one record event (as this seat sees it; a referee takes complete events).

        The event is checked strictly (``records.md``), then against the rules on a copy of
        the state, then (with ``check``) against the belief tracker; only when all pass are
        the state, tracker and agent advanced.

        Returns:
            :meth:`status` after the event.

        Raises:
            ProtocolError: ``bad_event``, ``illegal_event`` (with ``rule``),
                ``contradiction`` or ``agent_error``; the session is unchanged.
        """
        ev = self._parse_event(event)
        new_state = self.state.copy()
        try:
            new_state.apply_event(ev)
        except IllegalAction as exc:
            raise ProtocolError("illegal_event", f"illegal {ev['type']}: {exc.message}", rule=exc.rule) from None
        except _INPUT_ERRORS as exc:
            raise ProtocolError("illegal_event", f"illegal {ev['type']}: {type(exc).__name__}: {exc}",
                                rule="malformed") from None
        self._advance_views("event", ev)
        self.state = new_state
        self._version += 1
        self.log.append(("event", ev))
        return self.status()

    def notice(self, notice: Mapping[str, Any]) -> dict[str, Any]:
        """Take in a referee's pending notice (``State.pending_notice``: in Literature a claim
        whose cards are shown, waiting for the choice of who plays next).

        Returns:
            :meth:`status` after the notice.

        Raises:
            ProtocolError: ``bad_event`` or ``illegal_event``; the session is unchanged.
        """
        if not isinstance(notice, Mapping):
            raise ProtocolError("bad_event", f"a notice must be a JSON object, not {notice!r}")
        # a notice is game-specific (not always a complete record event): the game's
        # apply_pending_notice checks it
        n = deepcopy_json(dict(notice))
        new_state = self.state.copy()
        try:
            new_state.apply_pending_notice(n)
        except IllegalAction as exc:
            raise ProtocolError("illegal_event", f"illegal notice: {exc.message}", rule=exc.rule) from None
        except _INPUT_ERRORS as exc:
            raise ProtocolError("illegal_event", f"illegal notice: {exc}", rule="notice") from None
        self._advance_views("notice", n)
        self.state = new_state
        self._version += 1
        self.log.append(("notice", n))
        return self.status()

    def _parse_event(self, event: Any) -> dict:
        if isinstance(event, Mapping) and not isinstance(event.get("type"), str):
            # (records.parse_event raises TypeError on an unhashable type)
            raise ProtocolError("bad_event", f"an event's 'type' must be a string, not {event.get('type')!r:.60}")
        try:
            return parse_event(self.game, event, "<event>", 0)
        except RecordError as exc:
            raise ProtocolError("bad_event", exc.reason) from None

    def _advance_views(self, kind: str, obj: dict) -> None:
        """Feed the tracker and the agent; on any failure restore them and raise."""
        tracker = self._tracker if self._tracker_built else None
        if tracker is not None:
            try:
                _feed(tracker, kind, obj)
                if self.check and kind == "event":
                    # the tracker's own per-event check (Tracker.check_consistent: by default
                    # the exact count); it raises Contradiction
                    tracker.check_consistent()
            except Contradiction as exc:
                self._rebuild(agent=False, tracker=True)
                raise ProtocolError("contradiction", f"no deal is consistent with the events after this "
                                                     f"{obj.get('type', kind)}: {exc.message}") from None
            except IllegalAction as exc:
                self._rebuild(agent=False, tracker=True)
                raise ProtocolError("illegal_event", f"illegal {obj.get('type', kind)}: {exc.message}",
                                    rule=exc.rule) from None
            except Exception as exc:  # noqa: BLE001
                self._rebuild(agent=False, tracker=True)
                raise ProtocolError("internal", f"the belief tracker failed on this {kind}: "
                                                f"{type(exc).__name__}: {exc}") from None
        if self.agent is not None:
            try:
                _feed(self.agent, kind, obj)
            except Exception as exc:  # noqa: BLE001 - a broken agent must not break the session
                self._rebuild(agent=True, tracker=tracker is not None)
                raise ProtocolError("agent_error", f"agent {self.agent_spec!r} failed on this {kind}: "
                                                   f"{type(exc).__name__}: {exc}") from None

    # ------------------------------------------------------------------ actions
    def legal(self, seat: int | None = None, types: Sequence[str] | None = None,
              limit: int | None = None) -> tuple[list[dict], int]:
        """The legal actions of ``seat`` (default: this session's seat) as JSON.

        Args:
            types: keep only actions whose JSON ``type`` is one of these.
            limit: return at most this many (the total is still counted).

        Returns:
            ``(actions, total)``.
        """
        seat = self._seat_arg(seat)
        key = (self._version, seat)
        cached = getattr(self, "_legal_cache", None)
        if cached is not None and cached[0] == key:
            out = cached[1]
        else:
            try:
                acts = self.state.legal_actions(seat)
            except _INPUT_ERRORS as exc:
                raise ProtocolError("bad_request", f"cannot list seat {seat}'s actions: {exc}") from None
            out = [a.to_json() for a in acts]
            self._legal_cache = (key, out)
        if types is not None:
            keep = set(types)
            out = [a for a in out if a.get("type") in keep]
        total = len(out)
        if limit is not None:
            out = out[:limit]
        return deepcopy_json(out), total

    def check_action(self, action: Mapping[str, Any]) -> dict[str, Any]:
        """Whether ``action`` (JSON) is legal now, as far as this session knows:
        ``{"legal": true}`` or ``{"legal": false, "rule", "message"}``.

        Raises:
            ProtocolError: ``bad_action`` (not an action of the game).
        """
        act = self._parse_action(action)
        try:
            self.state.check_action(act)
        except IllegalAction as exc:
            return {"legal": False, "rule": exc.rule, "message": exc.message}
        except _INPUT_ERRORS as exc:
            return {"legal": False, "rule": "malformed", "message": f"{type(exc).__name__}: {exc}"}
        return {"legal": True}

    def _parse_action(self, action: Any):
        if not isinstance(action, Mapping):
            raise ProtocolError("bad_action", f"an action must be a JSON object, not {action!r}")
        try:
            return self.game.action_from_json(action)
        except (ValueError, KeyError, TypeError) as exc:
            raise ProtocolError("bad_action", str(exc)) from None
        except Exception as exc:  # noqa: BLE001 - odd input may trip a game's parser in any way
            raise ProtocolError("bad_action", f"not an action of {self.game.name}: {type(exc).__name__}: {exc}") from None

    def _seat_arg(self, seat: int | None) -> int:
        if seat is None:
            if self.seat is None:
                raise ProtocolError("bad_request", "a referee session needs 'seat'")
            return self.seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_seats:
            raise ProtocolError("bad_request", f"'seat' must be a seat (0-{self.num_seats - 1}), not {seat!r}")
        if self.seat is not None and seat != self.seat:
            raise ProtocolError("bad_request", f"this session is seat {self.seat}'s view; it cannot act for seat {seat}")
        return seat

    def act(self, time_ms: float | None = None, on_timeout: str = "error") -> dict[str, Any]:
        """The agent's action for this seat, which must be to move (see :meth:`decide`)."""
        return self.decide("act", time_ms, on_timeout).action

    def react(self, time_ms: float | None = None, on_timeout: str = "error") -> dict[str, Any] | None:
        """An out-of-turn action (a claim under ``claim_any_time``) or ``None`` (see :meth:`decide`)."""
        return self.decide("react", time_ms, on_timeout).action

    def decide(self, method: str = "act", time_ms: float | None = None, on_timeout: str = "error") -> Decision:
        """Ask the agent for an action. The session's state does not change: the action is
        resolved by whoever referees the game, which then sends the resulting events back.

        Args:
            method: ``"act"`` (this seat is to move) or ``"react"`` (offered an out-of-turn
                action; returns ``None`` at once when the rules give this seat none now).
            time_ms: a time limit. The agent then runs in a worker thread on a copy of itself
                and of the random generator; when it finishes in time the copy replaces the
                original, otherwise the copy is abandoned (its thread is stopped) and the
                session is exactly as before.
            on_timeout: ``"error"`` (raise ``timeout``) or ``"fallback"`` (return the first
                legal action, as :meth:`legal` lists them, with ``fallback`` set; for
                ``react``: ``None``).

        Raises:
            ProtocolError: ``no_agent``, ``game_over``, ``not_your_turn``, ``timeout``,
                ``agent_error`` (the agent raised or returned an illegal action; the agent
                and its generator are restored).
        """
        if not self._has_decision(method, time_ms, on_timeout):
            return Decision(None, 0.0)
        t0 = perf_counter()
        if time_ms is None:
            return self._decide_now(method, t0)
        return self._decide_within(method, time_ms, on_timeout, t0)

    def _has_decision(self, method: str, time_ms: float | None, on_timeout: str) -> bool:
        """Check a :meth:`decide` request (arguments as there); return whether this seat has a
        decision to make: False only for ``react`` when the rules give this seat no
        out-of-turn action now.

        Raises:
            ProtocolError: ``wrong_role``, ``no_agent``, ``bad_request`` (``on_timeout`` or
                ``time_ms``), ``game_over``, ``not_your_turn``.
            ValueError: ``method`` is neither ``"act"`` nor ``"react"``.
        """
        if self.role != "player":
            raise ProtocolError("wrong_role", f"a referee session has no agent: {method} needs a player session")
        if self.agent is None:
            raise ProtocolError("no_agent", f"this session has no agent (it was opened with agent null); "
                                            f"{method} needs one")
        if on_timeout not in ("error", "fallback"):
            raise ProtocolError("bad_request", f"'on_timeout' must be \"error\" or \"fallback\", not {on_timeout!r}")
        if time_ms is not None and (isinstance(time_ms, bool) or not isinstance(time_ms, (int, float))
                                    or not time_ms > 0 or time_ms != time_ms):
            raise ProtocolError("bad_request", f"'time_ms' must be a positive number, not {time_ms!r}")
        st = self.state
        if st.is_over():
            raise ProtocolError("game_over", "the game is over")
        if method == "act":
            if st.to_move() != self.seat:
                raise ProtocolError("not_your_turn", f"seat {st.to_move()} is to move, not seat {self.seat}")
        elif method == "react":
            if self.seat not in st.actors()[1:]:
                return False
        else:
            raise ValueError(f"unknown method {method!r}")
        return True

    def _decide_now(self, method: str, t0: float) -> Decision:
        """Run the agent's ``method`` in this thread without a time limit (``t0``: when the
        decision started, :func:`time.perf_counter` seconds).

        Raises:
            ProtocolError: ``agent_error`` (the agent raised or returned an illegal action; the
                agent is rebuilt and its generator restored).
        """
        saved = self.rng.bit_generator.state
        try:
            action = getattr(self.agent, method)(self.rng)
        except Exception as exc:  # noqa: BLE001
            self.rng.bit_generator.state = saved
            self._rebuild(agent=True, tracker=False)
            raise ProtocolError("agent_error", f"agent {self.agent_spec!r} {method} raised "
                                               f"{type(exc).__name__}: {exc}") from None
        elapsed = (perf_counter() - t0) * 1000
        try:
            out = self._checked(action, method)
        except ProtocolError:
            self.rng.bit_generator.state = saved
            self._rebuild(agent=True, tracker=False)
            raise
        return Decision(out, elapsed)

    def _decide_within(self, method: str, time_ms: float, on_timeout: str, t0: float) -> Decision:
        """Run the agent's ``method`` within ``time_ms`` milliseconds of ``t0``
        (:func:`time.perf_counter` seconds), in a worker thread on a copy of the agent and its
        generator (on the agent itself when it cannot be copied, which is then rebuilt unless
        it finished in time with a legal action); the copy replaces the original only when it
        finishes in time with a legal action. ``on_timeout``: as for :meth:`decide`.

        Raises:
            ProtocolError: ``agent_error`` (the agent raised or returned an illegal action) or
                ``timeout`` (with ``elapsed_ms``; not with ``on_timeout="fallback"`` when there
                is a fallback).
        """
        try:
            agent_c, rng_c = copy.deepcopy((self.agent, self.rng), {id(self.game): self.game})
            orphan = False
        except Exception:  # noqa: BLE001 - an agent that cannot be copied runs as itself
            agent_c, rng_c = self.agent, copy.deepcopy(self.rng)
            orphan = True
        left = time_ms / 1000 - (perf_counter() - t0)
        done, action, err = _run_with_deadline(lambda: getattr(agent_c, method)(rng_c), left)
        elapsed = (perf_counter() - t0) * 1000
        if done and err is None:
            try:
                out = self._checked(action, method)
            except ProtocolError:
                if orphan:
                    self._rebuild(agent=True, tracker=False)
                raise
            self.agent, self.rng = agent_c, rng_c
            return Decision(out, elapsed)
        if orphan:  # the original agent was used (or is still in use) by the worker: replace it
            self._rebuild(agent=True, tracker=False)
        if done:
            raise ProtocolError("agent_error", f"agent {self.agent_spec!r} {method} raised "
                                               f"{type(err).__name__}: {err}")
        if on_timeout == "fallback":
            if method == "react":
                return Decision(None, elapsed, fallback=True)
            acts, _ = self.legal(limit=1)
            if acts:
                return Decision(acts[0], elapsed, fallback=True)
        raise ProtocolError("timeout", f"agent {self.agent_spec!r} did not {method} within {time_ms:g} ms",
                            elapsed_ms=round(elapsed, 3))

    def _checked(self, action, method: str) -> dict[str, Any] | None:
        if action is None:
            if method == "react":
                return None
            raise ProtocolError("agent_error", f"agent {self.agent_spec!r} returned no action")
        if getattr(action, "seat", None) != self.seat:
            raise ProtocolError("agent_error", f"agent {self.agent_spec!r} returned an action for another "
                                               f"seat: {action!r}")
        try:
            self.state.check_action(action)
            out = action.to_json()
        except IllegalAction as exc:
            raise ProtocolError("agent_error", f"agent {self.agent_spec!r} returned an illegal action "
                                               f"{action!r}: {exc.message} (rule: {exc.rule})") from None
        except Exception as exc:  # noqa: BLE001
            raise ProtocolError("agent_error", f"agent {self.agent_spec!r} returned a malformed action "
                                               f"{action!r}: {exc}") from None
        return out

class RefereeSession(Session):
    """A session holding the complete deal (see :meth:`Session.referee`)."""

    role = "referee"

    def apply(self, action: Mapping[str, Any]) -> dict[str, Any]:
        """Resolve a seat's action (JSON) into record events and apply them.

        Returns:
            ``{"events", "redacted", "notice", **status}``: ``events`` are the complete
            events it made (possibly none, when a decision is now under way), ``redacted``
            maps a seat (as a string) to its view of those events for every seat whose view
            differs (games with hidden events), and ``notice`` is the decision under way
            (pass it to every player session *before* the events), or ``None``.

        Raises:
            ProtocolError: ``bad_action`` or ``illegal_action`` (with ``rule``); nothing changes.
        """
        act = self._parse_action(action)
        new_state = self.state.copy()
        try:
            step = new_state.referee_step(act)
        except IllegalAction as exc:
            raise ProtocolError("illegal_action", exc.message, rule=exc.rule) from None
        except _INPUT_ERRORS as exc:
            raise ProtocolError("illegal_action", f"{type(exc).__name__}: {exc}", rule="malformed") from None
        events = step.events
        redacted = {str(s): view for s, view in enumerate(step.views) if view != events}
        self.state = new_state
        self._version += 1
        for ev in events:
            self.log.append(("event", ev))
        return {"events": events, "redacted": redacted, **self.status()}

    def status(self) -> dict[str, Any]:
        """As :meth:`Session.status`, without ``your_turn``."""
        out = super().status()
        out.pop("your_turn", None)
        return out


# ---------------------------------------------------------------------------- helpers
def deepcopy_json(obj: Any) -> Any:
    """A copy of a JSON-shaped value (dicts, lists, scalars)."""
    if isinstance(obj, dict):
        return {k: deepcopy_json(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [deepcopy_json(v) for v in obj]
    return obj


def _feed(target, kind: str, obj: dict) -> None:
    """Give an event or a notice to an agent or a tracker."""
    if kind == "event":
        target.observe(dict(obj))
    else:
        target.notice(dict(obj))     # Agent.notice and Tracker.notice: declared, by default ignored


def _make_rng(seed: Any) -> np.random.Generator:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**128:
        raise ProtocolError("bad_request", f"'seed' must be an integer from 0 to 2**128 - 1, not {seed!r}")
    return np.random.default_rng(seed)


def _resolve_agent(spec: Any, game: Game, allow_import: bool):
    from ..agents.base import resolve_agent  # noqa: PLC0415

    if not isinstance(spec, str) or not spec:
        raise ProtocolError("bad_request", f"'agent' must be an agent name or null, not {spec!r}")
    if ":" in spec and not allow_import:
        raise ProtocolError("unknown_agent", f"agents named by module ({spec!r}) are disabled; start the "
                                             f"engine with --allow-agent-import")
    try:
        return resolve_agent(spec, game)
    except ValueError as exc:
        raise ProtocolError("unknown_agent", str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - importing a user's module may fail in any way
        raise ProtocolError("unknown_agent", f"cannot load agent {spec!r}: {type(exc).__name__}: {exc}") from None


def _make_header(game: Game, options: Any, deal: dict, extra: Mapping[str, Any] | None) -> tuple[dict, dict]:
    """Check options, deal keys and extra header keys; return ``(options, canonical header)``."""
    if options is not None and not isinstance(options, Mapping):
        raise ProtocolError("bad_request", f"'options' must be an object, not {options!r}")
    try:
        opts = game.parse_options(options)
    except OptionError as exc:
        raise ProtocolError("bad_option", str(exc)) from None
    if extra is not None and not isinstance(extra, Mapping):
        raise ProtocolError("bad_request", f"'header' must be an object, not {extra!r}")
    extra = dict(extra or {})
    known = set(HEADER_SCHEMA) | set(game.header_schema)
    for key in extra:
        if key in _RESERVED_HEADER_KEYS:
            raise ProtocolError("bad_request", f"'header' may not set {key!r} (give it as its own key)")
        if key not in known:
            raise ProtocolError("bad_request", f"unknown header key {key!r} for {game.name} "
                                               f"(known: {', '.join(sorted(known - set(_RESERVED_HEADER_KEYS)))})")
    raw = {"format": FORMAT, "game": game.name, "options": opts, **extra, **deal}
    try:
        _, opts2, header = parse_header(raw, "<new>", 1)
    except RecordError as exc:
        raise ProtocolError("bad_deal", exc.reason) from None
    return opts2, header
