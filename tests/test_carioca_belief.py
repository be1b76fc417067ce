"""Contract rummy belief: the exact constraint-only posterior against a brute-force
enumeration of every history on a small pack (the deal, the restock shuffles, which copy each
shown card was), at every point of simulated hands with takes, steals, hidden draws, penalty
cards and restocks; the sampler against the exact marginals; the opponents' chances."""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from math import factorial

import numpy as np
import pytest

from cardmind.agents.base import resolve_agent
from cardmind.agents.match import play_game
from cardmind.belief import tracker_for
from cardmind.core import get_game
from cardmind.games.carioca.rules import deck_cards

GAME = get_game("carioca")

SMALL = [
    # 3 players, 8 cards (A-4 of clubs, two decks): 2 each, 1 turned up, a 1-card stock
    ({"players": 3, "decks": 2, "ranks": 4, "suits": 1, "jokers": 0, "hand_size": 2, "hands": 1,
      "restocks": 2}, 3),
    # 2 players, 10 cards (A-4 of clubs and diamonds, two jokers): 3 each, a 3-card stock
    ({"players": 2, "decks": 1, "ranks": 4, "suits": 2, "jokers": 2, "hand_size": 3, "hands": 1,
      "restocks": 1}, 5),
    # 3 players, two decks of A-4 of clubs and a joker: copies, steals, restocks
    ({"players": 3, "decks": 2, "ranks": 4, "suits": 1, "jokers": 1, "hand_size": 2, "hands": 1,
      "restocks": 1}, 10),
]


def brute_force(options: dict, header: dict, seat: int, events: list[dict]):
    """Every history of the view: the unseen physical cards dealt in every order, every order of
    every restock, and which physical copy each shown card was. Returns the total weight (ordered
    deal and stock), per other seat its hand tokens, and the stock, summed by weight."""
    opts = GAME.parse_options(options)
    pack = list(deck_cards(opts))
    tok = dict(enumerate(pack))
    n = opts["players"]
    size = opts["hand_size"]
    mine = Counter(header["hand"])
    up = header["up"]
    ids = list(tok)
    own, rest = [], []
    need = Counter(mine)
    need[up] += 0
    upid = None
    for i in ids:
        if need[tok[i]] > 0:
            own.append(i)
            need[tok[i]] -= 1
        elif upid is None and tok[i] == up:
            upid = i
        else:
            rest.append(i)
    others = [s for s in range(n) if s != seat]
    results = []

    def run(hands, stock, pile, k, w):
        if k == len(events):
            results.append((w, {s: Counter(tok[i] for i in hands[s]) for s in others}, Counter(tok[i] for i in stock)))
            return
        ev = events[k]
        t = ev["type"]
        p = ev.get("player")
        hands = {s: list(h) for s, h in hands.items()}
        stock, pile = list(stock), list(pile)
        if t == "pass":
            return run(hands, stock, pile, k + 1, w)
        if t in ("take", "steal"):
            hands[p].append(pile.pop())
            if t == "steal":
                pen = opts["steal_penalty"]
                got = stock[:pen]
                del stock[:pen]
                if p == seat and [tok[i] for i in got] != ev["penalty"]:
                    return
                hands[p].extend(got)
            return run(hands, stock, pile, k + 1, w)
        if t == "draw":
            i = stock.pop(0)
            if p == seat and tok[i] != ev["card"]:
                return
            hands[p].append(i)
            return run(hands, stock, pile, k + 1, w)
        if t == "restock":
            below = pile[:-1]
            for perm in permutations(below):
                run(hands, stock + list(perm), pile[-1:], k + 1, w)
            return
        shown = []
        if t == "discard":
            shown = [(p, ev["card"], "pile")]
        elif t == "lay_off":
            shown = [(p, ev["card"], None)]
        elif t == "go_down":
            shown = [(p, c, None) for m in ev["melds"] for c in m["cards"]]
        elif t == "hand_end":
            shown = [(s, c, None) for s in others for c in ev["hands"][s]]
        for s, c, where in shown:
            match = [i for i in hands[s] if tok[i] == c]
            if not match:
                return
            if s != seat:
                w *= len(match)
            hands[s].remove(match[0])
            if where == "pile":
                pile.append(match[0])
        return run(hands, stock, pile, k + 1, w)

    for perm in permutations(rest):
        hands = {seat: list(own)}
        pos = 0
        for s in others:
            hands[s] = list(perm[pos:pos + size])
            pos += size
        run(hands, list(perm[pos:]), [upid], 0, 1)
    return results


def _games(options, seeds):
    rnd = resolve_agent("random", GAME)
    out = []
    for seed in seeds:
        res = play_game(GAME, options, [rnd] * options["players"], np.random.default_rng(seed),
                        [np.random.default_rng([seed, s]) for s in range(options["players"])], max_actions=400)
        out.append(res.record)
    return out


@pytest.mark.parametrize("options,seed", SMALL)
def test_exact_posterior_matches_brute_force(options, seed):
    rec = _games(options, [seed])[0]
    kinds = Counter(e["type"] for e in rec.events)
    assert kinds["draw"] > 0 and kinds["discard"] > 0
    n = options["players"]
    checked = 0
    for seat in range(n):
        view = rec.for_seat(seat)
        for k in range(0, len(view.events) + 1, max(1, len(view.events) // 12)):
            tr = tracker_for(rec, seat, upto_event=k)
            res = brute_force(options, view.header, seat, view.events[:k])
            total = sum(w for w, _, _ in res)
            assert total > 0
            # the count: the brute force orders the dealt hands and what is left of each stock
            f = tr.filter
            scale = factorial(options["hand_size"]) ** (n - 1)
            for s_left in f.stock:
                scale *= factorial(s_left)
            assert tr.consistent_deals * scale == total, (seat, k)
            hold = tr.holdings_exact()
            known = tr.state.known
            for c in set(hold) | {c for _, hs, st in res for h in list(hs.values()) + [st] for c in h}:
                for s in [x for x in range(n) if x != seat]:
                    e = sum(w * hs[s][c] for w, hs, _ in res) / total
                    p_more = sum(w for w, hs, _ in res if hs[s][c] > known[s][c]) / total
                    got = hold.get(c, {}).get(str(s), {"expected": 0.0, "p_any": 0.0})
                    assert got["expected"] + known[s][c] == pytest.approx(e, abs=1e-12), (seat, k, c, s)
                    assert got["p_any"] == pytest.approx(p_more, abs=1e-12), (seat, k, c, s)
                e = sum(w * st[c] for w, _, st in res) / total
                p_any = sum(w for w, _, st in res if st[c] > 0) / total
                got = hold.get(c, {}).get("stock", {"expected": 0.0, "p_any": 0.0})
                assert got["expected"] == pytest.approx(e, abs=1e-12) and got["p_any"] == pytest.approx(p_any, abs=1e-12)
            checked += 1
    assert checked >= 3 * n


def test_restocks_and_steals_are_covered():
    """The small games above do restock and steal (else the brute force proves little)."""
    seen = Counter()
    for options, seed in SMALL:
        rec = _games(options, [seed])[0]
        seen.update(e["type"] for e in rec.events)
    assert seen["restock"] >= 1 and seen["steal"] >= 1 and seen["take"] >= 1


def test_sampled_worlds_follow_the_exact_posterior():
    options = {"players": 4}
    peer = resolve_agent("peer", GAME)
    res = play_game(GAME, options, [peer] * 4, np.random.default_rng(8), [np.random.default_rng(s) for s in range(4)])
    rec = res.record
    tr = tracker_for(rec, 2, upto_event=60)
    hold = tr.holdings_exact()
    worlds = tr.sample_worlds(3000, np.random.default_rng(0))
    st = tr.state
    for hands, stock in worlds[:50]:
        assert sum(len(h) for h in hands) + len(stock) + len(st.pile) + sum(st.table_counts().values()) == 108
        assert [len(h) for h in hands] == st.sizes and len(stock) == st.stock_count
    for c in list(hold)[:20]:
        for s in (0, 1, 3):
            freq = np.mean([Counter(h[s])[c] > st.known[s][c] for h, _ in worlds])
            p = hold[c][str(s)]["p_any"]
            assert abs(freq - p) < 4 * np.sqrt(p * (1 - p) / 3000) + 1e-9


def test_a_contradiction_names_the_event(tmp_path):
    """A player's record the rules accept but no history fits: after a restock the stock holds
    only the restocked discards, so drawing any other card is impossible. ``cardmind validate``
    names the line."""
    import json

    from cardmind.cli import main

    for options, seed in SMALL + [(SMALL[1][0], s) for s in range(12)]:
        rec = _games(options, [seed])[0]
        for seat in range(options["players"]):
            view = rec.for_seat(seat)
            restocked = None
            for i, e in enumerate(view.events):
                if e["type"] == "restock":
                    tr = tracker_for(view, seat, upto_event=i)
                    restocked = Counter(tr.state.pile[:-1])
                if restocked is not None and e["type"] == "draw" and e["player"] == seat:
                    tr = tracker_for(view, seat, upto_event=i)
                    located = Counter(tr.state.pile) + tr.state.hands[seat] + tr.state.table_counts()
                    for k in tr.state.known:
                        located += k
                    pack = Counter(deck_cards(tr.options))
                    others = [c for c in pack if c not in restocked and pack[c] > located[c]]
                    if not others:
                        continue
                    bad = [dict(x) for x in view.events]
                    bad[i]["card"] = others[0]
                    p = tmp_path / "bad.jsonl"
                    p.write_text("\n".join(json.dumps(x) for x in [view.header] + bad[:i + 1]) + "\n")
                    from cardmind.records import read_record

                    read_record(p)          # the rules alone accept it
                    assert main(["validate", str(p)]) == 2
                    with pytest.raises(Exception) as exc:
                        tracker_for(read_record(p), seat)
                    assert f":{i + 2}:" in str(exc.value) and "consistent" in str(exc.value)
                    return
    pytest.fail("no restock followed by the observer's draw in the small games")


def _round_ahead_position():
    """Seat 0 (the observer) took the 2D turned up and will discard its king (its
    highest-scoring loose card) in hand 1 (two sets)."""
    tr = tracker_for_hand(0, ["KS", "3C", "4D", "5S", "8C", "9H"], "2D")
    tr.observe({"type": "take", "player": 0, "card": "2D"})
    return tr


def tracker_for_hand(seat, hand, up):
    from cardmind.games.carioca.belief import CariocaBelief

    return CariocaBelief({"players": 4}, seat, hand, up=up, model="uniform", samples=20)


STOCK = ["3H", "4S", "5D", "6C", "8D", "9C", "TH", "JD"] * 5


def test_the_chance_to_go_down_counts_a_take_of_the_next_discard():
    """Seat 1 needs a king; seat 0's discard will be its king: seat 1 takes it on its turn and
    goes down (and out). Counting only the stock card it would draw says it cannot."""
    tr = _round_ahead_position()
    hands = [sorted(tr.state.hands[0].elements()), ["7H", "7S", "7D", "KC", "KD", "2C"],
             ["2H", "3S", "4C", "5H", "6D", "9S"], ["2S", "3D", "4H", "5C", "6H", "9C"]]
    got = tr.round_ahead(hands, STOCK)
    assert got[1] == (1.0, 1.0)
    assert got[2] == (0.0, 0.0) and got[3] == (0.0, 0.0)
    # the old count: seat 1's hand and the stock card it would draw
    assert tr._outcomes(1, Counter(hands[1]), tr._extra_cards(1, STOCK)) == (0.0, 0.0)
    # the sampled chance reads the table played forward in every world
    tr.sample_worlds = lambda k, rng: [(hands, STOCK)] * k
    opp = tr.opponent_chances()
    assert opp[1]["p_go_down"] == 1.0 and opp[1]["p_go_out"] == 1.0 and opp[2]["p_go_down"] == 0.0


def test_the_chance_to_go_down_counts_a_steal_before_its_turn():
    """Seat 1 does not want seat 0's king; seat 2, a king short, steals it (with a penalty card)
    and goes down on its turn, keeping the penalty card and its draw."""
    tr = _round_ahead_position()
    hands = [sorted(tr.state.hands[0].elements()), ["2H", "3S", "4C", "5H", "6D", "9S"],
             ["7H", "7S", "7D", "KC", "KD", "JC"], ["2S", "3D", "4H", "5C", "6H", "9C"]]
    got = tr.round_ahead(hands, STOCK)
    assert got[2] == (1.0, 0.0)      # down with 777 KKK, three cards left (JC, the penalty, the draw)
    assert got[1] == (0.0, 0.0)
    assert tr._outcomes(2, Counter(hands[2]), tr._extra_cards(2, STOCK)) == (0.0, 0.0)
    # a king that seat 1 wants is taken by seat 1 first: seat 2 has no steal, and no king
    hands[1] = ["KH", "KC", "4C", "5H", "6D", "9S"]
    hands[2] = ["7H", "7S", "7D", "KD", "QD", "JC"]
    got = tr.round_ahead(hands, STOCK)
    assert got[2][0] == 0.0
