"""Shared test fixtures: the ``../shared`` folder (rule texts, cases, human records).

Tests read ``../shared`` relative to the repository root, as CI lays it out. Outside CI a
missing folder skips the tests that need it; with ``CI`` set it is a failure.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path inside ../shared; skips (or fails under CI) when the folder is absent."""
    p = SHARED.joinpath(*parts)
    if not p.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{p} is missing: CI must provide ../shared next to the repository")
        pytest.skip(f"{p} is not available outside CI")
    return p


def shared_files(pattern: str, *parts: str) -> list[Path]:
    """Files matching ``pattern`` in a ../shared folder (collected at import time; an empty
    list when the folder is absent, which the tests using it turn into a skip or failure)."""
    folder = SHARED.joinpath(*parts)
    return sorted(folder.glob(pattern)) if folder.exists() else []


@pytest.fixture
def shared():
    """The ../shared folder (skip or fail when absent, see :func:`shared_path`)."""
    return shared_path()


def pytest_terminal_summary(terminalreporter):
    """After a run that collected the docs tests: every docs block marked ``docs:skip``, with
    its reason, in one place (``tests/docs_runner.py``), and the slowest blocks run."""
    import sys

    docs = sys.modules.get("tests.test_docs")
    if docs is None:
        return
    from . import docs_runner

    tr = terminalreporter
    tr.section("docs blocks not run (docs:skip)")
    for where, reason in docs.SKIPPED:
        tr.write_line(f"{where}: {reason}")
    if docs_runner.SECONDS:
        slow = sorted(docs_runner.SECONDS.items(), key=lambda kv: -kv[1])[:5]
        tr.write_line(f"{len(docs_runner.SECONDS)} docs blocks run in {sum(docs_runner.SECONDS.values()):.0f} s; "
                      "slowest: " + ", ".join(f"{w} {s:.1f} s" for w, s in slow))
