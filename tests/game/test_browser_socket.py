"""The browser dialect: htmx fragments out, flat ws-send form fields in."""
import html
import re

import pytest
from channels.db import database_sync_to_async

from game import services

from .helpers import db_match, live_match, open_socket

pytestmark = pytest.mark.django_db(transaction=True)

HTMX_HEADERS = {"HX-Request": "true", "HX-Trigger": None, "HX-Target": "match-page", "HX-Current-URL": "http://testserver/"}


def form(kind, version, client_id, **fields):
    return {"type": "form", "form": kind, "id": client_id, "version": str(version), "HEADERS": HTMX_HEADERS, **fields}


async def until_version(socket, version):
    return (await socket.receive_until(lambda text: f'data-version="{version}"' in text))[-1]


async def test_it_plays_through_the_forms_on_the_page(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    pages = [await open_socket(match.pk, host, html=True), await open_socket(match.pk, guest, html=True)]
    try:
        for page in pages:
            first = await until_version(page, 0)
            assert 'id="match-controls"' in first and 'hx-swap-oob="true"' in first
            assert 'id="match-log"' in first and "Lock in my team" in first

        await pages[0].send(form("pick", 0, "a", fish=["archerfish", "pufferfish", "electric_eel", "sunfish"], mimic=""))
        assert "Waiting for your opponent" in await until_version(pages[0], 1)
        await pages[1].send(
            form("pick", 0, "b", fish=["sea_wolf", "manta_ray", "sea_turtle", "mimic_fish"], mimic="octopus")
        )
        update = await until_version(pages[1], 2)
        assert 'hx-swap-oob="beforeend:#match-log"' in update and "copies Octopus" in update
        stored = await db_match(match.pk)
        assert stored.state["picks"][1] == {"fish": ["sea_wolf", "manta_ray", "sea_turtle", "mimic_fish"], "mimic": "octopus"}

        await until_version(pages[0], 2)
        mover = stored.state["to_move"]
        await pages[mover].send(form("skip", 2, "s"))
        update = await until_version(pages[mover], 3)
        moves = re.findall(r'name="move" value="([^"]+)"', update)
        assert moves
        await pages[mover].send(form("act", 3, "m", move=html.unescape(moves[0])))
        await until_version(pages[mover], 4)
        assert (await db_match(match.pk)).version == 4
    finally:
        for page in pages:
            await page.disconnect()


async def test_it_explains_a_refused_form_in_the_notice(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    page = await open_socket(match.pk, host, html=True)
    try:
        await until_version(page, 0)
        await page.send(form("pick", 0, "a", fish="archerfish"))
        notice = await page.receive()
        assert 'id="match-notice"' in notice and "Pick exactly 4" in notice
        await page.send("{oops")
        assert "not valid JSON" in await page.receive()
        await page.send({"type": "hello", "version": None})
        assert 'data-version="0"' in await page.receive()
        assert (await db_match(match.pk)).version == 0
    finally:
        await page.disconnect()


async def test_the_history_links_follow_the_match_to_its_end(host, guest):
    """The page is not reloaded when a match goes live or ends: its links come over the socket."""
    match = await database_sync_to_async(services.create_match)(host)
    page = await open_socket(match.pk, host, html=True)
    try:
        first = await page.receive_until(lambda text: 'id="match-links"' in text)
        assert "Replay" not in first[-1].split('id="match-links"')[1].split("</p>")[0]
        await database_sync_to_async(services.join_match)(match, guest)
        live = await page.receive_until(lambda text: 'id="match-links"' in text)
        links = live[-1].split('id="match-links"')[1].split("</p>")[0]
        assert "Replay so far" in links and "Summary" not in links
        await database_sync_to_async(services.resign)(match, guest, "r")
        ended = await page.receive_until(lambda text: 'data-status="finished"' in text)
        links = ended[-1].split('id="match-links"')[1].split("</p>")[0]
        assert "Summary and HP chart" in links and f"/{match.pk}/record.json" in links
        assert "Replay so far" not in links
    finally:
        await page.disconnect()


async def test_a_page_opened_before_the_guest_joined_names_the_guest_in_its_log(host, guest):
    match = await database_sync_to_async(services.create_match)(host)
    page = await open_socket(match.pk, host, html=True)
    try:
        await until_version(page, 0)
        await database_sync_to_async(services.join_match)(await db_match(match.pk), guest)
        await until_version(page, 0)
        await database_sync_to_async(services.apply_command)(
            match.pk, guest, "g", 0, {"pick": ["sea_wolf", "manta_ray", "sea_turtle", "octopus"]}
        )
        update = await until_version(page, 1)
        assert f"{guest.username} picked a team." in update
        assert "Player 2" not in update
    finally:
        await page.disconnect()
