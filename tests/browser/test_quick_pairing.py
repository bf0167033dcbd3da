"""Quick pairing between two people in real browsers: one waits in the pool, the other's "Play now"
pairs them, both pages are taken to the same live match; after it (a resignation) both see their
rating change, and the loser's profile counts the rated loss."""
import re

from . import ui

ui.skip_without_a_browser()


def play_now(page):
    page.goto("/")
    page.check("#play-now-form input[name=rated][value=rated]")
    page.click("#play-now")


def test_two_people_are_paired_and_both_taken_to_the_rated_match(browser, live_server_url, screenshot_dir):
    first = ui.new_page(browser, live_server_url, width=1280)
    second = ui.new_page(browser, live_server_url, width=360, height=780)
    ui.sign_up(first, "first")
    second_name = ui.sign_up(second, "second")
    first.goto("/")
    ui.shoot(first, screenshot_dir, "lobby-play-now-1280")

    play_now(first)
    first.wait_for_url("**/play/waiting/")
    first.wait_for_selector("#seek-waiting")
    ui.shoot(first, screenshot_dir, "quick-pairing-waiting-1280")

    play_now(second)
    second.wait_for_url(re.compile(r".*/match/\d+/$"))
    # The waiting page's poll takes the first player to the same match.
    first.wait_for_url(second.url, timeout=ui.TIMEOUT_MS)
    for page in (first, second):
        ui.wait_live(page)

    second.once("dialog", lambda dialog: dialog.accept())
    second.click(".resign-form button")
    for page in (first, second):
        page.wait_for_selector("#match-rating-changes")
    assert "Your rating: 1500 → " in first.inner_text("#match-rating-changes")
    assert "(+" in first.inner_text("#match-rating-changes") and "(−" in second.inner_text("#match-rating-changes")
    ui.shoot(first, screenshot_dir, "match-rating-change-1280")
    ui.shoot(second, screenshot_dir, "match-rating-change-360")

    first.goto(f"/users/{second_name}/")
    first.wait_for_selector("[data-game=aquawar] [data-stat=rated]")
    assert first.inner_text("[data-game=aquawar] [data-stat=rated]") == "0 / 1"
    ui.shoot(first, screenshot_dir, "profile-ratings-1280")
