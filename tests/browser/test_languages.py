"""The match screen in both languages, at phone and desktop widths.

The language comes from the browser (Accept-Language) until the person picks one in the footer;
the choice is then remembered (Django's language cookie), and the live fragments the socket sends
are in the page's language too.
"""
from . import ui

ui.skip_without_a_browser()

HOST_TEAM = ["sea_wolf", "archerfish", "sea_turtle", "mimic_fish"]
GUEST_TEAM = ["electric_eel", "clownfish", "octopus", "great_white_shark"]
WIDTHS = (1280, 360)


def shoot_widths(page, folder, language):
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(2600)  # the marks of the last move have floated away
        ui.shoot(page, folder, f"match-{language}-{width}")


def test_it_shows_the_match_in_the_browsers_language_and_remembers_a_switch(browser, live_server_url, screenshot_dir):
    english = ui.new_page(browser, live_server_url, locale="en-US")
    chinese = ui.new_page(browser, live_server_url, locale="zh-CN")
    ui.sign_up(english, "en")
    ui.sign_up(chinese, "zh")
    assert chinese.get_attribute("html", "lang") == "zh-hans"
    match_id, invite = ui.create_match(english)
    ui.join_by_invite(chinese, invite, match_id)
    ui.follow_to_match(english, match_id)
    ui.wait_live(english)

    assert chinese.inner_text(".pick-form button[type=submit]") == "锁定队伍"
    ui.pick(english, HOST_TEAM, mimic="octopus")
    # The redraw that the host's pick sends would swallow a click made as it lands (pressed on the
    # old card, released on the new one): the guest chooses once it is in.
    ui.wait_version(chinese, 1)
    ui.pick(chinese, GUEST_TEAM)
    for page in (english, chinese):
        ui.wait_version(page, 2)
    # Drawn by the socket, not the page: the fragments speak the page's language.
    assert "第 1 轮" in chinese.inner_text("#match-status")
    assert "电鳗" in chinese.inner_text("#match-board")
    assert "Round 1 of 3" in english.inner_text("#match-status")
    mover = english if english.locator(".skip-form").count() else chinese
    mover.click(".skip-form button")
    ui.wait_version(mover, 3)
    ui.act(mover, ui.best_move(mover))
    for page in (english, chinese):
        ui.wait_version(page, 4)
    shoot_widths(english, screenshot_dir, "en")
    shoot_widths(chinese, screenshot_dir, "zh-hans")

    # The footer's language form switches the page, and the choice sticks to later pages.
    english.select_option("#language-select", "zh-hans")
    english.click(".language-form button[type=submit]")
    english.wait_for_url(f"**/match/{match_id}/")
    ui.wait_live(english)
    assert english.get_attribute("html", "lang") == "zh-hans"
    assert "第 1 轮" in english.inner_text("#match-status")
    later = english.context.new_page()
    later.goto("/")
    assert later.get_attribute("html", "lang") == "zh-hans"
    assert any(c["name"] == "django_language" for c in english.context.cookies())
