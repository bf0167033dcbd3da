"""Steps a person takes on the site, for the browser tests: sign up, create, join, pick, move."""
import json
import os
import shutil
import uuid

import pytest

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
PASSWORD = "correct horse battery staple"
TIMEOUT_MS = 15_000


def skip_without_a_browser():
    """Module-level skip, with the reason, where the tests can't run at all."""
    pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    if not CHROMIUM:
        pytest.skip(
            "no Chromium (looked for $CHROMIUM, chromium, chromium-browser): the browser tests need Debian's "
            "chromium (apt-get install chromium); .ci/run installs it",
            allow_module_level=True,
        )


def new_page(browser, base_url, *, width=1280, height=900, locale="en-US"):
    context = browser.new_context(base_url=base_url, viewport={"width": width, "height": height}, locale=locale)
    context.set_default_timeout(TIMEOUT_MS)
    return context.new_page()


def shoot(page, folder, name):
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


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
    control to choose (else the form's default, casual)."""
    page.goto("/")
    page.check("input[name=visibility][value=open]")
    if move_seconds is not None:
        page.select_option("main form[action='/match/new'] select[name=move_seconds]", str(move_seconds))
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
    """The radio to choose: a skill aimed at an enemy, else one that hits them all, else an
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


def act(page, move):
    value = json.dumps(move, separators=(",", ":"))
    radio = page.locator(f"input[name=move][value='{value}']")
    radio.check()
    radio.locator("xpath=ancestor::form").locator("button[type=submit]").click()


def play_one_step(page):
    """Whatever this page's controls ask for now; False when they ask for nothing."""
    if page.locator(".pick-form").count():
        pick_any(page)
    elif page.locator(".skip-form").count():
        page.click(".skip-form button")
    elif page.locator(".act-form").count():
        act(page, best_move(page))
    else:
        return False
    return True
