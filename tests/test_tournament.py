"""End-to-end tournaments (random agents, 6-player Literature, a few games each).

Agents used here besides ``random``: :class:`IllegalAgent` (asks a teammate, which the
rules forbid) and :class:`RaisingAgent` (raises when it must act), named as
``tests.test_tournament:Class`` the way authors bring their own agents.
"""

from __future__ import annotations

import io
import json
import shutil
import sys

import pytest

from cardmind.games.literature.agents.base import RandomAgent
from cardmind.cli import main
from cardmind.games.literature import Ask
from cardmind.records import read_record
from cardmind.tournament import load_results, run_tournament
from cardmind.tournament.runner import TournamentError

ILLEGAL = "tests.test_tournament:IllegalAgent"
RAISING = "tests.test_tournament:RaisingAgent"
OPTS = {"players": 6}


class IllegalAgent(RandomAgent):
    """Asks its left-hand teammate for a card: always illegal."""

    name = "test-illegal"

    def act(self, rng):
        forced = self.forced_choice(rng)
        if forced is not None:
            return forced
        return Ask(self.seat, (self.seat + 2) % self.state.players, "AS")


class RaisingAgent(RandomAgent):
    """Raises whenever it is on turn."""

    name = "test-raising"

    def act(self, rng):
        raise RuntimeError("boom")


def _strip(summary: dict) -> dict:
    s = json.loads(json.dumps(summary))
    s.pop("timing")
    s.pop("out_dir")
    return s


def _lines(path):
    return [json.loads(x) for x in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    """8 random-vs-random games with one job: the reference run."""
    out = tmp_path_factory.mktemp("base")
    summary = run_tournament("literature", ["random", "random"], games=8, jobs=1, seed=11, out_dir=out, options=OPTS)
    return out, summary


def test_outputs_exist_with_the_listed_keys(baseline):
    out, summary = baseline
    on_disk = json.loads((out / "summary.json").read_text())
    assert on_disk == summary
    for key in ("games", "agents", "pairs", "game_length", "forfeits", "sprt", "timing", "schedule"):
        assert key in on_disk
    assert on_disk["games"] == 8 and on_disk["complete"] is True
    assert list(on_disk["agents"]) == ["random", "random#2"]
    for a in on_disk["agents"].values():
        for key in ("wins", "draws", "losses", "win_rate", "win_rate_ci95", "decided_win_rate", "elo", "elo_ci95",
                    "points_per_game", "forfeits"):
            assert key in a
        assert a["wins"] + a["draws"] + a["losses"] == 8
        lo, hi = a["win_rate_ci95"]
        assert 0 <= lo <= a["win_rate"] <= hi <= 1
        assert a["units"] == 4  # 4 deals, each one duplicate unit
        assert 3 <= a["points_per_game"] <= 6  # 9 sets: the winners have 5 or more
    r, r2 = on_disk["agents"]["random"], on_disk["agents"]["random#2"]
    assert r["wins"] == r2["losses"] and r["elo"] == pytest.approx(-r2["elo"])
    assert on_disk["game_length"]["games"] == 8 and on_disk["game_length"]["actions"]["min"] > 9
    assert set(on_disk["timing"]["think_ms_per_move"]) == {"random", "random#2"}
    png = (out / "summary.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    import matplotlib.image

    img = matplotlib.image.imread(out / "summary.png")
    assert img.ndim == 3 and img.shape[0] > 100 and img.shape[1] > 500


def test_results_lines_and_complete_records(baseline):
    out, _ = baseline
    lines = _lines(out / "results.jsonl")
    assert sorted(x["id"] for x in lines) == list(range(8))
    by_id = {x["id"]: x for x in lines}
    for gid, line in by_id.items():
        rec = read_record(out / line["record"])  # replays the rules
        assert rec.is_complete and len(rec.events) == line["events"]
        assert rec.header["names"] == line["seats"]
        assert line["outcome"] in ([1.0, 0.0] * 3, [0.0, 1.0] * 3)
    # duplicate deals: games 2k and 2k+1 have the same hands with the agents swapped
    for d in range(4):
        a, b = by_id[2 * d], by_id[2 * d + 1]
        ra, rb = read_record(out / a["record"], replay_rules=False), read_record(out / b["record"], replay_rules=False)
        assert ra.header["hands"] == rb.header["hands"]
        assert a["seats"] == ["random", "random#2"] * 3 and b["seats"] == ["random#2", "random"] * 3
    assert by_id[0]["deal"] == by_id[1]["deal"] == 0 and by_id[2]["deal"] == 1
    hands = [read_record(out / by_id[2 * d]["record"], replay_rules=False).header["hands"] for d in range(4)]
    assert len({json.dumps(h) for h in hands}) == 4  # different deals


def test_summary_independent_of_jobs(baseline, tmp_path):
    out, summary = baseline
    two = run_tournament("literature", ["random", "random"], games=8, jobs=2, seed=11, out_dir=tmp_path, options=OPTS)
    assert _strip(two) == _strip(summary)
    a = {x["id"]: x for x in _lines(out / "results.jsonl")}
    b = {x["id"]: x for x in _lines(tmp_path / "results.jsonl")}
    assert a.keys() == b.keys()
    for gid in a:
        for key in ("seats", "outcome", "scores", "actions", "events"):
            assert a[gid][key] == b[gid][key]
        assert (out / a[gid]["record"]).read_text() == (tmp_path / b[gid]["record"]).read_text()


def test_another_seed_gives_other_deals(baseline, tmp_path):
    out, _ = baseline
    run_tournament("literature", ["random", "random"], games=2, jobs=1, seed=12, out_dir=tmp_path, options=OPTS)
    assert (out / "records/game-000000.jsonl").read_text() != (tmp_path / "records/game-000000.jsonl").read_text()


def test_resume_after_kill_loses_and_repeats_nothing(baseline, tmp_path):
    out, summary = baseline
    full = (out / "results.jsonl").read_bytes().splitlines(keepends=True)
    # a run killed after 3 results and in the middle of writing the 4th
    (tmp_path / "records").mkdir()
    shutil.copy(out / "config.json", tmp_path / "config.json")
    (tmp_path / "results.jsonl").write_bytes(b"".join(full[:3]) + full[3][: len(full[3]) // 2])
    kept = {json.loads(x)["id"]: json.loads(x) for x in full[:3]}
    for gid in kept:
        shutil.copy(out / kept[gid]["record"], tmp_path / kept[gid]["record"])
    assert len(load_results(tmp_path / "results.jsonl")) == 3
    # without --resume the folder is refused
    with pytest.raises(TournamentError, match="--resume"):
        run_tournament("literature", ["random", "random"], games=8, jobs=1, seed=11, out_dir=tmp_path, options=OPTS)
    # resuming with another seed is refused
    with pytest.raises(TournamentError, match="seed"):
        run_tournament("literature", ["random", "random"], games=8, seed=12, out_dir=tmp_path, options=OPTS,
                       resume=True)
    resumed = run_tournament("literature", ["random", "random"], games=8, jobs=2, seed=11, out_dir=tmp_path,
                             options=OPTS, resume=True)
    lines = _lines(tmp_path / "results.jsonl")  # every line is whole JSON again
    ids = [x["id"] for x in lines]
    assert sorted(ids) == list(range(8)) and len(ids) == 8  # nothing lost, nothing repeated
    assert resumed["timing"]["games_this_run"] == 5
    for x in lines[:3]:
        assert x == kept[x["id"]]  # the finished games were not replayed
    assert _strip(resumed) == _strip(summary)
    # resuming a finished tournament plays nothing and gives the same summary
    again = run_tournament("literature", ["random", "random"], games=8, seed=11, out_dir=tmp_path, options=OPTS,
                           resume=True)
    assert again["timing"]["games_this_run"] == 0 and _strip(again) == _strip(summary)
    # extending it with more games keeps the first 8
    more = run_tournament("literature", ["random", "random"], games=10, seed=11, out_dir=tmp_path, options=OPTS,
                          resume=True)
    assert more["games"] == 10 and more["timing"]["games_this_run"] == 2


def test_load_results_tolerates_only_a_broken_last_line(tmp_path):
    p = tmp_path / "results.jsonl"
    p.write_text('{"id": 0}\n{"id": 1}\n{"id": 2, "seat')
    assert sorted(load_results(p, repair=True)) == [0, 1]
    assert p.read_text() == '{"id": 0}\n{"id": 1}\n'
    p.write_text('{"id": 0}\n{"id": 1\n{"id": 2}\n')
    with pytest.raises(TournamentError, match="middle"):
        load_results(p)


def test_forfeits_are_counted_and_the_tournament_goes_on(tmp_path):
    s = run_tournament("literature", ["random", ILLEGAL, RAISING], games=6, jobs=1, seed=3, out_dir=tmp_path,
                       options=OPTS)
    assert s["games"] == 6  # one deal, three pairings, both team assignments
    ill, rai, rnd = s["agents"][ILLEGAL], s["agents"][RAISING], s["agents"]["random"]
    assert rnd["forfeits"] == 0 and rnd["wins"] == 4 and rnd["losses"] == 0
    assert ill["forfeits"] + rai["forfeits"] == 6 == s["forfeits"]
    assert ill["forfeits"] >= 2 and rai["forfeits"] >= 2  # every game against random
    assert ill["wins"] + rai["wins"] == 2  # their mutual games: whoever acts first forfeits
    assert any("illegal action" in r and "ask-teammate" in r for r in ill["forfeit_reasons"])
    assert any("RuntimeError: boom" in r for r in rai["forfeit_reasons"])
    for line in _lines(tmp_path / "results.jsonl"):
        f = line["forfeit"]
        assert f is not None and line["forfeit_agent"] == line["seats"][f]
        assert line["scores"] is None
        assert [line["outcome"][s] for s in range(6) if s % 2 == f % 2] == [0.0] * 3  # its team loses
        assert [line["outcome"][s] for s in range(6) if s % 2 != f % 2] == [1.0] * 3
        assert (tmp_path / line["record"]).exists()
    assert rnd["elo"] is None  # won every unit: +inf, written as null
    assert s["pairs"][0]["agents"] == ["random", ILLEGAL] and s["pairs"][0]["wins"] == 2


def test_sprt_stops_early_with_a_verdict_independent_of_jobs(tmp_path):
    args = dict(games=40, seed=5, options=OPTS, sprt=(0, 100))
    one = run_tournament("literature", ["random", RAISING], jobs=1, out_dir=tmp_path / "j1", **args)
    two = run_tournament("literature", ["random", RAISING], jobs=2, out_dir=tmp_path / "j2", **args)
    sp = one["sprt"]
    assert sp["verdict"] == "H1" and sp["llr"] >= sp["upper_bound"]
    assert one["games"] < 40 and one["games"] == 2 * (sp["stopped_after_deal"] + 1)
    assert one["complete"] is True
    assert _strip(one) == _strip(two)
    finished = load_results(tmp_path / "j1" / "results.jsonl")
    assert len(finished) == one["games"]  # one job plays nothing past the verdict
    # the summary is a function of the results lines alone
    from cardmind.tournament import make_schedule, summarize

    sch = make_schedule(2, 6, [0, 1] * 3, 40)
    again = summarize(sch, ["random", RAISING], load_results(tmp_path / "j2" / "results.jsonl"), sprt=(0, 100),
                      specs=["random", RAISING], game="literature", options=one["options"], seed=5,
                      games_requested=40)
    assert again == _strip(one)
    with pytest.raises(TournamentError, match="two agents"):
        run_tournament("literature", ["random", "random", "random"], out_dir=tmp_path / "x", **args)


def test_bad_requests_are_refused(tmp_path):
    with pytest.raises(TournamentError, match="unknown agent"):
        run_tournament("literature", ["random", "nosuchagent"], games=2, out_dir=tmp_path)
    with pytest.raises(TournamentError, match="cannot import"):
        run_tournament("literature", ["random", "no.such.module:X"], games=2, out_dir=tmp_path)
    with pytest.raises(TournamentError, match="no setting"):
        run_tournament("literature", ["random", "random"], games=2, out_dir=tmp_path, settings={"random": {"x": 1}})
    with pytest.raises(TournamentError, match="at least two"):
        run_tournament("literature", ["random"], games=2, out_dir=tmp_path)


def test_cli_runs_and_reports_errors(tmp_path, capsys):
    out = tmp_path / "cli"
    rc = main(["tournament", "literature", "--agents", "random,random", "--games", "2", "--jobs", "1", "--seed", "4",
               "--out", str(out), "--options", '{"players": 6}', "--quiet", "--json"])
    assert rc == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["games"] == 2 and captured.err == ""
    assert (out / "summary.json").exists() and (out / "summary.png").exists()
    rc = main(["tournament", "literature", "--agents", "random,random", "--games", "2", "--out", str(out), "--quiet"])
    assert rc == 2 and "--resume" in capsys.readouterr().err
    rc = main(["tournament", "literature", "--agents", "random,random", "--options", '{"players": 7}',
               "--out", str(tmp_path / "o"), "--quiet"])
    assert rc == 2 and "players" in capsys.readouterr().err
    rc = main(["tournament", "literature", "--agents", "random,random", "--games", "2", "--out", str(out),
               "--seed", "4", "--quiet", "--resume"])
    assert rc == 0 and "random#2" in capsys.readouterr().out


def test_progress_display_shows_standings(tmp_path):
    from rich.console import Console

    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=140)
    run_tournament("literature", ["random", "random"], games=2, seed=1, out_dir=tmp_path, options=OPTS,
                   quiet=False, console=console)
    text = buf.getvalue()
    assert "random#2" in text and "W-D-L" in text and "2/2" in text


def test_progress_to_a_file_is_plain_lines_without_tables(tmp_path):
    """stderr redirected to a log: no live tables (they piled up there), a plain line instead."""
    from rich.console import Console

    buf = io.StringIO()
    console = Console(file=buf, width=100)
    assert not console.is_terminal
    run_tournament("literature", ["random", "random"], games=6, seed=1, out_dir=tmp_path, options=OPTS,
                   quiet=False, console=console)
    lines = buf.getvalue().splitlines()
    assert not any("W-D-L" in x or "┃" in x for x in lines), lines
    assert lines[-1].startswith("literature: 6 of 6 games (100%), ") and lines[-1].endswith(" games/s"), lines


def test_free_for_all_game_rotates_seats(tmp_path):
    from cardmind.core import game_names

    if "gofish" not in game_names():
        pytest.skip("Go Fish is not available")
    s = run_tournament("gofish", ["random"] * 3, games=3, jobs=1, seed=2, out_dir=tmp_path,
                       options={"players": 3})
    assert s["schedule"]["kind"] == "free-for-all" and s["games_per_deal"] == 3
    lines = sorted(_lines(tmp_path / "results.jsonl"), key=lambda x: x["id"])
    names = ["random", "random#2", "random#3"]
    for seat in range(3):
        assert sorted(x["seats"][seat] for x in lines) == names  # every agent in every seat
    hands = {json.dumps(read_record(tmp_path / x["record"], replay_rules=False).header["hands"]) for x in lines}
    assert len(hands) == 1  # one deal
    assert sum(a["games"] for a in s["agents"].values()) == 9


def test_games_past_the_action_limit_are_stopped_and_drawn(tmp_path):
    s = run_tournament("literature", ["random", "random"], games=2, seed=1, out_dir=tmp_path, options=OPTS,
                       max_actions=5)
    assert s["errors"] == 2 and "did not end within 5 actions" in s["error_reasons"][0]
    for a in s["agents"].values():
        assert (a["wins"], a["draws"], a["losses"]) == (0, 2, 0) and a["win_rate"] == 0.5
        assert a["points_games"] == 0
    assert s["game_length"]["games"] == 0
    for line in _lines(tmp_path / "results.jsonl"):
        assert line["outcome"] == [0.5] * 6 and line["scores"] is None and line["forfeit"] is None
        assert read_record(tmp_path / line["record"]).is_complete  # the deal is kept
    with pytest.raises(TournamentError, match="max_actions"):
        run_tournament("literature", ["random", "random"], games=2, seed=1, out_dir=tmp_path, options=OPTS,
                       resume=True)


# ----------------------------------------------------------------------------- agents that break (issue 15)
class UnbuildableAgent(RandomAgent):
    """Raises in its constructor."""

    name = "test-unbuildable"

    def __init__(self, *args, **kwargs):
        raise ImportError("needs a package that is not installed")


class SeatZeroRaisingAgent(RandomAgent):
    """Raises when it must act at seat 0 only, from a helper (so the traceback has depth)."""

    name = "test-seat0"

    def act(self, rng):
        if self.seat == 0:
            return self._think()
        return super().act(rng)

    def _think(self):
        raise ZeroDivisionError("seat zero")


def test_an_agent_that_cannot_be_built_stops_the_tournament_before_it_starts(tmp_path, capsys, monkeypatch):
    out = tmp_path / "t"
    with pytest.raises(TournamentError, match=r"agent 'tests.test_tournament:UnbuildableAgent' cannot be built: "
                                              r"ImportError: needs a package .* \(at .*test_tournament.py:\d+ in __init__\)"):
        run_tournament("literature", ["random", "tests.test_tournament:UnbuildableAgent"], games=2, out_dir=out)
    assert not out.exists()  # nothing was played or written
    # the case a newcomer met: openspiel-ismcts without the OpenSpiel extra (exit 2, the reason, no folder)
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    rc = main(["tournament", "literature", "--agents", "random,openspiel-ismcts", "--games", "2",
               "--out", str(out), "--quiet"])
    captured = capsys.readouterr()
    assert rc == 2 and captured.out == ""
    assert captured.err.startswith("cardmind: error: agent 'openspiel-ismcts' cannot be built: RuntimeError: "
                                   "the openspiel-ismcts agent needs OpenSpiel"), captured.err
    assert not out.exists()


def test_every_forfeit_is_printed_with_its_traceback_saved(tmp_path, capsys):
    from rich.console import Console

    buf = io.StringIO()   # stderr redirected to a file: no live tables, one line per forfeit
    s = run_tournament("literature", ["random", RAISING], games=4, seed=2, out_dir=tmp_path, options=OPTS,
                       quiet=False, console=Console(file=buf, width=100))
    text = buf.getvalue()
    lines = _lines(tmp_path / "results.jsonl")
    assert len(lines) == 4 and all(x["forfeit_agent"] == RAISING for x in lines)
    for x in lines:
        tb = tmp_path / x["traceback"]
        assert x["traceback"] == f"forfeits/game-{x['id']:06d}.txt"
        body = tb.read_text()
        assert "Traceback (most recent call last)" in body and 'raise RuntimeError("boom")' in body
        assert x["reason"].startswith("act raised RuntimeError: boom (at ") and "in act)" in x["reason"]
        assert f"game {x['id']}: {RAISING} forfeited at seat {x['forfeit']}: act raised RuntimeError: boom" in text
        assert str(tb) in text.replace("\n", "")
    assert "┃" not in text and "W-D-L" not in text   # no standings tables in a file
    assert [g["id"] for g in s["forfeited_games"]] == [0, 1, 2, 3]
    assert s["forfeited_games"][0]["traceback"] == "forfeits/game-000000.txt"
    # the command: the forfeits listed at the end, and a failure when an agent forfeited every game
    rc = main(["tournament", "literature", "--agents", f"random,{RAISING}", "--games", "2", "--out",
               str(tmp_path / "cli"), "--quiet"])
    captured = capsys.readouterr()
    assert rc == 1
    assert "game 0: " + RAISING in captured.out and "forfeits/game-000000.txt" in captured.out.replace("\n", "")
    assert captured.err.strip() == (f"cardmind: error: agent '{RAISING}' forfeited every one of its 2 games "
                                    f"({s['agents'][RAISING]['forfeit_reasons'][0]})")


def test_some_forfeits_are_reported_but_do_not_fail_the_run(tmp_path, capsys):
    agent = "tests.test_tournament:SeatZeroRaisingAgent"
    rc = main(["tournament", "literature", "--agents", f"random,{agent}", "--games", "4", "--seed", "1",
               "--out", str(tmp_path), "--quiet", "--json"])
    captured = capsys.readouterr()
    s = json.loads(captured.out)
    a = s["agents"][agent]
    assert 0 < a["forfeits"] < a["games"] and rc == 0 and captured.err == ""
    assert all("ZeroDivisionError: seat zero" in g["reason"] and "in _think" in g["reason"]
               for g in s["forfeited_games"])


@pytest.mark.parametrize("jobs,gap", [(2, 0.05), (2, 0.3), (1, 0.05)])
def test_two_interrupts_end_the_run_cleanly(tmp_path, jobs, gap):
    """Ctrl-C twice (or ``timeout -s INT`` with a second signal): exit 130 and one line, no
    traceback from inside the cleanup, no hang; the games finished so far are kept."""
    import signal
    import subprocess
    import time

    out = tmp_path / "t"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardmind", "tournament", "literature", "--agents", "random,random", "--games",
         "2000", "--jobs", str(jobs), "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))   # as from a terminal
    try:
        deadline = time.monotonic() + 120
        results = out / "results.jsonl"
        while not (results.exists() and results.read_text().count("\n") >= 2):
            assert proc.poll() is None and time.monotonic() < deadline, "the tournament did not start"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        time.sleep(gap)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.strip().splitlines()[-1] == "cardmind: interrupted"
    assert len(load_results(out / "results.jsonl")) >= 2


# ----------------------------------------------------------------------------- several seats per agent (issue 15)
@pytest.mark.parametrize("seats,outcome,expected", [
    (["A", "B", "A", "B"], [1, 0, 0, 0], {"A": 1, "B": 0}),            # A's seat won alone
    (["A", "B", "A", "B"], [0.5, 0.5, 0, 0], {"A": 0.5, "B": 0.5}),    # first place shared across agents
    (["A", "B", "A", "B"], [0.5, 0, 0.5, 0], {"A": 1, "B": 0}),        # A's two seats share first place
    (["A", "B", "A", "B"], [0.5, 0.5, 0.5, 0], {"A": 0.5, "B": 0.5}),  # three-way tie
    (["A", "B", "A", "B"], [0.5] * 4, {"A": 0.5, "B": 0.5}),           # stopped game: a draw
    (["A", "B", "C", "A"], [0, 1, 1, 0], {"A": 0, "B": 1, "C": 1}),    # A forfeited: both others win
    (["A", "B", "C"], [0, 0.5, 0.5], {"A": 0, "B": 0.5, "C": 0.5}),    # one seat each: the seat's outcome
    (["A", "B", "A", "B", "A", "B"], [1, 0, 1, 0, 1, 0], {"A": 1, "B": 0}),  # a team game
])
def test_an_agent_is_placed_by_its_best_seat(seats, outcome, expected):
    from cardmind.tournament.summary import agent_outcomes

    index = {"A": 0, "B": 1, "C": 2}
    got = agent_outcomes({"seats": seats, "outcome": outcome}, index)
    assert got == {index[k]: v for k, v in expected.items()}


def test_two_agents_at_a_four_seat_table_win_games(tmp_path):
    """Two agents at four Go Fish seats (A B A B): each game is won by the agent whose seat
    won, so the win rates add up to 100% (the mean over seats gave 0 wins to both)."""
    s = run_tournament("gofish", ["peer", "random"], games=8, seed=3, out_dir=tmp_path, options={"players": 4})
    peer, rnd = s["agents"]["peer"], s["agents"]["random"]
    assert peer["wins"] > 0 and peer["wins"] + peer["draws"] + peer["losses"] == 8
    assert peer["wins"] == rnd["losses"] and peer["draws"] == rnd["draws"]
    assert peer["win_rate"] + rnd["win_rate"] == pytest.approx(1.0)
    wins = {"peer": 0, "random": 0}   # the agent holding every seat with the best outcome won
    for line in _lines(tmp_path / "results.jsonl"):
        best = max(line["outcome"])
        holders = {line["seats"][i] for i, o in enumerate(line["outcome"]) if o == best}
        if len(holders) == 1 and best > min(line["outcome"]):
            wins[holders.pop()] += 1
    assert wins == {"peer": peer["wins"], "random": rnd["wins"]}


def test_summary_png_shows_every_agent_and_tells_infinite_from_undefined(tmp_path):
    from cardmind.tournament.plot import elo_marks, plot_summary

    def agent(elo, ci, s, se, units):
        return {"win_rate": s, "win_rate_ci95": [0.0, 1.0], "elo": elo, "elo_ci95": ci, "mean_unit_score": s,
                "unit_score_se": se, "units": units}

    summary = {"game": "gofish", "games": 20, "seed": 0, "sprt": None, "agents": {
        "all-won": agent(None, [None, None], 1.0, 0.0, 10),        # +inf, no interval to draw
        "finite": agent(35.0, [-20.0, 95.0], 0.55, 0.04, 10),
        "half-open": agent(-191.0, [None, 126.0], 0.25, 0.2, 4),    # lower end -inf
        "one-deal": agent(60.0, [None, None], 0.585, None, 1),       # interval undefined
        "none": agent(None, [None, None], None, None, 0),
    }}
    marks = {m.name: m for m in elo_marks(summary)}
    assert list(marks) == list(summary["agents"])  # nobody left out
    assert marks["all-won"].elo == float("inf") and "+inf" in marks["all-won"].note
    assert (marks["finite"].lo, marks["finite"].hi, marks["finite"].note) == (-20.0, 95.0, "")
    assert marks["half-open"].lo == float("-inf") and marks["half-open"].hi == 126.0
    assert marks["one-deal"].lo is None and marks["one-deal"].note == "no interval (1 deal)"
    assert marks["none"].elo is None and "no Elo" in marks["none"].note
    fig = plot_summary(summary, tmp_path / "s.png")
    assert (tmp_path / "s.png").stat().st_size > 0
    ax1, ax2 = fig.axes
    assert [t.get_text() for t in ax1.get_yticklabels()] == list(summary["agents"])
    lo, hi = ax2.get_xlim()
    drawn = [x for line in ax2.get_lines() for x in line.get_xdata()]
    assert all(lo <= x <= hi for x in drawn)
    assert max(drawn) > 0.9 * hi                    # the +inf triangle sits at the right edge
    widths = [abs(line.get_xdata()[1] - line.get_xdata()[0]) for line in ax2.get_lines()
              if len(line.get_xdata()) == 2 and line.get_ydata()[0] == line.get_ydata()[1]]
    assert max(widths) < hi - lo                     # no full-width bar
    notes = " ".join(t.get_text() for t in ax2.texts)
    assert "no interval (1 deal)" in notes and "+inf" in notes and "no Elo" in notes


def test_the_settings_examples_of_the_help_and_the_docs_are_accepted():
    """The ``--settings`` examples that ``cardmind tournament --help`` and docs/tournament.md
    show are accepted (the old example, ``{"belief": {"samples": 100}}``, was refused)."""
    import re
    from pathlib import Path

    from cardmind.cli import build_parser
    from cardmind.tournament.runner import _prepare

    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    help_text = " ".join(sub.choices["tournament"].format_help().split())
    help_examples = re.findall(r"e\.g\. '(\{[^']*\})'", help_text[help_text.rindex("--settings JSON"):])
    doc = (Path(__file__).resolve().parent.parent / "docs" / "tournament.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `--settings JSON`"))
    doc_examples = re.findall(r"`'(\{.*?\}\})'`", row)
    assert help_examples and len(doc_examples) >= 2
    for text in help_examples:      # the help names no game: its example fits every game's belief
        for game in ("literature", "gofish"):
            _prepare(game, ["belief", "peer"], None, json.loads(text), 0)
    for text in doc_examples:       # the doc's examples are for Literature, the default game
        _prepare("literature", ["belief", "peer"], None, json.loads(text), 0)
    with pytest.raises(TournamentError, match="no setting 'samples'"):
        _prepare("literature", ["belief", "peer"], None, {"belief": {"samples": 100}}, 0)


def test_summary_png_draws_the_fair_share_and_a_points_panel(tmp_path):
    """Issue 25: a three-player point game: the fair-share line at 1/3 (not 0.5) and a third
    panel with the points per game of every agent."""
    from cardmind.tournament.plot import plot_summary

    def agent(wr, fair, pts):
        return {"win_rate": wr, "win_rate_ci95": [max(wr - 0.1, 0), min(wr + 0.1, 1)], "elo": 0.0,
                "elo_ci95": [-50.0, 50.0], "mean_unit_score": 0.5, "unit_score_se": 0.05, "units": 10,
                "fair_share": fair, "points_per_game": pts}

    summary = {"game": "carioca", "games": 30, "seed": 0, "sprt": None, "agents": {
        "belief": agent(0.5, 1 / 3, -150.0), "peer": agent(0.3, 1 / 3, -308.0), "random": agent(0.2, 1 / 3, -393.0)}}
    fig = plot_summary(summary, tmp_path / "s.png")
    ax1, _, ax3 = fig.axes
    vertical = [line.get_xdata()[0] for line in ax1.get_lines()
                if len(line.get_xdata()) == 2 and line.get_xdata()[0] == line.get_xdata()[1]]
    assert vertical and all(x == pytest.approx(1 / 3) for x in vertical)   # no line at 0.5
    assert "fair share 33.3%" in " ".join(t.get_text() for t in ax1.texts)
    widths = sorted(p.get_width() for p in ax3.patches)
    assert widths == [-393.0, -308.0, -150.0]
    summary["agents"] = {k: {**v, "points_per_game": None} for k, v in summary["agents"].items()}
    assert len(plot_summary(summary, tmp_path / "t.png").axes) == 2      # no points: two panels
