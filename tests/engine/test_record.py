"""Match records (aquawar-record/1): parsing, replay, building, random play."""
import json
import random

import pytest

from game.games.aquawar import engine
from game.games.aquawar.engine.randomplay import play_random_match, players_to_move, random_command
from game.games.aquawar.engine.record import FORMAT, Record, RecordError, make_record, parse_record, replay

# The example of docs/record-format.md, first turn included.
EXAMPLE = {
    "format": "aquawar-record/1",
    "seed": 7,
    "first_mover": 0,
    "players": ["alice", "bob"],
    "commands": [
        {"player": 0, "pick": ["archerfish", "mimic_fish", "octopus", "sea_turtle"], "mimic": "electric_eel"},
        {"player": 1, "pick": ["sunfish", "clownfish", "sea_wolf", "manta_ray"]},
        {"player": 0, "assert": {"target": 2, "fish": "sea_wolf"}},
        {"player": 0, "act": {"actor": 1, "kind": "attack", "enemy": 3}},
        {"player": 1, "assert": None},
        {"player": 1, "act": {"actor": 0, "kind": "skill", "ally": 2}},
    ],
}


def with_changes(**changes):
    record = json.loads(json.dumps(EXAMPLE))
    record.update(changes)
    return record


def with_command(index, command):
    record = with_changes()
    record["commands"][index] = command
    return record


def error_of(source) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(source)
    return info.value


def test_example_parses_and_replays():
    record = parse_record(EXAMPLE)
    assert record.seed == 7 and record.first_mover == 0 and record.players == ("alice", "bob")
    assert record.commands[2] == (0, {"assert": {"target": 2, "fish": "sea_wolf"}})
    state, events = replay(record)
    assert state.phase == "assert" and state.to_move == 0 and state.turn == 2
    asserted = [e for e in events if e["type"] == "assert"]
    assert asserted == [{"type": "assert", "player": 0, "target": 2, "fish": "sea_wolf", "success": True}]


def test_parse_accepts_json_text_and_bytes():
    text = json.dumps(EXAMPLE)
    assert parse_record(text) == parse_record(text.encode()) == parse_record(EXAMPLE)


def test_optional_fields_default_to_seeded_first_mover():
    record = parse_record(with_changes(first_mover=None, players=None))
    assert record.first_mover is None and record.players is None
    minimal = {"format": FORMAT, "seed": 7, "commands": []}
    state, events = replay(minimal)
    assert events == [] and state.first_mover == engine.new_match(7).first_mover


def test_first_mover_overrides_seed():
    seeded = engine.new_match(7).first_mover
    state, _ = replay({"format": FORMAT, "seed": 7, "first_mover": 1 - seeded, "commands": []})
    assert state.first_mover == 1 - seeded


@pytest.mark.parametrize(
    "source, code",
    [
        ("{not json", "invalid_json"),
        (b"\xff\xfe", "invalid_json"),
        ("[]", "bad_record"),
        (with_changes(format="aquawar-record/2"), "bad_format"),
        ({"seed": 7, "commands": []}, "bad_format"),
        (with_changes(seed="7"), "bad_seed"),
        (with_changes(seed=True), "bad_seed"),
        (with_changes(seed=7.0), "bad_seed"),
        # Signed 64-bit, as the site stores it: larger ones were an OverflowError (HTTP 500) on import.
        (with_changes(seed=2**63), "bad_seed"),
        (with_changes(seed=-(2**63) - 1), "bad_seed"),
        (with_changes(seed=2**64), "bad_seed"),
        (with_changes(seed=-(2**70)), "bad_seed"),
        (with_changes(first_mover=2), "bad_first_mover"),
        (with_changes(first_mover=False), "bad_first_mover"),
        (with_changes(players=["alice"]), "bad_players"),
        (with_changes(players=["alice", 3]), "bad_players"),
        (with_changes(commands={"0": {}}), "bad_record"),
        (with_changes(winner=0), "bad_record"),
    ],
)
def test_bad_structure_is_not_about_a_command(source, code):
    error = error_of(source)
    assert (error.code, error.command_index) == (code, None)
    assert error.to_json() == {"code": code, "message": error.message, "command_index": None}


@pytest.mark.parametrize(
    "index, command, code",
    [
        (0, ["pick"], "bad_command"),
        (1, {"pick": ["sunfish"]}, "bad_player"),
        (1, {"player": 2, "pick": ["sunfish"]}, "bad_player"),
        (1, {"player": True, "pick": ["sunfish"]}, "bad_player"),
        (1, {"player": 1}, "bad_command"),
        (1, {"player": 1, "pick": ["sunfish"], "assert": None}, "bad_command"),
        (1, {"player": 1, "pick": "sunfish"}, "bad_command"),
        (1, {"player": 1, "pick": ["sunfish"], "mimic": 3}, "bad_command"),
        (1, {"player": 1, "pick": ["sunfish"], "note": "x"}, "bad_command"),
        (2, {"player": 0, "assert": 2}, "bad_command"),
        (2, {"player": 0, "assert": {"target": 2}}, "bad_command"),
        (2, {"player": 0, "assert": {"target": "2", "fish": "sea_wolf"}}, "bad_command"),
        (2, {"player": 0, "assert": {"target": 2, "fish": "sea_wolf", "why": "hunch"}}, "bad_command"),
        (3, {"player": 0, "act": None}, "bad_command"),
        (3, {"player": 0, "act": {"actor": 1, "kind": "bite", "enemy": 3}}, "bad_command"),
        (3, {"player": 0, "act": {"actor": 1, "kind": "attack", "enemy": 3.0}}, "bad_command"),
        (3, {"player": 0, "act": {"actor": 1, "kind": "attack", "target": 3}}, "bad_command"),
        (3, {"player": 0, "act": {"kind": "attack", "enemy": 3}}, "bad_command"),
    ],
)
def test_bad_command_structure_names_its_index(index, command, code):
    error = error_of(with_command(index, command))
    assert (error.code, error.command_index) == (code, index)
    assert f"command {index}" in error.message


@pytest.mark.parametrize(
    "index, command",
    [
        (0, {"player": 0, "pick": ["archerfish", "octopus", "sea_turtle"]}),
        (1, {"player": 1, "pick": ["sunfish", "clownfish", "sea_wolf", "unicorn"]}),
        (0, {"player": 0, "pick": ["archerfish", "mimic_fish", "octopus", "sea_turtle"]}),
        (2, {"player": 1, "assert": None}),
        (3, {"player": 0, "act": {"actor": 1, "kind": "attack", "enemy": 7}}),
        (3, {"player": 0, "assert": None}),
        (5, {"player": 1, "act": {"actor": 0, "kind": "skill"}}),
    ],
)
def test_illegal_command_names_its_index(index, command):
    error = error_of(with_command(index, command))
    assert (error.code, error.command_index) == ("illegal_command", index)
    assert isinstance(error.__cause__, engine.IllegalCommand)
    assert error.message.startswith(f"command {index}: ")


def test_commands_after_the_end_are_illegal():
    record = play_random_match(3)
    record["commands"].append({"player": 0, "assert": None})
    error = error_of(record)
    assert (error.code, error.command_index) == ("illegal_command", len(record["commands"]) - 1)


def test_make_record_round_trips():
    commands = EXAMPLE["commands"]
    built = make_record(7, commands, first_mover=0, players=("alice", "bob"))
    assert built == EXAMPLE
    assert parse_record(built).to_json() == EXAMPLE
    assert make_record(7, []) == {"format": FORMAT, "seed": 7, "commands": []}


def test_make_record_refuses_malformed_commands():
    with pytest.raises(RecordError) as info:
        make_record(7, [{"player": 0, "pick": ["sunfish"], "extra": 1}])
    assert info.value.command_index == 0


def test_record_is_json_serialisable_as_built():
    record = play_random_match(11)
    assert json.loads(json.dumps(record)) == record
    assert isinstance(parse_record(record), Record)


@pytest.mark.parametrize("seed", [*range(20), -5, 2**63 - 1, -(2**63)])
def test_random_match_is_complete_and_deterministic(seed):
    record = play_random_match(seed)
    assert play_random_match(seed) == record
    state, events = replay(record)
    assert state.phase == "over" and state.winner in (0, 1)
    assert events[-1]["type"] == "match_end"
    assert max(state.score) == 2


def test_random_command_picks_are_ordered_samples_with_a_mimic_target():
    rng = random.Random(5)
    state = engine.new_match(5)
    teams = set()
    for _ in range(300):
        command = random_command(state, 0, rng)
        team = command["pick"]
        assert len(set(team)) == 4 and set(team) <= set(engine.SPECIES)
        assert ("mimic" in command) == ("mimic_fish" in team)
        if "mimic" in command:
            assert command["mimic"] in engine.SPECIES and command["mimic"] != "mimic_fish"
        assert engine.is_legal(state, 0, command)
        teams.add(tuple(team))
    # Ordered samples: the same four in different orders show up as different teams.
    assert len({frozenset(t) for t in teams}) < len(teams)


def test_random_command_is_legal_and_none_when_idle():
    rng = random.Random(2)
    state = engine.new_match(2)
    while state.phase != "over":
        for idle in {0, 1} - set(players_to_move(state)):
            assert random_command(state, idle, rng) is None
        player = players_to_move(state)[0]
        command = random_command(state, player, rng)
        assert engine.is_legal(state, player, command)
        if "pick" not in command:
            assert command in engine.legal_commands(state, player)
        state, _ = engine.apply(state, player, command)
    assert random_command(state, 0, rng) is None and random_command(state, 1, rng) is None


def test_random_command_is_uniform_over_legal_actions():
    state, _ = replay(EXAMPLE)
    legal = engine.legal_commands(state, 0)
    rng = random.Random(0)
    draws = 200 * len(legal)
    counts = {}
    for _ in range(draws):
        key = json.dumps(random_command(state, 0, rng), sort_keys=True)
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == len(legal)
    # Each count is Binomial(draws, 1/len): mean 200, sd about 14; 5 sd either side.
    assert all(130 <= c <= 270 for c in counts.values())


def test_a_forfeit_ends_the_match_after_the_commands():
    state, events = replay(with_changes(forfeit={"player": 1, "reason": "timeout"}))
    assert (state.phase, state.winner, state.end_reason) == ("over", 0, "timeout")
    assert events[-1] == {"type": "match_end", "winner": 0, "reason": "timeout", "score": [0, 0]}
    record = parse_record(with_changes(forfeit={"player": 1, "reason": "timeout"}))
    assert parse_record(record.to_json()).forfeit == (1, "timeout")


@pytest.mark.parametrize(
    "forfeit",
    [{"player": 2, "reason": "resign"}, {"player": 0, "reason": "bored"}, {"player": 0}, [0, "resign"], "resign"],
)
def test_a_malformed_forfeit_is_refused(forfeit):
    error = error_of(with_changes(forfeit=forfeit))
    assert (error.code, error.command_index) == ("bad_forfeit", None)


def test_a_forfeit_after_the_match_ended_is_illegal():
    finished = play_random_match(3)
    finished["forfeit"] = {"player": 0, "reason": "resign"}
    error = error_of(finished)
    assert (error.code, error.command_index) == ("illegal_forfeit", None)


@pytest.mark.parametrize("seed", [-(2**63), 2**63 - 1])
def test_the_seed_range_is_signed_64_bit_both_ends_included(seed):
    assert parse_record(json.dumps(with_changes(seed=seed))).seed == seed
    assert engine.new_match(seed).seed == seed
    with pytest.raises(engine.IllegalCommand):
        engine.new_match(seed + (1 if seed > 0 else -1))
