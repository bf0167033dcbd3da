"""Programs on the bot socket, for tests: token login, frame collection, a random player, and the
example program (examples/random_bot.py) run against the in-process bot socket."""
import asyncio
import importlib.util
import json
import random
import time
import sys
from pathlib import Path

from channels.db import database_sync_to_async
from websockets.exceptions import ConnectionClosedError

from game.programs import tokens
from game.games.aquawar.engine import SPECIES
from tests.game.leaks import check_events, check_structure
from tests.sockets import RecordingSocket

TIMEOUT = 15
# How long the example program's socket waits for a frame in the tests (see ``InProcess.recv``).
IDLE_TIMEOUT = 150


class BotSocket(RecordingSocket):
    """A program's socket; keeps every frame it received (decoded), for scanning afterwards."""

    timeout = TIMEOUT

    def __init__(self, token=None, *, in_query=False, headers=()):
        path = "/ws/bot/"
        headers = list(headers)
        if token and in_query:
            path += f"?token={token}"
        elif token:
            headers.append((b"authorization", f"Bearer {token}".encode()))
        super().__init__(path, headers)

    def keep(self, text):
        frame = json.loads(text)
        self.frames.append(frame)
        return frame

    async def receive_until(self, done):
        while True:
            frame = await self.receive()
            if done(frame):
                return frame


async def token_for(user):
    return (await database_sync_to_async(tokens.create)(user, "test"))[1]


async def program(user):
    """A connected, welcomed program socket of ``user``."""
    socket = BotSocket(await token_for(user))
    assert await socket.connect()
    welcome = await socket.receive()
    assert welcome["type"] == "welcome" and welcome["user"] == user.username
    return socket


async def take_seat(socket, request):
    """Send create/join/play; returns the ``match`` frame."""
    await socket.send(request)
    return await socket.receive_until(lambda f: f["type"] in ("match", "error"))


def random_command(frame, rng):
    """A uniformly random legal command for a state frame, or None when it is not this seat's move."""
    if frame["pick"]:
        team = rng.sample(frame["pick"]["species"], frame["pick"]["count"])
        command = {"pick": team}
        if "mimic_fish" in team:
            command["mimic"] = rng.choice([s for s in SPECIES if s != "mimic_fish"])
        return command
    return rng.choice(frame["legal"]) if frame["legal"] else None


async def play_out(socket, rng=None, *, first=None):
    """Answer every state with a random legal command until the match is over; the final state.

    Works for the bot socket and the match socket alike (same frames). ``first``: a frame already
    received. A command is sent only once the previous one is acknowledged, so an older state
    crossing it on the wire never makes the player move twice.
    """
    rng = rng or random.Random(7)
    waiting = None
    sent = 0
    frame = first
    while True:
        if frame is None:
            frame = await socket.receive()
        kind = frame["type"]
        if kind in ("ack", "error") and frame.get("id") == waiting:
            assert kind == "ack", frame
            waiting = None
        elif kind in ("state", "snapshot"):
            if frame["status"] in ("finished", "cancelled"):
                return frame
            command = None if waiting else random_command(frame, rng)
            if command is not None:
                sent += 1
                waiting = f"t{sent}"
                await socket.send({"type": "command", "id": waiting, "version": frame["version"], "command": command})
        frame = None


def assert_no_hidden_data(frames, seat):
    """Every frame a seat received shows only what that seat may know (the structural checks of
    the match socket's tests: enemy species, ATK, shields, effects, picks and redacted events)."""
    live = [f for f in frames if f["type"] in ("state", "snapshot") and f["status"] == "live"]
    for frame in live:
        check_structure(frame, seat)
    # Versions sent after the end are projected for everyone (the match is over): not checked.
    last_live = max(f["version"] for f in live)
    for frame in frames:
        if frame["type"] == "version" and frame["version"] <= last_live:
            check_events(frame["events"], seat)
    assert live


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EXAMPLE = EXAMPLES / "random_bot.py"
# The examples import what they share (botclient.py) from their own folder, as a script run from
# there does.
sys.path.insert(0, str(EXAMPLES))


def load_example(path=EXAMPLE):
    """A fresh copy of an example (by default examples/random_bot.py) whose sockets are the
    in-process bot socket's."""
    spec = importlib.util.spec_from_file_location(f"{path.stem}_example", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.botclient.connect = InProcess
    return module


class InProcess:
    """What the examples' ``connect(url, additional_headers=...)`` gives, on the in-process socket;
    ``drop_all`` and ``down`` play a server restart (the sockets cut, new ones refused meanwhile)."""

    open = set()
    down = False

    def __init__(self, url, additional_headers):
        token = additional_headers["Authorization"].removeprefix("Bearer ")
        self.socket = BotSocket(token)
        self.dropped = asyncio.Event()

    async def __aenter__(self):
        if InProcess.down:
            raise ConnectionRefusedError("the server is down")
        assert await self.socket.connect()
        InProcess.open.add(self)
        return self

    async def __aexit__(self, *exc):
        InProcess.open.discard(self)
        if not self.dropped.is_set():
            await self.socket.disconnect()

    @classmethod
    async def drop_all(cls):
        for connection in list(cls.open):
            cls.open.discard(connection)
            connection.dropped.set()
            await connection.socket.disconnect()

    async def recv(self):
        # A real socket waits as long as it takes: a program between rounds may hear nothing for a
        # while (the other tables still playing). The test bounds the whole run instead.
        receiving = asyncio.ensure_future(self.socket.communicator.receive_output(timeout=IDLE_TIMEOUT))
        dropping = asyncio.ensure_future(self.dropped.wait())
        await asyncio.wait({receiving, dropping}, return_when=asyncio.FIRST_COMPLETED)
        dropping.cancel()
        if not receiving.done():
            receiving.cancel()
            raise ConnectionClosedError(None, None)
        message = receiving.result()
        if message["type"] == "websocket.close":
            raise ConnectionClosedError(None, None)
        return message["text"]

    async def send(self, text):
        if self.dropped.is_set():
            raise ConnectionClosedError(None, None)
        await self.socket.communicator.send_to(text_data=text)


def wait_for(predicate, seconds=15):
    """Poll ``predicate`` until it holds; fail the test after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)
