"""Time controls for people: a clock per decision, kept in the database, enforced once."""
import threading
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.utils import timezone, translation

from game.programs import runner, seats
from game.games.aquawar import engine
from game.live import frames, presenter
from game import rematch, services
from game.programs.models import BotSeat
from game.games.aquawar.log import LogBook
from game.models import Match, MatchEvent

from .helpers import GUEST_TEAMS, HOST_TEAMS, open_socket

pytestmark = pytest.mark.django_db(transaction=True)

SECONDS = 30
# Aquawar's pick allowance: a pick gets at least this, whatever the control (game/time_controls.py).
PICK_SECONDS = 60


@pytest.fixture
def wakes(monkeypatch):
    """The matches the bot runner was woken for (it is not run: the tests drive it themselves)."""
    woken = []
    monkeypatch.setattr(runner, "wake", woken.append)
    monkeypatch.setattr(seats, "wake", woken.append)
    return woken


def timed_match(host, guest, seconds=SECONDS):
    return services.join_match(services.create_match(host, move_seconds=seconds), guest)


def fresh(match):
    return Match.objects.get(pk=match.pk)


def both_picked(host, guest):
    match = timed_match(host, guest)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    services.apply_command(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    return fresh(match)


def overdue(match, seat, by=timedelta(seconds=1)):
    """Move ``seat``'s deadline into the past, as if its player had let the clock run out."""
    Match.objects.filter(pk=match.pk).update(**{f"deadline_{seat}": timezone.now() - by})


def timeouts(match):
    return MatchEvent.objects.filter(match=match, command__reason="timeout").count()


def around_now(deadline, before, seconds=SECONDS):
    return before + timedelta(seconds=seconds) <= deadline <= timezone.now() + timedelta(seconds=seconds)


def client_for(user=None):
    client = Client()
    if user:
        client.force_login(user)
    return client


def wait_for(predicate, seconds=10):
    limit = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < limit, "timed out"
        time.sleep(0.02)


def test_only_the_time_controls_on_offer_are_accepted(host):
    for bad in (45, -30, False, True, "30", None):
        with pytest.raises(services.ServiceError) as refused:
            services.create_match(host, move_seconds=bad)
        assert refused.value.code == "bad_time_control"
    assert not Match.objects.exists()
    assert [services.create_match(host, move_seconds=s).move_seconds for s in (0, 30, 60, 120)] == [0, 30, 60, 120]


def test_joining_starts_both_clocks_for_the_simultaneous_pick(host, guest, wakes):
    before = timezone.now()
    match = timed_match(host, guest)
    # The pick is not a race: it has its own allowance, longer than a 30 s decision.
    assert match.deadline_0 == match.deadline_1 and around_now(match.deadline_0, before, PICK_SECONDS)
    # Committed with the match going live, and the runner is woken to time it.
    assert wakes == [match.pk]


def test_a_seat_that_locked_its_team_in_is_no_longer_due(host, guest, wakes):
    match = timed_match(host, guest)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    after = fresh(match)
    # The opponent's pick is no decision of the guest's: their clock runs on unchanged.
    assert (after.deadline_0, after.deadline_1) == (None, match.deadline_1)


def test_every_assertion_and_action_gets_the_full_time(host, guest, wakes):
    match = both_picked(host, guest)
    mover = match.state["to_move"]
    players = (host, guest)
    assert match.deadlines[1 - mover] is None and match.deadlines[mover] is not None
    time.sleep(0.01)
    before = timezone.now()
    services.apply_command(match.pk, players[mover], "skip", match.version, {"assert": None})
    asserted = fresh(match)
    assert around_now(asserted.deadlines[mover], before) and asserted.deadlines[mover] > match.deadlines[mover]
    assert asserted.deadlines[1 - mover] is None

    action = engine.legal_commands(engine.MatchState.from_json(asserted.state), mover)[0]
    before = timezone.now()
    services.apply_command(match.pk, players[mover], "act", asserted.version, action)
    acted = fresh(match)
    assert acted.deadlines[mover] is None and around_now(acted.deadlines[1 - mover], before)


def test_a_casual_match_has_no_clock_and_never_times_out(host, guest, wakes):
    match = services.join_match(services.create_match(host), guest)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    assert fresh(match).deadlines == [None, None]
    # No clock and no bot: the runner has nothing to do with it.
    assert wakes == []
    assert services.forfeit_overdue(match.pk) is None
    assert runner.sweep() == []
    assert fresh(match).status == "live"


def test_a_clock_still_running_is_not_held_against_anyone(host, guest, wakes):
    match = both_picked(host, guest)
    assert services.forfeit_overdue(match.pk) is None
    assert runner.sweep() == []
    assert fresh(match).status == "live"


def test_running_out_of_time_loses_the_match_once(host, guest, wakes):
    match = both_picked(host, guest)
    mover = match.state["to_move"]
    overdue(match, mover)
    assert services.forfeit_overdue(match.pk) == (match.version + 1, False)
    assert services.forfeit_overdue(match.pk) is None
    final = fresh(match)
    assert (final.status, final.winner, final.end_reason) == ("finished", 1 - mover, "timeout")
    assert final.deadlines == [None, None] and timeouts(match) == 1
    end = MatchEvent.objects.get(match=match, version=final.version).events[-1]
    assert (end["type"], end["winner"], end["reason"]) == ("match_end", 1 - mover, "timeout")


def test_two_sweeps_at_the_same_moment_forfeit_once(host, guest, wakes):
    match = both_picked(host, guest)
    mover = match.state["to_move"]
    overdue(match, mover)
    barrier = threading.Barrier(2)

    def sweep():
        barrier.wait()
        try:
            return runner.sweep()
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    final = fresh(match)
    assert (final.status, final.winner, final.end_reason) == ("finished", 1 - mover, "timeout")
    assert timeouts(match) == 1 and final.version == match.version + 1


def test_a_deadline_that_passed_while_no_server_ran_is_enforced_by_the_first_sweep(host, guest, wakes):
    match = both_picked(host, guest)
    mover = match.state["to_move"]
    # The mover's clock ran out an hour ago; this process has no timer for it (a fresh start).
    overdue(match, mover, by=timedelta(hours=1))
    runner._clock.clear()
    waiting = timed_match(host, guest)
    call_command("run_bots", "--once")
    final = fresh(match)
    assert (final.status, final.winner, final.end_reason) == ("finished", 1 - mover, "timeout")
    assert timeouts(match) == 1
    assert fresh(waiting).status == "live"


def test_when_neither_side_picks_in_time_the_match_is_called_off(host, guest, wakes):
    match = timed_match(host, guest)
    together = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(deadline_0=together, deadline_1=together)
    assert services.forfeit_overdue(match.pk) is not None
    final = fresh(match)
    assert (final.status, final.winner, final.end_reason, final.version) == ("cancelled", None, "timeout", 0)
    assert final.deadlines == [None, None] and not final.events.exists()


def test_a_settle_that_read_before_another_does_not_bring_back_the_deadline_it_replaced():
    clock, match_id, later = runner._clock, 10**9, time.time() + 3600
    clock.time(match_id, [later + 2], read_at=2.0)
    clock.time(match_id, [later + 1], read_at=1.0)  # read first, set last: a stale deadline
    assert clock._wanted[match_id] == {later + 2}
    clock.time(match_id, [later + 3], read_at=3.0)
    assert clock._wanted[match_id] == {later + 3}
    clock.time(match_id, [], read_at=4.0)  # the match ended
    assert match_id not in clock._wanted and match_id not in clock._read_at


def test_the_clock_runs_out_in_the_process_timer_without_anyone_connected(host, guest):
    match = both_picked(host, guest)
    mover = match.state["to_move"]
    # The change's own wake-up set a timer at the mover's deadline.
    deadline = match.deadlines[mover]
    wait_for(lambda: runner._clock._wanted.get(match.pk) == {deadline.timestamp() + runner.TIMER_SLACK})
    # Now the mover's clock is about to run out; a settle (as after any change) times it.
    Match.objects.filter(pk=match.pk).update(**{f"deadline_{mover}": timezone.now() + timedelta(seconds=0.3)})
    runner.settle(match.pk)
    wait_for(lambda: fresh(match).status == "finished")
    final = fresh(match)
    assert (final.winner, final.end_reason) == (1 - mover, "timeout") and timeouts(match) == 1


def test_the_clock_running_out_before_the_first_pick_aborts_in_the_process_timer(host, guest):
    match = timed_match(host, guest)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    deadline = fresh(match).deadline_1
    wait_for(lambda: runner._clock._wanted.get(match.pk) == {deadline.timestamp() + runner.TIMER_SLACK})
    # The guest never picked: their clock running out loses them nothing (issue #15).
    Match.objects.filter(pk=match.pk).update(deadline_1=timezone.now() + timedelta(seconds=0.3))
    runner.settle(match.pk)
    wait_for(lambda: fresh(match).status != "live")
    final = fresh(match)
    assert (final.status, final.winner, final.end_reason) == ("aborted", None, "no_first_move")
    assert timeouts(match) == 0


def test_a_bot_seat_keeps_its_own_clock_under_a_time_control(host, wakes):
    match = seats.start_vs_computer(host, "greedy", move_seconds=SECONDS)
    assert match.move_seconds == SECONDS
    # The person's decision is timed on the match; the built-in bot's only has its takeover time.
    assert match.deadline_0 is not None and match.deadline_1 is None
    assert BotSeat.objects.get(match=match, seat=1).deadline is not None
    # A program taking over the person's seat plays under the contest's clock instead.
    seats.claim_seat(match.pk, host)
    assert fresh(match).deadlines == [None, None]
    assert BotSeat.objects.get(match=match, seat=0).deadline is not None


def test_the_clock_is_in_every_viewers_payload(host, guest, wakes):
    match = timed_match(host, guest)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    match = frames.load_match(match.pk)
    deadline = int(match.deadline_1.timestamp() * 1000)
    for seat in (0, 1, None):
        before = int(time.time() * 1000)
        clock = frames.payload(match, seat)["clock"]
        assert clock["move_seconds"] == SECONDS and clock["deadlines"] == [None, deadline]
        assert before <= clock["server_time"] <= int(time.time() * 1000)


async def test_players_and_spectators_get_the_clock_over_the_socket(host, guest, outsider, wakes):
    match = await database_sync_to_async(timed_match)(host, guest)
    stored = await database_sync_to_async(fresh)(match)
    expected = [int(d.timestamp() * 1000) for d in stored.deadlines]
    for user in (host, outsider):
        socket = await open_socket(match.pk, user)
        try:
            state = (await socket.hello())[-1]
            assert state["clock"]["deadlines"] == expected and state["clock"]["move_seconds"] == SECONDS
        finally:
            await socket.disconnect()
    page = await open_socket(match.pk, outsider, html=True)
    try:
        board = (await page.receive_until(lambda text: 'id="match-board"' in text))[-1]
        for deadline in expected:
            assert f'data-deadline="{deadline}"' in board
        assert board.count('role="timer"') == 2
    finally:
        await page.disconnect()


def test_the_page_shows_the_time_control_and_the_clock_of_whoever_owes_a_move(host, guest, outsider, wakes):
    match = timed_match(host, guest)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    deadline = int(fresh(match).deadline_1.timestamp() * 1000)
    for user in (host, guest, outsider):
        page = client_for(user).get(f"/match/{match.pk}/").content.decode()
        assert "30 s per decision" in page
        board, controls = page.split('id="match-board"', 1)[1].split('id="match-controls"', 1)
        # Only the guest still owes a pick: one clock, on the guest's side of the board.
        assert board.count('role="timer"') == 1
        guest_side = board.split('data-side="1"', 1)[1].split('data-side="0"', 1)[0]
        assert f'data-deadline="{deadline}"' in guest_side
        # ...and the guest has it beside the pick form too.
        assert (f'data-deadline="{deadline}"' in controls) == (user == guest)


def test_the_clock_looks_urgent_in_its_last_seconds(host, guest, wakes):
    match = timed_match(host, guest)
    Match.objects.filter(pk=match.pk).update(deadline_0=timezone.now() + timedelta(seconds=7))
    payload = frames.payload(frames.load_match(match.pk), None)
    calm, urgent = presenter.countdown(payload, 1), presenter.countdown(payload, 0)
    assert (calm["text"], calm["urgent"]) == ("1:00", False)
    assert urgent["text"] in ("0:07", "0:06") and urgent["urgent"]


def test_a_rematch_keeps_the_time_control(host, guest, wakes):
    old = timed_match(host, guest, seconds=120)
    services.resign(old, guest, "r")
    rematch.answer(old.pk, host, "offer")
    new = Match.objects.get(pk=rematch.info(rematch.answer(old.pk, guest, "accept"))["match"])
    assert new.move_seconds == 120
    assert new.deadline_0 == new.deadline_1 and around_now(new.deadline_0, new.created, seconds=120)


def test_both_sides_and_spectators_are_told_who_ran_out_of_time(host, guest, outsider, wakes):
    match = both_picked(host, guest)
    mover = match.state["to_move"]
    loser, winner = (host, guest)[mover], (host, guest)[1 - mover]
    overdue(match, mover)
    services.forfeit_overdue(match.pk)
    line = f"{loser.username} ran out of time — {winner.username} wins the match. Final score 0–0."
    pages = {user: client_for(user).get(f"/match/{match.pk}/").content.decode() for user in (loser, winner, outsider)}
    for page in pages.values():
        assert line in page
    # Each player reads the result from their own side; no round was played, so no score is said.
    assert "You ran out of time." in pages[loser] and "You lost the match." in pages[loser]
    assert f"{loser.username} ran out of time." in pages[winner] and "You won the match!" in pages[winner]
    assert "0–0!" not in pages[winner] and "match 0–0." not in pages[loser]
    assert f"{loser.username} ran out of time." in pages[outsider]
    # The request switches this thread's language; the override puts it back for the tests after.
    with translation.override(None):
        chinese = client_for(outsider).get(f"/match/{match.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert f"{loser.username} 超时" in chinese


def test_the_log_words_a_timeout_for_each_point_of_view():
    end = [(9, [{"type": "match_end", "winner": 1, "reason": "timeout", "score": [1, 0]}])]
    lines = {who: LogBook(who, ["ann", "bob"]).entries(end)[0]["text"] for who in (0, 1, "all")}
    assert lines[0] == "You ran out of time — bob wins the match. Final score 1–0."
    assert lines[1] == "ann ran out of time — you win the match. Final score 1–0."
    assert lines["all"] == "ann ran out of time — bob wins the match. Final score 1–0."
