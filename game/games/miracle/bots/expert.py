"""Level "expert": a stronger deck, and whole-turn plans each answered by the opponent's likely turn.

At the start of its turn (and whenever the board is not what its plan expected) it builds up to
``WIDTH`` plans: each begins with one of the best-scoring first commands (the greedy choice
first) and continues greedily to the end of the turn. Each plan's outcome is then answered by a
greedy turn of the opponent, and the plan whose position after that answer scores best is played
out command by command. The deck (black bats cross the abyss to the enemy miracle; archers and
volcano dragons hold the ground) won most often against the greedy deck in a sweep of all 80.
"""
from game.games.miracle.engine import apply, legal_commands

from .evaluate import evaluate
from .greedy import END_TURN, GreedyBot, best_of, greedy_choice, ranked

WIDTH = 10
# No plan is started once this many positions have been scored in the turn's search, so a whole
# turn stays well inside the 2 s budget however crowded the board (about 60 µs a position on one
# core), and the bot plays the same on a busy machine as on a quiet one. The first plan always
# completes.
BUDGET = 15000
# Each opponent's answer is cut short (the rest of its turn ended) once it has scored this many
# positions, so one crowded plan cannot blow the turn's time either; a cut answer only makes its
# estimate rougher.
ANSWER_CAP = 4000
DECK = {"deck": {"artifact": "holy_light", "creatures": ["archer", "black_bat", "volcano_dragon"]}}
# A turn never needs more commands than this (creatures x one action, plus summons and artifact).
MAX_TURN_COMMANDS = 60


def finish_turn(world, player, first=None, work=None, cap=None, out_of_time=None):
    """Play ``player``'s turn greedily from ``world`` (after ``first``); returns (commands, state after
    the turn has ended). ``work[0]`` counts the positions scored; once this turn alone has scored
    ``cap`` of them, the turn ends. Returns None if ``out_of_time()`` says so before a step."""
    limit = None if cap is None else work[0] + cap
    commands = []
    state = world
    command = first
    while state.phase == "play" and state.current == player and len(commands) < MAX_TURN_COMMANDS:
        if command is None and limit is not None and work[0] > limit:
            break
        if command is None and out_of_time is not None and out_of_time():
            return None
        if command is None:
            legal = legal_commands(state, player)
            if work is not None:
                work[0] += len(legal)
            command = greedy_choice(state, player, legal)
        state, _ = apply(state, player, command)
        commands.append(command)
        command = None
    if state.phase == "play" and state.current == player:
        state, _ = apply(state, player, END_TURN)
        commands.append(END_TURN)
    return commands, state


class ExpertBot(GreedyBot):
    name = "expert"

    def __init__(self, width=WIDTH, budget=BUDGET):
        self.width = width
        self.budget = budget
        self.plan = []
        self.expected = None

    def deck(self, legal, player, rng):
        return DECK

    def play(self, world, legal, player, rng):
        if not (self.plan and self.expected == world.to_json()):
            self.plan = self.search(world, player, legal)
        command = self.plan.pop(0)
        self.expected = apply(world, player, command)[0].to_json() if self.plan else None
        return command

    def search(self, world, player, legal):
        # The greedy player's own choice always leads, so the expert never plans worse than it.
        choices = ranked(world, player, legal)
        firsts = [best_of(choices)]
        firsts += [c for _, c in choices if c not in firsts][:self.width - 1]
        best, best_value = None, None
        work = [len(legal)]
        for first in firsts:
            if best is not None and work[0] > self.budget:
                break
            commands, after = finish_turn(world, player, first, work)
            if after.phase == "play":
                _, after = finish_turn(after, after.current, work=work, cap=ANSWER_CAP)
            value = evaluate(after, player)
            if best_value is None or value > best_value:
                best, best_value = commands, value
        return best
