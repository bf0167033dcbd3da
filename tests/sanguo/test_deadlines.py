"""Phases close by themselves at their deadlines, from the database (so across a restart), once; and
each notice is made once."""
import pytest
from django.core import mail

from game.programs import runner
from notify import delivery
from notify.models import Notice, Preferences
from sanguo import jobs, notices, services
from sanguo.models import Event, Game

from .helpers import DURATIONS, clock, started_game  # noqa: F401

pytestmark = pytest.mark.django_db


def test_nothing_closes_before_the_deadline(clock):
    row, gm, players = started_game()
    clock.forward(DURATIONS["night_action"] - 1)
    assert jobs.close_due_phases() == []
    row.refresh_from_db()
    assert row.state["phase"] == "night_action"


def test_a_phase_closes_at_its_deadline_once_however_many_sweeps(clock):
    row, gm, players = started_game()
    version = row.version
    clock.forward(DURATIONS["night_action"])
    assert jobs.close_due_phases() == [row.pk]
    assert jobs.close_due_phases() == []
    row.refresh_from_db()
    assert row.state["phase"] != "night_action"
    closes = Event.objects.filter(game=row, actor="server", version__gt=version)
    assert closes.count() == 1 and closes.get().command["close"] == {}


def test_the_sweep_the_server_runs_closes_phases(clock):
    row, gm, players = started_game()
    clock.forward(DURATIONS["night_action"] + 5)
    runner.sweep()
    row.refresh_from_db()
    assert Event.objects.filter(game=row, actor="server").exists()


def test_a_phase_due_while_no_process_ran_closes_on_the_first_sweep_after(clock, django_db_blocker):
    """The deadline is a row: nothing in any process's memory holds it. A new process (a restart)
    that loads nothing from the last one closes what fell due meanwhile."""
    import importlib
    row, gm, players = started_game()
    clock.forward(3 * 24 * 3600)
    importlib.reload(jobs)
    jobs.close_due_phases()
    row.refresh_from_db()
    assert row.state["phase"] != "night_action"


def test_a_game_runs_from_night_one_to_the_next_night_on_deadlines_and_default_answers(clock):
    """Missing submissions count as none; the game master's default answers let the closes go on."""
    from game.games.three_kingdoms import engine
    row, gm, players = started_game()
    for _ in range(60):
        row.refresh_from_db()
        if row.state["night"] == 2 or row.status != Game.Status.LIVE:
            break
        for command in engine.legal_commands(row.state, "gm")[:1]:
            services.command(row.pk, gm, "", command)
        row.refresh_from_db()
        if row.deadline is not None:
            clock.now = max(clock.now, row.deadline)
            jobs.close_due_phases()
    row.refresh_from_db()
    assert row.state["night"] == 2 or row.status == Game.Status.FINISHED


def kinds_for(user):
    return sorted(Notice.objects.filter(user=user).values_list("kind", flat=True))


def test_each_seat_that_may_act_is_told_once_when_the_phase_opens(clock):
    row, gm, players = started_game()
    notices.find()
    notices.find()
    for player in players:
        assert kinds_for(player) == ["sanguo_phase"]
    assert not Notice.objects.filter(user=gm).exists()


def test_an_hour_before_the_deadline_only_those_who_have_not_acted_are_reminded_once(clock):
    from .test_services import a_submission
    row, gm, players = started_game()
    services.command(row.pk, players[0], "", a_submission(row, 0))
    clock.forward(DURATIONS["night_action"] - 3600 - 1)
    notices.find()
    assert not Notice.objects.filter(kind="sanguo_deadline").exists()
    clock.forward(2)
    notices.find()
    notices.find()
    assert kinds_for(players[0]) == ["sanguo_phase"]
    assert kinds_for(players[1]) == kinds_for(players[2]) == ["sanguo_deadline", "sanguo_phase"]


def test_a_reminder_for_a_phase_acted_in_since_is_never_sent(clock):
    from .test_services import a_submission
    row, gm, players = started_game()
    Preferences.objects.create(user=players[1], by_mail=True, verified_email="p1@example.com")
    type(players[1]).objects.filter(pk=players[1].pk).update(email="p1@example.com")
    clock.forward(DURATIONS["night_action"] - 1800)
    notices.find()
    reminder = Notice.objects.get(user=players[1], kind="sanguo_deadline")
    services.command(row.pk, players[1], "", a_submission(row, 1))
    assert delivery.stale(reminder)
    opened = Notice.objects.get(user=players[1], kind="sanguo_phase")
    assert not delivery.stale(opened)
    mail.outbox.clear()
    delivery.deliver(opened.pk, clock.now)
    assert len(mail.outbox) == 1 and f"/sanguo/{row.pk}/" in mail.outbox[0].body


def test_a_choice_asked_of_a_seat_is_told_once_to_that_seat_only(clock):
    row, gm, players = started_game()
    state = dict(row.state)
    decision = {"key": 999, "kind": "offer", "for": 2, "about": {}, "options": ["yes", "no"], "default": "no",
                "phase": state["phase"], "night": 1, "internal": {}}
    Game.objects.filter(pk=row.pk).update(state=dict(state, pending=state["pending"] + [decision]))
    notices.find()
    notices.find()
    assert Notice.objects.filter(kind="sanguo_asked").count() == 1
    assert Notice.objects.get(kind="sanguo_asked").user == players[2]
