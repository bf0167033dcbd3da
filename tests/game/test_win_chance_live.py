"""Spectators' live win chances (game/programs/winchances.py): estimated off the web process once per
version, cached, pushed to spectators' sockets and pages, and never to a player of the live match."""
import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core.cache import cache

from game import games, services
from game.live import frames
from game.live.consumers import MatchConsumer
from game.live.groups import match_group
from game.models import Match, MatchEvent
from game.programs import dispatch, runner, winchances
from game.programs.worker import BotWorker

from tests.accounts import client_for

from .helpers import HOST_TEAMS, live_match, open_socket
from .test_fanout import queries  # noqa: F401  (a fixture: the statements of the sockets' database thread)
from .leaks import check_win_chance_hidden, check_win_chance_html_hidden


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def counted(monkeypatch):
    """How often Aquawar's estimator is asked (it runs as it would)."""
    game = games.get("aquawar")
    calls = []
    estimate = game.win_chance
    monkeypatch.setattr(game, "win_chance", lambda state: calls.append(1) or estimate(state))
    return calls


@pytest.mark.django_db
def test_it_estimates_each_version_once(host, guest, counted):
    match = live_match(host, guest)
    first = winchances.estimate(match.pk)
    assert winchances.estimate(match.pk) == first
    assert len(counted) == 1
    services.apply_command(match.pk, host, "h", match.version, HOST_TEAMS[1])
    winchances.estimate(match.pk)
    winchances.estimate(match.pk)
    assert len(counted) == 2
    match.refresh_from_db()
    state = games.get("aquawar").load(match.state)
    assert frames.win_chance(match, None) == round(games.get("aquawar").win_chance(state), 3)


def stored(match):
    return list(MatchEvent.objects.filter(match=match).order_by("version").values_list("version", "win_chance"))


@pytest.mark.django_db
def test_each_version_is_kept_with_its_command_whether_anyone_watches_or_not(host, guest):
    match = live_match(host, guest)
    services.apply_command(match.pk, host, "h", match.version, HOST_TEAMS[1])
    chance = winchances.estimate(match.pk)
    match.refresh_from_db()
    version, kept = stored(match)[-1]
    assert version == match.version and round(kept, 3) == chance


@pytest.mark.django_db
def test_a_finished_matchs_missing_versions_are_estimated_once_each(host, guest, counted, settings):
    settings.WIN_CHANCES = True
    match = live_match(host, guest)
    services.apply_command(match.pk, host, "h", match.version, HOST_TEAMS[1])
    live_chance = winchances.estimate(match.pk)
    match.refresh_from_db()
    services.apply_command(match.pk, guest, "g", match.version, HOST_TEAMS[2])  # nobody estimates it live
    services.resign(match, host)
    assert len(counted) == 1
    assert winchances.estimate(match.pk) is None  # no live version any more
    versions = stored(match)
    assert len(versions) == 3 and all(chance is not None for _v, chance in versions)
    assert round(versions[0][1], 3) == live_chance  # kept, not estimated again
    assert versions[-1][1] == 0.0  # the host resigned
    assert len(counted) == 3
    winchances.estimate(match.pk)
    assert len(counted) == 3
    # The whole course, for the summary and the replay: the start, then each command.
    match.refresh_from_db()
    assert [version for version, _chance in winchances.series(match)] == [0, *(v for v, _c in versions)]


@pytest.mark.django_db
def test_no_course_is_given_before_the_match_ends_or_while_a_step_is_missing(host, guest, settings, monkeypatch):
    settings.WIN_CHANCES = True
    asked = []
    monkeypatch.setattr(winchances, "request", asked.append)
    match = live_match(host, guest)
    services.apply_command(match.pk, host, "h", match.version, HOST_TEAMS[1])
    winchances.estimate(match.pk)
    match.refresh_from_db()
    assert winchances.series(match) is None and asked == []
    services.resign(match, host)
    match.refresh_from_db()
    assert winchances.series(match) is None
    assert asked == [match.pk]  # a worker fills the missing step in


@pytest.mark.django_db
def test_a_spectator_alone_is_given_the_chance_while_the_match_is_live(host, guest):
    match = live_match(host, guest)
    winchances.estimate(match.pk)
    assert frames.win_chance(match, None) is not None
    assert frames.win_chance(match, 0) is None and frames.win_chance(match, 1) is None
    assert "win_chance" in frames.payload(match, None)
    for seat in (0, 1):
        check_win_chance_hidden({"type": "state", **frames.payload(match, seat)}, seat)


@pytest.mark.django_db
def test_every_change_asks_a_worker_for_an_estimate(host, guest, settings, monkeypatch, django_capture_on_commit_callbacks):
    settings.WIN_CHANCES = True
    settings.BOT_WORKERS = "external"
    asked = []
    monkeypatch.setattr(dispatch, "request_win_chance", asked.append)
    with django_capture_on_commit_callbacks(execute=True):
        match = live_match(host, guest)
        services.apply_command(match.pk, host, "h", match.version, HOST_TEAMS[1])
    assert asked == [match.pk] * 2  # joined (the match went live), picked


@pytest.mark.django_db
def test_inline_the_estimate_runs_in_a_worker_thread(host, guest, settings, monkeypatch, django_capture_on_commit_callbacks):
    settings.WIN_CHANCES = True
    settings.BOT_WORKERS = "inline"
    submitted = []
    monkeypatch.setattr(runner, "run_soon", lambda job, *args: submitted.append((job, args)))
    with django_capture_on_commit_callbacks(execute=True):
        match = live_match(host, guest)
    assert submitted[-1] == (winchances.estimate_job, (match.pk,))


@pytest.mark.django_db(transaction=True)
async def test_a_worker_estimates_on_a_win_chance_message(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    worker = BotWorker(get_channel_layer())
    worker.slots = asyncio.Semaphore(1)
    await worker.slots.acquire()
    await worker.settle({"type": "win_chance", "match_id": match.pk})
    fresh = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    assert frames.win_chance(fresh, None) is not None


@pytest.mark.django_db(transaction=True)
async def test_spectators_sockets_get_the_chance_and_players_sockets_do_not(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    player = await open_socket(match.pk, host)
    spectator = await open_socket(match.pk, address="10.0.0.9")
    player_page = await open_socket(match.pk, host, html=True)
    spectator_page = await open_socket(match.pk, address="10.0.0.8", html=True)
    try:
        for socket in (player, spectator):
            await socket.hello()
        chance = await database_sync_to_async(winchances.estimate)(match.pk)
        pushed = await spectator.receive_until(lambda f: f["type"] == "win_chance")
        assert pushed[-1] == {"type": "win_chance", "version": match.version, "host": chance}
        drawn = await spectator_page.receive_until(lambda f: f.startswith('<div id="win-chance-value"'))
        assert f"host {round(chance * 100)} %" in drawn[-1] and 'hx-swap-oob="true"' in drawn[-1]
        for socket in (player, player_page):
            # Presence news (the spectators arrived) and nothing else: scanned below.
            while not await socket.nothing_more():
                await socket.receive()
        # A spectator who arrives now is given it in its snapshot and its page.
        late = await open_socket(match.pk, address="10.0.0.7")
        assert (await late.hello())[-1]["win_chance"] == chance
        await late.disconnect()
    finally:
        for socket in (player, spectator, player_page, spectator_page):
            await socket.disconnect()
    for text in player.frames:
        check_win_chance_hidden(json.loads(text), 0)
    for text in player_page.frames:
        check_win_chance_html_hidden(text, 0, live=True)
    assert any("win-chance" in text for text in spectator_page.frames)


@pytest.mark.django_db(transaction=True)
async def test_the_estimate_s_ring_reaches_the_spectators_sockets_only(host, guest, monkeypatch):
    heard = []
    handler = MatchConsumer.win_chance_ready

    async def noted(consumer, message):
        heard.append(consumer.user.pk if consumer.user.is_authenticated else "spectator")
        await handler(consumer, message)

    monkeypatch.setattr(MatchConsumer, "win_chance_ready", noted)
    match = await database_sync_to_async(live_match)(host, guest)
    sockets = [await open_socket(match.pk, host), await open_socket(match.pk, guest, html=True),
               await open_socket(match.pk, address="10.0.0.9"), await open_socket(match.pk, address="10.0.0.8", html=True)]
    try:
        await sockets[0].hello()
        await sockets[2].hello()
        await database_sync_to_async(winchances.estimate)(match.pk)
        await sockets[2].receive_until(lambda f: f["type"] == "win_chance")
        await sockets[3].receive_until(lambda f: f.startswith('<div id="win-chance-value"'))
        for socket in sockets[:2]:
            while not await socket.nothing_more():
                await socket.receive()
    finally:
        for socket in sockets:
            await socket.disconnect()
    assert heard == ["spectator", "spectator"]


@pytest.mark.django_db
def test_the_match_page_draws_the_bar_for_spectators_only(host, guest, outsider):
    match = live_match(host, guest)
    assert "Estimating" in client_for(outsider).get(f"/match/{match.pk}/").content.decode()
    winchances.estimate(match.pk)
    chance = frames.win_chance(match, None)
    page = client_for(outsider).get(f"/match/{match.pk}/").content.decode()
    assert f"host {round(chance * 100)} %" in page and 'class="win-chance"' in page
    for player in (host, guest):
        check_win_chance_html_hidden(client_for(player).get(f"/match/{match.pk}/").content.decode(), 0, live=True)


@pytest.mark.django_db(transaction=True)
async def test_a_spectators_bar_says_the_match_is_over_once_it_is(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    page = await open_socket(match.pk, address="10.0.0.6", html=True)
    try:
        await page.receive_until(lambda f: 'id="win-chance-value"' in f)
        await database_sync_to_async(services.resign)(match, host)
        redrawn = await page.receive_until(lambda f: "The match is over" in f)
        assert "host " not in redrawn[-1].split('id="win-chance-value"')[1]
    finally:
        await page.disconnect()


async def drained(*sockets):
    for socket in sockets:
        while not await socket.nothing_more():
            await socket.receive()


@pytest.mark.django_db(transaction=True)
async def test_a_spectator_at_the_estimated_version_is_given_it_without_a_read_of_the_match(host, guest, queries):
    match = await database_sync_to_async(live_match)(host, guest)
    spectator = await open_socket(match.pk, address="10.0.0.9")
    spectator_page = await open_socket(match.pk, address="10.0.0.8", html=True)
    try:
        await spectator.hello()
        await drained(spectator, spectator_page)
        cache.set(frames.win_chance_key(match.pk, match.seed, match.version), 0.25)
        queries.clear()
        ready = {"type": "win_chance.ready", "version": match.version, "ring": "estimated"}
        await get_channel_layer().group_send(match_group(match.pk), ready)
        pushed = await spectator.receive_until(lambda f: f["type"] == "win_chance")
        assert pushed[-1] == {"type": "win_chance", "version": match.version, "host": 0.25}
        drawn = await spectator_page.receive_until(lambda f: f.startswith('<div id="win-chance-value"'))
        assert "host 25 %" in drawn[-1]
        # The sockets were at that version of the live match: the estimate is all there is to read.
        assert queries == []
    finally:
        for socket in (spectator, spectator_page):
            await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_an_estimate_of_a_version_a_spectator_has_moved_past_is_not_sent(host, guest, queries):
    match = await database_sync_to_async(live_match)(host, guest)
    spectator = await open_socket(match.pk, address="10.0.0.9")
    try:
        await spectator.hello()
        await database_sync_to_async(services.apply_command)(match.pk, host, "h", 0, HOST_TEAMS[1])
        await spectator.receive_until(lambda f: f["type"] == "state")
        await drained(spectator)
        cache.set(frames.win_chance_key(match.pk, match.seed, 0), 0.25)
        cache.set(frames.win_chance_key(match.pk, match.seed, 1), 0.5)
        queries.clear()
        for version, ring in ((0, "late"), (1, "current")):
            ready = {"type": "win_chance.ready", "version": version, "ring": ring}
            await get_channel_layer().group_send(match_group(match.pk), ready)
        # A socket handles its messages in order: the late ring was handled before the current one.
        pushed = await spectator.receive_until(lambda f: f["type"] == "win_chance")
        assert pushed == [{"type": "win_chance", "version": 1, "host": 0.5}]
        assert queries == []
    finally:
        await spectator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_spectator_s_state_frame_after_a_doorbell_carries_the_estimate_heard_rung_without_a_cache_read(
    host, guest, monkeypatch
):
    """The estimate in a spectator's ``state`` frame after a doorbell is the one this process heard
    rung (game/live/fanout.py, ``estimate``): no cache read on the database thread; one not heard
    of yet comes in a frame of its own when its ring does."""
    from game.live import groups

    from .helpers import GUEST_TEAMS

    reads = []
    cached = frames.cached_win_chance
    monkeypatch.setattr(frames, "cached_win_chance", lambda key: reads.append(key) or cached(key))
    match = await database_sync_to_async(live_match)(host, guest)
    spectator = await open_socket(match.pk, address="10.0.0.9")
    try:
        await spectator.hello()
        await drained(spectator)
        # Estimated before the doorbell is handled, its ring still to come.
        cache.set(frames.win_chance_key(match.pk, match.seed, 1), 0.25)
        reads.clear()
        await database_sync_to_async(services.apply_command)(match.pk, host, "h", 0, HOST_TEAMS[1])
        state = (await spectator.receive_until(lambda f: f["type"] == "state"))[-1]
        assert (state["version"], state["win_chance"], reads) == (1, None, [])
        await get_channel_layer().group_send(match_group(match.pk), {"type": "win_chance.ready", "version": 1, "ring": "one"})
        assert (await spectator.receive_until(lambda f: f["type"] == "win_chance"))[-1]["host"] == 0.25
        # The estimate's ring heard before the doorbell: the state frame carries it, read from nowhere.
        held = []
        monkeypatch.setattr(groups, "ring_doorbell", lambda match_id, version, ring=None: held.append((version, ring)))
        await database_sync_to_async(services.apply_command)(match.pk, guest, "g", 0, GUEST_TEAMS[1])
        cache.set(frames.win_chance_key(match.pk, match.seed, 2), 0.5)
        await get_channel_layer().group_send(match_group(match.pk), {"type": "win_chance.ready", "version": 2, "ring": "two"})
        assert (await spectator.receive_until(lambda f: f["type"] == "win_chance"))[-1] == {
            "type": "win_chance", "version": 2, "host": 0.5
        }
        reads.clear()
        [(version, ring)] = held
        await get_channel_layer().group_send(match_group(match.pk), {"type": "match.changed", "version": version, "ring": ring})
        state = (await spectator.receive_until(lambda f: f["type"] == "state"))[-1]
        assert (state["version"], state["win_chance"], reads) == (2, 0.5, [])
    finally:
        await spectator.disconnect()
