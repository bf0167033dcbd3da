"""The game master enters the game data by form on a phone (360 px wide), in Chromium: every data
form opened lies within the screen's width and passes the accessibility audit; a new skill with a
judgement in its effect row and its outcome in a row the page's script added, an identification row
and two natural deaths (one in an added row) are saved, and their forms show them again. Saving
without the script is tests/sanguo/test_game_data_rows.py's."""
import re

from . import ui
from .test_sanguo_phone import WIDTH

ui.skip_without_a_browser()

FORMS = ("[data-character-forms]", "[data-identification-form]", "[data-natural-death-form]",
         "[data-durations-form]")


def outside(page):
    """Page-wide overflow, and each of the data forms' controls lying (even partly) beyond the width."""
    return page.evaluate("""(width) => {
        const found = [];
        if (document.documentElement.scrollWidth > width) found.push(`page ${document.documentElement.scrollWidth}`);
        for (const element of document.querySelectorAll(
                '#sanguo-recruiting details input:not([type=hidden]), #sanguo-recruiting details select, #sanguo-recruiting details button')) {
            const box = element.getBoundingClientRect();
            if (box.left < 0 || box.right > width) found.push(`${element.name || element.textContent} ${box.left}-${box.right}`);
        }
        return found;
    }""", WIDTH)


def open_forms(gm):
    for details in FORMS:
        gm.click(f"{details} summary")


def test_the_game_master_enters_the_data_by_form_on_a_phone(browser, live_server_url, screenshot_dir):
    gm = ui.new_page(browser, live_server_url, width=WIDTH, height=740, touch=True)
    ui.sign_up(gm, "gm")
    gm.goto("/sanguo/")
    gm.select_option("[data-sanguo-create] select[name=mode]", "standard")
    gm.click("[data-sanguo-create] button[type=submit]")
    gm.wait_for_url(re.compile(r".*/sanguo/\d+/$"))
    open_forms(gm)
    assert outside(gm) == []
    ui.shoot(gm, screenshot_dir, "sanguo-game-data-phone")

    form = gm.locator('form[data-character="徐庶"]')
    form.locator("input[name=skill_name_new]").fill("走马荐诸葛")
    form.locator("select[name=skill_timing_new]").select_option("结算后")
    form.locator("input[name=skill_targets_new]").fill("1")
    form.locator("select[name=skill_effect_kind_new_0]").select_option("chance")
    form.locator("input[name=skill_effect_id_new_0]").fill("target")
    form.locator("input[name=skill_effect_number_new_0]").fill("1/2")
    # The script's row: the chance's else, which the new skill's one blank row could not hold.
    form.locator("[data-skill=new] [data-add-row]").click()
    assert form.locator("input[name=skill_rows_new]").input_value() == "2"
    form.locator("select[name=skill_effect_kind_new_1]").select_option("kill")
    form.locator("select[name=skill_effect_parent_new_1]").select_option("1:else")
    form.locator("input[name=skill_effect_id_new_1]").fill("target")
    assert outside(gm) == []
    with gm.expect_navigation():
        form.locator("button:not([data-add-row])").last.click()
    open_forms(gm)
    rows = gm.locator("form:has(input[name=do][value=identifications])")
    blank = int(rows.locator("input[name=rows]").input_value()) - 2
    rows.locator(f"select[name=ident_owner_{blank}]").select_option("刘备")
    rows.locator(f"select[name=ident_kind_{blank}]").select_option("评价")
    rows.locator(f"select[name=ident_checks_{blank}]").select_option("仁者")
    with gm.expect_navigation():
        rows.locator("button:not([data-add-row])").click()
    open_forms(gm)
    deaths = gm.locator("form:has(input[name=do][value=natural_deaths])")
    deaths.locator("[data-add-row]").click()
    deaths.locator("select[name=death_name_3]").select_option("曹操")
    deaths.locator("input[name=death_night_3]").fill("9")
    deaths.locator("select[name=death_name_1]").select_option("刘备")
    deaths.locator("input[name=death_night_1]").fill("4")
    with gm.expect_navigation():
        deaths.locator("button:not([data-add-row])").click()

    assert gm.locator(".messages").count() == 0
    form = gm.locator('form[data-character="徐庶"]')
    assert form.locator("input[name=skill_name_0]").input_value() == "走马荐诸葛"
    assert form.locator("select[name=skill_effect_kind_0_0]").input_value() == "chance"
    assert form.locator("input[name=skill_effect_number_0_0]").input_value() == "1/2"
    assert form.locator("select[name=skill_effect_kind_0_1]").input_value() == "kill"
    assert form.locator("select[name=skill_effect_parent_0_1]").input_value() == "1:else"
    # 刘备's rows are together: his 招揽, then the 评价 added.
    shown = gm.evaluate("""() => [...document.querySelectorAll('[data-identification-row]')].map((row) =>
        [...row.querySelectorAll('select')].map((select) => select.value).join(' '))""")
    assert "刘备 评价 仁者" in shown and shown.index("刘备 评价 仁者") == shown.index("刘备 招揽 ") + 1
    deaths = gm.locator("form:has(input[name=do][value=natural_deaths])")
    assert deaths.locator("select[name=death_name_1]").input_value() == "刘备"
    assert deaths.locator("input[name=death_night_1]").input_value() == "4"
    assert deaths.locator("select[name=death_name_2]").input_value() == "曹操"
    assert deaths.locator("input[name=death_night_2]").input_value() == "9"
    open_forms(gm)
    assert outside(gm) == []
    ui.shoot(gm, screenshot_dir, "sanguo-game-data-phone-saved")
