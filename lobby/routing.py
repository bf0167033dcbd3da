import asyncio

from django.urls import path

from game.programs.runner import serve_from

from .consumers import LobbyConsumer


def serving(consumer):
    """A process serving lobby sockets sweeps too (tournaments' start times, the ladder): people
    waiting in the lobby for a tournament to start may be the only ones connected."""

    async def app(scope, receive, send):
        serve_from(asyncio.get_running_loop())
        return await consumer(scope, receive, send)

    return app


websocket_urlpatterns = [path("ws/lobby/", serving(LobbyConsumer.as_asgi()))]
