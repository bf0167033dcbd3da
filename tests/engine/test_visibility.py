"""What each audience may know (rules: 游戏过程可知信息详细说明; clarifications, What each side sees)."""
import json

from game.games.aquawar.engine import apply, new_match, project, view

from _helpers import (
    attack, do_assert, dodged, edit, find_roll, finish_round, of_type, pick_cmd, skill, start,
)

ALL_SPECIES = ("archerfish", "pufferfish", "electric_eel", "sunfish", "sea_wolf", "manta_ray",
               "sea_turtle", "octopus", "great_white_shark", "hammerhead_shark", "clownfish",
               "mimic_fish")
OTHERS = {0: (1, "spectator"), 1: (0, "spectator")}


def text(obj):
    return json.dumps(obj, sort_keys=True)


def only(events, t):
    found = of_type(events, t)
    assert len(found) == 1, events
    return found[0]


def assert_species_absent(obj, species):
    s = text(obj)
    for sp in species:
        assert f'"{sp}"' not in s, (sp, s)


# --- no-visible-effect skills ----------------------------------------------------------------------

def _silent_case(team1, actor, ally, uses=None, mimic=None):
    s = start(["archerfish", "pufferfish", "sunfish", "octopus"], team1, first_mover=1, mimic1=mimic)
    if uses is not None:
        s = edit(s, {(1, actor): {"uses": uses}})
    s2, ev = skill(s, 1, actor, ally=ally)
    full = only(ev, "action")
    assert full["category"] == "silent" and full["ally"] == ally and "skill" in full
    for audience in (0, "spectator"):
        seen = project(ev, audience)
        assert only(seen, "action") == {"type": "action", "player": 1, "actor": actor, "kind": "skill",
                                        "category": "silent"}
        assert of_type(seen, "atk") == []
        assert_species_absent(seen, team1 + ([mimic] if mimic else []))
    assert only(project(ev, 1), "action") == full
    assert project(ev, "all") == ev
    return ev


def test_enemy_manta_ray_buff_shows_only_a_silent_skill():
    ev = _silent_case(["manta_ray", "clownfish", "sea_turtle", "hammerhead_shark"], 0, 2)
    assert [(e["pos"], e["atk"]) for e in of_type(project(ev, 1), "atk")] == [(0, 120)]


def test_enemy_octopus_self_buff_shows_only_a_silent_skill():
    _silent_case(["manta_ray", "clownfish", "octopus", "hammerhead_shark"], 2, 2)


def test_enemy_sea_turtle_fourth_use_shows_only_a_silent_skill():
    _silent_case(["manta_ray", "clownfish", "sea_turtle", "hammerhead_shark"], 2, 0, uses=3)


def test_enemy_clownfish_fourth_use_shows_only_a_silent_skill():
    _silent_case(["manta_ray", "clownfish", "sea_turtle", "hammerhead_shark"], 1, 3, uses=5)


def test_enemy_mimic_octopus_buff_shows_only_a_silent_skill():
    _silent_case(["manta_ray", "clownfish", "mimic_fish", "hammerhead_shark"], 2, 0, mimic="octopus")


# --- crit, AoE and harm-ally categories ------------------------------------------------------------

def test_enemy_crit_shows_its_target_and_damage_but_not_the_skill():
    s = start(["sea_wolf", "pufferfish", "hammerhead_shark", "octopus"], ["archerfish", "clownfish", "sunfish",
                                                                         "great_white_shark"])
    s2, ev = skill(s, 0, 0, enemy=3)
    for audience in (1, "spectator"):
        seen = project(ev, audience)
        assert only(seen, "action") == {"type": "action", "player": 0, "actor": 0, "kind": "skill",
                                        "category": "crit", "enemy": 3}
        assert [(e["side"], e["pos"], e["amount"]) for e in of_type(seen, "damage")] == [(1, 3, 120)]
        assert_species_absent(seen, ["sea_wolf", "pufferfish", "hammerhead_shark", "octopus"])


def test_enemy_sea_turtle_crit_shows_the_enemy_target_but_not_the_gifted_teammate():
    s = start(["sea_turtle", "pufferfish", "hammerhead_shark", "octopus"], ["archerfish", "clownfish", "sunfish",
                                                                           "great_white_shark"])
    s2, ev = skill(s, 0, 0, ally=2, enemy=1)
    for audience in (1, "spectator"):
        seen = project(ev, audience)
        assert only(seen, "action") == {"type": "action", "player": 0, "actor": 0, "kind": "skill",
                                        "category": "crit", "enemy": 1}
    assert only(project(ev, 0), "action")["ally"] == 2


def test_great_white_lowest_crit_is_a_crit_with_its_target():
    s = start(["great_white_shark", "pufferfish", "hammerhead_shark", "octopus"],
              ["archerfish", "clownfish", "sunfish", "octopus"])
    s2, ev = skill(s, 0, 0, enemy=2)
    assert only(project(ev, 1), "action") == {"type": "action", "player": 0, "actor": 0, "kind": "skill",
                                              "category": "crit", "enemy": 2}


def test_enemy_aoe_shows_targets_through_the_damage_events():
    s = start(["electric_eel", "pufferfish", "hammerhead_shark", "octopus"],
              ["archerfish", "great_white_shark", "hammerhead_shark", "octopus"])
    s2, ev = skill(s, 0, 0)
    for audience in (1, "spectator"):
        seen = project(ev, audience)
        assert only(seen, "action") == {"type": "action", "player": 0, "actor": 0, "kind": "skill",
                                        "category": "aoe"}
        assert [(e["side"], e["pos"], e["amount"]) for e in of_type(seen, "damage")] == [
            (1, 0, 35), (1, 1, 35), (1, 2, 35), (1, 3, 35)]
        assert '"electric_eel"' not in text(seen)


def test_enemy_clownfish_aoe_hides_the_teammate_it_buffed():
    s = start(["clownfish", "pufferfish", "hammerhead_shark", "octopus"],
              ["archerfish", "great_white_shark", "hammerhead_shark", "octopus"])
    s2, ev = skill(s, 0, 0, ally=2)
    assert only(project(ev, 1), "action") == {"type": "action", "player": 0, "actor": 0, "kind": "skill",
                                              "category": "aoe"}


def test_enemy_harm_ally_shows_the_harmed_teammate():
    s = start(["sunfish", "pufferfish", "hammerhead_shark", "octopus"],
              ["archerfish", "great_white_shark", "hammerhead_shark", "octopus"])
    s2, ev = skill(s, 0, 0, ally=2)
    for audience in (1, "spectator"):
        seen = project(ev, audience)
        assert only(seen, "action") == {"type": "action", "player": 0, "actor": 0, "kind": "skill",
                                        "category": "harm_ally", "ally": 2}
        assert [(e["side"], e["pos"], e["amount"]) for e in of_type(seen, "damage")] == [(0, 2, 50)]
        assert of_type(seen, "atk") == []


def test_normal_attack_is_public():
    s = start(["sunfish", "pufferfish", "hammerhead_shark", "octopus"],
              ["archerfish", "great_white_shark", "hammerhead_shark", "octopus"])
    s2, ev = attack(s, 0, 2, 1)
    for audience in (0, 1, "spectator"):
        seen = project(ev, audience)
        assert only(seen, "action") == {"type": "action", "player": 0, "actor": 2, "kind": "attack", "enemy": 1}


# --- triggered effects -------------------------------------------------------------------------------

def test_a_shield_block_looks_like_a_reduce_to_0_for_the_other_side():
    s = start(["archerfish", "pufferfish", "hammerhead_shark", "octopus"],
              ["sea_turtle", "great_white_shark", "hammerhead_shark", "octopus"])
    s2, ev = attack(s, 0, 0, 0)
    assert only(project(ev, 1), "avoid") == {"type": "avoid", "side": 1, "pos": 0, "amount": 50, "how": "shield"}
    for audience in (0, "spectator"):
        seen = project(ev, audience)
        assert of_type(seen, "avoid") == []
        assert only(seen, "reduce") == {"type": "reduce", "side": 1, "pos": 0, "amount": 50, "to": 0}
        assert '"shield"' not in text(seen)


def test_a_dodge_looks_like_a_reduce_to_0_for_the_other_side():
    s = start(["archerfish", "pufferfish", "hammerhead_shark", "octopus"],
              ["manta_ray", "great_white_shark", "hammerhead_shark", "octopus"])
    _, ev = find_roll(s, lambda st: attack(st, 0, 0, 0), lambda ev: bool(dodged(ev, 1, 0)))
    assert only(project(ev, 1), "avoid")["how"] == "dodge"
    for audience in (0, "spectator"):
        seen = project(ev, audience)
        assert only(seen, "reduce") == {"type": "reduce", "side": 1, "pos": 0, "amount": 50, "to": 0}
        assert '"dodge"' not in text(seen)


def test_a_70_percent_reduction_is_public_with_its_ratio():
    s = start(["archerfish", "pufferfish", "hammerhead_shark", "octopus"],
              ["archerfish", "great_white_shark", "hammerhead_shark", "octopus"])
    s2, ev = attack(edit(s, {(1, 2): {"reduce": True}}), 0, 0, 2)
    for audience in (0, 1, "spectator"):
        assert only(project(ev, audience), "reduce") == {"type": "reduce", "side": 1, "pos": 2, "amount": 50,
                                                         "to": 15}


def test_counter_share_and_heal_show_the_fish_involved_but_not_who_or_which_kind():
    s = start(["archerfish", "pufferfish", "hammerhead_shark", "octopus"],
              ["electric_eel", "great_white_shark", "archerfish", "octopus"])
    s = edit(s, {(1, 0): {"hp": 150}})
    s2, ev = attack(s, 0, 0, 0)
    # Eel shares (5 each), keeps 35 -> 115: the teammate Archerfish counters.
    full_counter = only(ev, "counter")
    assert (full_counter["pos"], full_counter["by"]) == (0, 2)
    for audience in (0, "spectator"):
        seen = project(ev, audience)
        assert only(seen, "counter") == {"type": "counter", "side": 1, "pos": 0, "target": [0, 0]}
        assert only(seen, "share") == {"type": "share", "side": 1, "pos": 0}
        heals = of_type(seen, "heal")
        assert heals and all(set(h) == {"type", "side", "pos", "amount", "hp"} for h in heals)
        assert '"passive"' not in text(seen)
    own = project(ev, 1)
    assert only(own, "counter") == full_counter
    assert only(own, "share")["how"] == "passive"
    assert all(h["how"] == "passive" for h in of_type(own, "heal"))


def test_explosion_and_death_are_public():
    s = start(["archerfish", "pufferfish", "sunfish", "octopus"],
              ["hammerhead_shark", "great_white_shark", "sunfish", "octopus"])
    s2, ev = attack(edit(s, {(1, 0): {"hp": 20}}), 0, 0, 0)
    for audience in (0, 1, "spectator"):
        seen = project(ev, audience)
        assert only(seen, "explode") == {"type": "explode", "side": 1, "pos": 0, "target": [0, 0]}
        assert only(seen, "death") == {"type": "death", "side": 1, "pos": 0}
        assert '"hammerhead_shark"' not in text(seen)


# --- ATK -------------------------------------------------------------------------------------------

def test_enemy_atk_never_appears():
    s = start(["pufferfish", "hammerhead_shark", "electric_eel", "octopus"],
              ["archerfish", "great_white_shark", "hammerhead_shark", "octopus"])
    s = edit(s, {(0, 1): {"hp": 60}, (0, 2): {"counter": 190}})
    s2, ev = skill(s, 0, 0, ally=2)       # Eel -> 200: ATK 120; Pufferfish ATK 170
    assert [(e["pos"], e["atk"]) for e in of_type(ev, "atk")] == [(2, 120), (0, 170)]
    for audience in (1, "spectator"):
        assert of_type(project(ev, audience), "atk") == []
        v = view(s2, audience)
        assert [f["atk"] for f in v["teams"][0]] == [None] * 4
    assert [f["atk"] for f in view(s2, 0)["teams"][0]] == [170, 115, 120, 100]
    assert [f["atk"] for f in view(s2, 1)["teams"][1]] == [100] * 4
    assert [f["atk"] for f in view(s2, "spectator")["teams"][1]] == [None] * 4


# --- identities ------------------------------------------------------------------------------------

def test_a_revealed_mimic_shows_as_mimic_fish_never_its_copy():
    s = start(["archerfish", "pufferfish", "sunfish", "octopus"],
              ["mimic_fish", "great_white_shark", "hammerhead_shark", "clownfish"], mimic1="sea_wolf")
    s, ev = do_assert(s, 0, 0, "mimic_fish")
    for audience in (0, 1, "spectator"):
        assert only(project(ev, audience), "assert") == {"type": "assert", "player": 0, "target": 0,
                                                         "fish": "mimic_fish", "success": True}
    s, _ = attack(s, 0, 0, 1)
    s, ev = skill(s, 1, 0, enemy=2)
    for audience in (0, "spectator"):
        v = view(s, audience)
        f = v["teams"][1][0]
        assert (f["fish"], f["revealed"], f["mimic_of"]) == ("mimic_fish", True, None)
        assert '"sea_wolf"' not in text(v["teams"]) + text(v["picks"]) + text(v["past_picks"])
        seen = project(ev, audience)
        assert '"sea_wolf"' not in text(seen)
        assert only(seen, "action") == {"type": "action", "player": 1, "actor": 0, "kind": "skill",
                                        "category": "crit", "enemy": 2}
    own = view(s, 1)["teams"][1][0]
    assert (own["fish"], own["mimic_of"]) == ("mimic_fish", "sea_wolf")


def test_a_failed_assertion_reveals_nothing():
    s = start(["archerfish", "pufferfish", "sunfish", "octopus"],
              ["mimic_fish", "great_white_shark", "hammerhead_shark", "clownfish"], mimic1="sea_wolf")
    s, ev = do_assert(s, 0, 0, "sea_wolf")
    assert only(project(ev, 1), "assert")["success"] is False
    for audience in (0, "spectator"):
        assert view(s, audience)["teams"][1][0]["fish"] is None
        assert view(s, audience)["teams"][1][0]["revealed"] is False
    assert [e["amount"] for e in of_type(project(ev, "spectator"), "hp_loss")] == [50] * 4


TEAM_A = ["mimic_fish", "sea_turtle", "clownfish", "hammerhead_shark"]     # player 0, mimic of manta_ray
TEAM_B = ["electric_eel", "archerfish", "octopus", "great_white_shark"]   # player 1


def _scripted_round():
    """A round with many kinds of events. Returns (state, all events)."""
    events = []
    s = new_match(21, first_mover=0)
    for player, cmd in ((0, pick_cmd(TEAM_A, "manta_ray")), (1, pick_cmd(TEAM_B))):
        s, ev = apply(s, player, cmd)
        events += ev

    def run(player, cmd):
        nonlocal s
        s, ev = apply(s, player, cmd)
        events.extend(ev)

    run(0, {"assert": None})
    run(0, {"act": {"actor": 0, "kind": "skill", "ally": 1}})               # mimic-manta: silent buff
    run(1, {"assert": None})
    run(1, {"act": {"actor": 0, "kind": "skill"}})                           # Eel AoE: shields, shares
    run(0, {"assert": None})
    run(0, {"act": {"actor": 1, "kind": "skill", "ally": 2, "enemy": 0}})   # Turtle crit onto the Eel
    run(1, {"assert": None})
    run(1, {"act": {"actor": 3, "kind": "skill", "enemy": _lowest(s, 0)}})     # Great White crit
    run(0, {"assert": None})
    run(0, {"act": {"actor": 2, "kind": "skill", "ally": 3}})               # Clownfish AoE
    run(1, {"assert": None})
    run(1, {"act": {"actor": 1, "kind": "attack", "enemy": 2}})
    run(0, {"assert": None})
    run(0, {"act": {"actor": 3, "kind": "attack", "enemy": 1}})
    return s, events


def _lowest(s, side):
    team = s.to_json()["teams"][side]
    low = min(f["hp"] for f in team if f["alive"])
    return next(p for p, f in enumerate(team) if f["alive"] and f["hp"] == low)


def test_unrevealed_enemy_species_never_appear_in_projections_or_views():
    s, events = _scripted_round()
    kinds = {e["type"] for e in events}
    assert {"avoid", "share", "heal", "atk"} <= kinds
    assert_species_absent(project(events, 1), TEAM_A + ["manta_ray"])
    assert_species_absent(project(events, 0), TEAM_B)
    assert_species_absent(project(events, "spectator"), TEAM_A + TEAM_B + ["manta_ray"])
    v1, v0, vs = view(s, 1), view(s, 0), view(s, "spectator")
    assert_species_absent([v1["teams"][0], v1["picks"][0], v1["available"][0], v1["past_picks"], v1["rounds"]],
                          TEAM_A + ["manta_ray"])
    assert_species_absent([v0["teams"][1], v0["picks"][1], v0["available"][1], v0["past_picks"], v0["rounds"]],
                          TEAM_B)
    assert_species_absent([vs["teams"], vs["picks"], vs["past_picks"], vs["rounds"]], TEAM_A + TEAM_B + ["manta_ray"])


def test_hidden_species_stay_hidden_in_the_next_round():
    s = start(TEAM_A, TEAM_B, mimic0="manta_ray")
    s, _ = finish_round(s, 1)          # player 0 asserts wrongly and wipes itself out
    assert s.round == 2
    v1, vs = view(s, 1), view(s, "spectator")
    assert v1["available"][0] is None and vs["available"] == [None, None]
    assert_species_absent([v1["teams"], v1["picks"][0], v1["past_picks"], v1["rounds"]], TEAM_A + ["manta_ray"])
    assert_species_absent([vs["teams"], vs["picks"], vs["past_picks"], vs["rounds"]], TEAM_A + TEAM_B + ["manta_ray"])
    # Each player still sees its own pool.
    assert sorted(view(s, 0)["available"][0]) == sorted(x for x in ALL_SPECIES if x not in TEAM_A)


def test_picks_are_secret():
    s = new_match(4, first_mover=0)
    s, ev = apply(s, 0, pick_cmd(TEAM_A, "manta_ray"))
    for audience in (1, "spectator"):
        assert project(ev, audience) == [{"type": "pick", "player": 0}]
        v = view(s, audience)
        assert v["picked"] == [True, False]
        assert_species_absent([v["teams"], v["picks"]], TEAM_A + ["manta_ray"])
    assert project(ev, 0) == ev


def test_the_owner_sees_everything_of_its_own_side():
    s, events = _scripted_round()
    full = view(s, "all")
    for side in (0, 1):
        assert view(s, side)["teams"][side] == full["teams"][side]
    own = view(s, 0)["teams"][0]
    assert [f["fish"] for f in own] == TEAM_A
    assert own[0]["mimic_of"] == "manta_ray"
    assert all(f["atk"] is not None and f["shields"] is not None and f["effects"] is not None
               and f["skill_uses"] is not None for f in own)
    # Every event about the owner's own fish, and every own action, is seen whole.
    for side in (0, 1):
        seen = project(events, side)
        whole = [e for e in events if e["type"] in ("action", "atk", "avoid", "share", "heal", "counter")
                 and (e.get("side") == side or e.get("player") == side)]
        assert [e for e in seen if e in whole] == whole


def test_spectators_see_hp_and_public_events_of_both_sides():
    s, events = _scripted_round()
    v = view(s, "spectator")
    full = view(s, "all")
    for side in (0, 1):
        assert [f["hp"] for f in v["teams"][side]] == [f["hp"] for f in full["teams"][side]]
        assert [f["alive"] for f in v["teams"][side]] == [f["alive"] for f in full["teams"][side]]
        assert all(f["atk"] is None and f["effects"] is None and f["shields"] is None for f in v["teams"][side])
    seen = project(events, "spectator")
    assert [e for e in seen if e["type"] == "damage"] == [e for e in events if e["type"] == "damage"]
