"""Ecosystem adapters: cardmind games as OpenSpiel games and PettingZoo environments.

* :mod:`cardmind.adapters.codec`: the per-game action codecs (no extra dependency);
* :mod:`cardmind.adapters.world`: a game as a sequence of decisions (no extra dependency);
* :mod:`cardmind.adapters.openspiel`: OpenSpiel games (``pip install "cardmind[openspiel]"``);
* :mod:`cardmind.adapters.openspiel_agent`: the ``openspiel-ismcts`` tournament agent;
* :mod:`cardmind.adapters.pettingzoo`: PettingZoo AEC environments
  (``pip install "cardmind[pettingzoo]"``).

See ``docs/adapters.md``.
"""
