"""Passive skills of the twelve species (rules: 12条鱼的技能介绍, 时机说明; clarifications)."""
from game.games.aquawar.engine import view

from _helpers import (
    atk, attack, damages, do_assert, dodged, edit, find_roll, fish, hp, hps, next_turn, no_dodge,
    of_type, raw, seq, skill, start,
)
from _helpers import reseeded as reseed

HIT = ("damage", "avoid", "reduce", "heal", "counter", "explode", "death")
PLAIN = ["archerfish", "pufferfish", "sunfish", "octopus"]
QUIET = ["hammerhead_shark", "great_white_shark", "octopus", "clownfish"]


# --- Archerfish / Pufferfish: guard counter --------------------------------------------------------

def test_archerfish_deals_30_to_the_attacker_after_a_teammate_is_left_below_120():
    s = start(PLAIN, ["archerfish", "hammerhead_shark", "great_white_shark", "clownfish"])
    s2, ev = attack(edit(s, {(1, 1): {"hp": 150}}), 0, 0, 1)
    assert seq(ev, HIT) == [("damage", 1, 1, 50), ("counter", 1, 1, 0, (0, 0)), ("damage", 0, 0, 30)]
    assert hp(s2, 0, 0) == 370
    c = of_type(ev, "damage")[-1]
    assert c["direct"] is False


def test_pufferfish_deals_30_to_the_attacker_after_a_teammate_is_left_below_120():
    s = start(PLAIN, ["hammerhead_shark", "great_white_shark", "pufferfish", "clownfish"])
    s2, ev = attack(edit(s, {(1, 0): {"hp": 150}}), 0, 1, 0)
    assert seq(ev, HIT) == [("damage", 1, 0, 50), ("counter", 1, 0, 2, (0, 1)), ("damage", 0, 1, 30)]
    assert hp(s2, 0, 1) == 370


def test_guard_counter_needs_hp_below_120_not_equal():
    s = start(PLAIN, ["archerfish", "hammerhead_shark", "pufferfish", "clownfish"])
    _, ev = attack(edit(s, {(1, 1): {"hp": 170}}), 0, 0, 1)
    assert of_type(ev, "counter") == []
    _, ev = attack(edit(s, {(1, 1): {"hp": 169}}), 0, 0, 1)
    assert [e["by"] for e in of_type(ev, "counter")] == [0, 2]


def test_guard_counter_does_not_answer_a_hit_on_the_guard_itself():
    s = start(PLAIN, ["archerfish", "hammerhead_shark", "great_white_shark", "octopus"])
    s2, ev = attack(edit(s, {(1, 0): {"hp": 100}}), 0, 0, 0)
    assert seq(ev, HIT) == [("damage", 1, 0, 50)]
    assert hp(s2, 0, 0) == 400


def test_guard_counter_answers_a_hit_that_a_shield_blocked():
    s = start(PLAIN, ["sea_turtle", "archerfish", "great_white_shark", "octopus"])
    s2, ev = attack(edit(s, {(1, 0): {"hp": 100}}), 0, 0, 0)
    assert seq(ev, HIT) == [("avoid", 1, 0, "shield"), ("counter", 1, 0, 1, (0, 0)), ("damage", 0, 0, 30)]


def test_guard_counter_answers_a_hit_that_was_dodged():
    s = start(PLAIN, ["sea_wolf", "archerfish", "great_white_shark", "octopus"])
    s = edit(s, {(1, 0): {"hp": 100}})
    _, ev = find_roll(s, lambda st: attack(st, 0, 0, 0), lambda ev: bool(dodged(ev, 1, 0)))
    assert seq(ev, HIT) == [("avoid", 1, 0, "dodge"), ("counter", 1, 0, 1, (0, 0)), ("damage", 0, 0, 30)]


def test_guard_counter_onto_a_dodging_attacker_rolls_a_dodge():
    s = start(["sea_wolf"] + PLAIN[:3], ["archerfish", "hammerhead_shark", "great_white_shark", "octopus"])
    s = edit(s, {(1, 1): {"hp": 100}})
    run = lambda st: attack(st, 0, 0, 1)  # noqa: E731
    s2, ev = find_roll(s, run, lambda ev: bool(dodged(ev, 0, 0)))
    assert seq(ev, HIT) == [("damage", 1, 1, 50), ("counter", 1, 1, 0, (0, 0)), ("avoid", 0, 0, "dodge")]
    assert hp(s2, 0, 0) == 400
    s2, ev = find_roll(s, run, no_dodge)
    assert seq(ev, HIT)[-1] == ("damage", 0, 0, 30)
    assert hp(s2, 0, 0) == 370


def test_a_counter_can_kill_the_attacker():
    s = start(PLAIN, ["archerfish", "hammerhead_shark", "great_white_shark", "octopus"])
    s2, ev = attack(edit(s, {(1, 1): {"hp": 100}, (0, 1): {"hp": 30}}), 0, 1, 1)
    assert seq(ev, HIT) == [("damage", 1, 1, 50), ("counter", 1, 1, 0, (0, 1)), ("damage", 0, 1, 30),
                           ("death", 0, 1)]
    assert fish(s2, 0, 1)["alive"] is False


def test_heals_resolve_before_the_guard_counter_checks_hp():
    s = start(PLAIN, ["archerfish", "octopus", "great_white_shark", "hammerhead_shark"])
    _, ev = attack(edit(s, {(1, 1): {"hp": 130}}), 0, 0, 1)   # 80 -> 100: below 120
    assert seq(ev, HIT) == [("damage", 1, 1, 50), ("heal", 1, 1, "passive"),
                           ("counter", 1, 1, 0, (0, 0)), ("damage", 0, 0, 30)]
    _, ev = attack(edit(s, {(1, 1): {"hp": 150}}), 0, 0, 1)   # 100 -> 120: not below 120
    assert seq(ev, HIT) == [("damage", 1, 1, 50), ("heal", 1, 1, "passive")]


# --- Electric Eel / Sunfish: sharing and ATK growth ------------------------------------------------

def test_electric_eel_keeps_70_percent_of_an_enemy_direct_hit_and_teammates_split_30():
    s = start(PLAIN, ["electric_eel", "hammerhead_shark", "great_white_shark", "clownfish"])
    s2, ev = attack(s, 0, 0, 0)
    assert seq(ev, HIT) == [("damage", 1, 1, 5), ("damage", 1, 2, 5), ("heal", 1, 2, "passive"),
                           ("damage", 1, 3, 5), ("damage", 1, 0, 35)]
    assert [(e["side"], e["pos"], e["how"]) for e in of_type(ev, "share")] == [(1, 0, "passive")]
    assert hps(s2, 1) == [365, 395, 400, 395]
    assert [e["direct"] for e in of_type(ev, "damage")] == [False, False, False, True]


def test_sunfish_keeps_70_percent_and_alone_takes_it_all():
    s = start(PLAIN, ["sunfish", "hammerhead_shark", "great_white_shark", "clownfish"])
    s2, ev = attack(s, 0, 0, 0)
    assert damages(ev) == [(1, 1, 5), (1, 2, 5), (1, 3, 5), (1, 0, 35)]
    alone = edit(s, {(1, p): {"dead": True} for p in (1, 2, 3)})
    s2, ev = attack(alone, 0, 0, 0)
    assert damages(ev) == [(1, 0, 50)]
    assert of_type(ev, "share") == []


def test_electric_eel_counter_counts_hp_actually_lost_after_reduction():
    s = start(PLAIN, ["electric_eel", "hammerhead_shark", "great_white_shark", "clownfish"])
    s2, ev = attack(edit(s, {(1, 0): {"reduce": True, "counter": 195}}), 0, 0, 0)
    # keeps 35, reduced to 10: 195 + 10 = 205 -> ATK 120, 5 kept
    assert seq(ev, ("reduce", "damage", "atk")) == [
        ("damage", 1, 1, 5), ("damage", 1, 2, 5), ("damage", 1, 3, 5),
        ("reduce", 1, 0, 35, 10), ("damage", 1, 0, 10), ("atk", 1, 0, 120)]
    assert atk(s2, 1, 0) == 120 and raw(s2, 1, 0)["damage_taken"] == 5


def test_sunfish_atk_growth_is_permanent_and_repeats_every_200():
    s = start(PLAIN, ["sunfish", "hammerhead_shark", "great_white_shark", "clownfish"])
    s = edit(s, {(0, 0): {"atk": 400}})       # 200 per hit: the Sunfish keeps 140
    s, _ = attack(s, 0, 0, 0)
    assert raw(s, 1, 0)["damage_taken"] == 140 and atk(s, 1, 0) == 100
    s, _ = attack(next_turn(s, 0), 0, 0, 0)   # 280 -> ATK 120, 80 kept
    assert raw(s, 1, 0)["damage_taken"] == 80 and atk(s, 1, 0) == 120
    s = edit(s, {(1, 0): {"hp": 400}})
    s, _ = attack(next_turn(s, 0), 0, 0, 0)   # 220 -> ATK 140, 20 kept
    assert raw(s, 1, 0)["damage_taken"] == 20 and atk(s, 1, 0) == 140
    # The grown ATK is used: 140 * 50 // 100 = 70.
    s, ev = attack(next_turn(s, 1), 1, 0, 0)
    assert damages(ev)[0] == (0, 0, 70)


# --- Sea Wolf / Manta Ray: dodge --------------------------------------------------------------------

def test_sea_wolf_dodge_takes_no_damage_and_keeps_its_pending_effects():
    s = start(PLAIN, ["sea_wolf", "hammerhead_shark", "great_white_shark", "clownfish"])
    s = edit(s, {(1, 0): {"reduce": True, "heal": True}})
    run = lambda st: attack(st, 0, 0, 0)  # noqa: E731
    s2, ev = find_roll(s, run, lambda ev: bool(dodged(ev, 1, 0)))
    assert seq(ev, HIT) == [("avoid", 1, 0, "dodge")]
    assert of_type(ev, "avoid")[0]["amount"] == 50
    f = raw(s2, 1, 0)
    assert (f["hp"], f["pending_reduce"], f["pending_heal"]) == (400, True, True)
    s2, ev = find_roll(s, run, no_dodge)
    assert seq(ev, HIT) == [("reduce", 1, 0, 50, 15), ("damage", 1, 0, 15), ("heal", 1, 0, "delayed")]
    assert hp(s2, 1, 0) == 400


def test_manta_ray_rolls_a_dodge_against_shared_damage_too():
    s = start(PLAIN, ["electric_eel", "manta_ray", "great_white_shark", "hammerhead_shark"])
    run = lambda st: attack(st, 0, 0, 0)  # noqa: E731
    s2, ev = find_roll(s, run, lambda ev: bool(dodged(ev, 1, 1)))
    assert seq(ev, HIT) == [("avoid", 1, 1, "dodge"), ("damage", 1, 2, 5), ("heal", 1, 2, "passive"),
                           ("damage", 1, 3, 5), ("damage", 1, 0, 35)]
    assert hp(s2, 1, 1) == 400
    s2, ev = find_roll(s, run, no_dodge)
    assert hp(s2, 1, 1) == 395


def test_sea_wolf_dodges_about_30_percent_of_hits():
    s = start(PLAIN, ["sea_wolf", "hammerhead_shark", "great_white_shark", "clownfish"])
    hits = 0
    for k in range(300):
        _, ev = attack(reseed(s, k), 0, 0, 0)
        hits += bool(dodged(ev, 1, 0))
    assert 60 <= hits <= 120   # 90 expected


# --- Sea Turtle: shields ------------------------------------------------------------------------------

def test_sea_turtle_blocks_three_instances_then_dodges_30_percent():
    s = start(PLAIN, ["sea_turtle", "hammerhead_shark", "great_white_shark", "clownfish"])
    for left in (2, 1, 0):
        s, ev = attack(next_turn(s, 0), 0, 0, 0)
        assert seq(ev, HIT) == [("avoid", 1, 0, "shield")]
        assert of_type(ev, "avoid")[0]["amount"] == 50
        assert raw(s, 1, 0)["shields"] == left and hp(s, 1, 0) == 400
    s = next_turn(s, 0)
    dodges = 0
    for k in range(300):
        s2, ev = attack(reseed(s, k), 0, 0, 0)
        if dodged(ev, 1, 0):
            dodges += 1
            assert hp(s2, 1, 0) == 400
        else:
            assert seq(ev, HIT) == [("damage", 1, 0, 50)]
    assert 60 <= dodges <= 120


def test_sea_turtle_with_shields_never_dodges():
    s = start(PLAIN, ["sea_turtle", "hammerhead_shark", "great_white_shark", "clownfish"])
    for k in range(30):
        _, ev = attack(reseed(s, k), 0, 0, 0)
        assert seq(ev, HIT) == [("avoid", 1, 0, "shield")]


# --- Octopus / Great White: regeneration -------------------------------------------------------------

def test_octopus_heals_20_after_each_damage_instance_capped_at_400():
    s = start(PLAIN, ["octopus", "hammerhead_shark", "great_white_shark", "clownfish"])
    s2, ev = attack(s, 0, 0, 0)
    assert seq(ev, HIT) == [("damage", 1, 0, 50), ("heal", 1, 0, "passive")]
    assert hp(s2, 1, 0) == 370
    s2, ev = attack(edit(s, {(1, 0): {"hp": 390}}), 0, 0, 0)
    assert hp(s2, 1, 0) == 360
    s2, ev = attack(edit(s, {(0, 0): {"atk": 20}}), 0, 0, 0)    # 10: 390 -> 400 (capped)
    assert hp(s2, 1, 0) == 400 and of_type(ev, "heal")[0]["hp"] == 400


def test_great_white_heals_20_after_damage_but_not_when_killed():
    s = start(PLAIN, ["great_white_shark", "hammerhead_shark", "octopus", "clownfish"])
    s2, ev = attack(s, 0, 0, 0)
    assert hp(s2, 1, 0) == 370
    s2, ev = attack(edit(s, {(1, 0): {"hp": 50}}), 0, 0, 0)
    assert seq(ev, HIT) == [("damage", 1, 0, 50), ("death", 1, 0)]
    s2, ev = attack(edit(s, {(1, 0): {"hp": 51}}), 0, 0, 0)
    assert seq(ev, HIT) == [("damage", 1, 0, 50), ("heal", 1, 0, "passive")]
    assert hp(s2, 1, 0) == 21


# --- Hammerhead ------------------------------------------------------------------------------------

def test_hammerhead_explodes_for_40_on_the_attacker_when_a_direct_attack_kills_it():
    s = start(PLAIN, ["hammerhead_shark", "great_white_shark", "octopus", "clownfish"])
    s2, ev = attack(edit(s, {(1, 0): {"hp": 50}}), 0, 0, 0)
    assert seq(ev, HIT) == [("damage", 1, 0, 50), ("explode", 1, 0, (0, 0)), ("damage", 0, 0, 40),
                           ("death", 1, 0)]
    assert hp(s2, 0, 0) == 360
    # Survives with 1: no explosion.
    _, ev = attack(edit(s, {(1, 0): {"hp": 51}}), 0, 0, 0)
    assert of_type(ev, "explode") == []


def test_hammerhead_killed_in_an_aoe_explodes_onto_the_aoe_user_before_the_next_target():
    s = start(PLAIN, ["hammerhead_shark", "great_white_shark", "octopus", "clownfish"])
    _, ev = skill(edit(s, {(1, 0): {"hp": 30}}), 0, 0)
    assert seq(ev, HIT)[:4] == [("damage", 1, 0, 35), ("explode", 1, 0, (0, 0)), ("damage", 0, 0, 40),
                               ("damage", 1, 1, 35)]


def test_hammerhead_does_not_explode_when_killed_by_a_counter():
    s = start(["hammerhead_shark"] + PLAIN[1:], ["clownfish", "great_white_shark", "octopus", "sunfish"])
    s2, ev = attack(edit(s, {(0, 0): {"hp": 20}, (1, 0): {"hp": 100}}), 0, 0, 0)
    # (at 20 HP its ATK is 115: 57)
    assert seq(ev, HIT) == [("damage", 1, 0, 57), ("counter", 1, 0, 0, (0, 0)), ("damage", 0, 0, 30),
                           ("death", 0, 0)]
    assert hp(s2, 1, 0) == 43


def test_hammerhead_gets_15_atk_only_while_below_80():
    s = start(["hammerhead_shark"] + PLAIN[1:], QUIET)
    for h, expect_atk, expect_dmg in ((79, 115, 57), (1, 115, 57), (80, 100, 50), (400, 100, 50)):
        t = edit(s, {(0, 0): {"hp": h}})
        assert view(t, 0)["teams"][0][0]["atk"] == expect_atk
        _, ev = attack(t, 0, 0, 2)
        assert damages(ev)[0] == (1, 2, expect_dmg)


# --- Clownfish ------------------------------------------------------------------------------------

def test_clownfish_deals_30_to_the_attacker_after_being_hit_below_120():
    s = start(PLAIN, ["clownfish", "great_white_shark", "octopus", "hammerhead_shark"])
    s2, ev = attack(edit(s, {(1, 0): {"hp": 150}}), 0, 0, 0)
    assert seq(ev, HIT) == [("damage", 1, 0, 50), ("counter", 1, 0, 0, (0, 0)), ("damage", 0, 0, 30)]
    _, ev = attack(edit(s, {(1, 0): {"hp": 170}}), 0, 0, 0)
    assert of_type(ev, "counter") == []
    # Killed: still answers.
    _, ev = attack(edit(s, {(1, 0): {"hp": 10}}), 0, 0, 0)
    assert seq(ev, HIT) == [("damage", 1, 0, 50), ("counter", 1, 0, 0, (0, 0)), ("damage", 0, 0, 30),
                           ("death", 1, 0)]


def test_clownfish_does_not_answer_hits_on_teammates():
    s = start(PLAIN, ["clownfish", "hammerhead_shark", "octopus", "great_white_shark"])
    _, ev = attack(edit(s, {(1, 1): {"hp": 100}}), 0, 0, 1)
    assert of_type(ev, "counter") == []


# --- Mimic Fish -------------------------------------------------------------------------------------

def test_mimic_of_electric_eel_shares():
    s = start(PLAIN, ["mimic_fish", "hammerhead_shark", "great_white_shark", "clownfish"], mimic1="electric_eel")
    _, ev = attack(s, 0, 0, 0)
    assert damages(ev) == [(1, 1, 5), (1, 2, 5), (1, 3, 5), (1, 0, 35)]


def test_mimic_of_sea_turtle_has_three_shields():
    s = start(PLAIN, ["mimic_fish", "hammerhead_shark", "great_white_shark", "clownfish"], mimic1="sea_turtle")
    assert raw(s, 1, 0)["shields"] == 3
    for left in (2, 1, 0):
        s, ev = attack(next_turn(s, 0), 0, 0, 0)
        assert seq(ev, HIT) == [("avoid", 1, 0, "shield")]
        assert raw(s, 1, 0)["shields"] == left


def test_mimic_of_hammerhead_explodes_and_gets_the_atk_bonus():
    s = start(PLAIN, ["mimic_fish", "great_white_shark", "octopus", "clownfish"], mimic1="hammerhead_shark")
    _, ev = attack(edit(s, {(1, 0): {"hp": 40}}), 0, 0, 0)
    assert seq(ev, HIT) == [("damage", 1, 0, 50), ("explode", 1, 0, (0, 0)), ("damage", 0, 0, 40),
                           ("death", 1, 0)]
    assert view(edit(s, {(1, 0): {"hp": 79}}), 1)["teams"][1][0]["atk"] == 115


def test_mimic_of_octopus_heals_and_mimic_of_archerfish_counters():
    s = start(PLAIN, ["mimic_fish", "hammerhead_shark", "great_white_shark", "clownfish"], mimic1="octopus")
    s2, ev = attack(s, 0, 0, 0)
    assert hp(s2, 1, 0) == 370
    s = start(PLAIN, ["mimic_fish", "hammerhead_shark", "great_white_shark", "clownfish"], mimic1="archerfish")
    _, ev = attack(edit(s, {(1, 1): {"hp": 100}}), 0, 0, 1)
    assert seq(ev, HIT) == [("damage", 1, 1, 50), ("counter", 1, 1, 0, (0, 0)), ("damage", 0, 0, 30)]


def test_mimic_of_sea_wolf_can_dodge_and_a_plain_mimic_copy_cannot():
    s = start(PLAIN, ["mimic_fish", "hammerhead_shark", "great_white_shark", "clownfish"], mimic1="sea_wolf")
    _, ev = find_roll(s, lambda st: attack(st, 0, 0, 0), lambda ev: bool(dodged(ev, 1, 0)))
    assert seq(ev, HIT) == [("avoid", 1, 0, "dodge")]
    s = start(PLAIN, ["mimic_fish", "hammerhead_shark", "great_white_shark", "clownfish"], mimic1="pufferfish")
    for k in range(30):
        _, ev = attack(reseed(s, k), 0, 0, 0)
        assert seq(ev, HIT) == [("damage", 1, 0, 50)]


def test_mimic_is_asserted_only_as_mimic_fish():
    s = start(PLAIN, ["mimic_fish", "hammerhead_shark", "great_white_shark", "clownfish"], mimic1="octopus")
    s2, ev = do_assert(s, 0, 0, "octopus")
    assert of_type(ev, "assert")[0]["success"] is False and hps(s2, 0) == [350] * 4
    s2, ev = do_assert(s, 0, 0, "mimic_fish")
    assert of_type(ev, "assert")[0]["success"] is True and hps(s2, 1) == [350] * 4
    # The HP loss is not damage: the copied Octopus passive does not heal.
    assert of_type(ev, "heal") == []



def test_each_aoe_hit_leaving_a_teammate_below_120_draws_its_own_counter():
    s = start(PLAIN, ["hammerhead_shark", "archerfish", "great_white_shark", "clownfish"])
    s = edit(s, {(1, 0): {"hp": 100}, (1, 2): {"hp": 130}, (1, 3): {"hp": 140}})
    s2, ev = skill(s, 0, 0)
    assert seq(ev, HIT) == [
        ("damage", 1, 0, 35), ("counter", 1, 0, 1, (0, 0)), ("damage", 0, 0, 30),   # 65
        ("damage", 1, 1, 35),                                                       # the guard itself
        ("damage", 1, 2, 35), ("heal", 1, 2, "passive"),                            # 95 -> 115
        ("counter", 1, 2, 1, (0, 0)), ("damage", 0, 0, 30),
        ("damage", 1, 3, 35),                                                       # 105
        ("counter", 1, 3, 3, (0, 0)), ("damage", 0, 0, 30),                         # own first
        ("counter", 1, 3, 1, (0, 0)), ("damage", 0, 0, 30),
    ]
    assert hp(s2, 0, 0) == 280


def test_an_enemy_killed_mid_aoe_by_shared_damage_is_still_hit_by_the_aoe():
    s = start(PLAIN, ["electric_eel", "hammerhead_shark", "great_white_shark", "clownfish"])
    s2, ev = skill(edit(s, {(1, 1): {"hp": 2}}), 0, 0)
    assert seq(ev, ("damage", "explode", "death"))[:6] == [
        ("damage", 1, 1, 3), ("damage", 1, 2, 3), ("damage", 1, 3, 3), ("damage", 1, 0, 24),
        ("damage", 1, 1, 35),                          # already at -1 HP, still alive for the action
        ("explode", 1, 1, (0, 0)),                     # a direct attack leaves it at 0 or below
    ]
    assert fish(s2, 1, 1)["alive"] is False


def test_asserting_mimic_fish_on_a_real_species_fails():
    s = start(PLAIN, ["octopus", "hammerhead_shark", "great_white_shark", "clownfish"])
    s2, ev = do_assert(s, 0, 0, "mimic_fish")
    assert of_type(ev, "assert")[0]["success"] is False and hps(s2, 0) == [350] * 4
