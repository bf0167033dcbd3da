"""Random play: the baseline opponent and the source of matches for property tests and benchmarks.

The policy draws from its own ``random.Random``, never from the match's generator: a record holds
only the match seed and the commands, so the players' choices must not shift what replaying it
reproduces.
"""
from __future__ import annotations

import random

from .legal import legal_commands
from .record import make_record
from .rules import apply, new_match, to_move


def random_command(state, player: int, rng: random.Random) -> dict | None:
    """A uniformly random legal command for ``player`` other than surrendering, or None when it
    owes nothing now."""
    if player not in to_move(state):
        return None
    commands = [c for c in legal_commands(state, player) if "surrender" not in c]
    return rng.choice(commands)


def play_random_match(seed: int) -> dict:
    """Random against random to the end; returns the record. ``seed`` seeds both the match and the
    players' choices, so one number reproduces the whole game."""
    rng = random.Random(seed)
    state = new_match(seed)
    commands = []
    while state.phase != "over":
        player = to_move(state)[0]
        command = random_command(state, player, rng)
        state, _ = apply(state, player, command, in_place=True)
        commands.append({"player": player, **command})
    return make_record(seed, commands, first_mover=state.first_mover)
