"""cardmind games as PettingZoo AEC environments (optional extra: ``pip install "cardmind[pettingzoo]"``).

::

    from cardmind.adapters.pettingzoo import env

    e = env("literature", options={"players": 6}, seed=None)
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

One generic class, :class:`CardmindAECEnv`, serves every game with an action codec
(:mod:`cardmind.adapters.codec`), driven through :class:`~cardmind.adapters.world.World`:

* agents ``player_0 .. player_{n-1}`` (seat ``i``); the agent selected is the seat that
  decides now (a Literature seat keeps the turn while its asks succeed, so the same agent
  may be selected several times in a row);
* ``reset(seed)`` shuffles and deals with ``numpy.random.default_rng(seed)`` (the same seed
  gives the same deal);
* actions: ``Discrete(codec.num_actions + 1)``: the codec's ids plus ``decline``
  (``codec.num_actions``, only legal for a seat offered an out-of-turn claim);
* observations: ``{"observation": float32 vector of the seat's view (the codec's layout,
  ``docs/adapters.md``), "action_mask": int8 vector (1 = legal now; all zero for a seat
  that does not decide)}``;
* rewards: the codec's zero-sum returns, given once at the end (Literature: +1 winning
  team, -1 losing team, 0 draw); a game stopped after ``max_actions`` decisions is
  *truncated* (rewards 0, or the codec's estimate with ``truncation="score"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .codec import make_codec
from .world import World


class CardmindAECEnv(AECEnv):
    """A cardmind game as a PettingZoo AEC environment (see the module docstring).

    Args:
        game: the cardmind game name (``"literature"``, ``"gofish"``).
        options: the game's options (record header names; defaults when absent).
        params: codec parameters (Literature: ``{"claims": "all" | "known"}``).
        max_actions: decisions after which a game is truncated.
        truncation: ``"draw"`` (rewards 0) or ``"score"`` (the codec's estimate) when truncated.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns a string) or ``"human"`` (prints).
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "cardmind_v0", "is_parallelizable": False}

    def __init__(self, game: str, options: Mapping[str, Any] | None = None,
                 params: Mapping[str, Any] | None = None, max_actions: int = 3000, truncation: str = "draw",
                 render_mode: str | None = None):
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.codec = make_codec(game, options, params)
        self.max_actions = int(max_actions)
        self.truncation = truncation
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"cardmind_{game}_v0")
        n = self.codec.num_seats
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.num_actions = self.codec.num_actions + 1
        high = float(len(self.codec.deck()))
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, high, (self.codec.observation_size(),), np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
        })
        self._obs_spaces = {a: obs_space for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._rng: np.random.Generator | None = None
        self.world: World | None = None

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        """``Dict(observation=Box, action_mask=Box)`` (the same object for every call)."""
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(codec.num_actions + 1)``."""
        return self._act_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game (with ``seed`` when given; otherwise continue the generator)."""
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        w = World(self.codec, self.max_actions, self.truncation)
        if self.codec.deal_pool(0) is None:
            for k in self._rng.permutation(len(w.deck)):
                w.apply_chance(int(k))
        else:   # a game dealt several times: each deal shuffles its own pool of cards
            while w.is_chance():
                lo, hi = self.codec.deal_pool(len(w.order))
                for k in lo + self._rng.permutation(hi - lo):
                    w.apply_chance(int(k))
        self.world = w
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[w.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation vector and action mask."""
        seat = self.agent_name_mapping[agent]
        mask = np.zeros(self.num_actions, dtype=np.int8)
        w = self.world
        if w.current_player() == seat:
            mask[w.legal_ids()] = 1
        return {"observation": w.observation(seat), "action_mask": mask}

    def step(self, action) -> None:
        """Take ``action`` (an id) for the selected agent; ``None`` for a finished agent.

        Raises:
            cardmind.errors.IllegalAction: the action is not legal now.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        w = self.world
        w.apply(int(action))
        if w.is_over():
            returns = w.returns()
            for a in self.agents:
                i = self.agent_name_mapping[a]
                self.rewards[a] = float(returns[i])
                self.terminations[a] = not w.truncated
                self.truncations[a] = bool(w.truncated)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[w.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The complete state in one line (``"ansi"``: returned; ``"human"``: printed)."""
        text = str(self.world)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(game: str, **kwargs: Any) -> CardmindAECEnv:
    """The unwrapped environment (see :class:`CardmindAECEnv` for the arguments)."""
    return CardmindAECEnv(game, **kwargs)


def env(game: str, **kwargs: Any):
    """The environment with PettingZoo's usual checks (out-of-bounds actions, call order)."""
    e = raw_env(game, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


__all__ = ["CardmindAECEnv", "raw_env", "env"]
