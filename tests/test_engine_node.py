"""examples/engine_demo.js: a Node.js program plays a whole Literature game through
``cardmind engine`` (four engine seats, two scripted seats). Skipped when ``node`` is not on
the PATH, unless ``CARDMIND_REQUIRE_EXTRAS`` is set (as the README's test command does): then a
missing ``node`` fails."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .extras import missing_extra

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")


@pytest.mark.parametrize("seed", [7, 3])
def test_node_demo_plays_a_whole_game(seed):
    if NODE is None:
        missing_extra("node", "install Node.js and put node on the PATH")
    env = {**os.environ, "CARDMIND_ENGINE": json.dumps([sys.executable, "-m", "cardmind", "engine"])}
    p = subprocess.run([NODE, str(ROOT / "examples" / "engine_demo.js"), str(seed)], capture_output=True, text=True,
                       timeout=600, env=env, cwd=ROOT)
    assert p.returncode == 0, p.stdout + p.stderr
    out = p.stdout
    assert "seats: 0=belief 1=script 2=peer 3=belief 4=script 5=peer" in out
    m = re.search(r"result: team 0 \(seats 0 2 4\) (\d) sets, team 1 \(seats 1 3 5\) (\d) sets; (\d+) actions "
                  r"\(scripted seats: (\d+) and (\d+)\)", out)
    assert m, out
    t0, t1, actions, s1, s4 = map(int, m.groups())
    assert t0 + t1 == 9 and actions > 20 and s1 + s4 > 0
    assert out.count("claim: seat") == 9
