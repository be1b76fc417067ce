"""Player models of Go Fish: how likely another player's ask was, given the cards it held.

A constraint-only posterior counts every consistent deal alike, as if the others asked at
random. Real players do not: the published rule bots that ``peer`` rebuilds
(:mod:`.agents.peer`) first ask a player known to hold a rank they hold (a certain hit), and
otherwise guess the rank they hold **most** among the asks likely enough to hit. So an ask
tells what else the asker holds. A player model gives ``P(ask | what the asker held)``; the
tracker (:class:`~.belief.GoFishBelief`, setting ``model``) weighs every consistent deal by
the model's likelihood of each ask another player made (:mod:`cardmind.belief.models`).

The model is a conditional logit (:class:`~cardmind.belief.models.SoftmaxChoice`) over the
asks the asker could make (every rank it holds, at its one opponent: two players), with the
features of :data:`ASK_FEATURES`, computed from the public memory at the ask (what everyone
knows each player holds or lacks: ``peer``'s memory, :class:`AskContext`) and the asker's
hypothetical holdings:

* ``known``: the target is publicly known to hold the rank (a certain hit);
* ``known_most``: such an ask of the rank the asker holds most among them (``peer``'s
  order of certain hits);
* ``plausible``: a guess whose estimated chance of a hit is at least ``0.3`` of the best
  guess's (``peer``'s plausible asks; the chance as ``peer`` estimates it,
  :meth:`~.agents.peer.GoFishPeerAgent.hit_chance`);
* ``held``: the cards of the rank the asker holds, on a plausible guess;
* ``most``: a plausible guess of the rank the asker holds most among its plausible guesses
  (what ``peer`` guesses);
* ``shown``: such a guess of a rank the asker has shown it holds (asked for, received or
  drawn shown) (``peer``'s tie break);
* ``chance``: the estimated chance of a hit;
* ``hopeless``: the target is publicly known to hold none of the rank.

The weights are fitted by maximum likelihood on the asks of ``peer`` players in simulated
two-player games (:func:`fit_ask_model`, ``eval/gofish_fit_model.py``); the fitted model is
``peer_model.json`` beside this module. The same features fitted on the asks of the
``belief`` player (against ``peer``) give ``belief_model.json``: it asks by the exact chances,
which the ``peer`` model's memory-based features explain less well.

Models (:data:`MODELS`, the default first):

* ``auto`` (the default): each other player is weighed by every model of :data:`AUTO_MODELS`
  (``peer``, ``belief``, and ``random``: every rank it holds equally likely), each by how
  well it explains the other player's asks so far: a Bayesian mixture, the posterior of the
  deal under each model weighted by that model's marginal likelihood of the asks (equal prior
  odds). Where the asks fit ``peer`` (as a player with memory asks) the chances are
  ``peer``'s; where they look random, close to ``uniform``.
* ``uniform``: the constraint-only posterior (every consistent deal alike);
* ``peer``, ``belief``: a fitted model alone;
* ``random``: the likelihood of a player asking for one of its ranks at random and, under
  ``give: "one"``, handing over one of its cards of the rank at random (the joint filter's
  ``giver``; the fitted models leave the hand-over a fact: ``peer`` and ``belief`` hand over a
  public card first, which the public memory already shows).

With **two players** the models weigh every consistent deal exactly, inside the joint filter.
With **three or more** the choice is of a target as well as a rank: :func:`pair_features`
computes the same features per target, with ``peer``'s comparisons (its certain hits, its
plausible guesses, the rank it holds most) taken across every target's asks, and the fitted
weights (two-player fits) score every ``(target, rank)`` ask; ``random`` is every such ask
alike. The tracker then applies them by a tractable approximation
(:meth:`~.belief.GoFishBelief._reweigh`): deals drawn from the constraint-only posterior are
weighed by each other seat's likelihood of its recent asks (those since its second-to-last
unseen draw: the holdings at such an ask follow from the deal's holdings now and the public
events since, with the one unseen draw summed over its rank), ``auto`` mixing the models per
seat. The answer is then sampled, with standard errors, and says so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...belief.models import ChoiceModel, SoftmaxChoice, UniformChoice, model_from_json

#: the features of an ask (see the module docstring)
ASK_FEATURES = ("known", "known_most", "plausible", "held", "most", "shown", "chance", "hopeless")
#: the share of the best guess's chance a plausible guess has at least (``peer``'s)
PLAUSIBLE = 0.3
#: the player models of the tracker, the default first (see the module docstring)
MODELS = ("auto", "uniform", "peer", "belief", "random")
#: the models ``auto`` weighs the other player by, with equal prior odds
AUTO_MODELS = ("peer", "belief", "random")
#: what each fitted model means in words (the output's "weighs seat 1 as ...")
MODEL_WORDS = {"peer": "a player with memory (peer)", "belief": "a counting player (belief)",
               "random": "a random asker"}
MODEL_FILE = Path(__file__).resolve().parent / "peer_model.json"
#: the fitted model of the ``belief`` player's asks (``eval/gofish_fit_model.py --kind belief``)
BELIEF_MODEL_FILE = Path(__file__).resolve().parent / "belief_model.json"


@dataclass
class AskContext:
    """The public facts at one ask, as the asker saw them (arrays over the ranks).

    Attributes:
        asker, target: the seats.
        lo: cards of each rank the target is publicly known to hold.
        lacks: per rank, how many unseen cards the target gained since it was publicly known
            to hold none of it (``-1``: never known to lack it).
        size: the target's hand size; stock: the stock's size.
        booked: ranks whose book is publicly known (no card of them is in play).
        shown: ranks the asker has shown it holds (asked for, received, drawn shown).
        suits: cards of a rank.
        others_lo: cards of each rank publicly known to be with seats other than the asker
            and the target (0 with two players).
        others_free: the cards of seats other than the asker and the target not publicly
            accounted for (0 with two players; ``peer``'s count of unlocated cards includes them).
    """
    asker: int
    target: int
    lo: np.ndarray
    lacks: np.ndarray
    size: int
    stock: int
    booked: np.ndarray
    shown: np.ndarray
    suits: int
    others_lo: np.ndarray
    others_free: int = 0


def ask_context(memory: Any, state: Any, asker: int, target: int, shown: set[str]) -> AskContext:
    """The context of an ask by ``asker`` at ``target`` from a public memory: ``memory`` a
    ``peer`` memory (:class:`~.agents.peer.GoFishPeerAgent`, its ``lo`` and ``lacks`` of
    every seat; the ``belief`` player's ``common`` memory, judged without its own hand),
    ``state`` a view state of the game at the ask, ``shown`` the ranks the asker has shown
    it holds."""
    ranks = state.ranks
    lo = np.array([memory.lo[target][r] for r in ranks], dtype=np.int64)
    lacks = np.array([memory.lacks[target].get(r, -1) for r in ranks], dtype=np.int64)
    others = np.zeros(len(ranks), dtype=np.int64)
    others_free = 0
    for s in range(state.players):
        if s not in (asker, target):
            row = np.array([memory.lo[s][r] for r in ranks], dtype=np.int64)
            others += row
            others_free += max(0, int(state.sizes[s]) - int(row.sum()))
    booked = np.array([r in state.book_at for r in ranks], dtype=bool)
    sh = np.array([r in shown for r in ranks], dtype=bool)
    return AskContext(asker, target, lo, lacks, int(state.sizes[target]), int(state.stock_count), booked, sh,
                      int(state.nsuits), others, others_free)


def ask_features(ctx: AskContext, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The features of every ask the asker could make, for every row of hypothetical
    holdings.

    Args:
        ctx: the public facts at the ask.
        counts: the asker's cards of each rank, ``(rows, ranks)``.

    Returns:
        ``(features, options)``: ``(rows, ranks, len(ASK_FEATURES))`` floats and the bool
        ``(rows, ranks)`` mask of the asks it could make (the ranks it holds).
    """
    h = np.asarray(counts, dtype=np.int64)
    feats, opts = _assemble(h, [_target_parts(ctx, h, others=False)], [ctx])
    return feats[:, 0], opts[:, 0]


def log_likelihood(model: ChoiceModel, ctx: AskContext, counts: np.ndarray, rank_index: int) -> np.ndarray:
    """``log P(the asker asks for rank rank_index | its holdings)`` per row of ``counts``
    (``-inf`` where it holds none of that rank: the ask is impossible there)."""
    feats, opts = ask_features(ctx, counts)
    if isinstance(model, UniformChoice):
        n = opts.sum(axis=1)
        return np.where(opts[:, rank_index], -np.log(np.maximum(n, 1)), -np.inf)
    z = feats @ np.asarray(model.weights, dtype=float)
    z = np.where(opts, z, -np.inf)
    m = z.max(axis=1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    lse = m[:, 0] + np.log(np.exp(z - m).sum(axis=1))
    return np.where(opts[:, rank_index], z[:, rank_index] - lse, -np.inf)


def _target_parts(ctx: AskContext, h: np.ndarray,
                  others: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(known, may, chance, opts)`` of every ask at ``ctx.target`` per row of holdings ``h``
    (``(rows, ranks)``): the per-target part of the features. ``others``: the unseen cards of
    the seats other than the asker and the target (``ctx.others_free``) count among the cards
    a guess can miss to (three or more players, :func:`pair_features`); the two-player
    features (:func:`ask_features`) leave them out."""
    opts = h >= 1
    S = ctx.suits
    free = max(0, ctx.size - int(ctx.lo.sum()))
    located = h + ctx.lo[None, :] + ctx.others_lo[None, :]
    known = (ctx.lo > 0)[None, :] & (ctx.size > 0) & opts
    may = np.where(ctx.lacks >= 0, np.minimum(free, ctx.lacks), free)[None, :].repeat(len(h), axis=0)
    may = np.where(ctx.booked[None, :] | (located >= S) | (ctx.size == 0), 0, may)
    U = ctx.stock + free + (ctx.others_free if others else 0)
    u = S - located
    frac = np.clip(u / U, 0.0, 1.0) if U > 0 else np.zeros_like(u, dtype=float)
    chance = np.where((may > 0) & (u > 0) & (U > 0), 1.0 - (1.0 - frac) ** may, 0.0)
    chance = np.where(known, 1.0, chance)
    return known, may, chance, opts


def pair_features(ctxs: list[AskContext], counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The features of every ask ``(target, rank)`` the asker could make with three or more
    players: one :class:`AskContext` per target it could ask (a seat holding cards), for every
    row of hypothetical holdings.

    The features are those of :func:`ask_features` computed per target, with the comparisons
    across asks (``known_most``, ``plausible``, ``most``) taken over **every** target's asks:
    ``peer`` picks its certain hit, or its plausible guess, among all players' asks. With one
    target they equal :func:`ask_features`'s (a test checks it). An approximation: the
    weights were fitted on two-player asks, where the choice is of a rank only.

    Args:
        ctxs: the public facts at the ask, one per candidate target (the same asker).
        counts: the asker's cards of each rank, ``(rows, ranks)``.

    Returns:
        ``(features, options)``: ``(rows, targets * ranks, len(ASK_FEATURES))`` floats and the
        bool ``(rows, targets * ranks)`` mask of the asks it could make (target-major order).
    """
    h = np.asarray(counts, dtype=np.int64)
    feats, opts = _assemble(h, [_target_parts(c, h) for c in ctxs], ctxs)
    n, T, R = opts.shape
    return feats.reshape(n, T * R, len(ASK_FEATURES)), opts.reshape(n, T * R)


def _assemble(h: np.ndarray, parts: list, ctxs: list[AskContext]) -> tuple[np.ndarray, np.ndarray]:
    """The features of every ask from the per-target ``parts`` (:func:`_target_parts`, one per
    context of ``ctxs``), with the comparisons across asks (``known_most``, ``plausible``,
    ``most``) taken over every target's asks: ``(rows, targets, ranks, len(ASK_FEATURES))``
    floats and the ``(rows, targets, ranks)`` mask of the asks the asker could make."""
    known = np.stack([p[0] for p in parts], axis=1)          # (rows, T, R)
    may = np.stack([p[1] for p in parts], axis=1)
    chance = np.stack([p[2] for p in parts], axis=1)
    opts = np.stack([p[3] for p in parts], axis=1)
    hh = np.broadcast_to(h[:, None, :], known.shape)
    guess = opts & ~known & (may > 0)
    best = np.where(guess, chance, 0.0).max(axis=(1, 2), keepdims=True)
    plausible = guess & (chance >= PLAUSIBLE * best - 1e-12)
    most = plausible & (hh == np.where(plausible, hh, 0).max(axis=(1, 2), keepdims=True))
    known_most = known & (hh == np.where(known, hh, 0).max(axis=(1, 2), keepdims=True))
    shown = np.stack([c.shown for c in ctxs], axis=0)[None]
    feats = np.zeros(known.shape + (len(ASK_FEATURES),))
    feats[..., 0] = known
    feats[..., 1] = known_most
    feats[..., 2] = plausible
    feats[..., 3] = np.where(plausible, hh, 0)
    feats[..., 4] = most
    feats[..., 5] = most & shown
    feats[..., 6] = chance
    feats[..., 7] = opts & ~known & (may == 0)
    return feats, opts


def pair_log_likelihood(model: ChoiceModel, ctxs: list[AskContext], counts: np.ndarray, target_index: int,
                        rank_index: int) -> np.ndarray:
    """``log P(the asker asks ctxs[target_index].target for rank rank_index | its holdings)``
    per row of ``counts`` (three or more players: the choice is of a target and a rank; see
    :func:`pair_features`). ``random``/``uniform``: every ask of a rank it holds at a seat
    holding cards alike. ``-inf`` where it holds none of the rank."""
    return pair_log_likelihoods({"m": model}, ctxs, counts, target_index, rank_index)["m"]


def pair_log_likelihoods(models: dict[str, ChoiceModel], ctxs: list[AskContext], counts: np.ndarray,
                         target_index: int, rank_index: int) -> dict[str, np.ndarray]:
    """:func:`pair_log_likelihood` under every model of ``models`` (by name), the features
    computed once."""
    feats, opts = pair_features(ctxs, counts)
    j = target_index * len(ctxs[0].lo) + rank_index
    return {name: _pair_ll(m, feats, opts, j) for name, m in models.items()}


def _pair_ll(model: ChoiceModel, feats: np.ndarray, opts: np.ndarray, j: int) -> np.ndarray:
    if isinstance(model, UniformChoice):
        n = opts.sum(axis=1)
        return np.where(opts[:, j], -np.log(np.maximum(n, 1)), -np.inf)
    z = feats @ np.asarray(model.weights, dtype=float)
    z = np.where(opts, z, -np.inf)
    m = z.max(axis=1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):   # rows without an option: -inf
        lse = m[:, 0] + np.log(np.exp(z - m).sum(axis=1))
        return np.where(opts[:, j], z[:, j] - lse, -np.inf)


def load(name: str) -> ChoiceModel:
    """The choice model ``name`` (``uniform``/``random``: every option alike; ``peer``: the
    fitted model). ``auto`` is not one model: it mixes those of :data:`AUTO_MODELS`.

    Raises:
        ValueError: an unknown name, or the fitted model's file is missing or malformed.
    """
    if name in ("uniform", "random"):
        return UniformChoice()
    if name in ("peer", "belief"):
        path = MODEL_FILE if name == "peer" else BELIEF_MODEL_FILE
        try:
            return model_from_json(json.loads(path.read_text()))
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"the Go Fish player model {name!r} could not be read from {path}: {exc}") from None
    raise ValueError(f"unknown Go Fish player model {name!r} (one of {', '.join(MODELS)})")


class ShownRanks:
    """The ranks each player has shown it holds (asked for, received, drawn shown), from the
    public events; a rank is dropped when the player is publicly seen without it (it refused
    it, handed all of it over under ``give: "all"``, or its book was laid)."""

    def __init__(self, players: int, give_all: bool):
        self.shown: list[set[str]] = [set() for _ in range(players)]
        self.give_all = give_all

    def observe(self, ev: dict) -> None:
        kind = ev["type"]
        if kind == "ask":
            a, t, r = ev["asker"], ev["target"], ev["rank"]
            self.shown[a].add(r)
            if not ev["given"] or self.give_all:
                self.shown[t].discard(r)
        elif kind == "draw" and ev.get("shown"):
            self.shown[ev["player"]].add(ev["card"][0])
        elif kind == "book" and ev.get("rank") is not None:
            for s in self.shown:
                s.discard(ev["rank"])


def fit_ask_model(games: int, seed: int = 0, players: int = 2, name: str = "peer", kind: str = "peer",
                  against: str = "peer") -> SoftmaxChoice:
    """Fit the ask model by maximum likelihood on the asks of ``kind`` players (default
    ``peer``) in ``games`` simulated games (default options; seeded) against ``against``
    players (seat ``g % players`` is the ``kind`` player; every seat when both are the same):
    every ask a ``kind`` player made with more than one option, the features from the public
    memory at the ask and its true holdings.

    Raises:
        ValueError: no decision to fit on.
    """
    from ...agents import resolve_agent  # noqa: PLC0415
    from ...core import get_game  # noqa: PLC0415
    from .agents.peer import GoFishPeerAgent  # noqa: PLC0415
    from .notation import Ask  # noqa: PLC0415

    game = get_game("gofish")
    decisions = []
    for g in range(games):
        rng = np.random.default_rng([seed, g])
        state, header = game.initial_state({"players": players}, rng)
        opts = state.options
        mem = GoFishPeerAgent(game, 0, opts, game.observer_header(header, 0))
        mem.common = True
        shown = ShownRanks(players, opts["give"] == "all")
        kinds = [kind if (s == g % players or kind == against) else against for s in range(players)]
        agents = [resolve_agent(kinds[s], game)(game, s, opts, game.observer_header(header, s)) for s in range(players)]
        prng = [np.random.default_rng([seed, g, s]) for s in range(players)]
        for _ in range(5000):
            if state.is_over():
                break
            seat = state.to_move()
            action = agents[seat].act(prng[seat])
            if isinstance(action, Ask) and kinds[seat] == kind:
                target = action.target
                ctx = ask_context(mem, mem.state, seat, target, shown.shown[seat])
                counts = np.zeros((1, len(state.ranks)), dtype=np.int64)
                for c in state.hands[seat]:
                    counts[0, state.ranks.index(c[0])] += 1
                feats, optmask = ask_features(ctx, counts)
                idx = np.flatnonzero(optmask[0])
                if len(idx) > 1:
                    decisions.append((feats[0, idx], int(np.flatnonzero(idx == state.ranks.index(action.rank))[0])))
            step = state.referee_step(action)     # the one referee step (cardmind.core.State)
            if step.notice is not None:
                for s in range(players):
                    agents[s].notice(dict(step.notice))
                mem.notice(dict(step.notice))
            for i in range(len(step.events)):
                for s in range(players):
                    agents[s].observe(step.views[s][i])
                mem.observe(step.views[0][i])
                shown.observe(step.views[0][i])
    return SoftmaxChoice.fit(decisions, ASK_FEATURES, name=name,
                             source=f"{games} simulated {players}-player games of {kind} players"
                                    + (f" against {against}" if against != kind else "") + f" (seed {seed})")


__all__ = ["ASK_FEATURES", "AUTO_MODELS", "AskContext", "MODELS", "MODEL_WORDS", "ShownRanks", "ask_context", "ask_features", "fit_ask_model",
           "load", "log_likelihood", "pair_features", "pair_log_likelihood", "pair_log_likelihoods"]
