"""Regression: seeded ``random`` v ``random`` games are bit-identical to before the speed-ups.

The table was recorded with the original implementations (before the bitmask
CertainKnowledge, the faster LiteratureState checks and RandomAgent's direct pick) by
playing ``play_game`` with ``deal_rng = default_rng(seed)`` and seat ``s`` playing with
``default_rng([seed, s])``, ``max_actions=3000``. For every game it keeps the number of
events, the sets won per team (``None`` for a game stopped at ``max_actions``) and the first
20 hex digits of the SHA-256 of ``{"hands", "events"}`` as sorted JSON: the whole deal and
every event, in order.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from cardmind.agents.base import resolve_agent
from cardmind.agents.match import play_game
from cardmind.core import get_game

GAME = get_game("literature")
MAX_ACTIONS = 3000

#: (options, ((seed, events, team_sets or None, sha256[:20]), ...))
RECORDED = (
    ({"players": 6}, (
        (0, 319, [4, 5], '5c1723475cd68c560c8a'),
        (1, 249, [3, 6], 'fc1fc01fdb598d9ebf98'),
        (2, 292, [5, 4], 'ceacc4687d67c276a7cf'),
        (3, 427, [5, 4], '448b96bca7f617504143'),
        (4, 400, [7, 2], '4207857939d7790fffef'),
        (5, 254, [6, 3], 'e94acbfc860f853e729e'),
    )),
    ({"players": 8}, (
        (0, 403, [3, 6], 'dc820787cd374c74b758'),
        (1, 358, [3, 6], 'a125f078a70d998370fe'),
        (2, 284, [4, 5], '5fed75ad4f84c7314a05'),
        (3, 534, [5, 4], '445f61dc94ba0be5e75a'),
        (4, 402, [6, 3], '795329ccaccec0e9908b'),
        (5, 405, [4, 5], '2e70433e2413d89a2a46'),
    )),
    ({"ask_own_card": True, "claim_any_time": True, "players": 6}, (
        (0, 3003, None, 'ecd0f7d2fb4d43aac6fb'),
        (1, 1012, [3, 6], '6f4b17f229892ef91389'),
        (2, 3003, None, 'b032e9e7459d5e9a7689'),
        (3, 920, [4, 5], 'd94af9cb813da1d8a656'),
        (4, 1281, [6, 3], 'adacdca162fe9b8d6815'),
        (5, 3004, None, '7488b0077a47ba31fd56'),
    )),
    ({"ask_own_card": True, "claim_any_time": True, "deck": "48", "players": 8}, (
        (0, 1004, [5, 3], '2cf893ec0bdc8eb56e86'),
        (1, 1670, [1, 7], '522b0f323be3e16305e2'),
        (2, 1121, [2, 6], '5e45cad4f60b16e15003'),
        (3, 648, [8, 0], '57c3177a89b6375719b3'),
        (4, 1383, [7, 1], '93c01feec0811a38e288'),
        (5, 1973, [1, 7], 'ad49f2a72931d4109b59'),
    )),
    ({"after_claim": "claimant", "deck": "48", "players": 6, "wrong_claim": "cancel"}, (
        (0, 459, [3, 5], 'ca9a7ff456a5b861a631'),
        (1, 220, [6, 2], 'cfa8e4e2d09bcb4f53b9'),
        (2, 342, [4, 4], '71c335e61e6ec479cbeb'),
        (3, 270, [6, 2], 'e9f544c3c1fd6745fdf9'),
        (4, 257, [4, 4], '567f9633370c1deee151'),
        (5, 247, [3, 5], '57fa6e11824123302e02'),
    )),
    ({"after_claim": "claimant", "ask_own_card": True, "players": 8}, (
        (0, 3000, None, '31e0a43b0c61243f90ea'),
        (1, 3000, None, '7b70841d3703ff9604c9'),
        (2, 3000, None, 'db394c5e6c6e1834035f'),
        (3, 655, [5, 4], 'cbc57229de2c8999c37f'),
        (4, 977, [9, 0], '1dc792a54b87c0ac55c7'),
        (5, 2578, [3, 6], '79ef0ec9cd2961081c05'),
    )),
    ({"claim_any_time": True, "deck": "48", "players": 8}, (
        (0, 383, [2, 6], '9ae1615e7d73f67c4636'),
        (1, 306, [3, 5], 'bbd5de3dbdc5e282be93'),
        (2, 473, [5, 3], 'ba810ff8857b84fb5c5e'),
        (3, 225, [4, 4], 'a82639a264e6ef245350'),
        (4, 471, [5, 3], '6cafbc62e1b4011db740'),
        (5, 423, [2, 6], 'a2016612821516cfe976'),
    )),
    ({"ask_own_card": True, "players": 6, "wrong_claim": "cancel"}, (
        (0, 2997, None, 'a4e65de26a04cd314086'),
        (1, 758, [5, 4], '8e59ce7db9cceb5923e8'),
        (2, 2994, None, '1b0088eea53df65ed493'),
        (3, 727, [5, 4], '29bde20d196fe670c2f6'),
        (4, 1012, [6, 3], 'b51cf90be51030edf801'),
        (5, 2996, None, '7a170abcbc683dca8adc'),
    )),
)


def _digest(hands, events) -> str:
    blob = json.dumps({"hands": hands, "events": events}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


@pytest.mark.parametrize("options,games", RECORDED, ids=[",".join(f"{k}={v}" for k, v in o.items()) for o, _ in RECORDED])
def test_random_games_unchanged(options, games):
    cls = resolve_agent("random", GAME)
    n = options["players"]
    for seed, num_events, team_sets, digest in games:
        res = play_game(GAME, options, [cls] * n, np.random.default_rng(seed),
                        [np.random.default_rng([seed, s]) for s in range(n)], max_actions=MAX_ACTIONS)
        assert res.forfeit is None, res.forfeit_reason
        where = f"seed {seed}"
        assert len(res.record.events) == num_events, where
        if team_sets is None:
            assert res.unfinished and res.result is None, where
        else:
            assert res.result is not None and res.result.detail["team_sets"] == team_sets, where
        assert _digest(res.record.header["hands"], res.record.events) == digest, where
