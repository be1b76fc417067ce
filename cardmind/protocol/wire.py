"""What crosses the wire: JSON values that languages without big integers can read."""

from __future__ import annotations

from typing import Any

#: integers beyond this are also given as decimal strings (JavaScript's Number.MAX_SAFE_INTEGER)
MAX_SAFE_INT = 2**53 - 1


def with_int_strings(obj: Any) -> Any:
    """Add ``"<key>_str"`` (the decimal string) next to every integer field named
    ``consistent_deals`` and every integer field beyond ±(2**53 - 1), recursively, for
    languages without big integers. Returns ``obj`` (changed in place)."""
    if isinstance(obj, dict):
        for key in list(obj):
            v = obj[key]
            if isinstance(v, int) and not isinstance(v, bool) and isinstance(key, str):
                if (key == "consistent_deals" or abs(v) > MAX_SAFE_INT) and f"{key}_str" not in obj:
                    obj[f"{key}_str"] = str(v)
            else:
                with_int_strings(v)
    elif isinstance(obj, list):
        for v in obj:
            with_int_strings(v)
    return obj
