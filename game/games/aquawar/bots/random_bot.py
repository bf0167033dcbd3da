"""Level "random": a uniformly random legal command."""
from game.games.aquawar.engine.species import MIMIC, SPECIES

from .base import Bot


class RandomBot(Bot):
    name = "random"

    def pick(self, player_view, player, rng):
        # A uniformly random ordered team of four (legal_commands lists only one order per team).
        team = rng.sample(player_view["available"][player], 4)
        command = {"pick": team}
        if MIMIC in team:
            command["mimic"] = rng.choice([s for s in SPECIES if s != MIMIC])
        return command

    def assertion(self, player_view, projected_events, legal, player, rng):
        return rng.choice(legal)

    def act(self, player_view, projected_events, legal, player, rng):
        return rng.choice(legal)
