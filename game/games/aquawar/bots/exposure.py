"""What an action gives away, and what it teaches: both sides' deductions after a candidate action.

The opponent sees our actions in their public form (a skill's category, its damage, the passives it
sets off) and deduces our species exactly as we deduce theirs; a fish narrowed to one or two species
invites an assertion that costs us 50 HP on every fish. Our projection holds everything the
opponent's holds about our side, so projecting it again for the opponent (``project`` redacts our
own events; theirs we already have only in public form) and running ``deduction.analyse`` gives
the candidate sets the opponent has for our fish, before and after a candidate action.

The same action also shows us how the enemy fish it hits answer (a share, a heal, a shield or a
dodge, a counter): run from our side, the deduction gives our candidate sets for their fish after
it, and the narrowing is worth the HP our own next assertions can then take. Both are priced alike
(50 HP × the living fish of the side asserted against ÷ the species a fish can still be), so what
we learn and what we give away weigh the same.
"""
from game.games.aquawar.engine import apply, project
from game.games.aquawar.engine.deduction import analyse

from .world import clone

ASSERT_HP = 50


def exposure_costs(world, player, commands, projected_events, player_view):
    """For each command, the HP we expect to lose to the opponent's next assertion once it is
    played (in ``world``): Σ over our hidden living fish of 1 / (species the opponent still allows)
    × 50 × our living fish. Lower is better."""
    return [cost for cost, _ in information(world, player, commands, projected_events, player_view)]


def information(world, player, commands, projected_events, player_view):
    """For each command, played in ``world``: (exposure cost as ``exposure_costs``, learning gain).

    The gain is Σ over the enemy's hidden fish still alive after the command of
    (1 / species we allow after − 1 / species we allow before) × 50 × the enemy's living fish:
    how much surer our next assertions become. A fish the command kills counts for nothing either
    way, so a kill is never read as knowledge lost."""
    own, foes = player_view["teams"][player], player_view["teams"][1 - player]
    living = sum(1 for fish in own if fish["alive"])
    hidden = [pos for pos, fish in enumerate(own) if fish["alive"] and not fish["revealed"]]
    enemy_living = sum(1 for fish in foes if fish["alive"])
    enemy_hidden = [pos for pos, fish in enumerate(foes) if fish["alive"] and not fish["revealed"]]
    known = analyse(None, projected_events, player).current
    before = [len(fish.species) for fish in known.teams[1 - player]] if known else None
    out = []
    for command in commands:
        state = clone(world)
        _, produced = apply(state, player, command, in_place=True)
        ours = list(projected_events) + project(produced, player)
        cost = 0.0
        if hidden:
            rnd = analyse(None, project(ours, 1 - player), 1 - player).current
            if rnd is not None:
                team = rnd.teams[player]
                alive_after = _alive(state, player)
                cost = sum(
                    ASSERT_HP * living / max(1, len(team[pos].species)) for pos in hidden if alive_after[pos]
                )
        gain = 0.0
        if enemy_hidden and before is not None:
            rnd = analyse(None, ours, player).current
            enemy_after = _alive(state, 1 - player)
            gain = sum(
                ASSERT_HP * enemy_living * (1 / max(1, len(rnd.teams[1 - player][pos].species)) - 1 / max(1, before[pos]))
                for pos in enemy_hidden if enemy_after[pos]
            )
        out.append((cost, gain))
    return out


def _alive(state, side):
    """Which of ``side``'s fish live after the command (none once it has ended the round and the
    teams are cleared for the next pick)."""
    team = state.teams[side]
    return [fish.alive for fish in team] if team else [False] * 4
