"""A ceiling for the Go Fish strength target "belief beats random in 95% of two-player games".

An **oracle** that reads hidden cards (so no legal player can do better by knowing more)
plays two-player Go Fish against ``random`` (a uniformly random legal action each turn):

* ``hand``: it sees the opponent's hand; it asks for a rank the opponent certainly holds
  (the one that gives it the most cards of that rank), else the rank with the most cards
  left in the stock (the best chance of a lucky draw);
* ``stock``: it also sees the order of the stock and, with no certain hit, asks for the rank
  of the next card when it holds that rank (a refusal then draws it and keeps the turn).

The oracle is greedy, not optimal; its win rate shows how much of two-player Go Fish is the
luck of the deal and the draws. It is an evaluation tool only: it reads the complete state,
which a cardmind agent never sees, so it is not registered as an agent.

Against ``peer`` (``--opponent peer``) the games go through cardmind's referee
(:func:`~cardmind.agents.match.play_game`): the oracle is an agent that keeps the complete
state beside its view (it knows the deal, so it fills in the opponent's unseen draws and the
ranks of face-down books).

    python eval/gofish_ceiling.py --games 2000                    # the figures in docs/strength.md
    python eval/gofish_ceiling.py --games 800 --opponent peer
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardmind.agents.base import Agent, resolve_agent  # noqa: E402
from cardmind.agents.match import play_game  # noqa: E402
from cardmind.core import get_game  # noqa: E402
from cardmind.games.gofish import Ask  # noqa: E402
from cardmind.tournament.ratings import wilson_interval  # noqa: E402

GAME = get_game("gofish")


def oracle_action(state, seat: int, actions: list, sees_stock: bool):
    """The oracle's choice among ``actions`` (legal actions of ``seat`` in the complete ``state``)."""
    asks = [a for a in actions if isinstance(a, Ask)]
    if not asks:
        return actions[0]  # the card to hand over, or laying dealt books: no real choice
    mine: dict[str, int] = {}
    for c in state.hands[seat]:
        mine[c[0]] = mine.get(c[0], 0) + 1
    stock = state.stock or []
    best, best_v = None, None
    for a in asks:
        theirs = sum(1 for c in state.hands[a.target] if c[0] == a.rank)
        if theirs:
            v = (2, mine[a.rank] + theirs)
        elif sees_stock and stock and stock[0][0] == a.rank:
            v = (1, mine[a.rank])
        else:
            v = (0, sum(1 for c in stock if c[0] == a.rank) / max(1, len(stock)))
        if best_v is None or v > best_v:
            best, best_v = a, v
    return best


def play(k: int, sees_stock: bool, options: dict) -> float:
    """Game ``k`` (deal ``default_rng(k)``); the oracle sits at seat ``k % 2``. Returns its outcome."""
    st, _ = GAME.initial_state(options, np.random.default_rng(k))
    rng = np.random.default_rng([k, 9])
    oracle = k % 2
    while not st.is_over():
        s = st.to_move()
        acts = st.legal_actions(s)
        a = oracle_action(st, s, acts, sees_stock) if s == oracle else acts[int(rng.integers(len(acts)))]
        st.apply_action(a)
    return st.result().outcome[oracle]


class OracleAgent(Agent):
    """The oracle as an agent for the referee: ``full`` is the complete state of its game,
    kept in step with the events it observes (evaluation only; never registered)."""

    name = "oracle"
    games = ("gofish",)

    def __init__(self, game, seat, options, header, full, sees_stock: bool):
        super().__init__(game, seat, options, header)
        self.full = full
        self.sees_stock = sees_stock

    def observe(self, event) -> None:
        super().observe(event)
        ev = dict(event)
        if ev["type"] == "draw" and ev["card"] is None:
            ev["card"] = self.full.stock[0]
        if ev["type"] == "book" and ev.get("rank") is None:
            held = [c[0] for c in self.full.hands[ev["player"]]]
            ev["rank"] = next(r for r in self.full.ranks if held.count(r) == self.full.nsuits)
        self.full.apply_event(ev)

    def notice(self, info) -> None:
        super().notice(info)
        self.full.apply_pending_notice(dict(info))

    def act(self, rng: np.random.Generator):
        return oracle_action(self.full, self.seat, self.full.legal_actions(self.seat), self.sees_stock)


def play_against(k: int, opponent: str, sees_stock: bool, options: dict) -> float:
    """Game ``k`` against the agent ``opponent`` through the referee (deal ``default_rng(k // 2)``,
    each deal played from both seats); the oracle sits at seat ``k % 2``. Returns its outcome."""
    opp = resolve_agent(opponent, GAME)
    full, _ = GAME.initial_state(options, np.random.default_rng(k // 2))
    oracle = k % 2
    facs = [(lambda g, s, o, h: OracleAgent(g, s, o, h, full, sees_stock)) if s == oracle
            else (lambda g, s, o, h: opp(g, s, o, h)) for s in range(2)]
    res = play_game(GAME, options, facs, np.random.default_rng(k // 2), [np.random.default_rng([k, s]) for s in range(2)])
    if res.result is None:
        raise RuntimeError(f"game {k}: seat {res.forfeit} forfeited: {res.forfeit_reason}")
    return res.result.outcome[oracle]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--opponent", default="random",
                    help="random (the fast loop) or a Go Fish agent name, e.g. peer (through the referee)")
    args = ap.parse_args(argv)
    for mode in ("hand", "stock"):
        if args.opponent == "random":
            res = [play(k, mode == "stock", {"players": 2}) for k in range(args.games)]
        else:
            res = [play_against(k, args.opponent, mode == "stock", {"players": 2}) for k in range(args.games)]
        wins = sum(1 for x in res if x == 1)
        draws = sum(1 for x in res if x == 0.5)
        rate = (wins + 0.5 * draws) / len(res)
        lo, hi = wilson_interval(wins + 0.5 * draws, len(res))
        print(f"oracle seeing the opponent's hand{' and the stock' if mode == 'stock' else ''} v {args.opponent}, "
              f"{len(res)} games: {wins} wins, {draws} draws, win rate {rate:.1%} [{lo:.1%}, {hi:.1%}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
