from django.apps import AppConfig


class SanguoConfig(AppConfig):
    name = "sanguo"

    def ready(self):
        from game.programs.runner import swept
        from lobby.your_games import ELSEWHERE
        from notify.delivery import STALE_CHECKS

        from . import notices, waiting
        from .jobs import on_sweep

        swept.connect(on_sweep, dispatch_uid="sanguo.on_sweep")
        for kind in notices.KINDS:
            STALE_CHECKS[kind] = notices.stale
        # A list, unlike the signal and the dict above: a second ``ready`` must not list every game twice.
        if waiting.rows not in ELSEWHERE:
            ELSEWHERE.append(waiting.rows)
