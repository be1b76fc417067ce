"""The Go Fish player models with three or more players (:func:`models.pair_features`,
:meth:`GoFishBelief._reweigh`): the features of an ask of a target and a rank follow ``peer``'s
rule and reduce to the two-player ones with one target; the tracker's reweighted holdings equal
a brute force over every consistent deal weighed by the model's likelihood of the asks it reads
(a tiny three-player deck); ``auto`` reads who is playing, differs from ``uniform`` where the
asks reveal something, and the advice says which model it uses for whom."""

from __future__ import annotations

import io

import numpy as np
import pytest

from cardmind.agents import resolve_agent
from cardmind.agents.match import play_game
from cardmind.core import get_game
from cardmind.games.gofish import models
from cardmind.games.gofish.agents.peer import GoFishPeerAgent
from cardmind.games.gofish.belief import GoFishBelief
from cardmind.games.gofish.notation import Ask
from cardmind.games.gofish.rules import game_ranks
from gofish_bruteforce import weighted_holdings

GAME = get_game("gofish")


def _peer_asks(players: int, seed: int, options: dict | None = None):
    """Every ask of a game of ``peer`` players with more than one option: ``(contexts per
    target, target index, rank index, the asker's counts, the memory, the asker)``."""
    rng = np.random.default_rng(seed)
    state, header = GAME.initial_state({"players": players, **(options or {})}, rng)
    opts = state.options
    mem = GoFishPeerAgent(GAME, 0, opts, GAME.observer_header(header, 0))
    mem.common = True
    shown = models.ShownRanks(players, opts["give"] == "all")
    agents = [GoFishPeerAgent(GAME, s, opts, GAME.observer_header(header, s)) for s in range(players)]
    prng = [np.random.default_rng([seed, s]) for s in range(players)]
    out = []
    for _ in range(3000):
        if state.is_over():
            break
        seat = state.to_move()
        action = agents[seat].act(prng[seat])
        if isinstance(action, Ask):
            st = mem.state
            targets = [t for t in range(players) if t != seat and st.sizes[t] > 0]
            ctxs = [models.ask_context(mem, st, seat, t, shown.shown[seat]) for t in targets]
            counts = np.zeros((1, len(state.ranks)), dtype=np.int64)
            for c in state.hands[seat]:
                counts[0, state.ranks.index(c[0])] += 1
            out.append((ctxs, targets.index(action.target), state.ranks.index(action.rank), counts,
                        {r: int(counts[0, i]) for i, r in enumerate(state.ranks)}, seat))
        events = state.apply_action(action)
        notice = state.pending_notice()
        if notice is not None:
            for s in range(players):
                agents[s].notice(dict(notice))
            mem.notice(dict(notice))
        for ev in events:
            for s in range(players):
                agents[s].observe(state.redact(ev, s))
            mem.observe(state.redact(ev, 0))
            shown.observe(state.redact(ev, 0))
    return out, mem


def test_pair_features_with_one_target_are_the_two_player_features():
    """With one target (two players) the features and options of every ask equal
    :func:`models.ask_features`'s, and the pair likelihood equals :func:`models.log_likelihood`."""
    asks, _ = _peer_asks(2, 3)
    assert len(asks) > 10
    peer = models.load("peer")
    for ctxs, ti, ri, counts, _mine, _seat in asks:
        assert len(ctxs) == 1 and ti == 0
        rows = np.concatenate([counts, np.maximum(counts - 1, 0)])
        f1, o1 = models.ask_features(ctxs[0], rows)
        f2, o2 = models.pair_features(ctxs, rows)
        assert np.array_equal(o1, o2) and np.allclose(f1, f2, rtol=0, atol=1e-12)
        for m in (peer, models.load("random")):
            a = models.log_likelihood(m, ctxs[0], rows, ri)
            b = models.pair_log_likelihood(m, ctxs, rows, 0, ri)
            assert np.allclose(np.nan_to_num(a, neginf=-1e9), np.nan_to_num(b, neginf=-1e9), atol=1e-12)


def test_pair_features_follow_peers_rule_with_four_players():
    """In a four-player game of ``peer`` players, at every ask: the ``chance`` feature of every
    (target, rank) equals the ``peer`` rule's own estimate (:meth:`GoFishPeerAgent.hit_chance`,
    by a memory of the public events, from the asker's real hand); the ask made is a certain
    one where one exists, else a plausible guess of the rank held most; the pair likelihoods
    sum to 1; and the fitted model gives the ask made far more than a random choice does."""
    asks, _ = _peer_asks(4, 5)
    assert len(asks) > 30
    peer, rnd = models.load("peer"), models.load("random")
    gain = []
    for ctxs, ti, ri, counts, _mine, _seat in asks:
        feats, opts = models.pair_features(ctxs, counts)
        R = counts.shape[1]
        j = ti * R + ri
        assert opts[0, j]
        F = {n: feats[0, :, k] for k, n in enumerate(models.ASK_FEATURES)}
        if (F["known"] * opts[0]).any():
            assert F["known"][j] == 1
        elif (F["plausible"] * opts[0]).any():
            assert F["plausible"][j] == 1 and F["most"][j] == 1
        total = sum(np.exp(models.pair_log_likelihood(peer, ctxs, counts, t, r))[0]
                    for t in range(len(ctxs)) for r in range(R) if opts[0, t * R + r])
        assert abs(total - 1) < 1e-9
        gain.append(models.pair_log_likelihood(peer, ctxs, counts, ti, ri)[0]
                    - models.pair_log_likelihood(rnd, ctxs, counts, ti, ri)[0])
    assert np.mean(gain) > 1.0


def test_pair_chance_is_peers_estimate():
    """The ``chance`` feature of every (target, rank) of a four-player ask is what ``peer``
    estimates (its ``hit_chance``, with the memory's public facts and the asker's hand)."""
    rng = np.random.default_rng(8)
    state, header = GAME.initial_state({"players": 4}, rng)
    agents = [GoFishPeerAgent(GAME, s, state.options, GAME.observer_header(header, s)) for s in range(4)]
    shown = models.ShownRanks(4, state.options["give"] == "all")
    prng = [np.random.default_rng([8, s]) for s in range(4)]
    checked = 0
    for _ in range(400):
        if state.is_over():
            break
        seat = state.to_move()
        action = agents[seat].act(prng[seat])
        if isinstance(action, Ask):
            ag = agents[seat]
            mine = ag._my_counts()
            targets = [t for t in range(4) if t != seat and ag.state.sizes[t] > 0]
            ctxs = [models.ask_context(ag, ag.state, seat, t, shown.shown[seat]) for t in targets]
            counts = np.array([[mine.get(r, 0) for r in state.ranks]])
            feats, opts = models.pair_features(ctxs, counts)
            k = models.ASK_FEATURES.index("chance")
            for ti, t in enumerate(targets):
                for ri, r in enumerate(state.ranks):
                    if opts[0, ti * len(state.ranks) + ri]:
                        assert abs(feats[0, ti * len(state.ranks) + ri, k] - ag.hit_chance(t, r, mine)) < 1e-12
                        checked += 1
        events = state.apply_action(action)
        notice = state.pending_notice()
        if notice is not None:
            for s in range(4):
                agents[s].notice(dict(notice))
        for ev in events:
            for s in range(4):
                agents[s].observe(state.redact(ev, s))
            shown.observe(state.redact(ev, 0))
    assert checked > 100


def _bruteforce(options: dict, observer: int, hand: list, events: list, reads: dict, model) -> tuple:
    """``(total weight, {(seat or "stock", rank): {count: weight}})`` over every consistent
    deal of the record (three players), each weighed by ``model``'s likelihood of the asks of
    ``reads`` (event index -> (contexts, target index, rank index)) from the asker's hand at
    the ask in that deal."""
    ranks = game_ranks(GAME.parse_options(options))

    def weigh(st, L: int, ev: dict) -> float:
        if L not in reads:
            return 1.0
        ctxs, ti, ri = reads[L]
        counts = np.array([[sum(1 for c in st.hands[ev["asker"]] if c[0] == r) for r in ranks]])
        return float(np.exp(models.pair_log_likelihood(model, ctxs, counts, ti, ri)[0]))

    return weighted_holdings(options, observer, hand, events, weigh)


@pytest.mark.parametrize("seed", [6, 8])
def test_reweighted_holdings_against_bruteforce(seed, monkeypatch):
    """Three players, a tiny deck (5 ranks of 3 suits, 3 cards dealt), model ``peer``, the asks
    read back to the last unseen draw (``MODEL_DRAWS = 0``: the holdings at the ask are then
    known exactly from a deal's holdings now): at several prefixes the tracker's reweighted
    holdings equal the brute force's weighted ones within 5 of their standard errors (20000
    sampled deals), and differ from the uniform ones by more than 10 points somewhere."""
    monkeypatch.setattr(GoFishBelief, "MODEL_DRAWS", 0)
    monkeypatch.setattr(GoFishBelief, "MODEL_WORLDS", 20000)
    opts = {"players": 3, "ranks": 5, "suits": 3, "hand": 3}
    res = play_game(GAME, opts, [resolve_agent("peer", GAME)] * 3, np.random.default_rng(seed),
                    [np.random.default_rng([seed, k]) for k in range(3)], max_actions=300)
    view = res.record.for_seat(0)
    evs = view.events
    compared, differed = 0, 0.0
    for L in (4, 6, 8, 10):
        t = GoFishBelief(view.options, 0, view.header["hand"], model="peer")
        u = GoFishBelief(view.options, 0, view.header["hand"], model="uniform")
        for ev in evs[:L]:
            t.observe(ev)
            u.observe(ev)
        got = t.holdings()
        reads = {i: (ctxs, ti, ri) for i, _a, ctxs, ti, ri, _b, _d in t._usable_asks()}
        if not reads:
            continue
        assert t.mode == "weighted" and t.model_used == "peer"
        total, hold = _bruteforce(view.options, 0, view.header["hand"], evs[:L], reads, models.load("peer"))
        se = t.holdings_stderr()
        uh = u.holdings()
        for (s, r), c in hold.items():
            if s == 0 or r not in got.get(s, {}):
                continue
            for k, w in c.items():
                want = w / total
                have = got[s][r].get(k, 0.0)
                assert abs(have - want) <= 5 * se[s][r].get(k, 0.0) + 1e-9, (L, s, r, k, have, want)
                differed = max(differed, abs(want - uh[s][r].get(k, 0.0)))
        compared += 1
    assert compared >= 1 and differed > 0.1


def test_auto_reads_who_is_playing_with_four_players():
    """Four players, full deck: two thirds into a game of ``peer`` players ``auto`` gives most
    weight to ``peer`` for (all but at most one of) the other seats whose recent asks it reads,
    and in a game of ``random`` players to ``random``; its chances differ from the uniform ones
    (by more than 2 points somewhere at a third, half or two thirds of the game) and carry
    standard errors; the output names the model per seat."""
    from rich.console import Console

    from cardmind.hints import hint_for

    for kind in ("peer", "random"):
        res = play_game(GAME, {"players": 4}, [resolve_agent(kind, GAME)] * 4, np.random.default_rng(21),
                        [np.random.default_rng([21, k]) for k in range(4)])
        view = res.record.for_seat(0)
        gap = 0.0
        for frac in (3, 2, 1.5):   # a third, half and two thirds of the game
            L = int(len(view.events) / frac)
            t = GoFishBelief(view.options, 0, view.header["hand"])
            u = GoFishBelief(view.options, 0, view.header["hand"], model="uniform")
            for ev in view.events[:L]:
                t.observe(ev)
                u.observe(ev)
            gap = max(gap, max(abs(t.p_holds(s, r) - u.p_holds(s, r)) for s in (1, 2, 3) for r in t.ranks))
        assert gap > 0.02
        assert t.model == "auto" and t.model_used == "auto" and t.mode == "weighted"
        fit = t.model_fit["seats"]
        read = [f for f in fit if f["weighed"]]
        assert [f["seat"] for f in fit] == [1, 2, 3] and read
        for f in read:
            assert abs(sum(f["weights"].values()) - 1) < 1e-9
        tops = [max(f["weights"], key=f["weights"].get) for f in read]
        assert sum(x == kind for x in tops) >= max(1, len(read) - 1), (kind, fit)
        assert t.stderr is not None and t.holdings_stderr() is not None
        advice = hint_for(t)
        buf = io.StringIO()
        advice.render(Console(file=buf, width=140, force_terminal=False), view)
        text = " ".join(buf.getvalue().split())
        assert "Player model auto: seat 1" in text and "seat 3's" in text, text
        assert "(sampled)" in text or t.stderr < 1e-9
        assert advice.to_json()["model_fit"]["seats"][0]["seat"] == 1


def test_control_variate_never_makes_a_possible_count_impossible():
    """The reweighted holdings: the exact chances plus the weights' change on the sampled
    deals; where noise would take an allowed count to zero it keeps its ratio estimate."""
    from cardmind.games.gofish.weighing import possible_counts

    base = np.array([0.5, 0.45, 0.05])
    unweighted = np.array([0.5, 0.4, 0.1])
    # no count pushed below zero: the plain control variate
    weighted = np.array([0.55, 0.37, 0.08])
    assert possible_counts(base, weighted, unweighted) == pytest.approx(base + weighted - unweighted)
    # count 2 would go to 0.05 + 0.02 - 0.1 < 0: it keeps 0.05 * 0.02 / 0.1 = 0.01
    weighted = np.array([0.7, 0.28, 0.02])
    got = possible_counts(base, weighted, unweighted)
    assert got == pytest.approx(np.array([0.7, 0.33, 0.01]) / 1.04)
    assert got[2] > 0
    # a count the constraints rule out stays out
    assert possible_counts(np.array([0.6, 0.4, 0.0]), np.array([0.5, 0.5, 0.0]), np.array([0.6, 0.4, 0.0]))[2] == 0
    rng = np.random.default_rng(7)
    for _ in range(200):
        b = rng.dirichlet(np.ones(4)) * (rng.random(4) > 0.3)
        if b.sum() == 0:
            continue
        b /= b.sum()
        hu = rng.dirichlet(np.ones(4)) * (b > 0)
        hu /= hu.sum()
        hw = rng.dirichlet(np.ones(4)) * (hu > 0)
        hw /= hw.sum()
        est = possible_counts(b, hw, hu)
        assert est.sum() == pytest.approx(1.0)
        assert ((est > 0) == (b > 0)).all()


def test_the_count_of_deals_keeps_its_own_precision_under_the_models():
    """The reweighting samples the chances, not the count: `--verbose` gives the count of
    consistent deals as the constraint-only answer gives it (not "roughly", 2 digits)."""
    from pathlib import Path

    from cardmind.cli import main

    path = str(Path(__file__).resolve().parent.parent / "examples" / "gofish-4p.jsonl")

    def count_line(*extra):
        buf = io.StringIO()
        import contextlib
        with contextlib.redirect_stdout(buf):
            main(["hint", path, "--verbose", *extra])
        line = next(x for x in buf.getvalue().splitlines() if x.startswith("Consistent deals:"))
        return line.split(" (")[0]

    weighted, uniform = count_line(), count_line("--model", "uniform")
    assert "roughly" not in weighted
    assert weighted == uniform


def test_the_model_sentence_with_no_ask_to_read_says_the_deals_count_alike():
    """Before any other seat has a recent ask to read, the sentence says every deal counts
    alike (not "those asks ... in those shares", with no asks); once one has, it names the
    others together and weighs by the asks read."""
    from pathlib import Path

    from cardmind.belief import tracker_for
    from cardmind.hints import hint_for
    from cardmind.records import read_record

    rec = read_record(Path(__file__).resolve().parent.parent / "examples" / "gofish-4p-complete.jsonl")
    none = hint_for(tracker_for(rec, seat=1, upto_event=0)).model_text()
    assert none == ("Player model auto: no other player has a recent ask to read yet (asks are read back to a "
                    "player's last unseen draw), so every deal that fits counts alike.")
    some = hint_for(tracker_for(rec, seat=1, upto_event=1)).model_text()
    assert "no recent ask to read" in some and some.count("no recent ask") == 1
    assert some.endswith("Each deal counts by how likely the asks read were from such players, in those shares.")
