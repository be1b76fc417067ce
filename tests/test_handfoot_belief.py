"""The Hand and Foot belief tracker against brute force on a reduced deck: the exact count of
consistent deals and every card type's marginal in every hidden place, computed here by
enumerating the hidden cards' compositions and replaying the record under the rules; the
sampler against the exact answer; the player's view of the pile and the cards known from
pickups."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial

import numpy as np
import pytest

from cardmind.agents import resolve_agent
from cardmind.agents.match import play_game
from cardmind.errors import IllegalAction
from cardmind.games.handfoot.belief import HandFootBelief
from cardmind.games.handfoot.rules import deck_counter
from cardmind.records import Record
from tests.hf_helpers import GAME

SMALL = {"players": 2, "cutthroat": True, "decks": 2, "ranks": "456", "suits": 2, "jokers": 1, "hand_size": 2,
         "hands": 1, "minimums": "0,0,0,0", "books_clean": 0, "books_dirty": 0, "pile_min": 2}
SMALL3 = dict(SMALL, players=3, decks=3, ranks="45", jokers=1, hand_size=2)


def sub_multisets(pool: Counter, size: int):
    """Every sub-multiset of ``pool`` with ``size`` cards."""
    kinds = sorted(c for c in pool if pool[c] > 0)
    for combo in combinations_with_replacement(kinds, size):
        cnt = Counter(combo)
        if all(cnt[c] <= pool[c] for c in cnt):
            yield cnt


def brute_force(rec: Record) -> tuple[int, dict[str, dict[str, dict[int, Fraction]]]]:
    """The consistent deals of ``rec`` (a player's record of one hand) by enumeration: every
    composition of the hidden groups (the others' hands, their draws, the feet, the rest of the
    stock), weighted by its number of physical deals (copies told apart), kept when the record
    replays legally with those cards. Returns the count and, per place, each card's count
    distribution (places: the others' holdings now, unpicked feet, the stock)."""
    opts = rec.options
    n, size, obs = opts["players"], opts["hand_size"], rec.observer
    events = rec.events
    own = Counter(rec.header["hand"])
    foot_picked = {}
    groups = []                          # (label, size): hidden groups in deal order
    for s in range(n):
        if s != obs:
            groups.append((("hand", s), size))
    for s in range(n):
        groups.append((("foot", s), size))
    draws = []                           # (player, count, cards or None) in order
    for e in events:
        if e["type"] == "draw":
            draws.append(e)
            if e["player"] == obs:
                own.update(e["cards"])
            else:
                groups.append((("draw", len(draws) - 1), e["count"]))
        if e["type"] == "foot":
            foot_picked[e["player"]] = e.get("cards")
    total_deck = deck_counter(opts)
    if obs in foot_picked:
        own.update(foot_picked[obs])
        groups = [g for g in groups if g[0] != ("foot", obs)]
    pool = total_deck - own
    rest = sum(pool.values()) - sum(sz for _, sz in groups)
    groups.append((("stock", None), rest))
    count = 0
    marg: dict[str, dict[str, Counter]] = {}

    def emit(assign: dict, weight: int):
        nonlocal count
        # build the complete header and events
        hands = [list(rec.header["hand"]) if s == obs else list(assign[("hand", s)].elements()) for s in range(n)]
        feet = [list(foot_picked[obs]) if (s == obs and obs in foot_picked) else list(assign[("foot", s)].elements())
                for s in range(n)]
        stock = []
        for i, d in enumerate(draws):
            stock += list(d["cards"]) if d["player"] == obs else list(assign[("draw", i)].elements())
        stock += list(assign[("stock", None)].elements())
        header = {"hands": hands, "feet": feet, "stock": stock, "deals": []}
        try:
            st = GAME.new_state(opts, header)
            k = 0
            for e in events:
                e = dict(e)
                if e["type"] == "draw" and e["player"] != obs:
                    e["cards"] = stock[k:k + e["count"]]
                if e["type"] == "draw":
                    k += e["count"]
                if e["type"] == "foot" and e["player"] != obs:
                    e["cards"] = sorted(feet[e["player"]])
                st.apply_event(e)
        except IllegalAction:
            return
        count += weight
        places = {str(s): Counter(st.zone[s]) for s in range(n) if s != obs}
        for s in range(n):
            if st.foot_sizes[s] and (s != obs or obs not in foot_picked):
                places[f"foot {s}"] = assign[("foot", s)]
        places["stock"] = Counter(stock[k:])
        for nm, cnt in places.items():
            for c in pool:
                marg.setdefault(nm, {}).setdefault(c, Counter())[cnt[c]] += weight

    base = 1
    for c, k in pool.items():
        base *= factorial(k)
    # the weight is prod_c N_c! / prod_g prod_c n_cg!, built as an exact Fraction
    def rec_frac(i: int, left: Counter, assign: dict, weight: Fraction):
        if i == len(groups):
            assert weight.denominator == 1
            emit(assign, int(weight))
            return
        label, sz = groups[i]
        for sub in sub_multisets(left, sz):
            w = 1
            for c, k in sub.items():
                w *= factorial(k)
            assign[label] = sub
            rec_frac(i + 1, left - sub, assign, weight / w)
        assign.pop(label, None)

    rec_frac(0, pool, {}, Fraction(base))
    out = {nm: {c: {k: Fraction(v, count) for k, v in d.items()} for c, d in per.items()} for nm, per in marg.items()}
    return count, out


def cuts(options: dict, seed: int, agents=("random", "random")):
    """Player records (seat 0) of a random game cut after each of seat 0's discards and at the end
    of others' turns: cut points where every turn is complete."""
    n = GAME.num_seats(GAME.parse_options(options))
    classes = [resolve_agent(agents[s % len(agents)], GAME) for s in range(n)]
    mr = play_game(GAME, options, classes, np.random.default_rng(seed), [np.random.default_rng([seed, s]) for s in range(n)])
    mine = mr.record.for_seat(0)
    out = []
    for i, e in enumerate(mine.events):
        if e["type"] in ("discard", "foot") and i + 1 < len(mine.events) and mine.events[i + 1]["type"] == "draw":
            out.append(Record(mine.game, mine.options, mine.header, mine.events[:i + 1], mine.path, mine.lines[:i + 1]))
    return out


@pytest.mark.parametrize("options,seed", [(SMALL, 1), (SMALL, 2), (SMALL3, 3)])
def test_exact_tracker_matches_brute_force(options, seed):
    recs = cuts(options, seed)
    assert recs
    checked = 0
    for rec in recs[:: max(1, len(recs) // 4)]:
        count, marg = brute_force(rec)
        t = HandFootBelief.from_record(rec, engine="exact", model="uniform")
        ans = t.answer()
        assert ans.exact and ans.count == count
        for place, per in marg.items():
            for c, dist in per.items():
                got = {k: v for k, v in ans.tokens[place][c].items() if v}
                assert got == dist, (place, c, got, dist)
        checked += 1
    assert checked >= 1


def test_constraints_shape_the_posterior():
    """A card a player laid or discarded was in its hand: the exact posterior is not the naive one
    that spreads the cards nobody has seen uniformly over the hidden places (a player known to
    have held a copy is, with no more said, less likely to hold another one)."""
    from cardmind.games.handfoot.counting import _hyper_pmf
    for rec in cuts(SMALL, 5):
        t = HandFootBelief.from_record(rec, engine="exact", model="uniform")
        st = t.structure()
        if not any(ln.needs() for ln in st.lines):
            continue
        count, marg = brute_force(rec)
        ans = t.answer()
        assert ans.count == count
        view = t.state
        unseen = deck_counter(rec.options) - view.visible()
        slots = sum(unseen.values())
        seat = st.lines[0].seat
        unknown = view.sizes[seat] - sum(view.known[seat].values())
        differs = False
        for c, k in unseen.items():
            naive = _hyper_pmf(slots, unknown, k)
            exact = {x - view.known[seat][c]: p for x, p in ans.tokens[str(seat)][c].items()}
            if any(abs(exact.get(x, 0) - naive.get(x, 0)) > 1e-12 for x in set(naive) | set(exact)):
                differs = True
        assert differs
        return
    pytest.fail("no record with a constrained play")


def test_sampler_agrees_with_the_exact_answer():
    recs = cuts(SMALL3, 7)
    rec = recs[len(recs) // 2]
    exact = HandFootBelief.from_record(rec, engine="exact", model="uniform").answer()
    samp = HandFootBelief.from_record(rec, engine="sampled", samples=600, seed=3, model="uniform").answer()
    assert not samp.exact and samp.stderr is not None
    worst = 0.0
    for place, per in exact.tokens.items():
        for c, dist in per.items():
            for k, p in dist.items():
                q = samp.tokens[place][c].get(k, 0.0)
                worst = max(worst, abs(float(p) - q))
    assert worst < 6 * max(samp.stderr, 0.01)


def test_pile_and_known_cards_in_the_view():
    from cardmind.records import read_record
    from pathlib import Path
    rec = read_record(Path(__file__).resolve().parent.parent / "examples" / "handfoot-4p.jsonl")
    t = HandFootBelief.from_record(rec, samples=40, worlds=30)
    obj = t.to_json()
    assert obj["pile"] == t.state.pile
    for s, cards in obj["known"].items():
        # every card known from a pickup is held with probability 1 (at least that many copies)
        for c, k in Counter(cards).items():
            assert sum(p for x, p in obj["holdings"][s][c].items() if int(x) >= k) == pytest.approx(1.0)
    sizes = obj["sizes"]
    for s in sizes:
        if int(s) != t.observer:
            assert sum(obj["expected"][s].values()) == pytest.approx(sizes[s], abs=1e-6)


def test_cli_belief_names_the_model_and_refuses_unknown_ones():
    import json as _json
    import subprocess
    import sys
    from pathlib import Path
    rec = Path(__file__).resolve().parent.parent / "examples" / "handfoot-4p.jsonl"
    out = subprocess.run([sys.executable, "-m", "cardmind", "belief", str(rec), "--json", "--upto", "40",
                          "--model", "fitted"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    obj = _json.loads(out.stdout)
    assert obj["model"] == "fitted" and 0 < obj["ess"] <= 60
    assert set(obj["next_turn"]) == {"0", "2", "3"} and 0 <= obj["partner_red_three"] <= 1
    bad = subprocess.run([sys.executable, "-m", "cardmind", "belief", str(rec), "--model", "nosuch"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "uniform, fitted" in bad.stderr and "Traceback" not in bad.stderr


def test_fitted_model_file_matches_its_features():
    from cardmind.games.handfoot.models import FEATURES, load
    m = load("fitted")
    assert tuple(m.features) == FEATURES and m.info["decisions"] > 1000
    # the fitted model says what peer does: it keeps wild cards and cards with companions
    w = dict(zip(m.features, m.weights))
    assert w["d_wild"] < -3 and w["d_companions"] < 0 and w["take"] > 0


def test_block_product_pool_room_gives_the_pool_contexts():
    """BlockProduct.pool_room (the room left for the pool, with its counts) answers a pool query
    as the pool contexts do: a pool item's seat is hypergeometric given the room."""
    from cardmind.belief.blocks import BlockProduct, multinomial
    caps = (3, 2, 4)
    blocks = [{(1, 1, 0): 2, (0, 1, 1): 2, (2, 0, 0): 1}, {(1, 0, 1): 1, (0, 0, 2): 1}]
    q = [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
    prod = BlockProduct(caps, blocks, pool_queries=[q], tables=True, engine="python")
    rooms = prod.pool_room()
    assert sum(rooms.values()) == prod.total
    for e, ctx in prod.pool_contexts[0].items():
        seat = e.index(1)
        via_rooms = sum(Fraction(n, prod.total) * Fraction(room[seat], sum(room)) for room, n in rooms.items())
        assert via_rooms == Fraction(multinomial(e) * ctx, prod.total)


def test_cli_hint_shows_the_players_cards():
    """``cardmind hint`` shows the observer's cards now (its hand or foot), in the text and in
    the JSON (``your_cards``, ``in_foot``), as the cards the player's record says it holds."""
    import json as _json
    import subprocess
    import sys
    from pathlib import Path

    from cardmind.records import read_record
    path = Path(__file__).resolve().parent.parent / "examples" / "handfoot-4p.jsonl"
    t = HandFootBelief.from_record(read_record(path), samples=10, worlds=10)
    held = sorted((t.state.zone[t.observer] or Counter()).elements())
    out = subprocess.run([sys.executable, "-m", "cardmind", "hint", str(path), "--json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    obj = _json.loads(out.stdout)
    assert sorted(obj["your_cards"]) == held and obj["in_foot"] == bool(t.state.in_foot[t.observer])
    text = subprocess.run([sys.executable, "-m", "cardmind", "hint", str(path)], capture_output=True, text=True).stdout
    assert f"Your {'foot' if obj['in_foot'] else 'hand'} ({len(held)} cards): {' '.join(obj['your_cards'])}" in text


# ---------------------------------------------------------------------------- honest numbers (issue 24)
def _complete_example():
    from pathlib import Path
    from cardmind.records import read_record
    return read_record(Path(__file__).resolve().parent.parent / "examples" / "handfoot-4p-complete.jsonl")


@pytest.mark.parametrize("upto", [0, 1, 3])
def test_first_turn_expected_cards_are_symmetric_and_exact_where_cheap(upto):
    """At the first turn of a hand symmetric places hold the same expected cards of each kind,
    within 2 points (the issue's test: 4s in foot 0 and foot 3, seat 0 and seat 3). ``upto`` 0
    (before seat 0 draws) and 1 (after its draw): the exact engine answers, the values are the
    hypergeometric ones and the table says 'exact'. 3 (seat 0 melded and discarded: seat 1's
    first turn): the sampler answers, seats 2 and 3, which have not played, and the feet share
    their cards' total exactly; the table says 'sampled'."""
    from cardmind.hints import hint_for
    from rich.console import Console
    rec = _complete_example()
    view = rec.for_seat(1)
    t = HandFootBelief.from_record(Record(view.game, dict(view.options), dict(view.header), view.events[:upto],
                                          view.path, []))
    h = hint_for(t)
    obj = h.to_json()
    k = obj["kinds"]
    own4 = sum(1 for c in view.header["hand"] if c[0] == "4")
    hyper = 11 * (20 - own4) / (270 - 11)           # 20 fours in five decks, 259 cards unseen
    for kind in ("4", "W", "R3"):
        assert abs(k["foot 0"][kind] - k["foot 3"][kind]) < 0.02
        assert abs(k["seat 2"][kind] - k["seat 3"][kind]) < 0.02
        assert k["foot 0"][kind] == k["foot 2"][kind] == k["foot 1"][kind]
    buf = __import__("io").StringIO()
    h.render(Console(file=buf, width=200), show_table=True)
    if upto <= 1:
        assert t.mode == "exact" and obj["kinds_exact"] and obj["kinds_se"] is None
        held0 = 11 if upto == 0 else 13                  # seat 0 drew two
        assert k["seat 0"]["4"] == pytest.approx(hyper * held0 / 11, abs=1e-3)
        assert k["foot 0"]["4"] == pytest.approx(hyper, abs=1e-3)
        assert k["seat 3"]["4"] == pytest.approx(hyper, abs=1e-3)
        assert "Expected cards of each kind in the hidden places (exact)" in buf.getvalue()
    else:
        assert t.mode == "sampled" and not obj["kinds_exact"]
        assert k["foot 0"]["4"] == pytest.approx(k["seat 3"]["4"], abs=0.02)      # 11 unconstrained cards each
        assert "Expected cards of each kind in the hidden places (sampled)" in buf.getvalue()


def test_sampled_expected_cards_say_so_with_standard_errors():
    """Later in a hand (the sampler answers) the table says 'sampled', --verbose shows a ± after
    every expectation and the JSON carries them (``kinds_se``) and every sampled chance's
    standard error; the unpicked feet are exchangeable, so their expectations are equal."""
    from cardmind.hints import hint_for
    rec = _complete_example()
    view = rec.for_seat(1)
    t = HandFootBelief.from_record(Record(view.game, dict(view.options), dict(view.header), view.events[:60],
                                          view.path, []), engine="sampled")
    h = hint_for(t)
    obj = h.to_json()
    assert not obj["kinds_exact"] and obj["kinds_se"]["seat 0"]["4"] > 0
    feet = [p for p in obj["kinds"] if p.startswith("foot ")]
    assert len(feet) >= 2 and len({obj["kinds"][p]["4"] for p in feet}) == 1
    se = obj["standard_errors"]
    n = min(obj["worlds"], obj["ess"]) if obj["ess"] else obj["worlds"]    # a model: its effective worlds
    for s, c in obj["chances"].items():
        for key in ("open", "foot", "out"):
            p = c[key]
            assert se["chances"][s][key] == pytest.approx((p * (1 - p) / n) ** 0.5)
    from rich.console import Console
    buf = __import__("io").StringIO()
    h.render(Console(file=buf, width=300), show_table=True, verbose=True)
    text = buf.getvalue()
    assert "(sampled, ± a standard error)" in text and " ± " in text


# ---------------------------------------------------------------------------- the auto model (issue 24)
def test_auto_is_the_default_and_reads_each_seat_from_its_choices():
    """``auto`` is the first model (the default) and the tracker's default. At the start of a
    hand no seat has chosen anything: every seat counts alike, and the answer is the exact
    constraint-only one. Later in the example (peer players), each seat whose recent draws and
    discards the fitted model explains better than chance is weighed by it: the expected cards
    then differ from ``uniform``'s, and the advice says whom it weighs how, in words."""
    import io
    from rich.console import Console
    from cardmind.hints import hint_for
    assert GAME.player_models()[0] == "auto" and {"uniform", "fitted"} <= set(GAME.player_models())
    rec = _complete_example()
    view = rec.for_seat(1)

    def tracker(upto, **kw):
        return HandFootBelief.from_record(Record(view.game, dict(view.options), dict(view.header),
                                                 view.events[:upto], view.path, []), **kw)

    t0 = tracker(0)
    assert t0.model == "auto" and set(t0.seat_models().values()) == {"uniform"} and not t0.weighted
    assert t0.mode == "exact" and t0.answer().exact
    t = tracker(60)
    per = t.seat_models()
    fit = t.seat_fit()
    assert set(per) == {0, 2, 3}
    for s, m in per.items():
        if s in fit:
            assert (m == "fitted") == (fit[s]["fitted"] > fit[s]["random"] + 1e-9)
    assert "fitted" in per.values() and t.weighted
    u = tracker(60, model="uniform")
    ma, _ = t.kind_means()
    mu, _ = u.kind_means()
    assert max(abs(ma[p][k] - mu[p][k]) for p in ("0", "2", "3") for k in ma[p]) > 0.05
    t.model = "uniform"                     # as the protocol's model parameter does: nothing stale
    assert t.kind_means()[0] == mu and not t.weighted
    t.model = "auto"
    assert t.kind_means()[0] == ma
    h = hint_for(t)
    obj = h.to_json()
    assert obj["model"] == "auto" and obj["seat_models"] == {str(k): v for k, v in sorted(per.items())}
    assert 0 < obj["ess"] <= obj["worlds"]
    buf = io.StringIO()
    h.render(Console(file=buf, width=200), show_table=False)
    text = buf.getvalue()
    fitted = sorted(s for s, m in per.items() if m == "fitted")
    assert "Chances weigh seat" in text and all(str(s) in text.split("Chances weigh")[1] for s in fitted)
