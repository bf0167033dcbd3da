"""在野 joining (rulings 24, 47, 48, 52): seats per country 2/3/4, never freed; priority 联盟入国 >
君主招揽 > 主动投奔 then the earlier answer; joining at the next night's start as 平民."""
import pytest

from game.games.three_kingdoms.engine import IllegalCommand, apply
from game.games.three_kingdoms.engine.day import joining
from game.games.three_kingdoms.engine.state import holder, slot

from .helpers import act, close, game, id_of, until


def free_names(state):
    return [holder(s) for s in state["slots"] if s["country"] is None]


@pytest.mark.parametrize("characters,seats", [(27, 2), (30, 3), (33, 4)])
def test_a_country_takes_as_many_zaiye_as_it_has_seats(characters, seats):
    state = game(characters=characters)
    state, _ = apply(state, "gm", {"alliance": {"countries": ["蜀", "吴"]}})
    state, _ = until(state, "night_action", 2)
    joined = [s for s in state["slots"] if s["country"] == "魏" and s["identity"] == "平民"]
    assert len(joined) == seats
    assert all(s["controller"] == 0 for s in joined), "joined 平民 go to the country's human"
    state, _ = apply(state, "gm", {"alliance": {"countries": ["蜀", "吴"], "on": False}})
    state, _ = apply(state, "gm", {"alliance": {"countries": ["蜀", "吴"]}})
    state, _ = until(state, "night_action", 3)
    assert sum(1 for s in state["slots"] if s["country"] == "魏" and s["identity"] == "平民") == seats


def test_recruiting_makes_the_zaiye_a_pingmin_mutually_recognised_with_the_monarch():
    state = game()
    target = id_of(state, "司马朗")
    state, _ = act(state, "曹操", "identify", index=0, targets=[target], names=["司马朗"])
    state, _ = until(state, "night_action", 2)
    s = slot(state, target)
    assert (s["country"], s["identity"], s["controller"]) == ("魏", "平民", 0)
    monarch = id_of(state, "曹操")
    assert [target, monarch] in state["recognition"] and [monarch, target] in state["recognition"]
    assert state["known"]["0"][str(target)] == ["司马朗"]


def test_in_the_nine_seat_mode_a_pingmin_goes_to_the_monarchs_seat():
    state = game(mode="nine")
    target = id_of(state, "司马朗")
    state, _ = act(state, "孙坚", "identify", index=0, targets=[target], names=["司马朗"])
    state, _ = until(state, "night_action", 2)
    assert slot(state, target)["controller"] == 6


def test_asking_to_join_starts_on_night_2():
    state = game(mode="crowd")
    with pytest.raises(IllegalCommand) as error:
        act(state, "司马朗", "request", country="魏")
    assert error.value.code == "too_early"


def answer_all(state, kind, seat_names, choice="yes"):
    for decision in [d for d in state["pending"] if d["kind"] == kind]:
        if decision["about"]["character"] in seat_names:
            state, _ = apply(state, decision["for"], {"answer": {"decision": decision["key"], "choice": choice}})
    return state


def test_an_alliance_join_beats_earlier_requests_and_the_earlier_answer_wins_among_equals():
    state = game(mode="crowd")
    state, _ = until(state, "night_action", 2)
    first, second, third = free_names(state)[:3]
    state, _ = act(state, first, "request", country="魏")
    state, _ = act(state, second, "request", country="魏")
    state, _ = until(state, "night_feedback", 2)
    state = answer_all(state, "request", [first])
    state = answer_all(state, "request", [second])
    state, _ = apply(state, "gm", {"alliance": {"countries": ["蜀", "吴"]}})
    state = answer_all(state, "offer", [third])
    state, _ = until(state, "day_feedback", 2)
    assert [holder(slot(state, j["id"])) for j in state["joins"]] == [third, first]


def test_silence_is_no():
    state = game(mode="crowd")
    target = id_of(state, "司马朗")
    state, _ = act(state, "曹操", "identify", index=0, targets=[target], names=["司马朗"])
    state, _ = until(state, "night_action", 2)
    assert slot(state, target)["country"] is None


def test_without_junshi_a_request_is_refused():
    state = game(mode="crowd")
    effects = [{"kill": id_of(state, n)} for n in ("荀彧", "郭嘉")]
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": effects}})
    state, _ = until(state, "night_action", 2)
    with pytest.raises(IllegalCommand) as error:
        act(state, "司马朗", "request", country="魏")
    assert error.value.code == "no_advisor"


FIRE = {"skills": [{"name": "火计", "owner": "庞统", "timing": "结算时", "targets": 1, "text": "",
                    "effects": [{"wound": "target"}]}]}


@pytest.mark.parametrize("seed", range(4))
def test_a_bot_asks_to_join_the_country_that_hurt_it(seed):
    state = game(setup=FIRE, seed=seed)
    target = id_of(state, "司马朗")
    state, _ = act(state, "庞统", "skill", skill="火计", targets=[target])
    state, _ = close(state)
    assert slot(state, target)["status"] == "wounded"
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"heal": target}]}})
    state, _ = until(state, "night_action", 2)
    assert state["subs"][str(target)]["request"]["country"] == "蜀"


def test_most_damage_first_then_the_earliest():
    state = game()
    target = id_of(state, "司马朗")
    s = slot(state, target)
    state["hurt_by"][str(target)] = {"吴": [1, 1], "蜀": [2, 5]}
    assert joining._bot_country(state, s) == "蜀"
    state["hurt_by"][str(target)] = {"吴": [2, 1], "蜀": [2, 5]}
    assert joining._bot_country(state, s) == "吴"


def test_zhao_yuns_drawn_targets_of_the_first_nights_make_no_grudge():
    setup = {"skills": [{"name": "残兵之首", "owner": "赵云", "timing": "结算时", "targets": 1, "text": "",
                         "effects": [{"wound": "target"}]}]}
    state = game(setup=setup)
    target = id_of(state, "司马朗")
    state, _ = act(state, "赵云", "skill", skill="残兵之首", targets=[target])
    state["subs"][str(id_of(state, "赵云"))]["skill"]["drawn"] = True  # as if the server had drawn it
    state, _ = close(state)
    assert slot(state, target)["status"] == "wounded" and str(target) not in state["hurt_by"]


def test_a_bot_whose_passive_a_country_used_up_asks_to_join_it():
    setup = {"skills": [{"name": "金蝉", "owner": "司马朗", "timing": "被动", "targets": 0, "text": ""}]}
    state = game(setup=setup)
    target = id_of(state, "司马朗")
    state, _ = act(state, "关羽", "assassinate", target=target)
    state, _ = apply(state, "server", {"at": state["deadline"], "close": {}})
    (decision,) = [d for d in state["pending"] if d["kind"] == "defence"]
    state, _ = apply(state, "gm", {"resolve": {"decision": decision["key"], "defended": [0]}})
    state, _ = until(state, "night_action", 2)
    assert slot(state, target)["status"] == "normal"
    assert state["subs"][str(target)]["request"]["country"] == "蜀"


def test_without_junshi_an_alliance_join_is_unrecognised():
    state = game()
    effects = [{"kill": id_of(state, n)} for n in ("荀彧", "郭嘉")]
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": effects}})
    state, _ = apply(state, "gm", {"alliance": {"countries": ["蜀", "吴"]}})
    state, _ = until(state, "night_action", 2)
    joined = [s["id"] for s in state["slots"] if s["country"] == "魏" and s["identity"] == "平民"]
    assert len(joined) == 2
    assert not [p for p in state["recognition"] if p[0] in joined or p[1] in joined]
