"""A command costs the same early and late in a round: loading a match reads its snapshot, never
its history, so the work per command does not grow with the number of versions."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game import services
from game.models import Match

from .helpers import live_match

pytestmark = pytest.mark.django_db

# Manta Ray and Octopus buffs deal no damage, so a round of nothing else runs to its 64-turn limit.
QUIET_TEAM = {"pick": ["manta_ray", "octopus", "archerfish", "sunfish"]}
BUFF = {"act": {"actor": 0, "kind": "skill", "ally": 1}}
SKIP = {"assert": None}


def play_quiet_turn(match_id, users):
    match = Match.objects.get(pk=match_id)
    seat = match.state["to_move"]
    user = users[seat]
    services.apply_command(match_id, user, f"a{match.version}", match.version, SKIP)
    services.apply_command(match_id, user, f"b{match.version + 1}", match.version + 1, BUFF)


def queries_for_one_command(match_id, users):
    match = Match.objects.get(pk=match_id)
    user = users[match.state["to_move"]]
    with CaptureQueriesContext(connection) as captured:
        services.apply_command(match_id, user, f"measured{match.version}", match.version, SKIP)
    # Put the turn back on its feet so play can go on.
    services.apply_command(match_id, user, f"b{match.version + 1}", match.version + 1, BUFF)
    return [q["sql"] for q in captured.captured_queries]


def test_it_uses_as_many_queries_at_turn_60_as_at_turn_2(host, guest):
    match = live_match(host, guest)
    users = (host, guest)
    for seat, user in enumerate(users):
        services.apply_command(match.pk, user, f"pick{seat}", 0, QUIET_TEAM)

    play_quiet_turn(match.pk, users)
    play_quiet_turn(match.pk, users)
    early = queries_for_one_command(match.pk, users)
    while Match.objects.get(pk=match.pk).state["turn"] < 60:
        play_quiet_turn(match.pk, users)
    late = queries_for_one_command(match.pk, users)

    state = Match.objects.get(pk=match.pk).state
    assert (state["round"], state["turn"]) == (1, 61)
    assert len(early) == len(late)
    # No read of the event log at all: a repeated client id is answered by the insert's unique
    # constraint (game/plainsql.py, ``insert_event``).
    history_reads = [
        sql for sql in early + late if sql.lstrip().upper().startswith("SELECT") and "matchevent" in sql.lower()
    ]
    assert history_reads == []


def test_it_makes_two_statements_per_command_on_postgresql_and_four_on_sqlite(host, guest):
    """The locked read, then the event's insert, the match's update and the bot seats' read: one
    statement on PostgreSQL (``plainsql.write_command``), three on SQLite (no INSERT or UPDATE in
    WITH). Counted without the savepoint the test's own transaction turns the command's into."""
    match = live_match(host, guest)
    users = (host, guest)
    for seat, user in enumerate(users):
        services.apply_command(match.pk, user, f"pick{seat}", 0, QUIET_TEAM)
    play_quiet_turn(match.pk, users)
    statements = [
        sql for sql in queries_for_one_command(match.pk, users)
        if not sql.lstrip().upper().startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]
    assert len(statements) == (2 if connection.vendor == "postgresql" else 4), statements
