"""Level "greedy": a solid fixed deck, then at each decision the command whose immediate result
scores best (``evaluate``); it ends its turn when nothing left improves on ending it."""
from game.games.miracle.engine import apply

from .base import Bot
from .evaluate import evaluate

DECK = {"deck": {"artifact": "inferno_flame", "creatures": ["swordsman", "archer", "frost_dragon"]}}
END_TURN = {"end_turn": {}}


def ranked(world, player, legal):
    """``[(score, command)]`` of every non-surrender command, best first (ties in listed order, so
    a decision is a function of the position alone and plans can be replayed)."""
    scored = [(evaluate(apply(world, player, c)[0], player), i, c) for i, c in enumerate(legal) if "surrender" not in c]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(score, command) for score, _, command in scored]


def best_of(choices):
    """The best of ``ranked``'s list; ending the turn wins ties, so the bot never dawdles."""
    end_score = next(score for score, command in choices if command == END_TURN)
    best_score, best = choices[0]
    return best if best_score > end_score else END_TURN


def greedy_choice(world, player, legal):
    return best_of(ranked(world, player, legal))


class GreedyBot(Bot):
    name = "greedy"

    def deck(self, legal, player, rng):
        return DECK

    def play(self, world, legal, player, rng):
        return greedy_choice(world, player, legal)
