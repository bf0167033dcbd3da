"""The four artifacts (rulings 28-33): costs, targets, effects, recycling and cooldowns."""
from game.games.miracle.engine import apply, is_legal, options

from .helpers import of_type, put, set_turn, start

HOLY = {"artifact": "holy_light", "creatures": ["swordsman", "archer", "priest"]}
FLAME = {"artifact": "inferno_flame", "creatures": ["swordsman", "archer", "priest"]}
SHIELD = {"artifact": "salamander_shield", "creatures": ["swordsman", "archer", "priest"]}
WIND = {"artifact": "wind_blessing", "creatures": ["swordsman", "archer", "priest"]}


def _match(deck, turn=41, mana=12):
    return set_turn(start(deck, HOLY), turn, mana)


def _end_turns(state, until):
    while state.turn < until:
        state, _ = apply(state, state.current, {"end_turn": {}})
    return state


def test_holy_light_heals_to_max_and_adds_two_attack_until_turn_n_plus_3_ends():
    state = _match(HOLY)
    near = put(state, 0, "swordsman", 3, (-4, 4, 0), hp=1)
    far = put(state, 0, "swordsman", 3, (-4, 0, 4), hp=1)  # 3 from the target
    enemy = put(state, 1, "swordsman", 3, (-2, 4, -2), hp=1, can_act=False)
    state, events = apply(state, 0, {"artifact": {"at": [-4, 3, 1]}})
    assert state.mana[0] == 6
    assert state.units[near].hp == 6 and state.units[near].atk == 8
    assert state.units[far].hp == 1 and state.units[enemy].hp == 1 and state.units[enemy].atk == 6
    assert {"type": "recycle", "player": 0, "artifact": "holy_light", "cooldown": 5} in events
    state = _end_turns(state, 44)
    assert state.units[near].atk == 8  # still in turn 44 = N + 3
    state, events = apply(state, 1, {"end_turn": {}})
    assert {"type": "atk", "unit": near, "atk": 6} in events and state.units[near].atk == 6


def test_holy_light_may_target_abyss_and_miracle_cells_and_is_ready_again_five_own_turns_later():
    state = _match(HOLY)
    assert is_legal(state, 0, {"artifact": {"at": [0, 0, 0]}})  # abyss
    assert is_legal(state, 0, {"artifact": {"at": [7, -7, 0]}})  # a miracle cell
    state, _ = apply(state, 0, {"artifact": {"at": [7, -7, 0]}})
    for turn in (43, 45, 47, 49):
        state = _end_turns(state, turn)
        assert state.artifacts[0]["state"] == "cooling"
        assert options(state, 0)["artifact"] is None
    state = _end_turns(state, 51)  # ruling 11: used in turn 41 -> ready at the 5th own turn start
    assert state.artifacts[0]["state"] == "ready"


def test_inferno_flame_damages_enemies_within_two_then_spawns_the_inferno():
    state = _match(FLAME)
    hit_ground = put(state, 1, "swordsman", 3, (-3, 3, 0), can_act=False)
    hit_air = put(state, 1, "black_bat", 3, (-4, 4, 0), can_act=False)  # on the target cell itself
    missed = put(state, 1, "swordsman", 3, (-1, 3, -2), can_act=False)  # 3 away
    friend = put(state, 0, "swordsman", 3, (-4, 5, -1))
    state, events = apply(state, 0, {"artifact": {"at": [-4, 4, 0]}})
    assert state.mana[0] == 4  # ruling 31: 8 in all
    damaged = {e["unit"]: e["amount"] for e in of_type(events, "damage")}
    assert damaged == {hit_ground: 2, hit_air: 2}
    assert state.units[missed].hp == 6 and state.units[friend].hp == 6
    (summon,) = of_type(events, "summon")
    inferno = state.units[summon["unit"]]
    assert (inferno.type, inferno.atk, inferno.hp, inferno.stats.move, inferno.stats.range_max) == ("inferno", 8, 12, 3, 1)
    assert inferno.stats.anti_air and not inferno.can_act
    assert state.artifacts[0] == {"state": "in_use", "cooldown": 0, "unit": inferno.id}


def test_inferno_flame_refuses_abyss_miracle_ground_occupied_and_far_cells():
    state = _match(FLAME)
    put(state, 1, "swordsman", 1, (-4, 4, 0), can_act=False)
    assert not is_legal(state, 0, {"artifact": {"at": [-4, 4, 0]}})  # a ground creature there
    assert not is_legal(state, 0, {"artifact": {"at": [-7, 7, 0]}})  # own miracle cell
    assert not is_legal(state, 0, {"artifact": {"at": [-1, 0, 1]}})  # abyss, 7 from the miracle
    assert is_legal(state, 0, {"artifact": {"at": [0, 3, -3]}})  # distance 7
    assert not is_legal(state, 0, {"artifact": {"at": [1, 3, -4]}})  # distance 8
    state.garrisons[3] = 0  # garrison (0, 5, -5): its 5-cell reach counts once owned
    assert is_legal(state, 0, {"artifact": {"at": [1, 3, -4]}})
    assert is_legal(state, 0, {"artifact": {"at": [5, 5, -10]}}) is False  # abyss
    assert is_legal(state, 0, {"artifact": {"at": [4, 1, -5]}})


def test_inferno_flame_is_recycled_when_its_inferno_dies():
    state = _match(FLAME)
    state, events = apply(state, 0, {"artifact": {"at": [-4, 4, 0]}})
    inferno = of_type(events, "summon")[0]["unit"]
    state.units[inferno].hp = 1
    killer = put(state, 1, "swordsman", 1, (-3, 4, -1), can_act=False)
    set_turn(state, 42)
    state, events = apply(state, 1, {"attack": {"unit": killer, "target": inferno}})
    assert {"type": "recycle", "player": 0, "artifact": "inferno_flame", "cooldown": 6} in events
    assert state.lost_stars[0] == 1


def test_salamander_shield_gives_three_hp_a_shield_now_and_at_each_own_turn_start():
    state = _match(SHIELD)
    sword = put(state, 0, "swordsman", 1, (-4, 4, 0), can_act=False)
    state, events = apply(state, 0, {"artifact": {"unit": sword}})
    unit = state.units[sword]
    assert (unit.hp, unit.max_hp, unit.shield, unit.equipped) == (5, 5, True, True)
    assert {"type": "shield", "unit": sword, "on": True} in events
    enemy = put(state, 1, "swordsman", 3, (-3, 4, -1), can_act=False)
    state = _end_turns(state, 42)
    state, _ = apply(state, 1, {"attack": {"unit": enemy, "target": sword}})
    assert state.units[sword].hp == 5 and not state.units[sword].shield
    state, events = apply(state, 1, {"end_turn": {}})
    assert {"type": "shield", "unit": sword, "on": True} in events and state.units[sword].shield


def test_salamander_shield_only_on_own_creatures_and_recycled_when_its_bearer_dies():
    state = _match(SHIELD)
    sword = put(state, 0, "swordsman", 1, (-4, 4, 0), can_act=False)
    enemy = put(state, 1, "swordsman", 3, (-3, 4, -1), can_act=False)
    assert not is_legal(state, 0, {"artifact": {"unit": enemy}})
    assert not is_legal(state, 0, {"artifact": {"at": [-4, 4, 0]}})
    state, _ = apply(state, 0, {"artifact": {"unit": sword}})
    assert not is_legal(state, 0, {"artifact": {"unit": sword}})  # in use
    state.units[sword].shield = False
    state = _end_turns(state, 42)
    state.units[sword].shield = False
    state, events = apply(state, 1, {"attack": {"unit": enemy, "target": sword}})
    assert {"type": "recycle", "player": 0, "artifact": "salamander_shield", "cooldown": 4} in events


def test_wind_blessing_gives_spent_friends_within_one_their_action_back():
    state = _match(WIND)
    moved = put(state, 0, "swordsman", 1, (-4, 4, 0))
    fresh = put(state, 0, "swordsman", 1, (-4, 5, -1))
    state, _ = apply(state, 0, {"move": {"unit": moved, "to": [-3, 4, -1]}})
    state, _ = apply(state, 0, {"summon": {"type": "swordsman", "level": 1, "at": [-6, 6, 0]}})
    summoned = max(state.units)
    far = put(state, 0, "swordsman", 1, (-1, 4, -3), can_act=False)
    state, events = apply(state, 0, {"artifact": {"at": [-4, 4, 0]}})
    assert {e["unit"] for e in of_type(events, "action_restored")} == {moved}
    assert state.units[fresh].can_act and not state.units[far].can_act
    assert {"type": "recycle", "player": 0, "artifact": "wind_blessing", "cooldown": 12} in events
    assert state.units[summoned].can_act is False
    state = set_turn(_match(WIND), 41)
    summoned_now = apply(state, 0, {"summon": {"type": "swordsman", "level": 1, "at": [-6, 6, 0]}})[0]
    unit_id = max(summoned_now.units)
    after, _ = apply(summoned_now, 0, {"artifact": {"at": [-6, 6, 0]}})
    assert after.units[unit_id].can_act  # a creature summoned this turn may act after it
    assert after.mana[0] == 12 - 2 - 8
