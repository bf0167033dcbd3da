"""Correspondence: days per decision (per turn). Nothing of such a match lives in memory: with no
timer in any process, a server restart and a week's silence change nothing, the sweep alone closes a
deadline that passed; nor is the match abandoned or claimable while a player is away."""
from datetime import timedelta

import pytest

from game import fairness, services, sweep, time_controls
from game.live import frames, presenter
from game.models import Match
from game.programs import runner
from game.time_controls import DAY

from .fake_clock import START, clock  # noqa: F401 (a fixture)
from .helpers import GUEST_TEAMS, HOST_TEAMS

pytestmark = pytest.mark.django_db

HOUR = 60 * 60


@pytest.fixture
def no_timers(monkeypatch):
    """No process keeps a timer: as after a restart, only the database knows the deadlines."""
    monkeypatch.setattr(runner._clock, "time", lambda match_id, whens, read_at: None)


def fresh(match):
    return Match.objects.get(pk=match.pk)


def correspondence(host, guest, days=1):
    return services.join_match(services.create_match(host, move_seconds=days * DAY), guest)


def test_a_pick_gets_the_days_of_the_control_not_the_live_allowance(host, guest, clock, no_timers):
    match = correspondence(host, guest, days=3)
    assert match.deadlines == [START + timedelta(days=3)] * 2


def test_a_deadline_days_away_is_closed_by_the_sweep_alone_after_a_restart(host, guest, clock, no_timers):
    match = correspondence(host, guest)
    clock.at(5 * HOUR)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    clock.at(20 * HOUR)
    services.apply_command(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    match = fresh(match)
    mover = match.state["to_move"]
    assert match.deadlines[mover] == START + timedelta(seconds=20 * HOUR + DAY)
    # The page counts days and hours down.
    payload = frames.payload(frames.load_match(match.pk), mover)
    assert presenter.countdown(payload, mover)["text"] == "1d 00h"
    clock.at(20 * HOUR + DAY - 1)
    assert runner.sweep() == [] and fresh(match).status == Match.Status.LIVE
    clock.at(20 * HOUR + DAY + 1)
    assert runner.sweep() == [match.pk]
    over = fresh(match)
    assert (over.status, over.end_reason, over.winner) == (Match.Status.FINISHED, "timeout", 1 - mover)


def test_a_silent_correspondence_match_is_not_abandoned_but_aborted_by_its_clock(
    host, guest, outsider, clock, no_timers
):
    match = correspondence(host, guest)
    live = services.join_match(services.create_match(outsider, move_seconds=30), guest)
    clock.at(HOUR)
    # Far past ABANDONED_MATCH_MINUTES, nobody picked and no socket: the live match goes, not this one.
    assert sweep.sweep() == [live.pk] and fresh(match).status == Match.Status.LIVE
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    clock.at(DAY + 1)
    runner.sweep()
    over = fresh(match)
    assert (over.status, over.end_reason) == (Match.Status.ABORTED, "no_first_move")


def test_an_absent_opponent_cannot_be_claimed_against(host, guest, clock, no_timers):
    match = correspondence(host, guest)
    clock.at(3 * DAY - 1)
    info = fairness.opponent(match.pk, 0, "live", time_controls.of(match), [True, False])
    assert (info["claim_at"], info["claimable"]) == (None, False)
    with pytest.raises(services.ServiceError) as refused:
        fairness.claim_win(match.pk, host)
    assert refused.value.code == "not_claimable"


@pytest.mark.parametrize("days", time_controls.CORRESPONDENCE_DAYS)
def test_every_correspondence_control_is_offered_in_both_games(host, days):
    for game in ("aquawar", "miracle"):
        made = services.create_match(host, game=game, move_seconds=days * DAY)
        assert time_controls.of(made).correspondence
        services.cancel_match(made, host)
