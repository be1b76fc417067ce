"""The Go Fish player model (:mod:`cardmind.games.gofish.models`): the ``peer`` ask model is the
maximum-likelihood fit its file says, it predicts ``peer``'s asks far better than chance, and
the tracker's posterior weighted by it (``GoFishBelief(model="peer")``, two players) equals a
brute force that weighs every consistent deal by the model's likelihood of each ask the other
player made, computed from that deal's hands (reduced decks, every prefix). The CLI's
``--model`` names the model used."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cardmind.agents import resolve_agent
from cardmind.agents.match import play_game
from cardmind.belief.models import SoftmaxChoice
from cardmind.core import get_game
from cardmind.games.gofish import models
from cardmind.games.gofish.belief import GoFishBelief
from cardmind.games.gofish.rules import game_ranks
from gofish_bruteforce import weighted_holdings

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


def _weighted_bruteforce(options: dict, observer: int, hand: list, events: list, ask_ctx: dict, model,
                         giver: str | None = None) -> tuple:
    """``(total weight, {(seat or "stock", rank): {count: weight}})`` over the consistent deals
    of the whole record, each weighted by ``model``'s likelihood of every ask of ``ask_ctx``
    (event index -> (context, rank index)) from the asker's hand in that deal; with ``giver``
    ``"random"`` also by the chance of the card the other player handed over under ``give:
    "one"`` (one of its cards of the rank at random)."""
    opts = GAME.parse_options(options)
    ranks = game_ranks(opts)

    def weigh(st, L: int, ev: dict) -> float:
        w = 1.0
        if L in ask_ctx:
            ctx, ri = ask_ctx[L]
            counts = np.array([[sum(1 for c in st.hands[ev["asker"]] if c[0] == r) for r in ranks]])
            w *= float(np.exp(models.log_likelihood(model, ctx, counts, ri)[0]))
        if giver == "random" and ev["type"] == "ask" and ev["given"] and ev["target"] != observer \
                and opts["give"] == "one":
            w /= max(1, sum(1 for c in st.hands[ev["target"]] if c[0] == ev["rank"]))  # 0: the step drops it
        return w

    return weighted_holdings(options, observer, hand, events, weigh)


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
        u = GoFishBelief(view.options, 0, view.header["hand"], model="uniform")
        for ev in evs[:L]:
            t.observe(ev)
            u.observe(ev)
        total, hold = _weighted_bruteforce(view.options, 0, view.header["hand"], evs[:L], t._ask_ctx,
                                           models.load("peer"))
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
        later = GoFishBelief(view.options, 0, view.header["hand"], model="uniform")
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


def test_auto_is_the_default_and_the_likelihood_weighted_mixture():
    """``auto`` is the game's first model (the default of ``hint``, ``belief`` and the
    protocol) and the tracker's default. Its holdings equal a brute force of the Bayesian
    mixture: each model of ``AUTO_MODELS`` weighs every consistent deal by its likelihood of
    the other player's asks, and with equal prior odds the mixture is ``sum_m hold_m / sum_m
    total_m``; ``model_fit`` gives each model's share ``total_m / sum total``. Against a
    random asker it differs from the uniform answer."""
    assert GAME.player_models()[0] == "auto"
    assert GoFishBelief({"players": 2}, 0, ["2C", "3C", "4C", "5C", "6C", "7C"]).model == "auto"
    opts = {"players": 2, "ranks": 5, "suits": 3, "hand": 3}
    differed = 0
    for seed in (1, 4):
        res = play_game(GAME, opts, [resolve_agent("peer", GAME), resolve_agent("random", GAME)],
                        np.random.default_rng(seed), [np.random.default_rng([seed, k]) for k in range(2)],
                        max_actions=500)
        view = res.record.for_seat(0)
        evs = view.events
        for L in range(2, len(evs) + 1, 4):
            t = GoFishBelief(view.options, 0, view.header["hand"])
            u = GoFishBelief(view.options, 0, view.header["hand"], model="uniform")
            for ev in evs[:L]:
                t.observe(ev)
                u.observe(ev)
            got = t.holdings()
            brute = {m: _weighted_bruteforce(view.options, 0, view.header["hand"], evs[:L], t._ask_ctx,
                                             models.load(m), "random" if m == "random" else None)
                     for m in models.AUTO_MODELS}
            den = sum(total for total, _ in brute.values())
            fit = t.model_fit
            assert t.model_used == "auto" and fit["seat"] == 1 and fit["asks"] == len(t._ask_ctx)
            for m, (total, _) in brute.items():
                assert abs(fit["weights"][m] - total / den) < 1e-9, (seed, L, m)
            for (s, r) in brute[models.AUTO_MODELS[0]][1]:
                if s == 0:
                    continue
                dist = got.get(s, {}).get(r, {0: 1.0})
                for k in range(4):
                    want = sum(hold.get((s, r), {}).get(k, 0.0) for _, hold in brute.values()) / den
                    assert abs(dist.get(k, 0.0) - want) < 1e-9, (seed, L, s, r, k)
            uh = u.holdings().get(1, {})
            if max(abs(got.get(1, {}).get(r, {}).get(k, 0) - uh[r].get(k, 0)) for r in uh for k in range(4)) > 1e-6:
                differed += 1
    assert differed >= 3


def test_auto_reads_who_is_playing():
    """Over a whole two-player game (full deck) ``auto`` gives most of its weight to the model
    of the kind of player seat 1 is: ``peer`` against ``peer``, ``random`` against ``random``;
    before seat 1 asks or hands a card over, the models share equally and the answer is the
    exact uniform one."""
    for kind in ("peer", "random"):
        res = play_game(GAME, {"players": 2}, [resolve_agent("peer", GAME), resolve_agent(kind, GAME)],
                        np.random.default_rng(11), [np.random.default_rng([11, k]) for k in range(2)])
        view = res.record.for_seat(0)
        t = GoFishBelief(view.options, 0, view.header["hand"])
        first = next(i for i, ev in enumerate(view.events)   # seat 1 asks or hands a card over
                     if ev["type"] == "ask" and (ev["asker"] == 1 or ev["given"]))
        for ev in view.events[:first]:
            t.observe(ev)
        w = t.model_fit["weights"]
        assert t.exact and set(w) == set(models.AUTO_MODELS) and len(set(w.values())) == 1
        for ev in view.events[first:]:
            t.observe(ev)
        w = t.model_fit["weights"]
        assert max(w, key=w.get) == kind and w[kind] > 0.9, (kind, w)


def test_advice_says_which_model_for_whom():
    """The advice names the model and the seat it reads, in words, and the JSON carries the
    shares; ``--model uniform`` prints no model line."""
    import io

    from rich.console import Console

    from cardmind.hints import hint_for

    def render_text(render) -> str:
        buf = io.StringIO()
        render(Console(file=buf, width=120, force_terminal=False))
        return buf.getvalue()

    res = play_game(GAME, {"players": 2}, [resolve_agent("peer", GAME)] * 2, np.random.default_rng(5),
                    [np.random.default_rng([5, k]) for k in range(2)])
    view = res.record.for_seat(0)
    t = GoFishBelief(view.options, 0, view.header["hand"])
    u = GoFishBelief(view.options, 0, view.header["hand"], model="uniform")
    for ev in view.events[:40]:
        t.observe(ev)
        u.observe(ev)
    advice = hint_for(t)
    obj = advice.to_json()
    n = obj["model_fit"]["asks"]
    assert obj["model"] == "auto" and n >= 3 and abs(sum(obj["model_fit"]["weights"].values()) - 1) < 1e-9
    text = " ".join(render_text(lambda c: advice.render(c, view)).split())
    top = max(obj["model_fit"]["weights"], key=obj["model_fit"]["weights"].get)
    assert f"Player model auto: seat 1's {n} asks fit {models.MODEL_WORDS[top]} " in text
    assert "each weighed by the player model below" in text
    plain = " ".join(render_text(lambda c: hint_for(u).render(c, view)).split())
    assert "Player model" not in plain and "every deal of the cards that fits what you have seen counts" in plain


def test_auto_hint_is_the_same_under_any_hash_seed(tmp_path):
    """``cardmind hint`` on a two-player record (the default model ``auto``: three filters
    mixed) prints the same bytes, text and JSON, under two ``PYTHONHASHSEED`` values."""
    import os
    import subprocess

    from cardmind.records import write_record

    res = play_game(GAME, {"players": 2}, [resolve_agent("peer", GAME), resolve_agent("random", GAME)],
                    np.random.default_rng(8), [np.random.default_rng([8, k]) for k in range(2)])
    path = tmp_path / "g.jsonl"
    write_record(path, res.record)
    outs = []
    for seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        got = [subprocess.run([sys.executable, "-m", "cardmind", "hint", str(path), "--seat", "0", "--upto", "50",
                               *extra], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
               for extra in ([], ["--json"])]
        assert all(g.returncode == 0 for g in got), [g.stderr for g in got]
        outs.append([g.stdout for g in got])
    assert outs[0] == outs[1]
    assert json.loads(outs[0][1])["model"] == "auto" and "Player model auto: seat 1's" in " ".join(outs[0][0].split())
