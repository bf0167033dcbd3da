"""Rated play on the pages: the lobby's Rated/Casual choice, the rating change after a match,
profiles, leaderboards, and the BOT badge wherever a program's name shows."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from game import services
from game.models import Match
from game.programs.seats import bot_account
from ratings import leaderboard
from ratings.api import is_program, mark_program
from ratings.models import Rating
from tests.accounts import client_for

pytestmark = pytest.mark.django_db


def board(game="aquawar", kind="people", page=None):
    url = reverse("ratings:leaderboard", args=[game, kind])
    return url if page is None else f"{url}?page={page}"


def ranked(make_user, name, rating, deviation=60.0, days_ago=1, program=False):
    user = make_user(name)
    if program:
        mark_program(user)
    Rating.objects.create(
        user=user, game="aquawar", rating=rating, deviation=deviation, played=20,
        last_played=timezone.now() - timedelta(days=days_ago),
    )
    return user


def test_the_lobby_form_creates_a_rated_match_and_casual_by_default(host_client, host):
    host_client.post(reverse("match_new"), {"visibility": "open", "rated": "rated"})
    host_client.post(reverse("match_new"), {"visibility": "open"})
    assert sorted(Match.objects.values_list("rated", flat=True)) == [False, True]
    page = host_client.get(reverse("lobby")).content.decode()
    assert page.count('class="badge badge--rated"') == 1


def test_the_lobby_refuses_an_odd_rated_choice(host_client):
    response = host_client.post(reverse("match_new"), {"visibility": "open", "rated": "very"}, follow=True)
    assert not Match.objects.exists()
    assert "Choose a rated or a casual match" in response.content.decode()


def test_both_players_see_their_rating_change_after_a_rated_match(host, guest):
    match = services.join_match(services.create_match(host, rated=True), guest)
    services.resign(match, guest)
    url = reverse("game:match", args=[match.pk])
    mine = client_for(host).get(url).content.decode()
    theirs = client_for(guest).get(url).content.decode()
    assert 'id="match-rating-changes"' in mine and "(+" in mine and "(−" in mine
    assert "Your rating" in mine and "Your rating" in theirs


def test_a_casual_match_page_shows_no_rating_change(host, guest):
    match = services.join_match(services.create_match(host), guest)
    services.resign(match, guest)
    page = client_for(host).get(reverse("game:match", args=[match.pk])).content.decode()
    assert "match-rating-changes" not in page


def test_the_profile_shows_rating_chart_and_counts_by_rated_and_casual(host, guest, client):
    rated = services.join_match(services.create_match(host, rated=True), guest)
    services.resign(rated, guest)
    casual = services.join_match(services.create_match(host), guest)
    services.resign(casual, host)
    page = client.get(reverse("profile", args=["host"])).content.decode()
    section = page[page.index('data-game="aquawar"'):]
    assert 'data-stat="rated">1 / 0' in section and 'data-stat="casual">0 / 1' in section
    assert 'class="rating-chart__line"' in section and "Provisional" in section
    guest_page = client.get(reverse("profile", args=["guest"])).content.decode()
    assert 'data-stat="rated">0 / 1' in guest_page


def test_the_leaderboard_ranks_people_and_leaves_out_provisional_inactive_and_programs(make_user, client):
    ranked(make_user, "second", 1600)
    ranked(make_user, "first", 1700)
    ranked(make_user, "unsure", 1900, deviation=200)
    ranked(make_user, "away", 1800, days_ago=400)
    ranked(make_user, "machine", 2000, program=True)
    page, provisional = client.get(board()).content.decode().split('id="provisional-heading"')
    assert page.index('data-user="first"') < page.index('data-user="second"')
    for absent in ("unsure", "away", "machine"):
        assert f'data-user="{absent}"' not in page
    # The provisional one is listed apart, after the ranked.
    assert 'data-user="unsure"' in provisional and 'data-user="away"' not in provisional
    assert f'href="{reverse("profile", args=["first"])}"' in page
    programs = client.get(board(kind="programs")).content.decode()
    assert 'data-user="machine"' in programs and 'data-user="first"' not in programs
    assert "badge--bot" in programs


def test_the_leaderboard_is_paged(make_user, client):
    for number in range(51):
        ranked(make_user, f"p{number:02}", 1500 + number)
    first, second = client.get(board()).content.decode(), client.get(board(page=2)).content.decode()
    assert 'data-user="p50"' in first and 'data-user="p00"' not in first
    assert 'data-user="p00"' in second and 'rel="prev"' in second
    assert client.get(board(page="x%00")).status_code == 200


@pytest.mark.parametrize("url", ["/leaderboard/nogame/people/", "/leaderboard/aquawar/robots/"])
def test_an_unknown_game_or_table_is_404(client, url):
    assert client.get(url).status_code == 404


def test_a_program_account_carries_the_bot_badge_in_the_lobby_and_on_its_profile(host, make_user, client):
    program = make_user("prog")
    mark_program(program)
    services.join_match(services.create_match(host), program)
    assert "badge--bot" in client.get(reverse("lobby")).content.decode()
    assert "badge--bot" in client.get(reverse("profile", args=["prog"])).content.decode()
    host_page = client.get(reverse("profile", args=["host"])).content.decode()
    # The host's heading has no badge; the opponent's name in the host's list of matches has one.
    heading = host_page[host_page.index("<h1>"):host_page.index("</h1>")]
    assert "badge--bot" not in heading and "badge--bot" in host_page


def test_a_built_in_level_is_a_program_too(client):
    bot = bot_account("random")
    assert "badge--bot" in client.get(reverse("profile", args=[bot.username])).content.decode()


def test_an_account_with_rated_matches_cannot_become_a_program(host, guest):
    match = services.join_match(services.create_match(host, rated=True), guest)
    services.resign(match, guest)
    with pytest.raises(services.ServiceError) as refused:
        mark_program(host)
    assert refused.value.code == "rated_person"


def test_the_owner_marks_their_account_as_a_programs_from_the_profile(host_client, host, guest_client):
    mark = reverse("ratings:mark_program")
    assert 'id="mark-program"' in host_client.get(reverse("profile", args=["host"])).content.decode()
    unconfirmed = host_client.post(mark, follow=True).content.decode()
    assert "Tick the box" in unconfirmed and not is_program(host)
    page = host_client.post(mark, {"confirm": "program"}, follow=True).content.decode()
    assert is_program(host) and "badge--bot" in page and 'id="mark-program"' not in page
    # Nobody else's profile offers the form.
    assert 'id="mark-program"' not in guest_client.get(reverse("profile", args=["host"])).content.decode()


def test_the_history_list_marks_a_program_and_links_both_names(host, make_user, client):
    program = make_user("prog")
    mark_program(program)
    match = services.join_match(services.create_match(host), program)
    services.resign(match, host)
    # A match resigned at once is an empty one: listed when asked for.
    page = client.get(reverse("history:list") + "?empty=on").content.decode()
    assert "badge--bot" in page
    assert f'href="{reverse("profile", args=["prog"])}"' in page and f'href="{reverse("profile", args=["host"])}"' in page


def test_a_leaderboard_of_provisional_players_only_lists_them_apart_and_says_how_to_be_ranked(make_user, client):
    """Issue #29: not an empty page. The nearest to a rank (most rated matches) first."""
    user = ranked(make_user, "newcomer", 1620, deviation=180)
    Rating.objects.filter(user=user).update(played=4)
    ranked(make_user, "veteran", 1450, deviation=120)
    page = client.get(board()).content.decode()
    assert "Nobody is ranked here yet." in page
    listed = page.split('id="provisional-heading"')[1]
    assert listed.index('data-user="veteran"') < listed.index('data-user="newcomer"')
    assert "1620?" in listed
    # Worked out by the rating system itself (ratings/leaderboard.py): 10 and 22 with its constants.
    assert "falls to 110: after about 10 rated matches against established players, up to about 22" in page


def test_the_matches_a_rating_takes_to_settle_follow_the_rating_system():
    assert leaderboard.matches_to_establish(60.0) == 10
    assert leaderboard.matches_to_establish(350.0) == 22
    # Less certain opponents tell less of a player: more matches (read from the system, not written down).
    assert leaderboard.matches_to_establish(60.0) < leaderboard.matches_to_establish(200.0)
