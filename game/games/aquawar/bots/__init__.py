"""Computer opponents for Aquawar. Pure Python: imports only ``game.games.aquawar.engine`` (never Django).

Every bot sees exactly what a player sees (``view(state, player)``, ``project(events, player)``,
``legal_commands(state, player)``); see ``game.games.aquawar.bots.base`` for the interface and docs/bots.md for
the levels.
"""
import random

from .expert import ExpertBot
from .greedy import GreedyBot
from .master import MasterBot
from .random_bot import RandomBot

LEVELS = {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot, "master": MasterBot}


def make_bot(level, **options):
    """A bot of ``level`` ("random", "greedy", "expert" or "master"); ``options`` tune a level's budget."""
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}; expected one of {', '.join(LEVELS)}.")
    return LEVELS[level](**options)


def choose_command(level, player_view, projected_events, legal, player, seed, **options):
    """One decision of a fresh ``level`` bot, deterministic for ``seed`` (for the master: in its
    iteration mode, ``iterations=N``)."""
    return make_bot(level, **options).choose(player_view, projected_events, legal, player, random.Random(seed))


__all__ = ["LEVELS", "ExpertBot", "GreedyBot", "MasterBot", "RandomBot", "choose_command", "make_bot"]
