"""Bad input: every illegal command is refused with its code and a message, and changes nothing,
even with ``in_place=True``; malformed input never raises anything but ``IllegalCommand``."""
import pytest

from game.games.miracle.engine import IllegalCommand, apply, is_legal, new_match

from .helpers import DECK_A, DECK_B, put, set_turn, start


def refused(state, player, command, code):
    before = state.to_json()
    with pytest.raises(IllegalCommand) as caught:
        apply(state, player, command, in_place=True)
    assert caught.value.code == code, caught.value.message
    assert caught.value.message and caught.value.to_json() == {"code": code, "message": caught.value.message}
    assert state.to_json() == before
    assert not is_legal(state, player, command)


def _play():
    state = set_turn(start(), 41, mana=12)
    return state


@pytest.mark.parametrize("body, code", [
    ({"creatures": ["swordsman", "archer", "priest"]}, "missing_artifact"),
    ({"artifact": None, "creatures": ["swordsman", "archer", "priest"]}, "missing_artifact"),
    ({"artifact": "excalibur", "creatures": ["swordsman", "archer", "priest"]}, "unknown_artifact"),
    ({"artifact": "holy_light", "creatures": ["swordsman", "archer", "dragon"]}, "unknown_creature"),
    ({"artifact": "holy_light", "creatures": ["swordsman", "archer", "inferno"]}, "unknown_creature"),
    ({"artifact": "holy_light", "creatures": ["swordsman", "archer", "archer"]}, "repeated_creature"),
    ({"artifact": "holy_light", "creatures": ["swordsman", "archer"]}, "deck_size"),
    ({"artifact": "holy_light", "creatures": ["swordsman", "archer", "priest", "black_bat"]}, "deck_size"),
    ({"artifact": "holy_light", "creatures": "swordsman"}, "malformed"),
])
def test_it_refuses_bad_decks(body, code):
    refused(new_match(1), 0, {"deck": body}, code)


def test_it_refuses_a_second_deck_and_play_before_both_decks():
    state = new_match(1, first_mover=0)
    state, _ = apply(state, 0, {"deck": DECK_A})
    refused(state, 0, {"deck": DECK_B}, "already_submitted")
    refused(state, 0, {"end_turn": {}}, "wrong_phase")
    refused(state, 0, {"summon": {"type": "swordsman", "level": 1, "at": [-6, 6, 0]}}, "wrong_phase")
    state, _ = apply(state, 1, {"deck": DECK_B})
    refused(state, 1, {"deck": DECK_B}, "wrong_phase")


def test_it_refuses_commands_out_of_turn_and_after_the_end():
    state = start()
    refused(state, 1, {"end_turn": {}}, "not_your_turn")
    over, _ = apply(state, 0, {"surrender": {}})
    refused(over, 1, {"end_turn": {}}, "match_over")
    refused(over, 0, {"surrender": {}}, "match_over")


@pytest.mark.parametrize("summon, code", [
    ({"type": "dragon", "level": 1, "at": [-6, 6, 0]}, "unknown_creature"),
    ({"type": "inferno", "level": 1, "at": [-6, 6, 0]}, "unknown_creature"),
    ({"type": "black_bat", "level": 1, "at": [-6, 6, 0]}, "not_in_deck"),
    ({"type": "swordsman", "level": 4, "at": [-6, 6, 0]}, "bad_level"),
    ({"type": "swordsman", "level": 0, "at": [-6, 6, 0]}, "bad_level"),
    ({"type": "swordsman", "level": True, "at": [-6, 6, 0]}, "bad_level"),
    ({"type": "swordsman", "level": 1, "at": [-5, 5, 0]}, "not_spawn_point"),
    ({"type": "swordsman", "level": 1, "at": [6, -6, 0]}, "not_spawn_point"),  # the enemy's
    ({"type": "swordsman", "level": 1, "at": [0, 4, -4]}, "not_spawn_point"),  # unowned garrison's
    ({"type": "swordsman", "level": 1, "at": [9, -9, 0]}, "off_map"),
    ({"type": "swordsman", "level": 1, "at": [1, 1, 1]}, "off_map"),
])
def test_it_refuses_bad_summons(summon, code):
    refused(_play(), 0, {"summon": summon}, code)


def test_it_refuses_summons_without_mana_units_or_a_free_layer():
    state = set_turn(start(), 41, mana=5)
    refused(state, 0, {"summon": {"type": "swordsman", "level": 3, "at": [-6, 6, 0]}}, "no_mana")
    state = _play()
    put(state, 1, "swordsman", 1, (-6, 6, 0), can_act=False)
    refused(state, 0, {"summon": {"type": "priest", "level": 1, "at": [-6, 6, 0]}}, "occupied")
    state = set_turn(start(DECK_B, DECK_A), 41)
    put(state, 1, "swordsman", 1, (-6, 6, 0), can_act=False)
    assert is_legal(state, 0, {"summon": {"type": "black_bat", "level": 1, "at": [-6, 6, 0]}})  # other layer
    state = _play()
    state.pools[0]["archer"].cooling = [2, 3, 4]
    refused(state, 0, {"summon": {"type": "archer", "level": 1, "at": [-6, 6, 0]}}, "no_unit")
    state = _play()
    state.pools[0]["archer"].on_board = 3
    refused(state, 0, {"summon": {"type": "archer", "level": 1, "at": [-6, 6, 0]}}, "no_unit")


def test_it_refuses_actions_by_creatures_summoned_this_turn_or_that_already_acted():
    state = _play()
    state, _ = apply(state, 0, {"summon": {"type": "swordsman", "level": 1, "at": [-6, 6, 0]}})
    new = max(state.units)
    refused(state, 0, {"move": {"unit": new, "to": [-5, 5, 0]}}, "summoning_sickness")
    sword = put(state, 0, "swordsman", 3, (-4, 4, 0))
    enemy = put(state, 1, "swordsman", 1, (-2, 4, -2), can_act=False)
    state, _ = apply(state, 0, {"move": {"unit": sword, "to": [-3, 4, -1]}})
    refused(state, 0, {"attack": {"unit": sword, "target": enemy}}, "already_acted")
    refused(state, 0, {"move": {"unit": sword, "to": [-4, 4, 0]}}, "already_acted")


def test_it_refuses_bad_moves():
    state = _play()
    sword = put(state, 0, "swordsman", 1, (-4, 4, 0))
    put(state, 0, "swordsman", 1, (-4, 5, -1))
    enemy = put(state, 1, "swordsman", 1, (-2, 2, 0), can_act=False)
    refused(state, 0, {"move": {"unit": sword, "to": [-4, 0, 4]}}, "unreachable")  # 4 steps
    refused(state, 0, {"move": {"unit": sword, "to": [-4, 5, -1]}}, "unreachable")  # occupied
    refused(state, 0, {"move": {"unit": sword, "to": [-4, 4, 0]}}, "same_cell")
    refused(state, 0, {"move": {"unit": enemy, "to": [-3, 3, 0]}}, "not_your_unit")
    refused(state, 0, {"move": {"unit": 99, "to": [-3, 3, 0]}}, "unknown_unit")


def test_it_refuses_bad_attacks():
    state = _play()
    sword = put(state, 0, "swordsman", 1, (-4, 4, 0))
    friend = put(state, 0, "swordsman", 1, (-4, 5, -1))
    far = put(state, 1, "swordsman", 1, (-1, 4, -3), can_act=False)
    bat = put(state, 1, "black_bat", 1, (-3, 4, -1), can_act=False)
    priest = put(state, 0, "priest", 1, (-7, 2, 5))
    enemy_near_priest = put(state, 1, "swordsman", 1, (-6, 2, 4), can_act=False)
    refused(state, 0, {"attack": {"unit": sword, "target": far}}, "out_of_range")
    refused(state, 0, {"attack": {"unit": sword, "target": bat}}, "cannot_hit_flyer")
    refused(state, 0, {"attack": {"unit": sword, "target": friend}}, "friendly_target")
    refused(state, 0, {"attack": {"unit": priest, "target": enemy_near_priest}}, "zero_attack")
    refused(state, 0, {"attack": {"unit": sword, "target": "miracle"}}, "out_of_range")
    refused(state, 0, {"attack": {"unit": sword, "target": 77}}, "unknown_target")


def test_it_refuses_artifacts_cooling_in_use_without_mana_or_on_the_wrong_target():
    state = set_turn(start(), 41, mana=5)
    refused(state, 0, {"artifact": {"at": [0, 0, 0]}}, "no_mana")
    state = _play()
    refused(state, 0, {"artifact": {"unit": 1}}, "bad_target")
    state, _ = apply(state, 0, {"artifact": {"at": [0, 0, 0]}})
    refused(state, 0, {"artifact": {"at": [0, 0, 0]}}, "artifact_cooling")
    shield = set_turn(start({"artifact": "salamander_shield", "creatures": ["swordsman", "archer", "priest"]}), 41)
    sword = put(shield, 0, "swordsman", 1, (-4, 4, 0))
    shield, _ = apply(shield, 0, {"artifact": {"unit": sword}})
    refused(shield, 0, {"artifact": {"unit": sword}}, "artifact_in_use")
    flame = set_turn(start({"artifact": "inferno_flame", "creatures": ["swordsman", "archer", "priest"]}), 41)
    refused(flame, 0, {"artifact": {"at": [0, 0, 0]}}, "forbidden_cell")


HUGE = 10 ** 5000


@pytest.mark.parametrize("command", [
    None, [], "end_turn", 5, {}, {"end_turn": {}, "surrender": {}}, {"fly": {}},
    {"end_turn": None}, {"end_turn": {"now": True}}, {"end_turn": []},
    {"summon": {"type": "swordsman", "level": 1}},
    {"summon": {"type": "swordsman", "level": 1, "at": [-6, 6, 0], "x": 1}},
    {"summon": {"type": ["swordsman"], "level": 1, "at": [-6, 6, 0]}},
    {"summon": {"type": "swordsman", "level": 1.0, "at": [-6, 6, 0]}},
    {"summon": {"type": "swordsman", "level": HUGE, "at": [-6, 6, 0]}},
    {"summon": {"type": "swordsman", "level": 1, "at": [-6, 6]}},
    {"summon": {"type": "swordsman", "level": 1, "at": [-6, 6, True]}},
    {"summon": {"type": "swordsman", "level": 1, "at": [HUGE, -HUGE, 0]}},
    {"summon": {"type": "swordsman", "level": 1, "at": {"x": -6}}},
    {"summon": {"type": "swordsman", "level": 1, "at": [[[[]]], 6, 0]}},
    {"move": {"unit": True, "to": [-6, 6, 0]}},
    {"move": {"unit": HUGE, "to": [-6, 6, 0]}},
    {"move": {"unit": "1", "to": [-6, 6, 0]}},
    {"attack": {"unit": 1, "target": "Miracle"}},
    {"attack": {"unit": 1, "target": [1]}},
    {"attack": {"unit": 1, "target": -HUGE}},
    {"artifact": {}},
    {"artifact": {"at": [0, 0, 0], "unit": 1}},
    {"artifact": {"at": "0,0,0"}},
    {"deck": {"artifact": {"a": 1}, "creatures": [[], {}, None]}},
    {"deck": None},
    {"summon": "x" * 10 ** 6},
])
def test_malformed_input_is_refused_cleanly(command):
    state = _play()
    put(state, 0, "swordsman", 1, (-4, 4, 0))
    before = state.to_json()
    with pytest.raises(IllegalCommand) as caught:
        apply(state, 0, command, in_place=True)
    assert len(caught.value.message) < 500
    assert state.to_json() == before


@pytest.mark.parametrize("player", [2, -1, True, "0", None, 0.0])
def test_it_refuses_players_that_are_not_seats(player):
    refused(start(), player, {"end_turn": {}}, "bad_player")
