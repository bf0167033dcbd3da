"""The compact options' moves (``engine.options``): for every creature that may act, each cell it can
reach with the path ``path_to`` walks, in ``reachable``'s order, over random matches of both seats.
The moves are built from each other's paths (``legal._move_options``); this checks them against
``path_to`` itself, cell by cell, and that the result holds no list twice where a caller could
change one and so change another move's path."""
import json
import random

from game.games.miracle.engine import board, new_match, options, randomplay, rules
from game.games.miracle.engine.movement import path_to, reachable


def _states(seeds=6, every=3):
    for seed in range(seeds):
        rng = random.Random(seed)
        state = new_match(seed)
        count = 0
        while state.phase != "over" and count < 400:
            if count % every == 0:
                yield state
            mover = rules.to_move(state)[0]
            state, _events = rules.apply(state, mover, randomplay.random_command(state, mover, rng))
            count += 1


def test_every_move_offered_has_the_path_path_to_walks_in_reachables_order():
    compared = 0
    for state in _states():
        for player in (0, 1):
            offered = {u["unit"]: u["moves"] for u in options(state, player).get("units", [])}
            for unit_id, moves in offered.items():
                unit = state.units[unit_id]
                parent = reachable(state, unit)
                expected = [
                    {"to": board.coord(cell), "path": [board.coord(c) for c in path_to(parent, cell)]}
                    for cell in parent
                    if cell != unit.cell
                ]
                assert moves == expected
                # Byte for byte what a socket sends.
                assert json.dumps(moves) == json.dumps(expected)
                compared += len(moves)
    assert compared > 1000


def test_changing_one_moves_path_changes_no_other_move():
    for state in _states(seeds=3):
        for player in (0, 1):
            for unit in options(state, player).get("units", []):
                moves = unit["moves"]
                longer = [m for m in moves if len(m["path"]) > 1]
                if not longer:
                    continue
                before = json.dumps(moves)
                longer[0]["path"].append([99, 99, 99])
                after = json.loads(json.dumps(moves))
                before = json.loads(before)
                changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
                assert changed == [moves.index(longer[0])]
                return
    raise AssertionError("no creature with a path of two cells in the sampled matches")
