"""Calibration studies: are cardmind's chances right as often as they say? One study per game.

    python eval/calibration.py GAME [OPTIONS ...]

runs ``eval/calibration_GAME.py`` with the options (``--help`` after the game name lists
them). Each study scores the chances cardmind's default advice gives against what happened,
per bin of predicted chance (within 5 points in every bin of 100 or more predictions is the
target of issue 24), and writes its tables between its markers in ``docs/calibration.md``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def studies() -> list[str]:
    """The games with a study (``calibration_GAME.py`` beside this file)."""
    return sorted(p.stem.split("_", 1)[1] for p in HERE.glob("calibration_*.py"))


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    games = studies()
    if not argv or argv[0] not in games:
        print(f"usage: python eval/calibration.py GAME [OPTIONS ...] (GAME: {', '.join(games)})", file=sys.stderr)
        return 2
    path = HERE / f"calibration_{argv[0]}.py"
    spec = importlib.util.spec_from_file_location(f"calibration_{argv[0]}", path)
    mod = importlib.util.module_from_spec(spec)
    sys.argv = [str(path), *argv[1:]]
    spec.loader.exec_module(mod)
    return mod.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
