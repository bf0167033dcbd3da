"""Fuzzing the match socket (JSON and ``?ui=html``): every malformed frame gets an error, never an
exception in the consumer, and the match is exactly as it was (version, state, stored events)."""
import json

import pytest
from channels.db import database_sync_to_async

from game import services
from game.games.aquawar import engine
from game.games.aquawar.forms import form_command
from game.live.protocol import ProtocolError
from game.models import Match
from tests.game.helpers import GUEST_TEAMS, HOST_TEAMS, Socket, live_match, open_socket

from .fuzz import dumps, garbage, mutations

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_rate_limit(settings):
    # The fuzzer sends hundreds of frames a second; the rate limit is tested on its own.
    settings.MATCH_SOCKET_RATE = (10**6, 1)


@database_sync_to_async
def fingerprint(match_id):
    match = Match.objects.get(pk=match_id)
    return (match.version, match.status, json.dumps(match.state, sort_keys=True), match.events.count())


@database_sync_to_async
def match_in_assert_phase(host, guest):
    match = live_match(host, guest)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    services.apply_command(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    match.refresh_from_db()
    mover = match.state["to_move"]
    return match, (host, guest)[mover], mover


def bases(match_id, version):
    command = {"type": "command", "id": "f1", "version": version, "match": match_id}
    yield {**command, "command": {"assert": {"target": 0, "fish": "octopus"}}}
    yield {**command, "command": {"act": {"actor": 0, "kind": "skill", "ally": 1, "enemy": 0}}}
    yield {**command, "command": {"pick": ["sea_wolf", "manta_ray", "sea_turtle", "mimic_fish"], "mimic": "octopus"}}
    yield {"type": "resign", "id": None}
    form = {"type": "form", "id": "f2", "version": str(version)}
    yield {**form, "form": "assert", "target": "0", "fish": "octopus"}
    yield {**form, "form": "act", "move": '{"actor":0,"kind":"attack","enemy":0}'}
    yield {**form, "form": "pick", "fish": ["sea_wolf", "manta_ray", "sea_turtle", "mimic_fish"], "mimic": "x"}
    yield {"type": "hello", "version": "zero"}
    yield {"type": "rematch", "id": None, "answer": "offer"}


def would_apply(frame, state, seat):
    """True for the rare mutation that is a legal, current command: the fuzzer must not play it."""
    if not isinstance(frame, dict):
        return False
    if frame.get("type") == "resign":
        return True  # only sent with a bad id, see below
    try:
        if frame.get("type") == "command":
            command = frame.get("command")
        elif frame.get("type") == "form":
            command = form_command(frame)
        else:
            return False
    except (ProtocolError, ValueError, RecursionError):
        return False
    return engine.is_legal(state, seat, command)


def corpus(match, seat):
    state = engine.MatchState.from_json(match.state)
    frames = []
    for base in bases(match.pk, match.version):
        for frame in mutations(base):
            if frame.get("type") in ("resign", "rematch") and isinstance(frame.get("id"), str) and frame["id"]:
                continue  # a well-formed id: it would really resign (or offer a rematch)
            if frame.get("type") == "hello" and ("version" not in frame or frame["version"] is None or (
                isinstance(frame["version"], int) and not isinstance(frame["version"], bool) and frame["version"] >= 0
            )):
                continue  # a valid hello: answered with a snapshot, not an error
            if not would_apply(frame, state, seat):
                frames.append(dumps(frame))
    frames += garbage(seed=match.pk, count=40)
    return frames


async def fuzz(socket, frames, html):
    for text in frames:
        # send_input: the communicator's send_to refuses an empty frame, which a client can send.
        await socket.communicator.send_input({"type": "websocket.receive", "text": text})
        if html:
            # Presence news (spectator counts, the opponent's connection) may come in between.
            reply = (await socket.receive_until(lambda text: 'id="match-notice"' in text))[-1]
            assert 'id="match-notice"' in reply and "match-notice--error" in reply, (text[:300], reply[:300])
        else:
            reply = await socket.receive_type("error")
            assert reply["code"] and reply["message"], (text[:300], reply)
    await socket.communicator.send_to(bytes_data=b"\x00\xff" * 10)
    if html:
        assert "match-notice--error" in (await socket.receive_until(lambda text: 'id="match-notice"' in text))[-1]
    else:
        assert (await socket.receive_type("error"))["code"] == "binary_frame"


@pytest.mark.parametrize("html", [False, True], ids=["json", "html"])
@pytest.mark.parametrize("who", ["mover", "waiting", "outsider"])
async def test_it_answers_every_malformed_frame_with_an_error_and_changes_nothing(host, guest, outsider, html, who):
    match, mover_user, mover = await match_in_assert_phase(host, guest)
    user = {"mover": mover_user, "waiting": guest if mover_user == host else host, "outsider": outsider}[who]
    seat = {"mover": mover, "waiting": 1 - mover, "outsider": None}[who]
    frames = corpus(match, mover if seat is None else seat)
    assert len(frames) > 300
    before = await fingerprint(match.pk)
    socket = await open_socket(match.pk, user, html=html)
    try:
        if html:
            await socket.receive()  # the full page state, sent on connect
        await fuzz(socket, frames, html)
        assert await fingerprint(match.pk) == before
        # Still usable afterwards.
        if not html:
            replies = await socket.hello(None)
            assert replies[-1]["type"] == "snapshot" and replies[-1]["version"] == match.version
    finally:
        await socket.disconnect()


@pytest.mark.parametrize("match_id", [999_999, 2**63, 10**30])
@pytest.mark.parametrize("html", [False, True])
async def test_an_unknown_match_is_refused_with_4404(match_id, html):
    socket = Socket(match_id, html=html)
    assert await socket.connect()
    await socket.receive()
    closed = await socket.communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4404}


async def test_a_command_for_another_match_changes_neither(host, guest):
    first, _user, _seat = await match_in_assert_phase(host, guest)
    second = await database_sync_to_async(live_match)(host, guest)
    before = (await fingerprint(first.pk), await fingerprint(second.pk))
    socket = await open_socket(first.pk, host)
    try:
        pick = {"type": "command", "id": "w1", "version": 0, "command": HOST_TEAMS[1], "match": second.pk}
        await socket.send(pick)
        assert (await socket.receive_type("error"))["code"] == "wrong_match"
    finally:
        await socket.disconnect()
    assert (await fingerprint(first.pk), await fingerprint(second.pk)) == before


@pytest.mark.parametrize(
    "query, header",
    [
        ("ui=html&invite=%00%ff", b"x" * 5000),
        ("ui=html&ui=html&invite=" + "A" * 500, b"zh-;q=abc,,,*"),
        ("invite=%E4%B8%AD&ui=", b"\xff\xfe"),
        ("ui=html", b"en;q=NaN, zh-Hans-CN-x-" + b"a" * 300),
    ],
)
async def test_odd_handshakes_still_connect_or_are_refused_cleanly(host, guest, query, header):
    match = await database_sync_to_async(live_match)(host, guest, private=True)
    socket = Socket(match.pk, query=query)
    socket.communicator.scope["headers"].append((b"accept-language", header))
    assert await socket.connect()
    reply = await socket.communicator.receive_from(timeout=5)
    # A private match, no valid invite: "no such match" in either dialect, then code 4404.
    assert "no_match" in reply or "no such match" in reply.lower()
    assert (await socket.communicator.receive_output(timeout=5))["code"] == 4404
    await socket.disconnect()


@pytest.mark.parametrize("header", [b"x" * 5000, b"zh-;q=abc,,,*", b"\xff\xfe", b"zh-Hans-CN-x-" + b"a" * 300])
async def test_odd_languages_still_get_the_page_state(host, guest, header):
    match = await database_sync_to_async(live_match)(host, guest)
    socket = Socket(match.pk, html=True)
    socket.communicator.scope["headers"].append((b"accept-language", header))
    assert await socket.connect()
    reply = await socket.communicator.receive_from(timeout=5)
    assert 'id="match-board"' in reply
    await socket.disconnect()


@pytest.mark.parametrize("depth", [300, 960, 995])
async def test_a_deeply_nested_value_where_a_species_goes_is_refused(host, guest, depth):
    """Regression: the engine's refusal quoted the value with repr(), which recurses as deep as the
    value; the JSON decoder (on the event loop's stack) takes values nearly as deep as repr() (on a
    worker thread's fresh stack) can print, so some depths passed the one and killed the other."""
    match = await database_sync_to_async(live_match)(host, guest)
    before = await fingerprint(match.pk)
    socket = await open_socket(match.pk, host)
    value = "[" * depth + "]" * depth
    try:
        for body in (
            '{"pick": ["sea_wolf", "octopus", "manta_ray", %s]}' % value,
            '{"pick": ["sea_wolf", "octopus", "manta_ray", "mimic_fish"], "mimic": %s}' % value,
            '{"assert": {"target": 0, "fish": %s}}' % value,
        ):
            text = '{"type": "command", "id": "n1", "version": 0, "command": %s}' % body
            await socket.communicator.send_input({"type": "websocket.receive", "text": text})
            reply = await socket.receive_type("error")
            assert reply["code"] in ("unknown_species", "bad_json", "wrong_phase"), reply
    finally:
        await socket.disconnect()
    assert await fingerprint(match.pk) == before
