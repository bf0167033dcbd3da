"""Steps a person takes on the site, for the browser tests: sign up, create, join, pick, move."""
import json
import os
import shutil
import uuid

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
PASSWORD = "correct horse battery staple"
TIMEOUT_MS = 15_000
# The pitches static/game/attention.js plays (it writes them on the page, for these tests).
SOUND_TURN = "660 880"
SOUNDS_END = ("523 659 784 1047", "784 659 523")


def skip_without_a_browser():
    """Module-level skip, with the reason, where the tests can't run at all."""
    pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    if not CHROMIUM:
        pytest.skip(
            "no Chromium (looked for $CHROMIUM, chromium, chromium-browser): the browser tests need Debian's "
            "chromium (apt-get install chromium); .ci/run installs it",
            allow_module_level=True,
        )


# Every Content-Security-Policy violation any page of the running test reported in its console
# (Chromium logs each one there: "Refused to execute inline script because it violates …");
# tests/browser/conftest.py fails the test on any.
CSP_VIOLATIONS = []


def report_csp_violations(message):
    if "Content Security Policy" in message.text:
        CSP_VIOLATIONS.append(f"{message.page.url if message.page else '?'}: {message.text}")


def new_page(browser, base_url, *, width=1280, height=900, locale="en-US", touch=False):
    context = browser.new_context(
        base_url=base_url, viewport={"width": width, "height": height}, locale=locale, has_touch=touch
    )
    context.set_default_timeout(TIMEOUT_MS)
    context.on("console", report_csp_violations)
    return context.new_page()


def shoot(page, folder, name):
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def assert_one_screen(page):
    """The match fits the window: nothing to scroll to, down or sideways (the site's own footer,
    the language switch, may lie below)."""
    bottom, width = page.evaluate(
        "() => [document.querySelector('.match-page').getBoundingClientRect().bottom + scrollY,"
        " document.documentElement.scrollWidth]"
    )
    size = page.viewport_size
    assert bottom <= size["height"] and width <= size["width"], (bottom, width, size)


def sign_up(page, prefix):
    """A new account, logged in; returns its name."""
    name = f"{prefix}{uuid.uuid4().hex[:6]}"
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_selector(f".site-nav__user:text-is('{name}')")
    return name


def create_match(page, move_seconds=None):
    """A new public match from the lobby: (its id, its invite link). ``move_seconds``: the time
    control to choose, an Aquawar one (else the form's default, casual)."""
    page.goto("/")
    page.check("input[name=visibility][value=open]")
    if move_seconds is not None:
        value = f"aquawar:{move_seconds}" if move_seconds else "0"
        page.select_option("main form[action='/match/new'] select[name=move_seconds]", value)
    page.click("main form[action='/match/new'] button[type=submit]")
    link = page.locator("input.invite-link").first
    invite = link.input_value()
    match_id = int(link.get_attribute("id").removeprefix("invite-"))
    return match_id, invite


def join_by_invite(page, invite, match_id):
    page.goto(invite)
    page.click("main form button[type=submit]")
    page.wait_for_url(f"**/match/{match_id}/")
    wait_live(page)


def follow_to_match(page, match_id):
    """Bring a host waiting in the lobby to its match. The lobby's socket takes it there by itself
    once the guest is in (if it was up in time); going there at the same moment would race that
    navigation and abort one of the two."""
    try:
        page.wait_for_url(f"**/match/{match_id}/", timeout=5_000)
    except PlaywrightTimeout:
        page.goto(f"/match/{match_id}/")


def wait_live(page):
    page.wait_for_selector("#match-connection[data-state=open]")


def version(page):
    return int(page.get_attribute("#match-status", "data-version"))


def wait_version(page, at_least):
    page.wait_for_function(
        "v => Number(document.querySelector('#match-status').dataset.version) >= v", arg=at_least
    )


def choose(page, species):
    """Click the species' cards in the pick form, in the order given."""
    for s in species:
        page.click(f".pick-card:has(input[value={s}]) .pick-card__label")


def pick(page, species, mimic=None):
    """Choose a team in the order given and lock it in."""
    choose(page, species)
    if mimic:
        page.select_option(".mimic-choice select", mimic)
    names = page.locator(".pick-slot__name").all_inner_texts()
    assert len(names) == len(species), names
    page.click(".pick-form button[type=submit]")


def pick_any(page):
    """The last four species still offered, clicked from the end of the roster."""
    offered = page.locator(".pick-check").evaluate_all("boxes => boxes.map(b => b.value)")
    team = list(reversed(offered))[:4]
    mimic = None
    if "mimic_fish" in team:
        mimic = next(s for s in page.locator(".mimic-choice option").evaluate_all("o => o.map(x => x.value)") if s)
    pick(page, team, mimic)


def best_move(page):
    """The legal move to play (read from the move list): a skill aimed at an enemy, else one that hits them all, else an
    attack on the weakest enemy (the shortest way to finish a match)."""
    enemy_hp = page.locator(".team:not(.team--own) .fish").evaluate_all(
        "fish => fish.map(f => Number(f.querySelector('.hp').getAttribute('aria-valuenow')))"
    )
    moves = [json.loads(v) for v in page.locator("input[name=move]").evaluate_all("r => r.map(x => x.value)")]

    def score(move):
        if move["kind"] == "skill" and "enemy" in move:
            return (3, -enemy_hp[move["enemy"]])
        if move["kind"] == "skill" and "ally" not in move:
            return (2, 0)
        if move["kind"] == "attack":
            return (1, -enemy_hp[move["enemy"]])
        return (0, 0)

    return max(moves, key=score)


def fish(own, pos):
    team = ".team--own" if own else ".team:not(.team--own)"
    return f"{team} .fish[data-pos='{pos}'] .fish-picture"


def act(page, move):
    """Play ``move`` on the board, by clicking: the fish, its kind of move, then its targets."""
    page.click(fish(True, move["actor"]))
    page.click(f".fish-menu button[data-kind={move['kind']}]")
    if "ally" in move:
        page.click(fish(True, move["ally"]))
    if "enemy" in move:
        page.click(fish(False, move["enemy"]))
    if "ally" not in move and "enemy" not in move:
        page.click(".fish-menu__use")


def act_by_keys(page, move):
    """Play ``move`` with the keyboard only: the fish's number, K for a skill, the targets'
    numbers, Enter."""
    page.keyboard.press(str(move["actor"] + 1))
    if move["kind"] == "skill":
        page.keyboard.press("k")
    for key in ("ally", "enemy"):
        if key in move:
            page.keyboard.press(str(move[key] + 1))
    page.keyboard.press("Enter")


def name_fish(page, target, species):
    """An assertion on the board: click the hidden enemy, its species in the grid, then confirm."""
    page.click(fish(False, target))
    page.click(f".assert-species[data-species={species}]")
    page.click(".assert-confirm")


def play_one_step(page, keys=False):
    """Whatever this page's controls ask for now, on the board (by keyboard if ``keys``); False
    when they ask for nothing."""
    if page.locator(".pick-form").count():
        pick_any(page)
    elif page.locator(".skip-form").count():
        if keys:
            page.keyboard.press("s")
        else:
            page.click(".skip-form button")
    elif page.locator(".act-form").count():
        (act_by_keys if keys else act)(page, best_move(page))
    else:
        return False
    return True


def clock_of(page, side):
    """The clock on ``side``'s team of the match page."""
    return page.locator(f".team[data-side='{side}'] .clock")


def seconds_left(page, side):
    minutes, seconds = clock_of(page, side).locator(".clock-time").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)
