"""OpenWar: play, analyse and balance tabletop fantasy battle games."""

__version__ = "0.1.0"
