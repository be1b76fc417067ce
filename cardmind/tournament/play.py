"""One scheduled game of a tournament, played in whatever process runs it.

:func:`init_worker` sets a process up for a tournament (its context, as
:func:`~cardmind.tournament.runner.run_tournament` prepares it); :func:`play_task` plays one
scheduled game and returns its ``results.jsonl`` line and the files it leaves, writing nothing
(so a Ray worker on another machine can run it); :func:`play_scheduled` also writes them. The
local runner (:mod:`.runner`) and the Ray executor (:mod:`.ray_executor`) both import this
module, and it imports neither.
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
from collections.abc import Mapping
from functools import partial
from typing import Any

from ..core import get_game
from ..errors import CardmindError
from .schedule import deal_rng, play_rngs

RECORDS = "records"
FORFEITS = "forfeits"


class TournamentError(CardmindError):
    """A tournament that cannot run as asked (bad agents, settings, output folder...)."""


# ---------------------------------------------------------------------------- playing one game
_CTX: dict | None = None


def init_worker(ctx: dict, ignore_sigint: bool = True) -> None:
    """Set up a process to play games of the tournament described by ``ctx``."""
    global _CTX  # noqa: PLW0603 - one tournament per worker process
    from ..agents.base import resolve_agent  # noqa: PLC0415

    if ignore_sigint:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    game = get_game(ctx["game"])
    classes = [resolve_agent(spec, game) for spec in ctx["specs"]]
    _CTX = dict(ctx, game_obj=game,
                factories=[partial(cls, settings=s) for cls, s in zip(classes, ctx["settings"])])


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def record_name(game_id: int) -> str:
    """The record file of game ``game_id``, relative to the output folder."""
    return f"{RECORDS}/game-{game_id:06d}.jsonl"


def traceback_name(game_id: int) -> str:
    """The file with the traceback of game ``game_id``'s forfeit, relative to the output folder."""
    return f"{FORFEITS}/game-{game_id:06d}.txt"


def play_scheduled(task: tuple[int, int, tuple[int, ...]]) -> dict:
    """Play scheduled game ``(id, deal, seats)`` in this process (after :func:`init_worker`),
    write its complete record (and the traceback of a forfeit) into the output folder and
    return its ``results.jsonl`` line (a dict)."""
    line, files = play_task(task)
    write_files(_CTX["out_dir"], files)
    return line


def write_files(out_dir: str | os.PathLike, files: Mapping[str, str]) -> None:
    """Write ``files`` (``{path relative to out_dir: text}``, as :func:`play_task` returns
    them) under ``out_dir``, each atomically (a temporary file, then a rename).

    Raises:
        OSError: a file that cannot be written."""
    for rel, text in files.items():
        path = os.path.join(out_dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path + ".tmp", "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(path + ".tmp", path)


def play_task(task: tuple[int, int, tuple[int, ...]]) -> tuple[dict, dict[str, str]]:
    """Play scheduled game ``(id, deal, seats)`` in this process (after :func:`init_worker`)
    and return its ``results.jsonl`` line (a dict) and the files it leaves: ``{path relative
    to the output folder: text}`` (its record; the traceback of a forfeit). Writes nothing,
    so that it can run on a machine that does not see the output folder (a Ray worker)."""
    from ..agents.match import play_game  # noqa: PLC0415
    from ..records import Record, record_lines  # noqa: PLC0415

    ctx = _CTX
    assert ctx is not None, "init_worker was not called"
    game_id, deal, seats = task
    game, labels, n = ctx["game_obj"], ctx["labels"], ctx["num_seats"]
    factories = [ctx["factories"][a] for a in seats]
    names = [labels[a] for a in seats]
    t0 = time.perf_counter()
    error = None
    try:
        mr = play_game(game, ctx["options"], factories, deal_rng(ctx["seed"], deal),
                       play_rngs(ctx["seed"], game_id, n), max_actions=ctx["max_actions"])
    except Exception as exc:  # noqa: BLE001 - e.g. a game that never ends: count it as a draw
        mr = None
        error = f"{type(exc).__name__}: {exc}"
    wall = time.perf_counter() - t0
    if mr is not None:
        rec = mr.record
    else:
        _, header = game.initial_state(ctx["options"], deal_rng(ctx["seed"], deal))
        rec = Record(game, dict(ctx["options"]), header, [], "<match>", [])
    rec.header["names"] = names
    files = {record_name(game_id): "\n".join(record_lines(rec)) + "\n"}

    teams = ctx["teams"]
    forfeit = None if mr is None else mr.forfeit
    if mr is not None and mr.unfinished:
        error = mr.unfinished
    if mr is None or mr.unfinished:
        outcome, scores, detail = [0.5] * n, None, {}
    elif forfeit is None:
        outcome = [float(x) for x in mr.result.outcome]
        scores = [float(x) for x in mr.result.scores]
        detail = mr.result.detail
    else:
        # the forfeiting agent (its team, in a team game) loses; every other seat wins
        if teams is not None:
            outcome = [0.0 if teams[s] == teams[forfeit] else 1.0 for s in range(n)]
        else:
            outcome = [0.0 if seats[s] == seats[forfeit] else 1.0 for s in range(n)]
        scores, detail = None, {}
    reason = "" if mr is None else _ADDRESS.sub("", mr.forfeit_reason)
    tb_file = None
    if forfeit is not None and mr.forfeit_traceback:
        tb_file = traceback_name(game_id)
        files[tb_file] = (f"game {game_id} (deal {deal}): agent {names[forfeit]!r} at seat {forfeit} forfeited: "
                          f"{reason}\n\n{mr.forfeit_traceback}")
    return {
        "id": game_id, "deal": deal, "seats": names, "outcome": outcome, "scores": scores,
        "forfeit": forfeit, "forfeit_agent": None if forfeit is None else names[forfeit],
        "reason": reason, "traceback": tb_file,
        "error": error, "detail": _jsonable(detail),
        "actions": [0] * n if mr is None else list(mr.actions),
        "think": [0.0] * n if mr is None else [round(t, 6) for t in mr.think_time],
        "events": len(rec.events), "wall": round(wall, 6), "record": record_name(game_id),
    }, files


def _jsonable(obj: Any) -> Any:
    try:
        json.dumps(obj)
        return obj
    except (TypeError, ValueError):
        return json.loads(json.dumps(obj, default=str))
