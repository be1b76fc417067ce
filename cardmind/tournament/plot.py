"""``summary.png``: win rates and Elo with their 95% intervals (matplotlib, Agg backend)."""

from __future__ import annotations

import os


def plot_summary(summary: dict, path: str | os.PathLike) -> None:
    """Draw the win rate (Wilson 95% interval) and Elo (95% interval from duplicate deals)
    of every agent of ``summary`` into the PNG file ``path``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    names = list(summary["agents"])
    agents = [summary["agents"][n] for n in names]
    ys = list(range(len(names)))[::-1]
    fig = Figure(figsize=(10, 1.2 + 0.55 * len(names)), dpi=100)
    FigureCanvasAgg(fig)
    ax1, ax2 = fig.subplots(1, 2, sharey=True)

    for y, a in zip(ys, agents):
        if a["win_rate"] is None:
            continue
        lo, hi = a["win_rate_ci95"]
        ax1.errorbar([a["win_rate"]], [y], xerr=[[a["win_rate"] - lo], [hi - a["win_rate"]]],
                     fmt="o", color="tab:blue", capsize=4)
    ax1.axvline(0.5, color="grey", lw=0.8, ls="--")
    ax1.set_xlim(0, 1)
    ax1.set_xlabel("win rate (draws = half), 95% Wilson interval")
    ax1.set_yticks(ys, names)

    finite = [a["elo"] for a in agents if a["elo"] is not None]
    ends = [e for a in agents for e in a["elo_ci95"] if e is not None]
    span = max([abs(x) for x in finite + ends] + [50.0]) * 1.15
    for y, a in zip(ys, agents):
        if a["elo"] is None:
            continue
        lo, hi = a["elo_ci95"]
        lo = -span if lo is None else lo
        hi = span if hi is None else hi
        ax2.errorbar([a["elo"]], [y], xerr=[[max(0.0, a["elo"] - lo)], [max(0.0, hi - a["elo"])]],
                     fmt="o", color="tab:red", capsize=4)
    ax2.axvline(0.0, color="grey", lw=0.8, ls="--")
    ax2.set_xlim(-span, span)
    ax2.set_xlabel("Elo vs the field, 95% interval over deals")
    ax1.set_ylim(-0.7, len(names) - 0.3)

    title = f"{summary.get('game') or ''}: {summary['games']} games, seed {summary.get('seed')}"
    s = summary.get("sprt")
    if s and s.get("verdict"):
        title += f"; SPRT [{s['elo0']:g}, {s['elo1']:g}] accepts {s['verdict']}"
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(os.fspath(path), format="png")
