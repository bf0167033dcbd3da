"""Random play: the baseline opponent, the source of matches for property tests and benchmarks.

The policy draws from its own ``random.Random``, never from the match's generator: a record holds
only the match seed and the commands, so the players' choices must not shift the dodge rolls that
replaying it reproduces.
"""
from __future__ import annotations

import random

from .legal import legal_commands, pick_options
from .record import make_record
from .rules import apply, new_match
from .species import MIMIC, SPECIES

MIMIC_TARGETS = tuple(s for s in SPECIES if s != MIMIC)


def random_command(state, player: int, rng: random.Random) -> dict | None:
    """A uniformly random legal command for ``player``, or ``None`` if it has nothing to do.

    Picks are drawn as an ordered sample (positions matter) plus a uniform Mimic target, rather
    than from ``legal_commands``, whose unordered list would weight teams with the Mimic Fish
    eleven times over the others.
    """
    if state.phase == "pick":
        if state.picks[player] is not None:
            return None
        options = pick_options(state, player)
        team = rng.sample(options["species"], options["count"])
        command = {"pick": team}
        if MIMIC in team:
            command["mimic"] = rng.choice(MIMIC_TARGETS)
        return command
    commands = legal_commands(state, player)
    return rng.choice(commands) if commands else None


def players_to_move(state) -> tuple[int, ...]:
    """Who owes a command now: both unpicked players in the pick phase, else ``to_move``."""
    if state.phase == "over":
        return ()
    if state.phase == "pick":
        return tuple(p for p in (0, 1) if state.picks[p] is None)
    return (state.to_move,)


def play_random_match(seed: int) -> dict:
    """Play random against random to the end; returns the match's record. ``seed`` seeds both the
    match and the players' choices, so one number reproduces the whole game."""
    rng = random.Random(seed)
    state = new_match(seed)
    commands = []
    while state.phase != "over":
        player = players_to_move(state)[0]
        command = random_command(state, player, rng)
        state, _ = apply(state, player, command, in_place=True)
        commands.append({"player": player, **command})
    return make_record(seed, commands)
