"""The tutorials (issue #29, docs/tutorial.md), run as a newcomer runs them: from the lobby to the
game's how-to page, then clicking whatever the tutorial rings on the board, step by step, to its
end; one click off the script changes nothing, and "Start the tutorial again" starts afresh."""
from playwright.sync_api import Error, TimeoutError

from . import ui

ui.skip_without_a_browser()

RING = ".tutorial-target"


def step(page):
    return page.get_attribute("#match-tutorial", "data-step")


# The element the tutorial rings, marked as clicked in the same breath (the ring may move between
# two separate calls); or the step, once it is the one awaited or the bot's turn.
RINGED = """until => {
  const step = document.querySelector('#match-tutorial').dataset.step;
  if (step === until || step === 'wait') return step;
  const ring = document.querySelector('.tutorial-target');
  if (ring) ring.dataset.clicked = '1';
  return ring;
}"""


def follow(page, until, log, wait_ms=20_000):
    """Click the ringed element until the tutorial's step is ``until``; ``log``: the steps seen."""
    while (now := step(page)) != until:
        if not log or log[-1] != now:
            log.append(now)
        if now == "wait":
            page.wait_for_function("() => document.querySelector('#match-tutorial').dataset.step !== 'wait'", timeout=wait_ms)
            continue
        try:
            ring = page.wait_for_function(RINGED, arg=until, timeout=wait_ms).as_element()
        except TimeoutError:
            panel = page.eval_on_selector("#match-tutorial", "e => [e.dataset.step, e.dataset.targets, e.innerText]")
            raise AssertionError(f"nothing ringed for {wait_ms} ms; steps so far {log}; the panel: {panel}") from None
        if ring is None:
            continue
        try:
            if ring.evaluate("e => e instanceof SVGElement"):
                # A cell of the map, where a person clicks its middle, whatever is drawn over it.
                ring.scroll_into_view_if_needed()
                box = ring.bounding_box()
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            else:
                ring.click()
        except Error as error:
            # Redrawn by a message that came meanwhile: the ring is looked for again.
            if "not attached" not in error.message:
                raise
            continue
        # The ring moves on to the next target, or the page is redrawn by the move it made.
        page.wait_for_function("() => !document.querySelector('.tutorial-target[data-clicked]')", timeout=wait_ms)
    return log


def start(page, game):
    page.goto("/")
    page.click(".lobby-tutorial")
    page.goto(f"/games/{game}/how-to-play/")
    page.click("#tutorial button[type=submit]")
    page.wait_for_url("**/match/*/")
    ui.wait_live(page)
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def test_aquawar_tutorial_to_its_end(browser, live_server_url, screenshot_dir):
    page = ui.new_page(browser, live_server_url, width=1280)
    ui.sign_up(page, "newcomer")
    first = start(page, "aquawar")
    assert step(page) == "pick"
    assert page.inner_text(".tutorial__hint") == "Click the Archerfish."
    ui.shoot(page, screenshot_dir, "tutorial-aquawar-pick")
    # Starting again ends this match without a result and opens a new one at the first step.
    page.click(".tutorial__ways button:has-text('Start the tutorial again')")
    page.wait_for_url(lambda url: f"/match/{first}/" not in url)
    ui.wait_live(page)
    assert step(page) == "pick"
    log = follow(page, "attack", [])
    # A click off the script (an enemy, before choosing the fish that attacks) leaves the ring where it was.
    ringed = page.locator(RING).evaluate("e => e.closest('.fish').dataset.pos + (e.closest('.team--own') ? 'own' : 'enemy')")
    page.click(ui.fish(False, 2))
    assert page.locator(RING).evaluate("e => e.closest('.fish').dataset.pos + (e.closest('.team--own') ? 'own' : 'enemy')") == ringed == "0own"
    ui.shoot(page, screenshot_dir, "tutorial-aquawar-attack")
    follow(page, "play", log)
    # The bot's moves may come before the page is looked at: its "wait" steps are not counted.
    assert [key for key in log if key != "wait"] == ["pick", "skip", "attack", "assert", "skill"], log
    assert "step 6 of 6" in page.inner_text("#match-tutorial")
    assert page.inner_text(".match-rated") == "Casual"
    ui.shoot(page, screenshot_dir, "tutorial-aquawar-done")
    # The lessons are over: on to a real match (the tutorial's match may be played on meanwhile).
    page.click("#match-tutorial a:has-text('Play a real match')")
    page.wait_for_url(f"{live_server_url}/")


def test_miracle_tutorial_to_its_end(browser, live_server_url, screenshot_dir):
    page = ui.new_page(browser, live_server_url, width=1280, locale="zh-CN")
    ui.sign_up(page, "newcomer")
    start(page, "miracle")
    assert step(page) == "deck"
    assert "教程" in page.inner_text("#match-tutorial")
    log = follow(page, "summon", [])
    ui.shoot(page, screenshot_dir, "tutorial-miracle-summon-zh")
    follow(page, "move", log)
    ui.shoot(page, screenshot_dir, "tutorial-miracle-move-zh")
    follow(page, "attack", log)
    ui.shoot(page, screenshot_dir, "tutorial-miracle-attack-zh")
    follow(page, "play", log, wait_ms=40_000)
    steps = [key for i, key in enumerate(log) if key != "wait" and (i == 0 or log[i - 1] != key)]
    assert steps[:3] == ["deck", "summon", "end"] and steps[-1] == "attack", log
    assert set(steps) == {"deck", "summon", "end", "move", "attack"}, log
    # Leaving ends the match without a result and leads back to the rules.
    page.click(".tutorial__ways button:has-text('离开教程')")
    page.wait_for_url("**/games/miracle/how-to-play/")
    ui.shoot(page, screenshot_dir, "tutorial-miracle-left-zh")


def test_the_miracle_how_to_pictures_render(browser, live_server_url, screenshot_dir):
    page = ui.new_page(browser, live_server_url, width=1280)
    page.goto("/games/miracle/how-to-play/")
    for figure, least_cells in (("map", 277), ("token", 1), ("move", 10), ("attack", 4)):
        svg = page.locator(f"#figure-{figure} svg").first
        box = svg.bounding_box()
        assert box["width"] > 100 and box["height"] > 50, (figure, box)
        assert page.locator(f"#figure-{figure} .hex").count() >= least_cells
        svg.scroll_into_view_if_needed()
        page.locator(f"#figure-{figure}").screenshot(path=str(screenshot_dir / f"how-to-miracle-{figure}.png"))
    # The drawings are the board's: the board's symbols, tinted by side, and its marks.
    assert page.locator("#figure-map .spawn--a").count() == 5 and page.locator("#figure-map .garrison").count() == 4
    assert page.locator("#figure-move .hex--stop").count() >= 2
    assert page.locator("#figure-attack .hex--target").count() == 1
    ring = page.locator("#figure-token .token--ready .token-frame").evaluate("e => getComputedStyle(e).stroke")
    assert ring != "none"
    phone = ui.new_page(browser, live_server_url, width=360, height=780, locale="zh-CN")
    phone.goto("/games/miracle/how-to-play/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.locator("#figure-move").screenshot(path=str(screenshot_dir / "how-to-miracle-move-zh-360.png"))
