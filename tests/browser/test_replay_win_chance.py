"""The replay's win-chance bar moves with the steps (static/game/replay.js), on a finished match of
each game, in English and in Chinese: its value and its text ("host 64 %") are the chance the workers
stored for the step's command (game/programs/winchances.py), ending at the result."""
import pytest

from game.history import imports
from game.programs import winchances

from ..history.helpers import finish
from ..replay_data import long_miracle_record
from . import ui

ui.skip_without_a_browser()

HOST_TEXT = {"en-US": "host {} %", "zh-CN": "房主 {} %"}
GUEST_TEXT = {"en-US": "guest {} %", "zh-CN": "客方 {} %"}


@pytest.fixture
def estimating(settings):
    settings.WIN_CHANCES = True


@pytest.fixture
def aquawar_match(host, guest, transactional_db, estimating):
    # Made and estimated before the browser starts: the test itself makes no database calls.
    match = finish(host, guest, seed=7)
    winchances.estimate(match.pk)
    return match


@pytest.fixture
def miracle_match(host, transactional_db, estimating):
    match = imports.import_record(long_miracle_record(seed=3), host)
    winchances.estimate(match.pk)
    return match


def shown(page):
    """(the bar's value, its host text, its guest text)."""
    value = page.eval_on_selector("#replay-win-chance-bar", "bar => bar.value")
    return (int(value), page.inner_text("#replay-win-chance .win-chance-host"),
            page.inner_text("#replay-win-chance .win-chance-guest"))


def step_through(page, locale, winner, steps=40):
    """The first ``steps`` steps, checking the bar against its own text, then the last; returns the
    values seen."""
    values = []
    for _ in range(steps):
        value, host, guest = shown(page)
        assert host == HOST_TEXT[locale].format(value) and guest == GUEST_TEXT[locale].format(100 - value)
        values.append(value)
        page.keyboard.press("ArrowRight")
    page.keyboard.press("End")
    values.append(shown(page)[0])
    assert values[-1] == (100 if winner == 0 else 0)
    return values


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_aquawar_replays_bar_moves_with_the_steps(aquawar_match, locale, browser, live_server_url, screenshot_dir):
    page = ui.new_page(browser, live_server_url, locale=locale)
    page.goto(f"/match/{aquawar_match.pk}/replay/?as=all")
    page.wait_for_selector("#replay:not([hidden]) .replay-team")
    values = step_through(page, locale, aquawar_match.winner)
    # It moved with the match, and stands where it stood when stepped back to.
    assert len(set(values)) > 3
    page.keyboard.press("Home")
    assert shown(page)[0] == values[0]
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Shift+ArrowRight")
    ui.shoot(page, screenshot_dir, f"replay-win-chance-aquawar-{locale}")


def test_the_miracle_replays_bar_moves_with_the_steps(miracle_match, browser, live_server_url, screenshot_dir):
    page = ui.new_page(browser, live_server_url, locale="zh-CN")
    page.goto(f"/match/{miracle_match.pk}/replay/?as=all")
    page.wait_for_selector("#replay:not([hidden]) .hexmap")
    start = shown(page)[0]
    page.keyboard.press("End")
    assert shown(page)[0] == (100 if miracle_match.winner == 0 else 0)
    page.keyboard.press("Home")
    assert shown(page)[0] == start
    seen = {start}
    for _ in range(60):
        page.click('[data-go="next-turn"]')
        value, host, _guest = shown(page)
        assert host == HOST_TEXT["zh-CN"].format(value)
        seen.add(value)
    assert len(seen) > 3
    ui.shoot(page, screenshot_dir, "replay-win-chance-miracle-zh")
