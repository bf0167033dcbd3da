"""A program plays whole matches against each built-in level over the bot socket."""
import asyncio
import random

import pytest
from channels.db import database_sync_to_async

from game.programs.models import BotSeat
from game.models import Match, MatchEvent

from .helpers import assert_no_hidden_data, play_out, program, take_seat

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("level", ["random", "greedy", "expert"])
async def test_it_plays_a_whole_match_against_a_built_in_level(host, level):
    socket = await program(host)
    try:
        seated = await take_seat(socket, {"type": "play", "level": level})
        assert seated["type"] == "match" and seated["seat"] == 0
        final = await play_out(socket, random.Random(level))
        assert final["status"] == "finished" and final["end_reason"] == "rounds"
        assert final["players"] == ["host", f"{level}-bot"]
        match = await database_sync_to_async(Match.objects.select_related("guest__bot_account").get)(
            pk=seated["match"]
        )
        assert match.winner == final["winner"] and match.guest.bot_account.level == level
        # The program saw every version after its first snapshot, in order, and nothing it may not
        # know. (The bot may pick before that snapshot is read, so it need not be at version 0.)
        start = next(f["version"] for f in socket.frames if f["type"] == "snapshot")
        versions = [f["version"] for f in socket.frames if f["type"] == "version"]
        assert versions == list(range(start + 1, match.version + 1))
        assert_no_hidden_data(socket.frames, 0)
        # Both seats moved through the services: every stored command names its seat and id.
        seats = await database_sync_to_async(
            lambda: set(MatchEvent.objects.filter(match=match).values_list("seat", flat=True))
        )()
        assert seats == {0, 1}
        bot_ids = await database_sync_to_async(
            lambda: list(MatchEvent.objects.filter(match=match, seat=1).values_list("client_id", "version"))
        )()
        # A bot's command id names the version it was made at (picks may land later than that).
        assert bot_ids and all(cid.startswith("bot:") and int(cid[4:]) < version for cid, version in bot_ids)
        clocks = await database_sync_to_async(
            lambda: list(BotSeat.objects.filter(match=match).values_list("deadline", flat=True))
        )()
        assert clocks == [None, None]  # nobody owes a move in a finished match
    finally:
        await socket.disconnect()


async def test_two_programs_play_each_other(host, guest):
    first, second = await program(host), await program(guest)
    try:
        created = await take_seat(first, {"type": "create", "private": True})
        assert created["seat"] == 0 and created["invite"]
        joined = await take_seat(second, {"type": "join", "invite": created["invite"]})
        assert joined["match"] == created["match"] and joined["seat"] == 1
        results = await asyncio.gather(play_out(first, random.Random(1)), play_out(second, random.Random(2)))
        assert {r["end_reason"] for r in results} == {"rounds"}
        assert results[0]["winner"] == results[1]["winner"]
        assert_no_hidden_data(first.frames, 0)
        assert_no_hidden_data(second.frames, 1)
    finally:
        await first.disconnect()
        await second.disconnect()
