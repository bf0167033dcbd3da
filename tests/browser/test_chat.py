"""Chat in real browsers (issue #15): the players talk live, the spectators among themselves, and
neither side's words reach the other during the match; a muted player's lines go away."""
from . import ui

ui.skip_without_a_browser()


def say(page, text):
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


def test_players_and_spectators_chat_apart(browser, live_server_url, screenshot_dir):
    host = ui.new_page(browser, live_server_url, width=1280)
    guest = ui.new_page(browser, live_server_url, width=360, height=780, locale="zh-CN")
    watcher = ui.new_page(browser, live_server_url, width=1280)
    host_name = ui.sign_up(host, "host")
    ui.sign_up(guest, "guest")
    watcher_name = ui.sign_up(watcher, "watch")
    match_id, invite = ui.create_match(host)
    ui.join_by_invite(guest, invite, match_id)
    ui.follow_to_match(host, match_id)
    watcher.goto(f"/match/{match_id}/")
    for page in (host, watcher):
        ui.wait_live(page)

    say(host, "good luck <b>!</b>")
    line = f"#chat-log .chat-line[data-author='{host_name}']"
    guest.wait_for_selector(line)
    assert guest.inner_text(f"{line} .chat-text") == "good luck <b>!</b>"
    # The box is empty again for the next message.
    assert host.input_value("#chat-text") == ""
    say(watcher, "the host is bluffing")
    watcher.wait_for_selector(f"#chat-log .chat-line[data-author='{watcher_name}']")
    host.wait_for_timeout(500)
    for page in (host, guest):
        assert "bluffing" not in page.inner_text("#match-chat")
    assert "good luck" not in watcher.inner_text("#match-chat")
    assert "聊天" in guest.inner_text("#match-chat h2")
    say(guest, "谢谢，你也是！")
    host.wait_for_selector("#chat-log .chat-line:nth-child(2)")
    ui.shoot(host, screenshot_dir, "chat-1280")
    host.locator("#match-chat").screenshot(path=str(screenshot_dir / "chat-box-1280.png"))
    ui.shoot(guest, screenshot_dir, "chat-zh-360")

    # The guest mutes the host: their lines disappear for the guest only.
    guest.hover(line)
    guest.click(f"{line} .chat-mute")
    guest.wait_for_selector(line, state="detached")
    assert host.locator(line).count() == 1
