"""The engine's refusals never fail themselves, whatever value they are about."""
import pytest

from game.games.aquawar import engine


def nested(depth):
    value = []
    for _ in range(depth):
        value = [value]
    return value


def deep_call(levels, function):
    """``function()`` called ``levels`` frames down: a socket's command runs on a worker thread
    whose stack already holds the consumer, the services and the engine."""
    return function() if levels == 0 else deep_call(levels - 1, function)


@pytest.mark.parametrize(
    "command",
    [
        {"pick": ["sea_wolf", "octopus", "manta_ray", nested(600)]},
        {"pick": ["sea_wolf", "octopus", "manta_ray", "mimic_fish"], "mimic": nested(600)},
        {"pick": ["sea_wolf", "octopus", "manta_ray", "x" * 5000]},
    ],
)
def test_a_refusal_names_a_bad_value_without_printing_all_of_it(command):
    state = engine.new_match(1)

    def refuse():
        with pytest.raises(engine.IllegalCommand) as refused:
            engine.apply(state, 0, command)
        return refused.value

    # Regression: the message was f"{value!r}", a RecursionError for a deeply nested list.
    refusal = deep_call(500, refuse)
    assert refusal.code == "unknown_species" and len(refusal.message) < 200
