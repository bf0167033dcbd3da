"""Movement (rulings 15-18): blocking and stopping on both layers, abyss and miracle cells, checked
in scenarios and against an independent brute-force path search."""
import random

import pytest

from game.games.miracle.engine import apply, is_legal, options
from game.games.miracle.engine.board import ABYSS, CELL_OF, COORDS, DIST, MIRACLE_CELLS, NEIGHBOURS

from .helpers import of_type, put, set_turn, start


def _match():
    return set_turn(start(), 41)


def _can_move(state, unit, to):
    return is_legal(state, 0, {"move": {"unit": unit, "to": list(to)}})


def test_it_moves_along_a_path_and_reports_it():
    state = _match()
    unit = put(state, 0, "swordsman", 1, (-4, 4, 0))
    state, events = apply(state, 0, {"move": {"unit": unit, "to": [-1, 4, -3]}})
    (move,) = of_type(events, "move")
    assert move["from"] == [-4, 4, 0] and move["to"] == [-1, 4, -3]
    assert len(move["path"]) == 3 and move["path"][-1] == [-1, 4, -3]
    assert all(DIST[CELL_OF[tuple(a)]][CELL_OF[tuple(b)]] == 1
               for a, b in zip([move["from"]] + move["path"], move["path"]))
    assert state.units[unit].can_act is False  # one action: it may not attack now


def test_a_ground_creature_never_enters_abyss_but_a_flyer_does():
    state = _match()
    walker = put(state, 0, "swordsman", 1, (-2, 1, 1))
    bat = put(state, 0, "black_bat", 1, (-2, 2, 0))
    assert not _can_move(state, walker, (-1, 0, 1))  # abyss
    assert _can_move(state, bat, (-1, 0, 1))
    assert _can_move(state, bat, (0, 0, 0))  # two abyss cells away


def test_nobody_enters_a_miracle_cell():
    state = _match()
    walker = put(state, 0, "swordsman", 1, (-6, 6, 0))
    bat = put(state, 0, "black_bat", 1, (-7, 6, 1))
    assert not _can_move(state, walker, (-7, 7, 0))
    assert not _can_move(state, bat, (-7, 7, 0))


def test_a_ground_creature_stops_next_to_an_enemy_ground_creature():
    state = _match()
    walker = put(state, 0, "swordsman", 1, (-4, 4, 0))
    assert _can_move(state, walker, (-2, 5, -3)) and _can_move(state, walker, (-1, 3, -2))
    put(state, 1, "swordsman", 1, (-2, 4, -2), can_act=False)
    # (-3, 4, -1) and (-3, 5, -2) neighbour the enemy: the walker may stop there, not pass on.
    assert _can_move(state, walker, (-3, 4, -1)) and _can_move(state, walker, (-3, 5, -2))
    assert not _can_move(state, walker, (-2, 5, -3))
    assert not _can_move(state, walker, (-1, 3, -2))
    assert not _can_move(state, walker, (-2, 4, -2))  # the enemy's own cell


def test_a_friendly_flyer_is_passed_under_and_an_enemy_flyer_stops_a_walker():
    state = _match()
    walker = put(state, 0, "swordsman", 1, (-4, 4, 0))
    put(state, 0, "black_bat", 1, (-3, 4, -1), can_act=False)
    assert _can_move(state, walker, (-3, 4, -1)) and _can_move(state, walker, (-1, 4, -3))
    state = _match()
    walker = put(state, 0, "swordsman", 1, (-4, 4, 0))
    put(state, 1, "black_bat", 1, (-3, 4, -1), can_act=False)
    assert _can_move(state, walker, (-3, 4, -1))  # may stop under the enemy flyer
    assert not _can_move(state, walker, (-1, 4, -3))  # only reachable in 3 steps through it


def test_a_flyer_stops_over_an_enemy_walker_and_next_to_an_enemy_flyer():
    state = _match()
    bat = put(state, 0, "black_bat", 1, (-4, 4, 0))
    put(state, 1, "swordsman", 1, (-3, 4, -1), can_act=False)
    put(state, 1, "black_bat", 1, (-5, 4, 1), can_act=False)
    assert _can_move(state, bat, (-3, 4, -1))
    stops = {CELL_OF[(-3, 4, -1)]} | set(NEIGHBOURS[CELL_OF[(-5, 4, 1)]])
    reached = brute_force(state, state.units[bat])
    assert set(_destinations(state, 0, bat)) == reached
    assert stops & reached


def test_a_creature_may_leave_a_stop_cell():
    state = _match()
    walker = put(state, 0, "swordsman", 1, (-4, 4, 0))
    put(state, 1, "swordsman", 1, (-3, 4, -1), can_act=False)
    assert _can_move(state, walker, (-5, 4, 1))
    assert _can_move(state, walker, (-6, 4, 2))


def _destinations(state, player, unit):
    entry = next(u for u in options(state, player)["units"] if u["unit"] == unit)
    return [CELL_OF[tuple(m["to"])] for m in entry["moves"]]


def brute_force(state, unit):
    """Every cell reachable by some sequence of steps obeying rulings 16-17, written plainly."""
    flying = unit.stats.flying
    others = [u for u in state.units.values() if u is not unit]

    def blocked(cell):
        if cell in MIRACLE_CELLS or (not flying and cell in ABYSS) or cell == unit.cell:
            return True
        return any(o.cell == cell and o.stats.flying == flying for o in others)

    def stop(cell):
        for o in others:
            if o.camp == unit.camp:
                continue
            if o.stats.flying == flying and DIST[o.cell][cell] == 1:
                return True
            if o.stats.flying != flying and o.cell == cell:
                return True
        return False

    reached = set()

    def walk(cell, steps):
        if steps == unit.stats.move or (cell != unit.cell and stop(cell)):
            return
        for n in NEIGHBOURS[cell]:
            if not blocked(n):
                reached.add(n)
                walk(n, steps + 1)

    walk(unit.cell, 0)
    return reached


@pytest.mark.parametrize("seed", range(40))
def test_destinations_match_a_brute_force_search(seed):
    rng = random.Random(seed)
    state = _match()
    centre = CELL_OF[(-2, 2, 0)]  # beside the central abyss
    near = [c for c in range(len(COORDS)) if DIST[centre][c] <= 5]
    mover_type = rng.choice(["swordsman", "black_bat", "priest"])
    mover = put(state, 0, mover_type, 3 if mover_type == "black_bat" else 1, COORDS[rng.choice(
        [c for c in near if c not in ABYSS and c not in MIRACLE_CELLS])])
    for _ in range(rng.randint(3, 12)):
        kind = rng.choice(["swordsman", "black_bat"])
        flying = kind == "black_bat"
        free = [c for c in near if c not in MIRACLE_CELLS and (flying or c not in ABYSS)
                and not (state.air if flying else state.ground)[c]]
        put(state, rng.randint(0, 1), kind, 1, COORDS[rng.choice(free)], can_act=False)
    assert set(_destinations(state, 0, mover)) == brute_force(state, state.units[mover])
