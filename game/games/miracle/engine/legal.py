"""What a player may do now: a compact form for the board (``options``) and the full list.

Both are built from the same helpers the checks use (``reachable``, ``spawn_points``,
``inferno_cells_ok``, ``can_hit``), so every listed command applies and nothing else does.
"""
from itertools import combinations

from . import board
from .board import CELLS, COORDS, DIST, MIRACLE_CELL
from .cards import ARTIFACT_STATS, ARTIFACTS, DECK_CREATURES, INFERNO_FLAME, LEVELS, SALAMANDER_SHIELD, STATS
from .checks import inferno_cells_ok, spawn_points
from .combat import can_hit
from .movement import reachable


def unit_attacks(state, unit):
    """Targets ``unit`` may attack now: enemy creature ids, then ``"miracle"`` if in range."""
    if not unit.can_act or unit.atk < 1:
        return []
    stats = unit.stats
    low, high = stats.range_min, stats.range_max
    row = DIST[unit.cell]
    targets = [other.id for other in state.units.values()
               if other.camp != unit.camp and low <= row[other.cell] <= high and can_hit(stats, other.stats)]
    if low <= row[MIRACLE_CELL[state.side(1 - unit.camp)]] <= high:
        targets.append("miracle")
    return targets


def _move_options(parent):
    """``[{"to": [x, y, z], "path": [[x, y, z], ...]}]`` for each cell of ``reachable``'s ``parent``
    but the start, in its order, each path as ``path_to`` gives it.

    A socket's view of 神迹之战 carries these for every creature that may act, and they were the
    biggest cost of drawing it (docs/performance.md): ``parent`` lists a cell only after the cell it
    is reached from, so each path is its predecessor's plus one cell, built in one copy instead of
    one call per cell of it. A cell's coordinates are one list wherever the result names the cell:
    the result is read, encoded and shared (``fanout.game_part``), never changed."""
    paths = {}
    moves = []
    for cell, previous in parent.items():
        if previous == -1:
            paths[cell] = []
            continue
        at = list(COORDS[cell])
        path = paths[cell] = paths[previous] + [at]
        moves.append({"to": at, "path": path})
    return moves


def summon_cells(state, player):
    """``{(type, level): [cells]}`` for every summon ``player`` can afford and has a unit for."""
    spawns = spawn_points(state, player)
    found = {}
    for type_id, pool in state.pools[player].items():
        if pool.available < 1:
            continue
        for level in LEVELS:
            stats = STATS[type_id, level]
            if stats.cost > state.mana[player]:
                continue
            layer = state.air if stats.flying else state.ground
            cells = [c for c in spawns if not layer[c]]
            if cells:
                found[type_id, level] = cells
    return found


def artifact_targets(state, player):
    """``("unit", [ids])`` or ``("at", [cells])`` where the artifact may be used now, or None."""
    artifact_id = state.decks[player]["artifact"]
    if state.artifacts[player]["state"] != "ready" or ARTIFACT_STATS[artifact_id][0] > state.mana[player]:
        return None
    if artifact_id == SALAMANDER_SHIELD:
        return "unit", [u.id for u in state.units.values() if u.camp == player]
    if artifact_id == INFERNO_FLAME:
        return "at", [c for c in CELLS if inferno_cells_ok(state, player, c)]
    return "at", list(CELLS)


def _in_turn(state, player):
    return state.phase == "play" and state.current == player


def options(state, player):
    """The compact form: per own creature its destinations (with paths) and targets; each
    summonable type and level with its cells; the artifact's cells or units; end_turn; surrender."""
    if state.phase == "over" or player not in (0, 1) or isinstance(player, bool):
        return {}
    if state.phase == "deck":
        if state.decks[player] is not None:
            return {"surrender": True}
        return {"deck": {"artifacts": list(ARTIFACTS), "creatures": list(DECK_CREATURES), "count": 3},
                "surrender": True}
    if not _in_turn(state, player):
        return {"surrender": True}
    units = []
    for unit in state.units.values():
        if unit.camp == player and unit.can_act:
            units.append({
                "unit": unit.id,
                "at": board.coord(unit.cell),
                "moves": _move_options(reachable(state, unit)),
                "attacks": unit_attacks(state, unit),
            })
    summons = [{"type": t, "level": lv, "cost": STATS[t, lv].cost, "cells": [board.coord(c) for c in cells]}
               for (t, lv), cells in summon_cells(state, player).items()]
    targets = artifact_targets(state, player)
    artifact = None
    if targets is not None:
        key, found = targets
        artifact = {"artifact": state.decks[player]["artifact"]}
        if key == "unit":
            artifact["units"] = found
        else:
            artifact["cells"] = [board.coord(c) for c in found]
    return {"units": units, "summons": summons, "artifact": artifact, "end_turn": True, "surrender": True}


def legal_commands(state, player):
    """Every legal command of ``player`` now, surrender included (it is legal until the end)."""
    if state.phase == "over" or player not in (0, 1) or isinstance(player, bool):
        return []
    surrender = {"surrender": {}}
    if state.phase == "deck":
        if state.decks[player] is not None:
            return [surrender]
        return [{"deck": {"artifact": a, "creatures": list(c)}}
                for a in ARTIFACTS for c in combinations(DECK_CREATURES, 3)] + [surrender]
    if not _in_turn(state, player):
        return [surrender]
    commands = []
    for (type_id, level), cells in summon_cells(state, player).items():
        commands += [{"summon": {"type": type_id, "level": level, "at": board.coord(c)}} for c in cells]
    for unit in list(state.units.values()):
        if unit.camp == player and unit.can_act:
            commands += [{"move": {"unit": unit.id, "to": board.coord(c)}}
                         for c in reachable(state, unit) if c != unit.cell]
            commands += [{"attack": {"unit": unit.id, "target": t}} for t in unit_attacks(state, unit)]
    targets = artifact_targets(state, player)
    if targets is not None:
        key, found = targets
        commands += [{"artifact": {key: t if key == "unit" else board.coord(t)}} for t in found]
    commands.append({"end_turn": {}})
    commands.append(surrender)
    return commands
