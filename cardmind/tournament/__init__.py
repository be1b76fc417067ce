"""Duplicate tournaments between agents: schedule, parallel play, statistics and reports.

Python API::

    from cardmind.tournament import run_tournament

    summary = run_tournament("literature", ["random", "random"], games=100, jobs=2, seed=1,
                             out_dir="runs/rr")
    summary["agents"]["random"]["win_rate"], summary["agents"]["random"]["elo_ci95"]

The command ``cardmind tournament`` is a thin layer over :func:`run_tournament`; the output
files and every statistic are documented in ``docs/tournament.md``.
"""

from importlib import import_module

_EXPORTS = {
    "run_tournament": "runner", "load_results": "runner", "TournamentError": "runner",
    "summarize": "summary",
    "Schedule": "schedule", "make_schedule": "schedule", "seat_teams": "schedule",
    "wilson_interval": "ratings", "elo_from_score": "ratings", "score_from_elo": "ratings",
    "elo_interval": "ratings", "llr": "ratings", "sprt_verdict": "ratings",
}
__all__ = list(_EXPORTS)


def __getattr__(name: str):
    # lazy, so that ``cardmind --help`` (which imports .cli) does not import numpy
    if name in _EXPORTS:
        return getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
