"""Active skills of the twelve species (rules: 12条鱼的技能介绍; clarifications, Fish details)."""
from game.games.aquawar.engine import apply, is_legal

from _helpers import (
    atk, attack, damages, edit, fish, hp, hps, illegal, next_turn, of_type, raw, seq, skill, start,
)

HIT = ("damage", "avoid", "reduce", "heal", "counter", "explode", "death")
PLAIN = ["archerfish", "pufferfish", "sunfish", "octopus"]
QUIET = ["hammerhead_shark", "great_white_shark", "octopus", "clownfish"]


def direct(events):
    return [(e["side"], e["pos"], e["amount"]) for e in of_type(events, "damage") if e["direct"]]


def test_archerfish_aoe_hits_each_living_enemy_for_35_percent_atk_in_position_order():
    s = start(PLAIN, QUIET)
    s2, ev = skill(s, 0, 0)
    assert seq(ev, HIT) == [("damage", 1, 0, 35), ("damage", 1, 1, 35), ("heal", 1, 1, "passive"),
                           ("damage", 1, 2, 35), ("heal", 1, 2, "passive"), ("damage", 1, 3, 35)]
    assert hps(s2, 1) == [365, 385, 385, 365]
    assert all(e["source"] == [0, 0] for e in of_type(ev, "damage"))
    act = of_type(ev, "action")[0]
    assert (act["kind"], act["category"], act["skill"]) == ("skill", "aoe", "archerfish")
    # Dead enemies are not hit.
    _, ev = skill(edit(s, {(1, 1): {"dead": True}, (1, 3): {"dead": True}}), 0, 0)
    assert direct(ev) == [(1, 0, 35), (1, 2, 35)]


def test_electric_eel_aoe_is_the_same_35_percent_atk():
    s = start(["electric_eel"] + PLAIN[1:], QUIET)
    _, ev = skill(s, 0, 0)
    assert direct(ev) == [(1, 0, 35), (1, 1, 35), (1, 2, 35), (1, 3, 35)]
    _, ev = skill(edit(s, {(0, 0): {"atk": 140}}), 0, 0)
    assert direct(ev) == [(1, 0, 49), (1, 1, 49), (1, 2, 49), (1, 3, 49)]


def test_pufferfish_hits_a_teammate_for_50_and_gains_70_atk_permanently_each_use():
    s = start(["pufferfish", "hammerhead_shark", "great_white_shark", "sea_turtle"], QUIET)
    s, ev = skill(s, 0, 0, ally=1)
    assert seq(ev, HIT + ("atk",)) == [("damage", 0, 1, 50), ("atk", 0, 0, 170)]
    act = of_type(ev, "action")[0]
    assert (act["category"], act["ally"]) == ("harm_ally", 1)
    s, _ = attack(s, 1, 0, 3)
    s, ev = skill(s, 0, 0, ally=3)   # onto the Turtle: the shield takes it, ATK still grows
    assert seq(ev, HIT + ("atk",)) == [("avoid", 0, 3, "shield"), ("atk", 0, 0, 240)]
    s, _ = attack(s, 1, 0, 3)
    s, ev = attack(s, 0, 0, 0)
    assert damages(ev) == [(1, 0, 120)]
    assert atk(s, 0, 0) == 240


def test_sunfish_hits_a_teammate_for_50_gains_70_atk_and_its_own_counter_is_unchanged():
    s = start(["sunfish", "hammerhead_shark", "great_white_shark", "octopus"], QUIET)
    s2, ev = skill(s, 0, 0, ally=2)
    assert seq(ev, HIT + ("atk",)) == [("damage", 0, 2, 50), ("heal", 0, 2, "passive"), ("atk", 0, 0, 170)]
    assert hp(s2, 0, 2) == 370 and raw(s2, 0, 0)["damage_taken"] == 0 and hp(s2, 0, 0) == 400


def test_harm_ally_can_kill_the_teammate():
    s = start(["pufferfish", "hammerhead_shark", "great_white_shark", "octopus"], QUIET)
    s2, ev = skill(edit(s, {(0, 1): {"hp": 50}}), 0, 0, ally=1)
    # no explosion: not a direct attack
    assert seq(ev, HIT) == [("damage", 0, 1, 50), ("death", 0, 1)]
    assert fish(s2, 0, 1)["alive"] is False


def test_sea_wolf_crit_deals_120_to_any_living_enemy():
    s = start(["sea_wolf"] + PLAIN[1:], QUIET)
    s = edit(s, {(1, 0): {"hp": 100}})
    s2, ev = skill(s, 0, 0, enemy=3)   # not the lowest: any enemy is fine
    assert damages(ev) == [(1, 3, 120)]
    act = of_type(ev, "action")[0]
    assert (act["category"], act["enemy"]) == ("crit", 3)
    assert hp(s2, 1, 3) == 280


def test_manta_ray_grants_the_reduction_to_a_teammate_or_itself_and_gains_20_atk_each_use():
    s = start(["manta_ray", "pufferfish", "hammerhead_shark", "octopus"], QUIET)
    s, ev = skill(s, 0, 0, ally=2)
    assert seq(ev, HIT) == []
    assert of_type(ev, "action")[0]["category"] == "silent"
    assert raw(s, 0, 2)["pending_reduce"] is True and atk(s, 0, 0) == 120
    s, _ = attack(s, 1, 0, 1)
    s, ev = skill(s, 0, 0, ally=0)
    assert raw(s, 0, 0)["pending_reduce"] is True and atk(s, 0, 0) == 140
    # The Hammerhead's reduction: 50 -> 15.
    s, ev = attack(s, 1, 1, 2)
    assert seq(ev, ("reduce", "damage")) == [("reduce", 0, 2, 50, 15), ("damage", 0, 2, 15)]
    # The grown ATK counts: 140 -> 70.
    s, ev = attack(s, 0, 0, 0)
    assert damages(ev) == [(1, 0, 70)]


def test_octopus_grants_the_reduction_and_gains_20_atk():
    s = start(["octopus", "pufferfish", "hammerhead_shark", "archerfish"], QUIET)
    s, ev = skill(s, 0, 0, ally=0)
    assert raw(s, 0, 0)["pending_reduce"] is True and atk(s, 0, 0) == 120
    s, ev = attack(s, 1, 0, 0)
    assert seq(ev, HIT) == [("reduce", 0, 0, 50, 15), ("damage", 0, 0, 15), ("heal", 0, 0, "passive")]
    assert hp(s, 0, 0) == 400


def test_sea_turtle_gift_heals_20_after_the_next_direct_hit_and_not_after_shared_damage():
    s = start(["sea_turtle", "electric_eel", "hammerhead_shark", "archerfish"], QUIET)
    s, ev = skill(s, 0, 0, ally=2, enemy=1)
    assert damages(ev) == [(1, 1, 120)]
    act = of_type(ev, "action")[0]
    assert (act["category"], act["enemy"]) == ("crit", 1)
    assert raw(s, 0, 2)["pending_heal"] is True
    # Shared damage onto the Hammerhead: no heal, gift kept.
    s, ev = attack(s, 1, 0, 1)
    assert seq(ev, ("damage", "heal", "avoid")) == [
        ("avoid", 0, 0, "shield"), ("damage", 0, 2, 5), ("damage", 0, 3, 5), ("damage", 0, 1, 35)]
    assert raw(s, 0, 2)["pending_heal"] is True
    s, _ = attack(s, 0, 3, 0)
    s, ev = attack(s, 1, 0, 2)
    assert seq(ev, HIT) == [("damage", 0, 2, 50), ("heal", 0, 2, "delayed")]
    assert hp(s, 0, 2) == 365 and raw(s, 0, 2)["pending_heal"] is False


def test_sea_turtle_fourth_use_names_no_enemy_and_deals_no_damage():
    s = start(["sea_turtle", "electric_eel", "hammerhead_shark", "archerfish"], QUIET)
    for use in range(3):
        s, ev = skill(next_turn(s, 0), 0, 0, ally=3, enemy=0)
        assert damages(ev) == [(1, 0, 120)]
        s = edit(s, {(1, 0): {"hp": 400}})
    assert raw(s, 0, 0)["skill_uses"] == 3
    s = apply(next_turn(s, 0), 0, {"assert": None})[0]
    assert not is_legal(s, 0, {"act": {"actor": 0, "kind": "skill", "ally": 3, "enemy": 0}})
    s2, ev = apply(s, 0, {"act": {"actor": 0, "kind": "skill", "ally": 1}})
    assert seq(ev, HIT) == [] and hps(s2, 1) == [400] * 4
    assert of_type(ev, "action")[0]["category"] == "silent"
    assert raw(s2, 0, 1)["pending_heal"] is True and raw(s2, 0, 0)["skill_uses"] == 4


def test_mimic_turtle_counts_its_own_uses():
    s = start(["sea_turtle", "mimic_fish", "hammerhead_shark", "archerfish"], QUIET, mimic0="sea_turtle")
    s = edit(s, {(0, 0): {"uses": 3}})
    s2, ev = skill(s, 0, 1, ally=2, enemy=0)
    assert damages(ev) == [(1, 0, 120)]
    assert raw(s2, 0, 1)["skill_uses"] == 1


def test_great_white_crit_on_a_lowest_hp_enemy_120_or_140_percent_below_160():
    s = start(["great_white_shark"] + PLAIN[1:], QUIET)
    s2, ev = skill(edit(s, {(1, 1): {"hp": 200}}), 0, 0, enemy=1)
    assert damages(ev) == [(1, 1, 120)]
    assert hp(s2, 1, 1) == 100
    s2, ev = skill(edit(s, {(1, 1): {"hp": 159}}), 0, 0, enemy=1)
    assert damages(ev) == [(1, 1, 140)]
    s2, ev = skill(edit(s, {(1, 1): {"hp": 100}, (0, 0): {"atk": 120}}), 0, 0, enemy=1)
    assert damages(ev) == [(1, 1, 168)]
    s2, ev = skill(edit(s, {(1, 1): {"hp": 300}, (0, 0): {"atk": 120}}), 0, 0, enemy=1)
    assert damages(ev) == [(1, 1, 144)]
    act = of_type(ev, "action")[0]
    assert (act["category"], act["enemy"]) == ("crit", 1)


def test_hammerhead_crit_uses_its_bonus_atk_below_80():
    s = start(["hammerhead_shark"] + PLAIN[1:], QUIET)
    s2, ev = skill(edit(s, {(0, 0): {"hp": 70}, (1, 2): {"hp": 300}}), 0, 0, enemy=2)
    assert damages(ev) == [(1, 2, 138)]
    s2, ev = skill(edit(s, {(0, 0): {"hp": 70}, (1, 2): {"hp": 150}}), 0, 0, enemy=2)
    assert damages(ev) == [(1, 2, 161)]
    s2, ev = skill(edit(s, {(1, 2): {"hp": 150}}), 0, 0, enemy=2)
    assert damages(ev) == [(1, 2, 140)]


def test_clownfish_gives_delayed_sharing_and_hits_all_enemies_on_first_three_uses():
    s = start(["clownfish", "hammerhead_shark", "great_white_shark", "archerfish"], QUIET)
    s, ev = skill(s, 0, 0, ally=1)
    assert direct(ev) == [(1, 0, 35), (1, 1, 35), (1, 2, 35), (1, 3, 35)]
    assert of_type(ev, "action")[0]["category"] == "aoe"
    assert raw(s, 0, 1)["pending_share"] is True
    # The next direct hit on the Hammerhead: keeps 70 %, the others (the Clownfish included) split 30 %.
    s, ev = attack(s, 1, 0, 1)
    assert seq(ev, HIT) == [("damage", 0, 0, 5), ("damage", 0, 2, 5), ("heal", 0, 2, "passive"),
                           ("damage", 0, 3, 5), ("damage", 0, 1, 35)]
    assert [(e["pos"], e["how"]) for e in of_type(ev, "share")] == [(1, "delayed")]
    assert raw(s, 0, 1)["pending_share"] is False


def test_clownfish_fourth_use_deals_no_damage_but_still_gives_the_sharing():
    s = start(["clownfish", "hammerhead_shark", "great_white_shark", "archerfish"], QUIET)
    s = edit(s, {(0, 0): {"uses": 3}})
    s2, ev = skill(s, 0, 0, ally=3)
    assert seq(ev, HIT) == []
    assert hps(s2, 1) == [400] * 4
    assert of_type(ev, "action")[0]["category"] == "silent"
    assert raw(s2, 0, 3)["pending_share"] is True and raw(s2, 0, 0)["skill_uses"] == 4


def test_mimic_uses_the_copied_active():
    s = start(["mimic_fish"] + PLAIN[1:], QUIET, mimic0="archerfish")
    _, ev = skill(s, 0, 0)
    assert direct(ev) == [(1, 0, 35), (1, 1, 35), (1, 2, 35), (1, 3, 35)]
    assert of_type(ev, "action")[0]["skill"] == "archerfish"
    s = start(["mimic_fish"] + PLAIN[1:], QUIET, mimic0="great_white_shark")
    s = apply(edit(s, {(1, 2): {"hp": 100}}), 0, {"assert": None})[0]
    assert illegal(s, 0, {"act": {"actor": 0, "kind": "skill", "enemy": 0}}).code == "not_lowest_hp"
    _, ev = apply(s, 0, {"act": {"actor": 0, "kind": "skill", "enemy": 2}})
    assert damages(ev)[0] == (1, 2, 140)


def test_normal_attack_deals_half_atk_to_one_enemy():
    s = start(PLAIN, QUIET)
    s2, ev = attack(s, 0, 0, 3)
    assert damages(ev) == [(1, 3, 50)]
    act = of_type(ev, "action")[0]
    assert (act["kind"], act["actor"], act["enemy"]) == ("attack", 0, 3)
    e = of_type(ev, "damage")[0]
    assert (e["direct"], e["source"], e["hp"]) == (True, [0, 0], 350)


def test_sea_turtle_gift_is_not_triggered_by_a_teammates_harm():
    s = start(["sea_turtle", "pufferfish", "hammerhead_shark", "archerfish"], QUIET)
    s = edit(s, {(0, 2): {"heal": True}})
    s2, ev = skill(s, 0, 1, ally=2)
    assert seq(ev, HIT) == [("damage", 0, 2, 50)]
    assert raw(s2, 0, 2)["pending_heal"] is True and hp(s2, 0, 2) == 350


def test_clownfish_sharing_with_no_other_living_fish_on_the_side_keeps_everything():
    # "如果有除其以外的己方角色存活": with nobody else alive there is no one to share with.
    s = start(PLAIN, ["clownfish", "hammerhead_shark", "great_white_shark", "octopus"])
    s = edit(s, {(1, 0): {"dead": True}, (1, 2): {"dead": True}, (1, 3): {"dead": True}, (1, 1): {"share": True}})
    s2, ev = attack(s, 0, 0, 1)
    assert seq(ev, HIT) == [("damage", 1, 1, 50)]
    assert hp(s2, 1, 1) == 350
