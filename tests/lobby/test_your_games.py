""""Your games": every live match of the person, those waiting for their move first (the soonest
deadline first), with time left; the count of those waiting in the header; a panel in the lobby."""
import re

import pytest
from django.urls import reverse

from game import services
from game.models import Match
from game.time_controls import DAY

from ..game.helpers import GUEST_TEAMS, HOST_TEAMS

pytestmark = pytest.mark.django_db

PAGE = reverse("your_games")


def live(host, guest, **control):
    return services.join_match(services.create_match(host, **control), guest)


def listed(page):
    """[(match id, your move?)] in the page's order."""
    return [(int(pk), bool(due)) for pk, due in re.findall(r'data-match="(\d+)"( data-your-move)?', page)]


def test_it_lists_the_matches_waiting_for_your_move_first_soonest_deadline_first(host, guest, outsider, host_client):
    day = live(host, guest, move_seconds=DAY)
    half_minute = live(host, outsider, move_seconds=30)
    untimed = live(guest, host)
    # The host has picked here: now it is the guest's move, not theirs.
    theirs = live(host, guest, move_seconds=60)
    services.apply_command(theirs.pk, host, "h", 0, HOST_TEAMS[1])
    finished = live(host, guest)
    services.resign(finished, guest)
    others = live(guest, outsider)
    page = host_client.get(PAGE).content.decode()
    assert listed(page) == [(half_minute.pk, True), (day.pk, True), (untimed.pk, True), (theirs.pk, False)]
    assert others.pk not in dict(listed(page)) and finished.pk not in dict(listed(page))
    # Time left: a live clock of a minute, a correspondence one of a day.
    assert re.search(r'data-match="%d".*?class="clock-time">1:00<' % half_minute.pk, page, re.S)
    assert re.search(r'data-match="%d".*?class="clock-time">1d 00h<' % day.pk, page, re.S)


def test_the_header_counts_the_matches_waiting_for_your_move(host, guest, host_client, guest_client):
    match = live(host, guest, move_seconds=60)
    count = re.compile(r"data-your-move-count[^>]*>(\d+)<")
    assert count.search(host_client.get(reverse("lobby")).content.decode()).group(1) == "1"
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    assert not count.search(host_client.get(reverse("lobby")).content.decode())
    assert count.search(guest_client.get(reverse("history:list")).content.decode()).group(1) == "1"
    services.apply_command(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    mover = (host_client, guest_client)[Match.objects.get(pk=match.pk).state["to_move"]]
    assert count.search(mover.get(PAGE).content.decode()).group(1) == "1"


def test_the_lobby_has_a_panel_of_your_games(host, guest, host_client):
    match = live(host, guest, move_seconds=60)
    panel = host_client.get(reverse("lobby")).content.decode().split('class="card your-games"', 1)[1]
    assert listed(panel.split("</section>", 1)[0]) == [(match.pk, True)]


def test_a_visitor_is_asked_to_log_in(client):
    response = client.get(PAGE)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
