"""What each seat knows (rulings 8–11, 21, 57, 2): only the killers' mutual recognition at the start,
identification results by the nights' rules, pooling within a country, the reveal after vote 3."""
import pytest

from game.games.three_kingdoms.engine import view
from game.games.three_kingdoms.engine.views.knowledge import recognise
from game.games.three_kingdoms.engine.state import seats

from .helpers import act, close, game, id_of, until

KILLERS = {"魏": ("夏侯惇", "张辽"), "蜀": ("关羽", "张飞"), "吴": ("太史慈", "凌操")}


def shown_ids(state, audience):
    return {c["name"]: c["id"] for c in view(state, audience)["characters"] if c["id"] is not None}


@pytest.mark.parametrize("mode", ["standard", "solo", "nine", "crowd"])
def test_at_the_start_a_seat_knows_only_its_killers_mutual_recognition(mode):
    state = game(mode=mode, characters=33)
    for seat in seats(state):
        expected = {}
        for a, b in KILLERS.values():
            if state["slots"][id_of(state, a) - 1]["controller"] == seat:
                expected[b] = id_of(state, b)
            if state["slots"][id_of(state, b) - 1]["controller"] == seat:
                expected[a] = id_of(state, a)
        assert shown_ids(state, seat) == expected, seat
    assert shown_ids(state, "spectator") == {}
    assert len(shown_ids(state, "gm")) == 33


def test_identifications_in_nights_1_to_3_name_the_character_but_not_the_id():
    state = game()
    liu = id_of(state, "刘备")
    state, _ = act(state, "徐庶", "identify", index=0, targets=[liu, id_of(state, "孙坚")])
    state, _ = until(state, "night_feedback", 1)
    feedback = view(state, 1)["feedback"]
    assert [f["text"] for f in feedback] == ["指认到刘备"]
    assert "刘备" not in shown_ids(state, 1)


def test_from_night_4_an_identification_shows_a_is_x_and_the_seat_learns_the_id():
    state = game(setup={"natural_deaths": {}})
    state["night"] = 4  # before any reveal, to see what the identification alone gives
    liu = id_of(state, "刘备")
    state, _ = act(state, "徐庶", "identify", index=0, targets=[liu])
    state, _ = until(state, "night_feedback", 4)
    assert view(state, 1)["feedback"][-1]["text"] == f"ID {liu} 是刘备"
    assert state["known"]["1"][str(liu)] == ["刘备"]


def test_a_non_same_country_identification_hit_is_mutual():
    state = game(mode="crowd", characters=33)
    yuan = id_of(state, "袁方")
    state, _ = act(state, "甄姬", "identify", index=1, targets=[yuan])
    state, _ = until(state, "night_feedback", 1)
    zhen = id_of(state, "甄姬")
    assert shown_ids(state, state["slots"][zhen - 1]["controller"]) .get("袁方") == yuan
    assert shown_ids(state, state["slots"][yuan - 1]["controller"]) == {"甄姬": zhen}


def test_an_evaluation_identification_answers_yes_or_no():
    state = game(setup={"characters": {"关羽": {"evaluations": ["猛将", "义士"]}}})
    state, _ = act(state, "典韦", "identify", index=0, targets=[id_of(state, "关羽")])
    state, _ = until(state, "night_feedback", 1)
    assert view(state, 0)["feedback"][-1]["text"] == f"ID {id_of(state, '关羽')} 是猛将"


def test_mutual_groups_pool_what_they_know_of_their_country():
    """The text's example: A and B mutual, B knows C, C knows A → A and C mutual."""
    state = game(mode="crowd")
    a, b, c = id_of(state, "曹操"), id_of(state, "荀彧"), id_of(state, "郭嘉")
    events = []
    recognise(state, events, a, b, mutual=True)
    recognise(state, events, b, c)
    recognise(state, events, c, a)
    assert [a, c] in state["recognition"] and [c, a] in state["recognition"]
    assert shown_ids(state, state["slots"][a - 1]["controller"]) == {"荀彧": b, "郭嘉": c}


def test_after_vote_3_each_human_knows_its_country_but_zhao_yuns_id_stays_his_own():
    state = game(mode="solo", setup={"natural_deaths": {}})
    state, _ = until(state, "day_vote", 3)
    before = shown_ids(state, 1)
    state, _ = close(state)
    assert before != shown_ids(state, 1)
    shu = {n for n in ("刘备", "徐庶", "庞统", "关羽", "张飞", "糜夫人")}
    assert set(shown_ids(state, 1)) == shu
    assert set(shown_ids(state, 3)) == shu | {"赵云"}
    assert set(shown_ids(state, 0)) == {"曹操", "荀彧", "郭嘉", "夏侯惇", "张辽", "典韦", "甄姬"}
    assert shown_ids(state, "spectator") == {}


def test_zhao_yuns_seat_sees_ballots_1_to_3_right_after_each_vote():
    state = game(mode="solo")
    state, _ = until(state, "day_vote", 1)
    state, _ = act(state, "典韦", "vote", scatter=True)
    state, _ = close(state)
    assert view(state, 3)["ballots"]["1"] == [{"voter": id_of(state, "典韦"), "target": None}]
    assert view(state, 1)["ballots"] == {}


def test_a_same_country_hit_is_one_way_unless_the_data_makes_it_mutual():
    state = game(mode="crowd")
    state["night"] = 4
    zhen, cao, xun = id_of(state, "甄姬"), id_of(state, "曹操"), id_of(state, "荀彧")
    state, _ = act(state, "甄姬", "identify", index=0, targets=[cao, xun])
    state, _ = until(state, "night_feedback", 4)
    assert [zhen, cao] in state["recognition"] and [cao, zhen] in state["recognition"], "甄姬–曹操 is mutual"
    assert [zhen, xun] in state["recognition"] and [xun, zhen] not in state["recognition"]
