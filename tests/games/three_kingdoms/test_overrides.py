"""The GM's overrides of a submitted action, a join and the server's rolls (rulings 60, 61): a
required reason, checked before anything changes, logged with before and after, and commands of
the record, so the record replays to the same game."""
import json

import pytest

from game.games.three_kingdoms.engine import IllegalCommand, apply
from game.games.three_kingdoms.engine.records.record import make_record, replay
from game.games.three_kingdoms.engine.state import slot, slot_of

from .helpers import act, close, game, id_of, until

SKILL = {"skills": [{"name": "奇策", "owner": "郭嘉", "timing": "结算时", "targets": 1, "text": "",
                     "effects": [{"wound": "target"}]}]}


def override(state, **parts):
    return apply(state, "gm", {"at": state["clock"], "override": {"reason": "GM ruling", **parts}})


def test_the_gm_rewrites_a_submitted_assassination_and_the_log_keeps_before_and_after():
    state = game()
    xiahou = id_of(state, "夏侯惇")
    state, _ = act(state, "夏侯惇", "assassinate", target=id_of(state, "刘备"))
    state, _ = override(state, action={"id": xiahou, "kind": "assassinate", "set": {"target": id_of(state, "孙坚")}})
    entry = state["log"][-1]
    assert entry["reason"] == "GM ruling"
    assert entry["subs"]["before"][str(xiahou)]["assassinate"]["target"] == id_of(state, "刘备")
    assert entry["subs"]["after"][str(xiahou)]["assassinate"]["target"] == id_of(state, "孙坚")
    state, _ = until(state, "night_feedback", 1)
    assert slot_of(state, "孙坚") is None and slot_of(state, "刘备") is not None


def test_the_gm_withdraws_an_action_and_writes_a_skill_use_the_night_then_resolves():
    state = game(setup=SKILL)
    state, _ = act(state, "夏侯惇", "assassinate", target=id_of(state, "刘备"))
    state, _ = override(state, action={"id": id_of(state, "夏侯惇"), "kind": "assassinate", "set": None})
    state, _ = override(state, action={"id": id_of(state, "郭嘉"), "kind": "skill",
                                       "set": {"skill": "奇策", "targets": [id_of(state, "孙坚")]}})
    state, _ = until(state, "night_feedback", 1)
    assert slot_of(state, "刘备")["status"] == "normal" and slot_of(state, "孙坚")["status"] == "wounded"


def test_several_actions_in_one_override_apply_in_order():
    state = game(setup=SKILL)
    xiahou, guo = id_of(state, "夏侯惇"), id_of(state, "郭嘉")
    state, _ = act(state, "夏侯惇", "assassinate", target=id_of(state, "刘备"))
    state, _ = override(state, action=[
        {"id": xiahou, "kind": "assassinate", "set": {"target": id_of(state, "刘备")}},
        {"id": guo, "kind": "skill", "set": {"skill": "奇策", "targets": [id_of(state, "孙坚")]}},
        {"id": xiahou, "kind": "assassinate", "set": None}])
    assert "assassinate" not in state["subs"].get(str(xiahou), {})
    assert state["subs"][str(guo)]["skill"]["targets"] == [id_of(state, "孙坚")]
    state, _ = until(state, "night_feedback", 1)
    assert slot_of(state, "刘备")["status"] == "normal" and slot_of(state, "孙坚")["status"] == "wounded"


def test_the_gm_rewrites_and_withdraws_a_ballot():
    state = game()
    liu, sun, dian = id_of(state, "刘备"), id_of(state, "孙坚"), id_of(state, "典韦")
    state, _ = until(state, "day_vote", 4)
    state, _ = act(state, "典韦", "vote", target=liu)
    rewritten, events = override(state, action={"id": dian, "kind": "vote", "set": {"target": sun}})
    assert rewritten["public_ballots"]["4"] == [{"voter": dian, "target": sun}]
    assert rewritten["log"][-1]["ballots"]["before"][0]["target"] == liu
    rewritten, events = close(rewritten)
    assert next(e for e in events if e["type"] == "vote_outcome")["id"] == sun
    withdrawn, _ = override(state, action={"id": dian, "kind": "vote", "set": None})
    withdrawn, events = close(withdrawn)
    assert next(e for e in events if e["type"] == "vote_outcome")["id"] is None


def test_the_gm_sets_and_cancels_a_join():
    state = game()
    sima = id_of(state, "司马朗")
    joined, _ = override(state, join={"id": sima, "country": "吴"})
    joined, _ = until(joined, "night_action", 2)
    assert slot(joined, sima)["country"] == "吴" and slot(joined, sima)["identity"] == "平民"
    assert joined["log"][0]["joins"]["after"] == [{"id": sima, "country": "吴", "via": "天庭", "by": None}]
    cancelled, _ = override(state, join={"id": sima, "country": "吴"})
    cancelled, _ = override(cancelled, join={"id": sima, "country": None})
    cancelled, _ = until(cancelled, "night_action", 2)
    assert slot(cancelled, sima)["country"] is None


@pytest.mark.parametrize("outcome", ["healed", "died", "stays"])
def test_the_gm_fixes_the_next_wound_roll(outcome):
    for seed in range(6):
        state = game(seed=seed)
        dian = id_of(state, "典韦")
        state, _ = override(state, effects=[{"wound": dian}], rolls=[{"roll": "伤判", "id": dian, "outcome": outcome}])
        state, events = until(state, "day_vote", 1)
        (roll,) = [e for e in events if e["type"] == "roll" and e["kind"] == "伤判"]
        assert roll["outcome"] == outcome and roll["fixed_by_gm"] and state.get("fixed_rolls") == []


def test_a_fixed_roll_that_does_not_fit_waits_for_one_that_does():
    state = game()
    dian = id_of(state, "典韦")
    state, _ = override(state, rolls=[{"roll": "伤判", "id": id_of(state, "曹操"), "outcome": "died"}])
    state, _ = override(state, effects=[{"wound": dian}])
    state, _ = until(state, "day_vote", 1)
    assert slot_of(state, "曹操")["status"] == "normal" and len(state["fixed_rolls"]) == 1


def test_the_gm_fixes_a_judgement_a_pick_and_a_contest():
    state = game()
    guo, liu, sun = id_of(state, "郭嘉"), id_of(state, "刘备"), id_of(state, "孙坚")
    state, _ = override(state, rolls=[{"roll": "chance", "id": guo, "outcome": False},
                                      {"roll": "pick", "outcome": [sun]}])
    judgement = {"for": guo, "odds": [1, 1], "then": [{"wound": liu}], "else": [{"wound": sun}]}
    state, _ = override(state, effects=[{"chance": judgement}])
    assert slot(state, sun)["status"] == "wounded" and slot(state, liu)["status"] == "normal", "odds 1/1, fixed false"
    state, _ = override(state, effects=[{"pick": {"among": [liu, sun], "good": False, "then": [{"kill": "picked"}]}}])
    assert slot_of(state, "孙坚") is None and slot_of(state, "刘备") is not None


@pytest.mark.parametrize("parts, code", [
    ({"action": {"id": 1, "kind": "suicide", "set": None}}, "bad_override"),
    ({"action": {"id": 1, "kind": "vote", "set": {"target": 2, "follow": "all"}}}, "bad_override"),
    ({"action": {"id": 99, "kind": "assassinate", "set": None}}, "bad_override"),
    ({"action": {"id": 1, "kind": "skill", "set": {"skill": "无此技", "targets": []}}}, "bad_override"),
    ({"action": {"id": 1, "kind": "identify", "set": None}}, "bad_override"),
    # A list is checked whole: its valid first action is not applied either.
    ({"action": [{"id": 1, "kind": "assassinate", "set": None}, {"id": 99, "kind": "assassinate", "set": None}]},
     "bad_override"),
    ({"join": {"id": 1, "country": "汉"}}, "bad_override"),
    ({"rolls": [{"roll": "伤判", "id": 1, "outcome": "maybe"}]}, "bad_override"),
    ({"rolls": [{"roll": "骰子", "outcome": 3}]}, "bad_override"),
    ({"rolls": {"roll": "pick"}}, "bad_override"),
    ({"drop": 12345}, "no_such_decision"),
])
def test_a_malformed_override_is_refused_and_changes_nothing(parts, code):
    state = game()
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalCommand) as refusal:
        override(state, **parts)
    assert refusal.value.code == code and json.dumps(state, sort_keys=True) == before
    with pytest.raises(IllegalCommand) as refusal:
        apply(state, "gm", {"override": {"reason": "", "rolls": []}})
    assert refusal.value.code == "reason_required"


def test_a_record_with_these_overrides_replays_exactly():
    commands = [{"seat": "gm", "at": 0, "lock": {}}]
    state = game(seed=7)
    xiahou, dian = id_of(state, "夏侯惇"), id_of(state, "典韦")
    sima = id_of(state, "司马朗")
    commands += [
        {"seat": 0, "at": 5, "assassinate": {"actor": "夏侯惇", "target": id_of(state, "刘备")}},
        {"seat": "gm", "at": 6, "override": {"reason": "r", "action": {
            "id": xiahou, "kind": "assassinate", "set": {"target": dian}}, "join": {"id": sima, "country": "蜀"},
            "rolls": [{"roll": "chance", "id": xiahou, "outcome": False}]}},
    ]
    record = make_record(7, "standard", 27, commands)
    first, events = replay(json.dumps(record, ensure_ascii=False))
    again, events_again = replay(json.dumps(record, ensure_ascii=False))
    assert first == again and events == events_again
    for command in commands[1:]:
        seat = command["seat"]
        state, _ = apply(state, seat, {k: v for k, v in command.items() if k != "seat"})
    assert first == state
    state, _ = close(state)
    assert slot(state, dian)["status"] == "wounded", "the fixed 1/2 of the own-country 刺杀 made it a wound"


def test_cancelling_a_join_withdraws_the_questions_about_it():
    state = game(mode="crowd")
    state, _ = until(state, "night_action", 2)
    sima = id_of(state, "司马朗")
    state, _ = act(state, "司马朗", "request", country="魏")
    state, _ = until(state, "night_feedback", 2)
    assert [d for d in state["pending"] if d["kind"] == "request"]
    state, _ = override(state, join={"id": sima, "country": None})
    assert not [d for d in state["pending"] if d["kind"] in ("offer", "request")] and state["offers"] == []


def test_a_second_wound_roll_cannot_be_fixed_to_stay():
    state = game()
    dian = id_of(state, "典韦")
    state, _ = override(state, effects=[{"wound": dian}], rolls=[{"roll": "伤判", "id": dian, "outcome": "stays"}])
    slot(state, dian)["wound"]["roll"] = 2  # its second 伤判 (ruling 35): heal or die only
    state, events = until(state, "day_vote", 1)
    (roll,) = [e for e in events if e["type"] == "roll" and e["kind"] == "伤判"]
    assert roll["outcome"] in ("healed", "died") and not roll["fixed_by_gm"] and len(state["fixed_rolls"]) == 1
