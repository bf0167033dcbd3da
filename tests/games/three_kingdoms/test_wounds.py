"""刺杀 on one's own country (ruling 22), the 伤判 odds (ruling 35), successors and 代理君主
(rulings 36–38, 51)."""
from collections import Counter

import pytest

from game.games.three_kingdoms.engine import IllegalCommand, apply
from game.games.three_kingdoms.engine.state import slot, slot_of
from game.games.three_kingdoms.engine.day.wounds import wound_rolls

from .helpers import act, close, game, id_of, until

DRAWS = 400


def test_assassinating_ones_own_monarch_has_no_effect():
    state = game()
    state, _ = act(state, "夏侯惇", "assassinate", target=id_of(state, "曹操"))
    state, _ = close(state)
    assert slot_of(state, "曹操")["status"] == "normal"


def test_assassinating_ones_own_country_kills_or_wounds_with_one_half_each():
    outcomes = Counter()
    for seed in range(120):
        state = game(seed=seed)
        state, _ = act(state, "夏侯惇", "assassinate", target=id_of(state, "典韦"))
        state, _ = close(state)
        s = slot_of(state, "典韦")
        outcomes["died" if s is None else s["status"]] += 1
    assert set(outcomes) == {"died", "wounded"}
    assert 40 <= outcomes["died"] <= 80, outcomes  # 1/2 of 120, well inside 4 standard deviations


def test_an_assassination_on_another_country_kills():
    state = game()
    state, _ = act(state, "夏侯惇", "assassinate", target=id_of(state, "刘备"))
    state, _ = close(state)
    assert slot_of(state, "刘备") is None


def _roll_all(seed, roll):
    state = game(seed=seed)
    for s in state["slots"]:
        s["status"], s["wound"] = "wounded", {"day": state["night"], "roll": roll}
    events = []
    wound_rolls(state, events)
    judged = next(e for e in events if e["type"] == "wound_judgement")
    return Counter(o["outcome"] for o in judged["outcomes"])


def test_the_first_wound_roll_heals_three_tenths_kills_three_tenths_and_keeps_four_tenths():
    total = Counter()
    for seed in range(DRAWS // 27 + 1):
        total += _roll_all(seed, 1)
    n = sum(total.values())
    assert abs(total["healed"] / n - 0.3) < 0.07 and abs(total["died"] / n - 0.3) < 0.07
    assert abs(total["stays"] / n - 0.4) < 0.07


def test_the_second_wound_roll_kills_or_heals_with_one_half():
    total = Counter()
    for seed in range(DRAWS // 27 + 1):
        total += _roll_all(seed, 2)
    n = sum(total.values())
    assert set(total) == {"healed", "died"} and abs(total["died"] / n - 0.5) < 0.08


def test_a_night_wound_is_judged_on_day_n_and_a_vote_wound_on_day_n_plus_1():
    state = game()
    state, _ = close(state)  # into the night's resolution
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"wound": id_of(state, "典韦")}]}})
    assert slot_of(state, "典韦")["wound"] == {"day": 1, "roll": 1}
    state, _ = until(state, "day_vote", 1)
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"wound": id_of(state, "孙坚")}]}})
    assert slot_of(state, "孙坚")["wound"] == {"day": 2, "roll": 1}


def test_wound_level_damage_on_the_wounded_kills():
    state = game()
    target = id_of(state, "典韦")
    for _ in range(2):
        state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"wound": target}]}})
    assert slot(state, target)["status"] == "left"


CHAINS = {"successors": {"荀彧": ["荀攸"], "曹操": ["刘晔"]},
          "characters": {"刘晔": {"identity": "军师"}}}


def test_a_successor_takes_over_the_same_id_for_the_same_human():
    state = game(setup=CHAINS)
    ident = id_of(state, "荀彧")
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"kill": ident}]}})
    s = slot(state, ident)
    assert s["chain"][s["holder"]] == "荀攸" and s["status"] == "normal" and s["controller"] == 0
    assert s["identity"] == "军师" and s["rank"] == "主", "identity defaults to the predecessor's, 主 passes with the ID"
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"kill": ident}]}})
    assert slot(state, ident)["status"] == "left"


def test_the_monarch_never_passes_and_its_death_asks_for_a_regent():
    state = game(setup={"successors": {"曹操": ["刘晔"]}})
    ident = id_of(state, "曹操")
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"kill": ident}]}})
    assert slot(state, ident)["identity"] != "君主" and state["countries"]["魏"]["monarch_dead"]
    state, _ = until(state, "night_feedback", 1)
    (regent,) = [d for d in state["pending"] if d["kind"] == "regent"]
    assert regent["for"] == 0
    with pytest.raises(IllegalCommand):
        apply(state, 0, {"answer": {"decision": regent["key"], "choice": "刘备"}})
    state, _ = apply(state, 0, {"answer": {"decision": regent["key"], "choice": "典韦"}})
    assert state["countries"]["魏"]["regent"] == id_of(state, "典韦")
    assert state["countries"]["魏"]["monarch_dead"], "a 代理君主 does not count as a 君主"


def test_when_the_zhu_junshi_leaves_the_fu_becomes_zhu():
    state = game()
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"kill": id_of(state, "荀彧")}]}})
    assert slot_of(state, "郭嘉")["rank"] == "主"


def test_a_natural_death_comes_at_its_night_and_is_not_announced():
    state = game(setup={"successors": {"徐庶": ["诸葛亮"]}})
    ident = id_of(state, "徐庶")
    state, events = until(state, "day_wound", 3)
    assert slot(state, ident)["chain"][slot(state, ident)["holder"]] == "诸葛亮"
    announcement = [e for e in events if e["type"] == "announcement"][-1]
    assert all(d["id"] != ident for d in announcement["deaths"])


GUARD = {"skills": [{"name": "铁壁", "owner": "刘备", "timing": "被动", "targets": 0, "text": ""},
                    {"name": "护主", "owner": "张飞", "timing": "结算时", "targets": 1, "text": ""}]}


def test_a_target_that_can_defend_waits_for_the_gm_who_lists_the_defences_in_the_rulings_order():
    state = game(setup=GUARD)
    liu = id_of(state, "刘备")
    state, _ = act(state, "夏侯惇", "assassinate", target=liu)
    state, _ = act(state, "张飞", "skill", skill="护主", targets=[liu])
    state, _ = apply(state, "server", {"at": state["deadline"], "close": {}})
    skill = next(d for d in state["pending"] if d["kind"] == "skill")
    state, _ = apply(state, "gm", {"resolve": {"decision": skill["key"], "effects": []}})
    (decision,) = [d for d in state["pending"] if d["kind"] == "defence"]
    assert [d["order"] for d in decision["about"]["defences"]] == ["他人主动", "本人被动"]
    assert decision["about"]["damage"][0]["level"] == "death"
    defended, _ = apply(state, "gm", {"resolve": {"decision": decision["key"], "defended": [0]}})
    defended, _ = close(defended)
    assert slot_of(defended, "刘备")["status"] == "normal"
    undefended, _ = apply(state, "gm", {"resolve": {"decision": decision["key"], "defended": []}})
    undefended, _ = close(undefended)
    assert slot_of(undefended, "刘备") is None


def test_a_wounded_character_outside_the_game_rolls_too():
    state = game()
    target = id_of(state, "典韦")
    state, _ = close(state)
    effects = [{"wound": target}, {"outside": target}]
    state, _ = apply(state, "gm", {"override": {"reason": "武侯八阵", "effects": effects}})
    state, events = until(state, "day_vote", 1)
    (judged,) = [e for e in events if e["type"] == "wound_judgement"]
    assert [o["id"] for o in judged["outcomes"]] == [target]


def test_only_a_revival_brings_a_left_id_back_and_never_after_a_natural_death_or_leaving():
    state = game()
    dian, xu, lv = id_of(state, "典韦"), id_of(state, "徐庶"), id_of(state, "吕蒙")
    effects = [{"kill": dian}, {"leave": lv}]
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": effects}})
    state, _ = until(state, "day_wound", 3)  # 徐庶's natural death on night 3
    state, _ = apply(state, "gm", {"override": {"reason": "起死回生", "effects": [
        {"revive": dian}, {"revive": xu}, {"revive": lv}]}})
    assert [slot(state, i)["status"] for i in (dian, xu, lv)] == ["normal", "left", "left"]


@pytest.mark.parametrize("luck, outcome", [("优", "healed"), ("劣", "died")])
def test_good_or_bad_luck_decides_the_wound_roll(luck, outcome):
    for seed in range(5):
        state = game(seed=seed)
        target = id_of(state, "典韦")
        state, _ = close(state)
        effects = [{"wound": target}, {"luck": [target, luck]}]
        state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": effects}})
        state, events = until(state, "day_vote", 1)
        (judged,) = [e for e in events if e["type"] == "wound_judgement"]
        assert judged["outcomes"] == [{"id": target, "outcome": outcome}]
