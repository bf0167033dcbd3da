"""Aborting a casual match against the computer from the match page, after a confirmation (issue #15)."""
from . import ui

ui.skip_without_a_browser()


def test_a_match_against_the_computer_is_aborted_without_a_result(browser, live_server_url, screenshot_dir):
    page = ui.new_page(browser, live_server_url, width=1280)
    ui.sign_up(page, "solo")
    page.goto("/")
    page.click("main form[action='/match/computer'] button[type=submit]")
    page.wait_for_url("**/match/*/")
    ui.wait_live(page)
    assert "The computer is playing" in page.inner_text("#match-opponent")
    # Saying no to the confirmation changes nothing.
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("#match-opponent .fairness-form button")
    page.wait_for_timeout(500)
    assert page.get_attribute("#match-status", "data-status") == "live"
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#match-opponent .fairness-form button")
    page.wait_for_selector("#match-status[data-status=aborted]")
    assert "This match was aborted" in page.inner_text("#match-status")
    ui.shoot(page, screenshot_dir, "match-aborted-1280")
