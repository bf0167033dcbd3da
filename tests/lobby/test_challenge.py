"""Challenges (lobby/challenges.py, issue #29): one person asks another by name, the other accepts
(the match starts, live, between the two) or declines; refused like a new match is when it should
be, changing nothing; and the lobby shows each side what waits for them."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from game.models import Match
from game.programs.seats import bot_account
from game.services import ServiceError
from lobby import challenges
from lobby.models import Challenge
from ratings.api import mark_program

pytestmark = pytest.mark.django_db


def ask(challenger, opponent, **options):
    return challenges.challenge(challenger, opponent, **{"game": "aquawar", "move_seconds": 30, **options})


def refused(code, call, *args, **kwargs):
    with pytest.raises(ServiceError) as error:
        call(*args, **kwargs)
    assert error.value.code == code
    return error.value


def test_accepting_starts_the_live_match_the_challenge_named(host, guest):
    made = ask(host, guest, game="miracle", move_seconds=60, rated=True)
    match = challenges.accept(made.pk, guest)
    assert match.status == Match.Status.LIVE
    assert (match.host, match.guest) == (host, guest)
    assert (match.game, match.move_seconds, match.rated) == ("miracle", 60, True)
    made.refresh_from_db()
    assert (made.status, made.match) == (Challenge.Status.ACCEPTED, match)
    # Answered once: neither side can answer again.
    refused("challenge_gone", challenges.accept, made.pk, guest)
    refused("challenge_gone", challenges.decline, made.pk, guest)


def test_declining_makes_nothing_and_closes_the_challenge(host, guest):
    made = ask(host, guest)
    challenges.decline(made.pk, guest)
    assert Match.objects.count() == 0
    assert Challenge.objects.get().status == Challenge.Status.DECLINED
    refused("challenge_gone", challenges.accept, made.pk, guest)
    # The question may be asked again.
    ask(host, guest)


def test_only_the_challenged_answers_and_only_the_challenger_withdraws(host, guest, outsider):
    made = ask(host, guest)
    refused("challenge_gone", challenges.accept, made.pk, host)
    refused("challenge_gone", challenges.accept, made.pk, outsider)
    refused("challenge_gone", challenges.decline, made.pk, outsider)
    refused("challenge_gone", challenges.cancel, made.pk, guest)
    assert Match.objects.count() == 0
    challenges.cancel(made.pk, host)
    refused("challenge_gone", challenges.accept, made.pk, guest)


def test_a_challenge_nobody_answers_lapses(host, guest):
    made = ask(host, guest)
    Challenge.objects.filter(pk=made.pk).update(created=timezone.now() - challenges.LAPSES_AFTER - timedelta(seconds=1))
    refused("challenge_gone", challenges.accept, made.pk, guest)
    assert challenges.challenge_lists(guest)["challenges_received"] == []
    # Nor does it stand in the way of a new one.
    ask(host, guest)


def test_refusals_say_why_and_make_nothing(host, guest, outsider, settings):
    refused("own_challenge", ask, host, host)
    refused("bad_time_control", ask, host, guest, move_seconds=7)
    refused("bad_game", ask, host, guest, game="chess")
    mark_program(outsider)
    refused("program_challenge", ask, host, outsider)
    refused("program_challenge", ask, host, bot_account("random"))
    assert "no player called “nobody”" in refused("no_such_player", challenges.opponent_named, "nobody").message
    ask(host, guest)
    refused("already_challenged", ask, host, guest)
    assert Challenge.objects.count() == 1


def test_pending_challenges_and_the_creation_rate_are_limited(host, make_user, settings):
    others = [make_user(f"friend{n}") for n in range(challenges.MAX_PENDING + 1)]
    for other in others[: challenges.MAX_PENDING]:
        ask(host, other)
    refused("too_many_challenges", ask, host, others[-1])
    # Asking counts as making a match: one a minute here, the second refused.
    settings.MATCH_CREATION_RATE = (1, 60)
    ask(others[0], others[1])
    refused("too_many_new", ask, others[0], others[2])
    assert not Challenge.objects.filter(challenger=others[0], challenged=others[2]).exists()


def test_accepting_checks_both_players_live_matches(host, guest, monkeypatch):
    made = ask(host, guest)
    monkeypatch.setattr("game.limits.MAX_LIVE_MATCHES", 0)
    refused("too_many_live", challenges.accept, made.pk, guest)
    assert Challenge.objects.get().status == Challenge.Status.PENDING


def test_the_lobby_shows_the_challenged_its_buttons_and_the_challenger_its_wait(host, guest, host_client, guest_client):
    response = host_client.post(
        reverse("challenge_new"), {"opponent": "GUEST", "game": "aquawar", "move_seconds": "aquawar:30", "rated": "rated"}
    )
    assert response.status_code == 302
    made = Challenge.objects.get()
    assert (made.challenger, made.challenged, made.move_seconds, made.rated) == (host, guest, 30, True)
    received = guest_client.get(reverse("lobby")).content.decode()
    assert f'id="accept-{made.pk}"' in received and f'id="decline-{made.pk}"' in received
    assert "host</a> challenges you" in received
    sent = host_client.get(reverse("lobby")).content.decode()
    assert f'id="withdraw-{made.pk}"' in sent and f'id="accept-{made.pk}"' not in sent
    response = guest_client.post(reverse("challenge_accept", args=[made.pk]))
    match = Match.objects.get()
    assert response["Location"] == reverse("game:match", args=[match.pk])


def test_a_bad_form_changes_nothing(host_client, guest):
    host_client.post(reverse("challenge_new"), {"opponent": "guest", "game": "aquawar", "move_seconds": "miracle:60"})
    host_client.post(reverse("challenge_new"), {"opponent": "", "game": "aquawar"})
    assert Challenge.objects.count() == 0


def test_a_profile_offers_a_challenge_to_others_only(host, guest, host_client, client):
    assert 'id="challenge-send"' in host_client.get(reverse("profile", args=["guest"])).content.decode()
    assert 'id="challenge-send"' not in host_client.get(reverse("profile", args=["host"])).content.decode()
    assert 'id="challenge-send"' not in client.get(reverse("profile", args=["guest"])).content.decode()
