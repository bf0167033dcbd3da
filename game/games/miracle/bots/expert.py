"""Level "expert": whole-turn plans, each answered by the opponent's likely turn.

At the start of its turn (and whenever the board is not what its plan expected) it builds
``WIDTH`` plans: each begins with one of the best-scoring first commands and continues greedily to
the end of the turn. Each plan's outcome is then answered by a greedy turn of the opponent, and
the plan whose position after that answer scores best is played out command by command.
"""
from game.games.miracle.engine import apply, legal_commands

from .evaluate import evaluate
from .greedy import END_TURN, GreedyBot, greedy_choice, ranked

WIDTH = 10
# A turn never needs more commands than this (creatures x one action, plus summons and artifact).
MAX_TURN_COMMANDS = 60


def finish_turn(world, player, rng, first=None):
    """Play ``player``'s turn greedily from ``world`` (after ``first``); returns (commands, state after
    the turn has ended)."""
    commands = []
    state = world
    command = first
    while state.phase == "play" and state.current == player and len(commands) < MAX_TURN_COMMANDS:
        if command is None:
            command = greedy_choice(state, player, legal_commands(state, player), rng)
        state, _ = apply(state, player, command)
        commands.append(command)
        command = None
    if state.phase == "play" and state.current == player:
        state, _ = apply(state, player, END_TURN)
        commands.append(END_TURN)
    return commands, state


class ExpertBot(GreedyBot):
    name = "expert"

    def __init__(self, width=WIDTH):
        self.width = width
        self.plan = []
        self.expected = None

    def play(self, world, legal, player, rng):
        if not (self.plan and self.expected == world.to_json()):
            self.plan = self.search(world, player, legal, rng)
        command = self.plan.pop(0)
        self.expected = apply(world, player, command)[0].to_json() if self.plan else None
        return command

    def search(self, world, player, legal, rng):
        firsts = [command for _, command in ranked(world, player, legal, rng)[:self.width]]
        best, best_value = None, None
        for first in firsts:
            commands, after = finish_turn(world, player, rng, first)
            if after.phase == "play":
                _, after = finish_turn(after, after.current, rng)
            value = evaluate(after, player)
            if best_value is None or value > best_value:
                best, best_value = commands, value
        return best
