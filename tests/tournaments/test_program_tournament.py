"""Whole program tournaments, unattended: the server starts every round, sample programs on the
real bot socket are told of their matches and play them; a program that never shows loses each of
its matches by forfeit and the rounds go on. The sample programs: examples/random_bot.py --wait,
and the random player of tests/bots."""
import argparse
import asyncio
import random

import pytest
from channels.db import database_sync_to_async

from tests.bots.helpers import load_example, play_out, program, take_seat, token_for
from ratings.models import RatingChange
from tournaments import runner
from tournaments.models import Entry, Pairing, Tournament
from tournaments import services

from .conftest import new_tournament, start_now

pytestmark = pytest.mark.django_db(transaction=True)


async def play_assigned(socket, rng, matches):
    """What examples/random_bot.py --wait does, on one socket: take each assigned match, play it out."""
    pending = list(socket.frames[0]["assigned"])
    played = 0
    while played < matches:
        if not pending:
            frame = await socket.receive_until(lambda f: f["type"] == "assigned")
            pending.append(frame["match"])
        match_id = pending.pop(0)
        seated = await take_seat(socket, {"type": "join", "match": match_id})
        assert seated["type"] == "match", seated
        final = await play_out(socket, rng)
        assert final["status"] == "finished"
        played += 1
        # Assignments that came while this match was played.
        pending += [f["match"] for f in socket.frames if f["type"] == "assigned" and f["match"] not in pending]
        pending = [m for m in dict.fromkeys(pending) if m != match_id and m not in socket.done]
        socket.done.add(match_id)


def setup_tournament(organizer, players, **fields):
    cup = new_tournament(organizer, for_programs=True, **fields)
    for player in players:
        services.register(cup.pk, player)
    start_now(cup)
    return cup


async def test_a_round_robin_of_four_example_programs_runs_to_its_end_over_the_bot_socket(host, programs):
    cup = await database_sync_to_async(setup_tournament)(host, programs, kind="round_robin", rounds=None, rated=True)
    example = load_example()
    runs = []
    for seed, player in enumerate(programs):
        args = argparse.Namespace(server="http://testserver", token=await token_for(player), matches=3, seed=seed)
        runs.append(asyncio.create_task(example.botclient.wait(args, example.play_on)))
    await asyncio.sleep(0.5)  # connected and waiting; a late one finds its match in its welcome
    # The sweep's work, once: the start. Every later round is set off by the end of the last match.
    await database_sync_to_async(runner.run_due)()
    assert await asyncio.wait_for(asyncio.gather(*runs), 180) == [0, 0, 0, 0]
    cup = await wait_for_status(cup.pk, "finished")
    pairings = await database_sync_to_async(list)(Pairing.objects.filter(tournament=cup).select_related("match"))
    assert len(pairings) == 6 and {p.round for p in pairings} == {1, 2, 3}
    assert all(p.match.rated and p.match.end_reason == "rounds" for p in pairings)
    assert len({frozenset((p.first_id, p.second_id)) for p in pairings}) == 6
    entries = await database_sync_to_async(list)(Entry.objects.filter(tournament=cup).order_by("final_rank"))
    assert sum(e.final_score for e in entries) == 6
    changed = await database_sync_to_async(RatingChange.objects.filter(match__tournament_pairing__tournament=cup).count)()
    assert changed == 12  # rated: both players of each of the six matches


async def test_a_program_that_never_shows_loses_by_forfeit_and_the_rounds_go_on(host, programs, settings):
    settings.BOT_MOVE_SECONDS = 1
    settings.SHOW_UP_SECONDS = 2
    cup = await database_sync_to_async(setup_tournament)(host, programs[:3], rounds=2)
    present = [await program(p) for p in programs[:2]]
    for socket in present:
        socket.done = set()
    try:
        await database_sync_to_async(runner.run_due)()
        # Three programs, two rounds: each plays once or twice (one bye); whoever is due plays.
        tasks = [asyncio.create_task(play_assigned(s, random.Random(i), 2)) for i, s in enumerate(present)]
        cup = await wait_for_status(cup.pk, "finished", timeout=90)
        for task in tasks:
            task.cancel()
    finally:
        for socket in present:
            await socket.disconnect()
    absent = programs[2].pk
    pairings = await database_sync_to_async(list)(Pairing.objects.filter(tournament=cup).select_related("match"))
    absent_matches = [p for p in pairings if absent in (p.first_id, p.second_id) and p.match]
    assert absent_matches
    for p in absent_matches:
        assert p.match.end_reason == "timeout"
        assert (p.first_points if p.first_id == absent else p.second_points) == 0
    assert {p.round for p in pairings} == {1, 2}


async def wait_for_status(tournament_id, status, timeout=60):
    for _ in range(int(timeout * 10)):
        cup = await database_sync_to_async(Tournament.objects.get)(pk=tournament_id)
        if cup.status == status:
            return cup
        await asyncio.sleep(0.1)
    raise AssertionError(f"tournament {tournament_id} is {cup.status} (round {cup.round}), not {status}")
