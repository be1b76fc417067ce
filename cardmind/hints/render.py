"""Terminal rendering of advice objects with :mod:`rich` (used by the CLI)."""

from __future__ import annotations

from typing import Any

from rich.console import Console


def output_console() -> Console:
    """The console for human output on stdout. On a terminal it is as wide as the terminal;
    elsewhere (a pipe, a file) it is wide enough that no table cell or line is wrapped
    (rich would wrap at 80 columns, or at ``COLUMNS``, which some environments set for
    child processes without a terminal)."""
    if Console().is_terminal:
        return Console(highlight=False, soft_wrap=False)
    return Console(highlight=False, soft_wrap=False, width=UNWRAPPED_WIDTH)


#: the width of human output that is not on a terminal: no table is this wide
UNWRAPPED_WIDTH = 1000


def render_hint(hint: Any, record: Any, show_table: bool = True, tables_only: bool = False,
                console: Console | None = None, verbose: bool = False) -> None:
    """Print ``hint`` (an advice object) for humans.

    Args:
        hint: an advice object (a game's ``Game.hint_engine`` result: a
            :class:`~cardmind.hints.words.Advice`).
        record: the record it was computed from (for the title).
        show_table: include the belief table.
        tables_only: print only the count and the belief table (``cardmind belief``).
        console: where to print (default :func:`output_console`).
        verbose: also the technical detail (a game's rendering may leave it out).
    """
    console = console or output_console()
    hint.render(console, record, show_table=show_table, tables_only=tables_only, verbose=verbose)
