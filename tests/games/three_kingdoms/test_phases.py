"""Phase order and deadlines (rulings 12–18, 56): the server closes a phase at its deadline, not
before, and not while the game master has decisions to make."""
import pytest

from game.games.three_kingdoms.engine import IllegalCommand, apply, new_match
from game.games.three_kingdoms.engine.state import PHASES

from .helpers import act, close, game, id_of, until

ORDER = ["night_action", "night_resolution", "night_feedback", "day_wound", "day_vote", "day_feedback"]


def test_it_runs_the_six_phases_in_the_rulings_order_from_night_1():
    state = game()
    opened = [("night_action", 1)]
    for _ in range(12):
        state, events = close(state)
        opened += [(e["phase"], e["night"]) for e in events if e["type"] == "phase"]
    assert opened[:13] == [(p, 1) for p in ORDER] + [(p, 2) for p in ORDER] + [("night_action", 3)]
    assert list(PHASES) == ORDER


def test_each_phase_ends_at_the_clock_plus_its_gm_set_duration():
    state = new_match(1)
    state, _ = apply(state, "gm", {"setup": {"durations": {"night_action": 500, "night_resolution": 70}}})
    state, _ = apply(state, "gm", {"at": 1000, "lock": {}})
    assert state["deadline"] == 1500
    state, _ = apply(state, "server", {"at": 1600, "close": {}})
    assert state["phase"] == "night_resolution" and state["deadline"] == 1670


def test_the_server_cannot_close_a_phase_before_its_deadline():
    state = game()
    with pytest.raises(IllegalCommand) as refused:
        apply(state, "server", {"at": state["deadline"] - 1, "close": {}})
    assert refused.value.code == "before_deadline"


def test_the_gm_may_close_early_only_with_a_reason():
    state = game()
    with pytest.raises(IllegalCommand) as refused:
        apply(state, "gm", {"at": 5, "advance": {}})
    assert refused.value.code == "reason_required"
    state, _ = apply(state, "gm", {"at": 5, "advance": {"reason": "everyone has submitted"}})
    assert state["phase"] == "night_resolution"
    assert state["log"][-1]["kind"] == "advance" and state["log"][-1]["reason"] == "everyone has submitted"


def test_a_pending_gm_decision_holds_the_close():
    setup = {"skills": [{"name": "火计", "owner": "郭嘉", "timing": "全局", "targets": 1, "text": ""}]}
    state = game(setup=setup)
    target = state["slots"][0]["id"]
    state, _ = act(state, "郭嘉", "skill", skill="火计", targets=[target])
    state, _ = apply(state, "server", {"at": state["deadline"], "close": {}})
    assert [d["kind"] for d in state["pending"]] == ["skill"]
    with pytest.raises(IllegalCommand) as refused:
        apply(state, "server", {"at": state["deadline"] + 10**6, "close": {}})
    assert refused.value.code == "awaiting_gm"


def test_nothing_but_setup_before_the_lock_and_no_setup_after_it():
    state = new_match(1)
    with pytest.raises(IllegalCommand) as refused:
        apply(state, 0, {"assassinate": {"actor": "夏侯惇", "target": 1}})
    assert refused.value.code == "setup"
    locked = game()
    with pytest.raises(IllegalCommand) as refused:
        apply(locked, "gm", {"setup": {"durations": {"day_vote": 5}}})
    assert refused.value.code == "locked"


def test_missing_submissions_are_none_and_the_game_goes_on():
    state = game()
    state, _ = until(state, "night_action", 2)
    assert state["night"] == 2 and all(s["status"] == "normal" for s in state["slots"])


def test_the_gm_changes_durations_during_play_by_a_logged_override():
    state = game()
    state, _ = apply(state, "gm", {"override": {"reason": "slow night", "durations": {"night_resolution": 60}}})
    assert state["log"][-1]["durations"] == {"night_resolution": 60}
    state, _ = apply(state, "server", {"at": state["deadline"], "close": {}})
    assert state["deadline"] == state["clock"] + 60
    with pytest.raises(IllegalCommand):
        apply(state, "gm", {"override": {"reason": "x", "durations": {"night_resolution": 0}}})


def test_the_night_announcement_names_dead_and_wounded_ids_alliances_and_gm_texts_but_no_reason():
    state = game(setup={"successors": {"典韦": ["荀攸"]}})
    dian, liu = id_of(state, "典韦"), id_of(state, "刘备")
    state, _ = act(state, "关羽", "assassinate", target=dian)
    state, _ = act(state, "太史慈", "assassinate", target=liu)
    state, _ = close(state)
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"wound": id_of(state, "孙坚")}]}})
    state, _ = apply(state, "gm", {"alliance": {"countries": ["魏", "蜀"]}})
    state, _ = apply(state, "gm", {"announce": {"text": "赤壁火起"}})
    state, events = until(state, "day_wound", 1)
    (announcement,) = [e for e in events if e["type"] == "announcement"]
    assert announcement["to"] == "public"
    assert announcement["deaths"] == [{"id": dian, "left": False}, {"id": liu, "left": True}]
    assert announcement["wounded"] == [id_of(state, "孙坚")]
    assert announcement["alliances"] == [["蜀", "魏"]] and "赤壁火起" in announcement["texts"]
    assert "name" not in str(announcement) and "关羽" not in str(announcement)


def test_a_day_heal_resolved_by_the_gm_comes_before_the_wound_roll():
    setup = {"skills": [{"name": "青囊", "owner": "典韦", "timing": "白天受伤判定", "targets": 1, "text": "",
                         "effects": [{"heal": "target"}]}]}
    state = game(setup=setup)
    state, _ = close(state)
    target = id_of(state, "孙坚")
    state, _ = apply(state, "gm", {"override": {"reason": "t", "effects": [{"wound": target}]}})
    state, _ = until(state, "day_wound", 1)
    state, _ = act(state, "典韦", "skill", skill="青囊", targets=[target])
    state, events = close(state)
    assert [e for e in events if e["type"] == "wound_judgement"][0]["outcomes"] == []
    assert state["slots"][target - 1]["status"] == "normal"
