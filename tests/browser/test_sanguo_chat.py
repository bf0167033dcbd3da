"""The 三国 chat in real browsers: a player on a phone writes to the game master in their own channel
and the GM's page shows the line over its socket, unreloaded, while the other players' pages never
do; the GM answers; a line in the public channel reaches another player's page the same way."""
import re

from . import ui

ui.skip_without_a_browser()

TO_GM = "Is 刘备 still in play?"
ANSWER = "Wait for the announcement"
PUBLIC = "Good luck to everyone"


def started_game(browser, live_server_url):
    gm = ui.new_page(browser, live_server_url)
    ui.sign_up(gm, "gm")
    gm.goto("/sanguo/")
    gm.click("[data-sanguo-create] button[type=submit]")
    gm.wait_for_url(re.compile(r".*/sanguo/\d+/$"))
    players = []
    for index in range(3):
        size = {"width": 360, "height": 740, "touch": True} if index == 0 else {}
        page = ui.new_page(browser, live_server_url, **size)
        ui.sign_up(page, f"p{index}")
        page.goto(gm.url)
        page.click("#sanguo-recruiting button[value=sign_up]")
        page.wait_for_selector("#sanguo-recruiting button[value=leave]")
        players.append(page)
    gm.reload()
    gm.click("#sanguo-recruiting button[value=start]")
    gm.wait_for_selector("#sanguo-chat")
    return gm, players


def say(page, text):
    page.fill("#sanguo-chat-text", text)
    page.click("[data-chat-form] button")
    page.wait_for_function("() => document.querySelector('#sanguo-chat-text').value === ''")


def test_a_player_and_the_game_master_talk_in_their_channel_live(browser, live_server_url, screenshot_dir):
    gm, (phone, other, third) = started_game(browser, live_server_url)
    for page in (phone, other, third):
        page.reload()
        page.wait_for_selector("#sanguo-game[data-connection=open]")
    phone.select_option("#sanguo-chat-channel", label="The game master (天庭)")
    phone.click("[data-chat-switch] button")
    phone.wait_for_url(re.compile(r".*[?&]chat=\w+"))
    own = phone.get_attribute("#sanguo-chat", "data-channel")
    assert phone.url.split("chat=")[1].startswith(own)
    assert phone.locator("#sanguo-chat-channel option:checked").inner_text() == "The game master (天庭)"
    gm.goto(f"{gm.url.split('?')[0]}?chat={own}")
    gm.wait_for_selector("#sanguo-game[data-connection=open]")

    say(phone, TO_GM)
    gm.wait_for_selector(f"#sanguo-chat .chat-text:text-is('{TO_GM}')")
    say(gm, ANSWER)
    phone.wait_for_selector(f"#sanguo-chat .chat-text:text-is('{ANSWER}')")
    phone.select_option("#sanguo-chat-channel", label="Public: everyone")
    phone.click("[data-chat-switch] button")
    phone.wait_for_selector(f"#sanguo-chat:not([data-channel='{own}'])")
    say(phone, PUBLIC)
    for page in (other, third):
        page.wait_for_selector(f"#sanguo-chat .chat-text:text-is('{PUBLIC}')")
    for page in (other, third):
        assert TO_GM not in page.content() and ANSWER not in page.content()
    ui.shoot(phone, screenshot_dir, "sanguo-chat-phone")
    ui.shoot(gm, screenshot_dir, "sanguo-chat-gm")
