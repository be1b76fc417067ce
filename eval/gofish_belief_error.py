"""How far the sampled Go Fish belief is from the exact one, on full-deck 3- and 4-player games.

For 3+ players the tracker (:class:`cardmind.games.gofish.belief.GoFishBelief`) uses the draw engine
(:mod:`cardmind.games.gofish.draws`): exact when it can enumerate the ranks of the unseen draws
within its budgets, else a Rao-Blackwellised Gibbs sampler. This script plays games (``peer``
players by default), and at every ``--every``-th prefix of every chosen seat's record it

* computes the **exact** answer with the draw engine summing over the ranks of *every* unseen
  draw inside one block product (``exact_free`` = the number of unseen draws; no sampling);
  its cost doubles with each unseen draw, so positions with more than ``--max-free`` unseen
  draws have no exact answer here and end the seat's walk (its unseen draws only grow). With
  the full deck the counts pass 64 bits and the sum is in floating point: exact up to
  rounding (~1e-15);
* answers the same position approximately, with these configurations (``--configs``):

  - ``default``: the tracker at its default settings, fresh for the position, as
    ``cardmind belief``/``cardmind hint`` use it (record end = a legal prefix); it is exact
    (error 0) where its own, smaller, budget suffices;
  - ``sampler``: the same default Gibbs settings with every exact shortcut switched off
    (``exact_free=0``, ``enum_nodes=0``), so that every position with an unseen draw is
    sampled: the error of the sampler itself, which the default uses past its exact range;
  - ``precise``: the sampler with ``precision`` (``--precision``, as ``cardmind belief
    --precision``): it samples until its estimated standard error is at most that;
  - ``old``: the older ``draws`` sampler (100 steps), for comparison;
  - ``agent``: the ``belief`` player's settings (few steps, chain continued from query to
    query: one tracker per seat, queried at every measured prefix in order; ``settled`` (the
    last move is over, no book follows) wherever the next event is not a book);

* and reports the largest absolute error of any holdings marginal P(seat holds k of rank r)
  (every other seat and the stock) and of any face-down book's rank probability, and the time
  per answer (median and spread), and each sampled answer's own estimated standard error.

Run (about 20 minutes; 45 on a busy shared 2-core machine)::

    python eval/gofish_belief_error.py --players 3 4 --games 2 --every 6 --max-free 12
    python eval/gofish_belief_error.py --players 3 4 --games 1 --every 6 --min-free 6 \
        --max-free 12 --configs precise --precision 0.004

Results are in ``docs/gofish-belief.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardmind.agents import resolve_agent
from cardmind.games.gofish.agents.belief import GoFishBeliefAgent
from cardmind.agents.match import play_game
from cardmind.games.gofish.belief import GoFishBelief
from cardmind.core import get_game


def agent_kwargs() -> dict:
    """The tracker settings the ``belief`` player uses (its defaults)."""
    st = GoFishBeliefAgent.default_settings
    return {"steps": int(st["steps"]), "block": int(st["block"]), "exchanges": int(st["exchanges"]),
            "record_block": int(st["record_block"]), "exact_free": int(st["exact_free"]),
            "enum_nodes": int(st["enum_nodes"]), "enum_leaves": int(st["enum_leaves"]),
            "draw_options": {"enum_memo": True, "support_log10": float(st["support_log10"]), "object_limit": 0}}


def feed(t: GoFishBelief, events: list, upto: int) -> None:
    for ev in events[len(t.events):upto]:
        t.observe(ev)


def answer(t: GoFishBelief) -> tuple[dict, list]:
    return t.holdings(), t.books()


def max_error(ref: tuple, got: tuple, observer: int) -> tuple[float, float]:
    """Largest |difference| over every holdings marginal and every face-down book rank."""
    (h0, b0), (h1, b1) = ref, got
    eh = 0.0
    for s in set(h0) | set(h1):
        if s == observer:
            continue
        for r in set(h0.get(s, {})) | set(h1.get(s, {})):
            d0, d1 = h0.get(s, {}).get(r, {}), h1.get(s, {}).get(r, {})
            for c in set(d0) | set(d1):
                eh = max(eh, abs(float(d0.get(c, 0.0)) - float(d1.get(c, 0.0))))
    eb = 0.0
    for x0, x1 in zip(b0, b1):
        if x0["known"]:
            continue
        for r in set(x0["ranks"]) | set(x1["ranks"]):
            eb = max(eb, abs(float(x0["ranks"].get(r, 0.0)) - float(x1["ranks"].get(r, 0.0))))
    return eh, eb


def mode(t: GoFishBelief) -> str:
    """How the tracker answered: ``filter`` (the exact joint filter), ``exact`` (draw engine,
    integers), ``enumerated`` (draw engine, exact sum in floating point) or ``mcmc``."""
    return t._draws.last_mode if t._draws is not None else "filter"


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


CONFIGS = ("default", "sampler", "precise", "old", "agent")


def run(players: int, games: int, every: int, seats: list[int] | None, max_free: int,
        agents: str, seed0: int, out: list, verbose: bool, configs: tuple = ("default", "sampler", "agent"),
        min_free: int = 0, precision: float = 0.004) -> None:
    g = get_game("gofish")
    names = agents.split(",") if agents else ["peer"] * players
    for gi in range(games):
        seed = seed0 + gi
        res = play_game(g, {"players": players}, [resolve_agent(a, g) for a in names],
                        np.random.default_rng(seed), [np.random.default_rng([seed, s]) for s in range(players)],
                        max_actions=3000)
        rec = res.record
        for seat in (seats if seats is not None else range(players)):
            view = rec.for_seat(seat)
            evs, hand, opts = view.events, view.header["hand"], view.options
            agent_t = GoFishBelief(opts, seat, hand, seed=seat, **agent_kwargs())
            agent_t.settled = True
            for L in range(every, len(evs) + 1, every):
                D = sum(1 for e in evs[:L] if e["type"] == "draw" and e["card"] is None)
                if D > max_free:
                    if verbose:
                        print(f"  {players}p game {seed} seat {seat} event {L}: {D} unseen draws, no exact "
                              f"answer; next seat", flush=True)
                    break
                # the player's view: its last move is over, no book follows (true only where the
                # next event is not a book)
                settle = L == len(evs) or evs[L]["type"] != "book"
                if "agent" in configs:
                    feed(agent_t, evs, L)
                if D < min_free:
                    continue
                refs = {}
                for settled in ((False, settle) if "agent" in configs else (False,)):
                    t = GoFishBelief(opts, seat, hand, engine="draws", exact_free=max(D, 1), enum_nodes=0)
                    t.settled = settled
                    feed(t, evs, L)
                    refs[settled], te = timed(lambda t=t: answer(t))
                    assert t._draws is None or t._draws.last_mode in ("exact", "enumerated")
                draws = t._draws._tl.draws if t._draws else []
                row = {"players": players, "game": seed, "seat": seat, "events": L, "unseen_draws": len(draws),
                       "exact_time": te}
                fresh = {"default": {}, "sampler": {"enum_nodes": 0, "exact_free": 0},
                         "precise": {"enum_nodes": 0, "exact_free": 0,
                                     "draw_options": {"precision": precision, "max_steps": 40_000}},
                         "old": {"enum_nodes": 0, "exact_free": 0, "steps": 100, "draw_options": {"sampler": "draws"}}}
                for k in configs:
                    if k == "agent":
                        agent_t.settled = settle
                        got, dt = timed(lambda: answer(agent_t))
                        eh, eb = max_error(refs[settle], got, seat)
                        tr = agent_t
                    else:
                        tr = GoFishBelief(opts, seat, hand, **fresh[k])
                        feed(tr, evs, L)
                        got, dt = timed(lambda tr=tr: answer(tr))
                        eh, eb = max_error(refs[False], got, seat)
                    row[k] = {"hold": eh, "book": eb, "time": dt, "mode": mode(tr), "stderr": tr.stderr,
                              "steps": tr._draws._answer[1].steps if tr._draws is not None and tr._draws._answer else 0}
                out.append(row)
                if verbose:
                    print(f"  {players}p game {seed} seat {seat} event {L} draws {len(draws)}: " + "  ".join(
                        f"{k} {row[k]['hold']:.4f}/{row[k]['book']:.4f} {row[k]['time']:.2f}s"
                        + f" ({row[k]['mode']}" + (f", se {row[k]['stderr']:.4f}, {row[k]['steps']} steps"
                                                  if row[k]['stderr'] is not None else "") + ")"
                        for k in configs), flush=True)


def summary(rows: list, configs: tuple = ("default", "sampler", "agent")) -> dict:
    out = {}
    for players in sorted({r["players"] for r in rows}):
        rs = [r for r in rows if r["players"] == players]
        s = {"positions": len(rs), "max_unseen_draws": max(r["unseen_draws"] for r in rs)}
        by_d: dict = {}
        for k in configs:
            sampled = [r for r in rs if r[k]["mode"] == "mcmc"]
            ts = np.array([r[k]["time"] for r in rs])
            worst = max(rs, key=lambda r: max(r[k]["hold"], r[k]["book"]))
            s[k] = {"sampled_positions": len(sampled),
                    "max_hold_error": max(r[k]["hold"] for r in rs),
                    "max_error_sampled": max((max(r[k]["hold"], r[k]["book"]) for r in sampled), default=0.0),
                    "max_book_error": max(r[k]["book"] for r in rs),
                    "worst_position": {x: worst[x] for x in ("game", "seat", "events", "unseen_draws")},
                    "max_stderr": max((r[k]["stderr"] for r in sampled if r[k]["stderr"] is not None), default=None),
                    # (positions whose error and standard error are both rounding-level left out)
                    "max_error_over_stderr": max((max(r[k]["hold"], r[k]["book"]) / r[k]["stderr"]
                                                  for r in sampled if r[k]["stderr"] and r[k]["stderr"] > 1e-9
                                                  and max(r[k]["hold"], r[k]["book"]) > 1e-9), default=None),
                    "steps_median": float(np.median([r[k]["steps"] for r in sampled])) if sampled else 0,
                    "time_median": float(np.median(ts)), "time_p10": float(np.percentile(ts, 10)),
                    "time_p90": float(np.percentile(ts, 90)), "time_max": float(ts.max())}
            for r in rs:
                d = by_d.setdefault(k, {}).setdefault(r["unseen_draws"], 0.0)
                by_d[k][r["unseen_draws"]] = max(d, r[k]["hold"], r[k]["book"])
        s["max_error_by_unseen_draws"] = {k: dict(sorted(v.items())) for k, v in by_d.items()}
        out[players] = s
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--every", type=int, default=3, help="measure every N-th prefix")
    ap.add_argument("--seats", type=int, nargs="*", default=None, help="observer seats (default: all)")
    ap.add_argument("--agents", default="", help="comma-separated players of the games (default: peer)")
    ap.add_argument("--max-free", type=int, default=10,
                    help="exact reference up to this many unseen draws (its cost doubles per draw)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--configs", default="default,sampler,agent",
                    help=f"comma-separated configurations among {', '.join(CONFIGS)}")
    ap.add_argument("--min-free", type=int, default=0, help="measure only positions with this many unseen draws or more")
    ap.add_argument("--precision", type=float, default=0.004, help="the standard error target of 'precise'")
    ap.add_argument("--json", default="", help="write the rows and the summary here")
    ap.add_argument("-q", "--quiet", action="store_true")
    ap.add_argument("--summarize", default="", metavar="JSON",
                    help="only print the summary of the rows of an earlier --json file")
    a = ap.parse_args(argv)
    if a.summarize:
        rows = json.loads(Path(a.summarize).read_text())["rows"]
        used = tuple(c for c in CONFIGS if all(c in r for r in rows))
        print(json.dumps(summary(rows, used), indent=1))
        return
    configs = tuple(c for c in a.configs.split(",") if c)
    bad = [c for c in configs if c not in CONFIGS]
    if bad:
        ap.error(f"unknown configuration(s) {', '.join(bad)}; choose among {', '.join(CONFIGS)}")
    rows: list = []
    for p in a.players:
        run(p, a.games, a.every, a.seats, a.max_free, a.agents if p == len(a.agents.split(",")) else "",
            a.seed, rows, not a.quiet, configs, a.min_free, a.precision)
    s = summary(rows, configs)
    print(json.dumps(s, indent=1))
    if a.json:
        Path(a.json).write_text(json.dumps({"rows": rows, "summary": s}, indent=1))


if __name__ == "__main__":
    main()
