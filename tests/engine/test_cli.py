"""``python -m game.games.aquawar.engine``: replay and play, run as a separate process like a user would."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.games.aquawar import engine
from game.games.aquawar.engine.randomplay import play_random_match
from game.games.aquawar.engine.record import replay

ROOT = Path(__file__).resolve().parents[2]


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "game.games.aquawar.engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def error_of(proc) -> dict:
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    body = json.loads(proc.stderr)
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "command_index"}
    return body["error"]


@pytest.fixture(scope="module")
def record():
    return play_random_match(42)


@pytest.fixture
def record_file(tmp_path, record):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    return path


@pytest.mark.parametrize("audience", [0, 1, "spectator", "all"])
def test_replay_prints_what_the_audience_sees(record, record_file, audience):
    proc = run("replay", str(record_file), "--view", str(audience))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    state, events = replay(record)
    assert out == {"events": engine.project(events, audience), "state": engine.view(state, audience)}


def test_replay_defaults_to_all_and_reads_stdin(record, record_file):
    from_file = run("replay", str(record_file))
    from_stdin = run("replay", "-", stdin=json.dumps(record))
    assert from_file.returncode == from_stdin.returncode == 0
    assert json.loads(from_file.stdout) == json.loads(from_stdin.stdout)
    assert json.loads(from_file.stdout)["state"] == engine.view(replay(record)[0], "all")


def test_player_view_hides_the_enemy_team(record_file):
    out = json.loads(run("replay", str(record_file), "--view", "0").stdout)
    assert all(fish["atk"] is None for fish in out["state"]["teams"][1])
    assert all(e["player"] == 0 for e in out["events"] if e["type"] == "pick" and "fish" in e)


def test_illegal_command_exits_2_with_its_index(tmp_path, record):
    bad = json.loads(json.dumps(record))
    index = next(i for i, c in enumerate(bad["commands"]) if "act" in c)
    bad["commands"][index]["act"] = {"actor": 9, "kind": "attack", "enemy": 0}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    error = error_of(run("replay", str(path)))
    assert error["code"] == "illegal_command"
    assert error["command_index"] == index


def test_wrong_player_for_the_turn_is_illegal(tmp_path, record):
    bad = json.loads(json.dumps(record))
    index = next(i for i, c in enumerate(bad["commands"]) if "assert" in c)
    bad["commands"][index]["player"] = 1 - bad["commands"][index]["player"]
    error = error_of(run("replay", "-", stdin=json.dumps(bad)))
    assert (error["code"], error["command_index"]) == ("illegal_command", index)


@pytest.mark.parametrize(
    "text, code, index",
    [
        ("{", "invalid_json", None),
        ("", "invalid_json", None),
        ("[" * 100_000, "invalid_json", None),
        ('{"format": "pgn", "seed": 1, "commands": []}', "bad_format", None),
        ('{"format": "aquawar-record/1", "seed": "x", "commands": []}', "bad_seed", None),
        ('{"format": "aquawar-record/1", "seed": 1, "commands": [7]}', "bad_command", 0),
        ('{"format": "aquawar-record/1", "seed": 1, "commands": [{"player": 0, "pick": [], "x": 1}]}',
         "bad_command", 0),
    ],
)
def test_malformed_input_exits_2_with_a_json_error(tmp_path, text, code, index):
    path = tmp_path / "bad.json"
    path.write_text(text)
    error = error_of(run("replay", str(path)))
    assert (error["code"], error["command_index"]) == (code, index)


def test_missing_file_exits_2(tmp_path):
    error = error_of(run("replay", str(tmp_path / "nope.json")))
    assert (error["code"], error["command_index"]) == ("unreadable", None)
    assert "nope.json" in error["message"]


def test_directory_is_unreadable(tmp_path):
    assert error_of(run("replay", str(tmp_path)))["code"] == "unreadable"


@pytest.mark.parametrize("seed", [0, 5, 123456789])
def test_play_prints_a_record_that_replays_to_the_same_events(tmp_path, seed):
    proc = run("play", "--seed", str(seed))
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    assert record == play_random_match(seed)
    path = tmp_path / "played.json"
    path.write_text(proc.stdout)
    replayed = run("replay", str(path))
    assert replayed.returncode == 0, replayed.stderr
    _, events = replay(record)
    assert json.loads(replayed.stdout)["events"] == events
    assert events[-1]["type"] == "match_end"


def test_play_is_deterministic():
    assert run("play", "--seed", "9").stdout == run("play", "--seed", "9").stdout


def test_usage_errors_exit_2():
    assert run("replay").returncode == 2
    assert run("replay", "x.json", "--view", "2").returncode == 2
    assert run("play").returncode == 2


def test_play_refuses_a_seed_out_of_range():
    proc = run("play", "--seed", str(2**64))
    assert proc.returncode == 2 and "from -2**63 to 2**63-1" in proc.stderr
