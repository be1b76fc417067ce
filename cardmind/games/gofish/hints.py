"""The hint engine for a Go Fish player: :func:`gofish_hint`.

It turns a :class:`~cardmind.games.gofish.belief.GoFishBelief` into a :class:`~.advice.GoFishHint`
(what is said and how it is shown lives in :mod:`.advice`): the asks that can win cards, with
their chance of a hit, the cards they win on average, their chance of completing a book and the
evidence behind them (in phase 2, the face-down books each seat may hold); the notes on how the
answer was found; and the action advised now.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...hints import turn_note
from ...hints.words import chance
from .advice import SAMPLED, GoFishAskHint, GoFishHint, at_least_one
from .belief import GoFishBelief, target_met


def gofish_hint(belief: GoFishBelief, max_asks: int = 10) -> GoFishHint:
    """Build the advice for ``belief``'s observer.

    Raises:
        Contradiction: the events leave no consistent deal.
    """
    st = belief.state
    me = belief.observer
    hold = belief.holdings()
    books = belief.books()
    total = belief.consistent_deals
    sizes = list(st.sizes)
    notes: list[str] = []
    phase = st.phase
    own = st.hands[me] or set()
    S = belief.S
    mine: list[str] = []
    hse = belief.holdings_stderr()   # sampled: the standard error of every probability
    if phase == 1:
        mine = sorted({c[0] for c in own}, key=belief.ranks.index)
        asks = _rank_asks(belief, hold, hse, mine, own, sizes)
    else:
        asks = _book_asks(belief, books)
    # scores equal up to rounding (symmetric asks) are ties: rank order, then seat, decide
    asks.sort(key=lambda a: (-round(a.score, 9), belief.ranks.index(a.rank), a.target))
    if st.to_move() != me and not st.is_over():
        notes.append(turn_note(st.to_move()))
    info = belief.sampling
    notes += _precision_notes(belief, info)
    final = None
    if st.is_over():
        detail = st.result().detail
        final = {"books": list(detail["books"]), "winners": list(detail["winners"])}
    hand = sorted(own, key=lambda c: (belief.ranks.index(c[0]), c[1]))
    draw_rank = _draw_rank(hold, mine, st.stock_count) if phase == 1 and not asks else None
    recommend, give_to, give_known = _recommend(st, me, asks, draw_rank)
    due = st._settled().must_draw
    return GoFishHint(me, len(belief.events), st.to_move(), phase, belief.players, belief.ranks, total,
                      belief.exact, asks[:max_asks], hold, books, sizes, st.stock_count, notes,
                      belief.mode, belief.stderr, info, hand=hand, final=final, method=belief.method,
                      error_bound=belief.error_bound, model=belief.model_used, model_asked=belief.model_name,
                      model_fit=belief.model_fit, holdings_stderr=hse,
                      books_stderr=belief.books_stderr() if hse is not None else None,
                      draw_due=None if due is None else due["player"],
                      draw_after=due["rank"] if due is not None and due["reason"] == "refused" else None,
                      books_held=st.books_per_seat(), give=belief.options["give"],
                      suits=S, draw_rank=draw_rank, recommend=recommend, give_to=give_to, give_known=give_known,
                      top_ask=asks[0] if asks else None, count_mode=belief.count_mode,
                      count_exact=belief.count_exact)


def _rank_asks(belief: GoFishBelief, hold: dict, hse: dict | None, mine: list[str], own: set[str],
               sizes: list[int]) -> list[GoFishAskHint]:
    """The phase-1 asks that can win cards: every rank the observer holds, asked of every other
    seat with cards, in no order yet.

    Args:
        belief: the observer's tracker.
        hold: ``{seat: {rank: {count: probability}}}``, the tracker's holdings.
        hse: the standard errors of ``hold`` (same shape) when sampled, else ``None``.
        mine: the ranks the observer holds, in the deck's rank order.
        own: the observer's cards.
        sizes: cards held per seat.

    Returns:
        A :class:`GoFishAskHint` per (rank, seat) with a chance of a hit above 0: the chance,
        the expected cards won (one per hit under ``give="one"``), the chance of completing a
        book, the reason and the score ``p + 0.3 * p_book + 0.05 * expected cards``.
    """
    me = belief.observer
    S = belief.S
    asks: list[GoFishAskHint] = []
    for r in mine:
        have = sum(1 for c in own if c[0] == r)
        for t in range(belief.players):
            if t == me or sizes[t] == 0:
                continue
            d = hold.get(t, {}).get(r, {})
            p = at_least_one(d)
            if p <= 0:   # impossible: left out (never "<1%")
                continue
            exp = sum(c * q for c, q in d.items())
            if belief.options["give"] == "one":
                exp_cards = p  # one card per hit
                p_book = p if have == S - 1 else 0.0
            else:
                exp_cards = exp
                p_book = d.get(S - have, 0.0)
            reason, why = _reason(belief, t, r, p)
            score = p + 0.3 * p_book + 0.05 * exp_cards
            se = se_book = None
            if hse is not None:
                row = hse.get(t, {}).get(r, {})
                se = float(row.get(0, 0.0)) if 0 < p < 1 else 0.0
                se_book = se if belief.options["give"] == "one" else float(row.get(S - have, 0.0))
                se_book = se_book if p_book > 0 else 0.0
            asks.append(GoFishAskHint(t, r, p, exp_cards, p_book, reason, score, why, se, se_book))
    return asks


def _book_asks(belief: GoFishBelief, books: list[dict[str, Any]]) -> list[GoFishAskHint]:
    """The phase-2 asks for face-down books: every rank whose book the observer does not
    surely hold, asked of every other seat, in no order yet.

    Args:
        belief: the observer's tracker.
        books: the tracker's books (``{"owner": seat or {seat: probability}, "known": bool,
            "ranks": {rank: probability}}``).

    Returns:
        A :class:`GoFishAskHint` per (rank, seat) whose chance that the seat holds the book is
        above 0, worth four cards per hit; when sampled, its standard error taken over the books
        as independent (an approximation).
    """
    me = belief.observer
    asks: list[GoFishAskHint] = []
    held_ranks = {r for b in books if b["owner"] == me and b["known"] for r in b["ranks"]}
    bse = belief.books_stderr()
    hidden_se = iter(bse or [])
    book_se = [next(hidden_se, None) if not b["known"] else None for b in books]
    for r in belief.ranks:
        if r in held_ranks:
            continue
        for t in range(belief.players):
            if t == me:
                continue
            p = 0.0
            var = 0.0   # sampled: the books' errors taken as independent (an approximation)
            for b, bs in zip(books, book_se):
                owner = b["owner"]
                q_owner = (1.0 if owner == t else 0.0) if not isinstance(owner, dict) else owner.get(t, 0.0)
                p += q_owner * b["ranks"].get(r, 0.0)
                if bs is not None:
                    var += (q_owner * bs["ranks"].get(r, 0.0)) ** 2
                    if isinstance(owner, dict):
                        var += (b["ranks"].get(r, 0.0) * bs["owner"].get(t, 0.0)) ** 2
            if p <= 0:
                continue
            reason = (f"seat {t} holds the book of {r}" if p >= 0.9995 else
                      f"{_pct(belief, p)} chance seat {t} holds the book of {r}")
            why = "it holds it" if p >= 0.9995 else ""
            se = float(np.sqrt(var)) if bse is not None else None
            asks.append(GoFishAskHint(t, r, p, 4 * p, 0.0, reason, p, why, se, 0.0 if se is not None else None))
    return asks


def _precision_notes(belief: GoFishBelief, info: dict | None) -> list[str]:
    """The notes on the precision asked (``belief.precision``, a standard error): reached or
    not by the sampler (``info``: ``GoFishBelief.sampling``, ``None`` when summed exactly), or
    of no effect on an exact sum."""
    notes = []
    if info is not None and info["precision"] > 0:
        se = "unknown" if info["stderr"] is None else f"{info['stderr']:.4f}"
        if not target_met(info):
            notes.append(f"the precision asked ({info['precision']:g}) was not reached: the sampler stopped at its "
                         f"cap of {info['steps']} steps with a largest standard error of {se}")
        else:
            notes.append(f"the precision asked ({info['precision']:g}) was reached: largest standard error {se} "
                         f"after {info['steps']} steps")
    if info is None and belief.precision > 0:
        notes.append(f"the precision asked ({belief.precision:g}) has no effect: the answer was summed exactly, "
                     "not sampled")
    return notes


def _recommend(st, me: int, asks: list[GoFishAskHint],
               draw_rank: tuple[str, float] | None) -> tuple[dict[str, Any] | None, int | None, bool]:
    """``(action, give_to, give_known)``: the action advised to ``me`` now as JSON (``None``:
    it does not act now): its dealt books to lay; the card to hand over (one everyone already
    knows it holds, else its first); the best ask of ``asks`` (best first); when no ask can
    win a card, an ask for ``draw_rank`` (refused, it draws). ``give_to`` and ``give_known``
    describe a card to hand over."""
    try:
        legal = st.legal_actions(me)
    except ValueError:   # a view that does not know its own books' ranks cannot ask for books
        return None, None, False
    if not legal:
        return None, None, False
    kind = legal[0].to_json()["type"]
    if kind == "lay_books":
        return legal[0].to_json(), None, False
    if kind == "give":
        public = st.public[me]
        g = next((a for a in legal if a.card in public), legal[0])
        return g.to_json(), st._settled().pending["asker"], g.card in public
    by = {(a.target, a.rank): a for a in legal if hasattr(a, "rank")}
    for h in asks:
        if (h.target, h.rank) in by:
            return by[(h.target, h.rank)].to_json(), None, False
    if draw_rank is not None:
        for a in legal:
            if getattr(a, "rank", None) == draw_rank[0]:
                return a.to_json(), None, False
    return legal[0].to_json(), None, False


def _draw_rank(hold: dict, mine: list[str], stock: int) -> tuple[str, float] | None:
    """``(rank, chance)``: of the ranks ``mine``, the one whose card is likeliest to be drawn
    next from a stock of ``stock`` cards (its expected count there over ``stock``), or
    ``None`` (no stock, no rank)."""
    if not stock or not mine:
        return None
    per = hold.get("stock", {})
    best = max(mine, key=lambda r: (sum(c * q for c, q in per.get(r, {}).items()), -mine.index(r)))
    return best, min(1.0, sum(c * q for c, q in per.get(best, {}).items()) / stock)


def _pct(belief: GoFishBelief, p: float) -> str:
    """``p`` in percent (:func:`chance`), marked as an estimate when the tracker sampled."""
    return f"{'an estimated ' if belief.mode in SAMPLED else ''}{chance(p)}"


def _reason(belief: GoFishBelief, t: int, r: str, p: float) -> tuple[str, str]:
    """Why seat ``t`` may hold rank ``r``: ``(reason, why)``, the line of the JSON naming the
    seat (``"seat 2 asked for 8s at event 30 and still holds one"``) and the same about the
    seat as "it" for the advice's sentences (``""`` when it is only a chance)."""
    st = belief.state
    for ev in reversed(belief.events):
        if ev["type"] == "ask" and ev["asker"] == t and ev["rank"] == r:
            idx = belief.events.index(ev) + 1
            if p >= 0.9995:
                return (f"seat {t} asked for {r}s at event {idx} and still holds one",
                        f"it asked for them at event {idx} and still holds one")
            return (f"seat {t} asked for {r}s at event {idx}; {_pct(belief, p)} chance it still holds one",
                    f"it asked for them at event {idx}")
        if ev["type"] == "ask" and ev["target"] == t and ev["rank"] == r and not ev["given"]:
            break
    known = sorted(c for c in st.public[t] if c[0] == r)
    if known:
        return (f"everyone saw seat {t} receive {', '.join(known)}", f"everyone saw it take {', '.join(known)}")
    if p >= 0.9995:
        return (f"seat {t} must hold a {r}: no other place is left for one",
                "no other place is left for one")
    return f"{_pct(belief, p)} chance seat {t} holds at least one {r}", ""
