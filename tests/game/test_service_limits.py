"""Every limit is enforced where the thing is made (game/services.py and its kin), so no caller can
get around it: open matches, live matches against the computer (rematches too), API tokens."""
import pytest
from channels.db import database_sync_to_async

from game import rematch, services
from game.programs import seats, tokens
from game.models import Match
from game.services import MAX_LIVE_VS_COMPUTER, MAX_OPEN_MATCHES, ServiceError
from tests.bots.helpers import program, take_seat

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
        assert "5 matches against this level" in error.message
    assert live_against(host, "greedy") == MAX_LIVE_VS_COMPUTER
    # The refused offers changed nothing: once a live one is over, the same offer is accepted.
    assert all(not Match.objects.get(pk=match.pk).rematch_status for match in finished)
    services.resign(Match.objects.filter(host=host, status="live").first(), host, "r2")
    assert rematch.info(rematch.answer(finished[0].pk, host, "offer"))["status"] == "accepted"
    assert live_against(host, "greedy") == MAX_LIVE_VS_COMPUTER


def test_the_computer_limit_is_per_level(host, settings):
    settings.BOT_SWEEP_SECONDS = 0
    for _ in range(MAX_LIVE_VS_COMPUTER):
        seats.start_vs_computer(host, "random")
    refused("too_many", seats.start_vs_computer, host, "random")
    assert seats.start_vs_computer(host, "greedy").status == "live"


def test_the_token_limit_holds_wherever_a_token_is_made(host):
    for n in range(tokens.MAX_TOKENS):
        tokens.create(host, f"t{n}")
    error = refused("too_many_tokens", tokens.create, host, "one more")
    assert "10 tokens" in error.message
