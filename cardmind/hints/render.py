"""Terminal rendering of advice objects with :mod:`rich` (used by the CLI)."""

from __future__ import annotations

from typing import Any

from rich.console import Console


def render_hint(hint: Any, record: Any, show_table: bool = True, tables_only: bool = False,
                console: Console | None = None) -> None:
    """Print ``hint`` (an advice object) for humans.

    Args:
        hint: an advice object (a game's ``Game.hint_engine`` result; it has ``render``).
        record: the record it was computed from (for the title).
        show_table: include the belief table.
        tables_only: print only the count and the belief table (``cardmind belief``).
    """
    console = console or Console(highlight=False, soft_wrap=False)
    if hasattr(hint, "render"):
        hint.render(console, record, show_table=show_table, tables_only=tables_only)
    else:  # an advice object without its own rendering: its JSON
        console.print(hint.to_json())
