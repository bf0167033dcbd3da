"""Built-in opponents: each level plays legal commands from a player's view only, and a few quick
matches show the levels in order (the win rates are measured by bench/miracle_tournament.py)."""
import random

import pytest

from game.games.miracle.bots import LEVELS, make_bot, play_bots
from game.games.miracle.bots.world import state_from_view
from game.games.miracle.engine import legal_commands, view
from game.games.miracle.engine.randomplay import play_random_match
from game.games.miracle.engine.record import replay


def test_a_bot_rebuilds_the_exact_state_from_its_view():
    state, _ = replay(play_random_match(5))
    for seed in (3, 8):
        record = play_random_match(seed)
        mid, _ = replay(dict(record, commands=record["commands"][:400]))
        rebuilt = state_from_view(view(mid, mid.current))
        assert rebuilt.to_json() == dict(mid.to_json(), seed=0, rng=0)
    assert state.phase == "over"


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_a_whole_match_of_legal_commands(level):
    record, state = play_bots(7, [make_bot(level), make_bot("random")])
    assert state.phase == "over"
    replayed, _ = replay(record)  # replay refuses any illegal command
    assert replayed.winner == state.winner


def test_greedy_beats_random_and_expert_beats_greedy_in_a_few_matches():
    greedy_wins = sum(play_bots(s, [make_bot("greedy"), make_bot("random")])[1].winner == 0 for s in range(2))
    assert greedy_wins == 2
    expert_wins = 0
    for seed in range(4):
        seat = seed % 2
        bots = [make_bot("expert"), make_bot("greedy")] if seat == 0 else [make_bot("greedy"), make_bot("expert")]
        expert_wins += play_bots(100 + seed, bots)[1].winner == seat
    assert expert_wins >= 3


def test_a_bot_answers_with_one_of_the_legal_commands():
    record, _ = play_bots(2, [make_bot("greedy"), make_bot("greedy")])
    state, _ = replay(dict(record, commands=record["commands"][:40]))
    player = state.current
    legal = legal_commands(state, player)
    for level in LEVELS:
        command = make_bot(level).choose(view(state, player), [], legal, player, random.Random(1))
        assert command in legal
