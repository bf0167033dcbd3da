"""Which commands are legal: the lists programs and the match page choose from."""
from itertools import combinations

from .species import HEAL_CRIT, LIMITED_USES, MIMIC, SKILL_TARGETS, SPECIES

TEAM_SIZE = 4


def pick_options(state, player):
    """The species ``player`` may pick from this round, and how many."""
    return {"count": TEAM_SIZE, "species": available(state, player)}


def legal_commands(state, player):
    if state.phase == "over" or player not in (0, 1):
        return []
    if state.phase == "pick":
        if state.picks[player] is not None:
            return []
        commands = []
        for team in combinations(available(state, player), TEAM_SIZE):
            if MIMIC in team:
                commands.extend({"pick": list(team), "mimic": s} for s in SPECIES if s != MIMIC)
            else:
                commands.append({"pick": list(team)})
        return commands
    if state.to_move != player:
        return []
    enemies = state.teams[1 - player]
    if state.phase == "assert":
        hidden = [i for i, fish in enumerate(enemies) if fish.alive and not fish.revealed]
        return [{"assert": None}] + [{"assert": {"target": i, "fish": s}} for i in hidden for s in SPECIES]
    return _legal_actions(state, player)


def _legal_actions(state, player):
    team = state.teams[player]
    enemies = state.teams[1 - player]
    living_enemies = [j for j, f in enumerate(enemies) if f.alive]
    commands = []
    for i, fish in enumerate(team):
        if not fish.alive:
            continue
        commands += [{"act": {"actor": i, "kind": "attack", "enemy": j}} for j in living_enemies]
        ally_rule, enemy_rule = skill_targets(fish)
        if ally_rule is None and enemy_rule is None:
            commands.append({"act": {"actor": i, "kind": "skill"}})
        elif enemy_rule is None:
            commands += [{"act": {"actor": i, "kind": "skill", "ally": k}} for k in _ally_choices(team, i, ally_rule)]
        elif ally_rule is None:
            commands += [
                {"act": {"actor": i, "kind": "skill", "enemy": j}} for j in _enemy_choices(enemies, living_enemies, enemy_rule)
            ]
        else:
            foes = _enemy_choices(enemies, living_enemies, enemy_rule)
            commands += [
                {"act": {"actor": i, "kind": "skill", "ally": k, "enemy": j}}
                for k in _ally_choices(team, i, ally_rule)
                for j in foes
            ]
    return commands


def skill_targets(fish):
    ally_rule, enemy_rule = SKILL_TARGETS[fish.active]
    if fish.active == HEAL_CRIT and fish.skill_uses >= LIMITED_USES:
        enemy_rule = None
    return ally_rule, enemy_rule


def _ally_choices(team, actor, rule):
    return [k for k, f in enumerate(team) if f.alive and (k != actor or rule == "mate_or_self")]


def _enemy_choices(enemies, living, rule):
    if rule == "lowest":
        lowest = min(enemies[j].hp for j in living)
        return [j for j in living if enemies[j].hp == lowest]
    return living



def available(state, player):
    used = state.used[player]
    return [s for s in SPECIES if s not in used]
