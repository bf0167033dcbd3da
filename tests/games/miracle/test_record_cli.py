"""Records (``miracle-record/1``), what each audience sees, and the command line."""
import json
import subprocess
import sys

import pytest

from game.games.miracle.engine import apply, new_match, project, view
from game.games.miracle.engine.randomplay import play_random_match
from game.games.miracle.engine.record import RecordError, make_record, parse_record, replay

from .helpers import DECK_A, DECK_B

# The shape the issue shows, as far as a legal match goes (units 1 and 2 are the two summons).
RECORD = {"format": "miracle-record/1", "seed": 3, "first_mover": 0, "players": ["alice", "bob"], "commands": [
    {"player": 0, "deck": {"artifact": "holy_light", "creatures": ["swordsman", "archer", "priest"]}},
    {"player": 1, "deck": {"artifact": "inferno_flame", "creatures": ["black_bat", "frost_dragon", "volcano_dragon"]}},
    {"player": 0, "summon": {"type": "swordsman", "level": 1, "at": [-6, 6, 0]}},
    {"player": 0, "end_turn": {}},
    {"player": 1, "summon": {"type": "black_bat", "level": 1, "at": [6, -6, 0]}},
    {"player": 1, "end_turn": {}},
    {"player": 0, "move": {"unit": 1, "to": [-5, 5, 0]}},
    {"player": 0, "end_turn": {}},
    {"player": 1, "surrender": {}},
]}


def test_a_record_replays_to_its_events_and_round_trips():
    state, events = replay(RECORD)
    assert (state.phase, state.winner, state.end_reason) == ("over", 0, "resign")
    assert [e["unit"] for e in events if e["type"] == "summon"] == [1, 2]
    assert parse_record(json.dumps(RECORD)).to_json() == RECORD


def test_a_record_can_end_by_a_forfeit():
    record = dict(RECORD, commands=RECORD["commands"][:4], forfeit={"player": 1, "reason": "timeout"})
    state, events = replay(record)
    assert (state.winner, state.end_reason) == (0, "timeout") and events[-1]["type"] == "match_end"


@pytest.mark.parametrize("change, code, index", [
    ({"format": "aquawar-record/1"}, "bad_format", None),
    ({"seed": "3"}, "bad_seed", None),
    ({"seed": True}, "bad_seed", None),
    ({"first_mover": 2}, "bad_first_mover", None),
    ({"players": ["a"]}, "bad_players", None),
    ({"extra": 1}, "bad_record", None),
    ({"commands": {}}, "bad_record", None),
    ({"forfeit": {"player": 0, "reason": "bored"}}, "bad_forfeit", None),
    ({"commands": [{"player": 2, "end_turn": {}}]}, "bad_player", 0),
    ({"commands": [{"player": 0}]}, "bad_command", 0),
    ({"commands": [{"player": 0, "end_turn": {}, "surrender": {}}]}, "bad_command", 0),
    ({"commands": [{"player": 0, "end_turn": []}]}, "bad_command", 0),
    ({"commands": RECORD["commands"][:2] + [{"player": 1, "end_turn": {}}]}, "illegal_command", 2),
])
def test_bad_records_are_refused_with_a_code_and_the_command_index(change, code, index):
    with pytest.raises(RecordError) as caught:
        replay(dict(RECORD, **change))
    assert caught.value.code == code and caught.value.command_index == index


def test_bad_json_is_a_record_error():
    for text in ("{", "[" * 100000, b"\xff"):
        with pytest.raises(RecordError) as caught:
            parse_record(text)
        assert caught.value.code in ("invalid_json", "bad_record")


def test_a_deck_stays_hidden_from_everyone_but_its_owner_until_both_are_in():
    state = new_match(5, first_mover=0)
    state, events = apply(state, 0, {"deck": DECK_A})
    for audience in (1, "spectator"):
        assert view(state, audience)["decks"] == [None, None]
        assert view(state, audience)["pools"] == [None, None] and view(state, audience)["artifacts"] == [None, None]
        assert project(events, audience) == [{"type": "deck", "player": 0}]
        assert "holy_light" not in json.dumps(view(state, audience)) + json.dumps(project(events, audience))
    assert view(state, 0)["decks"][0] == DECK_A and project(events, 0) == events
    assert view(state, "all")["decks"][0] == DECK_A
    assert view(state, 1)["deck_submitted"] == [True, False]
    state, events = apply(state, 1, {"deck": DECK_B})
    (reveal,) = [e for e in project(events, "spectator") if e["type"] == "decks"]
    assert reveal["decks"] == [DECK_A, DECK_B]
    assert view(state, "spectator")["decks"] == [DECK_A, DECK_B] == view(state, 0)["decks"]


def test_the_all_view_has_the_keys_the_platform_and_the_cli_read():
    state, _ = replay(RECORD)
    seen = view(state, "all")
    for key in ("phase", "turn", "to_move", "winner", "end_reason", "miracle_hp", "mana", "max_mana", "garrisons",
                "decks", "units"):
        assert key in seen
    state, _ = replay(dict(RECORD, commands=RECORD["commands"][:7]))
    (unit,) = [u for u in view(state, 1)["units"] if u["id"] == 1]
    assert {k: unit[k] for k in ("id", "camp", "type", "level", "at", "hp", "atk", "max_hp")} == {
        "id": 1, "camp": 0, "type": "swordsman", "level": 1, "at": [-5, 5, 0], "hp": 2, "atk": 2, "max_hp": 2}


def _cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "game.games.miracle.engine", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_the_cli_replays_a_record_for_an_audience(tmp_path):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(RECORD))
    done = _cli("replay", str(path), "--view", "spectator")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["state"]["phase"] == "over" and out["state"]["winner"] == 0
    assert out["events"][0] == {"type": "deck", "player": 0}


def test_the_cli_reports_an_illegal_command_as_one_json_object(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(dict(RECORD, commands=RECORD["commands"][:2] + [{"player": 1, "end_turn": {}}])))
    done = _cli("replay", str(path))
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    error = json.loads(done.stderr)["error"]
    assert error["code"] == "illegal_command" and error["command_index"] == 2 and "not_your_turn" in error["message"]
    for text in ("not json", "[]"):
        done = _cli("replay", "-", stdin=text)
        assert done.returncode == 2 and set(json.loads(done.stderr)["error"]) == {"code", "message", "command_index"}
    done = _cli("replay", str(tmp_path / "missing.json"))
    assert done.returncode == 2 and json.loads(done.stderr)["error"]["code"] == "unreadable"


def test_the_cli_plays_bots_and_prints_a_record_that_replays():
    done = _cli("play", "--seed", "11", "--bots", "random,random")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["format"] == "miracle-record/1" and record["seed"] == 11
    assert replay(record)[0].phase == "over"
    done = _cli("play", "--seed", "1", "--bots", "random,wizard")
    assert done.returncode == 2 and json.loads(done.stderr)["error"]["code"] == "bad_bots"


def test_random_play_is_reproducible_from_its_seed():
    assert play_random_match(21) == play_random_match(21)
    assert make_record(1, [], first_mover=0) == {"format": "miracle-record/1", "seed": 1, "first_mover": 0,
                                                 "commands": []}
