"""The replay viewer's controls in a browser, on an Aquawar match (tests/browser/test_miracle.py steps
a 神迹之战 replay): the platform's stepping (static/game/replay.js) under the game's drawing — keys,
buttons, turns, play and pause, and the round menu."""
import re

import pytest

from ..history.helpers import finish
from . import ui

ui.skip_without_a_browser()

STEP = re.compile(r"step (\d+) of (\d+)")


@pytest.fixture
def finished_match(host, guest, transactional_db):
    # Made before the browser starts: the test itself makes no database calls.
    return finish(host, guest, seed=7)


def position(page):
    return page.inner_text("#replay-position")


def step(page):
    return int(STEP.search(position(page)).group(1))


def turn_label(page):
    # "Round 1 · turn 3 · step 9 of 80" → "Round 1 · turn 3"
    return position(page).rsplit(" · ", 1)[0]


def test_it_steps_through_an_aquawar_replay(finished_match, browser, live_server_url, screenshot_dir):
    page = ui.new_page(browser, live_server_url)
    page.goto(f"/match/{finished_match.pk}/replay/?as=all")
    page.wait_for_selector("#replay:not([hidden]) .replay-team")
    start = position(page)
    assert start.startswith("Round 1") and step(page) == 0
    last = int(STEP.search(start).group(2))
    assert last > 10

    page.keyboard.press("ArrowRight")
    assert step(page) == 1 and "Picking teams" in position(page)
    page.click('[data-go="next"]')
    assert step(page) == 2
    page.keyboard.press("ArrowLeft")
    assert step(page) == 1

    # By turn: every step of a turn shares its label, and the next turn starts where the label changes.
    page.keyboard.press("Shift+ArrowRight")
    first_turn, first_turn_step = turn_label(page), step(page)
    assert first_turn != "Round 1 · Picking teams"
    page.click('[data-go="next-turn"]')
    second_turn, second_turn_step = turn_label(page), step(page)
    assert second_turn != first_turn and second_turn_step > first_turn_step
    page.keyboard.press("ArrowLeft")
    assert turn_label(page) == first_turn
    page.keyboard.press("Shift+ArrowLeft")
    assert (turn_label(page), step(page)) == (first_turn, first_turn_step)
    page.click('[data-go="prev-turn"]')
    assert turn_label(page) == "Round 1 · Picking teams"

    page.keyboard.press("End")
    assert step(page) == last
    page.click('[data-go="first"]')
    assert step(page) == 0
    page.click('[data-go="last"]')
    assert step(page) == last
    page.keyboard.press("Home")
    assert step(page) == 0

    # Play moves on by itself; pause stops it, and the button says which it will do.
    play = page.locator('[data-go="play"]')
    play.click()
    assert play.inner_text() == "Pause" and play.get_attribute("aria-pressed") == "true"
    page.wait_for_function("() => !/step 0 of/.test(document.getElementById('replay-position').textContent)")
    play.click()
    assert play.inner_text() == "Play" and play.get_attribute("aria-pressed") == "false"
    paused = step(page)
    page.wait_for_timeout(2000)
    assert step(page) == paused > 0

    # The round menu jumps to a round's first step.
    rounds = page.locator("#replay-round option").all_inner_texts()
    assert len(rounds) >= 2
    page.select_option("#replay-round", rounds[1])
    assert position(page).startswith(f"Round {rounds[1]}")
    page.click('[data-go="prev-turn"]')
    assert position(page).startswith(f"Round {rounds[0]}")
    ui.shoot(page, screenshot_dir, "replay-aquawar-1280")


def test_the_replays_board_marks_what_each_move_did_as_the_live_board_does(finished_match, browser, live_server_url, screenshot_dir):
    """Issue #29: the actor's "Attack"/"Skill", the damage on its target, as on the live board."""
    page = ui.new_page(browser, live_server_url)
    page.goto(f"/match/{finished_match.pk}/replay/?as=all")
    page.wait_for_selector("#replay:not([hidden]) .replay-team")
    assert page.locator(".replay-fish .mark").count() == 0
    last = int(STEP.search(position(page)).group(2))
    # The first attack or skill that hurt a fish (a wrong assertion hurts too, with no actor).
    while not (page.locator(".replay-fish--acted").count() and page.locator(".replay-fish .mark--damage").count()):
        assert step(page) < last, "no move that did damage in the whole replay"
        page.keyboard.press("ArrowRight")
    actor = page.locator(".replay-fish--acted")
    assert actor.count() == 1 and actor.locator(".mark--act").inner_text() in ("Attack", "Skill")
    damage = page.locator(".replay-fish--marked .mark--damage").first.inner_text()
    # The number on the fish is the one the log's current line reads.
    assert damage.startswith("−") and damage[1:] in page.inner_text(".replay-entry--current")
    ui.shoot(page, screenshot_dir, "replay-marks-1280")
    # Stepping back before the first move takes them off again.
    page.keyboard.press("Home")
    assert step(page) == 0 and page.locator(".replay-fish .mark").count() == 0
