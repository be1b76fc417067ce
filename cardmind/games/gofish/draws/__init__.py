"""The draw engine: Go Fish belief for any number of players (used for 3 or more).

Semantics are those of :mod:`cardmind.games.gofish.belief` (``shared/spec/records.md``): a
consistent deal assigns every card the observer cannot locate to a seat's dealt hand, to one
of the draws the observer did not see, or to the (final) stock, so that the record is legal;
all consistent deals are equally likely. The record's end is a legal prefix (a book may still
follow the last event unless ``settled``; dealt books may still come during the opening).

**Hidden variables** (from the observer's view): the dealt hands of the ``K`` other seats as
per-rank counts ``x[s][r]``, and ``delta``, the rank of every draw the observer did not see
(another seat's unshown draw), in the order drawn.

**Given delta** every fact of the record is a fact about one rank's timeline. Replaying rank
``r``'s events in order (vectorised over every candidate vector ``x[.][r]``) tracks each other
seat's count of ``r`` (dealt, plus draws of ``r`` per delta and shown, plus cards received,
minus cards given and books) and checks: an ask (count >= 1), a refusal (== 0), a hand-over
(>= the cards given; under ``give: "all"`` nothing left), a book (== suits, then 0), no book
after a gain (< suits), phase 2's book asks (who holds the book of ``r``: its maker per the
timeline, moved by hits), dealt books (a seat dealt a complete rank lays it before play; seats
with face-down dealt books get a **counter** usage: 1 when the rank was dealt complete), and
the stock (its cards of ``r`` at the end are never negative). The **identity multiplicity**
counts how the rank's unknown card identities fill the slots (each other seat's dealt hand,
each unseen draw of ``r``, the final stock; the observer's own and shown draws are fixed
identities) such that every card first handed over by seat ``t`` came from ``t``'s dealt hand
or one of ``t``'s unseen draws of ``r`` before: a tiny enumeration (at most four cards).

The number of consistent deals with draw ranks ``delta`` is then a product over ranks coupled
only by the seats' hand sizes (and their numbers of face-down dealt books): a block product
as in :mod:`cardmind.belief.blocks`, computed here by a dense dynamic programme over the
capacity used (``_Space``: forward tables, backward tables, and context counts at any usage,
also split by a counter's value before a block, which gives the rank of the ``i``-th
face-down dealt book and, during the opening, which complete ranks a seat has laid).

**Over delta**: the ranks of the last ``exact_free`` draws are summed over inside the block
product (its state also holds which of them are used: at most ``2**m`` subsets of ``m``
draws, but only the subsets that the ranks placed so far can make and the ranks to come can
complete are stored, :meth:`_DP.live_rows`, with the ranks in the order that keeps fewest
alive, :func:`block_order`; late in a game the draws' possible ranks are narrow and few
subsets stay alive, so the default sums over *every* unseen draw when those tables fit
``EXACT_TABLE_CELLS``: :meth:`DrawEngine.plan`, or when the sum can be cut into at most
``EXACT_SPLIT_PARTS`` parts that each fit, each part limiting the ranks some draws may have:
:meth:`DrawEngine.split`). Otherwise the
ranks of the earlier ones, when they are few, are **enumerated** (a depth-first search over
the draws in order, pruned exactly: a partial delta must be consistent with the record cut
before the next unseen draw); the answer is then exact: integers (mode ``exact``) when small,
else floating point (mode ``enumerated``: exact up to rounding; the counts of a full deck pass
64 bits and Python integers are slow). Otherwise a
**Gibbs sampler** moves one draw's rank at a time, drawing it from its exact conditional
(the count for every candidate rank, all at once from one block product's contexts); the
answers average the exact conditional marginals of the visited deltas (Rao-Blackwellised),
and the number of consistent deals is estimated by sequential Monte Carlo over the draws.
The chain is kept between queries and continued when events are added.
"""

from __future__ import annotations

from . import settings
from .engine import DrawEngine, auto_exact_free

__all__ = ["DrawEngine", "auto_exact_free", "settings"]
