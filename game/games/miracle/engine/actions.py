"""Carrying out a checked command: summons, moves, attacks and the four artifacts (rulings 12-33)."""
from . import board
from .board import DIST
from .cards import (HOLY_LIGHT, HOLY_LIGHT_RANGE, HOLY_LIGHT_TURNS, INFERNO, INFERNO_DAMAGE, INFERNO_FLAME,
                    INFERNO_RANGE, SALAMANDER_SHIELD, SHIELD_HP, WIND_BLESSING, WIND_RANGE,
                    ARTIFACT_STATS, PRIEST)
from .combat import attack, damage_unit, death_check, heal_unit, place, recycle, refresh_attack
from .movement import path_to
from .state import Unit


def _enter(state, events, player, type_id, level, cell, cost):
    unit = Unit(state.next_id, player, type_id, level, cell, state.turn)
    state.next_id += 1
    place(state, unit)
    events.append({"type": "summon", "player": player, "unit": unit.id, "unit_type": type_id, "level": level,
                   "at": board.coord(cell), "hp": unit.hp, "atk": unit.atk, "cost": cost})
    return unit


def summon(state, events, player, args):
    stats, cell = args
    state.mana[player] -= stats.cost
    state.pools[player][stats.type].on_board += 1
    unit = _enter(state, events, player, stats.type, stats.level, cell, stats.cost)
    refresh_attack(state, events, None if unit.type == PRIEST else unit)


def move(state, events, player, args):
    """Ruling 18: the move is atomic; only auras change, on arrival."""
    unit, cell, parent = args
    start = unit.cell
    layer = state.air if unit.stats.flying else state.ground
    layer[start] = 0
    layer[cell] = unit.id
    unit.cell = cell
    unit.can_act = False
    events.append({"type": "move", "player": player, "unit": unit.id, "from": board.coord(start),
                   "to": board.coord(cell), "path": [board.coord(c) for c in path_to(parent, cell)]})
    refresh_attack(state, events, None if unit.type == PRIEST else unit)


def attack_command(state, events, player, args):
    unit, target = args
    attack(state, events, unit, target)


def use_artifact(state, events, player, args):
    artifact_id, target = args
    cost, cooldown, _ = ARTIFACT_STATS[artifact_id]
    state.mana[player] -= cost
    event = {"type": "artifact", "player": player, "artifact": artifact_id, "cost": cost}
    if artifact_id == SALAMANDER_SHIELD:
        event["unit"] = target.id
    else:
        event["at"] = board.coord(target)
    events.append(event)
    _EFFECTS[artifact_id](state, events, player, target)
    death_check(state, events)


def _friends_near(state, player, cell, radius):
    row = DIST[cell]
    return [u for u in state.units.values() if u.camp == player and row[u.cell] <= radius]


def _holy_light(state, events, player, cell):
    """Ruling 30: heal to max HP and +2 attack until the end of global turn N + 3."""
    for unit in _friends_near(state, player, cell, HOLY_LIGHT_RANGE):
        heal_unit(events, unit, unit.max_hp, HOLY_LIGHT)
        unit.holy_until = state.turn + HOLY_LIGHT_TURNS
    recycle(state, events, player, HOLY_LIGHT)
    refresh_attack(state, events)


def _inferno_flame(state, events, player, cell):
    """Ruling 31: 2 damage to enemies within 2 (both layers), then the caster's Inferno appears."""
    row = DIST[cell]
    for unit in [u for u in state.units.values() if u.camp != player and row[u.cell] <= INFERNO_RANGE]:
        damage_unit(state, events, unit, INFERNO_DAMAGE, "artifact", INFERNO_FLAME)
    inferno = _enter(state, events, player, INFERNO, 1, cell, 0)
    state.artifacts[player] = {"state": "in_use", "cooldown": 0, "unit": inferno.id}
    refresh_attack(state, events, inferno)


def _salamander_shield(state, events, player, unit):
    """Ruling 32: +3 max HP and HP, and a holy shield now."""
    unit.max_hp += SHIELD_HP
    unit.hp += SHIELD_HP
    unit.equipped = True
    events.append({"type": "equip", "unit": unit.id, "max_hp": unit.max_hp, "hp": unit.hp})
    if not unit.shield:
        unit.shield = True
        events.append({"type": "shield", "unit": unit.id, "on": True})
    state.artifacts[player] = {"state": "in_use", "cooldown": 0, "unit": unit.id}


def _wind_blessing(state, events, player, cell):
    """Ruling 33: friends within 1 that have no action left get one back."""
    for unit in _friends_near(state, player, cell, WIND_RANGE):
        if not unit.can_act:
            unit.can_act = True
            events.append({"type": "action_restored", "unit": unit.id})
    recycle(state, events, player, WIND_BLESSING)


_EFFECTS = {HOLY_LIGHT: _holy_light, INFERNO_FLAME: _inferno_flame, SALAMANDER_SHIELD: _salamander_shield,
            WIND_BLESSING: _wind_blessing}
