"""Evaluating a Hand and Foot position over sampled worlds: the chances of the next turn and
the expected score swings of the timing decisions. Shared by the ``belief`` player and the
advice (``cardmind hint``).

A *world* is a dict ``{"zones": {seat: Counter}, "feet": {seat: Counter}, "stock": Counter}``:
what every other player holds now, every foot not picked up, and the cards left in the stock
(its order uniform). Worlds come from the tracker (:meth:`~.belief.HandFootBelief.worlds`,
the posterior of the constraints) or :func:`quick_worlds` (the unseen cards spread uniformly
over the hidden places: the posterior when no play constrains a hidden place, and what the
``belief`` player uses to stay fast).

Points are the game's: a card laid scores its points and a card held at the end of the hand
counts them against (a red three 500), so laying ``L`` points that would otherwise be held
swings the team's score by ``2 L``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .plan import BookNeeds, go_out_discard
from .rules import GO_OUT_BONUS, deck_counter, held_points, is_natural, is_red_three, max_meld_points, meldable_all

World = dict[str, Any]


def quick_worlds(view, observer: int, n: int, rng: np.random.Generator) -> list[World]:
    """``n`` worlds with the cards ``observer`` has not seen spread uniformly over the hidden
    places (the other players' unknown cards, the unpicked feet, the stock), the cards known
    from pickups kept where they are."""
    unseen = deck_counter(view.options) - view.visible()
    cards = np.array(sorted(unseen.elements()))
    others = [s for s in range(view.players) if s != observer]
    sizes = [(("zone", s), view.sizes[s] - sum(view.known[s].values())) for s in others]
    sizes += [(("foot", s), view.foot_sizes[s]) for s in range(view.players)
              if view.foot_sizes[s] and view.feet[s] is None]
    sizes.append((("stock", None), view.stock_count))
    out = []
    for _ in range(n):
        perm = cards[rng.permutation(len(cards))] if len(cards) else cards
        k = 0
        w: World = {"zones": {}, "feet": {}, "stock": Counter()}
        for (kind, s), size in sizes:
            part = Counter(perm[k:k + size].tolist())
            k += size
            if kind == "zone":
                part.update(view.known[s])
                w["zones"][s] = part
            elif kind == "foot":
                w["feet"][s] = part
            else:
                w["stock"] = part
        out.append(w)
    return out


def _draw2(stock: Counter, rng: np.random.Generator) -> Counter:
    cards = list(stock.elements())
    if not cards:
        return Counter()
    k = min(2, len(cards))
    idx = rng.choice(len(cards), k, replace=False)
    return Counter(cards[i] for i in idx)


#: the policies a next turn is played by (:func:`rollout_turn`): the players of
#: :mod:`.agents` (``belief`` with fewer worlds of its own, see :data:`BELIEF_PROXY`)
POLICIES = ("random", "peer", "belief")
#: ``mixed``: half of the worlds played by ``peer``, half by ``belief`` (alternately): the
#: policy of a seat the fitted model weighs, which was fitted on both kinds of play
MIXED = "mixed"
#: the ``belief`` player's settings in a rollout: its timing decisions weigh 8 worlds of its own
#: instead of 20 (the rollout is run once per sampled world)
BELIEF_PROXY = {"worlds": 8}


def _policy_agent(policy: str, view, seat: int):
    """An agent of ``policy`` (:data:`POLICIES`) playing ``seat`` whose view is ``view`` (built
    without replaying the record)."""
    from ...agents.base import resolve_agent  # noqa: PLC0415 - the registry: the players import this module

    cls = resolve_agent(policy, view.game)
    agent = object.__new__(cls)
    agent.game = view.game
    agent.seat = seat
    agent.options = dict(view.options)
    agent.header = {}
    agent.settings = {**cls.default_settings, **(BELIEF_PROXY if policy == "belief" else {})}
    agent.state = view
    agent._rng = None
    return agent


def _seat_view(full, seat: int):
    """``seat``'s view of the complete state ``full``: the other hands, the feet and the stock
    hidden (the cards known from pickups kept)."""
    v = full.copy()
    v.observer = seat
    v.zone = [Counter(z) if s == seat else None for s, z in enumerate(full.zone)]
    v.feet = [None] * full.players
    v.stock = None
    return v


def complete_state(view, world: World, rng: np.random.Generator, stock: list[str] | None = None):
    """The complete state of ``view`` in ``world``: the other players' holdings and the unpicked
    feet from ``world``, the stock's cards from ``world`` in a random order (``rng``), or in the
    order ``stock`` when given.

    Raises:
        ValueError: ``world`` does not fit ``view`` (a hidden place's size differs).
    """
    full = view.copy()
    full.observer = None
    for s in range(view.players):
        if view.zone[s] is None:
            full.zone[s] = Counter(w for w in (world["zones"].get(s) or Counter()).elements())
        if view.foot_sizes[s] and not view.in_foot[s]:
            full.feet[s] = Counter(world["feet"].get(s) or Counter())
        else:
            full.feet[s] = None
    cards = sorted(world["stock"].elements())
    if len(cards) != view.stock_count:
        raise ValueError(f"the world's stock holds {len(cards)} cards, the table {view.stock_count}")
    if stock is not None:
        full.stock = list(stock)
    else:
        full.stock = [cards[i] for i in rng.permutation(len(cards))] if cards else []
    return full


def _may_happen(view, seat: int, world: World, draw: Counter) -> bool:
    """Whether ``seat``'s cards in ``world`` allow it to open, reach its foot or go out in a
    turn that starts with drawing ``draw`` or with taking the pile (when it holds the pair):
    a necessary condition of each, by the exact checks of the rules (the most points it could
    lay: :func:`~.rules.max_meld_points`; laying every card, or every card but a discard:
    :func:`~.rules.meldable_all`; a way out: :func:`~.plan.go_out_discard`). When it is false
    no policy does any of the three, so the turn need not be played."""
    opts = view.options
    team = view.teams[seat]
    melds = view.melds[team]
    shapes = [m.shape for m in melds]
    opened = view.opened[team]
    zone = Counter(world["zones"].get(seat) or view.zone[seat] or {})
    afters = [zone + draw]
    top = view.pile[-1] if view.pile else None
    if view.pile_takeable() and sum(k for c, k in zone.items() if is_natural(c) and c[0] == top[0]) >= 2:
        afters.append(zone + Counter(view.pile_take_cards()))      # the top card too: it joins the pair
    for after in afters:
        if not opened:
            if max_meld_points(after, shapes, 0) >= view.minimum:
                return True
            continue
        if view.in_foot[seat]:
            if go_out_discard(after, melds, BookNeeds(opts["books_clean"], opts["books_dirty"]),
                              opts["out_by_laying"]) is not None:
                return True
            continue
        if meldable_all(after, shapes) or any(meldable_all(after - Counter([c]), shapes) for c in after):
            return True
    return False


def rollout_turn(view, seat: int, world: World, policy: str, rng: np.random.Generator,
                 max_actions: int = 200, stock: list[str] | None = None) -> tuple[bool, bool, bool]:
    """Play ``seat``'s next turn in ``world`` by ``policy`` (:data:`POLICIES`): ``(opens,
    reaches its foot, goes out)``.

    The turn is played on the table as it is now (the turns of the players before it are not
    played: the pile and the melds are today's); it draws from ``world``'s stock (in a random
    order) or takes the pile as its policy chooses, lays, asks to go out (its partner answers by
    the same policy) and discards. Opens: its team had not opened and has at the end of the turn;
    reaches its foot: it picked up its foot this turn; goes out: it ended the hand by going out.
    When ``seat`` is on turn already (it has drawn), the turn is played on from where it is.
    ``stock``: the stock's order (default: ``world``'s stock shuffled by ``rng``)."""
    from ...errors import IllegalAction  # noqa: PLC0415

    if view.phase == "over" or view.hand_over:
        return False, False, False
    full = complete_state(view, world, rng, stock)
    full.history = []
    full.num_hands = full.hand_no        # the rollout stops at the end of this hand
    if full.turn != seat or full.phase == "draw":
        full.turn, full.phase = seat, "draw"
        full.turn_points, full.opening, full.asked, full.permission = 0, False, False, None
        full.turn_over = False
    full.advance()
    team = full.teams[seat]
    was_open = full.opened[team]
    was_foot = full.in_foot[seat]
    # ``peer`` and ``random`` read only their own cards and the table: they play on the complete
    # state itself; ``belief`` also weighs the cards it has not seen, so it gets its own view
    def view_of(s: int):
        return _seat_view(full, s) if policy == "belief" else full

    agents = {seat: _policy_agent(policy, view_of(seat), seat)}
    for _ in range(max_actions):
        if full.phase == "over" or full.hand_over or full.turn != seat:
            break
        mover = full.to_move()
        if mover is None:
            break
        if mover not in agents:
            agents[mover] = _policy_agent(policy, view_of(mover), mover)
        try:
            action = agents[mover].act(rng)
            events = full.apply_action(action)
        except (IllegalAction, RuntimeError):
            # the world leaves the policy no legal way on (an opening begun in the record that
            # this world's cards cannot complete): the turn counts as done as it stands
            break
        for ev in events:
            for s, a in agents.items():
                if a.state is not full:          # (an agent on the complete state has seen it)
                    a.observe(full.redact(ev, s))
    out = full.went_out == seat
    return (not was_open) and full.opened[team], (not was_foot) and full.in_foot[seat], out


@dataclass
class Chances:
    """Chances that a player, within its next turn: opens (its team's first melds), reaches
    its foot (uses up its hand), goes out. ``n``: the worlds they are counted over (their
    binomial standard errors are ``sqrt(p (1 - p) / n)``); ``policy``: what played the turn
    (``"can"``: no policy, the chance that its cards allow it)."""

    open: float
    foot: float
    out: float
    n: int = 0
    policy: str = "can"

    def to_json(self) -> dict[str, float]:
        """``{"open", "foot", "out"}``."""
        return {"open": self.open, "foot": self.foot, "out": self.out}


def next_turn_chances(view, seat: int, worlds: Sequence[World], rng: np.random.Generator,
                      policy: str | None = None, per_world: Sequence[str] | None = None) -> Chances:
    """The :class:`Chances` of ``seat`` over ``worlds``.

    With a ``policy`` (:data:`POLICIES` or :data:`MIXED`): what the player *will* do: in each
    world its next turn is played by that policy (:func:`rollout_turn`; ``mixed``: worlds
    alternately by ``peer`` and ``belief``, or by ``per_world``, one policy of :data:`POLICIES`
    per world, when given) and the chances are the shares of worlds in which it
    opens, reaches its foot, goes out. A world whose cards allow none of the three
    (:func:`_may_happen`) is not played (the outcome is known), and a world that appears more
    than once in ``worlds`` (resampled by a player model) is played once per policy, its
    outcome counted each time.

    Without (``None``): what its cards *allow* (the ``belief`` player's own quick estimate):
    in each world it draws two stock cards at random (or takes the pile when it can: the top
    card's pair in hand) and can open when the points it can lay reach the minimum, reach its
    foot when it can lay all its hand but one card (its team open or opening), go out when it is
    in its foot (or lays its whole hand and so plays its foot this turn) and can lay everything
    but the card it discards (every card, under the house rule ``out_by_laying``) leaving the
    team its books."""
    if policy is not None:
        n_open = n_foot = n_out = 0
        fresh = not (view.turn == seat and view.phase != "draw")
        played: dict[tuple[int, str], tuple[bool, bool, bool]] = {}
        for i, w in enumerate(worlds):
            pol = policy if policy != MIXED else (per_world[i] if per_world is not None else ("peer", "belief")[i % 2])
            key = (id(w), pol)
            if key in played:
                # a world drawn again (the player model's resampling repeats the likely ones) is
                # played once: its outcome counts as many times as it was drawn
                o, f, g = played[key]
            else:
                cards = sorted(w["stock"].elements())
                order = [cards[j] for j in rng.permutation(len(cards))] if cards else []
                if fresh and not _may_happen(view, seat, w, Counter(order[:2])):
                    o = f = g = False      # its cards allow none of the three this turn: not played
                else:
                    o, f, g = rollout_turn(view, seat, w, pol, rng, stock=order)
                played[key] = (o, f, g)
            n_open += o
            n_foot += f
            n_out += g
        k = max(1, len(worlds))
        return Chances(n_open / k, n_foot / k, n_out / k, len(worlds), policy)
    opts = view.options
    team = view.teams[seat]
    melds = view.melds[team]
    shapes = [m.shape for m in melds]
    needs = BookNeeds(opts["books_clean"], opts["books_dirty"])
    lay_all = opts["out_by_laying"]
    opened = view.opened[team]
    top = view.pile[-1] if view.pile else None
    takeable = view.pile_takeable()
    n_open = n_foot = n_out = 0
    for w in worlds:
        zone = Counter(w["zones"].get(seat) or view.zone[seat] or {})
        pile_cards = None
        if takeable and sum(k for c, k in zone.items() if is_natural(c) and c[0] == top[0]) >= 2:
            pile_cards = Counter(view.pile_take_cards()[1:])
        after = zone + (pile_cards if pile_cards is not None else _draw2(w["stock"], rng))
        can_open = opened or max_meld_points(after, shapes, 0) >= view.minimum
        if not opened and can_open:
            n_open += 1
        if view.in_foot[seat]:
            if opened and go_out_discard(after, melds, needs, lay_all) is not None:
                n_out += 1
            continue
        lays_hand = can_open and meldable_all(after, shapes)
        empties = lays_hand or (can_open and any(meldable_all(after - Counter([c]), shapes) for c in after))
        if empties:
            n_foot += 1
            foot = w["feet"].get(seat)
            # only a hand laid to its last card brings the foot into play this turn
            if lays_hand and foot is not None and opened and go_out_discard(foot, melds, needs, lay_all) is not None:
                n_out += 1
    k = max(1, len(worlds))
    return Chances(n_open / k, n_foot / k, n_out / k, len(worlds))


def expected_held(view, seat: int, worlds: Sequence[World], own: Mapping[str, int] | None = None) -> float:
    """Expected points ``seat`` would hold against its team if the hand ended now: its cards
    (``own`` when known) and its foot if not picked up (a red three 500)."""
    total = 0.0
    for w in worlds:
        zone = own if own is not None else (w["zones"].get(seat) or {})
        pts = held_points(zone)
        if view.foot_sizes[seat]:
            pts += held_points(w["feet"].get(seat) or {})
        total += pts
    return total / max(1, len(worlds))


def red_three_risk(view, seat: int, worlds: Sequence[World]) -> float:
    """Chance that ``seat``'s unpicked foot holds a red three (0 once it is picked up)."""
    if not view.foot_sizes[seat]:
        return 0.0
    hits = sum(1 for w in worlds if any(is_red_three(c) and k > 0 for c, k in (w["feet"].get(seat) or {}).items()))
    return hits / max(1, len(worlds))


def could_go_out_soon(view, seat: int) -> bool:
    """Whether ``seat`` can plausibly go out within its next turn at all: it is in its foot and
    its team lacks at most one of the books going out needs (completing two books and going out
    in one turn, or reaching the foot and going out from it in the same turn, are left out)."""
    if not view.in_foot[seat]:
        return False
    clean, dirty = view.books(view.teams[seat])
    missing = max(0, view.options["books_clean"] - clean) + max(0, view.options["books_dirty"] - dirty)
    return missing <= 1


def opponents_out_risk(view, observer: int, worlds: Sequence[World], rng: np.random.Generator,
                       fast: bool = False, chances: Mapping[int, Chances] | None = None) -> float:
    """Chance that an opponent goes out before ``observer``'s next turn (the players after it
    in turn order, up to it, each with :func:`next_turn_chances`; partners excluded). With
    ``fast``, players that :func:`could_go_out_soon` says cannot are counted 0 without worlds.
    ``chances``: the players' :class:`Chances` computed already (the advice's: what each *will*
    do, played by its policy); a player not in it gets :func:`next_turn_chances` without a
    policy (what its cards allow: the ``belief`` player's quick estimate)."""
    team = view.teams[observer]
    p_none = 1.0
    s = (observer + 1) % view.players
    while s != observer:
        if view.teams[s] != team and (not fast or could_go_out_soon(view, s)):
            ch = chances.get(s) if chances is not None else None
            p_none *= 1.0 - (ch if ch is not None else next_turn_chances(view, s, worlds, rng)).out
        s = (s + 1) % view.players
    return 1.0 - p_none


@dataclass
class Swing:
    """Expected team points of two choices and their difference (``now - later``)."""

    now: float
    later: float
    risk: float

    @property
    def swing(self) -> float:
        """``now - later`` (positive: do it now)."""
        return self.now - self.later

    def to_json(self) -> dict[str, float]:
        """``{"now", "later", "swing", "risk"}``."""
        return {"now": round(self.now, 1), "later": round(self.later, 1), "swing": round(self.swing, 1),
                "risk": round(self.risk, 4)}


def go_out_swing(view, me: int, worlds: Sequence[World], rng: np.random.Generator,
                 my_cards: Mapping[str, int] | None = None, fast: bool = False,
                 chances: Mapping[int, Chances] | None = None) -> Swing:
    """Going out now against playing one more round, from ``me``'s team's side.

    Now: +300, the partner's held cards (hand and unpicked foot, red threes 500) count against.
    Later: with the chance ``q`` that an opponent goes out first, the team loses the bonus and
    holds ``my_cards`` and the partner's cards; otherwise the partner lays what it can next turn
    (swinging twice those points) and the team goes out then. ``chances``: as for
    :func:`opponents_out_risk`."""
    partner = view.partner[me]
    q = opponents_out_risk(view, me, worlds, rng, fast, chances)
    held_p = expected_held(view, partner, worlds) if partner is not None else 0.0
    mine = held_points(my_cards) if my_cards is not None else 0.0
    lay = 0.0
    if partner is not None:
        team = view.teams[partner]
        shapes = [m.shape for m in view.melds[team]]
        for w in worlds:
            z = (w["zones"].get(partner) or Counter()) + _draw2(w["stock"], rng)
            lay += max_meld_points(z, shapes, 1 if view.in_foot[partner] else 0)
        lay /= max(1, len(worlds))
        lay = min(lay, held_p)
    now = GO_OUT_BONUS - held_p
    later = q * (-mine - held_p) + (1 - q) * (GO_OUT_BONUS - held_p + 2 * lay)
    return Swing(now, later, q)


def answer_swing(view, me: int, worlds: Sequence[World], rng: np.random.Generator, fast: bool = False,
                 chances: Mapping[int, Chances] | None = None) -> Swing:
    """The partner's answer (``me`` answers the ask of the player on turn): yes now against no.
    Yes: +300, ``me``'s own cards and unpicked foot count against. No: the asker plays on
    (keeping at least one card); with the chance ``q`` that an opponent goes out before the
    asker's next turn the bonus is lost and both hold their cards; otherwise ``me`` lays what
    it can on its turn and the asker goes out next turn. ``chances``: as for
    :func:`opponents_out_risk`."""
    asker = view.turn
    own = view.zone[me] or Counter()
    q = opponents_out_risk(view, asker, worlds, rng, fast, chances)
    held_me = expected_held(view, me, worlds, own=own)
    team = view.teams[me]
    shapes = [m.shape for m in view.melds[team]]
    lay = 0.0
    for w in worlds:
        lay += max_meld_points(own + _draw2(w["stock"], rng), shapes, 1 if view.in_foot[me] else 0)
    lay = min(lay / max(1, len(worlds)), held_me)
    asker_keep = 5.0   # the asker keeps a card if told no (a few points)
    now = GO_OUT_BONUS - held_me
    later = q * (-held_me - asker_keep) + (1 - q) * (GO_OUT_BONUS - held_me + 2 * lay)
    return Swing(now, later, q)


def pair_chance(view, seat: int, rank: str, worlds: Sequence[World]) -> float:
    """Chance that ``seat`` holds at least two natural cards of ``rank`` (it could take the pile
    topped by that rank)."""
    hits = 0
    for w in worlds:
        z = w["zones"].get(seat) or view.zone[seat] or {}
        if sum(k for c, k in z.items() if is_natural(c) and c[0] == rank) >= 2:
            hits += 1
    return hits / max(1, len(worlds))


def pair_chance_uniform(view, observer: int, seat: int, rank: str) -> float:
    """:func:`pair_chance` without worlds, under the spread of :func:`quick_worlds`: ``seat``'s
    unknown cards are a uniform draw from the cards ``observer`` has not seen (hypergeometric)."""
    from math import comb  # noqa: PLC0415

    unseen = deck_counter(view.options) - view.visible()
    total = sum(unseen.values())
    good = sum(k for c, k in unseen.items() if is_natural(c) and c[0] == rank)
    known = sum(k for c, k in view.known[seat].items() if is_natural(c) and c[0] == rank)
    draws = view.sizes[seat] - sum(view.known[seat].values())
    need = 2 - known
    if need <= 0:
        return 1.0
    if draws <= 0 or total <= 0:
        return 0.0
    den = comb(total, draws)
    p_less = sum(comb(good, k) * comb(total - good, draws - k) for k in range(0, min(need, draws + 1))) / den
    return 1.0 - p_less


def discard_danger(view, me: int, card: str, worlds: Sequence[World] | None) -> float:
    """Chance that discarding ``card`` lets the next player, an opponent, take the pile: the
    pile would hold ``pile_min`` cards, ``card`` is a natural, and the player holds its pair."""
    nxt = (me + 1) % view.players
    if view.teams[nxt] == view.teams[me]:
        return 0.0
    if len(view.pile) + 1 < view.options["pile_min"] or not is_natural(card):
        return 0.0
    if worlds is None:
        return pair_chance_uniform(view, me, nxt, card[0])
    return pair_chance(view, nxt, card[0], worlds)


__all__ = ["World", "quick_worlds", "POLICIES", "MIXED", "complete_state", "rollout_turn", "Chances", "next_turn_chances", "expected_held", "red_three_risk",
           "could_go_out_soon", "opponents_out_risk", "Swing", "go_out_swing", "answer_swing", "pair_chance",
           "pair_chance_uniform", "discard_danger"]
