"""Turn flow (rulings 5-11, 34-36): mana, cooldowns, garrisons, the turn limit and its tiebreaks,
surrender and resignation."""
import pytest

from game.games.miracle.engine import apply, new_match, options, resign, to_move

from .helpers import DECK_A, DECK_B, of_type, put, set_turn, start


def _end_turns(state, until):
    while state.turn < until:
        state, _ = apply(state, state.current, {"end_turn": {}})
    return state


@pytest.mark.parametrize("first_mover", [0, 1])
def test_max_mana_follows_the_rules_table_and_caps_at_twelve(first_mover):
    state = start(first_mover=first_mover)
    second = 1 - first_mover
    seen = {}
    while state.turn <= 44:
        seen[state.turn] = state.max_mana[state.current]
        assert state.mana[state.current] == state.max_mana[state.current]
        state, _ = apply(state, state.current, {"end_turn": {}})
    assert [seen[t] for t in range(1, 9)] == [2, 2, 2, 3, 3, 3, 3, 4]
    assert seen[39] == 11 and seen[41] == 12 and seen[43] == 12  # first mover: 12 at turn 41
    assert seen[38] == 11 and seen[40] == 12 and seen[44] == 12  # second: 12 at turn 40
    assert state.max_mana[first_mover] == state.max_mana[second] == 12


def test_unspent_mana_is_lost_and_the_current_player_alone_has_mana_to_spend():
    state = start()
    state, events = apply(state, 0, {"end_turn": {}})
    assert of_type(events, "turn_start") == [{"type": "turn_start", "turn": 2, "player": 1, "max_mana": 2, "mana": 2}]
    state = _end_turns(state, 5)
    assert state.mana[0] == 3


def test_a_dead_creatures_unit_is_ready_at_its_owners_cooldown_th_turn_start():
    state = set_turn(start(), 42)
    victim = put(state, 0, "swordsman", 3, (-4, 4, 0), hp=1, can_act=False)  # cooldown 3
    killer = put(state, 1, "frost_dragon", 1, (-3, 4, -1))
    state.pools[0]["swordsman"].on_board = 6  # all six units in play, so only the victim's can return
    state, _ = apply(state, 1, {"attack": {"unit": killer, "target": victim}})
    assert state.pools[0]["swordsman"].cooling == [3]
    for turn in (43, 45):
        state = _end_turns(state, turn)
        assert state.pools[0]["swordsman"].available == 0
        assert not any(s["type"] == "swordsman" for s in options(state, 0)["summons"])
    state, events = apply(_end_turns(state, 46), 1, {"end_turn": {}})
    assert {"type": "ready", "player": 0, "creature": "swordsman", "count": 1} in events
    assert state.pools[0]["swordsman"].available == 1


def test_a_ground_creature_on_a_garrison_captures_it_at_any_turn_start_and_keeps_it():
    state = set_turn(start(), 41)
    sword = put(state, 0, "swordsman", 1, (0, 4, -4))
    state, _ = apply(state, 0, {"move": {"unit": sword, "to": [0, 5, -5]}})
    assert state.garrisons == [None, None, None, None]
    state, events = apply(state, 0, {"end_turn": {}})  # the opponent's turn start captures too
    assert {"type": "capture", "garrison": 3, "player": 0, "unit": sword} in events
    assert state.garrisons[3] == 0
    set_turn(state, 43)
    state, _ = apply(state, 0, {"move": {"unit": sword, "to": [-2, 4, -2]}})
    state = _end_turns(state, 45)
    assert state.garrisons[3] == 0  # ownership stays after leaving
    spawns = {tuple(c) for s in options(state, 0)["summons"] for c in s["cells"]}
    assert {(0, 4, -4), (1, 4, -5), (1, 5, -6)} <= spawns


def test_a_flyer_never_captures_a_garrison():
    state = set_turn(start(DECK_B, DECK_A), 41)
    put(state, 0, "black_bat", 1, (0, 5, -5))
    state = _end_turns(state, 43)
    assert state.garrisons == [None, None, None, None]


def test_the_match_ends_after_turn_100_on_more_miracle_hp():
    state = _end_turns(start(), 100)
    state.miracle_hp = [12, 13]
    state, events = apply(state, 1, {"end_turn": {}})
    assert (state.phase, state.winner, state.end_reason, state.tiebreak) == ("over", 1, "turn_limit", "miracle_hp")
    assert events[-2]["type"] == "turn_end" and events[-1]["type"] == "match_end"
    assert to_move(state) == []


def test_the_turn_limit_tiebreak_then_counts_lost_stars_then_favours_the_second_player():
    state = _end_turns(start(), 100)
    state.lost_stars = [5, 4]
    over, _ = apply(state, 1, {"end_turn": {}})
    assert (over.winner, over.tiebreak) == (1, "lost_stars")
    state.lost_stars = [3, 4]
    over, _ = apply(state, 1, {"end_turn": {}})
    assert (over.winner, over.tiebreak) == (0, "lost_stars")
    state.lost_stars = [4, 4]
    over, _ = apply(state, 1, {"end_turn": {}})
    assert (over.winner, over.tiebreak) == (1, "second_player")
    first_one = _end_turns(start(first_mover=1), 100)
    over, _ = apply(first_one, 0, {"end_turn": {}})
    assert (over.winner, over.tiebreak) == (0, "second_player")


def test_a_miracle_destroyed_mid_turn_ends_the_match_at_once():
    state = set_turn(start(), 41)
    a = put(state, 0, "swordsman", 3, (6, -6, 0))
    b = put(state, 0, "swordsman", 3, (7, -6, -1))
    state.miracle_hp[1] = 7
    state, events = apply(state, 0, {"attack": {"unit": a, "target": "miracle"}})
    assert state.phase == "play" and state.miracle_hp[1] == 1
    state, events = apply(state, 0, {"attack": {"unit": b, "target": "miracle"}})
    assert (state.winner, state.end_reason, state.miracle_hp[1]) == (0, "miracle_destroyed", -5)
    assert not of_type(events, "turn_end")


def test_surrender_is_accepted_at_any_time_from_either_player():
    state = new_match(4, first_mover=0)
    over, events = apply(state, 1, {"surrender": {}})
    assert (over.winner, over.end_reason) == (0, "resign") and events[-1]["type"] == "match_end"
    state = start()
    over, _ = apply(state, 1, {"surrender": {}})  # in the opponent's turn
    assert over.winner == 0


@pytest.mark.parametrize("reason", ["resign", "timeout", "illegal", "abandon"])
def test_resign_ends_the_match_with_its_reason(reason):
    state = start()
    over, events = resign(state, 0, reason)
    assert (over.winner, over.end_reason) == (1, reason) and state.phase == "play"
    assert events == [{"type": "match_end", "winner": 1, "reason": reason, "tiebreak": None,
                       "miracle_hp": [30, 30], "lost_stars": [0, 0]}]


def test_the_first_mover_comes_from_the_seed_and_to_move_follows_the_phase():
    movers = {new_match(seed).first_mover for seed in range(20)}
    assert movers == {0, 1}
    assert new_match(7).first_mover == new_match(7).first_mover
    state = new_match(7)
    assert to_move(state) == [0, 1]
    state, _ = apply(state, 1, {"deck": DECK_A})
    assert to_move(state) == [0]
    state, _ = apply(state, 0, {"deck": DECK_B})
    assert to_move(state) == [state.first_mover] and state.turn == 1
