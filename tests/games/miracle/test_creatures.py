"""One scenario per creature and level: its numbers, written out from the rules' card list (not
read from the engine's data), checked through summoning, moving, attacking and dying."""
import pytest

from game.games.miracle.engine import apply, is_legal, new_match, options, view
from game.games.miracle.engine.board import CELL_OF, COORDS, DIST, GROUND_OK

from .helpers import deck, of_type, put, set_turn, start

# type, level: cost, atk, hp, range min, range max, move, cooldown, flying, anti-air
CARDS = {
    ("swordsman", 1): (2, 2, 2, 1, 1, 3, 2, False, False),
    ("swordsman", 2): (4, 4, 4, 1, 1, 3, 2, False, False),
    ("swordsman", 3): (6, 6, 6, 1, 1, 3, 3, False, False),
    ("archer", 1): (2, 1, 2, 3, 4, 3, 4, False, True),
    ("archer", 2): (4, 2, 3, 3, 4, 3, 4, False, True),
    ("archer", 3): (6, 3, 4, 3, 4, 3, 4, False, True),
    ("black_bat", 1): (2, 1, 1, 0, 1, 4, 3, True, False),
    ("black_bat", 2): (3, 2, 1, 0, 1, 4, 3, True, False),
    ("black_bat", 3): (5, 4, 2, 0, 1, 5, 4, True, False),  # ruling 13: 5, as the rules print it
    ("priest", 1): (2, 0, 3, 0, 1, 5, 3, False, True),
    ("priest", 2): (4, 0, 4, 0, 1, 5, 3, False, True),
    ("priest", 3): (7, 0, 6, 0, 2, 5, 5, False, True),
    ("volcano_dragon", 1): (5, 3, 5, 1, 2, 2, 5, False, False),
    ("volcano_dragon", 2): (7, 4, 7, 1, 2, 2, 5, False, False),
    ("volcano_dragon", 3): (9, 5, 9, 1, 2, 2, 5, False, False),
    ("frost_dragon", 1): (5, 3, 4, 0, 2, 2, 4, False, True),
    ("frost_dragon", 2): (7, 4, 6, 0, 2, 2, 4, False, True),
    ("frost_dragon", 3): (9, 5, 8, 0, 2, 2, 5, False, True),
}
OPEN = (-4, 4, 0)  # an open stretch of normal cells on camp 0's half
SPAWN = (-6, 6, 0)  # one of the first mover's initial spawn points


def _match_with(type_id):
    others = [t for t in ("swordsman", "archer", "priest", "black_bat") if t != type_id][:2]
    state = start({"artifact": "holy_light", "creatures": [type_id, *others]})
    return set_turn(state, 41, mana=12)


@pytest.mark.parametrize("key", sorted(CARDS))
def test_it_summons_each_level_with_the_rules_numbers(key):
    type_id, level = key
    cost, atk, hp, low, high, move, _, flying, anti_air = CARDS[key]
    state = _match_with(type_id)
    state, events = apply(state, 0, {"summon": {"type": type_id, "level": level, "at": list(SPAWN)}})
    (summon,) = of_type(events, "summon")
    assert (summon["cost"], summon["hp"], summon["atk"]) == (cost, hp, atk)
    assert state.mana[0] == 12 - cost
    (unit,) = view(state, "all")["units"]
    assert (unit["max_hp"], unit["range"], unit["move"], unit["flying"], unit["anti_air"]) == (
        hp, [low, high], move, flying, anti_air)
    assert unit["can_act"] is False  # ruling 14: no action in the turn it is summoned


@pytest.mark.parametrize("key", sorted(CARDS))
def test_it_moves_each_level_exactly_its_move(key):
    type_id, level = key
    move = CARDS[key][5]
    state = _match_with(type_id)
    put(state, 0, type_id, level, OPEN)
    (entry,) = options(state, 0)["units"]
    distances = {DIST[CELL_OF[OPEN]][CELL_OF[tuple(m["to"])]] for m in entry["moves"]}
    assert max(distances) == move and min(distances) == 1
    assert all(len(m["path"]) <= move for m in entry["moves"])


@pytest.mark.parametrize("key", sorted(CARDS))
def test_it_attacks_each_level_exactly_within_its_range(key):
    type_id, level = key
    _, atk, _, low, high, _, _, flying, anti_air = CARDS[key]
    origin = CELL_OF[OPEN]
    for distance in range(0, 5):
        state = _match_with(type_id)
        attacker = put(state, 0, type_id, level, OPEN)
        cell = next(c for c in range(len(COORDS)) if DIST[origin][c] == distance and GROUND_OK[c])
        # At distance 0 the target is on the other layer of the attacker's own cell.
        target_type = "black_bat" if distance == 0 and not flying else "swordsman"
        target = put(state, 1, target_type, 3, COORDS[cell], can_act=False)
        reaches_layer = target_type == "swordsman" or flying or anti_air
        legal = is_legal(state, 0, {"attack": {"unit": attacker, "target": target}})
        assert legal == (atk >= 1 and low <= distance <= high and reaches_layer), (key, distance)


@pytest.mark.parametrize("key", sorted(CARDS))
def test_it_cools_each_level_for_its_cooldown_after_death(key):
    type_id, level = key
    cooldown = CARDS[key][6]
    state = _match_with(type_id)
    victim = put(state, 0, type_id, level, OPEN, hp=1, can_act=False)
    killer = put(state, 1, "frost_dragon", 3, (-4, 5, -1), can_act=True)
    set_turn(state, 42)
    state, events = apply(state, 1, {"attack": {"unit": killer, "target": victim}})
    assert any(e["type"] == "death" and e["unit"] == victim for e in events)
    assert state.pools[0][type_id].cooling == [cooldown]
    assert state.lost_stars[0] == level


@pytest.mark.parametrize("type_id, counts", [
    ("swordsman", (6, 7, 8)), ("archer", (3, 4, 5)), ("black_bat", (3, 4, 5)), ("priest", (3, 4, 4)),
    ("volcano_dragon", (3, 4, 5)), ("frost_dragon", (3, 4, 5)),
])
def test_it_gives_each_type_its_unit_counts(type_id, counts):
    state = new_match(1, first_mover=0)
    state, _ = apply(state, 0, deck("wind_blessing", type_id, *[t for t in ("archer", "priest", "swordsman")
                                                               if t != type_id][:2]))
    state, _ = apply(state, 1, deck("wind_blessing", "archer", "priest", "swordsman"))
    assert view(state, 0)["pools"][0][type_id]["capacity"] == counts[0]
    for turn, column in ((51, 1), (76, 2)):
        while state.turn < turn:
            state, _ = apply(state, state.current, {"end_turn": {}})
        assert view(state, 0)["pools"][0][type_id]["capacity"] == counts[column]
