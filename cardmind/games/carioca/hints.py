"""The hint engine for a contract rummy player: :func:`carioca_hint`.

It asks the decision layer (:class:`~.decide.Advisor`, over the tracker's worlds) what each
choice of the moment is worth (take, steal or pass; go down now or wait; lay off; which card to
discard) and gathers it, with the opponents' chances and the cards the player still needs, into
a :class:`~.advice.CariocaHint` (what is said and how it is shown lives in :mod:`.advice`).
"""

from __future__ import annotations

from .advice import CariocaHint
from .belief import CariocaBelief
from .decide import Advisor, Option
from .rules import sort_hand


def carioca_hint(belief: CariocaBelief, max_asks: int = 10) -> CariocaHint:
    """Build the advice for ``belief``'s observer (``max_asks``: how many discards to list).

    Raises:
        Contradiction: the events leave no consistent history.
    """
    st = belief.state
    me = belief.observer
    total = belief.consistent_deals
    notes: list[str] = []
    adv = Advisor(belief, worlds=32)
    offer = go_down = None
    lay_off = None
    discards: list[Option] = []
    recommend = None
    hazard = hazard_se = None
    over = st.over or st.phase in ("hand_end", "deal")
    if over:
        notes.append("the hand is over" if not st.over else "the game is over")
    elif st.phase == "offer" and me in st.offer["order"]:
        offer = adv.offer()
        if st.to_move() == me:
            recommend = offer.action
        else:
            notes.append(f"seat {st.to_move()} decides on the discard first; the advice is for when it comes to you")
    elif st.phase == "play" and st.turn == me:
        if not st.down[me]:
            go_down = adv.go_down()
            if go_down is not None and go_down.action["type"] == "go_down":
                recommend = go_down.action
        lay_off = adv.lay_off()
        if recommend is None and lay_off is not None:
            recommend = lay_off
        discards = adv.discards()[:max(0, max_asks)]
        if recommend is None and discards:
            recommend = discards[0].action
    elif st.turn == me and st.phase == "draw":
        notes.append("your draw from the stock is due")
    else:
        notes.append(f"seat {st.to_move()} is to decide; advice comes when the discard is offered to you or "
                     f"it is your turn")
    if not over:
        try:
            hazard = round(adv.hazard(), 4)
            hazard_se = round(adv.hazard_stderr(), 4)
        except Exception:  # noqa: BLE001 - the hazard is extra information
            hazard = hazard_se = None
    opp = belief.opponent_chances()
    hold = belief.holdings()
    if not belief.exact:
        notes.append(f"the player models weigh {belief.samples} sampled worlds (effective sample "
                     f"size {belief.ess:.0f}); the card chances carry standard errors")
    hand = st.hands[me]
    missing = live = None
    needed: list[str] = []
    if not (st.over or st.phase in ("hand_end", "deal")) and not st.down[me]:
        from .melds import deficiency_cached  # noqa: PLC0415

        missing, live = adv.progress(+hand)
        needed = [c for c in sort_hand(deficiency_cached(+hand, st.sets, st.runs)[1])]
    return CariocaHint(me, len(belief.events), st.hand_no, st.sets, st.runs, st.to_move(), st.phase, total,
                       belief.exact, belief.model, sorted(hand.elements()), list(st.sizes), st.stock_count,
                       st.pile[-1] if st.pile else None, offer, go_down, lay_off, discards, opp, hold,
                       belief.known_cards(), hazard, recommend, notes,
                       missing=missing, live_outs=None if live is None else round(live, 2), needed=needed,
                       p_draw=None if live is None else adv.p_stock_helps(+hand),
                       totals=list(st.totals), last_scores=list(st.hand_scores[-1]) if st.hand_scores else None,
                       turn=st.turn, down=list(st.down), table=[dict(m) for m in st.table],
                       out_bonus=st.options["out_bonus"], samples=belief.samples if not belief.exact else 0,
                       ess=belief.ess, must=None if st.over else st.must(), seat_models=belief.seat_models(),
                       model_fit=belief.model_fit(), chose={d["seat"] for _, d in belief.decisions},
                       hazard_stderr=hazard_se, wanted_samples=len(adv.worlds()[0]) if discards else 0)


__all__ = ["carioca_hint"]
