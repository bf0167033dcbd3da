"""The game master's side: 遗言 (R26), 残兵之首's drawn targets (R25), overrides and the log (R60,
R61), private channels (R6)."""
import pytest

from game.games.three_kingdoms.engine import IllegalCommand, apply, view
from game.games.three_kingdoms.engine.views.knowledge import channels, recognise

from .helpers import act, close, game, id_of, until


def died_tonight(state, name):
    state, _ = act(state, "关羽" if name != "关羽" else "夏侯惇", "assassinate", target=id_of(state, name))
    return until(state, "night_feedback", state["night"])


def test_last_words_name_one_id_at_most_and_the_gm_reviews_them():
    state = game()
    target = id_of(state, "典韦")
    state, _ = died_tonight(state, "典韦")
    (asked,) = [d for d in state["pending"] if d["kind"] == "last_words"]
    assert asked["for"] == 0 and "internal" not in view(state, 0)["pending"][0]
    with pytest.raises(IllegalCommand) as error:
        apply(state, 0, {"last_words": {"decision": asked["key"], "text": "票 12", "call": 3}})
    assert error.value.code == "second_id"
    state, _ = apply(state, 0, {"last_words": {"decision": asked["key"], "text": "跟我投", "call": 3,
                                               "country": "魏"}})
    (review,) = [d for d in state["pending"] if d["kind"] == "last_words_review"]
    assert review["for"] == "gm" and review["about"]["id"] == target
    state, _ = apply(state, "gm", {"resolve": {"decision": review["key"], "choice": "approve"}})
    state, events = close(state)
    (announcement,) = [e for e in events if e["type"] == "announcement"]
    assert announcement["last_words"] == [{"id": target, "country": "魏", "call": 3, "text": "跟我投"}]
    assert state["calls"]["魏"] == [3], "the 号票 counts for the writer's true country"


def test_a_rejected_last_word_is_not_announced_and_no_call_counts():
    state = game()
    state, _ = died_tonight(state, "典韦")
    (asked,) = [d for d in state["pending"] if d["kind"] == "last_words"]
    state, _ = apply(state, 0, {"last_words": {"decision": asked["key"], "text": "x", "call": 3}})
    (review,) = [d for d in state["pending"] if d["kind"] == "last_words_review"]
    state, _ = apply(state, "gm", {"resolve": {"decision": review["key"], "choice": "reject"}})
    state, events = close(state)
    assert [e for e in events if e["type"] == "announcement"][0]["last_words"] == []
    assert state["calls"]["魏"] == []


def test_no_last_words_after_night_6():
    state = game()
    state["night"] = 7
    state, _ = died_tonight(state, "典韦")
    assert not [d for d in state["pending"] if d["kind"] == "last_words"]


def test_zhao_yuns_first_nights_targets_are_drawn_and_told_to_him_after_vote_3():
    state = game(mode="solo", setup={"natural_deaths": {}})
    state, _ = act(state, "赵云", "skill", skill="残兵之首", targets=[id_of(state, "赵云")])
    state, _ = close(state)
    drawn = state["zhao_yun_targets"]
    assert len(drawn) == 1 and drawn[0]["id"] != id_of(state, "赵云")
    state, events = until(state, "night_action", 4)
    told = [e for e in events if e["type"] == "zhao_yun_targets"]
    assert told and told[0]["to"] == [3] and told[0]["targets"] == drawn


def test_an_override_needs_a_reason_and_is_logged_with_before_and_after():
    state = game()
    with pytest.raises(IllegalCommand) as error:
        apply(state, "gm", {"override": {"reason": " ", "effects": [{"wound": 1}]}})
    assert error.value.code == "reason_required"
    state, _ = apply(state, "gm", {"override": {"reason": "misclick", "effects": [{"wound": 1}]}})
    entry = state["log"][-1]
    assert entry["reason"] == "misclick" and entry["changed"][0]["after"]["status"] == "wounded"
    assert "log" not in view(state, 0) and view(state, "gm")["internal"]["log"]


def test_channels_join_the_humans_of_a_mutual_group():
    state = game(mode="nine")
    killers = [c for c in channels(state)]
    assert killers == [], "each country's killers share one seat in 王侯将相局"
    events = []
    recognise(state, events, id_of(state, "曹操"), id_of(state, "郭嘉"), mutual=True)
    assert {"ids": sorted([id_of(state, "曹操"), id_of(state, "郭嘉")]), "seats": [3, 5]} in channels(state)
    assert {"seats": [3, 5]} in view(state, 3)["channels"] and {"seats": [3, 5]} not in view(state, 4)["channels"]


def test_zhao_yuns_seat_shares_a_shu_channel_once_he_mutually_recognises_a_shu_id():
    state = game(mode="solo")
    assert not [c for c in view(state, 3)["channels"] if "seats" in c]
    events = []
    recognise(state, events, id_of(state, "赵云"), id_of(state, "刘备"), mutual=True)
    assert {"seats": [1, 3]} in view(state, 3)["channels"]


@pytest.mark.parametrize("inside", [True, False])
def test_the_gm_may_draw_zhao_yuns_targets_inside_or_outside_a_countrys_calls(inside):
    for seed in range(6):
        state = game(mode="solo", seed=seed)
        calls = [id_of(state, "曹操"), id_of(state, "荀彧")]
        state["calls"]["魏"] = list(calls)
        state, _ = apply(state, "gm", {"zhao_yun_pool": {"country": "魏", "inside": inside}})
        state, _ = act(state, "赵云", "skill", skill="残兵之首", targets=[id_of(state, "赵云")])
        state, _ = close(state)
        assert (state["zhao_yun_targets"][0]["id"] in calls) == inside


def test_the_winners_are_the_humans_of_the_winning_country():
    state = game(mode="nine")
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [
        {"kill": id_of(state, n)} for n in ("孙坚", "张昭", "吕蒙", "太史慈", "刘备", "徐庶", "庞统", "关羽")]}})
    assert state["winner"] == "魏" and view(state, 0)["winning_seats"] == [3, 4, 5]
