"""A program and a person play a whole match: one on the bot socket, one on the match socket."""
import asyncio
import random

import pytest
from channels.db import database_sync_to_async

from game import services
from game.models import Match
from tests.game.helpers import open_socket

from .helpers import assert_no_hidden_data, play_out, program, take_seat

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_program_plays_a_person_who_joined_from_the_lobby(host, guest):
    bot = await program(guest)
    person = None
    try:
        match = await database_sync_to_async(services.create_match)(host)
        seated = await take_seat(bot, {"type": "join", "match": match.pk})
        assert seated["seat"] == 1
        person = await open_socket(match.pk, host)
        first = (await person.hello())[-1]
        results = await asyncio.gather(play_out(person, random.Random(1), first=first), play_out(bot, random.Random(2)))
        assert {r["end_reason"] for r in results} == {"rounds"}
        final = await database_sync_to_async(Match.objects.get)(pk=match.pk)
        assert final.status == "finished" and final.winner == results[1]["winner"]
        assert_no_hidden_data(bot.frames, 1)
    finally:
        await bot.disconnect()
        if person:
            await person.disconnect()


async def test_a_program_resumes_its_seat_after_reconnecting(host):
    bot = await program(host)
    seated = await take_seat(bot, {"type": "play", "level": "random"})
    await bot.receive_until(lambda f: f["type"] == "snapshot")
    await bot.disconnect()
    again = await program(host)
    try:
        resumed = await take_seat(again, {"type": "join", "match": seated["match"]})
        assert resumed["match"] == seated["match"] and resumed["seat"] == 0
        snapshot = await again.receive_until(lambda f: f["type"] == "snapshot")
        assert snapshot["pick"] is not None  # still its pick to make
        busy = await take_seat(again, {"type": "play", "level": "random"})
        assert busy["code"] == "busy"
        final = await play_out(again, first=snapshot)
        assert final["status"] == "finished" and final["end_reason"] == "rounds"
    finally:
        await again.disconnect()
