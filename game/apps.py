from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"

    def ready(self):
        from django.core.signals import request_finished

        import aquawar_site.checks  # noqa: F401 (registers the site's own system checks)

        from .dbconnections import close_request_connections
        from .programs.runner import on_settle_requested
        from .programs.winchances import on_match_changed
        from .services import match_changed, settle_requested

        request_finished.connect(close_request_connections, dispatch_uid="game.close_request_connections")
        settle_requested.connect(on_settle_requested, dispatch_uid="game.settle_requested")
        match_changed.connect(on_match_changed, dispatch_uid="game.match_changed")
