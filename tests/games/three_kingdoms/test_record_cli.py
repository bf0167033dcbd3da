"""Records (``three-kingdoms-record/1``) and the command line: ``replay FILE [--view ...]`` and
``play --seed N --mode ...``; bad input exits 2 with one JSON error on stderr, never a traceback."""
import json
import subprocess
import sys

import pytest

from game.games.three_kingdoms.engine.records.record import RecordError, replay

MODULE = "game.games.three_kingdoms.engine"
RECORD = {"format": "three-kingdoms-record/1", "seed": 5, "mode": "standard", "characters": 27, "commands": [
    {"seat": "gm", "setup": {"durations": {"night_action": 100}}},
    {"seat": "gm", "at": 0, "lock": {}},
    {"seat": 0, "at": 10, "assassinate": {"actor": "夏侯惇", "target": "张辽"}},
    {"seat": "server", "at": 100, "close": {}},
]}


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", MODULE, *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


def test_a_record_replays_to_the_state_the_issue_describes():
    state, events = replay(RECORD)
    assert state["phase"] == "night_resolution" and state["night"] == 1
    assert [e["kind"] for e in events if e["type"] == "roll" and e["kind"] != "拼点"] == ["同国刺杀"], \
        "own-country 刺杀 rolls its 1/2"


@pytest.mark.parametrize("change, code, index", [
    ({"format": "miracle-record/1"}, "bad_format", None),
    ({"seed": "5"}, "bad_seed", None),
    ({"mode": "duel"}, "bad_mode", None),
    ({"characters": 28}, "bad_characters", None),
    ({"extra": 1}, "bad_record", None),
    ({"commands": [{"gm": {}}]}, "bad_command", 0),
    ({"commands": [{"seat": "judge", "lock": {}}]}, "bad_seat", 0),
    ({"commands": RECORD["commands"][:2] + [{"seat": 1, "assassinate": {"actor": "夏侯惇", "target": 1}}]},
     "illegal_command", 2),
])
def test_bad_records_are_refused_with_a_code_and_the_command_index(change, code, index):
    with pytest.raises(RecordError) as caught:
        replay(dict(RECORD, **change))
    assert caught.value.code == code and caught.value.command_index == index


def test_replay_prints_events_and_the_state_an_audience_sees():
    done = run("replay", "-", "--view", "1", stdin=json.dumps(RECORD))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    state = out["state"]
    assert {"phase", "night", "winner", "pending", "characters"} <= set(state)
    assert all(set(c) >= {"name", "country", "identity", "id", "status"} for c in state["characters"])
    assert all(c["id"] is None for c in state["characters"] if c["country"] != "蜀" or c["name"] not in ("关羽", "张飞"))
    assert all(e["to"] == "public" or 1 in e["to"] for e in out["events"])


def test_play_prints_a_record_that_replays_to_its_end():
    done = run("play", "--seed", "4", "--mode", "crowd", "--characters", "30")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert (record["format"], record["mode"], record["characters"]) == ("three-kingdoms-record/1", "crowd", 30)
    replayed = run("replay", "-", "--view", "spectator", stdin=done.stdout)
    state = json.loads(replayed.stdout)["state"]
    assert state["phase"] == "over" and state["winner"] in ("魏", "蜀", "吴", "draw")


@pytest.mark.parametrize("stdin, args, code, index", [
    (json.dumps(dict(RECORD, commands=RECORD["commands"] + [{"seat": "server", "at": 0, "close": {}}])), [],
     "illegal_command", 4),
    ("{not json", [], "invalid_json", None),
    (json.dumps(RECORD), ["--view", "seven"], "bad_view", None),
    (json.dumps(RECORD), ["--view", "all"], "not_over", None),
])
def test_bad_input_exits_2_with_a_json_error_and_no_traceback(stdin, args, code, index):
    done = run("replay", "-", *args, stdin=stdin)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    error = json.loads(done.stderr)["error"]
    assert error["code"] == code and error["command_index"] == index and error["message"]


def test_the_engine_imports_no_django():
    code = ("import sys, game.games.three_kingdoms.engine.__main__; "
            "sys.exit(any(m.split('.')[0] == 'django' for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0
