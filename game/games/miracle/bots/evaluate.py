"""Scoring a position for one player: what the greedy and expert levels maximise.

A position is worth its miracle HP difference (heavily), the creatures on the board (each by what
it cost, scaled by its remaining HP), their advance towards the enemy miracle, and garrisons. The
expert adds ``threat``: what the enemy could hit next turn if nothing moved, measured without path
search (distance ≤ move + range), which is rough but cheap enough to run on every candidate.
"""
from game.games.miracle.engine.board import DIST, GARRISON_CELL, MIRACLE_CELL


WIN = 100000.0
MIRACLE = 40.0
ADVANCE = 0.25
GARRISON = 4.0
INFERNO_VALUE = 10.0


def unit_value(unit):
    cost = unit.stats.cost or INFERNO_VALUE
    return (cost + 1.0) * (0.4 + 0.6 * unit.hp / unit.max_hp) + 0.5 * unit.atk


def evaluate(state, player):
    if state.phase == "over":
        return WIN if state.winner == player else -WIN
    enemy = 1 - player
    score = MIRACLE * (state.miracle_hp[player] - state.miracle_hp[enemy])
    targets = (MIRACLE_CELL[state.side(enemy)], MIRACLE_CELL[state.side(player)])
    for unit in state.units.values():
        value = unit_value(unit)
        toward = DIST[unit.cell][targets[0] if unit.camp == player else targets[1]]
        if unit.camp == player:
            score += value - ADVANCE * toward
        else:
            score -= value - ADVANCE * toward
    for index, owner in enumerate(state.garrisons):
        if owner is not None:
            score += GARRISON if owner == player else -GARRISON
        unit_id = state.ground[GARRISON_CELL[index]]
        if unit_id and owner is None:
            score += GARRISON / 2 if state.units[unit_id].camp == player else -GARRISON / 2
    return score


def threat(state, player):
    """What the enemy's creatures could deal next turn to ``player``'s creatures and miracle, each
    target counted once by its strongest threat."""
    enemy = 1 - player
    home = MIRACLE_CELL[state.side(player)]
    danger = 0.0
    hitters = [u for u in state.units.values() if u.camp == enemy and u.atk >= 1]
    if not hitters:
        return 0.0
    miracle_hits = 0
    for foe in hitters:
        if DIST[foe.cell][home] <= foe.stats.move + foe.stats.range_max:
            miracle_hits += foe.atk
    danger += MIRACLE * miracle_hits
    for unit in state.units.values():
        if unit.camp != player:
            continue
        row = DIST[unit.cell]
        worst = 0
        for foe in hitters:
            stats = foe.stats
            if (not unit.stats.flying or stats.flying or stats.anti_air) and row[foe.cell] <= stats.move + stats.range_max:
                worst = max(worst, foe.atk)
        if worst:
            danger += unit_value(unit) * min(1.0, worst / unit.hp) * 0.5
    return danger


