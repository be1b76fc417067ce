"""Literature (the team "ask" game): options, deal and states.

Sources: ``shared/seeds/literature.txt``, ``shared/spec/rules.md`` (Literature section).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core import MAX_ASKS, Game, check_deal, check_seats, register
from . import notation
from .notation import check_card_seat_map
from .notation import Ask, ChooseNext, Claim, Pass
from .rules import OPTION_SPECS, deal_sizes, deck_cards, set_cards, set_names, set_of, team_of, team_seats
from .state import LiteratureState
from .view import table_view as _table_view


class LiteratureGame(Game):
    """Literature for 6 or 8 players (rules.md options: ``players``, ``deck``,
    ``claim_any_time``, ``ask_own_card``, ``wrong_claim``, ``after_claim``)."""

    table_view = _table_view  # Game.table_view: the table as a seat sees it (view.py)

    name = "literature"
    hint_params = (MAX_ASKS,)
    record_kinds = {"card_seat_map": check_card_seat_map}
    title = "Literature"
    option_specs = OPTION_SPECS

    def deck(self, options: dict) -> tuple[str, ...]:
        """Every card of the pack under ``options`` (:func:`.rules.deck_cards`)."""
        return deck_cards(options["deck"])

    def num_seats(self, options: dict) -> int:
        """6 or 8, from the ``players`` option."""
        return options["players"]

    def deal(self, options: dict, rng: np.random.Generator) -> dict:
        """Shuffle the deck with ``rng`` and deal all cards round-robin from seat 0.

        Returns:
            ``{"hands": [[card, ...] per seat]}`` (each hand sorted).
        """
        cards = list(deck_cards(options["deck"]))
        order = rng.permutation(len(cards))
        players = options["players"]
        hands = [[] for _ in range(players)]
        for i, k in enumerate(order):
            hands[i % players].append(cards[k])
        index = {c: i for i, c in enumerate(deck_cards(options["deck"]))}
        return {"hands": [sorted(h, key=index.__getitem__) for h in hands]}

    def new_state(self, options: dict, header: Mapping[str, Any]) -> LiteratureState:
        """The state before the first event, checking the dealt hands against the deal.

        Raises:
            IllegalAction: (rule ``deal``) hands of the wrong number or size, cards not in the
                deck or dealt twice, cards missing, or an observer hand that differs from ``hands``.
        """
        players, deck = options["players"], options["deck"]
        sizes = deal_sizes(players, deck)
        pack = Counter(deck_cards(deck))
        pack_name = f"the {deck}-card deck"
        hands, observer, hand = check_seats(header, players)
        if hands is not None:
            check_deal(pack, [(f"seat {s}'s hand", h, sizes[s]) for s, h in enumerate(hands)], pack_name)
            return LiteratureState(self, options, [list(h) for h in hands], observer=None)
        check_deal(pack, [(f"seat {observer}'s hand", hand, sizes[observer])], pack_name, exact=False)
        return LiteratureState(self, options, [hand if s == observer else None for s in range(players)],
                               observer=observer)

    def event_schema(self) -> dict[str, dict[str, str]]:
        """Literature event keys and kinds (``records.md``)."""
        return notation.EVENT_SCHEMA

    def action_from_json(self, obj: Mapping[str, Any]):
        """Parse an ``ask``/``claim``/``pass``/``next`` action object (see :mod:`.notation`)."""
        return notation.action_from_json(obj)

    # ------------------------------------------------------------------ doors
    def teams(self, options: dict) -> list[int]:
        """Two teams: even seats (team 0) and odd seats (team 1)."""
        return [team_of(s) for s in range(options["players"])]

    def tracker_class(self) -> type:
        """:class:`~.belief.LiteratureBelief` (exact counting)."""
        from .belief import LiteratureBelief  # noqa: PLC0415

        return LiteratureBelief

    def player_models(self) -> tuple[str, ...]:
        """``auto`` (the default: each other team weighed by the fitted model that best
        explains its asks so far), ``uniform`` (the constraint-only posterior) and the fitted
        models ``peer``, ``belief``, ``random``, ``people`` (:mod:`.models`)."""
        from .models import MODEL_CHOICES  # noqa: PLC0415

        return MODEL_CHOICES

    def hint_engine(self):
        """:func:`~.hints.literature_hint`: claims, asks and the belief table."""
        from .hints import literature_hint  # noqa: PLC0415

        return literature_hint

    def agent_classes(self) -> tuple[type, ...]:
        """``random``, ``peer``, ``belief`` and ``openspiel-ismcts`` (:mod:`.agents`, :mod:`.codec`)."""
        from .agents import AGENTS  # noqa: PLC0415
        from .agents.ismcts import LiteratureISMCTSAgent  # noqa: PLC0415

        return (*AGENTS, LiteratureISMCTSAgent)

    def shorthand(self):
        """:class:`~.shorthand.LiteratureShorthand`: the short notation of ``cardmind advise``."""
        from .shorthand import LiteratureShorthand  # noqa: PLC0415

        return LiteratureShorthand(self)

    def codec_class(self) -> type:
        """:class:`~.codec.LiteratureCodec`."""
        from .codec import LiteratureCodec  # noqa: PLC0415

        return LiteratureCodec


GAME = register(LiteratureGame())

__all__ = [
    "GAME", "LiteratureGame", "LiteratureState", "Ask", "Claim", "Pass", "ChooseNext",
    "set_names", "set_cards", "set_of", "team_of", "team_seats", "deal_sizes", "deck_cards",
]
