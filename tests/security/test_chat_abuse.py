"""The chat under abuse (issue #30, items 5 to 7): mutes hold on the replay page, the rate limit
holds under posts sent at once, and a user name that can't be one is refused, changing nothing."""
import pytest
from channels.db import database_sync_to_async
from django.test import Client

from game import services
from game.chat import service as chat
from game.chat.models import ChatMessage, ChatMute
from tests.accounts import client_for
from tests.game.helpers import live_match, open_socket
from tests.game.test_services import race

pytestmark = pytest.mark.django_db(transaction=True)

NOT_NAMES = ["nul\x00name", "\x00", "", "two words", "x" * 151, "tab\there", "<b>"]


def test_a_mute_holds_on_the_replay_pages_chat(host, guest, outsider):
    match = live_match(host, guest)
    chat.post(match, host, "from the host")
    chat.post(match, outsider, "noise from the stands")
    services.resign(match, guest)
    chat.mute(guest, "outsider")
    muted = client_for(guest).get(f"/match/{match.pk}/replay/").content.decode()
    assert "from the host" in muted and "noise from the stands" not in muted
    # Only for whoever muted.
    assert "noise from the stands" in Client().get(f"/match/{match.pk}/replay/").content.decode()


def test_posts_sent_at_once_store_no_more_than_the_rate_allows(host, guest, settings):
    """The review's reproduction: 16 parallel posts stored up to 10 of a 5-per-10 s limit on
    PostgreSQL, each counting the others' messages before any was stored. (SQLite runs writing
    transactions one at a time, so there it passes either way; CI's second leg runs it on
    PostgreSQL.)"""
    settings.CHAT_RATE = (5, 10)
    match = live_match(host, guest)
    outcomes = race(*[lambda n=n: chat.post(match, host, f"line {n}") for n in range(16)])
    assert ChatMessage.objects.filter(user=host).count() == 5
    assert outcomes.count("chat_rate_limited") == 11


@pytest.mark.parametrize("name", NOT_NAMES)
def test_a_mute_of_a_name_that_cant_be_one_is_refused(host, guest, name):
    with pytest.raises(services.ServiceError) as refused:
        chat.mute(host, name)
    assert refused.value.code == "bad_username"
    assert not ChatMute.objects.exists()


def test_the_mute_form_refuses_a_name_that_cant_be_one_and_changes_nothing(host, guest, host_client):
    match = live_match(host, guest)
    for name in NOT_NAMES:
        response = host_client.post(f"/match/{match.pk}/chat/mute/", {"user": name}, follow=True)
        assert response.status_code == 200
        assert "That is not a user name." in response.content.decode()
    assert not ChatMute.objects.exists()


async def test_a_mute_frame_naming_a_nul_gets_an_error_and_the_socket_stays_open(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    socket = await open_socket(match.pk, host)
    try:
        await socket.hello()
        await socket.send({"type": "mute", "id": "m1", "user": "guest\x00"})
        assert (await socket.receive_type("error"))["code"] == "bad_username"
        # Still open and answering.
        await socket.send({"type": "mute", "id": "m2", "user": "guest"})
        assert (await socket.receive_type("ack"))["muted"] is True
        assert await database_sync_to_async(ChatMute.objects.filter(user=host, muted=guest).count)() == 1
    finally:
        await socket.disconnect()


@pytest.mark.parametrize(
    "method, path, data",
    [
        ("post", "/accounts/login/", {"username": "host\x00", "password": "x"}),
        ("post", "/accounts/signup/", {"username": "new\x00name", "password1": "x" * 12, "password2": "x" * 12}),
        ("get", "/history/", {"player": "host\x00"}),
        ("get", "/users/host%00/", None),
        ("get", "/users/host%00/history/", None),
    ],
)
def test_every_other_page_reading_a_user_name_refuses_a_nul_without_an_error(host, method, path, data):
    """The other places a name is read (issue #30, item 7): each answers, none with a server error
    (PostgreSQL refuses a NUL in a query), and no account is made."""
    accounts = type(host).objects.count()
    response = getattr(Client(), method)(path, data) if data else Client().get(path)
    assert response.status_code in (200, 404)
    assert type(host).objects.count() == accounts
