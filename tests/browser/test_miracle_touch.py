"""神迹之战 on a touch phone: the lobby's vs-computer form offers only the chosen game's time controls,
and on the live board a pinch zooms the map and a one-finger drag pans it (static/miracle/js/board.js,
driven by real touch input through Chromium's DevTools protocol), the page never scrolling sideways.
"""
from . import test_miracle, ui

ui.skip_without_a_browser()

FORM = "main form[action='/match/computer']"


def choosable(page):
    return page.eval_on_selector(
        f"{FORM} select[name=move_seconds]",
        "s => [...s.options].filter(o => !o.matches(':disabled')).map(o => o.textContent.trim())",
    )


def chosen(page):
    return page.eval_on_selector(f"{FORM} select[name=move_seconds]", "s => s.options[s.selectedIndex].textContent.trim()")


def view_box(page):
    return [float(v) for v in page.get_attribute(".hexmap", "viewBox").split()]


def touch(cdp, kind, points):
    cdp.send("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": n} for n, (x, y) in enumerate(points)],
    })


def gesture(cdp, start, end, steps=8):
    """Fingers put down at ``start``, moved in steps to ``end``, lifted."""
    touch(cdp, "touchStart", start)
    for i in range(1, steps + 1):
        touch(cdp, "touchMove", [(a + (b - a) * i / steps, c + (d - c) * i / steps)
                                 for (a, c), (b, d) in zip(start, end)])
    touch(cdp, "touchEnd", [])


def test_a_phone_pinches_and_drags_the_miracle_map(browser, live_server_url, screenshot_dir):
    page = ui.new_page(browser, live_server_url, width=360, height=780, touch=True)
    ui.sign_up(page, "thumb")
    page.goto("/")
    page.select_option(f"{FORM} select[name=move_seconds]", label="30 s per decision")
    page.select_option(f"{FORM} select[name=game]", "miracle")
    assert choosable(page) == [
        "No clock", "60 s per turn", "120 s per turn", "300 s per turn",
        "10 min + 30 s per turn", "15 min + 30 s per turn", "20 min + 1 min per turn",
        "1 day per turn", "2 days per turn", "3 days per turn", "7 days per turn",
    ]
    assert chosen(page) == "No clock", "Aquawar's 30 s per decision does not follow into 神迹之战"
    page.select_option(f"{FORM} select[name=move_seconds]", label="120 s per turn")
    page.select_option(f"{FORM} select[name=game]", "aquawar")
    assert choosable(page) == [
        "No clock", "30 s per decision", "60 s per decision", "120 s per decision",
        "3 min + 5 s per decision", "5 min + 5 s per decision", "10 min + 10 s per decision",
        "1 day per decision", "2 days per decision", "3 days per decision", "7 days per decision",
    ]
    page.select_option(f"{FORM} select[name=game]", "miracle")
    assert chosen(page) == "120 s per turn"
    page.click(f"{FORM} button[type=submit]")
    page.wait_for_url("**/match/*/")
    assert "120 s per turn" in page.inner_text("main")

    # The computer's deck comes in on its own and redraws the deck form: choose after it.
    ui.wait_live(page)
    ui.wait_version(page, 1)
    test_miracle.choose_deck(page, test_miracle.HOST_DECK)
    page.click(".deck-form button[type=submit]")
    page.wait_for_selector(".deck-form", state="detached")
    # Each of the computer's commands redraws the map: touch it once the computer waits for us.
    page.wait_for_selector("#match-status[data-your-move=true]")
    page.wait_for_selector(".hexmap", state="visible")
    # In one step in the page: a redraw (a presence or clock frame) between a scroll and a measure
    # detached the element Playwright had found ("Element is not attached to the DOM").
    box = page.evaluate(
        "() => { const map = document.querySelector('.hexmap'); map.scrollIntoView({block: 'center'});"
        " const r = map.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; }"
    )
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)

    before = view_box(page)
    gesture(cdp, [(cx - 20, cy), (cx + 20, cy)], [(cx - 80, cy), (cx + 80, cy)])
    pinched = view_box(page)
    assert pinched[2] < before[2] * 0.8, (before, pinched)

    gesture(cdp, [(cx + 60, cy + 40)], [(cx - 20, cy - 20)])
    panned = view_box(page)
    assert panned[2:] == pinched[2:], "a drag keeps the zoom"
    assert panned[0] > pinched[0] and panned[1] > pinched[1], (pinched, panned)

    assert page.evaluate("document.documentElement.scrollWidth <= 360 && window.scrollX === 0")
    ui.shoot(page, screenshot_dir, "miracle-touch-zoomed-360")
