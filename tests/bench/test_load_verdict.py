"""bench/load.py's verdict on a level's runs: nothing lost is judged on the game's runs only."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from load import verdict  # noqa: E402


def run(gaps=0, duplicates=0, leaks=0, commands_per_s=100.0, p99=50.0):
    return {"gaps": gaps, "duplicates": duplicates, "leaks": leaks, "commands_per_s": commands_per_s,
            "opponent_ms": {"p99": p99}}


def level(**changed):
    runs = {name: run() for name in ("game_paced", "game_saturated", "echo_paced", "echo_saturated")}
    runs.update(changed)
    return runs


def test_a_message_the_echo_lost_is_not_counted_against_the_game():
    judged = verdict(level(echo_paced=run(gaps=2)), None)
    assert judged["no_gaps_duplicates_leaks"]["met"]


def test_a_gap_duplicate_or_leak_in_a_game_run_misses_the_target():
    for changed in ({"game_paced": run(gaps=1)}, {"game_saturated": run(duplicates=1)},
                    {"game_paced": run(leaks=1)}):
        assert not verdict(level(**changed), None)["no_gaps_duplicates_leaks"]["met"], changed
