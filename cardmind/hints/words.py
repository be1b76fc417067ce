"""Advice in a card player's words: the one format for chances, points and sets that every
game's advice uses, and the base class of the advice objects.

Every game's advice (``Game.hint_engine()``'s result) is an :class:`Advice`: besides its JSON
object (``to_json``, every number), it says what to do in one sentence (:meth:`Advice.headline`)
and prints itself for people at three depths: the live advisor's few lines after every event
(:meth:`Advice.render_live`), the full advice of ``cardmind hint`` (:meth:`Advice.render`:
plain words by default, every number with ``verbose``) and the reasoning behind it
(:meth:`Advice.render_why`).

The default text never shows the technical names of the numbers nor scientific notation; a
chance is always written by :func:`chance` ("37%", "<1%", ">99%", "certain"...).
"""

from __future__ import annotations

from typing import Any

from rich.console import Console


def chance(p: float | None, se: float | None = None) -> str:
    """A probability in percent, the one format of every game's advice.

    Args:
        p: a probability in ``[0, 1]`` (``None``: unknown, written ``"?"``).
        se: its standard error when the chance is sampled (written ``" ± 4"`` in points of
            percent when it rounds to 1 point or more).

    Returns:
        ``"0%"`` and ``"100%"`` only for exactly 0 and 1; ``"<1%"`` and ``">99%"`` for chances
        within half a point of them; otherwise the whole percent (``"37%"``).
    """
    if p is None:
        return "?"
    if p <= 0:
        text = "0%"
    elif p >= 1:
        text = "100%"
    elif p < 0.005:
        text = "<1%"
    elif p > 0.995:
        text = ">99%"
    else:
        text = f"{round(100 * p)}%"
    if se is not None and round(100 * se) >= 1:
        text += f" ± {round(100 * se)}"
    return text


def points(x: float, signed: bool = False) -> str:
    """Points as a card player says them: whole points (``"12 points"``, ``"1 point"``), with
    a sign for a gain or loss when ``signed`` (``"+12 points"``, ``"-5 points"``)."""
    n = round(x)
    word = "point" if abs(n) == 1 else "points"
    return f"{n:+d} {word}" if signed else f"{n} {word}"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 set"``, ``"3 sets"`` (``plural`` for irregular nouns)."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def big_number(n: int) -> str:
    """A large whole number in words a player reads ("about 7 × 10^39" is not one): digits
    with separators up to a trillion, beyond that "more than a trillion"."""
    if n < 10**12:
        return f"{n:,}"
    return "more than a trillion"


#: a chance below this is not worth a player's attention: "watch seat 2" (or "likely") only
#: from this chance up; below it the advice says "under 5%" or says nothing (every game)
WATCH = 0.05


def article(text: str) -> str:
    """``"a"`` or ``"an"`` for the spoken ``text`` (``"an 8%"``, ``"an 11%"``, ``"an 18%"``,
    ``"an ace"``, ``"a 9%"``)."""
    t = text.lstrip().lower()
    m = t.rstrip("%").split(" ")[0]
    if m.isdigit():
        n = int(m)
        return "an" if m.startswith("8") or n in (11, 18) or 1100 <= n < 1200 or 1800 <= n < 1900 else "a"
    return "an" if t[:1] in ("a", "e", "i", "o", "u") else "a"


class Advice:
    """Base class of every game's advice object (what ``Game.hint_engine()`` returns).

    A game overrides :meth:`to_json` and :meth:`headline`, and :meth:`render` (whose default
    prints the headline and the JSON object); :meth:`render_live`, :meth:`render_why` and
    :meth:`render_tables` have defaults built on those.

    Attributes:
        more: how the reader asks for every number, named where the text leaves some out
            (``"--verbose"`` for ``cardmind hint``; the live advisor sets ``"why"``).
    """

    more: str = "--verbose"

    def to_json(self) -> dict[str, Any]:
        """The advice as one JSON object, every number kept (``docs/hints.md``)."""
        raise NotImplementedError

    def headline(self) -> str:
        """What to do now and why, in one sentence a card player reads at the table
        ("Ask seat 2 for the 8H: it took that card at event 26."), chances in percent
        (:func:`chance`) and consequences in points or sets. When the player does not decide
        now it says what to watch for, or whose turn it is."""
        raise NotImplementedError

    def render(self, console: Console, record: Any = None, show_table: bool = True, tables_only: bool = False,
               verbose: bool = False) -> None:
        """Print the advice for people (``cardmind hint``; ``cardmind belief`` with
        ``tables_only``): the headline, then each option with its chance and its cost or gain,
        then the tables; ``verbose`` adds every number behind it. The default prints the
        headline, then the JSON object (:meth:`to_json`)."""
        if not tables_only:
            console.print(self.headline())
        console.print(self.to_json())

    def render_live(self, console: Console, options: int = 3) -> None:
        """What the live advisor prints after every event: the headline and at most
        ``options`` options, a few lines. Default: the headline."""
        console.print(self.headline())

    def render_why(self, console: Console) -> None:
        """The reasoning behind the advice (the advisor's ``why``). Default: the verbose
        advice without the tables."""
        self.render(console, None, show_table=False, verbose=True)

    def render_tables(self, console: Console) -> None:
        """The belief tables alone (the advisor's ``table``)."""
        self.render(console, None, show_table=True, tables_only=True)


__all__ = ["WATCH", "Advice", "article", "big_number", "chance", "count", "points"]
