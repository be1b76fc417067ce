"""The Go Fish tracker's consistency checks: the cheap per-event check the protocol and the
live advisor call (``check_consistent``), and the plain causes of a contradiction named in one
sentence (``explain_impossible``: a seat asks for or hands over a rank it is publicly known to
lack, or refuses one it is publicly known to hold)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import Contradiction


class ConsistencyChecks:
    """The Go Fish tracker's consistency checks: the cheap per-event check the protocol and the (a part of the state class, which derives from it)."""

    def explain_impossible(self, event: Mapping[str, Any], upto: int | None = None) -> str | None:
        """Why ``event`` (the next one) leaves no consistent deal, when it is one of the plain
        cases: a seat asks for (or hands over) a rank it is publicly known to hold none of
        (it refused that rank, or handed all of it over under ``give: "all"``, and has drawn
        no card and received none of that rank since), or refuses a rank it is publicly known
        to hold (it asked for it, and has handed none over and laid no book since).

        Args:
            event: the event.
            upto: the events before it are the first ``upto`` of :attr:`events` (default:
                all of them: ``event`` is the next one).

        Returns:
            The reason (a sentence naming the earlier event, numbered from 1), or ``None``
            when it is not such a case (the caller keeps its general message). Used by
            :func:`cardmind.belief.check_record` and :meth:`check_consistent`.
        """
        if event.get("type") != "ask":
            return None
        r = event.get("rank")
        checks = [(event.get("asker"), "asked for")]
        if event.get("given"):
            checks.append((event.get("target"), "handed over"))
        for seat, verb in checks:
            if seat is None or seat == self.observer:
                continue
            since = self._known_none_since(seat, r, upto)
            if since is not None:
                j, how = since
                return (f"seat {seat} {verb} {r}s, but it holds none: it {how} at event {j + 1} and has "
                        f"drawn no card and received no {r} since")
        target = event.get("target")
        if not event.get("given") and target is not None and target != self.observer:
            since = self._known_some_since(target, r, upto)
            if since is not None:
                return (f"seat {target} refused {r}s, but it holds at least one: it asked for {r}s at "
                        f"event {since + 1} and has handed none over and laid no book since")
        return None

    def _known_some_since(self, seat: int, r: str, upto: int | None = None) -> int | None:
        """The index of the last event after which ``seat`` publicly held an ``r`` (it asked
        for ``r``, which needs one), when it can have lost none since (no ``r`` handed over,
        no book laid, no phase-2 ask); else ``None``."""
        last = None
        for j, ev in enumerate(self.events[:upto]):
            kind = ev["type"]
            if kind == "ask":
                if ev["asker"] == seat and ev["rank"] == r:
                    last = j
                if ev["target"] == seat and ev["rank"] == r and ev["given"]:
                    last = None  # it handed some over, maybe its last
            elif kind == "book" and ev["player"] == seat or kind == "ask_book":
                last = None  # the book may be of r; phase 2 moves whole books
        return last

    def _known_none_since(self, seat: int, r: str, upto: int | None = None) -> tuple[int, str] | None:
        """``(event index, how)`` of the last event after which ``seat`` publicly held no
        ``r``, when it can have gained none since (no draw, no ``r`` received); else ``None``."""
        last = None
        for j, ev in enumerate(self.events[:upto]):
            kind = ev["type"]
            if kind == "ask":
                if ev["target"] == seat and ev["rank"] == r:
                    if not ev["given"]:
                        last = (j, f"refused {r}s")
                    elif self.options["give"] == "all":
                        last = (j, f"handed all its {r}s over")
                if ev["asker"] == seat and ev["rank"] == r and ev["given"]:
                    last = None  # it received some
            elif kind == "draw" and ev["player"] == seat:
                last = None  # it may have drawn one
        return last

    def check_consistent(self) -> bool:
        """Check, per event and cheaply, that some deal is still consistent with the events.

        Exact where the joint filter answers (two players, and small games): raises
        :class:`~cardmind.errors.Contradiction` when no deal fits. Where the draw engine is
        needed (three or more players, past the filter's budget) deciding it would cost a
        search per event, so it is not decided here and ``False`` is returned: the rules
        were checked, and the plain cases of :meth:`explain_impossible` (a seat asks for or
        hands over a rank it is publicly known to lack, or refuses one it is publicly known
        to hold), which raise :class:`~cardmind.errors.Contradiction`; any other
        contradiction shows up at the next query (:meth:`holdings`,
        :attr:`consistent_deals`, ...). The engine protocol's ``check`` and the live advisor
        (``cardmind advise``) call this after every event (``docs/protocol.md``).

        Returns:
            ``True`` when consistency was decided (and holds), ``False`` when it was not.

        Raises:
            Contradiction: no deal is consistent with the events (decided exactly).
        """
        if self.engine == "reference":
            if not self._run().total():
                raise Contradiction("no deal is consistent with the events")
            return True
        got = self._filter_groups()
        if got is None:
            self._check_plain()
            return False
        ff, groups = got
        if not ff.total(groups):
            raise Contradiction("no deal is consistent with the events")
        return True

    def _check_plain(self) -> None:
        """Raise :class:`Contradiction` when an event not checked yet is a plain impossible
        one (:meth:`explain_impossible`, each against the events before it)."""
        start = getattr(self, "_plain_checked", 0)
        if start > len(self.events):
            start = 0
        for i in range(start, len(self.events)):
            ev = self.events[i]
            why = self.explain_impossible(ev, upto=i) if ev.get("type") == "ask" else None
            if why is not None:
                raise Contradiction(why)
        self._plain_checked = len(self.events)
