"""Rounds and the match: the 64-turn limit and its tiebreaks, round ends, best of three, first
mover, picks across rounds (rules: 游戏流程, 其他说明; clarifications, Turns and rounds)."""
import pytest

from game.games.aquawar.engine import apply, new_match, pick_options, view

from _helpers import (
    at_last_turn, attack, do_assert, edit, finish_round, illegal, of_type, pick_cmd, skill, start,
)

TEAM = ["archerfish", "pufferfish", "sunfish", "octopus"]
R2 = ["sea_wolf", "manta_ray", "sea_turtle", "clownfish"]
R3 = ["electric_eel", "great_white_shark", "hammerhead_shark", "mimic_fish"]


def _limit(first_mover, hp0, hp1):
    """The last turn of round 1, HP set per side (None = dead); returns the round_end event."""
    s = start(TEAM, TEAM, first_mover=first_mover)
    s = at_last_turn(s)
    fields = {}
    for side, hps_ in ((0, hp0), (1, hp1)):
        for pos, h in enumerate(hps_):
            fields[(side, pos)] = {"dead": True} if h is None else {"hp": h}
    s = edit(s, fields)
    mover = s.to_move
    assert mover == 1 - first_mover
    s2, ev = skill(s, mover, 3, ally=3)     # the Octopus buffs itself: no HP changes
    ends = of_type(ev, "round_end")
    assert len(ends) == 1
    assert ends[0]["reason"] == "turn_limit" and ends[0]["turns"] == 64
    assert s2.round == 2 and s2.phase == "pick"
    return ends[0], s2


def test_turn_limit_more_living_fish_wins_even_with_less_hp():
    end, s = _limit(0, [10, 10, 10, 10], [None, 400, 400, 400])
    assert end["winner"] == 0
    assert s.score == [1, 0]
    end, _ = _limit(1, [None, 400, 400, 400], [10, 10, 10, 10])
    assert end["winner"] == 1


def test_turn_limit_equal_fish_more_total_hp_wins_even_with_lower_single_fish():
    end, _ = _limit(0, [250, 250, 250, 250], [400, 300, 150, 100])
    assert end["winner"] == 0
    end, _ = _limit(0, [400, 300, 150, 100], [250, 250, 250, 251])
    assert end["winner"] == 1


def test_turn_limit_equal_total_higher_single_fish_wins():
    end, _ = _limit(0, [400, 200, 200, 200], [250, 250, 250, 250])
    assert end["winner"] == 0
    end, _ = _limit(1, [250, 250, 250, 250], [400, 200, 200, 200])
    assert end["winner"] == 1
    end, _ = _limit(0, [300, 300, 100, None], [299, 299, None, 102])
    assert end["winner"] == 0


@pytest.mark.parametrize("first_mover", [0, 1])
def test_turn_limit_all_equal_the_second_mover_wins(first_mover):
    end, s = _limit(first_mover, [300, 200, None, 100], [100, None, 200, 300])
    assert end["winner"] == 1 - first_mover
    r = view(s, "all")["rounds"][0]
    assert (r["winner"], r["first_mover"], r["turns"], r["reason"]) == (1 - first_mover, first_mover, 64,
                                                                         "turn_limit")


def test_turn_limit_not_reached_after_63_turns():
    s = start(TEAM, TEAM, first_mover=0)
    s = edit(s, turn=62, to_move=0, phase="assert")
    s, ev = skill(s, 0, 3, ally=3)
    assert of_type(ev, "round_end") == [] and s.turn == 63 and s.to_move == 1


def test_wipeout_the_side_with_fish_left_wins():
    s = start(TEAM, TEAM)
    s = edit(s, {(1, 0): {"hp": 30}, (1, 1): {"dead": True}, (1, 2): {"dead": True}, (1, 3): {"dead": True}})
    s, ev = attack(s, 0, 0, 0)
    assert [(e["winner"], e["reason"]) for e in of_type(ev, "round_end")] == [(0, "wipeout")]
    assert s.score == [1, 0] and s.round == 2


def test_mutual_destruction_by_an_explosion_the_actor_wins():
    s = start(TEAM, ["hammerhead_shark", "pufferfish", "sunfish", "octopus"], first_mover=1)
    dead = {(side, p): {"dead": True} for side in (0, 1) for p in (1, 2, 3)}
    dead.update({(0, 0): {"hp": 40}, (1, 0): {"hp": 50}})
    s = edit(s, dead)
    s = edit(s, to_move=0, phase="assert")
    s, ev = attack(s, 0, 0, 0)
    assert [(e["winner"], e["reason"]) for e in of_type(ev, "round_end")] == [(0, "mutual")]
    # The other way round: player 1 acts, and wins.
    s = start(["hammerhead_shark", "pufferfish", "sunfish", "octopus"], TEAM, first_mover=1)
    dead = {(side, p): {"dead": True} for side in (0, 1) for p in (1, 2, 3)}
    dead.update({(1, 0): {"hp": 40}, (0, 0): {"hp": 50}})
    s = edit(s, dead)
    s, ev = attack(s, 1, 0, 0)
    assert [(e["winner"], e["reason"]) for e in of_type(ev, "round_end")] == [(1, "mutual")]


def test_a_round_ends_right_after_a_successful_assertion():
    s = start(TEAM, ["sea_wolf", "manta_ray", "sea_turtle", "clownfish"])
    s = edit(s, {(1, p): {"hp": 50} for p in range(4)})
    s, ev = do_assert(s, 0, 2, "sea_turtle")
    assert [(e["winner"], e["reason"]) for e in of_type(ev, "round_end")] == [(0, "wipeout")]
    assert s.round == 2 and s.phase == "pick" and s.score == [1, 0]


def test_a_round_ends_right_after_a_failed_assertion_that_kills_the_asserter():
    s = start(TEAM, ["sea_wolf", "manta_ray", "sea_turtle", "clownfish"])
    s = edit(s, {(0, p): {"hp": 50} for p in range(4)})
    s, ev = do_assert(s, 0, 2, "octopus")
    assert [(e["winner"], e["reason"]) for e in of_type(ev, "round_end")] == [(1, "wipeout")]
    assert s.round == 2 and s.phase == "pick" and s.score == [0, 1]


def test_a_failed_assertion_killing_some_but_not_all_does_not_end_the_round():
    s = start(TEAM, ["sea_wolf", "manta_ray", "sea_turtle", "clownfish"])
    s = edit(s, {(0, 0): {"hp": 50}})
    s, ev = do_assert(s, 0, 2, "octopus")
    assert of_type(ev, "round_end") == []
    assert [e for e in of_type(ev, "death")] == [{"type": "death", "side": 0, "pos": 0}]
    assert s.phase == "act" and s.to_move == 0
    assert view(s, "all")["teams"][0][0]["alive"] is False


def _play_round(s, winner, t0, t1):
    s, _ = apply(s, 0, pick_cmd(t0))
    s, _ = apply(s, 1, pick_cmd(t1))
    return finish_round(s, winner)


def test_best_of_three_2_0():
    s = new_match(11, first_mover=1)
    s, _ = _play_round(s, 0, TEAM, TEAM)
    assert s.score == [1, 0] and s.phase == "pick" and s.round == 2
    s, ev = _play_round(s, 0, R2, R2)
    assert s.score == [2, 0] and s.phase == "over" and s.winner == 0
    assert [(e["winner"], e["reason"], e["score"]) for e in of_type(ev, "match_end")] == [(0, "rounds", [2, 0])]
    v = view(s, "spectator")
    assert (v["phase"], v["winner"], v["score"], v["to_move"]) == ("over", 0, [2, 0], None)
    assert [r["winner"] for r in v["rounds"]] == [0, 0]
    # Nothing more is accepted.
    assert illegal(s, 0, pick_cmd(R3)).code == "match_over"


def test_best_of_three_2_1_and_first_movers_follow_the_previous_loser():
    s = new_match(12, first_mover=0)
    s, _ = apply(s, 0, pick_cmd(TEAM))
    s, _ = apply(s, 1, pick_cmd(TEAM))
    assert s.to_move == 0
    s, _ = finish_round(s, 0)                          # player 0 wins round 1
    s, _ = apply(s, 0, pick_cmd(R2))
    s, _ = apply(s, 1, pick_cmd(R2))
    assert s.to_move == 1 and view(s, "all")["first_mover"] == 1   # loser of round 1 moves first
    s, ev = finish_round(s, 1)                         # player 1 wins round 2
    assert of_type(ev, "match_end") == [] and s.score == [1, 1] and s.round == 3
    s, _ = apply(s, 1, pick_cmd(R3, "sea_wolf"))
    s, _ = apply(s, 0, pick_cmd(R3, "octopus"))
    assert s.to_move == 0 and view(s, "all")["first_mover"] == 0   # loser of round 2 moves first
    s, ev = finish_round(s, 1)
    assert s.phase == "over" and s.winner == 1 and s.score == [1, 2]
    assert [(e["winner"], e["score"]) for e in of_type(ev, "match_end")] == [(1, [1, 2])]
    assert [(r["winner"], r["first_mover"]) for r in view(s, "all")["rounds"]] == [(0, 0), (1, 1), (1, 0)]


def test_species_used_in_an_earlier_round_cannot_be_picked_again_by_that_player_only():
    s = start(TEAM, R2)
    s, _ = finish_round(s, 0)
    # Player 0 fielded TEAM: none of it again; player 1 may field TEAM species.
    for sp in TEAM:
        err = illegal(s, 0, pick_cmd([sp] + [x for x in R3 if x != "mimic_fish"]))
        assert err.code == "species_used"
    s, _ = apply(s, 1, pick_cmd(TEAM))
    assert illegal(s, 0, pick_cmd(["archerfish", "sea_wolf", "manta_ray", "sea_turtle"])).code == "species_used"
    s, _ = apply(s, 0, pick_cmd(R2))
    assert s.phase == "assert"
    s, _ = finish_round(s, 1)
    # Round 3: each player's remaining four.
    assert sorted(pick_options(s, 0)["species"]) == sorted(R3)
    assert sorted(pick_options(s, 1)["species"]) == sorted(R3)
    assert illegal(s, 1, pick_cmd(["sea_wolf", "electric_eel", "great_white_shark", "hammerhead_shark"])).code \
        == "species_used"
    assert illegal(s, 1, pick_cmd(["archerfish", "electric_eel", "great_white_shark", "hammerhead_shark"])).code \
        == "species_used"


def test_a_new_round_starts_fresh():
    s = start(TEAM, TEAM)
    s = edit(s, {(0, 1): {"hp": 10, "atk": 240}}, turn=17)
    s, _ = finish_round(s, 0)
    assert s.turn == 0 and s.phase == "pick"
    s, _ = apply(s, 0, pick_cmd(R2))
    s, _ = apply(s, 1, pick_cmd(R2))
    v = view(s, "all")
    assert v["turn"] == 0
    for side in (0, 1):
        assert [f["hp"] for f in v["teams"][side]] == [400] * 4
        assert [f["atk"] for f in v["teams"][side]] == [100] * 4
        assert [f["revealed"] for f in v["teams"][side]] == [False] * 4
    assert [f["shields"] for f in v["teams"][0]] == [0, 0, 3, 0]


def test_round_end_check_runs_after_the_action_not_mid_action():
    # A counter kills the attacker's last fish, but the attack had already killed the enemy's last:
    # the enemy's Clownfish (alive at the start) still answers; both wiped -> actor wins (mutual).
    s = start(TEAM, ["clownfish", "pufferfish", "sunfish", "octopus"])
    dead = {(side, p): {"dead": True} for side in (0, 1) for p in (1, 2, 3)}
    dead.update({(0, 0): {"hp": 30}, (1, 0): {"hp": 50}})
    s, ev = attack(edit(s, dead), 0, 0, 0)
    assert [e["type"] for e in ev if e["type"] in ("counter", "death", "round_end")] == [
        "counter", "death", "death", "round_end"]
    assert of_type(ev, "round_end")[0]["winner"] == 0
