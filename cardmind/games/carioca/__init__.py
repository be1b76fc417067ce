"""Carioca-style contract rummy: options, deal and states.

Sources: ``shared/seeds/carioca.txt`` and the contract rummy section of
``shared/spec/rules.md`` (where they differ, rules.md's defaults and options rule); every rule
as implemented, with the decisions taken where the texts are silent, is in ``docs/carioca.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core import Game, HintParam, check_deal, check_seats, register
from ...errors import IllegalAction
from . import notation
from .notation import check_meld_list
from .melds import Meld, can_make, find_contract, meld_error
from .notation import Discard, GoDown, LayOff, Pass, Steal, Take
from .rules import (CONTRACTS, OPTION_SPECS, card_points, check_options, deck_cards, deck_counts, hand_cards,
                    sort_hand)
from .state import CariocaState, complete_state, deal_hand
from .view import table_view as _table_view


class CariocaGame(Game):
    """Carioca-style contract rummy for 2-5 players, seven hands (rules.md options: ``players``,
    ``jokers``, ``decks``, ``out_bonus``, ``steal_penalty``, ``joker_points``, ``ace_points``,
    and for short or small games ``hands``, ``hand_size``, ``ranks``, ``suits``).

    A complete record's header carries ``hands`` (the first hand's deal), ``up`` (the card
    turned up), ``stock`` (the rest, in draw order) and ``seed`` (the referee's source for
    the later deals and the restock shuffles); a player's record carries ``observer``,
    ``hand`` and ``up``. Later hands begin with a ``deal`` event.
    """

    table_view = _table_view  # Game.table_view: the table as a seat sees it (view.py)

    name = "carioca"
    hint_params = (HintParam("max_asks", 10, "count", "how many discards to list"),)
    record_kinds = {"meld_list": check_meld_list}
    title = "Carioca (contract rummy)"
    option_specs = OPTION_SPECS
    header_schema = notation.HEADER_SCHEMA

    def check_options(self, options: dict) -> None:
        """Reject a deal that needs more cards than the pack has (see :func:`.rules.check_options`)."""
        check_options(options)

    def deck(self, options: dict) -> tuple[str, ...]:
        """Every card of the pack under ``options`` (:func:`.rules.deck_cards`)."""
        return deck_cards(options)

    def num_seats(self, options: dict) -> int:
        """The ``players`` option."""
        return options["players"]

    def observer_header(self, header: Mapping[str, Any], seat: int) -> dict:
        """``{"observer": seat, "hand": [...], "up": card}`` (never the stock or the seed)."""
        return {"observer": seat, "hand": list(header["hands"][seat]), "up": header["up"]}

    def deal(self, options: dict, rng: np.random.Generator) -> dict:
        """Shuffle with ``rng`` and deal the first hand (seat 0 first); draw the ``seed`` of the
        later deals and restocks from ``rng`` too.

        Returns:
            ``{"hands": [...], "up": card, "stock": [...], "seed": int}``.
        """
        d = deal_hand(options, 1, rng)
        d["seed"] = int(rng.integers(2**62))
        return d

    def new_state(self, options: dict, header: Mapping[str, Any]) -> CariocaState:
        """The state before the first event, checking the deal.

        Raises:
            IllegalAction: (rule ``deal``) hands of the wrong number or size, cards not in the
                pack or more copies than it has, a complete record without ``stock`` or whose
                hands, card turned up and stock are not exactly the pack, or an observer hand
                that differs from ``hands``.
        """
        players, size = options["players"], hand_cards(options, 1)
        pack = deck_counts(options)
        up = header.get("up")
        if up is None:
            raise IllegalAction("deal", "a contract rummy record needs 'up' (the card turned up to start the first hand)")
        hands, observer, hand = check_seats(header, players,
                                            "'hands', 'up' and 'stock', or 'observer', 'hand' and 'up'")
        if hands is not None:
            stock = header.get("stock")
            if stock is None:
                raise IllegalAction("deal", "a complete contract rummy record needs 'stock' (the undealt cards in "
                                            "draw order)")
            check_deal(pack, [(f"seat {s}'s hand", h, size) for s, h in enumerate(hands)]
                       + [("the card turned up", [up], 1), ("the stock", stock, None)], "the pack")
            return complete_state(self, options, header)
        check_deal(pack, [(f"seat {observer}'s hand", hand, size), ("the card turned up", [up], 1)], "the pack",
                   exact=False)
        return CariocaState(self, options, [list(hand) if s == observer else None for s in range(players)],
                            up, None, observer)

    def event_schema(self) -> dict[str, dict[str, str]]:
        """Contract rummy event keys and kinds (``docs/carioca.md``)."""
        return notation.EVENT_SCHEMA

    def action_from_json(self, obj: Mapping[str, Any]):
        """Parse a ``take``/``pass``/``steal``/``go_down``/``lay_off``/``discard`` action (see :mod:`.notation`)."""
        return notation.action_from_json(obj)

    # ------------------------------------------------------------------ doors
    def tracker_class(self) -> type:
        """:class:`~.belief.CariocaBelief`."""
        from .belief import CariocaBelief  # noqa: PLC0415

        return CariocaBelief

    def hint_engine(self):
        """:func:`~.hints.carioca_hint`: take, steal or pass; go down or wait; discards."""
        from .hints import carioca_hint  # noqa: PLC0415

        return carioca_hint

    def player_models(self) -> tuple[str, ...]:
        """``uniform`` (the exact constraint-only posterior, the default), ``peer`` and ``belief``
        (softmax models of those players' takes, passes, steals and discards: :mod:`.models`)."""
        from .models import MODELS  # noqa: PLC0415

        return MODELS

    def agent_classes(self) -> tuple[type, ...]:
        """``random``, ``peer`` and ``belief`` (:mod:`.agents`)."""
        from .agents import AGENTS  # noqa: PLC0415

        return AGENTS

    def shorthand(self):
        """:class:`~.shorthand.CariocaShorthand`: the short notation typed at the table
        (``cardmind advise carioca``; ``docs/carioca.md``, "Typing a game live")."""
        from .shorthand import CariocaShorthand  # noqa: PLC0415

        return CariocaShorthand(self)

    def codec_class(self) -> type:
        """:class:`~.codec.CariocaCodec`."""
        from .codec import CariocaCodec  # noqa: PLC0415

        return CariocaCodec


GAME = register(CariocaGame())

__all__ = [
    "CONTRACTS", "GAME", "CariocaGame", "CariocaState", "Discard", "GoDown", "LayOff", "Meld", "Pass", "Steal",
    "Take", "can_make", "card_points", "deck_cards", "find_contract", "meld_error", "sort_hand",
]
