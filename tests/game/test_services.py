import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from game.games.aquawar import engine
from game import plainsql, services
from game.live import groups
from game.models import Match, MatchEvent
from game.services import ServiceError

from .helpers import GUEST_TEAMS, HOST_TEAMS, live_match

pytestmark = pytest.mark.django_db(transaction=True)


def codes(call, *args):
    with pytest.raises(ServiceError) as refused:
        call(*args)
    return refused.value.code


def test_it_creates_an_open_match_without_state(host):
    match = services.create_match(host, private=True)
    assert (match.status, match.private, match.version, match.state, match.guest) == ("open", True, 0, None, None)
    assert len(match.invite_token) >= 16


def test_it_refuses_an_anonymous_host():
    from django.contrib.auth.models import AnonymousUser

    assert codes(services.create_match, AnonymousUser()) == "login_required"


def test_it_starts_the_engine_from_the_seed_when_a_guest_joins(host, guest):
    match = live_match(host, guest)
    assert match.status == "live" and match.guest == guest
    assert match.state == engine.new_match(match.seed).to_json()
    assert (match.seat_of(host), match.seat_of(guest)) == (0, 1)


def test_it_refuses_joining_twice_or_your_own_match(host, guest, outsider):
    match = services.create_match(host)
    assert codes(services.join_match, match, host) == "own_match"
    services.join_match(match, guest)
    assert codes(services.join_match, match, outsider) == "not_open"
    assert Match.objects.get(pk=match.pk).guest == guest


def test_it_lets_only_the_host_cancel_and_only_before_both_picks(host, guest):
    match = live_match(host, guest)
    assert codes(services.cancel_match, match, guest) == "not_host"
    services.apply_command(match.pk, host, "p0", 0, HOST_TEAMS[1])
    services.cancel_match(match, host)
    assert Match.objects.get(pk=match.pk).status == "cancelled"

    second = live_match(host, guest)
    services.apply_command(second.pk, host, "p0", 0, HOST_TEAMS[1])
    services.apply_command(second.pk, guest, "p1", 0, GUEST_TEAMS[1])
    assert codes(services.cancel_match, second, host) == "already_started"
    assert Match.objects.get(pk=second.pk).status == "live"


def test_it_accepts_simultaneous_picks_made_against_the_same_version(host, guest):
    match = live_match(host, guest)
    assert services.apply_command(match.pk, host, "a", 0, HOST_TEAMS[1]) == (1, False)
    assert services.apply_command(match.pk, guest, "b", 0, GUEST_TEAMS[1]) == (2, False)
    stored = list(MatchEvent.objects.filter(match=match).values_list("version", "seat", "client_id"))
    assert stored == [(1, 0, "a"), (2, 1, "b")]


def test_it_saves_the_snapshot_so_loading_never_replays(host, guest):
    match = live_match(host, guest)
    services.apply_command(match.pk, host, "a", 0, HOST_TEAMS[1])
    services.apply_command(match.pk, guest, "b", 0, GUEST_TEAMS[1])
    state = engine.new_match(match.seed)
    state, _ = engine.apply(state, 0, HOST_TEAMS[1])
    state, _ = engine.apply(state, 1, GUEST_TEAMS[1])
    assert Match.objects.get(pk=match.pk).state == state.to_json()


def test_it_refuses_a_stale_command_and_changes_nothing(host, guest):
    match = live_match(host, guest)
    services.apply_command(match.pk, host, "a", 0, HOST_TEAMS[1])
    services.apply_command(match.pk, guest, "b", 1, GUEST_TEAMS[1])
    mover = engine.view(engine.MatchState.from_json(Match.objects.get(pk=match.pk).state), "all")["to_move"]
    user = host if mover == 0 else guest
    before = Match.objects.get(pk=match.pk)
    assert codes(services.apply_command, match.pk, user, "c", 1, {"assert": None}) == "stale_version"
    after = Match.objects.get(pk=match.pk)
    assert (after.version, after.state) == (before.version, before.state)
    assert services.apply_command(match.pk, user, "c", 2, {"assert": None}) == (3, False)


def test_it_refuses_and_rolls_back_a_command_whose_update_touches_no_row(host, guest, monkeypatch):
    """Only something bypassing the match's lock could change it between the locked read and the
    write: the event inserted is rolled back with the refusal, and nothing rings."""
    match = live_match(host, guest)
    read = plainsql.locked_match

    def bypassed(match_id):
        current = read(match_id)
        Match.objects.filter(pk=match_id).update(status=Match.Status.CANCELLED)
        return current

    monkeypatch.setattr(plainsql, "locked_match", bypassed)
    rung = []
    monkeypatch.setattr(groups, "ring_doorbell", lambda *args: rung.append(args))
    assert codes(services.apply_command, match.pk, host, "h", 0, HOST_TEAMS[1]) == "stale_version"
    after = Match.objects.get(pk=match.pk)
    assert (after.status, after.version, rung) == ("live", 0, [])
    assert not MatchEvent.objects.filter(match=match).exists()


def test_it_applies_a_repeated_client_id_once(host, guest):
    match = live_match(host, guest)
    assert services.apply_command(match.pk, host, "same", 0, HOST_TEAMS[1]) == (1, False)
    assert services.apply_command(match.pk, host, "same", 0, HOST_TEAMS[1]) == (1, True)
    assert MatchEvent.objects.filter(match=match).count() == 1


def test_it_acknowledges_a_repeated_client_id_once_the_match_has_moved_on_or_ended(host, guest):
    match = live_match(host, guest)
    assert services.apply_command(match.pk, host, "pick", 0, HOST_TEAMS[1]) == (1, False)
    assert services.apply_command(match.pk, guest, "other", 0, GUEST_TEAMS[1]) == (2, False)
    assert services.apply_command(match.pk, host, "pick", 0, HOST_TEAMS[1]) == (1, True)
    assert services.resign(match, guest, "r") == (3, False)
    assert services.apply_command(match.pk, host, "pick", 0, HOST_TEAMS[1]) == (1, True)
    assert codes(services.apply_command, match.pk, host, "new", 3, HOST_TEAMS[1]) == "match_over"
    assert MatchEvent.objects.filter(match=match).count() == 3


def test_it_turns_an_engine_refusal_into_a_service_error(host, guest):
    match = live_match(host, guest)
    assert codes(services.apply_command, match.pk, host, "x", 0, {"pick": ["archerfish"]}) == "wrong_pick_count"
    assert codes(services.apply_command, match.pk, host, "y", 0, ["not", "a", "dict"]) == "bad_command"
    assert Match.objects.get(pk=match.pk).version == 0


def test_it_refuses_anyone_but_the_players(host, guest, outsider):
    match = live_match(host, guest)
    assert codes(services.apply_command, match.pk, outsider, "x", 0, HOST_TEAMS[1]) == "not_a_player"
    assert codes(services.resign, match, outsider) == "not_a_player"


def test_it_finishes_the_match_on_resignation_and_then_refuses_commands(host, guest):
    match = live_match(host, guest)
    assert services.resign(match, guest, "r") == (1, False)
    match.refresh_from_db()
    assert (match.status, match.winner, match.end_reason) == ("finished", 0, "resign")
    assert match.finished is not None
    assert codes(services.apply_command, match.pk, host, "x", 1, HOST_TEAMS[1]) == "match_over"
    assert services.resign(match, guest, "r") == (1, True)


def test_it_refuses_commands_for_a_match_that_has_not_started(host):
    match = services.create_match(host)
    assert codes(services.apply_command, match.pk, host, "x", 0, HOST_TEAMS[1]) == "not_live"
    assert codes(services.apply_command, 999999, host, "x", 0, HOST_TEAMS[1]) == "no_match"


def test_it_rings_the_doorbell_only_after_commit(host, guest, monkeypatch):
    rung = []
    monkeypatch.setattr(groups, "ring_doorbell", lambda match_id, version, ring=None: rung.append((match_id, version)))
    match = live_match(host, guest)
    rung.clear()
    services.apply_command(match.pk, host, "a", 0, HOST_TEAMS[1])
    assert rung == [(match.pk, 1)]
    with pytest.raises(ServiceError):
        services.apply_command(match.pk, host, "b", 1, {"pick": []})
    assert rung == [(match.pk, 1)]


def race(*calls):
    """Run the calls at the same moment from separate threads (each with its own connection)."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait()
        try:
            return call()
        except ServiceError as refused:
            return refused.code
        finally:
            connection.close()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def started_match(host, guest):
    match = live_match(host, guest)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    services.apply_command(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    match.refresh_from_db()
    return match, (host, guest)[match.state["to_move"]]


def test_it_applies_one_of_two_commands_racing_from_two_threads(host, guest):
    match, mover = started_match(host, guest)
    results = race(
        lambda: services.apply_command(match.pk, mover, "one", 2, {"assert": None}),
        lambda: services.apply_command(match.pk, mover, "two", 2, {"assert": None}),
    )
    assert sorted(results, key=str) == [(3, False), "stale_version"]
    assert list(MatchEvent.objects.filter(match=match).values_list("version", flat=True)) == [1, 2, 3]


def test_it_applies_one_of_two_copies_of_a_command_racing_from_two_threads(host, guest):
    match, mover = started_match(host, guest)
    results = race(*[lambda: services.apply_command(match.pk, mover, "same", 2, {"assert": None})] * 2)
    assert sorted(results) == [(3, False), (3, True)]
    assert Match.objects.get(pk=match.pk).version == 3
