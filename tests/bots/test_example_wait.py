"""examples/random_bot.py --wait, the sample program for tournaments and the ladder: it plays the
matches the server assigns it, each on a socket of its own, to the end. Driven here against the
real bot socket (the site's ASGI application in process) instead of over the network."""
import argparse
import asyncio

import pytest
from channels.db import database_sync_to_async

from game.models import Match
from game.programs import seats, socket

from .helpers import load_example, token_for

pytestmark = pytest.mark.django_db(transaction=True)


def program_match(host, guest):
    return seats.join_for_program(seats.create_for_program(host), guest)


@pytest.mark.parametrize("connected_first", [True, False], ids=["told-by-frame", "told-by-welcome"])
async def test_two_example_programs_play_the_match_the_server_assigns_them(host, guest, connected_first):
    example = load_example()

    async def run(user):
        args = argparse.Namespace(server="http://testserver", token=await token_for(user), matches=1, seed=1)
        return asyncio.create_task(example.wait(args))

    runs = [await run(user) for user in (host, guest)] if connected_first else []
    if connected_first:
        await asyncio.sleep(0.5)  # usually waiting by now; a late one finds the match in its welcome
    match = await database_sync_to_async(program_match)(host, guest)
    for user in (host, guest):
        await database_sync_to_async(socket.assign)(user.pk, match.pk)
    if not connected_first:
        runs = [await run(user) for user in (host, guest)]
    assert await asyncio.wait_for(asyncio.gather(*runs), 60) == [0, 0]
    final = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    assert final.status == "finished" and final.end_reason == "rounds"
