"""The Aquawar match page of a player whose teams are picked (issue 29): what a phone shows on its
first screen, how the Assert button looks before a species is chosen, and what the notification
switch says when the browser blocks notifications."""
import random

import pytest

from django.conf import settings

from tests.accounts import client_for

from ..history.helpers import play, state_of
from game import services
from . import ui

ui.skip_without_a_browser()

PHONES = [{"width": 360, "height": 780}, {"width": 390, "height": 844}]


@pytest.fixture
def picked(host, guest, transactional_db):
    """(match, the session cookie of the player to move): both teams picked, the first assertion to
    make. Made before the browser starts: the test itself makes no database calls."""
    match = services.join_match(services.create_match(host), guest)
    match = play(match, (host, guest), random.Random(3), until=2)
    state = state_of(match)
    assert state.phase == "assert"
    session = client_for((host, guest)[state.to_move]).cookies[settings.SESSION_COOKIE_NAME].value
    return match, session


def logged_in_page(browser, live_server_url, session, **size):
    page = ui.new_page(browser, live_server_url, **size)
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server_url}])
    return page


def open_match(browser, live_server_url, picked, **size):
    match, session = picked
    page = logged_in_page(browser, live_server_url, session, **size)
    page.goto(f"/match/{match.pk}/")
    ui.wait_live(page)
    page.wait_for_selector(".board-play__prompt:not(:empty)")
    return page


def first_screen_misses(page, selectors):
    """Which of ``selectors`` have an element not wholly within the window as the page opens."""
    return page.evaluate(
        """selectors => selectors.filter((selector) => {
            const found = [...document.querySelectorAll(selector)];
            return !found.length || found.some((element) => {
                const box = element.getBoundingClientRect();
                return box.top < 0 || box.bottom > innerHeight || box.left < 0 || box.right > innerWidth;
            });
        })""",
        selectors,
    )


@pytest.mark.parametrize("size", PHONES, ids=lambda size: f"{size['width']}x{size['height']}")
def test_a_phone_shows_the_players_own_fish_and_the_prompt_on_its_first_screen(
    picked, browser, live_server_url, screenshot_dir, size
):
    page = open_match(browser, live_server_url, picked, **size)
    assert page.evaluate("scrollY") == 0
    page.screenshot(path=str(screenshot_dir / f"aquawar-match-{size['width']}-first-screen.png"))
    ui.shoot(page, screenshot_dir, f"aquawar-match-{size['width']}-full")
    assert first_screen_misses(page, [".team--own .fish-picture", ".board-play__prompt"]) == []


def test_the_assert_button_looks_disabled_until_a_species_is_chosen(picked, browser, live_server_url, screenshot_dir):
    page = open_match(browser, live_server_url, picked)
    hidden = page.locator(".team:not(.team--own) .fish").first.get_attribute("data-pos")
    page.click(ui.fish(False, hidden))
    confirm = page.locator(".assert-confirm")
    assert confirm.is_disabled()
    look = "b => { const s = getComputedStyle(b); return [s.backgroundColor, s.color, s.cursor]; }"
    confirm.hover()
    disabled = confirm.evaluate(look)
    page.locator(".assert-pick").screenshot(path=str(screenshot_dir / "aquawar-assert-disabled.png"))
    page.click(".assert-species >> nth=0")
    assert confirm.is_enabled()
    enabled = confirm.evaluate(look)
    assert disabled[0] != enabled[0] and disabled[1] != enabled[1], (disabled, enabled)
    assert disabled[2] != "pointer" and enabled[2] == "pointer", (disabled, enabled)


BLOCKED = """
window.Notification = function () { throw new Error("blocked"); };
window.Notification.permission = "denied";
window.Notification.requestPermission = function () { return Promise.resolve("denied"); };
"""


def test_the_notification_switch_says_so_when_the_browser_blocks_them(picked, browser, live_server_url):
    match, session = picked
    page = logged_in_page(browser, live_server_url, session)
    page.context.add_init_script(BLOCKED)
    page.goto(f"/match/{match.pk}/")
    ui.wait_live(page)
    blocked = page.locator(".notify-blocked")
    assert blocked.is_hidden()
    page.click(".notify-switch")
    blocked.wait_for(state="visible")
    assert "blocks notifications" in blocked.inner_text()
    assert page.get_attribute(".notify-switch", "aria-pressed") == "false"
