"""One test per ruling that settles a fault of the rules text (rulings 42–47) or fills a gap in it
(ruling 56); each fails when the engine departs from that ruling."""
import pytest

from game.games.three_kingdoms.engine import IllegalCommand, apply, new_match, view
from game.games.three_kingdoms.engine.state import holder, slot, slot_of

from .helpers import act, close, game, id_of, until


@pytest.mark.parametrize("characters", [27, 30, 33])
def test_r42_the_crowd_mode_body_kept_once_gives_one_human_per_character(characters):
    """R42: the repeated half of the text is dropped; the 群英荟萃局 body it keeps reads "游戏玩家为
    27/30/33人,每人控制一个角色": one seat per character, 在野 included."""
    state = game(mode="crowd", characters=characters)
    assert len(state["seat_names"]) == characters
    assert sorted(s["controller"] for s in state["slots"]) == list(range(characters))


def test_r43_liao_di_xian_ji_is_the_one_skill_liao_di_ji_xian():
    """R43: "料敌先机" is "料敌机先": data and commands in either spelling are one skill, whose
    revision window is an hour."""
    skill = {"name": "料敌先机", "owner": "吕蒙", "timing": "预结算前", "targets": 1, "text": ""}
    state = game(setup={"skills": [skill]})
    assert [k["name"] for k in state["data"]["skills"]] == ["料敌机先"]
    state, _ = act(state, "吕蒙", "skill", skill="料敌先机", targets=[id_of(state, "刘备")])
    state, _ = apply(state, "server", {"at": state["deadline"], "close": {}})
    (decision,) = state["pending"]
    state, _ = apply(state, "gm", {"at": state["clock"], "resolve": {"decision": decision["key"], "effects": []}})
    assert state["revision"]["until"] == state["clock"] + 3600
    with pytest.raises(IllegalCommand) as refusal:
        apply(new_match(1), "gm", {"setup": {"skills": [skill, dict(skill, name="料敌机先")]}})
    assert refusal.value.code == "bad_setup", "the two spellings are one skill, given twice"


def test_r44_leaving_by_a_skill_is_a_death_with_a_successor_and_no_revival():
    """R44: a skill's "脱离游戏" is a death: the successor takes over; it can never be revived."""
    state = game(setup={"successors": {"徐庶": ["诸葛亮"]}})
    xu = id_of(state, "徐庶")
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"leave": xu}]}})
    assert holder(slot(state, xu)) == "诸葛亮" and "徐庶" in state["unrevivable"]


def test_r44_a_destroyed_countrys_ids_all_leave_without_successors():
    """R44: "该国角色全部脱离游戏" (灭国): every ID leaves for good, no successor takes over."""
    state = game(setup={"successors": {"张昭": ["周瑜"]}})
    zhang = id_of(state, "张昭")
    effects = [{"kill": id_of(state, n)} for n in ("吕蒙", "太史慈", "凌操", "黄盖")]
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": effects}})
    assert state["countries"]["吴"]["destroyed"]
    assert slot(state, zhang)["status"] == "left" and holder(slot(state, zhang)) == "张昭"


def test_r44_outside_the_game_is_temporary_and_an_ids_leaving_is_permanent():
    """R44: 游戏外 is a temporary exit (back in play later); an ID that has left stays out."""
    state = game()
    guo = id_of(state, "郭嘉")
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"outside": guo}, {"back": guo}]}})
    assert slot(state, guo)["status"] == "normal"
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"kill": guo}, {"back": guo},
                                                                          {"outside": guo}]}})
    assert slot(state, guo)["status"] == "left"


def test_r45_the_first_three_nights_votes_are_votes_1_to_3():
    """R45: "前三夜某个角色的票数" and "赵云前三夜可以得知投票情况" mean votes 1–3: vote 3 still needs
    3 votes and is told to 赵云's seat alone; vote 4 needs one and is public to all."""
    state = game(mode="solo")
    liu = id_of(state, "刘备")
    state, _ = until(state, "day_vote", 3)
    state["calls"]["魏"].append(liu)
    state, _ = act(state, "典韦", "vote", target=liu, follow="call")
    state, events = close(state)
    told = [(e["to"], e["vote"]) for e in events if e["type"] == "ballots" and e["to"] != "public"]
    assert told == [([3], 3)], "赵云's seat is told vote 3 before the reveal makes votes 1–3 public"
    assert next(e for e in events if e["type"] == "vote_outcome")["id"] is None, "1 vote of the 3 needed"
    state, _ = until(state, "day_vote", 4)
    state, _ = act(state, "典韦", "vote", target=liu)
    assert view(state, 1)["ballots"]["4"], "vote 4 is public at once"
    state, events = close(state)
    assert not [e for e in events if e["type"] == "ballots"]
    assert next(e for e in events if e["type"] == "vote_outcome")["id"] == liu


@pytest.mark.parametrize("night, asked", [(6, True), (7, False)])
def test_r46_no_last_words_from_night_7_on(night, asked):
    """R46: "第七夜及之后…不再拥有遗言" wins: a night-6 death may leave 遗言, a night-7 one may not."""
    state = game()
    state, _ = until(state, "night_action", night)
    state, _ = act(state, "关羽", "assassinate", target=id_of(state, "典韦"))
    state, _ = until(state, "night_feedback", night)
    assert bool([d for d in state["pending"] if d["kind"] == "last_words"]) == asked


def test_r47_an_alliance_join_is_lian_meng_ru_guo_and_outranks_a_request():
    """R47: "同盟投奔" is 联盟入国 and "自主投奔" is 主动投奔: an 在野 who accepted both joins by the
    alliance, whatever the order of the answers."""
    state = game(mode="crowd")
    state, _ = until(state, "night_action", 2)
    sima = id_of(state, "司马朗")
    state, _ = act(state, "司马朗", "request", country="魏")
    state, _ = until(state, "night_feedback", 2)
    (request,) = [d for d in state["pending"] if d["kind"] == "request"]
    state, _ = apply(state, request["for"], {"answer": {"decision": request["key"], "choice": "yes"}})
    state, _ = apply(state, "gm", {"alliance": {"countries": ["魏", "蜀"]}})
    (offer,) = [d for d in state["pending"] if d["kind"] == "offer" and d["for"] == slot(state, sima)["controller"]]
    assert offer["about"]["via"] == "联盟"
    state, _ = apply(state, offer["for"], {"answer": {"decision": offer["key"], "choice": "yes"}})
    state, _ = until(state, "night_action", 3)
    assert slot(state, sima)["country"] == "吴"


def test_r56_the_action_phase_has_a_deadline_and_the_day_feedback_is_a_phase_of_its_own():
    """R56: the text sets no deadline for 夜晚行动 and no section for 白天反馈公告: both are phases
    with GM-set durations, closed by the server only at their deadline."""
    state = game(setup={"durations": {"night_action": 700, "day_feedback": 90}})
    assert state["phase"] == "night_action" and state["deadline"] == 700
    state, _ = until(state, "day_feedback", 1)
    assert state["deadline"] == state["clock"] + 90
    with pytest.raises(IllegalCommand) as refusal:
        apply(state, "server", {"at": state["deadline"] - 1, "close": {}})
    assert refusal.value.code == "before_deadline"
    state, _ = apply(state, "server", {"at": state["deadline"], "close": {}})
    assert (state["phase"], state["night"]) == ("night_action", 2)
    assert slot_of(state, "曹操") is not None
