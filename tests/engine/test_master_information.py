"""What the master's actions are worth in information: the answer of the enemy fish they hit
(``exposure.information``'s learning gain)."""
import pytest

from game.games.aquawar.bots.exposure import ASSERT_HP, information
from game.games.aquawar.engine import apply, new_match, project, view

OURS = ["octopus", "great_white_shark", "sea_turtle", "manta_ray"]
THEIRS = ["sea_wolf", "sea_turtle", "octopus", "manta_ray"]


def first_turn():
    """Round 1, player 0 to act, nothing known about either team yet."""
    state, events = new_match(3, first_mover=0), []
    for player, team in ((0, OURS), (1, THEIRS)):
        state, produced = apply(state, player, {"pick": team})
        events += produced
    state, produced = apply(state, 0, {"assert": None})
    return state, events + produced


def gains(state, events, commands):
    # The true state stands in for a sampled world: what the hit fish answers is then known.
    priced = information(state, 0, commands, project(events, 0), view(state, 0))
    return [gain for _, gain in priced]


def test_a_hit_on_a_hidden_fish_teaches_what_its_answer_proves():
    state, events = first_turn()
    on_octopus = {"act": {"actor": 1, "kind": "attack", "enemy": 2}}
    on_turtle = {"act": {"actor": 1, "kind": "attack", "enemy": 1}}
    gain_octopus, gain_turtle = gains(state, events, [on_octopus, on_turtle])
    everyone = ASSERT_HP * 4
    # It heals after the hit and shares nothing: Octopus, Great White or a Mimic copying one, of 12.
    assert gain_octopus == pytest.approx(everyone * (1 / 3 - 1 / 12))
    # A shield takes the hit: a Turtle, a dodger or a Mimic, of 12.
    assert gain_turtle == pytest.approx(everyone * (1 / 4 - 1 / 12))


def test_an_action_that_touches_no_enemy_teaches_nothing():
    state, events = first_turn()
    buff = {"act": {"actor": 0, "kind": "skill", "ally": 1}}  # the Octopus's silent gift to a mate
    assert gains(state, events, [buff]) == [0.0]

