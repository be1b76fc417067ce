"""The optional extras (OpenSpiel, PettingZoo, Node.js): their tests skip when an extra is
missing, unless ``CARDMIND_REQUIRE_EXTRAS`` is set (as the README's test command does), when
a missing extra fails them."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def extras_required() -> bool:
    """Whether a missing extra is a failure (``CARDMIND_REQUIRE_EXTRAS`` is set)."""
    return bool(os.environ.get("CARDMIND_REQUIRE_EXTRAS"))


def missing_extra(what: str, hint: str) -> None:
    """Fail (extras required) or skip: ``what`` is missing; ``hint`` says how to get it."""
    if extras_required():
        pytest.fail(f"CARDMIND_REQUIRE_EXTRAS is set but {what} is missing ({hint})", pytrace=False)
    pytest.skip(f"{what} is missing ({hint})", allow_module_level=True)


def require_module(module: str, extra: str) -> ModuleType:
    """Import ``module`` of the extra ``cardmind[extra]``, or fail/skip the calling module."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        missing_extra(f"{module} ({exc})", f'pip install -e ".[{extra}]"')
        raise  # unreachable: missing_extra raises
