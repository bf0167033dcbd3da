"""A player looking elsewhere is told it is their turn (issue #15): a browser notification while the
page is hidden (once they turned notifications on), the turn sound, and a warning sound when their
clock enters its last 10 seconds.

Chromium runs headless here, so the page can neither be hidden nor show a notification: the test
stands in for both with an init script (``document.hidden`` and a ``Notification`` that records
what it is asked to show), and moves the page's clock on with Playwright's clock instead of waiting.
"""
from . import ui

ui.skip_without_a_browser()

STAND_INS = """
window.shownNotifications = [];
window.Notification = function (title, options) {
  window.shownNotifications.push({ title: title, body: options && options.body });
  this.close = function () {};
};
window.Notification.permission = "granted";
window.Notification.requestPermission = function () { return Promise.resolve("granted"); };
Object.defineProperty(document, "hidden", { get: function () { return window.pageHidden === true; } });
"""
SOUND_URGENT = "988 988 988"


def test_a_hidden_page_is_notified_of_its_turn_and_warned_of_its_last_seconds(browser, live_server_url):
    host = ui.new_page(browser, live_server_url, width=1280)
    guest = ui.new_page(browser, live_server_url, width=1280)
    host.context.add_init_script(STAND_INS)
    host.clock.install()
    ui.sign_up(host, "host")
    ui.sign_up(guest, "guest")
    match_id, invite = ui.create_match(host, move_seconds=30)
    ui.join_by_invite(guest, invite, match_id)
    ui.follow_to_match(host, match_id)
    ui.wait_live(host)

    host.click(".notify-switch")
    host.wait_for_selector(".notify-switch[aria-pressed=true]")
    ui.pick_any(host)
    host.wait_for_selector("text=Your team is locked in")
    # The host looks elsewhere from now on; nothing was shown while the page was in view.
    host.evaluate("window.pageHidden = true")
    assert host.evaluate("window.shownNotifications") == []
    guest.wait_for_selector(".pick-form")
    ui.wait_version(guest, 1)  # the host's pick redrawn first: a redraw mid-click would swallow it
    ui.pick_any(guest)
    # The guest plays until the host's turn comes (at once if the host moves first).
    ui.wait_version(host, 2)
    for _ in range(10):
        if host.locator("#match-status[data-your-move=true]").count():
            break
        guest.wait_for_selector(".skip-form, .act-form", state="attached")
        version = ui.version(guest)
        assert ui.play_one_step(guest)
        ui.wait_version(host, version + 1)
    host.wait_for_function("() => window.shownNotifications.length > 0")
    notes = host.evaluate("window.shownNotifications")
    assert [note["title"] for note in notes] == ["Your turn"], notes
    assert host.get_attribute(".match-page", "data-last-sound") == ui.SOUND_TURN
    assert host.title().startswith("▶ Your turn")

    # 21 of the 30 seconds pass on the page: its clock is in its last 10, and it says so aloud once.
    host.clock.fast_forward(21_000)
    host.wait_for_selector("#match-controls .clock--urgent")
    host.wait_for_function(
        "sound => document.querySelector('.match-page').dataset.lastSound === sound", arg=SOUND_URGENT
    )
