"""What an action gives away: the opponent's own deduction about our team, run from its side.

The opponent sees our actions in their public form (a skill's category, its damage, the passives it
sets off) and deduces our species exactly as we deduce theirs; a fish narrowed to one or two species
invites an assertion that costs us 50 HP on every fish. Our projection holds everything the
opponent's holds about our side, so projecting it again for the opponent (``project`` redacts our
own events; theirs we already have only in public form) and running ``deduction.analyse`` gives
the candidate sets the opponent has for our fish, before and after a candidate action.
"""
from game.games.aquawar.engine import apply, project
from game.games.aquawar.engine.deduction import analyse

from .world import clone

ASSERT_HP = 50


def exposure_costs(world, player, commands, projected_events, player_view):
    """For each command, the HP we expect to lose to the opponent's next assertion once it is
    played (in ``world``): Σ over our hidden living fish of 1 / (species the opponent still allows)
    × 50 × our living fish. Lower is better."""
    own = player_view["teams"][player]
    living = sum(1 for fish in own if fish["alive"])
    hidden = [pos for pos, fish in enumerate(own) if fish["alive"] and not fish["revealed"]]
    if not hidden:
        return [0.0] * len(commands)
    costs = []
    for command in commands:
        state = clone(world)
        _, produced = apply(state, player, command, in_place=True)
        seen = project(list(projected_events) + project(produced, player), 1 - player)
        rnd = analyse(None, seen, 1 - player).current
        if rnd is None:
            costs.append(0.0)
            continue
        team = rnd.teams[player]
        alive_after = [fish.alive for fish in state.teams[player]] if state.teams[player] else [False] * 4
        costs.append(sum(
            ASSERT_HP * living / max(1, len(team[pos].species)) for pos in hidden if alive_after[pos]
        ))
    return costs
