from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        from game.programs.runner import swept
        from game.services import match_ended

        from .runner import on_match_ended, on_sweep

        swept.connect(on_sweep, dispatch_uid="tournaments.on_sweep")
        match_ended.connect(on_match_ended, dispatch_uid="tournaments.on_match_ended")
