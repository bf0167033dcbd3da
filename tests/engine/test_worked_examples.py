"""The rules' own worked examples (结算说明 #1-#5), with exact numbers."""
from _helpers import (
    atk, attack, damages, dodged, edit, find_roll, fish, hp, hps, of_type, raw, seq, skill, start,
)

DMG = ("damage", "avoid", "heal", "death")


def _example5_state():
    # Side 1: 0 Sea Turtle (3 shields), 1 Electric Eel with the Clownfish buff, 2 Sunfish, 3 Octopus.
    s = start(["archerfish", "pufferfish", "sea_wolf", "manta_ray"],
              ["sea_turtle", "electric_eel", "sunfish", "octopus"])
    return edit(s, {(1, 1): {"share": True}})


def _example5_expected_prefix():
    return [
        ("avoid", 1, 0, "shield"),      # Turtle: 3 -> 2 shields
        # Eel's passive sharing: teammates first (3 each), in position order
        ("avoid", 1, 0, "shield"),      # Turtle: 2 -> 1
        ("damage", 1, 2, 3),
        ("damage", 1, 3, 3),
        ("heal", 1, 3, "passive"),
        # then the Clownfish buff on the 24: teammates 2 each
        ("avoid", 1, 0, "shield"),      # Turtle: 1 -> 0
        ("damage", 1, 2, 2),
        ("damage", 1, 3, 2),
        ("heal", 1, 3, "passive"),
        ("damage", 1, 1, 16),           # finally the Eel itself
    ]


def _example5_expected_suffix():
    return [
        ("damage", 1, 1, 3),
        ("damage", 1, 3, 3),
        ("heal", 1, 3, "passive"),
        ("damage", 1, 2, 24),
        ("damage", 1, 3, 35),
        ("heal", 1, 3, "passive"),
    ]


def test_it_resolves_example5_aoe_onto_turtle_eel_with_clownfish_buff_sunfish_octopus():
    s = _example5_state()
    run = lambda st: skill(st, 0, 0)  # noqa: E731  Archerfish AoE, 35 each
    s2, ev = find_roll(s, run, lambda ev: not dodged(ev, 1, 0))
    assert seq(ev, DMG) == (_example5_expected_prefix() + [("damage", 1, 0, 3)]
                            + _example5_expected_suffix())
    assert [(e["side"], e["pos"], e["how"]) for e in of_type(ev, "share")] == [
        (1, 1, "passive"), (1, 1, "delayed"), (1, 2, "passive")]
    # Turtle lost its 3 shields, then took the Sunfish's shared 3.
    assert raw(s2, 1, 0)["shields"] == 0
    assert hps(s2, 1) == [397, 381, 371, 385]
    # Octopus: 397 -> 400 (capped), 398 -> 400, 397 -> 400, 365 -> 385.
    assert raw(s2, 1, 1)["pending_share"] is False
    # Damage counters: Eel 16 + 3, Sunfish 3 + 2 + 24.
    assert raw(s2, 1, 1)["damage_taken"] == 19
    assert raw(s2, 1, 2)["damage_taken"] == 29
    assert [f["alive"] for f in s2.to_json()["teams"][1]] == [True] * 4


def test_it_resolves_example5_when_shieldless_turtle_dodges_the_sunfish_share():
    s = _example5_state()
    run = lambda st: skill(st, 0, 0)  # noqa: E731
    s2, ev = find_roll(s, run, lambda ev: bool(dodged(ev, 1, 0)))
    assert seq(ev, DMG) == (_example5_expected_prefix() + [("avoid", 1, 0, "dodge")]
                            + _example5_expected_suffix())
    assert hps(s2, 1) == [400, 381, 371, 385]
    assert raw(s2, 1, 0)["shields"] == 0


def test_it_uses_atk_from_before_the_action_example4_eel_deals_35_not_42():
    # Eel has accumulated 180; the Pufferfish's counter (30) pushes it over 200 mid-action.
    s = start(["electric_eel", "archerfish", "sunfish", "octopus"],
              ["octopus", "pufferfish", "great_white_shark", "hammerhead_shark"])
    s = edit(s, {(0, 0): {"counter": 180}, (1, 0): {"hp": 100}})
    s, ev = skill(s, 0, 0)
    assert seq(ev) == [
        ("damage", 1, 0, 35),                 # Octopus 100 -> 65
        ("heal", 1, 0, "passive"),            # -> 85, still below 120
        ("counter", 1, 0, 1, (0, 0)),         # Pufferfish answers
        ("damage", 0, 0, 30),                 # not a direct attack: the Eel keeps it all
        ("atk", 0, 0, 120),                   # 180 + 30 = 210 >= 200
        ("damage", 1, 1, 35),                 # still 35, not 42
        ("damage", 1, 2, 35),
        ("heal", 1, 2, "passive"),
        ("damage", 1, 3, 35),
    ]
    assert hps(s, 1) == [85, 365, 385, 365]
    assert hps(s, 0) == [370, 400, 400, 400]
    assert atk(s, 0, 0) == 120
    assert raw(s, 0, 0)["damage_taken"] == 10
    # The next AoE uses the new ATK: 42.
    s = edit(s, to_move=0, phase="assert")
    s, ev = skill(s, 0, 0)
    assert damages(ev)[0] == (1, 0, 42)


def test_it_shares_twice_example3_eel_with_clownfish_buff_keeps_49_percent():
    s = start(["sea_wolf", "pufferfish", "sunfish", "octopus"],
              ["archerfish", "electric_eel", "pufferfish", "sunfish"])
    s = edit(s, {(0, 0): {"atk": 200}, (1, 1): {"share": True}})
    s, ev = attack(s, 0, 0, 1)  # 100 damage
    assert seq(ev, DMG) == [
        # passive: keeps 70, (100*30//100)//3 = 10 to each teammate
        ("damage", 1, 0, 10), ("damage", 1, 2, 10), ("damage", 1, 3, 10),
        # delayed: of the 70 keeps 49, (70*30//100)//3 = 7 to each teammate
        ("damage", 1, 0, 7), ("damage", 1, 2, 7), ("damage", 1, 3, 7),
        ("damage", 1, 1, 49),
    ]
    assert hps(s, 1) == [383, 351, 383, 383]
    assert [(e["pos"], e["how"]) for e in of_type(ev, "share")] == [(1, "passive"), (1, "delayed")]
    assert raw(s, 1, 1)["pending_share"] is False


def test_it_shares_twice_example3_with_a_50_hit():
    s = start(["sea_wolf", "pufferfish", "sunfish", "octopus"],
              ["archerfish", "electric_eel", "pufferfish", "sunfish"])
    s = edit(s, {(1, 1): {"share": True}})
    s, ev = attack(s, 0, 0, 1)  # 50: keep 35 (15//3 = 5 each), then keep 24 (10//3 = 3 each)
    assert seq(ev, DMG) == [
        ("damage", 1, 0, 5), ("damage", 1, 2, 5), ("damage", 1, 3, 5),
        ("damage", 1, 0, 3), ("damage", 1, 2, 3), ("damage", 1, 3, 3),
        ("damage", 1, 1, 24),
    ]
    assert hps(s, 1) == [392, 376, 392, 392]


def test_it_locks_survival_for_the_action_example1_eel_still_shares_onto_a_teammate_killed_earlier():
    s = start(["archerfish", "pufferfish", "sunfish", "octopus"],
              ["great_white_shark", "electric_eel", "octopus", "sunfish"])
    s = edit(s, {(1, 0): {"hp": 10}})
    s, ev = skill(s, 0, 0)
    assert seq(ev, DMG) == [
        ("damage", 1, 0, 35),            # Great White dies: no heal
        ("damage", 1, 0, 3),             # ... but still takes the Eel's share (n = 3)
        ("damage", 1, 2, 3), ("heal", 1, 2, "passive"),
        ("damage", 1, 3, 3),
        ("damage", 1, 1, 24),
        ("damage", 1, 2, 35), ("heal", 1, 2, "passive"),
        ("damage", 1, 0, 3),             # and the Sunfish's share
        ("damage", 1, 1, 3),
        ("damage", 1, 2, 3), ("heal", 1, 2, "passive"),
        ("damage", 1, 3, 24),
        ("death", 1, 0),
    ]
    assert hps(s, 1) == [0, 373, 400, 373]
    assert [f["alive"] for f in s.to_json()["teams"][1]] == [False, True, True, True]


def test_it_never_revives_example2_octopus_killed_by_one_instance_gets_no_heal():
    s = start(["archerfish", "pufferfish", "sunfish", "octopus"],
              ["octopus", "great_white_shark", "sunfish", "hammerhead_shark"])
    s = edit(s, {(1, 0): {"hp": 30}})
    s, ev = attack(s, 0, 0, 0)
    assert seq(ev, DMG) == [("damage", 1, 0, 50), ("death", 1, 0)]
    assert of_type(ev, "heal") == []
    assert hp(s, 1, 0) == 0
    assert fish(s, 1, 0)["alive"] is False


def test_it_never_revives_example2_delayed_heal_does_not_revive():
    s = start(["archerfish", "pufferfish", "sunfish", "octopus"],
              ["archerfish", "sea_turtle", "sunfish", "octopus"])
    s = edit(s, {(1, 0): {"hp": 40, "heal": True}})
    s, ev = attack(s, 0, 0, 0)
    assert of_type(ev, "heal") == []
    assert fish(s, 1, 0)["alive"] is False and hp(s, 1, 0) == 0


def test_it_never_revives_example2_dead_octopus_is_not_healed_by_a_later_instance():
    s = start(["archerfish", "pufferfish", "sunfish", "octopus"],
              ["octopus", "sunfish", "great_white_shark", "hammerhead_shark"])
    s = edit(s, {(1, 0): {"hp": 10}})
    s, ev = skill(s, 0, 0)  # AoE 35
    assert seq(ev, DMG) == [
        ("damage", 1, 0, 35),            # Octopus dies
        ("damage", 1, 0, 3),             # Sunfish's share still reaches it, no heal
        ("damage", 1, 2, 3), ("heal", 1, 2, "passive"),
        ("damage", 1, 3, 3),
        ("damage", 1, 1, 24),
        ("damage", 1, 2, 35), ("heal", 1, 2, "passive"),
        ("damage", 1, 3, 35),
        ("death", 1, 0),
    ]
    assert hps(s, 1) == [0, 376, 385, 362]


def test_it_heals_once_per_instance_example2_octopus_hit_twice_heals_twice():
    s = start(["archerfish", "pufferfish", "sunfish", "octopus"],
              ["electric_eel", "octopus", "great_white_shark", "hammerhead_shark"])
    s = edit(s, {(1, 1): {"hp": 100}})
    s, ev = skill(s, 0, 0)
    heals = [(e["pos"], e["hp"]) for e in of_type(ev, "heal") if e["pos"] == 1]
    # 100 - 3 = 97 -> 117; 117 - 35 = 82 -> 102
    assert heals == [(1, 117), (1, 102)]
    assert hp(s, 1, 1) == 102

