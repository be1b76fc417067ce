"""Drive ``cardmind advise`` as a person does: the real program in a pseudo-terminal (pexpect).

:class:`Terminal` starts the command in a pty (prompt_toolkit then runs its line editor),
types lines, and reads what appears between one prompt and the next with the terminal's
escape sequences removed. A prompt of prompt_toolkit begins with the escape sequence that
turns bracketed paste on and ends with the one that turns it off, which is how the end of
each answer is found (the prompt itself is redrawn as keys are typed).
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass

pexpect = None  # imported by Terminal (the tests that use it skip without it)

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r")
PROMPT_ON = "\x1b[?2004h"
PROMPT_OFF = "\x1b[?2004l"
_PROMPT = re.compile(r"\[(\d+)\] ([^\n>]*?) >")


def plain(text: str) -> str:
    """``text`` without terminal escape sequences and carriage returns."""
    return _ANSI.sub("", text)


@dataclass
class Answer:
    """What the program printed after a line, up to its next prompt.

    Attributes:
        text: the output (escape sequences removed).
        events: the events so far (the next prompt shows the number of the next event, one
            more), or ``None`` when the program ended.
        prompt: the next prompt's words (what the rules expect next), or ``None``.
    """

    text: str
    events: int | None
    prompt: str | None


class Terminal:
    """A command running in a pseudo-terminal of ``rows`` x ``cols``.

    Args:
        args: the command line (``[sys.executable, "-m", "cardmind", "advise", ...]``).
        env: its environment (``PROMPT_TOOLKIT_NO_CPR`` is set: no cursor position requests).
        cwd: its working folder.
        timeout: seconds to wait for any answer.
    """

    def __init__(self, args: list[str], env: dict | None = None, cwd: str | None = None, timeout: float = 60,
                 rows: int = 50, cols: int = 160):
        global pexpect  # noqa: PLW0603 - pexpect is imported on first use (POSIX only)
        import pexpect as _pexpect

        pexpect = _pexpect
        e = dict(os.environ if env is None else env)
        e["PROMPT_TOOLKIT_NO_CPR"] = "1"
        e["TERM"] = "xterm"
        e.pop("COLUMNS", None)
        e.pop("LINES", None)
        self.child = pexpect.spawn(args[0], args[1:], env=e, cwd=cwd, encoding="utf-8", dimensions=(rows, cols),
                                   timeout=timeout)
        self.start = self._answer()

    def _answer(self) -> Answer:
        """Read up to the next prompt (or the end): what was printed, and the prompt."""
        i = self.child.expect_exact([PROMPT_ON, pexpect.EOF])
        text = plain(self.child.before)
        if i == 1:
            return Answer(text, None, None)
        self.child.expect(r"\[\d+\] [^\n>]*?>")
        m = _PROMPT.search(plain(self.child.after))
        return Answer(text, int(m.group(1)) - 1, m.group(2).strip())

    def type(self, line: str) -> Answer:
        """Type ``line`` and Enter; the answer up to the next prompt."""
        self.child.send(line + "\r")
        self.child.expect_exact([PROMPT_OFF])
        return self._answer()

    def keys(self, keys: str, wait_for: str | None = None) -> str:
        """Press ``keys`` (no Enter); with ``wait_for``, wait until that text is on screen and
        return what was printed (escape sequences removed)."""
        self.child.send(keys)
        if wait_for is None:
            return ""
        self.child.expect_exact(wait_for)
        return plain(self.child.before + self.child.after)

    def interrupt(self) -> str:
        """Ctrl-C; wait for the program to end; what it printed last."""
        self.child.sendcontrol("c")
        self.child.expect(pexpect.EOF)
        return plain(self.child.before)

    def close(self) -> int | None:
        """Wait for the end; the exit status."""
        if self.child.isalive():
            self.child.expect(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus


def advise_command(*args: str) -> list[str]:
    """``python -m cardmind advise ARGS`` with this interpreter."""
    return [sys.executable, "-m", "cardmind", "advise", *args]
