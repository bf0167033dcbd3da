"""A match the server starts for a program (a tournament round, the ladder) reaches the program's
idle bot socket as an ``assigned`` frame, and every later ``welcome`` lists it until it is over."""
import pytest
from channels.db import database_sync_to_async

from game.programs import seats, socket

from .helpers import program, take_seat

pytestmark = pytest.mark.django_db(transaction=True)


def program_match(host, guest):
    """A live match with a program seat for each account, as the server starts them."""
    match = seats.create_for_program(host)
    return seats.join_for_program(match, guest)


async def test_an_idle_program_is_told_of_its_match_and_takes_the_seat(host, guest):
    bot = await program(host)
    other = await program(guest)
    try:
        match = await database_sync_to_async(program_match)(host, guest)
        await database_sync_to_async(socket.assign)(host.pk, match.pk)
        told = await bot.receive_until(lambda f: f["type"] == "assigned")
        assert told == {"type": "assigned", "match": match.pk}
        seated = await take_seat(bot, {"type": "join", "match": told["match"]})
        assert (seated["match"], seated["seat"]) == (match.pk, 0)
        # Only the account named hears of it.
        assert not [f for f in other.frames if f["type"] == "assigned"]
    finally:
        await bot.disconnect()
        await other.disconnect()


async def test_a_program_that_connects_later_finds_its_live_matches_in_the_welcome(host, guest):
    match = await database_sync_to_async(program_match)(host, guest)
    late = await program(guest)
    try:
        assert late.frames[0]["assigned"] == [match.pk]
    finally:
        await late.disconnect()
    await database_sync_to_async(match.__class__.objects.filter(pk=match.pk).update)(status="finished")
    again = await program(guest)
    try:
        assert again.frames[0]["assigned"] == []
    finally:
        await again.disconnect()
