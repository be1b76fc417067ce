"""Play a tournament's games as tasks on Ray (https://docs.ray.io), an existing distributed
engine: ``cardmind tournament ... --executor ray [--address ADDRESS]``.

The schedule, the seeds and the results lines are those of the local executor: each task
plays one scheduled game with :func:`~cardmind.tournament.play.play_task` (the function the
local worker processes run) and returns its ``results.jsonl`` line and its files (record,
traceback of a forfeit); the driver (this process) writes them, so the workers need not see
the output folder. A game whose worker dies (a killed process, a lost node) is played again
by Ray on another worker (``max_retries``); since a game is a pure function of the seed, its
deal and its seats, the retried game is the same game. Results are written as games finish;
after the driver dies, ``--resume`` plays only the games missing from ``results.jsonl``.

Ray is an optional extra: ``pip install 'cardmind[ray]'``. Without it, :func:`check_ray`
raises at once with that advice.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from typing import Any

from .play import TournamentError, init_worker, play_task, write_files

#: how often Ray plays a game again whose worker died (Ray's ``max_retries`` of a task)
MAX_RETRIES = 3
#: tasks in flight per CPU of the cluster (enough to keep every CPU busy between waits)
IN_FLIGHT_PER_CPU = 4

_WORKER_KEY: Any = None


def check_ray() -> None:
    """Check that Ray can be imported.

    Raises:
        TournamentError: Ray is not installed (the message says what to install)."""
    try:
        import ray  # noqa: F401, PLC0415
    except ImportError as exc:
        raise TournamentError(f"--executor ray needs Ray, which is not installed ({exc}): "
                              "pip install 'cardmind[ray]'") from None


def _play_on_worker(key: str, ctx: dict, task: tuple[int, int, tuple[int, ...]]) -> tuple[dict, dict[str, str]]:
    """The Ray task: set up this worker for the tournament ``key`` (once per worker process
    and tournament), then play ``task``."""
    global _WORKER_KEY  # noqa: PLW0603 - one tournament set up per worker process at a time
    if _WORKER_KEY != key:
        init_worker(ctx, ignore_sigint=False)  # Ray runs tasks off the main thread: no signals
        _WORKER_KEY = key
    return play_task(task)


def run_ray(ctx: dict, tasks: Iterator[tuple[int, int, tuple[int, ...]]], finished: Callable[[dict], bool],
            jobs: int, display, address: str | None = None) -> None:
    """Play ``tasks`` as Ray tasks and hand each results line to ``finished`` (in the order
    games finish; ``finished`` returns True to stop: the SPRT's verdict).

    Args:
        ctx: the tournament context (:func:`~cardmind.tournament.play.init_worker`'s).
        tasks: the scheduled games ``(id, deal, seats)`` still to play.
        finished: called in this process with each results line, after the game's files
            are written under ``ctx["out_dir"]``.
        jobs: CPUs of the local Ray instance started for the run (ignored with ``address``:
            the cluster's CPUs are used).
        display: the progress display (started once the first tasks are submitted) or None.
        address: an existing Ray cluster (``"auto"``, ``"ray://HOST:10001"``, ``"HOST:6379"``);
            None starts a local instance for the run and stops it afterwards.

    Raises:
        TournamentError: Ray is missing, the cluster cannot be reached, or a game failed on a
            worker other than by a forfeit (an agent or game that cannot be loaded there: the
            message gives the worker's reason).
    """
    check_ray()
    import ray  # noqa: PLC0415

    started = _start_ray(ray, jobs, address)
    pending: dict = {}   # in flight: object ref -> game id
    try:
        _play_all(ray, ctx, tasks, finished, jobs, display, pending)
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()


def _start_ray(ray, jobs: int, address: str | None) -> bool:
    """Start a local Ray instance of ``jobs`` CPUs (``address`` None) or connect to the
    cluster at ``address``, unless Ray is already initialised in this process; return whether
    it was started here (and so is to be shut down after the run).

    Raises:
        TournamentError: Ray cannot be started or the cluster reached (the message says why).
    """
    if ray.is_initialized():
        return False
    # Ray's notice that a local instance uses token authentication (its default) is not
    # news to a tournament's user: keep stderr to the tournament's own lines
    logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)
    try:
        if address is None:
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    except Exception as exc:  # noqa: BLE001 - any failure to start or reach Ray is reported in a line
        where = "a local Ray instance" if address is None else f"the Ray cluster at {address}"
        raise TournamentError(f"cannot start {where}: {type(exc).__name__}: {exc}") from None
    return True


def _play_all(ray, ctx: dict, tasks: Iterator[tuple[int, int, tuple[int, ...]]],
              finished: Callable[[dict], bool], jobs: int, display, pending: dict) -> None:
    """Submit ``tasks`` to Ray, keeping :data:`IN_FLIGHT_PER_CPU` tasks per cluster CPU in
    flight in ``pending`` (object ref -> game id, left holding the refs still in flight if this
    raises), write each finished game's files and pass its results line to ``finished`` until
    every task is done or ``finished`` returns True (the rest are then cancelled). Arguments
    as for :func:`run_ray`.

    Raises:
        TournamentError: a game failed on a worker or was lost (:func:`_game_result`).
    """
    cpus = int(ray.cluster_resources().get("CPU", jobs)) or 1
    play = ray.remote(max_retries=MAX_RETRIES, num_cpus=1)(_play_on_worker)
    key = f"{os.getpid()}:{id(ctx)}:{ctx['out_dir']}"
    ctx_ref = ray.put({k: v for k, v in ctx.items() if k not in ("game_obj", "factories")})
    limit = IN_FLIGHT_PER_CPU * cpus
    stop = False

    def fill() -> None:
        while not stop and len(pending) < limit:
            task = next(tasks, None)
            if task is None:
                return
            pending[play.remote(key, ctx_ref, task)] = task[0]

    fill()
    if display is not None:
        display.start()
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            game_id = pending.pop(ref)
            line, files = _game_result(ray, ref, game_id)
            write_files(ctx["out_dir"], files)
            if finished(line) and not stop:
                stop = True
                for other in pending:
                    ray.cancel(other)
        if stop:
            for ref in list(pending):  # cancelled: drop them, their results are not wanted
                pending.pop(ref)
        fill()


def _game_result(ray, ref, game_id: int) -> tuple[dict, dict[str, str]]:
    """The results line and files (``{relative path: text}``) of the finished Ray task ``ref``
    that played game ``game_id``.

    Raises:
        TournamentError: the task raised on its worker (the message gives the worker's
            exception), or Ray lost it after :data:`MAX_RETRIES` retries.
    """
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = exc.cause if getattr(exc, "cause", None) is not None else exc
        raise TournamentError(f"game {game_id} failed on a Ray worker: "
                              f"{type(cause).__name__}: {cause}") from None
    except ray.exceptions.RayError as exc:
        raise TournamentError(f"game {game_id} was lost on Ray after {MAX_RETRIES} retries: "
                              f"{type(exc).__name__}") from None
