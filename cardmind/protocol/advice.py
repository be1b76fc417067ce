"""A session's advice requests (the engine's ``hint`` and ``belief``): the tracker they need, a
player model or sampling precision for one request, and the advice as ``cardmind hint`` prints it."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import Contradiction
from ..records import Record
from .errors import ProtocolError
from .wire import with_int_strings



class SessionAdvice:
    """A session's advice requests (the engine's ``hint`` and ``belief``): the tracker they need, a (a part of the state class, which derives from it)."""

    # ------------------------------------------------------------------ advice
    def _tracker_required(self):
        if self.role != "player":
            raise ProtocolError("wrong_role", "a referee session gives no advice (open a player session)")
        t = self._tracker_get()
        if t is None:
            raise ProtocolError("unsupported", self.tracker_reason)
        return t

    @contextmanager
    def _query(self, tracker: Any, params: dict[str, Any]) -> Iterator[None]:
        """A belief or hint request: takes ``precision`` out of ``params`` and applies it to a
        Go Fish tracker for the request (ignored for a game whose belief is always exact),
        and ``model`` (one of the game's ``player_models()``: the tracker's settable ``model``)
        likewise, restoring both afterwards; a contradiction becomes a protocol error.

        Raises:
            ProtocolError: ``bad_request`` (``precision`` not a number above 0 and below
                0.5; a ``model`` the game does not have), ``contradiction``.
        """
        unset = object()
        model_before = unset
        if "model" in params:
            name = params.pop("model")
            models = self.game.player_models()
            if not isinstance(name, str) or name not in models:
                raise ProtocolError("bad_request", f"parameter 'model' must be one of the player models of "
                                                   f"{self.game.name} ({', '.join(models) if models else 'none'}), "
                                                   f"not {name!r}")
            model_before = tracker.model
            tracker.model = name
        before = unset
        if "precision" in params:
            se = params.pop("precision")
            if isinstance(se, bool) or not isinstance(se, (int, float)) or not 0 < se < 0.5:
                raise ProtocolError("bad_request", f"parameter 'precision' must be a number above 0 and below "
                                                   f"0.5, not {se!r}")
            if tracker.precision is not None:     # Tracker.precision: None when it does not sample
                before = tracker.precision
                tracker.precision = se
        try:
            yield
        except Contradiction as exc:
            raise ProtocolError("contradiction", f"no deal is consistent with the events: {exc.message}") from None
        finally:
            if before is not unset:
                tracker.precision = before
            if model_before is not unset:
                tracker.model = model_before

    def hint(self, **params: Any) -> dict[str, Any]:
        """The seat's advice: ``cardmind.hints.hint_for(tracker, **params).to_json()``
        (``docs/hints.md``), with ``consistent_deals_str``. ``precision`` (Go Fish; ignored
        for Literature): for this request, sample until the largest estimated standard error
        is at most that (see :attr:`~cardmind.games.gofish.belief.GoFishBelief.precision`).
        ``model``: for this request, weigh the deals by this player model of the game
        (``Game.player_models()``; the advice names the model used).

        Raises:
            ProtocolError: ``unsupported`` (no tracker or hint engine for the game),
                ``contradiction``, ``bad_request`` (a parameter the hint engine does not take).
        """
        return self.hint_and_text(**params)[0]

    def hint_and_text(self, text: bool = False, **params: Any) -> tuple[dict[str, Any], str | None]:
        """As :meth:`hint`, and with ``text`` true also the advice as ``cardmind hint`` prints
        it for this position (the same renderer, :func:`cardmind.hints.render.render_hint`,
        plain text without colour, lines not wrapped; ``cardmind hint --asks K`` with
        ``K = max_asks``), else ``None``.

        Raises:
            ProtocolError: as :meth:`hint`; ``bad_request`` when ``text`` is not true or false.
        """
        if not isinstance(text, bool):
            raise ProtocolError("bad_request", f"hint parameter 'text' must be true or false, not {text!r}")
        tracker = self._tracker_required()
        from ..hints import hint_for, hint_params  # noqa: PLC0415

        params = dict(params)
        try:
            known = hint_params(tracker) + ["precision", "model", "text"]
        except ValueError as exc:
            raise ProtocolError("unsupported", str(exc)) from None
        unknown = sorted(set(params) - set(known))
        if unknown:
            raise ProtocolError("bad_request", f"unknown hint parameters: {unknown} (this game's hint takes "
                                               f"{', '.join(repr(x) for x in known)})")
        from ..records import check_kind  # noqa: PLC0415

        for p in self.game.hint_params:      # each given parameter has the kind its game declares
            if p.name in params and not (p.nullable and params[p.name] is None):
                try:
                    check_kind(p.kind, params[p.name], f"hint parameter {p.name!r}")
                except ValueError as exc:
                    raise ProtocolError("bad_request", str(exc)) from None
        with self._query(tracker, params):
            try:
                h = hint_for(tracker, **params)
            except TypeError as exc:
                raise ProtocolError("bad_request", f"bad hint parameters: {exc}") from None
            except ValueError as exc:
                raise ProtocolError("unsupported", str(exc)) from None
            return with_int_strings(h.to_json()), (self._render(h) if text else None)

    def _render(self, advice: Any) -> str:
        """``advice`` as ``cardmind hint`` prints it to a file or pipe."""
        from rich.console import Console  # noqa: PLC0415

        from ..hints.render import UNWRAPPED_WIDTH, render_hint  # noqa: PLC0415

        out = io.StringIO()
        console = Console(file=out, highlight=False, soft_wrap=False, width=UNWRAPPED_WIDTH, color_system=None,
                          force_terminal=False, force_jupyter=False)
        events = self.events
        rec = Record(self.game, dict(self.options), dict(self.header), events, "<session>",
                     list(range(2, len(events) + 2)))
        render_hint(advice, rec, show_table=True, verbose=False, console=console)
        return out.getvalue()

    def belief(self, **params: Any) -> dict[str, Any]:
        """The posterior: ``tracker.to_json()`` (for Literature ``consistent_deals``,
        ``marginals``, ``claims``) with ``consistent_deals_str``. ``params``: only
        ``precision`` and ``model`` (as in :meth:`hint`).

        Raises:
            ProtocolError: ``unsupported``, ``contradiction`` or ``bad_request`` (another
                parameter, or a bad ``precision``).
        """
        tracker = self._tracker_required()
        unknown = sorted(set(params) - {"precision", "model"})
        if unknown:
            raise ProtocolError("bad_request", f"unknown belief parameters: {unknown} (only 'precision' and 'model')")
        with self._query(tracker, dict(params)):
            return with_int_strings(tracker.to_json())
