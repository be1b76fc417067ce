"""``openspiel-ismcts``: OpenSpiel's IS-MCTS as a cardmind agent (for every game with a codec).

The agent keeps its seat's view like every cardmind agent. To decide, it builds a
*partial* :class:`~cardmind.adapters.world.World` from that view (its dealt hand and the
events and notices it saw), draws one complete world consistent with it with the game
codec's resampler, wraps it as an OpenSpiel state of
:mod:`cardmind.adapters.openspiel`'s game and runs OpenSpiel's Python IS-MCTS
(:class:`open_spiel.python.algorithms.ismcts.ISMCTSBot`) with random rollouts
(:class:`open_spiel.python.algorithms.mcts.RandomRolloutEvaluator`). Every simulation
starts from a fresh world drawn by the codec's resampler (for Literature cardmind's exact
uniform sampler, :meth:`LiteratureBelief.sample_hands`).

Settings:
    simulations: IS-MCTS simulations per decision (default 100).
    uct_c: the UCT exploration constant (default 2.0).
    rollouts: random rollouts per leaf (default 1).
    horizon: decisions a rollout plays beyond the decision being searched; a rollout still
        running then is scored by the codec's estimate from the score so far (Literature:
        set difference / number of sets; default 200).
    max_time: stop a search after this many seconds (0 = no limit; at least one simulation
        is always run).
    max_world_samples: worlds drawn per search (-1 = a new one per simulation, OpenSpiel's
        default; k > 0 = k worlds reused).
    final_policy: ``"max_visit_count"`` (default), ``"normalized_visit_count"`` or ``"max_value"``.
    seed: seeds the search's random numbers; ``None`` (default) draws the seed from the
        game loop's generator for the seat, so tournaments stay reproducible.
    claims: (Literature only) the claims the search considers: ``"known"`` (default; claims
        of sets whose six holders the claimer knows, plus every claim consistent with what it
        knows when it has nothing else to do) or ``"all"`` (every legal claim: thousands of
        actions per node, too many for IS-MCTS to search). See
        :mod:`cardmind.games.literature.codec`.

Without OpenSpiel installed the agent is still registered but building it raises an error
saying to ``pip install "cardmind[openspiel]"``.
"""

from __future__ import annotations

from time import perf_counter
from typing import Any

import numpy as np

from ..agents.base import Agent
from ..core import Event

INSTALL_HINT = 'the openspiel-ismcts agent needs OpenSpiel: pip install "cardmind[openspiel]" (or pip install open_spiel)'

_FINAL = {"max_visit_count": "MAX_VISIT_COUNT", "normalized_visit_count": "NORMALIZED_VISITED_COUNT",
          "max_value": "MAX_VALUE"}


def openspiel_available() -> bool:
    """Whether OpenSpiel (``pyspiel``) can be imported."""
    try:
        import pyspiel  # noqa: F401, PLC0415
    except ImportError:
        return False
    return True


class ISMCTSAgent(Agent):
    """OpenSpiel's IS-MCTS playing one seat (see the module docstring). A game with a codec
    offers it by subclassing with its name in ``games`` (and its codec parameters in
    ``codec_settings``, with their defaults added to ``default_settings``)."""

    name = "openspiel-ismcts"
    default_settings: dict[str, Any] = {"simulations": 100, "uct_c": 2.0, "rollouts": 1, "horizon": 200,
                                        "max_time": 0.0, "max_world_samples": -1,
                                        "final_policy": "max_visit_count", "seed": None}
    #: settings passed on as codec parameters of the search game
    codec_settings: tuple[str, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        try:
            import pyspiel  # noqa: F401, PLC0415 - first: the adapter module may be imported already
            from . import openspiel as os_adapter  # noqa: PLC0415
            from open_spiel.python.algorithms import ismcts, mcts  # noqa: PLC0415
        except ImportError as exc:
            raise RuntimeError(f"{INSTALL_HINT} ({exc})") from None
        s = self.settings
        if s["final_policy"] not in _FINAL:
            raise ValueError(f"final_policy must be one of {', '.join(_FINAL)}, not {s['final_policy']!r}")
        for key in ("simulations", "rollouts", "horizon"):
            if not isinstance(s[key], int) or isinstance(s[key], bool) or s[key] < 1:
                raise ValueError(f"{key} must be a positive integer, not {s[key]!r}")
        self._ismcts, self._mcts = ismcts, mcts
        params = {**self.options, **{k: s[k] for k in self.codec_settings},
                  "max_actions": int(s["horizon"]), "truncation": "score"}
        self.os_game = os_adapter.load_game(self.game.name, params)
        self.codec = self.os_game.codec
        self.hand = list(self.header["hand"])
        self.log: list[tuple] = []
        self.searches = 0
        self.simulations_run = 0
        #: searches or simulations that could not draw a consistent world (see ``_search``)
        self.fallbacks = 0

    # ------------------------------------------------------------------ what it sees
    def observe(self, event: Event) -> None:
        """Advance the view and remember the event."""
        super().observe(event)
        self.log.append(("event", dict(event)))

    def notice(self, info: Event) -> None:
        """Advance the view and remember the notice."""
        super().notice(info)
        self.log.append(("notice", dict(info)))

    # ------------------------------------------------------------------ deciding
    def act(self, rng: np.random.Generator):
        """Search and return the best action of this seat."""
        action_id = self._search(rng, react=[])
        return self.codec.decode(action_id, self.seat)

    def react(self, rng: np.random.Generator):
        """An out-of-turn action if the search prefers one to declining, else ``None``."""
        st = self.state
        actors = st.actors()
        if self.seat not in actors[1:]:
            return None
        later = actors[actors.index(self.seat, 1):]
        world = self._partial_world(later)
        full = self.codec.resample(world, self.seat, rng)
        if full.legal_ids() == [self.codec.decline_id]:
            return None
        action_id = self._search(rng, react=later, first=full)
        return None if action_id == self.codec.decline_id else self.codec.decode(action_id, self.seat)

    def _partial_world(self, react: list[int]):
        from .world import World  # noqa: PLC0415

        return World.from_view(self.codec, self.seat, self.hand, self.state, self.log, react=react,
                               moves=0, max_moves=int(self.settings["horizon"]), truncation="score")

    def _search(self, rng: np.random.Generator, react: list[int], first=None) -> int:
        s = self.settings
        seed = s["seed"]
        if seed is None:
            seed = int(rng.integers(2 ** 31))
        else:
            seed = int(seed) * 1_000_003 + self.searches
        search_rng = np.random.default_rng(seed)
        world = first
        if world is None:
            try:
                world = self.codec.resample(self._partial_world(react), self.seat, search_rng)
            except RuntimeError:
                world = None
        if world is None or world.current_player() != self.seat:
            # no consistent world found (the Go Fish resampler can fail on rare long
            # histories): play a random legal action rather than forfeit
            self.fallbacks += 1
            ids = self.codec.legal_ids(self.state, self.seat) if not react else [self.codec.decline_id]
            return int(ids[int(search_rng.integers(len(ids)))])
        root = self.os_game.state_from_world(world)
        legal = root.legal_actions()
        self.searches += 1
        if len(legal) == 1:
            return legal[0]
        random_state = np.random.RandomState(seed % 2 ** 32)
        evaluator = self._mcts.RandomRolloutEvaluator(n_rollouts=int(s["rollouts"]), random_state=random_state)
        bot = _TimedISMCTSBot(
            self.os_game, evaluator, float(s["uct_c"]), int(s["simulations"]),
            max_world_samples=int(s["max_world_samples"]), random_state=random_state,
            final_policy_type=getattr(self._ismcts.ISMCTSFinalPolicyType, _FINAL[s["final_policy"]]),
            max_time=float(s["max_time"]))
        def resample(state, player):
            try:
                return state.resample_from_infostate(player, search_rng)
            except RuntimeError:        # keep searching from the world already drawn
                self.fallbacks += 1
                return root.clone()

        bot.set_resampler(resample)
        action = int(bot.step(root))
        self.simulations_run += bot.simulations_run
        return action


def _timed_bot_class():
    from open_spiel.python.algorithms import ismcts  # noqa: PLC0415

    class TimedISMCTSBot(ismcts.ISMCTSBot):
        """OpenSpiel's Python IS-MCTS with an optional time limit per search."""

        def __init__(self, *args: Any, max_time: float = 0.0, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self._max_time = max_time
            self.simulations_run = 0

        def run_search(self, state):
            self.reset()
            legal_actions = state.legal_actions()
            if len(legal_actions) == 1:
                return [(legal_actions[0], 1.0)]
            self._root_node = self.create_new_node(state)
            deadline = perf_counter() + self._max_time if self._max_time > 0 else None
            n = 0
            while n < self._max_simulations:
                if n and deadline is not None and perf_counter() > deadline:
                    break
                self.run_simulation(self.sample_root_state(state))
                n += 1
            self.simulations_run += n
            return self.get_final_policy(state, self._root_node)

    return TimedISMCTSBot


def _TimedISMCTSBot(*args: Any, **kwargs: Any):  # noqa: N802 - builds the bot class lazily (OpenSpiel is optional)
    global _BOT_CLASS  # noqa: PLW0603
    if _BOT_CLASS is None:
        _BOT_CLASS = _timed_bot_class()
    return _BOT_CLASS(*args, **kwargs)


_BOT_CLASS = None


__all__ = ["ISMCTSAgent", "openspiel_available", "INSTALL_HINT"]
