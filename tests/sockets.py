"""What every test socket shares: one ASGI communicator and the frames it has received so far."""
import json

from channels.testing import WebsocketCommunicator

from aquawar_site.asgi import application


class RecordingSocket:
    timeout = 5

    def __init__(self, path, headers, address="127.0.0.1"):
        self.communicator = WebsocketCommunicator(application, path, headers=headers)
        # What daphne puts there: the address the connection came from.
        self.communicator.scope["client"] = [address, 50000]
        self.frames = []

    async def connect(self):
        connected, _ = await self.communicator.connect(timeout=self.timeout)
        return connected

    async def disconnect(self):
        # The communicator's own 1 s would cancel the server's disconnect handler silently on a busy
        # machine (its timeout swallows the cancellation), so the socket's goodbye (presence rows,
        # rings) would be half done; daphne gives a closing application 10 s.
        await self.communicator.disconnect(timeout=self.timeout)

    async def send(self, frame):
        await self.communicator.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))

    async def receive_text(self):
        return await self.communicator.receive_from(timeout=self.timeout)

    def keep(self, text):
        """Record a frame received; returns it as the test reads it."""
        self.frames.append(text)
        return text

    async def receive(self):
        return self.keep(await self.receive_text())

    async def closed_with(self):
        """The close code the server sent (after any frames before it, which are kept)."""
        while True:
            message = await self.communicator.receive_output(timeout=self.timeout)
            if message["type"] == "websocket.close":
                return message.get("code")
            self.keep(message["text"])
