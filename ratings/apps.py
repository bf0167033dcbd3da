from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"

    def ready(self):
        from game.services import match_ended

        from .changes import on_match_ended

        match_ended.connect(on_match_ended, dispatch_uid="ratings.on_match_ended")
