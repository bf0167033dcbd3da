"""``cancel``: the host of a match calls it off before it starts, as the lobby's Cancel button does
(a contest bridge stopped while its ``create`` waits sends it); nobody else can, and not later."""
import pytest
from channels.db import database_sync_to_async

from game.models import Match

from .helpers import program, take_seat

pytestmark = pytest.mark.django_db(transaction=True)


async def status_of(match_id):
    return (await database_sync_to_async(Match.objects.get)(pk=match_id)).status


async def test_the_host_cancels_its_open_match(host):
    bot = await program(host)
    try:
        match_id = (await take_seat(bot, {"type": "create", "private": False}))["match"]
        await bot.send({"type": "cancel", "id": "x1"})
        answer = await bot.receive_until(lambda f: f.get("id") == "x1")
        assert answer["type"] == "ack"
        assert await status_of(match_id) == Match.Status.CANCELLED
        final = await bot.receive_until(lambda f: f["type"] == "state")
        assert final["status"] == "cancelled"
    finally:
        await bot.disconnect()


async def test_the_guest_may_not_cancel(host, guest):
    bot, other = await program(host), await program(guest)
    try:
        match_id = (await take_seat(bot, {"type": "create", "private": False}))["match"]
        await take_seat(other, {"type": "join", "match": match_id})
        await other.send({"type": "cancel", "id": "x1"})
        refused = await other.receive_until(lambda f: f.get("id") == "x1")
        assert (refused["type"], refused["code"]) == ("error", "not_host")
        assert await status_of(match_id) == Match.Status.LIVE
    finally:
        await bot.disconnect()
        await other.disconnect()


async def test_a_match_past_its_setup_is_not_cancelled(host):
    bot = await program(host)
    try:
        match_id = (await take_seat(bot, {"type": "play", "level": "random"}))["match"]
        snapshot = await bot.receive_until(lambda f: f["type"] == "snapshot")
        team = snapshot["pick"]["species"][:4]
        await bot.send({"type": "command", "id": "p1", "version": snapshot["version"], "command": {"pick": team}})
        await bot.receive_until(lambda f: f["type"] == "state" and f["view"]["phase"] != "pick")
        await bot.send({"type": "cancel", "id": "x1"})
        refused = await bot.receive_until(lambda f: f.get("id") == "x1")
        assert (refused["type"], refused["code"]) == ("error", "already_started")
        assert await status_of(match_id) == Match.Status.LIVE
    finally:
        await bot.disconnect()


async def test_a_cancel_without_a_seat_is_refused(host):
    bot = await program(host)
    try:
        await bot.send({"type": "cancel", "id": "x1"})
        refused = await bot.receive_until(lambda f: f.get("id") == "x1")
        assert (refused["type"], refused["code"]) == ("error", "no_seat")
    finally:
        await bot.disconnect()
