"""Bulgarian Go Fish ("Mind your own business"): options, deal and states.

Sources: ``shared/seeds/gofish-bulgarian.en.txt`` (and the Bulgarian original),
``shared/spec/rules.md`` (Go Fish) and ``shared/spec/records.md`` (Go Fish events); every
rule as implemented, with the decisions taken where the texts are silent, is in
``docs/gofish.md``.
"""

from __future__ import annotations

from argparse import ArgumentTypeError
from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core import MAX_ASKS, CliOption, Game, check_deal, check_seats, register
from ...errors import IllegalAction
from . import notation
from .notation import Ask, AskBook, Give, LayBooks
from .rules import (OPTION_SPECS, check_options, deck_cards, game_ranks, game_suits, next_seat,
                    rank_cards, sort_hand, stock_size)
from .state import GoFishState
from .view import table_view as _table_view


def _precision(text: str) -> float:
    """The value of ``--precision``: a standard error target, a number above 0 and below 0.5."""
    try:
        v = float(text)
    except ValueError:
        raise ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < v < 0.5:
        raise ArgumentTypeError(f"must be above 0 and below 0.5, not {text}")
    return v


def _gigabytes(text: str) -> float:
    """The value of ``--exact-memory``: a memory size in GB, a number above 0 (at most 1000)."""
    try:
        v = float(text)
    except ValueError:
        raise ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < v <= 1000:
        raise ArgumentTypeError(f"must be above 0 and at most 1000 (GB), not {text}")
    return v


class GoFishGame(Game):
    """Bulgarian Go Fish for 2-6 players (rules.md options: ``players``, ``give``,
    ``books_face_up``, ``phase2``, ``ranks``, ``suits``, ``hand``).

    A complete record's header carries ``hands`` (each seat's dealt cards) and ``stock`` (the
    undealt cards in the order they are drawn); a player's record carries ``observer`` and
    ``hand`` only.
    """

    table_view = _table_view  # Game.table_view: the table as a seat sees it (view.py)

    name = "gofish"
    hint_params = (MAX_ASKS,)
    title = "Bulgarian Go Fish (Mind your own business)"
    option_specs = OPTION_SPECS
    header_schema = notation.HEADER_SCHEMA

    def check_options(self, options: dict) -> None:
        """Reject a deal that needs more cards than the deck has (see :func:`.rules.check_options`)."""
        check_options(options)

    def deck(self, options: dict) -> tuple[str, ...]:
        """Every card of the pack under ``options`` (:func:`.rules.deck_cards`)."""
        return deck_cards(options)

    def num_seats(self, options: dict) -> int:
        """The ``players`` option."""
        return options["players"]

    def observer_header(self, header: Mapping[str, Any], seat: int) -> dict:
        """``{"observer": seat, "hand": [...]}`` (never the stock)."""
        return {"observer": seat, "hand": list(header["hands"][seat])}

    def deal(self, options: dict, rng: np.random.Generator) -> dict:
        """Shuffle the deck with ``rng``; deal ``hand`` cards to each seat round-robin from
        seat 0; the rest is the stock, drawn from its first card.

        Returns:
            ``{"hands": [[card, ...] per seat (sorted by rank, then suit)], "stock": [card, ...]}``.
        """
        cards = deck_cards(options)
        order = rng.permutation(len(cards))
        shuffled = [cards[k] for k in order]
        n, h = options["players"], options["hand"]
        hands: list[list[str]] = [[] for _ in range(n)]
        for i in range(n * h):
            hands[i % n].append(shuffled[i])
        return {"hands": [sort_hand(x) for x in hands], "stock": shuffled[n * h:]}

    def new_state(self, options: dict, header: Mapping[str, Any]) -> GoFishState:
        """The state before the first event, checking the deal.

        A header with ``hands`` is complete and must have ``stock``; a header with
        ``observer`` and ``hand`` alone gives that seat's view (a ``stock`` key beside them is
        ignored: a player does not know the stock).

        Raises:
            IllegalAction: (rule ``deal``) hands of the wrong number or size, cards not in the
                deck or dealt twice, a stock that is missing or does not hold exactly the rest
                of the deck, or an observer hand that differs from ``hands``.
        """
        players, size = options["players"], options["hand"]
        pack = Counter(deck_cards(options))
        pack_name = f"the deck (ranks {game_ranks(options)}, suits {game_suits(options)})"
        hands, observer, hand = check_seats(header, players, "'hands' and 'stock', or 'observer' and 'hand'")
        if hands is not None:
            stock = header.get("stock")
            if stock is None:
                raise IllegalAction("deal", "a complete Go Fish record needs 'stock' (the undealt cards "
                                            "in draw order)")
            check_deal(pack, [(f"seat {s}'s hand", h, size) for s, h in enumerate(hands)]
                       + [("the stock", stock, stock_size(options))], pack_name)
            return GoFishState(self, options, [list(h) for h in hands], list(stock), observer=None)
        check_deal(pack, [(f"seat {observer}'s hand", hand, size)], pack_name, exact=False)
        return GoFishState(self, options, [hand if s == observer else None for s in range(players)],
                           None, observer=observer)

    def event_schema(self) -> dict[str, dict[str, str]]:
        """Go Fish event keys and kinds (``records.md``): ``ask``, ``draw``, ``book``, ``ask_book``."""
        return notation.EVENT_SCHEMA

    def action_from_json(self, obj: Mapping[str, Any]):
        """Parse an ``ask``/``give``/``lay_books``/``ask_book`` action object (see :mod:`.notation`)."""
        return notation.action_from_json(obj)


    # ------------------------------------------------------------------ doors
    cli_options = (
        CliOption("--exact", "exact", None, "",
                  "Go Fish with 3+ players: answer by an exact sum however long it takes (the compact sum "
                  "without its time budget, else the planned sum in parts), never by sampling. By default a "
                  "position whose compact sum would take more than about a second is sampled instead (the "
                  "output says which method answered and its error bound)", switch=True),
        CliOption("--precision", "precision", _precision, "SE",
                  "where the Go Fish belief has to sample (3+ players, many unseen draws): sample "
                  "until the largest estimated standard error of a probability is at most SE "
                  "(above 0, below 0.5; e.g. 0.003; slower: see docs/gofish-belief.md), or at most 20 000 steps (the "
                  "output then says the target was not reached). Exact answers meet any SE"),
        CliOption("--exact-memory", "exact_memory", _gigabytes, "GB",
                  "Go Fish with 3+ players: past 14 unseen draws (4 players; 17 with 3) the "
                  "belief is summed exactly over every unseen draw when its tables fit in GB "
                  "gigabytes (default about 1.6), or in up to 32 parts that each fit (slower), "
                  "else sampled. More memory: fewer parts, faster exact answers"),
    )

    def tracker_class(self) -> type:
        """:class:`~.belief.GoFishBelief`."""
        from .belief import GoFishBelief  # noqa: PLC0415

        return GoFishBelief

    def tracker_settings(self, values: Mapping[str, Any], progress=None) -> dict:
        """The draw engine's options from ``--precision`` and ``--exact-memory`` (GB of tables,
        as ``exact_cells``), ``--exact`` (the tracker's ``exact_sum``), and the ``progress``
        callback (planning, part k of n)."""
        opts: dict[str, Any] = {"progress": progress}
        if values.get("precision") is not None:
            opts["precision"] = values["precision"]
        if values.get("exact_memory") is not None:
            from .draws.settings import CELL_BYTES  # noqa: PLC0415

            opts["exact_cells"] = int(values["exact_memory"] * 1e9 / CELL_BYTES)
        out: dict[str, Any] = {"draw_options": opts}
        if values.get("exact"):
            out["exact_sum"] = True
        return out

    def player_models(self) -> tuple[str, ...]:
        """``("auto", "uniform", "peer", "belief", "random")`` (:mod:`.models`): ``auto`` (the
        default) weighs each other player's asks by the ``peer``, ``belief`` and ``random`` models
        mixed by how well each explains them; ``uniform`` counts every consistent deal alike;
        ``peer``, ``belief`` and ``random`` weigh each deal by that model's likelihood of the other
        players' asks. Exact with two players; with more, sampled deals reweighted by each other
        player's recent asks (and the output says so)."""
        from .models import MODELS  # noqa: PLC0415

        return MODELS

    def shorthand(self):
        """:class:`~.shorthand.GoFishShorthand`: one short line per event for ``cardmind advise``
        (``2 asks 0 7 got 7H``, ``0 draws``, ``2 books``; ``docs/gofish.md``)."""
        from .shorthand import GoFishShorthand  # noqa: PLC0415

        return GoFishShorthand(self)

    def hint_engine(self):
        """:func:`~.hints.gofish_hint`: asks, holdings and face-down books."""
        from .hints import gofish_hint  # noqa: PLC0415

        return gofish_hint

    def agent_classes(self) -> tuple[type, ...]:
        """``random``, ``peer``, ``belief`` and ``openspiel-ismcts`` (:mod:`.agents`, :mod:`.codec`)."""
        from .agents import AGENTS  # noqa: PLC0415
        from .agents.ismcts import GoFishISMCTSAgent  # noqa: PLC0415

        return (*AGENTS, GoFishISMCTSAgent)

    def codec_class(self) -> type:
        """:class:`~.codec.GoFishCodec`."""
        from .codec import GoFishCodec  # noqa: PLC0415

        return GoFishCodec

GAME = register(GoFishGame())

__all__ = [
    "GAME", "GoFishGame", "GoFishState", "Ask", "AskBook", "Give", "LayBooks",
    "deck_cards", "game_ranks", "game_suits", "rank_cards", "next_seat", "stock_size",
]
