import asyncio

from django.conf import settings
from django.urls import path

from .programs.socket import BotConsumer
from .programs.runner import serve_from, wake
from .live.consumers import MatchConsumer


def waking_bots(consumer):
    """Opening a socket on a match wakes its bots: a move that fell due before a restart is made now."""

    async def app(scope, receive, send):
        serve_from(asyncio.get_running_loop())
        wake(scope["url_route"]["kwargs"]["match_id"])
        return await consumer(scope, receive, send)

    return app


websocket_urlpatterns = [
    path("ws/match/<int:match_id>/", waking_bots(MatchConsumer.as_asgi())),
]

if settings.BENCH_ECHO:
    # bench/load.py's reference: a bare echo through the channel layer (off unless BENCH_ECHO=1).
    from .live.bench_echo import BenchEchoConsumer

    websocket_urlpatterns.append(path("ws/bench-echo/<int:room>/", BenchEchoConsumer.as_asgi()))

# Programs authenticate with an API token (docs/bot-api.md), not the session cookie.
bot_websocket_urlpatterns = [
    path("ws/bot/", BotConsumer.as_asgi()),
]
