"""A round robin of two people in real browsers: one creates it from the tournaments page, both
register, the live server's own sweep starts round 1 at the start time, each player waiting on the
tournament's page is taken to their match, the match page links back to the round, and the
tournament's page leads to the match and shows the standings."""
import re
from datetime import datetime, timedelta, timezone

from . import ui

ui.skip_without_a_browser()

# The form takes whole minutes: the first whole minute at least this far ahead leaves time to register.
LEAD = timedelta(seconds=20)
# After the start time: the next sweep of the live server (every 5 s), then the page's poll (5 s).
ROUND_TIMEOUT_MS = 30_000


def start_time():
    """The first whole minute (UTC) at least ``LEAD`` from now."""
    soon = datetime.now(timezone.utc) + LEAD + timedelta(minutes=1)
    return soon.replace(second=0, microsecond=0)


def create_tournament(page, name, starts):
    page.goto("/tournaments/")
    form = page.locator("main form[action='/tournaments/new']")
    form.locator("input[name=name]").fill(name)
    form.locator("select[name=kind]").select_option("round_robin")
    form.locator("input[name=players][value=people]").check()
    form.locator("select[name=move_seconds]").select_option("aquawar:60")
    form.locator("input[name=starts]").fill(starts.strftime("%Y-%m-%dT%H:%M"))
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r".*/tournaments/\d+/$"))
    return page.url


def register(page, url):
    page.goto(url)
    page.click("form[action$='/register'] button")
    page.wait_for_selector(".message--success")


def test_two_people_play_round_one_of_a_round_robin_and_the_match_links_back(browser, live_server_url, screenshot_dir):
    organizer = ui.new_page(browser, live_server_url, width=1280)
    player = ui.new_page(browser, live_server_url, width=360, height=780)
    names = [ui.sign_up(organizer, "organizer"), ui.sign_up(player, "player")]
    starts = start_time()
    url = create_tournament(organizer, "Browser cup", starts)
    for page in (organizer, player):
        register(page, url)
    organizer.reload()
    for page in (organizer, player):
        assert all(name in page.inner_text(".standings") for name in names)
    ui.shoot(organizer, screenshot_dir, "tournament-registration-1280")
    ui.shoot(player, screenshot_dir, "tournament-registration-360")

    # Nothing reaches into the database from here: the live server's sweep starts the round, and
    # each player, waiting on the tournament's page, is taken to their match by its socket.
    seconds_left = (starts - datetime.now(timezone.utc)).total_seconds()
    timeout = int(max(seconds_left, 0) * 1000) + ROUND_TIMEOUT_MS
    for page in (organizer, player):
        page.wait_for_url(re.compile(r".*/match/\d+/$"), timeout=timeout)
        ui.wait_live(page)
        link = page.locator("#match-links a.match-tournament")
        assert link.inner_text() == "Browser cup, round 1"
    match_url = organizer.url
    assert player.url == match_url
    ui.shoot(organizer, screenshot_dir, "tournament-match-1280")
    ui.shoot(player, screenshot_dir, "tournament-match-360")

    # Back on the tournament's page, a button leads to the match still being played.
    for page in (organizer, player):
        page.click("#match-links a.match-tournament")
        page.wait_for_url(url)
        assert "Round 1 of 1" in page.inner_text("#tournament-live")
        assert match_url.endswith(page.get_attribute(".tournament-your-match a", "href"))
    ui.shoot(organizer, screenshot_dir, "tournament-running-1280")
    ui.shoot(player, screenshot_dir, "tournament-running-360")
    standings = player.locator(".standings")
    assert standings.is_visible()
    assert all(name in standings.inner_text() for name in names)
    # On the phone the whole table is in view, the tiebreak's column under its abbreviation.
    assert player.locator(".standings abbr[title='Sonneborn–Berger']").is_visible()
    assert player.evaluate("() => { const wrap = document.querySelector('.table-wrap'); return wrap.scrollWidth <= wrap.clientWidth; }")
    ui.shoot(player, screenshot_dir, "tournament-standings-360")
