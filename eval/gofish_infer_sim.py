"""What the inference from the others' guesses is worth, measured without the belief tracker.

The ``belief`` player's setting ``infer`` (``cardmind/games/gofish/agents/belief.py``) assumes that
a player who guesses holds none of the ranks another player is publicly known to hold (a
memory player such as ``peer`` would have asked for one of those: a certain hit). This study
isolates that idea: a count-level ``peer`` (:func:`cardmind.games.gofish.decide.peer_ask`)
that adds the same inference to its own memory ("known to lack the rank", cleared by the
cards the guesser then draws unseen, as ``peer`` forgets a refusal) plays against plain
``peer`` players, one seat rotation per deal, in the look-ahead's count-level play-outs
(:func:`cardmind.games.gofish.decide.play_out`, default options: ``give: "one"``, books
face down).
A play-out takes about a millisecond, so thousands of games take seconds.

    python eval/gofish_infer_sim.py --players 2 --games 3000
    python eval/gofish_infer_sim.py --players 4 --games 1500

Prints the score of the inferring seat (a win 1, a shared first place 1/k), its standard
error over deals, and the same for plain ``peer`` in that seat (exactly parity: the check).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardmind.games.gofish.decide import Memory, peer_ask, play_out

R, S, H = 13, 4, 6


class Seat:
    """A count-level ``peer``; with ``infer``, its private "known to lack" marks per other
    seat and rank (``-1`` none, else the unseen cards that seat drew since)."""

    def __init__(self, seat: int, n: int, infer: bool):
        self.seat, self.infer = seat, infer
        self.inf = [[-1] * R for _ in range(n)]

    def ask(self, p: int, t: int, r: int, mem: Memory, sizes: list[int]) -> None:
        if not self.infer or p == self.seat:
            return
        if mem.lo[t][r] == 0:   # a guess: p holds no rank a seat with cards is known to hold
            for s in range(len(sizes)):
                if s != p and sizes[s]:
                    for x in range(R):
                        if mem.lo[s][x] > 0:
                            self.inf[p][x] = 0
        self.inf[p][r] = -1

    def draw_unseen(self, p: int) -> None:
        if p != self.seat:
            self.inf[p] = [v + 1 if v >= 0 else v for v in self.inf[p]]

    def shown(self, p: int, r: int) -> None:
        self.inf[p][r] = -1

    def act(self, p, hands, sizes, stock_left, mem, targets, rnd):
        if self.infer:   # the memory plus the inferred absences
            mem = mem.copy()
            for o, row in enumerate(self.inf):
                for r, v in enumerate(row):
                    if o != self.seat and v >= 0 and (mem.lacks[o][r] < 0 or v < mem.lacks[o][r]):
                        mem.lacks[o][r] = v
        return peer_ask(p, hands, sizes, stock_left, mem, S, targets, rnd)


class Table:
    """Tells every seat what happens (the ``watch`` of :func:`play_out`)."""

    def __init__(self, seats: list[Seat]):
        self.seats = seats

    def ask(self, *args) -> None:
        for a in self.seats:
            a.ask(*args)

    def draw_unseen(self, p: int) -> None:
        for a in self.seats:
            a.draw_unseen(p)

    def shown(self, p: int, r: int) -> None:
        for a in self.seats:
            a.shown(p, r)


def play(seats: list[Seat], deal_seed: int) -> list[int]:
    """One game of count-level Go Fish phase 1 (seat 0 first, :func:`play_out`); the books
    per seat."""
    n = len(seats)
    rnd = random.Random(deal_seed)
    deck = [r for r in range(R) for _ in range(S)]
    rnd.shuffle(deck)
    hands = [[0] * R for _ in range(n)]
    for s in range(n):
        for c in deck[s * H:(s + 1) * H]:
            hands[s][c] += 1
    mem = Memory([[0] * R for _ in range(n)], [[-1] * R for _ in range(n)])

    def policy(p, hands, sizes, stock_left, mem, S, targets, rnd):
        return seats[p].act(p, hands, sizes, stock_left, mem, targets, rnd)

    return play_out(hands, deck[n * H:], [0] * n, mem, 0, S, random.Random(deal_seed * 7 + 1),
                    policy=policy, watch=Table(seats))


def score(players: int, games: int, seed: int, infer: bool) -> tuple[float, float]:
    """Mean score of the tested seat over every seat rotation of ``games`` deals, and its
    standard error over deals."""
    per_deal = []
    for g in range(games):
        tot = 0.0
        for me in range(players):
            books = play([Seat(s, players, infer and s == me) for s in range(players)], seed * 1_000_003 + g)
            top = max(books)
            tot += 1.0 / books.count(top) if books[me] == top else 0.0
        per_deal.append(tot / players)
    m = sum(per_deal) / games
    sd = math.sqrt(sum((x - m) ** 2 for x in per_deal) / (games - 1))
    return m, sd / math.sqrt(games)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=2000, help="deals (each played in every seat rotation)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    for infer in (True, False):
        m, se = score(a.players, a.games, a.seed, infer)
        name = "peer + inference" if infer else "peer (check: parity)"
        print(f"{a.players} players, {a.games} deals: {name}: {m:.4f} +- {se:.4f} (parity {1 / a.players:.4f})")


if __name__ == "__main__":
    main()
