"""One test per ruling bullet of shared/rules/clarifications.md, named after it."""
import json

from game.games.aquawar.engine import apply, is_legal, new_match, pick_options, view

from _helpers import (
    at_last_turn, atk, attack, damages, do_assert, dodged, edit, find_roll, finish_round, fish, hp,
    hps, illegal, next_turn, no_dodge, of_type, pick_cmd, raw, reseeded, seq, skill, start,
)

DMG = ("damage", "avoid", "heal", "death")
HIT = ("damage", "avoid", "reduce", "heal", "counter", "explode", "death")
PLAIN = ["archerfish", "pufferfish", "sunfish", "octopus"]


def direct_amounts(events):
    return [e["amount"] for e in of_type(events, "damage") if e["direct"]]


# --- Numbers -----------------------------------------------------------------------------------

def test_numbers_1_integers_truncated():
    targets = ["octopus", "great_white_shark", "hammerhead_shark", "sunfish"]
    # Normal attack at ATK 115 (Hammerhead below 80): 115*50//100 = 57.
    s = start(["hammerhead_shark"] + PLAIN[:3], targets)
    s = edit(s, {(0, 0): {"hp": 79}})
    s2, ev = attack(s, 0, 0, 2)
    assert damages(ev) == [(1, 2, 57)]
    assert hp(s2, 1, 2) == 343
    # Crit at ATK 115 on a target below 160: 115*140//100 = 161; at/above 160: 138.
    s2, ev = skill(edit(s, {(1, 0): {"hp": 159}}), 0, 0, enemy=0)
    assert damages(ev) == [(1, 0, 161)]
    s2, ev = skill(edit(s, {(1, 0): {"hp": 160}}), 0, 0, enemy=0)
    assert damages(ev) == [(1, 0, 138)]
    # AoE at ATK 120: 42; at ATK 133: 46.
    s = start(PLAIN, ["octopus", "great_white_shark", "hammerhead_shark", "pufferfish"])
    _, ev = skill(edit(s, {(0, 0): {"atk": 120}}), 0, 0)
    assert direct_amounts(ev) == [42, 42, 42, 42]
    _, ev = skill(edit(s, {(0, 0): {"atk": 133}}), 0, 0)
    assert direct_amounts(ev) == [46, 46, 46, 46]
    # Normal attack at ATK 133: 66.
    _, ev = attack(edit(s, {(0, 0): {"atk": 133}}), 0, 0, 2)
    assert damages(ev) == [(1, 2, 66)]


def test_numbers_2_damage_sharing_keeps_70_and_splits_30_among_other_living_teammates():
    team1 = ["electric_eel", "archerfish", "pufferfish", "hammerhead_shark"]
    s = start(PLAIN, team1)
    s = edit(s, {(0, 0): {"atk": 70}})  # normal attack: 35
    _, ev = attack(s, 0, 0, 0)
    assert damages(ev) == [(1, 1, 3), (1, 2, 3), (1, 3, 3), (1, 0, 24)]
    # One teammate dead before the action: (35*30//100)//2 = 5 each.
    _, ev = attack(edit(s, {(1, 2): {"dead": True}}), 0, 0, 0)
    assert damages(ev) == [(1, 1, 5), (1, 3, 5), (1, 0, 24)]
    # One living teammate: 10.
    _, ev = attack(edit(s, {(1, 2): {"dead": True}, (1, 3): {"dead": True}}), 0, 0, 0)
    assert damages(ev) == [(1, 1, 10), (1, 0, 24)]
    # No living teammate: no sharing at all, the Eel takes the whole 35.
    s3 = edit(s, {(1, 1): {"dead": True}, (1, 2): {"dead": True}, (1, 3): {"dead": True}})
    s3, ev = attack(s3, 0, 0, 0)
    assert damages(ev) == [(1, 0, 35)]
    assert of_type(ev, "share") == []
    # 50: keeps 35, (15)//3 = 5 each; 51: keeps 35 (35.7), 15//3 = 5 each (remainders lost).
    _, ev = attack(edit(s, {(0, 0): {"atk": 103}}), 0, 0, 0)
    assert damages(ev) == [(1, 1, 5), (1, 2, 5), (1, 3, 5), (1, 0, 35)]


def test_numbers_3_seventy_percent_reduction_takes_d_times_30_over_100():
    # 35 -> 10 (AoE on an Octopus carrying the reduction).
    s = start(PLAIN, ["octopus", "great_white_shark", "hammerhead_shark", "pufferfish"])
    s2, ev = skill(edit(s, {(1, 0): {"reduce": True}}), 0, 0)
    assert seq(ev, ("reduce",)) == [("reduce", 1, 0, 35, 10)]
    assert damages(ev)[0] == (1, 0, 10)
    assert hp(s2, 1, 0) == 400  # 390 + 20, capped
    assert raw(s2, 1, 0)["pending_reduce"] is False
    # 120 -> 36 (Sea Wolf's crit).
    s = start(["sea_wolf"] + PLAIN[:3], ["hammerhead_shark", "great_white_shark", "octopus", "pufferfish"])
    s2, ev = skill(edit(s, {(1, 0): {"reduce": True}}), 0, 0, enemy=0)
    assert seq(ev, ("reduce", "damage")) == [("reduce", 1, 0, 120, 36), ("damage", 1, 0, 36)]
    assert hp(s2, 1, 0) == 364
    # 161 -> 48 (Hammerhead at ATK 115 on a target below 160).
    s = start(["hammerhead_shark"] + PLAIN[:3], ["octopus", "great_white_shark", "sunfish", "sea_wolf"])
    s = edit(s, {(0, 0): {"hp": 79}, (1, 0): {"hp": 150, "reduce": True}})
    s2, ev = skill(s, 0, 0, enemy=0)
    assert seq(ev, ("reduce", "damage", "heal")) == [
        ("reduce", 1, 0, 161, 48), ("damage", 1, 0, 48), ("heal", 1, 0, "passive")]
    assert hp(s2, 1, 0) == 122


def test_numbers_4_hp_capped_at_400_dead_shown_as_0_and_tiebreak_counts_living_only():
    # Heal capped: Octopus 395 - 10 = 385, +20 -> 400 not 405.
    s = start(PLAIN, ["octopus", "great_white_shark", "hammerhead_shark", "pufferfish"])
    s2, ev = attack(edit(s, {(0, 0): {"atk": 20}, (1, 0): {"hp": 395}}), 0, 0, 0)
    assert damages(ev) == [(1, 0, 10)]
    assert hp(s2, 1, 0) == 400
    # A fish killed with overkill is shown with HP 0 to everyone.
    s2, ev = attack(edit(s, {(1, 2): {"hp": 5}}), 0, 0, 2)
    for audience in (0, 1, "spectator", "all"):
        f = view(s2, audience)["teams"][1][2]
        assert f["hp"] == 0 and f["alive"] is False
    # Tiebreak on total HP counts living fish only (an overkilled fish adds nothing, not a negative).
    s = start(["octopus", "archerfish", "pufferfish", "sunfish"],
              ["octopus", "archerfish", "pufferfish", "sunfish"], first_mover=1)
    # player 0 moves last (second mover); it kills enemy (1,3) with 50 from 10 HP (40 overkill)
    s = at_last_turn(s)
    assert s.to_move == 0
    s = edit(s, {(0, 3): {"dead": True}, (0, 0): {"hp": 300}, (0, 1): {"hp": 300}, (0, 2): {"hp": 300},
                 (1, 0): {"hp": 300}, (1, 1): {"hp": 300}, (1, 2): {"hp": 310}, (1, 3): {"hp": 10}})
    s, ev = attack(s, 0, 1, 3)
    end = of_type(ev, "round_end")
    assert len(end) == 1 and end[0]["reason"] == "turn_limit"
    # 3 v 3 fish, totals 900 v 910: player 1 wins.
    assert end[0]["winner"] == 1


# --- Order of one damage instance ----------------------------------------------------------------

def test_order_1_before_damage_shield_or_dodge_skips_steps_2_to_4_but_not_step_5():
    # Shield: the pending reduction and heal stay; the teammate's counter still answers.
    s = start(PLAIN, ["sea_turtle", "archerfish", "octopus", "great_white_shark"])
    s = edit(s, {(1, 0): {"hp": 100, "reduce": True, "heal": True}})
    s2, ev = attack(s, 0, 0, 0)
    assert seq(ev, HIT) == [("avoid", 1, 0, "shield"), ("counter", 1, 0, 1, (0, 0)), ("damage", 0, 0, 30)]
    f = raw(s2, 1, 0)
    assert (f["hp"], f["shields"], f["pending_reduce"], f["pending_heal"]) == (100, 2, True, True)
    # Dodge: same.
    s = start(PLAIN, ["manta_ray", "archerfish", "octopus", "great_white_shark"])
    s = edit(s, {(1, 0): {"hp": 100, "reduce": True, "heal": True}})
    run = lambda st: attack(st, 0, 0, 0)  # noqa: E731
    s2, ev = find_roll(s, run, lambda ev: bool(dodged(ev, 1, 0)))
    assert seq(ev, HIT) == [("avoid", 1, 0, "dodge"), ("counter", 1, 0, 1, (0, 0)), ("damage", 0, 0, 30)]
    f = raw(s2, 1, 0)
    assert (f["hp"], f["pending_reduce"], f["pending_heal"]) == (100, True, True)
    # Not dodged: 50 -> 15, 100 -> 85 -> 105 (delayed heal), still below 120 -> counter.
    s2, ev = find_roll(s, run, no_dodge)
    assert seq(ev, HIT) == [("reduce", 1, 0, 50, 15), ("damage", 1, 0, 15), ("heal", 1, 0, "delayed"),
                           ("counter", 1, 0, 1, (0, 0)), ("damage", 0, 0, 30)]
    f = raw(s2, 1, 0)
    assert (f["hp"], f["pending_reduce"], f["pending_heal"]) == (105, False, False)


def test_order_2_when_damaged_passive_share_then_reduction_then_delayed_share_teammates_first():
    s = start(PLAIN, ["archerfish", "electric_eel", "pufferfish", "sunfish"])
    s = edit(s, {(0, 0): {"atk": 200}, (1, 1): {"reduce": True, "share": True}})
    s2, ev = attack(s, 0, 0, 1)  # 100
    assert seq(ev, ("damage", "reduce")) == [
        ("damage", 1, 0, 10), ("damage", 1, 2, 10), ("damage", 1, 3, 10),   # passive: keep 70
        ("reduce", 1, 1, 70, 21),                                            # 70 % off the 70
        ("damage", 1, 0, 2), ("damage", 1, 2, 2), ("damage", 1, 3, 2),      # delayed: keep 14
        ("damage", 1, 1, 14),
    ]
    assert [(e["pos"], e["how"]) for e in of_type(ev, "share")] == [(1, "passive"), (1, "delayed")]
    assert hps(s2, 1) == [388, 386, 388, 388]
    f = raw(s2, 1, 1)
    assert (f["pending_reduce"], f["pending_share"]) == (False, False)


def test_order_3_hp_is_reduced_after_the_when_damaged_step():
    s = start(PLAIN, ["octopus", "great_white_shark", "hammerhead_shark", "sunfish"])
    s = edit(s, {(1, 0): {"hp": 300, "reduce": True}})
    s2, ev = attack(s, 0, 0, 0)
    d = of_type(ev, "damage")
    assert [(e["amount"], e["hp"], e["direct"], e["source"]) for e in d] == [(15, 285, True, [0, 0])]
    assert [(e["amount"], e["hp"]) for e in of_type(ev, "heal")] == [(20, 305)]
    assert hp(s2, 1, 0) == 305


def test_order_4_after_damage_delayed_heal_before_passive_heal_only_if_alive():
    s = start(PLAIN, ["octopus", "great_white_shark", "hammerhead_shark", "sunfish"])
    s2, ev = attack(edit(s, {(1, 0): {"hp": 300, "heal": True}}), 0, 0, 0)
    assert [(e["pos"], e["how"], e["amount"], e["hp"]) for e in of_type(ev, "heal")] == [
        (0, "delayed", 20, 270), (0, "passive", 20, 290)]
    assert hp(s2, 1, 0) == 290
    assert raw(s2, 1, 0)["pending_heal"] is False
    s2, ev = attack(edit(s, {(1, 1): {"hp": 300, "heal": True}}), 0, 0, 1)
    assert [(e["how"], e["hp"]) for e in of_type(ev, "heal")] == [("delayed", 270), ("passive", 290)]
    # Killed: neither heal.
    s2, ev = attack(edit(s, {(1, 0): {"hp": 50, "heal": True}}), 0, 0, 0)
    assert of_type(ev, "heal") == []
    assert fish(s2, 1, 0)["alive"] is False


def test_order_5_after_directly_attacked_own_counter_and_explosion_before_teammates_counters():
    s = start(PLAIN, ["archerfish", "clownfish", "pufferfish", "octopus"])
    s2, ev = attack(edit(s, {(1, 1): {"hp": 100}}), 0, 0, 1)
    assert seq(ev, HIT) == [
        ("damage", 1, 1, 50),
        ("counter", 1, 1, 1, (0, 0)), ("damage", 0, 0, 30),   # Clownfish's own counter first
        ("counter", 1, 1, 0, (0, 0)), ("damage", 0, 0, 30),   # then teammates in position order
        ("counter", 1, 1, 2, (0, 0)), ("damage", 0, 0, 30),
    ]
    assert hp(s2, 0, 0) == 310
    s = start(PLAIN, ["archerfish", "hammerhead_shark", "pufferfish", "octopus"])
    s2, ev = attack(edit(s, {(1, 1): {"hp": 30}}), 0, 0, 1)
    assert seq(ev, HIT) == [
        ("damage", 1, 1, 50),
        ("explode", 1, 1, (0, 0)), ("damage", 0, 0, 40),
        ("counter", 1, 1, 0, (0, 0)), ("damage", 0, 0, 30),
        ("counter", 1, 1, 2, (0, 0)), ("damage", 0, 0, 30),
        ("death", 1, 1),
    ]
    assert hp(s2, 0, 0) == 300


def test_sourced_vs_unsourced_only_direct_attacks_share_reduce_trigger_delays_and_counters():
    # Pufferfish hitting its teammate Eel (reduction pending): full 50, no share, buff kept, counted.
    s = start(["pufferfish", "electric_eel", "clownfish", "archerfish"], PLAIN)
    s = edit(s, {(0, 1): {"reduce": True, "counter": 0}, (0, 2): {"hp": 100}})
    s2, ev = skill(s, 0, 0, ally=1)
    assert seq(ev, HIT + ("share", "atk")) == [("damage", 0, 1, 50), ("atk", 0, 0, 170)]
    assert of_type(ev, "damage")[0]["direct"] is False
    f = raw(s2, 0, 1)
    assert (f["hp"], f["pending_reduce"], f["damage_taken"]) == (350, True, 50)
    # ... and a teammate Clownfish hit below 120 by its own Pufferfish: no counters at all.
    s2, ev = skill(s, 0, 0, ally=2)
    assert seq(ev, HIT + ("share",)) == [("damage", 0, 2, 50)]
    # A counter onto an attacking Eel with the Clownfish buff pending: full 30, no sharing, buff kept.
    s = start(["electric_eel", "archerfish", "pufferfish", "sunfish"], ["clownfish"] + PLAIN[:3])
    s = edit(s, {(0, 0): {"share": True}, (1, 0): {"hp": 100}})
    s2, ev = attack(s, 0, 0, 0)
    assert seq(ev, HIT + ("share",)) == [
        ("damage", 1, 0, 50),
        ("counter", 1, 0, 0, (0, 0)), ("damage", 0, 0, 30),   # Clownfish itself
        ("counter", 1, 0, 1, (0, 0)), ("damage", 0, 0, 30),   # its Archerfish
        ("counter", 1, 0, 2, (0, 0)), ("damage", 0, 0, 30)]   # its Pufferfish
    assert raw(s2, 0, 0)["pending_share"] is True
    assert raw(s2, 0, 0)["damage_taken"] == 90
    assert hps(s2, 0) == [310, 400, 400, 400]
    # A counter onto an Octopus triggers its heal; onto a Turtle it uses a shield.
    s = start(["octopus", "sea_turtle", "pufferfish", "sunfish"],
              ["clownfish", "sunfish", "octopus", "great_white_shark"])
    s = edit(s, {(1, 0): {"hp": 100}})
    s2, ev = attack(s, 0, 0, 0)
    assert seq(ev, HIT)[-2:] == [("damage", 0, 0, 30), ("heal", 0, 0, "passive")]
    assert hp(s2, 0, 0) == 390
    s2, ev = attack(s, 0, 1, 0)
    assert seq(ev, HIT)[-1:] == [("avoid", 0, 1, "shield")]
    assert raw(s2, 0, 1)["shields"] == 2
    # An explosion onto a Great White triggers its heal.
    s = start(["great_white_shark"] + PLAIN[:3], ["hammerhead_shark", "sunfish", "octopus", "great_white_shark"])
    s2, ev = attack(edit(s, {(1, 0): {"hp": 30}}), 0, 0, 0)
    assert seq(ev, HIT) == [("damage", 1, 0, 50), ("explode", 1, 0, (0, 0)), ("damage", 0, 0, 40),
                           ("heal", 0, 0, "passive"), ("death", 1, 0)]
    assert hp(s2, 0, 0) == 380
    # Shared damage: a Clownfish pushed below 120 does not counter, a Hammerhead killed by it
    # does not explode.
    s = start(PLAIN, ["electric_eel", "clownfish", "hammerhead_shark", "octopus"])
    s2, ev = attack(edit(s, {(1, 1): {"hp": 100}, (1, 2): {"hp": 5}}), 0, 0, 0)
    assert seq(ev, HIT) == [("damage", 1, 1, 5), ("damage", 1, 2, 5), ("damage", 1, 3, 5),
                           ("heal", 1, 3, "passive"), ("damage", 1, 0, 35), ("death", 1, 2)]
    assert hps(s2, 1) == [365, 95, 0, 400]


def test_aoe_hits_living_enemies_in_position_order_and_resolves_each_hit_completely_first():
    s = start(PLAIN, ["octopus", "archerfish", "pufferfish", "sunfish"])
    s = edit(s, {(1, 0): {"hp": 100}, (1, 1): {"dead": True}})
    s2, ev = skill(s, 0, 0)
    assert seq(ev, HIT) == [
        ("damage", 1, 0, 35), ("heal", 1, 0, "passive"),          # 65 -> 85
        ("counter", 1, 0, 2, (0, 0)), ("damage", 0, 0, 30),       # dead Archerfish: no counter
        ("damage", 1, 2, 35),                                      # (1,1) is dead: not hit
        ("damage", 1, 0, 5), ("heal", 1, 0, "passive"),            # Sunfish shares onto 2 mates
        ("damage", 1, 2, 5),
        ("damage", 1, 3, 24),
    ]
    assert hps(s2, 1) == [100, 0, 360, 376]
    assert hp(s2, 0, 0) == 370


def test_shields_three_each_instance_of_any_kind_uses_one_then_dodge():
    s = start(["archerfish", "sea_turtle", "pufferfish", "octopus"],
              ["electric_eel", "sea_turtle", "clownfish", "octopus"])
    assert raw(s, 0, 1)["shields"] == 3 and raw(s, 1, 1)["shields"] == 3
    s = edit(s, {(1, 2): {"hp": 100}})
    s2, ev = skill(s, 0, 0)
    assert seq(ev, HIT) == [
        ("avoid", 1, 1, "shield"),                      # the Eel's share onto the Turtle
        ("damage", 1, 2, 3), ("damage", 1, 3, 3), ("heal", 1, 3, "passive"),
        ("damage", 1, 0, 24),
        ("avoid", 1, 1, "shield"),                      # the AoE hit on the Turtle
        ("damage", 1, 2, 35), ("counter", 1, 2, 2, (0, 0)), ("damage", 0, 0, 30),
        ("damage", 1, 3, 35), ("heal", 1, 3, "passive"),
    ]
    assert raw(s2, 1, 1)["shields"] == 1
    # A counter onto a Turtle uses one too.
    s3, ev = attack(next_turn(s2, 0), 0, 1, 2)   # Clownfish 62 -> 12, counters onto our Turtle
    assert seq(ev, HIT) == [("damage", 1, 2, 50), ("counter", 1, 2, 2, (0, 1)), ("avoid", 0, 1, "shield")]
    assert raw(s3, 0, 1)["shields"] == 2
    # The last shield, then a 30 % dodge.
    s4, ev = attack(next_turn(s2, 0), 0, 0, 1)
    assert seq(ev, HIT) == [("avoid", 1, 1, "shield")]
    assert raw(s4, 1, 1)["shields"] == 0
    s4 = next_turn(s4, 0)
    run = lambda st: attack(st, 0, 0, 1)  # noqa: E731
    _, ev = find_roll(s4, run, lambda ev: bool(dodged(ev, 1, 1)))
    assert seq(ev, HIT) == [("avoid", 1, 1, "dodge")]
    s5, ev = find_roll(s4, run, no_dodge)
    assert seq(ev, HIT) == [("damage", 1, 1, 50)]
    assert hp(s5, 1, 1) == 350


def test_dodge_is_an_independent_30_percent_roll_per_instance_from_the_seeded_generator():
    s = start(PLAIN, ["sea_wolf", "manta_ray", "sea_turtle", "octopus"], seed=7)
    s = edit(s, {(1, 2): {"shields": 0}})
    # Deterministic: the same state and command give the same events.
    a = skill(s, 0, 0)
    b = skill(s, 0, 0)
    assert a[1] == b[1] and a[0].to_json() == b[0].to_json()
    n = 400
    counts = {0: 0, 1: 0, 2: 0, 3: 0}
    both = 0
    for k in range(n):
        _, ev = skill(reseeded(s, k), 0, 0)
        d = {pos for pos in range(4) if dodged(ev, 1, pos)}
        for pos in d:
            counts[pos] += 1
        both += {0, 1} <= d
    # 30 % of 400 = 120 (sd about 9.2); the Octopus never dodges.
    for pos in (0, 1, 2):
        assert 80 <= counts[pos] <= 160, counts
    assert counts[3] == 0
    # Independent rolls: both dodge about 9 % of the time (36 of 400).
    assert 15 <= both <= 60, both


# --- Fish details --------------------------------------------------------------------------------

def test_counters_each_guard_fish_answers_a_hit_leaving_a_teammate_below_120_dead_included():
    s = start(PLAIN, ["archerfish", "octopus", "pufferfish", "clownfish"])
    # 150 - 50 = 100, healed to 120: not below 120 -> no counter.
    s2, ev = attack(edit(s, {(1, 1): {"hp": 150}}), 0, 0, 1)
    assert of_type(ev, "counter") == []
    # 149 -> 99 -> 119: both guards answer, in position order.
    s2, ev = attack(edit(s, {(1, 1): {"hp": 149}}), 0, 0, 1)
    assert seq(ev, HIT) == [("damage", 1, 1, 50), ("heal", 1, 1, "passive"),
                           ("counter", 1, 1, 0, (0, 0)), ("damage", 0, 0, 30),
                           ("counter", 1, 1, 2, (0, 0)), ("damage", 0, 0, 30)]
    assert hp(s2, 0, 0) == 340
    # A teammate killed by the hit still counts.
    s2, ev = attack(edit(s, {(1, 1): {"hp": 20}}), 0, 0, 1)
    assert [(e["by"], tuple(e["target"])) for e in of_type(ev, "counter")] == [(0, (0, 0)), (2, (0, 0))]
    # A guard does not answer a hit on itself (only the other guard does).
    s2, ev = attack(edit(s, {(1, 0): {"hp": 100}}), 0, 0, 0)
    assert [e["by"] for e in of_type(ev, "counter")] == [2]
    # Clownfish answers a hit on itself, before the guards.
    s2, ev = attack(edit(s, {(1, 3): {"hp": 100}}), 0, 0, 3)
    assert [e["by"] for e in of_type(ev, "counter")] == [3, 0, 2]
    # Not below 120 -> nothing.
    s2, ev = attack(edit(s, {(1, 3): {"hp": 170}}), 0, 0, 3)
    assert of_type(ev, "counter") == []


def test_alive_for_the_whole_operation_dead_fish_still_counter_share_and_are_shared_onto():
    s = start(PLAIN, ["archerfish", "octopus", "electric_eel", "sunfish"])
    s = edit(s, {(1, 0): {"hp": 10}, (1, 1): {"hp": 100}})
    s2, ev = skill(s, 0, 0)
    assert seq(ev, HIT) == [
        ("damage", 1, 0, 35),                                      # Archerfish dies
        ("damage", 1, 1, 35), ("heal", 1, 1, "passive"),           # 65 -> 85
        ("counter", 1, 1, 0, (0, 0)), ("damage", 0, 0, 30),        # ... and still counters
        ("damage", 1, 0, 3),                                       # Eel shares onto it (n = 3)
        ("damage", 1, 1, 3), ("heal", 1, 1, "passive"),            # 82 -> 102
        ("damage", 1, 3, 3),
        ("damage", 1, 2, 24),
        ("damage", 1, 0, 3),                                       # Sunfish too
        ("damage", 1, 1, 3), ("heal", 1, 1, "passive"),            # 99 -> 119
        ("damage", 1, 2, 3),
        ("damage", 1, 3, 24),
        ("death", 1, 0),                                           # settled after the action
    ]
    assert hps(s2, 1) == [0, 119, 373, 373]
    assert hp(s2, 0, 0) == 370


def test_electric_eel_sunfish_counter_adds_hp_lost_to_any_damage_plus20_per_200_remainder_kept():
    s = start(PLAIN, ["electric_eel", "sunfish", "pufferfish", "archerfish"])
    # Direct hit: keeps 35: 190 + 35 = 225 -> ATK 120, 25 kept.
    s2, ev = attack(edit(s, {(1, 0): {"counter": 190}}), 0, 0, 0)
    assert seq(ev, ("atk",)) == [("atk", 1, 0, 120)]
    assert (atk(s2, 1, 0), raw(s2, 1, 0)["damage_taken"]) == (120, 25)
    # Shared damage counts: the Sunfish is hit for 50 and shares 5 to the Eel: 199 + 5 -> ATK 120, 4 kept.
    s2, ev = attack(edit(s, {(1, 0): {"counter": 199}}), 0, 0, 1)
    assert damages(ev)[0] == (1, 0, 5)
    assert (atk(s2, 1, 0), raw(s2, 1, 0)["damage_taken"]) == (120, 4)
    # Counters count: an attacking Eel answered by a counter.
    t = start(["electric_eel"] + PLAIN[:3], ["clownfish", "sunfish", "octopus", "great_white_shark"])
    t2, ev = attack(edit(t, {(0, 0): {"counter": 180}, (1, 0): {"hp": 100}}), 0, 0, 0)
    assert (atk(t2, 0, 0), raw(t2, 0, 0)["damage_taken"]) == (120, 10)
    # Two thresholds in one instance: 190 + 210 = 400 -> ATK +40, nothing kept.
    s2, ev = attack(edit(s, {(0, 0): {"atk": 600}, (1, 0): {"counter": 190}}), 0, 0, 0)
    assert damages(ev)[-1] == (1, 0, 210)
    assert (atk(s2, 1, 0), raw(s2, 1, 0)["damage_taken"]) == (140, 0)
    # Sunfish: the same (its own Pufferfish-like active does not count for itself, a hit does).
    s2, ev = attack(edit(s, {(1, 1): {"counter": 180}}), 0, 0, 1)
    assert (atk(s2, 1, 1), raw(s2, 1, 1)["damage_taken"]) == (120, 15)
    # Assertion HP loss does not count.
    s2, ev = do_assert(edit(s, {(1, 0): {"counter": 190}}), 0, 0, "electric_eel")
    assert hp(s2, 1, 0) == 350
    assert (atk(s2, 1, 0), raw(s2, 1, 0)["damage_taken"]) == (100, 190)


def test_hammerhead_plus15_atk_below_80_not_stored_and_gone_at_80_or_more():
    s = start(["hammerhead_shark"] + PLAIN[:3], ["octopus", "great_white_shark", "hammerhead_shark", "sunfish"])
    low = edit(s, {(0, 0): {"hp": 79}})
    assert view(low, 0)["teams"][0][0]["atk"] == 115
    assert view(low, "all")["teams"][0][0]["atk"] == 115
    assert view(low, 1)["teams"][0][0]["atk"] is None
    assert raw(low, 0, 0)["atk"] == 100
    _, ev = attack(low, 0, 0, 2)
    assert damages(ev) == [(1, 2, 57)]
    at80 = edit(s, {(0, 0): {"hp": 80}})
    assert view(at80, 0)["teams"][0][0]["atk"] == 100
    _, ev = attack(at80, 0, 0, 2)
    assert damages(ev) == [(1, 2, 50)]
    # Healed back to 80: the bonus is gone. Enemy Hammerhead at 75 with reduction and heal pending.
    t = edit(s, {(1, 2): {"hp": 75, "reduce": True, "heal": True}})
    t = edit(t, {(1, 2): {}})
    assert fish(t, 1, 2)["atk"] == 115
    t2, ev = attack(t, 0, 1, 2)  # 50 -> 15: 60, +20 -> 80
    assert hp(t2, 1, 2) == 80
    assert fish(t2, 1, 2)["atk"] == 100
    # The explosion: a direct attack leaving it at 0 or below: 40 onto the attacker.
    t2, ev = attack(edit(s, {(1, 2): {"hp": 50}}), 0, 1, 2)
    assert seq(ev, HIT) == [("damage", 1, 2, 50), ("explode", 1, 2, (0, 1)), ("damage", 0, 1, 40),
                           ("death", 1, 2)]


def test_atk_lock_damage_from_atk_uses_the_actors_atk_at_the_start_of_the_action():
    s = start(["electric_eel"] + PLAIN[:3], ["clownfish", "octopus", "great_white_shark", "hammerhead_shark"])
    s = edit(s, {(0, 0): {"counter": 180}, (1, 0): {"hp": 100}})
    s2, ev = skill(s, 0, 0)
    assert seq(ev, ("damage", "counter", "atk")) == [
        ("damage", 1, 0, 35), ("counter", 1, 0, 0, (0, 0)), ("damage", 0, 0, 30), ("atk", 0, 0, 120),
        ("damage", 1, 1, 35), ("damage", 1, 2, 35), ("damage", 1, 3, 35)]
    assert atk(s2, 0, 0) == 120


def test_pufferfish_sunfish_active_50_to_a_living_teammate_then_atk_plus_70():
    for species in ("pufferfish", "sunfish"):
        s = start([species, "archerfish", "great_white_shark", "octopus"], PLAIN)
        s2, ev = skill(s, 0, 0, ally=3)
        assert seq(ev, HIT + ("atk",)) == [("damage", 0, 3, 50), ("heal", 0, 3, "passive"), ("atk", 0, 0, 170)]
        assert hp(s2, 0, 3) == 370 and atk(s2, 0, 0) == 170
        s3, ev = attack(next_turn(s2, 0), 0, 0, 0)
        assert damages(ev) == [(1, 0, 85)]
        # Itself or nobody: illegal.
        err = illegal(apply(s, 0, {"assert": None})[0], 0, {"act": {"actor": 0, "kind": "skill", "ally": 0}})
        assert err.code == "self_target"
        alone = edit(s, {(0, p): {"dead": True} for p in (1, 2, 3)})
        alone = apply(alone, 0, {"assert": None})[0]
        for ally in (1, 2, 3):
            assert illegal(alone, 0, {"act": {"actor": 0, "kind": "skill", "ally": ally}}).code == "target_dead"
        assert illegal(alone, 0, {"act": {"actor": 0, "kind": "skill"}}).code == "missing_target"


def test_manta_ray_octopus_active_teammate_or_self_reduction_and_atk_plus_20():
    s = start(["octopus", "manta_ray", "archerfish", "pufferfish"], PLAIN)
    s2, ev = skill(s, 0, 0, ally=0)
    assert seq(ev, HIT) == []
    assert raw(s2, 0, 0)["pending_reduce"] is True and atk(s2, 0, 0) == 120
    s3, ev = skill(next_turn(s2, 0), 0, 1, ally=3)
    assert raw(s3, 0, 3)["pending_reduce"] is True and atk(s3, 0, 1) == 120
    s3, ev = skill(next_turn(s2, 0), 0, 1, ally=1)
    assert raw(s3, 0, 1)["pending_reduce"] is True and atk(s3, 0, 1) == 120
    # The reduction works on the next direct hit: 50 -> 15.
    s4, ev = attack(next_turn(s2, 1), 1, 0, 0)
    assert seq(ev, ("reduce", "damage")) == [("reduce", 0, 0, 50, 15), ("damage", 0, 0, 15)]


def test_sea_turtle_active_gift_to_a_teammate_and_fixed_120_crit_on_first_three_uses_only():
    s = start(["sea_turtle", "archerfish", "pufferfish", "octopus"],
              ["hammerhead_shark", "great_white_shark", "sunfish", "clownfish"])
    s = edit(s, {(0, 0): {"atk": 200}})   # the crit is fixed, not from ATK
    for used in range(3):
        s2, ev = skill(edit(s, {(0, 0): {"uses": used}}), 0, 0, ally=1, enemy=0)
        assert damages(ev) == [(1, 0, 120)]
        assert raw(s2, 0, 1)["pending_heal"] is True
        assert raw(s2, 0, 0)["skill_uses"] == used + 1
    fourth = edit(s, {(0, 0): {"uses": 3}})
    s2, ev = skill(fourth, 0, 0, ally=1)
    assert seq(ev, HIT) == []
    assert raw(s2, 0, 1)["pending_heal"] is True
    assert hps(s2, 1) == [400] * 4
    fourth = apply(fourth, 0, {"assert": None})[0]
    assert illegal(fourth, 0, {"act": {"actor": 0, "kind": "skill", "ally": 1, "enemy": 0}}).code == "extra_target"
    first = apply(s, 0, {"assert": None})[0]
    assert illegal(first, 0, {"act": {"actor": 0, "kind": "skill", "ally": 1}}).code == "missing_target"
    assert illegal(first, 0, {"act": {"actor": 0, "kind": "skill", "ally": 0, "enemy": 0}}).code == "self_target"


def test_clownfish_active_delayed_share_and_35_percent_aoe_on_first_three_uses_only():
    s = start(["clownfish", "archerfish", "pufferfish", "octopus"],
              ["hammerhead_shark", "great_white_shark", "octopus", "pufferfish"])
    for used in range(3):
        s2, ev = skill(edit(s, {(0, 0): {"uses": used}}), 0, 0, ally=2)
        assert direct_amounts(ev) == [35, 35, 35, 35]
        assert [(e["side"], e["pos"]) for e in of_type(ev, "damage") if e["direct"]] == [
            (1, 0), (1, 1), (1, 2), (1, 3)]
        assert raw(s2, 0, 2)["pending_share"] is True
        assert raw(s2, 0, 0)["skill_uses"] == used + 1
    _, ev = skill(edit(s, {(0, 0): {"atk": 120}}), 0, 0, ally=2)
    assert direct_amounts(ev) == [42, 42, 42, 42]
    s2, ev = skill(edit(s, {(0, 0): {"uses": 3}}), 0, 0, ally=2)
    assert seq(ev, HIT + ("share",)) == []
    assert raw(s2, 0, 2)["pending_share"] is True
    assert hps(s2, 1) == [400] * 4
    first = apply(s, 0, {"assert": None})[0]
    assert illegal(first, 0, {"act": {"actor": 0, "kind": "skill", "ally": 0}}).code == "self_target"


def test_great_white_hammerhead_active_target_a_living_lowest_hp_enemy_ties_players_choice():
    for species in ("great_white_shark", "hammerhead_shark"):
        s = start([species] + PLAIN[:3], ["hammerhead_shark", "great_white_shark", "sunfish", "pufferfish"])
        s = edit(s, {(1, 0): {"hp": 300}, (1, 1): {"dead": True}, (1, 3): {"hp": 300}})
        s = apply(s, 0, {"assert": None})[0]
        for enemy in (0, 3):  # tied lowest
            assert is_legal(s, 0, {"act": {"actor": 0, "kind": "skill", "enemy": enemy}})
        assert illegal(s, 0, {"act": {"actor": 0, "kind": "skill", "enemy": 2}}).code == "not_lowest_hp"
        assert illegal(s, 0, {"act": {"actor": 0, "kind": "skill", "enemy": 1}}).code == "target_dead"
        s2, ev = apply(s, 0, {"act": {"actor": 0, "kind": "skill", "enemy": 3}})
        assert damages(ev) == [(1, 3, 120)]
        # Below 160: 140 %. Exactly 160: 120 %.
        t = edit(s, {(1, 3): {"hp": 159}})
        _, ev = apply(t, 0, {"act": {"actor": 0, "kind": "skill", "enemy": 3}})
        assert damages(ev) == [(1, 3, 140)]
        t = edit(s, {(1, 3): {"hp": 160}})
        _, ev = apply(t, 0, {"act": {"actor": 0, "kind": "skill", "enemy": 3}})
        assert damages(ev) == [(1, 3, 120)]


def test_delayed_effects_of_one_kind_do_not_stack_and_are_consumed_when_triggered():
    s = start(["octopus", "pufferfish", "great_white_shark", "hammerhead_shark"],
              ["archerfish", "clownfish", "sunfish", "octopus"])
    s, _ = skill(s, 0, 0, ally=1)
    s, _ = attack(s, 1, 0, 2)             # elsewhere
    s, _ = skill(s, 0, 0, ally=1)         # re-applied while pending: nothing changes
    f = raw(s, 0, 1)
    assert f["pending_reduce"] is True and atk(s, 0, 0) == 140
    s, ev = attack(s, 1, 0, 1)
    assert seq(ev, ("reduce", "damage")) == [("reduce", 0, 1, 50, 15), ("damage", 0, 1, 15)]
    assert raw(s, 0, 1)["pending_reduce"] is False
    s, _ = skill(s, 0, 0, ally=2)
    s, ev = attack(s, 1, 0, 1)            # the reduction was used up: full 50
    assert seq(ev, ("reduce", "damage")) == [("damage", 0, 1, 50)]
    assert hp(s, 0, 1) == 335
    # Delayed sharing: applied twice, shares once.
    t = start(PLAIN, ["archerfish", "clownfish", "sunfish", "octopus"], first_mover=1)
    t, _ = skill(t, 1, 1, ally=0)
    t, _ = attack(t, 0, 1, 3)
    t = edit(t, {(1, 1): {"uses": 3}})
    t, _ = skill(t, 1, 1, ally=0)
    t, ev = attack(t, 0, 1, 0)
    assert [(e["pos"], e["how"]) for e in of_type(ev, "share")] == [(0, "delayed")]
    assert raw(t, 1, 0)["pending_share"] is False


def test_mimic_fish_has_exactly_the_copied_passive_and_active_but_asserts_as_mimic():
    s = start(["mimic_fish", "archerfish", "pufferfish", "octopus"], PLAIN, mimic0="sea_turtle")
    assert raw(s, 0, 0)["shields"] == 3
    assert view(s, 0)["teams"][0][0]["shields"] == 3
    s2, ev = attack(next_turn(s, 1), 1, 0, 0)
    assert seq(ev, HIT) == [("avoid", 0, 0, "shield")]
    s2, ev = skill(s, 0, 0, ally=1, enemy=3)
    assert damages(ev) == [(1, 3, 120)]
    assert hp(s2, 1, 3) == 300
    assert raw(s2, 0, 1)["pending_heal"] is True
    # Asserting the copied species fails; asserting mimic_fish succeeds.
    t = next_turn(s, 1)
    t2, ev = do_assert(t, 1, 0, "sea_turtle")
    assert of_type(ev, "assert")[0]["success"] is False
    assert hps(t2, 1) == [350] * 4 and hps(t2, 0) == [400] * 4
    assert raw(t2, 0, 0)["revealed"] is False
    t2, ev = do_assert(t, 1, 0, "mimic_fish")
    assert of_type(ev, "assert")[0]["success"] is True
    assert hps(t2, 0) == [350] * 4 and hps(t2, 1) == [400] * 4
    assert raw(t2, 0, 0)["revealed"] is True


# --- Turns and rounds ----------------------------------------------------------------------------

def test_pick_own_pools_same_species_allowed_simultaneous_order_sets_positions_round3_is_the_rest():
    s = new_match(3, first_mover=0)
    team = ["sea_wolf", "octopus", "archerfish", "clownfish"]
    s, ev = apply(s, 1, pick_cmd(team))      # player 1 may pick first
    assert s.phase == "pick"
    s, ev = apply(s, 0, pick_cmd(team))      # the very same species for player 0
    assert s.phase == "assert"
    for side in (0, 1):
        assert [f["species"] for f in s.to_json()["teams"][side]] == team
    s, _ = finish_round(s, 0)
    assert s.round == 2 and s.phase == "pick"
    # Player 0's pool lost its four; player 1's too (each player's own pool).
    for p in (0, 1):
        opts = pick_options(s, p)
        assert opts["count"] == 4
        assert sorted(opts["species"]) == sorted(x for x in SPECIES_ALL if x not in team)
    assert illegal(s, 0, pick_cmd(["sea_wolf", "pufferfish", "sunfish", "manta_ray"])).code == "species_used"
    s, _ = apply(s, 0, pick_cmd(["pufferfish", "sunfish", "manta_ray", "sea_turtle"]))
    s, _ = apply(s, 1, pick_cmd(["electric_eel", "great_white_shark", "hammerhead_shark", "mimic_fish"],
                                "sea_wolf"))
    s, _ = finish_round(s, 1)
    assert s.round == 3 and s.phase == "pick"
    assert sorted(pick_options(s, 0)["species"]) == sorted(
        ["electric_eel", "great_white_shark", "hammerhead_shark", "mimic_fish"])
    assert sorted(pick_options(s, 1)["species"]) == sorted(
        ["pufferfish", "sunfish", "manta_ray", "sea_turtle"])


SPECIES_ALL = ("archerfish", "pufferfish", "electric_eel", "sunfish", "sea_wolf", "manta_ray",
               "sea_turtle", "octopus", "great_white_shark", "hammerhead_shark", "clownfish",
               "mimic_fish")


def _first_mover_after_picks(seed):
    s = new_match(seed)
    s, _ = apply(s, 0, pick_cmd(PLAIN))
    s, _ = apply(s, 1, pick_cmd(PLAIN))
    return s.to_move


def test_first_mover_random_in_round1_seeded_later_the_previous_winner_moves_second():
    movers = [_first_mover_after_picks(seed) for seed in range(40)]
    assert set(movers) == {0, 1}
    assert movers == [_first_mover_after_picks(seed) for seed in range(40)]
    for first in (0, 1):
        for winner in (0, 1):
            s = start(PLAIN, PLAIN, first_mover=first)
            s, _ = finish_round(s, winner)
            s, _ = apply(s, 0, pick_cmd(["sea_wolf", "manta_ray", "sea_turtle", "clownfish"]))
            s, _ = apply(s, 1, pick_cmd(["sea_wolf", "manta_ray", "sea_turtle", "clownfish"]))
            assert s.to_move == 1 - winner
            assert view(s, "all")["first_mover"] == 1 - winner


def test_a_turn_is_assertion_then_action_64_turns_at_most_end_checked_after_each_operation():
    s = start(PLAIN, PLAIN, first_mover=1)
    assert (s.phase, s.to_move, s.turn) == ("assert", 1, 0)
    s, _ = apply(s, 1, {"assert": None})
    assert (s.phase, s.to_move, s.turn) == ("act", 1, 0)
    s, _ = apply(s, 1, {"act": {"actor": 0, "kind": "attack", "enemy": 0}})
    assert (s.phase, s.to_move, s.turn) == ("assert", 0, 1)
    # Play out 63 more turns of harmless actions (Octopus buffing itself): the round ends at 64.
    for t in range(1, 64):
        p = s.to_move
        assert s.round == 1 and s.turn == t
        s, ev = skill(s, p, 3, ally=3)
    assert of_type(ev, "round_end")[0]["reason"] == "turn_limit"
    assert of_type(ev, "round_end")[0]["turns"] == 64
    assert s.round == 2 and s.phase == "pick"
    # Player 0 took 50 on turn 1 and lost on total HP.
    assert of_type(ev, "round_end")[0]["winner"] == 1


def test_assertion_success_reveals_and_takes_50_from_each_enemy_failure_from_each_own_not_damage():
    team1 = ["sea_turtle", "octopus", "electric_eel", "sea_wolf"]
    s = start(["archerfish", "pufferfish", "clownfish", "great_white_shark"], team1)
    s = edit(s, {(1, 1): {"hp": 100}, (1, 2): {"counter": 190}})
    for k in range(20):  # no dodge, whatever the generator
        s2, ev = do_assert(reseeded(s, k), 0, 3, "sea_wolf")
        assert [(e["side"], e["pos"], e["amount"]) for e in of_type(ev, "hp_loss")] == [
            (1, 0, 50), (1, 1, 50), (1, 2, 50), (1, 3, 50)]
        assert seq(ev, HIT + ("share", "atk")) == []
        assert hps(s2, 1) == [350, 50, 350, 350]
        assert raw(s2, 1, 0)["shields"] == 3
        assert raw(s2, 1, 2)["damage_taken"] == 190 and atk(s2, 1, 2) == 100
        assert raw(s2, 1, 3)["revealed"] is True
        assert (s2.phase, s2.to_move) == ("act", 0)
    # Failure: own fish lose 50 each (the Clownfish below 120 does not counter, GW does not heal).
    s = edit(s, {(0, 2): {"hp": 100}})
    s2, ev = do_assert(s, 0, 3, "octopus")
    assert of_type(ev, "assert")[0]["success"] is False
    assert hps(s2, 0) == [350, 350, 50, 350]
    assert seq(ev, HIT + ("share", "atk")) == []
    assert raw(s2, 1, 3)["revealed"] is False
    # It can kill, and the round can end right after it.
    s3 = edit(s, {(1, p): {"hp": 50} for p in range(4)})
    s3, ev = do_assert(s3, 0, 0, "sea_turtle")
    end = of_type(ev, "round_end")
    assert len(end) == 1 and end[0]["winner"] == 0
    assert s3.round == 2 and s3.phase == "pick" and s3.score == [1, 0]


def test_round_end_wipeout_mutual_destruction_to_actor_and_turn_limit_tiebreaks():
    # Wipe-out.
    s = start(PLAIN, PLAIN)
    s = edit(s, {(1, 0): {"hp": 40}, (1, 1): {"dead": True}, (1, 2): {"dead": True}, (1, 3): {"dead": True}})
    s2, ev = attack(s, 0, 0, 0)
    assert [(e["winner"], e["reason"]) for e in of_type(ev, "round_end")] == [(0, "wipeout")]
    # Mutual destruction by one action: the actor's side wins (last Clownfish counters the last attacker).
    s = start(["archerfish", "pufferfish", "sunfish", "octopus"], ["clownfish", "pufferfish", "sunfish", "octopus"])
    dead = {(side, p): {"dead": True} for side in (0, 1) for p in (1, 2, 3)}
    dead.update({(0, 0): {"hp": 30}, (1, 0): {"hp": 40}})
    s = edit(s, dead)
    s2, ev = attack(s, 0, 0, 0)
    assert [(e["winner"], e["reason"]) for e in of_type(ev, "round_end")] == [(0, "mutual")]
    # The actor's last fish killed by a counter while the enemy survives: the enemy wins.
    s = edit(s, {(1, 0): {"hp": 100}})
    s2, ev = attack(s, 0, 0, 0)
    assert [(e["winner"], e["reason"]) for e in of_type(ev, "round_end")] == [(1, "wipeout")]
    # After 64 turns: more living fish wins (3 v 2, despite less HP).
    s = at_last_turn(start(PLAIN, PLAIN, first_mover=0))
    s = edit(s, {(0, 0): {"dead": True}, (0, 1): {"hp": 10}, (0, 2): {"hp": 10}, (0, 3): {"hp": 10},
                 (1, 0): {"dead": True}, (1, 1): {"dead": True}})
    s2, ev = skill(s, 1, 3, ally=3)
    assert [(e["winner"], e["reason"]) for e in of_type(ev, "round_end")] == [(0, "turn_limit")]


def test_match_first_to_two_round_wins_third_round_only_at_one_all():
    s = start(PLAIN, PLAIN)
    s, _ = finish_round(s, 1)
    s, _ = apply(s, 0, pick_cmd(["sea_wolf", "manta_ray", "sea_turtle", "clownfish"]))
    s, _ = apply(s, 1, pick_cmd(["sea_wolf", "manta_ray", "sea_turtle", "clownfish"]))
    s, ev = finish_round(s, 1)
    assert s.phase == "over" and s.winner == 1 and s.score == [0, 2] and s.round == 2
    assert [(e["winner"], e["reason"], e["score"]) for e in of_type(ev, "match_end")] == [(1, "rounds", [0, 2])]
    # At 1-1 a third round is played.
    s = start(PLAIN, PLAIN)
    s, _ = finish_round(s, 1)
    s, _ = apply(s, 0, pick_cmd(["sea_wolf", "manta_ray", "sea_turtle", "clownfish"]))
    s, _ = apply(s, 1, pick_cmd(["sea_wolf", "manta_ray", "sea_turtle", "clownfish"]))
    s, ev = finish_round(s, 0)
    assert of_type(ev, "match_end") == [] and s.score == [1, 1] and s.round == 3 and s.phase == "pick"
    s, _ = apply(s, 0, pick_cmd(["electric_eel", "great_white_shark", "hammerhead_shark", "mimic_fish"], "octopus"))
    s, _ = apply(s, 1, pick_cmd(["electric_eel", "great_white_shark", "hammerhead_shark", "mimic_fish"], "octopus"))
    s, ev = finish_round(s, 0)
    assert s.phase == "over" and s.winner == 0 and s.score == [2, 1]


def test_illegal_commands_are_rejected_with_a_clear_reason_and_change_nothing():
    s = start(PLAIN, PLAIN)
    err = illegal(s, 1, {"assert": None})
    assert err.code == "not_your_turn"
    err = illegal(s, 0, {"act": {"actor": 0, "kind": "attack", "enemy": 0}})
    assert err.code == "wrong_phase"
    assert err.to_json() == {"code": err.code, "message": err.message}


def test_what_each_side_sees_own_fish_fully_enemy_hp_alive_species_only_when_revealed_never_atk():
    s = start(["mimic_fish", "archerfish", "sea_turtle", "octopus"],
              ["mimic_fish", "sea_turtle", "octopus", "hammerhead_shark"], mimic0="sea_wolf", mimic1="electric_eel")
    s = edit(s, {(1, 3): {"hp": 70, "reduce": True}, (1, 0): {"counter": 50}})
    s, _ = do_assert(s, 0, 0, "mimic_fish")
    v = view(s, 0)
    mine, theirs = v["teams"][0], v["teams"][1]
    assert [f["fish"] for f in mine] == ["mimic_fish", "archerfish", "sea_turtle", "octopus"]
    assert mine[0]["mimic_of"] == "sea_wolf" and mine[2]["shields"] == 3
    assert [f["hp"] for f in theirs] == [350, 350, 350, 20]
    assert [f["alive"] for f in theirs] == [True] * 4
    assert [f["fish"] for f in theirs] == ["mimic_fish", None, None, None]
    for f in theirs:
        assert f["atk"] is None and f["shields"] is None and f["effects"] is None
        assert f["mimic_of"] is None
    assert v["available"][1] is None
    assert v["picks"][1] is None
    text = json.dumps(v["teams"][1])
    for hidden in ("electric_eel", "sea_turtle", "octopus", "hammerhead_shark"):
        assert hidden not in text
