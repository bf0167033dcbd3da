"""Legality of every night action (rulings 19–23, 38, 50): checked on submission with a stable code,
and a refused command changes nothing."""
import pytest

from game.games.three_kingdoms.engine import IllegalCommand, apply
from game.games.three_kingdoms.engine.state import slot_of

from .helpers import act, close, game, id_of, until

SKILLS = {"skills": [
    {"name": "奇策", "owner": "郭嘉", "timing": "结算时", "targets": 1, "text": ""},
    {"name": "遗计", "owner": "郭嘉", "timing": "结算后", "targets": 1, "text": ""},
    {"name": "加计", "owner": "郭嘉", "timing": "结算后", "targets": 1, "extra": True, "text": ""},
    {"name": "刀法", "owner": "夏侯惇", "timing": "结算时", "targets": 1, "text": ""},
    {"name": "八阵", "owner": "荀彧", "timing": "结算时", "targets": 1, "outside": True, "text": ""},
]}


def refused(state, name, kind, code, **body):
    before = repr(state)
    with pytest.raises(IllegalCommand) as error:
        act(state, name, kind, **body)
    assert error.value.code == code
    assert repr(state) == before, "a refused command changed the state"


def wound(state, name):
    state, _ = apply(state, "gm", {"override": {"reason": "test", "effects": [{"wound": id_of(state, name)}]}})
    return state


def test_a_wounded_character_cannot_act():
    state = wound(game(setup=SKILLS), "夏侯惇")
    refused(state, "夏侯惇", "assassinate", "wounded", target=id_of(state, "孙坚"))
    refused(state, "夏侯惇", "skill", "wounded", skill="刀法", targets=[id_of(state, "孙坚")])


def test_a_character_outside_the_game_cannot_act_or_be_targeted_unless_its_skill_acts_from_outside():
    state = game(setup=SKILLS)
    state, _ = apply(state, "gm", {"override": {"reason": "武侯八阵", "effects": [
        {"outside": id_of(state, "夏侯惇")}, {"outside": id_of(state, "荀彧")}, {"outside": id_of(state, "孙坚")}]}})
    refused(state, "夏侯惇", "assassinate", "outside", target=id_of(state, "刘备"))
    refused(state, "张辽", "assassinate", "bad_target", target=id_of(state, "孙坚"))
    state, _ = act(state, "荀彧", "skill", skill="八阵", targets=[id_of(state, "刘备")])
    assert "skill" in state["subs"][str(id_of(state, "荀彧"))]


def test_without_a_junshi_a_country_may_only_assassinate_and_vote():
    state = game(setup=SKILLS)
    advisors = [id_of(state, "荀彧"), id_of(state, "郭嘉")]
    state, _ = apply(state, "gm", {"override": {"reason": "test", "effects": [{"kill": i} for i in advisors]}})
    state, _ = until(state, "night_action", 2)
    refused(state, "典韦", "identify", "no_advisor", index=0, targets=[id_of(state, "孙坚")])
    refused(state, "夏侯惇", "skill", "no_advisor", skill="刀法", targets=[id_of(state, "孙坚")])
    state, _ = act(state, "夏侯惇", "assassinate", target=id_of(state, "孙坚"))
    assert "assassinate" in state["subs"][str(id_of(state, "夏侯惇"))]


def test_the_no_junshi_rule_starts_the_next_day_when_they_fall_in_the_night_resolution():
    state = game(setup=SKILLS)
    state, _ = act(state, "夏侯惇", "skill", skill="刀法", targets=[id_of(state, "孙坚")])
    state, _ = close(state)
    advisors = [id_of(state, "荀彧"), id_of(state, "郭嘉")]
    state, _ = apply(state, "gm", {"override": {"reason": "test", "effects": [{"kill": i} for i in advisors]}})
    assert state["countries"]["魏"]["no_advisor_from"] == 1 * 10 + 3  # day 1's first phase


def test_one_active_skill_per_character_per_night_extra_actions_excepted():
    state = game(setup=SKILLS)
    target = [id_of(state, "孙坚")]
    state, _ = act(state, "郭嘉", "skill", skill="奇策", targets=target)
    refused(state, "郭嘉", "skill", "one_skill", skill="遗计", targets=target)
    state, _ = act(state, "郭嘉", "skill", skill="加计", targets=target)
    assert set(state["subs"][str(id_of(state, "郭嘉"))]) == {"skill", "extra:加计"}


def test_a_killer_who_assassinates_uses_no_skill():
    state = game(setup=SKILLS)
    state, _ = act(state, "夏侯惇", "assassinate", target=id_of(state, "孙坚"))
    refused(state, "夏侯惇", "skill", "killer_no_skill", skill="刀法", targets=[id_of(state, "孙坚")])


def test_only_killers_assassinate():
    state = game()
    refused(state, "典韦", "assassinate", "not_a_killer", target=id_of(state, "孙坚"))


def test_both_killers_assassinating_the_fu_killers_fails_first():
    state = game()
    state, _ = act(state, "夏侯惇", "assassinate", target=id_of(state, "孙坚"))
    state, _ = act(state, "张辽", "assassinate", target=id_of(state, "刘备"))
    state, events = close(state)
    assert slot_of(state, "孙坚") is None, "the 主杀手's 刺杀 stands"
    assert slot_of(state, "刘备") is not None, "the 副杀手's 刺杀 fails"
    assert any(e["type"] == "void" and e.get("reason") == "double_kill" for e in events)


def test_reassign_is_once_per_game_and_replaces_the_killers_own_assassination():
    state = game()
    state, _ = act(state, "荀彧", "reassign", target=id_of(state, "刘备"), killer="张辽")
    state, _ = act(state, "张辽", "assassinate", target=id_of(state, "孙坚"))
    state, _ = act(state, "夏侯惇", "assassinate", target=id_of(state, "关羽"))
    state, _ = close(state)
    assert slot_of(state, "刘备") is None, "the 改刀's target dies"
    assert slot_of(state, "孙坚") is not None and slot_of(state, "关羽") is not None, \
        "the killer's own 刺杀 and the country's other 刺杀 fail"
    state, _ = until(state, "night_action", 2)
    refused(state, "荀彧", "reassign", "reassign_used", target=id_of(state, "孙坚"))


def test_reassign_on_a_killer_who_cannot_act_fails_and_is_used():
    state = game()
    state, _ = act(state, "荀彧", "reassign", target=id_of(state, "刘备"))
    state = wound(state, "夏侯惇")
    state, _ = close(state)
    assert slot_of(state, "刘备") is not None
    assert state["countries"]["魏"]["reassign_used"]


def test_no_suicide_after_an_immediate_action_and_none_after_the_cutoff():
    setup = {"skills": [{"name": "急进", "owner": "郭嘉", "timing": "立刻", "targets": 1, "text": ""}]}
    state = game(setup=setup)
    state, _ = act(state, "郭嘉", "skill", skill="急进", targets=[id_of(state, "孙坚")])
    refused(state, "郭嘉", "suicide", "acted")
    late = dict(state, clock=state["deadline"] - 599)
    with pytest.raises(IllegalCommand) as error:
        apply(late, 0, {"at": state["deadline"] - 599, "suicide": {"actor": "典韦"}})
    assert error.value.code == "too_late"


def test_a_target_is_an_id_in_play_or_a_character_whose_id_the_seat_knows():
    state = game()
    refused(state, "夏侯惇", "assassinate", "unknown_target", target="孙坚")
    state, _ = act(state, "夏侯惇", "assassinate", target="张辽")  # the killers know each other
    assert state["subs"][str(id_of(state, "夏侯惇"))]["assassinate"]["target"] == id_of(state, "张辽")


def test_another_seats_character_cannot_be_commanded():
    state = game()
    with pytest.raises(IllegalCommand) as error:
        apply(state, 1, {"assassinate": {"actor": "夏侯惇", "target": 1}})
    assert error.value.code == "not_your_character"


SCOUT = {"skills": [{"name": "巧设反间", "owner": "郭嘉", "timing": "预结算前", "targets": 1, "text": ""},
                    {"name": "料敌机先", "owner": "吕蒙", "timing": "预结算前", "targets": 1, "text": ""}]}


def test_after_a_pre_settlement_skill_everyone_may_revise_all_but_that_action_for_15_minutes():
    state = game(setup={"skills": SCOUT["skills"][:1]})
    state, _ = act(state, "郭嘉", "skill", skill="巧设反间", targets=[id_of(state, "刘备")])
    state, _ = act(state, "关羽", "assassinate", target=id_of(state, "孙坚"))
    state, _ = apply(state, "server", {"at": state["deadline"], "close": {}})
    (decision,) = state["pending"]
    state, _ = apply(state, "gm", {"at": state["clock"], "resolve": {"decision": decision["key"], "effects": [
        {"feedback": id_of(state, "郭嘉"), "text": "关羽刺杀孙坚"}]}})
    assert state["revision"] == {"until": state["clock"] + 900, "locked": [id_of(state, "郭嘉")]}
    refused(state, "郭嘉", "cancel", "locked_action", what="skill")
    state, _ = act(state, "关羽", "assassinate", target=id_of(state, "曹操"))
    with pytest.raises(IllegalCommand) as error:
        apply(state, "server", {"at": state["revision"]["until"] - 1, "close": {}})
    assert error.value.code == "before_deadline"
    state, _ = apply(state, "server", {"at": state["revision"]["until"], "close": {}})
    state, _ = close(state)
    assert slot_of(state, "曹操") is None and slot_of(state, "孙坚") is not None, "the revised 刺杀 stands"


def test_liao_di_ji_xian_makes_the_window_an_hour():
    state = game(setup=SCOUT)
    state, _ = act(state, "吕蒙", "skill", skill="料敌机先", targets=[id_of(state, "刘备")])
    state, _ = apply(state, "server", {"at": state["deadline"], "close": {}})
    (decision,) = state["pending"]
    state, _ = apply(state, "gm", {"at": state["clock"], "resolve": {"decision": decision["key"], "effects": []}})
    assert state["revision"]["until"] == state["clock"] + 3600


def test_at_the_close_an_action_whose_actor_can_no_longer_act_is_void_and_its_owner_told_why():
    state = game()
    state, _ = act(state, "夏侯惇", "assassinate", target=id_of(state, "刘备"))
    state = wound(state, "夏侯惇")
    state, events = close(state)
    assert slot_of(state, "刘备") is not None
    (void,) = [e for e in events if e["type"] == "void"]
    assert void["to"] == [0] and void["reason"] == "wounded"


def test_a_target_named_by_character_is_void_once_it_no_longer_holds_the_id():
    state = game(setup={"successors": {"张辽": ["荀攸"]}})
    state, _ = act(state, "夏侯惇", "assassinate", target="张辽")
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"kill": id_of(state, "张辽")}]}})
    state, events = close(state)
    assert slot_of(state, "荀攸")["status"] == "normal"
    assert [e["reason"] for e in events if e["type"] == "void"] == ["bad_target"]


def test_an_immediate_skill_asks_the_gm_at_once_and_its_effects_apply_at_once():
    setup = {"skills": [{"name": "急袭", "owner": "郭嘉", "timing": "立刻", "targets": 1, "text": ""}]}
    state = game(setup=setup)
    target = id_of(state, "孙坚")
    state, events = act(state, "郭嘉", "skill", skill="急袭", targets=[target])
    (decision,) = state["pending"]
    assert decision["about"]["stage"] == "immediate" and decision["for"] == "gm"
    with pytest.raises(IllegalCommand):
        apply(state, "server", {"at": state["deadline"], "close": {}})
    state, events = apply(state, "gm", {"resolve": {"decision": decision["key"], "effects": [{"wound": target}]}})
    assert slot_of(state, "孙坚")["status"] == "wounded"
    assert any(e["type"] == "status" and e["to"] == [2] for e in events), "told to its owner at once"


def test_losing_the_last_junshi_to_an_immediate_action_applies_at_once_and_tells_the_country():
    setup = {"skills": [{"name": "急袭", "owner": "刘备", "timing": "立刻", "targets": 1, "text": ""}]}
    state = game(setup=setup)
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"kill": id_of(state, "荀彧")}]}})
    state, _ = act(state, "刘备", "skill", skill="急袭", targets=[id_of(state, "郭嘉")])
    (decision,) = state["pending"]
    state, events = apply(state, "gm", {"resolve": {"decision": decision["key"], "effects": [
        {"kill": id_of(state, "郭嘉")}]}})
    assert any(e["type"] == "no_advisor" and e["to"] == [0] for e in events)
    refused(state, "典韦", "identify", "no_advisor", index=0, targets=[id_of(state, "孙坚")])


def test_an_action_made_to_fail_is_told_to_its_owner_at_once():
    state = game(setup=SKILLS)
    state, _ = act(state, "夏侯惇", "assassinate", target=id_of(state, "孙坚"))
    state, events = apply(state, "gm", {"override": {"reason": "t", "effects": [{"fail": id_of(state, "夏侯惇")}]}})
    (void,) = [e for e in events if e["type"] == "void"]
    assert void["to"] == [0] and void["action"] == ["assassinate"]
    state, _ = close(state)
    assert slot_of(state, "孙坚") is not None


def test_the_next_before_settlement_skill_is_the_zero_interference_one_else_the_lowest_rank_else_luck():
    skills = [{"name": "离间", "owner": "郭嘉", "timing": "结算前", "targets": 1, "rank": 6, "text": ""},
              {"name": "反间", "owner": "吕蒙", "timing": "结算前", "targets": 1, "rank": 6, "text": ""},
              {"name": "遁甲", "owner": "庞统", "timing": "结算前", "targets": 1, "rank": 7, "text": ""}]
    for seed in range(4):
        state = game(setup={"skills": skills}, seed=seed)
        guo, lv, pang = id_of(state, "郭嘉"), id_of(state, "吕蒙"), id_of(state, "庞统")
        state, _ = act(state, "郭嘉", "skill", skill="离间", targets=[lv])
        state, _ = act(state, "吕蒙", "skill", skill="反间", targets=[pang])
        state, _ = act(state, "庞统", "skill", skill="遁甲", targets=[guo])
        state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"luck": [lv, "优"]}]}})
        state, _ = apply(state, "server", {"at": state["deadline"], "close": {}})
        (first,) = state["pending"]
        assert first["about"]["actor"] == lv, "no one is free: rank 6 ties, 优判 wins the 拼点"
        state, _ = apply(state, "gm", {"resolve": {"decision": first["key"], "effects": []}})
        (second,) = state["pending"]
        assert second["about"]["actor"] == pang and second["about"]["zero_interference"], "吕蒙 resolved: 庞统 is free"


def test_one_active_skill_per_day_across_both_day_stages():
    setup = {"skills": [{"name": "弃车", "owner": "郭嘉", "timing": "白天受伤判定", "targets": 1, "text": ""},
                        {"name": "诈取", "owner": "郭嘉", "timing": "白天行动投票", "targets": 1, "text": ""}]}
    state = game(setup=setup)
    state, _ = until(state, "day_wound", 1)
    target = [id_of(state, "孙坚")]
    state, _ = act(state, "郭嘉", "skill", skill="弃车", targets=target)
    state, _ = until(state, "day_vote", 1)
    refused(state, "郭嘉", "skill", "one_skill", skill="诈取", targets=target)
    state, _ = until(state, "day_vote", 2)
    state, _ = act(state, "郭嘉", "skill", skill="诈取", targets=target)
