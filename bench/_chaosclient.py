"""The fault test's program: one seat of one match over the bot socket, reconnecting by itself.

A ``Seat`` plays uniformly random legal commands, like ``examples/random_bot.py``, and keeps a
record of everything for ``bench/_chaosverify.py`` to check against the database afterwards:

- every frame it received, in order, with the number of the connection it came on (and a marker
  where a connection dropped);
- every command it sent (client id, version, command) and every ``ack``.

When its socket drops (its server was killed, or closed the socket when Redis went away) it
reconnects to the same server with exponential back-off and takes its seat back with
``{"type": "join", "match": M, "version": V}``, V being the last version it received: the server
sends exactly the versions after V, then a ``state``. A command sent but not acknowledged when the
socket dropped is sent again, with the same id and version, before anything else: the server
acknowledges it once (``duplicate`` true if it had already been applied) and never applies it twice.

A ``Spectator`` watches a match over the match socket instead, anonymous, the way a browser does,
and resumes with ``hello`` and its last version.

A connected socket that hears nothing for ``stall_seconds`` while the match is still being played is
*stalled* (a doorbell went missing): it is counted and the seat reconnects, so the run finishes and
the failure is reported instead of hanging.
"""
import asyncio
import json
import random
import time

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake, WebSocketException

from game.games.aquawar.engine import SPECIES

MIMIC = "mimic_fish"
BACKOFF_FIRST = 0.05
BACKOFF_MAX = 1.0
DROPPED = None  # in ``Seat.received``: the connection ended here


class Refused(Exception):
    """The server turned the program away for good (a bad token): reconnecting will not help."""


class Seat:
    def __init__(self, match_no, seat, user, token, url, *, rng, think, stall_seconds, give_up, find_match,
                 may_move):
        self.match_no = match_no
        self.seat = seat  # 0: creates the match (host), 1: joins it (guest)
        self.user = user
        self.token = token
        self.url = url
        self.rng = rng
        self.think = think
        self.stall_seconds = stall_seconds
        self.give_up = give_up
        # The host's lookup of the match it created, for a socket that dropped before the server's
        # ``match`` frame arrived (each host hosts one match: the answer is unambiguous).
        self.find_match = find_match
        # Awaited before every move: the chaos task holds the programs while a fault is due.
        self.may_move = may_move
        self.match_id = None
        self.match_known = asyncio.get_running_loop().create_future()
        # What was received: [(connection number, frame text or DROPPED)].
        self.received = []
        self.connections = 0
        self.reconnects = 0
        self.stalls = 0
        self.stall_log = []
        self.create_sent = False
        self.sent = {}  # client id -> (version, command), the first time it was sent
        self.resent = 0
        self.acks = {}  # client id -> [(version, duplicate)], every ack received
        self.errors = []  # (client id, code)
        self.version = None  # the last version received: where a reconnect resumes
        self.pending = None  # (id, version, command): sent, neither acknowledged nor refused yet
        self.ack_floor = 0  # act only on states at least this new (our own last command's version)
        self.resend_due = False
        self.seated = False  # the current connection has its seat (a state or snapshot came)
        self.final = None  # the finished state
        self.last_state = None  # the newest state or snapshot of a match still being played
        self.counter = 0
        self.gave_up = False
        self.crashed = None  # why ``run`` ended abnormally, if it did

    @property
    def done(self):
        return self.final is not None

    def label(self):
        return f"match#{self.match_no} seat {self.seat} ({self.user})"

    async def run(self, opponent_match=None):
        """Play until the match is over (or the seat gives up reconnecting)."""
        if opponent_match is not None:
            self.match_id = await opponent_match
        delay = BACKOFF_FIRST
        down_since = None
        while not self.done:
            try:
                async with connect(
                    self.address(),
                    **self.credentials(),
                    open_timeout=5,
                    ping_interval=5,
                    ping_timeout=10,
                    close_timeout=1,
                    max_size=2**22,
                ) as ws:
                    self.connections += 1
                    if self.connections > 1:
                        self.reconnects += 1
                    self.seated = False
                    await self.session(ws)
            except Refused:
                raise
            except (OSError, asyncio.TimeoutError, InvalidHandshake, WebSocketException, EOFError):
                pass  # the server is down or went away: try again below
            if self.done:
                break
            if self.seated:
                # The last connection got as far as its seat: back off from the start again. (One
                # that fails right after the handshake, say while Redis is down, keeps backing off.)
                delay, down_since = BACKOFF_FIRST, None
            if not self.received or self.received[-1][1] is not DROPPED:
                self.received.append((self.connections, DROPPED))
            now = time.monotonic()
            down_since = down_since or now
            if now - down_since > self.give_up:
                self.gave_up = True
                return
            await asyncio.sleep(delay * self.rng.uniform(0.5, 1.0))
            delay = min(delay * 2, BACKOFF_MAX)

    def address(self):
        return self.url

    def credentials(self):
        return {"additional_headers": {"Authorization": f"Bearer {self.token}"}}

    async def session(self, ws):
        await self.greet(ws)
        self.resend_due = self.pending is not None
        await self.listen(ws)

    async def greet(self, ws):
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
        self.received.append((self.connections, json.dumps(welcome)))
        if welcome.get("type") != "welcome":
            raise Refused(f"{self.label()}: {welcome}")
        if self.seat == 0 and self.match_id is None and self.create_sent:
            # The socket that created the match dropped before it was told which: ask the database.
            self.match_id = await self.find_match(self.user)
        if self.match_id is None:
            await self.send(ws, {"type": "create", "private": False})
            self.create_sent = True
        else:
            # Take the seat back, and resume right after the last version received (0 at first).
            resume = self.version if self.version is not None else 0
            await self.send(ws, {"type": "join", "match": self.match_id, "version": resume})

    async def listen(self, ws):
        while not self.done:
            try:
                text = await asyncio.wait_for(ws.recv(), self.stall_seconds)
            except asyncio.TimeoutError:
                # Connected, yet nothing for this long while the match goes on: a doorbell was lost.
                self.stalls += 1
                last = json.loads(self.received[-1][1]) if self.received[-1][1] else {}
                to_move = bool(self.last_state and (self.last_state.get("legal") or self.last_state.get("pick")))
                self.stall_log.append(
                    f"at {time.strftime('%H:%M:%S')} connection {self.connections}, version {self.version}, "
                    f"last frame {last.get('type')} v{last.get('version')}, our move: {to_move}, pending: {self.pending}"
                )
                return
            self.received.append((self.connections, text))
            await self.on_frame(ws, json.loads(text))

    async def send(self, ws, frame):
        await ws.send(json.dumps(frame, separators=(",", ":")))

    async def on_frame(self, ws, frame):
        kind = frame["type"]
        if kind == "match":
            self.match_id = frame["match"]
            if not self.match_known.done():
                self.match_known.set_result(frame["match"])
        elif kind == "version":
            self.version = frame["version"]
        elif kind in ("state", "snapshot"):
            self.seated = True
            if kind == "snapshot":
                self.version = frame["version"]
            if frame["status"] in ("finished", "cancelled"):
                self.final = frame
                return
            self.last_state = frame
            if self.resend_due:
                # First thing after a reconnect: the command whose fate the drop hid, exactly as before.
                self.resend_due = False
                client_id, version, command = self.pending
                self.resent += 1
                await self.send(ws, {"type": "command", "id": client_id, "version": version, "command": command})
                return
            await self.maybe_move(ws, frame)
        elif kind == "ack":
            self.acks.setdefault(frame["id"], []).append((frame["version"], frame["duplicate"]))
            if self.pending and frame["id"] == self.pending[0]:
                self.pending = None
                self.ack_floor = max(self.ack_floor, frame["version"])
                # A re-sent command that had been applied changes nothing, so no new state follows:
                # the state already here may be the one to act on.
                if self.last_state is not None:
                    await self.maybe_move(ws, self.last_state)
        elif kind == "error":
            self.errors.append((frame.get("id"), frame["code"]))
            if self.pending and frame.get("id") == self.pending[0]:
                # Refused, so not applied (stale_version, match_over, …): decide again on the next state.
                self.pending = None
                if frame["code"] == "rate_limited" and self.last_state is not None:
                    await asyncio.sleep(0.5)
                    await self.maybe_move(ws, self.last_state)

    async def maybe_move(self, ws, state):
        if self.pending is not None or state["version"] < self.ack_floor or state["status"] != "live":
            return
        command = self.choose(state)
        if command is None:
            return
        await self.may_move()
        if self.think:
            await asyncio.sleep(self.rng.uniform(0, self.think))
        self.counter += 1
        client_id = f"m{self.match_id}-s{self.seat}-c{self.counter}"
        self.pending = (client_id, state["version"], command)
        self.sent[client_id] = (state["version"], command)
        await self.send(ws, {"type": "command", "id": client_id, "version": state["version"], "command": command})

    def choose(self, state):
        """A uniformly random legal command, or None when it is not this seat's move."""
        if state.get("pick"):
            options = state["pick"]
            team = self.rng.sample(options["species"], options["count"])
            command = {"pick": team}
            if MIMIC in team:
                command["mimic"] = self.rng.choice([s for s in SPECIES if s != MIMIC])
            return command
        if state.get("legal"):
            return self.rng.choice(state["legal"])
        return None


class Spectator(Seat):
    """Someone watching a match over the match socket (``/ws/match/<id>/``, JSON, anonymous): it
    never moves, and after a reconnect resumes with ``hello`` and the last version it received, as
    the match page does. ``url`` is the server's base address; the match is the host's."""

    def __init__(self, match_no, url, *, rng, stall_seconds, give_up):
        super().__init__(match_no, None, "spectator", None, url, rng=rng, think=0, stall_seconds=stall_seconds,
                         give_up=give_up, find_match=None, may_move=None)

    def label(self):
        return f"match#{self.match_no} spectator"

    def address(self):
        return f"{self.url}/ws/match/{self.match_id}/"

    def credentials(self):
        # The match socket, like the site's pages, only takes connections from the site's own origin.
        return {"origin": self.url.replace("ws://", "http://", 1)}

    async def greet(self, ws):
        await self.send(ws, {"type": "hello", "version": self.version or 0})

    async def maybe_move(self, ws, state):
        return


def make_rng(seed, match_no, seat):
    return random.Random(f"{seed}:{match_no}:{seat}")
