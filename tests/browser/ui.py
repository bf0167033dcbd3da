"""Steps a person takes on the site, for the browser tests: sign up, create, join, pick, move."""
import json
import os
import shutil
import threading
import uuid

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
PASSWORD = "correct horse battery staple"
TIMEOUT_MS = 15_000
# The pitches static/game/attention.js plays (it writes them on the page, for these tests).
SOUND_TURN = "660 880"
SOUNDS_END = ("523 659 784 1047", "784 659 523")


def off_playwrights_thread(work):
    """``work()``'s result (or its exception), run in a thread of its own: Django refuses database
    calls in the thread where Playwright's event loop runs. The thread's connection is closed after."""
    from django.db import connection

    outcome = []

    def run():
        try:
            outcome.append((True, work()))
        except BaseException as error:  # re-raised in the test's own thread
            outcome.append((False, error))
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    succeeded, value = outcome[0]
    if not succeeded:
        raise value
    return value


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


# Accessibility (docs/accessibility.md): axe-core checks each distinct state of every page a test
# visits, once per test: the state a page is in when the test goes elsewhere with ``page.goto``,
# when a helper here has it arrive (a match page once live, the sign-up form), at each screenshot,
# and every open page's at the end of the test. (Auditing from Playwright's navigation or load
# events would run alongside the test's own steps and race them.) A serious or critical violation
# fails the test (conftest.py, ``browser``) with the rule, the nodes and the page.
A11Y_VIOLATIONS = []
A11Y_FAILING = ("serious", "critical")
# Each page state audited in the running test (see PAGE_STATE), and the pages being audited now (a
# page navigating by itself during a screenshot's audit is not audited twice at once).
_audited = set()
_auditing = set()
# What makes two moments of a page different states worth checking apart: its address, language and
# width, the match's status, and which forms, panels, menus and pressed or open controls it shows.
# Fish HP and log lines don't count: checking after every move would double the suite's time.
PAGE_STATE = """() => {
  const parts = document.querySelectorAll("form, [data-board-play], .fish-menu, [aria-pressed=true]," +
    " [aria-expanded=true], details[open], dialog[open], [role=dialog]:not([hidden]), .assert-pick:not([hidden])");
  const kinds = new Set(Array.from(parts, e => e.tagName + "." + (e.classList[0] || "") + (e.dataset.boardPlay || "")));
  const status = document.querySelector("[data-status]");
  return [location.pathname + location.search, document.documentElement.lang, innerWidth,
    status ? status.dataset.status : "", ...Array.from(kinds).sort()].join(" ");
}"""
AXE_OPTIONS = {"resultTypes": ["violations"]}
# Colours are judged once the page's brief animations (the marks of a move fading in) are over, at
# most 3 s later; endless ones (a clock's pulse) are not waited for.
RUN_AXE = """async options => {
  const brief = document.getAnimations().filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
  await Promise.race([Promise.all(brief.map(a => a.finished.catch(() => null))), new Promise(r => setTimeout(r, 3000))]);
  return axe.run(document, options);
}"""


def reset_audits():
    A11Y_VIOLATIONS.clear()
    _audited.clear()


def audit(page):
    """Run axe-core on ``page`` as it is now, unless this state of it was checked in this test."""
    from axe_playwright_python.base import AXE_SCRIPT

    if page.is_closed() or not page.url.startswith("http") or page in _auditing:
        return
    _auditing.add(page)
    try:
        state = page.evaluate(PAGE_STATE)
        if state in _audited:
            return
        # Injected through the debugging protocol, which the page's Content-Security-Policy doesn't
        # govern: the site's own scripts stay held to it.
        if not page.evaluate("() => Boolean(window.axe)"):
            page.evaluate(AXE_SCRIPT)
        results = page.evaluate(RUN_AXE, AXE_OPTIONS)
        _audited.add(state)
    except PlaywrightError:
        return  # the page closed or went elsewhere meanwhile: its next state gets checked instead
    finally:
        _auditing.discard(page)
    for violation in results["violations"]:
        if violation["impact"] in A11Y_FAILING:
            A11Y_VIOLATIONS.append(describe_violation(violation, state))


def describe_violation(violation, state):
    nodes = "".join(
        f"\n    {' '.join(map(str, node['target']))}: {node['html'][:160]}"
        f"\n      {node.get('failureSummary', '').replace(chr(10), ' ')[:300]}"
        for node in violation["nodes"][:8]
    )
    more = len(violation["nodes"]) - 8
    return (
        f"[{violation['impact']}] {violation['id']}: {violation['help']} ({violation['helpUrl']})"
        f"\n  on {state}{nodes}" + (f"\n    … and {more} more" if more > 0 else "")
    )


def watch(page):
    """Audit the page ``page.goto`` leaves, before it goes."""
    go = page.goto

    def goto(*args, **kwargs):
        audit(page)
        return go(*args, **kwargs)

    page.goto = goto
    return page


def audit_everything_left_open(browser):
    for context in browser.contexts:
        for page in context.pages:
            audit(page)


def new_page(browser, base_url, *, width=1280, height=900, locale="en-US", touch=False):
    context = browser.new_context(
        base_url=base_url, viewport={"width": width, "height": height}, locale=locale, has_touch=touch
    )
    context.set_default_timeout(TIMEOUT_MS)
    context.on("console", report_csp_violations)
    context.on("page", watch)
    return watch(context.new_page())


def shoot(page, folder, name):
    audit(page)
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
    audit(page)
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
    audit(page)


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
