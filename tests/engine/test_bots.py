"""``game.games.aquawar.bots``: legal, blind to hidden data, deterministic, and greedy beats random."""
import json
import os
import random
import subprocess
import sys

import pytest

from game.games.aquawar.bots import LEVELS, choose_command, make_bot
from game.games.aquawar.engine import SPECIES, apply, legal_commands, new_match, project, view

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAST = {"random": {}, "greedy": {}, "expert": {"worlds": 2, "beam": 4}, "master": {"iterations": 2, "beam": 4, "plies": 2}}


def assert_blind(player_view, seen_events, player, state):
    """Nothing the bot receives names a hidden enemy species or copy, or shows enemy ATK,
    shields or pending effects (checked on the very JSON it is handed)."""
    enemy = 1 - player
    hidden = set()
    for pair in state.past_picks + [state.picks]:
        pick = pair[enemy] if pair else None
        if pick:
            hidden.update(pick["fish"])
            hidden.add(pick["mimic"])
    revealed = {e["fish"] for e in seen_events if e["type"] == "assert" and e["success"] and e["player"] == player}
    about_enemy = [player_view["teams"][enemy], player_view["picks"][enemy], player_view["available"][enemy]]
    about_enemy += [row[enemy] for row in player_view["past_picks"]]
    for event in seen_events:
        if event.get("player") == enemy or event.get("side") == enemy:
            if event["type"] != "assert":  # our own assertions name species we chose to guess
                about_enemy.append(event)
    text = json.dumps(about_enemy)
    for species in hidden - revealed - {None}:
        assert f'"{species}"' not in text, species
    for fish in player_view["teams"][enemy]:
        assert fish["atk"] is None and fish["shields"] is None and fish["effects"] is None
        assert fish["mimic_of"] is None and fish["skill_uses"] is None
    for event in seen_events:
        if event.get("side") == enemy:
            assert event["type"] not in ("atk", "avoid") and "how" not in event and "by" not in event
        if event.get("player") == enemy and event["type"] in ("action", "pick"):
            assert "skill" not in event and "fish" not in event


def play(levels, seed, check=True):
    """One match; each bot gets only its own view, projection and legal commands."""
    bots = {p: make_bot(levels[p], **FAST[levels[p]]) for p in (0, 1)}
    rngs = {p: random.Random(seed * 2 + p) for p in (0, 1)}
    state, events = new_match(seed), []
    while state.phase != "over":
        player = (0 if state.picks[0] is None else 1) if state.phase == "pick" else state.to_move
        legal = legal_commands(state, player)
        seen_view, seen_events = view(state, player), project(events, player)
        if check:
            assert_blind(seen_view, seen_events, player, state)
        command = bots[player].choose(seen_view, seen_events, legal, player, rngs[player])
        if "pick" in command:
            team = sorted(command["pick"], key=SPECIES.index)
            assert any(c["pick"] == team and c.get("mimic") == command.get("mimic") for c in legal)
        else:
            assert command in legal
        state, produced = apply(state, player, command)
        events += produced
    return state, events


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_legal_blind_commands(level):
    for seed in range(3):
        play({0: level, 1: "random"}, seed)
        play({0: "greedy", 1: level}, seed + 10)


def test_same_seed_same_match():
    first = play({0: "expert", 1: "greedy"}, 5, check=False)[1]
    second = play({0: "expert", 1: "greedy"}, 5, check=False)[1]
    assert first == second


def test_choose_command_is_deterministic_for_a_seed():
    state, events = new_match(3), []
    for player in (0, 1):
        state, produced = apply(state, player, legal_commands(state, player)[player * 7])
        events += produced
    player = state.to_move
    state, produced = apply(state, player, {"assert": None})
    events += produced
    args = (view(state, player), project(events, player), legal_commands(state, player), player)
    for level in LEVELS:
        assert choose_command(level, *args, seed=9, **FAST[level]) == choose_command(level, *args, seed=9, **FAST[level])


def test_unknown_level_is_refused():
    with pytest.raises(ValueError):
        make_bot("grandmaster")


def test_greedy_beats_random_most_of_the_time():
    wins = sum(play({seed % 2: "greedy", 1 - seed % 2: "random"}, seed, check=False)[0].winner == seed % 2
               for seed in range(20))
    assert wins >= 17


def test_bots_never_import_django():
    # pytest-django has already loaded Django here, so look from a fresh interpreter.
    code = "import sys, game.games.aquawar.bots; sys.exit(any(m.split('.')[0] == 'django' for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0
