"""Built-in bots: they see only their own projection, move once per turn, and survive a restart."""
import json
import time

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command

from game.programs import runner, seats
from game.games.aquawar import engine
from game import services
from game.programs.models import BotSeat
from game.models import Match, MatchEvent
from tests.game.helpers import open_socket
from tests.game.leaks import fielded_by, hidden_from, leaked, named_by

from .helpers import play_out, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

PICK = {"pick": ["archerfish", "pufferfish", "electric_eel", "sunfish"]}


def version_of(match_id):
    return Match.objects.get(pk=match_id).version


def truth(match_id=None, **lookup):
    match = Match.objects.get(pk=match_id) if match_id else Match.objects.get(**lookup)
    return engine.view(engine.MatchState.from_json(match.state), "all")


@pytest.mark.parametrize("level", ["random", "greedy", "expert"])
async def test_a_bot_decides_from_its_own_projection_only(host, level, monkeypatch):
    """Every input a bot gets is scanned for the person's hidden species, against the true state."""
    calls, leaks = [], []
    real_decide = runner.decide

    def spying_decide(game, level, player_view, projected_events, legal, player, seed):
        everything = truth(host=host)  # the test's only match; its id may not be known yet
        secret = hidden_from(everything, player) - fielded_by(everything, player)
        # Guesses are public, and the bot's own choice lists name every species by design.
        secret -= named_by(projected_events)
        seen = dict(player_view, available=None)
        found = leaked(json.dumps([seen, projected_events]), secret)
        calls.append((player, player_view["phase"], len(secret)))
        if found:
            leaks.append(found)
        return real_decide(game, level, player_view, projected_events, legal, player, seed)

    monkeypatch.setattr(runner, "decide", spying_decide)
    match = await database_sync_to_async(seats.start_vs_computer)(host, level)
    person = await open_socket(match.pk, host)
    try:
        final = await play_out(person, first=(await person.hello())[-1])
        assert final["status"] == "finished"
    finally:
        await person.disconnect()
    assert not leaks
    assert {player for player, _, _ in calls} == {1}
    assert {phase for _, phase, _ in calls} == {"pick", "assert", "act"}
    # The scan had something to find: hidden fish were on the board at the bot's decisions. Each
    # round starts with all four of the person's fish hidden and a match has at least two rounds,
    # so this fails only if the random teams overlap almost entirely (a species the bot fields or
    # has named is no secret); the old floor of five decisions failed on short matches.
    assert sum(1 for _, phase, secrets in calls if phase != "pick" and secrets) >= 2


@database_sync_to_async
def started_without_runner(host, monkeypatch):
    """A match against the computer where every change's wake-up is lost (a crash after commit)."""
    monkeypatch.setattr(runner, "wake", lambda match_id: None)
    match = seats.start_vs_computer(host, "greedy")
    services.apply_command(match.pk, host, "p1", 0, PICK)
    time.sleep(0.2)
    assert version_of(match.pk) == 1 and truth(match.pk)["picked"] == [True, False]
    monkeypatch.undo()
    return match


async def test_a_restart_is_made_up_by_run_bots(host, monkeypatch, settings):
    settings.BOT_TAKEOVER_SECONDS = 0
    match = await started_without_runner(host, monkeypatch)
    await database_sync_to_async(call_command)("run_bots", "--once")
    assert (await database_sync_to_async(truth)(match.pk))["picked"] == [True, True]


async def test_a_restart_is_made_up_when_a_socket_opens(host, monkeypatch):
    match = await started_without_runner(host, monkeypatch)
    person = await open_socket(match.pk, host)  # opening it wakes the match's bots
    try:
        await database_sync_to_async(wait_for)(lambda: truth(match.pk)["picked"][1])
        frames = await person.hello(1)
        assert (frames[0]["type"], frames[0]["version"]) == ("version", 2)
        assert [e["type"] for e in frames[0]["events"]] == ["pick", "round_start"]
        assert frames[0]["events"][0] == {"type": "pick", "player": 1}
    finally:
        await person.disconnect()


async def test_a_restart_with_a_program_over_time_forfeits_it_once(host, settings):
    settings.BOT_MOVE_SECONDS = 0.2
    match = await database_sync_to_async(seats.start_vs_computer)(host, "random", program=True)
    await database_sync_to_async(wait_for)(lambda: truth(match.pk)["picked"][1])
    # No socket and no timer survived the restart; the deadline is in the database.
    await database_sync_to_async(time.sleep)(0.3)
    first = await database_sync_to_async(runner.sweep)()
    again = await database_sync_to_async(runner.sweep)()
    final = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    assert (final.status, final.winner, final.end_reason) == ("finished", 1, "timeout")
    assert again == []
    count = await database_sync_to_async(MatchEvent.objects.filter(match=match, command__reason="timeout").count)()
    assert count == 1 and first in ([match.pk], [])  # the timer may have been first


@database_sync_to_async
def two_runners_at_once(host, monkeypatch):
    monkeypatch.setattr(runner, "wake", lambda match_id: None)
    match = seats.start_vs_computer(host, "random")
    monkeypatch.undo()
    loaded = Match.objects.select_related("host", "guest").get(pk=match.pk)
    state = engine.MatchState.from_json(loaded.state)
    bot_seat = BotSeat.objects.get(match=match, seat=1)
    runner.play_builtin(loaded, state, bot_seat)
    runner.play_builtin(loaded, state, bot_seat)
    return list(MatchEvent.objects.filter(match=match).values_list("seat", "client_id"))


async def test_a_bot_never_moves_twice_for_one_turn(host, monkeypatch):
    assert await two_runners_at_once(host, monkeypatch) == [(1, "bot:0")]


async def test_the_lobby_starts_a_match_against_the_computer(host, client):
    await database_sync_to_async(client.force_login)(host)
    response = await database_sync_to_async(client.post)("/match/computer", {"level": "expert"})
    match = await database_sync_to_async(Match.objects.select_related("guest").get)(host=host)
    assert response.status_code == 302 and response["Location"] == f"/match/{match.pk}/"
    assert match.status == "live" and match.guest.username == "expert-bot" and not match.guest.is_active
    await database_sync_to_async(wait_for)(lambda: truth(match.pk)["picked"][1])
    refused = await database_sync_to_async(client.post)("/match/computer", {"level": "grandmaster"})
    assert refused.status_code == 302
    assert await database_sync_to_async(Match.objects.filter(host=host).count)() == 1
