"""The interface of a game's belief tracker, and building one from a record.

A tracker follows one seat's view of a game (its dealt hand, then every event as that seat
saw it) and answers what the constraints of those events imply about the hidden cards. Each
game brings its own (``Game.tracker_class``); the shared layers use only this interface:

* ``Tracker(options, observer, hand, **settings)``: a tracker before the first event
  (``options`` parsed, ``observer`` a seat, ``hand`` its dealt cards; ``settings`` the game's
  own, for example from :meth:`~cardmind.core.Game.tracker_settings`);
* ``state``: the observer's view (a :class:`~cardmind.core.State`; ``state.game`` is the game);
* :meth:`Tracker.observe`: add one event (raises ``IllegalAction`` when it breaks a rule);
* ``consistent_deals``: the number of deals consistent with the view (raises
  :class:`~cardmind.errors.Contradiction` when there is none);
* ``to_json()``: the posterior as a JSON object (``cardmind belief --json``);
* the members :class:`Tracker` declares with defaults, which a game overrides where it can do
  better: :meth:`~Tracker.check_consistent`, :meth:`~Tracker.explain_impossible`,
  :meth:`~Tracker.notice`, :attr:`~Tracker.exact`, :attr:`~Tracker.precision` and
  :attr:`~Tracker.model`. The shared layers use these members only, and never probe for others.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import RecordError
from ..records import feed


class Tracker:
    """Base class of the games' belief trackers (see the module docstring).

    Attributes:
        exact: whether the answer now is exact, not sampled (a class attribute or a property;
            the CLI then says that a sampling option of another game has nothing to act on).
            Default ``False``.
        precision: the target standard error (a probability, above 0 and below 0.5) of a
            sampled answer, settable for one request (``cardmind hint --precision``, the
            protocol's ``params.precision``); ``None`` (the default) when the tracker does not
            sample to a target, and then setting it has no effect.
        model: the player model the deals are weighed by (one of
            :meth:`~cardmind.core.Game.player_models`), settable; ``None`` (the default) for a
            game without player models.
    """

    exact: bool = False
    precision: float | None = None
    model: str | None = None
    #: the observer's view of the game (``state.game`` is the game); set by the constructor
    state: Any

    @property
    def consistent_deals(self) -> int | None:
        """The number of deals consistent with the observer's view (``None`` where the game
        only checks that one exists).

        Raises:
            Contradiction: no deal is consistent with the events.
        """
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """The posterior as one JSON object (``cardmind belief --json``)."""
        raise NotImplementedError

    def check_consistent(self) -> bool:
        """Check, after each event and as cheaply as the game allows, that some deal is still
        consistent with the events (the engine protocol and the live advisor call it after
        every event). The default counts the consistent deals.

        Returns:
            ``True`` when consistency was decided (and holds); ``False`` when the game decided
            it would cost too much here (a contradiction then shows at the next query).

        Raises:
            Contradiction: no deal is consistent with the events.
        """
        self.consistent_deals  # noqa: B018 - raises Contradiction when no deal fits
        return True

    def explain_impossible(self, event: Mapping[str, Any]) -> str | None:
        """Why no deal fits once ``event`` is added to the events so far, in one sentence
        that names the cause, or ``None`` (the default) when the game cannot say; used to
        name the cause of a contradiction (:func:`cardmind.belief.check_record`)."""
        return None

    def notice(self, notice: Mapping[str, Any]) -> None:
        """Take a referee's notice (a decision under way that has no event yet,
        ``State.pending_notice``); the default ignores it."""

    def observe(self, event: Mapping[str, Any]) -> None:  # pragma: no cover - every tracker has its own
        """Add one event as the observer saw it.

        Raises:
            IllegalAction: the event breaks a rule or contradicts the observer's hand.
        """
        raise NotImplementedError

    @classmethod
    def from_record(cls, record, seat: int | None = None, upto_event: int | None = None, **settings: Any):
        """The tracker of ``seat`` (default: the record's observer) after the first ``upto_event``
        events of ``record`` (default: all), the events as that seat saw them.

        Args:
            record: a :class:`~cardmind.records.Record`: a player's record, or a complete one
                (with ``seat`` given: its events are redacted for that seat).
            seat: whose view to take.
            upto_event: how many events to use.
            settings: passed to the tracker's constructor.

        Raises:
            RecordError: a complete record without ``seat``, a seat that is not one, a
                player's record asked from another seat, or an illegal event (``file:line``).
        """
        view, seat = record_view(record, seat)
        tracker = cls(view.options, seat, view.header["hand"], **settings)
        feed(view, tracker.observe, upto_event)
        return tracker


def view_seat(record, seat: int | None = None) -> int:
    """The seat whose view of ``record`` to take: ``seat``, or the observer of a player's record.

    Raises:
        RecordError: a complete record without ``seat``, a seat that is not one of the game,
            or a player's record asked from another seat.
    """
    if seat is None:
        seat = record.observer
        if seat is None:
            raise RecordError(record.path, None, "this is a complete record (it has every hand): "
                                                 "say whose view to take with --seat N")
    n = record.game.num_seats(record.options)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise RecordError(record.path, None, f"seat {seat} is not a seat of this game (0-{n - 1})")
    if not record.is_complete and seat != record.observer:
        raise RecordError(record.path, None, f"this is seat {record.observer}'s record; it cannot be seen "
                                             f"from seat {seat}")
    return seat


def record_view(record, seat: int | None = None):
    """``(record as seat sees it, seat)``: a player's record as it is, a complete record cut
    for ``seat`` (:meth:`~cardmind.records.Record.for_seat`).

    Raises:
        RecordError: as :func:`view_seat`.
    """
    seat = view_seat(record, seat)
    return (record.for_seat(seat) if record.is_complete else record), seat
