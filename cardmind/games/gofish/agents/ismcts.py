"""``openspiel-ismcts`` for Go Fish: OpenSpiel's information-set MCTS over the adapters'
codec (:class:`~cardmind.adapters.openspiel_agent.ISMCTSAgent`; worlds drawn by
:class:`~..resample.GoFishResampler`). Needs the ``openspiel`` extra."""

from __future__ import annotations

from ....adapters.openspiel_agent import ISMCTSAgent


class GoFishISMCTSAgent(ISMCTSAgent):
    """``openspiel-ismcts`` for Go Fish."""

    games = ("gofish",)


__all__ = ["GoFishISMCTSAgent"]
