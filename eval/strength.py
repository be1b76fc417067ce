"""Strength study: cardmind's players against each other on duplicate deals.

Runs the tournaments of the strength targets with :func:`cardmind.tournament.run_tournament`
and writes ``docs/strength.md`` (between markers): per pairing the games, win rates with
95% Wilson intervals (of all games and of decided games), the Elo difference with its
interval from the paired duplicate results, points per game, how often each agent's claims
(Literature) were right, game length and time per move.

    python eval/strength.py literature --games 2000 --jobs 2       # the 6-player study
    python eval/strength.py literature8 --games 400 --jobs 2       # eight players
    python eval/strength.py literature-peer --games 2000 --jobs 1  # issue 16: belief v the faithful peer
    python eval/strength.py literature-uniform --games 400 --jobs 1  # the same deals, player models off
    python eval/strength.py gofish --games 2000 --jobs 2           # Go Fish, 2 players
    python eval/strength.py gofish4 --games 400 --jobs 2           # Go Fish, 4 players
    python eval/strength.py gofish4-nosearch --games 400 --jobs 2  # the same, look-ahead off
    python eval/strength.py gofish4-memory --games 400 --jobs 2    # the same, memory worlds

Each study keeps its tournament folders under ``eval/out/strength/`` (so a killed run can be
continued with ``--resume``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardmind.tournament import run_tournament  # noqa: E402

STUDIES = {
    "literature": [("literature", {"players": 6}, ["belief", "random"]),
                   ("literature", {"players": 6}, ["belief", "peer"])],
    "literature8": [("literature", {"players": 8}, ["belief", "random"]),
                    ("literature", {"players": 8}, ["belief", "peer"])],
    # issue 16: against the faithful peer only (the target run), its 8-player result, and
    # the same deals with the player models off (belief's posterior constraint-only again)
    "literature-peer": [("literature", {"players": 6}, ["belief", "peer"])],
    "literature8-peer": [("literature", {"players": 8}, ["belief", "peer"])],
    "literature-uniform": [("literature", {"players": 6}, ["belief", "peer"],
                            {"belief": {"opponent_model": "uniform", "teammate_model": "uniform"}})],
    "literature8-uniform": [("literature", {"players": 8}, ["belief", "peer"],
                             {"belief": {"opponent_model": "uniform", "teammate_model": "uniform"}})],
    "gofish": [("gofish", {"players": 2}, ["belief", "random"]),
               ("gofish", {"players": 2}, ["belief", "peer"])],
    "gofish4": [("gofish", {"players": 4}, ["belief", "peer", "peer", "peer"])],
    # the same deals with the look-ahead off (the moves the tracker only sampled go to peer)
    "gofish4-nosearch": [("gofish", {"players": 4}, ["belief", "peer", "peer", "peer"],
                          {"belief": {"search": 0, "sampled": "peer"}})],
    # the look-ahead's worlds fitting the public memory where the tracker only samples (the
    # default before the chain's worlds)
    "gofish4-memory": [("gofish", {"players": 4}, ["belief", "peer", "peer", "peer"],
                        {"belief": {"sampled_worlds": "memory"}})],
}


def claim_accuracy(out_dir: Path) -> dict[str, list[int]]:
    """``{agent: [right claims, claims]}`` from the Literature records of a tournament."""
    acc: dict[str, list[int]] = {}
    for line in (out_dir / "results.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        rec = out_dir / r["record"]
        if not rec.exists():
            continue
        seats = r["seats"]
        for ev_line in rec.read_text().splitlines()[1:]:
            ev = json.loads(ev_line)
            if ev.get("type") == "claim":
                name = seats[ev["claimer"]]
                a = acc.setdefault(name, [0, 0])
                a[0] += bool(ev["correct"])
                a[1] += 1
    return acc


def run_study(name: str, games: int, jobs: int, seed: int, resume: bool, quiet: bool) -> list[dict]:
    rows = []
    for game, options, agents, *extra in STUDIES[name]:
        settings = extra[0] if extra else None
        tag = f"{game}-{options.get('players')}p-" + "-".join(agents) + ("-" + name if settings else "")
        out = ROOT / "eval" / "out" / "strength" / tag
        t0 = time.time()
        s = run_tournament(game, agents, games=games, jobs=jobs, seed=seed, out_dir=out, options=options,
                           quiet=quiet, resume=resume and (out / "results.jsonl").exists(), settings=settings)
        claims = claim_accuracy(Path(s["out_dir"])) if game == "literature" else {}
        rows.append({"game": game, "options": options, "agents": agents, "summary": s, "claims": claims,
                     "settings": settings, "wall": time.time() - t0})
    return rows


def _bound(x) -> str:
    """An Elo interval end; ``None`` (unbounded: every paired result went one way) as infinity."""
    return "unbounded" if x is None else f"{x:+.0f}"


def _rate(timing: dict) -> str:
    gps = timing.get("games_per_second")
    if gps is None:  # a resumed run that had nothing left to play
        return "speed: see the run that played the games"
    return f"{gps:.2f} games/s with {timing['jobs']} jobs"


def fmt_rows(rows: list[dict]) -> str:
    out = []
    for r in rows:
        s = r["summary"]
        opts = ", ".join(f"{k} {v}" for k, v in r["options"].items())
        out.append(f"#### {r['game']} ({opts}): {' vs '.join(r['agents'])}"
                   + (f" (settings {json.dumps(r['settings'])})" if r.get("settings") else ""))
        out.append("")
        out.append(f"{s['games']} games ({s['deals']} deals x {s['games_per_deal']} seatings), seed {s['seed']}; "
                   f"{_rate(s['timing'])}; "
                   f"game length (events) {json.dumps(s.get('game_length'))}")
        out.append("")
        out.append("| agent | games | W | D | L | win rate [95% CI] | decided-game win rate [95% CI] | Elo [95% CI] | points/game | claims right | ms/move |")
        out.append("| --- | ---: | ---: | ---: | ---: | --- | --- | --- | ---: | --- | ---: |")
        think = s["timing"].get("think_ms_per_move", {})
        for name, a in s["agents"].items():
            lo, hi = a["win_rate_ci95"]
            dlo, dhi = a["decided_win_rate_ci95"]
            elo = a.get("elo")
            elo_s = "" if elo is None else f"{elo:+.0f} [{_bound(a['elo_ci95'][0])}, {_bound(a['elo_ci95'][1])}]"
            cl = r["claims"].get(name)
            cl_s = "" if not cl else f"{cl[0]}/{cl[1]} ({cl[0] / cl[1]:.1%})"
            out.append(f"| {name} | {a['games']} | {a['wins']} | {a['draws']} | {a['losses']} | "
                       f"{a['win_rate']:.1%} [{lo:.1%}, {hi:.1%}] | {a['decided_win_rate']:.1%} [{dlo:.1%}, {dhi:.1%}] | "
                       f"{elo_s} | {a.get('points_per_game', 0):.2f} | {cl_s} | {think.get(name, 0):.1f} |")
        out.append("")
    return "\n".join(out)


def write_doc(name: str, text: str, command: str) -> None:
    doc = ROOT / "docs" / "strength.md"
    begin, end = f"<!-- strength:{name}:begin -->", f"<!-- strength:{name}:end -->"
    body = f"{begin}\n\nCommand: `{command}`\n\n{text}\n{end}"
    if doc.exists():
        old = doc.read_text()
        if begin in old:
            new = old[:old.index(begin)] + body + old[old.index(end) + len(end):]
        else:
            new = old.rstrip() + "\n\n" + body + "\n"
    else:
        new = HEADER + body + "\n"
    doc.write_text(new)


HEADER = """# Strength study

Produced by `eval/strength.py` with cardmind's tournament runner (`docs/tournament.md`):
every deal is played in every seating (both team assignments in Literature; every seat
rotation in Go Fish), so the luck of the deal cancels out. Win rates count draws as half;
"decided" leaves draws out; intervals are 95% Wilson intervals; the Elo difference and its
interval come from the paired duplicate results. "ms/move" is the mean time an agent spent
per action on this (shared, 2-core) machine.

"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("study", choices=sorted(STUDIES))
    ap.add_argument("--games", type=int, default=2000, help="games per pairing")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    rows = run_study(args.study, args.games, args.jobs, args.seed, args.resume, args.quiet)
    text = fmt_rows(rows)
    cmd = f"python eval/strength.py {args.study} --games {args.games} --jobs {args.jobs} --seed {args.seed}"
    write_doc(args.study, text, cmd)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
