"""Chat beside a match (issue #15): players' and spectators' rooms, live over the match socket,
stored with the match, shown after it; limits, mutes, bad input, and no game data in any frame."""
import pytest
from channels.db import database_sync_to_async
from django.test import Client

from game import services
from game.chat import service as chat
from game.chat.models import MAX_LENGTH, ChatMessage, ChatMute
from game.models import Match

from . import leaks
from .helpers import GUEST_TEAMS, HOST_TEAMS, live_match, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def fresh(match):
    return Match.objects.get(pk=match.pk)


async def chat_frame(socket):
    """The next chat frame (presence and state frames may come between)."""
    frames = await socket.receive_until(lambda f: f["type"] in ("chat", "error"))
    assert frames[-1]["type"] == "chat", frames[-1]
    return frames[-1]


async def test_players_chat_live_and_the_spectators_never_hear_them_during_the_match(host, guest, outsider):
    match = await database_sync_to_async(live_match)(host, guest)
    mine, theirs = await open_socket(match.pk, host), await open_socket(match.pk, guest)
    watcher = await open_socket(match.pk, outsider)
    try:
        for socket in (mine, theirs, watcher):
            await socket.hello()
        await mine.send({"type": "chat", "id": "c1", "text": "  good luck!  "})
        ack = await mine.receive_type("ack")
        assert ack["id"] == "c1" and isinstance(ack["chat"], int)
        for socket in (mine, theirs):
            line = (await chat_frame(socket))["messages"]
            assert [(m["user"], m["room"], m["text"]) for m in line] == [("host", "players", "good luck!")]
        # The spectators' room is theirs alone while the match is on.
        await watcher.send({"type": "chat", "id": "w1", "text": "the host will lose"})
        await watcher.receive_type("ack")
        assert (await chat_frame(watcher))["messages"][0]["room"] == "spectators"
        for socket in (mine, theirs):
            assert await socket.nothing_more()
        assert not any("good luck" in frame for frame in watcher.frames)
        assert not any("will lose" in frame for socket in (mine, theirs) for frame in socket.frames)
    finally:
        for socket in (mine, theirs, watcher):
            await socket.disconnect()


async def test_chat_frames_carry_no_game_data(host, guest, outsider):
    match = await database_sync_to_async(live_match)(host, guest)
    for user, command in ((host, HOST_TEAMS[1]), (guest, GUEST_TEAMS[1])):
        await database_sync_to_async(services.apply_command)(match.pk, user, user.username, 0, command)
    sockets = {seat: await open_socket(match.pk, user) for seat, user in ((0, host), (1, guest), (None, outsider))}
    try:
        for socket in sockets.values():
            await socket.hello()
        await sockets[0].send({"type": "chat", "id": "c1", "text": "hello"})
        await sockets[None].send({"type": "chat", "id": "c2", "text": "hi all"})
        await chat_frame(sockets[0])
        await chat_frame(sockets[None])
        chats = [frame for socket in sockets.values() for frame in socket.frames if '"type":"chat"' in frame]
        assert chats
        everything = leaks.view_all(await database_sync_to_async(fresh)(match))
        for seat, socket in sockets.items():
            leaks.scan_json(socket.frames, seat, leaks.hidden_from(everything, seat))
        for frame in chats:
            for message in __import__("json").loads(frame)["messages"]:
                assert set(message) == {"id", "room", "user", "text", "time", "mine"}
    finally:
        for socket in sockets.values():
            await socket.disconnect()


def test_after_the_match_everyone_reads_both_rooms_and_the_replay_shows_them(host, guest, outsider):
    match = live_match(host, guest)
    chat.post(match, host, "gl <b>hf</b>")
    chat.post(match, outsider, "go guest")
    assert [line["text"] for line in chat.lines(match.pk, "live", 0, host)] == ["gl <b>hf</b>"]
    # A match called off keeps the rooms apart, as it keeps its hidden teams.
    for status in ("open", "live", "cancelled", "aborted"):
        assert chat.rooms_for(status, 0) == ("players",) and chat.rooms_for(status, None) == ("spectators",)
    services.resign(match, guest)
    match = fresh(match)
    assert [line["text"] for line in chat.lines(match.pk, match.status, 0, host)] == ["gl <b>hf</b>", "go guest"]
    page = Client().get(f"/match/{match.pk}/replay/").content.decode()
    # Escaped text only, labelled by room.
    assert "gl &lt;b&gt;hf&lt;/b&gt;" in page and "<b>hf</b>" not in page and "go guest" in page
    assert 'chat-line--spectators' in page and 'chat-line--players' in page


def test_the_match_page_shows_each_viewer_their_room(host, guest, outsider):
    match = live_match(host, guest)
    chat.post(match, host, "players only")
    chat.post(match, outsider, "spectators only")
    pages = {}
    for user in (host, outsider):
        client = Client()
        client.force_login(user)
        pages[user] = client.get(f"/match/{match.pk}/").content.decode()
    assert "players only" in pages[host] and "spectators only" not in pages[host]
    assert "spectators only" in pages[outsider] and "players only" not in pages[outsider]
    anonymous = Client().get(f"/match/{match.pk}/").content.decode()
    assert "spectators only" in anonymous and "Log in to chat." in anonymous and 'name="text"' not in anonymous


def test_a_muted_player_is_no_longer_read_by_whoever_muted_them(host, guest, outsider, make_user):
    match = live_match(host, guest)
    other = make_user("other")
    chat.post(match, outsider, "spam")
    chat.post(match, other, "fine")
    chat.mute(other, "outsider")
    assert [line["text"] for line in chat.lines(match.pk, "live", None, other)] == ["fine"]
    # Only for them.
    assert [line["text"] for line in chat.lines(match.pk, "live", None, outsider)] == ["spam", "fine"]
    chat.mute(other, "outsider", on=False)
    assert len(chat.lines(match.pk, "live", None, other)) == 2
    for bad, code in (("nobody-here", "no_user"), ("other", "own_mute"), (["x"], "bad_username")):
        with pytest.raises(services.ServiceError) as refused:
            chat.mute(other, bad)
        assert refused.value.code == code


async def test_muting_over_the_socket_redraws_the_chat_without_their_lines(host, guest, outsider):
    match = await database_sync_to_async(live_match)(host, guest)
    await database_sync_to_async(chat.post)(match, host, "a line from the host")
    page = await open_socket(match.pk, guest, html=True)
    try:
        first = await page.receive()
        assert 'id="match-chat"' in first and "a line from the host" in first
        await page.send({"type": "mute", "id": "m1", "user": "host"})
        redrawn = await page.receive()
        assert 'id="match-chat"' in redrawn and "a line from the host" not in redrawn
        assert await database_sync_to_async(ChatMute.objects.filter(user=guest).count)() == 1
    finally:
        await page.disconnect()


async def test_a_browser_gets_new_lines_appended_escaped(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    page = await open_socket(match.pk, guest, html=True)
    try:
        await page.receive()
        await database_sync_to_async(chat.post)(match, host, "<script>alert(1)</script>")
        frames = await page.receive_until(lambda f: "chat-log" in f)
        line = frames[-1]
        assert 'hx-swap-oob="beforeend:#chat-log"' in line
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in line and "<script>" not in line
    finally:
        await page.disconnect()


@pytest.mark.parametrize(
    "text, code",
    [
        ("", "empty_message"),
        ("   \n\t ", "empty_message"),
        ("x" * (MAX_LENGTH + 1), "too_long"),
        ("nul\x00here", "bad_field"),
        ("bell\x07", "bad_field"),
        ("\ud800", "bad_field"),
    ],
)
def test_bad_messages_are_refused_and_nothing_is_stored(host, guest, text, code):
    match = live_match(host, guest)
    with pytest.raises(services.ServiceError) as refused:
        chat.post(match, host, text)
    assert refused.value.code == code
    assert not ChatMessage.objects.exists()


def test_a_message_at_the_length_limit_is_taken_and_line_breaks_become_spaces(host, guest):
    match = live_match(host, guest)
    assert chat.post(match, host, "x" * MAX_LENGTH).text == "x" * MAX_LENGTH
    assert chat.post(match, host, "two\nlines").text == "two lines"


def test_chatting_too_fast_is_refused(host, guest, settings):
    settings.CHAT_RATE = (3, 60)
    match = live_match(host, guest)
    for n in range(3):
        chat.post(match, host, f"line {n}")
    with pytest.raises(services.ServiceError) as refused:
        chat.post(match, host, "one too many")
    assert refused.value.code == "chat_rate_limited"
    # The limit is each person's own.
    chat.post(match, guest, "still fine")
    assert ChatMessage.objects.count() == 4


async def test_bad_chat_frames_get_errors_and_change_nothing(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    socket = await open_socket(match.pk, host)
    anonymous = await open_socket(match.pk)
    try:
        await socket.hello()
        for frame, code in (
            ({"type": "chat", "id": "a", "text": 5}, "bad_field"),
            ({"type": "chat", "id": "b"}, "bad_field"),
            ({"type": "chat", "text": "no id"}, "bad_field"),
            ({"type": "chat", "id": "c", "text": "x" * (MAX_LENGTH + 1)}, "too_long"),
            ({"type": "mute", "id": "d"}, "bad_field"),
            ({"type": "mute", "id": "e", "user": "nobody-here"}, "no_user"),
        ):
            await socket.send(frame)
            assert (await socket.receive_type("error"))["code"] == code, frame
        await anonymous.hello()
        await anonymous.send({"type": "chat", "id": "f", "text": "hi"})
        assert (await anonymous.receive_type("error"))["code"] == "login_required"
        assert await database_sync_to_async(ChatMessage.objects.count)() == 0
    finally:
        await socket.disconnect()
        await anonymous.disconnect()


def test_chatting_without_javascript_posts_the_form(host, guest, host_client):
    match = live_match(host, guest)
    response = host_client.post(f"/match/{match.pk}/chat/", {"text": "by form"})
    assert response.status_code == 302 and ChatMessage.objects.get().text == "by form"
    host_client.post(f"/match/{match.pk}/chat/mute/", {"user": "guest"})
    assert ChatMute.objects.filter(user=host, muted=guest).exists()
    # A private match is not there for anyone outside it.
    private = live_match(host, guest, private=True)
    outsider = Client()
    outsider.force_login(type(host).objects.create_user("snoop", password="x" * 12))
    assert outsider.post(f"/match/{private.pk}/chat/", {"text": "hi"}).status_code == 404
