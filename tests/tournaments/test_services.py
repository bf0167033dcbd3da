"""Creating tournaments, registering and withdrawing: bad input refused with nothing changed, the
limits, and who may register whom."""
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from game.services import ServiceError
from tournaments import services
from tournaments.models import Entry, LadderEntry, Tournament

from .conftest import new_tournament, start_now

pytestmark = pytest.mark.django_db


def refused(code, call, *args, **kwargs):
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    return caught.value


@pytest.mark.parametrize(
    "overrides, code",
    [
        ({"name": ""}, "bad_name"),
        ({"name": "   "}, "bad_name"),
        ({"name": "x" * 81}, "bad_name"),
        ({"game": "chess"}, "bad_game"),
        ({"kind": "knockout"}, "bad_kind"),
        ({"starts": None}, "bad_start"),
        ({"starts": timezone.now() - timedelta(minutes=1)}, "bad_start"),
        ({"starts": timezone.now() + timedelta(days=31)}, "bad_start"),
        ({"rounds": 0}, "bad_rounds"),
        ({"rounds": 21}, "bad_rounds"),
        ({"rounds": None}, "bad_rounds"),
        ({"rounds": True}, "bad_rounds"),
        ({"move_seconds": 0}, "bad_time_control"),
        ({"move_seconds": 45}, "bad_time_control"),
    ],
)
def test_bad_tournaments_are_refused_and_nothing_is_made(host, overrides, code):
    refused(code, new_tournament, host, **overrides)
    assert not Tournament.objects.exists()


def test_a_round_robin_needs_no_rounds_and_programs_keep_the_contest_clock(host):
    robin = new_tournament(host, kind="round_robin", rounds=None)
    assert robin.rounds == 0  # set at the start, from the number of players
    programs = new_tournament(host, for_programs=True, move_seconds=45)
    assert programs.move_seconds == 0


def test_an_organizer_has_at_most_three_tournaments_that_have_not_ended(host):
    made = [new_tournament(host) for _ in range(services.MAX_OPEN_TOURNAMENTS)]
    refused("too_many_tournaments", new_tournament, host)
    Tournament.objects.filter(pk=made[0].pk).update(status=Tournament.Status.FINISHED)
    new_tournament(host)


def test_nobody_registers_twice_or_registers_someone_else(host, guest):
    cup = new_tournament(host)
    services.register(cup.pk, guest)
    refused("already_registered", services.register, cup.pk, guest)
    refused("not_yours", services.register, cup.pk, host, guest)
    refused("not_yours", services.withdraw, cup.pk, host, guest)
    assert list(Entry.objects.values_list("player__username", flat=True)) == ["guest"]


def test_people_and_programs_each_enter_their_own_tournaments(host, programs):
    people_cup = new_tournament(host)
    program_cup = new_tournament(host, for_programs=True)
    refused("not_a_program", services.register, program_cup.pk, host)
    refused("not_a_person", services.register, people_cup.pk, programs[0])
    services.register(program_cup.pk, programs[0])
    assert Entry.objects.get().player == programs[0]


def test_registration_and_withdrawal_close_at_the_start(host, guest):
    cup = new_tournament(host)
    services.register(cup.pk, host)
    start_now(cup)
    refused("registration_closed", services.register, cup.pk, guest)
    refused("registration_closed", services.withdraw, cup.pk, host)
    refused("registration_closed", services.cancel, cup.pk, host)
    assert Entry.objects.count() == 1


def test_withdrawing_and_cancelling(host, guest):
    cup = new_tournament(host)
    services.register(cup.pk, guest)
    refused("not_registered", services.withdraw, cup.pk, host)
    services.withdraw(cup.pk, guest)
    assert not Entry.objects.exists()
    refused("not_organizer", services.cancel, cup.pk, guest)
    services.cancel(cup.pk, host)
    cup.refresh_from_db()
    assert (cup.status, cup.end_reason) == ("cancelled", "organizer")
    refused("registration_closed", services.register, cup.pk, guest)
    refused("no_tournament", services.register, cup.pk + 1000, guest)


def test_a_tournament_is_full_at_64_and_a_player_enters_at_most_ten(host, make_user, monkeypatch):
    monkeypatch.setattr(services, "MAX_PLAYERS", 2)
    cup = new_tournament(host)
    services.register(cup.pk, host)
    services.register(cup.pk, make_user("second"))
    refused("tournament_full", services.register, cup.pk, make_user("third"))
    monkeypatch.setattr(services, "MAX_ENTRIES", 1)
    other = new_tournament(host)
    refused("too_many_entries", services.register, other.pk, host)


def test_anonymous_visitors_can_do_nothing(host):
    cup = new_tournament(host)
    refused("login_required", services.register, cup.pk, AnonymousUser())
    refused("login_required", new_tournament, AnonymousUser())


def test_only_programs_join_a_ladder_and_only_once(host, programs):
    refused("not_a_program", services.join_ladder, host, "aquawar")
    refused("bad_game", services.join_ladder, programs[0], "chess")
    services.join_ladder(programs[0], "aquawar")
    services.join_ladder(programs[0], "aquawar")
    assert LadderEntry.objects.count() == 1
    assert services.leave_ladder(programs[0], "aquawar")
    assert not services.leave_ladder(programs[0], "aquawar")
