from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "notify"

    def ready(self):
        from game.programs.runner import swept

        from .jobs import on_sweep

        swept.connect(on_sweep, dispatch_uid="notify.on_sweep")
