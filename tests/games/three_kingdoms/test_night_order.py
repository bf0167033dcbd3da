"""Night resolution's ordering rules: passives triggered by an identification (ruling 58) and the
order of a target's defences (ruling 28, stage 2)."""
import pytest

from game.games.three_kingdoms.engine import IllegalCommand, apply, new_match
from game.games.three_kingdoms.engine.state import slot_of

from .helpers import act, close, game, id_of

ZHANG_LIAO = {"kind": "不反馈", "count": 1, "names": ["太史慈"], "passive": "急袭海昏"}
RAID = {"name": "急袭海昏", "owner": "张辽", "timing": "被动", "targets": 0, "effects": [{"leave": "trigger"}],
        "text": ""}


def _raid_night(before, rank, seed=1):
    """张辽 identifies 太史慈 while 太史慈 aims a 结算前 skill of ``rank`` at 张辽: neither is free."""
    state = game(seed=seed, setup={
        "identifications": {"张辽": [dict(ZHANG_LIAO, before=before)]},
        "skills": [RAID, {"name": "截击", "owner": "太史慈", "timing": "结算前", "targets": 1, "rank": rank,
                          "text": ""}]})
    state, _ = act(state, "张辽", "identify", index=0, targets=[id_of(state, "太史慈")])
    state, _ = act(state, "太史慈", "skill", skill="截击", targets=[id_of(state, "张辽")])
    state, _ = apply(state, "server", {"at": state["deadline"], "close": {}})
    return state


@pytest.mark.parametrize("rank, first", [(8, "截击"), (10, "急袭海昏")])
def test_a_passive_of_an_identification_marked_before_settlement_takes_rank_9(rank, first):
    for seed in range(6):
        _next_is(_raid_night(True, rank, seed), first)


def _next_is(state, first):
    (asked,) = state["pending"]
    assert asked["about"]["stage"] == "before" and asked["about"]["skill"] == first
    state, _ = apply(state, "gm", {"resolve": {"decision": asked["key"], "effects": []}})
    (then,) = state["pending"]
    assert then["about"]["skill"] != first and then["about"]["zero_interference"]
    if then["about"]["skill"] == "急袭海昏":
        assert then["about"]["trigger"] == id_of(state, "太史慈")


def test_the_marked_passive_defaults_to_its_effect_on_the_trigger():
    state = _raid_night(True, 8)
    taishi = id_of(state, "太史慈")
    state, _ = close(state)
    assert slot_of(state, "太史慈") is None and state["slots"][taishi - 1]["status"] == "left"


def test_a_marked_passive_does_not_fire_once_its_identifier_was_made_to_fail_first():
    state = _raid_night(True, 8)
    (asked,) = state["pending"]
    state, _ = apply(state, "gm", {"resolve": {"decision": asked["key"], "effects": [{"fail": "target"}]}})
    assert not [d for d in state["pending"] if d["about"].get("skill") == "急袭海昏"]
    assert slot_of(state, "太史慈") is not None


def test_an_unmarked_identification_passive_fires_when_triggered_before_any_before_settlement_skill():
    state = _raid_night(False, 8)
    (asked,) = state["pending"]
    assert asked["about"]["stage"] == "passive" and asked["about"]["skill"] == "急袭海昏"


def test_before_marks_only_an_identification_that_triggers_a_passive():
    state = new_match(1)
    with pytest.raises(IllegalCommand) as refusal:
        apply(state, "gm", {"setup": {"identifications": {"张辽": [{"kind": "不反馈", "count": 1, "before": True}]}}})
    assert refusal.value.code == "bad_setup"


DEFENCES = [{"name": "铁壁", "owner": "刘备", "timing": "被动", "targets": 0, "text": ""},
            {"name": "自守", "owner": "刘备", "timing": "结算时", "targets": 1, "text": ""},
            {"name": "护主", "owner": "张飞", "timing": "结算时", "targets": 1, "text": ""},
            {"name": "八阵", "owner": "庞统", "timing": "被动", "targets": 0, "text": ""},
            {"name": "武圣", "owner": "关羽", "timing": "被动", "targets": 0, "text": ""}]


@pytest.mark.parametrize("lucky", ["庞统", "关羽"])
def test_defences_are_listed_own_active_others_active_own_passive_others_passive_then_by_contest(lucky):
    for seed in range(3):
        state = game(seed=seed, setup={"skills": DEFENCES})
        liu = id_of(state, "刘备")
        state, _ = act(state, "夏侯惇", "assassinate", target=liu)
        state, _ = act(state, "刘备", "skill", skill="自守", targets=[liu])
        state, _ = act(state, "张飞", "skill", skill="护主", targets=[liu])
        state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"luck": [id_of(state, lucky), "优"]}]}})
        state, _ = apply(state, "server", {"at": state["deadline"], "close": {}})
        while not any(d["kind"] == "defence" for d in state["pending"]):
            state, _ = apply(state, "gm", {"resolve": {"decision": state["pending"][0]["key"], "effects": []}})
        (decision,) = [d for d in state["pending"] if d["kind"] == "defence"]
        listed = [(d["order"], d["skill"]) for d in decision["about"]["defences"]]
        others = [("他人被动", "八阵"), ("他人被动", "武圣")]
        assert listed == [("本人主动", "自守"), ("他人主动", "护主"), ("本人被动", "铁壁")] + (
            others if lucky == "庞统" else others[::-1]), "the 优判 owner wins the 拼点 among others' passives"
