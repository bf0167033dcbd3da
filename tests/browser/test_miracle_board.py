"""The 神迹之战 board's faults of issue #29, each in a real browser: one identity per player on the
guest's page, only your own card rung, an ended match drawn with nobody to act (and an aborted one
saying so in its log), a replay that never shows a miracle below 0."""
import random
import re

import pytest

from game import services
from game.games.miracle import engine
from game.games.miracle.bots import make_bot
from game.games.miracle.game import GAME
from game.models import Match

from . import test_miracle, ui

ui.skip_without_a_browser()

# Both decks hold archers: the opponent's strip then has a card of the type the player clicks.
HOST_DECK = ("holy_light", ["archer", "swordsman", "priest"])
GUEST_DECK = ("wind_blessing", ["archer", "frost_dragon", "volcano_dragon"])


def two_players(browser, url, *, guest_width=1280):
    """Host and guest pages of a live match, both decks in: (host page, guest page, their names)."""
    host = ui.new_page(browser, url)
    guest = ui.new_page(browser, url, width=guest_width)
    names = ui.sign_up(host, "host"), ui.sign_up(guest, "guest")
    match_id, invite = test_miracle.create_miracle_match(host)
    ui.join_by_invite(guest, invite, match_id)
    ui.follow_to_match(host, match_id)
    ui.wait_live(host)
    for version, page, deck in ((0, host, HOST_DECK), (1, guest, GUEST_DECK)):
        # The other's deck coming in redraws the form: choose after it.
        ui.wait_version(page, version)
        test_miracle.choose_deck(page, deck)
        page.click(".deck-form button[type=submit]")
        ui.wait_version(page, version + 1)
    for page in (host, guest):
        ui.wait_version(page, 2)
    return host, guest, names


def mover(pages):
    """The page whose turn it is (its options are on it)."""
    for page in pages:
        page.wait_for_selector("#match-status[data-version]")
    return next(page for page in pages if test_miracle.options(page) is not None)


def test_each_player_keeps_one_identity_and_a_card_click_rings_one_card(browser, live_server_url, screenshot_dir):
    host, guest, (host_name, guest_name) = two_players(browser, live_server_url)
    # The status line draws the host ● and the guest ◆; the guest's own page agrees on the strips.
    status = guest.inner_html("#match-status .match-players")
    assert re.search(r"team-icon--a[^<]*</span> " + host_name, status)
    for page in (host, guest):
        strips = page.locator(".miracle-board .side-strip").evaluate_all(
            "ss => ss.map(s => [s.querySelector('.strip-name').textContent, s.className, "
            "s.querySelector('.team-icon').textContent])"
        )
        by_name = {name.removesuffix(" (you)"): (cls, icon) for name, cls, icon in strips}
        assert "side-strip--a" in by_name[host_name][0] and by_name[host_name][1] == "●", strips
        assert "side-strip--b" in by_name[guest_name][0] and by_name[guest_name][1] == "◆", strips
        assert page.get_attribute(".miracle--a", "data-cell") == host.get_attribute(".miracle--a", "data-cell")

    page = mover((host, guest))
    page.click('.card--mine[data-card="archer"]')
    rung = page.locator(".card--selected")
    assert rung.count() == 1 and "card--mine" in rung.get_attribute("class")
    ui.shoot(page, screenshot_dir, "miracle-card-rung-1280")


def test_an_aborted_match_shows_nobody_to_act_after_a_reload_and_says_so_in_its_log(browser, live_server_url,
                                                                                   screenshot_dir):
    page = ui.new_page(browser, live_server_url)
    ui.sign_up(page, "solo")
    page.goto("/")
    page.select_option("main form[action='/match/computer'] select[name=game]", "miracle")
    page.click("main form[action='/match/computer'] button[type=submit]")
    page.wait_for_url("**/match/*/")
    ui.wait_live(page)
    ui.wait_version(page, 1)
    test_miracle.choose_deck(page, HOST_DECK)
    page.click(".deck-form button[type=submit]")
    # Play until a creature of ours can act (summon, end the turn, the computer's turn, ours again).
    for _ in range(6):
        page.wait_for_selector("#match-status[data-your-move=true]")
        page.wait_for_selector("#miracle-play", state="attached")
        if page.locator(".token--ready").count():
            break
        play = test_miracle.options(page)
        if play["summons"]:
            cheapest = min(play["summons"], key=lambda s: s["cost"])
            version = ui.version(page)
            # Through the folded "Moves as lists" form: this test is about what the page shows after.
            page.eval_on_selector(f'.summon-form[data-type="{cheapest["type"]}"]',
                                  "(f, level) => { f.elements.level.value = level; f.requestSubmit(); }",
                                  str(cheapest["level"]))
            ui.wait_version(page, version + 1)
        version = ui.version(page)
        page.eval_on_selector("#end-turn-form", "f => f.requestSubmit()")
        ui.wait_version(page, version + 1)
    assert page.locator(".token--ready").count() and page.locator(".side-strip--to-move").count()
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#match-opponent .fairness-form button")
    page.wait_for_selector("#match-status[data-status=aborted]")
    for reloaded in (False, True):
        if reloaded:
            page.reload()
            page.wait_for_selector("#match-status[data-status=aborted]")
        assert page.locator(".token--ready").count() == 0, reloaded
        assert page.locator(".side-strip--to-move").count() == 0, reloaded
        assert page.locator("#match-log li").last.inner_text().startswith("This match was aborted"), reloaded
    ui.shoot(page, screenshot_dir, "miracle-aborted-1280")


@pytest.fixture
def finished_match(host, guest, transactional_db):
    """A 神迹之战 match two greedy bots played to its end through the services: its last attack takes
    the loser's miracle below 0 (made before the browser starts: the test makes no database calls)."""
    match = services.join_match(services.create_match(host, game="miracle"), guest)
    rng, bots, users = random.Random(1), (make_bot("greedy"), make_bot("greedy")), (host, guest)
    while (current := Match.objects.get(pk=match.pk)).status == Match.Status.LIVE:
        state = GAME.load(current.state)
        seat = engine.to_move(state)[0]
        command = bots[seat].choose(engine.view(state, seat), [], engine.legal_commands(state, seat), seat, rng)
        services.apply_command(match.pk, users[seat], f"c{current.version}", current.version, command)
    state = GAME.load(Match.objects.get(pk=match.pk).state)
    assert min(state.miracle_hp) < 0, state.miracle_hp
    return match


def test_the_replay_never_shows_a_miracle_below_zero(finished_match, browser, live_server_url, screenshot_dir):
    page = ui.new_page(browser, live_server_url)
    page.goto(f"/match/{finished_match.pk}/replay/?as=all")
    page.wait_for_selector("#replay:not([hidden]) .hexmap")
    page.click('[data-go="last"]')
    shown = page.locator(".miracle-replay text.miracle-hp").evaluate_all("ts => ts.map(t => t.textContent)")
    assert sorted(int(v) for v in shown)[0] == 0, shown
    strips = page.locator(".miracle-replay .side-strip .fact").all_inner_texts()
    assert "Miracle 0/30" in strips and not any("-" in s for s in strips), strips
    ui.shoot(page, screenshot_dir, "miracle-replay-end-1280")
