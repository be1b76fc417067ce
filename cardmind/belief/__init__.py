"""Belief tracking: exact counting of the deals consistent with one player's view.

Entry points:

* :func:`tracker_for`: the game's tracker for a record (a player's record, or a complete
  record seen from a seat), after all or some of its events;
* :func:`check_record`: reject a record whose events leave no consistent deal, naming the
  first event that made it impossible (``file:line``).

Each game brings its tracker (``Game.tracker_class``, under ``cardmind/games/<game>/``);
:mod:`~cardmind.belief.tracker` is the interface they share. Shared machinery:
:mod:`~cardmind.belief.blocks` (exact counting over blocks of interchangeable cards) and
:mod:`~cardmind.belief.cpsat` (a CP-SAT model of who holds which card).
"""

from __future__ import annotations

from ..errors import Contradiction, RecordError
from ..records import Record
from .tracker import Tracker, record_view, view_seat

__all__ = ["Tracker", "check_record", "record_view", "tracker_class", "tracker_for", "view_seat"]


def tracker_class(game):
    """The belief tracker class of ``game`` (a :class:`~cardmind.core.Game`).

    Raises:
        ValueError: the game has no belief tracker.
    """
    cls = game.tracker_class()
    if cls is None:
        raise ValueError(f"cardmind has no belief tracker for {game.name!r}")
    return cls


def tracker_for(record: Record, seat: int | None = None, upto_event: int | None = None, **settings):
    """The belief tracker of ``seat`` (default: the record's observer) after the first
    ``upto_event`` events (default: all), built by the record's game
    (:meth:`~cardmind.core.Game.tracker_class`, :meth:`Tracker.from_record`).

    Raises:
        RecordError: an illegal event, a complete record without ``seat``, a seat that is not
            one, or a player's record asked from another seat.
        ValueError: the game has no belief tracker.
    """
    return tracker_class(record.game).from_record(record, seat=seat, upto_event=upto_event, **settings)


def check_record(record: Record, seat: int | None = None) -> None:
    """Check that some deal is consistent with ``record`` as seen by ``seat`` (default:
    the observer; for a complete record the rules replay already checks everything).

    Raises:
        RecordError: ``file:line: reason`` naming the first event after which no deal fits
            and what it contradicts.
    """
    if seat is None and record.observer is None:
        return  # complete record: the rules replay with every hand known is the full check
    def consistent(k: int) -> tuple[bool, str]:
        try:
            tracker_for(record, seat, upto_event=k).consistent_deals  # noqa: B018 - evaluated for its check
            return True, ""
        except Contradiction as exc:
            return False, exc.message

    ok, reason = consistent(len(record.events))
    if ok:
        return
    # adding events only adds constraints, so consistency is monotone in the prefix length:
    # bisect for the first event after which no deal fits (a Contradiction's own event index
    # may name the older fact the new event contradicts, not the new event)
    lo, hi = 0, len(record.events)  # prefix lo is consistent, prefix hi is not
    ok0, reason0 = consistent(0)
    if not ok0:
        lo, hi, reason = -1, 0, reason0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        ok, why = consistent(mid)
        if ok:
            lo = mid
        else:
            hi, reason = mid, why
    first = hi - 1
    if 0 <= first < len(record.events):
        before = tracker_for(record, seat, upto_event=first)
        reason = before.explain_impossible(record.events[first]) or reason
    if reason == "no deal is consistent with the events":   # a bare count of zero: no single cause found
        reason = ("no deal fits this event together with the events before it (no single earlier "
                  "event explains it: the counts of cards, draws and books do not add up)")
    line = record.line_of(first) if first >= 0 else 1
    ev = record.events[first] if 0 <= first < len(record.events) else None
    what = f"{ev['type']} event" if ev else "the deal"
    raise RecordError(record.path, line, f"no deal is consistent with the record after this {what}: {reason}",
                      "contradiction")
