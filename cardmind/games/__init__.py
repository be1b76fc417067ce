"""One package per game. Each built-in game is declared as an entry point of the group
``cardmind.games`` in cardmind's own ``pyproject.toml`` (``GAME`` of its package), exactly as a
plugin game is (:mod:`cardmind.plugins`); nothing here imports a game."""
