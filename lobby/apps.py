from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"

    def ready(self):
        from django.contrib.auth import get_user_model, user_logged_out
        from django.db.models.signals import post_save

        from game.live import sessions

        # A logout or a new password ends the sockets of the sessions it ends (game/live/sessions.py).
        user_logged_out.connect(sessions.on_logout, dispatch_uid="lobby.sessions.on_logout")
        post_save.connect(sessions.on_user_saved, sender=get_user_model(), dispatch_uid="lobby.sessions.on_user_saved")
