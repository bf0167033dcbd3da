"""Every game over the bot socket: a program creates a match of the game it names, and plays whole
matches against each built-in level (the runner moves the machine's seat through the services),
seeing nothing it may not know."""
import json
import random

import pytest
from channels.db import database_sync_to_async

from game.models import Match, MatchEvent
from tests.bots.helpers import program, take_seat

from .table import Audit

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def bot_settings(settings):
    # As in tests/bots: room for a slow machine, no background sweeps.
    settings.BOT_MOVE_SECONDS = 30
    settings.BOT_SWEEP_SECONDS = 0


def position(match_id):
    match = Match.objects.get(pk=match_id)
    rows = MatchEvent.objects.filter(match_id=match_id).order_by("version").values_list("version", "events")
    return match, [(v, e) for v, events in rows for e in events]


async def play_as_program(kit, socket, seat, match_id, rng):
    """Answer each state with a random legal command (of the position in the database) until the
    match is over; every frame searched as it comes. The final state frame, and what was searched."""
    audit = Audit()
    sent = 0
    while True:
        frame = await socket.receive_until(lambda f: f["type"] in ("state", "snapshot"))
        match, events = await database_sync_to_async(position)(match_id)
        live = frame["status"] == "live"
        if live:
            secrets = kit.adapter.Secrets([(v, e) for v, e in events if v <= frame["version"]])
            for earlier in socket.frames[audit.texts:]:
                audit.search(secrets.json_text(earlier, seat), secrets.words(seat), ("bot", earlier["type"]))
        else:
            return frame, audit
        state = kit.game.load(match.state)
        if match.version != frame["version"] or seat not in kit.game.to_move(state):
            continue  # a newer state is on its way, or it is the machine's move
        if kit.game.in_setup(state) and 1 - seat in kit.game.to_move(state):
            # Let the machine's blind choice land first: until both are in it is a secret to search
            # for (in a game with nothing else hidden, the only one).
            continue
        sent += 1
        command = kit.adapter.random_command(state, seat, rng)
        await socket.send({"type": "command", "id": f"p{sent}", "version": match.version, "command": command})
        # One command at a time: a state crossing it on the wire must not make the program move twice.
        answer = await socket.receive_until(lambda f: f["type"] in ("ack", "error") and f["id"] == f"p{sent}")
        assert answer["type"] == "ack", (answer, command)


@pytest.mark.parametrize("level", ["random", "greedy", "expert"])
async def test_a_program_plays_a_whole_match_against_a_built_in_level(kit, host, level):
    if level not in kit.game.levels:
        pytest.skip(f"{kit.game.name} has no {level} level")
    socket = await program(host)
    try:
        seated = await take_seat(socket, {"type": "play", "level": level, "game": kit.game.name})
        assert seated["type"] == "match" and seated["seat"] == 0, seated
        final, audit = await play_as_program(kit, socket, 0, seated["match"], random.Random(level))
    finally:
        await socket.disconnect()
    assert final["status"] == "finished" and final["audience"] == "all"
    match = await database_sync_to_async(Match.objects.get)(pk=seated["match"])
    assert match.game == kit.game.name and match.winner in (0, 1)
    assert audit.words > 0 and audit.texts > match.version
    errors = [f for f in socket.frames if f["type"] == "error"]
    assert not errors, errors


async def test_a_program_creates_a_match_of_the_game_it_names(kit, host, guest):
    first, second = await program(host), await program(guest)
    try:
        created = await take_seat(first, {"type": "create", "game": kit.game.name})
        match = await database_sync_to_async(Match.objects.get)(pk=created["match"])
        assert match.game == kit.game.name and match.status == "open"
        joined = await take_seat(second, {"type": "join", "match": match.pk})
        assert joined["seat"] == 1
        snapshot = await second.receive_until(lambda f: f["type"] == "snapshot")
        assert snapshot["status"] == "live" and snapshot["view"] == json.loads(json.dumps(snapshot["view"]))
    finally:
        await first.disconnect()
        await second.disconnect()
