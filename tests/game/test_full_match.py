"""Two players play a whole match over websockets while others watch; nothing hidden gets out."""
import json
import random
import uuid

import pytest
from channels.db import database_sync_to_async

from game.models import Match, MatchEvent

from .helpers import TEAMS, db_match, live_match, open_socket
from .leaks import fielded_by, hidden_from, leaked, named_by, own_available, scan_json, strip_html, view_all

pytestmark = pytest.mark.django_db(transaction=True)


def choose(frame, rng):
    """A legal command for the player whose state frame this is, or None when it is not their move."""
    seen = frame["view"]
    if seen["phase"] == "pick":
        return TEAMS[frame["seat"]][seen["round"]] if frame["pick"] else None
    if not frame["legal"]:
        return None
    if seen["phase"] == "assert":
        guesses = [c for c in frame["legal"] if c["assert"] is not None]
        return rng.choice(guesses) if guesses and rng.random() < 0.25 else {"assert": None}
    return rng.choice(frame["legal"])


async def caught_up(socket, version):
    if socket.html:
        return await socket.receive_until(lambda text: f'data-version="{version}"' in text)
    frames = await socket.receive_until(lambda f: f["type"] == "state" and f["version"] == version)
    return [json.dumps(f) for f in frames]


@database_sync_to_async
def step_truth(match_id, version):
    match = Match.objects.get(pk=match_id)
    events = MatchEvent.objects.get(match_id=match_id, version=version).events
    return match, view_all(match), events


async def test_it_plays_a_whole_match_and_never_shows_a_hidden_fish(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    players = [await open_socket(match.pk, host), await open_socket(match.pk, guest)]
    watcher = await open_socket(match.pk)
    html_host = await open_socket(match.pk, host, html=True)
    html_watcher = await open_socket(match.pk, html=True)
    json_sockets = [(players[0], 0), (players[1], 1), (watcher, None)]
    html_sockets = [(html_host, 0), (html_watcher, None)]
    try:
        latest = [None, None]
        for seat, socket in enumerate(players):
            latest[seat] = (await socket.hello())[-1]
        await watcher.hello()
        for socket, _seat in html_sockets:
            await socket.receive_until(lambda text: 'data-version="0"' in text)

        rng = random.Random(20261122)
        before = view_all(await db_match(match.pk))
        received_versions = {seat: [] for _socket, seat in json_sockets}
        status = "live"
        scanned_secrets = 0
        while status == "live":
            seat = next(s for s in (0, 1) if choose(latest[s], rng) is not None)
            command = choose(latest[seat], rng)
            client_id = uuid.uuid4().hex
            await players[seat].send(
                {"type": "command", "id": client_id, "version": latest[seat]["version"], "command": command}
            )
            ack = await players[seat].receive_type("ack")
            assert ack["id"] == client_id and ack["duplicate"] is False
            version = ack["version"]

            stored, after, events = await step_truth(match.pk, version)
            status = stored.status
            texts = {}
            for socket, _viewer in json_sockets + html_sockets:
                texts[socket] = await caught_up(socket, version)
            for socket, viewer in json_sockets:
                frames = [json.loads(t) for t in texts[socket]]
                received_versions[viewer] += [f["version"] for f in frames if f["type"] == "version"]
                if viewer is not None:
                    latest[viewer] = frames[-1]
            if status != "live":
                break  # The last version is shown to everyone in full, as the match is over.
            for socket, viewer in json_sockets + html_sockets:
                secret = (hidden_from(before, viewer) | hidden_from(after, viewer)) - named_by(events)
                secret -= fielded_by(after, viewer)
                scanned_secrets += len(secret)
                if socket.html:
                    for text in texts[socket]:
                        found = leaked(strip_html(text, own_available(after, viewer)), secret)
                        assert not found, (found, text)
                else:
                    scan_json(texts[socket], viewer, secret)
            before = after

        final = await db_match(match.pk)
        assert final.status == "finished" and final.winner in (0, 1) and final.end_reason == "rounds"
        for _socket, viewer in json_sockets:
            assert received_versions[viewer] == list(range(1, final.version + 1))
        assert len(final.state["rounds"]) >= 2 and scanned_secrets >= 100
        last = latest[0]
        assert last["audience"] == "all" and last["status"] == "finished"
        assert all(pick is not None for pair in last["view"]["past_picks"] for pick in pair)
        # Once it is over the watcher's log is redrawn in full: now it names the guest's first team.
        final_html = html_watcher.frames[-1]
        assert all(name in final_html for name in ("Sea Wolf", "Manta Ray", "Sea Turtle", "Mimic Fish"))
    finally:
        for socket, _viewer in json_sockets + html_sockets:
            await socket.disconnect()
