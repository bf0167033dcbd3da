"""The bot interface and the choices every level shares (picking a team, acting greedily).

A bot is called as ``bot.choose(player_view, projected_events, legal, player, rng)`` with exactly
what a human player gets: ``view(state, player)``, ``project(events, player)`` for the whole match
so far, and ``legal_commands(state, player)`` (which only lists the player's own options). It must
return one command of ``legal`` (or, in the pick phase, any order of a legal team).
"""
from game.games.aquawar.engine import apply
from game.games.aquawar.engine.species import MIMIC

from .world import evaluate

# Rough strength of each species as a team member (hand-tuned from the rules): durable attackers
# with strong actives first; the self-harming Pufferfish/Sunfish last.
PICK_VALUE = {
    "great_white_shark": 10,
    "sea_turtle": 9,
    "hammerhead_shark": 8,
    "sea_wolf": 8,
    "octopus": 7,
    "electric_eel": 7,
    "clownfish": 6,
    "archerfish": 6,
    "manta_ray": 5,
    "mimic_fish": 5,
    "sunfish": 3,
    "pufferfish": 2,
}
# The Mimic copies the strongest species; it behaves exactly like it.
MIMIC_COPY = "great_white_shark"


class Bot:
    """Base class: ``choose`` dispatches on the phase."""

    name = "bot"

    def choose(self, player_view, projected_events, legal, player, rng):
        phase = player_view["phase"]
        if phase == "pick":
            return self.pick(player_view, player, rng)
        if phase == "assert":
            return self.assertion(player_view, projected_events, legal, player, rng)
        return self.act(player_view, projected_events, legal, player, rng)

    def pick(self, player_view, player, rng):
        return strong_pick(player_view["available"][player], rng)

    def assertion(self, player_view, projected_events, legal, player, rng):
        raise NotImplementedError

    def act(self, player_view, projected_events, legal, player, rng):
        raise NotImplementedError


def strong_pick(available, rng):
    """The four most valuable species left, in a random order (so positions give nothing away)."""
    ranked = sorted(available, key=lambda s: (-PICK_VALUE[s], s))[:4]
    rng.shuffle(ranked)
    command = {"pick": ranked}
    if MIMIC in ranked:
        command["mimic"] = MIMIC_COPY
    return command


def act_value(world, player, command, round_number):
    """The evaluation right after ``command`` in one sampled world."""
    after, _ = apply(world, player, command)
    return evaluate(after, player, round_number)


def best_immediate(worlds, player, legal, round_number):
    """The action whose immediate outcome, averaged over the sampled worlds, is best."""
    best, best_value = None, None
    for command in legal:
        value = sum(act_value(w, player, command, round_number) for w in worlds)
        if best_value is None or value > best_value:
            best, best_value = command, value
    return best
