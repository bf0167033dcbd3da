"""Running the bridge in the tests: its socket is the bot socket through Channels' test
communicator, its program ``sdk_program.py``; and the checks of what it received and sent."""
import json
import sys
from pathlib import Path

from channels.db import database_sync_to_async

from game.games.aquawar import engine
from game.games.aquawar.contest.actioninfo import species_id
from game.games.aquawar.contest.bridge import Bridge, ConnectionLost, Program
from game.models import Match, MatchEvent
from tests.bots.helpers import token_for
from tests.game.leaks import fielded_by, hidden_from, named_by, scan_json
from tests.sockets import RecordingSocket

SDK_PROGRAM = Path(__file__).with_name("sdk_program.py")
TIMEOUT = 20
ACTION_INFO_KEYS = {"ActionFish", "hit", "passive", "skill"}
MESSAGE_KEYS = {
    "Pick": {"Action", "RemainFishs", "FirstMover"},
    "Assert": {"Action", "EnemyAssert", "EnemyAction", "MyAction", "GameInfo"},
    "Action": {"Action", "AssertReply", "GameInfo"},
    "Finish": {"Action", "Result", "isStateLimitExceed", "MyAssert", "MyAction", "EnemyAssert", "EnemyAction"},
}


class SiteSocket(RecordingSocket):
    """The bridge's transport: text in and out, ``ConnectionLost`` once the server closes it."""

    timeout = TIMEOUT

    def __init__(self, token):
        super().__init__("/ws/bot/", [(b"authorization", f"Bearer {token}".encode())])

    async def recv(self):
        message = await self.communicator.receive_output(timeout=self.timeout)
        if message["type"] == "websocket.close":
            raise ConnectionLost
        return self.keep(message["text"])

    async def close(self):
        await self.disconnect()


class RecordingProgram(Program):
    """Keeps every message sent, with the match version the bridge had reached when sending it."""

    def __init__(self, argv):
        self.lines = []
        super().__init__(argv, on_stderr=self.lines.append)
        self.sent = []
        self.bridge = None

    async def ask(self, message, seconds):
        self.sent.append((self.bridge.version, message))
        return await super().ask(message, seconds)


class DroppingSocket(SiteSocket):
    """A socket whose connection drops after ``frames`` frames, as a network failure would."""

    def __init__(self, token, frames):
        super().__init__(token)
        self.left = frames

    async def recv(self):
        self.left -= 1
        if self.left < 0:
            await self.disconnect()
            raise ConnectionLost
        return await super().recv()


async def run_bridge(user, request, *program_args, move_seconds=30.0, drop_after=None):
    """Play one match through the bridge; ``(outcome, bridge, sockets)``. ``drop_after``: the first
    connection drops after that many frames."""
    token = await token_for(user)
    sockets = []

    async def connect():
        socket = DroppingSocket(token, drop_after) if drop_after and not sockets else SiteSocket(token)
        assert await socket.connect()
        sockets.append(socket)
        return socket

    program = RecordingProgram([sys.executable, str(SDK_PROGRAM), *program_args])
    bridge = Bridge(program, connect, request, move_seconds=move_seconds, say=lambda line: None)
    program.bridge = bridge
    outcome = await bridge.run()
    return outcome, bridge, sockets


@database_sync_to_async
def history(match_id):
    """``[(version, state after it, its full events)]`` of a stored match, and the match."""
    match = Match.objects.get(pk=match_id)
    state = engine.new_match(match.seed, match.first_mover)
    steps = [(0, state, [])]
    for version, seat, command in MatchEvent.objects.filter(match=match).order_by("version").values_list(
        "version", "seat", "command"
    ):
        if "resign" in command:
            state, events = engine.resign(state, seat, command.get("reason", "resign"))
        else:
            state, events = engine.apply(state, seat, command)
        steps.append((version, state, events))
    return match, steps


def scan_received(texts, seat, steps, final_version):
    """Every frame the bridge received while the match was live, against what ``seat`` may know
    at that version (the scanners every socket's frames go through)."""
    events_so_far, secrets = [], {}
    for version, state, events in steps:
        events_so_far += events
        seen = engine.view(state, "all")
        secrets[version] = hidden_from(seen, seat) - named_by(events_so_far) - fielded_by(seen, seat)
    frames = [json.loads(text) for text in texts]
    # The socket's last catch-up (its versions, then a state) may come once the match is over: every
    # version it names is then shown as everyone may see it. It begins after the last state of a
    # version the match was still live at.
    live_until = max(
        (i for i, f in enumerate(frames) if f.get("type") in ("state", "snapshot") and (f.get("version") or 0) < final_version),
        default=-1,
    )
    scanned = 0
    for index, (text, frame) in enumerate(zip(texts, frames)):
        version = frame.get("version")
        if version is None or version >= final_version or index > live_until:
            continue  # seat frames (no version), and the last catch-up: shown to all, the match is over
        scan_json([text], seat, secrets[version])
        scanned += len(secrets[version])
    return scanned


def check_sent(sent, seat, steps):
    """Every message the program was sent tells exactly what ``seat`` knew at that version."""
    states = {version: state for version, state, _ in steps}
    for version, message in sent:
        assert set(message) <= MESSAGE_KEYS[message["Action"]], message
        seen = engine.view(states[version], seat)
        if message["Action"] == "Pick":
            assert message["RemainFishs"] == [species_id(s) for s in seen["available"][seat]]
        if "GameInfo" in message:
            check_game_info(message["GameInfo"], seen, seat)
        for key in ("EnemyAction", "MyAction"):
            if message.get(key) is not None:
                assert set(message[key]) <= ACTION_INFO_KEYS, message[key]
                assert message[key]["skill"]["type"] in ("aoe", "infight", "crit", "subtle", "normalattack")


def check_game_info(info, seen, seat):
    mine, theirs = seen["teams"][seat], seen["teams"][1 - seat]
    assert info["EnemyFish"] == [species_id(f["fish"]) if f["revealed"] else -1 for f in theirs]
    assert info["EnemyHP"] == [f["hp"] for f in theirs]
    assert info["MyFish"] == [species_id(f["fish"]) * (-1 if f["revealed"] else 1) for f in mine]
    assert info["MyHP"] == [f["hp"] for f in mine] and info["MyATK"] == [f["atk"] for f in mine]


def sdk_finish_reason(message):
    """``last_round_finish_reason`` as the official SDK works it out of a Finish (``Action_Finish``):
    1 its own assertion ended the round, 2 its own action, 3 the enemy's assertion, 4 the enemy's
    action, 6 "should not happen"."""
    def present(key):
        return message.get(key) is not None

    if present("MyAssert"):
        return 1
    if present("MyAction"):
        if present("EnemyAssert"):
            return 4 if present("EnemyAction") else 3
        return 2
    return 6


def check_finishes(sent, seat, steps):
    """Each round's Finish tells the SDK who won it and how it ended, as the match's log says."""
    finishes = [message for _, message in sent if message["Action"] == "Finish"]
    endings = []
    for _version, _state, events in steps:
        ended = next((e for e in events if e["type"] == "round_end"), None)
        if ended:
            by = events[0]["player"]
            in_assertion = events[0]["type"] in ("assert", "assert_skip")
            reason = (1 if in_assertion else 2) if by == seat else (3 if in_assertion else 4)
            endings.append(("Win" if ended["winner"] == seat else "Lose", ended["reason"] == "turn_limit", reason))
    told = [(m["Result"], m["isStateLimitExceed"], sdk_finish_reason(m)) for m in finishes]
    assert told == endings and endings
