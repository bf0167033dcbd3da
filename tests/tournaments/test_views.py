"""The tournament pages: create from the form, register and withdraw, the live standings with a link
to every match, the ladder; odd input is a message or a 404, never a 500, and changes nothing."""
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from game import services as match_services
from tests.accounts import client_for
from tournaments import runner, services
from tournaments.models import Entry, LadderEntry, Pairing, Tournament

from .conftest import new_tournament, start_now

pytestmark = pytest.mark.django_db

WEIRD = ["%00", "a" * 300, "..%2F..", "'%3B--", "%E2%80%AE", "99999999999999999999999"]


def form(**overrides):
    starts = (timezone.now() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    data = {"name": "Friday Swiss", "game": "aquawar", "kind": "swiss", "players": "people", "rated": "on",
            "move_seconds": "60", "starts": starts, "rounds": "4"}
    data.update(overrides)
    return data


def test_a_member_creates_a_tournament_from_the_form(host_client, host):
    response = host_client.post(reverse("tournaments:new"), form())
    cup = Tournament.objects.get()
    assert response.status_code == 302 and response.url == reverse("tournaments:detail", args=[cup.pk])
    assert (cup.name, cup.kind, cup.rated, cup.move_seconds, cup.rounds, cup.organizer) == (
        "Friday Swiss", "swiss", True, 60, 4, host
    )
    page = host_client.get(response.url).content.decode()
    assert "Friday Swiss" in page and "Registration open" in page


@pytest.mark.parametrize(
    "overrides",
    [
        {"name": ""}, {"name": "x" * 200}, {"game": "chess"}, {"kind": "\x00"}, {"players": "robots"},
        {"starts": "tomorrow"}, {"starts": "2001-01-01T00:00"}, {"rounds": "-3"}, {"rounds": "1e9"},
        {"move_seconds": "0"}, {"move_seconds": "abc"}, {"kind": "swiss", "rounds": ""},
    ],
)
def test_odd_forms_create_nothing_and_say_why(host_client, overrides):
    response = host_client.post(reverse("tournaments:new"), form(**overrides), follow=True)
    assert response.status_code == 200
    assert not Tournament.objects.exists()
    assert [m for m in response.context["messages"] if m.level_tag == "error"]


def test_a_program_tournament_from_the_form_ignores_the_time_control(host_client):
    host_client.post(reverse("tournaments:new"), form(players="programs", move_seconds="0", kind="round_robin"))
    cup = Tournament.objects.get()
    assert cup.for_programs and cup.move_seconds == 0


def test_anonymous_visitors_see_the_pages_but_are_sent_to_log_in_to_act(client, host):
    cup = new_tournament(host)
    assert client.get(reverse("tournaments:list")).status_code == 200
    assert client.get(reverse("tournaments:detail", args=[cup.pk])).status_code == 200
    response = client.post(reverse("tournaments:register", args=[cup.pk]))
    assert response.status_code == 302 and reverse("login") in response.url
    assert not Entry.objects.exists()


def test_register_and_withdraw_from_the_page(guest_client, host, guest):
    cup = new_tournament(host)
    detail = reverse("tournaments:detail", args=[cup.pk])
    guest_client.post(reverse("tournaments:register", args=[cup.pk]))
    assert Entry.objects.filter(player=guest).exists()
    again = guest_client.post(reverse("tournaments:register", args=[cup.pk]), follow=True)
    assert "already registered" in again.content.decode()
    assert Entry.objects.count() == 1
    assert "Withdraw" in guest_client.get(detail).content.decode()
    guest_client.post(reverse("tournaments:withdraw", args=[cup.pk]))
    assert not Entry.objects.exists()


def started_with_three(host, people):
    """A Swiss of three in its first round: (the tournament, the pairing with a match)."""
    cup = new_tournament(host, rounds=2)
    for player in people[:3]:
        services.register(cup.pk, player)
    start_now(cup)
    runner.advance(cup.pk)
    return cup, Pairing.objects.exclude(match=None).get()


def test_the_running_page_shows_standings_and_links_every_match(host_client, host, people):
    cup, pairing = started_with_three(host, people)
    match_services.resign(pairing.match, pairing.second)
    runner.advance(cup.pk)
    live = host_client.get(reverse("tournaments:live", args=[cup.pk])).content.decode()
    for row in Pairing.objects.exclude(match=None):
        assert reverse("game:match", args=[row.match_id]) in live
    assert "Bye" in live and "Buchholz" in live and "Round 2 of 2" in live
    # The winner of round 1 leads the table.
    first_row = live.split("<tbody>")[1].split("</tr>")[0]
    assert pairing.first.username in first_row


@pytest.mark.parametrize("text", WEIRD)
def test_odd_urls_are_404(client, text):
    assert client.get(f"/tournaments/{text}/").status_code == 404
    assert client.get(f"/ladder/{text}/").status_code == 404


def test_unknown_tournaments_and_games_are_404_or_a_message(host_client):
    assert host_client.get(reverse("tournaments:detail", args=[12345])).status_code == 404
    response = host_client.post(reverse("tournaments:register", args=[12345]), follow=True)
    assert "no such tournament" in response.content.decode()
    assert host_client.post("/ladder/chess/join").status_code == 404


def test_a_program_joins_and_leaves_the_ladder_from_its_page(programs, host_client):
    bot = client_for(programs[0])
    page = bot.get(reverse("tournaments:ladder", args=["aquawar"])).content.decode()
    assert "Join the ladder" in page and "Reference opponents" in page
    bot.post(reverse("tournaments:ladder_join", args=["aquawar"]))
    assert LadderEntry.objects.filter(player=programs[0], game="aquawar").exists()
    assert programs[0].username in host_client.get(reverse("tournaments:ladder", args=["aquawar"])).content.decode()
    # A person can't put themselves on it.
    host_client.post(reverse("tournaments:ladder_join", args=["aquawar"]))
    assert LadderEntry.objects.count() == 1
    bot.post(reverse("tournaments:ladder_leave", args=["aquawar"]))
    assert not LadderEntry.objects.exists()


def test_the_register_button_shows_only_to_the_kind_of_account_the_tournament_is_for(host_client, host, programs):
    people_cup = new_tournament(host)
    program_cup = new_tournament(host, for_programs=True)
    bot = client_for(programs[0])
    register = "Register</button>"
    assert register in host_client.get(reverse("tournaments:detail", args=[people_cup.pk])).content.decode()
    assert "Register this program" not in host_client.get(reverse("tournaments:detail", args=[program_cup.pk])).content.decode()
    assert "Register this program" in bot.get(reverse("tournaments:detail", args=[program_cup.pk])).content.decode()
    assert register not in bot.get(reverse("tournaments:detail", args=[people_cup.pk])).content.decode()


def test_the_page_says_when_a_round_that_failed_to_start_is_tried_again_and_why_it_ended(client, host, people):
    cup = new_tournament(host, rounds=2)
    for player in people[:2]:
        services.register(cup.pk, player)
    start_now(cup)
    # A time control the game no longer offers: the services refuse the round's matches.
    Tournament.objects.filter(pk=cup.pk).update(move_seconds=45)
    runner.advance(cup.pk)
    when = Tournament.objects.get(pk=cup.pk).retry_at.strftime("%H:%M")
    live = client.get(reverse("tournaments:live", args=[cup.pk])).content.decode()
    assert f"The server could not start round 1; it tries again at {when} UTC." in live
    Tournament.objects.filter(pk=cup.pk).update(status="cancelled", end_reason="start_failed", retry_at=None)
    live = client.get(reverse("tournaments:live", args=[cup.pk])).content.decode()
    assert "The server could not start the tournament." in live and "tries again" not in live


def test_a_player_of_the_round_being_played_gets_a_button_to_their_match(host, people):
    cup, pairing = started_with_three(host, people)
    bye = Pairing.objects.get(match=None).first
    url = reverse("tournaments:live", args=[cup.pk])
    button = f'href="{reverse("game:match", args=[pairing.match_id])}">Go to your round 1 match</a>'
    for player in (pairing.first, pairing.second):
        assert button in client_for(player).get(url).content.decode()
    for nobody in (client_for(bye), client_for(host)):
        assert "Go to your round" not in nobody.get(url).content.decode()
    match_services.resign(pairing.match, pairing.second)
    assert "Go to your round" not in client_for(pairing.first).get(url).content.decode()


def test_past_its_start_time_a_tournament_offers_no_registration_until_the_runner_starts_it(host, guest):
    cup = new_tournament(host)
    services.register(cup.pk, guest)
    page = client_for(guest).get(reverse("tournaments:live", args=[cup.pk])).content.decode()
    assert "Registration open" in page and '/withdraw"' in page
    start_now(cup)
    for viewer in (guest, host):
        page = client_for(viewer).get(reverse("tournaments:live", args=[cup.pk])).content.decode()
        assert "Starting…" in page and "Registration open" not in page
        assert not any(f'/{action}"' in page for action in ("register", "withdraw", "cancel"))


def local_start(zone, days=3, hour=20):
    """A start ``days`` from now at ``hour`` o'clock on the clock of ``zone``: (form value, instant)."""
    day = timezone.now().astimezone(ZoneInfo(zone)).date() + timedelta(days=days)
    instant = datetime(day.year, day.month, day.day, hour, 0, tzinfo=ZoneInfo(zone))
    return instant.strftime("%Y-%m-%dT%H:%M"), instant


def test_the_start_is_read_on_the_organisers_clock(host_client):
    """Issue #29: 20:00 typed in Shanghai is 12:00 UTC; the page's script names the zone."""
    typed, instant = local_start("Asia/Shanghai")
    host_client.post(reverse("tournaments:new"), form(starts=typed, time_zone="Asia/Shanghai"))
    starts = Tournament.objects.get().starts
    assert starts == instant and starts.astimezone(UTC).hour == 12


def test_a_start_in_a_zone_with_summer_time_takes_that_dates_offset(host_client):
    typed, instant = local_start("America/New_York", days=20, hour=9)
    host_client.post(reverse("tournaments:new"), form(starts=typed, time_zone="America/New_York"))
    starts = Tournament.objects.get().starts
    # 9:00 there is 13:00 UTC in summer time, 14:00 otherwise: whichever holds on that date.
    assert starts == instant and starts.astimezone(UTC).hour == 9 - instant.utcoffset().total_seconds() / 3600


def test_without_a_zone_the_start_is_utc_and_an_unknown_zone_is_refused(host_client):
    typed, _instant = local_start("UTC")
    host_client.post(reverse("tournaments:new"), form(starts=typed))
    assert Tournament.objects.get().starts.astimezone(UTC).hour == 20
    for zone in ("../../etc/passwd", "Mars/Olympus", "x" * 80):
        response = host_client.post(reverse("tournaments:new"), form(starts=typed, time_zone=zone), follow=True)
        assert [m for m in response.context["messages"] if m.level_tag == "error"]
    assert Tournament.objects.count() == 1


def test_the_organiser_may_register_on_creation(host_client, host):
    host_client.post(reverse("tournaments:new"), form(enter="on"))
    cup = Tournament.objects.get()
    assert list(cup.entries.values_list("player", flat=True)) == [host.pk]
    # In a tournament for programs a person's box means nothing: created, nobody entered.
    host_client.post(reverse("tournaments:new"), form(enter="on", players="programs", kind="round_robin"))
    assert not Tournament.objects.get(for_programs=True).entries.exists()


def test_a_refused_registration_on_creation_makes_nothing(host, monkeypatch):
    monkeypatch.setattr(services, "MAX_ENTRIES", 0)
    with pytest.raises(match_services.ServiceError) as refused:
        new_tournament(host, enter=True)
    assert refused.value.code == "too_many_entries"
    assert not Tournament.objects.exists()


def test_the_pages_give_times_for_the_viewers_zone_and_a_countdown(client, host):
    cup = new_tournament(host)
    page = client.get(reverse("tournaments:detail", args=[cup.pk])).content.decode()
    assert f'datetime="{cup.starts.isoformat()}" data-local' in page
    assert f'data-countdown="{cup.starts.isoformat()}"' in page and "tournaments/local_time.js" in page
    listing = client.get(reverse("tournaments:list")).content.decode()
    assert 'data-local' in listing and 'name="time_zone"' not in listing  # the form is for members
