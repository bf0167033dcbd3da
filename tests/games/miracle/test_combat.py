"""Attacks and counterattacks (rulings 19-21), splash (27), holy shield (23), deaths (24), the
priest's heal and aura (25-26)."""
import pytest

from game.games.miracle.engine import apply, is_legal, view
from game.games.miracle.engine.board import CELL_OF, COORDS, DIST, GROUND_OK

from .helpers import of_type, put, set_turn, start


def _match():
    return set_turn(start(), 41)


def _attack(state, unit, target, player=0):
    return apply(state, player, {"attack": {"unit": unit, "target": target}})


def _damage(events, unit):
    return [(e["amount"], e["kind"]) for e in of_type(events, "damage") if e.get("unit") == unit]


def test_a_target_in_range_counterattacks():
    state = _match()
    a = put(state, 0, "swordsman", 2, (-4, 4, 0))
    b = put(state, 1, "swordsman", 3, (-3, 4, -1), can_act=False)
    state, events = _attack(state, a, b)
    assert _damage(events, b) == [(4, "attack")] and _damage(events, a) == [(6, "counter")]
    assert [e["unit"] for e in of_type(events, "death")] == [a]  # the attacker died of the counter
    assert state.units[b].hp == 2


def test_a_target_out_of_its_range_does_not_counter():
    state = _match()
    archer = put(state, 0, "archer", 3, (-4, 4, 0))
    target = put(state, 1, "swordsman", 3, (-1, 4, -3), can_act=False)
    state, events = _attack(state, archer, target)
    assert _damage(events, target) == [(3, "attack")] and _damage(events, archer) == []


def test_a_defender_killed_by_the_blow_still_counters():
    state = _match()
    a = put(state, 0, "swordsman", 3, (-4, 4, 0))
    b = put(state, 1, "swordsman", 1, (-3, 4, -1), can_act=False)
    state, events = _attack(state, a, b)
    assert _damage(events, a) == [(2, "counter")]
    assert [e["unit"] for e in of_type(events, "death")] == [b]
    assert state.units[a].hp == 4


def test_a_flying_attacker_is_countered_only_by_anti_air_or_flyers():
    state = _match()
    bat = put(state, 0, "black_bat", 3, (-4, 4, 0))
    sword = put(state, 1, "swordsman", 3, (-3, 4, -1), can_act=False)
    _, events = _attack(state, bat, sword)
    assert _damage(events, bat) == []
    state = _match()
    bat = put(state, 0, "black_bat", 3, (-4, 4, 0))
    frost = put(state, 1, "frost_dragon", 3, (-3, 4, -1), can_act=False)
    _, events = _attack(state, bat, frost)
    assert _damage(events, bat) == [(5, "counter")]


def test_a_ground_attacker_without_anti_air_cannot_hit_a_flyer():
    state = _match()
    sword = put(state, 0, "swordsman", 3, (-4, 4, 0))
    bat = put(state, 1, "black_bat", 1, (-3, 4, -1), can_act=False)
    assert not is_legal(state, 0, {"attack": {"unit": sword, "target": bat}})
    archer = put(state, 0, "archer", 1, (-4, 7, -3))
    assert DIST[CELL_OF[(-4, 7, -3)]][CELL_OF[(-3, 4, -1)]] == 3
    assert is_legal(state, 0, {"attack": {"unit": archer, "target": bat}})


def test_a_zero_attack_priest_neither_attacks_nor_counters():
    state = _match()
    priest = put(state, 1, "priest", 1, (-3, 4, -1), can_act=False)
    sword = put(state, 0, "swordsman", 1, (-4, 4, 0))
    state, events = _attack(state, sword, priest)
    assert _damage(events, sword) == []
    set_turn(state, 42)
    assert not is_legal(state, 1, {"attack": {"unit": priest, "target": sword}})


@pytest.mark.parametrize("target_at, expected", [
    # Target at distance 1: the 3 cells behind it; at distance 2: the 2 cells flanking it.
    ((-3, 4, -1), {(-2, 4, -2), (-2, 3, -1), (-3, 5, -2)}),
    ((-2, 4, -2), {(-3, 5, -2), (-2, 3, -1)}),
])
def test_the_volcano_dragon_splashes_exactly_the_cells_behind_its_target(target_at, expected):
    origin = (-4, 4, 0)
    state = _match()
    dragon = put(state, 0, "volcano_dragon", 2, origin)
    target = put(state, 1, "swordsman", 3, target_at, can_act=False)
    around = {COORDS[c] for c in range(len(COORDS)) if DIST[CELL_OF[target_at]][c] <= 2 and GROUND_OK[c]}
    victims = {}
    for at in sorted(around - {origin, target_at}):
        victims[put(state, 1, "swordsman", 3, at, can_act=False)] = at
    bat = put(state, 1, "black_bat", 3, sorted(expected)[0], can_act=False)
    friend_cell = (-4, 3, 1)
    state, events = _attack(state, dragon, target)
    hit = {victims[e["unit"]] for e in of_type(events, "damage") if e["kind"] == "splash"}
    assert hit == expected
    assert all(e["amount"] == 4 for e in of_type(events, "damage") if e["kind"] == "splash")
    assert _damage(events, bat) == [] and friend_cell not in hit
    kinds = [e["kind"] for e in of_type(events, "damage")]
    assert kinds.index("splash") > kinds.index("attack")  # ruling 21: blow, splash, counter
    if "counter" in kinds:
        assert kinds.index("counter") > max(i for i, k in enumerate(kinds) if k == "splash")


def test_a_holy_shield_takes_one_whole_damage_instance():
    state = _match()
    a = put(state, 0, "swordsman", 3, (-4, 4, 0))
    b = put(state, 1, "swordsman", 3, (-3, 4, -1), can_act=False, shield=True)
    state, events = _attack(state, a, b)
    assert state.units[b].hp == 6 and state.units[b].shield is False
    assert of_type(events, "shield") == [{"type": "shield", "unit": b, "on": False}]
    assert _damage(events, a) == [(6, "counter")]  # it counters after its shield took the blow


def test_a_priest_aura_adds_one_attack_to_other_friends_in_range_and_stacks():
    state = _match()
    p1 = put(state, 0, "priest", 1, (-4, 4, 0))
    p2 = put(state, 0, "priest", 2, (-4, 5, -1))
    sword = put(state, 0, "swordsman", 1, (-5, 5, 0))
    far = put(state, 0, "swordsman", 1, (-4, 1, 3))  # 3 from p1 (L1 reach 2), 4 from p2
    enemy = put(state, 1, "swordsman", 1, (-3, 4, -1), can_act=False)
    units = {u["id"]: u for u in view(state, "all")["units"]}
    assert units[sword]["atk"] == 2 + 2 and units[far]["atk"] == 2
    assert units[p1]["atk"] == 1 and units[p2]["atk"] == 1  # never itself; other priests yes
    assert units[enemy]["atk"] == 2
    assert is_legal(state, 0, {"attack": {"unit": p1, "target": enemy}})  # nearby priests can fight
    state, events = apply(state, 0, {"move": {"unit": p2, "to": [-4, 8, -4]}})
    assert {"type": "atk", "unit": sword, "atk": 3} in events and {"type": "atk", "unit": p1, "atk": 0} in events


def test_an_aura_ends_when_its_priest_dies():
    state = _match()
    priest = put(state, 1, "priest", 1, (-3, 4, -1), hp=1, can_act=False)
    sword = put(state, 1, "swordsman", 1, (-3, 5, -2), can_act=False)
    assert state.units[sword].atk == 3
    killer = put(state, 0, "swordsman", 1, (-4, 4, 0))
    state, events = _attack(state, killer, priest)
    assert {"type": "atk", "unit": sword, "atk": 2} in events
    assert events.index({"type": "atk", "unit": sword, "atk": 2}) > [e["type"] for e in events].index("death")


def test_priests_heal_friends_in_range_at_their_owners_turn_end():
    state = _match()
    priest = put(state, 0, "priest", 1, (-4, 4, 0), hp=1)
    near = put(state, 0, "swordsman", 3, (-4, 6, -2), hp=1)  # distance 2
    far = put(state, 0, "swordsman", 3, (-4, 7, -3), hp=1)  # distance 3
    full = put(state, 0, "swordsman", 1, (-5, 4, 1))
    enemy = put(state, 1, "swordsman", 3, (-1, 4, -3), hp=1, can_act=False)
    state, events = apply(state, 0, {"end_turn": {}})
    heals = {e["unit"]: e["amount"] for e in of_type(events, "heal")}
    assert heals == {priest: 1, near: 1}
    assert state.units[far].hp == 1 and state.units[enemy].hp == 1 and state.units[full].hp == 2


def test_two_priests_heals_stack_and_stop_at_max_hp():
    state = _match()
    put(state, 0, "priest", 2, (-4, 4, 0))
    put(state, 0, "priest", 2, (-4, 5, -1))
    sword = put(state, 0, "swordsman", 3, (-5, 5, 0), hp=3)
    nearly = put(state, 0, "swordsman", 3, (-5, 4, 1), hp=5)
    state, _ = apply(state, 0, {"end_turn": {}})
    assert state.units[sword].hp == 5 and state.units[nearly].hp == 6


def test_attacking_the_enemy_miracle_needs_it_in_range_and_ends_the_match_at_zero():
    state = _match()
    far = put(state, 0, "swordsman", 3, (5, -5, 0))
    near = put(state, 0, "swordsman", 3, (6, -6, 0))
    assert not is_legal(state, 0, {"attack": {"unit": far, "target": "miracle"}})
    state.miracle_hp[1] = 6
    state, events = _attack(state, near, "miracle")
    assert state.phase == "over" and state.winner == 0 and state.end_reason == "miracle_destroyed"
    assert events[-1]["type"] == "match_end" and state.miracle_hp[1] == 0
    assert not is_legal(state, 0, {"end_turn": {}})
