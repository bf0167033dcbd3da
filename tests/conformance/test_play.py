"""Random legal matches of every game, end to end through the services and the match sockets: every
frame, fragment and page each audience gets is searched for what it may not know, and the stored
events, replayed, give back exactly the views that were sent live."""
import json

import pytest
from channels.db import database_sync_to_async

from game.history import replays
from game.models import Match

from .table import AUDIENCES, Table, new_match

pytestmark = pytest.mark.django_db(transaction=True)


async def played(kit, host, guest, seed, **options):
    match = await database_sync_to_async(new_match)(kit, host, guest)
    table = await Table(kit, match, (host, guest)).open(html=options.pop("html", True))
    try:
        final = await table.play_out(seed, **options)
    finally:
        await table.close()
    return table, final


async def test_a_random_match_shows_no_audience_what_it_may_not_know(kit, host, guest):
    table, final = await played(kit, host, guest, seed=5)
    assert final.status == Match.Status.FINISHED and final.winner in (0, 1)
    # Not vacuous: there were secrets to search for, in every kind of frame and page (how many
    # depends on how long the game keeps them: the adapter says).
    assert table.audit.words > kit.adapter.MIN_SECRET_WORDS, table.audit.words
    assert table.audit.texts > 6 * final.version, (table.audit.texts, final.version)


def audience(seat):
    return "spectator" if seat is None else seat


async def test_the_stored_events_replay_to_the_views_sent_live(kit, host, guest):
    table, final = await played(kit, host, guest, seed=8, pages=False, html=False)
    assert final.status == Match.Status.FINISHED
    for seat in AUDIENCES:
        replay = await database_sync_to_async(replays.replay_frames)(final, audience(seat))
        assert [step["version"] for step in replay] == list(range(final.version + 1))
        received = [json.loads(text) for text in table.json[seat].frames]
        states = [f for f in received if f["type"] in ("state", "snapshot") and f["audience"] == audience(seat)]
        versions = [f for f in received if f["type"] == "version"]
        # Every version once, in order; each live view and each version's events as replayed.
        assert [f["version"] for f in versions] == list(range(1, final.version + 1))
        assert [f["version"] for f in states] == list(range(final.version))
        for frame in states:
            assert frame["view"] == replay[frame["version"]]["view"], (seat, frame["version"])
        for frame in versions[:-1]:  # the last was read once the match was over: for "all"
            assert frame["events"] == replay[frame["version"]]["events"], (seat, frame["version"])
    everything = await database_sync_to_async(replays.replay_frames)(final, "all")
    assert versions[-1]["events"] == everything[-1]["events"]
    last = json.loads(table.json[0].frames[-1])
    assert last["view"] == everything[-1]["view"]
