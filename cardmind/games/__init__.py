"""One package per game; each registers its :class:`~cardmind.core.Game` on import."""

from __future__ import annotations

_LOADED = False


def load_all() -> None:
    """Import every built-in game package so that it registers itself."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    from . import literature  # noqa: F401, PLC0415
    from . import gofish  # noqa: F401, PLC0415
    from . import carioca  # noqa: F401, PLC0415
    from . import handfoot  # noqa: F401, PLC0415
