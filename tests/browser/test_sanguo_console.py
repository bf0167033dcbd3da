"""The 天庭 console in Chromium, its night being resolved: the queue, the decisions as forms, the
ledger, a feedback previewed then sent, the override's rows added and removed by the console's
script, a decision answered with its pre-selected proposal from a second tab while a ruling is half
written in the first, which keeps it and says it is out of date — the page checked by axe-core in
each state (ui.audit), then the console handed to a co-GM who is watching. Screenshots in
SCREENSHOT_DIR."""
import random

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from sanguo import services
from tests.accounts import client_for

from ..sanguo.play import submit_randomly
from ..sanguo.test_console import game_with_skills
from . import ui

ui.skip_without_a_browser()

FEEDBACK = "Smoke rises over the river"
RULING = "The fire spreads to the camp"


@pytest.fixture
def resolving(transactional_db, monkeypatch):
    """(game id, the GM's session cookie): a nine-seat game with skills, its first night's actions
    in and closed by the GM, decisions pending. Made before the browser starts: the test itself
    makes no database calls."""
    row, gm, players = game_with_skills(monkeypatch, "nine", 1)
    submit_randomly(row, players, random.Random(1), share=1)
    services.command(row.pk, gm, "", {"advance": {"reason": "everyone is in"}})
    row.refresh_from_db()
    assert any(d["for"] == "gm" for d in row.state["pending"])
    helper = get_user_model().objects.create_user("helper", password="x")
    return row.pk, client_for(gm).cookies[settings.SESSION_COOKIE_NAME].value, \
        client_for(helper).cookies[settings.SESSION_COOKIE_NAME].value


def test_the_console_resolves_a_night(resolving, browser, live_server_url, screenshot_dir):
    game_id, session, helper_session = resolving
    gm = ui.new_page(browser, live_server_url)
    gm.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server_url}])
    gm.goto(f"/sanguo/{game_id}/")
    gm.wait_for_selector("#sanguo-console form.decision")
    ui.shoot(gm, screenshot_dir, "sanguo-console-resolving")

    gm.fill("[data-gm-feedback] textarea[name=text]", FEEDBACK)
    gm.click("[data-gm-feedback] button[value=preview]")
    gm.wait_for_selector("#console-preview")
    assert FEEDBACK in gm.inner_text("#console-preview")
    ui.shoot(gm, screenshot_dir, "sanguo-console-preview")
    gm.click("[data-gm-feedback] button[value=feedback]")
    gm.wait_for_selector("#sanguo-console")
    assert not gm.locator("#console-preview").count()

    # The script: a row added after the blank ones, numbered after every other; one removed, the
    # rest renumbered on the page.
    effects = gm.locator("[data-gm-override] fieldset[data-rows]").first
    effects.locator("[data-add-row]").click()
    rows = effects.locator(":scope > [data-row]")
    assert rows.count() == 4
    assert rows.nth(3).locator("select").first.get_attribute("name") == "effect_kind_3"
    assert gm.evaluate("document.activeElement.name") == "effect_kind_3"
    rows.nth(0).locator("[data-remove-row]").click()
    assert rows.count() == 3
    assert [rows.nth(n).locator("[data-row-number]").inner_text() for n in range(3)] == ["1", "2", "3"]
    assert rows.nth(2).locator("[data-remove-row]").inner_text() == "Remove effect 3"
    effects.scroll_into_view_if_needed()
    ui.shoot(gm, screenshot_dir, "sanguo-console-override-rows")

    # A ruling half written when the console changes under it (here: the decision answered from the
    # GM's second tab) is kept, and the section says it is out of date until asked for the new one.
    gm.fill("[data-gm-override] input[name=reason]", RULING)
    gm.locator("#sanguo-console h2").first.click()
    key = gm.get_attribute("#sanguo-console form.decision", "data-decision")
    other_tab = gm.context.new_page()
    other_tab.goto(f"/sanguo/{game_id}/")
    other_tab.click(f"#sanguo-console form.decision[data-decision='{key}'] button:not([type=button])")
    other_tab.wait_for_function("k => !document.querySelector(`form.decision[data-decision='${k}']`)", arg=key)
    gm.wait_for_selector("#sanguo-console [data-out-of-date]")
    assert gm.input_value("[data-gm-override] input[name=reason]") == RULING
    assert gm.locator(f"form.decision[data-decision='{key}']").count() == 1
    ui.shoot(gm, screenshot_dir, "sanguo-console-out-of-date")
    gm.click("#sanguo-console [data-out-of-date] button")
    gm.wait_for_function("k => !document.querySelector(`form.decision[data-decision='${k}']`)", arg=key)
    assert not gm.locator("[data-out-of-date]").count()
    assert gm.input_value("[data-gm-override] input[name=reason]") == ""
    ui.audit(gm)

    # Handed over while the co-GM watches: the console comes into their page with its script.
    helper = ui.new_page(browser, live_server_url)
    helper.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": helper_session,
                                 "url": live_server_url}])
    helper.goto(f"/sanguo/{game_id}/")
    assert not helper.locator("#sanguo-console").count()
    gm.fill("[data-gm-share] input[name=username]", "helper")
    gm.click("[data-gm-share] button")
    helper.locator("[data-gm-override] fieldset[data-rows] [data-add-row]").first.click()
    assert helper.locator("[data-gm-override] fieldset[data-rows]").first.locator(":scope > [data-row]").count() == 4
    ui.shoot(helper, screenshot_dir, "sanguo-console-co-gm")
    helper.context.close()
