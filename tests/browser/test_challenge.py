"""Challenges between two people in their browsers (issue #29): asked from a profile, the challenge
reaches the other's open lobby at once over its socket; accepting starts the match and takes both
there; declining tells the challenger. And what the lobby says of a live match to a passer-by, and
the Copy button of an invite link."""
import re

from . import ui

ui.skip_without_a_browser()


def lobby_listening(page):
    page.goto("/")
    page.wait_for_selector(".lobby-news[data-state=open]", state="attached")


def test_a_challenge_from_a_profile_accepted_live_starts_the_match_for_both(browser, live_server_url, screenshot_dir):
    alice = ui.new_page(browser, live_server_url, width=1280)
    bob = ui.new_page(browser, live_server_url, width=360, height=780)
    alice_name = ui.sign_up(alice, "alice")
    bob_name = ui.sign_up(bob, "bob")
    lobby_listening(bob)
    alice.goto(f"/users/{bob_name}/")
    alice.select_option(".profile-challenge select[name=move_seconds]", "aquawar:30")
    alice.click("#challenge-send")
    assert f"Challenge sent to {bob_name}" in alice.inner_text("main")
    assert alice.locator("[id^=withdraw-]").count() == 1
    alice.wait_for_selector(".lobby-news[data-state=open]", state="attached")
    # Bob's lobby, loaded before the challenge, hears of it without a reload: the news, then its row.
    bob.wait_for_selector("#lobby-challenge-news[data-news=received]")
    assert f"{alice_name} challenges you" in bob.inner_text("#lobby-challenge-news")
    accept = bob.locator("[id^=accept-]")
    accept.wait_for()
    assert "30 s" in bob.inner_text("[data-challenge]")
    ui.shoot(bob, screenshot_dir, "challenge-received-360")
    accept.click()
    bob.wait_for_url(re.compile(r".*/match/\d+/$"))
    match_path = bob.url.removeprefix(live_server_url)
    # Alice, still on the lobby, is taken to the same match.
    alice.wait_for_url(f"**{match_path}")
    ui.wait_live(alice)
    ui.wait_live(bob)
    assert alice.locator(".pick-form").count() == 1 and bob.locator(".pick-form").count() == 1
    # A passer-by's lobby: both ratings (new: provisional), the game, the clock, the score and turn.
    visitor = ui.new_page(browser, live_server_url)
    visitor.goto("/")
    row = visitor.locator(".match-list__item", has=visitor.locator(f"a[href='{match_path}']"))
    text = row.inner_text()
    assert alice_name in text and bob_name in text and text.count("1500?") == 2
    assert "Aquawar" in text and "30 s" in text and "Round 1 · 0–0 · picking fish" in text
    assert re.search(r"\d+ players? online now", visitor.inner_text("#lobby-online"))
    ui.shoot(visitor, screenshot_dir, "lobby-live-details-1280")


def test_a_challenge_by_name_declined_tells_the_challenger(browser, live_server_url, screenshot_dir):
    alice = ui.new_page(browser, live_server_url)
    bob = ui.new_page(browser, live_server_url)
    ui.sign_up(alice, "alice")
    bob_name = ui.sign_up(bob, "bob")
    lobby_listening(bob)
    alice.goto("/")
    alice.fill("#challenge_opponent", bob_name.upper())
    alice.click("#challenge-send")
    alice.wait_for_selector(".lobby-news[data-state=open]", state="attached")
    bob.locator("[id^=decline-]").click()
    assert "Challenge declined." in bob.inner_text("main")
    alice.wait_for_selector("#lobby-challenge-news[data-news=declined]")
    assert f"{bob_name} declined your challenge." in alice.inner_text("#lobby-challenge-news")
    alice.locator("[id^=withdraw-]").wait_for(state="detached")
    ui.shoot(alice, screenshot_dir, "challenge-declined-1280")
    # Nothing was started.
    assert bob.locator("#my-matches-heading ~ .match-list").count() == 0


def test_an_invite_link_is_copied_with_one_click(browser, live_server_url):
    host = ui.new_page(browser, live_server_url)
    host.context.grant_permissions(["clipboard-read", "clipboard-write"])
    ui.sign_up(host, "host")
    _match_id, invite = ui.create_match(host)
    button = host.locator("[data-copy]").first
    button.click()
    # The clipboard answers after the click returns: the label changes when it has.
    host.wait_for_function("b => b.textContent === 'Copied'", arg=button.element_handle(), timeout=5000)
    assert host.evaluate("navigator.clipboard.readText()") == invite
