"""Everyone can play (issue #29, docs/accessibility.md): Aquawar start to finish with the keyboard
alone, the focus handed to each step's first control, Enter confirming a move, and every page of
the site checked by axe-core in both languages at desktop and phone widths (every browser test's
pages are checked too: conftest.py, ui.audit)."""
import json

from . import ui

ui.skip_without_a_browser()

COMPUTER = "main form[action='/match/computer']"
# The next step's first control, which the focus goes to after every step (aquawar/board.js).
STEP_CONTROL = ".pick-check, .fish--choice .fish-picture[role=button], .skip-form button, .assert-species, #match-controls"
# A contrast of at least 3:1 against the page for the marks that must be seen (WCAG 1.4.11).
CONTRAST = """([mark, ground]) => {
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = rgb(c).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [a, b] = [lum(mark), lum(ground)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


# Every kind of page of the site, for a logged-in person ({name}: theirs, {match}: a finished match).
PAGES = (
    "/", "/games/", "/history/", "/match/{match}/", "/match/{match}/summary/", "/match/{match}/replay/",
    "/users/{name}/", "/users/{name}/history/", "/tournaments/", "/leaderboard/", "/ladder/aquawar/",
    "/games/aquawar/how-to-play/", "/games/miracle/how-to-play/", "/accounts/notifications/",
    "/accounts/password/", "/records/import/",
)
# And for someone not logged in.
PUBLIC_PAGES = ("/", "/accounts/login/", "/accounts/signup/", "/history/", "/match/{match}/replay/")
# (language, width): both languages and both widths, each page twice rather than four times.
VIEWS = (("en-US", 1280), ("zh-CN", 360))


def focused(page, selector):
    return page.evaluate("s => document.activeElement.matches(s)", selector)


def tab_to(page, selector, back=False):
    """Tab (or Shift+Tab) until the focus is on ``selector``, as a person would."""
    for _ in range(120):
        if focused(page, selector):
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"Tab never reached {selector}; the focus is on {focus_of(page)}")


def focus_of(page):
    return page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)")


def wait_for_step(page):
    """Our move (or the end), and the focus given to its first control, not dropped on <body>."""
    page.wait_for_selector("#match-status[data-your-move=true], #match-status[data-status=finished]")
    if page.get_attribute("#match-status", "data-status") == "finished":
        return False
    page.wait_for_function("s => document.activeElement.matches(s) && !document.activeElement.matches('#match-controls')",
                           arg=STEP_CONTROL)
    return True


def pick_by_keys(page):
    """Space on the first four species offered (the focus starts on the first), then Enter on the
    lock-in button."""
    assert focused(page, ".pick-check"), focus_of(page)
    for n in range(4):
        if n:
            tab_to(page, ".pick-check:not(:checked)")
        page.keyboard.press("Space")
    tab_to(page, ".pick-form button[type=submit]")
    version = ui.version(page)
    page.keyboard.press("Enter")
    ui.wait_version(page, version + 1)


def fish_button(own, pos):
    return f"{'.team--own' if own else '.team:not(.team--own)'} .fish[data-pos='{pos}'] .fish-picture[role=button]"


def act_by_focus(page, move, confirm_on_toggle=False):
    """Play ``move`` with Tab and Enter: the actor, its kind in its menu, its targets.
    ``confirm_on_toggle``: point at the enemy with its number key, then press Enter with the focus
    on the Attack toggle (which must send the move, not start the choice again)."""
    tab_to(page, fish_button(True, move["actor"]))
    page.keyboard.press("Enter")
    if move["kind"] == "skill":
        tab_to(page, ".fish-menu button[data-kind=skill]", back=True)
        page.keyboard.press("Enter")
        assert page.get_attribute(".fish-menu button[data-kind=skill]", "aria-pressed") == "true"
    if confirm_on_toggle:
        page.keyboard.press(str(move["enemy"] + 1))
        assert focused(page, fish_button(False, move["enemy"])), focus_of(page)
        tab_to(page, ".fish-menu button[data-kind=attack]", back=True)
        page.keyboard.press("Enter")
        return
    targets = [(own, move[key]) for own, key in ((True, "ally"), (False, "enemy")) if key in move]
    for own, pos in targets:
        tab_to(page, fish_button(own, pos))
        page.keyboard.press("Enter")
    if not targets:
        assert focused(page, ".fish-menu__use"), focus_of(page)
        page.keyboard.press("Enter")


def assert_by_focus(page):
    """Name the first hidden enemy (the focus is on it) as the first species offered."""
    assert focused(page, ".team:not(.team--own) .fish--choice .fish-picture"), focus_of(page)
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert "Hidden fish" in label and "HP" in label, label
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.matches('.assert-species')")
    page.keyboard.press("Enter")
    assert focused(page, ".assert-confirm:not(:disabled)"), focus_of(page)
    page.keyboard.press("Enter")


def test_aquawar_is_played_start_to_finish_with_the_keyboard_alone(browser, live_server_url, screenshot_dir):
    page = ui.new_page(browser, live_server_url)
    ui.sign_up(page, "keys")
    page.goto("/")
    page.check(f"{COMPUTER} input[name=level][value=random]")
    page.click(f"{COMPUTER} button[type=submit]")
    page.wait_for_url("**/match/*/")
    ui.wait_live(page)
    match_id = int(page.url.rstrip("/").rsplit("/", 1)[1])

    page.evaluate("() => { document.getElementById('match-announcer').dataset.since = 'load'; }")
    # From here on, only keys. The first one reaches the roster past the page's header.
    tab_to(page, ".pick-check")
    pick_by_keys(page)
    moves = asserted = toggled = 0
    while wait_for_step(page):
        version = ui.version(page)
        if page.locator(".pick-form").count():
            pick_by_keys(page)
            continue
        if page.locator(".skip-form").count():
            if not asserted and page.locator(".assert-pick").count():
                assert_by_focus(page)
                asserted += 1
            else:
                tab_to(page, ".skip-form button")
                page.keyboard.press("Enter")
        else:
            move = ui.best_move(page)
            want_toggle = not toggled and page.locator(".act-form input[name=move][value*=attack]").count()
            if want_toggle:
                move = json.loads(page.locator(".act-form input[name=move][value*=attack]").first.input_value())
            if moves == 0:
                ui.shoot(page, screenshot_dir, "keyboard-act-1280")
            act_by_focus(page, move, confirm_on_toggle=want_toggle)
            toggled += want_toggle
            moves += 1
        ui.wait_version(page, version + 1)
    assert page.get_attribute("#match-status", "data-status") == "finished"
    assert moves and asserted and toggled, (moves, asserted, toggled)
    ui.shoot(page, screenshot_dir, "keyboard-finished-1280")
    # Each move was told in the one live region, which stayed in place all along; the last lines it
    # said are the log's last (their names shown now that the match is over).
    assert page.get_attribute("#match-announcer", "data-since") == "load"
    said = [line.strip() for line in page.locator("#match-announcer span").all_text_contents()]
    log = page.locator("#match-log .log-text").all_text_contents()
    assert said and said[-1] == log[-1].strip(), (said, log[-8:])
    assert page.get_attribute("#match-log", "tabindex") == "0"
    assert f"/match/{match_id}/" in page.url


def test_the_marks_that_must_be_seen_stand_out_from_the_page(browser, live_server_url):
    """The focus ring, the "to move" frame and a chosen fish's ring: 3:1 or more against their
    ground (they were amber at about 2:1)."""
    page = ui.new_page(browser, live_server_url)
    ui.sign_up(page, "marks")
    page.goto("/")
    page.click(f"{COMPUTER} button[type=submit]")
    page.wait_for_url("**/match/*/")
    ui.wait_live(page)
    ui.pick_any(page)
    page.wait_for_selector(".fish--choice")
    ground = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    card = page.evaluate("() => getComputedStyle(document.querySelector('.team')).backgroundColor")
    frame = page.evaluate("() => getComputedStyle(document.querySelector('.team--to-move')).boxShadow")
    assert page.evaluate(CONTRAST, [frame, ground]) >= 3, frame
    tab_to(page, ".fish--choice .fish-picture")
    lit = page.evaluate("() => getComputedStyle(document.activeElement.closest('.fish')).outlineColor")
    assert page.evaluate(CONTRAST, [lit, card]) >= 3, lit
    tab_to(page, ".resign-form button")
    ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineColor")
    assert page.evaluate(CONTRAST, [ring, ground]) >= 3, ring
    if page.locator(".act-form").count():
        tab_to(page, ".fish--choice .fish-picture")
        page.keyboard.press("Enter")
        chosen = page.evaluate("() => getComputedStyle(document.querySelector('.fish--actor')).outlineColor")
        assert page.evaluate(CONTRAST, [chosen, card]) >= 3, chosen


def visit(page, path):
    page.goto(path)
    if "/replay/" in path:
        page.wait_for_selector("#replay:not([hidden])")
        page.click("[data-go=next-turn]")
    elif path.startswith("/match/") and path.count("/") == 3:
        ui.wait_live(page)
    ui.audit(page)


def test_every_page_of_the_site_passes_axe_in_both_languages_on_desktop_and_phone(browser, live_server_url):
    page = ui.new_page(browser, live_server_url)
    name = ui.sign_up(page, "tour")
    page.goto("/")
    page.check(f"{COMPUTER} input[name=level][value=random]")
    page.click(f"{COMPUTER} button[type=submit]")
    page.wait_for_url("**/match/*/")
    ui.wait_live(page)
    match_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    ui.pick_any(page)
    page.wait_for_selector("#match-board .fish")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click(".resign-form button")
    page.wait_for_selector("#match-status[data-status=finished]")

    for locale, width in VIEWS:
        person = ui.new_page(browser, live_server_url, width=width, locale=locale)
        person.goto("/accounts/login/")
        person.fill("input[name=username]", name)
        person.fill("input[name=password]", ui.PASSWORD)
        person.click("main form button[type=submit]")
        person.wait_for_selector(f".site-nav__user:text-is('{name}')")
        for path in PAGES:
            visit(person, path.format(name=name, match=match_id))
        stranger = ui.new_page(browser, live_server_url, width=width, locale=locale)
        for path in PUBLIC_PAGES:
            visit(stranger, path.format(match=match_id))
    assert not ui.A11Y_VIOLATIONS, "\n".join(ui.A11Y_VIOLATIONS)
