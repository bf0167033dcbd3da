"""Rulings of miracle-clarifications.md not pinned elsewhere, one test each (the others: creatures,
movement, combat, artifacts, turns, illegal, record_cli)."""
from game.games.miracle.engine import apply, is_legal, view
from game.games.miracle.engine.board import (ABYSS, CELL_COUNT, GARRISON_SPAWNS, INITIAL_SPAWNS, MIRACLE_CELLS,
                                             NEIGHBOURS)

from .helpers import DECK_A, new_match, of_type, put, set_turn, start


def test_ruling_1_the_map_has_277_cells_2_miracles_39_abyss():
    assert CELL_COUNT == 277 and len(MIRACLE_CELLS) == 2 and len(ABYSS) == 39
    assert all(1 <= len(n) <= 6 for n in NEIGHBOURS)


def test_ruling_2_the_first_mover_holds_side_0_with_five_spawns_and_garrisons_add_three():
    state = start(first_mover=1)
    seen = view(state, "all")
    assert seen["miracles"][1] == [-7, 7, 0] and seen["miracles"][0] == [7, -7, 0]
    assert len(INITIAL_SPAWNS[0]) == 5 and all(len(s) == 3 for s in GARRISON_SPAWNS)
    assert [-6, 6, 0] in seen["spawn_points"][1] and len(seen["spawn_points"][0]) == 5


def test_ruling_6_both_may_pick_the_same_deck_in_either_order():
    state = new_match(2, first_mover=0)
    state, _ = apply(state, 1, {"deck": DECK_A})
    state, events = apply(state, 0, {"deck": DECK_A})
    assert state.phase == "play" and of_type(events, "decks")[0]["decks"] == [DECK_A, DECK_A]


def test_ruling_7_turn_start_runs_mana_then_captures_then_shields_then_cooldowns():
    state = set_turn(start({"artifact": "salamander_shield", "creatures": ["swordsman", "archer", "priest"]}), 42)
    sword = put(state, 0, "swordsman", 1, (0, 5, -5), can_act=False, equipped=True)
    state.pools[0]["archer"].cooling = [1]
    state, events = apply(state, 1, {"end_turn": {}})
    kinds = [e["type"] for e in events]
    assert kinds[:6] == ["turn_end", "turn_start", "capture", "shield", "ready"] + kinds[5:6]
    assert state.units[sword].can_act


def test_ruling_14_a_zero_attack_creature_may_still_move():
    state = set_turn(start(), 41)
    priest = put(state, 0, "priest", 1, (-4, 4, 0))
    assert is_legal(state, 0, {"move": {"unit": priest, "to": [-3, 4, -1]}})


def test_ruling_20_a_creature_summoned_this_turn_or_without_its_action_still_counters():
    state = set_turn(start(), 42)
    spent = put(state, 0, "swordsman", 1, (-4, 4, 0), can_act=False)
    attacker = put(state, 1, "swordsman", 3, (-3, 4, -1))
    state, events = apply(state, 1, {"attack": {"unit": attacker, "target": spent}})
    assert [e["kind"] for e in of_type(events, "damage")] == ["attack", "counter"]


def test_ruling_26_a_priest_summoned_this_turn_heals_at_the_turn_end():
    state = set_turn(start(), 41)
    hurt = put(state, 0, "swordsman", 3, (-5, 5, 0), hp=2)
    state, _ = apply(state, 0, {"summon": {"type": "priest", "level": 1, "at": [-6, 6, 0]}})
    state, events = apply(state, 0, {"end_turn": {}})
    assert {e["unit"] for e in of_type(events, "heal")} == {hurt} and state.units[hurt].hp == 3


def test_ruling_30_a_creature_arriving_after_holy_light_gets_no_bonus():
    state = set_turn(start(), 41)
    inside = put(state, 0, "swordsman", 1, (-4, 4, 0))
    outside = put(state, 0, "swordsman", 1, (-4, 8, -4))
    state, _ = apply(state, 0, {"artifact": {"at": [-4, 4, 0]}})
    state, _ = apply(state, 0, {"move": {"unit": outside, "to": [-4, 5, -1]}})
    assert state.units[inside].atk == 4 and state.units[outside].atk == 2
    state, _ = apply(state, 0, {"move": {"unit": inside, "to": [-5, 7, -2]}})
    assert state.units[inside].atk == 4  # the bonus moves with its creature


def test_ruling_39_after_the_decks_every_audience_sees_the_same_state():
    state = set_turn(start(), 41)
    put(state, 1, "black_bat", 2, (-4, 4, 0), shield=True, can_act=False)
    views = [view(state, audience) for audience in (0, 1, "spectator", "all")]
    assert all(v == views[0] for v in views)
