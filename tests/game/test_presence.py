"""Whether each side's opponent is connected (over every tab and process), and the abandoned-match sweep."""
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.utils import timezone

from game.live import presence
from game import services
from game.models import Match, Presence
from game.programs import seats
from game.programs.models import BotSeat

from .helpers import HOST_TEAMS, live_match, open_socket
from .test_clocks import wakes  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


async def test_it_tells_a_player_when_the_opponent_comes_and_goes(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    mine = await open_socket(match.pk, host)
    try:
        assert (await mine.hello())[-1]["connected"] == [True, False]
        theirs = await open_socket(match.pk, guest)
        assert await mine.receive() == {"type": "presence", "spectators": 0, "players": [True, True]}
        assert (await theirs.hello())[-1]["connected"] == [True, True]
        await theirs.disconnect()
        assert await mine.receive() == {"type": "presence", "spectators": 0, "players": [True, False]}
    finally:
        await mine.disconnect()


async def test_it_counts_a_player_as_connected_while_any_tab_is_open(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    watcher = await open_socket(match.pk, guest)
    try:
        await watcher.hello()
        first_tab = await open_socket(match.pk, host)
        assert (await watcher.receive())["players"] == [True, True]
        second_tab = await open_socket(match.pk, host)
        await second_tab.hello()  # its presence row is written once its connect is done
        await first_tab.disconnect()
        # Still connected in the other tab: no news at all.
        assert await watcher.nothing_more()
        assert await database_sync_to_async(presence.players)(match.pk) == [True, True]
        await second_tab.disconnect()
        assert (await watcher.receive())["players"] == [False, True]
    finally:
        await watcher.disconnect()


async def test_a_built_in_level_counts_as_connected_in_every_json_frame(host, wakes):
    match = await database_sync_to_async(seats.start_vs_computer)(host, "random")
    mine = await open_socket(match.pk, host)
    try:
        assert (await mine.hello())[-1]["connected"] == [True, True]
        watcher = await open_socket(match.pk)
        # The computer may pick meanwhile: its frames come too.
        heard = (await mine.receive_until(lambda f: f["type"] == "presence"))[-1]
        assert heard == {"type": "presence", "spectators": 1, "players": [True, True]}
        assert (await watcher.hello())[-1]["connected"] == [True, True]
        await mine.disconnect()
        # The person left; the computer, which has no socket, stays.
        heard = (await watcher.receive_until(lambda f: f["type"] == "presence"))[-1]
        assert heard == {"type": "presence", "spectators": 1, "players": [False, True]}
        await watcher.disconnect()
    finally:
        await mine.disconnect()
    # Sockets are still what the claim rules count: the computer's seat has none.
    assert await database_sync_to_async(presence.players)(match.pk) == [False, False]


async def test_a_program_seat_with_neither_a_match_nor_a_bot_socket_counts_as_disconnected(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    await database_sync_to_async(BotSeat.objects.create)(match=match, seat=1, level=BotSeat.PROGRAM)
    mine = await open_socket(match.pk, host)
    try:
        assert (await mine.hello())[-1]["connected"] == [True, False]
    finally:
        await mine.disconnect()


async def test_a_program_playing_over_the_bot_socket_counts_as_connected_while_it_does(host, guest):
    """A program plays over the bot socket, which is not a match socket: while that socket plays
    the match its seat is present, and the match's sockets hear it come and go."""
    from tests.bots.helpers import program, take_seat

    match = await database_sync_to_async(services.create_match)(host)
    bot = await program(guest)
    mine = None
    try:
        assert (await take_seat(bot, {"type": "join", "match": match.pk}))["seat"] == 1
        mine = await open_socket(match.pk, host)
        assert (await mine.hello())[-1]["connected"] == [True, True]
        await bot.disconnect()
        heard = (await mine.receive_until(lambda f: f["type"] == "presence"))[-1]
        assert heard == {"type": "presence", "spectators": 0, "players": [True, False]}
        # Back on a new bot socket: present again, and told so without anything else changing.
        bot = await program(guest)
        assert (await take_seat(bot, {"type": "join", "match": match.pk}))["seat"] == 1
        heard = (await mine.receive_until(lambda f: f["type"] == "presence"))[-1]
        assert heard == {"type": "presence", "spectators": 0, "players": [True, True]}
    finally:
        await bot.disconnect()
        if mine:
            await mine.disconnect()


def test_it_does_not_count_rows_a_dead_process_left_behind(host, guest):
    match = live_match(host, guest)
    Presence.objects.create(channel_name="dead!1", match=match, seat=0, user=host, seen=timezone.now())
    assert presence.players(match.pk) == [True, False]
    Presence.objects.filter(pk="dead!1").update(seen=timezone.now() - presence.STALE_AFTER - timedelta(seconds=1))
    assert presence.players(match.pk) == [False, False]
    assert presence.sockets_of(host.pk) == 0
    # The heartbeat of a live socket keeps its row fresh.
    presence.touch("dead!1")
    assert presence.players(match.pk) == [True, False]


async def test_it_shows_the_opponent_on_the_page_and_pushes_changes(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    page = await open_socket(match.pk, host, html=True)
    try:
        first = await page.receive()
        assert 'id="match-opponent"' in first and "Opponent disconnected" in first
        theirs = await open_socket(match.pk, guest)
        pushed = await page.receive()
        assert 'id="match-opponent"' in pushed and "Opponent connected" in pushed and "hx-swap-oob" in pushed
        await theirs.disconnect()
        assert "Opponent disconnected" in await page.receive()
    finally:
        await page.disconnect()


def test_the_match_page_says_whether_the_opponent_is_there(host, guest, host_client):
    match = live_match(host, guest)
    assert "Opponent disconnected" in host_client.get(f"/match/{match.pk}/").content.decode()
    Presence.objects.create(channel_name="x!1", match=match, seat=1, user=guest, seen=timezone.now())
    assert "Opponent connected" in host_client.get(f"/match/{match.pk}/").content.decode()


def quiet_for(match, minutes):
    Match.objects.filter(pk=match.pk).update(updated=timezone.now() - timedelta(minutes=minutes))


def test_it_sweeps_a_match_both_players_left_before_picking(host, guest, settings):
    settings.ABANDONED_MATCH_MINUTES = 10
    abandoned, recent, picked, watched, left = (live_match(host, guest) for _ in range(5))
    services.apply_command(picked.pk, host, "p", 0, HOST_TEAMS[1])
    Presence.objects.create(channel_name="w!1", match=watched, seat=1, user=guest, seen=timezone.now())
    # A player who has just closed the page: the seat has been empty for less than the limit.
    presence.arrive("l!1", left.pk, 0, host)
    presence.leave("l!1")
    assert presence.players(left.pk) == [False, False]
    for match in (abandoned, picked, watched, left):
        quiet_for(match, 11)
    quiet_for(recent, 9)
    call_command("sweep_matches", stdout=open("/dev/null", "w"))
    statuses = {m.pk: m.status for m in Match.objects.all()}
    assert statuses == {
        abandoned.pk: "cancelled", recent.pk: "live", picked.pk: "live", watched.pk: "live", left.pk: "live"
    }
    assert Match.objects.get(pk=abandoned.pk).end_reason == "abandoned"


def test_a_lobby_visit_sweeps_now_and_then(host, guest, client, settings):
    settings.ABANDONED_MATCH_MINUTES = 10
    match = live_match(host, guest)
    quiet_for(match, 11)
    assert client.get("/").status_code == 200
    assert Match.objects.get(pk=match.pk).status == "cancelled"
    # The next visits within the minute do not sweep again.
    other = live_match(host, guest)
    quiet_for(other, 11)
    client.get("/")
    assert Match.objects.get(pk=other.pk).status == "live"


async def test_a_sweep_rings_the_doorbell(host, guest, settings):
    settings.ABANDONED_MATCH_MINUTES = 10
    match = await database_sync_to_async(live_match)(host, guest)
    watcher = await open_socket(match.pk)
    try:
        await watcher.hello()
        await database_sync_to_async(quiet_for)(match, 11)
        await database_sync_to_async(call_command)("sweep_matches", stdout=open("/dev/null", "w"))
        assert (await watcher.receive_type("state"))["status"] == "cancelled"
    finally:
        await watcher.disconnect()


def made_ago(match, minutes):
    Match.objects.filter(pk=match.pk).update(created=timezone.now() - timedelta(minutes=minutes))


def test_open_matches_nobody_joins_expire_and_leave_the_lobby(host, guest, client, settings):
    settings.OPEN_MATCH_MINUTES = 60
    old, private, fresh, joined = (services.create_match(host, private=p) for p in (False, True, False, False))
    services.join_match(joined, guest)
    for match in (old, private, joined):
        made_ago(match, 61)
    made_ago(fresh, 59)
    call_command("sweep_matches", stdout=open("/dev/null", "w"))
    statuses = {m.pk: (m.status, m.end_reason) for m in Match.objects.all()}
    assert statuses == {
        old.pk: ("cancelled", "expired"), private.pk: ("cancelled", "expired"),
        fresh.pk: ("open", ""), joined.pk: ("live", ""),
    }
    lobby = client.get("/").content.decode()
    assert f"/match/{fresh.pk}/join" in lobby and f"/match/{old.pk}/join" not in lobby
    # Its page says why.
    page = client.get(f"/match/{old.pk}/").content.decode()
    assert "This match was cancelled." in page and "Nobody joined it in time." in page
