"""A whole match in real browsers, through the pages only: two people sign up, one creates a match,
the other joins by its invite link, and they play it while a third person watches. On the way one
player reloads the page and the other drops off the network for a few seconds. Every move of the
first round is played on the board: the host by keyboard only, the guest by tapping fish and
targets; the rest of the match is played through the services, and the three pages follow it live
to its end and the rematch.
"""
import random
import re
import time

import pytest

from game.models import Match

from ..history.helpers import play
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


def finish_through_the_services(match_id):
    """Random legal commands for both seats until the match ends, through the services as a bot
    would send them; returns the final version."""
    match = Match.objects.select_related("host", "guest").get(pk=match_id)
    return play(match, (match.host, match.guest), random.Random(2)).version


def test_it_plays_a_whole_match_in_three_browsers(browser, live_server_url, screenshot_dir, subtests):
    host = ui.new_page(browser, live_server_url, width=1280)
    guest = ui.new_page(browser, live_server_url, width=360, height=780)
    watcher = ui.new_page(browser, live_server_url, width=1280)
    ui.sign_up(host, "host")
    guest_name = ui.sign_up(guest, "guest")
    match_id, invite = ui.create_match(host)
    ui.join_by_invite(guest, invite, match_id)
    ui.follow_to_match(host, match_id)
    ui.wait_live(host)
    watcher.goto("/")
    watcher.click(f"#watch-{match_id}")
    ui.wait_live(watcher)
    host.wait_for_selector("text=1 spectator watching")
    # A spectator has no turn to be notified of: only the players get that switch.
    assert host.is_visible(".notify-switch") and watcher.locator(".notify-switch").count() == 0

    # Round 1, picked by hand: the cards go into the team list in the order clicked, and the
    # arrows reorder it; the Mimic's copy select appears only once the Mimic is in the team.
    assert not host.locator(".mimic-choice").is_visible()
    # Every card has both skills written out (a 30 s clock leaves no time for twelve toggles), and
    # the greyed-out lock-in button says what is missing.
    assert host.locator(".pick-card__skills:visible").count() == 12
    assert host.locator(".pick-roster details").count() == 0
    ui.choose(host, [HOST_TEAM[0], HOST_TEAM[1], HOST_TEAM[3]])
    assert host.is_disabled(".pick-form button[type=submit]")
    assert host.inner_text(".pick-missing") == "Choose 1 more fish to lock in your team."
    ui.choose(host, [HOST_TEAM[2]])
    assert host.inner_text(".pick-missing") == ""
    host.click(".pick-slot:nth-child(4) button[aria-label^='Move up']")
    assert host.locator(".pick-slot__name").all_inner_texts() == [NAMES[s] for s in HOST_TEAM]
    ui.shoot(host, screenshot_dir, "match-pick-1280")
    # The roster, the team list, the log, the chat and the links all fit one desktop screen.
    ui.assert_one_screen(host)
    host.click(".pick-form button[type=submit]")
    host.wait_for_selector("text=Your team is locked in")

    guest.keyboard.press("Tab")
    for species in GUEST_TEAM:
        guest.focus(f"input[value={species}]")
        guest.keyboard.press("Enter" if species != "octopus" else "Space")
    assert guest.locator(".mimic-choice").is_visible()
    assert guest.is_disabled(".pick-form button[type=submit]")
    assert "species to copy" in guest.inner_text(".pick-missing")
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

    # The tab's title tells the player whose move it is.
    mover, waiter = (host, guest) if host.locator(".skip-form").count() else (guest, host)
    mover.wait_for_function("() => document.title.startsWith('▶ Your turn')")
    assert not waiter.title().startswith("▶")

    players = (host, guest)
    version = 2
    last_mover = host
    reloaded = went_offline = asserted = shot = round_shot = marked = chose = False
    for _ in range(MAX_STEPS):
        if asserted and reloaded and went_offline and round_shot and marked and chose and shot:
            # Everything the board is clicked for has been seen: the rest of the match is played
            # through the services (clicking it took two minutes), and the pages follow it live.
            version = ui.off_playwrights_thread(lambda: finish_through_the_services(match_id))
            break
        mover = next_mover(players, last_mover, version)
        if mover is None:
            break
        was_act = mover.locator(".act-form").count() > 0
        if not round_shot and version > 2 and mover.locator(".pick-form").count():
            # Between rounds the board is empty and a banner says who took the round.
            assert "Round 1 goes to" in mover.inner_text(".banner")
            ui.shoot(mover, screenshot_dir, "match-round-over")
            round_shot = True
        if mover is host and not asserted and host.locator(".assert-form").count():
            # One real assertion, on the board: the hidden enemy, then its species in the grid. Sure
            # to be wrong, so every host fish loses 50.
            assert not host.locator(".assert-form").is_visible()
            # The deduction aid, once opened, stays open: its candidates come first in the grid.
            host.click(".aid-button")
            host.wait_for_selector(".fish-aid:not(:empty)")
            target = int(host.locator(".team:not(.team--own) .fish--choice").first.get_attribute("data-pos"))
            host.click(ui.fish(False, target))
            host.wait_for_selector(".assert-species--likely")
            likely = host.locator(".assert-species--likely").count()
            assert host.locator(f".assert-grid li:nth-child(-n+{likely}) .assert-species--likely").count() == likely
            ui.shoot(host, screenshot_dir, "match-assertion-grid-1280")
            host.click(f".assert-species[data-species={WRONG_GUESS}]")
            host.click(".assert-confirm")
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
        elif mover is guest and not chose and guest.locator(".act-form").count():
            move = ui.best_move(guest)
            guest.click(ui.fish(True, move["actor"]))
            guest.wait_for_selector(".fish-menu")
            assert guest.locator(".team:not(.team--own) .fish--choice").count()
            ui.shoot(guest, screenshot_dir, "match-choose-target-360")
            ui.act(guest, move)
            chose = True
        else:
            # The host plays by keyboard only, the guest (on a phone) by tapping the board.
            assert ui.play_one_step(mover, keys=mover is host)
        version += 1
        last_mover = mover
        if mover is guest and was_act and not marked:
            # The guest's last move stays on the host's board (who acted, and what it did to whom)
            # well past the old 2.4 s float; the log marks what is new since the host's last move.
            ui.wait_version(host, version)
            if host.locator("#match-status[data-status=live]").count():
                assert host.locator(".team:not(.team--own) .fish--acted .mark--act").count() == 1
                host.wait_for_timeout(2600)
                opacities = host.locator(".mark").evaluate_all("marks => marks.map(m => getComputedStyle(m).opacity)")
                assert opacities and set(opacities) == {"1"}, opacities
                assert host.locator(".log-entry--new").count() and host.locator("[data-new-label]").count() == 1
                assert host.locator(".log-entry--turn").count()
                ui.shoot(host, screenshot_dir, "match-last-move-1280")
                marked = True
        if version >= 12 and not reloaded:
            ui.wait_version(guest, version)
            # On the phone the log is folded, its newest line on the fold.
            assert not guest.locator("#match-log").is_visible()
            assert guest.inner_text(".log-latest") in guest.text_content("#match-log")
            guest.click(".match-log-box > summary")
            log = guest.inner_text("#match-log")
            # The guest heard their turns come; one switch mutes the sounds, and stays off.
            assert guest.get_attribute(".match-page", "data-last-sound") == ui.SOUND_TURN
            guest.click(".sound-switch")
            guest.reload()
            ui.wait_live(guest)
            ui.wait_version(guest, version)
            assert guest.get_attribute(".sound-switch", "aria-pressed") == "false"
            guest.click(".match-log-box > summary")
            assert guest.inner_text("#match-log") == log
            ui.shoot(guest, screenshot_dir, "match-after-reload-360")
            reloaded = True
        if version >= 16 and not shot:
            ui.wait_version(watcher, version)
            ui.shoot(host, screenshot_dir, "match-live-1280")
            ui.shoot(watcher, screenshot_dir, "match-spectator-1280")
            ui.assert_one_screen(host)
            ui.assert_one_screen(watcher)
            shot = True
    else:
        pytest.fail("the match did not end")
    assert asserted and reloaded and went_offline and round_shot and marked and chose and shot

    for page in (host, guest, watcher):
        ui.wait_version(page, version)
    results = {page: page.inner_text(".banner") for page in (host, guest, watcher)}
    # Each player reads the score from their own side.
    assert bool(re.search(r"You won the match 2–[01]!", results[host])) != bool(
        re.search(r"You won the match 2–[01]!", results[guest])
    )
    assert re.search(r"You lost the match [01]–2\.", results[host] + results[guest])
    assert "won the match." in results[watcher]
    assert not host.is_visible(".notify-switch")
    # Done here, each player listens for their next match (as in the lobby); the watcher doesn't.
    for page in (host, guest):
        page.wait_for_selector("#match-status .lobby-news[data-state=open]", state="attached")
    assert watcher.locator(".lobby-news").count() == 0
    # Over: every fish on the board is shown, to everyone.
    assert watcher.locator(".fish-hidden").count() == 0
    for page, name in ((host, "host"), (guest, "guest"), (watcher, "spectator")):
        ui.shoot(page, screenshot_dir, f"match-over-{name}")
    # The end sounds for the host; the guest, muted since the reload, heard nothing more.
    assert host.get_attribute(".match-page", "data-last-sound") in ui.SOUNDS_END
    assert guest.get_attribute(".match-page", "data-last-sound") is None

    # A rematch: once accepted, both players' pages go to the new match by themselves.
    host.click(".rematch-form button")
    guest.wait_for_selector("text=Your opponent offers a rematch.")
    guest.click(".rematch-form button >> text=Accept the rematch")
    for page in (host, guest):
        page.wait_for_url(re.compile(r"/match/(?!%d/)\d+/$" % match_id))
        ui.wait_live(page)
    assert host.url == guest.url

    with subtests.test("history"):
        response = host.goto("/history/")
        assert response.ok, response.status
        assert host.locator(f"a[href*='/match/{match_id}/']").count()
        ui.shoot(host, screenshot_dir, "history")
    with subtests.test("replay"):
        response = guest.goto(f"/match/{match_id}/replay/")
        assert response.ok and guest_name in guest.content(), response.status
        ui.shoot(guest, screenshot_dir, "replay-360")
