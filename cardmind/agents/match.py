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
    n = state.num_seats
    rec = Record(game, opts, header, [], "<match>", [])
    agents: list[Agent | None] = [None] * n
    actions = [0] * n
    think = [0.0] * n

    failure = {"traceback": ""}   # the traceback of the exception behind a forfeit

    def forfeit(seat: int, why: str) -> MatchResult:
        return MatchResult(rec, None, seat, why, actions, think, forfeit_traceback=failure["traceback"])

    def raised(exc: BaseException) -> str:
        failure["traceback"] = "".join(traceback.format_exception(exc))
        return exception_text(exc)

    for s in range(n):
        try:
            agents[s] = factories[s](game, s, opts, game.observer_header(header, s))
        except Exception as exc:  # noqa: BLE001 - a broken agent forfeits, the tournament goes on
            return forfeit(s, f"could not start: {raised(exc)}")

    # bound once: the loop below calls them for every event
    observers = [a.observe for a in agents]
    events_out, lines_out = rec.events, rec.lines

    def run(seat: int, method: str):
        t0 = perf_counter()
        try:
            return getattr(agents[seat], method)(play_rngs[seat]), None
        except Exception as exc:  # noqa: BLE001
            return None, f"{method} raised {raised(exc)}"
        finally:
            think[seat] += perf_counter() - t0

    def apply(seat: int, action) -> tuple[int, str] | None:
        """Apply ``seat``'s action; on failure return ``(seat to blame, reason)``."""
        if getattr(action, "seat", None) != seat:
            return seat, f"returned an action for another seat: {action!r}"
        try:
            step = state.referee_step(action)
        except IllegalAction as exc:
            return seat, f"illegal action {action!r}: {exc.message} (rule: {exc.rule})"
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            failure["traceback"] = "".join(traceback.format_exception(exc))
            return seat, f"returned a malformed action {action!r}: {exc}"
        actions[seat] += 1
        notice = step.notice
        if notice is not None:
            for s in range(n):
                try:
                    agents[s].notice(dict(notice))
                except Exception as exc:  # noqa: BLE001
                    return s, f"failed to take notice of {notice}: {raised(exc)}"
        for i, ev in enumerate(step.events):
            events_out.append(ev)
            lines_out.append(len(events_out) + 1)
            for s in range(n):
                try:
                    observers[s](step.views[s][i])
                except Exception as exc:  # noqa: BLE001
                    return s, f"failed to observe {ev}: {raised(exc)}"
        return None

    total = 0
    while not state.is_over():
        total += 1
        if total > max_actions:
            return MatchResult(rec, None, None, "", actions, think,
                               unfinished=f"the game did not end within {max_actions} actions")
        seat = state.to_move()
        action, err = run(seat, "act")
        if err is not None:
            return forfeit(seat, err)
        failed = apply(seat, action)
        if failed is not None:
            return forfeit(*failed)
        # out-of-turn actions (for example claims under claim_any_time)
        while not state.is_over():
            actors = state.actors()
            if len(actors) < 2:
                break
            for s in actors[1:]:
                action, err = run(s, "react")
                if err is not None:
                    return forfeit(s, err)
                if action is not None:
                    failed = apply(s, action)
                    if failed is not None:
                        return forfeit(*failed)
                    break
            else:
                break
    return MatchResult(rec, state.result(), None, "", actions, think)
