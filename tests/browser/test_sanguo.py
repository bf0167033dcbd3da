"""A 三国 game in real browsers: a game master and three players (standard mode) through one night
and one day. The GM hosts it from /sanguo/, the three sign up on its page, the GM deals the seats and
starts; each player submits a night action from their page; the GM closes the night, resolves its
decisions with the engine's defaults, sends one ID a private feedback and announces; the players
vote; the GM closes the day and night 2 opens. The players' pages follow the phases over their
socket without being reloaded; one player reads it on a phone. Screenshots in SCREENSHOT_DIR.
"""
import re

from . import ui

ui.skip_without_a_browser()

FEEDBACK = "Your scouts saw smoke to the east"
ANNOUNCEMENT = "The night was loud in the capital"


def phase(page):
    return page.get_attribute("#sanguo-status", "data-phase")


def gm_settles(gm):
    """The GM resolves every pending decision with the engine's default answer."""
    while gm.locator("#sanguo-console form.decision").count():
        key = gm.get_attribute("#sanguo-console form.decision", "data-decision")
        gm.click("#sanguo-console form.decision button")
        gm.wait_for_function(
            "k => !document.querySelector(`#sanguo-console form.decision[data-decision='${k}']`)", arg=key)


def gm_closes(gm, until):
    """The GM closes phases now (with a reason) and settles what they ask, until ``until`` runs."""
    for _ in range(12):
        gm_settles(gm)
        if phase(gm) == until:
            return
        gm.fill("[data-gm-advance] input[name=reason]", "the table is ready")
        gm.click("[data-gm-advance] button")
        gm.wait_for_load_state()
    gm_settles(gm)
    assert phase(gm) == until, phase(gm)


def submit(page, kinds):
    """Submit the first of the player's forms of one of ``kinds``, with its first target or choice."""
    form = page.locator(",".join(f"#sanguo-player form[data-sanguo-form={k}]" for k in kinds)).first
    for select in form.locator("select").all():
        select.select_option(index=1)
    boxes = form.locator("input[type=checkbox]")
    if boxes.count():
        boxes.first.check()
    with page.expect_navigation():
        form.locator("button").first.click()
    assert page.locator("#sanguo-log li:has-text('You submitted')").count()


def test_a_gm_and_three_players_play_one_night_and_one_day(browser, live_server_url, screenshot_dir):
    gm = ui.new_page(browser, live_server_url)
    ui.sign_up(gm, "gm")
    gm.goto("/sanguo/")
    gm.fill("[data-sanguo-create] input[name=title]", "Red Cliffs")
    gm.select_option("[data-sanguo-create] select[name=mode]", "standard")
    gm.click("[data-sanguo-create] button[type=submit]")
    gm.wait_for_url(re.compile(r".*/sanguo/\d+/$"))
    url = gm.url
    players = []
    for index in range(3):
        phone = index == 2
        page = ui.new_page(browser, live_server_url, **({"width": 360, "height": 740, "touch": True} if phone else {}))
        ui.sign_up(page, f"p{index}")
        page.goto(url)
        page.click("#sanguo-recruiting button[value=sign_up]")
        page.wait_for_selector("#sanguo-recruiting button[value=leave]")
        players.append(page)
    gm.reload()
    # The characters' data forms open, so the audit and the screenshot cover them.
    gm.click("[data-character-forms] summary")
    ui.shoot(gm, screenshot_dir, "sanguo-recruiting-gm")
    gm.click("#sanguo-recruiting button[value=randomise]")
    gm.click("#sanguo-recruiting button[value=start]")
    gm.wait_for_selector("#sanguo-console")
    assert phase(gm) == "night_action"
    for page in players:
        page.reload()
        assert phase(page) == "night_action"
        submit(page, ("assassinate", "identify"))
        page.wait_for_selector("#sanguo-game[data-connection=open]")
    ui.shoot(players[0], screenshot_dir, "sanguo-night-player")
    ui.shoot(players[2], screenshot_dir, "sanguo-night-player-phone")
    assert players[2].evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    ui.shoot(gm, screenshot_dir, "sanguo-night-gm")
    gm.reload()
    assert gm.locator("#sanguo-console [data-queue]").count() >= 3

    gm_closes(gm, "night_feedback")
    gm.fill("[data-gm-feedback] textarea[name=text]", FEEDBACK)
    # An ID a player holds (one with a country): an unjoined 在野 is the server's, and nobody reads it.
    held = gm.evaluate("""() => [...document.querySelectorAll('#sanguo-characters tbody tr')]
        .find((row) => row.cells[1].textContent.trim()).cells[3].textContent.trim()""")
    gm.select_option("[data-gm-feedback] select[name=id]", held)
    gm.click("[data-gm-feedback] button")
    gm.wait_for_load_state()
    gm.fill("[data-gm-announce] textarea[name=text]", ANNOUNCEMENT)
    gm.click("[data-gm-announce] button")
    gm.wait_for_load_state()
    gm_closes(gm, "day_vote")
    for page in players:
        # Followed over the socket: no reload since the night.
        page.wait_for_selector("#sanguo-status[data-phase=day_vote]")
        page.wait_for_selector(f"#sanguo-announcements:has-text('{ANNOUNCEMENT}')")
    told = [page for page in players if page.locator(f"#sanguo-player:has-text('{FEEDBACK}')").count()]
    assert len(told) == 1
    for page in players:
        if page.locator("#sanguo-player form[data-sanguo-form=vote]").count():
            submit(page, ("vote",))
    ui.shoot(players[1], screenshot_dir, "sanguo-day-player")
    gm_closes(gm, "night_action")
    assert gm.locator("#sanguo-status h2").inner_text().startswith("Night 2")
    for page in players:
        page.wait_for_selector("#sanguo-status[data-phase=night_action]")
        assert "Night 2" in page.locator("#sanguo-status h2").inner_text()
    ui.shoot(players[2], screenshot_dir, "sanguo-night-2-phone")
    gm.goto(url + "replay/?as=gm")
    assert gm.locator("[data-step]").count() == 1
