"""Rich tables of a tournament summary (live standings on stderr, the final table on stdout)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _ci(pair, fmt) -> str:
    lo, hi = pair
    if lo is None and hi is None:
        return ""
    return f"[{'-inf' if lo is None else fmt(lo)}, {'+inf' if hi is None else fmt(hi)}]"


def _elo(x) -> str:
    r = round(x)
    return "0" if r == 0 else f"{r:+d}"


def _elo_cell(a: dict) -> str:
    """Elo and interval; an Elo that is infinite (every unit won or lost) shows as ±inf."""
    if a["elo"] is not None:
        elo = _elo(a["elo"])
    elif a.get("mean_unit_score") is not None:
        elo = "+inf" if a["mean_unit_score"] >= 0.5 else "-inf"
    else:
        return "-"
    return f"{elo} {_ci(a['elo_ci95'], _elo)}".strip()


def standings_table(summary: dict):
    """The standings of ``summary`` as a rich renderable (a table, plus the SPRT state)."""
    done = summary["games"]
    title = f"{summary.get('game') or ''}: {done} of {summary['games_scheduled']} games"
    t = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    t.add_column("agent", style="bold")
    t.add_column("games", justify="right")
    t.add_column("W-D-L", justify="right")
    t.add_column("win rate (95% CI)", justify="right")
    t.add_column("fair", justify="right")
    t.add_column("decided", justify="right")
    t.add_column("Elo (95% CI)", justify="right")
    t.add_column("points/game", justify="right")
    t.add_column("forfeits", justify="right")
    rows = sorted(summary["agents"].items(), key=lambda kv: -(kv[1]["win_rate"] or 0.0))
    for name, a in rows:
        t.add_row(name, str(a["games"]), f"{a['wins']}-{a['draws']}-{a['losses']}",
                  f"{_pct(a['win_rate'])} {_ci(a['win_rate_ci95'], _pct)}",
                  _pct(a.get("fair_share")),
                  _pct(a["decided_win_rate"]),
                  _elo_cell(a),
                  "-" if a["points_per_game"] is None else f"{a['points_per_game']:.2f}",
                  str(a["forfeits"]))
    parts = [t]
    if len(summary.get("pairs", ())) > 1:
        p = Table(title="pairs (first agent's view, by finishing order)", title_justify="left",
                  show_edge=False, pad_edge=False)
        for col in ("pair", "games", "W-D-L", "points/game", "Elo (95% CI)"):
            p.add_column(col, justify="left" if col == "pair" else "right")
        for pr in summary["pairs"]:
            pts = pr.get("points_per_game")
            p.add_row(" vs ".join(pr["agents"]), str(pr["games"]), f"{pr['wins']}-{pr['draws']}-{pr['losses']}",
                      "-" if pts is None else f"{pts[0]:.2f} / {pts[1]:.2f}", _elo_cell(pr))
        parts.append(p)
    s = summary.get("sprt")
    if s:
        verdict = s["verdict"] or "running"
        parts.append(Text(f"SPRT elo0={s['elo0']:g} elo1={s['elo1']:g}: LLR {s['llr']:.2f} "
                          f"[{s['lower_bound']:.2f}, {s['upper_bound']:.2f}] {verdict}"))
    if summary.get("forfeits"):
        parts.append(Text(f"{summary['forfeits']} forfeited game(s)", style="yellow"))
    if summary.get("errors"):
        parts.append(Text(f"{summary['errors']} game(s) stopped and scored as draws: "
                          f"{'; '.join(summary.get('error_reasons', []))}", style="yellow"))
    return Group(*parts)
