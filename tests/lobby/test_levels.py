"""The lobby offers each built-in level once, for whichever game is chosen: its label must hold
for every game that has the level (a game-specific label would describe the wrong opponent)."""
from game import games
from lobby.forms import level_choices


def test_every_level_label_in_the_lobby_is_the_label_of_that_level_in_every_game():
    offered = {level: str(label) for level, label in level_choices()}
    for game in games.every():
        for level, label in game.levels.items():
            assert offered[level] == str(label), (game.name, level)
