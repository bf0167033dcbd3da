"""Self-play for the win-chance estimators (bench/win_chance_training.py, bench/win_chance_calibration.py):
matches between mixed bot levels, seen as a spectator sees them after every command.

``play(task)`` plays one match and calls ``observe(view, events)`` with the spectator's view and every
spectator event so far after each command (and once before the first), returning what ``observe``
returned at each position and the match's winner. Levels run on small budgets so that thousands of
matches fit in reasonable time on two cores; the mix (random, greedy, expert in every pairing, either
seat) gives the estimators positions from lopsided and even matches alike.
"""
import itertools
import random

from game.games.aquawar import engine as aquawar_engine
from game.games.aquawar.bots import make_bot as aquawar_bot
from game.games.aquawar.engine.randomplay import players_to_move
from game.games.miracle import engine as miracle_engine
from game.games.miracle.bots.expert import ExpertBot as MiracleExpert
from game.games.miracle.bots import make_bot as miracle_bot

LEVELS = ("random", "greedy", "expert")
PAIRINGS = tuple(itertools.product(LEVELS, LEVELS))
# The Aquawar expert's sampled worlds per decision. The training data (600 matches) was made with
# 4; the calibration benchmark plays with 2, which a shared two-core machine can afford for 1,000
# matches (docs/win-chances.md) and which also checks the model on levels it was not fitted on.
WORLDS = 2


def _aquawar_bot(level):
    # Two sampled worlds instead of sixteen: still stronger than greedy, and quick.
    return aquawar_bot(level, worlds=WORLDS, beam=4) if level == "expert" else aquawar_bot(level)


def _miracle_bot(level):
    # A small share of the expert's search budget per turn.
    return MiracleExpert(budget=400) if level == "expert" else miracle_bot(level)


GAMES = {
    "aquawar": (aquawar_engine, _aquawar_bot, lambda state: players_to_move(state)[0]),
    "miracle": (miracle_engine, _miracle_bot, lambda state: miracle_engine.to_move(state)[0]),
}


def pairing(index):
    """The levels of seat 0 and seat 1 in match ``index``: every pairing in turn."""
    return PAIRINGS[index % len(PAIRINGS)]


# 神迹之战's greedy and expert are deterministic (one match per pairing and first mover without it);
# Aquawar's committed model and its calibration were made without variety, and its bots already
# differ from seed to seed (their sampled worlds).
DEFAULT_VARIETY = {"miracle": 0.1, "aquawar": 0.0}


def _varied(command, legal, level, variety, rng):
    """The greedy and expert levels are deterministic: without a random move now and then (a uniformly
    random legal command but surrender, with probability ``variety``), 神迹之战 matches of two such
    bots repeat one another whatever the seed, and "fresh" matches are copies of training ones."""
    if level == "random" or not variety or rng.random() >= variety:
        return command
    return rng.choice([c for c in legal if "surrender" not in c] or [command])


def play(game, seed, levels, observe, variety=0.0):
    """``([observe(...) at each position], winner)`` of one match between ``levels`` from ``seed``,
    greedy and expert bots playing a random command with probability ``variety`` (``_varied``)."""
    engine, make, mover = GAMES[game]
    bots = [make(level) for level in levels]
    rngs = [random.Random(f"{seed}:{p}") for p in (0, 1)]
    varying = random.Random(f"{seed}:variety")
    state = engine.new_match(seed)
    # Each audience's events so far, projected as they come: an event's projection never depends on
    # the others, and projecting the whole history again at every step made long matches quadratic.
    projected = {audience: [] for audience in (0, 1, "spectator")}
    seen = [observe(engine.view(state, "spectator"), projected["spectator"])]
    while state.phase != "over":
        player = mover(state)
        legal = engine.legal_commands(state, player)
        command = bots[player].choose(engine.view(state, player), list(projected[player]), legal, player,
                                      rngs[player])
        command = _varied(command, legal, levels[player], variety, varying)
        try:
            state, produced = engine.apply(state, player, command, in_place=True)
        except engine.IllegalCommand:
            state, produced = engine.resign(state, player, "illegal", in_place=True)
        for audience, events in projected.items():
            events.extend(engine.project(produced, audience))
        seen.append(observe(engine.view(state, "spectator"), projected["spectator"]))
    return seen, state.winner
