"""Attacks, damage, healing, auras and the death check, in the order the rulings fix (19-27)."""
from .board import DIST
from .cards import ARTIFACT_STATS, HOLY_LIGHT_ATK, INFERNO, INFERNO_FLAME, PRIEST, SALAMANDER_SHIELD, STATS, VOLCANO
from .outcome import end_match


def damage_unit(state, events, unit, amount, kind, source):
    """One damage instance (ruling 22-23): a holy shield takes a whole instance of 1 or more."""
    if unit.shield:
        unit.shield = False
        events.append({"type": "damage", "unit": unit.id, "amount": 0, "hp": unit.hp, "kind": kind,
                       "source": source, "shielded": True})
        events.append({"type": "shield", "unit": unit.id, "on": False})
        return
    unit.hp -= amount
    events.append({"type": "damage", "unit": unit.id, "amount": amount, "hp": unit.hp, "kind": kind,
                   "source": source, "shielded": False})


def heal_unit(events, unit, amount, source):
    """Heal up to max HP; the event reports the HP actually gained and is left out when none is."""
    gained = min(amount, unit.max_hp - unit.hp)
    if gained > 0:
        unit.hp += gained
        events.append({"type": "heal", "unit": unit.id, "amount": gained, "hp": unit.hp, "source": source})


def can_hit(attacker_stats, target_stats):
    """A flying target needs a flying or anti-air attacker (rules 19-20)."""
    return not target_stats.flying or attacker_stats.flying or attacker_stats.anti_air


def attack(state, events, unit, target):
    """``unit`` attacks ``target`` (a Unit, or None for the enemy miracle): blow, splash, counter,
    then the death check (ruling 21)."""
    unit.can_act = False
    enemy = 1 - unit.camp
    if target is None:
        events.append({"type": "attack", "unit": unit.id, "target": "miracle", "atk": unit.atk})
        state.miracle_hp[enemy] -= unit.atk
        events.append({"type": "damage", "miracle": enemy, "amount": unit.atk, "hp": state.miracle_hp[enemy],
                       "kind": "attack", "source": unit.id, "shielded": False})
        death_check(state, events)
        return
    events.append({"type": "attack", "unit": unit.id, "target": target.id, "atk": unit.atk})
    damage_unit(state, events, target, unit.atk, "attack", unit.id)
    if unit.type == VOLCANO:
        _splash(state, events, unit, target)
    distance = DIST[unit.cell][target.cell]
    ts = target.stats
    if target.atk >= 1 and ts.range_min <= distance <= ts.range_max and can_hit(ts, unit.stats):
        damage_unit(state, events, unit, target.atk, "counter", target.id)
    death_check(state, events)


def _splash(state, events, dragon, target):
    """Ruling 27: enemy ground creatures 1 from the target and 2 from the dragon, fixed damage."""
    near_target, near_dragon = DIST[target.cell], DIST[dragon.cell]
    for other in list(state.units.values()):
        if (other.camp != dragon.camp and not other.stats.flying and near_target[other.cell] == 1
                and near_dragon[other.cell] == 2):
            damage_unit(state, events, other, dragon.stats.splash, "splash", dragon.id)


def _current_attack(unit, priests):
    atk = unit.stats.atk
    if unit.holy_until:
        atk += HOLY_LIGHT_ATK
    row = DIST[unit.cell]
    for priest in priests:
        if priest.camp == unit.camp and priest is not unit and row[priest.cell] <= priest.stats.aura_range:
            atk += 1
    return atk


def refresh_attack(state, events, only=None):
    """Recompute current attack (ruling 25) and report each change as an ``atk`` event: this is
    where priest auras and HolyLight bonuses start and end. ``only``: the one creature that can
    have changed (a non-priest that moved or entered), to skip the others."""
    priests = [u for u in state.units.values() if u.type == PRIEST]
    for unit in (state.units.values() if only is None else (only,)):
        atk = _current_attack(unit, priests)
        if atk != unit.atk:
            unit.atk = atk
            events.append({"type": "atk", "unit": unit.id, "atk": atk})


def place(state, unit):
    state.units[unit.id] = unit
    (state.air if unit.stats.flying else state.ground)[unit.cell] = unit.id


def remove(state, unit):
    del state.units[unit.id]
    (state.air if unit.stats.flying else state.ground)[unit.cell] = 0


def death_check(state, events):
    """Ruling 24: after a command, every creature at HP <= 0 dies at once; then a miracle at 0 or
    below ends the match (ruling 35a)."""
    dead = [u for u in state.units.values() if u.hp <= 0]
    for unit in dead:
        remove(state, unit)
        events.append({"type": "death", "unit": unit.id, "camp": unit.camp, "unit_type": unit.type,
                       "level": unit.level})
        state.lost_stars[unit.camp] += unit.level
        if unit.type == INFERNO:
            recycle(state, events, unit.camp, INFERNO_FLAME)
        else:
            pool = state.pools[unit.camp][unit.type]
            pool.on_board -= 1
            pool.cooling.append(STATS[unit.type, unit.level].cooldown)
        if unit.equipped:
            recycle(state, events, unit.camp, SALAMANDER_SHIELD)
    if dead:
        refresh_attack(state, events)
    for player in (0, 1):
        if state.miracle_hp[player] <= 0:
            end_match(state, events, 1 - player, "miracle_destroyed")
            return


def recycle(state, events, player, artifact_id):
    """An artifact goes back to cooling for its full cooldown (ruling 28)."""
    cooldown = ARTIFACT_STATS[artifact_id][1]
    state.artifacts[player] = {"state": "cooling", "cooldown": cooldown, "unit": None}
    events.append({"type": "recycle", "player": player, "artifact": artifact_id, "cooldown": cooldown})
