"""``summary.png``: win rates and Elo with their 95% intervals (matplotlib, Agg backend).

The win-rate panel marks each agent's **fair share** (``fair_share``: the win rate of equally
strong players, 1/n for one seat at an n-player table) with a grey tick, and a dashed line at
it when every agent has the same one. A game scored in points (every game whose summary has
``points_per_game``: the rummy games, Go Fish books, Literature sets) gets a third panel, the
points per game of each agent.

Every agent of the summary gets a row in every panel. What the numbers cannot show as a
point or a bar is drawn and labelled as what it is, never left out or drawn as a full-width
bar:

* an **infinite Elo** (the agent won, or lost, every deal counted) is a triangle at the
  panel's edge pointing outwards, labelled ``+inf`` or ``-inf``;
* an interval end that is **infinite** (the score interval reaches 0 or 1) is a bar to the
  edge ending in an arrow;
* an interval that is **undefined** (fewer than two deals counted) is no bar, labelled
  ``no interval (1 deal)``; an agent with **no deal** counted has no Elo, labelled so.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from .ratings import Z95, elo_from_score


@dataclass
class EloMark:
    """What the Elo panel draws for one agent.

    Attributes:
        name: the agent.
        elo: its Elo against the field (``±inf`` when it won or lost every deal; ``None``
            when no deal was counted).
        lo, hi: the 95% interval's ends (``±inf`` for an end beyond the score range;
            ``None`` when the interval is undefined: fewer than two deals).
        units: deals counted.
    """

    name: str
    elo: float | None
    lo: float | None
    hi: float | None
    units: int

    @property
    def note(self) -> str:
        """The label drawn beside the mark (``""`` for an ordinary point and bar)."""
        if self.elo is None:
            return "no Elo (no complete deal)"
        parts = []
        if math.isinf(self.elo):
            parts.append(f"{'+' if self.elo > 0 else '-'}inf (every deal {'won' if self.elo > 0 else 'lost'})")
        if self.lo is None:
            parts.append(f"no interval ({self.units} deal{'s' if self.units != 1 else ''})")
        return "; ".join(parts)


def elo_marks(summary: dict) -> list[EloMark]:
    """The Elo of every agent of ``summary`` with its interval, the infinite and undefined
    values told apart (``summary.json`` writes both as ``null``): they are recomputed from
    ``mean_unit_score``, ``unit_score_se`` and ``units`` exactly as
    :func:`~cardmind.tournament.ratings.elo_interval` computes them.

    Returns:
        One :class:`EloMark` per agent, in the summary's order.
    """
    out = []
    for name, a in summary["agents"].items():
        s, se, n = a.get("mean_unit_score"), a.get("unit_score_se"), a.get("units", 0)
        if s is None or not n:
            out.append(EloMark(name, None, None, None, 0))
            continue
        elo = a["elo"] if a["elo"] is not None else elo_from_score(s)
        if se is None or n < 2:
            out.append(EloMark(name, elo, None, None, n))
            continue
        lo, hi = a["elo_ci95"]
        lo = elo_from_score(s - Z95 * se) if lo is None else lo
        hi = elo_from_score(s + Z95 * se) if hi is None else hi
        out.append(EloMark(name, elo, lo, hi, n))
    return out


def _draw_win_rates(ax, ys: list[int], names: list[str], agents: list[dict]) -> None:
    """The win-rate panel on the axes ``ax``: each agent's win rate (a probability) at height
    ``ys`` with its Wilson 95% interval, its fair share as a grey tick, and a dashed line at the
    fair share when every agent has the same one; the agent ``names`` label the rows."""
    for y, a in zip(ys, agents):
        if a["win_rate"] is None:
            ax.text(0.5, y, "no games", ha="center", va="center", color="grey")
            continue
        lo, hi = a["win_rate_ci95"]
        ax.errorbar([a["win_rate"]], [y], xerr=[[a["win_rate"] - lo], [hi - a["win_rate"]]],
                    fmt="o", color="tab:blue", capsize=4)
    fair = [a.get("fair_share") for a in agents]
    for y, f in zip(ys, fair):
        if f is not None:
            ax.plot([f, f], [y - 0.3, y + 0.3], color="grey", lw=2)
    same = {round(f, 6) for f in fair if f is not None}
    if len(same) == 1:
        f = same.pop()
        ax.axvline(f, color="grey", lw=0.8, ls="--")
        ax.text(f, len(names) - 0.45, f"fair share {f:.0%}" if f * 100 == round(f * 100) else
                f"fair share {f:.1%}", ha="center", va="bottom", fontsize=8, color="grey")
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (draws = half), 95% Wilson interval; grey: fair share")
    ax.set_yticks(ys, names)


def _draw_elos(ax, ys: list[int], summary: dict) -> None:
    """The Elo panel on the axes ``ax``: each agent's Elo against the field (:func:`elo_marks`)
    at height ``ys`` with its 95% interval over deals, infinite values and ends as arrows at the
    panel's edge and undefined ones as labels (see the module docstring)."""
    marks = elo_marks(summary)
    finite = [x for m in marks for x in (m.elo, m.lo, m.hi) if x is not None and math.isfinite(x)]
    span = max([abs(x) for x in finite] + [50.0]) * 1.25
    for y, m in zip(ys, marks):
        if m.elo is None:
            ax.text(0.0, y, m.note, ha="center", va="center", color="grey")
            continue
        if math.isinf(m.elo):
            edge = span if m.elo > 0 else -span
            ax.plot([edge], [y], marker=">" if m.elo > 0 else "<", color="tab:red", ms=10, ls="none")
            ax.text(edge * 0.96, y + 0.22, m.note, ha="right" if m.elo > 0 else "left", va="bottom",
                    fontsize=8, color="tab:red")
            continue
        ax.plot([m.elo], [y], "o", color="tab:red")
        if m.lo is None:
            ax.text(m.elo, y + 0.22, m.note, ha="center", va="bottom", fontsize=8, color="grey")
            continue
        lo, hi = max(m.lo, -span), min(m.hi, span)
        ax.plot([lo, hi], [y, y], color="tab:red", lw=1.5)
        for end, inf, marker in ((lo, math.isinf(m.lo), "<"), (hi, math.isinf(m.hi), ">")):
            if inf:
                ax.plot([end], [y], marker=marker, color="tab:red", ms=7, ls="none")
            else:
                ax.plot([end, end], [y - 0.12, y + 0.12], color="tab:red", lw=1.5)
    ax.axvline(0.0, color="grey", lw=0.8, ls="--")
    ax.set_xlim(-span * 1.04, span * 1.04)
    ax.set_xlabel("Elo vs the field, 95% interval over deals (arrows: to infinity)")


def _draw_points(ax, ys: list[int], agents: list[dict]) -> None:
    """The points panel on the axes ``ax``: each agent's points per game (the game's score,
    higher is better) at height ``ys`` as a labelled bar, ``no points`` where it has none."""
    pts = [a.get("points_per_game") for a in agents]
    for y, v in zip(ys, pts):
        if v is None:
            ax.text(0.0, y, "no points", ha="center", va="center", color="grey")
            continue
        ax.barh([y], [v], color="tab:green", height=0.5)
        ax.text(v, y, f" {v:.1f} ", ha="left" if v >= 0 else "right", va="center", fontsize=8)
    vals = [v for v in pts if v is not None] + [0.0]
    lo, hi = min(vals), max(vals)
    pad = max(hi - lo, 1.0) * 0.25
    ax.set_xlim(lo - pad if lo < 0 else 0, hi + pad if hi > 0 else 0)
    ax.axvline(0.0, color="grey", lw=0.8)
    ax.set_xlabel("points per game (the game's score, higher is better)")


def _title(summary: dict) -> str:
    """The figure's title: the game, the games counted, the seed and the SPRT's verdict."""
    title = f"{summary.get('game') or ''}: {summary['games']} games, seed {summary.get('seed')}"
    s = summary.get("sprt")
    if s and s.get("verdict"):
        title += f"; SPRT [{s['elo0']:g}, {s['elo1']:g}] accepts {s['verdict']}"
    return title


def plot_summary(summary: dict, path: str | os.PathLike):
    """Draw the win rate (Wilson 95% interval, with the fair share), the Elo (95% interval
    from duplicate deals) and, for a game with points, the points per game of every agent of
    ``summary`` into the PNG file ``path``; return the matplotlib ``Figure`` (see the module
    docstring for infinite and undefined values)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    names = list(summary["agents"])
    agents = [summary["agents"][n] for n in names]
    ys = list(range(len(names)))[::-1]
    fig = Figure(figsize=(15 if any(a.get("points_per_game") is not None for a in agents) else 11, 1.3 + 0.55 * len(names)), dpi=100)
    FigureCanvasAgg(fig)
    has_points = any(a.get("points_per_game") is not None for a in agents)
    axes = fig.subplots(1, 3 if has_points else 2, sharey=True)
    ax1, ax2 = axes[0], axes[1]
    _draw_win_rates(ax1, ys, names, agents)
    _draw_elos(ax2, ys, summary)
    ax1.set_ylim(-0.7, len(names) - 0.3)
    if has_points:
        _draw_points(axes[2], ys, agents)
    fig.suptitle(_title(summary))
    fig.tight_layout()
    fig.savefig(os.fspath(path), format="png")
    return fig
