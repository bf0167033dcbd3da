"""The bridge: a contest program, run as it was run in 2021, playing one seat over the bot socket.

To the site the bridge is just another program (docs/bot-api.md): one token, one seat, the same
clocks, forfeits and resume. To the contest program it is the judge: it sends the SDK's messages
(``translator``), allows 3 s for each answer, and kills the program at the end (an SDK program
never exits by itself: at end of input it spins). A program that crashes, stays silent past 3 s or
answers with something that is no move loses the match, and the bridge tells the site why; a move
the rules refuse is passed on as it is, and the site's engine refuses it (the same loss).
"""
import asyncio
import itertools
import json
import os
import signal
from dataclasses import dataclass

from . import sdk
from .translator import Translator

MOVE_SECONDS = 3.0
RECONNECTS = 5
# How long a stopping bridge waits for the site to cancel the open match it created.
CANCEL_SECONDS = 5.0
SEAT_ERRORS = ("bad_token", "no_match", "not_open", "bad_level", "too_many", "busy", "bad_field")


class ProgramError(Exception):
    """The program broke the rules of play; ``reason`` is the site's: "timeout" or "illegal"."""

    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason
        self.message = message


class BridgeError(Exception):
    """The bridge could not play: refused token or seat, or the connection could not be restored."""


class ConnectionLost(Exception):
    """The socket to the site closed; the transport raises it from ``recv`` and ``send``."""


class Program:
    """The contest program as a child process, in a session of its own (so it is killed whole)."""

    def __init__(self, argv, *, cwd=None, on_stderr=None):
        self.argv, self.cwd = list(argv), cwd
        self.on_stderr = on_stderr or (lambda line: None)
        self.process = None
        self.drain = None

    async def start(self):
        self.process = await asyncio.create_subprocess_exec(
            *self.argv, cwd=self.cwd, start_new_session=True,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        # Drained all along: a program writing debug output must never block on a full pipe.
        self.drain = asyncio.create_task(self._drain())

    async def _drain(self):
        while line := await self.process.stderr.readline():
            self.on_stderr(line.decode("utf-8", "replace").rstrip("\n"))

    async def ask(self, message, seconds):
        """Send one message and read the program's answer within ``seconds``."""
        try:
            self.process.stdin.write(sdk.encode(message))
            await self.process.stdin.drain()
            async with asyncio.timeout(seconds):
                prefix = await self.process.stdout.readexactly(4)
                body = await self.process.stdout.readexactly(sdk.answer_length(prefix))
        except TimeoutError:
            raise ProgramError("timeout", f"it did not answer {message['Action']} within {seconds:g} s") from None
        except (asyncio.IncompleteReadError, BrokenPipeError, ConnectionResetError):
            raise ProgramError("illegal", f"it crashed ({await self._exit_status()}) before answering {message['Action']}") from None
        except sdk.AnswerError as error:
            raise ProgramError("illegal", str(error)) from None
        try:
            return sdk.decode_answer(body)
        except sdk.AnswerError as error:
            raise ProgramError("illegal", str(error)) from None

    async def _exit_status(self):
        try:
            code = await asyncio.wait_for(self.process.wait(), 1)
        except TimeoutError:
            return "its output closed"
        return f"killed by signal {-code}" if code < 0 else f"exit status {code}"

    async def stop(self):
        """Kill the program's whole process group: even once the program itself has exited, a child
        it started may still be running in it (a shell script's, say)."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        await self.process.wait()
        if self.drain:
            await self.drain


@dataclass
class Outcome:
    match: int | None
    seat: int | None
    status: str
    winner: int | None
    end_reason: str | None
    forfeit: str | None  # why this program lost by its own fault, in words


class Bridge:
    """``connect()`` opens a socket to the bot endpoint (``send``/``recv`` text, ``close``);
    ``seat_request`` is the frame that takes the seat (``play``, ``create`` or ``join``)."""

    def __init__(self, program, connect, seat_request, *, move_seconds=MOVE_SECONDS, say=print):
        self.program, self.connect, self.seat_request = program, connect, seat_request
        self.move_seconds, self.say = move_seconds, say
        self.socket = None
        self.match_id = self.seat = self.version = None
        self.translator = None
        self.pending = None  # our command frame the site has not acknowledged yet
        self.last_state = None
        self.forfeit = None
        self.refused = None
        self.ids = (f"c{n}" for n in itertools.count(1))

    async def run(self):
        """Play the match to its end. However the bridge stops (the end, an error, a signal
        cancelling it), the program is killed and a match it opened that nobody joined is cancelled."""
        try:
            await self.program.start()
            self.socket = await self._open(self.seat_request)
            return await self._play()
        finally:
            await self.program.stop()
            await self._cancel_open_match()
            if self.socket is not None:
                await self.socket.close()

    async def _cancel_open_match(self):
        """Left open, the match would wait in the lobby for an opponent with no program to meet."""
        if self.seat_request["type"] != "create" or self.match_id is None and self.socket is None:
            return
        if self.last_state is not None and self.last_state["status"] != "open":
            return
        try:
            async with asyncio.timeout(CANCEL_SECONDS):
                cancelled = await self._cancel()
        except (ConnectionLost, BridgeError, OSError, TimeoutError):
            cancelled = False
        if cancelled:
            self.say(f"match {self.match_id} cancelled")
        elif self.match_id is not None:
            self.say(f"could not cancel match {self.match_id}: cancel it in the lobby")

    async def _cancel(self):
        if self.socket is None:
            self.socket = await self._open({"type": "join", "match": self.match_id, "version": self.version})
        # Stopped between sending ``create`` and hearing of the match: its frame is on the way.
        while self.match_id is None:
            frame = json.loads(await self.socket.recv())
            if frame["type"] == "error":
                return False
            if frame["type"] == "match":
                self.match_id = frame["match"]
        await self.socket.send(json.dumps({"type": "cancel", "id": "cancel"}))
        while (frame := json.loads(await self.socket.recv())).get("id") != "cancel":
            pass
        return frame["type"] == "ack"

    async def _open(self, request):
        socket = await self.connect()
        welcome = json.loads(await socket.recv())
        if welcome.get("type") != "welcome":
            await socket.close()
            raise BridgeError(f"the site refused the token: {welcome.get('message')}")
        await socket.send(json.dumps(request))
        return socket

    async def _play(self):
        while True:
            try:
                frame = json.loads(await self.socket.recv())
            except ConnectionLost:
                await self._reconnect()
                continue
            kind = frame["type"]
            if kind == "match" and self.translator is None:
                self.match_id, self.seat = frame["match"], frame["seat"]
                self.translator = Translator(self.seat)
                self.say(f"match {self.match_id}, playing seat {self.seat}")
            elif kind == "error":
                await self._on_error(frame)
            elif kind == "ack" and self.pending and frame["id"] == self.pending["id"]:
                self.pending = None
                # After a reconnect the state can come before the ack of the command sent again.
                if self.last_state and self.last_state["version"] >= frame["version"]:
                    await self._decide(self.last_state)
            elif kind == "version":
                await self._on_version(frame)
            elif kind in ("state", "snapshot"):
                self._refuse_own_match(frame)
                self.version = frame["version"]
                self.last_state = frame
                self.translator.sync(frame["view"])
                if frame["status"] in ("finished", "cancelled"):
                    return self._outcome(frame)
                await self._decide(frame)

    def _refuse_own_match(self, frame):
        """A ``join`` that finds the match still open took the host's own seat: the token is the
        host's account, and the bridge would wait for an opponent that can never come."""
        if self.seat_request["type"] == "join" and frame["status"] == "open":
            raise BridgeError(
                f"match {self.match_id} is open and hosted by this token's account: an account cannot play "
                "itself, so the second program needs an API token of another account"
            )

    async def _on_error(self, frame):
        if self.match_id is None and frame["code"] in SEAT_ERRORS:
            raise BridgeError(f"the site refused the seat: {frame['message']}")
        self.say(f"site: {frame['code']}: {frame['message']}")
        if not (self.pending and frame["id"] == self.pending["id"]):
            return
        # Refused: a rule broken (the site ends the match), or made against an older version than
        # the site's (the newer state may be here already: decide on it).
        self.pending = None
        self.refused = frame["message"]
        if frame["code"] == "stale_version" and self.last_state:
            await self._decide(self.last_state)

    async def _on_version(self, frame):
        self.version = frame["version"]
        finish = self.translator.absorb(frame["events"])
        if finish is None or self.forfeit is not None:
            return
        over = any(event["type"] == "match_end" for event in frame["events"])
        try:
            sdk.finish_ok(await self.program.ask(finish, self.move_seconds))
        except (ProgramError, sdk.AnswerError) as error:
            if not over:
                await self._lose(getattr(error, "reason", "illegal"), str(error))

    async def _decide(self, frame):
        if self.pending is not None or self.forfeit is not None:
            return
        due = self.translator.due(frame)
        if due is None:
            return
        kind, message = due
        try:
            command = self.translator.command(kind, await self.program.ask(message, self.move_seconds), frame)
        except ProgramError as error:
            await self._lose(error.reason, error.message)
            return
        except sdk.AnswerError as error:
            await self._lose("illegal", str(error))
            return
        self.pending = {"type": "command", "id": next(self.ids), "version": frame["version"], "command": command}
        await self._send(self.pending)

    async def _lose(self, reason, why):
        """The program broke the rules: it is stopped and its seat resigns, saying why."""
        self.forfeit = why
        self.say(f"the program forfeits ({reason}): {why}")
        await self.program.stop()
        self.pending = {"type": "resign", "id": "forfeit", "reason": reason}
        await self._send(self.pending)

    async def _send(self, frame):
        try:
            await self.socket.send(json.dumps(frame))
        except ConnectionLost:
            # Sent again once the socket is back (a command under the same id applies once).
            await self._reconnect()

    async def _reconnect(self):
        if self.match_id is None:
            raise BridgeError("the connection closed before a seat was taken")
        self.socket = None
        for attempt in range(RECONNECTS):
            await asyncio.sleep(0.5 * 2**attempt)
            try:
                socket = await self._open({"type": "join", "match": self.match_id, "version": self.version})
                if self.pending:
                    await socket.send(json.dumps(self.pending))
            except (ConnectionLost, OSError):
                continue
            self.socket = socket
            return
        raise BridgeError(f"lost the connection to match {self.match_id}")

    def _outcome(self, frame):
        forfeit = self.forfeit
        if forfeit is None and frame["end_reason"] == "illegal" and frame["winner"] == 1 - self.seat:
            forfeit = f"illegal move: {self.refused}"
        return Outcome(self.match_id, self.seat, frame["status"], frame["winner"], frame["end_reason"], forfeit)
