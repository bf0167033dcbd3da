"""The contest rules on program seats: too slow, illegal or malformed loses the whole match."""
import asyncio
import json
import random

import pytest
from channels.db import database_sync_to_async

from game.programs import runner
from game import services
from game.models import Match, MatchEvent
from tests.game.helpers import open_socket

from .helpers import program, random_command, take_seat

pytestmark = pytest.mark.django_db(transaction=True)

PICK = {"pick": ["archerfish", "pufferfish", "electric_eel", "sunfish"]}


async def program_vs_person(program_user, person):
    """A program hosts, a person joins from the lobby; both sockets at the pick of round 1."""
    bot = await program(program_user)
    seated = await take_seat(bot, {"type": "create", "private": False})
    await bot.receive_until(lambda f: f["type"] == "snapshot")
    match = await database_sync_to_async(Match.objects.get)(pk=seated["match"])
    await database_sync_to_async(services.join_match)(match, person)
    await bot.receive_until(lambda f: f["type"] == "state" and f["status"] == "live")
    browser = await open_socket(match.pk, person)
    await browser.hello()
    return bot, browser, match.pk


async def told_why(socket, reason):
    """The opponent's socket gets the final version, whose match_end names the reason."""
    frame = await socket.receive()
    while not (frame["type"] == "version" and any(e["type"] == "match_end" for e in frame["events"])):
        frame = await socket.receive()
    end = next(e for e in frame["events"] if e["type"] == "match_end")
    assert end["reason"] == reason
    return end


async def stored(match_id):
    return await database_sync_to_async(Match.objects.get)(pk=match_id)


async def forfeits(match_id, reason):
    return await database_sync_to_async(
        lambda: MatchEvent.objects.filter(match_id=match_id, command__reason=reason).count()
    )()


async def test_an_illegal_command_loses_the_match_and_the_person_is_told(host, guest):
    bot, browser, match_id = await program_vs_person(host, guest)
    try:
        await bot.send({"type": "command", "id": "c1", "version": 0, "command": {"pick": ["archerfish"]}})
        error = await bot.receive_until(lambda f: f["type"] == "error")
        assert error["code"] == "wrong_pick_count" and error["id"] == "c1"
        end = await told_why(browser, "illegal")
        assert end["winner"] == 1
        await told_why(bot, "illegal")
        match = await stored(match_id)
        assert (match.status, match.winner, match.end_reason) == ("finished", 1, "illegal")
        assert await forfeits(match_id, "illegal") == 1
    finally:
        await bot.disconnect()
        await browser.disconnect()


@pytest.mark.parametrize(
    "frame",
    [
        "this is not JSON",
        json.dumps({"type": "command", "id": "c1", "padding": "x" * 9000}),
        json.dumps({"type": "dance"}),
        json.dumps(["command"]),
        json.dumps({"type": "command", "id": "c1", "version": 0, "command": "pick them all"}),
        b"\x00binary",
    ],
    ids=["not-json", "oversize", "unknown-type", "not-an-object", "bad-field", "binary"],
)
async def test_a_malformed_frame_loses_the_match(host, guest, frame):
    bot, browser, match_id = await program_vs_person(host, guest)
    try:
        if isinstance(frame, bytes):
            await bot.communicator.send_to(bytes_data=frame)
        else:
            await bot.send(frame)
        error = await bot.receive_until(lambda f: f["type"] == "error")
        assert error["code"] in ("bad_json", "too_large", "unknown_type", "bad_frame", "bad_field", "binary_frame")
        await told_why(browser, "illegal")
        match = await stored(match_id)
        assert (match.status, match.winner, match.end_reason) == ("finished", 1, "illegal")
    finally:
        await bot.disconnect()
        await browser.disconnect()


async def test_a_person_is_only_told_about_an_illegal_command(host, guest):
    bot, browser, match_id = await program_vs_person(host, guest)
    try:
        await browser.send({"type": "command", "id": "p1", "version": 0, "command": {"pick": ["archerfish"]}})
        error = await browser.receive_type("error")
        assert error["code"] == "wrong_pick_count"
        await browser.send("this is not JSON")
        assert (await browser.receive_type("error"))["code"] == "bad_json"
        match = await stored(match_id)
        assert (match.status, match.version) == ("live", 0)
        # The person plays on: the same seat's legal pick is taken.
        await browser.send({"type": "command", "id": "p2", "version": 0, "command": PICK})
        assert (await browser.receive_type("ack"))["version"] == 1
    finally:
        await bot.disconnect()
        await browser.disconnect()


async def test_a_program_that_does_not_answer_in_time_loses_once(host, guest, settings):
    settings.BOT_MOVE_SECONDS = 0.5
    bot, browser, match_id = await program_vs_person(host, guest)
    try:
        # The program never picks and is not even connected any more. (The person does not pick
        # either: on a loaded machine the program's half second could run out before that pick
        # arrived, and the person's own clock is far longer.)
        await bot.disconnect()
        end = await told_why(browser, "timeout")
        assert end["winner"] == 1
        match = await stored(match_id)
        assert (match.status, match.winner, match.end_reason) == ("finished", 1, "timeout")
        # Timers, sweeps and sockets may all notice the same deadline: the forfeit happens once.
        await database_sync_to_async(runner.sweep)()
        await database_sync_to_async(runner.settle)(match_id)
        assert await forfeits(match_id, "timeout") == 1
        assert (await stored(match_id)).version == match.version
    finally:
        await bot.disconnect()
        await browser.disconnect()


async def test_each_decision_gets_the_full_time(host, settings):
    settings.BOT_MOVE_SECONDS = 3  # the contest's clock
    bot = await program(host)
    try:
        await take_seat(bot, {"type": "play", "level": "random"})
        state = await bot.receive_until(lambda f: f["type"] == "snapshot")
        # Answer every decision after 1.2 s: four of them take more in total than one clock would
        # allow, but each pick, assertion and action restarts it. (The 1.8 s left on each clock
        # absorb a loaded machine's delays in delivering the state.)
        rng = random.Random(3)
        decisions = 0
        while decisions < 4:
            if state["type"] in ("state", "snapshot") and (state["pick"] or state["legal"]):
                await asyncio.sleep(1.2)
                await bot.send({"type": "command", "id": f"c{decisions}", "version": state["version"],
                                "command": random_command(state, rng)})
                assert (await bot.receive_until(lambda f: f["type"] in ("ack", "error")))["type"] == "ack"
                decisions += 1
            state = await bot.receive()
        assert state.get("status", "live") == "live"
    finally:
        await bot.disconnect()
