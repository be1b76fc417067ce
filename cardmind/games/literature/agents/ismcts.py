"""``openspiel-ismcts`` for Literature: OpenSpiel's information-set MCTS over the adapters'
codec (:class:`~cardmind.adapters.openspiel_agent.ISMCTSAgent`), with the ``claims`` setting
of :class:`~..codec.LiteratureCodec`. Needs the ``openspiel`` extra."""

from __future__ import annotations

from ....adapters.openspiel_agent import ISMCTSAgent


class LiteratureISMCTSAgent(ISMCTSAgent):
    """``openspiel-ismcts`` for Literature (adds the ``claims`` setting)."""

    games = ("literature",)
    default_settings = {**ISMCTSAgent.default_settings, "claims": "known"}
    codec_settings = ("claims",)


__all__ = ["LiteratureISMCTSAgent"]
