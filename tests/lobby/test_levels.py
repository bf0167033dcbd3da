"""The lobby offers each built-in level once, for whichever game is chosen: its label must hold
for every game that has the level (a game-specific label would describe the wrong opponent)."""
from game import games
from lobby.forms import level_choices


def test_every_level_label_in_the_lobby_is_the_label_of_that_level_in_every_game():
    offered = {level: str(label) for level, label in level_choices()}
    for game in games.every():
        for level, label in game.levels.items():
            assert offered[level] == str(label), (game.name, level)


def test_the_lobby_shows_each_levels_measured_rating_per_game(client, host, monkeypatch):
    aquawar = games.get("aquawar")
    monkeypatch.setattr(type(aquawar), "level_ratings", {"greedy": 1234, "expert": 1650})
    client.force_login(host)
    html = client.get("/").content.decode()
    assert f'data-level-rating="greedy">{aquawar.title} ≈ 1,234<' in html
    assert f'data-level-rating="expert">{aquawar.title} ≈ 1,650<' in html
    assert f'data-level-rating="random">{aquawar.title}' not in html


def test_a_measured_level_is_the_anchor_programs_are_rated_against(monkeypatch):
    from ratings.api import anchor

    aquawar = games.get("aquawar")
    monkeypatch.setattr(type(aquawar), "level_ratings", {"greedy": 1234})
    assert anchor("greedy", "aquawar").rating == 1234
    # A level not measured keeps the conventional spacing.
    assert anchor("random", "aquawar").rating == 1000


def test_a_games_measured_ratings_are_read_from_its_bots_folder(tmp_path):
    from game.games.base import measured_level_ratings

    assert measured_level_ratings(tmp_path) == {}
    (tmp_path / "level_ratings.json").write_text('{"ratings": {"greedy": {"rating": 1233.6, "deviation": 40}}}')
    assert measured_level_ratings(tmp_path) == {"greedy": 1234}
