"""The Ray executor of ``cardmind tournament`` (issue 27): the same results as the local
executor for the same seed, plugin games and agents on the workers, a killed worker's game
played again, a killed driver continued with ``--resume``, and a clear error without Ray.

Each test starts its own local Ray instance through the real command (a few seconds each).
Ray is the optional extra ``cardmind[ray]``; ``.ci/run`` installs it, so under CI these tests
never skip."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .plugin_env import plugin_env

if os.environ.get("CI"):
    import ray  # noqa: F401 - CI installs the ray extra: a missing Ray is a failure there
else:
    pytest.importorskip("ray")


def tournament(*args: str, env: dict | None = None, check: bool = True) -> subprocess.CompletedProcess:
    """Run ``cardmind tournament ARGS --quiet`` in a fresh process."""
    r = subprocess.run([sys.executable, "-m", "cardmind", "tournament", *args, "--quiet"], env=env,
                       capture_output=True, text=True, timeout=600)
    if check:
        assert r.returncode == 0, r.stderr
    return r


def summary_without_timing(out: Path) -> dict:
    s = json.loads((out / "summary.json").read_text())
    s.pop("timing")
    s.pop("out_dir")
    return s


def results_by_id(out: Path) -> dict[int, dict]:
    """results.jsonl by game id, without the wall-clock fields; fails on a repeated game."""
    lines = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    ids = [x["id"] for x in lines]
    assert len(ids) == len(set(ids)), f"a game is in results.jsonl twice: {sorted(ids)}"
    for x in lines:
        x.pop("wall")
        x.pop("think")
    return {x["id"]: x for x in lines}


def assert_same_tournament(a: Path, b: Path, games: int) -> None:
    assert summary_without_timing(a) == summary_without_timing(b)
    ra, rb = results_by_id(a), results_by_id(b)
    assert sorted(ra) == list(range(games))
    assert ra == rb
    for gid in range(games):
        name = f"records/game-{gid:06d}.jsonl"
        assert (a / name).read_text() == (b / name).read_text(), name
    assert (b / "summary.png").stat().st_size > 0


def test_ray_gives_the_local_results(tmp_path):
    common = ["literature", "--agents", "peer,random", "--games", "12", "--seed", "7", "--options",
              '{"players": 6}']
    tournament(*common, "--jobs", "1", "--out", str(tmp_path / "local"))
    tournament(*common, "--jobs", "2", "--executor", "ray", "--out", str(tmp_path / "ray"))
    assert_same_tournament(tmp_path / "local", tmp_path / "ray", 12)
    timing = json.loads((tmp_path / "ray" / "summary.json").read_text())["timing"]
    assert timing["executor"] == "ray" and timing["games_this_run"] == 12


def test_plugin_game_and_agent_play_on_ray_workers(tmp_path):
    env = plugin_env(tmp_path / "site")
    common = ["secret", "--agents", "random,sure", "--games", "10", "--seed", "3"]
    tournament(*common, "--out", str(tmp_path / "local"), env=env)
    tournament(*common, "--executor", "ray", "--jobs", "2", "--out", str(tmp_path / "ray"), env=env)
    assert_same_tournament(tmp_path / "local", tmp_path / "ray", 10)
    # an agent that cannot be built stops the run with its reason, before Ray starts, as locally
    bad = ["secret", "--agents", "random,cardmind_toy.agents:NoSuchAgent", "--games", "2"]
    local = tournament(*bad, "--out", str(tmp_path / "bad-local"), env=env, check=False)
    ray_run = tournament(*bad, "--executor", "ray", "--out", str(tmp_path / "bad-ray"), env=env, check=False)
    assert local.returncode != 0 and ray_run.returncode == local.returncode
    assert "NoSuchAgent" in ray_run.stderr and "Traceback" not in ray_run.stderr
    assert ray_run.stderr == local.stderr


def _session_pids(sid: int) -> list[int]:
    """The processes of session ``sid`` (a driver started with ``start_new_session`` and the
    Ray processes it started)."""
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if os.getsid(int(d.name)) == sid:
                    pids.append(int(d.name))
            except (ProcessLookupError, PermissionError):
                pass
    return pids


def _busy_ray_workers(sid: int) -> list[int]:
    """Ray worker processes of session ``sid`` that are playing a game right now."""
    busy = []
    for pid in _session_pids(sid):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if cmd.startswith(b"ray::_play_on_worker"):
            busy.append(pid)
    return busy


def _results_count(out: Path) -> int:
    try:
        return len((out / "results.jsonl").read_text().splitlines())
    except FileNotFoundError:
        return 0


def _kill_session(sid: int) -> None:
    for _ in range(50):
        pids = _session_pids(sid)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.1)


GAMES = 40
COMMON = ["literature", "--agents", "peer,random", "--games", str(GAMES), "--seed", "11"]


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    """The reference: the same tournament on the local executor."""
    out = tmp_path_factory.mktemp("local") / "t"
    tournament(*COMMON, "--jobs", "1", "--out", str(out))
    return out


def _start(out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cardmind", "tournament", *COMMON, "--executor", "ray",
                             "--jobs", "2", "--out", str(out), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def test_a_killed_worker_s_game_is_played_again(tmp_path, local_run):
    out = tmp_path / "ray"
    proc = _start(out)
    try:
        killed = None
        deadline = time.monotonic() + 300
        while killed is None and proc.poll() is None and time.monotonic() < deadline:
            busy = _busy_ray_workers(proc.pid)
            if busy and _results_count(out) >= 2:
                os.kill(busy[0], signal.SIGKILL)
                killed = busy[0]
            time.sleep(0.01)
        assert killed is not None, "no Ray worker was seen playing a game"
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
    finally:
        _kill_session(proc.pid)
    assert_same_tournament(local_run, out, GAMES)


def test_a_killed_driver_resumes_without_losing_or_repeating_a_game(tmp_path, local_run):
    out = tmp_path / "ray"
    proc = _start(out)
    try:
        deadline = time.monotonic() + 300
        while _results_count(out) < 5 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None, "the tournament ended before the driver could be killed"
    finally:
        _kill_session(proc.pid)  # the driver and the Ray instance it started, mid-run
    proc.wait(timeout=60)
    before = _results_count(out)
    assert 5 <= before < GAMES
    r = tournament(*COMMON, "--executor", "ray", "--jobs", "2", "--out", str(out), "--resume")
    assert f"{GAMES - before} games played" in r.stdout
    timing = json.loads((out / "summary.json").read_text())["timing"]
    assert timing["games_this_run"] == GAMES - before
    assert_same_tournament(local_run, out, GAMES)


def test_without_ray_the_ray_executor_fails_at_once(tmp_path):
    # a Python where 'import ray' fails: a module of that name that raises ImportError
    fake = tmp_path / "noray"
    fake.mkdir()
    (fake / "ray.py").write_text("raise ImportError('No module named ray')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(fake), os.environ.get("PYTHONPATH", "")]))
    t0 = time.monotonic()
    r = tournament("literature", "--agents", "peer,random", "--games", "2", "--executor", "ray",
                   "--out", str(tmp_path / "t"), env=env, check=False)
    assert r.returncode != 0
    assert "pip install 'cardmind[ray]'" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "t").exists()  # it failed before creating anything
    assert time.monotonic() - t0 < 60


def test_a_worker_that_cannot_load_an_agent_stops_the_run_with_its_reason(tmp_path):
    # an agent module that imports in the driver but not on the Ray workers, as on a cluster
    # whose workers lack the package
    (tmp_path / "mybots.py").write_text(
        "import sys\n"
        "if 'default_worker' in sys.argv[0]:\n"
        "    raise ModuleNotFoundError(\"No module named 'mybots' on this worker\")\n"
        "from cardmind.games.literature.agents.base import RandomAgent as Bot\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    r = tournament("literature", "--agents", "mybots:Bot,random", "--games", "4", "--executor", "ray",
                   "--jobs", "1", "--out", str(tmp_path / "t"), env=env, check=False)
    assert r.returncode == 2, r.stderr
    assert "failed on a Ray worker" in r.stderr and "No module named 'mybots' on this worker" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr
