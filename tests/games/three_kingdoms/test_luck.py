"""The server's probability judgements and 优判/劣判 (rulings 30, 55): a 1/2 action or defence,
八卦阵 and other odds (``chance``), random picks for protection or harm (``pick``), the 1/2 of a
刺杀 on one's own country and 残兵之首's drawn target — each drawn with its odds, logged for the
GM alone, and decided by luck where the rules say so."""
from collections import Counter

import pytest

from game.games.three_kingdoms.engine import IllegalCommand, apply, project
from game.games.three_kingdoms.engine.state import slot_of

from .helpers import act, close, game, id_of, until

SEEDS = 120


def _luck(state, name, value):
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"luck": [id_of(state, name), value]}]}})
    return state


def _chance(state, **body):
    """An override whose one effect is a 1/2 judgement for 郭嘉: heal 张辽 if favourable, else wound him."""
    zhang = id_of(state, "张辽")
    judgement = {"for": id_of(state, "郭嘉"), "odds": [1, 2], "label": "八卦阵", "then": [{"announce": "破阵"}],
                 "else": [{"wound": zhang}], **body}
    return apply(state, "gm", {"override": {"reason": "t", "effects": [{"chance": judgement}]}})


@pytest.mark.parametrize("luck, favourable", [("优", True), ("劣", False)])
def test_luck_decides_a_judgement_for_its_owner_and_against_its_opponent(luck, favourable):
    for seed in range(8):
        state = _luck(game(seed=seed), "郭嘉", luck)
        after, events = _chance(state)
        assert (slot_of(after, "张辽")["status"] == "normal") == favourable
        opposed = _luck(game(seed=seed), "孙坚", luck)
        after, _ = _chance(opposed, against=id_of(opposed, "孙坚"))
        assert (slot_of(after, "张辽")["status"] == "normal") != favourable


def test_a_judgement_without_luck_is_drawn_with_its_odds_and_logged_for_the_gm_alone():
    outcomes = Counter()
    for seed in range(SEEDS):
        state, events = _chance(game(seed=seed), odds=[1, 4])
        outcomes[slot_of(state, "张辽")["status"]] += 1
        (roll,) = [e for e in events if e["type"] == "roll"]
        assert roll["to"] == "gm" and roll["kind"] == "八卦阵" and roll not in project(events, 0)
    assert 15 <= outcomes["normal"] <= 45, outcomes  # 1/4 of 120: 30, inside 3 standard deviations


def test_opposed_lucks_cancel_and_the_server_draws():
    outcomes = set()
    for seed in range(20):
        state = _luck(_luck(game(seed=seed), "郭嘉", "优"), "孙坚", "优")
        after, _ = _chance(state, against=id_of(state, "孙坚"))
        outcomes.add(slot_of(after, "张辽")["status"])
    assert outcomes == {"normal", "wounded"}


def _pick(state, good, names):
    among = [id_of(state, n) for n in names]
    body = {"among": among, "count": 1, "good": good, "then": [{"wound": "picked"}]}
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"pick": body}]}})
    return [n for n in names if slot_of(state, n)["status"] == "wounded"]


@pytest.mark.parametrize("good, luck, always", [(True, "优", True), (False, "优", False), (True, "劣", False),
                                                (False, "劣", True)])
def test_a_random_pick_takes_or_spares_the_lucky_one_as_the_rules_say(good, luck, always):
    names = ["曹操", "刘备", "孙坚"]
    for seed in range(10):
        picked = _pick(_luck(game(seed=seed), "刘备", luck), good, names)
        assert len(picked) == 1 and (picked == ["刘备"]) == always


def test_a_random_pick_without_luck_is_uniform():
    names = ["曹操", "刘备", "孙坚"]
    counts = Counter(_pick(game(seed=seed), False, names)[0] for seed in range(SEEDS))
    assert set(counts) == set(names) and all(20 <= c <= 60 for c in counts.values()), counts


@pytest.mark.parametrize("who, luck, outcome", [("夏侯惇", "优", "died"), ("夏侯惇", "劣", "wounded"),
                                                ("典韦", "优", "wounded"), ("典韦", "劣", "died")])
def test_luck_decides_the_one_half_of_an_assassination_on_ones_own_country(who, luck, outcome):
    for seed in range(8):
        state = _luck(game(seed=seed), who, luck)
        state, _ = act(state, "夏侯惇", "assassinate", target=id_of(state, "典韦"))
        state, _ = close(state)
        s = slot_of(state, "典韦")
        assert ("died" if s is None else s["status"]) == outcome


@pytest.mark.parametrize("luck, always", [("劣", True), ("优", False)])
def test_zhao_yuns_drawn_target_is_always_the_unlucky_and_never_the_lucky(luck, always):
    for seed in range(8):
        state = _luck(game(mode="solo", seed=seed, setup={"natural_deaths": {}}), "曹操", luck)
        cao = id_of(state, "曹操")
        state, _ = act(state, "赵云", "skill", skill="残兵之首", targets=[id_of(state, "赵云")])
        state, _ = close(state)
        assert (state["zhao_yun_targets"][0]["id"] == cao) == always


def test_a_skills_default_effects_may_hold_a_judgement_the_server_draws_when_applied():
    skill = {"name": "八卦阵", "owner": "郭嘉", "timing": "白天受伤判定", "targets": 1, "text": "",
             "effects": [{"chance": {"for": "target", "odds": [1, 2], "then": [{"heal": "target"}]}}]}
    state = _luck(game(setup={"skills": [skill]}), "张辽", "优")
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"wound": id_of(state, "张辽")}]}})
    state, _ = until(state, "day_wound", 1)
    state, _ = act(state, "郭嘉", "skill", skill="八卦阵", targets=[id_of(state, "张辽")])
    state, events = close(state)
    assert slot_of(state, "张辽")["status"] == "normal"
    assert [e for e in events if e["type"] == "roll" and e["kind"] == "判定"][0]["decided_by_luck"]


@pytest.mark.parametrize("effect", [
    {"chance": {"for": 1, "odds": [3, 2]}},
    {"chance": {"for": 1, "odds": [1, 0]}},
    {"chance": {"for": 99, "odds": [1, 2]}},
    {"pick": {"among": [1, 1], "count": 2, "good": True}},
    {"pick": {"among": [1, 2], "count": 3, "good": True}},
    {"pick": {"among": [1, 2], "good": "yes"}},
    {"chance": {"for": 1, "odds": [1, 2], "then": [{"chance": {"for": 1, "odds": [1, 2], "then": [
        {"chance": {"for": 1, "odds": [1, 2], "then": [{"chance": {"for": 1, "odds": [1, 2], "then": [
            {"chance": {"for": 1, "odds": [1, 2]}}]}}]}}]}}]}},
])
def test_a_malformed_judgement_is_refused_and_changes_nothing(effect):
    state = game()
    with pytest.raises(IllegalCommand) as refusal:
        apply(state, "gm", {"override": {"reason": "t", "effects": [effect]}})
    assert refusal.value.code == "bad_effect"
