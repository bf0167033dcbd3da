"""The game page's socket, ``/ws/sanguo/<id>/``: it tells the page to fetch itself again when what
its viewer may see has changed, and says nothing else.

It carries no state, no events and no version: the page is the one place that shows a viewer
their view (sanguo/views.py, from the engine's ``view``), and a ring that came with every
change would tell a seat when the others submitted. So on each doorbell the socket reads the game,
compares its viewer's view with the one it last told of (``access.digest``), and sends
``{"type": "changed"}`` only when it differs. The process's recheck (sanguo/live.py) rings it for
a doorbell a Redis restart lost.
"""
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from game.live import recheck

from . import access
from .live import Watched, game_group, read_after
from .models import Game


class GameConsumer(Watched, AsyncJsonWebsocketConsumer):
    async def connect(self):
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        token = parse_qs(self.scope.get("query_string", b"").decode()).get("invite", [""])[0]
        read = await self._digest(token)
        if read is None:
            await self.close(code=4404)
            return
        self.last_sent, self.seen = read
        await self.channel_layer.group_add(game_group(self.game_id), self.channel_name)
        recheck.watch(self)
        await self.accept()

    async def disconnect(self, code):
        if self.last_sent is None:
            return
        recheck.forget(self)
        await recheck.leave_group(self.channel_layer, game_group(self.game_id), self.channel_name)

    async def receive_json(self, content, **kwargs):
        # The page sends nothing over this socket: its forms post to the service.
        return

    async def game_changed(self, message):
        read = await read_after(self.game_id, message, lambda row: row and self._seen(row, self.scope.get("user")))
        if read is None:
            return
        self.last_sent, now = read
        if now != self.seen:
            self.seen = now
            await self.send_json({"type": "changed"})

    @database_sync_to_async
    def _digest(self, token):
        row = Game.objects.filter(pk=self.game_id).first()
        user = self.scope.get("user")
        if row is None or not access.may_see(row, user, token):
            return None
        return self._seen(row, user)

    @staticmethod
    def _seen(row, user):
        return row.version, access.digest(row, access.audience(row, user))
