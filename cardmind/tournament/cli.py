"""``cardmind tournament``: the command-line front end of :func:`run_tournament`.

This module imports nothing heavy at import time: ``cardmind --help`` stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys


def _sprt(text: str) -> tuple[float, float]:
    try:
        a, b = (float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ELO0,ELO1 (for example 0,10), got {text!r}") from None
    return a, b


def add_parser(sub) -> argparse.ArgumentParser:
    """Add the ``tournament`` subcommand to ``sub`` (the subparsers of ``cardmind``)."""
    p = sub.add_parser(
        "tournament", help="play a duplicate tournament between agents (docs/tournament.md)",
        description="Play a duplicate tournament: every deal is replayed with the agents' seats "
                    "swapped. Writes results.jsonl, records/, summary.json and summary.png to --out.")
    from ..core import game_names  # noqa: PLC0415

    p.add_argument("game", help=f"the game: {' or '.join(game_names())}")
    p.add_argument("--agents", required=True, metavar="A,B[,...]",
                   help="two or more agents: registry names or package.module:Class")
    p.add_argument("--games", type=int, default=100, metavar="N",
                   help="games in total, rounded up to whole deals (each deal is played by every pairing "
                        "with every seat assignment); with --sprt the most to play (default 100)")
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1; 0 = one per CPU)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="tournament seed (default 0)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="output folder (default tournaments/GAME-AGENTS-TIMESTAMP)")
    p.add_argument("--options", default=None, metavar="JSON", help="game options, e.g. '{\"players\": 8}'")
    p.add_argument("--settings", default=None, metavar="JSON",
                   help="agent settings by agent name, e.g. '{\"belief\": {\"w_reveal\": 0.2}}' (every "
                        "agent's settings and defaults: the engine's hello, docs/tournament.md)")
    p.add_argument("--sprt", type=_sprt, default=None, metavar="ELO0,ELO1",
                   help="stop early with a GSPRT verdict on the first agent's Elo against the second's "
                        "(alpha = beta = 0.05)")
    p.add_argument("--max-actions", type=int, default=None, metavar="K",
                   help="stop a game after K actions and score it as a draw (default 3000)")
    p.add_argument("--executor", choices=("local", "ray"), default="local",
                   help="where the games are played: 'local' (this machine: --jobs processes) or 'ray' "
                        "(Ray tasks: a local Ray instance of --jobs CPUs, or the cluster at --address; "
                        "needs pip install 'cardmind[ray]')")
    p.add_argument("--address", default=None, metavar="ADDRESS",
                   help="with --executor ray: an existing Ray cluster ('auto', 'ray://HOST:10001')")
    p.add_argument("--resume", action="store_true", help="continue the tournament in --out")
    p.add_argument("--quiet", action="store_true", help="no progress bar or live standings on stderr")
    p.add_argument("--json", action="store_true", help="print summary.json on stdout instead of the table")
    return p


def _json_arg(text: str | None, what: str) -> dict | None:
    from .runner import TournamentError  # noqa: PLC0415

    if text is None:
        return None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TournamentError(f"{what} is not valid JSON ({exc.msg} at column {exc.colno}): {text!r}") from None
    if not isinstance(obj, dict):
        raise TournamentError(f"{what} must be a JSON object, not {text!r}")
    return obj


def run(args: argparse.Namespace) -> int:
    """Run ``cardmind tournament``; return the exit status."""
    from rich.console import Console  # noqa: PLC0415

    from .render import standings_table  # noqa: PLC0415
    from .runner import run_tournament  # noqa: PLC0415

    extra = {} if args.max_actions is None else {"max_actions": args.max_actions}
    summary = run_tournament(
        args.game, args.agents.split(","), games=args.games, jobs=args.jobs, seed=args.seed, out_dir=args.out,
        options=_json_arg(args.options, "--options"), settings=_json_arg(args.settings, "--settings"),
        sprt=args.sprt, quiet=args.quiet, resume=args.resume, executor=args.executor, address=args.address,
        **extra)
    if args.json:
        print(json.dumps(summary, indent=1))
        return _all_forfeited(summary)
    probe = Console(file=sys.stdout)
    # on a terminal at least 120 columns; piped or in a file, never wrapped (rich would wrap at 80)
    out = Console(file=sys.stdout, width=max(120, probe.width) if probe.is_terminal else 1000)
    out.print(standings_table(summary))
    _print_forfeits(out, summary)
    t = summary["timing"]
    rate = t["games_per_second"]
    out.print(f"{t['games_this_run']} games played in {t['play_seconds']:.1f} s"
              + (f" ({rate:.2f} games/s, {t['jobs']} job{'s' if t['jobs'] != 1 else ''})" if rate else "")
              + f"; results in {summary['out_dir']}/ (summary.json, summary.png, results.jsonl, records/)",
              highlight=False, soft_wrap=True)
    return _all_forfeited(summary)


def _print_forfeits(out, summary: dict) -> None:
    """List the forfeited games (up to the summary's ``forfeited_games``) with their reasons
    and traceback files."""
    games = summary.get("forfeited_games") or []
    if not games:
        return
    from pathlib import Path  # noqa: PLC0415

    total = summary.get("forfeits", len(games))
    out.print(f"Forfeited games ({total}; an agent that raised has its traceback in the file named):",
              highlight=False, soft_wrap=True)
    for g in games:
        tb = f" [{Path(summary['out_dir']) / g['traceback']}]" if g.get("traceback") else ""
        out.print(f"  game {g['id']}: {g['agent']} at seat {g['seat']}: {g['reason']}{tb}",
                  highlight=False, soft_wrap=True, markup=False)
    if total > len(games):
        out.print(f"  ... and {total - len(games)} more (results.jsonl has every one)", highlight=False)


def _all_forfeited(summary: dict) -> int:
    """1 (with an error line on stderr) when some agent forfeited every game it played, else 0."""
    status = 0
    for name, a in summary["agents"].items():
        if a["games"] and a["forfeits"] == a["games"]:
            reason = a["forfeit_reasons"][0] if a["forfeit_reasons"] else ""
            print(f"cardmind: error: agent {name!r} forfeited every one of its {a['games']} games"
                  + (f" ({reason})" if reason else ""), file=sys.stderr)
            status = 1
    return status
