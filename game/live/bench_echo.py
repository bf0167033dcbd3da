"""A bare websocket echo through the channel layer: the reference that ``bench/load.py`` measures the
match pipeline against. Routed at ``/ws/bench-echo/<room>/`` only when ``settings.BENCH_ECHO`` is on
(env ``BENCH_ECHO=1``); never in production.

It copies the match socket's message pattern and nothing else: a client's frame is acknowledged to
the sender, then a ``group_send`` reaches every socket in the room (in any process, like the match
doorbell), and each socket sends a ``version`` frame and a ``state`` frame padded to ``?pad=`` bytes
(about the size of a real ``state``). No database, no engine, no views: what is left of the game's
cost once those are gone is the server's websocket and channel-layer plumbing.
"""
import json
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer

from .protocol import encode

MAX_FRAME_BYTES = 8 * 1024


def room_group(room):
    return f"bench-echo-{room}"


class BenchEchoConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = room_group(self.scope["url_route"]["kwargs"]["room"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        try:
            pad = int((query.get("pad") or ["0"])[0])
        except ValueError:
            pad = 0
        # The padded frame must stay within the protocol's frame size, like a real state frame.
        self.pad = "x" * max(0, min(pad, MAX_FRAME_BYTES - 100))
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.joined = True
        await self.accept()

    async def disconnect(self, code):
        if getattr(self, "joined", False):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is None or len(text_data) > MAX_FRAME_BYTES:
            await self.send_json({"type": "error", "code": "bad_frame"})
            return
        try:
            frame = json.loads(text_data)
            client_id, version, seat = str(frame["id"])[:64], int(frame["version"]), int(frame["seat"])
        except (ValueError, TypeError, KeyError):
            await self.send_json({"type": "error", "code": "bad_frame"})
            return
        await self.send_json({"type": "ack", "id": client_id, "version": version, "duplicate": False})
        await self.channel_layer.group_send(self.group, {"type": "bench.echo", "version": version, "seat": seat})

    async def bench_echo(self, message):
        version = message["version"]
        await self.send_json({"type": "version", "version": version, "seat": message["seat"], "events": []})
        await self.send_json({"type": "state", "version": version, "pad": self.pad})

    async def send_json(self, content):
        await self.send(text_data=encode(content))
