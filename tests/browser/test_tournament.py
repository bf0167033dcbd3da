"""A round robin of two people in real browsers: one creates it from the tournaments page, both
register, the live server's own sweep starts round 1 at the start time, each player waiting on the
tournament's page is taken to their match, the match page links back to the round, and the
tournament's page leads to the match and shows the standings."""
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from django.db import connections

from tournaments.models import Tournament

from . import ui

ui.skip_without_a_browser()

# The form takes whole minutes: the first whole minute at least this far ahead leaves time to register.
LEAD = timedelta(seconds=20)
# The start the test moves the tournament to once both are registered.
SOON = timedelta(seconds=3)
# After the start time: the next sweep of the live server (every 5 s), then the page's poll (5 s).
ROUND_TIMEOUT_MS = 30_000


def start_time():
    """The first whole minute (UTC) at least ``LEAD`` from now."""
    soon = datetime.now(timezone.utc) + LEAD + timedelta(minutes=1)
    return soon.replace(second=0, microsecond=0)


def create_tournament(page, name, starts):
    """Created with the form's defaults otherwise: the organiser plays in it ("I play in it too")."""
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


def bring_forward(tournament, starts):
    Tournament.objects.filter(pk=tournament).update(starts=starts)
    connections.close_all()


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
    # The organiser was registered with the creation; the other player registers.
    assert "you are registered" in organizer.inner_text(".message--success")
    register(player, url)
    organizer.reload()
    for page in (organizer, player):
        assert all(name in page.inner_text(".standings") for name in names)
    ui.shoot(organizer, screenshot_dir, "tournament-registration-1280")
    ui.shoot(player, screenshot_dir, "tournament-registration-360")

    # The form takes whole minutes; rather than wait for one, the start is brought forward to a few
    # seconds from now. Nothing reaches into the database after this: the live server's sweep starts
    # the round, and each player, waiting on the tournament's page, is taken to their match by its socket.
    starts = datetime.now(timezone.utc) + SOON
    tournament = int(url.rstrip("/").rsplit("/", 1)[1])
    with ThreadPoolExecutor(1) as thread:  # Playwright's event loop runs in this one: Django refuses it
        thread.submit(bring_forward, tournament, starts).result()
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


def test_a_start_is_entered_and_shown_on_the_viewers_own_clock_with_a_countdown(browser, live_server_url, screenshot_dir):
    """Issue #29: an organiser in Shanghai types 20:00 of their day; a viewer in New York reads the
    same instant on their own clock, counted down to."""
    context = browser.new_context(base_url=live_server_url, timezone_id="Asia/Shanghai", locale="en-US")
    context.set_default_timeout(ui.TIMEOUT_MS)
    context.on("console", ui.report_csp_violations)
    organizer = context.new_page()
    ui.sign_up(organizer, "organizer")
    organizer.goto("/tournaments/")
    form = organizer.locator("main form[action='/tournaments/new']")
    assert form.locator("input[name=time_zone]").input_value() == "Asia/Shanghai"
    assert form.locator("[data-time-zone]").inner_text() == "Asia/Shanghai"
    # The form's proposed start (an hour from now) is shown on the organiser's clock, not in UTC.
    proposed = datetime.strptime(form.locator("input[name=starts]").input_value(), "%Y-%m-%dT%H:%M")
    shanghai_now = datetime.now(ZoneInfo("Asia/Shanghai")).replace(tzinfo=None)
    assert timedelta(minutes=50) < proposed - shanghai_now < timedelta(minutes=70)
    day = (shanghai_now + timedelta(days=2)).date()
    form.locator("input[name=name]").fill("Zone cup")
    form.locator("input[name=starts]").fill(f"{day.isoformat()}T20:00")
    form.locator("button[type=submit]").click()
    organizer.wait_for_url(re.compile(r".*/tournaments/\d+/$"))
    starts = organizer.get_attribute("dd time[data-local]", "datetime")
    # 20:00 in Shanghai (UTC+8, no summer time) is 12:00 UTC.
    assert datetime.fromisoformat(starts) == datetime(day.year, day.month, day.day, 12, tzinfo=timezone.utc)
    assert "8:00" in organizer.inner_text("dd time[data-local]")
    # Counted in the largest unit there are two of: hours when less than two days are left.
    left = datetime.fromisoformat(starts) - datetime.now(timezone.utc)
    counted = re.fullmatch(r"in (\d+) (hours|days)", organizer.inner_text("[data-countdown]"))
    unit = 86400 if left >= timedelta(days=2) else 3600
    assert counted and abs(int(counted.group(1)) - left.total_seconds() // unit) <= 1, counted
    ui.shoot(organizer, screenshot_dir, "tournament-time-zone-shanghai-1280")
    viewer_context = browser.new_context(base_url=live_server_url, timezone_id="America/New_York", locale="en-US")
    viewer = viewer_context.new_page()
    viewer.goto(organizer.url.removeprefix(live_server_url))
    new_york = datetime.fromisoformat(starts).astimezone(ZoneInfo("America/New_York"))
    shown = viewer.inner_text("dd time[data-local]")
    assert f"{new_york.hour % 12 or 12}:00" in shown and ("EST" in shown or "EDT" in shown), shown
    assert viewer.locator("tr", has_text="Zone cup").count() == 0  # (the detail page: no list)
    viewer.goto("/tournaments/")
    assert viewer.inner_text("tr:has-text('Zone cup') time[data-local]") == shown
