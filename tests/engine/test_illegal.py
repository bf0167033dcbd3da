"""Every illegal command is refused with its stable code, a human message, and no state change
(clarifications: "Illegal commands are rejected with a clear reason and change nothing")."""
import pytest

from game.games.aquawar.engine import apply, is_legal, new_match, resign

from _helpers import edit, finish_round, illegal, pick_cmd, start

TEAM0 = ["archerfish", "pufferfish", "sea_turtle", "octopus"]
TEAM1 = ["manta_ray", "great_white_shark", "clownfish", "hammerhead_shark"]


def picking():
    return new_match(5, first_mover=0)


def asserting():
    return start(TEAM0, TEAM1)


def acting(fish=None):
    s = start(TEAM0, TEAM1)
    if fish:
        s = edit(s, fish)
    return apply(s, 0, {"assert": None})[0]


def act(actor, kind="skill", **targets):
    return {"act": dict({"actor": actor, "kind": kind}, **targets)}


def over():
    s = start(TEAM0, TEAM1)
    s, _ = finish_round(s, 0)
    s, _ = apply(s, 0, pick_cmd(TEAM1))
    s, _ = apply(s, 1, pick_cmd(TEAM0))
    s, _ = finish_round(s, 0)
    assert s.phase == "over"
    return s


CASES = [
    # --- phase and turn
    ("act_in_pick_phase", picking, 0, act(0, "attack", enemy=0), "wrong_phase"),
    ("assert_in_pick_phase", picking, 0, {"assert": None}, "wrong_phase"),
    ("pick_in_assert_phase", asserting, 0, pick_cmd(["sunfish", "sea_wolf", "electric_eel", "mimic_fish"],
                                                    "octopus"), "wrong_phase"),
    ("act_before_assertion_phase_done", asserting, 0, act(0, "attack", enemy=0), "wrong_phase"),
    ("assert_twice", acting, 0, {"assert": None}, "wrong_phase"),
    ("assert_not_your_turn", asserting, 1, {"assert": None}, "not_your_turn"),
    ("act_not_your_turn", acting, 1, act(0, "attack", enemy=0), "not_your_turn"),
    ("bad_player", asserting, 2, {"assert": None}, "bad_player"),
    # --- picks
    ("unknown_species", picking, 0, pick_cmd(["archerfish", "pufferfish", "sea_turtle", "dolphin"]),
     "unknown_species"),
    ("unknown_mimic_target", picking, 0, pick_cmd(["archerfish", "pufferfish", "sea_turtle", "mimic_fish"],
                                                  "dolphin"), "unknown_species"),
    ("duplicate_picks", picking, 0, pick_cmd(["archerfish", "archerfish", "sea_turtle", "octopus"]),
     "duplicate_species"),
    ("three_picks", picking, 0, pick_cmd(["archerfish", "pufferfish", "sea_turtle"]), "wrong_pick_count"),
    ("five_picks", picking, 0, pick_cmd(["archerfish", "pufferfish", "sea_turtle", "octopus", "sunfish"]),
     "wrong_pick_count"),
    ("no_picks", picking, 0, pick_cmd([]), "wrong_pick_count"),
    ("mimic_without_copy_target", picking, 0, pick_cmd(["archerfish", "pufferfish", "sea_turtle", "mimic_fish"]),
     "mimic_target_missing"),
    ("mimic_copying_itself", picking, 0, pick_cmd(["archerfish", "pufferfish", "sea_turtle", "mimic_fish"],
                                                  "mimic_fish"), "mimic_copies_itself"),
    ("copy_target_without_mimic", picking, 0, pick_cmd(TEAM0, "octopus"), "mimic_without_mimic"),
    # --- assertions
    ("assert_dead_fish", lambda: edit(asserting(), {(1, 2): {"dead": True}}), 0,
     {"assert": {"target": 2, "fish": "clownfish"}}, "target_dead"),
    ("assert_revealed_fish", lambda: edit(asserting(), {(1, 2): {"revealed": True}}), 0,
     {"assert": {"target": 2, "fish": "clownfish"}}, "target_revealed"),
    ("assert_missing_fish_4", asserting, 0, {"assert": {"target": 4, "fish": "clownfish"}}, "no_such_fish"),
    ("assert_missing_fish_negative", asserting, 0, {"assert": {"target": -1, "fish": "clownfish"}},
     "no_such_fish"),
    ("assert_unknown_species", asserting, 0, {"assert": {"target": 0, "fish": "dolphin"}}, "unknown_species"),
    # --- actors
    ("dead_actor", lambda: acting({(0, 1): {"dead": True}}), 0, act(1, "attack", enemy=0), "actor_dead"),
    ("missing_actor", acting, 0, act(4, "attack", enemy=0), "no_such_fish"),
    ("negative_actor", acting, 0, act(-1, "attack", enemy=0), "no_such_fish"),
    ("unknown_kind", acting, 0, act(0, "dance"), "unknown_action"),
    # --- normal attack
    ("attack_without_enemy", acting, 0, act(0, "attack"), "missing_target"),
    ("attack_dead_enemy", lambda: acting({(1, 1): {"dead": True}}), 0, act(0, "attack", enemy=1), "target_dead"),
    ("attack_missing_enemy", acting, 0, act(0, "attack", enemy=4), "no_such_fish"),
    ("attack_with_ally", acting, 0, act(0, "attack", enemy=0, ally=1), "extra_target"),
    # --- AoE (Archerfish): no targets
    ("aoe_with_enemy", acting, 0, act(0, enemy=0), "extra_target"),
    ("aoe_with_ally", acting, 0, act(0, ally=1), "extra_target"),
    # --- harm ally (Pufferfish): a living teammate, not itself, no enemy
    ("harm_ally_missing_ally", acting, 0, act(1), "missing_target"),
    ("harm_ally_self", acting, 0, act(1, ally=1), "self_target"),
    ("harm_ally_missing_fish", acting, 0, act(1, ally=4), "no_such_fish"),
    ("harm_ally_with_enemy", acting, 0, act(1, ally=0, enemy=0), "extra_target"),
    # --- heal crit (Sea Turtle): a living teammate, not itself, plus an enemy on uses 1-3 only
    ("turtle_missing_ally", acting, 0, act(2, enemy=0), "missing_target"),
    ("turtle_self", acting, 0, act(2, ally=2, enemy=0), "self_target"),
    ("turtle_missing_enemy", acting, 0, act(2, ally=0), "missing_target"),
    ("turtle_fourth_use_with_enemy", lambda: acting({(0, 2): {"uses": 3}}), 0, act(2, ally=0, enemy=0),
     "extra_target"),
    # --- reduce (Octopus): a living teammate or itself, no enemy
    ("reduce_missing_ally", acting, 0, act(3), "missing_target"),
    ("reduce_with_enemy", acting, 0, act(3, ally=3, enemy=0), "extra_target"),
]


def _dead(side, pos):
    return lambda: acting({(side, pos): {"dead": True}})


def _p1_acting(fish=None):
    """Player 1 to act (after player 0's turn)."""
    def build():
        s = start(TEAM0, TEAM1, first_mover=1)
        if fish:
            s = edit(s, fish)
        return apply(s, 1, {"assert": None})[0]
    return build


CASES += [
    ("harm_ally_dead_ally", _dead(0, 0), 0, act(1, ally=0), "target_dead"),
    ("turtle_dead_ally", _dead(0, 0), 0, act(2, ally=0, enemy=0), "target_dead"),
    ("turtle_dead_enemy", _dead(1, 0), 0, act(2, ally=0, enemy=0), "target_dead"),
    ("reduce_dead_ally", _dead(0, 0), 0, act(3, ally=0), "target_dead"),
    # --- player 1's fish: Manta Ray (reduce), Great White / Hammerhead (lowest crit), Clownfish (share)
    ("manta_with_enemy", _p1_acting(), 1, act(0, ally=0, enemy=0), "extra_target"),
    ("manta_missing_ally", _p1_acting(), 1, act(0), "missing_target"),
    ("great_white_not_lowest", _p1_acting({(0, 2): {"hp": 100}}), 1, act(1, enemy=0), "not_lowest_hp"),
    ("hammerhead_not_lowest", _p1_acting({(0, 2): {"hp": 100}}), 1, act(3, enemy=3), "not_lowest_hp"),
    ("great_white_missing_enemy", _p1_acting(), 1, act(1), "missing_target"),
    ("great_white_with_ally", _p1_acting(), 1, act(1, enemy=0, ally=0), "extra_target"),
    ("great_white_dead_enemy", _p1_acting({(0, 2): {"dead": True}}), 1, act(1, enemy=2), "target_dead"),
    ("clownfish_missing_ally", _p1_acting(), 1, act(2), "missing_target"),
    ("clownfish_self", _p1_acting(), 1, act(2, ally=2), "self_target"),
    ("clownfish_dead_ally", _p1_acting({(1, 0): {"dead": True}}), 1, act(2, ally=0), "target_dead"),
    ("clownfish_with_enemy", _p1_acting(), 1, act(2, ally=0, enemy=0), "extra_target"),
    ("clownfish_fourth_use_with_enemy", _p1_acting({(1, 2): {"uses": 3}}), 1, act(2, ally=0, enemy=0),
     "extra_target"),
    # --- malformed
    ("empty_command", asserting, 0, {}, "malformed"),
    ("two_commands", asserting, 0, {"assert": None, "act": {"actor": 0, "kind": "attack", "enemy": 0}},
     "malformed"),
    ("unknown_command", asserting, 0, {"resign": True}, "malformed"),
    ("act_without_kind", acting, 0, {"act": {"actor": 0}}, "unknown_action"),
    ("act_without_actor", acting, 0, {"act": {"kind": "attack", "enemy": 0}}, "no_such_fish"),
    ("act_not_an_object", acting, 0, {"act": 3}, "malformed"),
    ("assert_not_an_object", asserting, 0, {"assert": 3}, "malformed"),
    ("pick_not_a_list", picking, 0, {"pick": "archerfish"}, "malformed"),
    ("act_unknown_field", acting, 0, {"act": {"actor": 0, "kind": "attack", "enemy": 0, "power": 9}},
     "malformed"),
    # --- after the match ended
    ("pick_after_match", over, 0, pick_cmd(["sunfish", "sea_wolf", "electric_eel", "mimic_fish"], "octopus"),
     "match_over"),
    ("assert_after_match", over, 0, {"assert": None}, "match_over"),
    ("act_after_match", over, 1, act(0, "attack", enemy=0), "match_over"),
]


@pytest.mark.parametrize("name,build,player,command,code", CASES, ids=[c[0] for c in CASES])
def test_it_refuses_with_a_stable_code_and_changes_nothing(name, build, player, command, code):
    state = build()
    err = illegal(state, player, command)
    assert err.code == code, (name, err.code, err.message)


def test_it_refuses_a_second_pick_by_the_same_player():
    s = picking()
    s, _ = apply(s, 0, pick_cmd(TEAM0))
    err = illegal(s, 0, pick_cmd(TEAM1))
    assert err.code == "already_picked"


def test_it_refuses_a_species_used_in_an_earlier_round():
    s = start(TEAM0, TEAM1)
    s, _ = finish_round(s, 0)
    assert illegal(s, 0, pick_cmd(["archerfish", "sunfish", "sea_wolf", "electric_eel"])).code == "species_used"
    assert illegal(s, 1, pick_cmd(["manta_ray", "sunfish", "sea_wolf", "electric_eel"])).code == "species_used"
    # The other player's species are fine.
    s2, _ = apply(s, 1, pick_cmd(TEAM0))
    assert s2.picks[1] is not None


def test_it_refuses_anything_after_a_resignation_ended_the_match():
    s = start(TEAM0, TEAM1)
    s, ev = resign(s, 1, "resign")
    assert s.phase == "over" and s.winner == 0
    assert illegal(s, 0, {"assert": None}).code == "match_over"


def test_tied_lowest_hp_targets_are_all_legal_for_great_white_and_hammerhead():
    s = _p1_acting({(0, 0): {"hp": 200}, (0, 3): {"hp": 200}})()
    for actor in (1, 3):
        for enemy in (0, 3):
            assert is_legal(s, 1, act(actor, enemy=enemy))
        for enemy in (1, 2):
            assert illegal(s, 1, act(actor, enemy=enemy)).code == "not_lowest_hp"


def test_mimic_copy_may_be_any_other_species_even_one_on_the_same_team():
    s = picking()
    assert is_legal(s, 0, pick_cmd(["sea_turtle", "pufferfish", "octopus", "mimic_fish"], "sea_turtle"))
    s2, _ = apply(s, 0, pick_cmd(["sea_turtle", "pufferfish", "octopus", "mimic_fish"], "sea_turtle"))
    assert s2.picks[0]["mimic"] == "sea_turtle"


def test_mimic_copy_may_be_a_species_used_in_an_earlier_round():
    # Plain reading of "选择其余11条鱼中的任意一条": only the picked four must be unused.
    s = start(TEAM0, TEAM1)
    s, _ = finish_round(s, 0)
    cmd = pick_cmd(["sea_wolf", "manta_ray", "electric_eel", "mimic_fish"], "octopus")
    assert is_legal(s, 0, cmd)
    s2, _ = apply(s, 0, cmd)
    assert s2.picks[0] == {"fish": ["sea_wolf", "manta_ray", "electric_eel", "mimic_fish"], "mimic": "octopus"}
