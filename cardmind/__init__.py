"""cardmind: exact belief tracking, AI players and advice for hidden-card games."""

__version__ = "0.1.0"
