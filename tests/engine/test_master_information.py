"""What the master's choices are worth in information: an action's answer from the enemy fish it
hits (``exposure.information``'s learning gain) and the guesses an assertion's outcome makes
possible (``master._later_guesses``)."""
import pytest

from game.games.aquawar.bots.exposure import ASSERT_HP, information
from game.games.aquawar.bots.master import DELAY, _later_guesses
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


def pair_view():
    """Both teams at four living fish; the enemy's fish 2 and 3 are revealed."""
    fish = {"alive": True, "revealed": False}
    shown = {"alive": True, "revealed": True}
    return {"teams": [[fish] * 4, [fish, fish, shown, shown]]}


PAIR = [  # fish 0 and 1 are a Sea Wolf and a Mimic copying it, in either order
    ([("sea_wolf", "sea_wolf"), ("mimic_fish", "sea_wolf"), ("octopus", "octopus"), ("sunfish", "sunfish")], 1.0),
    ([("mimic_fish", "sea_wolf"), ("sea_wolf", "sea_wolf"), ("octopus", "octopus"), ("sunfish", "sunfish")], 1.0),
]


def test_either_outcome_of_a_guess_between_two_makes_the_next_guesses_certain():
    later = _later_guesses(pair_view(), 0, [0, 1], 1.0)
    sure = ASSERT_HP * 4  # a certain guess takes 50 HP off each of four enemy fish
    assert later(PAIR, None) == 0.0  # a coin flip risks as much as it gains
    right = [draw for draw in PAIR if draw[0][0][0] == "sea_wolf"]
    wrong = [draw for draw in PAIR if draw[0][0][0] != "sea_wolf"]
    assert later(right, 0) == pytest.approx(sure * DELAY)  # the other fish is what is left
    assert later(wrong, None) == pytest.approx(sure * DELAY + sure * DELAY ** 2)  # both are known


def test_without_weight_later_guesses_are_worth_nothing():
    assert _later_guesses(pair_view(), 0, [0, 1], 0.0)(PAIR[:1], None) == 0.0
