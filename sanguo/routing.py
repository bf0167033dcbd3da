from django.urls import path

from .consumers import GameConsumer
from .programs import ProgramConsumer

websocket_urlpatterns = [path("ws/sanguo/<int:game_id>/", GameConsumer.as_asgi())]

# Programs authenticate with an API token, not the session cookie: routed before the Origin check,
# as the match bot socket is (aquawar_site/asgi.py).
bot_websocket_urlpatterns = [path("ws/sanguo/<int:game_id>/bot/", ProgramConsumer.as_asgi())]
