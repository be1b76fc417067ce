"""Hand and Foot: partnership rummy with five decks, a hand and a foot of 11 cards each.

Sources: ``shared/seeds/hand-and-foot.txt`` and the Hand and Foot section of
``shared/spec/rules.md``; every rule as implemented, with the decisions taken where the texts
are silent, is in ``docs/handfoot.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...cards import parse_card
from ...core import Game, HintParam, check_seats, register
from ...core import check_deal as check_pack
from ...errors import CardError, IllegalAction
from . import notation
from .notation import Answer, AskOut, Discard, Draw, LayOff, Meld, TakePile
from .rules import OPTION_SPECS, check_options, deck_cards, deck_counter, sort_cards, teams_of
from .state import HandFootState, check_deal
from .view import table_view as _table_view


def _card_lists(value: Any, what: str) -> list[list[str]]:
    """Check a list of card lists from a header (``deals``); canonical tokens.

    Raises:
        IllegalAction: (rule ``deal``) not a list of card lists, or an unknown card.
    """
    if not isinstance(value, list) or not all(isinstance(h, list) for h in value):
        raise IllegalAction("deal", f"{what} must be a list of card lists")
    try:
        return [[parse_card(c) for c in h] for h in value]
    except CardError as exc:
        raise IllegalAction("deal", f"{what}: {exc}") from None


class HandFootGame(Game):
    """Hand and Foot for 4 players in two partnerships (default), 6 in three, or 2 to 6
    cut-throat (rules.md options: ``players``, ``cutthroat``, ``decks``, ``hands``,
    ``minimums``, ``books_clean``, ``books_dirty``, ``pile_min``, ``failed_out_penalty``;
    for tests also ``hand_size``, ``ranks``, ``suits``, ``jokers``).

    A complete record's header carries the first hand's deal: ``hands`` (each seat's 11
    cards), ``feet`` and ``stock`` (the undealt cards in draw order), and ``deals``, the deals
    of the later hands (``[{"hands", "feet", "stock"}, ...]``); each later hand begins with a
    ``deal`` event. A player's record carries ``observer`` and ``hand`` (its first hand).
    """

    table_view = _table_view  # Game.table_view: the table as a seat sees it (view.py)

    name = "handfoot"
    hint_params = (HintParam("max_asks", 10, "count", "how many discards to list"),
                   HintParam("worlds", None, "count", "how many sampled deals the chances are computed over", nullable=True))
    title = "Hand and Foot"
    option_specs = OPTION_SPECS
    header_schema = notation.HEADER_SCHEMA

    def check_options(self, options: dict) -> None:
        """See :func:`.rules.check_options`."""
        check_options(options)

    def deck(self, options: dict) -> tuple[str, ...]:
        """Every card of the pack under ``options`` (:func:`.rules.deck_cards`)."""
        return deck_cards(options)

    def num_seats(self, options: dict) -> int:
        """The ``players`` option."""
        return options["players"]

    def teams(self, options: dict) -> list[int]:
        """Partners sit opposite (team ``seat % 2`` with four players, ``seat % 3`` with six);
        in cut-throat every seat is its own team."""
        return teams_of(options)

    def observer_header(self, header: Mapping[str, Any], seat: int) -> dict:
        """``{"observer": seat, "hand": [...]}`` (never a foot, the stock or later deals)."""
        return {"observer": seat, "hand": list(header["hands"][seat])}

    def deal_one(self, options: dict, rng: np.random.Generator) -> dict:
        """One hand's deal: shuffle the decks with ``rng``; the first ``players x hand_size``
        cards go round-robin to the hands from seat 0, the next as many to the feet, the rest
        is the stock (drawn from its first card). Hands and feet are written sorted.

        Returns:
            ``{"hands": [[card, ...] per seat], "feet": [...], "stock": [card, ...]}``.
        """
        cards = deck_cards(options)
        order = rng.permutation(len(cards))
        shuffled = [cards[k] for k in order]
        n, h = options["players"], options["hand_size"]
        hands: list[list[str]] = [[] for _ in range(n)]
        feet: list[list[str]] = [[] for _ in range(n)]
        for i in range(n * h):
            hands[i % n].append(shuffled[i])
            feet[i % n].append(shuffled[n * h + i])
        return {"hands": [sort_cards(x) for x in hands], "feet": [sort_cards(x) for x in feet],
                "stock": shuffled[2 * n * h:]}

    def deal(self, options: dict, rng: np.random.Generator) -> dict:
        """Deal every hand of the game with ``rng`` (:meth:`deal_one` each, in order): the
        first as ``hands``, ``feet``, ``stock``, the others as ``deals``."""
        first = self.deal_one(options, rng)
        later = [self.deal_one(options, rng) for _ in range(options["hands"] - 1)]
        return {**first, "deals": later}

    def new_state(self, options: dict, header: Mapping[str, Any]) -> HandFootState:
        """The state before the first event, checking the deal.

        A header with ``hands`` is complete and must have ``feet``, ``stock`` and (with more
        than one hand) ``deals``; a header with ``observer`` and ``hand`` alone gives that
        seat's view (other keys beside them are ignored: a player does not know them).

        Raises:
            IllegalAction: (rule ``deal``) hands or feet of the wrong number or size, cards not
                in the decks, a deal that is not exactly the decks, or an observer hand that
                differs from ``hands``.
        """
        n, size = options["players"], options["hand_size"]
        decks = deck_counter(options)
        hands, observer, hand = check_seats(header, n, "'hands', 'feet' and 'stock', or 'observer' and 'hand'")
        if hands is not None:
            feet, stock = header.get("feet"), header.get("stock")
            if feet is None or stock is None:
                raise IllegalAction("deal", "a complete Hand and Foot record needs 'feet' and 'stock' "
                                            "(the undealt cards in draw order)")
            check_deal(decks, hands, feet, stock, size, "the first hand's deal")
            deals = list(header.get("deals") or [])
            if len(deals) != options["hands"] - 1:
                raise IllegalAction("deal", f"a complete record of {options['hands']} hands needs 'deals' "
                                            f"for the {options['hands'] - 1} later hands, not {len(deals)}")
            clean = []
            for k, d in enumerate(deals, start=2):
                if set(d) != {"hands", "feet", "stock"}:
                    raise IllegalAction("deal", f"hand {k}'s deal needs exactly 'hands', 'feet' and 'stock'")
                dh = _card_lists(d["hands"], f"deals[{k - 2}].hands")
                df = _card_lists(d["feet"], f"deals[{k - 2}].feet")
                ds = _card_lists([d["stock"]], f"deals[{k - 2}].stock")[0]
                if len(dh) != n:
                    raise IllegalAction("deal", f"hand {k}'s deal lists {len(dh)} hands for {n} players")
                check_deal(decks, dh, df, ds, size, f"hand {k}'s deal")
                clean.append({"hands": dh, "feet": df, "stock": ds})
            return HandFootState(self, options, [list(h) for h in hands], [list(f) for f in feet], list(stock),
                                 observer=None, deals=clean)
        check_pack(decks, [(f"seat {observer}'s hand", hand, size)], "the decks", exact=False)
        return HandFootState(self, options, [list(hand) if s == observer else None for s in range(n)],
                             None, None, observer=observer)

    def event_schema(self) -> dict[str, dict[str, str]]:
        """Hand and Foot event keys and kinds (``docs/handfoot.md``)."""
        return notation.EVENT_SCHEMA

    def action_from_json(self, obj: Mapping[str, Any]):
        """Parse an action object (see :mod:`.notation`)."""
        return notation.action_from_json(obj)

    # ------------------------------------------------------------------ doors
    def tracker_class(self) -> type:
        """:class:`~.belief.HandFootBelief`."""
        from .belief import HandFootBelief  # noqa: PLC0415

        return HandFootBelief

    def player_models(self) -> tuple[str, ...]:
        """``auto`` (the default: each other seat weighed by the model that best explains its
        recent choices, ``fitted`` or none), ``uniform`` (the constraint-only posterior) and
        ``fitted`` (the softmax choice model of :mod:`.models`, fitted on simulated games, for
        every seat)."""
        from .models import MODEL_NAMES  # noqa: PLC0415

        return MODEL_NAMES

    def hint_engine(self):
        """:func:`~.hints.handfoot_hint`: draw or take, open, melds and wilds, going out, the
        partner's answer, safe discards, the others' chances."""
        from .hints import handfoot_hint  # noqa: PLC0415

        return handfoot_hint

    def agent_classes(self) -> tuple[type, ...]:
        """``random``, ``peer`` and ``belief`` (:mod:`.agents`)."""
        from .agents import AGENTS  # noqa: PLC0415

        return AGENTS

    def shorthand(self):
        """:class:`~.shorthand.HandFootShorthand`: the short notation typed live
        (``cardmind advise handfoot``; ``docs/handfoot.md``, "Typing a game live")."""
        from .shorthand import HandFootShorthand  # noqa: PLC0415

        return HandFootShorthand(self)

    def codec_class(self) -> type:
        """:class:`~.codec.HandFootCodec`."""
        from .codec import HandFootCodec  # noqa: PLC0415

        return HandFootCodec


GAME = register(HandFootGame())

__all__ = ["GAME", "HandFootGame", "HandFootState", "Draw", "TakePile", "Meld", "LayOff", "Discard", "AskOut",
           "Answer"]
