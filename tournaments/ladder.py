"""Who meets whom on the programs' ladder (docs/tournaments.md). Pure Python, no Django: players
are ids; the runner (tournaments/runner.py) reads the ladder, asks ``choose`` and starts the matches.

Pairing whoever is free the moment a match ends replays the same pairs (the two that just played are
free together, and each other's closest rating again), and a program left alone at that moment was
sent to a built-in level though another program would be free in a while. So:

- no pair is made that met in either program's last ``REMATCH_COOLDOWN`` ladder matches (one being
  played counts): the cooldown;
- among the other pairs of waiting programs, the closest-rated go first;
- a program left over waits for another program (one that is busy now may finish) and plays a
  built-in level — the closest-rated with room that it has not just met — only once it has waited
  ``LEVEL_AFTER_SECONDS``, or at once when no other connected program can be its next opponent.
"""
from itertools import combinations

# How many of a program's latest ladder opponents it does not meet again next: its last one, so
# that no two of its matches in a row are against the same opponent while another can be found.
REMATCH_COOLDOWN = 1
LEVEL_AFTER_SECONDS = 60


def choose(waiting, ratings, recent, level_room, *, connected, waited):
    """``[(program, opponent)]`` to start now: ``opponent`` another of ``waiting`` or a level.

    ``waiting``: the programs that may start a match now. ``ratings``: {id: rating}, programs and
    levels. ``recent``: {program: its latest ladder opponents, latest first}. ``level_room``:
    {level id: how many more ladder matches it may play at once}. ``connected``: every ladder
    program connected, busy ones included. ``waited``: the waiting programs that have waited
    ``LEVEL_AFTER_SECONDS`` for an opponent."""

    def cooling(program, opponent):
        return opponent in recent.get(program, ())[:REMATCH_COOLDOWN] or program in recent.get(opponent, ())[:REMATCH_COOLDOWN]

    def gap(program, opponent):
        return abs(ratings[program] - ratings[opponent])

    chosen, free = [], set(waiting)
    for program, opponent in sorted(combinations(sorted(waiting), 2), key=lambda pair: (gap(*pair), pair)):
        if program in free and opponent in free and not cooling(program, opponent):
            free -= {program, opponent}
            chosen.append((program, opponent))
    room = dict(level_room)
    for program in sorted(free):
        may_come = any(other != program and not cooling(program, other) for other in connected)
        levels = [level for level, left in room.items() if left > 0]
        if levels and (program in waited or not may_come):
            level = min(levels, key=lambda level: (cooling(program, level), gap(program, level), level))
            room[level] -= 1
            chosen.append((program, level))
    return chosen
