"""三国 seats played by programs over ``/ws/sanguo/<id>/bot/``: a 27-seat 群英荟萃局 whose every seat
is a program signed up over its socket, submitting random legal commands from the ``state`` frames
it was pushed, the game master scripted through the services (default answers, closes at the
deadlines) through night 1 and day 1 (unless it ends sooner), then declaring a draw; each program
received only its own seat's views, in order; refused frames and commands change nothing; the
example program (examples/sanguo_random.py) plays a seat."""
import asyncio
import io
import itertools
import json
import random

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections

from game.games.three_kingdoms import engine
from game.games.three_kingdoms.engine.legal import concrete
from game.programs import tokens
from sanguo import programs, records, services
from sanguo.models import Event, Game
from tests.bots.helpers import EXAMPLES, load_example
from tests.security.fuzz import dumps, garbage, mutations
from tests.sockets import RecordingSocket

from tests.game.test_fanout import queries, whole_batches  # noqa: F401

from .helpers import DURATIONS, clock, deal_from, people, started_game  # noqa: F401
from .test_socket import open_game_socket
from .play import answer_as_gm, run_to_deadline

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def run(function, *args, **kwargs):
    return function(*args, **kwargs)


def canonical(value):
    """A view as it comes out of a frame (JSON keys are strings)."""
    return json.dumps(json.loads(json.dumps(value)), sort_keys=True)


# Not chosen at random: 自杀 and 议和 (every seat may ask it) would end the game before it is played,
# and a withdrawal undoes what the program just chose.
QUITTING = {"suicide", "peace", "cancel"}


# The game's seed and the programs': a game that ends by the rules in a few nights (a random 27-seat
# game lasts from one night to eight or more, a minute and more over 27 sockets).
SEED = 25
# Far more rounds than the game takes: one that does not end within them is a failure, not cut off.
ROUNDS = 60  # it takes 47 (seats dealt as below)


class Program(RecordingSocket):
    """One account's program on a game's socket; keeps every frame it received (decoded)."""

    timeout = 10

    def __init__(self, game_id, token, headers=()):
        super().__init__(f"/ws/sanguo/{game_id}/bot/", [(b"authorization", f"Bearer {token}".encode()), *headers])
        self.state = None
        self.sent = 0

    @classmethod
    async def open(cls, user, game_id):
        _row, token = await run(tokens.create, user, "sanguo")
        program = cls(game_id, token)
        assert await program.connect()
        welcome = await program.receive()
        assert welcome == {"type": "welcome", "user": user.username, "game": game_id, "language": "en"}
        return program

    def keep(self, text):
        frame = json.loads(text)
        self.frames.append(frame)
        if frame["type"] == "state":
            self.state = frame
        return frame

    async def until(self, done):
        while True:
            frame = await self.receive()
            if done(frame):
                return frame

    async def answer(self, frame):
        """Send ``frame``; the ``ack`` or ``error`` that answers it."""
        await self.send(frame)
        return await self.until(lambda f: f["type"] in ("ack", "error", "signed_up", "left"))

    async def sees(self, view):
        """Wait for the pushed ``state`` showing ``view`` (the server pushes every change of it)."""
        if self.state is None or canonical(self.state["view"]) != canonical(view):
            await self.until(lambda f: f["type"] == "state" and canonical(f["view"]) == canonical(view))

    async def play(self, rng, seat):
        """Maybe one random legal command of the last ``state`` (but ``QUITTING``), as a person would
        (most do)."""
        options = [c for c in self.state["legal"] if not QUITTING.intersection(c)]
        if not options or rng.random() > 0.7:
            return None
        self.sent += 1
        client_id = f"s{seat}-{self.sent}"
        answer = await self.answer({"type": "command", "id": client_id, "command": concrete(rng.choice(options), rng)})
        assert answer == {"type": "ack", "id": client_id, "duplicate": False}, answer
        return answer


def reload(row):
    row.refresh_from_db()
    return row


def views_by_version(row, seat):
    """The seat's view after every version of the game, consecutive repeats dropped."""
    state = engine.new_match(row.seed, row.mode, row.characters)
    out = []
    for actor, command in Event.objects.filter(game=row).order_by("version").values_list("actor", "command"):
        state, _events = engine.apply(state, records.actor_value(actor), command)
        if state["phase"] != "setup":
            seen = canonical(engine.view(state, seat))
            if not out or out[-1] != seen:
                out.append(seen)
    return out


def in_order(received, possible):
    """Whether ``received`` is a subsequence of ``possible``."""
    rest = iter(possible)
    return all(any(view == candidate for candidate in rest) for view in received)


# Two minutes a run: CI runs it once, on the embedded setup. What a program's socket does on Redis
# and PostgreSQL is the other tests' here, which run on both; this one is about a whole long game.
@pytest.mark.skipif(bool(settings.REDIS_URL), reason="the whole 27-seat game runs on the embedded setup only")
async def test_27_programs_play_a_crowd_game_to_its_end_each_seeing_only_its_own_seat(clock, monkeypatch):
    deal_from(monkeypatch, SEED)
    gm = await run(get_user_model().objects.create_user, "gm", password="x")
    row = await run(services.create_game, gm, mode="crowd", durations=DURATIONS)
    users = await run(people, 27)
    programs = [await Program.open(user, row.pk) for user in users]
    for count, program in enumerate(programs, start=1):
        assert await program.answer({"type": "sign_up"}) == {"type": "signed_up", "game": row.pk}
        state = await program.until(lambda f: f["type"] == "state")
        assert state["status"] == "recruiting" and state["signed_up"] == count and state["seats"] == 27
        assert state["view"] is None and state["legal"] == []
    # The game master deals the seats: drawn at the start they come from the system's randomness,
    # and the same seed's game then ran from 37 to over 60 rounds.
    for seat, user in enumerate(users):
        await run(services.assign_seat, row.pk, gm, user.pk, seat)
    await run(services.start, row.pk, gm)
    row = await run(reload, row)
    seats = dict(await run(lambda: list(row.seats.values_list("user_id", "seat"))))
    seat_of = [seats[user.pk] for user in users]
    assert seat_of == list(range(27))
    rng = random.Random(SEED)
    commands = 0
    for _round in range(ROUNDS):
        row = await run(reload, row)
        if row.status != Game.Status.LIVE:
            break
        for program, seat in zip(programs, seat_of):
            # Each acts on what it was pushed, once it has been pushed what it may now see.
            row = await run(reload, row)
            await program.sees(engine.view(row.state, seat))
            assert program.state["seat"] == seat and program.state["phase"] == row.state["phase"]
            commands += bool(await program.play(rng, seat))
        await run(answer_as_gm, row, gm)
        await run(run_to_deadline, row, clock)
        await run(answer_as_gm, row, gm)
    row = await run(reload, row)
    assert row.status == Game.Status.FINISHED and row.state["phase"] == "over"
    # Ended by the rules (ruling 40): countries destroyed, not a draw declared or a peace agreed.
    assert row.state["end_reason"] in ("conquest", "destroyed_together"), row.state["end_reason"]
    played = await run(lambda: Event.objects.filter(game=row).exclude(actor__in=("gm", "server")).count())
    assert played == commands > 27
    for program, seat in zip(programs, seat_of):
        await program.sees(engine.view(row.state, seat))
        assert program.state["status"] == "finished" and program.state["legal"] == []
        assert {f["type"] for f in program.frames} <= {"welcome", "signed_up", "state", "ack"}
        received = [canonical(f["view"]) for f in program.frames if f["type"] == "state" and f["view"] is not None]
        assert received and in_order(received, await run(views_by_version, row, seat)), seat
        await program.disconnect()


async def a_seat_on_its_socket(row, user, seat):
    program = await Program.open(user, row.pk)
    await program.send({"type": "hello"})
    await program.sees(engine.view(row.state, seat))
    return program


def unchanged(row):
    """The game's version and state and its event count, to compare before and after a refusal."""
    row = reload(row)
    return row.version, canonical(row.state), Event.objects.filter(game=row).count()


def in_its_own_connection(function, *args):
    try:
        return function(*args)
    finally:
        connections.close_all()


async def test_the_sockets_that_heard_one_doorbell_read_the_game_once_between_them(clock, queries, whole_batches):
    """Every socket on a game read its row, state and all, after every change: 27 reads a change
    in a 27-seat game. The program sockets and the page's socket of one process share one."""
    row, _gm, players = await run(started_game)
    sockets = [await a_seat_on_its_socket(row, players[seat], seat) for seat in range(2)]
    page, connected = await open_game_socket(row.pk, players[2])
    assert connected
    whole_batches["size"] = len(sockets) + 1
    queries.clear()
    try:
        # Off the sockets' database thread, so that only their statements are counted.
        await asyncio.to_thread(in_its_own_connection, run_to_deadline, row, clock)
        row = await asyncio.to_thread(in_its_own_connection, reload, row)
        for seat, program in enumerate(sockets):
            await program.sees(engine.view(row.state, seat))
        assert json.loads(await page.receive_text()) == {"type": "changed"}
        table = Game._meta.db_table
        reads = [sql for sql in queries if sql.lstrip().upper().startswith("SELECT") and f'FROM "{table}"' in sql]
        assert len(reads) == 1, reads
    finally:
        for socket in (*sockets, page):
            await socket.disconnect()


REFUSED_FRAMES = [
    ("hello?", "bad_json"),
    ("[1]", "bad_frame"),
    ({"type": "peace"}, "unknown_type"),
    ({"type": "hello", "game": 999999}, "wrong_game"),
    ({"type": "command", "id": "a b", "command": {"peace": {}}}, "bad_field"),
    ({"type": "command", "id": "c1", "command": [1]}, "bad_field"),
    ({"type": "sign_up", "invite": 7}, "bad_field"),
    ({"type": "command", "id": "c1", "command": {"peace": {}}, "pad": "x" * 9000}, "too_large"),
]


async def test_refused_frames_and_commands_change_nothing(clock):
    row, gm, players = await run(started_game)
    mine = await a_seat_on_its_socket(row, players[0], 0)
    other = await a_seat_on_its_socket(row, players[1], 1)
    before = await run(unchanged, row)
    for frame, code in REFUSED_FRAMES:
        answer = await mine.answer(frame)
        assert answer["type"] == "error" and answer["code"] == code and answer["message"], (frame, answer)
    await mine.communicator.send_to(bytes_data=b"\x00")
    assert (await mine.receive())["code"] == "binary_frame"
    theirs = next(c for c in engine.legal_commands(row.state, 1) if "assassinate" in c)
    own = next(c for c in mine.state["legal"] if "assassinate" in c)
    # Only what the seat's page would offer reaches the engine: its refusals could answer about what
    # the seat may not know (a decision pending for another seat or the game master under a key).
    refused = [
        theirs,
        {"assassinate": dict(own["assassinate"], target=999)},
        {"assassinate": dict(own["assassinate"], target="无名氏")},
        {"vote": {"voter": own["assassinate"]["actor"], "target": 2}},
        {"cancel": {"actor": theirs["assassinate"]["actor"], "what": "assassinate"}},
        {"lock": {}},
        dict(own, at=1),
        *({"answer": {"decision": key, "choice": "yes"}} for key in range(40)),
        *({"resolve": {"decision": key}} for key in range(5)),
    ]
    for number, command in enumerate(refused):
        answer = await mine.answer({"type": "command", "id": f"r{number}", "command": command})
        assert answer["type"] == "error" and answer["id"] == f"r{number}" and answer["code"] == "not_offered", answer
    assert await run(unchanged, row) == before
    outsider, = await run(people, 1, "outsider")
    stranger = await Program.open(outsider, row.pk)
    answer = await stranger.answer({"type": "command", "id": "x", "command": theirs})
    assert answer["code"] == "not_a_player"
    assert (await stranger.answer({"type": "sign_up"}))["code"] == "not_recruiting"
    assert await run(unchanged, row) == before
    # An account without a seat sees the public view; the game master's program the console's.
    await stranger.send({"type": "hello"})
    await stranger.sees(engine.view(row.state, "spectator"))
    assert stranger.state["seat"] is None and stranger.state["legal"] == []
    master = await Program.open(gm, row.pk)
    await master.send({"type": "hello"})
    await master.sees(engine.view(row.state, "gm"))
    assert master.state["seat"] == "gm" and master.state["legal"] == engine.legal_commands(row.state, "gm")
    await master.disconnect()
    # A seat's own submission is pushed to it, acknowledged once however often it is sent, and is not
    # even a ring to another seat.
    for duplicate in (False, True):
        answer = await mine.answer({"type": "command", "id": "mine-1", "command": own})
        assert answer == {"type": "ack", "id": "mine-1", "duplicate": duplicate}
    row = await run(reload, row)
    await mine.sees(engine.view(row.state, 0))
    assert await run(lambda: Event.objects.filter(game=row).count()) == before[2] + 1
    assert await other.communicator.receive_nothing(timeout=0.3)
    for socket in (mine, other, stranger):
        await socket.disconnect()


async def test_a_program_signs_up_for_an_invite_only_game_with_its_token_and_is_pushed_the_start(clock):
    gm = await run(get_user_model().objects.create_user, "gm", password="x")
    row = await run(services.create_game, gm, mode="standard", durations=DURATIONS, private=True)
    users = await run(people, 4)
    programs = [await Program.open(user, row.pk) for user in users]
    first = programs[0]
    await first.send({"type": "hello"})
    assert (await first.receive())["code"] == "no_game"
    for frame in ({"type": "sign_up"}, {"type": "sign_up", "invite": "nope"}):
        assert (await first.answer(frame))["code"] == "no_game"
    for program in programs[:3]:
        assert (await program.answer({"type": "sign_up", "invite": row.invite_token}))["type"] == "signed_up"
    assert (await programs[3].answer({"type": "sign_up", "invite": row.invite_token}))["code"] == "full"
    assert (await programs[2].answer({"type": "leave"}))["type"] == "left"
    assert (await programs[2].answer({"type": "leave"}))["code"] == "not_signed_up"
    assert (await programs[3].answer({"type": "sign_up", "invite": row.invite_token}))["type"] == "signed_up"
    await run(services.start, row.pk, gm)
    row = await run(reload, row)
    seated = [programs[0], programs[1], programs[3]]
    for program, user in zip(seated, [users[0], users[1], users[3]]):
        seat = await run(lambda u=user: row.seats.get(user=u).seat)
        await program.sees(engine.view(row.state, seat))
        state = program.state
        assert state["status"] == "live" and state["seat"] == seat and state["phase"] == "night_action"
        assert state["legal"] == engine.legal_commands(row.state, seat) and state["deadline"]
    for program in programs:
        await program.disconnect()


async def test_a_bad_or_revoked_token_is_refused():
    row, gm, players = await run(started_game)
    socket = Program(row.pk, "aqw_nope")
    assert await socket.connect()
    assert (await socket.receive())["code"] == "bad_token"
    assert await socket.closed_with() == 4401
    _token, secret = await run(tokens.create, players[0], "t")
    program = Program(row.pk, secret)
    assert await program.connect()
    assert (await program.receive())["type"] == "welcome"
    await run(tokens.revoke, players[0], _token.pk)
    assert (await program.receive())["code"] == "token_revoked"
    assert await program.closed_with() == 4401


class Wire:
    """What the example's ``play`` needs of a socket (``recv``, ``send``), on a ``Program``'s in-process
    socket; it knows when the program is waiting for news with nothing left to hear or be answered."""

    def __init__(self, program):
        self.program = program
        self.unanswered = set()
        self.listening = False

    async def send(self, text):
        frame = json.loads(text)
        if frame["type"] == "command":
            self.unanswered.add(frame["id"])
        await self.program.send(text)

    async def recv(self):
        self.listening = True
        text = await self.program.communicator.receive_from(timeout=30)
        self.listening = False
        frame = self.program.keep(text)
        if frame["type"] in ("ack", "error"):
            self.unanswered.discard(frame["id"])
        return text

    def settled(self, view):
        return (self.listening and not self.unanswered and self.program.communicator.output_queue.empty()
                and self.program.state is not None and canonical(self.program.state["view"]) == canonical(view))


async def settled(wires, row, seats):
    """Until every program has been pushed its seat's view now, has acted on it and been answered (or
    the game is over: a seat's command may end it, 议和 say)."""
    for _ in range(1000):
        row = await run(reload, row)
        if row.status != Game.Status.LIVE or all(
                wire.settled(engine.view(row.state, seat)) for wire, seat in zip(wires, seats)):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the programs did not settle")


async def test_the_example_program_plays_a_seat_to_the_end(clock):
    example = load_example(EXAMPLES / "sanguo_random.py")
    gm = await run(get_user_model().objects.create_user, "gm", password="x")
    row = await run(services.create_game, gm, mode="standard", durations=DURATIONS)
    users = await run(people, 3)
    wires = [Wire(await Program.open(user, row.pk)) for user in users]
    rng = random.Random(3)
    ids = [(f"{n}-{k}" for k in itertools.count()) for n in range(3)]
    outs = [io.StringIO() for _ in wires]
    games = [asyncio.create_task(example.play(wire, rng, ids[n], out=outs[n])) for n, wire in enumerate(wires)]
    while await run(lambda: row.seats.count()) < 3:
        await asyncio.sleep(0.01)
    await run(services.start, row.pk, gm)
    row = await run(reload, row)
    seats = [await run(lambda u=user: row.seats.get(user=u).seat) for user in users]
    # Two nights and days (a random game can last twenty), then the game master calls it a draw.
    for _step in range(12):
        row = await run(reload, row)
        if row.status != Game.Status.LIVE:
            break
        await settled(wires, row, seats)
        await run(answer_as_gm, row, gm)
        await run(run_to_deadline, row, clock)
        await run(answer_as_gm, row, gm)
    row = await run(reload, row)
    if row.status == Game.Status.LIVE:
        await settled(wires, row, seats)
        await run(services.command, row.pk, gm, "", {"draw": {"reason": "time is up"}})
    results = await asyncio.wait_for(asyncio.gather(*games), timeout=10)
    row = await run(reload, row)
    assert row.status == Game.Status.FINISHED
    won = [seat in row.state["winning_seats"] for seat in seats]
    assert results == [0 if w else 1 for w in won]
    reason = row.state["end_reason"]
    assert [out.getvalue() for out in outs] == [
        f"game {row.pk} over ({reason}): seat {seat} {'won' if w else 'lost'}\n" for seat, w in zip(seats, won)]
    sent = await run(lambda: Event.objects.filter(game=row).exclude(actor__in=("gm", "server")).count())
    assert sent > 3
    for wire in wires:
        # A command on its way when another seat's ended the game is the only one refused.
        assert {f["code"] for f in wire.program.frames if f["type"] == "error" and f["id"]} <= {"game_over"}
        await wire.program.disconnect()


async def test_every_malformed_frame_is_answered_by_one_frame_and_changes_nothing(settings):
    """Fuzzed frames from an account without a seat (so no frame can change the game, however
    valid): each is answered by one ``error`` (or, for a ``hello``, its ``state``), the socket stays
    open, and the game is as it was."""
    settings.BOT_SOCKET_RATE = (10_000, 1)
    row, gm, players = await run(started_game)
    outsider, = await run(people, 1, "outsider")
    program = await Program.open(outsider, row.pk)
    before = await run(unchanged, row)
    bases = [{"type": "hello"}, {"type": "sign_up", "invite": "abc"}, {"type": "leave"},
             {"type": "command", "id": "c1", "command": {"peace": {}}}]
    # Not the empty frame: the test client cannot send one.
    frames = [dumps(frame) for base in bases for frame in mutations(base)] + garbage(seed=25, count=40)[1:]
    for text in frames:
        await program.send(text)
        answer = await program.receive()
        assert answer["type"] == "state" or (answer["type"] == "error" and answer["message"]), (text, answer)
        assert answer.get("code") != "rate_limited"
    assert len(frames) > 150 and await run(unchanged, row) == before
    await program.send({"type": "hello"})
    assert (await program.until(lambda f: f["type"] in ("error", "state")))["type"] == "state"
    await program.disconnect()


def test_a_target_may_be_named_as_the_character_the_seat_knows_holds_that_id(clock):
    """As on the page (ruling 10): a listed command with an ID is offered with the name of the
    character the seat knows holds it, never with a name the seat knows at no ID."""
    row, gm, players = started_game()
    state = programs._now(row)
    named = 0
    for seat in range(row.seat_count):
        known = state["known"][str(seat)]
        for command in engine.legal_commands(state, seat):
            (kind, body), = command.items()
            if not isinstance(body.get("target"), int):
                continue
            slot = state["slots"][body["target"] - 1]
            name = slot["chain"][slot["holder"]]
            seen = {n for names in known.values() for n in names}
            stranger = next(s["chain"][s["holder"]] for s in state["slots"] if s["chain"][s["holder"]] not in seen)
            by_name = {kind: dict(body, target=name)}
            assert programs.offered(state, seat, by_name) == (name in known.get(str(body["target"]), ()))
            assert not programs.offered(state, seat, {kind: dict(body, target=stranger)})
            named += name in known.get(str(body["target"]), ())
    assert named
