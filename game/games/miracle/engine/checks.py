"""Checking a command completely before anything changes (ruling 38).

``check(state, player, command)`` returns ``(kind, args)`` with the command's parts resolved
(cells as ids, units as objects) or raises ``IllegalCommand``. Input is validated strictly: exact
keys, ints that are not bools, cells as ``[x, y, z]`` on the map; nothing a client sends can raise
anything else.
"""
from ...engines.errors import IllegalCommand
from . import board
from .board import DIST, GARRISON_CELL, MIRACLE_CELL
from .cards import (ARTIFACT_STATS, ARTIFACTS, DECK_CREATURES, INFERNO_FLAME, INFERNO_GARRISON_REACH,
                    INFERNO_MIRACLE_REACH, LEVELS, SALAMANDER_SHIELD, STATS)
from .combat import can_hit
from .movement import reachable

KINDS = ("deck", "summon", "move", "attack", "artifact", "end_turn", "surrender")
DECK_SIZE = 3


def shown(value):
    """A value quoted in a message: short strings and small ints as they are, anything else by type
    (a huge int cannot even be turned into text, and nested junk has no business in a message)."""
    if isinstance(value, str):
        return repr(value[:40])
    if type(value) is int and -10**9 < value < 10**9:
        return str(value)
    return f"a {type(value).__name__}"


def _malformed(message):
    return IllegalCommand("malformed", message)


def _body(kind, body, required, optional=()):
    if type(body) is not dict:
        raise _malformed(f"{kind} must be an object.")
    missing = [k for k in required if k not in body]
    if missing:
        code = "missing_artifact" if kind == "deck" and missing == ["artifact"] else "malformed"
        raise IllegalCommand(code, f"{kind} lacks {', '.join(missing)}.")
    extra = [k for k in body if k not in required and k not in optional]
    if extra:
        raise _malformed(f"{kind} has unexpected field(s): {', '.join(shown(k) for k in extra[:5])}.")
    return body


def _int(value, what):
    if type(value) is not int:
        raise _malformed(f"{what} must be an integer, not {shown(value)}.")
    return value


def _cell(value, what):
    if type(value) is not list or len(value) != 3 or any(type(v) is not int for v in value):
        raise _malformed(f"{what} must be a cell [x, y, z] of three integers.")
    cell = board.parse_cell(value)
    if cell is None:
        raise IllegalCommand("off_map", f"{what} {[shown(v) for v in value]} is not a cell of the map.")
    return cell


def check(state, player, command):
    if type(player) is not int or player not in (0, 1):
        raise IllegalCommand("bad_player", "The player must be 0 or 1.")
    if type(command) is not dict or len(command) != 1:
        raise _malformed("A command must be an object with exactly one of: " + ", ".join(KINDS) + ".")
    (kind, body), = command.items()
    if kind not in KINDS:
        raise IllegalCommand("unknown_command", f"Unknown command {shown(kind)}; expected one of: {', '.join(KINDS)}.")
    if state.phase == "over":
        raise IllegalCommand("match_over", "The match is over; no more commands are accepted.")
    if kind in ("end_turn", "surrender"):
        _body(kind, body, ())
        if kind == "surrender":
            return kind, None
    if kind == "deck":
        return kind, _check_deck(state, player, body)
    if state.phase == "deck":
        raise IllegalCommand("wrong_phase", "Both decks must be in before the first turn.")
    if state.current != player:
        raise IllegalCommand("not_your_turn", f"It is player {state.current}'s turn.")
    return kind, _CHECKS[kind](state, player, body)


def _check_deck(state, player, body):
    _body("deck", body, ("artifact", "creatures"))
    artifact, creatures = body["artifact"], body["creatures"]
    if state.phase != "deck":
        raise IllegalCommand("wrong_phase", "Decks are submitted only before the first turn.")
    if state.decks[player] is not None:
        raise IllegalCommand("already_submitted", "You have already submitted your deck.")
    if artifact is None:
        raise IllegalCommand("missing_artifact", "A deck needs one artifact.")
    if not isinstance(artifact, str) or artifact not in ARTIFACTS:
        raise IllegalCommand("unknown_artifact", f"{shown(artifact)} is not an artifact; expected one of: {', '.join(ARTIFACTS)}.")
    if type(creatures) is not list:
        raise _malformed("deck creatures must be a list of three creature ids.")
    for c in creatures:
        if not isinstance(c, str) or c not in DECK_CREATURES:
            raise IllegalCommand("unknown_creature", f"{shown(c)} is not a deck creature; expected: {', '.join(DECK_CREATURES)}.")
    if len(set(creatures)) != len(creatures):
        raise IllegalCommand("repeated_creature", "A deck's three creature types must all differ.")
    if len(creatures) != DECK_SIZE:
        raise IllegalCommand("deck_size", f"A deck has exactly {DECK_SIZE} creature types, not {len(creatures)}.")
    return {"artifact": artifact, "creatures": list(creatures)}


def spawn_points(state, player):
    """Ruling 12: the player's 5 initial spawn points, then 3 per garrison it owns."""
    cells = list(board.INITIAL_SPAWNS[state.side(player)])
    for index, owner in enumerate(state.garrisons):
        if owner == player:
            cells.extend(board.GARRISON_SPAWNS[index])
    return cells


def _check_summon(state, player, body):
    _body("summon", body, ("type", "level", "at"))
    type_id, level = body["type"], body["level"]
    if not isinstance(type_id, str) or type_id not in DECK_CREATURES:
        raise IllegalCommand("unknown_creature", f"{shown(type_id)} is not a creature one may summon.")
    if type(level) is not int or level not in LEVELS:
        raise IllegalCommand("bad_level", f"Level {shown(level)} does not exist; levels are 1, 2 and 3.")
    cell = _cell(body["at"], "summon at")
    if type_id not in state.decks[player]["creatures"]:
        raise IllegalCommand("not_in_deck", f"{type_id} is not in your deck.")
    stats = STATS[type_id, level]
    if stats.cost > state.mana[player]:
        raise IllegalCommand("no_mana", f"{type_id} level {level} costs {stats.cost} mana; you have {state.mana[player]}.")
    pool = state.pools[player][type_id]
    if pool.available < 1:
        raise IllegalCommand("no_unit", f"No {type_id} unit is available: {pool.on_board} on the board, "
                                        f"{len(pool.cooling)} cooling, of {pool.capacity}.")
    if cell not in spawn_points(state, player):
        raise IllegalCommand("not_spawn_point", "That cell is not one of your spawn points.")
    if (state.air if stats.flying else state.ground)[cell]:
        raise IllegalCommand("occupied", f"The {'air' if stats.flying else 'ground'} layer of that cell is taken.")
    return stats, cell


def _own_unit(state, player, value, what="unit"):
    _int(value, what)
    unit = state.units.get(value)
    if unit is None:
        raise IllegalCommand("unknown_unit", f"There is no creature {shown(value)} on the board.")
    if unit.camp != player:
        raise IllegalCommand("not_your_unit", f"Creature {unit.id} is not yours.")
    return unit


def _with_action(state, unit):
    if not unit.can_act:
        if unit.born == state.turn:
            raise IllegalCommand("summoning_sickness", f"Creature {unit.id} entered the board this turn and cannot act yet.")
        raise IllegalCommand("already_acted", f"Creature {unit.id} has already moved or attacked this turn.")
    return unit


def _check_move(state, player, body):
    _body("move", body, ("unit", "to"))
    unit = _own_unit(state, player, body["unit"])
    cell = _cell(body["to"], "move to")
    _with_action(state, unit)
    if cell == unit.cell:
        raise IllegalCommand("same_cell", f"Creature {unit.id} is already there.")
    parent = reachable(state, unit)
    if cell not in parent:
        raise IllegalCommand("unreachable", f"Creature {unit.id} cannot reach that cell: it is blocked, "
                                            f"or further than {unit.stats.move} steps by a legal path.")
    return unit, cell, parent


def _check_attack(state, player, body):
    _body("attack", body, ("unit", "target"))
    unit = _own_unit(state, player, body["unit"])
    target = body["target"]
    if target != "miracle":
        if type(target) is not int:
            raise _malformed('attack target must be a creature id or "miracle".')
        target = state.units.get(target)
        if target is None:
            raise IllegalCommand("unknown_target", f"There is no creature {shown(body['target'])} on the board.")
        if target.camp == player:
            raise IllegalCommand("friendly_target", "You may attack only enemy creatures and the enemy miracle.")
    _with_action(state, unit)
    if unit.atk < 1:
        raise IllegalCommand("zero_attack", f"Creature {unit.id} has 0 attack and cannot attack.")
    stats = unit.stats
    target_cell = MIRACLE_CELL[state.side(1 - player)] if target == "miracle" else target.cell
    distance = DIST[unit.cell][target_cell]
    if not stats.range_min <= distance <= stats.range_max:
        raise IllegalCommand("out_of_range", f"The target is {distance} away; creature {unit.id} reaches "
                                             f"{stats.range_min}-{stats.range_max}.")
    if target != "miracle" and not can_hit(stats, target.stats):
        raise IllegalCommand("cannot_hit_flyer", f"Creature {unit.id} neither flies nor is anti-air, so it cannot hit a flyer.")
    return unit, (None if target == "miracle" else target)


def inferno_cells_ok(state, player, cell):
    """Ruling 31's target rule for InfernoFlame."""
    if not board.GROUND_OK[cell] or state.ground[cell]:
        return False
    row = DIST[cell]
    if row[MIRACLE_CELL[state.side(player)]] <= INFERNO_MIRACLE_REACH:
        return True
    return any(owner == player and row[GARRISON_CELL[i]] <= INFERNO_GARRISON_REACH
               for i, owner in enumerate(state.garrisons))


def _check_artifact(state, player, body):
    artifact_id = state.decks[player]["artifact"]
    wants_unit = artifact_id == SALAMANDER_SHIELD
    if type(body) is dict and ("unit" in body) != wants_unit and ("at" in body) == wants_unit:
        need = 'a creature {"unit": id}' if wants_unit else 'a cell {"at": [x, y, z]}'
        raise IllegalCommand("bad_target", f"{artifact_id} targets {need}.")
    _body("artifact", body, ("unit",) if wants_unit else ("at",))
    target = _own_unit(state, player, body["unit"]) if wants_unit else _cell(body["at"], "artifact at")
    slot = state.artifacts[player]
    if slot["state"] == "in_use":
        raise IllegalCommand("artifact_in_use", f"{artifact_id} is in use until its creature dies.")
    if slot["state"] == "cooling":
        raise IllegalCommand("artifact_cooling", f"{artifact_id} is cooling down: {slot['cooldown']} more turn(s).")
    cost = ARTIFACT_STATS[artifact_id][0]
    if cost > state.mana[player]:
        raise IllegalCommand("no_mana", f"{artifact_id} costs {cost} mana; you have {state.mana[player]}.")
    if artifact_id == INFERNO_FLAME and not inferno_cells_ok(state, player, target):
        raise IllegalCommand("forbidden_cell", "InfernoFlame needs a cell without a ground creature, not abyss, within "
                                               f"{INFERNO_MIRACLE_REACH} of your miracle or {INFERNO_GARRISON_REACH} "
                                               "of a garrison you own.")
    return artifact_id, target


def _check_end_turn(state, player, body):
    return None


_CHECKS = {"summon": _check_summon, "move": _check_move, "attack": _check_attack, "artifact": _check_artifact,
           "end_turn": _check_end_turn}
