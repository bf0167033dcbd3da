"""How many matches one account may make per window (``MATCH_CREATION_RATE``, issue #30 item 3):
the review's loops — a program's ``play`` then ``resign``, 120 finished matches in 10 s; the lobby's
"Play the computer" then abort, 30 in 2.6 s — stop at the rate with a clear message and nothing
made, wherever a match is made for a person; and the history hides the aborted and empty matches
such loops leave, unless asked for them."""
import re

import pytest
from django.core.cache import cache

from game import fairness, rematch, services
from game.models import Match
from game.programs import seats
from game.services import ServiceError
from ratings import pairing
from ratings.models import Seek
from tests.game.helpers import GUEST_TEAMS, HOST_TEAMS

pytestmark = pytest.mark.django_db

RATE = (4, 60)


@pytest.fixture(autouse=True)
def rate(settings):
    settings.MATCH_CREATION_RATE = RATE
    settings.BOT_SWEEP_SECONDS = 0


def made(user):
    return Match.objects.filter(host=user).count()


def test_a_program_play_resign_loop_stops_at_the_rate(host):
    for _ in range(RATE[0]):
        services.resign(seats.start_vs_computer(host, "random", program=True), host, None)
    with pytest.raises(ServiceError) as refused:
        seats.start_vs_computer(host, "random", program=True)
    assert refused.value.code == "too_many_new"
    assert "at most 4 in 1 minute" in refused.value.message
    assert made(host) == RATE[0]


def test_the_lobby_vs_computer_abort_loop_stops_at_the_rate_with_a_message(host, host_client):
    for _ in range(RATE[0]):
        response = host_client.post("/match/computer", {"game": "aquawar", "level": "random", "move_seconds": "0"})
        assert response.status_code == 302 and "/match/" in response.url
        fairness.abort(Match.objects.filter(host=host).latest("pk").pk, host)
    response = host_client.post("/match/computer", {"game": "aquawar", "level": "random", "move_seconds": "0"}, follow=True)
    assert "You started too many matches just now" in response.content.decode()
    assert made(host) == RATE[0]


def test_open_matches_and_rematches_count_too(host, guest):
    first = services.join_match(services.create_match(host), guest)
    services.resign(first, host, None)
    for _ in range(RATE[0] - 1):
        services.create_match(host, private=True)
    rematch.answer(first.pk, guest, "offer")
    with pytest.raises(ServiceError) as refused:
        rematch.answer(first.pk, host, "accept")  # the host's fifth match in the window
    assert refused.value.code == "too_many_new"
    assert Match.objects.get(pk=first.pk).rematch_status == "offered"  # the refusal changed nothing
    with pytest.raises(ServiceError):
        services.create_match(host)
    assert made(host) == RATE[0]
    # The rate is per account: the guest may still make theirs.
    services.create_match(guest)


def test_quick_pairing_seeks_count_too(host, guest):
    for _ in range(RATE[0]):
        services.create_match(host, private=True)
    with pytest.raises(ServiceError) as refused:
        pairing.seek(host)
    assert refused.value.code == "too_many_new"
    assert not Seek.objects.filter(user=host).exists()
    pairing.seek(guest)  # someone else's seek is theirs to make


def test_the_ladders_own_matches_are_not_counted_against_the_program(host):
    for _ in range(RATE[0] + 1):
        services.resign(seats.start_vs_computer(host, "random", program=True, rated=True), host, None)
    assert made(host) == RATE[0] + 1


def test_the_window_passes(host, settings):
    settings.MATCH_CREATION_RATE = (1, 1)
    services.create_match(host)
    with pytest.raises(ServiceError):
        services.create_match(host)
    cache.delete(f"matches-made:{host.pk}")  # as the window's expiry does
    services.create_match(host)


# --- What the loops leave behind, in the history


def listed(response):
    assert response.status_code == 200
    return sorted(int(pk) for pk in re.findall(r'<tr data-match="(\d+)">', response.content.decode()))


def test_aborted_and_empty_matches_are_listed_only_when_asked_for(host, guest, outsider_client, settings):
    settings.MATCH_CREATION_RATE = (100, 60)
    aborted = seats.start_vs_computer(host, "random")
    fairness.abort(aborted.pk, host)
    empty = services.join_match(services.create_match(host), guest)
    services.resign(empty, guest, None)  # resigned before anything else happened
    # As in a "play, resign" loop where the computer's pick lands first: one side never moved.
    one_sided = services.join_match(services.create_match(host), guest)
    services.apply_command(one_sided.pk, host, "h", 0, HOST_TEAMS[1])
    services.resign(one_sided, guest, None)
    played = services.join_match(services.create_match(host), guest)
    services.apply_command(played.pk, host, "h", 0, HOST_TEAMS[1])
    services.apply_command(played.pk, guest, "g", 1, GUEST_TEAMS[1])
    services.resign(played, guest, None)
    hidden = [aborted.pk, empty.pk, one_sided.pk]
    for url in ("/history/", "/users/host/history/", "/history/?player=host&result=any"):
        assert listed(outsider_client.get(url)) == [played.pk], url
        everything = outsider_client.get(url + ("&" if "?" in url else "?") + "empty=on")
        assert listed(everything) == sorted([*hidden, played.pk]), url
    assert listed(outsider_client.get("/history/?result=aborted")) == [aborted.pk]
    assert listed(outsider_client.get("/history/?result=won&player=guest&empty=on")) == []
    assert listed(outsider_client.get("/history/?result=won&player=host")) == [played.pk]
    assert listed(outsider_client.get("/history/?result=won&player=host&empty=on")) == sorted([empty.pk, one_sided.pk, played.pk])
    assert 'name="empty"' in outsider_client.get("/history/").content.decode()
