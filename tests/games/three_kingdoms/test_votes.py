"""Votes (rulings 31–34, 53): secret ballots until vote 3, 跟票/散票, the one group call, the ≥ 3
threshold in votes 1–3, public ballots later (群英荟萃局 from vote 1), 女眷, and the damage."""
import pytest

from game.games.three_kingdoms.engine import IllegalCommand, apply, project, view
from game.games.three_kingdoms.engine.state import slot, slot_of

from .helpers import act, close, game, id_of, until

WEI = ["曹操", "荀彧", "郭嘉", "夏侯惇", "张辽", "典韦", "甄姬"]


def at_vote(night, mode="standard", **kwargs):
    state = game(mode=mode, **kwargs)
    state, _ = until(state, "day_vote", night)
    return state


def call(state, country, target):
    state["calls"][country].append(target)
    return state


def outcome(state):
    state, events = close(state)
    return state, next(e for e in events if e["type"] == "vote_outcome")


def test_votes_1_to_3_follow_a_call_or_scatter():
    state = at_vote(1)
    target = id_of(state, "刘备")
    with pytest.raises(IllegalCommand) as error:
        act(state, "典韦", "vote", target=target)
    assert error.value.code == "follow_required"
    with pytest.raises(IllegalCommand) as error:
        act(state, "典韦", "vote", target=target, follow="call")
    assert error.value.code == "no_call"
    with pytest.raises(IllegalCommand) as error:
        act(state, "典韦", "vote", target=target, follow="group")
    assert error.value.code == "no_group", "典韦 knows no one yet"
    act(state, "典韦", "vote", scatter=True)


def test_three_valid_votes_are_needed_in_votes_1_to_3():
    state = call(at_vote(1), "魏", None)
    target = id_of(state, "刘备")
    state["calls"]["魏"] = [target]
    two = state
    for name in WEI[:2]:
        two, _ = act(two, name, "vote", target=target, follow="call")
    two, seen = outcome(two)
    assert seen["id"] is None and slot_of(two, "刘备")["status"] == "normal"
    three = state
    for name in WEI[:3]:
        three, _ = act(three, name, "vote", target=target, follow="call")
    three, seen = outcome(three)
    assert seen["id"] == target and slot(three, target)["status"] == "wounded"


def test_scattered_ballots_never_count():
    state = at_vote(1)
    target = id_of(state, "刘备")
    state["calls"]["魏"] = [target]
    for name in WEI[:2]:
        state, _ = act(state, name, "vote", target=target, follow="call")
    for name in WEI[2:6]:
        state, _ = act(state, name, "vote", scatter=True)
    state, seen = outcome(state)
    assert seen["id"] is None


def test_only_the_first_group_to_follow_sets_the_countrys_group_call():
    state = at_vote(1)
    a, b = id_of(state, "刘备"), id_of(state, "孙坚")
    state["calls"]["魏"] = []
    # The killers are one group; make 曹操 and 荀彧 a second one.
    state["recognition"] += [[id_of(state, "曹操"), id_of(state, "荀彧")], [id_of(state, "荀彧"), id_of(state, "曹操")]]
    state, _ = act(state, "夏侯惇", "vote", target=a, follow="group")
    state, _ = act(state, "张辽", "vote", target=a, follow="group")
    state, _ = act(state, "曹操", "vote", target=b, follow="group")
    state, _ = act(state, "荀彧", "vote", target=b, follow="group")
    state, _ = close(state)
    log = state["ballot_log"]["1"]
    assert [b_["valid"] for b_ in log] == [True, True, False, False]


def test_a_tie_at_the_top_harms_no_one():
    state = at_vote(4)
    a, b = id_of(state, "刘备"), id_of(state, "孙坚")
    for name, target in zip(WEI[:4], (a, a, b, b)):
        state, _ = act(state, name, "vote", target=target)
    state, seen = outcome(state)
    assert seen["id"] is None and seen["outcome"] == "无人受伤"


def test_from_vote_4_one_vote_is_enough_and_ballots_are_public_at_once():
    state = at_vote(4)
    target = id_of(state, "刘备")
    state, events = act(state, "典韦", "vote", target=target)
    assert [e["type"] for e in project(events, "spectator")] == ["ballot"]
    state, seen = outcome(state)
    assert seen["id"] == target


def test_ballots_1_to_3_stay_secret_until_vote_3_then_everyone_gets_them():
    state = at_vote(1)
    target = id_of(state, "刘备")
    state["calls"]["魏"] = [target]
    state, events = act(state, "典韦", "vote", target=target, follow="call")
    assert project(events, "spectator") == [] and project(events, 1) == []
    state, _ = close(state)
    assert view(state, "spectator")["ballots"] == {} and view(state, 1)["ballots"] == {}
    state, events = until(state, "night_action", 4)
    public = view(state, "spectator")["ballots"]
    assert public["1"] == [{"voter": id_of(state, "典韦"), "target": target}]
    assert sorted(public) == ["1", "2", "3"]


def test_crowd_votes_are_public_from_vote_1_without_calls():
    state = at_vote(1, mode="crowd")
    target = id_of(state, "刘备")
    state, events = act(state, "典韦", "vote", target=target)
    assert project(events, "spectator")[0]["type"] == "ballot"


def test_crowd_mode_unjoined_zaiye_votes_are_invalid():
    state = at_vote(4, mode="crowd")
    target = id_of(state, "刘备")
    state, _ = act(state, "司马朗", "vote", target=target)
    state, seen = outcome(state)
    assert seen["id"] is None


def test_vote_damage_spares_a_nujuan_and_kills_when_the_country_has_no_monarch():
    state = at_vote(4)
    state, _ = act(state, "典韦", "vote", target=id_of(state, "糜夫人"))
    spared, seen = outcome(state)
    assert spared["vote_result"]["target"] == id_of(state, "糜夫人"), "she had the most votes"
    assert seen["outcome"] == "无人受伤" and slot_of(spared, "糜夫人")["status"] == "normal"
    state["countries"]["蜀"]["monarch_dead"] = True
    target = id_of(state, "张飞")
    state, _ = act(state, "典韦", "vote", target=target)
    state, seen = outcome(state)
    assert slot(state, target)["status"] == "left", "without a 君主 vote damage is death"


def test_the_wounded_do_not_vote():
    state = at_vote(4)
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"wound": id_of(state, "典韦")}]}})
    with pytest.raises(IllegalCommand) as error:
        act(state, "典韦", "vote", target=id_of(state, "刘备"))
    assert error.value.code == "wounded"


def test_crowd_mode_has_no_scattered_ballots():
    state = at_vote(1, mode="crowd")
    with pytest.raises(IllegalCommand) as error:
        act(state, "典韦", "vote", scatter=True)
    assert error.value.code == "public_vote"
