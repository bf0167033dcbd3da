"""The 三国 service: recruiting, seats, game data, commands, versions and idempotence — every
change an event, a refusal changes nothing."""
import json

import pytest

from game.errors import ServiceError
from sanguo import data, services
from sanguo.models import Event, Game, Seat

from .helpers import DURATIONS, clock, people, started_game  # noqa: F401

pytestmark = pytest.mark.django_db


def snapshot(row):
    row.refresh_from_db()
    return (row.version, row.status, json.dumps(row.state, sort_keys=True), row.deadline,
            list(Event.objects.filter(game=row).values_list("version", flat=True)),
            sorted(Seat.objects.filter(game=row).values_list("user_id", "seat")))


def test_a_game_is_created_recruiting_with_its_phase_lengths_as_its_first_event(clock):
    gm, = people(1, "gm")
    row = services.create_game(gm, mode="nine", durations={"night_action": 3600})
    assert row.status == Game.Status.RECRUITING and row.seat_count == 9
    assert row.state["data"]["durations"]["night_action"] == 3600
    first = Event.objects.get(game=row)
    assert first.version == 1 and first.actor == "gm" and "setup" in first.command


@pytest.mark.parametrize("kwargs, code", [
    ({"mode": "chess"}, "bad_mode"),
    ({"mode": "standard", "characters": 30}, "bad_size"),
    ({"mode": "crowd", "characters": 31}, "bad_size"),
    ({"mode": "standard", "durations": {"night_action": 5}}, "bad_durations"),
    ({"mode": "standard", "durations": {"lunch": 600}}, "bad_durations"),
    ({"mode": "standard", "durations": {"day_vote": "600"}}, "bad_durations"),
])
def test_a_bad_game_is_refused_and_nothing_is_made(clock, kwargs, code):
    gm, = people(1, "gm")
    with pytest.raises(ServiceError) as refused:
        services.create_game(gm, **kwargs)
    assert refused.value.code == code
    assert not Game.objects.exists()


def test_sign_ups_fill_the_seats_and_no_more(clock):
    gm, = people(1, "gm")
    row = services.create_game(gm, mode="standard")
    first, second, third, fourth = people(4)
    for person in (first, second, third):
        services.sign_up(row.pk, person)
    for person, code in ((fourth, "full"), (first, "signed_up"), (gm, "own_game")):
        with pytest.raises(ServiceError) as refused:
            services.sign_up(row.pk, person)
        assert refused.value.code == code
    services.leave(row.pk, third)
    services.sign_up(row.pk, fourth)
    assert Seat.objects.filter(game=row).count() == 3


def test_an_invite_only_game_takes_sign_ups_with_its_token_only(clock):
    gm, = people(1, "gm")
    row = services.create_game(gm, mode="standard", private=True)
    person, = people(1)
    with pytest.raises(ServiceError) as refused:
        services.sign_up(row.pk, person, "wrong")
    assert refused.value.code == "invite_only"
    services.sign_up(row.pk, person, row.invite_token)


def test_the_gm_assigns_and_randomises_seats_and_the_start_draws_the_rest(clock):
    gm, = people(1, "gm")
    row = services.create_game(gm, mode="solo")
    players = people(4)
    for person in players:
        services.sign_up(row.pk, person)
    services.assign_seat(row.pk, gm, players[0].pk, 3)
    with pytest.raises(ServiceError) as refused:
        services.assign_seat(row.pk, gm, players[1].pk, 3)
    assert refused.value.code == "seat_taken"
    with pytest.raises(ServiceError) as refused:
        services.assign_seat(row.pk, players[1], players[1].pk, 0)
    assert refused.value.code == "not_gm"
    with pytest.raises(ServiceError) as refused:
        services.assign_seat(row.pk, gm, players[1].pk, 4)
    assert refused.value.code == "bad_seat"
    services.randomise_seats(row.pk, gm)
    assert sorted(Seat.objects.filter(game=row).values_list("seat", flat=True)) == [0, 1, 2, 3]
    services.assign_seat(row.pk, gm, players[2].pk, None)
    services.start(row.pk, gm)
    assert sorted(Seat.objects.filter(game=row).values_list("seat", flat=True)) == [0, 1, 2, 3]
    row.refresh_from_db()
    assert row.status == Game.Status.LIVE and row.state["phase"] == "night_action"


def test_the_game_starts_only_full_and_only_by_its_gm(clock):
    gm, = people(1, "gm")
    row = services.create_game(gm, mode="standard")
    first, second = people(2)
    services.sign_up(row.pk, first)
    services.sign_up(row.pk, second)
    before = snapshot(row)
    for who, code in ((gm, "not_full"), (first, "not_gm")):
        with pytest.raises(ServiceError) as refused:
            services.start(row.pk, who)
        assert refused.value.code == code
    assert snapshot(row) == before


def test_the_start_opens_night_one_with_its_deadline_from_the_servers_clock(clock):
    row, gm, players = started_game()
    assert row.state["phase"] == "night_action" and row.state["night"] == 1
    assert row.deadline == clock.now + __import__("datetime").timedelta(seconds=DURATIONS["night_action"])
    assert row.phase_opened == row.version


def test_the_starter_file_imports_as_it_is_and_says_what_the_text_says(clock):
    gm, = people(1, "gm")
    row = services.create_game(gm, mode="standard")
    start = data.starter(row.state)
    assert start["notes"]["曹操"] and set(start) == set(data.PARTS) | {"notes"}
    services.import_game_data(row.pk, gm, json.dumps(start, ensure_ascii=False))
    row.refresh_from_db()
    assert row.state["data"]["skills"] == start["skills"]


@pytest.mark.parametrize("text, code", [
    ("{not json", "bad_json"),
    ("[1, 2]", "bad_json"),
    ('{"rules": {}}', "bad_setup"),
    ('{"characters": {"无名氏": {"country": "魏"}}}', "bad_setup"),
    ('{"skills": [{"name": "x", "owner": "曹操", "timing": "someday"}]}', "bad_setup"),
    ('{"durations": {"night_action": 1}}', "bad_durations"),
])
def test_bad_game_data_is_refused_with_its_reason_and_changes_nothing(clock, text, code):
    gm, = people(1, "gm")
    row = services.create_game(gm, mode="standard")
    before = snapshot(row)
    with pytest.raises(ServiceError) as refused:
        services.import_game_data(row.pk, gm, text)
    assert refused.value.code == code and refused.value.message
    assert snapshot(row) == before


def test_only_the_gm_imports_data_and_not_after_the_start(clock):
    row, gm, players = started_game()
    with pytest.raises(ServiceError) as refused:
        services.import_game_data(row.pk, players[0], "{}")
    assert refused.value.code == "locked" or refused.value.code == "bad_command"
    with pytest.raises(ServiceError) as refused:
        services.import_game_data(row.pk, gm, '{"successors": {}}')
    assert refused.value.code == "locked"


def a_submission(row, seat):
    from game.games.three_kingdoms import engine
    # Not a 自杀 (立刻: it takes the character out at once) nor a withdrawal.
    return next(c for c in engine.legal_commands(row.state, seat) if set(c) & {"assassinate", "identify"})


def test_a_submission_is_an_event_its_repeat_is_acknowledged_and_it_is_editable(clock):
    row, gm, players = started_game()
    command = a_submission(row, 0)
    first = services.command(row.pk, players[0], "c1", command)
    again = services.command(row.pk, players[0], "c1", command)
    assert again == (first.version, True)
    row.refresh_from_db()
    assert Event.objects.filter(game=row, actor="0").count() == 1
    (kind, body), = command.items()
    actor = body.get("actor") or body.get("voter")
    services.command(row.pk, players[0], "c2", {"cancel": {"actor": actor, "what": kind}})
    row.refresh_from_db()
    assert row.version == first.version + 1


def test_a_refused_command_changes_nothing(clock):
    row, gm, players = started_game()
    before = snapshot(row)
    outsider, = people(1, "x")
    for user, body, code in (
        (players[0], {"vote": {"voter": "曹操", "target": 1}}, None),
        (players[0], {"lock": {}}, "use_start"),
        (players[0], {"setup": {}}, "bad_command"),
        (players[0], "nonsense", "bad_command"),
        (players[0], {"close": {}, "at": 10 ** 12}, "bad_command"),
        (outsider, {"peace": {}}, "not_a_player"),
    ):
        with pytest.raises(ServiceError) as refused:
            services.command(row.pk, user, "", body)
        assert code is None or refused.value.code == code
    assert snapshot(row) == before


def test_the_gm_cannot_lock_the_data_but_by_starting_the_game(clock):
    gm, = people(1, "gm")
    row = services.create_game(gm, mode="standard")
    before = snapshot(row)
    with pytest.raises(ServiceError) as refused:
        services.command(row.pk, gm, "", {"lock": {}})
    assert refused.value.code == "use_start"
    assert snapshot(row) == before


def test_players_cannot_act_before_the_start(clock):
    gm, = people(1, "gm")
    row = services.create_game(gm, mode="standard")
    person, = people(1)
    services.sign_up(row.pk, person)
    services.assign_seat(row.pk, gm, person.pk, 0)
    with pytest.raises(ServiceError) as refused:
        services.command(row.pk, person, "", {"peace": {}})
    assert refused.value.code == "not_started"


def test_every_stored_event_replays_to_the_stored_state(clock):
    from game.games.three_kingdoms import engine
    row, gm, players = started_game()
    services.command(row.pk, players[1], "", a_submission(row, 1))
    row.refresh_from_db()
    state = engine.new_match(row.seed, row.mode, row.characters)
    for event in Event.objects.filter(game=row).order_by("version"):
        actor = event.actor if event.actor in ("gm", "server") else int(event.actor)
        state, events = engine.apply(state, actor, event.command)
        assert events == event.events
    assert state == row.state
