"""The bot interface, and playing a whole match between bots.

A bot is called as ``bot.choose(player_view, projected_events, legal, player, rng)`` with exactly
what a person gets: ``view(state, player)``, ``project(events, player)`` for the match so far and
``legal_commands(state, player)``. It returns one command of ``legal``. In play it works on a
``MatchState`` rebuilt from the view (``world.state_from_view``), never on the true state.
"""
import random
import time

from game.games.miracle.engine import apply, legal_commands, new_match, project, to_move, view
from game.games.miracle.engine.record import make_record

from .world import state_from_view


class Bot:
    """Base class: ``choose`` dispatches on the phase to ``deck`` or ``play``."""

    name = "bot"

    def choose(self, player_view, projected_events, legal, player, rng):
        if player_view["phase"] == "deck":
            return self.deck(legal, player, rng)
        return self.play(state_from_view(player_view), legal, player, rng)

    def deck(self, legal, player, rng):
        raise NotImplementedError

    def play(self, world, legal, player, rng):
        raise NotImplementedError


def play_bots(seed, bots, on_decision=None):
    """Play ``bots`` (one per seat) to the end from ``seed``; returns ``(record, final state)``.
    ``on_decision(player, seconds)`` is told how long each decision took (for benchmarks)."""

    rngs = [random.Random(f"{seed}:{p}") for p in (0, 1)]
    state = new_match(seed)
    events, commands = [], []
    while state.phase != "over":
        player = to_move(state)[0]
        started = time.perf_counter()
        command = bots[player].choose(view(state, player), project(events, player), legal_commands(state, player),
                                      player, rngs[player])
        if on_decision is not None:
            on_decision(player, time.perf_counter() - started)
        state, produced = apply(state, player, command, in_place=True)
        events.extend(produced)
        commands.append({"player": player, **command})
    return make_record(seed, commands, first_mover=state.first_mover), state
