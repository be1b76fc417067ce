"""The table of a game's short notation in its doc (the section "Typing a game live
(`cardmind advise`)"), read back so that a test can check it lists exactly ``Shorthand.forms``."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECTION = "## Typing a game live (`cardmind advise`)"
_ROW = re.compile(r"\| `(.+?)` \| (.+) \| `(.+)` \|")


def notation_table(doc: str) -> list[tuple[str, str, str]]:
    """``(form, meaning, example)`` of every row of the notation table of ``docs/<doc>``
    (``\\|`` in a cell is a ``|``).

    Raises:
        ValueError: the doc has no such section.
    """
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    if SECTION not in text:
        raise ValueError(f"docs/{doc} has no section {SECTION!r}")
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        m = _ROW.fullmatch(line.strip().replace("\\|", "\x00"))
        if m:
            rows.append(tuple(x.replace("\x00", "|") for x in m.groups()))
    return rows
