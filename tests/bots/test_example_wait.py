"""examples/random_bot.py --wait, the sample program for tournaments and the ladder (and
examples/miracle_random_bot.py --wait, the same code, for 神迹之战): it plays the
matches the server assigns it, each on a socket of its own, to the end, and comes back by itself
after a server restart. Driven here against the real bot socket (the site's ASGI application in
process) instead of over the network."""
import argparse
import asyncio

import pytest
from channels.db import database_sync_to_async

from game.models import Match
from game.programs import seats, socket

from .helpers import EXAMPLES, InProcess, load_example, token_for

pytestmark = pytest.mark.django_db(transaction=True)


def program_match(host, guest, game="aquawar"):
    return seats.join_for_program(seats.create_for_program(host, game=game), guest)


async def started(example, user):
    args = argparse.Namespace(server="http://testserver", token=await token_for(user), matches=1, seed=1)
    return asyncio.create_task(example.botclient.wait(args, example.play_on))


async def assign_a_match(host, guest, game="aquawar"):
    match = await database_sync_to_async(program_match)(host, guest, game)
    for user in (host, guest):
        await database_sync_to_async(socket.assign)(user.pk, match.pk)
    return match


async def restart_the_server(down_for=1.5):
    """Every socket cut at once, and new ones refused for ``down_for`` seconds, as by a restart."""
    InProcess.down = True
    try:
        await InProcess.drop_all()
        await asyncio.sleep(down_for)
    finally:
        InProcess.down = False


async def reload(match):
    return await database_sync_to_async(Match.objects.get)(pk=match.pk)


async def reached(match, version):
    while (await reload(match)).version < version:
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("connected_first", [True, False], ids=["told-by-frame", "told-by-welcome"])
async def test_two_example_programs_play_the_match_the_server_assigns_them(host, guest, connected_first):
    example = load_example()
    runs = [await started(example, user) for user in (host, guest)] if connected_first else []
    if connected_first:
        await asyncio.sleep(0.5)  # usually waiting by now; a late one finds the match in its welcome
    match = await assign_a_match(host, guest)
    if not connected_first:
        runs = [await started(example, user) for user in (host, guest)]
    assert await asyncio.wait_for(asyncio.gather(*runs), 60) == [0, 0]
    final = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    assert final.status == "finished" and final.end_reason == "rounds"


@pytest.mark.parametrize("when", ["waiting", "playing"])
async def test_the_example_programs_come_back_after_a_server_restart(host, guest, when):
    """Cut while waiting for a match (the new socket's welcome names the match assigned meanwhile),
    or in the middle of one (the seat is taken back and the match played on to its end)."""
    example = load_example()
    runs = [await started(example, user) for user in (host, guest)]
    await asyncio.sleep(0.5)
    if when == "waiting":
        await restart_the_server()
    match = await assign_a_match(host, guest)
    if when == "playing":
        await asyncio.wait_for(reached(match, 4), 60)
        await restart_the_server()
        cut = await reload(match)
        assert cut.status == "live"  # the restart came mid-match: it was played on after it
    assert await asyncio.wait_for(asyncio.gather(*runs), 90) == [0, 0]
    final = await reload(match)
    assert final.status == "finished" and final.end_reason == "rounds"


async def test_the_miracle_example_plays_the_match_the_server_assigns_it_unattended_too(host, guest):
    example = load_example(EXAMPLES / "miracle_random_bot.py")
    runs = [await started(example, user) for user in (host, guest)]
    await asyncio.sleep(0.5)
    match = await assign_a_match(host, guest, "miracle")
    await asyncio.wait_for(reached(match, 4), 60)
    await restart_the_server()
    assert (await reload(match)).status == "live"
    assert await asyncio.wait_for(asyncio.gather(*runs), 120) == [0, 0]
    final = await reload(match)
    assert final.status == "finished" and final.end_reason in ("miracle_destroyed", "turn_limit")
