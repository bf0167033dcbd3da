"""The replay viewer on a phone (360 px), in both games: stepping keeps the board where it is (only
the log box scrolls to the step's line), and the log's numbers are never cut off."""
import random

import pytest

from game import services
from game.games import get
from game.games.miracle import engine as miracle
from game.games.miracle.engine.randomplay import random_command
from game.models import Match

from ..history.helpers import finish
from . import ui

ui.skip_without_a_browser()

PHONE = {"width": 360, "height": 740}


def miracle_match(host, guest, commands=200):
    """A 神迹之战 match of up to ``commands`` random commands, then resigned by the host: a log of
    well over a hundred lines."""
    match = services.join_match(services.create_match(host, game="miracle"), guest)
    users, rng = (host, guest), random.Random(4)
    for _ in range(commands):
        match = Match.objects.get(pk=match.pk)
        state = get("miracle").load(match.state)
        if state.phase == "over":
            return match
        seat = miracle.to_move(state)[0]
        command = random_command(state, seat, rng)
        if "surrender" in command:
            continue
        services.apply_command(match.pk, users[seat], f"c{match.version}", match.version, command)
    services.resign(match, host)
    return Match.objects.get(pk=match.pk)


# What shows on each game's replay once its script has drawn.
DRAWN = {"aquawar": ".replay-team", "miracle": ".hexmap"}


@pytest.fixture(params=DRAWN)
def finished(request, host, guest, transactional_db):
    """A finished match of each game. Made before the browser starts: the test itself makes no
    database calls."""
    if request.param == "aquawar":
        return finish(host, guest, seed=7)
    return miracle_match(host, guest)


LINE_IN_BOX = """() => {
  const log = document.getElementById('replay-log');
  const line = log.querySelector('.replay-entry--current');
  if (!line) return null;
  const box = log.getBoundingClientRect(), at = line.getBoundingClientRect();
  return at.top >= box.top - 1 && at.bottom <= box.bottom + 1;
}"""

# How wide the log's highest number is (three digits at least: a whole match's log runs past 100
# lines) in the widest font of its lines (the bold ones), as the list draws it ("208. ", its
# trailing space included), against the room the list leaves for the numbers.
NUMBER_ROOM = """() => {
  const log = document.getElementById('replay-log');
  const label = Math.max(log.children.length, 999) + '. ';
  let needed = 0;
  for (const line of log.children) {
    const probe = document.createElement('span');
    probe.style.font = getComputedStyle(line).font;
    probe.style.whiteSpace = 'pre';
    probe.style.position = 'absolute';
    probe.textContent = label;
    document.body.append(probe);
    needed = Math.max(needed, probe.getBoundingClientRect().width);
    probe.remove();
  }
  return [needed, parseFloat(getComputedStyle(log).paddingLeft), log.children.length];
}"""


def step_by_turns(page, ready, url):
    page.goto(url)
    page.wait_for_selector(ready)
    lines_seen = 0
    for _ in range(30):
        page.click('[data-go="next-turn"]')
        assert page.evaluate("scrollY") == 0, "a step scrolled the page"
        if page.evaluate(LINE_IN_BOX) is not None:
            assert page.evaluate(LINE_IN_BOX), "the step's log line is out of the log box's view"
            lines_seen += 1
    # The log box itself did scroll to follow the steps, so its lines were checked past its first screen.
    assert page.evaluate("document.getElementById('replay-log').scrollTop") > 0
    assert lines_seen > 10


def assert_numbers_fit(page, screenshot_dir, name):
    page.click('[data-go="last"]')
    page.locator("#replay-log").screenshot(path=str(screenshot_dir / f"{name}.png"))
    needed, room, count = page.evaluate(NUMBER_ROOM)
    assert needed <= room, f"the line numbers need {needed:.1f} px ({count} lines); the list leaves {room:.1f}"


def test_stepping_a_replay_on_a_phone_scrolls_only_the_log(finished, browser, live_server_url, screenshot_dir):
    page = ui.new_page(browser, live_server_url, **PHONE)
    step_by_turns(page, f"#replay:not([hidden]) {DRAWN[finished.game]}", f"/match/{finished.pk}/replay/?as=all")
    ui.shoot(page, screenshot_dir, f"replay-{finished.game}-360-stepped")
    assert_numbers_fit(page, screenshot_dir, f"replay-{finished.game}-360-log-end")
