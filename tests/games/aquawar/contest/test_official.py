"""Converting official replay files: forfeits, truncated or tampered files, and files that are no
official replay at all. The files are made here from the latest official one (never stored)."""
import copy
import json
import random

import pytest

from game.games.aquawar.contest import official
from game.games.aquawar.engine.record import RecordError, replay
from game.games.aquawar.source import describe

from .official_files import LATEST, official_file

ROUND_ONE_CUT = 40  # frames: well into round 1


def latest_frames():
    return json.loads(official_file(LATEST))[:-1]


def as_file(frames):
    return json.dumps([*frames, None]).encode()


def refusal(frames):
    with pytest.raises(RecordError) as info:
        official.convert(as_file(frames))
    return info.value


def with_error(error):
    """The latest file cut in round 1, ended the way the official program ended a forfeited game:
    a last frame with no operation and the error."""
    frames = latest_frames()[:ROUND_ONE_CUT]
    last = copy.deepcopy(frames[-1])
    last.update(operation=[], errors=[error], state=last["state"] + 1)
    return frames + [last]


def test_a_record_or_anything_else_is_not_an_official_replay():
    assert official.convert(b'{"format": "aquawar-record/1", "seed": 1, "commands": []}') is None
    assert official.convert(b"not json") is None


@pytest.mark.parametrize(
    "error, reason, words",
    [
        ({"player": 0, "type": 15, "actionfish": 2, "action_rules_error_type": 7}, "illegal", "it made a fish hit itself"),
        ({"player": 1, "type": 3}, "timeout", "it ran out of time"),
        ({"player": 1, "type": 2}, "illegal", "it crashed"),
    ],
)
def test_a_forfeited_game_ends_with_that_players_forfeit_and_says_why(error, reason, words):
    record, notes = official.convert(as_file(with_error(error)))
    assert record["forfeit"] == {"player": error["player"], "reason": reason}
    state, _ = replay(record)
    assert (state.phase, state.winner, state.end_reason) == ("over", 1 - error["player"], reason)
    assert notes == [{"code": "forfeit", "step": 41, "round": 1, "player": error["player"], "error": error["type"],
                      "rule": error.get("action_rules_error_type")}]
    sentence = describe(notes[0], ["Saiblo AI 0", "Saiblo AI 1"])
    assert f"Saiblo AI {error['player']}'s program broke the rules ({words}): it loses" in sentence


def test_a_file_that_stops_mid_match_is_refused():
    error = refusal(latest_frames()[:ROUND_ONE_CUT])
    assert error.code == "unfinished" and "stops before the match ends" in error.message


def test_both_players_failing_at_once_leaves_no_winner():
    frames = with_error({"player": 0, "type": 3})
    frames[-1]["errors"].append({"player": 1, "type": 3})
    assert refusal(frames).code == "no_winner"


def test_a_tampered_hp_is_refused_at_its_step():
    frames = latest_frames()
    # Frame 4 is the state after step 4, the first player's opening crit (120 on the enemy's fish 3).
    frames[4]["players"][1]["fight_fish"][3]["hp"] = 300
    error = refusal(frames)
    assert error.code == "rules_differ"
    assert error.message == "official replay, step 4: player 1's fish 3 has 300 HP in the file where the rules give 280"


def test_an_action_the_rules_refuse_is_refused_at_its_step():
    frames = latest_frames()
    frames[3]["operation"][0]["EnemyList"] = [1]
    frames[3]["operation"][0]["MyList"] = [0]  # the Mimic copying a Sea Turtle on itself
    error = refusal(frames)
    assert error.code == "rules_differ" and error.message.startswith("official replay, step 4: the rules refuse")


JUNK = [None, "x", -1, 7, 10**30, 2.5, True, [], {}, [None], {"a": 1}]


def mutate(frames, rng):
    """Some value somewhere in the file, replaced by junk (or a key dropped)."""
    node = rng.choice(frames)
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return
        key = rng.choice(keys)
        child = node[key]
        if isinstance(child, (dict, list)) and child and rng.random() < 0.75:
            node = child
            continue
        if isinstance(node, dict) and rng.random() < 0.2:
            del node[key]
        else:
            node[key] = rng.choice(JUNK)
        return


def test_a_damaged_file_is_refused_never_a_crash():
    """Whatever is broken where, the answer is a conversion or a ``RecordError``, nothing else."""
    frames = latest_frames()[:ROUND_ONE_CUT]
    outcomes = set()
    for seed in range(200):
        rng = random.Random(seed)
        damaged = copy.deepcopy(frames)
        for _ in range(rng.randint(1, 3)):
            mutate(damaged, rng)
        try:
            official.convert(as_file(damaged))
        except RecordError as error:
            outcomes.add(error.code)
    # The damage reached every kind of check, not only the first.
    assert {"bad_replay", "rules_differ", "unfinished"} <= outcomes
