"""A timed match in real browsers: the clocks tick down on every page, and the player who lets
theirs run out loses, with both players and a spectator told why. It waits out a real 30 s clock:
the server's own timer has to end the match, with nobody doing anything. (Both teams are picked
first: a clock that runs out before a player's first move aborts the match instead.)"""
from . import ui

ui.skip_without_a_browser()

SECONDS = 30
# A pick has its own allowance, longer than a 30 s decision (game/time_controls.py).
PICK_SECONDS = 60


def test_the_player_who_runs_out_of_time_loses(browser, live_server_url, screenshot_dir):
    host = ui.new_page(browser, live_server_url, width=1280)
    guest = ui.new_page(browser, live_server_url, width=360, height=780)
    watcher = ui.new_page(browser, live_server_url, width=1280)
    host_name = ui.sign_up(host, "host")
    guest_name = ui.sign_up(guest, "guest")
    match_id, invite = ui.create_match(host, move_seconds=SECONDS)
    assert "30 s per decision" in host.inner_text("#match-lists")
    ui.shoot(host, screenshot_dir, "lobby-time-control-1280")
    ui.join_by_invite(guest, invite, match_id)
    ui.follow_to_match(host, match_id)
    watcher.goto(f"/match/{match_id}/")
    for page in (host, guest, watcher):
        ui.wait_live(page)
        assert "30 s per decision" in page.inner_text(".match-time-control")
        # Both owe a pick: both clocks run, on every page.
        assert ui.clock_of(page, 0).count() == ui.clock_of(page, 1).count() == 1

    start = ui.seconds_left(guest, 1)
    # More than the 30 s a decision gets is the pick's own allowance; the slack below it is the time a
    # loaded machine takes to open the three pages after the pick's clock started.
    assert max(SECONDS, PICK_SECONDS - 20) < start <= PICK_SECONDS
    guest.wait_for_function(
        "s => Number(document.querySelector(\".team[data-side='1'] .clock-time\").textContent.split(':')[1]) < s",
        arg=start,
    )

    # The host locks a team in and owes nothing more; the guest's clock runs on, untouched.
    ui.pick_any(host)
    host.wait_for_selector("text=Your team is locked in")
    for page in (host, guest, watcher):
        page.wait_for_function("() => document.querySelectorAll('#match-board .clock').length === 1")
        assert ui.clock_of(page, 1).count() == 1
    # The one who owes the pick has their clock beside the form as well.
    assert guest.locator(".controls-clock .clock").count() == 1 and host.locator(".controls-clock").count() == 0
    assert ui.seconds_left(host, 1) < start
    ui.shoot(host, screenshot_dir, "match-clock-1280")
    ui.shoot(guest, screenshot_dir, "match-clock-360")

    # The guest picks too; whoever opens round 1 then lets their clock run out.
    ui.pick_any(guest)
    for page in (host, guest):
        ui.wait_version(page, 2)
    if host.locator(".controls-clock .clock").count():
        loser_page, loser_name, winner_page, winner_name = host, host_name, guest, guest_name
    else:
        loser_page, loser_name, winner_page, winner_name = guest, guest_name, host, host_name

    loser_page.wait_for_selector(".clock--urgent", timeout=SECONDS * 1000)
    assert "⚠" in loser_page.evaluate("() => getComputedStyle(document.querySelector('.clock'), '::before').content")
    ui.shoot(guest, screenshot_dir, "match-clock-urgent-360")
    ui.shoot(watcher, screenshot_dir, "match-clock-urgent-1280")

    for page in (host, guest, watcher):
        page.wait_for_selector("#match-status[data-status=finished]", timeout=20_000)
        assert page.locator(".clock").count() == 0
        # The phone's log is folded (its newest line on the fold): read its text, shown or not.
        assert f"{loser_name} ran out of time — {winner_name} wins the match." in page.text_content("#match-log")
        # The page was not reloaded: the links to the finished match came over the socket.
        assert "Summary and HP chart" in page.inner_text("#match-links")
    assert not host.locator(".resign-form").is_visible() and not guest.locator(".resign-form").is_visible()
    assert "You ran out of time." in loser_page.inner_text(".banner")
    assert f"{loser_name} ran out of time." in winner_page.inner_text(".banner")
    assert f"{loser_name} ran out of time." in watcher.inner_text(".banner")
    guest.wait_for_timeout(600)  # the banner's entrance, so that the shots show it
    ui.shoot(guest, screenshot_dir, "match-timeout-360")
    ui.shoot(watcher, screenshot_dir, "match-timeout-1280")
