"""The hint engine for a Literature player: :func:`literature_hint`.

It turns a :class:`~cardmind.games.literature.belief.LiteratureBelief` into a
:class:`~.advice.LiteratureHint` (what is said and how it is shown lives in :mod:`.advice`):
the claims the team could make, with the exact chance that each succeeds now; the asks that
can succeed, with their chance and the evidence behind them (who received, who asked within a
set, which seats can still hold the card); and the choices of the turn (whom to pass to, whom
to name after a claim, the ask to make when none can succeed).
"""

from __future__ import annotations

from ...cards import card_sort_key
from ...hints import turn_note
from .advice import AskHint, ClaimHint, LiteratureHint, exact_percent
from .belief import LiteratureBelief
from .rules import set_cards, set_names, set_of, team_of
from .state import LiteratureState


def _and(items: list) -> str:
    """``"0"``, ``"0 and 4"``, ``"0, 4 and 5"``."""
    items = [str(x) for x in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def literature_hint(belief: LiteratureBelief, max_asks: int = 10) -> LiteratureHint:
    """Build the advice for ``belief``'s observer.

    Args:
        belief: the observer's tracker (after the events to advise on).
        max_asks: how many asks to keep (best first).

    Raises:
        Contradiction: the events leave no consistent deal.
    """
    st = belief.state
    me = belief.observer
    marg = belief.marginals()
    total = belief.consistent_deals
    claims, their_claims = _claims(belief, team_of(me))
    legal = st.legal_asks(me) if st.to_move() == me else _asks_if_on_turn(belief)
    hand = st.hands[me] or set()
    asks = _asks(belief, marg, legal, hand)
    notes: list[str] = []
    if st.to_move() != me and not st.is_over():
        notes.append(turn_note(st.to_move()))
    if st.sizes[me] == 0:
        notes.append("you have no cards: you cannot ask or claim")
    sets = {name: list(set_cards(name)) for name in st.unclaimed_sets()}
    final = None
    if st.is_over():
        detail = st.result().detail
        final = {"team_sets": list(detail["team_sets"]), "void_sets": list(detail.get("void_sets", []))}
    miss_ask = None
    if st.to_move() == me and legal and not asks:
        # no ask can succeed: the one that hands the turn to the opponent with the fewest cards
        a = min(legal, key=lambda x: (st.sizes[x.target], x.target, card_sort_key(x.card)))
        miss_ask = (a.target, a.card)
    return LiteratureHint(me, len(belief.events), st.to_move(), belief.players, total, claims,
                          asks[:max_asks], marg, sets, notes, hand=sorted(hand, key=card_sort_key), final=final,
                          model=belief.model_json(), sizes=list(st.sizes), team_sets=list(st.team_sets),
                          options=dict(st.options), their_claims=their_claims, pass_to=_pass_to(st, me),
                          can_ask=bool(legal), next_to=_next_to(st, me), miss_ask=miss_ask,
                          pending=st.pending is not None, top_ask=asks[0] if asks else None)


def _claims(belief: LiteratureBelief, team: int) -> tuple[list[ClaimHint], dict[str, float]]:
    """The claims ``team`` (0 or 1, the observer's) could make now, and the sets the other team
    could claim.

    Returns:
        ``(claims, their_claims)``: a :class:`ClaimHint` for every unclaimed set the team holds
        all six cards of with a probability above 0 (its most probable assignment, counted
        exactly), most likely first (ties in the deck's set order); and ``{set: P(the other
        team holds all six)}`` for the unclaimed sets where that is above 0.
    """
    claims = []
    their_claims: dict[str, float] = {}
    for name in belief.state.unclaimed_sets():
        p_theirs = belief.team_holds_probability(name, 1 - team)
        if p_theirs > 0:
            their_claims[name] = float(p_theirs)
        p_team = belief.team_holds_probability(name)
        if p_team <= 0:
            continue
        best = belief.best_assignment(name, exact=True)
        if best is None:
            continue
        a, p_exact, ties = best
        claims.append(ClaimHint(name, a, float(p_exact), p_team, ties, p_exact == 1))
    claims.sort(key=lambda c: (-c.probability, set_names(belief.deck).index(c.set)))
    return claims, their_claims


def _ask_evidence(belief: LiteratureBelief) -> tuple[dict[tuple[int, str], int], dict[str, tuple[int, int]]]:
    """What the record says about the asks, for their reasons.

    Returns:
        ``(asked_in, received)``: ``{(seat, set): the index of its last ask within the set}``
        and ``{card: (seat, index)}`` for the last successful ask of each card (event indices
        from 0).
    """
    asked_in: dict[tuple[int, str], int] = {}
    received: dict[str, tuple[int, int]] = {}
    for t, ev in enumerate(belief.events):
        if ev["type"] == "ask":
            asked_in[(ev["asker"], set_of(ev["card"], belief.deck))] = t
            if ev["success"]:
                received[ev["card"]] = (ev["asker"], t)
    return asked_in, received


def _asks(belief: LiteratureBelief, marg: dict[str, dict[int, float]], legal: list, hand: set[str]) -> list[AskHint]:
    """The asks of ``legal`` that can succeed, best first.

    Args:
        belief: the observer's tracker.
        marg: ``{card: {seat: probability}}``, the tracker's marginals.
        legal: the asks the observer may make (on turn now, or if it were).
        hand: the observer's cards.

    Returns:
        An :class:`AskHint` for each ask whose target holds the card with a probability above 0,
        with its reason; ranked by that probability plus 0.001 per card of the set in hand
        (ties by card, then target). A certain ask is checked against the exact marginals.
    """
    asked_in, received = _ask_evidence(belief)
    exact = None
    weighted = getattr(belief, "weighted", False)
    asks = []
    for ask in legal:
        c, t = ask.card, ask.target
        p = marg.get(c, {}).get(t, 0.0)
        if p == 0:
            continue
        name = set_of(c, belief.deck)
        holders = [s for s, q in marg.get(c, {}).items() if q > 0]
        if p >= 1.0:
            if exact is None:
                exact = belief.marginals_exact()
            certain = exact[c].get(t) == 1
        else:
            certain = False
        if certain:
            reason, plain = _certain_ask_reason(c, t, received)
        else:
            reason, plain = _ask_reason(c, t, p, holders, asked_in.get((t, name)), name, weighted)
        own = sum(1 for x in set_cards(name) if x in hand)
        score = p + 0.001 * own
        asks.append(AskHint(c, t, p, reason, score, plain))
    asks.sort(key=lambda a: (-a.score, a.card, a.target))
    return asks


def _certain_ask_reason(card: str, target: int, received: dict[str, tuple[int, int]]) -> tuple[str, str]:
    """Why asking ``target`` for ``card`` cannot fail, as ``(reason, plain)``: it received the
    card (``received``: ``{card: (seat, event index)}``), or no other seat can hold it."""
    if card in received and received[card][0] == target:
        return (f"seat {target} received {card} at event {received[card][1] + 1}",
                f"it received that card at event {received[card][1] + 1}")
    return f"only seat {target} can still hold {card}", "no other seat can still hold it"


def _ask_reason(card: str, target: int, p: float, holders: list[int], asked_at: int | None, name: str,
                weighted: bool) -> tuple[str, str]:
    """Why asking ``target`` for ``card`` may succeed, as ``(reason, plain)``.

    Args:
        card, target: the ask.
        p: the probability (0..1) that ``target`` holds ``card``.
        holders: the seats that can still hold the card.
        asked_at: the index of ``target``'s last ask within the card's set ``name``, or ``None``.
        weighted: whether the chances weigh deals by player models.

    Returns:
        ``reason`` (the JSON's, with the exact percentage) and ``plain`` (a card player's words,
        no numbers).
    """
    bits = []
    if len(holders) <= 3:
        bits.append(f"only seats {_and(sorted(holders))} can still hold it")
    if asked_at is not None:
        bits.append(f"seat {target} asked for a card of {name} at event {asked_at + 1}")
    plain = "; ".join(bits) or f"{len(holders)} seats can still hold it"
    if weighted:
        reason = f"{exact_percent(p)} chance that seat {target} holds {card} (player model)"
    else:
        reason = f"{exact_percent(p)} of consistent deals put {card} at seat {target}"
    if len(holders) <= 3:
        reason += f"; only seats {', '.join(map(str, sorted(holders)))} can still hold it"
    if asked_at is not None:
        reason += f"; seat {target} asked within {name} at event {asked_at + 1}"
    return reason, plain


def _pass_to(st: LiteratureState, me: int) -> list[int]:
    """The seats ``me`` may hand the turn to (on turn, no cards, no claim pending), most cards
    first (ties by seat); empty otherwise."""
    if st.to_move() == me and st.pending is None and st.sizes[me] == 0:
        return sorted((p.to for p in st.legal_passes(me)), key=lambda s: (-st.sizes[s], s))
    return []


def _next_to(st: LiteratureState, me: int) -> list[int]:
    """The seats ``me`` may name to play next after a claim (when it chooses now), best first:
    as the belief player's default ``next_policy``, itself when it may, else the seat left
    with the most cards (ties by seat); empty when it does not choose now."""
    if st.pending is not None and st.pending_chooser() == me:
        after = list(st.sizes)
        for s in st.pending["actual"].values():
            after[s] -= 1
        return sorted(st.next_candidates(st.pending), key=lambda s: (s != me, -after[s], s))
    return []


def _asks_if_on_turn(belief: LiteratureBelief):
    """The asks the observer could make if it were on turn now."""
    st = belief.state.copy()
    if st.is_over() or st.pending is not None or st.sizes[belief.observer] == 0:
        return []
    st.turn = belief.observer
    return st.legal_asks(belief.observer)

