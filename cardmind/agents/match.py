"""Play one game between agents, referee-style (the referee holds the complete state)."""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

import numpy as np

from ..core import Game, Result
from ..errors import IllegalAction
from ..records import Record
from .base import Agent

AgentFactory = Callable[[Game, int, dict, dict], Agent]


@dataclass
class MatchResult:
    """What one game produced.

    Attributes:
        record: the complete record (header with every hand, then every event).
        result: the game's :class:`~cardmind.core.Result`; ``None`` when a seat forfeited.
        forfeit: the seat that forfeited (raised, or returned an illegal action), else ``None``.
        forfeit_reason: why (for an exception, with where it was raised: ``file:line in function``).
        forfeit_traceback: the traceback of the exception that made the seat forfeit (``""``
            when it returned an illegal action rather than raising).
        actions: number of actions taken per seat.
        think_time: seconds spent in ``act``/``react`` per seat.
        unfinished: non-empty when the game was stopped before its end (it reached
            ``max_actions``); ``result`` is then ``None`` and ``record`` holds the events so far.
    """

    record: Record
    result: Result | None
    forfeit: int | None = None
    forfeit_reason: str = ""
    actions: list[int] = field(default_factory=list)
    think_time: list[float] = field(default_factory=list)
    unfinished: str = ""
    forfeit_traceback: str = ""


def raised_where(exc: BaseException) -> str:
    """Where ``exc`` was raised: ``"file:line in function"`` of its innermost frame (``""``
    without a traceback). The file is shortened to the part after ``site-packages/`` or the
    current folder."""
    tb = traceback.extract_tb(exc.__traceback__)
    if not tb:
        return ""
    frame = tb[-1]
    path = frame.filename
    cwd = os.getcwd() + os.sep
    if "site-packages" + os.sep in path:
        path = path.rsplit("site-packages" + os.sep, 1)[1]
    elif path.startswith(cwd):
        path = path[len(cwd):]
    return f"{path}:{frame.lineno} in {frame.name}"


def exception_text(exc: BaseException) -> str:
    """``"Type: message (at file:line in function)"`` for a forfeit reason."""
    where = raised_where(exc)
    return f"{type(exc).__name__}: {exc}" + (f" (at {where})" if where else "")


class _Referee:
    """The referee of one game being played: the complete state, the seats' agents, and what
    the game produced so far (the record, actions and thinking time per seat, the traceback of
    the exception behind a forfeit). Its steps return a finished :class:`MatchResult` when a
    seat forfeits, else ``None``.
    """

    def __init__(self, state, rec: Record, play_rngs: Sequence[np.random.Generator]):
        self.state = state
        self.rec = rec
        self.play_rngs = play_rngs
        self.n = n = state.num_seats
        self.agents: list[Agent | None] = [None] * n
        self.actions = [0] * n
        self.think = [0.0] * n
        self.failure_traceback = ""   # the traceback of the exception behind a forfeit
        self.observers: list = []

    def forfeit(self, seat: int, why: str) -> MatchResult:
        """The result of a game that ``seat`` forfeited for the reason ``why``."""
        return MatchResult(self.rec, None, seat, why, self.actions, self.think,
                           forfeit_traceback=self.failure_traceback)

    def raised(self, exc: BaseException) -> str:
        """Keep the traceback of ``exc``, which makes a seat forfeit; return it as a reason
        (:func:`exception_text`)."""
        self.failure_traceback = "".join(traceback.format_exception(exc))
        return exception_text(exc)

    def start_agents(self, game: Game, factories: Sequence[AgentFactory], opts: dict, header) -> MatchResult | None:
        """Build each seat's agent with its factory and the seat's view of the deal
        ``header``; the first seat whose factory raises forfeits."""
        for s in range(self.n):
            try:
                self.agents[s] = factories[s](game, s, opts, game.observer_header(header, s))
            except Exception as exc:  # noqa: BLE001 - a broken agent forfeits, the tournament goes on
                return self.forfeit(s, f"could not start: {self.raised(exc)}")
        # bound once: apply calls them for every event
        self.observers = [a.observe for a in self.agents]
        return None

    def run(self, seat: int, method: str):
        """Ask ``seat``'s agent to ``method`` (``"act"`` or ``"react"``) with its generator,
        adding the seconds it takes to its thinking time: ``(action, None)``, or
        ``(None, reason)`` when the agent raised."""
        t0 = perf_counter()
        try:
            return getattr(self.agents[seat], method)(self.play_rngs[seat]), None
        except Exception as exc:  # noqa: BLE001
            return None, f"{method} raised {self.raised(exc)}"
        finally:
            self.think[seat] += perf_counter() - t0

    def apply(self, seat: int, action) -> tuple[int, str] | None:
        """Apply ``seat``'s action (the state's referee step), pass the notice to every agent
        and each event, as each seat sees it, to every agent, recording the events; on
        failure return ``(seat to blame, reason)``."""
        if getattr(action, "seat", None) != seat:
            return seat, f"returned an action for another seat: {action!r}"
        try:
            step = self.state.referee_step(action)
        except IllegalAction as exc:
            return seat, f"illegal action {action!r}: {exc.message} (rule: {exc.rule})"
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            self.failure_traceback = "".join(traceback.format_exception(exc))
            return seat, f"returned a malformed action {action!r}: {exc}"
        self.actions[seat] += 1
        n, agents, observers = self.n, self.agents, self.observers
        notice = step.notice
        if notice is not None:
            for s in range(n):
                try:
                    agents[s].notice(dict(notice))
                except Exception as exc:  # noqa: BLE001
                    return s, f"failed to take notice of {notice}: {self.raised(exc)}"
        events_out, lines_out = self.rec.events, self.rec.lines
        for i, ev in enumerate(step.events):
            events_out.append(ev)
            lines_out.append(len(events_out) + 1)
            for s in range(n):
                try:
                    observers[s](step.views[s][i])
                except Exception as exc:  # noqa: BLE001
                    return s, f"failed to observe {ev}: {self.raised(exc)}"
        return None

    def turn(self) -> MatchResult | None:
        """The seat to move acts and its action is applied."""
        seat = self.state.to_move()
        action, err = self.run(seat, "act")
        if err is not None:
            return self.forfeit(seat, err)
        failed = self.apply(seat, action)
        if failed is not None:
            return self.forfeit(*failed)
        return None

    def reactions(self) -> MatchResult | None:
        """Out-of-turn actions (for example claims under claim_any_time): while more than one
        seat may act, the others (:meth:`State.actors` after the first) are asked in order to
        react and the first action offered is applied; this ends when none offers one."""
        state = self.state
        while not state.is_over():
            actors = state.actors()
            if len(actors) < 2:
                break
            for s in actors[1:]:
                action, err = self.run(s, "react")
                if err is not None:
                    return self.forfeit(s, err)
                if action is not None:
                    failed = self.apply(s, action)
                    if failed is not None:
                        return self.forfeit(*failed)
                    break
            else:
                break
        return None


def play_game(game: Game, options: Mapping[str, Any] | None, factories: Sequence[AgentFactory],
              deal_rng: np.random.Generator, play_rngs: Sequence[np.random.Generator],
              max_actions: int = 100_000) -> MatchResult:
    """Deal with ``deal_rng`` and play one game to the end.

    Args:
        game: the game.
        options: its options (raw; parsed here).
        factories: one per seat: ``factory(game, seat, options, header) -> Agent``, where
            ``header`` is the seat's view of the deal.
        deal_rng: shuffles the deck.
        play_rngs: one generator per seat, passed to that seat's agent.
        max_actions: a bound on the game's length: a game still running after this many
            actions is stopped (``MatchResult.unfinished`` says so; its record is kept).

    Returns:
        A :class:`MatchResult`. An agent that raises or returns an illegal action forfeits
        (``forfeit`` is its seat; the caller scores it, e.g. its team loses).
    """
    state, header = game.initial_state(options, deal_rng)
    opts = state.options
    rec = Record(game, opts, header, [], "<match>", [])
    referee = _Referee(state, rec, play_rngs)
    ended = referee.start_agents(game, factories, opts, header)
    if ended is not None:
        return ended
    total = 0
    while not state.is_over():
        total += 1
        if total > max_actions:
            return MatchResult(rec, None, None, "", referee.actions, referee.think,
                               unfinished=f"the game did not end within {max_actions} actions")
        ended = referee.turn()
        if ended is None:
            ended = referee.reactions()
        if ended is not None:
            return ended
    return MatchResult(rec, state.result(), None, "", referee.actions, referee.think)
