"""A match page whose login ends in another tab (issue #30, item 10): the server closes its socket
(4401), the page reconnects by itself, and the page is drawn again for whoever the browser is now:
nobody, so it can no longer act for the player."""
from . import ui

ui.skip_without_a_browser()


def test_a_logout_in_another_tab_ends_what_the_match_page_may_do(browser, live_server_url):
    page = ui.new_page(browser, live_server_url)
    ui.sign_up(page, "host")
    match_id, _invite = ui.create_match(page)
    page.goto(f"/match/{match_id}/")
    ui.wait_live(page)
    page.wait_for_selector("#match-chat form.chat-form")
    other_tab = page.context.new_page()
    other_tab.goto("/")
    other_tab.click("form[action='/accounts/logout/'] button[type=submit]")
    other_tab.wait_for_selector("a:text-is('Log in')")
    # Without a reload: the socket was closed and opened again, anonymous this time.
    page.wait_for_selector("#match-chat :text('Log in to chat.')")
    ui.wait_live(page)
    assert page.locator("#match-chat form.chat-form").count() == 0
