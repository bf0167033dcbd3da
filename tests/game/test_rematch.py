"""Rematches: offered by either player of a finished match, accepted or declined by the other."""
import pytest
from channels.db import database_sync_to_async
from django.test import Client

from game.programs import seats
from game.games.aquawar import engine
from game import rematch, services
from game.programs.models import BotSeat
from game.models import Match

from .helpers import live_match, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def client_for(user, **options):
    client = Client(**options)
    client.force_login(user)
    return client


def finished_match(host, guest):
    match = live_match(host, guest)
    services.resign(match, guest, "r")
    match.refresh_from_db()
    return match


def first_mover(match):
    return engine.MatchState.from_json(match.state).first_mover


def test_accepting_starts_a_new_match_with_the_first_mover_swapped(host, guest):
    old = finished_match(host, guest)
    offered = rematch.answer(old.pk, host, "offer")
    assert rematch.info(offered) == {"status": "offered", "offered_by": 0, "match": None}
    accepted = rematch.answer(old.pk, guest, "accept")
    info = rematch.info(accepted)
    assert (info["status"], info["offered_by"]) == ("accepted", 0)
    new = Match.objects.get(pk=info["match"])
    assert (new.status, new.host, new.guest, new.rematch_of_id, new.version) == ("live", host, guest, old.pk, 0)
    assert new.first_mover == first_mover(new) == 1 - first_mover(old)
    assert new.seed != old.seed


def test_an_offer_to_a_player_who_offered_too_is_an_acceptance(host, guest):
    old = finished_match(host, guest)
    rematch.answer(old.pk, guest, "offer")
    assert rematch.info(rematch.answer(old.pk, host, "offer"))["status"] == "accepted"


def test_there_is_one_rematch_per_match(host, guest):
    old = finished_match(host, guest)
    rematch.answer(old.pk, host, "offer")
    rematch.answer(old.pk, guest, "accept")
    for user, action in ((host, "offer"), (guest, "accept"), (guest, "decline")):
        with pytest.raises(services.ServiceError) as refused:
            rematch.answer(old.pk, user, action)
        assert refused.value.code == "rematch_closed"
    assert Match.objects.filter(rematch_of=old).count() == 1


def test_a_declined_offer_is_final(host, guest):
    old = finished_match(host, guest)
    rematch.answer(old.pk, host, "offer")
    assert rematch.info(rematch.answer(old.pk, guest, "decline"))["status"] == "declined"
    with pytest.raises(services.ServiceError) as refused:
        rematch.answer(old.pk, host, "offer")
    assert refused.value.code == "rematch_closed"
    assert Match.objects.count() == 1


@pytest.mark.parametrize(
    "setup, who, action, code",
    [
        ("live", "host", "offer", "not_finished"),
        ("finished", "outsider", "offer", "not_a_player"),
        ("finished", "guest", "accept", "no_offer"),
        ("finished", "guest", "decline", "no_offer"),
        ("offered", "host", "accept", "own_offer"),
        ("finished", "host", "maybe", "bad_field"),
    ],
)
def test_it_refuses_what_makes_no_sense(host, guest, outsider, setup, who, action, code):
    match = live_match(host, guest) if setup == "live" else finished_match(host, guest)
    if setup == "offered":
        rematch.answer(match.pk, host, "offer")
    with pytest.raises(services.ServiceError) as refused:
        rematch.answer(match.pk, {"host": host, "guest": guest, "outsider": outsider}[who], action)
    assert refused.value.code == code
    assert Match.objects.count() == 1


def test_joining_keeps_a_stored_first_mover(host, guest):
    for mover in (0, 1):
        match = services.join_match(Match.objects.create(host=host, first_mover=mover), guest)
        assert first_mover(match) == mover


def test_it_works_over_http_with_csrf(host, guest, outsider):
    old = finished_match(host, guest)
    url = f"/match/{old.pk}/rematch/"
    assert client_for(host, enforce_csrf_checks=True).post(url, {"answer": "offer"}).status_code == 403
    assert client_for(outsider).post(url, {"answer": "offer"}).status_code == 404
    assert client_for(host).get(url).status_code == 405
    response = client_for(host).post(url, {"answer": "offer"})
    assert response["Location"] == f"/match/{old.pk}/"
    page = client_for(guest).get(f"/match/{old.pk}/").content.decode()
    assert "Your opponent offers a rematch." in page and "Accept the rematch" in page
    response = client_for(guest).post(url, {"answer": "accept"})
    new = Match.objects.get(rematch_of=old)
    assert response["Location"] == f"/match/{new.pk}/"
    assert f'href="/match/{new.pk}/"' in client_for(host).get(f"/match/{old.pk}/").content.decode()
    refused = client_for(guest).post(url, {"answer": "accept"}, follow=True)
    assert "already been answered" in refused.content.decode()


async def test_it_works_over_the_socket_and_pushes_to_both_pages(host, guest, outsider):
    old = await database_sync_to_async(finished_match)(host, guest)
    mine, theirs = await open_socket(old.pk, host), await open_socket(old.pk, guest, html=True)
    watcher = await open_socket(old.pk, outsider)
    try:
        await mine.hello()
        await theirs.receive()
        await mine.send({"type": "rematch", "id": "m1"})
        assert await mine.receive_type("rematch") == {
            "type": "rematch", "id": "m1", "status": "offered", "offered_by": 0, "match": None
        }
        assert (await mine.receive_type("state"))["rematch"]["status"] == "offered"
        page = await theirs.receive_until(lambda text: "Accept the rematch" in text)
        assert 'name="answer" value="accept"' in page[-1] and "ws-send" in page[-1]
        await theirs.send({"type": "rematch", "id": "t1", "answer": "accept", "HEADERS": {}})
        pushed = await theirs.receive_until(lambda text: "Play the rematch" in text)
        new = await database_sync_to_async(lambda: Match.objects.get(rematch_of=old.pk))()
        assert f'href="/match/{new.pk}/"' in pushed[-1]
        state = await mine.receive_type("state")
        assert state["rematch"] == {"status": "accepted", "offered_by": 0, "match": new.pk}
        await watcher.send({"type": "rematch", "id": "w1"})
        assert (await watcher.receive_type("error"))["code"] == "not_a_player"
        await mine.send({"type": "rematch", "id": "m2", "answer": "later"})
        assert (await mine.receive_type("error"))["code"] == "bad_field"
    finally:
        for socket in (mine, theirs, watcher):
            await socket.disconnect()


def test_the_computer_accepts_at_once_and_plays_the_rematch(host, settings):
    settings.BOT_SWEEP_SECONDS = 0
    old = seats.start_vs_computer(host, "greedy", move_seconds=30)
    services.resign(old, host, "r")
    info = rematch.info(rematch.answer(old.pk, host, "offer"))
    assert (info["status"], info["offered_by"]) == ("accepted", 0)
    new = Match.objects.get(pk=info["match"])
    assert (new.host, new.guest, new.move_seconds) == (old.host, old.guest, 30)
    # The same level in the same seat, so the bot moves (and its clock runs) in the new match too.
    assert list(new.bot_seats.values_list("seat", "level")) == [(1, "greedy")]
    assert new.first_mover == 1 - first_mover(old)


def test_a_program_seat_is_not_carried_into_the_rematch(host, guest):
    old = finished_match(host, guest)
    BotSeat.objects.create(match=old, seat=0, level=BotSeat.PROGRAM)
    # A program seat is no computer: nobody answers for it.
    assert rematch.info(rematch.answer(old.pk, guest, "offer"))["status"] == "offered"
    new = Match.objects.get(pk=rematch.info(rematch.answer(old.pk, host, "accept"))["match"])
    assert not new.bot_seats.exists()
