"""The save folder of ``cardmind serve``: records of games played in the pages.

Nothing a request sends becomes a path: a saved game gets a name made here
(``GAME-YYYYMMDD-HHMMSS-XXXXXX.jsonl``, ``GAME`` the game's name), and a game is read back only by looking its
name up among the ``*.jsonl`` files listed in the folder. No Starlette here: the web
layer (:mod:`cardmind.serve.app`) calls these functions.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import secrets
from pathlib import Path
from typing import Any

from ..errors import CardmindError, RecordError
from ..records import loads_record

#: the largest record accepted for saving, in bytes
MAX_RECORD_BYTES = 2_000_000

#: the names this module makes (and the only ones it reads)
NAME = re.compile(r"^[a-z0-9]{1,32}-\d{8}-\d{6}-[0-9a-f]{6}\.jsonl$")


class SaveError(CardmindError):
    """A record that cannot be saved, or a saved game that cannot be read.

    Attributes:
        status: the HTTP status it maps to (400, 404 or 413).
    """

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


def default_save_dir() -> Path:
    """``$XDG_DATA_HOME/cardmind/games`` (default ``~/.local/share/cardmind/games``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "cardmind" / "games"


class SaveFolder:
    """Records saved by the pages, in one folder.

    Args:
        root: the folder (made on the first save).
        max_bytes: the largest record accepted (bytes of UTF-8).
    """

    def __init__(self, root: str | os.PathLike, max_bytes: int = MAX_RECORD_BYTES):
        self.root = Path(root).expanduser().resolve()
        self.max_bytes = max_bytes

    def save(self, data: bytes) -> dict[str, Any]:
        """Check ``data`` as a ``cardmind-record/1`` record (format, header, every event by
        the rules) and write it under a new name.

        Returns:
            ``{"name", "game", "events", "bytes"}``.

        Raises:
            SaveError: too large (413), not UTF-8, or not a valid record (400; the
                message names the line).
        """
        if len(data) > self.max_bytes:
            raise SaveError(f"the record has more than {self.max_bytes} bytes", 413)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise SaveError(f"the record is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        try:
            rec = loads_record(text, path="record")
        except RecordError as exc:
            raise SaveError(str(exc)) from None
        except (ValueError, TypeError, RecursionError) as exc:
            raise SaveError(f"record: {exc}") from None
        game = re.sub(r"[^a-z0-9]", "", rec.game.name.lower())[:32] or "game"
        stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
        self.root.mkdir(parents=True, exist_ok=True)
        while True:
            name = f"{game}-{stamp}-{secrets.token_hex(3)}.jsonl"
            path = self.root / name
            try:
                with open(path, "x", encoding="utf-8") as fh:   # never overwrite
                    fh.write(text if text.endswith("\n") else text + "\n")
                break
            except FileExistsError:
                continue
        return {"name": name, "game": rec.game.name, "events": len(rec.events), "bytes": path.stat().st_size}

    def _entries(self) -> dict[str, os.DirEntry]:
        if not self.root.is_dir():
            return {}
        with os.scandir(self.root) as it:
            return {e.name: e for e in it if NAME.match(e.name) and e.is_file(follow_symlinks=False)}

    def list(self) -> list[dict[str, Any]]:
        """The saved games, newest first: ``[{"name", "game", "bytes", "saved"}]`` (``saved``:
        the file's time, ISO 8601 UTC)."""
        out = []
        for name, e in self._entries().items():
            st = e.stat(follow_symlinks=False)
            saved = _dt.datetime.fromtimestamp(st.st_mtime, _dt.timezone.utc).isoformat(timespec="seconds")
            out.append({"name": name, "game": name.split("-", 1)[0], "bytes": st.st_size, "saved": saved})
        return sorted(out, key=lambda d: (d["saved"], d["name"]), reverse=True)

    def read(self, name: str) -> str:
        """The text of the saved game ``name`` (a name from :meth:`list`).

        Raises:
            SaveError: a name this folder does not make (400), or no such saved game (404).
        """
        if not isinstance(name, str) or not NAME.match(name):
            raise SaveError(f"{name[:80]!r} is not the name of a saved game (names look like "
                            f"GAME-20260101-120000-a1b2c3.jsonl)")
        entry = self._entries().get(name)
        if entry is None:
            raise SaveError(f"no saved game {name!r}", 404)
        with open(entry.path, encoding="utf-8") as fh:   # the path the folder listing gave
            return fh.read(self.max_bytes + 1)
