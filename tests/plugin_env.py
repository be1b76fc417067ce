"""The environment of a Python where the toy plugin package ``tests/plugins/cardmind_toy`` is
installed the way pip installs a distribution: its ``.dist-info`` (with the entry points
``cardmind.games`` and ``cardmind.agents``) on a ``PYTHONPATH`` of its own, next to its code.
Used by ``tests/test_plugin.py`` and ``tests/test_advise_app.py``."""

from __future__ import annotations

import os
from pathlib import Path

PLUGINS = Path(__file__).resolve().parent / "plugins"

ENTRY_POINTS = """\\
[cardmind.games]
secret = cardmind_toy:GAME
broken = cardmind_toy:NO_SUCH_GAME

[cardmind.agents]
sure = cardmind_toy.agents:SureAgent
"""


def plugin_env(site: Path) -> dict[str, str]:
    """Install the toy's ``.dist-info`` in the folder ``site``; return an environment
    (a copy of ``os.environ``) whose ``PYTHONPATH`` finds it and its code."""
    info = site / "cardmind_toy-0.1.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\\nName: cardmind-toy\\nVersion: 0.1\\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([str(site), str(PLUGINS), e.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    e["PYTHONWARNINGS"] = "default"
    return e
