"""Level "random": a uniformly random legal command (never surrender), with a random deck."""
from .base import Bot


class RandomBot(Bot):
    name = "random"

    def deck(self, legal, player, rng):
        return rng.choice([c for c in legal if "deck" in c])

    def play(self, world, legal, player, rng):
        return rng.choice([c for c in legal if "surrender" not in c])
