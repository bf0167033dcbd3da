"""Programs in quick pairing's pool over the bot socket: seek, get paired, play; cancel; bad frames."""
import asyncio
import random

import pytest
from channels.db import database_sync_to_async

from game.models import Match
from ratings.models import RatingChange, Seek

from .helpers import play_out, program

pytestmark = pytest.mark.django_db(transaction=True)


async def frame_of(socket, *kinds):
    return await socket.receive_until(lambda f: f["type"] in kinds)


async def test_two_seeking_programs_are_paired_and_play_a_rated_match_out(host, guest):
    first, second = await program(host), await program(guest)
    try:
        await first.send({"type": "seek", "rated": True})
        seeking = await frame_of(first, "seeking", "error")
        assert seeking == {"type": "seeking", "game": "aquawar", "rated": True, "move_seconds": 0, "rating": 1500}
        await second.send({"type": "seek", "rated": True})
        seated = await asyncio.gather(frame_of(first, "match"), frame_of(second, "match"))
        assert seated[0]["match"] == seated[1]["match"] and {s["seat"] for s in seated} == {0, 1}
        match = await database_sync_to_async(Match.objects.get)(pk=seated[0]["match"])
        assert match.rated and await database_sync_to_async(match.bot_seats.count)() == 2
        results = await asyncio.gather(play_out(first, random.Random(1)), play_out(second, random.Random(2)))
        assert all(r["status"] == "finished" for r in results)
        changes = results[0]["rating_changes"]
        assert len(changes) == 2 and changes[0]["delta"] == -changes[1]["delta"] != 0
        assert await database_sync_to_async(RatingChange.objects.filter(match_id=match.pk).count)() == 2
    finally:
        await first.disconnect()
        await second.disconnect()


async def test_a_program_cancels_its_seek_and_leaving_the_socket_leaves_the_pool(host):
    bot = await program(host)
    await bot.send({"type": "seek"})
    await frame_of(bot, "seeking")
    await bot.send({"type": "seek"})
    assert (await frame_of(bot, "error"))["code"] == "seeking"
    await bot.send({"type": "play", "level": "random"})
    assert (await frame_of(bot, "error"))["code"] == "seeking"
    await bot.send({"type": "cancel_seek"})
    await frame_of(bot, "seek_cancelled")
    assert not await database_sync_to_async(Seek.objects.exists)()
    await bot.send({"type": "seek"})
    await frame_of(bot, "seeking")
    await bot.disconnect()
    assert not await database_sync_to_async(Seek.objects.exists)()


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "seek", "game": "chess"},
        {"type": "seek", "rated": "yes"},
        {"type": "seek", "move_seconds": 7},
        {"type": "seek", "move_seconds": True},
        {"type": "cancel_seek"},
    ],
)
async def test_bad_seek_frames_are_refused_and_change_nothing(host, frame):
    bot = await program(host)
    try:
        await bot.send(frame)
        error = await frame_of(bot, "error")
        assert error["code"] in ("bad_field", "not_seeking")
        assert not await database_sync_to_async(Seek.objects.exists)()
    finally:
        await bot.disconnect()
