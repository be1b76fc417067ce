"""Run a duplicate tournament: play the schedule (in parallel), write results, summarise.

The entry point is :func:`run_tournament`; ``docs/tournament.md`` documents the output files
and every statistic. The pieces:

* the schedule and seeds (:mod:`.schedule`), deterministic from the seed;
* :func:`~.play.play_scheduled` (:mod:`.play`), which plays one scheduled game (in a worker
  process, a Ray worker or this one), writes its complete record and returns its
  ``results.jsonl`` line;
* :func:`load_results`, which reads ``results.jsonl`` back (tolerating a half-written last
  line) for ``resume``;
* :func:`summarize` (:mod:`.summary`), a pure function of the results lines, so the summary
  does not depend on the number of jobs or on the order games finished in.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import threading
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from ..core import get_game
from .play import (FORFEITS, RECORDS, TournamentError, init_worker, play_scheduled, play_task,  # noqa: F401 - re-exported
                   record_name, traceback_name, write_files)
from .schedule import Schedule, deal_rng, make_schedule, seat_teams
from .summary import SprtMonitor, counted_ids, summarize

FORMAT = "cardmind-tournament/1"
RESULTS = "results.jsonl"
CONFIG = "config.json"
SUMMARY = "summary.json"
PLOT = "summary.png"
#: the folder of the tracebacks of forfeits (an agent raised)
#: a game still running after this many actions is stopped and scored as a draw
DEFAULT_MAX_ACTIONS = 3000


# ---------------------------------------------------------------------------- configuration
def agent_labels(specs: Sequence[str]) -> list[str]:
    """Unique display names for agent specs: the spec itself, with ``#2``, ``#3``... appended
    to repeats (``random,random`` plays ``random`` against ``random#2``)."""
    out, seen = [], {}
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return out


def default_out_dir(game_name: str, labels: Sequence[str]) -> Path:
    """``tournaments/<game>-<agents>-<YYYYmmdd-HHMMSS>`` (agent names made file-safe)."""
    names = "-".join(re.sub(r"[^A-Za-z0-9_.#]+", "_", lab.rsplit(":", 1)[-1]) for lab in labels)
    return Path("tournaments") / f"{game_name}-{names[:80]}-{time.strftime('%Y%m%d-%H%M%S')}"


def _prepare(game_name: str, agent_specs: Sequence[str], options: Mapping[str, Any] | None,
             settings: Mapping[str, Mapping[str, Any]] | None, seed: int) -> dict:
    """Check everything that can be checked before playing; return the worker context."""
    from ..agents.base import resolve_agent  # noqa: PLC0415

    game = get_game(game_name)
    opts = game.parse_options(options)
    specs = [s.strip() for s in agent_specs if s.strip()]
    if len(specs) < 2:
        raise TournamentError(f"a tournament needs at least two agents, got {len(specs)}: {list(agent_specs)!r}")
    labels = agent_labels(specs)
    settings = {str(k): dict(v) for k, v in (settings or {}).items()}
    for key in settings:
        if key not in labels and key not in specs:
            raise TournamentError(f"settings given for {key!r}, which is not one of the agents ({', '.join(labels)})")
    per_agent = []
    for spec, label in zip(specs, labels):
        try:
            cls = resolve_agent(spec, game)
        except ValueError as exc:
            raise TournamentError(str(exc)) from None
        s = dict(settings.get(label, settings.get(spec, {})))
        try:
            cls.check_settings(s)
        except ValueError as exc:
            raise TournamentError(f"agent {label!r}: {exc}") from None
        per_agent.append(s)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise TournamentError(f"the seed must be a non-negative integer, not {seed!r}")
    try:
        teams = seat_teams(game, opts)
    except ValueError as exc:
        raise TournamentError(str(exc)) from None
    _build_each(game, opts, seed, specs, labels, per_agent)
    return {"game": game.name, "options": opts, "specs": specs, "labels": labels, "settings": per_agent,
            "seed": seed, "teams": teams, "num_seats": game.num_seats(opts)}


def _build_each(game, opts: dict, seed: int, specs: Sequence[str], labels: Sequence[str],
                settings: Sequence[dict]) -> None:
    """Build every agent once, at seat 0 of the first deal, before any game is played: an
    agent that cannot be built (a missing extra, a bug in its constructor) stops the
    tournament with the reason, instead of forfeiting every game.

    Raises:
        TournamentError: an agent's constructor raised (the message says which agent, the
            exception and where it was raised).
    """
    from ..agents.base import resolve_agent  # noqa: PLC0415
    from ..agents.match import exception_text  # noqa: PLC0415

    _, header = game.initial_state(opts, deal_rng(seed, 0))
    view = game.observer_header(header, 0)
    for spec, label, s in zip(specs, labels, settings):
        cls = resolve_agent(spec, game)
        try:
            cls(game, 0, opts, dict(view), settings=dict(s))
        except Exception as exc:  # noqa: BLE001 - any failure of a bot's constructor is reported
            raise TournamentError(f"agent {label!r} cannot be built: {exception_text(exc)}") from None


# ---------------------------------------------------------------------------- results file
def load_results(path: str | os.PathLike, repair: bool = False) -> dict[int, dict]:
    """Read ``results.jsonl``: ``{game id: line}``.

    A last line that is incomplete (no newline) or not valid JSON, as a killed run can
    leave, is ignored; with ``repair`` the file is truncated to its valid part so that
    appending continues cleanly. A repeated id keeps its first line.

    Raises:
        TournamentError: an unreadable line that is not the last one.
    """
    p = Path(path)
    if not p.exists():
        return {}
    data = p.read_bytes()
    out: dict[int, dict] = {}
    pos = 0
    good_end = 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        if nl < 0:
            break  # a half-written last line
        raw = data[pos:nl]
        try:
            obj = json.loads(raw) if raw.strip() else None
            if obj is not None and not (isinstance(obj, dict) and isinstance(obj.get("id"), int)):
                raise ValueError("not a results line")
        except ValueError:
            if data[nl + 1:].strip():
                raise TournamentError(f"{p}: byte {pos}: unreadable line in the middle of the results; "
                                      f"remove it to resume") from None
            break
        if obj is not None:
            out.setdefault(obj["id"], obj)
        pos = nl + 1
        good_end = pos
    if repair and good_end < len(data):
        with open(p, "r+b") as fh:
            fh.truncate(good_end)
    return out


def _check_config(out: Path, config: dict, resume: bool) -> None:
    path = out / CONFIG
    results = out / RESULTS
    has_results = results.exists() and results.stat().st_size > 0
    if not resume:
        if has_results:
            raise TournamentError(f"{out} already holds a tournament ({RESULTS} is not empty): "
                                  f"pass --resume to continue it, or choose another --out")
        return
    if not path.exists():
        if has_results:
            raise TournamentError(f"{out} has {RESULTS} but no {CONFIG}: cannot tell what it was")
        return
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise TournamentError(f"{path}: cannot read it: {exc}") from None
    for key in ("game", "options", "agents", "settings", "seed", "max_actions"):
        if old.get(key) != config.get(key):
            raise TournamentError(f"cannot resume {out}: it was run with {key} = {json.dumps(old.get(key))}, "
                                  f"not {json.dumps(config.get(key))}")


# ---------------------------------------------------------------------------- the tournament
def run_tournament(game_name: str, agent_specs: Sequence[str], games: int = 100, jobs: int = 1, seed: int = 0,
                   out_dir: str | os.PathLike | None = None, options: Mapping[str, Any] | None = None,
                   sprt: tuple[float, float] | None = None, quiet: bool = True, resume: bool = False,
                   settings: Mapping[str, Mapping[str, Any]] | None = None, max_actions: int = DEFAULT_MAX_ACTIONS,
                   console=None, executor: str = "local", address: str | None = None) -> dict:
    """Play a duplicate tournament and return its summary (also written to ``summary.json``).

    Args:
        game_name: a registered game (``"literature"``).
        agent_specs: two or more agents, by registry name or ``package.module:Class``.
        games: games in total, rounded up to whole deals (see :mod:`.schedule`); with
            ``sprt`` the most games to play.
        jobs: worker processes (1 plays in this process; 0 means one per CPU).
        seed: the tournament seed; deals and play seeds derive from it and the game id.
        out_dir: the output folder (default :func:`default_out_dir`).
        options: the game's options (``{"players": 8}``).
        sprt: ``(elo0, elo1)`` to stop early with a GSPRT verdict (two agents only;
            alpha = beta = 0.05).
        quiet: no progress display (otherwise a rich progress bar and live standings on
            stderr).
        resume: continue the tournament already in ``out_dir`` (games already in
            ``results.jsonl`` are kept; the rest are played).
        settings: agent settings keyed by agent name (label or spec).
        max_actions: a game still running after this many actions is stopped and scored as
            a draw for every seat (counted in ``errors``): agents that keep asking in circles
            must not stall the tournament.
        console: a ``rich.console.Console`` for the progress display (default: stderr).
        executor: ``"local"`` (this process with ``jobs`` 1, else a pool of ``jobs`` worker
            processes) or ``"ray"``: the games as Ray tasks (:mod:`.ray_executor`), on a local
            Ray instance of ``jobs`` CPUs started for the run or on the cluster at
            ``address``. The results are the same for the same seed.
        address: with ``executor="ray"``, an existing Ray cluster (``"auto"``,
            ``"ray://HOST:10001"``); None starts a local instance.

    Returns:
        The summary dict (``docs/tournament.md``); ``summary["out_dir"]`` is the folder.

    Raises:
        TournamentError, OptionError: a tournament that cannot run as asked.
    """
    t_start = time.perf_counter()
    _check_executor(executor, address)
    ctx = _prepare(game_name, agent_specs, options, settings, seed)
    jobs = _check_sizes(games, max_actions, jobs)
    ctx["max_actions"] = max_actions
    labels = ctx["labels"]
    sprt = _check_sprt(sprt, labels)
    try:
        schedule = make_schedule(len(labels), ctx["num_seats"], ctx["teams"], games)
    except ValueError as exc:
        raise TournamentError(str(exc)) from None

    out = Path(out_dir) if out_dir is not None else default_out_dir(ctx["game"], labels)
    config = {"format": FORMAT, "game": ctx["game"], "options": ctx["options"], "agents": ctx["specs"],
              "labels": labels, "settings": dict(zip(labels, ctx["settings"])), "seed": seed,
              "games": games, "sprt": list(sprt) if sprt else None, "max_actions": max_actions}
    _open_out_dir(out, config, resume)
    ctx["out_dir"] = os.fspath(out)

    done, monitor, todo = _games_so_far(out, schedule, labels, sprt, resume)
    t_play = time.perf_counter()
    display = None if quiet else _Display(console, schedule, labels, sprt, len(done), config)
    played = _play_games(ctx, schedule, todo, done, monitor, display, out, executor, jobs, address)
    play_seconds = time.perf_counter() - t_play

    summary = summarize(schedule, labels, done, sprt=sprt, specs=ctx["specs"], game=ctx["game"],
                        options=ctx["options"], seed=seed, games_requested=games, monitor=monitor)
    summary["timing"] = _timing(schedule, done, labels, sprt, play_seconds, played, jobs, monitor)
    summary["timing"]["executor"] = executor
    summary["timing"]["wall_seconds"] = round(time.perf_counter() - t_start, 3)
    summary["out_dir"] = os.fspath(out)
    _write_summary(summary, out)
    return summary


def _check_executor(executor: str, address: str | None) -> None:
    """Check the executor (``"local"`` or ``"ray"``) and the Ray ``address`` (only with Ray).

    Raises:
        TournamentError: an unknown executor, an address without Ray, or Ray not installed.
    """
    if executor not in ("local", "ray"):
        raise TournamentError(f"unknown executor {executor!r}: 'local' or 'ray'")
    if address is not None and executor != "ray":
        raise TournamentError("--address names a Ray cluster: it needs --executor ray")
    if executor == "ray":
        from .ray_executor import check_ray  # noqa: PLC0415

        check_ray()


def _check_sizes(games: int, max_actions: int, jobs: int) -> int:
    """Check the number of ``games``, ``max_actions`` (actions per game) and ``jobs`` (worker
    processes); return the jobs to use (0 becomes the number of CPUs).

    Raises:
        TournamentError: a number of games or actions that is not a positive integer, or
            fewer than 0 jobs.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise TournamentError(f"the number of games must be a positive integer, not {games!r}")
    if isinstance(max_actions, bool) or not isinstance(max_actions, int) or max_actions < 1:
        raise TournamentError(f"max_actions must be a positive integer, not {max_actions!r}")
    if jobs == 0:
        jobs = os.cpu_count() or 1
    if jobs < 1:
        raise TournamentError(f"--jobs must be 1 or more (0 = one per CPU), not {jobs}")
    return jobs


def _check_sprt(sprt: tuple[float, float] | None, labels: Sequence[str]) -> tuple[float, float] | None:
    """The SPRT's ``(elo0, elo1)`` as floats (``None`` without an SPRT).

    Raises:
        TournamentError: not exactly two agents, or not ``elo0 < elo1``.
    """
    if sprt is None:
        return None
    sprt = (float(sprt[0]), float(sprt[1]))
    if len(labels) != 2:
        raise TournamentError("--sprt needs exactly two agents (it tests the first against the second)")
    if not sprt[0] < sprt[1]:
        raise TournamentError(f"--sprt needs ELO0 < ELO1, got {sprt[0]:g},{sprt[1]:g}")
    return sprt


def _open_out_dir(out: Path, config: dict, resume: bool) -> None:
    """Make the output folder ``out`` and its ``records/`` folder, check that it may be used
    (:func:`_check_config`) and write ``config.json`` (atomically).

    Raises:
        TournamentError: ``resume`` without ``results.jsonl``, a folder that cannot be made,
            or one that holds another tournament.
    """
    if resume and not (out / RESULTS).exists():
        raise TournamentError(f"cannot resume {out}: it holds no tournament ({RESULTS} is missing)")
    try:
        out.mkdir(parents=True, exist_ok=True)
        _check_config(out, config, resume)
        (out / RECORDS).mkdir(exist_ok=True)
    except OSError as exc:
        raise TournamentError(f"cannot create the output folder {out}: {exc.strerror or exc}") from None
    tmp = out / (CONFIG + ".tmp")
    tmp.write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, out / CONFIG)


def _games_so_far(out: Path, schedule: Schedule, labels: Sequence[str], sprt: tuple[float, float] | None,
                  resume: bool) -> tuple[dict[int, dict], SprtMonitor | None, list[int]]:
    """Where the tournament in ``out`` stands: ``(done, monitor, todo)``, the scheduled games
    already in ``results.jsonl`` when resuming (``{id: line}``, the file repaired as
    :func:`load_results` does; ``{}`` otherwise), the SPRT monitor fed with them (None without
    an SPRT) and the ids still to play (none once the SPRT has a verdict).

    Raises:
        TournamentError: an unreadable line in the middle of ``results.jsonl``.
    """
    done = load_results(out / RESULTS, repair=True) if resume else {}
    done = {i: line for i, line in done.items() if i < schedule.total}
    monitor = SprtMonitor(schedule, labels, sprt) if sprt else None
    if monitor is not None:
        monitor.update(done)
    todo = [i for i in range(schedule.total) if i not in done]
    if monitor is not None and monitor.verdict is not None:
        todo = []
    return done, monitor, todo


def _play_games(ctx: dict, schedule: Schedule, todo: Sequence[int], done: dict[int, dict],
                monitor: SprtMonitor | None, display, out: Path, executor: str, jobs: int,
                address: str | None) -> int:
    """Play the games ``todo`` (ids, in order) with ``executor``, appending each results line
    to ``results.jsonl`` and to ``done`` as it finishes, until all are played or the SPRT
    ``monitor`` has a verdict; return the number of games played. ``display`` (or None) shows
    the progress and is stopped however this ends.
    """
    played = 0
    with _one_interrupt(), _stopping(display), open(out / RESULTS, "a", encoding="utf-8") as results_file:
        def finished(line: dict) -> bool:
            """Write one result; return True when the SPRT says stop."""
            nonlocal played
            results_file.write(json.dumps(line, separators=(",", ":")) + "\n")
            results_file.flush()
            done[line["id"]] = line
            played += 1
            stop = monitor is not None and monitor.update(done)
            if display is not None:
                if line.get("forfeit_agent") is not None:
                    display.forfeit(line, out)
                display.advance(done, monitor)
            return stop

        tasks = ((i, schedule.game(i).deal, schedule.game(i).seats) for i in todo)
        if todo:
            if executor == "ray":
                from .ray_executor import run_ray  # noqa: PLC0415

                run_ray(ctx, tasks, finished, jobs, display, address)
            elif jobs == 1 or len(todo) == 1:
                _run_serial(ctx, tasks, finished, display)
            else:
                _run_parallel(ctx, tasks, finished, jobs, display)
    return played


def _write_summary(summary: dict, out: Path) -> None:
    """Write ``summary`` to ``summary.json`` (atomically) and its plot to ``summary.png``
    in the folder ``out``."""
    tmp = out / (SUMMARY + ".tmp")
    tmp.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, out / SUMMARY)
    from .plot import plot_summary  # noqa: PLC0415 - matplotlib is slow to import

    plot_summary(summary, out / PLOT)


@contextlib.contextmanager
def _one_interrupt():
    """While the games are played: the first SIGINT (Ctrl-C, ``timeout -s INT``) raises
    ``KeyboardInterrupt`` as usual, and any later one is ignored until the games are stopped
    and the display is closed, so a second Ctrl-C cannot break that cleanup (which printed a
    traceback from inside it, or left the worker processes waiting). Nothing changes
    outside the main thread, or when SIGINT is not Python's default handler."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return

    def first(signum, frame):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, first)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@contextlib.contextmanager
def _stopping(display):
    """Stop ``display`` (when there is one) however the block ends."""
    try:
        yield
    finally:
        if display is not None:
            display.stop()


def _run_serial(ctx: dict, tasks, finished, display) -> None:
    init_worker(ctx, ignore_sigint=False)
    if display is not None:
        display.start()
    for task in tasks:
        if finished(play_scheduled(task)):
            return


def _run_parallel(ctx: dict, tasks, finished, jobs: int, display) -> None:
    import multiprocessing as mp  # noqa: PLC0415

    method = "fork" if "fork" in mp.get_all_start_methods() else None
    executor = ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context(method),
                                   initializer=init_worker, initargs=(ctx,))
    limit = 4 * jobs
    futures: dict = {}
    stop = False

    def fill() -> None:
        while not stop and len(futures) < limit:
            task = next(tasks, None)
            if task is None:
                return
            futures[executor.submit(play_scheduled, task)] = task[0]

    try:
        fill()  # starts the workers (with fork: before the display's thread exists)
        if display is not None:
            display.start()
        while futures:
            ready, _ = wait(futures, return_when=FIRST_COMPLETED)
            for fut in sorted(ready, key=futures.__getitem__):
                del futures[fut]
                if fut.cancelled():
                    continue
                if finished(fut.result()) and not stop:
                    stop = True
                    for other in futures:
                        other.cancel()
            fill()
    except BaseException:
        executor.shutdown(wait=False, cancel_futures=True)
        raise
    executor.shutdown(wait=True)


def _timing(schedule: Schedule, done: dict[int, dict], labels: Sequence[str], sprt, play: float, played: int,
            jobs: int, monitor: SprtMonitor | None) -> dict:
    """Wall-clock facts (the only part of the summary that varies between runs)."""
    counted, _ = counted_ids(schedule, done, sprt, labels, monitor)
    think = {lab: 0.0 for lab in labels}
    moves = {lab: 0 for lab in labels}
    game_wall = 0.0
    for gid in counted:
        line = done[gid]
        game_wall += line.get("wall", 0.0)
        for name, t, a in zip(line["seats"], line["think"], line["actions"]):
            think[name] += t
            moves[name] += a
    return {
        "jobs": jobs, "play_seconds": round(play, 3), "games_this_run": played,
        "games_finished": sum(1 for i in done if 0 <= i < schedule.total),
        "games_per_second": round(played / play, 3) if play > 0 and played else None,
        "mean_game_seconds": round(game_wall / len(counted), 6) if counted else None,
        "think_ms_per_move": {lab: (round(1000 * think[lab] / moves[lab], 4) if moves[lab] else None)
                              for lab in labels},
    }


# ---------------------------------------------------------------------------- progress display
class _Display:
    """The progress display on stderr. On a terminal: a rich progress bar with ETA and live
    standings, redrawn in place. Elsewhere (stderr redirected to a file or a pipe, where a
    redrawn table would pile up): a plain progress line every :attr:`PLAIN_EVERY` seconds
    (and at the end), no tables. Either way, each forfeit is printed as it happens (up to
    :attr:`MAX_FORFEIT_LINES` lines)."""

    #: seconds between the plain progress lines
    PLAIN_EVERY = 30.0
    #: forfeits printed as they happen; the rest are only counted (results.jsonl has them all)
    MAX_FORFEIT_LINES = 20

    def __init__(self, console, schedule: Schedule, labels, sprt, already: int, config: dict):
        from rich.console import Console, Group  # noqa: PLC0415
        from rich.live import Live  # noqa: PLC0415
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,  # noqa: PLC0415
                                   TimeElapsedColumn, TimeRemainingColumn)

        self.console = console or Console(stderr=True)
        self.live_mode = self.console.is_terminal and not self.console.is_dumb_terminal
        self.schedule, self.labels, self.sprt, self.config = schedule, labels, sprt, config
        self.already = already
        self.t0 = time.perf_counter()
        self.n = 0
        self.next_update = 0.0
        self.cost = 0.0
        self.forfeits_shown = 0
        self.live = None
        if not self.live_mode:
            return
        self.progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"),
                                 TimeRemainingColumn(), console=self.console)
        self.task = self.progress.add_task(config["game"], total=schedule.total, completed=already, rate="")
        self.standings = _Standings()
        self.live = Live(Group(self.progress, self.standings), console=self.console, refresh_per_second=4,
                         transient=False)

    def start(self) -> None:
        self.t0 = time.perf_counter()
        if self.live is not None:
            self.live.start()
        else:
            self.next_update = self.t0 + self.PLAIN_EVERY

    def forfeit(self, line: dict, out: Path) -> None:
        """Print one forfeit: game, agent, seat, reason and where its traceback is."""
        self.forfeits_shown += 1
        if self.forfeits_shown > self.MAX_FORFEIT_LINES:
            return
        from rich.text import Text  # noqa: PLC0415

        tb = f" (traceback: {out / line['traceback']})" if line.get("traceback") else ""
        msg = (f"game {line['id']}: {line['forfeit_agent']} forfeited at seat {line['forfeit']}: "
               f"{line['reason']}{tb}")
        if self.forfeits_shown == self.MAX_FORFEIT_LINES:
            msg += f"; further forfeits are not shown here (see {out / RESULTS})"
        self.console.print(Text(msg, style="yellow"), soft_wrap=True)

    def _plain_line(self) -> str:
        done = self.already + self.n
        total = self.schedule.total
        elapsed = time.perf_counter() - self.t0
        rate = self.n / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else None
        eta_text = "" if eta is None or done >= total else f", about {_clock(eta)} left"
        return (f"{self.config['game']}: {done} of {total} games ({100 * done / max(1, total):.0f}%), "
                f"{rate:.2f} games/s{eta_text}")

    def advance(self, done: dict, monitor) -> None:
        self.n += 1
        now = time.perf_counter()
        if self.live is None:
            if now >= self.next_update:
                self.console.print(self._plain_line(), soft_wrap=True, highlight=False)
                self.next_update = now + self.PLAIN_EVERY
            return
        rate = self.n / (now - self.t0) if now > self.t0 else 0.0
        self.progress.update(self.task, advance=1, rate=f"{rate:.1f} games/s")
        if now >= self.next_update:
            self._refresh(done, monitor)
            self.cost = time.perf_counter() - now
            self.next_update = time.perf_counter() + max(0.5, 10 * self.cost)

    def _refresh(self, done: dict, monitor) -> None:
        from .render import standings_table  # noqa: PLC0415

        s = summarize(self.schedule, self.labels, done, sprt=self.sprt, game=self.config["game"],
                      games_requested=self.config["games"], monitor=monitor)
        self.standings.table = standings_table(s)

    def stop(self) -> None:
        try:
            if self.live is not None:
                self.live.stop()
            elif self.n:
                self.console.print(self._plain_line(), soft_wrap=True, highlight=False)
        except Exception:  # noqa: BLE001 - never hide the real error behind the display
            pass


def _clock(seconds: float) -> str:
    """``seconds`` as ``H:MM:SS`` or ``M:SS``."""
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


class _Standings:
    table = ""

    def __rich__(self):
        return self.table


__all__ = ["run_tournament", "play_scheduled", "init_worker", "load_results", "agent_labels",
           "TournamentError", "default_out_dir", "record_name", "FORMAT"]
