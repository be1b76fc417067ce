"""Snapshot (and compare) what `cardmind hint --json` and `cardmind belief --json` print for
every example record and every shared test case: the check that a refactoring changes nothing
for users (issue 26 point 7).

    python scripts/snapshot_outputs.py snap OUT.json      # run the CLI in-process on every record
    python scripts/snapshot_outputs.py diff A.json B.json  # same objects, numbers to 1e-9?

A complete record is seen from seat 0. Prints one line per difference and exits 1 if any.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def records() -> list[Path]:
    shared = ROOT.parent / "shared" / "cases"
    return sorted(ROOT.glob("examples/*.jsonl")) + sorted(shared.rglob("*.jsonl"))


def run(argv: list[str]) -> object:
    from cardmind.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    text = out.getvalue()
    try:
        return {"code": code, "json": json.loads(text)}
    except json.JSONDecodeError:
        return {"code": code, "text": text, "stderr": err.getvalue()[-300:]}


def snap(out: str) -> None:
    result = {}
    for path in records():
        first = json.loads(path.read_text().splitlines()[0])
        seat = [] if "observer" in first else ["--seat", "0"]
        # keyed the same from any checkout (a worktree has another folder name)
        rel = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path.relative_to(ROOT.parent))
        for cmd in ("hint", "belief"):
            result[f"{cmd} {rel}"] = run([cmd, str(path), "--json", *seat])
        print(rel, file=sys.stderr)
    Path(out).write_text(json.dumps(result, indent=1, sort_keys=True))


def _diff(a, b, where: str, out: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{where}.{k}: only in {'B' if k not in a else 'A'}")
            else:
                _diff(a[k], b[k], f"{where}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{where}: {len(a)} items against {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            _diff(x, y, f"{where}[{i}]", out)
    elif isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isclose(a, b, rel_tol=0, abs_tol=1e-9)):
            out.append(f"{where}: {a!r} against {b!r}")
    elif a != b:
        out.append(f"{where}: {a!r} against {b!r}")


def diff(a: str, b: str) -> int:
    out: list[str] = []
    _diff(json.loads(Path(a).read_text()), json.loads(Path(b).read_text()), "", out)
    print("\n".join(out) if out else "the same objects (numbers to 1e-9)")
    return 1 if out else 0


if __name__ == "__main__":
    if sys.argv[1] == "snap":
        snap(sys.argv[2])
    else:
        sys.exit(diff(sys.argv[2], sys.argv[3]))
