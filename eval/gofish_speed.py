"""Benchmark of the Go Fish belief's default answer (``cardmind hint`` / ``cardmind belief``) with
3 to 6 players, timed beside an exact reference, with the largest error of every position.

    python eval/gofish_speed.py [--players 3 4 5 6] [--games 5] [--per-game 15] [--seed 0]
                                [--runs 3] [--clock cpu] [--ref-timeout 60] [--out eval/out]

**Positions.** For every player count, ``--games`` seeded games of ``peer`` players with the
default options (full deck, 6 cards dealt), played from the deal to the last book; in each,
``--per-game`` positions evenly spaced from the first event to the end, the observer turning
around the table (so 4 x 5 x 15 = 300 positions by default). Stages: *early*, *middle*,
*late* by thirds of the game.

**Timed.** At each position a fresh tracker (:class:`~cardmind.games.gofish.belief.GoFishBelief`,
default settings, as the CLI builds it) is fed the events (not timed), then the answer is
timed: ``to_json()`` (the count of consistent deals, every holdings probability, every
face-down book) and the hint's asks (:func:`~cardmind.games.gofish.hints.gofish_hint`). Each
of ``--runs`` passes builds the trackers afresh; the figure per position is the median of
the passes. ``--clock cpu`` (default) times the process's CPU time (``time.process_time``:
the machine this ran on had 2 cores shared with other jobs, so wall time mostly counts
waiting for a core), ``--clock wall`` the wall time. Memory: one more pass with
``tracemalloc`` on, its peak (every numpy array the answer allocates is traced).

**Reference.** Every position is answered again, in a subprocess with ``--ref-timeout``
seconds, by the draw engine's older exact path: the planned sum over every unseen draw, in
parts when it does not fit (``docs/gofish-belief.md``; the joint filter while it is within
its budget), never sampling (``--exact``'s reference). Where that does not finish, by the
compact sum without its budget (another exact path; the two agree to rounding wherever
both finish, which the rows record). The error of a position is the largest absolute
difference of any holdings probability (every other seat, the stock) or face-down book's
rank probability.

Writes ``<out>/gofish-speed-s<seed>.json`` (every position) and ``.md`` (the tables of
``docs/gofish-belief.md``); prints the tables. A progress bar shows the positions.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardmind.agents import resolve_agent
from cardmind.agents.match import play_game
from cardmind.core import get_game
from cardmind.games.gofish.belief import GoFishBelief
from cardmind.games.gofish.hints import gofish_hint

GAME = get_game("gofish")


def positions(players: int, games: int, per_game: int, seed: int) -> list[dict]:
    """The positions of the benchmark: ``{players, seed, seat, events, stage, view}``."""
    out = []
    for g in range(games):
        s = seed * 100_000 + 1000 * players + g
        res = play_game(GAME, {"players": players}, [resolve_agent("peer", GAME)] * players,
                        np.random.default_rng(s), [np.random.default_rng([s, k]) for k in range(players)],
                        max_actions=3000)
        rec = res.record
        n = len(rec.events)
        for q in range(per_game):
            L = max(1, int(round((q + 0.5) / per_game * n)))
            seat = (g + q) % players
            stage = ("early", "middle", "late")[min(2, 3 * q // per_game)]
            view = rec.for_seat(seat)
            out.append({"players": players, "seed": s, "seat": seat, "events": L, "stage": stage,
                        "options": view.options, "hand": view.header["hand"], "record": view.events[:L]})
    return out


def tracker(pos: dict, **settings) -> GoFishBelief:
    t = GoFishBelief(pos["options"], pos["seat"], pos["hand"], **settings)
    for ev in pos["record"]:
        t.observe(ev)
    return t


def answer(t: GoFishBelief) -> dict:
    """What ``cardmind belief --json`` and ``cardmind hint`` compute."""
    obj = t.to_json()
    gofish_hint(t)
    return obj


def probabilities(t: GoFishBelief) -> tuple[dict, list]:
    hold = {str(s): {r: {int(c): float(p) for c, p in d.items()} for r, d in v.items()}
            for s, v in t.holdings().items() if s != t.observer}
    books = [{r: float(p) for r, p in b["ranks"].items()} for b in t.books()]
    return hold, books


def max_error(a: tuple, b: tuple) -> float:
    (h0, b0), (h1, b1) = a, b
    err = 0.0
    for s in set(h0) | set(h1):
        for r in set(h0.get(s, {})) | set(h1.get(s, {})):
            d0, d1 = h0.get(s, {}).get(r, {}), h1.get(s, {}).get(r, {})
            for c in set(d0) | set(d1):
                err = max(err, abs(d0.get(c, 0.0) - d1.get(c, 0.0)))
    for x0, x1 in zip(b0, b1):
        for r in set(x0) | set(x1):
            err = max(err, abs(x0.get(r, 0.0) - x1.get(r, 0.0)))
    return err


#: the reference answers (subprocesses): the older exact path, then the compact sum unbudgeted
REFERENCES = {
    "planned": {"draw_options": {"compact": False, "exact_split": 100_000}, "exact_only": True},
    "compact": {"draw_options": {"compact_work": 10 ** 12}, "exact_only": True},
}


def _reference(pos: dict, kind: str, queue) -> None:
    try:
        t = tracker(pos, **REFERENCES[kind])
        t0 = time.process_time()
        got = probabilities(t)
        queue.put((got, t.mode, time.process_time() - t0))
    except Exception as exc:  # noqa: BLE001 - reported
        queue.put((None, f"{type(exc).__name__}: {exc}", 0.0))


def reference(pos: dict, timeout: float) -> tuple:
    """``(probabilities, which reference, its mode, its CPU seconds)``, or ``(None, reason,
    ...)``: the planned sum within ``timeout`` seconds, else the compact sum unbudgeted."""
    ctx = mp.get_context("fork")
    why = ""
    for kind in ("planned", "compact"):
        q = ctx.Queue()
        p = ctx.Process(target=_reference, args=(pos, kind, q))
        p.start()
        p.join(timeout)
        if p.is_alive():
            p.kill()
            p.join()
            why += f"{kind}: over {timeout:.0f} s; "
            continue
        try:
            got, mode, secs = q.get(timeout=5)
        except Exception:  # noqa: BLE001 - the child died
            why += f"{kind}: failed; "
            continue
        if got is None:
            why += f"{kind}: {mode}; "
            continue
        return got, kind, mode, secs
    return None, why.strip(), "", 0.0


def clock(kind: str):
    return time.process_time if kind == "cpu" else time.perf_counter


def run(args) -> list[dict]:
    pos = []
    for p in args.players:
        pos += positions(p, args.games, args.per_game, args.seed)
    rows = []
    now = clock(args.clock)
    console = Console(stderr=True)
    with Progress(console=console, transient=False) as prog:
        task = prog.add_task("positions", total=len(pos))
        for x in pos:
            times = []
            for _ in range(args.runs):
                t = tracker(x)
                t0 = now()
                answer(t)
                times.append(now() - t0)
            got = probabilities(t)
            t = tracker(x)
            tracemalloc.start()
            answer(t)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            row = {k: x[k] for k in ("players", "seed", "seat", "events", "stage")}
            draws = t._draws._tl.draws if t._draws is not None and t._draws._tl is not None else []
            row.update({"unseen_draws": len(draws), "time": float(np.median(times)), "times": times,
                        "mode": t.mode, "exact": bool(t.exact), "error_bound": t.error_bound,
                        "memory_mb": peak / 1e6})
            if args.ref_timeout > 0:
                ref, kind, mode, secs = reference(x, args.ref_timeout)
                row["reference"] = kind
                row["reference_mode"] = mode
                row["reference_time"] = secs
                row["error"] = max_error(got, ref) if ref is not None else None
            rows.append(row)
            prog.advance(task)
            prog.console.log(f"{x['players']}p seed {x['seed']} seat {x['seat']} event {x['events']}: "
                             f"{row['mode']}, {row['time'] * 1000:.0f} ms, {row['memory_mb']:.0f} MB"
                             + (f", error {row['error']:.1e} ({row['reference']})" if row.get("error") is not None
                                else f", no reference ({row.get('reference', 'off')})"))
    return rows


def summary(rows: list[dict]) -> list[dict]:
    out = []
    groups = [(p, [r for r in rows if r["players"] == p]) for p in sorted({r["players"] for r in rows})]
    groups.append(("all", rows))
    for name, rs in groups:
        ts = np.array([r["time"] for r in rs]) * 1000
        errs = [r["error"] for r in rs if r.get("error") is not None]
        modes: dict = {}
        for r in rs:
            modes[r["mode"]] = modes.get(r["mode"], 0) + 1
        out.append({"players": name, "positions": len(rs), "median_ms": float(np.median(ts)),
                    "p90_ms": float(np.percentile(ts, 90)), "p99_ms": float(np.percentile(ts, 99)),
                    "max_ms": float(ts.max()), "over_1s": int((ts > 1000).sum()), "over_5s": int((ts > 5000).sum()),
                    "max_memory_mb": float(max(r["memory_mb"] for r in rs)),
                    "max_unseen_draws": int(max(r["unseen_draws"] for r in rs)),
                    "with_reference": len(errs), "max_error": float(max(errs)) if errs else None,
                    "modes": modes})
    return out


def markdown(s: list[dict]) -> str:
    lines = ["| players | positions | median ms | p90 ms | p99 ms | max ms | over 1 s | over 5 s | peak MB | "
             "unseen draws (max) | with reference | largest error | answered by |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for x in s:
        err = "n/a" if x["max_error"] is None else f"{x['max_error']:.1e}"
        modes = ", ".join(f"{k} {v}" for k, v in sorted(x["modes"].items()))
        lines.append(f"| {x['players']} | {x['positions']} | {x['median_ms']:.0f} | {x['p90_ms']:.0f} | "
                     f"{x['p99_ms']:.0f} | {x['max_ms']:.0f} | {x['over_1s']} | {x['over_5s']} | "
                     f"{x['max_memory_mb']:.0f} | {x['max_unseen_draws']} | {x['with_reference']} | {err} | {modes} |")
    return "\n".join(lines)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6])
    ap.add_argument("--games", type=int, default=5, help="games per player count")
    ap.add_argument("--per-game", type=int, default=15, help="positions per game")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--runs", type=int, default=3, help="timing passes (the median is kept)")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("--ref-timeout", type=float, default=60.0,
                    help="seconds for the reference answer of a position (0: no reference)")
    ap.add_argument("--out", default="eval/out")
    a = ap.parse_args(argv)
    rows = run(a)
    s = summary(rows)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"gofish-speed-s{a.seed}"
    stem.with_suffix(".json").write_text(json.dumps({"args": vars(a), "summary": s, "rows": rows}, indent=1))
    md = markdown(s)
    stem.with_suffix(".md").write_text(md + "\n")
    table = Table(title="Go Fish belief, default answer")
    for col in ("players", "positions", "median ms", "p99 ms", "max ms", "peak MB", "largest error", "answered by"):
        table.add_column(col)
    for x in s:
        table.add_row(str(x["players"]), str(x["positions"]), f"{x['median_ms']:.0f}", f"{x['p99_ms']:.0f}",
                      f"{x['max_ms']:.0f}", f"{x['max_memory_mb']:.0f}",
                      "n/a" if x["max_error"] is None else f"{x['max_error']:.1e}",
                      ", ".join(f"{k} {v}" for k, v in sorted(x["modes"].items())))
    Console().print(table)
    print(md)


if __name__ == "__main__":
    main()
