"""A contest program plays whole matches through the bridge, and loses the way the rules say."""
import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from game.models import Match, MatchEvent

from .harness import check_finishes, check_sent, history, run_bridge, scan_received

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("level", ["random", "greedy"])
async def test_it_plays_a_whole_match_against_a_built_in_level(host, level):
    outcome, bridge, sockets = await run_bridge(host, {"type": "play", "level": level}, "--seed", "4")
    assert outcome.status == "finished" and outcome.end_reason == "rounds" and outcome.forfeit is None
    match, steps = await history(outcome.match)
    assert match.winner == outcome.winner
    sent = bridge.program.sent
    kinds = [message["Action"] for _, message in sent]
    rounds = len(match.state["rounds"])
    assert kinds.count("Pick") == kinds.count("Finish") == rounds
    assert scan_received(sockets[0].frames, 0, steps, match.version) > 0
    check_sent(sent, 0, steps)
    check_finishes(sent, 0, steps)


@pytest.mark.parametrize(
    "failure, reason, why",
    [
        ("crash:Action", "illegal", "it crashed (exit status 3) before answering Action"),
        ("crash:Pick", "illegal", "it crashed (exit status 3) before answering Pick"),
        ("silent:Assert", "timeout", "it did not answer Assert within 3 s"),
        ("garbage:Pick", "illegal", "its answer announced 1226863720 bytes (prefix b'I th')"),
        ("illegal:Pick", "illegal", "illegal move: Pick exactly 4 species (got 3)."),
        ("illegal:Action", "illegal", "illegal move: enemy must be a position from 0 to 3."),
    ],
)
async def test_a_program_that_breaks_the_rules_loses_the_match_saying_why(host, failure, reason, why):
    # The contest's own 3 s: the site's clock here is 30 s, so a timeout can only be the bridge's.
    outcome, bridge, _ = await run_bridge(host, {"type": "play", "level": "random"}, "--fail", failure, move_seconds=3.0)
    assert (outcome.status, outcome.winner, outcome.end_reason) == ("finished", 1, reason)
    assert why in outcome.forfeit
    match, steps = await history(outcome.match)
    assert (match.winner, match.end_reason) == (1, reason)
    # Lost once, by the program's seat; then the program was stopped (it would never stop itself).
    forfeits = [events for _, _, events in steps if any(e["type"] == "match_end" for e in events)]
    assert len(forfeits) == 1 and bridge.program.process.returncode is not None
    check_sent(bridge.program.sent, 0, steps)


async def test_two_contest_programs_play_each_other(host, guest):
    first = asyncio.create_task(run_bridge(host, {"type": "create", "private": False}, "--seed", "1"))
    match_id = None
    while match_id is None:
        await asyncio.sleep(0.05)
        match_id = await database_sync_to_async(Match.objects.values_list("pk", flat=True).first)()
    second = await run_bridge(guest, {"type": "join", "match": match_id}, "--seed", "2")
    results = [await first, second]
    match, steps = await history(match_id)
    assert match.end_reason == "rounds"
    for seat, (outcome, bridge, sockets) in enumerate(results):
        assert (outcome.match, outcome.seat, outcome.winner) == (match_id, seat, match.winner)
        scan_received(sockets[0].frames, seat, steps, match.version)
        check_sent(bridge.program.sent, seat, steps)
        check_finishes(bridge.program.sent, seat, steps)


async def test_it_resumes_where_it_was_when_the_connection_drops(host):
    outcome, bridge, sockets = await run_bridge(host, {"type": "play", "level": "random"}, drop_after=25)
    assert len(sockets) == 2 and outcome.status == "finished" and outcome.end_reason == "rounds"
    match, _ = await history(outcome.match)
    frames = [json.loads(text) for socket in sockets for text in socket.frames]
    # The second socket joined with the last version it had: every version after the first
    # snapshot arrived, none twice over the same socket.
    start = next(f["version"] for f in frames if f["type"] == "snapshot")
    again = [f["version"] for f in (json.loads(t) for t in sockets[1].frames) if f["type"] == "version"]
    received = [f["version"] for f in frames if f["type"] == "version"]
    assert sorted(set(received)) == list(range(start + 1, match.version + 1)) and len(again) == len(set(again))
    assert not any(f["type"] == "snapshot" for f in (json.loads(t) for t in sockets[1].frames))
    # One question per decision of the seat, each answered with one command.
    decisions = await database_sync_to_async(MatchEvent.objects.filter(match=match, seat=0).count)()
    asked = [message["Action"] for _, message in bridge.program.sent if message["Action"] != "Finish"]
    assert len(asked) == decisions
