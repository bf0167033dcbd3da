"""A time bank in real browsers: after the picks (on their own allowance) the mover's bank ticks down
from 3:00 on every page while the other side's stands still at its own; "Your games" lists the
match, waiting for whoever owes the move, with the header counting it."""
from . import ui

ui.skip_without_a_browser()


def test_a_bank_ticks_for_the_mover_only_and_your_games_says_whose_move(browser, live_server_url, screenshot_dir):
    host = ui.new_page(browser, live_server_url, width=1280)
    guest = ui.new_page(browser, live_server_url, width=360, height=780)
    ui.sign_up(host, "host")
    ui.sign_up(guest, "guest")
    match_id, invite = ui.create_match(host, move_seconds="180+5")
    assert "3 min + 5 s per decision" in host.inner_text("#match-lists")
    ui.join_by_invite(guest, invite, match_id)
    ui.follow_to_match(host, match_id)
    for page in (host, guest):
        ui.wait_live(page)
        assert "3 min + 5 s per decision" in page.inner_text(".match-time-control")
        # The pick runs on its own allowance (a minute), not on the three-minute bank.
        assert 0 < ui.seconds_left(page, 0) <= 60
    ui.pick_any(host)
    ui.pick_any(guest)
    for page in (host, guest):
        ui.wait_version(page, 2)
    # Whoever opens the round: the one side whose clock runs (after the redraw that follows the picks).
    running = ".team .clock[data-deadline]"
    host.wait_for_function("s => document.querySelectorAll(s).length === 1", arg=running)
    side = int(host.locator(running).locator("xpath=ancestor::*[@data-side][1]").get_attribute("data-side"))
    mover, waiter = (host, guest) if side == 0 else (guest, host)
    for page in (host, guest):
        page.wait_for_function(
            "s => document.querySelector(\".team[data-side='\" + s + \"'] .clock[data-deadline]\")", arg=side
        )
        # The other side's bank stands still, whole: no deadline to tick towards.
        assert ui.clock_of(page, 1 - side).get_attribute("data-deadline") is None
        assert ui.clock_of(page, 1 - side).locator(".clock-time").inner_text() == "3:00"
    start = ui.seconds_left(waiter, side)
    # The bank (3:00), not a pick's minute; what went by depends on how busy the machine is.
    assert 120 < start <= 180
    waiter.wait_for_function(
        "a => { var t = document.querySelector(\".team[data-side='\" + a[0] + \"'] .clock-time\").textContent.split(':');"
        " return Number(t[0]) * 60 + Number(t[1]) < a[1]; }",
        arg=[side, start],
    )
    ui.shoot(waiter, screenshot_dir, "match-bank-clock")

    mover.goto("/games/")
    row = mover.locator(f"[data-match='{match_id}']")
    assert row.get_attribute("data-your-move") is not None and "Your move" in row.inner_text()
    assert mover.inner_text("[data-your-move-count]") == "1"
    # Time left ticks here too.
    first = row.locator(".clock-time").inner_text()
    mover.wait_for_function(
        "a => document.querySelector(\"[data-match='\" + a[0] + \"'] .clock-time\").textContent !== a[1]",
        arg=[match_id, first],
    )
    # The clock's own "Time left:" is for screen readers: this page, too, must hide it from sight
    # (it showed "Time left: Time left: 2:58" while only the match page's styles hid it).
    hidden = row.locator(".clock .visually-hidden")
    assert hidden.evaluate("e => getComputedStyle(e).position") == "absolute"
    ui.shoot(mover, screenshot_dir, "your-games")
    waiter.goto("/games/")
    assert "Their move" in waiter.inner_text(f"[data-match='{match_id}']")
    assert waiter.locator("[data-your-move-count]").count() == 0
