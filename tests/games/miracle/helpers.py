"""Helpers for the 神迹之战 engine tests.

Matches start through ``apply`` (both decks); scenarios then place creatures and set numbers with
``put`` and ``set_turn``, which edit the state the way the engine's own code does (occupancy, unit
pools, attack recomputed), so a scenario is a state the rules could reach.
"""
from game.games.miracle.engine import MatchState, apply, new_match
from game.games.miracle.engine.board import CELL_OF
from game.games.miracle.engine.cards import UNIT_COUNTS
from game.games.miracle.engine.combat import place, refresh_attack
from game.games.miracle.engine.state import Pool, Unit

ALL_CREATURES = ("swordsman", "archer", "black_bat", "priest", "volcano_dragon", "frost_dragon")
DECK_A = {"artifact": "holy_light", "creatures": ["swordsman", "archer", "priest"]}
DECK_B = {"artifact": "inferno_flame", "creatures": ["black_bat", "frost_dragon", "volcano_dragon"]}


def deck(artifact, *creatures):
    return {"deck": {"artifact": artifact, "creatures": list(creatures)}}


def start(deck0=DECK_A, deck1=DECK_B, first_mover=0, seed=1):
    """A match right after both decks: turn 1, the first mover to play."""
    state = new_match(seed, first_mover=first_mover)
    state, _ = apply(state, 0, {"deck": deck0})
    state, _ = apply(state, 1, {"deck": deck1})
    assert state.phase == "play" and state.turn == 1
    return state


def put(state, player, type_id, level, at, *, can_act=True, **fields):
    """Place a creature of ``player`` at ``at`` (a coordinate triple); returns its id."""
    unit = Unit(state.next_id, player, type_id, level, CELL_OF[tuple(at)], 0)
    state.next_id += 1
    unit.can_act = can_act
    for key, value in fields.items():
        setattr(unit, key, value)
    place(state, unit)
    if type_id != "inferno":
        pool = state.pools[player].setdefault(type_id, Pool(UNIT_COUNTS[type_id][0]))
        pool.on_board += 1
    refresh_attack(state, [])
    return unit.id


def set_turn(state, turn, mana=12):
    """Make it global turn ``turn`` (its player to move, with ``mana``), every creature of that
    player able to act."""
    state.turn = turn
    state.current = state.first_mover if turn % 2 == 1 else 1 - state.first_mover
    state.mana[state.current] = mana
    for unit in state.units.values():
        unit.can_act = unit.camp == state.current
    return state


def play(state, player, command):
    """Apply and return (new state, events); the old state is never touched."""
    return apply(state, player, command)


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


def roundtrip(state):
    return MatchState.from_json(state.to_json())
