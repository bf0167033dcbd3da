from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
