"""Level "greedy": strong picks, certain assertions only, and the best immediate outcome.

It asserts only a fish whose candidate set is a single species (a sure +50 on every enemy).
Otherwise it tries each legal action in a few sampled worlds and keeps the one with the best
average evaluation right after it (HP, living fish, ATK and buffs; a won round dominates).
"""
from .base import Bot, best_immediate
from .world import Knowledge

WORLDS = 3


class GreedyBot(Bot):
    name = "greedy"

    def assertion(self, player_view, projected_events, legal, player, rng):
        knowledge = Knowledge(player_view, projected_events, player)
        for target, fish in enumerate(knowledge.foes):
            sure = len(fish.species) == 1 and not fish.revealed
            if sure and player_view["teams"][1 - player][target]["alive"]:
                return {"assert": {"target": target, "fish": next(iter(fish.species))}}
        return {"assert": None}

    def act(self, player_view, projected_events, legal, player, rng):
        knowledge = Knowledge(player_view, projected_events, player)
        worlds = [knowledge.world(rng) for _ in range(WORLDS)]
        return best_immediate(worlds, player, legal, player_view["round"])
