"""Every limit is enforced where the thing is made (game/services.py and its kin), so no caller can
get around it: open matches, live matches against the computer (rematches too), live matches a
person plays at once, API tokens."""
import pytest
from channels.db import database_sync_to_async
from django.db.models import Q

from game import rematch, services
from game.programs import seats, tokens
from game.models import Match
from game.limits import MAX_LIVE_MATCHES, MAX_LIVE_VS_COMPUTER, MAX_OPEN_MATCHES
from game.services import ServiceError
from ratings.api import mark_program
from tests.bots.helpers import program, take_seat
from tests.game.helpers import seat_at_the_live_limit

pytestmark = pytest.mark.django_db(transaction=True)


def refused(code, call, *args, **kwargs):
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code
    return caught.value


def open_count(user):
    return Match.objects.filter(host=user, status="open").count()


def live_against(user, level):
    return Match.objects.filter(host=user, status="live", bot_seats__level=level).count()


def test_the_open_match_limit_holds_for_the_lobby_and_for_programs(host):
    for _ in range(MAX_OPEN_MATCHES):
        services.create_match(host)
    error = refused("too_many_open", services.create_match, host, private=True)
    assert "5 open matches" in error.message
    refused("too_many_open", seats.create_for_program, host)
    assert open_count(host) == MAX_OPEN_MATCHES
    # A match against the computer is live at once: it is no open match and not refused for them.
    assert seats.start_vs_computer(host, "random").status == "live"


async def test_the_bot_socket_create_obeys_the_open_match_limit(host):
    """The outside review: connect, create, close, again and again, gave one user 8 open matches."""
    answers = []
    for _ in range(MAX_OPEN_MATCHES + 3):
        socket = await program(host)
        try:
            answers.append(await take_seat(socket, {"type": "create", "private": False}))
        finally:
            await socket.disconnect()
    assert [a["type"] for a in answers] == ["match"] * MAX_OPEN_MATCHES + ["error"] * 3
    assert {a.get("code") for a in answers[MAX_OPEN_MATCHES:]} == {"too_many_open"}
    assert await database_sync_to_async(open_count)(host) == MAX_OPEN_MATCHES


async def test_the_bot_socket_joins_seeks_and_plays_within_the_live_limit(host, guest, outsider):
    await database_sync_to_async(seat_at_the_live_limit)(guest, outsider)
    wanted = await database_sync_to_async(services.create_match)(host)
    socket = await program(guest)
    try:
        answers = [
            await take_seat(socket, request)
            for request in ({"type": "join", "match": wanted.pk}, {"type": "play", "level": "random"})
        ]
        await socket.send({"type": "seek"})
        answers.append(await socket.receive_until(lambda f: f["type"] in ("seeking", "error")))
    finally:
        await socket.disconnect()
    assert [(a["type"], a["code"]) for a in answers] == [("error", "too_many_live")] * 3
    assert (await database_sync_to_async(match_row)(wanted))["guest_id"] is None


def test_rematches_obey_the_limit_of_live_matches_against_the_computer(host, settings):
    """The outside review: 5 resigned matches against a level, 5 new ones, then rematches of the
    first 5 (the computer accepts at once) made 10 live ones."""
    settings.BOT_SWEEP_SECONDS = 0
    finished = [seats.start_vs_computer(host, "greedy") for _ in range(MAX_LIVE_VS_COMPUTER)]
    for match in finished:
        services.resign(match, host, "r")
    for _ in range(MAX_LIVE_VS_COMPUTER):
        seats.start_vs_computer(host, "greedy")
    refused("too_many", seats.start_vs_computer, host, "greedy")
    for match in finished:
        error = refused("too_many", rematch.answer, match.pk, host, "offer")
        assert "5 matches against the computer" in error.message
    assert live_against(host, "greedy") == MAX_LIVE_VS_COMPUTER
    # The refused offers changed nothing: once a live one is over, the same offer is accepted.
    assert all(not Match.objects.get(pk=match.pk).rematch_status for match in finished)
    services.resign(Match.objects.filter(host=host, status="live").first(), host, "r2")
    assert rematch.info(rematch.answer(finished[0].pk, host, "offer"))["status"] == "accepted"
    assert live_against(host, "greedy") == MAX_LIVE_VS_COMPUTER


def test_a_persons_computer_limit_counts_every_level_together(host, settings):
    """It caps the bot thinking one account keeps in flight: five matches against five levels
    would be five decisions at once as surely as five against one (the second outside review)."""
    settings.BOT_SWEEP_SECONDS = 0
    for level in ["random", "greedy", "expert", "random", "greedy"][:MAX_LIVE_VS_COMPUTER]:
        seats.start_vs_computer(host, level)
    for level in ("random", "greedy", "expert"):
        error = refused("too_many", seats.start_vs_computer, host, level)
        assert "matches against the computer" in error.message
    assert Match.objects.filter(host=host, status="live").count() == MAX_LIVE_VS_COMPUTER


def test_the_token_limit_holds_wherever_a_token_is_made(host):
    for n in range(tokens.MAX_TOKENS):
        tokens.create(host, f"t{n}")
    error = refused("too_many_tokens", tokens.create, host, "one more")
    assert "10 tokens" in error.message


def match_row(match):
    return Match.objects.filter(pk=match.pk).values("status", "guest_id", "version", "state").get()


def test_a_person_joins_no_more_than_the_live_limit(host, guest, outsider):
    seat_at_the_live_limit(guest, outsider)
    wanted = services.create_match(host)
    before = match_row(wanted)
    error = refused("too_many_live", services.join_match, wanted, guest)
    assert error.message == f"You already play {MAX_LIVE_MATCHES} matches at once: finish one first."
    assert match_row(wanted) == before
    # Once one of theirs is over, the same join seats them.
    services.resign(Match.objects.filter(host=guest, status="live").first(), guest, "r")
    assert services.join_match(wanted, guest).status == "live"
    assert Match.objects.filter(Q(host=guest) | Q(guest=guest), status="live").count() == MAX_LIVE_MATCHES


def test_matches_in_either_seat_count_toward_the_live_limit(host, guest, outsider):
    seat_at_the_live_limit(guest, outsider)  # the outsider is the guest in them all
    refused("too_many_live", services.join_match, services.create_match(host), outsider)
    # Nor may they open one more, which a join would make one more live match.
    refused("too_many_live", services.create_match, outsider)
    assert not Match.objects.filter(host=outsider, status="open").exists()


def test_a_match_against_the_computer_obeys_the_live_limit(host, outsider):
    seat_at_the_live_limit(host, outsider)
    refused("too_many_live", seats.start_vs_computer, host, "random")
    assert not Match.objects.filter(host=host, bot_seats__level="random").exists()


def test_a_program_bot_socket_join_obeys_the_live_limit(host, guest, outsider):
    seat_at_the_live_limit(guest, outsider)
    wanted = services.create_match(host)
    refused("too_many_live", seats.join_for_program, wanted, guest)
    assert match_row(wanted)["guest_id"] is None and not wanted.bot_seats.exists()


def test_a_rematch_obeys_the_live_limit_of_both_players(host, guest, outsider):
    finished = services.start_between(host, guest)
    services.resign(finished, host, "r")
    rematch.answer(finished.pk, host, "offer")
    seat_at_the_live_limit(guest, outsider)
    error = refused("too_many_live", rematch.answer, finished.pk, guest, "accept")
    assert error.message.startswith("You already play")
    assert Match.objects.get(pk=finished.pk).rematch_status == "offered"
    assert not Match.objects.filter(rematch_of=finished.pk).exists()
    # The one who offered, accepting the other's offer: told it is their opponent who plays too many.
    other = services.start_between(guest, host)
    services.resign(other, host, "r")
    services.resign(Match.objects.filter(host=guest, guest=outsider, status="live").first(), guest, "r")
    rematch.answer(other.pk, guest, "offer")
    services.start_between(guest, outsider)
    error = refused("too_many_live", rematch.answer, other.pk, host, "accept")
    assert error.message == f"Your opponent already plays {MAX_LIVE_MATCHES} matches at once."


def test_programs_and_tournament_pairings_are_not_held_to_the_live_limit(host, guest, outsider):
    mark_program(host)
    seat_at_the_live_limit(host, outsider)
    assert services.join_match(services.create_match(guest), host).status == "live"
    assert seats.start_vs_computer(host, "random", program=True).status == "live"
    # The server's own pairings (a tournament's round) start whatever else a person plays.
    seat_at_the_live_limit(outsider, guest)
    assert services.start_between(outsider, guest).status == "live"
