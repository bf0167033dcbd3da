"""A person waiting on a page with the lobby's socket (the lobby, the tournament's page) is taken to
their match when the server starts a tournament's round, as when someone joins a match they host."""
import pytest
from channels.db import database_sync_to_async

from game.models import Match
from tests.lobby.test_lobby_socket import lobby_socket
from tournaments import runner, services
from tournaments.models import Pairing

from .conftest import new_tournament, start_now

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def round_one_of(organizer, players, **fields):
    cup = new_tournament(organizer, **fields)
    for player in players:
        services.register(cup.pk, player)
    start_now(cup)
    runner.run_due()
    return Pairing.objects.select_related("match").get(tournament=cup, round=1).match


async def test_each_player_of_a_new_round_is_told_and_sent_to_their_match(host, people, outsider):
    first, second = people[:2]
    sockets = {user.pk: (await lobby_socket(user))[0] for user in (first, second, outsider)}
    try:
        match = await round_one_of(host, [first, second], kind="round_robin", rounds=None)
        for player, opponent in ((first, second), (second, first)):
            news = await sockets[player.pk].receive()
            assert 'id="lobby-joined"' in news and f'data-url="/match/{match.pk}/"' in news
            assert f"Spring cup, round 1: your match against {opponent.username} is starting" in news
        # Nobody else hears of it.
        assert await sockets[outsider.pk].communicator.receive_nothing(timeout=0.2)
    finally:
        for socket in sockets.values():
            await socket.disconnect()


async def test_programs_are_told_over_the_bot_socket_only(host, programs):
    sockets = [(await lobby_socket(program))[0] for program in programs[:2]]
    try:
        match = await round_one_of(host, programs[:2], kind="round_robin", rounds=None, for_programs=True)
        assert await database_sync_to_async(Match.objects.filter(pk=match.pk, status="live").exists)()
        for socket in sockets:
            assert await socket.communicator.receive_nothing(timeout=0.2)
    finally:
        for socket in sockets:
            await socket.disconnect()
