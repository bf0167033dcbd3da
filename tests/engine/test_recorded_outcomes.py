"""Records that carry their random outcomes and the official turn limit (an official replay's)."""
import json

import pytest

from game.games.aquawar import engine
from game.games.aquawar.engine.record import RecordError, make_record, parse_record, replay

from test_record import EXAMPLE, error_of, with_changes

# EXAMPLE rolls twice: the Mimic's attack on the Manta Ray (command 3), then the Sunfish's 50 on
# its own Sea Wolf (command 5).
ROLLS = [(3, (1, 3)), (5, (1, 2))]


def blocked(events):
    return [(e["side"], e["pos"]) for e in events if e["type"] == "avoid" and e["how"] == "dodge"]


@pytest.mark.parametrize("dodges", [[True, False], [False, True], [True, True], [False, False]])
def test_recorded_dodges_are_used_in_roll_order_instead_of_the_seed(dodges):
    state, events = replay(with_changes(dodges=dodges))
    assert blocked(events) == [fish for (_, fish), dodged in zip(ROLLS, dodges) if dodged]
    hit = [(e["side"], e["pos"]) for e in events if e["type"] == "damage"]
    assert hit == [fish for (_, fish), dodged in zip(ROLLS, dodges) if not dodged]
    assert state.dodges_left() == 0


def test_the_seed_no_longer_decides_a_dodge():
    outcomes = {json.dumps(replay(with_changes(seed=seed, dodges=[False, True]))[1]) for seed in range(6)}
    assert len(outcomes) == 1


def test_too_few_dodges_stop_at_the_command_that_rolled():
    error = error_of(with_changes(dodges=[True]))
    assert (error.code, error.command_index) == ("bad_dodges", 5)
    assert "ran out" in error.message


def test_a_dodge_left_over_is_refused():
    error = error_of(with_changes(dodges=[True, False, True]))
    assert (error.code, error.command_index) == ("bad_dodges", None)
    assert "1 recorded dodge outcome(s) left over" in error.message


@pytest.mark.parametrize("dodges", [[1, 0], "yes", [True, None], {"0": True}])
def test_malformed_dodges_are_refused(dodges):
    assert error_of(with_changes(dodges=dodges)).code == "bad_dodges"


def test_dodges_and_the_turn_limit_are_written_out_and_read_back_identically():
    built = make_record(7, EXAMPLE["commands"], first_mover=0, players=("alice", "bob"), dodges=[False, True], turn_limit=63)
    assert built["dodges"] == [False, True] and built["turn_limit"] == 63
    assert parse_record(built).to_json() == built
    assert parse_record(json.dumps(built)).dodges == (False, True)
    # The rules' own limit is the default and is not written.
    assert "turn_limit" not in make_record(7, [], turn_limit=64)


def test_a_state_keeps_the_outcomes_not_yet_used_through_its_json():
    record = parse_record(with_changes(dodges=[True, False]))
    state = record.start()
    for player, command in record.commands[:4]:
        state, _ = engine.apply(state, player, command)
    assert state.dodges_left() == 1 and state.to_json()["dodges"] == [False]
    restored = engine.MatchState.from_json(json.loads(json.dumps(state.to_json())))
    assert restored == state and restored.dodges_left() == 1
    restored, events = engine.apply(restored, *record.commands[4])
    restored, events = engine.apply(restored, *record.commands[5])
    assert not blocked(events) and restored.dodges_left() == 0


def test_an_ordinary_state_keeps_its_shape():
    data = engine.new_match(7).to_json()
    assert "dodges" not in data and "turn_limit" not in data
    assert engine.view(engine.new_match(7), "all")["max_turns"] == 64


def quiet_round(turns):
    """Picks, then ``turns`` turns in which each side's Manta Ray only buffs itself: no damage."""
    team = ["manta_ray", "octopus", "archerfish", "pufferfish"]
    commands = [{"player": 0, "pick": team}, {"player": 1, "pick": team}]
    for turn in range(turns):
        player = turn % 2
        commands += [{"player": player, "assert": None}, {"player": player, "act": {"actor": 0, "kind": "skill", "ally": 0}}]
    return commands


def test_the_official_turn_limit_ends_a_round_after_63_turns():
    state, events = replay(make_record(1, quiet_round(63), first_mover=0, turn_limit=63))
    ended = [e for e in events if e["type"] == "round_end"]
    assert ended == [{"type": "round_end", "round": 1, "winner": 1, "reason": "turn_limit", "turns": 63, "score": [0, 1]}]
    assert engine.view(state, "all")["max_turns"] == 63
    # Under the rules the same 63 turns leave the round going.
    state, events = replay(make_record(1, quiet_round(63), first_mover=0))
    assert not [e for e in events if e["type"] == "round_end"] and state.phase == "assert"


@pytest.mark.parametrize("limit", [62, 65, 0, True, "63", 63.0])
def test_no_other_turn_limit_is_accepted(limit):
    assert error_of(with_changes(turn_limit=limit)).code == "bad_turn_limit"
    with pytest.raises(engine.IllegalCommand):
        engine.new_match(1, turn_limit=limit)


def test_a_live_match_still_rolls_from_its_seed():
    state = engine.new_match(7)
    assert state.dodges is None and state.turn_limit == 64
    with pytest.raises(RecordError):
        replay(with_changes(dodges=[]))
