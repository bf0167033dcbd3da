"""Computer opponents for 神迹之战. Pure Python on the engine's API only (never Django).

Every bot sees exactly what a player sees; see ``base`` for the interface and docs/bots.md for the
levels.
"""
from .base import Bot, play_bots
from .expert import ExpertBot
from .greedy import GreedyBot
from .master import MasterBot
from .random_bot import RandomBot

LEVELS = {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot, "master": MasterBot}


def make_bot(level, **options):
    """A bot of ``level``; ``options`` tune it (the master's ``width``, say)."""
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}; expected one of {', '.join(LEVELS)}.")
    return LEVELS[level](**options)


def play_match(seed, levels):
    """The record of a match between bots of ``levels`` (player 0's, player 1's) from ``seed``."""
    record, _ = play_bots(seed, [make_bot(level) for level in levels])
    return record


__all__ = ["LEVELS", "Bot", "ExpertBot", "GreedyBot", "MasterBot", "RandomBot", "make_bot", "play_bots", "play_match"]
