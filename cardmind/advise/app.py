"""The terminal session of ``cardmind advise``: type each event of a live game in one short line,
see the advice after every event.

On a terminal the line editor is :mod:`prompt_toolkit` (history with the arrow keys, tab
completion of the game's words and the commands); with input from a pipe or a file the lines
are read one by one and the session is otherwise the same (for scripts and tests).

Commands (every other line is an event in the game's short notation, :mod:`cardmind.shorthand`):

``undo``   take back the last entry (the record file is rewritten without it)
``hint``   the full advice again;  ``why``: the reasoning behind it;  ``table``: the belief tables
``save [FILE]``  the record is saved after every event already; with FILE, also copy it there
``help``   the commands and every form of the game's notation;  ``quit``: stop (also Ctrl-D, Ctrl-C)

Nothing here names a game.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..errors import CardmindError
from ..shorthand import ShorthandError
from .live import LiveGame

#: the commands of the session, with what each does (``help`` prints them in this order)
COMMANDS: dict[str, str] = {
    "undo": "take back the last entry (the record file is rewritten without it)",
    "hint": "the full advice again",
    "why": "the reasoning behind the advice, with its numbers",
    "table": "the belief tables (who may hold what)",
    "save": "the record is saved after every event; 'save FILE' also copies it to FILE",
    "help": "these commands and every form of the notation",
    "quit": "stop (also Ctrl-D or Ctrl-C); continue later with --resume FILE",
}

#: what marks the advice after every event (the first line of it)
ADVICE_MARK = "»"


class AdviseApp:
    """The session loop over a :class:`LiveGame`, printing to ``console``.

    Args:
        live: the game followed.
        console: where everything is printed.
        read_line: ``read_line(prompt_text) -> str`` reads one typed line; raises ``EOFError``
            at the end of the input and ``KeyboardInterrupt`` on Ctrl-C.
        live_options: how many options the advice after every event lists.
    """

    def __init__(self, live: LiveGame, console: Console, read_line: Callable[[str], str], live_options: int = 3):
        self.live = live
        self.console = console
        self.read_line = read_line
        self.live_options = live_options

    # ------------------------------------------------------------------ output
    def banner(self, resumed: bool) -> None:
        """The first lines: the game, the seat, where the record goes."""
        g = self.live.game
        what = "Continuing" if resumed else "Following"
        n = len(self.live.events)
        self.console.print(Text(f"{what} a game of {g.title} as seat {self.live.seat}; "
                                f"{n} event{'' if n == 1 else 's'} so far.", style="bold"))
        self.console.print(f"Every event is saved to {self.live.path} as you type it. "
                           f"Type one event per line; 'help' lists the forms, 'quit' stops.")
        for note in self.live.notes:
            self.console.print(Text(f"Note: {note}", style="yellow"))

    def show_advice(self) -> None:
        """The advice of the position, in a few lines (the game's ``render_live``)."""
        try:
            advice = self.live.advice()
            advice.more = "'why'"
            # two columns less than the screen: the lines are printed indented by two
            buf = Console(record=True, width=max(40, self.console.width - 2), file=open(os.devnull, "w"),  # noqa: SIM115
                          highlight=False, soft_wrap=False)
            advice.render_live(buf, options=self.live_options)
            text = buf.export_text(styles=False).rstrip("\n")
            buf.file.close()
        except CardmindError as exc:
            self.console.print(Text(f"{ADVICE_MARK} no advice here: {exc}", style="yellow"))
            return
        except Exception as exc:  # noqa: BLE001 - the record is safe; the session goes on
            self.console.print(Text(f"{ADVICE_MARK} the advice failed ({type(exc).__name__}: {exc}); "
                                    f"the event is saved; type 'undo' if it was a mistake", style="red"))
            return
        lines = text.splitlines() or [""]
        self.console.print(Text(f"{ADVICE_MARK} {lines[0]}", style="bold green"))
        for line in lines[1:]:
            self.console.print(f"  {line}")

    def show_help(self) -> None:
        """The commands and the game's forms."""
        t = Table(title="Commands", title_justify="left", show_header=False, box=None)
        for name, doc in COMMANDS.items():
            t.add_row(name, doc)
        self.console.print(t)
        forms = self.live.shorthand.forms
        t = Table(title=f"{self.live.game.title}: one line per event (seats are numbers; you are seat "
                        f"{self.live.seat}; several entries may share a line, separated by ';')",
                  title_justify="left")
        t.add_column("form")
        t.add_column("meaning")
        t.add_column("example")
        for f in forms:
            t.add_row(f.form, f.meaning, f.example)
        self.console.print(t)

    def prompt_text(self) -> str:
        """``[N] what the rules expect next > ``: ``N`` is the number of the next event (the
        events are numbered from 1, as the advice's reasons number them: "at event 12")."""
        return f"[{len(self.live.events) + 1}] {self.live.prompt()} > "

    # ------------------------------------------------------------------ commands
    def command(self, word: str, rest: str) -> bool:
        """Run a command; return ``False`` when the session ends."""
        if word in ("quit", "exit"):
            return False
        if word == "help":
            self.show_help()
        elif word == "undo":
            removed = self.live.undo()
            if not removed:
                self.console.print("Nothing to undo.")
            else:
                self.console.print(f"Undone: {_describe(removed)}. The record file no longer has it.")
                self.show_advice()
        elif word == "hint":
            self._render(lambda a, c: a.render(c, self.live.record(), show_table=False))
        elif word == "why":
            self._render(lambda a, c: a.render_why(c))
        elif word == "table":
            self._render(lambda a, c: a.render_tables(c))
        elif word == "save":
            self.save(rest.strip())
        return True

    def _render(self, how: Callable[[Any, Console], None]) -> None:
        try:
            advice = self.live.advice()
            advice.more = "'why'"
            how(advice, self.console)
        except CardmindError as exc:
            self.console.print(Text(f"No advice here: {exc}", style="yellow"))

    def save(self, target: str) -> None:
        """Say where the record is (it is saved after every event); with ``target``, copy it there."""
        n = len(self.live.events)
        if not target:
            self.console.print(f"Saved: {self.live.path} holds the {n} events so far (it is saved after every event).")
            return
        try:
            shutil.copyfile(self.live.path, target)
        except OSError as exc:
            self.console.print(Text(f"Could not copy the record to {target}: {exc.strerror or exc}", style="red"))
            return
        self.console.print(f"Copied the record ({n} events) to {target}; the game goes on in {self.live.path}.")

    # ------------------------------------------------------------------ the loop
    def run(self, resumed: bool = False) -> int:
        """The session: banner, advice, then one line at a time until ``quit``, the end of the
        input or Ctrl-C. Returns the exit status (0; 130 after Ctrl-C)."""
        self.banner(resumed)
        self.show_advice()
        status = 0
        while True:
            try:
                line = self.read_line(self.prompt_text())
            except EOFError:
                break
            except KeyboardInterrupt:
                status = 130
                break
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            word, _, rest = text.partition(" ")
            if word.lower() in COMMANDS or word.lower() == "exit":
                try:
                    if not self.command(word.lower(), rest):
                        break
                except KeyboardInterrupt:
                    status = 130
                    break
                continue
            try:
                events = self.live.enter(text, advise=True)
            except ShorthandError as exc:
                self.console.print(Text(f"✗ {_sentence(exc.message)} Nothing was recorded.", style="red"))
                continue
            except KeyboardInterrupt:
                status = 130
                break
            self.console.print(Text(f"  recorded: {_describe(events)}", style="dim"))
            try:
                self.show_advice()
            except KeyboardInterrupt:
                status = 130
                break
        n = len(self.live.events)
        self.console.print(f"Stopped with {n} event{'' if n == 1 else 's'} saved in {self.live.path}; continue with: "
                           f"cardmind advise --resume {self.live.path}")
        return status


def _sentence(text: str) -> str:
    """``text`` ending with a full stop (unless it ends with other punctuation)."""
    text = text.rstrip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _describe(events: Iterable[dict]) -> str:
    """A short list of event types: ``"pass, pass, pass, draw"`` -> ``"3 passes, a draw"``."""
    out: list[str] = []
    last, n = None, 0
    for ev in list(events) + [None]:
        t = None if ev is None else ev["type"]
        if t == last:
            n += 1
            continue
        if last is not None:
            out.append(f"{n} × {last}" if n > 1 else last)
        last, n = t, 1
    return ", ".join(out) if out else "nothing"


# ---------------------------------------------------------------------------- line readers
def terminal_reader(live: LiveGame, history_lines: Iterable[str] = ()) -> Callable[[str], str]:
    """A :mod:`prompt_toolkit` line editor: history (the arrow keys; the lines typed so far,
    and those of a resumed game) and tab completion of the game's words and the commands."""
    from prompt_toolkit import PromptSession  # noqa: PLC0415
    from prompt_toolkit.completion import WordCompleter  # noqa: PLC0415
    from prompt_toolkit.history import InMemoryHistory  # noqa: PLC0415

    history = InMemoryHistory()
    for line in history_lines:
        if line:
            history.append_string(line)
    completer = WordCompleter(lambda: list(dict.fromkeys(list(live.words()) + list(COMMANDS))),
                              ignore_case=True, WORD=True)
    session: PromptSession = PromptSession(history=history, completer=completer, complete_while_typing=False)

    def read(prompt: str) -> str:
        return session.prompt(prompt)

    return read


def plain_reader(stream=None, echo: Console | None = None) -> Callable[[str], str]:
    """Lines from ``stream`` (default standard input), the prompt printed (and the line echoed)
    on ``echo`` so that a transcript reads as a session."""
    stream = stream or sys.stdin

    def read(prompt: str) -> str:
        line = stream.readline()
        if not line:
            raise EOFError
        if echo is not None:
            echo.print(Text(prompt + line.rstrip("\n")))
        return line

    return read


def add_advise_args(p) -> None:
    """The arguments of ``cardmind advise`` (an :mod:`argparse` parser)."""
    from ..core import game_names, get_game  # noqa: PLC0415

    live = [g for g in game_names() if get_game(g).shorthand() is not None]
    p.add_argument("game", nargs="?", help=f"the game: {', '.join(live) or 'none can be followed live'}")
    p.add_argument("--seat", type=int, default=None, help="your seat (seats are numbered 0.. in turn order)")
    p.add_argument("--hand", default=None, metavar="CARDS",
                   help="the cards you were dealt, e.g. '3C 9C JC 4D KD 2H TS 8S RJ' (some games need more: "
                        "their doc says)")
    p.add_argument("--options", default=None, metavar="JSON", help="the game's options as a JSON object")
    p.add_argument("--record", default=None, metavar="FILE",
                   help="the record file to write (default: cardmind-GAME-DATE-TIME.jsonl here); it must not exist")
    p.add_argument("--resume", default=None, metavar="FILE", help="continue the game saved in FILE")


def run_advise(args, settings_for: Callable[[Any], dict] | None = None) -> int:
    """``cardmind advise``: start or resume a session; return the exit status.

    Args:
        args: the parsed arguments (:func:`add_advise_args`).
        settings_for: ``settings_for(game) -> dict``: the belief tracker's settings for the
            game (the CLI's ``--model`` and game options); default none.

    Raises:
        CardmindError: bad arguments (a missing --seat or --hand, an unknown game or option, a
            record file that exists, a record that cannot be resumed).
    """
    from ..core import game_names, get_game  # noqa: PLC0415

    settings_for = settings_for or (lambda game: {})
    if args.resume:
        for flag, value in (("--seat", args.seat), ("--hand", args.hand), ("--options", args.options),
                            ("--record", args.record)):
            if value is not None:
                raise CardmindError(f"{flag} does not go with --resume: the record {args.resume} holds the game")
        live = LiveGame.resume(args.resume, settings_for)
        if args.game is not None and args.game != live.game.name:
            raise CardmindError(f"{args.resume} is a record of {live.game.name}, not {args.game}")
        resumed = True
    else:
        if args.game is None:
            raise CardmindError(f"name the game: cardmind advise GAME --seat N --hand CARDS "
                                f"(games: {', '.join(g for g in game_names() if get_game(g).shorthand() is not None)}), "
                                f"or continue one with --resume FILE")
        if args.seat is None or args.hand is None:
            raise CardmindError(f"say your seat and your cards: cardmind advise {args.game} --seat N --hand CARDS")
        path = args.record or _default_path(args.game)
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise CardmindError(f"--record {path}: the folder {folder} does not exist (nothing was written)")
        if os.path.exists(path):
            raise CardmindError(f"{path} exists: continue that game with --resume {path}, or choose another --record "
                                f"file (nothing was written)")
        live = LiveGame.new(args.game, args.options, args.seat, args.hand, path, settings_for(get_game(args.game)))
        resumed = False
    from ..hints.render import output_console  # noqa: PLC0415

    console = output_console()
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if interactive:
        history: list[str] = []
        if resumed:
            try:
                history = [line for line, _ in live.shorthand.lines(live.events, live._new_state())]
            except (ValueError, ShorthandError, CardmindError):
                history = []
        reader = terminal_reader(live, history)
    else:
        reader = plain_reader(echo=console)
    return AdviseApp(live, console, reader).run(resumed)


def _default_path(game: str) -> str:
    import datetime  # noqa: PLC0415

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    return f"cardmind-{game}-{stamp}.jsonl"


__all__ = ["ADVICE_MARK", "AdviseApp", "COMMANDS", "add_advise_args", "plain_reader", "run_advise", "terminal_reader"]
