"""Fairness at the edges (issue #15): aborting without a result, claiming from a vanished opponent,
the computer always present, and a clock that runs out before a player's first move."""
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone, translation

from game import fairness, services
from game.models import Match, MatchEvent, Presence
from game.programs import seats
from game.live import presenter
from game.live.ratelimit import FrameRate
from game.programs.models import BotSeat

from .helpers import GUEST_TEAMS, HOST_TEAMS, live_match, open_socket
from .test_clocks import wakes  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def fresh(match):
    return Match.objects.get(pk=match.pk)


def timed(host, guest, seconds=30):
    return services.join_match(services.create_match(host, move_seconds=seconds), guest)


def overdue(match, seat):
    Match.objects.filter(pk=match.pk).update(**{f"deadline_{seat}": timezone.now() - timedelta(seconds=1)})


def picked(match, guest):
    """The guest locked in their first team: they moved, so they can be beaten."""
    services.apply_command(match.pk, guest, "g", fresh(match).version, GUEST_TEAMS[1])
    return match


def left(match, seat, ago):
    """``seat``'s player closed their last socket on the match ``ago`` ago."""
    Presence.objects.create(
        channel_name=f"left:{match.pk}:{seat}", match=match, seat=seat, connected=False, seen=timezone.now() - ago
    )


def page(user, match, language="en"):
    client = Client()
    client.force_login(user)
    with translation.override(None):
        return client.get(f"/match/{match.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()


def claim_box(html):
    """The opening tag of the box with the claim buttons."""
    return re.search(r'<span class="claim"[^>]*>', html).group(0)


# --- A clock that runs out before the first move


def test_running_out_of_time_before_the_first_pick_aborts_the_match(host, guest, wakes):
    match = timed(host, guest)
    services.apply_command(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    overdue(match, 0)
    assert services.forfeit_overdue(match.pk) is not None
    final = fresh(match)
    assert (final.status, final.winner, final.end_reason) == ("aborted", None, "no_first_move")
    assert final.deadlines == [None, None]
    # No forfeit was stored: nobody lost anything.
    assert not MatchEvent.objects.filter(match=match, seat=0).exists()
    assert "This match was aborted" in page(host, match) and "before their first move" in page(guest, match)


def test_running_out_of_time_after_the_first_pick_still_loses(host, guest, wakes):
    match = timed(host, guest)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    services.apply_command(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    mover = fresh(match).state["to_move"]
    overdue(match, mover)
    services.forfeit_overdue(match.pk)
    final = fresh(match)
    assert (final.status, final.winner, final.end_reason) == ("finished", 1 - mover, "timeout")


def test_an_aborted_match_counts_neither_won_nor_lost_and_is_left_off_the_profile(host, guest, wakes):
    """As in history (issue #30 item 3): aborted matches would crowd out the played ones; the
    history's "Aborted" filter still lists it."""
    match = timed(host, guest)
    overdue(match, 1)
    services.forfeit_overdue(match.pk)
    assert fresh(match).status == "aborted"
    html = Client().get(f"/users/{host.username}/").content.decode()
    assert f"#{match.pk}" not in html
    assert 'data-stat="won">0<' in html and 'data-stat="lost">0<' in html
    listed = Client().get(f"/history/?player={host.username}&result=aborted").content.decode()
    assert f"#{match.pk}" in listed and "Aborted" in listed


# --- The computer


def test_the_computer_shows_as_present_and_the_match_can_be_aborted(host, wakes):
    match = seats.start_vs_computer(host, "random")
    html = page(host, match)
    assert "The computer is playing" in html and "Opponent disconnected" not in html
    assert "Abort (no result)" in html
    fairness.abort(match.pk, host)
    final = fresh(match)
    assert (final.status, final.winner, final.end_reason) == ("aborted", None, "aborted")
    with pytest.raises(services.ServiceError) as refused:
        fairness.abort(match.pk, host)
    assert refused.value.code == "not_live"


def test_the_end_of_an_aborted_match_is_announced_as_aborted(host, wakes):
    ended = []

    def heard(sender, match, **kwargs):
        ended.append((match.pk, match.status, match.end_reason))

    services.match_ended.connect(heard)
    try:
        match = seats.start_vs_computer(host, "random")
        fairness.abort(match.pk, host)
    finally:
        services.match_ended.disconnect(heard)
    assert ended == [(match.pk, "aborted", "aborted")]


def test_aborting_over_http_against_the_computer(host, host_client, wakes):
    match = seats.start_vs_computer(host, "random")
    response = host_client.post(f"/match/{match.pk}/abort/")
    assert response.status_code == 302 and fresh(match).status == "aborted"


async def test_aborting_over_the_socket_against_the_computer(host, wakes):
    match = await database_sync_to_async(seats.start_vs_computer)(host, "random")
    socket = await open_socket(match.pk, host)
    try:
        await socket.hello()
        await socket.send({"type": "abort", "id": "a1"})
        # Opening the socket woke the bot runner (game/routing.py), so the computer may make its
        # blind pick meanwhile: its version or state frame may come first, the abort is
        # acknowledged all the same.
        frames = await socket.receive_until(lambda f: f.get("id") == "a1")
        ack = frames[-1]
        assert ack["type"] == "ack" and ack["id"] == "a1", ack
        assert (await database_sync_to_async(fresh)(match)).status == "aborted"
    finally:
        await socket.disconnect()


def test_a_match_against_a_person_who_is_here_cannot_be_aborted_or_claimed(host, guest):
    match = live_match(host, guest)
    Presence.objects.create(channel_name="g!1", match=match, seat=1, user=guest, seen=timezone.now())
    for service in (fairness.abort, fairness.claim_win):
        with pytest.raises(services.ServiceError) as refused:
            service(match.pk, host)
        assert refused.value.code == "not_claimable"
    assert fresh(match).status == "live"


def test_a_match_against_a_program_cannot_be_aborted(host, guest, wakes):
    match = live_match(host, guest)
    BotSeat.objects.create(match=match, seat=1, level=BotSeat.PROGRAM)
    with pytest.raises(services.ServiceError) as refused:
        fairness.abort(match.pk, host)
    assert refused.value.code == "not_abortable"


def test_only_a_player_may_abort_or_claim(host, outsider, wakes):
    match = seats.start_vs_computer(host, "random")
    for service in (fairness.abort, fairness.claim_win):
        with pytest.raises(services.ServiceError) as refused:
            service(match.pk, outsider)
        assert refused.value.code == "not_a_player"


# --- An opponent who left


def test_the_win_can_be_claimed_only_once_the_opponent_is_away_long_enough(host, guest, settings):
    settings.CLAIM_AFTER_SECONDS = 60
    match = picked(live_match(host, guest), guest)
    left(match, 1, timedelta(seconds=30))
    with pytest.raises(services.ServiceError):
        fairness.claim_win(match.pk, host)
    html = page(host, match)
    assert "Opponent disconnected" in html and "Claim the win" in html
    assert claim_box(html).endswith(" hidden>")  # not yet: the page shows it on time
    Presence.objects.filter(match=match, seat=1).update(seen=timezone.now() - timedelta(seconds=61))
    assert not claim_box(page(host, match)).endswith(" hidden>")
    fairness.claim_win(match.pk, host)
    final = fresh(match)
    assert (final.status, final.winner, final.end_reason) == ("finished", 0, "abandon")


def test_a_timed_match_waits_as_long_as_its_clock(host, guest, settings):
    settings.CLAIM_AFTER_SECONDS = 1
    match = timed(host, guest, seconds=120)
    left(match, 1, timedelta(seconds=90))
    with pytest.raises(services.ServiceError):
        fairness.claim_win(match.pk, host)
    Presence.objects.filter(match=match, seat=1).update(seen=timezone.now() - timedelta(seconds=121))
    fairness.abort(match.pk, host)
    final = fresh(match)
    assert (final.status, final.winner, final.end_reason) == ("aborted", None, "opponent_left")


def test_an_opponent_who_never_came_counts_from_the_last_change(host, guest, settings):
    settings.CLAIM_AFTER_SECONDS = 60
    match = live_match(host, guest)
    with pytest.raises(services.ServiceError):
        fairness.abort(match.pk, host)
    Match.objects.filter(pk=match.pk).update(updated=timezone.now() - timedelta(seconds=61))
    fairness.abort(match.pk, host)
    assert (fresh(match).status, fresh(match).end_reason) == ("aborted", "opponent_left")


def test_a_match_without_a_clock_cannot_be_won_from_an_opponent_who_never_moved(host, guest, settings):
    """Issue #30 item 9: a rated match with no clock was claimed (and rated) from an opponent who
    left before their first command; as with a clock, there is no result to be had, only an abort."""
    settings.CLAIM_AFTER_SECONDS = 60
    match = services.join_match(services.create_match(host, rated=True), guest)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    left(match, 1, timedelta(minutes=5))
    html = page(host, match)
    assert "Claim the win" not in html and "left before making a move" in html and "Abort (no result)" in html
    with pytest.raises(services.ServiceError) as refused:
        fairness.claim_win(match.pk, host)
    assert refused.value.code == "no_first_move"
    assert fresh(match).status == "live" and not MatchEvent.objects.filter(match=match, seat=1).exists()
    fairness.abort(match.pk, host)
    assert (fresh(match).status, fresh(match).winner) == ("aborted", None)


async def test_claiming_over_the_socket(host, guest, settings):
    settings.CLAIM_AFTER_SECONDS = 60
    match = await database_sync_to_async(live_match)(host, guest)
    await database_sync_to_async(picked)(match, guest)
    await database_sync_to_async(left)(match, 1, timedelta(minutes=5))
    socket = await open_socket(match.pk, host)
    try:
        await socket.hello()
        await socket.send({"type": "claim", "id": "c1"})
        assert (await socket.receive_type("ack"))["id"] == "c1"
        final = await database_sync_to_async(fresh)(match)
        assert (final.status, final.winner, final.end_reason) == ("finished", 0, "abandon")
    finally:
        await socket.disconnect()


# --- Plain words


def test_too_many_frames_are_refused_in_plain_words_in_both_languages():
    message = FrameRate(2, 5).message()
    assert "Slow down" not in message and "wait a moment" in message
    with translation.override("en"):
        english = str(presenter.TOO_FAST)
    with translation.override("zh-hans"):
        chinese = str(presenter.TOO_FAST)
    assert english.startswith("You are sending too much too fast")
    assert chinese != english and "秒" in chinese
