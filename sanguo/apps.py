from django.apps import AppConfig


class SanguoConfig(AppConfig):
    name = "sanguo"

    def ready(self):
        from game.programs.runner import swept
        from notify.delivery import STALE_CHECKS

        from . import notices
        from .jobs import on_sweep

        swept.connect(on_sweep, dispatch_uid="sanguo.on_sweep")
        for kind in notices.KINDS:
            STALE_CHECKS[kind] = notices.stale
