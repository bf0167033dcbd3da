from django.apps import AppConfig


class MiracleConfig(AppConfig):
    """Installed so that Django finds the game's templates and static files in its own folder."""

    name = "game.games.miracle"
    label = "miracle"
