"""The Go Fish player model (:mod:`cardmind.games.gofish.models`): the ``peer`` ask model is the
maximum-likelihood fit its file says, it predicts ``peer``'s asks far better than chance, and
the tracker's posterior weighted by it (``GoFishBelief(model="peer")``, two players) equals a
brute force that weighs every consistent deal by the model's likelihood of each ask the other
player made, computed from that deal's hands (reduced decks, every prefix). The CLI's
``--model`` names the model used."""

from __future__ import annotations

import json
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cardmind.agents import resolve_agent  # noqa: E402
from cardmind.agents.match import play_game  # noqa: E402
from cardmind.belief.models import SoftmaxChoice  # noqa: E402
from cardmind.core import get_game  # noqa: E402
from cardmind.errors import IllegalAction  # noqa: E402
from cardmind.games.gofish import models  # noqa: E402
from cardmind.games.gofish.belief import GoFishBelief  # noqa: E402
from cardmind.games.gofish.rules import deck_cards, game_ranks  # noqa: E402

GAME = get_game("gofish")
ROOT = Path(__file__).resolve().parent.parent


def test_fitted_model_file():
    """The file holds a softmax over the ask features, fitted on many decisions, whose mean
    log-likelihood per decision is far above the uniform model's; a refit on a few games
    gives weights of the same signs where they are clearly away from 0."""
    m = models.load("peer")
    assert isinstance(m, SoftmaxChoice) and m.features == models.ASK_FEATURES
    info = m.info
    assert info["decisions"] > 5000 and info["converged"]
    assert info["mean_log_likelihood"] > info["uniform_log_likelihood"] / info["decisions"] + 0.8
    refit = models.fit_ask_model(12, seed=99)
    for w, se, r in zip(m.weights, info["stderr"], refit.weights):
        if abs(w) > 4 * se + 1.0:
            assert np.sign(r) == np.sign(w)
    assert isinstance(models.load("uniform"), models.UniformChoice)
    with pytest.raises(ValueError, match="unknown Go Fish player model"):
        models.load("bogus")
    with pytest.raises(ValueError, match="unknown Go Fish player model"):
        GoFishBelief({"players": 2}, 0, ["2C"] * 1, model="bogus")


def _weighted_bruteforce(options: dict, observer: int, hand: list, events: list, ask_ctx: dict) -> tuple:
    """``(total weight, {(seat or "stock", rank): {count: weight}})`` over the consistent deals
    of the whole record, each weighted by the model's likelihood of every ask of ``ask_ctx``
    (event index -> (model, context, rank index)) from the asker's hand in that deal."""
    opts = GAME.parse_options(options)
    n, H = opts["players"], opts["hand"]
    ranks = game_ranks(opts)
    unknown = [c for c in deck_cards(opts) if c not in hand]
    other = 1 - observer
    total = 0.0
    hold: dict = {}

    def replay(st, L: int, w: float) -> None:
        nonlocal total
        if L == len(events):
            total += w
            for r in ranks:
                for s in range(n):
                    hold.setdefault((s, r), Counter())[sum(1 for c in st.hands[s] if c[0] == r)] += w
                hold.setdefault(("stock", r), Counter())[sum(1 for c in st.stock if c[0] == r)] += w
            return
        ev = events[L]
        if L in ask_ctx:
            model, ctx, ri = ask_ctx[L]
            counts = np.array([[sum(1 for c in st.hands[ev["asker"]] if c[0] == r) for r in ranks]])
            w = w * float(np.exp(models.log_likelihood(model, ctx, counts, ri)[0]))
        if ev["type"] == "draw":
            choices = [ev["card"]] if ev["card"] is not None else list(st.stock)
            for card in choices:
                if card not in st.stock:
                    continue
                st2 = st.copy()
                st2.stock.remove(card)
                st2.stock.insert(0, card)
                step(st2, dict(ev, card=card), ev, L, w)
            return
        full = dict(ev)
        if ev["type"] == "book" and ev["rank"] is None:
            p = ev["player"]
            if st.opening:
                if not st.unlaid[p]:
                    return
                full["rank"] = st.unlaid[p][0]
            else:
                cnt = Counter(c[0] for c in st.hands[p])
                full_ranks = [r for r, k in cnt.items() if k == opts["suits"]]
                if len(full_ranks) != 1:
                    return
                full["rank"] = full_ranks[0]
        step(st.copy(), full, ev, L, w)

    def step(st, full: dict, ev: dict, L: int, w: float) -> None:
        try:
            st.apply_event(full)
        except IllegalAction:
            return
        if st.redact(full, observer) != ev:
            return
        replay(st, L + 1, w)

    for combo in combinations(unknown, H):
        rest = sorted(c for c in unknown if c not in combo)
        allh = [list(hand) if s == observer else list(combo) for s in range(n)]
        try:
            st = GAME.new_state(opts, {"hands": allh, "stock": rest})
        except IllegalAction:
            continue
        replay(st, 0, 1.0)
    return total, hold


def test_weighted_posterior_against_bruteforce():
    """Two players, a small deck, three games: at every other prefix of seat 0's record the
    tracker's holdings under the ``peer`` model equal the brute force's weighted holdings (to
    1e-9), and differ from the uniform ones at several prefixes once the other player has
    asked."""
    differed = 0
    for seed in (1, 4, 6):
        differed += _check_game(seed)
    assert differed >= 3


def _check_game(seed: int) -> int:
    opts = {"players": 2, "ranks": 5, "suits": 3, "hand": 3}
    res = play_game(GAME, opts, [resolve_agent("peer", GAME)] * 2, np.random.default_rng(seed),
                    [np.random.default_rng([seed, k]) for k in range(2)], max_actions=500)
    view = res.record.for_seat(0)
    evs = view.events
    differed = 0
    for L in range(0, len(evs) + 1, 2):
        t = GoFishBelief(view.options, 0, view.header["hand"], model="peer")
        u = GoFishBelief(view.options, 0, view.header["hand"])
        for ev in evs[:L]:
            t.observe(ev)
            u.observe(ev)
        total, hold = _weighted_bruteforce(view.options, 0, view.header["hand"], evs[:L], t._ask_ctx)
        got = t.holdings()
        for (s, r), c in hold.items():
            if s == 0:
                continue
            dist = got.get(s, {}).get(r, {0: 1.0})   # a rank whose book is known: held by nobody
            for k, w in c.items():
                assert abs(dist.get(k, 0.0) - w / total) < 1e-9, (L, s, r, k)
        if t._ask_ctx:
            assert t.model_used == "peer" and not t.exact
            uh = u.holdings()
            g1, u1 = got.get(1, {}), uh.get(1, {})
            if max((abs(g1.get(r, {}).get(k, 0) - u1[r].get(k, 0)) for r in u1 for k in range(4)), default=0) > 1e-6:
                differed += 1
            assert t.consistent_deals == u.consistent_deals   # the count stays the uniform one
    return differed


def test_cli_model_names_the_model(tmp_path):
    """``cardmind belief --model peer`` on a two-player record weighs the deals (and says so);
    ``--model`` with a name the game lacks is a usage error."""
    from cardmind import cli as cli_main
    from cardmind.records import write_record

    res = play_game(GAME, {"players": 2}, [resolve_agent("peer", GAME)] * 2, np.random.default_rng(5),
                    [np.random.default_rng([5, k]) for k in range(2)])
    path = tmp_path / "g.jsonl"
    write_record(path, res.record)
    import subprocess
    q = subprocess.run([sys.executable, "-m", "cardmind", "belief", str(path), "--seat", "0", "--upto", "40",
                        "--json", "--model", "peer"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert q.returncode == 0, q.stderr
    obj = json.loads(q.stdout)
    assert obj["model"] == "peer" and obj["exact"] is False
    q = subprocess.run([sys.executable, "-m", "cardmind", "belief", str(path), "--seat", "0", "--upto", "40",
                        "--model", "bogus"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert q.returncode == 2 and "--model bogus" in q.stderr and "uniform, peer" in q.stderr
    assert cli_main is not None


def test_model_set_after_the_events_equals_one_chosen_at_the_start():
    """Setting :attr:`GoFishBelief.model` after the events (what the engine protocol's
    ``params.model`` does for one request) gives the holdings of a tracker made with that
    model, and setting it back gives the uniform ones again."""
    opts = {"players": 2, "ranks": 5, "suits": 3, "hand": 3}
    differed = 0
    for seed, L in ((s, L) for s in (1, 4, 6) for L in range(2, 40, 2)):
        res = play_game(GAME, opts, [resolve_agent("peer", GAME)] * 2, np.random.default_rng(seed),
                        [np.random.default_rng([seed, k]) for k in range(2)], max_actions=500)
        view = res.record.for_seat(0)
        if L > len(view.events):
            continue
        made = GoFishBelief(view.options, 0, view.header["hand"], model="peer")
        later = GoFishBelief(view.options, 0, view.header["hand"])
        for ev in view.events[:L]:
            made.observe(ev)
            later.observe(ev)
        uniform = later.holdings()
        later.model = "peer"
        assert later.model == "peer"
        weighted = later.holdings()
        assert weighted == made.holdings() and later.model_used == made.model_used
        differed += weighted != uniform
        later.model = "uniform"
        assert later.model_used == "uniform" and later.holdings() == uniform
    assert differed >= 2
    with pytest.raises(ValueError, match="bogus"):
        later.model = "bogus"
