"""A 三国 player on a phone (360 px wide): at night and by day their page has nothing to scroll
sideways to, and the phase's deadline, every action form's fields and button, the chat's channel
switch and its box all lie within the screen's width."""
from . import ui
from .test_sanguo import gm_closes, submit
from .test_sanguo_chat import started_game

ui.skip_without_a_browser()

WIDTH = 360
# What a seat must reach on its page: the deadline, each action form's controls, the chat.
REACHABLE = ("[data-deadline]", "#sanguo-player form select", "#sanguo-player form button",
             "#sanguo-player form input:not([type=hidden])", "#sanguo-chat-channel", "#sanguo-chat-text",
             "#sanguo-chat-send button")


def outside(page):
    """Every page-wide overflow and every reachable control lying (even partly) beyond the width."""
    return page.evaluate("""([selectors, width]) => {
        const found = [];
        if (document.documentElement.scrollWidth > width) found.push(`page ${document.documentElement.scrollWidth}`);
        for (const selector of selectors) {
            for (const element of document.querySelectorAll(selector)) {
                const box = element.getBoundingClientRect();
                if (box.left < 0 || box.right > width) found.push(`${selector} ${box.left}-${box.right}`);
            }
        }
        return found;
    }""", [list(REACHABLE), WIDTH])


def test_a_seat_on_a_phone_reaches_its_forms_deadline_and_chat_without_scrolling_sideways(
        browser, live_server_url, screenshot_dir):
    gm, (phone, *_others) = started_game(browser, live_server_url)
    assert phone.viewport_size["width"] == WIDTH
    phone.reload()
    phone.wait_for_selector("#sanguo-game[data-connection=open]")
    assert phone.locator("#sanguo-player form").count() > 0 and phone.locator("#sanguo-status [data-deadline]").count() == 1
    assert outside(phone) == []
    ui.shoot(phone, screenshot_dir, "sanguo-phone-night")
    submit(phone, ("assassinate", "identify"))
    assert outside(phone) == []
    gm.reload()
    gm_closes(gm, "day_vote")
    phone.wait_for_selector("#sanguo-status[data-phase=day_vote]")
    assert phone.locator("#sanguo-player form[data-sanguo-form=vote]").count() > 0
    assert outside(phone) == []
    ui.shoot(phone, screenshot_dir, "sanguo-phone-day")
