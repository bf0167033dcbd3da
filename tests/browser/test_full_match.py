"""A whole match in real browsers, through the pages only: two people sign up, one creates a match,
the other joins by its invite link, and they play it to the end while a third person watches.
On the way one player reloads the page and the other drops off the network for a few seconds.
"""
import time

import pytest

from . import ui

ui.skip_without_a_browser()

# Round 1 teams, in the order their cards are clicked. No species in both, so anything the other
# side may not know can be looked for on each page.
HOST_TEAM = ["hammerhead_shark", "sea_wolf", "great_white_shark", "archerfish"]
GUEST_TEAM = ["electric_eel", "octopus", "sea_turtle", "mimic_fish"]
GUEST_MIMIC = "clownfish"
# Neither team has it, so the host's assertion is sure to fail.
WRONG_GUESS = "pufferfish"
NAMES = {
    "hammerhead_shark": "Hammerhead Shark",
    "sea_wolf": "Sea Wolf",
    "great_white_shark": "Great White Shark",
    "archerfish": "Archerfish",
    "electric_eel": "Electric Eel",
    "octopus": "Octopus",
    "sea_turtle": "Sea Turtle",
    "mimic_fish": "Mimic Fish",
    "clownfish": "Clownfish",
}
MAX_STEPS = 3 * 2 * 64 + 6


def live_parts(page):
    return "".join(page.inner_html(part).lower() for part in ("#match-board", "#match-status", "#match-log"))


def assert_hidden(page, species):
    """None of ``species`` (ids, which name the drawings, or names) in what the page shows."""
    text = live_parts(page)
    found = [s for s in species if s in text or NAMES[s].lower() in text]
    assert not found, found


def next_mover(players, last_mover, version):
    """The page whose controls ask for a move at ``version``: after an assertion the same player
    acts again, so its page is asked first, and the other page is only waited for when needed."""
    for page in sorted(players, key=lambda page: page is not last_mover):
        ui.wait_version(page, version)
        if page.get_attribute("#match-status", "data-status") == "finished":
            return None
        if page.locator("#match-controls form").count():
            return page
    raise AssertionError(f"nobody may move at version {version}")


def test_it_plays_a_whole_match_in_three_browsers(browser, live_server_url, screenshot_dir, subtests):
    host = ui.new_page(browser, live_server_url, width=1280)
    guest = ui.new_page(browser, live_server_url, width=360, height=780)
    watcher = ui.new_page(browser, live_server_url, width=1280)
    ui.sign_up(host, "host")
    guest_name = ui.sign_up(guest, "guest")
    match_id, invite = ui.create_match(host)
    ui.join_by_invite(guest, invite, match_id)
    host.goto(f"/match/{match_id}/")
    ui.wait_live(host)
    watcher.goto("/")
    watcher.click(f"#watch-{match_id}")
    ui.wait_live(watcher)
    host.wait_for_selector("text=1 spectator watching")

    # Round 1, picked by hand: the cards go into the team list in the order clicked, and the
    # arrows reorder it; the Mimic's copy select appears only once the Mimic is in the team.
    assert not host.locator(".mimic-choice").is_visible()
    ui.choose(host, [HOST_TEAM[0], HOST_TEAM[1], HOST_TEAM[3], HOST_TEAM[2]])
    host.click(".pick-slot:nth-child(4) button[aria-label^='Move up']")
    assert host.locator(".pick-slot__name").all_inner_texts() == [NAMES[s] for s in HOST_TEAM]
    ui.shoot(host, screenshot_dir, "match-pick-1280")
    host.click(".pick-form button[type=submit]")
    host.wait_for_selector("text=Your team is locked in")

    guest.keyboard.press("Tab")
    for species in GUEST_TEAM:
        guest.focus(f"input[value={species}]")
        guest.keyboard.press("Enter" if species != "octopus" else "Space")
    assert guest.locator(".mimic-choice").is_visible()
    assert guest.is_disabled(".pick-form button[type=submit]")
    guest.select_option(".mimic-choice select", GUEST_MIMIC)
    ui.shoot(guest, screenshot_dir, "match-pick-360")
    guest.click(".pick-form button[type=submit]")

    for page in (host, guest, watcher):
        ui.wait_version(page, 2)
    own_names = host.locator(".team--own .fish-name").all_inner_texts()
    assert [name.split(maxsplit=1)[1] for name in own_names] == [NAMES[s] for s in HOST_TEAM]
    assert_hidden(host, GUEST_TEAM + [GUEST_MIMIC])
    assert_hidden(guest, HOST_TEAM)
    assert_hidden(watcher, HOST_TEAM + GUEST_TEAM + [GUEST_MIMIC])
    assert watcher.locator(".fish-hidden").count() == 8

    players = (host, guest)
    version = 2
    last_mover = host
    reloaded = went_offline = asserted = shot = round_shot = False
    for _ in range(MAX_STEPS):
        mover = next_mover(players, last_mover, version)
        if mover is None:
            break
        if not round_shot and version > 2 and mover.locator(".pick-form").count():
            # Between rounds the board is empty and a banner says who took the round.
            assert "Round 1 goes to" in mover.inner_text(".banner")
            ui.shoot(mover, screenshot_dir, "match-round-over")
            round_shot = True
        if mover is host and not asserted and host.locator(".assert-form").count():
            # One real assertion, through its form: sure to be wrong, so every host fish loses 50.
            host.select_option(".assert-form select[name=fish]", WRONG_GUESS)
            host.click(".assert-form button[type=submit]")
            host.wait_for_selector(".log-entry--assert")
            host.wait_for_selector(".team--own .mark--damage")
            ui.shoot(host, screenshot_dir, "match-assertion-1280")
            asserted = True
        elif mover is guest and version >= 8 and not went_offline and guest.locator(".skip-form").count():
            # The host drops off the network while the guest plays a whole turn; once back, the
            # socket reconnects by itself and the host's page catches up without a reload.
            host.context.set_offline(True)
            host.wait_for_selector("#match-connection[data-state=closed]")
            guest.click(".skip-form button")
            ui.wait_version(guest, version + 1)
            ui.act(guest, ui.best_move(guest))
            ui.wait_version(guest, version + 2)
            time.sleep(2)
            assert ui.version(host) == version
            host.context.set_offline(False)
            ui.wait_version(host, version + 2)
            ui.wait_live(host)
            version += 1
            went_offline = True
        else:
            assert ui.play_one_step(mover)
        version += 1
        last_mover = mover
        if version >= 12 and not reloaded:
            ui.wait_version(guest, version)
            log = guest.inner_text("#match-log")
            guest.reload()
            ui.wait_live(guest)
            ui.wait_version(guest, version)
            assert guest.inner_text("#match-log") == log
            ui.shoot(guest, screenshot_dir, "match-after-reload-360")
            reloaded = True
        if version >= 16 and not shot:
            ui.wait_version(watcher, version)
            ui.shoot(host, screenshot_dir, "match-live-1280")
            ui.shoot(watcher, screenshot_dir, "match-spectator-1280")
            shot = True
    else:
        pytest.fail("the match did not end")
    assert asserted and reloaded and went_offline and round_shot

    for page in (host, guest, watcher):
        ui.wait_version(page, version)
    results = {page: page.inner_text(".banner") for page in (host, guest, watcher)}
    assert ("You won the match!" in results[host]) != ("You won the match!" in results[guest])
    assert "You lost the match." in results[host] + results[guest]
    assert "won the match." in results[watcher]
    # Over: every fish on the board is shown, to everyone.
    assert watcher.locator(".fish-hidden").count() == 0
    for page, name in ((host, "host"), (guest, "guest"), (watcher, "spectator")):
        ui.shoot(page, screenshot_dir, f"match-over-{name}")

    with subtests.test("history"):
        response = host.goto("/history/")
        assert response.ok, response.status
        assert host.locator(f"a[href*='/match/{match_id}/']").count()
        ui.shoot(host, screenshot_dir, "history")
    with subtests.test("replay"):
        response = guest.goto(f"/match/{match_id}/replay/")
        assert response.ok and guest_name in guest.content(), response.status
        ui.shoot(guest, screenshot_dir, "replay-360")
