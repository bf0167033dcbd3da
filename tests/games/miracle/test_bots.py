"""Built-in opponents: each level plays legal commands from a player's view only, and a few quick
matches show the levels in order (the win rates are measured by bench/miracle_tournament.py)."""
import random

import pytest

from game.games.miracle.bots import LEVELS, make_bot, play_bots
from game.games.miracle.bots.evaluate import evaluate
from game.games.miracle.bots.expert import ExpertBot, finish_turn
from game.games.miracle.bots.greedy import greedy_choice
from game.games.miracle.bots.world import state_from_view
from game.games.miracle.engine import legal_commands, view
from game.games.miracle.engine.randomplay import play_random_match
from game.games.miracle.engine.record import replay

# The master on a small fixed budget: these tests are about playing legally, not strength.
OPTIONS = {"master": {"width": 2, "answer_cap": 300, "turn_seconds": None}}


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
    record, state = play_bots(7, [make_bot(level, **OPTIONS.get(level, {})), make_bot("random")])
    assert state.phase == "over"
    replayed, _ = replay(record)  # replay refuses any illegal command
    assert replayed.winner == state.winner


def test_greedy_and_expert_beat_random():
    for seed in range(2):
        assert play_bots(seed, [make_bot("greedy"), make_bot("random")])[1].winner == 0
    assert play_bots(3, [make_bot("random"), make_bot("expert")])[1].winner == 1


@pytest.mark.parametrize("cut", [60, 200])
def test_the_experts_plan_scores_at_least_as_well_as_the_greedy_turn_against_the_same_answer(cut):
    record, _ = play_bots(9, [make_bot("greedy"), make_bot("greedy")])
    state, _ = replay(dict(record, commands=record["commands"][:cut]))
    player = state.current
    world = state_from_view(view(state, player))
    legal = legal_commands(world, player)

    def outcome(first):
        _, after = finish_turn(world, player, first)
        if after.phase == "play":
            _, after = finish_turn(after, after.current)
        return evaluate(after, player)

    plan = ExpertBot().search(world, player, legal)
    greedy_first = greedy_choice(world, player, legal)
    assert outcome(plan[0]) >= outcome(greedy_first)
    assert plan[-1] == {"end_turn": {}} or state.phase == "over"


def test_a_bot_answers_with_one_of_the_legal_commands():
    record, _ = play_bots(2, [make_bot("greedy"), make_bot("greedy")])
    state, _ = replay(dict(record, commands=record["commands"][:40]))
    player = state.current
    legal = legal_commands(state, player)
    for level in LEVELS:
        command = make_bot(level, **OPTIONS.get(level, {})).choose(view(state, player), [], legal, player,
                                                                    random.Random(1))
        assert command in legal
