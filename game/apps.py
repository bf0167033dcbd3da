from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"

    def ready(self):
        from django.core.signals import request_finished

        from .dbconnections import close_request_connections

        request_finished.connect(close_request_connections, dispatch_uid="game.close_request_connections")
